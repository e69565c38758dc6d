// convolution: both operands are first transposed to [batch, feature, spatial…] and
// [out feature, in feature, spatial…]; for each kernel offset a table gives the input position each
// output position reads (or none, for padding and lhs-dilation holes). Float types then go through the
// GEMM (kernels/convolution_gemm.h); the rest, and convolutions with both group counts above 1, through a
// direct loop that accumulates in the element type (integers wrap, i1 as or-of-ands). A result of
// another element type is computed in the more precise of the two (mostPrecise) and converted once.
#include <algorithm>

#include "ir/window_geometry.h"
#include "kernels/convolution_gemm.h"
#include "kernels/kernels.h"

namespace tpjrt::cpu {

namespace {

template <class S>
void convolve(const Literal& x, const Literal& w, const ConvParams& p, const std::vector<int64_t>& outSpatial,
              const std::vector<std::vector<int64_t>>& sources, int64_t outBatch, Literal& out) {
  using C = ComputeOf<S>;
  const int64_t features = x.type.dims[1], kernelIn = w.type.dims[1], kernelOut = w.type.dims[0];
  const int64_t inPlane = numElements({ElementType::F32, {x.type.dims.begin() + 2, x.type.dims.end()}});
  const int64_t kernelCount = int64_t(sources.size());
  const int64_t outPlane = numElements({ElementType::F32, outSpatial});
  const int64_t outPerFeatureGroup = kernelOut / p.featureGroups, outPerBatchGroup = kernelOut / p.batchGroups;
  const S* xs = elements<S>(x);
  const S* ws = elements<S>(w);
  S* os = elements<S>(out);
  std::vector<C> acc(static_cast<size_t>(outPlane));
  for (int64_t n = 0; n < outBatch; ++n) {
    for (int64_t o = 0; o < kernelOut; ++o) {
      const int64_t group = o / outPerFeatureGroup;
      const int64_t inBatch = (o / outPerBatchGroup) * outBatch + n;
      std::fill(acc.begin(), acc.end(), C(0));
      for (int64_t ci = 0; ci < kernelIn; ++ci) {
        const S* plane = xs + (inBatch * features + group * kernelIn + ci) * inPlane;
        const S* taps = ws + (o * kernelIn + ci) * kernelCount;
        for (int64_t k = 0; k < kernelCount; ++k) {
          const C tap = Num<S>::load(taps[k]);
          const int64_t* src = sources[size_t(k)].data();
          for (int64_t j = 0; j < outPlane; ++j) {
            if (src[j] < 0) continue;
            const C v = Num<S>::load(plane[src[j]]);
            if constexpr (std::is_same_v<C, bool>) acc[size_t(j)] = acc[size_t(j)] || (tap && v);
            else if constexpr (std::is_integral_v<C>) acc[size_t(j)] = C(Wide<C>(acc[size_t(j)]) + Wide<C>(tap) * Wide<C>(v));
            else acc[size_t(j)] += tap * v;
          }
        }
      }
      S* dst = os + (n * kernelOut + o) * outPlane;
      for (int64_t j = 0; j < outPlane; ++j) dst[j] = Num<S>::store(acc[size_t(j)]);
    }
  }
}

}  // namespace

Literal convolutionKernel(const Op& op, const Operands& in, const TensorType& result) {
  return convolution(op, in, result, true);
}

Literal convolution(const Op& op, const Operands& in, const TensorType& result, bool allowGemm) {
  const Literal& lhs = *in[0];
  const Literal& rhs = *in[1];
  const size_t rank = lhs.type.dims.size();
  const ConvParams p = readConvParams(op, rank);
  const ConvDims& d = p.dims;
  if (convOutputType(lhs.type, rhs.type, p).dims != result.dims)
    fail("result " + typeString(result) + " does not fit the operands " + typeString(lhs.type) + " and " + typeString(rhs.type));
  // A result type other than the operands' (i8 x i8 -> i32): both are converted to the more precise first.
  const ElementType compute = mostPrecise(lhs.type.element, result.element);

  std::vector<int64_t> lhsPerm{d.inBatch, d.inFeature}, rhsPerm{d.kernelOut, d.kernelIn}, outPerm{d.outBatch, d.outFeature};
  lhsPerm.insert(lhsPerm.end(), d.inSpatial.begin(), d.inSpatial.end());
  rhsPerm.insert(rhsPerm.end(), d.kernelSpatial.begin(), d.kernelSpatial.end());
  outPerm.insert(outPerm.end(), d.outSpatial.begin(), d.outSpatial.end());
  const Literal x = convertLiteral(transposeLiteral(lhs, lhsPerm), compute);
  const Literal w = convertLiteral(transposeLiteral(rhs, rhsPerm), compute);

  // The kernel as a window over the input's spatial dimensions; reversal flips the window offsets.
  Window win;
  std::vector<int64_t> inSpatial, outSpatial;
  for (size_t i = 0; i < d.inSpatial.size(); ++i) {
    inSpatial.push_back(x.type.dims[2 + i]);
    outSpatial.push_back(result.dims[size_t(d.outSpatial[i])]);
  }
  win.size.assign(w.type.dims.begin() + 2, w.type.dims.end());
  win.stride = p.stride;
  win.baseDilation = p.lhsDilation;
  win.windowDilation = p.rhsDilation;
  win.padLow = p.padLow;
  win.padHigh = p.padHigh;
  std::vector<std::vector<int64_t>> sources = windowSources(inSpatial, outSpatial, win);
  if (std::find(p.reversal.begin(), p.reversal.end(), true) != p.reversal.end()) {
    // Kernel element k is applied at window offset reverse(k) along the reversed dimensions.
    std::vector<std::vector<int64_t>> reordered(sources.size());
    const auto strides = rowMajorStrides(win.size);
    for (size_t k = 0; k < sources.size(); ++k) {
      int64_t flipped = 0, rest = int64_t(k);
      for (size_t i = 0; i < win.size.size(); ++i) {
        int64_t idx = rest / strides[i];
        rest %= strides[i];
        flipped += (p.reversal[i] ? win.size[i] - 1 - idx : idx) * strides[i];
      }
      reordered[k] = sources[size_t(flipped)];
    }
    sources = std::move(reordered);
  }

  TensorType computedType{compute, {result.dims[size_t(d.outBatch)], result.dims[size_t(d.outFeature)]}};
  computedType.dims.insert(computedType.dims.end(), outSpatial.begin(), outSpatial.end());
  Literal computed = makeLiteral(computedType);
  if (!allowGemm || !convolveByGemm(x, w, p, sources, computedType.dims[0], computed))
    dispatchType(compute, [&](auto tag) {
      convolve<decltype(tag)>(x, w, p, outSpatial, sources, computedType.dims[0], computed);
    });
  std::vector<int64_t> inverse(rank);
  for (size_t i = 0; i < rank; ++i) inverse[size_t(outPerm[i])] = int64_t(i);
  return convertLiteral(transposeLiteral(computed, inverse), result.element);
}

}  // namespace tpjrt::cpu
