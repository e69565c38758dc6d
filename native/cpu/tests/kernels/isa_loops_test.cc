// Every element-wise loop and row reduction gives the same bits in its vector version (AVX-512 or AVX2,
// whichever this CPU picks) as in its baseline version (kernels/isa_loops.h): each op runs on inputs with specials and a tail that is not a whole
// vector, once with the loops this CPU picks and once with the baseline loops, and the outputs must
// match byte for byte (NaNs match any NaN). On a CPU without AVX2 both runs take the baseline loops and
// the test says so.
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/cpu_features.h"
#include "check.h"
#include "exec/interpreter.h"
#include "ir/element_type.h"
#include "ir/stablehlo.h"
#include "tests/test_modules.h"

using namespace tpjrt::cpu;
using namespace tpjrt::cpu::test;

namespace {

constexpr int64_t kN = 1037;  // a multiple of neither 8 nor 16

// Values from -60 to 60 on an irregular grid, with the float specials among them.
std::vector<double> sampleValues(int salt) {
  std::vector<double> v(kN);
  for (int64_t i = 0; i < kN; ++i) v[size_t(i)] = std::sin(double(i * (7 + salt)) * 0.37) * std::exp2(double(i % 13) - 6.0) * 1.7;
  v[3] = NAN;
  v[17] = INFINITY;
  v[29] = -INFINITY;
  v[41] = -0.0;
  v[53] = 0.0;
  v[kN - 1] = 1e-40;
  return v;
}

Literal literalOf(const std::string& type, int salt) {
  const std::vector<double> v = sampleValues(salt);
  if (type == "f64") return make(ElementType::F64, {kN}, v);
  if (type == "f32") return f32({kN}, std::vector<float>(v.begin(), v.end()));
  std::vector<int32_t> ints(v.size());
  for (size_t i = 0; i < v.size(); ++i) ints[i] = std::isfinite(v[i]) ? int32_t(v[i] * 1000) : int32_t(i) - 500;
  if (type == "i32") return make(ElementType::S32, {kN}, ints);
  throw std::runtime_error("no sample literal of " + type);
}

// A module applying `op` (StableHLO's unless qualified) to `arity` parameters of `in` giving `out`; `extra` is inserted before `:`.
std::string moduleOf(const std::string& op, int arity, const std::string& in, const std::string& out,
                     const std::string& extra = "") {
  const std::string ti = "tensor<" + std::to_string(kN) + "x" + in + ">", to = "tensor<" + std::to_string(kN) + "x" + out + ">";
  // Built by appending: g++ 12 at -O2 and above inlines `", " + std::string("%p")` (an insert at the
  // front of a temporary) into a -Wrestrict false positive (GCC bug 105329).
  std::string params, args, types;
  for (int i = 0; i < arity; ++i) {
    std::string p = "%p";
    p += std::to_string(i);
    if (i > 0) {
      params += ", ";
      args += ", ";
      types += ", ";
    }
    params += p + ": " + ti;
    args += p;
    types += ti;
  }
  const std::string name = op.find('.') == std::string::npos ? "stablehlo." + op : op;
  return "func.func public @main(" + params + ") -> " + to + " {\n  %r = \"" + name + "\"(" + args + ")" + extra +
         " : (" + types + ") -> " + to + "\n  \"func.return\"(%r) : (" + to + ") -> ()\n}\n";
}

Literal run(const std::string& text, const std::vector<Literal>& args, bool baseline) {
  useBaselineLoops(baseline);
  Module m = parseModule(text);
  Literal out = interpret(m, *m.find("main"), args)[0];
  useBaselineLoops(false);
  return out;
}

// Byte for byte, except that any two NaNs match: which operand's NaN an instruction passes on may
// differ between the versions when the compiler swaps the operands of a commutative op.
template <class F>
bool sameFloats(const Literal& a, const Literal& b) {
  const std::vector<F> x = read<F>(a), y = read<F>(b);
  for (size_t i = 0; i < x.size(); ++i)
    if (!(std::isnan(x[i]) && std::isnan(y[i])) && std::memcmp(&x[i], &y[i], sizeof(F)) != 0) return false;
  return true;
}

void checkBothVersionsAgree(const std::string& text, const std::vector<Literal>& args, const std::string& what) {
  const Literal picked = run(text, args, false), baseline = run(text, args, true);
  CHECK(picked.bytes.size() == baseline.bytes.size());
  if (picked.bytes.size() != baseline.bytes.size()) return;
  const ElementType t = picked.type.element;
  const bool same = t == ElementType::F32   ? sameFloats<float>(picked, baseline)
                    : t == ElementType::F64 ? sameFloats<double>(picked, baseline)
                                            : std::memcmp(picked.bytes.data(), baseline.bytes.data(), picked.bytes.size()) == 0;
  if (!same) ::tpjrt::test::report(__FILE__, __LINE__, what + ": the AVX2 and baseline loops differ");
}

}  // namespace

TEST(the_cpu_picks_avx2_loops_when_it_has_avx2) {
  CHECK(avx2LoopsEnabled() == cpuHasAvx2Fma());
  if (!cpuHasAvx2Fma()) std::printf("note: this CPU has no AVX2+FMA, so both versions compared below are the baseline loops\n");
  else std::printf("note: the vector loops compared below are the %s versions\n", cpuHasAvx512f() ? "AVX-512" : "AVX2");
}

TEST(unary_loops_agree) {
  for (const char* t : {"f32", "f64"})
    for (const char* op : {"negate", "abs", "sign", "exponential", "exponential_minus_one", "log", "log_plus_one", "logistic",
                           "tanh", "sqrt", "rsqrt", "cbrt", "sine", "cosine", "floor", "ceil", "round_nearest_even",
                           "round_nearest_afz"})
      checkBothVersionsAgree(moduleOf(op, 1, t, t), {literalOf(t, 0)}, std::string(op) + " " + t);
  for (const char* t : {"f32", "f64"}) checkBothVersionsAgree(moduleOf("chlo.erf", 1, t, t), {literalOf(t, 0)}, std::string("erf ") + t);
  checkBothVersionsAgree(moduleOf("is_finite", 1, "f32", "i1"), {literalOf("f32", 0)}, "is_finite");
  for (const char* op : {"negate", "abs", "sign", "not", "popcnt", "count_leading_zeros"})
    checkBothVersionsAgree(moduleOf(op, 1, "i32", "i32"), {literalOf("i32", 0)}, std::string(op) + " i32");
}

TEST(binary_loops_agree) {
  for (const char* t : {"f32", "f64"})
    for (const char* op : {"add", "subtract", "multiply", "divide", "remainder", "power", "maximum", "minimum", "atan2"})
      checkBothVersionsAgree(moduleOf(op, 2, t, t), {literalOf(t, 0), literalOf(t, 1)}, std::string(op) + " " + t);
  for (const char* op : {"add", "subtract", "multiply", "divide", "remainder", "maximum", "minimum", "and", "or", "xor",
                         "shift_left", "shift_right_arithmetic", "shift_right_logical"})
    checkBothVersionsAgree(moduleOf(op, 2, "i32", "i32"), {literalOf("i32", 0), literalOf("i32", 1)}, std::string(op) + " i32");
}

TEST(compare_select_clamp_and_convert_loops_agree) {
  for (const char* dir : {"EQ", "NE", "GE", "GT", "LE", "LT"})
    for (const char* kind : {"FLOAT", "TOTALORDER"}) {
      const std::string attrs = std::string(" {comparison_direction = #stablehlo<comparison_direction ") + dir +
                                ">, compare_type = #stablehlo<comparison_type " + kind + ">}";
      checkBothVersionsAgree(moduleOf("compare", 2, "f32", "i1", attrs), {literalOf("f32", 0), literalOf("f32", 1)},
                             std::string("compare ") + dir + " " + kind);
    }
  checkBothVersionsAgree(moduleOf("clamp", 3, "f32", "f32"), {literalOf("f32", 0), literalOf("f32", 1), literalOf("f32", 2)}, "clamp");
  const std::string n = std::to_string(kN);
  const std::string select = "func.func public @main(%a: tensor<" + n + "xf32>, %b: tensor<" + n + "xf32>) -> tensor<" + n +
                             "xf32> {\n  %p = \"stablehlo.compare\"(%a, %b) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<" +
                             n + "xf32>, tensor<" + n + "xf32>) -> tensor<" + n + "xi1>\n  %r = \"stablehlo.select\"(%p, %a, %b) : (tensor<" + n +
                             "xi1>, tensor<" + n + "xf32>, tensor<" + n + "xf32>) -> tensor<" + n + "xf32>\n  \"func.return\"(%r) : (tensor<" +
                             n + "xf32>) -> ()\n}\n";
  checkBothVersionsAgree(select, {literalOf("f32", 0), literalOf("f32", 1)}, "select");
  // Splat sides, as a mask with -inf or a guard with 0 makes them.
  const std::string splats = "func.func public @main(%a: tensor<" + n + "xf32>, %b: tensor<" + n + "xf32>) -> tensor<" + n +
                             "xf32> {\n  %p = \"stablehlo.compare\"(%a, %b) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<" +
                             n + "xf32>, tensor<" + n + "xf32>) -> tensor<" + n + "xi1>\n  %c = \"stablehlo.constant\"() {value = dense<0xFF800000> : tensor<" +
                             n + "xf32>} : () -> tensor<" + n + "xf32>\n  %s = \"stablehlo.select\"(%p, %a, %c) : (tensor<" + n + "xi1>, tensor<" + n +
                             "xf32>, tensor<" + n + "xf32>) -> tensor<" + n + "xf32>\n  %r = \"stablehlo.select\"(%p, %c, %s) : (tensor<" + n +
                             "xi1>, tensor<" + n + "xf32>, tensor<" + n + "xf32>) -> tensor<" + n + "xf32>\n  \"func.return\"(%r) : (tensor<" + n +
                             "xf32>) -> ()\n}\n";
  checkBothVersionsAgree(splats, {literalOf("f32", 0), literalOf("f32", 1)}, "select with splat sides");
  for (const char* to : {"f16", "bf16", "f64", "i32", "i8", "ui64", "i1"})
    checkBothVersionsAgree(moduleOf("convert", 1, "f32", to), {literalOf("f32", 0)}, std::string("convert f32 to ") + to);
  checkBothVersionsAgree(moduleOf("convert", 1, "i32", "f32"), {literalOf("i32", 0)}, "convert i32 to f32");
}

TEST(row_reductions_agree) {
  // kN elements as 17 rows of 61: every row has a vector part and a tail; row 0 holds a NaN, rows 0
  // and 1 signed zeros.
  for (const char* t : {"f32", "f64", "i32"})
    for (const char* body : {"add", "maximum", "minimum", "multiply"}) {
      const std::string in = std::string("tensor<17x61x") + t + ">", s = std::string("tensor<") + t + ">",
                        out = std::string("tensor<17x") + t + ">";
      const std::string text = "func.func public @main(%x: " + in + ", %i: " + s + ") -> " + out + " {\n" +
                               "  %r = \"stablehlo.reduce\"(%x, %i) ({\n  ^bb0(%a: " + s + ", %b: " + s + "):\n" +
                               "    %c = \"stablehlo." + body + "\"(%a, %b) : (" + s + ", " + s + ") -> " + s + "\n" +
                               "    \"stablehlo.return\"(%c) : (" + s + ") -> ()\n  }) {dimensions = array<i64: 1>} : (" + in +
                               ", " + s + ") -> " + out + "\n  \"func.return\"(%r) : (" + out + ") -> ()\n}\n";
      Literal x = literalOf(t, 2);
      x.type.dims = {17, 61};
      Literal init = literalOf(t, 3);
      init.type.dims = {};
      init.bytes = Bytes(init.bytes.begin(), init.bytes.begin() + byteWidth(init.type.element));
      checkBothVersionsAgree(text, {x, init}, std::string("reduce ") + body + " " + t);
    }
}

TEST_MAIN()
