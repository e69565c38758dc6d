// gather: for every batch point of the start indices, copy one slice_sizes window of the operand
// (its start clamped into the operand, as the spec says) into the result's offset dimensions. The
// fast path computes every window's start offset first, then walks the result in runs that are
// contiguous in both operand and result (whole rows for an embedding lookup), split over the thread
// pool; torch.gather's form (AlongDim) reads each element straight from its index.
#include <algorithm>
#include <cstring>
#include <type_traits>

#include "base/thread_pool.h"

#include "ir/dimension_numbers.h"
#include "kernels/index_windows.h"
#include "kernels/kernels.h"

namespace tpjrt::cpu {

namespace {

bool contains(const std::vector<int64_t>& v, int64_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }

// Calls fn with `width` as a compile-time constant for the common element widths, else with 0.
template <class Fn>
void withWidth(size_t width, Fn&& fn) {
  if (!withStorageWidth(width, [&](auto tag) { fn(std::integral_constant<size_t, sizeof(tag)>{}); }))
    fn(std::integral_constant<size_t, 0>{});
}

void gatherRuns(const Literal& operand, const WindowStarts& starts, const std::vector<int64_t>& sizes, const SpaceToOperand& map,
                Literal& out) {
  const size_t width = byteWidth(out.type.element);
  const uint8_t* from = operand.bytes.data();
  uint8_t* to = out.bytes.mutableData();
  if (map.runs() == starts.batchCount() && map.run() == 1) {  // one element per batch point, in the result's order
    withWidth(width, [&](auto fixed) {
      constexpr size_t kWidth = decltype(fixed)::value;
      starts.forStartOffsets(operand.type.dims, sizes, WindowStarts::OutOfBounds::Clamp,
                             [&](int64_t first, int64_t count, const int64_t* offsets) {
                               const size_t w = kWidth ? kWidth : width;  // locals: the copies cannot change them
                               uint8_t* const dst = to + size_t(first) * w;
                               const uint8_t* const src = from;
                               for (int64_t j = 0; j < count; ++j) std::memcpy(dst + size_t(j) * w, src + size_t(offsets[j]) * w, w);
                             });
    });
    return;
  }
  const IndexArray offsets = starts.startOffsets(operand.type.dims, sizes, WindowStarts::OutOfBounds::Clamp);
  const int64_t run = map.run();
  withWidth(run == 1 ? width : 0, [&](auto fixed) {
    constexpr size_t kWidth = decltype(fixed)::value;
    const size_t bytes = size_t(run) * width;
    parallelRange(map.runs(), std::max<int64_t>(1, kParallelElements / run), [&](int64_t begin, int64_t end) {
      map.forRuns(begin, end, [&](int64_t r, int64_t batch, int64_t window) {
        std::memcpy(to + size_t(r * run) * width, from + size_t(offsets[size_t(batch)] + window) * width, kWidth ? kWidth : bytes);
      });
    });
  });
}

// out[o, m, i] = operand[o, index[o, m, i] clamped into [0, size), i] (see AlongDim), over the pool;
// false for element widths without a storage type.
bool gatherAlong(const Literal& operand, const Literal& indices, const AlongDim& a, Literal& out) {
  if (a.size == 0) return false;
  return withStorageWidth(byteWidth(out.type.element), [&](auto tag) {
    using U = decltype(tag);
    const U* from = reinterpret_cast<const U*>(operand.bytes.data());
    U* to = reinterpret_cast<U*>(out.bytes.mutableData());
    withTypedIndices(indices, [&](const auto* index) {
      const int64_t last = a.size - 1, inner = a.inner;
      parallelRange(a.outer * a.count * inner, kParallelElements, [&](int64_t begin, int64_t end) {
        int64_t i = begin % inner, m = begin / inner % a.count, o = begin / inner / a.count;
        for (int64_t e = begin; e < end;) {
          const U* src = from + o * a.size * inner;
          if (inner == 1) {  // the rest of row o in one loop
            const int64_t n = std::min(a.count - m, end - e);
            for (int64_t k = 0; k < n; ++k) to[e + k] = src[std::clamp<int64_t>(index[e + k], 0, last)];
            e += n;
            m = 0;
            ++o;
            continue;
          }
          const int64_t n = std::min(inner - i, end - e);
          for (int64_t k = 0; k < n; ++k) to[e + k] = src[std::clamp<int64_t>(index[e + k], 0, last) * inner + i + k];
          e += n;
          i = 0;
          if (++m == a.count) {
            m = 0;
            ++o;
          }
        }
      });
    });
  });
}

}  // namespace

Literal gatherKernel(const Op& op, const Operands& in, const TensorType& result) {
  const Literal& operand = *in[0];
  const Literal& indices = *in[1];
  const GatherDims g = gatherDims(op);
  const auto& sizes = i64ArrayAttr(op, "slice_sizes");
  const auto& dims = operand.type.dims;
  const size_t rank = dims.size();
  if (sizes.size() != rank) fail("slice_sizes must have one entry per operand dimension");
  WindowStarts starts(indices, g.indexVectorDim, g.startIndexMap, g.operandBatchingDims, g.startIndicesBatchingDims, rank);

  std::vector<int64_t> windowDims;  // operand dimensions that appear in the result, in order
  for (int64_t d = 0; d < int64_t(rank); ++d)
    if (!contains(g.collapsedSliceDims, d) && !contains(g.operandBatchingDims, d)) windowDims.push_back(d);
  std::vector<int64_t> batchDims;  // result dimensions of the batch space, in order
  for (int64_t d = 0; d < int64_t(result.dims.size()); ++d)
    if (!contains(g.offsetDims, d)) batchDims.push_back(d);
  if (windowDims.size() != g.offsetDims.size() || batchDims.size() != starts.batchShape().size())
    fail("dimension numbers do not fit the operand and result", ErrorCode::Internal);

  if (numElements(result) == 0) return makeLiteral(result);
  if (indexFastPaths()) {
    Literal out = uninitializedLiteral(result);
    const bool oneElement = g.offsetDims.empty() && std::all_of(sizes.begin(), sizes.end(), [](int64_t n) { return n == 1; });
    const std::optional<AlongDim> along =
        oneElement ? alongDim(dims, indices, g.indexVectorDim, g.startIndexMap, g.collapsedSliceDims, g.operandBatchingDims,
                              g.startIndicesBatchingDims)
                   : std::nullopt;
    if (!along || !gatherAlong(operand, indices, *along, out))
      gatherRuns(operand, starts, sizes, SpaceToOperand(result.dims, batchDims, g.offsetDims, windowDims, dims), out);
    return out;
  }
  Literal out = makeLiteral(result);
  const auto operandStrides = rowMajorStrides(dims);
  const auto resultStrides = rowMajorStrides(result.dims);
  std::vector<int64_t> srcStrides, dstStrides, box;
  for (size_t k = 0; k < windowDims.size(); ++k) {
    srcStrides.push_back(operandStrides[size_t(windowDims[k])]);
    dstStrides.push_back(resultStrides[size_t(g.offsetDims[k])]);
    box.push_back(sizes[size_t(windowDims[k])]);
  }
  const size_t width = byteWidth(result.element);
  std::vector<int64_t> batch(starts.batchShape().size(), 0);
  do {
    std::vector<int64_t> start = starts.start(batch);
    for (int64_t d : g.startIndexMap)
      start[size_t(d)] = std::clamp<int64_t>(start[size_t(d)], 0, dims[size_t(d)] - sizes[size_t(d)]);
    int64_t srcOffset = 0, dstOffset = 0;
    for (size_t d = 0; d < rank; ++d) srcOffset += start[d] * operandStrides[d];
    for (size_t k = 0; k < batchDims.size(); ++k) dstOffset += batch[k] * resultStrides[size_t(batchDims[k])];
    copyBox(operand.bytes.data(), srcOffset, srcStrides, out.bytes.mutableData(), dstOffset, dstStrides, box, width);
  } while (nextIndex(batch, starts.batchShape()));
  return out;
}

}  // namespace tpjrt::cpu
