#include "kernels/index_windows.h"

#include <algorithm>
#include <atomic>

#include "base/thread_pool.h"

namespace tpjrt::cpu {

namespace {

std::atomic<bool> gFastPaths{true};

bool contains(const std::vector<int64_t>& v, int64_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }

// Calls fn with a reader of the index tensor's elements by offset: typed for dense s32 and s64.
template <class Fn>
void withIndexReader(const Literal& indices, Fn&& fn) {
  const bool dense = indices.bytes.size() == size_t(numElements(indices.type)) * byteWidth(indices.type.element);
  if (dense && indices.type.element == ElementType::S64)
    fn([p = reinterpret_cast<const int64_t*>(indices.bytes.data())](int64_t i) { return p[i]; });
  else if (dense && indices.type.element == ElementType::S32)
    fn([p = reinterpret_cast<const int32_t*>(indices.bytes.data())](int64_t i) { return int64_t(p[i]); });
  else
    fn([&indices](int64_t i) { return readIndex(indices, i); });
}

}  // namespace

void setIndexFastPaths(bool on) { gFastPaths = on; }
bool indexFastPaths() { return gFastPaths; }

WindowStarts::WindowStarts(const Literal& indices, int64_t indexVectorDim, std::vector<int64_t> startMap,
                           std::vector<int64_t> operandBatching, std::vector<int64_t> indicesBatching,
                           size_t operandRank)
    : indices_(indices),
      indexVectorDim_(indexVectorDim),
      startMap_(std::move(startMap)),
      operandBatching_(std::move(operandBatching)),
      indicesBatching_(std::move(indicesBatching)),
      strides_(rowMajorStrides(indices.type.dims)),
      operandRank_(operandRank) {
  for (int64_t d = 0; d < int64_t(indices.type.dims.size()); ++d)
    if (d != indexVectorDim) batchShape_.push_back(indices.type.dims[size_t(d)]);
}

std::vector<int64_t> WindowStarts::start(const std::vector<int64_t>& batch) const {
  auto batchPosition = [&](int64_t d) { return size_t(d < indexVectorDim_ ? d : d - 1); };
  int64_t offset = 0;
  for (int64_t d = 0; d < int64_t(strides_.size()); ++d)
    if (d != indexVectorDim_) offset += batch[batchPosition(d)] * strides_[size_t(d)];
  const bool hasVectorDim = indexVectorDim_ < int64_t(strides_.size());
  const int64_t step = hasVectorDim ? strides_[size_t(indexVectorDim_)] : 0;
  std::vector<int64_t> out(operandRank_, 0);
  for (size_t k = 0; k < startMap_.size(); ++k) out[size_t(startMap_[k])] = readIndex(indices_, offset + int64_t(k) * step);
  for (size_t i = 0; i < operandBatching_.size(); ++i)
    out[size_t(operandBatching_[i])] += batch[batchPosition(indicesBatching_[i])];
  return out;
}

IndexArray WindowStarts::startOffsets(const std::vector<int64_t>& operandDims, const std::vector<int64_t>& windowSize,
                                      OutOfBounds mode) const {
  IndexArray out(static_cast<size_t>(batchCount()));
  forStartOffsets(operandDims, windowSize, mode, [&](int64_t first, int64_t n, const int64_t* offsets) {
    std::copy(offsets, offsets + n, out.data() + first);
  });
  return out;
}

void WindowStarts::forStartOffsets(const std::vector<int64_t>& operandDims, const std::vector<int64_t>& windowSize, OutOfBounds mode,
                                   const OffsetSink& sink) const {
  const auto operandStrides = rowMajorStrides(operandDims);
  const size_t batchRank = batchShape_.size();
  auto batchPosition = [&](int64_t d) { return size_t(d < indexVectorDim_ ? d : d - 1); };
  std::vector<int64_t> indexStride(batchRank, 0), operandStep(batchRank, 0), batchLimit(batchRank, INT64_MAX);
  for (int64_t d = 0; d < int64_t(strides_.size()); ++d)
    if (d != indexVectorDim_) indexStride[batchPosition(d)] = strides_[size_t(d)];
  for (size_t i = 0; i < operandBatching_.size(); ++i) {
    const size_t pos = batchPosition(indicesBatching_[i]), d = size_t(operandBatching_[i]);
    operandStep[pos] += operandStrides[d];
    batchLimit[pos] = std::min(batchLimit[pos], operandDims[d] - windowSize[d]);
  }
  bool othersFit = true;  // operand dimensions no start index or batch coordinate moves: their window starts at 0
  for (int64_t d = 0; d < int64_t(operandRank_); ++d)
    if (!contains(startMap_, d) && !contains(operandBatching_, d)) othersFit = othersFit && windowSize[size_t(d)] <= operandDims[size_t(d)];
  const bool hasVectorDim = indexVectorDim_ < int64_t(strides_.size());
  const int64_t step = hasVectorDim ? strides_[size_t(indexVectorDim_)] : 0;
  std::vector<int64_t> limit, stride;
  for (int64_t d : startMap_) {
    limit.push_back(operandDims[size_t(d)] - windowSize[size_t(d)]);
    stride.push_back(operandStrides[size_t(d)]);
  }
  const int64_t count = batchCount();
  const bool checkBatching = mode == OutOfBounds::Skip && !operandBatching_.empty();
  withIndexReader(indices_, [&](auto read) {
    // Fills to[0, n) for n batch points along the last batch dimension, the first of which has its
    // index vector at `at` and its batching dims adding `base`.
    auto fillRow = [&, K = limit.size(), lim = limit.data(), str = stride.data()](int64_t* to, int64_t n, int64_t at, int64_t base,
                                                                                  bool fits, int64_t innerBatch) {
      const int64_t atStep = batchRank ? indexStride[batchRank - 1] : 0, baseStep = batchRank ? operandStep[batchRank - 1] : 0;
      const int64_t innerLimit = batchRank ? batchLimit[batchRank - 1] : INT64_MAX;
      if (K == 1 && mode == OutOfBounds::Clamp) {
        for (int64_t j = 0; j < n; ++j) to[j] = base + j * baseStep + std::clamp<int64_t>(read(at + j * atStep), 0, lim[0]) * str[0];
        return;
      }
      if (K == 1) {
        for (int64_t j = 0; j < n; ++j) {
          const int64_t v = read(at + j * atStep);
          const bool ok = fits && (!checkBatching || innerBatch + j <= innerLimit) && v >= 0 && v <= lim[0];
          to[j] = ok ? base + j * baseStep + v * str[0] : -1;
        }
        return;
      }
      for (int64_t j = 0; j < n; ++j) {
        bool ok = fits && (!checkBatching || innerBatch + j <= innerLimit);
        int64_t offset = base + j * baseStep;
        for (size_t k = 0; k < K; ++k) {
          int64_t v = read(at + j * atStep + int64_t(k) * step);
          if (mode == OutOfBounds::Clamp) v = std::clamp<int64_t>(v, 0, lim[k]);
          else ok = ok && v >= 0 && v <= lim[k];
          offset += v * str[k];
        }
        to[j] = mode == OutOfBounds::Skip && !ok ? -1 : offset;
      }
    };
    // Hands the sink pieces of up to kPiece offsets along the last batch dimension from a buffer on the stack.
    constexpr int64_t kPiece = 512;
    auto emitRow = [&](int64_t first, int64_t n, int64_t at, int64_t base, bool fits, int64_t innerBatch) {
      const int64_t atStep = batchRank ? indexStride[batchRank - 1] : 0, baseStep = batchRank ? operandStep[batchRank - 1] : 0;
      int64_t buffer[kPiece];
      for (int64_t j = 0; j < n; j += kPiece) {
        const int64_t m = std::min(kPiece, n - j);
        fillRow(buffer, m, at + j * atStep, base + j * baseStep, fits, innerBatch + j);
        sink(first + j, m, buffer);
      }
    };
    parallelRange(count, 1 << 14, [&](int64_t begin, int64_t end) {
      if (batchRank == 0) {
        emitRow(begin, end - begin, 0, 0, othersFit, 0);
        return;
      }
      const size_t last = batchRank - 1;
      walkRuns(batchShape_, indexStride, operandStep, 0, 0, begin, end,
               [&](int64_t b, int64_t n, int64_t at, int64_t base, const std::vector<int64_t>& batch) {
                 bool fits = othersFit;
                 if (checkBatching)
                   for (size_t k = 0; k < last; ++k) fits = fits && batch[k] <= batchLimit[k];
                 emitRow(b, n, at, base, fits, batch[last]);
               });
    });
  });
}

SpaceToOperand::SpaceToOperand(const std::vector<int64_t>& space, const std::vector<int64_t>& batchDims,
                               const std::vector<int64_t>& windowDims, const std::vector<int64_t>& windowToOperand,
                               const std::vector<int64_t>& operandDims) {
  const auto operandStrides = rowMajorStrides(operandDims);
  std::vector<int64_t> batchShape;
  for (int64_t d : batchDims) batchShape.push_back(space[size_t(d)]);
  const auto batchStrides = rowMajorStrides(batchShape);
  std::vector<int64_t> batchStride(space.size(), 0), windowStride(space.size(), 0);
  for (size_t k = 0; k < batchDims.size(); ++k) batchStride[size_t(batchDims[k])] = batchStrides[k];
  for (size_t k = 0; k < windowDims.size(); ++k) windowStride[size_t(windowDims[k])] = operandStrides[size_t(windowToOperand[k])];
  size_t outerRank = space.size();
  auto extendsRun = [&](size_t d) { return space[d] == 1 || (batchStride[d] == 0 && windowStride[d] == run_); };
  while (outerRank > 0 && extendsRun(outerRank - 1)) run_ *= space[--outerRank];
  for (size_t d = 0; d < outerRank; ++d) {
    outer_.push_back(space[d]);
    batchStride_.push_back(batchStride[d]);
    windowStride_.push_back(windowStride[d]);
    runs_ *= space[d];
  }
}

std::optional<AlongDim> alongDim(const std::vector<int64_t>& operandDims, const Literal& indices, int64_t indexVectorDim,
                                 const std::vector<int64_t>& startMap, const std::vector<int64_t>& collapsed,
                                 const std::vector<int64_t>& operandBatching, const std::vector<int64_t>& indicesBatching) {
  const int64_t rank = int64_t(operandDims.size());
  const auto& at = indices.type.dims;
  const bool dense = indices.bytes.size() == size_t(numElements(indices.type)) * byteWidth(indices.type.element);
  if (!dense || (indices.type.element != ElementType::S64 && indices.type.element != ElementType::S32)) return std::nullopt;
  // the index vector is dimension `rank` of the indices, or implicit (index_vector_dim == their rank)
  const bool implicitVector = indexVectorDim == rank && int64_t(at.size()) == rank;
  const bool lastVector = indexVectorDim == rank && int64_t(at.size()) == rank + 1 && at.back() == 1;
  if (rank == 0 || !(implicitVector || lastVector) || startMap.size() != 1 || collapsed != startMap) return std::nullopt;
  const int64_t d = startMap[0];
  std::vector<int64_t> others;
  for (int64_t k = 0; k < rank; ++k)
    if (k != d) others.push_back(k);
  if (operandBatching != others || indicesBatching != others) return std::nullopt;
  AlongDim a;
  for (int64_t k = 0; k < rank; ++k) {
    if (k != d && at[size_t(k)] != operandDims[size_t(k)]) return std::nullopt;
    if (k < d) a.outer *= operandDims[size_t(k)];
    if (k > d) a.inner *= operandDims[size_t(k)];
  }
  a.size = operandDims[size_t(d)];
  a.count = at[size_t(d)];
  return a;
}

bool nextIndex(std::vector<int64_t>& index, const std::vector<int64_t>& shape) {
  for (size_t d = shape.size(); d-- > 0;) {
    if (++index[d] < shape[d]) return true;
    index[d] = 0;
  }
  return false;
}

}  // namespace tpjrt::cpu
