// Run a verified StableHLO module (ir/stablehlo.h parses and verifies it). Every failure throws
// CpuError whose message names the op and the source line.
#pragma once

#include <memory>
#include <vector>

#include "ir/ir.h"

namespace tpjrt::cpu {

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
// The same, taking the arguments (the vector keeps its capacity, its entries are moved out): the
// storage of an argument that nothing else holds may become a result's (a donated buffer's).
std::vector<Literal> interpret(const Module& module, const Function& function,
                               std::vector<std::shared_ptr<const Literal>>&& args, bool fuse = true,
                               ViewResults views = ViewResults::Densify);
// The same, with each result as the run holds it (ViewResults::Keep): one the run made is handed over,
// one that is an argument or a constant stays shared with it; nothing is copied.
std::vector<std::shared_ptr<const Literal>> interpretShared(const Module& module, const Function& function,
                                                           std::vector<std::shared_ptr<const Literal>>&& args,
                                                           bool fuse = true);

}  // namespace tpjrt::cpu
