// Window and convolution geometry shared by the verifier and the kernels of reduce_window,
// select_and_scatter and convolution: reading their attributes and computing output shapes.
// Every failure throws CpuError naming the attribute.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "ir/ir.h"

namespace tpjrt::cpu {

// A window over an operand of some rank: one entry per dimension.
struct Window {
  std::vector<int64_t> size, stride, baseDilation, windowDilation, padLow, padHigh;
};

// The window of reduce_window / select_and_scatter over an operand of `rank` dimensions; absent
// optional attributes default to 1 (strides, dilations) and 0 (padding).
Window readWindow(const Op& op, size_t rank);

// The result dimensions of sliding `w` over `dims` (0 where the window does not fit).
std::vector<int64_t> windowOutputDims(const std::vector<int64_t>& dims, const Window& w);

// For output index `o` and window offset `k` along one dimension: the operand index read, or -1 for padding.
inline int64_t windowSource(const Window& w, size_t d, int64_t o, int64_t k, int64_t inSize) {
  int64_t q = o * w.stride[d] + k * w.windowDilation[d] - w.padLow[d];
  if (q < 0 || q % w.baseDilation[d] != 0) return -1;
  q /= w.baseDilation[d];
  return q < inSize ? q : -1;
}

// For every window offset (row-major over the window) and every output element (row-major): the flat
// operand index it reads, or -1 for padding. forEachWindowOffset calls `fn` with one row
// (numElements(outDims) entries) per offset, in order; windowSources collects them all.
void forEachWindowOffset(const std::vector<int64_t>& inDims, const std::vector<int64_t>& outDims, const Window& w,
                         const std::function<void(const std::vector<int64_t>&)>& fn);
std::vector<std::vector<int64_t>> windowSources(const std::vector<int64_t>& inDims, const std::vector<int64_t>& outDims,
                                                const Window& w);

// convolution's dimension_numbers: which dimension of lhs, rhs and result plays which part.
struct ConvDims {
  int64_t inBatch = 0, inFeature = 1, kernelIn = 1, kernelOut = 0, outBatch = 0, outFeature = 1;
  std::vector<int64_t> inSpatial, kernelSpatial, outSpatial;
};

// Parses `#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>` (also without the `#stablehlo.conv<>`
// wrapper, as the pretty form writes it) and `#stablehlo.conv<raw input_batch_dimension = 0, …>`.
ConvDims parseConvDims(const Attribute& attr, size_t rank);

// The convolution's attributes, with defaults for the optional ones; one entry per spatial dimension.
struct ConvParams {
  ConvDims dims;
  std::vector<int64_t> stride, padLow, padHigh, lhsDilation, rhsDilation;
  std::vector<bool> reversal;
  int64_t featureGroups = 1, batchGroups = 1;
};
ConvParams readConvParams(const Op& op, size_t rank);

// The result type of a convolution of lhs and rhs with lhs's element type (a result may have another);
// throws on any mismatch.
TensorType convOutputType(const TensorType& lhs, const TensorType& rhs, const ConvParams& p);

}  // namespace tpjrt::cpu
