// The dimension numbers of gather and scatter, read from their `#stablehlo.gather<…>` /
// `#stablehlo.scatter<…>` attribute (fields left out of the text are empty lists, and index_vector_dim
// 0, as StableHLO's printer leaves out every field at its default). The verifier checks
// them against the spec; the kernels use them as given.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/ir.h"

namespace tpjrt::cpu {

struct GatherDims {
  std::vector<int64_t> offsetDims, collapsedSliceDims, operandBatchingDims, startIndicesBatchingDims, startIndexMap;
  int64_t indexVectorDim = 0;
};

// Scatter's fields in gather's terms: updateWindowDims ~ offsetDims, insertedWindowDims ~
// collapsedSliceDims, inputBatchingDims ~ operandBatchingDims, scatterDimsToOperandDims ~ startIndexMap.
struct ScatterDims {
  std::vector<int64_t> updateWindowDims, insertedWindowDims, inputBatchingDims, scatterIndicesBatchingDims,
      scatterDimsToOperandDims;
  int64_t indexVectorDim = 0;
};

// Throw CpuError (no line prefix) when the attribute is missing or a field has the wrong kind.
GatherDims gatherDims(const Op& op);
ScatterDims scatterDims(const Op& op);

}  // namespace tpjrt::cpu
