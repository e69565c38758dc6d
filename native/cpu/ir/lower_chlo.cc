#include "ir/lower_chlo.h"

#include <cmath>
#include <cstring>
#include <map>
#include <string>

#include "base/error.h"
#include "ir/element_type.h"
#include "ir/narrow_types.h"
#include "ir/op_builder.h"

namespace tpjrt::cpu {
namespace {

// The bits of a scalar attribute (`2.5 : f32`, `1 : i32`, `true`, a one-element dense<…>) as an element of `t`.
uint64_t scalarBits(ElementType t, const Attribute& a) {
  if (a.kind == Attribute::Kind::Dense && a.dense.bytes.size() == byteWidth(a.dense.type.element)) {
    if (a.dense.type.element != t) fail("its value has element type " + std::string(mlirName(a.dense.type.element)));
    uint64_t b = 0;
    std::memcpy(&b, a.dense.bytes.data(), byteWidth(t));
    return b;
  }
  if (a.kind == Attribute::Kind::Bool && t == ElementType::Pred) return a.b ? 1 : 0;
  if (a.kind == Attribute::Kind::Float && isFloat(t)) return floatBits(t, a.f);
  if (a.kind == Attribute::Kind::Int && isFloat(t)) return floatBits(t, double(a.i));
  if (a.kind == Attribute::Kind::Int && isNarrow(t)) return uint8_t(wrapNarrowInt(t, a.i));  // stored sign-extended
  if (a.kind == Attribute::Kind::Int && (isInteger(t) || t == ElementType::Pred)) {
    const size_t bits = t == ElementType::Pred ? 1 : byteWidth(t) * 8;
    return bits == 64 ? uint64_t(a.i) : uint64_t(a.i) & ((uint64_t{1} << bits) - 1);
  }
  fail("its value is not a scalar of element type " + std::string(mlirName(t)));
}

std::string dimsOf(const TensorType& t) {
  std::string s = "[";
  for (size_t i = 0; i < t.dims.size(); ++i) s += (i ? ", " : "") + std::to_string(t.dims[i]);
  return s + "]";
}

// Appends the ops that replace one CHLO op to `out`; intermediate values get fresh ids.
class Lowering : public OpBuilder {
 public:
  using OpBuilder::OpBuilder;

  void floatOperands() const {
    for (const TensorType& t : op_.operandTypes)
      if (!isFloat(t.element)) error("operand type " + typeString(t) + " must have a floating-point element type");
  }

  // Operand `i` broadcast to `dims` by CHLO's rule: trailing dimensions line up (or the op's
  // broadcast_dimensions place a lower-rank operand), and a dimension of 1 stretches.
  int broadcastOperand(size_t i, const std::vector<int64_t>& dims, const std::vector<int64_t>* map) {
    const TensorType& t = op_.operandTypes[i];
    if (t.dims == dims) return op_.operands[i];
    std::vector<int64_t> at(t.dims.size());
    const bool useMap = map && t.dims.size() < dims.size();
    if (useMap && map->size() != t.dims.size())
      error("broadcast_dimensions must have one entry per dimension of " + typeString(t));
    for (size_t d = 0; d < t.dims.size(); ++d) {
      at[d] = useMap ? (*map)[d] : int64_t(dims.size() - t.dims.size() + d);
      if (at[d] < 0 || size_t(at[d]) >= dims.size() || (t.dims[d] != 1 && t.dims[d] != dims[size_t(at[d])]))
        error("operand " + typeString(t) + " does not broadcast to the result shape " + dimsOf({t.element, dims}));
    }
    return emit("stablehlo.broadcast_in_dim", {op_.operands[i]}, {t}, {t.element, dims}, {{"broadcast_dimensions", intsAttr(at)}});
  }

  void broadcasting(const std::string& target) {
    const size_t n = target == "stablehlo.select" ? 3 : 2;
    arity(n, 1);
    const TensorType& result = op_.resultTypes[0];
    const std::vector<int64_t>* map = nullptr;
    if (auto it = op_.attrs.find("broadcast_dimensions"); it != op_.attrs.end()) {
      if (it->second->kind != Attribute::Kind::I64Array) error("broadcast_dimensions must be an array<i64: …>");
      map = &it->second->ints;
    }
    std::vector<int> ins;
    std::vector<TensorType> types;
    for (size_t i = 0; i < n; ++i) {
      ins.push_back(broadcastOperand(i, result.dims, map));
      types.push_back({op_.operandTypes[i].element, result.dims});
    }
    std::map<std::string, AttributePtr> attrs;
    for (const char* key : {"comparison_direction", "compare_type"})
      if (auto it = op_.attrs.find(key); it != op_.attrs.end()) attrs[key] = it->second;
    emit(target, ins, types, result, attrs, op_.results[0]);
  }

  void constantLike() {
    arity(1, 1);
    auto it = op_.attrs.find("value");
    if (it == op_.attrs.end()) error("missing attribute value");
    const TensorType& result = op_.resultTypes[0];
    if (result.dims != op_.operandTypes[0].dims) error("result type " + typeString(result) + " must have the shape of the operand");
    uint64_t bits;
    try {
      bits = scalarBits(result.element, *it->second);
    } catch (const CpuError& e) {
      error(std::string("attribute value: ") + e.what());
    }
    emit("stablehlo.constant", {}, {}, result, {{"value", splatAttr(result, bits)}}, op_.results[0]);
  }

  void infinityTest() {
    arity(1, 1);
    floatOperands();
    const TensorType& x = op_.operandTypes[0];
    if (op_.resultTypes[0] != TensorType{ElementType::Pred, x.dims})
      error("result type " + typeString(op_.resultTypes[0]) + " should be " + typeString({ElementType::Pred, x.dims}));
    const bool negative = op_.name == "chlo.is_neg_inf";
    int value = op_.operands[0];
    if (op_.name == "chlo.is_inf") value = emit("stablehlo.abs", {value}, {x}, x);
    const int inf = splat(x, floatBits(x.element, negative ? -INFINITY : INFINITY));
    emit("stablehlo.compare", {value, inf}, {x, x}, op_.resultTypes[0],
         {{"comparison_direction", symbolAttr("EQ")}, {"compare_type", symbolAttr("FLOAT")}}, op_.results[0]);
  }

  void unaryAs(const std::string& target) {
    arity(1, 1);
    floatOperands();
    const TensorType& x = op_.operandTypes[0];
    if (op_.resultTypes[0] != x) error("result type " + typeString(op_.resultTypes[0]) + " differs from operand type " + typeString(x));
    if (target == "stablehlo.multiply") emit(target, {op_.operands[0], op_.operands[0]}, {x, x}, x, {}, op_.results[0]);
    else emit(target, {op_.operands[0]}, {x}, x, {}, op_.results[0]);
  }

  // values, indices = the k largest along the last dimension, larger first, in IEEE total order (NaN
  // above +inf, +0 above -0), equal values in index order.
  void topK() {
    arity(1, 2);
    const TensorType& x = op_.operandTypes[0];
    auto kAttr = op_.attrs.find("k");
    if (kAttr == op_.attrs.end() || kAttr->second->kind != Attribute::Kind::Int) error("needs k as an integer");
    const int64_t k = kAttr->second->i;
    if (x.dims.empty()) error("operand " + typeString(x) + " must have at least one dimension");
    const size_t last = x.dims.size() - 1;
    if (k < 0 || k > x.dims[last]) error("k = " + std::to_string(k) + " must be in [0, " + std::to_string(x.dims[last]) + "]");
    TensorType values = x, indices = op_.resultTypes[1];
    values.dims[last] = k;
    if (op_.resultTypes[0] != values) error("values type " + typeString(op_.resultTypes[0]) + " should be " + typeString(values));
    if (!isInteger(indices.element) || indices.dims != values.dims)
      error("indices type " + typeString(indices) + " should be integers of shape " + dimsOf(values));
    const TensorType positions{indices.element, x.dims};
    const int iota = emit("stablehlo.iota", {}, {}, positions, {{"iota_dimension", intAttr(int64_t(last))}});

    Op sort;
    sort.name = "stablehlo.sort";
    sort.line = op_.line;
    sort.operands = {op_.operands[0], iota};
    sort.operandTypes = {x, positions};
    sort.resultTypes = sort.operandTypes;
    sort.results = {module_.numValues++, module_.numValues++};
    sort.attrs = {{"dimension", intAttr(int64_t(last))}, {"is_stable", boolAttr(true)}};
    Region& cmp = sort.regions.emplace_back();
    const TensorType scalar{x.element, {}}, index{indices.element, {}};
    cmp.argTypes = {scalar, scalar, index, index};
    for (size_t i = 0; i < 4; ++i) cmp.args.push_back(module_.numValues++);
    const char* order = isFloat(x.element) ? "TOTALORDER" : isSignedInt(x.element) ? "SIGNED" : "UNSIGNED";
    Op gt;
    gt.name = "stablehlo.compare";
    gt.line = op_.line;
    gt.operands = {cmp.args[0], cmp.args[1]};
    gt.operandTypes = {scalar, scalar};
    gt.resultTypes = {{ElementType::Pred, {}}};
    gt.results = {module_.numValues++};
    gt.attrs = {{"comparison_direction", symbolAttr("GT")}, {"compare_type", symbolAttr(order)}};
    Op ret;
    ret.name = "stablehlo.return";
    ret.line = op_.line;
    ret.operands = gt.results;
    ret.operandTypes = gt.resultTypes;
    cmp.ops.push_back(std::move(gt));
    cmp.ops.push_back(std::move(ret));
    const std::vector<int> sorted = sort.results;
    out_.push_back(std::move(sort));

    std::vector<int64_t> start(x.dims.size(), 0), limit = values.dims, strides(x.dims.size(), 1);
    const std::map<std::string, AttributePtr> box = {
        {"start_indices", intsAttr(start)}, {"limit_indices", intsAttr(limit)}, {"strides", intsAttr(strides)}};
    emit("stablehlo.slice", {sorted[0]}, {x}, values, box, op_.results[0]);
    emit("stablehlo.slice", {sorted[1]}, {positions}, indices, box, op_.results[1]);
  }

};

// chlo.broadcast_<name> → the StableHLO (or CHLO kernel) op it broadcasts for.
const std::map<std::string, std::string>& broadcastTargets() {
  static const std::map<std::string, std::string> targets = {
      {"chlo.broadcast_add", "stablehlo.add"},
      {"chlo.broadcast_and", "stablehlo.and"},
      {"chlo.broadcast_atan2", "stablehlo.atan2"},
      {"chlo.broadcast_compare", "stablehlo.compare"},
      {"chlo.broadcast_divide", "stablehlo.divide"},
      {"chlo.broadcast_maximum", "stablehlo.maximum"},
      {"chlo.broadcast_minimum", "stablehlo.minimum"},
      {"chlo.broadcast_multiply", "stablehlo.multiply"},
      {"chlo.broadcast_next_after", "chlo.next_after"},
      {"chlo.broadcast_or", "stablehlo.or"},
      {"chlo.broadcast_polygamma", "chlo.polygamma"},
      {"chlo.broadcast_power", "stablehlo.power"},
      {"chlo.broadcast_remainder", "stablehlo.remainder"},
      {"chlo.broadcast_select", "stablehlo.select"},
      {"chlo.broadcast_shift_left", "stablehlo.shift_left"},
      {"chlo.broadcast_shift_right_arithmetic", "stablehlo.shift_right_arithmetic"},
      {"chlo.broadcast_shift_right_logical", "stablehlo.shift_right_logical"},
      {"chlo.broadcast_subtract", "stablehlo.subtract"},
      {"chlo.broadcast_xor", "stablehlo.xor"},
      {"chlo.broadcast_zeta", "chlo.zeta"},
  };
  return targets;
}

void lowerRegion(Module& module, Region& region) {
  std::vector<Op> out;
  out.reserve(region.ops.size());
  for (Op& op : region.ops) {
    for (Region& nested : op.regions) lowerRegion(module, nested);
    if (op.name.compare(0, 5, "chlo.") != 0) {
      out.push_back(std::move(op));
      continue;
    }
    Lowering l(module, op, out);
    auto target = broadcastTargets().find(op.name);
    if (target != broadcastTargets().end()) {
      l.broadcasting(target->second);
    } else if (op.name == "chlo.constant") {
      l.arity(0, 1);
      op.name = "stablehlo.constant";
      out.push_back(std::move(op));
    } else if (op.name == "chlo.constant_like") {
      l.constantLike();
    } else if (op.name == "chlo.square") {
      l.unaryAs("stablehlo.multiply");
    } else if (op.name == "chlo.conj") {
      l.unaryAs("stablehlo.convert");  // complex types are refused by the parser, so this is a real: itself
    } else if (op.name == "chlo.is_inf" || op.name == "chlo.is_pos_inf" || op.name == "chlo.is_neg_inf") {
      l.infinityTest();
    } else if (op.name == "chlo.top_k") {
      l.topK();
    } else {
      out.push_back(std::move(op));  // a kernel (chlo.lgamma, …), or an op the verifier names as unsupported
    }
  }
  region.ops = std::move(out);
}

}  // namespace

void lowerChlo(Module& module) {
  for (Function& f : module.functions) lowerRegion(module, f.body);
}

}  // namespace tpjrt::cpu
