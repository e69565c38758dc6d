#include "kernels/index_windows.h"

namespace tpjrt::cpu {

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

bool nextIndex(std::vector<int64_t>& index, const std::vector<int64_t>& shape) {
  for (size_t d = shape.size(); d-- > 0;) {
    if (++index[d] < shape[d]) return true;
    index[d] = 0;
  }
  return false;
}

}  // namespace tpjrt::cpu
