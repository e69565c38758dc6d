// The pass that rewrites the CHLO ops that are StableHLO in disguise into StableHLO (parseModule runs
// it after inlining): chlo.broadcast_* (implicit broadcasting) into broadcast_in_dim and the op,
// constant and constant_like into stablehlo.constant, square into multiply, conj of a real into a
// convert to its own type, is_inf / is_pos_inf / is_neg_inf into compares with infinity, and top_k into
// an iota, a stable descending sort in total order and two slices. CHLO's math functions (lgamma,
// digamma, erf_inv, …) stay: they are kernels (kernels/special_math.h).
#pragma once

#include "ir/ir.h"

namespace tpjrt::cpu {

// Rewrites every such op, in every function and nested region; the op's results keep their value ids.
// Throws CpuError naming the op and line when its operands break the op's rules (a float-only op on
// integers, shapes that do not broadcast, k larger than the last dimension).
void lowerChlo(Module& module);

}  // namespace tpjrt::cpu
