// What gather and scatter share: the index tensor is read as a "batch space" (its dimensions except
// index_vector_dim) of start-index vectors, and each batch point names one window of the operand.
#pragma once

#include <cstdint>
#include <vector>

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

  // The operand index where the window of batch point `batch` starts (unclamped).
  std::vector<int64_t> start(const std::vector<int64_t>& batch) const;

  // The operand dimensions start indices address (start_index_map), for clamping.
  const std::vector<int64_t>& startMap() const { return startMap_; }

 private:
  const Literal& indices_;
  int64_t indexVectorDim_;
  std::vector<int64_t> startMap_, operandBatching_, indicesBatching_, strides_, batchShape_;
  size_t operandRank_;
};

// Advances a row-major multi-index over `shape`; false once it wraps around.
bool nextIndex(std::vector<int64_t>& index, const std::vector<int64_t>& shape);

}  // namespace tpjrt::cpu
