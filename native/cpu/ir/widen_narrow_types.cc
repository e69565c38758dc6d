#include "ir/widen_narrow_types.h"

#include <set>
#include <string>

#include "base/error.h"
#include "ir/element_type.h"
#include "ir/narrow_types.h"
#include "ir/op_builder.h"
#include "ir/verifier_internal.h"

namespace tpjrt::cpu {
namespace {

bool narrow(const TensorType& t) { return isNarrow(t.element); }

bool touchesNarrow(const Op& op) {
  for (const auto* types : {&op.operandTypes, &op.resultTypes})
    for (const TensorType& t : *types)
      if (narrow(t)) return true;
  return false;
}

// Ops whose kernels move bytes whatever the element type, so narrow values pass through them as stored.
const std::set<std::string>& moves() {
  static const std::set<std::string> ops = {
      "stablehlo.constant", "stablehlo.convert", "stablehlo.reshape", "stablehlo.transpose", "stablehlo.slice",
      "stablehlo.broadcast_in_dim", "stablehlo.concatenate", "stablehlo.pad", "stablehlo.reverse",
      "stablehlo.dynamic_slice", "stablehlo.dynamic_update_slice", "stablehlo.gather", "stablehlo.select",
      "stablehlo.while", "stablehlo.case", "func.return", "stablehlo.return"};
  return ops;
}

// Ops that compute on their elements inside regions or through their bits: not run on narrow types.
const std::set<std::string>& refused() {
  static const std::set<std::string> ops = {
      "stablehlo.reduce", "stablehlo.sort", "stablehlo.scatter", "stablehlo.reduce_window",
      "stablehlo.select_and_scatter", "stablehlo.bitcast_convert", "chlo.next_after"};
  return ops;
}

class Widening : public OpBuilder {
 public:
  using OpBuilder::OpBuilder;

  int convert(int id, const TensorType& from, ElementType to, int result = -1) {
    return emit("stablehlo.convert", {id}, {from}, {to, from.dims}, {}, result);
  }

  void run() {
    const std::string& name = op_.name;
    const ElementType first = firstNarrow();
    if (refused().count(name))
      fail("line " + std::to_string(op_.line) + ": " + name + ": the cpu plugin does not run " + name + " on element type " +
               std::string(mlirName(first)) + " (it converts it, moves it, and computes element-wise ops, dot_general and "
               "convolution on it in a wider type); convert to a wider type first",
           ErrorCode::Unimplemented);
    const bool signedBits = isSignedInt(first) && (name == "stablehlo.popcnt" || name == "stablehlo.count_leading_zeros" ||
                                                   name == "stablehlo.shift_right_logical");
    const bool unsignedShift = isUnsignedInt(first) && name == "stablehlo.shift_right_arithmetic";
    Op wide = op_;
    for (size_t i = 0; i < op_.operands.size(); ++i) {
      const TensorType& t = op_.operandTypes[i];
      if (!narrow(t)) continue;
      int id = op_.operands[i];
      TensorType at = t;
      if (signedBits || (unsignedShift && i == 0)) {
        // Counting and logical shifts see the narrow type's own bits: its unsigned twin, zero-extended; an
        // arithmetic shift of an unsigned one sees them sign-extended from its top bit.
        const ElementType twin = twinOf(t.element);
        id = convert(id, at, twin);
        at.element = twin;
      }
      const ElementType w = computeType(t.element, signedBits, unsignedShift);
      wide.operands[i] = convert(id, at, w);
      wide.operandTypes[i] = {w, t.dims};
    }
    std::vector<std::pair<size_t, int>> narrowed;  // result index and the id it had
    for (size_t i = 0; i < op_.results.size(); ++i) {
      const TensorType& t = op_.resultTypes[i];
      if (!narrow(t)) continue;
      wide.resultTypes[i] = {computeType(t.element, signedBits, unsignedShift), t.dims};
      wide.results[i] = module_.numValues++;
      narrowed.push_back({i, op_.results[i]});
    }
    out_.push_back(wide);
    for (auto [i, id] : narrowed) {
      int value = wide.results[i];
      TensorType type = wide.resultTypes[i];
      if (name == "stablehlo.count_leading_zeros") {  // the wide type's extra leading zeros
        const int64_t extra = valueBits(type.element) - valueBits(op_.resultTypes[i].element);
        value = emit("stablehlo.subtract", {value, splat(type, uint64_t(extra))}, {type, type}, type);
      }
      convert(value, type, op_.resultTypes[i].element, id);
    }
  }

 private:
  ElementType firstNarrow() const {
    for (const auto* types : {&op_.operandTypes, &op_.resultTypes})
      for (const TensorType& t : *types)
        if (narrow(t)) return t.element;
    return ElementType::F32;
  }

  static ElementType twinOf(ElementType t) {
    switch (t) {
      case ElementType::S2: return ElementType::U2;
      case ElementType::S4: return ElementType::U4;
      case ElementType::U2: return ElementType::S2;
      case ElementType::U4: return ElementType::S4;
      default: return t;
    }
  }

  static ElementType computeType(ElementType t, bool signedBits, bool unsignedShift) {
    if (signedBits) return ElementType::U8;
    if (unsignedShift) return ElementType::S8;
    return wideTypeOf(t);
  }
};

void widenRegion(Module& module, Region& region) {
  std::vector<Op> out;
  out.reserve(region.ops.size());
  for (Op& op : region.ops) {
    for (Region& nested : op.regions) widenRegion(module, nested);
    OpRule rule = findOpRule(op.name);
    if (!touchesNarrow(op) || moves().count(op.name) || (!rule && !refused().count(op.name))) {
      out.push_back(std::move(op));  // an unknown op is the verifier's to name
      continue;
    }
    if (rule && !refused().count(op.name)) rule(OpCheck(op, module));  // the op as written obeys its rule
    Widening(module, op, out).run();
  }
  region.ops = std::move(out);
}

}  // namespace

void widenNarrowTypes(Module& module) {
  for (Function& f : module.functions) widenRegion(module, f.body);
}

}  // namespace tpjrt::cpu
