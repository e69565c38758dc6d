// The JS graph value (NativeGraph in src/runtime/native.ts) → tpjrt::lower::Graph.
#pragma once

#include <napi.h>

#include "graph.h"

namespace tpjrt::addon {

// Throws a TypeError/RangeError (nativeCode 1002) naming `call` for a malformed value; the graph's
// structure (ids defined before use, known element types) is checked by lower::validate.
lower::Graph graphFrom(Napi::Value value, const char* call);

}  // namespace tpjrt::addon
