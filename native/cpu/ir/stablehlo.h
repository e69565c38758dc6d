// Parse, verify and run StableHLO modules. Every failure throws CpuError whose message names the op
// and the source line ("line 7: stablehlo.add: operand types tensor<4xf32> and tensor<3xf32> differ").
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "ir/ir.h"

namespace tpjrt::cpu {

// Accepts MLIR text in generic form and in pretty form (for the ops the plugin supports). Calls
// (func.call) are inlined here (ir/inline_calls.h), so the module it returns has none.
Module parseModule(std::string_view text);

// Checks the module's types as the StableHLO spec says; requires a public function named "main".
void verifyModule(const Module& module);

// Whether results may stay views of other values' storage (ViewLayout in ir/ir.h; the plugin's buffers
// hold them) or are copied into dense literals.
enum class ViewResults { Densify, Keep };

// Runs `function` on `args` (already checked against its parameter types by the caller; views are
// accepted) and returns one literal per result. `fuse` false runs every element-wise op on its own and
// every view op as a copy (the reference that fused chains and views are tested against).
std::vector<Literal> interpret(const Module& module, const Function& function, const std::vector<Literal>& args,
                               bool fuse = true);
// The same on shared argument data (no copies: pass each buffer's data as it is held).
std::vector<Literal> interpret(const Module& module, const Function& function,
                               const std::vector<std::shared_ptr<const Literal>>& args, bool fuse = true,
                               ViewResults views = ViewResults::Densify);

}  // namespace tpjrt::cpu
