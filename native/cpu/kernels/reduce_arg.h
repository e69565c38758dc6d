// The argmax/argmin body the lowering prints (see kernels/reduce_arg.cc): reduce's fast path for it, and
// its recogniser and choice for the scans of kernels/window.cc (cummax, cummin).
#pragma once

#include <cstdint>
#include <optional>
#include <type_traits>
#include <vector>

#include "kernels/kernels.h"

namespace tpjrt::cpu {

// Which extreme the body keeps, and whether a tie keeps the later index (cummax's) or the earlier one.
struct ArgBody {
  bool max = true, laterFirst = false;
};

// `op`'s body when it is an arg body over `in` = (values, indices, init value, init index) of types the
// typed loops take (integers, f32, f64; s32 or s64 indices).
std::optional<ArgBody> argBodyOf(const Op& op, const Operands& in);

// The body's choice of the accumulator (a0, a1) over the element (b0, b1).
template <class V, class I>
bool keepsAccumulator(V a0, I a1, V b0, I b1, ArgBody body) {
  const bool better = body.max ? a0 > b0 : a0 < b0;
  const bool first = body.laterFirst ? a1 > b1 : a1 < b1;
  const bool pick = better || (a0 == b0 && first);
  if constexpr (std::is_floating_point_v<V>) {
    const bool bnum = !(b0 != b0);
    return a0 != a0 ? (bnum || first) : (bnum && pick);
  } else {
    return pick;
  }
}

// The two results of `op` (values, indices) reduced over `reducedDim`, the only reduced dimension,
// when its body is the argmax or argmin body; empty for any other body or types.
std::optional<std::vector<Literal>> argReduce(const Op& op, const Operands& in, int64_t reducedDim);

}  // namespace tpjrt::cpu
