// reduce's fast path for the argmax/argmin body the lowering prints (see kernels/reduce_arg.cc).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "kernels/kernels.h"

namespace tpjrt::cpu {

// The two results of `op` (values, indices) reduced over `reducedDim`, the only reduced dimension,
// when its body is the argmax or argmin body; empty for any other body or types.
std::optional<std::vector<Literal>> argReduce(const Op& op, const Operands& in, int64_t reducedDim);

}  // namespace tpjrt::cpu
