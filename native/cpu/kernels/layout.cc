// Data movement: iota, broadcast_in_dim, reshape, transpose, slice, dynamic_slice,
// dynamic_update_slice, concatenate, pad and reverse. Apart from iota these only move bytes.
#include <algorithm>

#include "base/thread_pool.h"

#include "kernels/kernels.h"
#include "kernels/views.h"

namespace tpjrt::cpu {

namespace {

// Start indices from the scalar operands in[first…], clamped so that a box of `sizes` fits in `dims`.
std::vector<int64_t> clampedStarts(const Operands& in, size_t first, const std::vector<int64_t>& dims,
                                   const std::vector<int64_t>& sizes) {
  if (in.size() != first + dims.size()) fail("expects one start index per dimension");
  std::vector<int64_t> starts(dims.size());
  for (size_t d = 0; d < dims.size(); ++d) {
    if (sizes[d] > dims[d]) fail("slice size exceeds the operand dimension");
    starts[d] = std::clamp<int64_t>(readIndex(*in[first + d]), 0, dims[d] - sizes[d]);
  }
  return starts;
}

}  // namespace

Literal iotaKernel(const Op& op, const Operands& in, const TensorType& result) {
  const auto dim = size_t(intAttr(op, "iota_dimension"));
  if (dim >= result.dims.size()) fail("iota_dimension out of range");
  int64_t outer = 1, inner = 1;
  for (size_t d = 0; d < dim; ++d) outer *= result.dims[d];
  for (size_t d = dim + 1; d < result.dims.size(); ++d) inner *= result.dims[d];
  const int64_t count = result.dims[dim];
  return dispatchType(result.element, [&](auto tag) -> Literal {
    using S = decltype(tag);
    Literal out = uninitializedLiteral(result);
    S* o = elements<S>(out);
    std::vector<S> values(static_cast<size_t>(count));
    for (int64_t i = 0; i < count; ++i) values[size_t(i)] = Num<S>::store(convertValue<S>(i));
    const int64_t block = count * inner;  // one index of the dimensions before `dim`
    parallelRange(outer, std::max<int64_t>(1, kParallelElements / std::max<int64_t>(1, block)), [&](int64_t a0, int64_t a1) {
      for (int64_t a = a0; a < a1; ++a) {
        S* to = o + a * block;
        if (inner == 1) std::copy(values.begin(), values.end(), to);
        else for (int64_t i = 0; i < count; ++i) std::fill_n(to + i * inner, inner, values[size_t(i)]);
      }
    });
    return out;
  });
}

std::vector<int64_t> broadcastStrides(const std::vector<int64_t>& operandDims, const std::vector<int64_t>& map,
                                      const std::vector<int64_t>& resultDims) {
  requireRank(map, operandDims.size(), "broadcast_dimensions");
  const std::vector<int64_t> operandStrides = rowMajorStrides(operandDims);
  std::vector<int64_t> strides(resultDims.size(), 0);
  for (size_t i = 0; i < map.size(); ++i) {
    if (map[i] < 0 || size_t(map[i]) >= resultDims.size()) fail("broadcast_dimensions out of range");
    if (operandDims[i] == resultDims[size_t(map[i])]) strides[size_t(map[i])] = operandStrides[i];
    else if (operandDims[i] != 1) fail("operand dimension does not match the result dimension");
  }
  return strides;
}

Literal broadcastInDimKernel(const Op& op, const Operands& in, const TensorType& result) {
  const Literal& x = *in[0];
  const std::vector<int64_t> srcStrides = broadcastStrides(x.type.dims, i64ArrayAttr(op, "broadcast_dimensions"), result.dims);
  Literal out = uninitializedLiteral(result);
  copyBox(x.bytes.data(), 0, srcStrides, out.bytes.mutableData(), 0, rowMajorStrides(result.dims), result.dims,
          byteWidth(result.element));
  return out;
}

// A reshape, transpose or slice: its view made dense (kernels/views.cc checks the attributes), so a reshape
// of a dense operand shares its storage.
Literal viewOpKernel(const Op& op, const Operands& in, const TensorType& result) {
  return denseOf(viewOf(op, *in[0], result));
}

Literal dynamicSliceKernel(const Op& op, const Operands& in, const TensorType& result) {
  const auto& sizes = i64ArrayAttr(op, "slice_sizes");
  const auto& dims = in[0]->type.dims;
  requireRank(sizes, dims.size(), "slice_sizes");
  if (result.dims != sizes) fail("result shape must equal slice_sizes");
  auto starts = clampedStarts(in, 1, dims, sizes);
  return denseOf(boxOf(*in[0], starts, std::vector<int64_t>(dims.size(), 1), result));
}

Literal dynamicUpdateSliceKernel(const Op& op, const Operands& in, const TensorType& result) {
  const Literal& x = *in[0];
  const Literal& update = *in[1];
  const auto& dims = x.type.dims;
  if (result != x.type || update.type.element != x.type.element) fail("result and update must match the operand type");
  requireRank(update.type.dims, dims.size(), "update shape");
  auto starts = clampedStarts(in, 2, dims, update.type.dims);
  Literal out{result, x.bytes};
  auto outStrides = rowMajorStrides(dims);
  int64_t offset = 0;
  for (size_t d = 0; d < dims.size(); ++d) offset += starts[d] * outStrides[d];
  copyBox(update.bytes.data(), 0, rowMajorStrides(update.type.dims), out.bytes.mutableData(), offset, outStrides,
          update.type.dims, byteWidth(result.element));
  return out;
}

// Operands may be views (the plan lets concatenate read through strides): each is copied as a box
// into its place along the axis.
Literal concatenateKernel(const Op& op, const Operands& in, const TensorType& result) {
  const auto axis = size_t(intAttr(op, "dimension"));
  if (axis >= result.dims.size()) fail("dimension out of range");
  Literal out = uninitializedLiteral(result);
  uint8_t* dst = out.bytes.mutableData();
  const std::vector<int64_t> outStrides = rowMajorStrides(result.dims);
  int64_t at = 0;  // where the next operand starts along the axis
  for (const Literal* x : in) {
    const std::vector<int64_t>& dims = x->type.dims;
    bool fits = dims.size() == result.dims.size() && at + dims[axis] <= result.dims[axis];
    for (size_t d = 0; fits && d < dims.size(); ++d) fits = d == axis || dims[d] == result.dims[d];
    if (!fits) fail("operand shapes do not add up to the result");
    const ViewLayout layout = layoutOf(*x);
    copyBox(x->bytes.data(), layout.offset, layout.strides, dst, at * outStrides[axis], outStrides, dims,
            byteWidth(result.element));
    at += dims[axis];
  }
  if (at != result.dims[axis]) fail("operand shapes do not add up to the result");
  return out;
}

Literal padKernel(const Op& op, const Operands& in, const TensorType& result) {
  const Literal& x = *in[0];
  const Literal& value = *in[1];
  const auto& low = i64ArrayAttr(op, "edge_padding_low");
  const auto& interior = i64ArrayAttr(op, "interior_padding");
  const size_t rank = x.type.dims.size();
  requireRank(low, rank, "edge_padding_low");
  requireRank(interior, rank, "interior_padding");
  const size_t width = byteWidth(result.element);
  if (value.bytes.size() != width) fail("padding value must be a scalar");
  if (result.dims.size() != rank) fail("result rank must equal the operand rank");
  Literal out = uninitializedLiteral(result);

  // Operand index i lands at low + i·(interior+1); copy only the indices that land inside the result.
  // Along dimension d they span [start[d], start[d] + span[d]) of the result.
  auto xStrides = rowMajorStrides(x.type.dims);
  auto outStrides = rowMajorStrides(result.dims);
  int64_t srcOffset = 0, dstOffset = 0;
  bool holes = false;  // interior padding between copied elements
  std::vector<int64_t> box(rank), dstStrides(rank), start(rank), span(rank);
  for (size_t d = 0; d < rank; ++d) {
    if (interior[d] < 0) fail("interior_padding must be non-negative");
    const int64_t step = interior[d] + 1, size = x.type.dims[d], outSize = result.dims[d];
    int64_t first = low[d] >= 0 ? 0 : (-low[d] + step - 1) / step;
    int64_t last = outSize - 1 - low[d] < 0 ? -1 : std::min(size - 1, (outSize - 1 - low[d]) / step);
    box[d] = std::max<int64_t>(0, last - first + 1);
    start[d] = box[d] == 0 ? 0 : low[d] + first * step;
    span[d] = box[d] == 0 ? 0 : (box[d] - 1) * step + 1;
    holes = holes || (box[d] > 1 && step > 1);
    srcOffset += first * xStrides[d];
    dstOffset += start[d] * outStrides[d];
    dstStrides[d] = step * outStrides[d];
  }

  // The padding value goes everywhere else: before and after the span along each dimension d (within
  // the span along the dimensions before d, across the whole result along those after), and into the
  // span itself where interior padding leaves holes. Each piece is filled once, in rows, on the pool.
  const std::vector<int64_t> repeat(rank, 0);
  auto fill = [&](const std::vector<int64_t>& dims, int64_t offset) {
    copyBox(value.bytes.data(), 0, repeat, out.bytes.mutableData(), offset, outStrides, dims, width);
  };
  std::vector<int64_t> region = result.dims;
  int64_t regionOffset = 0;
  for (size_t d = 0; d < rank; ++d) {
    region[d] = start[d];
    fill(region, regionOffset);
    region[d] = result.dims[d] - start[d] - span[d];
    fill(region, regionOffset + (start[d] + span[d]) * outStrides[d]);
    region[d] = span[d];
    regionOffset += start[d] * outStrides[d];
  }
  if (holes) fill(span, dstOffset);
  copyBox(x.bytes.data(), srcOffset, xStrides, out.bytes.mutableData(), dstOffset, dstStrides, box, width);
  return out;
}

Literal reverseKernel(const Op& op, const Operands& in, const TensorType& result) {
  const Literal& x = *in[0];
  if (result != x.type) fail("result type must equal the operand type");
  auto strides = rowMajorStrides(x.type.dims);
  int64_t offset = 0;
  for (int64_t d : i64ArrayAttr(op, "dimensions")) {
    if (d < 0 || size_t(d) >= strides.size()) fail("dimensions out of range");
    if (strides[size_t(d)] < 0) continue;  // listed twice
    offset += (x.type.dims[size_t(d)] - 1) * strides[size_t(d)];
    strides[size_t(d)] = -strides[size_t(d)];
  }
  Literal out = uninitializedLiteral(result);
  if (x.bytes.empty()) return out;
  copyBox(x.bytes.data(), offset, strides, out.bytes.mutableData(), 0, rowMajorStrides(result.dims), result.dims,
          byteWidth(result.element));
  return out;
}

}  // namespace tpjrt::cpu
