// The pass that copies constants into the bodies the interpreter runs lane by lane (sort comparators, the
// computations of reduce, reduce_window, scatter and select_and_scatter): such a body reads only its own
// values, but StableHLO lets it use values of the enclosing function, and JAX's comparators use the
// function's constants (0 and NaN to order floats). parseModule runs it after inlining.
#pragma once

#include "ir/ir.h"

namespace tpjrt::cpu {

// Gives each such body its own copy of every constant it uses from outside; other values it uses from
// outside stay as they are (the verifier names them).
void copyCapturedConstants(Module& module);

}  // namespace tpjrt::cpu
