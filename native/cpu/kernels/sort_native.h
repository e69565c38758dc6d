// sort's fast path for the comparators it recognises (see kernels/sort_native.cc).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "kernels/kernels.h"

namespace tpjrt::cpu {

// For a sort whose comparator is recognised: writes the stable sort of every slice of the inputs into
// `results` (of the inputs' types; the inputs seen as [outer, length, inner], sorted along length) and
// returns true; false, with nothing written, for any other comparator. With 0 < prefix < length only
// positions [0, prefix) of each slice are written (a partial sort: topk).
bool sortRecognised(const Op& op, const Operands& in, std::vector<Literal>& results, int64_t outer, int64_t length,
                    int64_t inner, int64_t prefix = 0);

}  // namespace tpjrt::cpu
