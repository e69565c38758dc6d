// verifyModule: every supported op's type rules, the module and region rules, and the messages
// (line, op, types) a bad program gets.
#include <string>

#include "base/error.h"
#include "check.h"
#include "ir/stablehlo.h"

using namespace tpjrt::cpu;

namespace {

void verify(const std::string& text) { verifyModule(parseModule(text)); }

// A module whose main takes `args`, runs `body` (which defines %r) and returns %r of type `result`.
std::string fn(const std::string& args, const std::string& body, const std::string& result) {
  return "func.func @main(" + args + ") -> " + result + " {\n  " + body + "\n  return %r : " + result + "\n}\n";
}

// One generic op `%r = "name"(operands) attrs : signature` on line 2.
std::string op(const std::string& args, const std::string& text, const std::string& result) {
  return fn(args, "%r = " + text, result);
}

bool accepted(const std::string& text) {
  try {
    verify(text);
    return true;
  } catch (const CpuError& e) {
    std::fprintf(stderr, "    rejected: %s\n", e.what());
    return false;
  }
}

// Every supported op used correctly (pretty and generic forms mixed, as MLIR allows).
const char* kAllOps = R"mlir(module @all attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%f: tensor<2x3xf32>, %i: tensor<2x3xi32>, %u: tensor<2x3xui8>, %p: tensor<2x3xi1>, %s: tensor<i32>, %b: tensor<4xi8>) -> (tensor<2xf32>, tensor<3x5xf32>) {
    %c = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
    %io = stablehlo.iota dim = 1 : tensor<2x3xi32>
    %cv = stablehlo.convert %i : (tensor<2x3xi32>) -> tensor<2x3xf32>
    %bc = stablehlo.bitcast_convert %f : (tensor<2x3xf32>) -> tensor<2x3x2xi16>
    %bw = stablehlo.bitcast_convert %b : (tensor<4xi8>) -> tensor<i32>
    %a1 = stablehlo.add %f, %c : tensor<2x3xf32>
    %a2 = stablehlo.subtract %a1, %cv : tensor<2x3xf32>
    %a3 = stablehlo.multiply %a2, %f : tensor<2x3xf32>
    %a4 = stablehlo.divide %a3, %f : tensor<2x3xf32>
    %a5 = stablehlo.remainder %i, %io : tensor<2x3xi32>
    %a6 = stablehlo.power %a4, %f : tensor<2x3xf32>
    %a7 = stablehlo.maximum %a6, %f : tensor<2x3xf32>
    %a8 = stablehlo.minimum %a7, %f : tensor<2x3xf32>
    %a9 = stablehlo.atan2 %a8, %f : tensor<2x3xf32>
    %b1 = stablehlo.and %p, %p : tensor<2x3xi1>
    %b2 = stablehlo.or %i, %a5 : tensor<2x3xi32>
    %b3 = stablehlo.xor %u, %u : tensor<2x3xui8>
    %b4 = stablehlo.not %b1 : tensor<2x3xi1>
    %b5 = stablehlo.shift_left %b2, %i : tensor<2x3xi32>
    %b6 = stablehlo.shift_right_arithmetic %b5, %i : tensor<2x3xi32>
    %b7 = stablehlo.shift_right_logical %b3, %u : tensor<2x3xui8>
    %m1 = stablehlo.negate %a9 : tensor<2x3xf32>
    %m2 = stablehlo.abs %b6 : tensor<2x3xi32>
    %m3 = stablehlo.sign %m1 : tensor<2x3xf32>
    %e1 = stablehlo.exponential %m3 : tensor<2x3xf32>
    %e2 = stablehlo.exponential_minus_one %e1 : tensor<2x3xf32>
    %e3 = stablehlo.log %e2 : tensor<2x3xf32>
    %e4 = stablehlo.log_plus_one %e3 : tensor<2x3xf32>
    %e5 = stablehlo.logistic %e4 : tensor<2x3xf32>
    %e6 = stablehlo.tanh %e5 : tensor<2x3xf32>
    %e7 = stablehlo.sqrt %e6 : tensor<2x3xf32>
    %e8 = stablehlo.rsqrt %e7 : tensor<2x3xf32>
    %e9 = stablehlo.cbrt %e8 : tensor<2x3xf32>
    %t1 = stablehlo.sine %e9 : tensor<2x3xf32>
    %t2 = stablehlo.cosine %t1 : tensor<2x3xf32>
    %t3 = stablehlo.tan %t2 : tensor<2x3xf32>
    %r1 = stablehlo.floor %t3 : tensor<2x3xf32>
    %r2 = stablehlo.ceil %r1 : tensor<2x3xf32>
    %r3 = stablehlo.round_nearest_even %r2 : tensor<2x3xf32>
    %r4 = stablehlo.round_nearest_afz %r3 : tensor<2x3xf32>
    %fin = stablehlo.is_finite %r4 : (tensor<2x3xf32>) -> tensor<2x3xi1>
    %cmp = stablehlo.compare GE, %r4, %f, TOTALORDER : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
    %cmu = stablehlo.compare LT, %u, %b7, UNSIGNED : (tensor<2x3xui8>, tensor<2x3xui8>) -> tensor<2x3xi1>
    %cmb = "stablehlo.compare"(%cmp, %fin) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
    %sel = stablehlo.select %cmb, %r4, %f : tensor<2x3xi1>, tensor<2x3xf32>
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    %one = stablehlo.constant dense<1.0> : tensor<f32>
    %cl = stablehlo.clamp %zero, %sel, %one : (tensor<f32>, tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
    %bd = stablehlo.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
    %bd2 = stablehlo.broadcast_in_dim %cl, dims = [0, 2] : (tensor<2x3xf32>) -> tensor<2x4x3xf32>
    %rs = stablehlo.reshape %bd : (tensor<2x3xf32>) -> tensor<3x2xf32>
    %tr = stablehlo.transpose %rs, dims = [1, 0] : (tensor<3x2xf32>) -> tensor<2x3xf32>
    %sl = stablehlo.slice %tr [0:2, 0:3:2] : (tensor<2x3xf32>) -> tensor<2x2xf32>
    %ds = stablehlo.dynamic_slice %tr, %s, %s, sizes = [1, 3] : (tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<1x3xf32>
    %du = stablehlo.dynamic_update_slice %tr, %ds, %s, %s : (tensor<2x3xf32>, tensor<1x3xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
    %cc = stablehlo.concatenate %du, %sl, dim = 1 : (tensor<2x3xf32>, tensor<2x2xf32>) -> tensor<2x5xf32>
    %pd = stablehlo.pad %cc, %zero, low = [1, -1], high = [0, 0], interior = [0, 1] : (tensor<2x5xf32>, tensor<f32>) -> tensor<3x8xf32>
    %rv = stablehlo.reverse %pd, dims = [0, 1] : tensor<3x8xf32>
    %w = stablehlo.constant dense<1.0> : tensor<8x5xf32>
    %dot = stablehlo.dot_general %rv, %w, contracting_dims = [1] x [0], precision = [DEFAULT, HIGHEST] : (tensor<3x8xf32>, tensor<8x5xf32>) -> tensor<3x5xf32>
    %bdot = stablehlo.dot_general %bd2, %bd2, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x4x3xf32>, tensor<2x4x3xf32>) -> tensor<2x4x4xf32>
    %sum = stablehlo.reduce(%cl init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
    %zi = stablehlo.constant dense<0> : tensor<i32>
    %mx:2 = stablehlo.reduce(%cl init: %zero), (%io init: %zi) across dimensions = [1] : (tensor<2x3xf32>, tensor<2x3xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>)
     reducer(%x: tensor<f32>, %y: tensor<f32>) (%xi: tensor<i32>, %yi: tensor<i32>)  {
      %gt = stablehlo.compare GT, %x, %y, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %k = stablehlo.constant dense<2.0> : tensor<f32>
      %v = stablehlo.select %gt, %x, %y : tensor<i1>, tensor<f32>
      %vk = stablehlo.multiply %v, %k : tensor<f32>
      %vi = stablehlo.select %gt, %xi, %yi : tensor<i1>, tensor<i32>
      stablehlo.return %vk, %vi : tensor<f32>, tensor<i32>
    }
    %out = stablehlo.add %sum, %mx#0 : tensor<2xf32>
    return %out, %dot : tensor<2xf32>, tensor<3x5xf32>
  }
}
)mlir";

// jax.jit(jax.value_and_grad(loss)) for a tanh layer with log-softmax cross-entropy (jax 0.10.2).
const char* kJaxGrad = R"mlir(module @jit_loss attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x3xf32>, %arg1: tensor<2x4xf32>, %arg2: tensor<2x3xf32>) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<4x3xf32> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.dot_general %arg1, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
    %1 = stablehlo.tanh %0 : tensor<2x3xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
    %3 = stablehlo.subtract %2, %1 : tensor<2x3xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %4 = stablehlo.reduce(%1 init: %cst_0) applies stablehlo.maximum across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
    %cst_1 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %6 = stablehlo.maximum %5, %4 : tensor<2xf32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [0] : (tensor<2xf32>) -> tensor<2x1xf32>
    %8 = stablehlo.is_finite %7 : (tensor<2x1xf32>) -> tensor<2x1xi1>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<2x1xf32>
    %10 = stablehlo.select %8, %7, %9 : tensor<2x1xi1>, tensor<2x1xf32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [0, 1] : (tensor<2x1xf32>) -> tensor<2x3xf32>
    %12 = stablehlo.subtract %1, %11 : tensor<2x3xf32>
    %13 = stablehlo.exponential %12 : tensor<2x3xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %14 = stablehlo.reduce(%13 init: %cst_3) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
    %15 = stablehlo.broadcast_in_dim %14, dims = [0] : (tensor<2xf32>) -> tensor<2x1xf32>
    %16 = stablehlo.abs %15 : tensor<2x1xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<2x1xf32>
    %18 = stablehlo.compare GE, %15, %17, FLOAT : (tensor<2x1xf32>, tensor<2x1xf32>) -> tensor<2x1xi1>
    %19 = stablehlo.log %16 : tensor<2x1xf32>
    %20 = stablehlo.add %19, %10 : tensor<2x1xf32>
    %21 = stablehlo.broadcast_in_dim %20, dims = [0, 1] : (tensor<2x1xf32>) -> tensor<2x3xf32>
    %22 = stablehlo.subtract %1, %21 : tensor<2x3xf32>
    %23 = stablehlo.multiply %22, %arg2 : tensor<2x3xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %24 = stablehlo.reduce(%23 init: %cst_5) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %25 = stablehlo.reduce(%24 init: %cst_6) applies stablehlo.add across dimensions = [0] : (tensor<2xf32>, tensor<f32>) -> tensor<f32>
    %cst_7 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %26 = stablehlo.divide %25, %cst_7 : tensor<f32>
    %27 = stablehlo.negate %26 : tensor<f32>
    %cst_8 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %28 = stablehlo.negate %cst_8 : tensor<f32>
    %cst_9 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %29 = stablehlo.divide %28, %cst_9 : tensor<f32>
    %30 = stablehlo.broadcast_in_dim %29, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %31 = stablehlo.broadcast_in_dim %30, dims = [0] : (tensor<2xf32>) -> tensor<2x3xf32>
    %32 = stablehlo.multiply %31, %arg2 : tensor<2x3xf32>
    %33 = stablehlo.negate %32 : tensor<2x3xf32>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %34 = stablehlo.reduce(%33 init: %cst_10) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
    %35 = stablehlo.reshape %34 : (tensor<2xf32>) -> tensor<2x1xf32>
    %36 = stablehlo.divide %35, %16 : tensor<2x1xf32>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %37 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<2x1xf32>
    %38 = stablehlo.select %18, %37, %36 : tensor<2x1xi1>, tensor<2x1xf32>
    %39 = stablehlo.select %18, %36, %37 : tensor<2x1xi1>, tensor<2x1xf32>
    %40 = stablehlo.negate %38 : tensor<2x1xf32>
    %41 = stablehlo.add %39, %40 : tensor<2x1xf32>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %42 = stablehlo.reduce(%41 init: %cst_12) applies stablehlo.add across dimensions = [1] : (tensor<2x1xf32>, tensor<f32>) -> tensor<2xf32>
    %43 = stablehlo.broadcast_in_dim %42, dims = [0] : (tensor<2xf32>) -> tensor<2x3xf32>
    %44 = stablehlo.multiply %43, %13 : tensor<2x3xf32>
    %45 = stablehlo.add %32, %44 : tensor<2x3xf32>
    %46 = stablehlo.multiply %45, %3 : tensor<2x3xf32>
    %47 = stablehlo.multiply %46, %1 : tensor<2x3xf32>
    %48 = stablehlo.add %46, %47 : tensor<2x3xf32>
    %49 = stablehlo.dot_general %48, %arg1, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<3x4xf32>
    %50 = stablehlo.transpose %49, dims = [1, 0] : (tensor<3x4xf32>) -> tensor<4x3xf32>
    return %27, %50 : tensor<f32>, tensor<4x3xf32>
  }
}
)mlir";

}  // namespace

TEST(a_jax_value_and_grad_module_verifies) { CHECK(accepted(kJaxGrad)); }

TEST(a_module_using_every_supported_op_verifies) { CHECK(accepted(kAllOps)); }

TEST(module_rules) {
  CHECK_THROWS(verify(""), "module has no public function 'main'");
  CHECK_THROWS(verify("func.func @other() {\n  return\n}\n"), "module has no public function 'main'");
  CHECK_THROWS(verify("func.func private @main() {\n  return\n}\n"), "line 1: function @main is private; it must be public");
  CHECK_THROWS(verify("func.func @main() {\n  return\n}\nfunc.func @main() {\n  return\n}\n"), "line 4: function @main is defined twice");
  CHECK_THROWS(verify("func.func @main(%a: tensor<4xf32>) -> tensor<3xf32> {\n  return %a : tensor<4xf32>\n}\n"), "line 2: func.return: returns (tensor<4xf32>) but function @main needs (tensor<3xf32>)");
  CHECK_THROWS(verify("func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n  %r = stablehlo.negate %a : tensor<4xf32>\n}\n"), "line 2: stablehlo.negate: function @main must end with func.return");
  CHECK_THROWS(verify("func.func @main() {\n}\n"), "line 1: function @main: body is empty; it must end with func.return");
  CHECK_THROWS(verify("func.func @main(%a: tensor<f32>) {\n  \"func.return\"() : () -> ()\n  %r = stablehlo.negate %a : tensor<f32>\n  return\n}\n"), "line 2: func.return: must be the last op of its region");
  CHECK_THROWS(verify("func.func @main(%a: tensor<f32>) -> tensor<f32> {\n  stablehlo.return %a : tensor<f32>\n}\n"), "line 2: stablehlo.return: not allowed here; function @main must end with func.return");
  CHECK(accepted("func.func @main() {\n  return\n}\n"));
}

TEST(unsupported_ops_are_named) {
  CHECK_THROWS(verify(op("%a: tensor<4xf32>", "\"stablehlo.fft\"(%a) {fft_length = array<i64: 4>} : (tensor<4xf32>) -> tensor<4xf32>", "tensor<4xf32>")), "line 2: unsupported op 'stablehlo.fft'");
  CHECK_THROWS(verify(op("%a: tensor<4xf32>", "\"chlo.scan\"(%a) : (tensor<4xf32>) -> tensor<4xf32>", "tensor<4xf32>")), "line 2: unsupported op 'chlo.scan'");
  CHECK_THROWS(verify(op("%a: tensor<4xf32>", "stablehlo.reduce(%a init: %a) applies stablehlo.frob across dimensions = [0] : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>", "tensor<f32>")), "init value tensor<4xf32> must be a 0-d tensor");
}

TEST(error_codes) {
  auto codeOf = [](const std::string& text) {
    try {
      verify(text);
    } catch (const CpuError& e) {
      return e.code();
    }
    return ErrorCode::Internal;
  };
  CHECK(codeOf(op("%a: tensor<4xf32>", "\"chlo.scan\"(%a) : (tensor<4xf32>) -> tensor<4xf32>", "tensor<4xf32>")) == ErrorCode::Unimplemented);
  CHECK(codeOf(op("%a: tensor<4xf32>", "stablehlo.erf %a : tensor<4xf32>", "tensor<4xf32>")) == ErrorCode::Unimplemented);
  CHECK(codeOf(op("%a: tensor<4xf32>", "stablehlo.sine %b : tensor<4xf32>", "tensor<4xf32>")) == ErrorCode::InvalidArgument);
  CHECK(codeOf(op("%a: tensor<4xi32>", "stablehlo.sine %a : tensor<4xi32>", "tensor<4xi32>")) == ErrorCode::InvalidArgument);
}

TEST(elementwise_rules) {
  CHECK_THROWS(verify(op("%a: tensor<4xf32>, %b: tensor<3xf32>", "\"stablehlo.add\"(%a, %b) : (tensor<4xf32>, tensor<3xf32>) -> tensor<4xf32>", "tensor<4xf32>")), "line 2: stablehlo.add: operand types tensor<4xf32> and tensor<3xf32> differ");
  CHECK_THROWS(verify(op("%a: tensor<4xf32>", "\"stablehlo.add\"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf64>", "tensor<4xf64>")), "line 2: stablehlo.add: result type tensor<4xf64> differs from operand type tensor<4xf32>");
  CHECK_THROWS(verify(op("%a: tensor<4xf32>", "stablehlo.and %a, %a : tensor<4xf32>", "tensor<4xf32>")), "line 2: stablehlo.and: operand type tensor<4xf32> must have a boolean or integer element type");
  CHECK_THROWS(verify(op("%a: tensor<4xi1>", "stablehlo.shift_left %a, %a : tensor<4xi1>", "tensor<4xi1>")), "stablehlo.shift_left: operand type tensor<4xi1> must have an integer element type");
  CHECK_THROWS(verify(op("%a: tensor<4xi32>", "stablehlo.sine %a : tensor<4xi32>", "tensor<4xi32>")), "line 2: stablehlo.sine: operand type tensor<4xi32> must have a floating-point element type");
  CHECK(accepted(op("%a: tensor<4xbf16>", "chlo.erf %a : tensor<4xbf16> -> tensor<4xbf16>", "tensor<4xbf16>")));  // as JAX prints it
  CHECK_THROWS(verify(op("%a: tensor<4xi32>", "\"chlo.erf\"(%a) : (tensor<4xi32>) -> tensor<4xi32>", "tensor<4xi32>")), "line 2: chlo.erf: operand type tensor<4xi32> must have a floating-point element type");
  CHECK_THROWS(verify(op("%a: tensor<4xf32>", "chlo.erf %a : tensor<4xf32> -> tensor<4xf64>", "tensor<4xf64>")), "chlo.erf: result type tensor<4xf64> differs from operand type tensor<4xf32>");
  CHECK_THROWS(verify(op("%a: tensor<4xui32>", "stablehlo.abs %a : tensor<4xui32>", "tensor<4xui32>")), "stablehlo.abs: operand type tensor<4xui32> must have a signed integer or floating-point element type");
  CHECK_THROWS(verify(op("%a: tensor<4xi1>", "stablehlo.subtract %a, %a : tensor<4xi1>", "tensor<4xi1>")), "must have an integer or floating-point element type");
  CHECK_THROWS(verify(op("%a: tensor<4xi32>", "stablehlo.atan2 %a, %a : tensor<4xi32>", "tensor<4xi32>")), "floating-point");
  CHECK_THROWS(verify(op("%a: tensor<4xf16>", "stablehlo.not %a : tensor<4xf16>", "tensor<4xf16>")), "boolean or integer");
  CHECK_THROWS(verify(op("%a: tensor<4xf32>", "stablehlo.negate %a : (tensor<4xf32>) -> tensor<2x2xf32>", "tensor<2x2xf32>")), "stablehlo.negate: result type tensor<2x2xf32> differs from operand type tensor<4xf32>");
  CHECK_THROWS(verify(op("%a: tensor<4xf32>", "stablehlo.is_finite %a : (tensor<4xf32>) -> tensor<4xf32>", "tensor<4xf32>")), "stablehlo.is_finite: result type tensor<4xf32> should be tensor<4xi1>");
  CHECK_THROWS(verify(op("%a: tensor<4xf32>", "stablehlo.convert %a : (tensor<4xf32>) -> tensor<2xi32>", "tensor<2xi32>")), "stablehlo.convert: result type tensor<2xi32> must have the shape of tensor<4xf32>");
  CHECK_THROWS(verify(op("%a: tensor<4xf32>", "\"stablehlo.add\"(%a) : (tensor<4xf32>) -> tensor<4xf32>", "tensor<4xf32>")), "stablehlo.add: expects 2 operands, got 1");
  CHECK(accepted(op("%a: tensor<4xbf16>", "stablehlo.convert %a : (tensor<4xbf16>) -> tensor<4xui64>", "tensor<4xui64>")));
  CHECK(accepted(op("%a: tensor<4xi1>", "stablehlo.add %a, %a : tensor<4xi1>", "tensor<4xi1>")));
  CHECK(accepted(op("%a: tensor<4xi64>", "stablehlo.popcnt %a : tensor<4xi64>", "tensor<4xi64>")));
}

TEST(bitcast_convert_rules) {
  CHECK(accepted(op("%a: tensor<3xf32>", "stablehlo.bitcast_convert %a : (tensor<3xf32>) -> tensor<3xui32>", "tensor<3xui32>")));
  CHECK(accepted(op("%a: tensor<3x2xf32>", "stablehlo.bitcast_convert %a : (tensor<3x2xf32>) -> tensor<3xf64>", "tensor<3xf64>")));
  CHECK_THROWS(verify(op("%a: tensor<3xf32>", "stablehlo.bitcast_convert %a : (tensor<3xf32>) -> tensor<3xf64>", "tensor<3xf64>")), "stablehlo.bitcast_convert: operand tensor<3xf32> must end in a dimension of 2 to bitcast to f64");
  CHECK_THROWS(verify(op("%a: tensor<3xf32>", "stablehlo.bitcast_convert %a : (tensor<3xf32>) -> tensor<3xi16>", "tensor<3xi16>")), "result type tensor<3xi16> does not fit operand tensor<3xf32>");
  CHECK_THROWS(verify(op("%a: tensor<3xi8>", "stablehlo.bitcast_convert %a : (tensor<3xi8>) -> tensor<3xi1>", "tensor<3xi1>")), "cannot bitcast between tensor<3xi8> and tensor<3xi1>");
}

TEST(compare_select_clamp_rules) {
  CHECK_THROWS(verify(op("%a: tensor<4xf32>", "\"stablehlo.compare\"(%a, %a) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>", "tensor<4xf32>")), "line 2: stablehlo.compare: result type tensor<4xf32> should be tensor<4xi1>");
  CHECK_THROWS(verify(op("%a: tensor<4xf32>", "stablehlo.compare GT, %a, %a, SIGNED : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>", "tensor<4xi1>")), "stablehlo.compare: compare type 'SIGNED' does not fit operand type tensor<4xf32>");
  CHECK_THROWS(verify(op("%a: tensor<4xui8>", "stablehlo.compare GT, %a, %a, SIGNED : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xi1>", "tensor<4xi1>")), "compare type 'SIGNED'");
  CHECK_THROWS(verify(op("%a: tensor<4xf32>", "stablehlo.compare XX, %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>", "tensor<4xi1>")), "unknown comparison direction 'XX'");
  CHECK_THROWS(verify(op("%a: tensor<4xf32>", "\"stablehlo.compare\"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>", "tensor<4xi1>")), "stablehlo.compare: missing attribute comparison_direction");
  CHECK_THROWS(verify(op("%p: tensor<3xi1>, %a: tensor<4xf32>", "stablehlo.select %p, %a, %a : (tensor<3xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>", "tensor<4xf32>")), "stablehlo.select: predicate type tensor<3xi1> must be 0-d or have the shape of tensor<4xf32>");
  CHECK_THROWS(verify(op("%p: tensor<4xi32>, %a: tensor<4xf32>", "stablehlo.select %p, %a, %a : (tensor<4xi32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>", "tensor<4xf32>")), "predicate type tensor<4xi32> must have element type i1");
  CHECK_THROWS(verify(op("%p: tensor<i1>, %a: tensor<4xf32>, %b: tensor<4xf16>", "stablehlo.select %p, %a, %b : (tensor<i1>, tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>", "tensor<4xf32>")), "on_true and on_false types tensor<4xf32> and tensor<4xf16> differ");
  CHECK_THROWS(verify(op("%a: tensor<4xf32>, %lo: tensor<2xf32>", "stablehlo.clamp %lo, %a, %lo : (tensor<2xf32>, tensor<4xf32>, tensor<2xf32>) -> tensor<4xf32>", "tensor<4xf32>")), "stablehlo.clamp: min tensor<2xf32> must be 0-d or have the shape of tensor<4xf32>");
  CHECK_THROWS(verify(op("%a: tensor<4xf32>, %lo: tensor<i32>", "stablehlo.clamp %lo, %a, %lo : (tensor<i32>, tensor<4xf32>, tensor<i32>) -> tensor<4xf32>", "tensor<4xf32>")), "element types differ");
}

TEST(shape_op_rules) {
  CHECK_THROWS(verify(op("%a: tensor<3xf32>", "stablehlo.broadcast_in_dim %a, dims = [0, 1] : (tensor<3xf32>) -> tensor<2x3xf32>", "tensor<2x3xf32>")), "line 2: stablehlo.broadcast_in_dim: broadcast_dimensions [0, 1] must have one entry per dimension of tensor<3xf32>");
  CHECK_THROWS(verify(op("%a: tensor<3xf32>", "stablehlo.broadcast_in_dim %a, dims = [2] : (tensor<3xf32>) -> tensor<2x3xf32>", "tensor<2x3xf32>")), "broadcast_dimensions [2] out of range for rank 2");
  CHECK_THROWS(verify(op("%a: tensor<3x3xf32>", "stablehlo.broadcast_in_dim %a, dims = [1, 1] : (tensor<3x3xf32>) -> tensor<3x3xf32>", "tensor<3x3xf32>")), "broadcast_dimensions [1, 1] repeat dimension 1");
  CHECK_THROWS(verify(op("%a: tensor<3xf32>", "stablehlo.broadcast_in_dim %a, dims = [0] : (tensor<3xf32>) -> tensor<2x3xf32>", "tensor<2x3xf32>")), "operand dimension 0 of tensor<3xf32> cannot broadcast to dimension 0 of tensor<2x3xf32>");
  CHECK_THROWS(verify(op("%a: tensor<2x3xf32>", "stablehlo.reshape %a : (tensor<2x3xf32>) -> tensor<5xf32>", "tensor<5xf32>")), "stablehlo.reshape: cannot reshape tensor<2x3xf32> to tensor<5xf32>");
  CHECK_THROWS(verify(op("%a: tensor<2x3xf32>", "stablehlo.transpose %a, dims = [0, 0] : (tensor<2x3xf32>) -> tensor<2x3xf32>", "tensor<2x3xf32>")), "stablehlo.transpose: permutation [0, 0] repeat dimension 0");
  CHECK_THROWS(verify(op("%a: tensor<2x3xf32>", "stablehlo.transpose %a, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<2x3xf32>", "tensor<2x3xf32>")), "result type tensor<2x3xf32> should be tensor<3x2xf32>");
  CHECK_THROWS(verify(op("%a: tensor<2x3xf32>", "stablehlo.slice %a [0:3, 0:3] : (tensor<2x3xf32>) -> tensor<3x3xf32>", "tensor<3x3xf32>")), "stablehlo.slice: slice [0:3] is out of bounds for dimension 0 of tensor<2x3xf32>");
  CHECK_THROWS(verify(op("%a: tensor<2x3xf32>", "stablehlo.slice %a [0:2, 0:3:0] : (tensor<2x3xf32>) -> tensor<2x3xf32>", "tensor<2x3xf32>")), "stride 0 must be positive");
  CHECK_THROWS(verify(op("%a: tensor<2x3xf32>", "stablehlo.slice %a [0:2, 0:3:2] : (tensor<2x3xf32>) -> tensor<2x1xf32>", "tensor<2x1xf32>")), "result type tensor<2x1xf32> should be tensor<2x2xf32>");
  CHECK_THROWS(verify(op("%a: tensor<2x3xf32>", "stablehlo.slice %a [0:2] : (tensor<2x3xf32>) -> tensor<2xf32>", "tensor<2xf32>")), "need one entry per dimension of tensor<2x3xf32>");
  CHECK_THROWS(verify(op("%a: tensor<2x3xf32>, %s: tensor<2xi32>", "stablehlo.dynamic_slice %a, %s, %s, sizes = [1, 3] : (tensor<2x3xf32>, tensor<2xi32>, tensor<2xi32>) -> tensor<1x3xf32>", "tensor<1x3xf32>")), "stablehlo.dynamic_slice: start index type tensor<2xi32> must be a 0-d integer");
  CHECK_THROWS(verify(op("%a: tensor<2x3xf32>, %s: tensor<i32>", "stablehlo.dynamic_slice %a, %s, sizes = [1, 3] : (tensor<2x3xf32>, tensor<i32>) -> tensor<1x3xf32>", "tensor<1x3xf32>")), "needs one start index per dimension of tensor<2x3xf32> (2), got 1");
  CHECK_THROWS(verify(op("%a: tensor<2x3xf32>, %s: tensor<i32>, %t: tensor<i64>", "stablehlo.dynamic_slice %a, %s, %t, sizes = [1, 3] : (tensor<2x3xf32>, tensor<i32>, tensor<i64>) -> tensor<1x3xf32>", "tensor<1x3xf32>")), "start index types tensor<i32> and tensor<i64> differ");
  CHECK_THROWS(verify(op("%a: tensor<2x3xf32>, %s: tensor<i32>", "stablehlo.dynamic_slice %a, %s, %s, sizes = [1, 4] : (tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<1x4xf32>", "tensor<1x4xf32>")), "slice_sizes [1, 4] do not fit tensor<2x3xf32>");
  CHECK_THROWS(verify(op("%a: tensor<2x3xf32>, %u: tensor<3x3xf32>, %s: tensor<i32>", "stablehlo.dynamic_update_slice %a, %u, %s, %s : (tensor<2x3xf32>, tensor<3x3xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>", "tensor<2x3xf32>")), "stablehlo.dynamic_update_slice: update tensor<3x3xf32> is larger than tensor<2x3xf32>");
  CHECK_THROWS(verify(op("%a: tensor<2x3xf32>", "stablehlo.concatenate %a, %a, dim = 2 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>", "tensor<2x6xf32>")), "stablehlo.concatenate: dimension 2 is out of range for tensor<2x3xf32>");
  CHECK_THROWS(verify(op("%a: tensor<2x3xf32>, %b: tensor<3x3xf32>", "stablehlo.concatenate %a, %b, dim = 1 : (tensor<2x3xf32>, tensor<3x3xf32>) -> tensor<2x6xf32>", "tensor<2x6xf32>")), "operand types tensor<2x3xf32> and tensor<3x3xf32> cannot be concatenated along 1");
  CHECK_THROWS(verify(op("%a: tensor<2x3xf32>", "stablehlo.concatenate %a, %a, dim = 0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x4xf32>", "tensor<4x4xf32>")), "result type tensor<4x4xf32> should be tensor<4x3xf32>");
  CHECK_THROWS(verify(op("%a: tensor<2x3xf32>, %z: tensor<f32>", "stablehlo.pad %a, %z, low = [0, 0], high = [0, 0], interior = [-1, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<1x3xf32>", "tensor<1x3xf32>")), "stablehlo.pad: interior_padding [-1, 0] must not be negative");
  CHECK_THROWS(verify(op("%a: tensor<2x3xf32>, %z: tensor<f32>", "stablehlo.pad %a, %z, low = [-3, 0], high = [0, 0], interior = [0, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<0x3xf32>", "tensor<0x3xf32>")), "padding removes more than dimension 0");
  CHECK_THROWS(verify(op("%a: tensor<2x3xf32>, %z: tensor<i32>", "stablehlo.pad %a, %z, low = [0, 0], high = [0, 0], interior = [0, 0] : (tensor<2x3xf32>, tensor<i32>) -> tensor<2x3xf32>", "tensor<2x3xf32>")), "padding value tensor<i32> must be a 0-d f32");
  CHECK_THROWS(verify(op("%a: tensor<2x3xf32>, %z: tensor<f32>", "stablehlo.pad %a, %z, low = [1, 0], high = [0, 0], interior = [1, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3x3xf32>", "tensor<3x3xf32>")), "result type tensor<3x3xf32> should be tensor<4x3xf32>");
  CHECK_THROWS(verify(op("%a: tensor<2x3xf32>, %z: tensor<f32>", "stablehlo.pad %a, %z, low = [0, 0], high = [0, 0], interior = [9223372036854775807, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>", "tensor<2x3xf32>")), "padding of dimension 0 is too large");
  CHECK_THROWS(verify(op("%a: tensor<2x3xf32>", "stablehlo.slice %a [0:2:9223372036854775807, 0:3] : (tensor<2x3xf32>) -> tensor<2x3xf32>", "tensor<2x3xf32>")), "should be tensor<1x3xf32>");
  CHECK_THROWS(verify(op("%a: tensor<2x3xf32>", "stablehlo.reverse %a, dims = [1, 1] : tensor<2x3xf32>", "tensor<2x3xf32>")), "stablehlo.reverse: dimensions [1, 1] repeat dimension 1");
  CHECK_THROWS(verify(op("%a: tensor<2x3xf32>", "stablehlo.reverse %a, dims = [2] : tensor<2x3xf32>", "tensor<2x3xf32>")), "dimensions [2] out of range for rank 2");
  CHECK_THROWS(verify(op("", "stablehlo.iota dim = 1 : tensor<4xi32>", "tensor<4xi32>")), "stablehlo.iota: iota_dimension 1 is out of range for tensor<4xi32>");
  CHECK_THROWS(verify(op("", "stablehlo.iota dim = 0 : tensor<4xi1>", "tensor<4xi1>")), "must be integer or floating-point");
  CHECK_THROWS(verify(op("", "\"stablehlo.constant\"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<3xf32>", "tensor<3xf32>")), "stablehlo.constant: value type tensor<2xf32> differs from result type tensor<3xf32>");
  CHECK_THROWS(verify(op("%a: tensor<3xf32>", "\"stablehlo.transpose\"(%a) : (tensor<3xf32>) -> tensor<3xf32>", "tensor<3xf32>")), "stablehlo.transpose: missing attribute permutation");
  CHECK_THROWS(verify(op("%a: tensor<3xf32>", "\"stablehlo.reverse\"(%a) {dimensions = \"x\"} : (tensor<3xf32>) -> tensor<3xf32>", "tensor<3xf32>")), "attribute dimensions must be an array<i64: …>");
}

TEST(dot_general_rules) {
  std::string args = "%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>";
  CHECK(accepted(op(args, "stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>", "tensor<2x3x5xf32>")));
  CHECK(accepted(op(args, "stablehlo.dot_general %a, %b, contracting_dims = [0, 2] x [0, 1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<3x5xf32>", "tensor<3x5xf32>")));
  CHECK(accepted(op(args, "stablehlo.dot_general %a, %b, contracting_dims = [] x [] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x4x2x4x5xf32>", "tensor<2x3x4x2x4x5xf32>")));
  CHECK_THROWS(verify(op(args, "stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x5x3xf32>", "tensor<2x5x3xf32>")), "line 2: stablehlo.dot_general: result type tensor<2x5x3xf32> should be tensor<2x3x5xf32>");
  CHECK_THROWS(verify(op(args, "stablehlo.dot_general %a, %b, contracting_dims = [1] x [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x4x2x5xf32>", "tensor<2x4x2x5xf32>")), "contracting dimension sizes differ: tensor<2x3x4xf32> and tensor<2x4x5xf32>");
  CHECK_THROWS(verify(op(args, "stablehlo.dot_general %a, %b, batching_dims = [1] x [0], contracting_dims = [2] x [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<3x2x5xf32>", "tensor<3x2x5xf32>")), "batching dimension sizes differ");
  CHECK_THROWS(verify(op(args, "stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2, 0] x [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>", "tensor<2x3x5xf32>")), "contracting dimensions [2, 0] and [1] differ in length");
  CHECK_THROWS(verify(op(args, "stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [0] x [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>", "tensor<2x3x5xf32>")), "lhs batching and contracting dimensions [0, 0] repeat dimension 0");
  CHECK_THROWS(verify(op(args, "stablehlo.dot_general %a, %b, contracting_dims = [3] x [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>", "tensor<2x3x5xf32>")), "out of range for rank 3");
  CHECK_THROWS(verify(op(args, "stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>", "tensor<2x3x5xf32>")), "precision_config must name 0 or 2 precisions");
  CHECK_THROWS(verify(op(args, "stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [FAST, FAST] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>", "tensor<2x3x5xf32>")), "precision_config entries must be DEFAULT, HIGH or HIGHEST");
  CHECK_THROWS(verify(op("%a: tensor<2x3xf32>", "\"stablehlo.dot_general\"(%a, %a) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>", "tensor<2x2xf32>")), "missing attribute dot_dimension_numbers");
}

TEST(clamp_accepts_i1) {
  // The spec (C3, C4) asks only that min, operand and max share an element type; XLA clamps i1 too.
  CHECK(accepted(op("%lo: tensor<i1>, %a: tensor<2x3xi1>, %hi: tensor<i1>", "stablehlo.clamp %lo, %a, %hi : (tensor<i1>, tensor<2x3xi1>, tensor<i1>) -> tensor<2x3xi1>", "tensor<2x3xi1>")));
  CHECK(accepted(op("%lo: tensor<2xi1>, %a: tensor<2xi1>", "\"stablehlo.clamp\"(%lo, %a, %lo) : (tensor<2xi1>, tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>", "tensor<2xi1>")));
  CHECK_THROWS(verify(op("%lo: tensor<i1>, %a: tensor<2xi8>", "stablehlo.clamp %lo, %a, %lo : (tensor<i1>, tensor<2xi8>, tensor<i1>) -> tensor<2xi8>", "tensor<2xi8>")), "stablehlo.clamp: min tensor<i1> and operand tensor<2xi8> element types differ");
  CHECK_THROWS(verify(op("%a: tensor<2xi1>", "stablehlo.clamp %a, %a, %a : (tensor<2xi1>, tensor<2xi1>, tensor<2xi1>) -> tensor<2xi8>", "tensor<2xi8>")), "result type tensor<2xi8> should be tensor<2xi1>");
}

TEST(dot_general_element_types) {
  // i1 is allowed (XLA: OR over the contraction of AND); the result element type may differ from the
  // operands', as jax writes for preferred_element_type, and so may lhs's from rhs's (XLA computes in the
  // most precise of the three; StableHLO's verifier leaves C13 out).
  CHECK(accepted(op("%a: tensor<2x3xi1>, %b: tensor<3x4xi1>", "stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xi1>, tensor<3x4xi1>) -> tensor<2x4xi1>", "tensor<2x4xi1>")));
  CHECK(accepted(op("%a: tensor<2x3xbf16>, %b: tensor<3x4xbf16>", "stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xbf16>, tensor<3x4xbf16>) -> tensor<2x4xf32>", "tensor<2x4xf32>")));
  CHECK(accepted(op("%a: tensor<2x3xi8>, %b: tensor<3xi8>", "\"stablehlo.dot_general\"(%a, %b) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<2x3xi8>, tensor<3xi8>) -> tensor<2xi32>", "tensor<2xi32>")));
  CHECK(accepted(op("%a: tensor<2x3xf32>, %b: tensor<3xf32>", "stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2xi1>", "tensor<2xi1>")));
  CHECK(accepted(op("%a: tensor<2x3xf32>, %b: tensor<3x4xf64>", "stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf64>) -> tensor<2x4xf64>", "tensor<2x4xf64>")));
  CHECK(accepted(op("%a: tensor<2x3xi8>, %b: tensor<3x4xf32>", "stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xi8>, tensor<3x4xf32>) -> tensor<2x4xf32>", "tensor<2x4xf32>")));
  CHECK_THROWS(verify(op("%a: tensor<2x3xi1>, %b: tensor<3x4xi1>", "stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xi1>, tensor<3x4xi1>) -> tensor<2x5xi1>", "tensor<2x5xi1>")), "result type tensor<2x5xi1> should be tensor<2x4xi1>");
}

TEST(calls_are_inlined_before_verification) {
  // parseModule inlines func.call, so a module with private helpers verifies like its flat version.
  CHECK(accepted("func.func private @f(%x: tensor<f32>) -> tensor<f32> {\n  return %x : tensor<f32>\n}\nfunc.func @main(%a: tensor<f32>) -> tensor<f32> {\n  %r = call @f(%a) : (tensor<f32>) -> tensor<f32>\n  return %r : tensor<f32>\n}\n"));
  // A bad op inside a callee is reported at its own line, also when main calls it twice.
  CHECK_THROWS(verify("func.func private @f(%x: tensor<i32>) -> tensor<i32> {\n  %y = stablehlo.sine %x : tensor<i32>\n  return %y : tensor<i32>\n}\nfunc.func @main(%a: tensor<i32>) -> tensor<i32> {\n  %r = call @f(%a) : (tensor<i32>) -> tensor<i32>\n  %s = call @f(%r) : (tensor<i32>) -> tensor<i32>\n  return %s : tensor<i32>\n}\n"), "line 2: stablehlo.sine: operand type tensor<i32> must have a floating-point element type");
}

TEST(reduce_rules) {
  std::string args = "%a: tensor<2x3xf32>, %z: tensor<f32>";
  auto reduce = [&](const std::string& sig, const std::string& body, const std::string& result) {
    return op(args, "stablehlo.reduce(%a init: %z) across dimensions = [1] : " + sig + "\n   reducer(%x: tensor<f32>, %y: tensor<f32>) {\n    " + body + "\n  }", result);
  };
  CHECK(accepted(reduce("(tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>", "%s = stablehlo.add %x, %y : tensor<f32>\n    stablehlo.return %s : tensor<f32>", "tensor<2xf32>")));
  CHECK_THROWS(verify(reduce("(tensor<2x3xf32>, tensor<f32>) -> tensor<3xf32>", "%s = stablehlo.add %x, %y : tensor<f32>\n    stablehlo.return %s : tensor<f32>", "tensor<3xf32>")), "line 2: stablehlo.reduce: result type tensor<3xf32> should be tensor<2xf32>");
  CHECK_THROWS(verify(reduce("(tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>", "%s = stablehlo.compare GT, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>\n    stablehlo.return %s : tensor<i1>", "tensor<2xf32>")), "line 5: stablehlo.return: returns (tensor<i1>) but the stablehlo.reduce body needs (tensor<f32>)");
  CHECK_THROWS(verify(reduce("(tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>", "%s = stablehlo.add %x, %y : tensor<f32>\n    return %s : tensor<f32>", "tensor<2xf32>")), "line 5: func.return: not allowed here; the stablehlo.reduce body must end with stablehlo.return");
  CHECK_THROWS(verify(reduce("(tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>", "%s = stablehlo.add %x, %z : tensor<f32>\n    stablehlo.return %s : tensor<f32>", "tensor<2xf32>")), "line 4: stablehlo.add: uses a value defined outside the stablehlo.reduce body");
  CHECK_THROWS(verify(reduce("(tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>", "%s = stablehlo.reshape %x : (tensor<f32>) -> tensor<1xf32>\n    %t = stablehlo.reshape %s : (tensor<1xf32>) -> tensor<f32>\n    stablehlo.return %t : tensor<f32>", "tensor<2xf32>")), "line 4: stablehlo.reshape: not supported inside a stablehlo.reduce body");
  CHECK(accepted(reduce("(tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>", "%s = stablehlo.reshape %x : (tensor<f32>) -> tensor<f32>\n    %t = stablehlo.maximum %s, %y : tensor<f32>\n    stablehlo.return %t : tensor<f32>", "tensor<2xf32>")));
  CHECK_THROWS(verify(reduce("(tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>", "%s = stablehlo.dynamic_update_slice %x, %y : tensor<f32>\n    stablehlo.return %s : tensor<f32>", "tensor<2xf32>")), "line 4: stablehlo.dynamic_update_slice: not supported inside a stablehlo.reduce body");
  CHECK_THROWS(verify(op(args, "stablehlo.reduce(%a init: %z) across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>\n   reducer(%x: tensor<f32>, %y: tensor<i32>) {\n    stablehlo.return %x : tensor<f32>\n  }", "tensor<2xf32>")), "body arguments (tensor<f32>, tensor<i32>) should be (tensor<f32>, tensor<f32>)");
  CHECK_THROWS(verify(op(args, "stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [2] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>", "tensor<2xf32>")), "dimensions [2] out of range for rank 2");
  CHECK_THROWS(verify(op("%a: tensor<2x3xf32>, %z: tensor<i32>", "stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<i32>) -> tensor<2xi32>", "tensor<2xi32>")), "init value tensor<i32> must be a 0-d tensor of the element type of tensor<2x3xf32>");
  CHECK_THROWS(verify(op(args, "stablehlo.reduce(%a init: %z) applies stablehlo.atan3 across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>", "tensor<2xf32>")), "line 2: unsupported op 'stablehlo.atan3'");
  CHECK_THROWS(verify(op(args, "\"stablehlo.reduce\"(%a, %z) {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>", "tensor<2xf32>")), "stablehlo.reduce: wrong number of regions (0)");
  CHECK_THROWS(verify(op(args, "\"stablehlo.reduce\"(%a, %z, %a) ({\n  ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n    \"stablehlo.return\"(%x) : (tensor<f32>) -> ()\n  }) {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<f32>, tensor<2x3xf32>) -> tensor<2xf32>", "tensor<2xf32>")), "expects inputs and as many init values, got 3 operands");
}

TEST_MAIN()
