// Module, function and region structure checks; per-op type rules live in ir/verify_ops.cc.
#include <set>

#include "base/error.h"
#include "ir/element_type.h"
#include "ir/narrow_types.h"
#include "ir/stablehlo.h"
#include "ir/verifier_internal.h"

namespace tpjrt::cpu {
namespace {

std::string where(int line) { return "line " + std::to_string(line) + ": "; }

bool regionCountFits(const Op& op) {
  if (op.name == "stablehlo.case") return !op.regions.empty();
  if (op.name == "stablehlo.select_and_scatter" || op.name == "stablehlo.while") return op.regions.size() == 2;
  static const std::set<std::string> withOneRegion = {"stablehlo.reduce", "stablehlo.reduce_window", "stablehlo.scatter",
                                                       "stablehlo.sort"};
  return op.regions.size() == (withOneRegion.count(op.name) ? 1u : 0u);
}

void verifyOp(const Module& module, const Op& op) {
  if (op.operands.size() != op.operandTypes.size() || op.results.size() != op.resultTypes.size())
    fail(where(op.line) + op.name + ": operand or result types do not match the values");
  for (int id : op.operands)
    if (id < 0 || id >= module.numValues) fail(where(op.line) + op.name + ": bad value id " + std::to_string(id));
  OpRule rule = findOpRule(op.name);
  if (!rule) fail(where(op.line) + "unsupported op '" + op.name + "'", ErrorCode::Unimplemented);
  if (!regionCountFits(op))
    fail(where(op.line) + op.name + ": wrong number of regions (" + std::to_string(op.regions.size()) + ")");
  rule(OpCheck(op, module));
}

}  // namespace

std::string typeList(const std::vector<TensorType>& types) {
  std::string out;
  for (const auto& t : types) out += (out.empty() ? "" : ", ") + typeString(t);
  return out;
}

void verifyRegion(const Module& module, const Region& region, const std::string& terminator,
                  const std::vector<TensorType>& returnTypes, const std::string& owner, int ownerLine) {
  if (region.args.size() != region.argTypes.size()) fail(where(ownerLine) + owner + ": bad block arguments");
  if (region.ops.empty()) fail(where(ownerLine) + owner + ": body is empty; it must end with " + terminator);
  for (size_t i = 0; i < region.ops.size(); ++i) {
    const Op& op = region.ops[i];
    bool last = i + 1 == region.ops.size();
    if (isTerminator(op)) {
      if (op.name != terminator)
        fail(where(op.line) + op.name + ": not allowed here; " + owner + " must end with " + terminator);
      if (!last) fail(where(op.line) + op.name + ": must be the last op of its region");
      if (op.operands.size() != op.operandTypes.size()) fail(where(op.line) + op.name + ": bad operand types");
      if (op.operandTypes != returnTypes)
        fail(where(op.line) + op.name + ": returns (" + typeList(op.operandTypes) + ") but " + owner + " needs (" +
             typeList(returnTypes) + ")");
      continue;
    }
    if (last) fail(where(op.line) + op.name + ": " + owner + " must end with " + terminator);
    verifyOp(module, op);
  }
}

void verifyModule(const Module& module) {
  std::set<std::string> names;
  for (const Function& f : module.functions)
    if (!names.insert(f.name).second) fail(where(f.line) + "function @" + f.name + " is defined twice");
  const Function* main = module.find("main");
  if (!main) fail("module has no public function 'main'");
  if (!main->isPublic) fail(where(main->line) + "function @main is private; it must be public");
  for (const auto* types : {&main->body.argTypes, &main->resultTypes})
    for (const TensorType& t : *types)
      if (isNarrow(t.element))
        fail(where(main->line) + "function @main " + (types == &main->resultTypes ? "returns " : "takes ") + typeString(t) +
                 ": the cpu plugin's buffers do not hold " + std::string(mlirName(t.element)) +
                 "; pass a wider type and convert inside the program",
             ErrorCode::Unimplemented);
  for (const Function& f : module.functions) {
    if (f.body.argTypes.size() != f.body.args.size()) fail(where(f.line) + "function @" + f.name + ": bad arguments");
    verifyRegion(module, f.body, "func.return", f.resultTypes, "function @" + f.name, f.line);
  }
}

}  // namespace tpjrt::cpu
