// What gather and scatter share: the index tensor is read as a "batch space" (its dimensions except
// index_vector_dim) of start-index vectors, and each batch point names one window of the operand.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "kernels/index_walk.h"
#include "kernels/kernels.h"

namespace tpjrt::cpu {

class WindowStarts {
 public:
  // `startMap[k]` is the operand dimension that component k of an index vector addresses; operand
  // dimension operandBatching[i] takes the batch coordinate of index dimension indicesBatching[i].
  WindowStarts(const Literal& indices, int64_t indexVectorDim, std::vector<int64_t> startMap,
               std::vector<int64_t> operandBatching, std::vector<int64_t> indicesBatching, size_t operandRank);

  // The batch space's shape: the index tensor's dimensions without index_vector_dim.
  const std::vector<int64_t>& batchShape() const { return batchShape_; }
  int64_t batchCount() const {
    int64_t count = 1;
    for (int64_t n : batchShape_) count *= n;
    return count;
  }

  // The operand index where the window of batch point `batch` starts (unclamped).
  std::vector<int64_t> start(const std::vector<int64_t>& batch) const;

  // The operand dimensions start indices address (start_index_map), for clamping.
  const std::vector<int64_t>& startMap() const { return startMap_; }

  // For every batch point, in row-major order, the row-major offset in an operand of `operandDims`
  // where its window of `windowSize` starts: with the start clamped so that the window fits (gather),
  // or -1 where the window does not fit whole (scatter).
  enum class OutOfBounds { Clamp, Skip };
  IndexArray startOffsets(const std::vector<int64_t>& operandDims, const std::vector<int64_t>& windowSize,
                          OutOfBounds mode) const;

  // The same offsets handed over in pieces, sink(first batch point, count, offsets), from the pool's
  // threads (each piece once), so that a caller can use them while they are in the cache.
  using OffsetSink = std::function<void(int64_t first, int64_t count, const int64_t* offsets)>;
  void forStartOffsets(const std::vector<int64_t>& operandDims, const std::vector<int64_t>& windowSize, OutOfBounds mode,
                       const OffsetSink& sink) const;

 private:
  const Literal& indices_;
  int64_t indexVectorDim_;
  std::vector<int64_t> startMap_, operandBatching_, indicesBatching_, strides_, batchShape_;
  size_t operandRank_;
};

// How the elements of an index space (gather's result, scatter's updates) map into the operand: each
// space dimension either steps through the batch points (a batch dimension) or through the window
// (a window dimension, along operand dimension windowToOperand[k]); element → start of its batch
// point + its offset in the window. Trailing dimensions that are contiguous on both sides form runs.
class SpaceToOperand {
 public:
  SpaceToOperand(const std::vector<int64_t>& space, const std::vector<int64_t>& batchDims, const std::vector<int64_t>& windowDims,
                 const std::vector<int64_t>& windowToOperand, const std::vector<int64_t>& operandDims);

  // Elements per run, and the number of runs.
  int64_t run() const { return run_; }
  int64_t runs() const { return runs_; }

  // Calls fn(run, batchPoint, windowOffset) for runs [begin, end) in row-major order.
  template <class Fn>
  void forRuns(int64_t begin, int64_t end, Fn&& fn) const {
    walk(outer_, batchStride_, windowStride_, 0, 0, begin, end, fn);
  }

 private:
  std::vector<int64_t> outer_, batchStride_, windowStride_;  // the space without its run dimensions
  int64_t run_ = 1, runs_ = 1;
};

// torch.gather's and torch.scatter's form: one index per element, along operand dimension d; every other
// operand dimension is a batching dimension paired with the index dimension of the same position, and
// the index vector (index_vector_dim, last) has one component. The operand is then [outer, size, inner]
// and the indices, like the gathered result or the scatter's updates, [outer, count, inner].
struct AlongDim {
  int64_t outer = 1, size = 1, count = 1, inner = 1;
};
// The form of a gather or scatter without window dimensions (offset_dims / update_window_dims empty,
// one-element slices) whose dense s32 or s64 indices index one dimension this way, or nullopt.
std::optional<AlongDim> alongDim(const std::vector<int64_t>& operandDims, const Literal& indices, int64_t indexVectorDim,
                                 const std::vector<int64_t>& startMap, const std::vector<int64_t>& collapsed,
                                 const std::vector<int64_t>& operandBatching, const std::vector<int64_t>& indicesBatching);

// Calls fn with a pointer to the elements of dense s32 or s64 indices (what alongDim accepts).
template <class Fn>
void withTypedIndices(const Literal& indices, Fn&& fn) {
  if (indices.type.element == ElementType::S64) fn(reinterpret_cast<const int64_t*>(indices.bytes.data()));
  else fn(reinterpret_cast<const int32_t*>(indices.bytes.data()));
}

// Tests switch gather's and scatter's fast paths off to compare them with the generic paths.
void setIndexFastPaths(bool on);
bool indexFastPaths();

// Advances a row-major multi-index over `shape`; false once it wraps around.
bool nextIndex(std::vector<int64_t>& index, const std::vector<int64_t>& shape);

}  // namespace tpjrt::cpu
