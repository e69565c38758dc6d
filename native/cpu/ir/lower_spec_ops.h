// The pass that rewrites StableHLO ops the interpreter runs as other ops (parseModule runs it first,
// before calls are inlined):
// - if → case on select(pred, 0, 1); optimization_barrier → its operands; composite → func.call of its
//   decomposition; dot → dot_general;
// - what only places values on devices (Shardy's sharding_constraint and reshard, the custom calls
//   @Sharding, @SPMDFullToShardShape, @SPMDShardToFullShape) → its operand; JAX's LAPACK calls
//   potrf and trsm → cholesky (with LAPACK's info) and triangular_solve; any other custom call is an
//   error naming its target;
// - get_dimension_size → a constant; the dynamic-shape forms with a static result type (dynamic_iota,
//   dynamic_broadcast_in_dim, dynamic_reshape) → iota, broadcast_in_dim, reshape;
// - batch_norm_inference / _training / _grad → element-wise ops and sums over all but the feature dimension;
// - on one process (the only kind the plugin loads): replica_id and partition_id → 0, and all_reduce,
//   all_gather, reduce_scatter, all_to_all and collective_broadcast → their operands; collective_permute →
//   its operand when it sends process 0 to itself, else zeros.
#pragma once

#include "ir/ir.h"

namespace tpjrt::cpu {

// Rewrites every such op, in every function and nested region; the op's results keep their value ids.
// Throws CpuError naming the op and line when it breaks the spec's rules for it (a pred that is not
// tensor<i1>, a dimension out of range, replica groups naming a process other than 0).
void lowerSpecOps(Module& module);

}  // namespace tpjrt::cpu
