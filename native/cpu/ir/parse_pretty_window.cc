// The pretty forms of stablehlo.convolution (`dim_numbers = …, window = {…}`) and stablehlo.while
// (`(%iter = %init, …) : types cond {…} do {…}`); reduce_window, select_and_scatter and case have no
// pretty form (MLIR prints them generically). Attributes are stored under the generic names.
#include <cstring>

#include "ir/element_type.h"
#include "ir/parser_internal.h"

namespace tpjrt::cpu {

namespace {

AttributePtr share(Attribute a) { return std::make_shared<const Attribute>(std::move(a)); }

// `window = {stride = [..], pad = [[lo, hi], ..], lhs_dilate = [..], rhs_dilate = [..], reverse = [..]}`.
void windowAttributes(const std::map<std::string, AttributePtr>& window, Op& op, Scanner& s) {
  for (const auto& [key, value] : window) {
    if (key == "stride" || key == "lhs_dilate" || key == "rhs_dilate") {
      if (value->kind != Attribute::Kind::I64Array) s.errorAt(op.line, "window " + key + " must be a list of integers");
      op.attrs[key == "stride" ? "window_strides" : key == "lhs_dilate" ? "lhs_dilation" : "rhs_dilation"] = value;
    } else if (key == "pad") {
      Attribute dense;
      dense.kind = Attribute::Kind::Dense;
      std::vector<int64_t> flat;
      for (const auto& pair : value->kind == Attribute::Kind::Array ? value->items : std::vector<AttributePtr>{}) {
        if (pair->kind != Attribute::Kind::I64Array || pair->ints.size() != 2) s.errorAt(op.line, "window pad must be [[lo, hi], …]");
        flat.insert(flat.end(), pair->ints.begin(), pair->ints.end());
      }
      if (value->kind == Attribute::Kind::I64Array && !value->ints.empty()) s.errorAt(op.line, "window pad must be [[lo, hi], …]");
      dense.dense.type = {ElementType::S64, {int64_t(flat.size() / 2), 2}};
      dense.dense.bytes = Bytes(flat.size() * 8);
      if (!flat.empty()) std::memcpy(dense.dense.bytes.mutableData(), flat.data(), flat.size() * 8);
      dense.type = dense.dense.type;
      op.attrs["padding"] = share(std::move(dense));
    } else if (key == "reverse") {
      Attribute bools;
      bools.kind = Attribute::Kind::BoolArray;
      if (value->kind == Attribute::Kind::BoolArray) bools.bools = value->bools;
      else if (value->kind == Attribute::Kind::I64Array)
        for (int64_t v : value->ints) bools.bools.push_back(v != 0);
      else s.errorAt(op.line, "window reverse must be a list of booleans");
      op.attrs["window_reversal"] = share(std::move(bools));
    } else {
      s.errorAt(op.line, "unknown convolution window field '" + key + "'");
    }
  }
}

}  // namespace

bool Parser::parsePrettyWindowOp(Op& op, const std::string& name, size_t numResults) {
  if (name == "stablehlo.convolution") {
    s.expect('(');
    std::vector<Value> operands = parseOperandRefs();
    s.expect(')');
    s.expectKeyword("dim_numbers");
    s.expect('=');
    // `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`: kept as text, read by parseConvDims.
    size_t start = s.pos();
    for (int group = 0; group < 3; ++group) {
      s.expect('[');
      s.skipBalanced('[', ']');
      if (group == 0) s.expectKeyword("x");
      if (group == 1) s.expect("->");
    }
    Attribute numbers;
    numbers.kind = Attribute::Kind::String;
    numbers.s = std::string(s.text().substr(start, s.pos() - start));
    op.attrs["dimension_numbers"] = share(std::move(numbers));
    if (s.consume(',')) {
      s.expectKeyword("window");
      s.expect('=');
      std::map<std::string, AttributePtr> window;
      parseAttributeDict(window);
      windowAttributes(window, op, s);
    }
    if (s.peek() == '{') parseAttributeDict(op.attrs);
    s.expect(':');
    TypeSignature sig = parseTypeSignature();
    s.skipLocation();
    applyTypeSignature(op, sig, operands.size(), numResults, s);
    finishOp(op, operands);
    return true;
  }
  if (name == "stablehlo.while") {
    s.expect('(');
    std::vector<std::string> names;
    std::vector<Value> operands;
    if (!s.consume(')')) {
      do {
        names.push_back(s.valueName());
        s.expect('=');
        operands.push_back(parseValueRef());
      } while (s.consume(','));
      s.expect(')');
    }
    if (s.peek() == '{') parseAttributeDict(op.attrs);
    if (!operands.empty()) {
      s.expect(':');
      op.operandTypes = parseTypeSignature().list;
    }
    s.skipLocation();
    if (op.operandTypes.size() != operands.size())
      s.errorAt(op.line, std::to_string(operands.size()) + " operands but " + std::to_string(op.operandTypes.size()) + " types");
    op.resultTypes = op.operandTypes;
    for (const char* keyword : {"cond", "do"}) {
      s.expectKeyword(keyword);
      op.regions.emplace_back();
      Region& region = op.regions.back();
      pushScope(false);
      for (size_t i = 0; i < names.size(); ++i) defineBlockArgument(region, names[i], op.operandTypes[i]);
      s.expect('{');
      parseRegionBody(region);
      s.expect('}');
      popScope();
    }
    s.skipLocation();  // `} loc(#loc3)`: the while's own location follows its last region
    finishOp(op, operands);
    return true;
  }
  return false;
}

}  // namespace tpjrt::cpu
