#include "kernels/one_op_body.h"

namespace tpjrt::cpu {

std::optional<BinaryOp> oneOpBody(const Op& op) {
  if (op.regions.size() != 1) return std::nullopt;
  const Region& r = op.regions[0];
  if (r.args.size() != 2 || r.ops.size() != 2) return std::nullopt;
  const Op& apply = r.ops[0];
  const Op& ret = r.ops[1];
  if (!isTerminator(ret) || apply.operands.size() != 2 || apply.results.size() != 1 || ret.operands.size() != 1 ||
      ret.operands[0] != apply.results[0])
    return std::nullopt;
  const bool argsInOrder = apply.operands[0] == r.args[0] && apply.operands[1] == r.args[1];
  const bool argsSwapped = apply.operands[0] == r.args[1] && apply.operands[1] == r.args[0];
  if (!argsInOrder && !argsSwapped) return std::nullopt;
  static const std::pair<const char*, BinaryOp> kOps[] = {
      {"stablehlo.add", BinaryOp::Add},         {"stablehlo.multiply", BinaryOp::Multiply},
      {"stablehlo.maximum", BinaryOp::Maximum}, {"stablehlo.minimum", BinaryOp::Minimum},
      {"stablehlo.and", BinaryOp::And},         {"stablehlo.or", BinaryOp::Or},
      {"stablehlo.xor", BinaryOp::Xor}};
  for (const auto& [name, kind] : kOps)
    if (apply.name == name) return kind;
  return std::nullopt;
}

bool hasTypedLoop(ElementType t) {
  switch (t) {
    case ElementType::S8: case ElementType::S16: case ElementType::S32: case ElementType::S64:
    case ElementType::U8: case ElementType::U16: case ElementType::U32: case ElementType::U64:
    case ElementType::F16: case ElementType::BF16: case ElementType::F32: case ElementType::F64:
      return true;
    default:
      return false;
  }
}

}  // namespace tpjrt::cpu
