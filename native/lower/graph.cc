#include "graph.h"

#include "runtime.h"
#include "stablehlo_printer.h"

namespace tpjrt::lower {
namespace {

struct ElementInfo {
  int code;
  const char* name;
  size_t width;
};

// PJRT_Buffer_Type codes (native/include/pjrt_c_api.h) and their MLIR names.
constexpr ElementInfo kElements[] = {
    {1, "i1", 1},   {2, "i8", 1},    {3, "i16", 2},   {4, "i32", 4},   {5, "i64", 8},
    {6, "ui8", 1},  {7, "ui16", 2},  {8, "ui32", 4},  {9, "ui64", 8},  {10, "f16", 2},
    {11, "f32", 4}, {12, "f64", 8},  {13, "bf16", 2},
};

const ElementInfo* find(int element) {
  for (const auto& e : kElements)
    if (e.code == element) return &e;
  return nullptr;
}

[[noreturn]] void fail(const std::string& message) { throw RuntimeError(kUsageError, "lowerGraph", message); }

void checkType(const TensorType& type, const std::string& where) {
  if (!find(type.element)) fail(where + ": unknown element type " + std::to_string(type.element));
  for (int64_t d : type.dims)
    if (d < 0) fail(where + ": negative dimension " + std::to_string(d));
}

int64_t numel(const TensorType& type) {
  int64_t n = 1;
  for (int64_t d : type.dims) n *= d;
  return n;
}

}  // namespace

const char* elementTypeName(int element) {
  const ElementInfo* e = find(element);
  if (!e) fail("unknown element type " + std::to_string(element));
  return e->name;
}

size_t elementByteWidth(int element) {
  const ElementInfo* e = find(element);
  return e ? e->width : 0;
}

namespace {

void validateAliases(const Graph& graph, const std::vector<const TensorType*>& types) {
  std::vector<int> inputTaken(graph.inputs.size(), -1), outputTaken(graph.outputs.size(), -1);
  for (size_t k = 0; k < graph.aliases.size(); ++k) {
    const Alias& alias = graph.aliases[k];
    std::string where = "alias " + std::to_string(k) + " (output " + std::to_string(alias.output) + ", input " +
                        std::to_string(alias.input) + ")";
    if (alias.output < 0 || static_cast<size_t>(alias.output) >= graph.outputs.size())
      fail(where + ": the graph has " + std::to_string(graph.outputs.size()) + " outputs");
    if (alias.input < 0 || static_cast<size_t>(alias.input) >= graph.inputs.size())
      fail(where + ": the graph has " + std::to_string(graph.inputs.size()) + " inputs");
    const TensorType& in = graph.inputs[static_cast<size_t>(alias.input)];
    const TensorType& out = *types[static_cast<size_t>(graph.outputs[static_cast<size_t>(alias.output)])];
    if (in.element != out.element || in.dims != out.dims)
      fail(where + ": output " + std::to_string(alias.output) + " is " + typeString(out) + " but input " +
           std::to_string(alias.input) + " is " + typeString(in) +
           "; an output can reuse only an input of its dtype and shape");
    int& input = inputTaken[static_cast<size_t>(alias.input)];
    if (input >= 0)
      fail(where + ": input " + std::to_string(alias.input) + " is already reused by alias " + std::to_string(input));
    int& output = outputTaken[static_cast<size_t>(alias.output)];
    if (output >= 0)
      fail(where + ": output " + std::to_string(alias.output) + " already reuses an input (alias " +
           std::to_string(output) + ")");
    input = output = static_cast<int>(k);
  }
}

bool sameType(const TensorType& a, const TensorType& b) { return a.element == b.element && a.dims == b.dims; }

void checkTypes(const std::vector<TensorType>& got, const std::vector<TensorType>& want, const std::string& what) {
  bool same = got.size() == want.size();
  for (size_t i = 0; same && i < got.size(); ++i) same = sameType(got[i], want[i]);
  if (!same) fail(what + " do not match the op's types");
}

std::vector<TensorType> outputTypes(const Graph& graph) {
  std::vector<TensorType> types(graph.inputs);
  for (const Node& node : graph.nodes) types.insert(types.end(), node.results.begin(), node.results.end());
  std::vector<TensorType> out;
  for (int id : graph.outputs) out.push_back(types.at(static_cast<size_t>(id)));
  return out;
}

// A region is validated as a graph; its inputs and outputs must fit the op it belongs to.
void validateRegions(const Node& node, const std::vector<const TensorType*>& types, const std::string& where) {
  if (node.regions.empty()) {
    if (node.op == "case" || node.op == "while") fail(where + ": " + node.op + " without regions");
    return;
  }
  std::vector<TensorType> operands;
  for (int id : node.operands) operands.push_back(*types[static_cast<size_t>(id)]);
  for (size_t r = 0; r < node.regions.size(); ++r) validate(node.regions[r]);
  if (node.op == "case") {
    if (operands.empty() || !sameType(operands[0], {4, {}})) fail(where + ": the index must be a tensor<i32>");
    std::vector<TensorType> captured(operands.begin() + 1, operands.end());
    for (size_t r = 0; r < node.regions.size(); ++r) {
      std::string what = where + ": branch " + std::to_string(r);
      checkTypes(node.regions[r].inputs, captured, what + " inputs");
      checkTypes(outputTypes(node.regions[r]), node.results, what + " outputs");
    }
  } else if (node.op == "while") {
    if (node.regions.size() != 2) fail(where + ": while needs a cond and a body region");
    checkTypes(node.results, operands, where + ": results");
    checkTypes(node.regions[0].inputs, operands, where + ": cond inputs");
    checkTypes(outputTypes(node.regions[0]), {{1, {}}}, where + ": cond outputs (one tensor<i1>)");
    checkTypes(node.regions[1].inputs, operands, where + ": body inputs");
    checkTypes(outputTypes(node.regions[1]), operands, where + ": body outputs");
  } else {
    fail(where + ": " + node.op + " takes no regions");
  }
}

}  // namespace

void validate(const Graph& graph) {
  int defined = static_cast<int>(graph.inputs.size());
  std::vector<const TensorType*> types;
  for (size_t i = 0; i < graph.inputs.size(); ++i) {
    checkType(graph.inputs[i], "input " + std::to_string(i));
    types.push_back(&graph.inputs[i]);
  }
  for (size_t n = 0; n < graph.nodes.size(); ++n) {
    const Node& node = graph.nodes[n];
    std::string where = "node " + std::to_string(n) + " (" + node.op + ")";
    if (node.op.empty()) fail(where + ": empty op name");
    if (node.results.empty()) fail(where + ": no results");
    for (int id : node.operands)
      if (id < 0 || id >= defined) fail(where + ": operand %" + std::to_string(id) + " is not defined before it");
    for (const auto& r : node.results) checkType(r, where);
    for (const auto& a : node.attrs) {
      if (a.kind == AttrKind::Dot && a.lists.size() != 4) fail(where + ": " + a.name + " needs four dimension lists");
      if (a.kind == AttrKind::Dense) {
        size_t width = elementByteWidth(node.results[0].element);
        size_t total = static_cast<size_t>(numel(node.results[0])) * width;
        if (a.bytes.size() != total && a.bytes.size() != width)
          fail(where + ": " + a.name + " has " + std::to_string(a.bytes.size()) + " bytes, expected " +
               std::to_string(total) + " or one element");
      }
    }
    if ((node.op == "reduce" || node.op == "scatter" || node.op == "sort") && node.body.empty())
      fail(where + ": " + node.op + " without a body");
    validateRegions(node, types, where);
    defined += static_cast<int>(node.results.size());
    for (const auto& r : node.results) types.push_back(&r);
  }
  if (graph.outputs.empty()) fail("graph has no outputs");
  for (int id : graph.outputs)
    if (id < 0 || id >= defined) fail("output %" + std::to_string(id) + " is not defined");
  validateAliases(graph, types);
}

}  // namespace tpjrt::lower
