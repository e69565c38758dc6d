// The StableHLO text parser's shared state, split over ir/parser.cc (module, functions, regions,
// generic ops), ir/parse_attributes.cc (types, attributes, dense literals) and ir/parse_pretty_ops.cc (the
// pretty form of each supported op). Only parseModule (ir/stablehlo.h) is public.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "ir/ir.h"
#include "ir/parse_scanner.h"

namespace tpjrt::cpu {

struct FunctionType {
  std::vector<TensorType> inputs;
  std::vector<TensorType> results;
};

struct Value {
  int id = -1;
  TensorType type;
  std::string name;  // as written, for messages: "%0#1"
};

// A pretty op's trailing `: …` — either `(a, b) -> c` or a bare list `t` / `p, t`.
struct TypeSignature {
  bool functional = false;
  std::vector<TensorType> list;  // bare list, or the inputs of a functional signature
  std::vector<TensorType> results;
};

class Parser {
 public:
  explicit Parser(std::string_view text) : s(text) {}
  Module parse();

  // --- ir/parse_attributes.cc ---
  TensorType parseType();  // tensor<…> or a bare element type (a 0-d tensor)
  ElementType parseElementType();
  FunctionType parseFunctionType();
  std::vector<TensorType> parseTypeList();  // `(…)` or a single type
  AttributePtr parseAttribute();
  void parseAttributeDict(std::map<std::string, AttributePtr>& into);  // `{ k = v, … }`
  std::vector<int64_t> parseIntList();                                   // `[1, 2]`
  Literal parseDenseLiteral();  // after `dense`, up to and including `: type`

  // --- ir/parser.cc ---
  Value parseValueRef();
  std::vector<Value> parseOperandRefs();  // `%a, %b`, stopping before `, keyword`
  void parseRegion(Region& region, bool isolated);  // `{ [^bb(args):] ops }`
  void parseRegionBody(Region& region);             // ops up to the closing `}`
  void defineBlockArgument(Region& region, const std::string& name, const TensorType& type);
  void pushScope(bool isolated);
  void popScope();
  void finishOp(Op& op, const std::vector<Value>& operands);  // type checks against the values

  // --- ir/parse_pretty_ops.cc ---
  void parsePrettyOp(Op& op, const std::string& name, size_t numResults);
  TypeSignature parseTypeSignature();
  // --- ir/parse_pretty_window.cc --- (false when `name` is not one of its ops)
  bool parsePrettyWindowOp(Op& op, const std::string& name, size_t numResults);

  Scanner s;
  Module module;

 private:
  struct ResultName {
    std::string name;
    size_t count = 1;
  };
  struct Scope {
    bool isolated = false;
    std::map<std::string, std::vector<Value>> values;
  };

  void parseTopLevel();
  void parseModuleBody(char terminator);
  void parseGenericModule();
  void parsePrettyModule();
  void parsePrettyFunction();
  Function toFunction(Op& op);
  Op parseOp();
  void parseGenericOp(Op& op, const std::string& name, size_t numResults);
  void defineResults(Op& op, const std::vector<ResultName>& names);
  void skipAliasDefinitions();
  const std::vector<Value>* lookup(const std::string& name);

  std::vector<Scope> scopes_;
};

// Dimension-list attributes in the old `dense<[…]> : tensor<Nxi64>` form are an error that names the
// `array<i64: …>` spelling to use instead: XLA no longer accepts them.
void rejectOldDimensionLists(const Op& op, Scanner& s);
// Fills in what a generic op may leave out: the fields of #stablehlo.dot<…>, sort's dimension.
void normaliseAttributes(Op& op);
void applyTypeSignature(Op& op, const TypeSignature& sig, size_t numOperands, size_t numResults, Scanner& s);

}  // namespace tpjrt::cpu
