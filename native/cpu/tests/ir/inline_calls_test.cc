// func.call inlining (ir/inline_calls.h): modules the way jax writes them (jnp.clip, jnp.where, jnp.argmax
// lower to calls of private helpers) parse into call-free functions that verify and run; recursion,
// unknown callees, mismatched types, deep nesting and exponential growth are clear errors.
#include <cstring>
#include <string>
#include <vector>

#include "base/error.h"
#include "check.h"
#include "exec/interpreter.h"
#include "ir/inline_calls.h"
#include "ir/stablehlo.h"
#include "tests/test_modules.h"

using namespace tpjrt::cpu;
using namespace tpjrt::cpu::test;

namespace {

size_t countOps(const Region& region, const std::string& name) {
  size_t n = 0;
  for (const Op& op : region.ops) {
    n += op.name == name;
    for (const Region& r : op.regions) n += countOps(r, name);
  }
  return n;
}

size_t callsIn(const Module& m) {
  size_t n = 0;
  for (const Function& f : m.functions) n += countOps(f.body, "func.call");
  return n;
}

// Parses, verifies and runs main.
std::vector<Literal> run(const std::string& text, const std::vector<Literal>& args) {
  Module m = parseModule(text);
  CHECK_EQ(callsIn(m), size_t(0));
  verifyModule(m);
  return interpret(m, *m.find("main"), args);
}

const Literal kX = f32({2, 3}, {-0.5f, 0.25f, 2.0f, 1.0f, 0.0f, -3.0f});

// The private @clip function jax 0.10 writes for jnp.clip(x, 0, 1) with x: f32[2,3].
const char* kClipFunction = R"mlir(func.func private @clip(%arg0: tensor<2x3xf32>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<2x3xf32> {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
    %2 = stablehlo.maximum %1, %arg0 : tensor<2x3xf32>
    %3 = stablehlo.convert %arg2 : (tensor<i32>) -> tensor<f32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
    %5 = stablehlo.minimum %4, %2 : tensor<2x3xf32>
    return %5 : tensor<2x3xf32>
  })mlir";

// jax.jit(lambda x: jnp.clip(x, 0, 1)).lower(x).as_text() with jax 0.10 (x: f32[2,3]).
const std::string kClipPretty = R"mlir(module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3xf32>) -> (tensor<2x3xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %0 = call @clip(%arg0, %c, %c_0) : (tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
    return %0 : tensor<2x3xf32>
  }
  )mlir" + std::string(kClipFunction) + R"mlir(
}
)mlir";

// The same program in MLIR's generic form (get_asm(print_generic_op_form=True)).
const char* kClipGeneric = R"mlir("builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<2x3xf32>) -> tensor<2x3xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg3: tensor<2x3xf32>):
    %6 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %7 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %8 = "func.call"(%arg3, %6, %7) <{callee = @clip}> : (tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
    "func.return"(%8) : (tensor<2x3xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>, res_attrs = [{}], sym_name = "clip", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<2x3xf32>, %arg1: tensor<i32>, %arg2: tensor<i32>):
    %0 = "stablehlo.convert"(%arg1) : (tensor<i32>) -> tensor<f32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x3xf32>
    %2 = "stablehlo.maximum"(%1, %arg0) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %3 = "stablehlo.convert"(%arg2) : (tensor<i32>) -> tensor<f32>
    %4 = "stablehlo.broadcast_in_dim"(%3) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x3xf32>
    %5 = "stablehlo.minimum"(%4, %2) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    "func.return"(%5) : (tensor<2x3xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
)mlir";

// inner(inner(x)) + jnp.clip(x, 0, 1) with inner(a) = jnp.where(a > 0, a, 0) * 2, both jitted: calls
// inside a callee, and one callee called twice.
const std::string kNested = R"mlir(module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3xf32>) -> (tensor<2x3xf32> {jax.result_info = "result"}) {
    %0 = call @inner(%arg0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %1 = call @inner(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %2 = call @clip(%arg0, %c, %c_0) : (tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
    %3 = stablehlo.add %1, %2 : tensor<2x3xf32>
    return %3 : tensor<2x3xf32>
  }
  func.func private @inner(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
    %1 = stablehlo.compare GT, %arg0, %0, FLOAT : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %2 = call @_where(%1, %arg0, %c) : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<i32>) -> tensor<2x3xf32>
    %cst_0 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
    %4 = stablehlo.multiply %2, %3 : tensor<2x3xf32>
    return %4 : tensor<2x3xf32>
  }
  func.func private @_where(%arg0: tensor<2x3xi1>, %arg1: tensor<2x3xf32>, %arg2: tensor<i32>) -> tensor<2x3xf32> {
    %0 = stablehlo.convert %arg2 : (tensor<i32>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<2x3xi1>, tensor<2x3xf32>
    return %2 : tensor<2x3xf32>
  }
  )mlir" + std::string(kClipFunction) + R"mlir(
}
)mlir";

// jnp.argmax(x, axis=1): the callee holds a two-input reduce whose body has block arguments.
const std::string kArgmax = R"mlir(module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3xf32>) -> (tensor<2xi32> {jax.result_info = "result"}) {
    %0 = call @argmax(%arg0) : (tensor<2x3xf32>) -> tensor<2xi32>
    return %0 : tensor<2xi32>
  }
  func.func private @argmax(%arg0: tensor<2x3xf32>) -> tensor<2xi32> {
)mlir" + std::string(kJaxArgmaxBody) + R"mlir(  }
}
)mlir";

std::string errorOf(const std::string& text) {
  try {
    Module m = parseModule(text);
    verifyModule(m);
  } catch (const CpuError& e) {
    CHECK(e.code() == ErrorCode::InvalidArgument);
    return e.what();
  }
  return "(no error)";
}

bool has(const std::string& text, const std::string& fragment) {
  if (text.find(fragment) != std::string::npos) return true;
  std::fprintf(stderr, "    got: %s\n    want: %s\n", text.c_str(), fragment.c_str());
  return false;
}

// A chain main -> f0 -> f1 -> … -> f{n-1}, each adding 1.
std::string chain(int n) {
  std::string text = "func.func @main(%a: tensor<f32>) -> tensor<f32> {\n  %r = call @f0(%a) : (tensor<f32>) -> tensor<f32>\n"
                     "  return %r : tensor<f32>\n}\n";
  for (int i = 0; i < n; ++i) {
    std::string name = "@f" + std::to_string(i);
    text += "func.func private " + name + "(%x: tensor<f32>) -> tensor<f32> {\n";
    text += "  %one = stablehlo.constant dense<1.0> : tensor<f32>\n  %y = stablehlo.add %x, %one : tensor<f32>\n";
    if (i + 1 < n) {
      text += "  %z = call @f" + std::to_string(i + 1) + "(%y) : (tensor<f32>) -> tensor<f32>\n  return %z : tensor<f32>\n}\n";
    } else {
      text += "  return %y : tensor<f32>\n}\n";
    }
  }
  return text;
}

}  // namespace

TEST(jax_clip_pretty_form_runs) {
  Module m = parseModule(kClipPretty);
  CHECK_EQ(callsIn(m), size_t(0));
  CHECK_EQ(m.functions.size(), size_t(2));  // @clip stays, private and call-free
  CHECK_EQ(countOps(m.find("main")->body, "stablehlo.minimum"), size_t(1));
  auto out = run(kClipPretty, {kX});
  CHECK(read<float>(out.at(0)) == std::vector<float>({0.0f, 0.25f, 1.0f, 1.0f, 0.0f, 0.0f}));
}

TEST(jax_clip_generic_form_runs) {
  auto out = run(kClipGeneric, {kX});
  CHECK(read<float>(out.at(0)) == std::vector<float>({0.0f, 0.25f, 1.0f, 1.0f, 0.0f, 0.0f}));
}

TEST(nested_calls_and_a_callee_called_twice) {
  Module m = parseModule(kNested);
  const Function& main = *m.find("main");
  CHECK_EQ(countOps(main.body, "stablehlo.select"), size_t(2));
  // Every value is defined once across the module, copies included.
  std::vector<int> defined(size_t(m.numValues), 0);
  for (const Function& f : m.functions) {
    for (int a : f.body.args) ++defined.at(size_t(a));
    for (const Op& op : f.body.ops)
      for (int r : op.results) ++defined.at(size_t(r));
  }
  for (int d : defined) CHECK(d <= 1);
  auto out = run(kNested, {kX});  // jax: [[0, 1.25, 9], [5, 0, 0]]
  CHECK(read<float>(out.at(0)) == std::vector<float>({0.0f, 1.25f, 9.0f, 5.0f, 0.0f, 0.0f}));
}

TEST(callee_with_a_reduce_region) {
  auto out = run(kArgmax, {kX});  // jax: [2, 0]
  CHECK(read<int32_t>(out.at(0)) == std::vector<int32_t>({2, 0}));
}

TEST(pass_through_results_multiple_results_and_calls_in_regions) {
  const char* text = R"mlir(func.func private @swap(%x: tensor<2xf32>, %y: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  return %y, %x : tensor<2xf32>, tensor<2xf32>
}
func.func private @add(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %s = stablehlo.add %x, %y : tensor<f32>
  return %s : tensor<f32>
}
func.func @main(%a: tensor<2xf32>, %b: tensor<2xf32>) -> (tensor<2xf32>, tensor<f32>) {
  %p:2 = call @swap(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  %q:2 = "func.call"(%p#0, %p#1) {callee = @swap} : (tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  %d = stablehlo.subtract %q#0, %q#1 : tensor<2xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %t = stablehlo.reduce(%d init: %z) across dimensions = [0] : (tensor<2xf32>, tensor<f32>) -> tensor<f32>
   reducer(%x: tensor<f32>, %y: tensor<f32>) {
    %s = func.call @add(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    stablehlo.return %s : tensor<f32>
  }
  return %d, %t : tensor<2xf32>, tensor<f32>
}
)mlir";
  auto out = run(text, {f32({2}, {5, 7}), f32({2}, {1, 2})});
  CHECK(read<float>(out.at(0)) == std::vector<float>({4.0f, 5.0f}));  // swapped twice: a - b
  CHECK(read<float>(out.at(1)) == std::vector<float>({9.0f}));
}

TEST(deep_but_allowed_chain_runs) {
  auto out = run(chain(kMaxCallDepth - 1), {f32({}, {0.5f})});
  CHECK(read<float>(out.at(0)) == std::vector<float>({0.5f + float(kMaxCallDepth - 1)}));
}

TEST(call_errors_are_clear) {
  std::string e = errorOf(R"mlir(func.func private @f(%x: tensor<f32>) -> tensor<f32> {
  %y = call @f(%x) : (tensor<f32>) -> tensor<f32>
  return %y : tensor<f32>
}
func.func @main(%a: tensor<f32>) -> tensor<f32> {
  %r = call @f(%a) : (tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}
)mlir");
  CHECK(has(e, "line 2: func.call: @f calls itself (@f → @f); the cpu plugin cannot run recursive calls"));
  e = errorOf(R"mlir(func.func @main(%a: tensor<f32>) -> tensor<f32> {
  %r = call @g(%a) : (tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}
func.func private @g(%x: tensor<f32>) -> tensor<f32> {
  %y = call @h(%x) : (tensor<f32>) -> tensor<f32>
  return %y : tensor<f32>
}
func.func private @h(%x: tensor<f32>) -> tensor<f32> {
  %y = call @main(%x) : (tensor<f32>) -> tensor<f32>
  return %y : tensor<f32>
}
)mlir");
  CHECK(has(e, "line 10: func.call: @main calls itself (@main → @g → @h → @main)"));
  e = errorOf("func.func @main(%a: tensor<f32>) -> tensor<f32> {\n  %r = call @nope(%a) : (tensor<f32>) -> tensor<f32>\n"
              "  return %r : tensor<f32>\n}\n");
  CHECK(has(e, "line 2: func.call: calls @nope, which the module does not define"));
  e = errorOf("func.func private @f(%x: tensor<2xf32>) -> tensor<2xf32> {\n  return %x : tensor<2xf32>\n}\n"
              "func.func @main(%a: tensor<3xf32>) -> tensor<3xf32> {\n  %r = call @f(%a) : (tensor<3xf32>) -> tensor<3xf32>\n"
              "  return %r : tensor<3xf32>\n}\n");
  CHECK(has(e, "line 5: func.call: passes (tensor<3xf32>) but @f takes (tensor<2xf32>)"));
  e = errorOf("func.func private @f(%x: tensor<2xf32>) -> tensor<2xf32> {\n  return %x : tensor<2xf32>\n}\n"
              "func.func @main(%a: tensor<2xf32>) -> tensor<2xi32> {\n  %r = call @f(%a) : (tensor<2xf32>) -> tensor<2xi32>\n"
              "  return %r : tensor<2xi32>\n}\n");
  CHECK(has(e, "line 5: func.call: expects (tensor<2xi32>) but @f returns (tensor<2xf32>)"));
  e = errorOf("func.func @main(%a: tensor<f32>) -> tensor<f32> {\n  %r = \"func.call\"(%a) : (tensor<f32>) -> tensor<f32>\n"
              "  return %r : tensor<f32>\n}\n");
  CHECK(has(e, "line 2: func.call: missing attribute callee"));
  e = errorOf("func.func private @f(%x: tensor<f32>) -> tensor<f32> {\n  %y = stablehlo.negate %x : tensor<f32>\n}\n"
              "func.func @main(%a: tensor<f32>) -> tensor<f32> {\n  %r = call @f(%a) : (tensor<f32>) -> tensor<f32>\n"
              "  return %r : tensor<f32>\n}\n");
  CHECK(has(e, "line 5: func.call: @f must end with a func.return of its results"));
}

TEST(depth_and_size_limits) {
  std::string e = errorOf(chain(kMaxCallDepth + 5));
  CHECK(has(e, "func.call: calls nest more than 64 deep (@main → @f0 → @f1"));
  // Each level calls the one below twice: 2^40 ops if inlined, stopped long before.
  std::string text = "func.func private @g0(%x: tensor<f32>) -> tensor<f32> {\n  %y = stablehlo.negate %x : tensor<f32>\n"
                     "  return %y : tensor<f32>\n}\n";
  for (int i = 1; i <= 40; ++i) {
    std::string below = "@g" + std::to_string(i - 1);
    text += "func.func private @g" + std::to_string(i) + "(%x: tensor<f32>) -> tensor<f32> {\n  %y = call " + below +
            "(%x) : (tensor<f32>) -> tensor<f32>\n  %z = call " + below + "(%y) : (tensor<f32>) -> tensor<f32>\n" +
            "  return %z : tensor<f32>\n}\n";
  }
  text += "func.func @main(%a: tensor<f32>) -> tensor<f32> {\n  %r = call @g40(%a) : (tensor<f32>) -> tensor<f32>\n"
          "  return %r : tensor<f32>\n}\n";
  e = errorOf(text);
  CHECK(has(e, "inlining the module's calls would make it larger than 262144 ops and values"));
}

TEST_MAIN()
