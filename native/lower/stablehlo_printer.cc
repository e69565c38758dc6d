#include "stablehlo_printer.h"

#include <cstdio>
#include <cstring>
#include <algorithm>
#include <sstream>
#include <utility>

#include "runtime.h"

namespace tpjrt::lower {
namespace {

bool isFloat(int element) { return element == 10 || element == 11 || element == 12 || element == 13; }
bool isUnsigned(int element) { return element >= 6 && element <= 9; }

std::string join(const std::vector<int64_t>& values) {
  std::string out;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) out += ", ";
    out += std::to_string(values[i]);
  }
  return out;
}

std::string hexBytes(const uint8_t* data, size_t n) {
  static const char digits[] = "0123456789ABCDEF";
  std::string out = "0x";
  out.reserve(2 + 2 * n);
  // MLIR's element hex literals spell the value's bits most significant first.
  for (size_t i = n; i-- > 0;) {
    out += digits[data[i] >> 4];
    out += digits[data[i] & 15];
  }
  return out;
}

std::string hexBuffer(const std::vector<uint8_t>& bytes) {
  static const char digits[] = "0123456789ABCDEF";
  std::string out = "\"0x";
  out.reserve(3 + 2 * bytes.size() + 1);
  for (uint8_t b : bytes) {  // the buffer's bytes in memory order (little-endian elements)
    out += digits[b >> 4];
    out += digits[b & 15];
  }
  return out + "\"";
}

// One element as an MLIR literal: hex bits for floats (exact, and spells NaN and infinities),
// decimal for integers, true/false for i1.
std::string elementLiteral(const uint8_t* p, int element) {
  size_t width = elementByteWidth(element);
  if (isFloat(element)) return hexBytes(p, width);
  if (element == 1) return *p ? "true" : "false";
  uint64_t bits = 0;
  std::memcpy(&bits, p, width);  // little-endian host
  if (isUnsigned(element)) return std::to_string(bits);
  int shift = static_cast<int>(64 - 8 * width);
  int64_t value = static_cast<int64_t>(bits << shift) >> shift;
  return std::to_string(value);
}

std::string denseLiteral(const Attr& attr, const TensorType& type) {
  size_t width = elementByteWidth(type.element);
  const std::vector<uint8_t>& b = attr.bytes;
  bool splat = b.size() == width;
  if (!splat && !b.empty()) {
    splat = true;
    for (size_t i = width; i < b.size() && splat; i += width) splat = std::memcmp(&b[0], &b[i], width) == 0;
  }
  if (b.empty()) return "dense<> : " + typeString(type);
  if (splat) return "dense<" + elementLiteral(b.data(), type.element) + "> : " + typeString(type);
  if (type.element != 1) return "dense<" + hexBuffer(b) + "> : " + typeString(type);
  // i1 has no agreed hex layout: spell the nested list.
  std::string out = "dense<";
  size_t index = 0;
  auto nest = [&](auto& self, size_t dim) -> void {
    if (dim == type.dims.size()) {
      out += elementLiteral(&b[index++], 1);
      return;
    }
    out += '[';
    for (int64_t i = 0; i < type.dims[dim]; ++i) {
      if (i) out += ", ";
      self(self, dim + 1);
    }
    out += ']';
  };
  nest(nest, 0);
  return out + "> : " + typeString(type);
}

std::string attrString(const Attr& attr, const Node& node) {
  switch (attr.kind) {
    case AttrKind::Int:
      return attr.name + " = " + std::to_string(attr.value) + " : i64";
    case AttrKind::IntList:
      return attr.name + " = array<i64" + (attr.list.empty() ? "" : ": " + join(attr.list)) + ">";
    case AttrKind::Enum:
      return attr.name + " = #stablehlo<" + attr.name + " " + attr.text + ">";
    case AttrKind::Dot: {
      static const char* kFields[] = {"lhs_batching_dimensions", "rhs_batching_dimensions",
                                      "lhs_contracting_dimensions", "rhs_contracting_dimensions"};
      std::string out = attr.name + " = #stablehlo.dot<";
      bool first = true;
      for (int i = 0; i < 4; ++i) {
        if (attr.lists[i].empty()) continue;
        if (!first) out += ", ";
        first = false;
        out += std::string(kFields[i]) + " = [" + join(attr.lists[i]) + "]";
      }
      return out + ">";
    }
    case AttrKind::Dense:
      return attr.name + " = " + denseLiteral(attr, node.results[0]);
    case AttrKind::Text:
      return attr.name + " = " + attr.text;
  }
  return "";
}

// Ops are StableHLO's unless named with their dialect (`chlo.erf`).
std::string qualifiedName(const std::string& op) {
  return op.find('.') == std::string::npos ? "stablehlo." + op : op;
}

std::string typeList(const std::vector<TensorType>& types) {
  std::string out = "(";
  for (size_t i = 0; i < types.size(); ++i) out += (i ? ", " : "") + typeString(types[i]);
  return out + ")";
}

std::string resultsString(const std::vector<TensorType>& types) {
  return types.size() == 1 ? typeString(types[0]) : typeList(types);
}

class Printer {
 public:
  // `prefix` keeps the names of a region's values apart from those around it; `indent` is its depth.
  Printer(const Graph& g, std::ostream& out, std::string prefix = "", std::string indent = "    ")
      : g_(g), out_(out), prefix_(std::move(prefix)), indent_(std::move(indent)) {}

  void module() {
    for (size_t i = 0; i < g_.inputs.size(); ++i) names_.push_back("%arg" + std::to_string(i));
    types_ = g_.inputs;
    out_ << "\"builtin.module\"() ({\n  \"func.func\"() ({\n";
    if (!g_.inputs.empty()) {
      out_ << "  ^bb0(";
      for (size_t i = 0; i < g_.inputs.size(); ++i)
        out_ << (i ? ", " : "") << names_[i] << ": " << typeString(g_.inputs[i]);
      out_ << "):\n";
    }
    for (size_t n = 0; n < g_.nodes.size(); ++n) {
      node(n);
      for (const auto& r : g_.nodes[n].results) types_.push_back(r);
    }
    std::vector<TensorType> outTypes;
    out_ << "    \"func.return\"(";
    for (size_t i = 0; i < g_.outputs.size(); ++i) {
      out_ << (i ? ", " : "") << names_[g_.outputs[i]];
      outTypes.push_back(types_[g_.outputs[i]]);
    }
    out_ << ") : " << typeList(outTypes) << " -> ()\n";
    out_ << "  }) {" << argAttrs() << "function_type = " << typeList(g_.inputs) << " -> " << resultsString(outTypes)
         << ", sym_name = \"main\", sym_visibility = \"public\"} : () -> ()\n";
    out_ << "}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()\n";
  }

  // The graph as a region: its inputs are `inputNames` (block arguments when `blockArgs`, else
  // values from above), its outputs the operands of stablehlo.return.
  void region(const std::vector<std::string>& inputNames, bool blockArgs) {
    names_ = inputNames;
    types_ = g_.inputs;
    if (blockArgs) {
      out_ << indent_ << "^bb0(";
      for (size_t i = 0; i < names_.size(); ++i) out_ << (i ? ", " : "") << names_[i] << ": " << typeString(types_[i]);
      out_ << "):\n";
    }
    for (size_t n = 0; n < g_.nodes.size(); ++n) {
      node(n);
      for (const auto& r : g_.nodes[n].results) types_.push_back(r);
    }
    std::vector<TensorType> outTypes;
    out_ << indent_ << "\"stablehlo.return\"(";
    for (size_t i = 0; i < g_.outputs.size(); ++i) {
      out_ << (i ? ", " : "") << names_[static_cast<size_t>(g_.outputs[i])];
      outTypes.push_back(typeOf(g_.outputs[i]));
    }
    out_ << ") : " << typeList(outTypes) << " -> ()\n";
  }

 private:
  // `arg_attrs = [{tf.aliasing_output = 0 : i32}, {}], ` (JAX's spelling of a donated argument), or
  // nothing when no output reuses an input.
  std::string argAttrs() const {
    if (g_.aliases.empty()) return "";
    std::vector<int> outputOf(g_.inputs.size(), -1);
    for (const Alias& alias : g_.aliases) outputOf[static_cast<size_t>(alias.input)] = alias.output;
    std::string out = "arg_attrs = [";
    for (size_t i = 0; i < outputOf.size(); ++i) {
      out += i ? ", {" : "{";
      if (outputOf[i] >= 0) out += "tf.aliasing_output = " + std::to_string(outputOf[i]) + " : i32";
      out += "}";
    }
    return out + "], ";
  }

  void node(size_t n) {
    const Node& node = g_.nodes[n];
    // Appended rather than "%" + std::to_string(n): g++ 12 at -O2 and above inlines that operator+
    // (an insert at the front) into a -Wrestrict false positive (GCC bug 105329).
    std::string base = "%";
    base += prefix_;
    base += std::to_string(n);
    out_ << indent_ << base;
    if (node.results.size() > 1) {
      out_ << ":" << node.results.size();
      for (size_t k = 0; k < node.results.size(); ++k) names_.push_back(base + "#" + std::to_string(k));
    } else {
      names_.push_back(base);
    }
    out_ << " = \"" << qualifiedName(node.op) << "\"(";
    std::vector<TensorType> operandTypes;
    // A case's operands after the index are what its branches read from above.
    const size_t printed = node.op == "case" ? std::min<size_t>(1, node.operands.size()) : node.operands.size();
    for (size_t i = 0; i < printed; ++i) {
      out_ << (i ? ", " : "") << names_[node.operands[i]];
      operandTypes.push_back(typeOf(node.operands[i]));
    }
    out_ << ")";
    if (!node.body.empty()) body(node, n, operandTypes);
    if (!node.regions.empty()) regions(node, n);
    if (!node.attrs.empty()) {
      out_ << " {";
      for (size_t i = 0; i < node.attrs.size(); ++i) out_ << (i ? ", " : "") << attrString(node.attrs[i], node);
      out_ << "}";
    }
    out_ << " : " << typeList(operandTypes) << " -> " << resultsString(node.results) << "\n";
  }

  const TensorType& typeOf(int id) const { return types_[static_cast<size_t>(id)]; }

  void regions(const Node& node, size_t n) {
    out_ << " (";
    for (size_t r = 0; r < node.regions.size(); ++r) {
      // A name that does not start with a digit: MLIR allows only all-digit numbered names.
      std::string prefix = prefix_ + "c" + std::to_string(n) + "r" + std::to_string(r) + "_";
      std::vector<std::string> inputs;
      const bool blockArgs = node.op != "case";
      if (blockArgs) {
        for (size_t i = 0; i < node.regions[r].inputs.size(); ++i) inputs.push_back("%" + prefix + "a" + std::to_string(i));
      } else {
        for (size_t i = 1; i < node.operands.size(); ++i) inputs.push_back(names_[static_cast<size_t>(node.operands[i])]);
      }
      out_ << (r ? ", " : "") << "{\n";
      Printer(node.regions[r], out_, prefix, indent_ + "  ").region(inputs, blockArgs);
      out_ << indent_ << "}";
    }
    out_ << ")";
  }

  // The fixed reduce bodies: N accumulators, then N elements, as 0-d tensors.
  void body(const Node& node, size_t n, const std::vector<TensorType>& operandTypes) {
    if (node.body == "sort_ascending" || node.body == "sort_descending") return sortBody(node, n, operandTypes);
    if (node.op == "select_and_scatter") return selectScatterBodies(node, n, operandTypes);
    size_t count = operandTypes.size() / 2;
    std::string p = "%r" + prefix_ + std::to_string(n) + "_";
    std::vector<std::string> scalar;
    for (size_t i = 0; i < count; ++i) scalar.push_back(typeString({operandTypes[i].element, {}}));
    out_ << " ({\n    ^bb0(";
    for (size_t side = 0; side < 2; ++side)
      for (size_t i = 0; i < count; ++i)
        out_ << (side || i ? ", " : "") << p << (side ? "b" : "a") << i << ": " << scalar[i];
    out_ << "):\n";
    auto line = [&](const std::string& name, const std::string& op, const std::string& args, const std::string& ins,
                    const std::string& result, const std::string& attrs = "") {
      out_ << "      " << p << name << " = \"stablehlo." << op << "\"(" << args << ")" << attrs << " : (" << ins
           << ") -> " << result << "\n";
    };
    const std::string& v = scalar[0];
    std::string a = p + "a0", b = p + "b0";
    // argmax/argmin: ties go to the first index; cumargmax/cumargmin (cummax/cummin) to the last.
    const bool cumulative = node.body == "cumargmax" || node.body == "cumargmin";
    if (node.body == "argmax" || node.body == "argmin" || cumulative) {
      if (count != 2) fail(node, n, "an arg-reduce body needs values and indices");
      const std::string& iv = scalar[1];
      std::string ai = p + "a1", bi = p + "b1";
      auto cmp = [](const char* dir) {
        return std::string(" {comparison_direction = #stablehlo<comparison_direction ") + dir + ">}";
      };
      const char* dir = node.body == "argmax" || node.body == "cumargmax" ? "GT" : "LT";
      std::string pred = "tensor<i1>";
      line("better", "compare", a + ", " + b, v + ", " + v, pred, cmp(dir));
      line("eq", "compare", a + ", " + b, v + ", " + v, pred, cmp("EQ"));
      line("first", "compare", ai + ", " + bi, iv + ", " + iv, pred, cmp(cumulative ? "GT" : "LT"));
      line("tie", "and", p + "eq, " + p + "first", pred + ", " + pred, pred);
      line("pick", "or", p + "better, " + p + "tie", pred + ", " + pred, pred);
      std::string choose = p + "pick";
      if (isFloat(operandTypes[0].element)) {  // NaN wins, the first NaN among NaNs
        line("anan", "compare", a + ", " + a, v + ", " + v, pred, cmp("NE"));
        line("bnan", "compare", b + ", " + b, v + ", " + v, pred, cmp("NE"));
        line("bnum", "not", p + "bnan", pred, pred);
        line("ifnan", "or", p + "bnum, " + p + "first", pred + ", " + pred, pred);
        line("ifnum", "and", p + "bnum, " + p + "pick", pred + ", " + pred, pred);
        line("choose", "select", p + "anan, " + p + "ifnan, " + p + "ifnum", pred + ", " + pred + ", " + pred, pred);
        choose = p + "choose";
      }
      line("v", "select", choose + ", " + a + ", " + b, pred + ", " + v + ", " + v, v);
      line("i", "select", choose + ", " + ai + ", " + bi, pred + ", " + iv + ", " + iv, iv);
      out_ << "      \"stablehlo.return\"(" << p << "v, " << p << "i) : (" << v << ", " << iv << ") -> ()\n    })";
      return;
    }
    if (node.body == "replace") {  // scatter: the update replaces the value
      if (count != 1) fail(node, n, "a 'replace' scatter takes one input");
      out_ << "      \"stablehlo.return\"(" << b << ") : (" << v << ") -> ()\n    })";
      return;
    }
    if (node.body == "logaddexp") {  // max + log1p(exp(min − max)); equal values (±inf included) give max + log 2
      std::string pred = "tensor<i1>";
      line("hi", "maximum", a + ", " + b, v + ", " + v, v);
      line("lo", "minimum", a + ", " + b, v + ", " + v, v);
      line("d", "subtract", p + "lo, " + p + "hi", v + ", " + v, v);
      line("zero", "constant", "", "", v, " {value = dense<0.0> : " + v + "}");
      line("same", "compare", p + "hi, " + p + "lo", v + ", " + v, pred,
           " {comparison_direction = #stablehlo<comparison_direction EQ>}");
      line("dd", "select", p + "same, " + p + "zero, " + p + "d", pred + ", " + v + ", " + v, v);
      line("e", "exponential", p + "dd", v, v);
      line("l", "log_plus_one", p + "e", v, v);
      line("c", "add", p + "hi, " + p + "l", v + ", " + v, v);
      out_ << "      \"stablehlo.return\"(" << p << "c) : (" << v << ") -> ()\n    })";
      return;
    }
    static const std::pair<const char*, const char*> kCombiners[] = {
        {"add", "add"}, {"max", "maximum"}, {"min", "minimum"}, {"mul", "multiply"}, {"and", "and"}, {"or", "or"}};
    const char* op = nullptr;
    for (const auto& [name, stablehlo] : kCombiners)
      if (node.body == name) op = stablehlo;
    if (!op) fail(node, n, "unknown reduce body '" + node.body + "'");
    if (count != 1) fail(node, n, "a '" + node.body + "' reduce takes one input and one init value");
    line("c", op, a + ", " + b, v + ", " + v, v);
    out_ << "      \"stablehlo.return\"(" << p << "c) : (" << v << ") -> ()\n    })";
  }

  // A sort comparator on the first operand (lhs, rhs per operand): "less" for ascending, "greater" for
  // descending, with NaN above every number (last ascending, first descending) and ties unordered.
  void sortBody(const Node& node, size_t n, const std::vector<TensorType>& operandTypes) {
    std::string p = "%r" + prefix_ + std::to_string(n) + "_";
    out_ << " ({\n    ^bb0(";
    for (size_t i = 0; i < operandTypes.size(); ++i)
      for (const char* side : {"a", "b"})
        out_ << (i || side[0] == 'b' ? ", " : "") << p << side << i << ": " << typeString({operandTypes[i].element, {}});
    out_ << "):\n";
    const std::string v = typeString({operandTypes[0].element, {}}), pred = "tensor<i1>";
    const std::string a = p + "a0", b = p + "b0";
    auto cmp = [&](const std::string& name, const std::string& x, const std::string& y, const char* dir) {
      out_ << "      " << p << name << " = \"stablehlo.compare\"(" << x << ", " << y
           << ") {comparison_direction = #stablehlo<comparison_direction " << dir << ">} : (" << v << ", " << v
           << ") -> " << pred << "\n";
    };
    auto logic = [&](const std::string& name, const char* op, const std::string& x, const std::string& y) {
      out_ << "      " << p << name << " = \"stablehlo." << op << "\"(" << x << ", " << y << ") : (" << pred << ", "
           << pred << ") -> " << pred << "\n";
    };
    const bool ascending = node.body == "sort_ascending";
    cmp("lt", a, b, ascending ? "LT" : "GT");
    std::string result = p + "lt";
    if (isFloat(operandTypes[0].element)) {  // ascending: b is NaN and a is not; descending: a is NaN and b is not
      cmp("nan", ascending ? b : a, ascending ? b : a, "NE");
      cmp("num", ascending ? a : b, ascending ? a : b, "EQ");
      logic("nanlast", "and", p + "nan", p + "num");
      logic("less", "or", p + "lt", p + "nanlast");
      result = p + "less";
    }
    out_ << "      \"stablehlo.return\"(" << result << ") : (" << pred << ") -> ()\n    })";
  }

  // select_and_scatter's regions: body "GE" or "LE" selects the first maximum or minimum of each
  // window; the scatter region adds.
  void selectScatterBodies(const Node& node, size_t n, const std::vector<TensorType>& operandTypes) {
    if (node.body != "GE" && node.body != "LE") fail(node, n, "unknown select_and_scatter body '" + node.body + "'");
    std::string p = "%r" + prefix_ + std::to_string(n) + "_";
    std::string v = typeString({operandTypes.at(0).element, {}});
    out_ << " ({\n    ^bb0(" << p << "a: " << v << ", " << p << "b: " << v << "):\n";
    out_ << "      " << p << "s = \"stablehlo.compare\"(" << p << "a, " << p << "b) {comparison_direction = "
         << "#stablehlo<comparison_direction " << node.body << ">} : (" << v << ", " << v << ") -> tensor<i1>\n";
    out_ << "      \"stablehlo.return\"(" << p << "s) : (tensor<i1>) -> ()\n    }, {\n";
    out_ << "    ^bb0(" << p << "c: " << v << ", " << p << "d: " << v << "):\n";
    out_ << "      " << p << "t = \"stablehlo.add\"(" << p << "c, " << p << "d) : (" << v << ", " << v << ") -> " << v << "\n";
    out_ << "      \"stablehlo.return\"(" << p << "t) : (" << v << ") -> ()\n    })";
  }

  [[noreturn]] static void fail(const Node& node, size_t n, const std::string& message) {
    throw RuntimeError(kUsageError, "lowerGraph", "node " + std::to_string(n) + " (" + node.op + "): " + message);
  }

  const Graph& g_;
  std::vector<std::string> names_;
  std::vector<TensorType> types_;
  std::ostream& out_;
  std::string prefix_;
  std::string indent_;
};

}  // namespace

std::string typeString(const TensorType& type) {
  std::string out = "tensor<";
  for (int64_t d : type.dims) out += std::to_string(d) + "x";
  return out + elementTypeName(type.element) + ">";
}

std::string printModule(const Graph& graph) {
  validate(graph);
  std::ostringstream out;
  Printer(graph, out).module();
  return out.str();
}

}  // namespace tpjrt::lower
