// Parse and verify StableHLO modules (exec/interpreter.h runs them). Every failure throws CpuError
// whose message names the op and the source line ("line 7: stablehlo.add: operand types
// tensor<4xf32> and tensor<3xf32> differ").
#pragma once

#include <string_view>

#include "ir/ir.h"

namespace tpjrt::cpu {

// Accepts MLIR text in generic form and in pretty form (for the ops the plugin supports). Calls
// (func.call) are inlined here (ir/inline_calls.h), and the CHLO ops that StableHLO can say are
// rewritten into it (ir/lower_chlo.h), so the module it returns has neither.
Module parseModule(std::string_view text);

// Checks the module's types as the StableHLO spec says; requires a public function named "main".
void verifyModule(const Module& module);

}  // namespace tpjrt::cpu
