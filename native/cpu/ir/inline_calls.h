// The pass that removes func.call from a parsed module (jax emits calls to private helpers such as
// @clip, @_where and @remainder). parseModule runs it, so the verifier and interpreter never see a call.
#pragma once

#include "ir/ir.h"

namespace tpjrt::cpu {

// Replaces every func.call, in every function and nested region, with a copy of its callee's body
// (fresh value ids; the call's results become the values the callee returns). Callees stay in the
// module, themselves free of calls. Throws CpuError, naming the call's line, for an unknown callee,
// argument or result types that differ from the callee's, recursion, calls nested deeper than
// kMaxCallDepth, or a program that inlining would make larger than kMaxInlinedOps ops.
void inlineCalls(Module& module);

inline constexpr int kMaxCallDepth = 64;
inline constexpr size_t kMaxInlinedOps = size_t{1} << 18;

}  // namespace tpjrt::cpu
