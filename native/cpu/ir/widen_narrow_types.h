// The pass that runs arithmetic on the narrow element types (ir/narrow_types.h) in a wider type:
// parseModule runs it after lowerChlo. An op that computes on a narrow type (element-wise ops, iota,
// dot_general, convolution) is first checked by its verifier rule as written, then gets converts to the
// wide type (f32, i8 or ui8) before it and one back after it, so each result is rounded (or wrapped)
// once to the narrow type, as XLA computes them. Ops that only move data (reshape, slice, gather,
// select, while, …) and convert keep the narrow type; the ops with regions that compute on it (reduce,
// sort, scatter, the window ops) and bitcast_convert are refused with an error naming the type.
#pragma once

#include "ir/ir.h"

namespace tpjrt::cpu {

void widenNarrowTypes(Module& module);

}  // namespace tpjrt::cpu
