// Views: transpose, slice and reshape evaluated as a new layout over their operand's storage instead
// of a copy (ViewLayout in ir/ir.h). The plan decides which values may be views (exec/plan.h);
// everything else reads dense literals, which denseOf makes.
#pragma once

#include <string>

#include "ir/ir.h"

namespace tpjrt::cpu {

// Whether the op named `name` is one viewOf makes: transpose, slice or reshape.
bool isViewOpName(const std::string& name);

// x's layout: its view's, or row-major strides from the start of its storage.
ViewLayout layoutOf(const Literal& x);

// The transpose, slice or reshape `op` of x (dense or a view) as a literal sharing x's storage: a view,
// or dense where the result is row-major from the start of the storage. A reshape of a view whose
// dimensions cannot be regrouped through strides copies x first.
Literal viewOf(const Op& op, const Literal& x, const TensorType& result);

// The box of x from `start` with steps `step` (one of each per dimension) whose type is `result`, sharing
// x's storage like viewOf (the caller checks that the box lies inside x).
Literal boxOf(const Literal& x, const std::vector<int64_t>& start, const std::vector<int64_t>& step,
              const TensorType& result);

// x's elements as a dense literal: x itself (sharing its storage) when it is dense, else a copy.
Literal denseOf(const Literal& x);

// Whether the element layout of x reaches only bytes inside its storage.
bool viewFits(const Literal& x);

}  // namespace tpjrt::cpu
