// The Graph the TypeScript tracer builds (src/trace/graph.ts), as plain C++ data: typed inputs,
// nodes in order (each a StableHLO op with operands, result types, attributes and an optional fixed
// reduce body), and outputs. Value ids: inputs are 0..n-1, then each node's results in order.
// No N-API here; native/addon/graph_wrap.cc fills it from the JS value.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tpjrt::lower {

struct TensorType {
  int element = 0;  // PJRT_Buffer_Type code
  std::vector<int64_t> dims;
};

enum class AttrKind {
  Int,      // `5 : i64`
  IntList,  // `array<i64: 1, 2>`
  Enum,     // `#stablehlo<comparison_direction LT>`: `name` is the enum's name, `text` the value
  Dot,      // `#stablehlo.dot<…>` from four lists in `lists`
  Dense,    // `dense<…> : tensor<…>` of the node's first result type, from raw bytes
  Text,     // an attribute value spelled by the frontend (`#stablehlo.gather<…>`, `true`), printed as is
};

struct Attr {
  std::string name;
  AttrKind kind = AttrKind::Int;
  int64_t value = 0;
  std::vector<int64_t> list;
  std::vector<std::vector<int64_t>> lists;
  std::string text;
  std::vector<uint8_t> bytes;
};

struct Graph;

struct Node {
  std::string op;  // StableHLO op name without the dialect: "add", "reduce", …
  std::vector<int> operands;
  std::vector<TensorType> results;
  std::vector<Attr> attrs;
  // Reduce only: the fixed body ("add", "max", "min", "mul", "and", "or", "argmax", "argmin").
  std::string body;
  // Control flow's regions, each a graph of its own (see validate for how they bind to operands):
  // "case": one per branch; its inputs are operands 1.. (read from above), operand 0 the index.
  // "while": cond then body; their inputs are the block arguments, one per operand.
  std::vector<Graph> regions = {};
};

// Output `output` (a position in Graph::outputs) may reuse the memory of input `input`: printed as
// the argument attribute `tf.aliasing_output`, which lets a plugin donate that input's buffer.
struct Alias {
  int output = 0;
  int input = 0;
};

struct Graph {
  std::vector<TensorType> inputs;
  std::vector<Node> nodes;
  std::vector<int> outputs;
  std::vector<Alias> aliases = {};  // `= {}` lets brace-initialized graphs leave it out without a warning
};

// Throws RuntimeError(kUsageError) naming the node when an operand or output id is not defined
// before its use, an element type is unknown, or an attribute does not fit its kind; naming the alias
// when it points outside the inputs or outputs, joins two of different types, or reuses an input or
// an output twice.
void validate(const Graph& graph);

// MLIR spelling of a PJRT element type ("f32", "i1", "ui8"); throws for an unknown code.
const char* elementTypeName(int element);
size_t elementByteWidth(int element);

}  // namespace tpjrt::lower
