// Graph → a StableHLO module in MLIR generic form (the form every PJRT plugin accepts), with
// dimension lists as `array<i64: …>`. The function is `@main`, public, one block whose arguments
// are the graph's inputs.
#pragma once

#include <string>

#include "graph.h"

namespace tpjrt::lower {

// Validates the graph first (see validate()).
std::string printModule(const Graph& graph);

std::string typeString(const TensorType& type);

}  // namespace tpjrt::lower
