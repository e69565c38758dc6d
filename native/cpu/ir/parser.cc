// Module, function, region and generic-op structure of MLIR text, and SSA name scopes.
#include <cstring>

#include "ir/capture_constants.h"
#include "ir/element_type.h"
#include "ir/inline_calls.h"
#include "ir/lower_chlo.h"
#include "ir/lower_spec_ops.h"
#include "ir/widen_narrow_types.h"
#include "ir/parser_internal.h"
#include "ir/stablehlo.h"

namespace tpjrt::cpu {
namespace {

constexpr int64_t kMaxResultsPerName = 1 << 16;

const Attribute* findAttr(const Op& op, const std::string& key) {
  auto it = op.attrs.find(key);
  return it == op.attrs.end() ? nullptr : it->second.get();
}

}  // namespace

Module parseModule(std::string_view text) {
  Parser parser(text);
  Module module = parser.parse();
  lowerSpecOps(module);
  inlineCalls(module);
  lowerChlo(module);
  copyCapturedConstants(module);
  widenNarrowTypes(module);
  return module;
}

Module Parser::parse() {
  parseTopLevel();
  return std::move(module);
}

void Parser::skipAliasDefinitions() {
  while (s.peek() == '#' || s.peek() == '!') {
    s.context.clear();
    s.expect(s.peek());
    s.identifier();
    s.expect('=');
    parseAttribute();
  }
}

void Parser::parseTopLevel() {
  skipAliasDefinitions();
  bool genericModule = false;
  if (s.peek() == '"') {
    size_t save = s.pos();
    genericModule = s.stringLiteral() == "builtin.module";
    s.setPos(save);
  }
  if (genericModule) {
    parseGenericModule();
  } else if (s.peekKeyword("module") || s.peekKeyword("builtin.module")) {
    parsePrettyModule();
  } else {
    parseModuleBody('\0');
  }
  skipAliasDefinitions();
  s.context.clear();
  if (!s.atEnd()) s.error("unexpected text after the module");
}

void Parser::parseGenericModule() {
  s.stringLiteral();
  s.context = "builtin.module";
  s.expect('(');
  s.expect(')');
  std::map<std::string, AttributePtr> props;
  if (s.peek() == '<') {
    s.expect('<');
    parseAttributeDict(props);
    s.expect('>');
  }
  s.expect('(');
  s.expect('{');
  if (s.consume('^')) {
    s.identifier();
    s.expect(':');
  }
  parseModuleBody('}');
  s.expect('}');
  s.expect(')');
  s.context = "builtin.module";
  if (props.count("sym_name")) module.attrs["sym_name"] = props["sym_name"];
  if (s.peek() == '{') parseAttributeDict(module.attrs);
  s.expect(':');
  FunctionType ft = parseFunctionType();
  if (!ft.inputs.empty() || !ft.results.empty()) s.error("a module has no operands or results");
  s.skipLocation();
}

void Parser::parsePrettyModule() {
  if (!s.consumeKeyword("module")) s.expectKeyword("builtin.module");
  s.context = "module";
  if (s.peek() == '@') {
    Attribute name;
    name.kind = Attribute::Kind::String;
    name.s = s.symbolName();
    module.attrs["sym_name"] = std::make_shared<const Attribute>(std::move(name));
  }
  if (s.consumeKeyword("attributes")) parseAttributeDict(module.attrs);
  s.expect('{');
  parseModuleBody('}');
  s.context = "module";
  s.expect('}');
  s.skipLocation();
}

void Parser::parseModuleBody(char terminator) {
  while (true) {
    s.context.clear();
    if (terminator == '\0' ? s.atEnd() : s.peek() == terminator) return;
    if (s.atEnd()) s.error(std::string("unbalanced '{': input ends before '") + terminator + "'");
    if (s.peek() == '"' || s.peek() == '%') {
      Op op = parseOp();
      if (op.name != "func.func") s.errorAt(op.line, "unsupported op '" + op.name + "' at module level", ErrorCode::Unimplemented);
      module.functions.push_back(toFunction(op));
    } else if (s.peekKeyword("func.func")) {
      parsePrettyFunction();
    } else if (s.consumeKeyword("sdy.mesh")) {  // `sdy.mesh @m = <…> {…}`: a Shardy mesh; programs here run on one device
      s.symbolName();
      s.expect('=');
      s.expect('<');
      s.skipBalanced('<', '>');
      if (s.consume('{')) s.skipBalanced('{', '}');
      s.skipLocation();
    } else if (s.peek() == '#' && terminator == '\0') {
      return;  // trailing alias definitions
    } else {
      std::string what = s.peekIdentifier() ? "'" + s.identifier() + "'" : "'" + std::string(1, s.peek()) + "'";
      s.error("expected a func.func but found " + what);
    }
  }
}

Function Parser::toFunction(Op& op) {
  s.context = "func.func";
  Function f;
  f.line = op.line;
  const Attribute* name = findAttr(op, "sym_name");
  if (!name || name->kind != Attribute::Kind::String) s.errorAt(op.line, "missing sym_name");
  f.name = name->s;
  s.context = "func.func @" + f.name;
  const Attribute* visibility = findAttr(op, "sym_visibility");
  f.isPublic = !visibility || visibility->kind != Attribute::Kind::String || visibility->s == "public";
  const Attribute* type = findAttr(op, "function_type");
  if (!type || type->kind != Attribute::Kind::Struct || !type->fields.count("inputs"))
    s.errorAt(op.line, "missing function_type");
  if (op.regions.size() != 1) s.errorAt(op.line, "a function needs exactly one region (its body)");
  if (!op.operands.empty() || !op.resultTypes.empty()) s.errorAt(op.line, "a function op has no operands or results");
  auto typesOf = [&](const char* key) {
    std::vector<TensorType> types;
    auto it = type->fields.find(key);
    if (it == type->fields.end() || it->second->kind != Attribute::Kind::Array)
      s.errorAt(op.line, "bad function_type");
    for (const auto& t : it->second->items) {
      if (t->kind != Attribute::Kind::Type) s.errorAt(op.line, "bad function_type");
      types.push_back(t->type);
    }
    return types;
  };
  std::vector<TensorType> inputs = typesOf("inputs");
  f.resultTypes = typesOf("results");
  f.body = std::move(op.regions[0]);
  if (inputs != f.body.argTypes)
    s.errorAt(op.line, "function_type inputs do not match the body's block arguments");
  if (const Attribute* argAttrs = findAttr(op, "arg_attrs")) {
    if (argAttrs->kind != Attribute::Kind::Array || argAttrs->items.size() != inputs.size())
      s.errorAt(op.line,
                "arg_attrs must be a list of one dictionary per parameter (" + std::to_string(inputs.size()) + ")");
    for (const AttributePtr& item : argAttrs->items) {
      if (item->kind != Attribute::Kind::Struct) s.errorAt(op.line, "arg_attrs must hold dictionaries");
      f.argAttrs.push_back(item->fields);
    }
  }
  return f;
}

void Parser::parsePrettyFunction() {
  Function f;
  f.line = s.line();
  s.context = "func.func";
  s.expectKeyword("func.func");
  if (s.consumeKeyword("private") || s.consumeKeyword("nested")) f.isPublic = false;
  else s.consumeKeyword("public");
  f.name = s.symbolName();
  s.context = "func.func @" + f.name;
  pushScope(true);
  s.expect('(');
  if (!s.consume(')')) {
    bool anyAttrs = false;
    do {
      std::string name = s.valueName();
      s.expect(':');
      TensorType t = parseType();
      f.argAttrs.emplace_back();
      if (s.peek() == '{') {
        parseAttributeDict(f.argAttrs.back());
        anyAttrs = true;
      }
      s.skipLocation();
      defineBlockArgument(f.body, name, t);
    } while (s.consume(','));
    s.expect(')');
    if (!anyAttrs) f.argAttrs.clear();
  }
  if (s.consume("->")) {
    if (s.consume('(')) {
      if (!s.consume(')')) {
        do {
          f.resultTypes.push_back(parseType());
          std::map<std::string, AttributePtr> ignored;
          if (s.peek() == '{') parseAttributeDict(ignored);
        } while (s.consume(','));
        s.expect(')');
      }
    } else {
      f.resultTypes.push_back(parseType());
    }
  }
  if (s.consumeKeyword("attributes")) {
    std::map<std::string, AttributePtr> ignored;
    parseAttributeDict(ignored);
  }
  if (s.peek() != '{') s.error("function has no body");
  s.expect('{');
  parseRegionBody(f.body);
  s.expect('}');
  popScope();
  s.skipLocation();
  module.functions.push_back(std::move(f));
}

void Parser::pushScope(bool isolated) { scopes_.push_back(Scope{isolated, {}}); }

void Parser::popScope() {
  if (!scopes_.empty()) scopes_.pop_back();
}

const std::vector<Value>* Parser::lookup(const std::string& name) {
  for (size_t i = scopes_.size(); i-- > 0;) {
    auto it = scopes_[i].values.find(name);
    if (it != scopes_[i].values.end()) return &it->second;
    if (scopes_[i].isolated) break;
  }
  return nullptr;
}

void Parser::defineBlockArgument(Region& region, const std::string& name, const TensorType& type) {
  if (scopes_.empty()) s.error("block argument outside a region");
  if (lookup(name)) s.error("value %" + name + " is defined twice");
  Value v{module.numValues++, type, "%" + name};
  scopes_.back().values[name] = {v};
  region.args.push_back(v.id);
  region.argTypes.push_back(type);
}

void Parser::defineResults(Op& op, const std::vector<ResultName>& names) {
  if (names.empty()) {  // results nobody names are still values
    for (size_t i = 0; i < op.resultTypes.size(); ++i) op.results.push_back(module.numValues++);
    return;
  }
  size_t total = 0;
  for (const auto& n : names) total += n.count;
  if (total != op.resultTypes.size())
    s.errorAt(op.line, std::to_string(total) + " result names for " + std::to_string(op.resultTypes.size()) +
                           " result types");
  size_t next = 0;
  for (const auto& n : names) {
    if (lookup(n.name)) s.errorAt(op.line, "value %" + n.name + " is defined twice");
    std::vector<Value> values;
    for (size_t i = 0; i < n.count; ++i, ++next) {
      std::string shown = "%" + n.name;
      if (n.count > 1) shown.append("#").append(std::to_string(i));
      values.push_back(Value{module.numValues++, op.resultTypes[next], shown});
      op.results.push_back(values.back().id);
    }
    if (scopes_.empty()) s.errorAt(op.line, "op results outside a function");
    scopes_.back().values[n.name] = std::move(values);
  }
}

Value Parser::parseValueRef() {
  std::string name = s.valueName();
  long index = -1;
  std::string_view text = s.text();
  if (s.pos() < text.size() && text[s.pos()] == '#') {
    size_t p = s.pos() + 1;
    index = 0;
    while (p < text.size() && text[p] >= '0' && text[p] <= '9' && index < kMaxResultsPerName) {
      index = index * 10 + (text[p] - '0');
      ++p;
    }
    if (p == s.pos() + 1) s.error("expected a result number after %" + name + "#");
    s.setPos(p);
  }
  const std::vector<Value>* values = lookup(name);
  if (!values) s.error("use of undefined value %" + name);
  if (index < 0) {
    if (values->size() != 1)
      s.error("%" + name + " has " + std::to_string(values->size()) + " results; name one as %" + name + "#0");
    return values->front();
  }
  if (static_cast<size_t>(index) >= values->size())
    s.error("%" + name + "#" + std::to_string(index) + " is out of range (" + std::to_string(values->size()) +
            " results)");
  return (*values)[index];
}

std::vector<Value> Parser::parseOperandRefs() {
  std::vector<Value> out;
  if (s.peek() != '%') return out;
  while (true) {
    out.push_back(parseValueRef());
    size_t save = s.pos();
    if (s.consume(',') && s.peek() == '%') continue;
    s.setPos(save);
    return out;
  }
}

void Parser::parseRegion(Region& region, bool isolated) {
  Scanner::Depth depth(s);
  s.expect('{');
  pushScope(isolated);
  if (s.consume('^')) {
    s.identifier();
    if (s.consume('(')) {
      if (!s.consume(')')) {
        do {
          std::string name = s.valueName();
          s.expect(':');
          TensorType t = parseType();
          s.skipLocation();
          defineBlockArgument(region, name, t);
        } while (s.consume(','));
        s.expect(')');
      }
    }
    s.expect(':');
  }
  parseRegionBody(region);
  s.expect('}');
  popScope();
}

void Parser::parseRegionBody(Region& region) {
  while (s.peek() != '}') {
    if (s.atEnd()) s.error("unbalanced '{': input ends before '}'");
    if (s.peek() == '^') s.error("regions with more than one block are not supported");
    region.ops.push_back(parseOp());
  }
}

Op Parser::parseOp() {
  Scanner::Depth depth(s);
  std::string outer = s.context;
  s.context.clear();
  Op op;
  op.line = s.line();
  std::vector<ResultName> names;
  if (s.peek() == '%') {
    do {
      ResultName r;
      r.name = s.valueName();
      if (s.consume(':')) {
        int64_t n = s.integer();
        if (n < 1 || n > kMaxResultsPerName) s.error("bad result count " + std::to_string(n));
        r.count = static_cast<size_t>(n);
      }
      names.push_back(r);
    } while (s.consume(','));
    s.expect('=');
  }
  size_t numResults = 0;
  for (const auto& n : names) numResults += n.count;
  if (s.peek() == '"') {
    op.name = s.stringLiteral();
    s.context = op.name;
    parseGenericOp(op, op.name, numResults);
  } else if (s.peekIdentifier()) {
    parsePrettyOp(op, s.identifier(), numResults);
  } else {
    s.error("expected an op");
  }
  s.context = op.name;
  defineResults(op, names);
  s.context = outer;
  return op;
}

void Parser::parseGenericOp(Op& op, const std::string& name, size_t numResults) {
  s.expect('(');
  std::vector<Value> operands = parseOperandRefs();
  s.expect(')');
  if (s.peek() == '[') s.error("successor blocks are not supported");
  if (s.peek() == '<') {
    s.expect('<');
    parseAttributeDict(op.attrs);
    s.expect('>');
  }
  if (s.consume('(')) {
    bool isolated = name == "func.func";
    do {
      op.regions.emplace_back();
      parseRegion(op.regions.back(), isolated);
      s.context = name;
    } while (s.consume(','));
    s.expect(')');
  }
  if (s.peek() == '{') parseAttributeDict(op.attrs);
  s.expect(':');
  FunctionType ft = parseFunctionType();
  s.skipLocation();
  if (ft.inputs.size() != operands.size())
    s.errorAt(op.line, std::to_string(operands.size()) + " operands but the signature lists " +
                           std::to_string(ft.inputs.size()) + " operand types");
  op.operandTypes = std::move(ft.inputs);
  op.resultTypes = std::move(ft.results);
  rejectOldDimensionLists(op, s);
  normaliseAttributes(op);
  finishOp(op, operands);
}

void Parser::finishOp(Op& op, const std::vector<Value>& operands) {
  if (operands.size() != op.operandTypes.size())
    s.errorAt(op.line, std::to_string(operands.size()) + " operands but " + std::to_string(op.operandTypes.size()) +
                           " operand types");
  for (size_t i = 0; i < operands.size(); ++i) {
    if (operands[i].type != op.operandTypes[i])
      s.errorAt(op.line, "operand " + operands[i].name + " has type " + typeString(operands[i].type) +
                             " but the signature says " + typeString(op.operandTypes[i]));
    op.operands.push_back(operands[i].id);
  }
}

namespace {

// The elements of an integer dense literal, as written ("1, 0").
std::string denseIntegers(const Literal& lit) {
  std::string out;
  size_t w = byteWidth(lit.type.element);
  for (size_t at = 0; w > 0 && at + w <= lit.bytes.size() && at < 16 * w; at += w) {
    int64_t v = 0;
    if (w == 8) { std::memcpy(&v, lit.bytes.data() + at, 8); }
    else if (w == 4) { int32_t x; std::memcpy(&x, lit.bytes.data() + at, 4); v = x; }
    else if (w == 2) { int16_t x; std::memcpy(&x, lit.bytes.data() + at, 2); v = x; }
    else { v = static_cast<int8_t>(lit.bytes[at]); }
    out += (out.empty() ? "" : ", ") + std::to_string(v);
  }
  if (lit.bytes.size() > 16 * w) out += ", …";
  return out;
}

}  // namespace

void rejectOldDimensionLists(const Op& op, Scanner& s) {
  static const char* const kDimensionLists[] = {
      "broadcast_dimensions", "permutation", "start_indices", "limit_indices", "strides", "slice_sizes",
      "dimensions", "edge_padding_low", "edge_padding_high", "interior_padding", "broadcast_sizes",
      "window_dimensions", "window_strides", "base_dilations", "window_dilations"};
  for (const char* key : kDimensionLists) {
    auto it = op.attrs.find(key);
    if (it == op.attrs.end() || !it->second || it->second->kind != Attribute::Kind::Dense) continue;
    const Literal& lit = it->second->dense;
    std::string suggestion = isInteger(lit.type.element) && lit.type.dims.size() <= 1
                                 ? "array<i64: " + denseIntegers(lit) + ">"
                                 : std::string("array<i64: …>");
    s.context = op.name;
    s.errorAt(op.line, std::string("attribute ") + key + " is written dense<…> : " + typeString(lit.type) + "; use " +
                           suggestion + "; the dense<> form is no longer accepted by XLA");
  }
}

void normaliseAttributes(Op& op) {
  if (op.name == "stablehlo.sort" && !op.attrs.count("dimension")) {  // the spec's default: the last dimension
    Attribute last;
    last.kind = Attribute::Kind::Int;
    last.i = -1;
    last.type.element = ElementType::S64;
    op.attrs["dimension"] = std::make_shared<const Attribute>(std::move(last));
  }
  auto dot = op.attrs.find("dot_dimension_numbers");
  if (dot != op.attrs.end() && dot->second->kind == Attribute::Kind::Struct) {
    Attribute a = *dot->second;
    for (const char* key : {"lhs_batching_dimensions", "rhs_batching_dimensions", "lhs_contracting_dimensions",
                            "rhs_contracting_dimensions"}) {
      if (a.fields.count(key)) continue;
      Attribute empty;
      empty.kind = Attribute::Kind::I64Array;
      a.fields[key] = std::make_shared<const Attribute>(std::move(empty));
    }
    dot->second = std::make_shared<const Attribute>(std::move(a));
  }
}

}  // namespace tpjrt::cpu
