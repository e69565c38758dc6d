// The pretty (custom assembly) form of each op the plugin supports. Attributes are stored under the
// generic form's names, so the verifier and interpreter see one shape whichever form came in.
#include <set>

#include "ir/element_type.h"
#include "ir/op_builder.h"
#include "ir/parser_internal.h"

namespace tpjrt::cpu {
namespace {

AttributePtr ints(std::vector<int64_t> v) {
  Attribute a;
  a.kind = Attribute::Kind::I64Array;
  a.ints = std::move(v);
  return std::make_shared<const Attribute>(std::move(a));
}

AttributePtr integer(int64_t v) {
  Attribute a;
  a.kind = Attribute::Kind::Int;
  a.i = v;
  a.type.element = ElementType::S64;
  return std::make_shared<const Attribute>(std::move(a));
}

AttributePtr symbol(std::string v) {
  Attribute a;
  a.kind = Attribute::Kind::Symbol;
  a.s = std::move(v);
  return std::make_shared<const Attribute>(std::move(a));
}

// `[DEFAULT, HIGHEST]`, the precision_config of dot and dot_general.
AttributePtr precisionList(Scanner& s) {
  Attribute list;
  list.kind = Attribute::Kind::Array;
  s.expect('[');
  if (!s.consume(']')) {
    do list.items.push_back(symbol(s.identifier()));
    while (s.consume(','));
    s.expect(']');
  }
  return std::make_shared<const Attribute>(std::move(list));
}

// Ops whose pretty form is `operands [attr-dict] : types`.
const std::set<std::string>& plainOps() {
  static const std::set<std::string> ops = {
      "stablehlo.add", "stablehlo.subtract", "stablehlo.multiply", "stablehlo.divide", "stablehlo.remainder",
      "stablehlo.power", "stablehlo.maximum", "stablehlo.minimum", "stablehlo.atan2", "stablehlo.and",
      "stablehlo.or", "stablehlo.xor", "stablehlo.not", "stablehlo.shift_left", "stablehlo.shift_right_arithmetic",
      "stablehlo.shift_right_logical", "stablehlo.negate", "stablehlo.abs", "stablehlo.sign",
      "stablehlo.exponential", "stablehlo.exponential_minus_one", "stablehlo.log", "stablehlo.log_plus_one",
      "stablehlo.logistic", "stablehlo.tanh", "stablehlo.sqrt", "stablehlo.rsqrt", "stablehlo.cbrt",
      "stablehlo.sine", "stablehlo.cosine", "stablehlo.tan", "stablehlo.floor", "stablehlo.ceil",
      "stablehlo.round_nearest_even", "stablehlo.round_nearest_afz", "stablehlo.is_finite", "stablehlo.select",
      "stablehlo.clamp", "stablehlo.convert", "stablehlo.bitcast_convert", "stablehlo.reshape",
      "stablehlo.dynamic_update_slice", "stablehlo.popcnt", "stablehlo.count_leading_zeros", "stablehlo.real",
      "stablehlo.imag", "stablehlo.complex", "stablehlo.optimization_barrier", "stablehlo.dynamic_reshape",
      "stablehlo.replica_id", "stablehlo.partition_id", "chlo.erf", "chlo.erfc", "chlo.erf_inv", "chlo.lgamma", "chlo.digamma",
      "chlo.bessel_i1e", "chlo.acos", "chlo.acosh", "chlo.asin", "chlo.asinh", "chlo.atan", "chlo.atanh", "chlo.cosh",
      "chlo.sinh", "chlo.tan", "chlo.square", "chlo.conj", "chlo.is_inf", "chlo.is_pos_inf", "chlo.is_neg_inf",
      "chlo.next_after", "chlo.polygamma", "chlo.zeta", "chlo.mulhi", "chlo.broadcast_add", "chlo.broadcast_and",
      "chlo.broadcast_atan2", "chlo.broadcast_compare", "chlo.broadcast_divide", "chlo.broadcast_maximum",
      "chlo.broadcast_minimum", "chlo.broadcast_multiply", "chlo.broadcast_next_after", "chlo.broadcast_or",
      "chlo.broadcast_polygamma", "chlo.broadcast_power", "chlo.broadcast_remainder", "chlo.broadcast_select",
      "chlo.broadcast_shift_left", "chlo.broadcast_shift_right_arithmetic", "chlo.broadcast_shift_right_logical",
      "chlo.broadcast_subtract", "chlo.broadcast_xor", "chlo.broadcast_zeta"};
  return ops;
}

}  // namespace

TypeSignature Parser::parseTypeSignature() {
  TypeSignature sig;
  if (s.peek() == '(') {
    FunctionType ft = parseFunctionType();
    sig.functional = true;
    sig.list = std::move(ft.inputs);
    sig.results = std::move(ft.results);
    return sig;
  }
  do sig.list.push_back(parseType());
  while (s.consume(','));
  if (s.consume("->")) {  // `a, b -> result` or `a -> (r1, r2)`, as CHLO's ops print
    sig.functional = true;
    sig.results = parseTypeList();
  }
  return sig;
}

void applyTypeSignature(Op& op, const TypeSignature& sig, size_t numOperands, size_t numResults, Scanner& s) {
  if (sig.functional) {
    if (sig.list.size() != numOperands)
      s.errorAt(op.line, std::to_string(numOperands) + " operands but the signature lists " +
                             std::to_string(sig.list.size()) + " operand types");
    op.operandTypes = sig.list;
    op.resultTypes = sig.results;
  } else if (sig.list.size() == 1) {
    op.operandTypes.assign(numOperands, sig.list[0]);
    op.resultTypes.assign(numResults, sig.list[0]);
  } else if (numResults == 0 && sig.list.size() == numOperands) {
    op.operandTypes = sig.list;
  } else if (numResults == numOperands && sig.list.size() == numOperands) {  // optimization_barrier
    op.operandTypes = sig.list;
    op.resultTypes = sig.list;
  } else if (op.name == "stablehlo.select" && sig.list.size() == 2 && numOperands == 3) {
    op.operandTypes = {sig.list[0], sig.list[1], sig.list[1]};
    op.resultTypes.assign(numResults, sig.list[1]);
  } else {
    s.errorAt(op.line, "the type signature lists " + std::to_string(sig.list.size()) + " types for " +
                           std::to_string(numOperands) + " operands");
  }
}

void Parser::parsePrettyOp(Op& op, const std::string& word, size_t numResults) {
  std::string name = word == "return" ? "func.return" : word == "call" ? "func.call" : word;
  op.name = name;
  s.context = name;
  bool isReturn = name == "func.return" || name == "stablehlo.return";
  if (numResults == 0 && !isReturn) numResults = 1;
  std::vector<Value> operands;
  auto tail = [&]() {
    if (s.peek() == '{') parseAttributeDict(op.attrs);
    s.expect(':');
    TypeSignature sig = parseTypeSignature();
    s.skipLocation();
    applyTypeSignature(op, sig, operands.size(), numResults, s);
    rejectOldDimensionLists(op, s);
    finishOp(op, operands);
  };
  auto keyword = [&](const char* key) {
    s.expect(',');
    s.expectKeyword(key);
    s.expect('=');
  };

  if (plainOps().count(name)) {
    operands = parseOperandRefs();
    tail();
  } else if (isReturn) {
    operands = parseOperandRefs();
    if (!operands.empty()) {
      tail();
    } else {
      if (s.peek() == '{') parseAttributeDict(op.attrs);
      s.skipLocation();
    }
  } else if (name == "stablehlo.constant" || name == "chlo.constant") {
    if (s.peek() == '{') parseAttributeDict(op.attrs);
    AttributePtr value = parseAttribute();
    if (value->kind != Attribute::Kind::Dense) s.errorAt(op.line, "expected a dense<…> literal");
    op.attrs["value"] = value;
    op.resultTypes.assign(numResults, value->dense.type);
    s.skipLocation();
    finishOp(op, operands);
  } else if (name == "stablehlo.iota") {
    s.expectKeyword("dim");
    s.expect('=');
    op.attrs["iota_dimension"] = integer(s.integer());
    tail();
  } else if (name == "stablehlo.broadcast_in_dim" || name == "stablehlo.transpose" || name == "stablehlo.reverse") {
    operands = parseOperandRefs();
    keyword("dims");
    const char* key = name == "stablehlo.broadcast_in_dim" ? "broadcast_dimensions"
                      : name == "stablehlo.transpose"      ? "permutation"
                                                           : "dimensions";
    op.attrs[key] = ints(parseIntList());
    tail();
  } else if (name == "stablehlo.slice") {
    operands = parseOperandRefs();
    std::vector<int64_t> start, limit, strides;
    s.expect('[');
    if (!s.consume(']')) {
      do {
        start.push_back(s.integer());
        s.expect(':');
        limit.push_back(s.integer());
        strides.push_back(s.consume(':') ? s.integer() : 1);
      } while (s.consume(','));
      s.expect(']');
    }
    op.attrs["start_indices"] = ints(start);
    op.attrs["limit_indices"] = ints(limit);
    op.attrs["strides"] = ints(strides);
    tail();
  } else if (name == "stablehlo.dynamic_slice") {
    operands = parseOperandRefs();
    keyword("sizes");
    op.attrs["slice_sizes"] = ints(parseIntList());
    tail();
  } else if (name == "stablehlo.concatenate") {
    operands = parseOperandRefs();
    keyword("dim");
    op.attrs["dimension"] = integer(s.integer());
    tail();
  } else if (name == "stablehlo.pad") {
    operands = parseOperandRefs();
    keyword("low");
    op.attrs["edge_padding_low"] = ints(parseIntList());
    keyword("high");
    op.attrs["edge_padding_high"] = ints(parseIntList());
    keyword("interior");
    op.attrs["interior_padding"] = ints(parseIntList());
    tail();
  } else if (name == "stablehlo.compare") {
    op.attrs["comparison_direction"] = symbol(s.identifier());
    s.expect(',');
    operands = parseOperandRefs();
    if (s.consume(',')) op.attrs["compare_type"] = symbol(s.identifier());
    tail();
  } else if (name == "stablehlo.dot_general") {
    operands = parseOperandRefs();
    Attribute dims;
    dims.kind = Attribute::Kind::Struct;
    for (const char* key : {"lhs_batching_dimensions", "rhs_batching_dimensions", "lhs_contracting_dimensions",
                            "rhs_contracting_dimensions"})
      dims.fields[key] = ints({});
    while (s.consume(',')) {
      std::string key = s.identifier();
      s.expect('=');
      if (key == "batching_dims" || key == "contracting_dims") {
        std::string side = key == "batching_dims" ? "batching_dimensions" : "contracting_dimensions";
        dims.fields["lhs_" + side] = ints(parseIntList());
        s.expectKeyword("x");
        dims.fields["rhs_" + side] = ints(parseIntList());
      } else if (key == "precision") {
        op.attrs["precision_config"] = precisionList(s);
      } else if (key == "algorithm") {
        op.attrs["algorithm"] = parseAttribute();
      } else {
        s.error("unknown dot_general field '" + key + "'");
      }
    }
    op.attrs["dot_dimension_numbers"] = std::make_shared<const Attribute>(std::move(dims));
    tail();
  } else if (name == "stablehlo.reduce") {
    std::vector<Value> inputs, inits;
    do {
      s.expect('(');
      inputs.push_back(parseValueRef());
      s.expectKeyword("init");
      s.expect(':');
      inits.push_back(parseValueRef());
      s.expect(')');
    } while (s.consume(','));
    operands = inputs;
    operands.insert(operands.end(), inits.begin(), inits.end());
    std::string applies;
    if (s.consumeKeyword("applies")) applies = s.identifier();
    s.expectKeyword("across");
    s.expectKeyword("dimensions");
    s.expect('=');
    op.attrs["dimensions"] = ints(parseIntList());
    tail();
    op.regions.emplace_back();
    Region& body = op.regions.back();
    size_t n = inputs.size();
    if (!applies.empty()) {
      if (n != 1) s.errorAt(op.line, "the 'applies' form takes one input");
      body = binaryRegion(module, inits[0].type, applies, op.line);
    } else {
      s.expectKeyword("reducer");
      std::vector<std::pair<std::string, TensorType>> lhs, rhs;
      for (size_t i = 0; i < n; ++i) {
        s.expect('(');
        for (auto* side : {&lhs, &rhs}) {
          if (side == &rhs) s.expect(',');
          std::string argName = s.valueName();
          s.expect(':');
          side->push_back({argName, parseType()});
          s.skipLocation();
        }
        s.expect(')');
      }
      pushScope(false);
      for (auto* side : {&lhs, &rhs})
        for (const auto& [argName, type] : *side) defineBlockArgument(body, argName, type);
      s.expect('{');
      parseRegionBody(body);
      s.expect('}');
      popScope();
      s.skipLocation();  // the reduce's own location follows its body
    }
  } else if (name == "chlo.top_k") {  // `chlo.top_k(%x, k = 3[, is_stable = true]) : t -> (values, indices)`
    s.expect('(');
    operands = parseOperandRefs();
    keyword("k");
    op.attrs["k"] = integer(s.integer());
    if (s.consume(',')) {
      s.expectKeyword("is_stable");
      s.expect('=');
      op.attrs["is_stable"] = parseAttribute();
    }
    s.expect(')');
    tail();
  } else if (name == "stablehlo.reduce_precision") {  // `%x, format = e5m10 : t`
    operands = parseOperandRefs();
    keyword("format");
    const std::string format = s.identifier();
    const size_t m = format.find('m');
    auto digits = [](const std::string& t) { return !t.empty() && t.size() <= 9 && t.find_first_not_of("0123456789") == std::string::npos; };
    if (format[0] != 'e' || m == std::string::npos || !digits(format.substr(1, m - 1)) || !digits(format.substr(m + 1)))
      s.error("format must be e<exponent bits>m<mantissa bits>, got " + format);
    op.attrs["exponent_bits"] = integer(std::stoll(format.substr(1, m - 1)));
    op.attrs["mantissa_bits"] = integer(std::stoll(format.substr(m + 1)));
    tail();
  } else if (name == "stablehlo.get_dimension_size" || name == "stablehlo.dynamic_iota") {  // `%x, dim = 1 : (t) -> r`
    operands = parseOperandRefs();
    keyword("dim");
    op.attrs[name == "stablehlo.dynamic_iota" ? "iota_dimension" : "dimension"] = integer(s.integer());
    tail();
  } else if (name == "stablehlo.dynamic_broadcast_in_dim") {  // `%x, %shape, dims = [..][, known_… = [..]] : (…) -> r`
    operands = parseOperandRefs();
    while (s.consume(',')) {
      std::string key = s.identifier();
      s.expect('=');
      op.attrs[key == "dims" ? "broadcast_dimensions" : key] = ints(parseIntList());
    }
    tail();
  } else if (name == "stablehlo.dot") {  // `%a, %b[, precision = [..]] : (…) -> r`
    operands = parseOperandRefs();
    if (s.consume(',')) {
      s.expectKeyword("precision");
      s.expect('=');
      op.attrs["precision_config"] = precisionList(s);
    }
    tail();
  } else if (name == "stablehlo.composite") {  // `"name" %a, %b {decomposition = @f, …} : (…) -> r`
    Attribute compositeName;
    compositeName.kind = Attribute::Kind::String;
    compositeName.s = s.stringLiteral();
    op.attrs["name"] = std::make_shared<const Attribute>(std::move(compositeName));
    operands = parseOperandRefs();
    tail();
  } else if (name == "stablehlo.custom_call") {  // `@target(%a, …) {…} : (…) -> …`
    Attribute target;
    target.kind = Attribute::Kind::String;
    target.s = s.symbolName();
    op.attrs["call_target_name"] = std::make_shared<const Attribute>(std::move(target));
    s.expect('(');
    if (!s.consume(')')) {
      operands = parseOperandRefs();
      s.expect(')');
    }
    tail();
  } else if (name == "sdy.sharding_constraint" || name == "sdy.reshard") {  // `%x <@mesh, [{}, …]> : t`
    operands = parseOperandRefs();
    s.expect('<');
    s.skipBalanced('<', '>');
    tail();
  } else if (name == "stablehlo.cholesky") {  // `%a, lower = true : t`
    operands = parseOperandRefs();
    if (s.consume(',')) {
      s.expectKeyword("lower");
      s.expect('=');
      op.attrs["lower"] = parseAttribute();
    }
    tail();
  } else if (name == "func.call") {
    op.attrs["callee"] = symbol("@" + s.symbolName());
    s.expect('(');
    operands = parseOperandRefs();
    s.expect(')');
    tail();
  } else if (!parsePrettyWindowOp(op, name, numResults)) {
    s.context.clear();
    s.errorAt(op.line, "unsupported op '" + name + "'", ErrorCode::Unimplemented);
  }
}

}  // namespace tpjrt::cpu
