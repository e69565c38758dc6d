// sort's fast path for the comparators it recognises (see kernels/sort_native.cc).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "kernels/kernels.h"

namespace tpjrt::cpu {

// Per sorted slice, the position each place takes its element from (see sortPermutation).
using Permutation = IndexArray;

// For a sort whose comparator is recognised: the stable order of every slice of `key` (seen as
// [outer, length, inner], slice s = (outer index, inner index) in row-major order), perm[s · length + p]
// being the position of the element that lands at p. Empty when the comparator is another one. With
// 0 < prefix < length only positions [0, prefix) of each slice are ordered (a partial sort: topk).
std::optional<Permutation> sortPermutation(const Op& op, const Literal& key, int64_t outer, int64_t length,
                                                    int64_t inner, int64_t prefix = 0);

}  // namespace tpjrt::cpu
