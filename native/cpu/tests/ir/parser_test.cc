// parseModule on real StableHLO text (samples printed by jax 0.10.2 in both forms, written here as
// our own test data), on every supported op's attribute spelling, and on malformed input.
#include <cstring>
#include <string>

#include "base/error.h"
#include "check.h"
#include "ir/element_type.h"
#include "ir/stablehlo.h"
#include "tests/test_modules.h"

using namespace tpjrt::cpu;
using tpjrt::cpu::test::kJaxArgmaxBody;

namespace {

// jax.jit(lambda a: (jnp.sum(a * 2.0, axis=1), a.T, jnp.maximum(a, 0))), pretty form.
const char* kJaxPretty = R"mlir(module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3xf32>) -> (tensor<2xf32> {jax.result_info = "result[0]"}, tensor<3x2xf32> {jax.result_info = "result[1]"}, tensor<2x3xf32> {jax.result_info = "result[2]"}) {
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
    %1 = stablehlo.multiply %arg0, %0 : tensor<2x3xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.reduce(%1 init: %cst_0) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
    %3 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
    %5 = stablehlo.maximum %arg0, %4 : tensor<2x3xf32>
    return %2, %3, %5 : tensor<2xf32>, tensor<3x2xf32>, tensor<2x3xf32>
  }
}
)mlir";

// The same module in generic form (operation.get_asm(print_generic_op_form=True)).
const char* kJaxGeneric = R"mlir("builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<2x3xf32>) -> (tensor<2xf32>, tensor<3x2xf32>, tensor<2x3xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<2x3xf32>):
    %0 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x3xf32>
    %2 = "stablehlo.multiply"(%arg0, %1) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %3 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %4 = "stablehlo.reduce"(%2, %3) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %9 = "stablehlo.add"(%arg1, %arg2) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%9) : (tensor<f32>) -> ()
    }) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
    %5 = "stablehlo.transpose"(%arg0) <{permutation = array<i64: 1, 0>}> : (tensor<2x3xf32>) -> tensor<3x2xf32>
    %6 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %7 = "stablehlo.broadcast_in_dim"(%6) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x3xf32>
    %8 = "stablehlo.maximum"(%arg0, %7) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    "func.return"(%4, %5, %8) : (tensor<2xf32>, tensor<3x2xf32>, tensor<2x3xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
)mlir";

// jnp.argmax's private function from jax (as main): a two-input reduce in the long `reducer` form.
const std::string kArgmaxPretty = R"mlir(func.func public @main(%arg0: tensor<2x3xf32>) -> tensor<2xi32> {
)mlir" +
                                  std::string(kJaxArgmaxBody) + "}\n";

const char* kArgmaxGeneric = R"mlir("func.func"() <{function_type = (tensor<2x3xf32>) -> tensor<2xi32>, sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<2x3xf32>):
    %0 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<2x3xi32>
    %1 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %2 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %3:2 = "stablehlo.reduce"(%arg0, %0, %1, %2) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<i32>, %arg3: tensor<f32>, %arg4: tensor<i32>):
      %4 = "stablehlo.compare"(%arg1, %arg3) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %5 = "stablehlo.compare"(%arg1, %arg1) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %6 = "stablehlo.or"(%4, %5) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %7 = "stablehlo.compare"(%arg1, %arg3) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %8 = "stablehlo.compare"(%arg2, %arg4) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %9 = "stablehlo.and"(%7, %8) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %10 = "stablehlo.or"(%6, %9) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %11 = "stablehlo.select"(%6, %arg1, %arg3) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %12 = "stablehlo.select"(%10, %arg2, %arg4) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%11, %12) : (tensor<f32>, tensor<i32>) -> ()
    }) : (tensor<2x3xf32>, tensor<2x3xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>)
    "func.return"(%3#1) : (tensor<2xi32>) -> ()
  }) : () -> ()
)mlir";

// jnp.einsum('bij,bjk->bik') and slicing/padding ops from jax, pretty then generic.
const char* kShapesPretty = R"mlir(module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3x4xf32>, %arg1: tensor<2x4x5xf32>, %arg2: tensor<2x3xf32>, %arg3: tensor<i32>) -> (tensor<2x3x5xf32>, tensor<2x1xf32>, tensor<4x3xf32>, tensor<3x5xf32>, tensor<2x3xf32>, tensor<1x3xf32>, tensor<2x3xf32>) {
    %0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
    %1 = stablehlo.slice %arg2 [0:2, 1:3:2] : (tensor<2x3xf32>) -> tensor<2x1xf32>
    %2 = stablehlo.concatenate %arg2, %arg2, dim = 0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.pad %arg2, %cst, low = [1, 0], high = [0, 2], interior = [0, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3x5xf32>
    %4 = stablehlo.reverse %arg2, dims = [0] : tensor<2x3xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.dynamic_slice %arg2, %arg3, %c, sizes = [1, 3] : (tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<1x3xf32>
    %6 = stablehlo.dynamic_update_slice %arg2, %5, %arg3, %c : (tensor<2x3xf32>, tensor<1x3xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
    return %0, %1, %2, %3, %4, %5, %6 : tensor<2x3x5xf32>, tensor<2x1xf32>, tensor<4x3xf32>, tensor<3x5xf32>, tensor<2x3xf32>, tensor<1x3xf32>, tensor<2x3xf32>
  }
}
)mlir";

const char* kShapesGeneric = R"mlir("builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{function_type = (tensor<2x3x4xf32>, tensor<2x4x5xf32>, tensor<2x3xf32>, tensor<i32>) -> (tensor<2x3x5xf32>, tensor<2x1xf32>, tensor<4x3xf32>, tensor<3x5xf32>, tensor<2x3xf32>, tensor<1x3xf32>, tensor<2x3xf32>), sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<2x3x4xf32>, %arg1: tensor<2x4x5xf32>, %arg2: tensor<2x3xf32>, %arg3: tensor<i32>):
    %0 = "stablehlo.dot_general"(%arg0, %arg1) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
    %1 = "stablehlo.slice"(%arg2) <{limit_indices = array<i64: 2, 3>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 2>}> : (tensor<2x3xf32>) -> tensor<2x1xf32>
    %2 = "stablehlo.concatenate"(%arg2, %arg2) <{dimension = 0 : i64}> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
    %3 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %4 = "stablehlo.pad"(%arg2, %3) <{edge_padding_high = array<i64: 0, 2>, edge_padding_low = array<i64: 1, 0>, interior_padding = array<i64: 0, 0>}> : (tensor<2x3xf32>, tensor<f32>) -> tensor<3x5xf32>
    %5 = "stablehlo.reverse"(%arg2) <{dimensions = array<i64: 0>}> : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %6 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %7 = "stablehlo.dynamic_slice"(%arg2, %arg3, %6) <{slice_sizes = array<i64: 1, 3>}> : (tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<1x3xf32>
    %8 = "stablehlo.dynamic_update_slice"(%arg2, %7, %arg3, %6) : (tensor<2x3xf32>, tensor<1x3xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
    "func.return"(%0, %1, %2, %4, %5, %7, %8) : (tensor<2x3x5xf32>, tensor<2x1xf32>, tensor<4x3xf32>, tensor<3x5xf32>, tensor<2x3xf32>, tensor<1x3xf32>, tensor<2x3xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
)mlir";

// A canonical dump of everything the parser produces except line numbers.
std::string describe(const Attribute& a);
std::string describe(const Region& r);

std::string describe(const Attribute& a) {
  std::string s = std::to_string(static_cast<int>(a.kind)) + ":";
  switch (a.kind) {
    case Attribute::Kind::Int: return s + std::to_string(a.i);
    case Attribute::Kind::Float: return s + std::to_string(a.f);
    case Attribute::Kind::Bool: return s + (a.b ? "true" : "false");
    case Attribute::Kind::String:
    case Attribute::Kind::Symbol: return s + a.s;
    case Attribute::Kind::I64Array:
      for (int64_t i : a.ints) s += std::to_string(i) + ",";
      return s;
    case Attribute::Kind::Array:
      for (const auto& item : a.items) s.append("(").append(describe(*item)).append(")");
      return s;
    case Attribute::Kind::Dense: {
      s += typeString(a.dense.type);
      for (uint8_t b : a.dense.bytes) s += std::to_string(b) + ".";
      return s;
    }
    case Attribute::Kind::Struct:
      for (const auto& [k, v] : a.fields) s += k + "=" + describe(*v) + ";";
      return s;
    default: return s;
  }
}

std::string describe(const Op& op) {
  std::string s = op.name + "(";
  for (size_t i = 0; i < op.operands.size(); ++i) s += std::to_string(op.operands[i]) + ":" + typeString(op.operandTypes[i]) + ",";
  s += ")->(";
  for (size_t i = 0; i < op.results.size(); ++i) s += std::to_string(op.results[i]) + ":" + typeString(op.resultTypes[i]) + ",";
  s += "){";
  for (const auto& [k, v] : op.attrs) s += k + "=" + describe(*v) + ";";
  s += "}";
  for (const auto& r : op.regions) s.append("[").append(describe(r)).append("]");
  return s + "\n";
}

std::string describe(const Region& r) {
  std::string s = "args:";
  for (size_t i = 0; i < r.args.size(); ++i) s += std::to_string(r.args[i]) + ":" + typeString(r.argTypes[i]) + ",";
  s += "\n";
  for (const auto& op : r.ops) s += describe(op);
  return s;
}

std::string describe(const Module& m) {
  std::string s = "values " + std::to_string(m.numValues) + "\n";
  for (const auto& f : m.functions) {
    s += "func " + f.name + (f.isPublic ? " public ->" : " private ->");
    for (const auto& t : f.resultTypes) s += typeString(t) + ",";
    s.append("\n").append(describe(f.body));
  }
  return s;
}

const Op& opAt(const Module& m, size_t i) { return m.functions.at(0).body.ops.at(i); }

const Attribute& attr(const Op& op, const std::string& key) {
  static const Attribute missing{};
  auto it = op.attrs.find(key);
  return it == op.attrs.end() ? missing : *it->second;
}

std::vector<int64_t> ints(const Op& op, const std::string& key) { return attr(op, key).ints; }

std::vector<int64_t> v(std::initializer_list<int64_t> l) { return l; }

float f32At(const Literal& lit, size_t i) {
  float f;
  std::memcpy(&f, lit.bytes.data() + 4 * i, 4);
  return f;
}

uint32_t bitsAt(const Literal& lit, size_t i) {
  uint32_t u;
  std::memcpy(&u, lit.bytes.data() + 4 * i, 4);
  return u;
}

// The literal of `dense<body> : type` in a one-constant module.
Literal constantOf(const std::string& body, const std::string& type) {
  std::string text = "func.func @main() -> " + type + " {\n  %c = stablehlo.constant dense<" + body + "> : " + type +
                     "\n  return %c : " + type + "\n}\n";
  Module m = parseModule(text);
  return attr(opAt(m, 0), "value").dense;
}

// A module whose main applies `line` (which defines %r) to %a and %b and returns %r.
std::string withBody(const std::string& args, const std::string& line, const std::string& result) {
  return "func.func @main(" + args + ") -> " + result + " {\n  " + line + "\n  return %r : " + result + "\n}\n";
}

}  // namespace

TEST(jax_pretty_module_parses) {
  Module m = parseModule(kJaxPretty);
  CHECK_EQ(m.functions.size(), 1u);
  const Function& f = m.functions[0];
  CHECK_EQ(f.name, std::string("main"));
  CHECK(f.isPublic);
  CHECK_EQ(f.line, 2);
  CHECK_EQ(f.resultTypes.size(), 3u);
  CHECK_EQ(typeString(f.resultTypes[1]), std::string("tensor<3x2xf32>"));
  CHECK_EQ(f.body.argTypes.size(), 1u);
  CHECK_EQ(f.body.ops.size(), 10u);
  CHECK_EQ(opAt(m, 0).name, std::string("stablehlo.constant"));
  CHECK_EQ(opAt(m, 0).line, 3);
  CHECK_EQ(f32At(attr(opAt(m, 0), "value").dense, 0), 2.0f);
  CHECK(attr(opAt(m, 1), "broadcast_dimensions").kind == Attribute::Kind::I64Array);
  CHECK(ints(opAt(m, 1), "broadcast_dimensions").empty());
  CHECK(ints(opAt(m, 5), "permutation") == v({1, 0}));
  const Op& reduce = opAt(m, 4);
  CHECK(ints(reduce, "dimensions") == v({1}));
  CHECK_EQ(reduce.regions.size(), 1u);
  CHECK_EQ(reduce.regions[0].ops.size(), 2u);
  CHECK_EQ(reduce.regions[0].ops[0].name, std::string("stablehlo.add"));
  CHECK_EQ(reduce.regions[0].ops[1].name, std::string("stablehlo.return"));
  CHECK_EQ(typeString(reduce.regions[0].argTypes[0]), std::string("tensor<f32>"));
  CHECK_EQ(opAt(m, 9).name, std::string("func.return"));
  CHECK_EQ(opAt(m, 9).operands.size(), 3u);
  CHECK(m.attrs.count("mhlo.num_partitions") == 1);
  CHECK_EQ(m.attrs.at("mhlo.num_replicas")->i, 1);
  CHECK_EQ(m.attrs.at("sym_name")->s, std::string("jit__lambda"));
  Module generic = parseModule(kJaxGeneric);
  CHECK_EQ(generic.attrs.at("sym_name")->s, std::string("jit__lambda"));
}

TEST(pretty_and_generic_forms_give_the_same_ir) {
  CHECK_EQ(describe(parseModule(kJaxPretty)), describe(parseModule(kJaxGeneric)));
  CHECK_EQ(describe(parseModule(kArgmaxPretty)), describe(parseModule(kArgmaxGeneric)));
  CHECK_EQ(describe(parseModule(kShapesPretty)), describe(parseModule(kShapesGeneric)));
}

TEST(value_ids_are_unique_across_the_module) {
  Module m = parseModule(kJaxGeneric);
  std::vector<int> seen(static_cast<size_t>(m.numValues), 0);
  std::function<void(const Region&)> walk = [&](const Region& r) {
    for (int id : r.args) seen.at(static_cast<size_t>(id))++;
    for (const Op& op : r.ops) {
      for (int id : op.results) seen.at(static_cast<size_t>(id))++;
      for (const Region& nested : op.regions) walk(nested);
    }
  };
  for (const auto& f : m.functions) walk(f.body);
  for (int n : seen) CHECK_EQ(n, 1);
  CHECK_EQ(m.numValues, 13);
}

TEST(multi_result_reduce_and_hash_uses) {
  Module m = parseModule(kArgmaxPretty);
  const Op& reduce = opAt(m, 3);
  CHECK_EQ(reduce.results.size(), 2u);
  CHECK_EQ(reduce.operands.size(), 4u);
  const Region& body = reduce.regions.at(0);
  // reducer(%arg1, %arg3) (%arg2, %arg4) is the block ^bb0(%arg1, %arg2, %arg3, %arg4).
  CHECK_EQ(typeString(body.argTypes[0]), std::string("tensor<f32>"));
  CHECK_EQ(typeString(body.argTypes[1]), std::string("tensor<i32>"));
  CHECK_EQ(body.ops[0].operands[0], body.args[0]);
  CHECK_EQ(body.ops[0].operands[1], body.args[2]);
  CHECK_EQ(opAt(m, 4).operands.at(0), reduce.results[1]);
  CHECK_EQ(opAt(m, 4).line, 18);
  CHECK_EQ(attr(body.ops[0], "comparison_direction").s, std::string("GT"));
  CHECK(attr(body.ops[0], "comparison_direction").kind == Attribute::Kind::Symbol);
  CHECK_EQ(attr(body.ops[4], "compare_type").s, std::string("SIGNED"));
  CHECK_EQ(body.ops[7].operandTypes.size(), 3u);
  CHECK_EQ(typeString(body.ops[7].operandTypes[0]), std::string("tensor<i1>"));
  CHECK_EQ(typeString(body.ops[7].operandTypes[2]), std::string("tensor<f32>"));
  CHECK_THROWS(parseModule(withBody("%a: tensor<4xf32>", "%q:2 = stablehlo.reduce(%a init: %a) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<4xf32>) -> (tensor<f32>, tensor<f32>)\n  %r = stablehlo.add %q, %q : tensor<f32>", "tensor<f32>")), "name one as %q#0");
}

TEST(shape_op_attributes_are_normalised) {
  Module m = parseModule(kShapesPretty);
  const Attribute& dot = attr(opAt(m, 0), "dot_dimension_numbers");
  CHECK(dot.kind == Attribute::Kind::Struct);
  CHECK(dot.fields.at("lhs_batching_dimensions")->ints == v({0}));
  CHECK(dot.fields.at("rhs_batching_dimensions")->ints == v({0}));
  CHECK(dot.fields.at("lhs_contracting_dimensions")->ints == v({2}));
  CHECK(dot.fields.at("rhs_contracting_dimensions")->ints == v({1}));
  const Attribute& precision = attr(opAt(m, 0), "precision_config");
  CHECK(precision.kind == Attribute::Kind::Array);
  CHECK_EQ(precision.items.size(), 2u);
  CHECK_EQ(precision.items[0]->s, std::string("DEFAULT"));
  CHECK(ints(opAt(m, 1), "start_indices") == v({0, 1}));
  CHECK(ints(opAt(m, 1), "limit_indices") == v({2, 3}));
  CHECK(ints(opAt(m, 1), "strides") == v({1, 2}));
  CHECK_EQ(attr(opAt(m, 2), "dimension").i, 0);
  CHECK(attr(opAt(m, 2), "dimension").kind == Attribute::Kind::Int);
  CHECK(ints(opAt(m, 4), "edge_padding_low") == v({1, 0}));
  CHECK(ints(opAt(m, 4), "edge_padding_high") == v({0, 2}));
  CHECK(ints(opAt(m, 4), "interior_padding") == v({0, 0}));
  CHECK(ints(opAt(m, 5), "dimensions") == v({0}));
  CHECK_EQ(typeString(opAt(m, 5).resultTypes.at(0)), std::string("tensor<2x3xf32>"));
  CHECK(ints(opAt(m, 7), "slice_sizes") == v({1, 3}));
  CHECK_EQ(opAt(m, 8).operands.size(), 4u);

  Module iota = parseModule(kArgmaxPretty);
  CHECK_EQ(attr(opAt(iota, 0), "iota_dimension").i, 1);
  // dot_general without batching dims or precision; missing lists become empty ones.
  Module plain = parseModule(withBody("%a: tensor<2x3xf32>, %b: tensor<3x4xf32>", "%r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>", "tensor<2x4xf32>"));
  const Attribute& d = attr(opAt(plain, 0), "dot_dimension_numbers");
  CHECK(d.fields.at("lhs_batching_dimensions")->ints.empty());
  CHECK(d.fields.at("rhs_contracting_dimensions")->ints == v({0}));
  CHECK(opAt(plain, 0).attrs.count("precision_config") == 0);
  Module generic = parseModule(R"mlir("func.func"() ({
  ^bb0(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>):
    %0 = "stablehlo.dot_general"(%a, %b) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
    "func.return"(%0) : (tensor<2x4xf32>) -> ()
  }) {function_type = (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>, sym_name = "main"} : () -> ()
)mlir");
  CHECK_EQ(describe(attr(opAt(generic, 0), "dot_dimension_numbers")), describe(d));
}

TEST(compare_forms) {
  Module m = parseModule(withBody("%a: tensor<4xf32>", "%r = stablehlo.compare GE, %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>", "tensor<4xi1>"));
  CHECK_EQ(attr(opAt(m, 0), "comparison_direction").s, std::string("GE"));
  CHECK(opAt(m, 0).attrs.count("compare_type") == 0);
  Module t = parseModule(withBody("%a: tensor<4xf32>", "%r = stablehlo.compare  LT, %a, %a,  TOTALORDER : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>", "tensor<4xi1>"));
  CHECK_EQ(attr(opAt(t, 0), "compare_type").s, std::string("TOTALORDER"));
  Module u = parseModule(withBody("%a: tensor<4xui8>", "%r = \"stablehlo.compare\"(%a, %a) {comparison_direction = #stablehlo<comparison_direction LE>, compare_type = #stablehlo<comparison_type UNSIGNED>} : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xi1>", "tensor<4xi1>"));
  CHECK_EQ(attr(opAt(u, 0), "comparison_direction").s, std::string("LE"));
  CHECK_EQ(attr(opAt(u, 0), "compare_type").s, std::string("UNSIGNED"));
}

TEST(type_signature_shorthands) {
  Module m = parseModule(withBody("%a: tensor<2xf32>", "%x = stablehlo.convert %a : tensor<2xf32>\n  %y = stablehlo.convert %x : (tensor<2xf32>) -> tensor<2xbf16>\n  %r = stablehlo.convert %y : (tensor<2xbf16>) -> tensor<2xf32>", "tensor<2xf32>"));
  CHECK_EQ(typeString(opAt(m, 0).resultTypes.at(0)), std::string("tensor<2xf32>"));
  CHECK_EQ(typeString(opAt(m, 1).resultTypes.at(0)), std::string("tensor<2xbf16>"));
  Module c = parseModule(withBody("%a: tensor<4xf32>, %lo: tensor<f32>", "%r = stablehlo.clamp %lo, %a, %lo : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>", "tensor<4xf32>"));
  CHECK_EQ(typeString(opAt(c, 0).operandTypes.at(0)), std::string("tensor<f32>"));
  Module s = parseModule(withBody("%p: tensor<i1>, %a: tensor<4xf32>", "%r = stablehlo.select %p, %a, %a : (tensor<i1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>", "tensor<4xf32>"));
  CHECK_EQ(opAt(s, 0).operandTypes.size(), 3u);
  CHECK_THROWS(parseModule(withBody("%a: tensor<4xf32>", "%r = stablehlo.add %a, %a : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>", "tensor<4xf32>")), "line 2: stablehlo.add: the type signature lists 3 types for 2 operands");
}

TEST(every_elementwise_op_parses_in_pretty_form) {
  const char* unaryFloat[] = {"negate", "abs", "sign", "exponential", "exponential_minus_one", "log", "log_plus_one",
                              "logistic", "tanh", "sqrt", "rsqrt", "cbrt", "sine", "cosine", "tan", "floor", "ceil",
                              "round_nearest_even", "round_nearest_afz"};
  for (const char* name : unaryFloat) {
    Module m = parseModule(withBody("%a: tensor<3xf32>", std::string("%r = stablehlo.") + name + " %a : tensor<3xf32>", "tensor<3xf32>"));
    CHECK_EQ(opAt(m, 0).name, std::string("stablehlo.") + name);
    CHECK_EQ(opAt(m, 0).operands.size(), 1u);
  }
  const char* binaryOps[] = {"add", "subtract", "multiply", "divide", "remainder", "power", "maximum", "minimum",
                             "atan2", "and", "or", "xor", "shift_left", "shift_right_arithmetic", "shift_right_logical"};
  for (const char* name : binaryOps) {
    Module m = parseModule(withBody("%a: tensor<3xi32>", std::string("%r = stablehlo.") + name + " %a, %a : tensor<3xi32>", "tensor<3xi32>"));
    CHECK_EQ(opAt(m, 0).operands.size(), 2u);
  }
  Module n = parseModule(withBody("%a: tensor<3xi8>", "%r = stablehlo.not %a : tensor<3xi8>", "tensor<3xi8>"));
  CHECK_EQ(opAt(n, 0).name, std::string("stablehlo.not"));
  Module f = parseModule(withBody("%a: tensor<3xf32>", "%r = stablehlo.is_finite %a : (tensor<3xf32>) -> tensor<3xi1>", "tensor<3xi1>"));
  CHECK_EQ(typeString(opAt(f, 0).resultTypes[0]), std::string("tensor<3xi1>"));
  Module b = parseModule(withBody("%a: tensor<2x3xf32>", "%r = stablehlo.bitcast_convert %a : (tensor<2x3xf32>) -> tensor<2x3xi32>", "tensor<2x3xi32>"));
  Module r = parseModule(withBody("%a: tensor<2x3xf32>", "%r = stablehlo.reshape %a : (tensor<2x3xf32>) -> tensor<3x2xf32>", "tensor<3x2xf32>"));
  CHECK_EQ(typeString(r.functions[0].body.ops[0].resultTypes[0]), std::string("tensor<3x2xf32>"));
  CHECK_EQ(b.functions[0].body.ops.size(), 2u);
}

TEST(element_types) {
  const char* names[] = {"i1", "i8", "i16", "i32", "i64", "ui8", "ui16", "ui32", "ui64", "f16", "bf16", "f32", "f64"};
  for (const char* name : names) {
    std::string t = std::string("tensor<2x") + name + ">";
    Module m = parseModule(withBody("%a: " + t, "%r = stablehlo.maximum %a, %a : " + t, t));
    CHECK_EQ(typeString(opAt(m, 0).resultTypes[0]), t);
  }
  CHECK_THROWS(parseModule(withBody("%a: tensor<2xf6E2M3FN>", "%r = stablehlo.add %a, %a : tensor<2xf6E2M3FN>", "tensor<2xf6E2M3FN>")), "line 1: func.func @main: element type f6E2M3FN is not supported by the cpu plugin");
  CHECK_THROWS(parseModule(withBody("%a: tensor<2xcomplex<f32>>", "", "tensor<2xf32>")), "element type complex<f32> is not supported by the cpu plugin");
  CHECK_THROWS(parseModule(withBody("%a: tensor<2xsi32>", "", "tensor<2xf32>")), "element type si32 is not supported");
  CHECK_THROWS(parseModule(withBody("%a: tensor<?x2xf32>", "", "tensor<2xf32>")), "dynamic dimensions are not supported");
  CHECK_THROWS(parseModule(withBody("%a: !stablehlo.token", "", "tensor<2xf32>")), "type !stablehlo.token is not supported by the cpu plugin");
  CHECK_THROWS(parseModule(withBody("%a: tensor<4x!quant.uniform<i8:f32, 0.5:-20>>", "", "tensor<2xf32>")), "is not supported by the cpu plugin");
}

TEST(dense_literals) {
  // A splat keeps its one value however large its type (a program's many full-size splat
  // constants once took gigabytes and seconds to parse).
  Literal splat = constantOf("1.500000e+00", "tensor<2x2xf32>");
  CHECK_EQ(splat.bytes.size(), 4u);
  CHECK_EQ(f32At(splat, 0), 1.5f);
  CHECK_EQ(constantOf("7", "tensor<4096x4096xui32>").bytes.size(), 4u);
  Literal nested = constantOf("[[1.0, -2.5], [3e2, 0x7FC00000]]", "tensor<2x2xf32>");
  CHECK_EQ(f32At(nested, 1), -2.5f);
  CHECK_EQ(f32At(nested, 2), 300.0f);
  CHECK_EQ(bitsAt(nested, 3), 0x7FC00000u);
  Literal inf = constantOf("[0x7F800000, 0xFF800000, -0.000000e+00]", "tensor<3xf32>");
  CHECK_EQ(bitsAt(inf, 0), 0x7F800000u);
  CHECK_EQ(bitsAt(inf, 1), 0xFF800000u);
  CHECK_EQ(bitsAt(inf, 2), 0x80000000u);
  Literal hex = constantOf("\"0x000000000000803F0000004000004040\"", "tensor<2x2xf32>");
  CHECK_EQ(f32At(hex, 1), 1.0f);
  CHECK_EQ(f32At(hex, 3), 3.0f);
  Literal hexSplat = constantOf("\"0x0000803F\"", "tensor<3xf32>");
  CHECK_EQ(hexSplat.bytes.size(), 4u);
  CHECK_EQ(f32At(hexSplat, 0), 1.0f);
  Literal bools = constantOf("[true, false, true]", "tensor<3xi1>");
  CHECK(bools.bytes == Bytes({1, 0, 1}));
  Literal boolSplat = constantOf("true", "tensor<i1>");
  CHECK(boolSplat.bytes == Bytes({1}));
  Literal i8 = constantOf("[-128, 127, 255]", "tensor<3xi8>");
  CHECK(i8.bytes == Bytes({0x80, 0x7F, 0xFF}));
  Literal u8 = constantOf("[255, 1]", "tensor<2xui8>");
  CHECK(u8.bytes == Bytes({255, 1}));
  Literal i64 = constantOf("[-9223372036854775808, 9223372036854775807]", "tensor<2xi64>");
  int64_t lo, hi;
  std::memcpy(&lo, i64.bytes.data(), 8);
  std::memcpy(&hi, i64.bytes.data() + 8, 8);
  CHECK_EQ(lo, INT64_MIN);
  CHECK_EQ(hi, INT64_MAX);
  Literal half = constantOf("[1.500000e+00, -2.000000e+00, 0x7E00]", "tensor<3xf16>");
  CHECK(half.bytes == Bytes({0x00, 0x3E, 0x00, 0xC0, 0x00, 0x7E}));
  Literal bf = constantOf("[0x7FC0, 0xFF80, 1.000000e+00]", "tensor<3xbf16>");
  CHECK(bf.bytes == Bytes({0xC0, 0x7F, 0x80, 0xFF, 0x80, 0x3F}));
  Literal f64 = constantOf("[0.1, -1]", "tensor<2xf64>");
  double d;
  std::memcpy(&d, f64.bytes.data(), 8);
  CHECK_EQ(d, 0.1);
  Literal empty = constantOf("", "tensor<0xf32>");
  CHECK(empty.bytes.empty());
  Literal emptyList = constantOf("[]", "tensor<0x3xf32>");
  CHECK(emptyList.bytes.empty());
  Literal scalar = constantOf("-7", "tensor<i32>");
  CHECK(scalar.bytes == Bytes({0xF9, 0xFF, 0xFF, 0xFF}));

  CHECK_THROWS(constantOf("[1.0, 2.0]", "tensor<3xf32>"), "dense literal has 2 elements in dimension 0 but tensor<3xf32> needs 3");
  CHECK_THROWS(constantOf("[1.0, 2.0, 3.0, 4.0]", "tensor<3xf32>"), "more than 3 elements");
  CHECK_THROWS(constantOf("[[1.0], [2.0]]", "tensor<2xf32>"), "line 2: stablehlo.constant: expected a number");
  CHECK_THROWS(constantOf("256", "tensor<ui8>"), "value 256 is out of range for ui8");
  CHECK_THROWS(constantOf("-1", "tensor<ui32>"), "value -1 is out of range for ui32");
  CHECK_THROWS(constantOf("-129", "tensor<i8>"), "value -129 is out of range for i8");
  CHECK_THROWS(constantOf("1.5", "tensor<i32>"), "'1.5' is not a valid i32 element");
  CHECK_THROWS(constantOf("true", "tensor<f32>"), "'true' is not a valid f32 element");
  CHECK_THROWS(constantOf("0x1FFFF", "tensor<f16>"), "hex value '0x1FFFF' does not fit f16");
  CHECK_THROWS(constantOf("\"0x0000\"", "tensor<3xf32>"), "hex literal has 2 bytes but tensor<3xf32> needs 12");
  CHECK_THROWS(constantOf("\"0xZZ\"", "tensor<i8>"), "bad hex digit");
  CHECK_THROWS(constantOf("", "tensor<2xf32>"), "empty dense literal");
  CHECK_THROWS(constantOf("99999999999999999999999", "tensor<i64>"), "too large");
  CHECK_THROWS(constantOf("(1.0, 2.0)", "tensor<complex<f32>>"), "not supported");
}

TEST(old_dense_dimension_lists_are_rejected) {
  // XLA and libtpu no longer accept `dense<…> : tensor<Nxi64>` where the spec wants array<i64: …>, so
  // a program that writes it must fail here too, with the spelling to use instead.
  auto transpose = [](const std::string& attr) {
    return R"mlir("func.func"() ({
  ^bb0(%a: tensor<2x3xf32>):
    %0 = "stablehlo.transpose"(%a) {permutation = )mlir" + attr + R"mlir(} : (tensor<2x3xf32>) -> tensor<3x2xf32>
    "func.return"(%0) : (tensor<3x2xf32>) -> ()
  }) {function_type = (tensor<2x3xf32>) -> tensor<3x2xf32>, sym_name = "main"} : () -> ()
)mlir";
  };
  CHECK_THROWS(parseModule(transpose("dense<[1, 0]> : tensor<2xi64>")),
               "line 3: stablehlo.transpose: attribute permutation is written dense<…> : tensor<2xi64>; use array<i64: 1, 0>; "
               "the dense<> form is no longer accepted by XLA");
  CHECK_THROWS(parseModule(transpose("dense<[1, 0]> : tensor<2xi32>")), "use array<i64: 1, 0>");
  Module ok = parseModule(transpose("array<i64: 1, 0>"));
  CHECK(ints(opAt(ok, 0), "permutation") == v({1, 0}));

  const char* broadcast = R"mlir(func.func @main(%x: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = "stablehlo.broadcast_in_dim"(%x) <{broadcast_dimensions = dense<1> : tensor<1xi64>}> : (tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
)mlir";
  try {
    parseModule(broadcast);
    CHECK(false);
  } catch (const CpuError& e) {
    CHECK(e.code() == ErrorCode::InvalidArgument);
    CHECK(std::string(e.what()).find("line 2: stablehlo.broadcast_in_dim: attribute broadcast_dimensions is written "
                                     "dense<…> : tensor<1xi64>; use array<i64: 1>") != std::string::npos);
  }
  // Every dimension-list attribute, also inside a pretty op's attribute dictionary.
  CHECK_THROWS(parseModule(R"mlir(func.func @main(%x: tensor<2x3xf32>, %z: tensor<f32>) -> tensor<2xf32> {
  %0 = "stablehlo.reduce"(%x, %z) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {dimensions = dense<1> : tensor<1xi64>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
)mlir"),
               "line 2: stablehlo.reduce: attribute dimensions is written dense<…> : tensor<1xi64>; use array<i64: 1>");
  CHECK_THROWS(parseModule("func.func @main(%x: tensor<4xf32>) -> tensor<2xf32> {\n"
                           "  %0 = \"stablehlo.slice\"(%x) {start_indices = array<i64: 0>, limit_indices = dense<2> : tensor<1xi64>, "
                           "strides = array<i64: 1>} : (tensor<4xf32>) -> tensor<2xf32>\n  return %0 : tensor<2xf32>\n}\n"),
               "attribute limit_indices is written dense<…> : tensor<1xi64>; use array<i64: 2>");
  CHECK_THROWS(parseModule("func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
                           "  %0 = stablehlo.negate %x {dimensions = dense<[0]> : tensor<1xi64>} : tensor<4xf32>\n"
                           "  return %0 : tensor<4xf32>\n}\n"),
               "line 2: stablehlo.negate: attribute dimensions is written dense<…>");
  // A dense value where one belongs (a constant) is of course still fine.
  Module c = parseModule("func.func @main() -> tensor<2xi64> {\n  %0 = stablehlo.constant dense<[1, 0]> : tensor<2xi64>\n"
                         "  return %0 : tensor<2xi64>\n}\n");
  CHECK(opAt(c, 0).attrs.count("value") == 1);
}

TEST(bare_functions_comments_and_locations) {
  Module m = parseModule(R"mlir(#loc1 = loc("x.py":3:4)
// a comment
func.func private @helper(%x: tensor<f32> loc(#loc1)) -> tensor<f32> {
  return %x : tensor<f32> loc(#loc1)
}
func.func @main(%a: tensor<f32> {jax.arg_info = "a"}) -> (tensor<f32> {jax.result_info = ""}) attributes {foo} {
  %0 = stablehlo.negate %a : tensor<f32> loc("here")  // trailing comment
  func.return %0 : tensor<f32>
}
#loc2 = loc(unknown)
)mlir");
  CHECK_EQ(m.functions.size(), 2u);
  CHECK(!m.functions[0].isPublic);
  CHECK(m.functions[1].isPublic);
  CHECK_EQ(m.functions[1].line, 6);
  CHECK_EQ(m.functions[1].body.ops[0].line, 7);
  CHECK(m.find("helper") != nullptr);
}

TEST(generic_ops_with_unknown_names_parse) {
  Module m = parseModule(R"mlir(func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.sort"(%a) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %1 = stablehlo.compare LT, %x, %y, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = "mydialect.thing"(%0) {conv = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, s = "x", n = -2.5 : f32, u} : (tensor<4xf32>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}
)mlir");
  CHECK_EQ(opAt(m, 0).name, std::string("stablehlo.sort"));
  CHECK_EQ(attr(opAt(m, 0), "is_stable").b, true);
  CHECK_EQ(opAt(m, 0).regions.at(0).ops.size(), 2u);
  CHECK_EQ(opAt(m, 1).name, std::string("mydialect.thing"));
  CHECK(attr(opAt(m, 1), "conv").kind == Attribute::Kind::String);
  CHECK_EQ(attr(opAt(m, 1), "n").f, -2.5);
  CHECK(attr(opAt(m, 1), "u").b);
}

TEST(structural_errors_name_the_line) {
  CHECK_THROWS(parseModule(withBody("%a: tensor<4xf32>", "%r = stablehlo.add %a, %b : tensor<4xf32>", "tensor<4xf32>")), "line 2: stablehlo.add: use of undefined value %b");
  CHECK_THROWS(parseModule(withBody("%a: tensor<4xf32>", "%r = stablehlo.add %a, %a : tensor<4xf32>\n  %r = stablehlo.add %a, %a : tensor<4xf32>", "tensor<4xf32>")), "line 3: stablehlo.add: value %r is defined twice");
  CHECK_THROWS(parseModule(withBody("%a: tensor<4xf32>, %a: tensor<4xf32>", "", "tensor<4xf32>")), "value %a is defined twice");
  CHECK_THROWS(parseModule(withBody("%a: tensor<4xf32>", "%r = stablehlo.add %a, %a : tensor<3xf32>", "tensor<3xf32>")), "line 2: stablehlo.add: operand %a has type tensor<4xf32> but the signature says tensor<3xf32>");
  CHECK_THROWS(parseModule(withBody("%a: tensor<4xf32>", "%r = stablehlo.frobnicate %a : tensor<4xf32>", "tensor<4xf32>")), "line 2: unsupported op 'stablehlo.frobnicate'");
  std::string whole = withBody("%a: tensor<4xf32>", "%r = stablehlo.add %a, %a : tensor<4xf32>", "tensor<4xf32>");
  CHECK_THROWS(parseModule(whole.substr(0, whole.find(" : tensor<4xf32>\n"))), "line 2: stablehlo.add: expected ':' but found the end of the input");
  CHECK_THROWS(parseModule(whole.substr(0, whole.find("= stablehlo"))), "line 2: expected '=' but found the end of the input");
  CHECK_THROWS(parseModule("func.func @main() {\n  return\n"), "line 3: func.func @main: unbalanced '{': input ends before '}'");
  CHECK_THROWS(parseModule("module {\n func.func @main() {\n  return\n }\n"), "unbalanced '{'");
  CHECK_THROWS(parseModule("func.func @main() {\n  return\n}\n}"), "line 4: expected a func.func but found '}'");
  CHECK_THROWS(parseModule("hello world"), "line 1: expected a func.func but found 'hello'");
  CHECK_THROWS(parseModule("\x01\x02\xff"), "line 1: expected a func.func");
  CHECK_THROWS(parseModule("\"builtin.module\"() ({\n  \"sdy.mesh\"() : () -> ()\n}) : () -> ()"), "line 2: unsupported op 'sdy.mesh' at module level");
  CHECK_THROWS(parseModule("func.func @main(%a: tensor<f32>) -> tensor<f32>\n"), "function has no body");
  CHECK_THROWS(parseModule(R"mlir("func.func"() ({
  ^bb0(%a: tensor<f32>):
    "func.return"(%a) : (tensor<f32>) -> ()
  ^bb1:
    "func.return"(%a) : (tensor<f32>) -> ()
  }) {function_type = (tensor<f32>) -> tensor<f32>, sym_name = "main"} : () -> ()
)mlir"), "line 4: func.func: regions with more than one block are not supported");
  CHECK_THROWS(parseModule(R"mlir("func.func"() ({
  ^bb0(%a: tensor<f32>):
    "func.return"(%a) : (tensor<f32>) -> ()
  }) {function_type = (tensor<i32>) -> tensor<f32>, sym_name = "main"} : () -> ()
)mlir"), "function_type inputs do not match");
  CHECK_THROWS(parseModule(withBody("%a: tensor<4xf32>", "%r = \"stablehlo.add\"(%a, %a) : (tensor<4xf32>) -> tensor<4xf32>", "tensor<4xf32>")), "2 operands but the signature lists 1 operand types");
  CHECK_THROWS(parseModule(withBody("%a: tensor<4xf32>", "%r, %s = \"stablehlo.add\"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>", "tensor<4xf32>")), "2 result names for 1 result types");
  CHECK_THROWS(parseModule(withBody("%a: tensor<4xf32>", "%q:2 = \"x.y\"(%a) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)\n  %r = stablehlo.add %q#2, %a : tensor<4xf32>", "tensor<4xf32>")), "%q#2 is out of range (2 results)");
  CHECK_THROWS(parseModule(withBody("%a: tensor<4xf32>", "%r = stablehlo.add %a, %a : tensor<4xf32> {", "tensor<4xf32>")), "line 2: expected an op");
  CHECK_THROWS(parseModule("func.func @main(%a: tensor<99999999999x99999999999xf32>) {\n return\n}"), "too many elements");
  CHECK_THROWS(parseModule("func.func @main(%a: tensor<4xf32, #enc>) {\n return\n}"), "tensor encodings are not supported");
  CHECK_THROWS(parseModule("func.func @main() {\n  return\n}\n\"unterminated"), "unterminated string");
}

TEST(nesting_and_sizes_are_bounded) {
  std::string parens = "func.func @main() -> tensor<f32> {\n  %0 = \"x.y\"() {a = " + std::string(100000, '[') + "} : () -> tensor<f32>\n}";
  CHECK_THROWS(parseModule(parens), "line 2: x.y: nesting is deeper than");
  std::string regions = "func.func @main() {\n";
  for (int i = 0; i < 50000; ++i) regions += "\"x.y\"() ({\n";
  CHECK_THROWS(parseModule(regions), "nesting is deeper than");
  CHECK_THROWS(parseModule(std::string(200000, '(')), "line 1");
  // A splat has no size limit: it keeps one element, however many its type has (4 TB here).
  Literal huge = constantOf("0.0", "tensor<1000000x1000000xf32>");
  CHECK_EQ(huge.bytes.size(), 4u);
  CHECK((huge.type.dims == std::vector<int64_t>{1000000, 1000000}));
  CHECK_EQ(constantOf("\"0x0000803F\"", "tensor<1000000x1000000xf32>").bytes.size(), 4u);
  // 2^53 elements is the most a tensor type has, and so every byte count fits int64.
  CHECK_EQ(constantOf("1", "tensor<9007199254740992xi8>").bytes.size(), 1u);
  CHECK_THROWS(constantOf("1", "tensor<9007199254740993xi8>"), "tensor dimension is too large");
  CHECK_THROWS(constantOf("1", "tensor<4294967296x2097153xi8>"), "tensor type has too many elements");
  CHECK_THROWS(parseModule("func.func @main() {\n  %0 = \"x.y\"() {d = dense<" + std::string(5000, '[') + "> : tensor<2xf32>} : () -> tensor<f32>\n}"), "line 2");
  // Literals whose text cannot fill their type fail before any storage is allocated.
  CHECK_THROWS(constantOf("[1.0]", "tensor<200000000xf32>"), "dense literal is too short for tensor<200000000xf32>");
  CHECK_THROWS(constantOf("\"0x00\"", "tensor<200000000xf32>"), "hex literal has 1 bytes but tensor<200000000xf32> needs 800000000");
}

// Every prefix and many one-byte mutations of real modules either parse and verify or throw CpuError.
TEST(truncated_and_mutated_modules_never_crash) {
  const char* samples[] = {kJaxPretty, kJaxGeneric, kArgmaxPretty.c_str(), kShapesGeneric};
  const char replacements[] = {'\0', '}', ')', '>', '%', '"', '[', '0', '-', 'x', ' ', ':'};
  int parsed = 0, rejected = 0;
  auto attempt = [&](const std::string& text) {
    try {
      Module m = parseModule(text);
      ++parsed;
      try {
        verifyModule(m);
      } catch (const CpuError&) {
      }
    } catch (const CpuError& e) {
      ++rejected;
      if (std::string(e.what()).rfind("line ", 0) != 0 && std::string(e.what()).find("main") == std::string::npos)
        CHECK_EQ(std::string("message without a line: "), std::string(e.what()));
    } catch (const std::exception& e) {
      CHECK_EQ(std::string("not a CpuError: "), std::string(e.what()));
    }
  };
  for (const char* sample : samples) {
    std::string text = sample;
    for (size_t cut = 0; cut < text.size(); ++cut) attempt(text.substr(0, cut));
    for (size_t at = 0; at < text.size(); at += 3) {
      std::string mutated = text;
      mutated[at] = replacements[at % sizeof(replacements)];
      attempt(mutated);
      mutated.erase(at, 1);
      attempt(mutated);
    }
  }
  CHECK(rejected > 1000);
  CHECK(parsed > 0);
}

TEST_MAIN()
