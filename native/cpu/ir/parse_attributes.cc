// Types, attribute values and dense literals of MLIR text.
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "ir/element_type.h"
#include "ir/narrow_types.h"
#include "ir/parser_internal.h"

namespace tpjrt::cpu {
namespace {

constexpr size_t kMaxRank = 64;
// A tensor type's element count (and each dimension) is at most 2^53, what JavaScript counts exactly,
// so its byte size always fits int64; how much of that can be allocated is the memory's to say.
constexpr int64_t kMaxElements = int64_t{1} << 53;

AttributePtr make(Attribute a) { return std::make_shared<const Attribute>(std::move(a)); }

bool isFloatSyntax(std::string_view tok) {
  std::string_view t = tok;
  if (!t.empty() && (t[0] == '-' || t[0] == '+')) t.remove_prefix(1);
  if (t.substr(0, 2) == "0x") return false;
  return t.find_first_of(".eEin") != std::string_view::npos;
}

bool isHexSyntax(std::string_view tok) {
  std::string_view t = tok;
  if (!t.empty() && (t[0] == '-' || t[0] == '+')) t.remove_prefix(1);
  return t.substr(0, 2) == "0x";
}

// Magnitude and sign of an integer token; false when it does not fit 64 bits.
bool integerParts(std::string_view tok, bool& negative, uint64_t& magnitude) {
  negative = !tok.empty() && tok[0] == '-';
  if (!tok.empty() && (tok[0] == '-' || tok[0] == '+')) tok.remove_prefix(1);
  int base = 10;
  if (tok.substr(0, 2) == "0x") {
    base = 16;
    tok.remove_prefix(2);
  }
  if (tok.empty()) return false;
  magnitude = 0;
  for (char c : tok) {
    uint64_t d;
    if (c >= '0' && c <= '9') d = c - '0';
    else if (base == 16 && c >= 'a' && c <= 'f') d = c - 'a' + 10;
    else if (base == 16 && c >= 'A' && c <= 'F') d = c - 'A' + 10;
    else return false;
    if (magnitude > (std::numeric_limits<uint64_t>::max() - d) / base) return false;
    magnitude = magnitude * base + d;
  }
  return true;
}

// Whether the integer -mag (negative) or mag fits the integer or pred type t; signless integers also
// take their unsigned spelling (255 : i8), as MLIR's do.
bool fitsInteger(ElementType t, bool negative, uint64_t mag) {
  const size_t bits = size_t(valueBits(t));
  const uint64_t limit = bits == 64 ? std::numeric_limits<uint64_t>::max() : (uint64_t{1} << bits) - 1;
  if (negative) return !isUnsignedInt(t) && t != ElementType::Pred && mag <= (uint64_t{1} << (bits - 1));
  return mag <= limit;
}

void storeBits(Literal& lit, int64_t index, uint64_t bits) {
  size_t w = byteWidth(lit.type.element);
  std::memcpy(lit.bytes.mutableData() + index * w, &bits, w);  // little-endian host
}

void storeFloat(Literal& lit, int64_t index, double v) {
  switch (lit.type.element) {
    case ElementType::F64: {
      uint64_t bits;
      std::memcpy(&bits, &v, 8);
      storeBits(lit, index, bits);
      return;
    }
    case ElementType::F32: {
      float f = static_cast<float>(v);
      uint32_t bits;
      std::memcpy(&bits, &f, 4);
      storeBits(lit, index, bits);
      return;
    }
    case ElementType::F16: storeBits(lit, index, floatToHalf(static_cast<float>(v))); return;
    case ElementType::BF16: storeBits(lit, index, floatToBf16(static_cast<float>(v))); return;
    default:
      if (isNarrow(lit.type.element)) storeBits(lit, index, narrowFloatBits(lit.type.element, v));
      return;
  }
}

// Writes one element written as `tok` (a number token, "true" or "false") at `index`.
void storeElement(Literal& lit, int64_t index, const std::string& tok, Scanner& s) {
  ElementType t = lit.type.element;
  std::string typeName(mlirName(t));
  if (tok == "true" || tok == "false") {
    if (t != ElementType::Pred) s.error("'" + tok + "' is not a valid " + typeName + " element");
    storeBits(lit, index, tok == "true" ? 1 : 0);
    return;
  }
  if (isFloat(t) && !isHexSyntax(tok)) {
    storeFloat(lit, index, std::strtod(tok.c_str(), nullptr));
    return;
  }
  if (isFloatSyntax(tok)) s.error("'" + tok + "' is not a valid " + typeName + " element");
  bool negative;
  uint64_t mag;
  if (!integerParts(tok, negative, mag)) s.error("integer '" + tok + "' is too large for " + typeName);
  size_t bits = size_t(valueBits(t));
  uint64_t limit = bits == 64 ? std::numeric_limits<uint64_t>::max() : (uint64_t{1} << bits) - 1;
  if (isFloat(t)) {  // hex spelling of the raw bits, as MLIR prints NaN and infinities
    if (negative || mag > limit) s.error("hex value '" + tok + "' does not fit " + typeName);
    storeBits(lit, index, mag);
    return;
  }
  if (!fitsInteger(t, negative, mag)) s.error("value " + tok + " is out of range for " + typeName);
  const uint64_t value = negative ? 0 - mag : mag;
  storeBits(lit, index, isNarrow(t) ? uint64_t(wrapNarrowInt(t, int64_t(value))) : value);  // 8 : i4 is -8, held sign-extended
}

std::string scalarToken(Scanner& s) {
  if (s.peekKeyword("true") || s.peekKeyword("false")) return s.identifier();
  if (s.peek() == '(') s.error("complex literals are not supported by the cpu plugin");
  return s.numberToken();
}

void parseNested(Literal& lit, size_t level, int64_t& next, Scanner& s) {
  Scanner::Depth depth(s);
  const auto& dims = lit.type.dims;
  if (level == dims.size()) {
    storeElement(lit, next++, scalarToken(s), s);
    return;
  }
  s.expect('[');
  int64_t count = 0;
  if (!s.consume(']')) {
    do {
      if (count == dims[level])
        s.error("dense literal has more than " + std::to_string(dims[level]) + " elements in dimension " +
                std::to_string(level) + " of " + typeString(lit.type));
      parseNested(lit, level + 1, next, s);
      ++count;
    } while (s.consume(','));
    s.expect(']');
  }
  if (count != dims[level])
    s.error("dense literal has " + std::to_string(count) + " elements in dimension " + std::to_string(level) +
            " but " + typeString(lit.type) + " needs " + std::to_string(dims[level]));
}

void parseHexLiteral(Literal& lit, const std::string& hex, Scanner& s) {
  if (hex.size() < 2 || hex.substr(0, 2) != "0x" || hex.size() % 2 != 0)
    s.error("hex literal must be \"0x\" followed by pairs of hex digits");
  size_t n = (hex.size() - 2) / 2;
  size_t width = byteWidth(lit.type.element);
  size_t total = lit.bytes.size();
  if (n != total && n != width)
    s.error("hex literal has " + std::to_string(n) + " bytes but " + typeString(lit.type) + " needs " +
            std::to_string(total));
  std::vector<uint8_t> raw(n);
  for (size_t i = 0; i < n; ++i) {
    auto hexVal = [&](char c) -> int {
      if (c >= '0' && c <= '9') return c - '0';
      if (c >= 'a' && c <= 'f') return c - 'a' + 10;
      if (c >= 'A' && c <= 'F') return c - 'A' + 10;
      s.error("bad hex digit in literal");
    };
    raw[i] = static_cast<uint8_t>(hexVal(hex[2 + 2 * i]) * 16 + hexVal(hex[3 + 2 * i]));
  }
  std::memcpy(lit.bytes.mutableData(), raw.data(), std::min(n, total));  // one element for a splat (see Attribute::dense)
  if (lit.type.element == ElementType::Pred) {
    uint8_t* p = lit.bytes.mutableData();
    for (size_t i = 0; i < lit.bytes.size(); ++i) p[i] = p[i] != 0;
  }
}

}  // namespace

ElementType Parser::parseElementType() {
  s.peek();
  size_t start = s.pos();
  if (s.peek() == '!') s.expect('!');
  s.identifier();
  if (s.text().substr(s.pos(), 1) == "<") {
    s.expect('<');
    s.skipBalanced('<', '>');
  }
  std::string name(s.text().substr(start, s.pos() - start));
  if (name == "index") return ElementType::S64;  // MLIR's index (JAX writes custom calls' layouts as tensor<Nxindex>)
  auto t = parseMlirElementType(name);
  if (!t) s.error("element type " + name + " is not supported by the cpu plugin");
  return *t;
}

TensorType Parser::parseType() {
  Scanner::Depth depth(s);
  TensorType type;
  if (!s.peekKeyword("tensor")) {
    char c = s.peek();
    if (c == '!' || s.peekKeyword("tuple") || s.peekKeyword("complex") || s.peekKeyword("vector") ||
        s.peekKeyword("memref") || s.peekKeyword("none") || s.peekKeyword("index")) {
      size_t start = s.pos();
      if (c == '!') s.expect('!');
      s.identifier();
      if (s.text().substr(s.pos(), 1) == "<") {
        s.expect('<');
        s.skipBalanced('<', '>');
      }
      s.error("type " + std::string(s.text().substr(start, s.pos() - start)) + " is not supported by the cpu plugin");
    }
    if (!s.peekIdentifier()) s.error("expected a type but found '" + std::string(1, c ? c : ' ') + "'");
    type.element = parseElementType();
    return type;
  }
  s.expectKeyword("tensor");
  s.expect('<');
  int64_t total = 1;
  while (true) {
    s.skipSpace();
    char c = s.peek();
    if (c == '?') s.error("dynamic dimensions are not supported by the cpu plugin");
    if (c == '*') s.error("unranked tensors are not supported by the cpu plugin");
    if (c < '0' || c > '9') break;
    size_t p = s.pos();
    int64_t d = 0;
    std::string_view text = s.text();
    while (p < text.size() && text[p] >= '0' && text[p] <= '9') {
      if (d > kMaxElements) break;
      d = d * 10 + (text[p] - '0');
      ++p;
    }
    s.setPos(p);
    if (d > kMaxElements) s.error("tensor dimension is too large");
    if (type.dims.size() == kMaxRank) s.error("tensor rank is larger than " + std::to_string(kMaxRank));
    type.dims.push_back(d);
    if (d != 0 && total > kMaxElements / d) s.error("tensor type has too many elements");
    total *= d;
    if (p >= text.size() || text[p] != 'x') s.error("expected 'x' after a tensor dimension");
    s.setPos(p + 1);
  }
  type.element = parseElementType();
  if (s.peek() == ',') s.error("tensor encodings are not supported by the cpu plugin");
  s.expect('>');
  return type;
}

std::vector<TensorType> Parser::parseTypeList() {
  std::vector<TensorType> types;
  if (!s.consume('(')) {
    types.push_back(parseType());
    return types;
  }
  if (s.consume(')')) return types;
  do types.push_back(parseType());
  while (s.consume(','));
  s.expect(')');
  return types;
}

FunctionType Parser::parseFunctionType() {
  FunctionType ft;
  if (s.peek() != '(') s.error("expected a function type '(…) -> …'");
  ft.inputs = parseTypeList();
  s.expect("->");
  ft.results = parseTypeList();
  return ft;
}

std::vector<int64_t> Parser::parseIntList() {
  std::vector<int64_t> out;
  s.expect('[');
  if (s.consume(']')) return out;
  do out.push_back(s.integer());
  while (s.consume(','));
  s.expect(']');
  return out;
}

Literal Parser::parseDenseLiteral() {
  s.expect('<');
  size_t contentStart = s.pos();
  s.skipBalanced('<', '>');
  size_t contentEnd = s.pos();
  s.expect(':');
  Literal lit;
  lit.type = parseType();
  size_t afterType = s.pos();
  int64_t n = numElements(lit.type);
  int64_t bytes = n * static_cast<int64_t>(byteWidth(lit.type.element));
  s.setPos(contentStart);
  char c = s.peek();
  // Text that cannot hold n elements is rejected before the storage is allocated, so a literal's storage
  // is never larger than its text; a splat keeps one element whatever its type's size.
  int64_t textLength = static_cast<int64_t>(contentEnd - contentStart);
  if (c == '[' && n > textLength) s.error("dense literal is too short for " + typeString(lit.type));
  std::string hex;
  size_t hexBytes = 0;
  if (c == '"') {
    hex = s.stringLiteral();
    hexBytes = hex.size() < 2 ? 0 : (hex.size() - 2) / 2;
    if (hexBytes != static_cast<size_t>(bytes) && hexBytes != byteWidth(lit.type.element))
      s.error("hex literal has " + std::to_string(hexBytes) + " bytes but " + typeString(lit.type) + " needs " +
              std::to_string(bytes));
  }
  // A splat (one value written for every element) keeps just that value: see Attribute::dense.
  const bool splat = c != '>' && c != '[' && (c != '"' || hexBytes == byteWidth(lit.type.element));
  lit.bytes = Bytes(splat && n > 0 ? byteWidth(lit.type.element) : static_cast<size_t>(bytes), 0);
  if (c == '>') {
    if (n != 0) s.error("empty dense literal for " + typeString(lit.type));
  } else if (c == '"') {
    parseHexLiteral(lit, hex, s);
  } else if (c == '[') {
    int64_t next = 0;
    if (lit.type.dims.empty()) s.error("nested dense literal for scalar type " + typeString(lit.type));
    parseNested(lit, 0, next, s);
  } else {
    std::string tok = scalarToken(s);
    if (n > 0) storeElement(lit, 0, tok, s);
  }
  s.expect('>');
  if (s.pos() != contentEnd) s.error("unexpected text in dense literal");
  s.setPos(afterType);
  return lit;
}

void Parser::parseAttributeDict(std::map<std::string, AttributePtr>& into) {
  Scanner::Depth depth(s);
  s.expect('{');
  if (s.consume('}')) return;
  do {
    std::string key = s.peek() == '"' ? s.stringLiteral() : s.identifier();
    if (s.consume('=')) {
      into[key] = parseAttribute();
    } else {
      Attribute unit;
      unit.kind = Attribute::Kind::Bool;
      unit.b = true;
      into[key] = make(std::move(unit));
    }
  } while (s.consume(','));
  s.expect('}');
}

AttributePtr Parser::parseAttribute() {
  Scanner::Depth depth(s);
  Attribute a;
  char c = s.peek();
  size_t start = s.pos();
  auto raw = [&]() {
    a.kind = Attribute::Kind::String;
    a.s = std::string(s.text().substr(start, s.pos() - start));
    return make(std::move(a));
  };
  if (c == '[') {
    s.expect('[');
    std::vector<AttributePtr> items;
    if (!s.consume(']')) {
      do items.push_back(parseAttribute());
      while (s.consume(','));
      s.expect(']');
    }
    bool allInts = true, allBools = !items.empty();
    for (const auto& item : items) {
      allInts = allInts && item->kind == Attribute::Kind::Int;
      allBools = allBools && item->kind == Attribute::Kind::Bool;
    }
    if (allInts) {
      a.kind = Attribute::Kind::I64Array;
      for (const auto& item : items) a.ints.push_back(item->i);
    } else if (allBools) {
      a.kind = Attribute::Kind::BoolArray;
      for (const auto& item : items) a.bools.push_back(item->b);
    } else {
      a.kind = Attribute::Kind::Array;
      a.items = std::move(items);
    }
    return make(std::move(a));
  }
  if (c == '{') {
    a.kind = Attribute::Kind::Struct;
    parseAttributeDict(a.fields);
    return make(std::move(a));
  }
  if (c == '(') {
    FunctionType ft = parseFunctionType();
    a.kind = Attribute::Kind::Struct;
    for (auto* part : {&ft.inputs, &ft.results}) {
      Attribute list;
      list.kind = Attribute::Kind::Array;
      for (const auto& t : *part) {
        Attribute ta;
        ta.kind = Attribute::Kind::Type;
        ta.type = t;
        list.items.push_back(make(std::move(ta)));
      }
      a.fields[part == &ft.inputs ? "inputs" : "results"] = make(std::move(list));
    }
    return make(std::move(a));
  }
  if (c == '"') {
    a.kind = Attribute::Kind::String;
    a.s = s.stringLiteral();
    return make(std::move(a));
  }
  if (c == '@') {
    a.kind = Attribute::Kind::Symbol;
    a.s = "@" + s.symbolName();
    while (s.consume("::")) a.s += "::@" + s.symbolName();
    return make(std::move(a));
  }
  if (c == '<') {
    s.expect('<');
    s.skipBalanced('<', '>');
    return raw();
  }
  if (c == '!') {
    s.expect('!');
    s.identifier();
    if (s.text().substr(s.pos(), 1) == "<") {
      s.expect('<');
      s.skipBalanced('<', '>');
    }
    return raw();
  }
  if (c == '#') {
    s.expect('#');
    std::string dialect = s.identifier();
    if (s.text().substr(s.pos(), 1) != "<") return raw();  // an alias reference such as #loc3
    s.expect('<');
    size_t inner = s.pos();
    if (dialect.find('.') == std::string::npos && s.peekIdentifier()) {
      s.identifier();  // the enum's kind, e.g. comparison_direction
      if (s.peekIdentifier()) {
        std::string value = s.identifier();
        if (s.consume('>')) {
          a.kind = Attribute::Kind::Symbol;
          a.s = value;
          return make(std::move(a));
        }
      }
    } else if (dialect.find('.') != std::string::npos && s.consume('>')) {
      a.kind = Attribute::Kind::Struct;  // every field left at its default, e.g. `#stablehlo.dot<>`
      return make(std::move(a));
    } else if (s.peekIdentifier()) {
      s.identifier();
      bool isStruct = s.peek() == '=';
      s.setPos(inner);
      if (isStruct) {
        a.kind = Attribute::Kind::Struct;
        do {
          std::string key = s.identifier();
          s.expect('=');
          if (a.fields.count(key)) s.error("#" + dialect + "<…> has the field " + key + " twice");
          a.fields[key] = parseAttribute();
        } while (s.consume(','));
        s.expect('>');
        return make(std::move(a));
      }
    }
    s.setPos(inner);
    s.skipBalanced('<', '>');
    return raw();
  }
  if (c == '-' || c == '+' || (c >= '0' && c <= '9')) {
    std::string tok = s.numberToken();
    bool isFloatValue = isFloatSyntax(tok);
    if (s.consume(':')) {
      a.type = parseType();
      isFloatValue = isFloatValue || isFloat(a.type.element);
    } else {
      a.type.element = isFloatValue ? ElementType::F64 : ElementType::S64;
    }
    if (isFloatValue) {
      a.kind = Attribute::Kind::Float;
      a.f = std::strtod(tok.c_str(), nullptr);
    } else {
      bool negative;
      uint64_t mag;
      if (!integerParts(tok, negative, mag)) s.error("integer '" + tok + "' is too large");
      if (!fitsInteger(a.type.element, negative, mag))
        s.error("integer constant " + tok + " is out of range for its type " + std::string(mlirName(a.type.element)));
      a.kind = Attribute::Kind::Int;
      a.i = static_cast<int64_t>(negative ? 0 - mag : mag);
    }
    return make(std::move(a));
  }
  if (!s.peekIdentifier()) s.error("expected an attribute value");
  if (s.consumeKeyword("true") || s.consumeKeyword("false") || s.consumeKeyword("unit")) {
    a.kind = Attribute::Kind::Bool;
    a.b = s.text().substr(start, s.pos() - start).find("false") == std::string_view::npos;
    return make(std::move(a));
  }
  if (s.consumeKeyword("dense")) {
    a.kind = Attribute::Kind::Dense;
    a.dense = parseDenseLiteral();
    a.type = a.dense.type;
    return make(std::move(a));
  }
  if (s.consumeKeyword("array")) {
    s.expect('<');
    ElementType t = parseElementType();
    std::vector<std::string> toks;
    if (s.consume(':')) {
      do toks.push_back(scalarToken(s));
      while (s.consume(','));
    }
    s.expect('>');
    if (t == ElementType::Pred) {
      a.kind = Attribute::Kind::BoolArray;
      for (const auto& tok : toks) {
        if (tok != "true" && tok != "false") s.error("'" + tok + "' is not a valid i1 array element");
        a.bools.push_back(tok == "true");
      }
    } else if (isFloat(t)) {
      a.kind = Attribute::Kind::Array;
      for (const auto& tok : toks) {
        Attribute f;
        f.kind = Attribute::Kind::Float;
        f.type.element = t;
        f.f = std::strtod(tok.c_str(), nullptr);
        a.items.push_back(make(std::move(f)));
      }
    } else {
      a.kind = Attribute::Kind::I64Array;
      for (const auto& tok : toks) {
        bool negative;
        uint64_t mag;
        if (isFloatSyntax(tok) || !integerParts(tok, negative, mag)) s.error("'" + tok + "' is not a valid integer");
        a.ints.push_back(static_cast<int64_t>(negative ? 0 - mag : mag));
      }
    }
    return make(std::move(a));
  }
  if (s.peekKeyword("dense_resource") || s.peekKeyword("sparse") || s.peekKeyword("opaque"))
    s.error("attribute '" + s.identifier() + "<…>' is not supported by the cpu plugin");
  if (s.peekKeyword("tensor")) {
    a.kind = Attribute::Kind::Type;
    a.type = parseType();
    return make(std::move(a));
  }
  std::string word = s.identifier();
  if (parseMlirElementType(word)) {
    a.kind = Attribute::Kind::Type;
    a.type.element = *parseMlirElementType(word);
    return make(std::move(a));
  }
  if (s.text().substr(s.pos(), 1) == "<" || s.text().substr(s.pos(), 1) == "(") {
    char open = s.text()[s.pos()];
    s.expect(open);
    s.skipBalanced(open, open == '<' ? '>' : ')');
    return raw();
  }
  a.kind = Attribute::Kind::Symbol;
  a.s = word;
  return make(std::move(a));
}

}  // namespace tpjrt::cpu
