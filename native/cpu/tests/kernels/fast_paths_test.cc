// The interpreter's fast paths agree with its generic ones: single-op reduce bodies against the lane-mode
// evaluation of the same body (a two-input reduce always takes the generic path), the float32
// exp/log/log1p/logistic/tanh/erf loops (within two ulps) against the float64 kernels rounded to float32, and splat operands kept as one
// element against the same program with the splat materialised (returned as well), and the argmax/argmin
// loop against the lane-mode evaluation of the same body.
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "base/thread_pool.h"
#include "check.h"
#include "exec/interpreter.h"
#include "ir/element_type.h"
#include "ir/stablehlo.h"
#include "tests/test_modules.h"

using namespace tpjrt::cpu;
using namespace tpjrt::cpu::test;

namespace {

std::vector<Literal> runText(const std::string& text, const std::vector<Literal>& args) {
  Module m = parseModule(text);
  const Function* main = m.find("main");
  if (!main) throw std::runtime_error("no main");
  return interpret(m, *main, args);
}

// reduce(x) with `op` as the body, alone (fast path) and as the first of two inputs (generic path).
struct ReducePair {
  Literal fast, generic;
};
ReducePair reduceBoth(const std::string& op, const std::string& elem, const Literal& x, const Literal& init,
                      const std::string& dims, const std::string& outShape) {
  const std::string in = typeString(x.type), s = "tensor<" + elem + ">", out = "tensor<" + outShape + elem + ">";
  const std::string dimsAttr = dims.empty() ? "array<i64>" : "array<i64: " + dims + ">";
  const std::string one =
      "func.func public @main(%x: " + in + ", %i: " + s + ") -> " + out + " {\n" +
      "  %r = \"stablehlo.reduce\"(%x, %i) ({\n  ^bb0(%a: " + s + ", %b: " + s + "):\n" +
      "    %c = \"stablehlo." + op + "\"(%a, %b) : (" + s + ", " + s + ") -> " + s + "\n" +
      "    \"stablehlo.return\"(%c) : (" + s + ") -> ()\n  }) {dimensions = " + dimsAttr + "} : (" + in + ", " + s +
      ") -> " + out + "\n  \"func.return\"(%r) : (" + out + ") -> ()\n}\n";
  const std::string two =
      "func.func public @main(%x: " + in + ", %i: " + s + ") -> " + out + " {\n" +
      "  %r:2 = \"stablehlo.reduce\"(%x, %x, %i, %i) ({\n  ^bb0(%a: " + s + ", %a2: " + s + ", %b: " + s + ", %b2: " + s + "):\n" +
      "    %c = \"stablehlo." + op + "\"(%a, %b) : (" + s + ", " + s + ") -> " + s + "\n" +
      "    %c2 = \"stablehlo." + op + "\"(%a2, %b2) : (" + s + ", " + s + ") -> " + s + "\n" +
      "    \"stablehlo.return\"(%c, %c2) : (" + s + ", " + s + ") -> ()\n  }) {dimensions = " + dimsAttr + "} : (" + in +
      ", " + in + ", " + s + ", " + s + ") -> (" + out + ", " + out + ")\n  \"func.return\"(%r#0) : (" + out + ") -> ()\n}\n";
  ReducePair p{runText(one, {x, init})[0], runText(two, {x, init})[0]};
  CHECK(p.fast.type == p.generic.type);
  return p;
}

// Bitwise equal, or both NaN.
void checkSameFloats(const Literal& got, const Literal& want, const std::string& what) {
  auto g = read<float>(got), w = read<float>(want);
  CHECK_EQ(g.size(), w.size());
  for (size_t i = 0; i < g.size() && i < w.size(); ++i) {
    bool same = (std::isnan(g[i]) && std::isnan(w[i])) || std::memcmp(&g[i], &w[i], 4) == 0;
    if (!same) ::tpjrt::test::report(__FILE__, __LINE__, what + "[" + std::to_string(i) + "]: got " + std::to_string(g[i]) + ", want " + std::to_string(w[i]));
  }
}

// Floats whose sums and products are exact in any order (small integers), with NaN and ±Inf mixed in.
std::vector<float> testFloats(size_t n, bool specials) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = float(int((i * 37 + 11) % 19) - 9);
  if (specials && n > 40) {
    v[3] = NAN;
    v[40] = -INFINITY;
    v[n - 1] = INFINITY;
    v[n / 2] = -0.0f;
  }
  return v;
}

}  // namespace

TEST(reduce_fast_path_matches_generic_on_float_rows_columns_and_mixed_dims) {
  // Shapes chosen so that the vectorised row loop runs with a tail (37 > 16 lanes), a whole-tensor
  // reduction takes the row path, and dims {0, 2} need the transpose.
  struct Case { std::vector<int64_t> shape; std::string dims, out; };
  const Case cases[] = {{{5, 37}, "1", "5x"}, {{5, 37}, "0", "37x"}, {{5, 37}, "0, 1", ""}, {{3, 4, 37}, "0, 2", "4x"},
                        {{3, 4, 37}, "2", "3x4x"}, {{100}, "0", ""}, {{}, "", ""}, {{3, 0}, "1", "3x"}, {{0, 3}, "0", "3x"},
                        // Columns read in place: a middle dimension, two separated ones, size-1 dimensions.
                        {{3, 40, 37}, "1", "3x37x"}, {{4, 3, 5, 33}, "0, 2", "3x33x"}, {{3, 20, 2, 17}, "1, 2", "3x17x"},
                        {{5, 1, 20}, "0", "1x20x"}, {{2, 1, 30, 1, 19}, "1, 2", "2x1x19x"},
                        // Few runs, each split into pieces of columns (the last one shorter).
                        {{6, 300}, "0", "300x"}, {{3, 5, 1000}, "0, 1", "1000x"}, {{4, 2, 517}, "1", "4x517x"},
                        // A short last run after other kept dimensions: transposed to rows instead.
                        {{2, 17, 3}, "1", "2x3x"}};
  for (bool specials : {false, true}) {
    for (const Case& c : cases) {
      int64_t n = 1;
      for (int64_t d : c.shape) n *= d;
      Literal x = f32(c.shape, testFloats(size_t(n), specials));
      for (const char* op : {"add", "multiply", "maximum", "minimum"}) {
        float init = std::string(op) == "multiply" ? 1.0f : std::string(op) == "maximum" ? -INFINITY : std::string(op) == "minimum" ? INFINITY : 0.0f;
        if (std::string(op) == "multiply") {  // keep products exact and in range: only ±1, zeros and specials
          auto v = read<float>(x);
          for (float& e : v) if (std::isfinite(e) && e != 0) e = e > 0 ? 1.0f : -1.0f;
          x = f32(c.shape, v);
        }
        auto r = reduceBoth(op, "f32", x, f32({}, {init}), c.dims, c.out);
        checkSameFloats(r.fast, r.generic, std::string(op) + " dims " + c.dims);
      }
      // A non-identity init is folded in exactly once.
      auto r = reduceBoth("add", "f32", x, f32({}, {0.5f}), c.dims, c.out);
      checkSameFloats(r.fast, r.generic, "add with init 0.5, dims " + c.dims);
    }
  }
}

TEST(reduce_fast_path_max_min_signed_zero_and_nan) {
  std::vector<float> v(64, -0.0f);
  v[50] = 0.0f;
  auto mx = reduceBoth("maximum", "f32", f32({64}, v), f32({}, {-INFINITY}), "0", "");
  CHECK(!std::signbit(read<float>(mx.fast)[0]));
  checkSameFloats(mx.fast, mx.generic, "max of zeros");
  auto mn = reduceBoth("minimum", "f32", f32({64}, std::vector<float>(64, 0.0f)), f32({}, {-0.0f}), "0", "");
  CHECK(std::signbit(read<float>(mn.fast)[0]));
  v[17] = NAN;
  auto nan = reduceBoth("maximum", "f32", f32({2, 32}, v), f32({}, {-INFINITY}), "1", "2x");
  CHECK(std::isnan(read<float>(nan.fast)[0]));
  CHECK(!std::isnan(read<float>(nan.fast)[1]));
  checkSameFloats(nan.fast, nan.generic, "max with NaN");
}

TEST(reduce_fast_path_matches_generic_on_integers_and_f64) {
  std::vector<int32_t> iv(3 * 70);
  for (size_t i = 0; i < iv.size(); ++i) iv[i] = int32_t(i * 2654435761u);  // wraps on add and multiply
  Literal xi = make(ElementType::S32, {3, 70}, iv);
  for (const char* op : {"add", "multiply", "maximum", "minimum", "and", "or", "xor"}) {
    for (const char* dims : {"1", "0", "0, 1"}) {
      std::string out = std::string(dims) == "1" ? "3x" : std::string(dims) == "0" ? "70x" : "";
      auto r = reduceBoth(op, "i32", xi, make(ElementType::S32, {}, std::vector<int32_t>{7}), dims, out);
      CHECK(read<int32_t>(r.fast) == read<int32_t>(r.generic));
    }
  }
  std::vector<double> dv(3 * 70);
  for (size_t i = 0; i < dv.size(); ++i) dv[i] = double(int(i % 23) - 11);
  dv[100] = std::numeric_limits<double>::quiet_NaN();
  Literal xd = make(ElementType::F64, {3, 70}, dv);
  for (const char* op : {"add", "maximum", "minimum"}) {
    auto r = reduceBoth(op, "f64", xd, make(ElementType::F64, {}, std::vector<double>{0}), "1", "3x");
    auto g = read<double>(r.fast), w = read<double>(r.generic);
    for (size_t i = 0; i < 3; ++i) CHECK((std::isnan(g[i]) && std::isnan(w[i])) || g[i] == w[i]);
  }
}

TEST(reduce_fast_path_columns_match_generic_on_integers_and_half_types) {
  std::vector<int32_t> iv(3 * 70 * 20);
  for (size_t i = 0; i < iv.size(); ++i) iv[i] = int32_t(i * 2654435761u);
  Literal xi = make(ElementType::S32, {3, 70, 20}, iv);
  for (const char* op : {"add", "multiply", "maximum", "minimum", "and", "or", "xor"}) {
    auto r = reduceBoth(op, "i32", xi, make(ElementType::S32, {}, std::vector<int32_t>{7}), "1", "3x20x");
    CHECK(read<int32_t>(r.fast) == read<int32_t>(r.generic));
    auto r0 = reduceBoth(op, "i32", xi, make(ElementType::S32, {}, std::vector<int32_t>{7}), "0, 1", "20x");
    CHECK(read<int32_t>(r0.fast) == read<int32_t>(r0.generic));
  }
  // Half types round after every step, so these sums are order-sensitive: the columns must keep the
  // generic path's order exactly.
  for (ElementType t : {ElementType::F16, ElementType::BF16}) {
    const char* name = t == ElementType::F16 ? "f16" : "bf16";
    std::vector<uint16_t> hv(4 * 50 * 24);
    for (size_t i = 0; i < hv.size(); ++i) {
      float f = float(std::sin(double(i)) * 3);
      hv[i] = t == ElementType::F16 ? floatToHalf(f) : floatToBf16(f);
    }
    Literal x = make(t, {4, 50, 24}, hv);
    Literal zero = make(t, {}, std::vector<uint16_t>{0});
    for (const char* op : {"add", "maximum"}) {
      auto r = reduceBoth(op, name, x, zero, "1", "4x24x");
      CHECK(read<uint16_t>(r.fast) == read<uint16_t>(r.generic));
      auto r0 = reduceBoth(op, name, x, zero, "0", "50x24x");
      CHECK(read<uint16_t>(r0.fast) == read<uint16_t>(r0.generic));
    }
  }
}

TEST(reduce_columns_on_a_pool_give_the_single_thread_results) {
  struct Case { std::vector<int64_t> shape; std::string dims, out; };
  const Case cases[] = {{{8, 300, 2000}, "1", "8x2000x"}, {{300, 5000}, "0", "5000x"}, {{6, 40, 3, 700}, "0, 2", "40x700x"}};
  for (const Case& c : cases) {
    int64_t n = 1;
    for (int64_t d : c.shape) n *= d;
    std::vector<float> v(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) v[size_t(i)] = float(std::sin(double(i) * 0.37) * 5);
    Literal x = f32(c.shape, v), zero = f32({}, {0});
    Literal alone = reduceBoth("add", "f32", x, zero, c.dims, c.out).fast;
    ThreadPool pool(3);
    ThreadPoolScope scope(&pool);
    checkSameFloats(reduceBoth("add", "f32", x, zero, c.dims, c.out).fast, alone, "column sums on a pool, dims " + c.dims);
  }
}

TEST(reduce_fast_path_float_sum_is_close_to_float64) {
  const int64_t rows = 3, cols = 4099;
  std::vector<float> v(size_t(rows * cols));
  for (size_t i = 0; i < v.size(); ++i) v[i] = std::sin(double(i)) * 3.0f;
  auto r = reduceBoth("add", "f32", f32({rows, cols}, v), f32({}, {0}), "1", "3x");
  auto got = read<float>(r.fast);
  for (int64_t i = 0; i < rows; ++i) {
    double want = 0, mag = 0;
    for (int64_t j = 0; j < cols; ++j) want += v[size_t(i * cols + j)], mag += std::fabs(v[size_t(i * cols + j)]);
    CHECK(std::fabs(got[size_t(i)] - want) <= 32 * std::numeric_limits<float>::epsilon() * mag);
  }
}

TEST(float32_exp_log_log1p_logistic_tanh_erf_within_two_ulps_of_float64_kernels) {
  std::vector<float> xs = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1e-30f, -1e-30f, 2.4e-4f, -2.5e-4f, 88.72f, 88.73f,
                           -87.3f, -103.9f, -104.5f, 9.99f, 10.5f, -20.0f, 109.0f, -111.0f, 1e-45f, 0.55f, -0.55f,
                           0.552280903f, -3.46247768f, 15.646101f, 1.0f, 0.99999994f, 1.00000012f, 1.41421354f,
                           1.41421366f, 0.70710677f, 3.40282347e38f, 1.17549435e-38f, 1.17549421e-38f,
                           -1.0f, -0.99999994f, -0.29289323f, 0.41421357f, 1.00000012f, 16777216.0f, 16777218.0f};
  for (int i = -4000; i <= 4000; ++i) xs.push_back(float(i) * 0.0271f);
  for (uint64_t bits = 0; bits < (uint64_t(1) << 32); bits += 4099) {  // a sweep over every exponent
    float x;
    const uint32_t b = uint32_t(bits);
    std::memcpy(&x, &b, 4);
    xs.push_back(x);
  }
  const int64_t n = int64_t(xs.size());
  std::vector<double> xd(xs.begin(), xs.end());
  for (const char* op : {"stablehlo.exponential", "stablehlo.log", "stablehlo.log_plus_one", "stablehlo.logistic", "stablehlo.tanh", "chlo.erf"}) {
    auto mod = [&](const char* t) {
      std::string ty = "tensor<" + std::to_string(n) + "x" + t + ">";
      return "func.func public @main(%x: " + ty + ") -> " + ty + " {\n  %r = \"" + op + "\"(%x) : (" + ty + ") -> " +
             ty + "\n  \"func.return\"(%r) : (" + ty + ") -> ()\n}\n";
    };
    auto got = read<float>(runText(mod("f32"), {f32({n}, xs)})[0]);
    auto want = read<double>(runText(mod("f64"), {make(ElementType::F64, {n}, xd)})[0]);
    int failures = 0;
    for (size_t i = 0; i < xs.size() && failures < 10; ++i) {
      const float w = float(want[i]);
      bool ok;
      if (std::isnan(w)) ok = std::isnan(got[i]);
      else if (got[i] == w) ok = std::signbit(got[i]) == std::signbit(w);
      else ok = !std::isnan(got[i]) && (std::nextafter(w, got[i]) == got[i] || std::nextafter(std::nextafter(w, got[i]), got[i]) == got[i]);
      if (!ok) {
        ++failures;
        ::tpjrt::test::report(__FILE__, __LINE__, std::string(op) + "(" + std::to_string(xs[i]) + "): got " + std::to_string(got[i]) + ", want " + std::to_string(w));
      }
    }
  }
}

TEST(splat_operands_kept_as_one_element_give_the_materialised_results) {
  // %b (a broadcast scalar) and %c (a splat constant) feed element-wise ops only; %d is the same
  // broadcast but is also returned, so it is materialised. Every output must be the same either way.
  const char* text = R"mlir(
func.func public @main(%x: tensor<2x3xf32>, %s: tensor<f32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xi1>, tensor<2x3xf32>, tensor<2xf32>) {
  %b = "stablehlo.broadcast_in_dim"(%s) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> tensor<2x3xf32>
  %c = "stablehlo.constant"() {value = dense<1.5> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
  %d = "stablehlo.broadcast_in_dim"(%s) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> tensor<2x3xf32>
  %e = "stablehlo.constant"() {value = dense<0.0> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
  %z = "stablehlo.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %m = "stablehlo.multiply"(%c, %x) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %a = "stablehlo.subtract"(%m, %b) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %p = "stablehlo.compare"(%b, %x) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %sel = "stablehlo.select"(%p, %b, %c) : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %both = "stablehlo.add"(%b, %c) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %sum = "stablehlo.reduce"(%e, %z) ({
  ^bb0(%u: tensor<f32>, %v: tensor<f32>):
    %w = "stablehlo.add"(%u, %v) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%w) : (tensor<f32>) -> ()
  }) {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  "func.return"(%a, %d, %sel, %p, %both, %sum) : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xi1>, tensor<2x3xf32>, tensor<2xf32>) -> ()
}
)mlir";
  std::vector<float> xv = {1, -2, 3, 0.5f, 10, -0.25f};
  auto out = runText(text, {f32({2, 3}, xv), f32({}, {0.75f})});
  CHECK_EQ(out.size(), size_t(6));
  std::vector<float> a, sel;
  std::vector<uint8_t> p;
  for (float v : xv) {
    a.push_back(1.5f * v - 0.75f);
    p.push_back(0.75f < v);
    sel.push_back(0.75f < v ? 0.75f : 1.5f);
  }
  CHECK(out[0].type.dims == std::vector<int64_t>({2, 3}) && read<float>(out[0]) == a);
  CHECK(out[1].type.dims == std::vector<int64_t>({2, 3}) && read<float>(out[1]) == std::vector<float>(6, 0.75f));
  CHECK(read<float>(out[2]) == sel);
  CHECK(read<uint8_t>(out[3]) == p);
  CHECK(out[4].type.dims == std::vector<int64_t>({2, 3}) && read<float>(out[4]) == std::vector<float>(6, 2.25f));
  CHECK(read<float>(out[5]) == std::vector<float>(2, 0.0f));
}

TEST(results_that_are_arguments_or_constants_are_copied_not_moved) {
  const char* text = R"mlir(
func.func public @main(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %c = "stablehlo.constant"() {value = dense<[1.0, 2.0, 3.0]> : tensor<3xf32>} : () -> tensor<3xf32>
  %y = "stablehlo.add"(%x, %c) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  "func.return"(%x, %c, %y, %y) : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> ()
}
)mlir";
  Module m = parseModule(text);
  Literal x = f32({3}, {10, 20, 30});
  for (int run = 0; run < 2; ++run) {  // the second run sees the constant unharmed
    auto out = interpret(m, *m.find("main"), std::vector<Literal>{x});
    CHECK(read<float>(out[0]) == std::vector<float>({10, 20, 30}));
    CHECK(read<float>(out[1]) == std::vector<float>({1, 2, 3}));
    CHECK(read<float>(out[2]) == std::vector<float>({11, 22, 33}));
    CHECK(read<float>(out[3]) == std::vector<float>({11, 22, 33}));
  }
  CHECK(read<float>(x) == std::vector<float>({10, 20, 30}));
}

TEST(kernels_split_over_a_pool_give_the_single_thread_results) {
  // Row sums of 96 rows × 4096 and tanh over 300,001 elements: big enough to be split into pieces
  // (with an uneven last piece); every value must equal the run without a pool, bit for bit.
  const int64_t rows = 96, cols = 4096, n = 300001;
  std::vector<float> x(size_t(rows * cols));
  for (size_t i = 0; i < x.size(); ++i) x[i] = float(int((i * 37 + 11) % 19) - 9) * 0.25f;
  Literal matrix = f32({rows, cols}, x);
  std::vector<float> t(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) t[size_t(i)] = float(std::sin(double(i)) * 6);
  Literal vec = f32({n}, t);
  const std::string sumText =
      "func.func public @main(%x: tensor<96x4096xf32>, %i: tensor<f32>) -> tensor<96xf32> {\n"
      "  %r = \"stablehlo.reduce\"(%x, %i) ({\n  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
      "    %c = \"stablehlo.add\"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>\n"
      "    \"stablehlo.return\"(%c) : (tensor<f32>) -> ()\n  }) {dimensions = array<i64: 1>} : (tensor<96x4096xf32>, tensor<f32>) -> tensor<96xf32>\n"
      "  \"func.return\"(%r) : (tensor<96xf32>) -> ()\n}\n";
  const std::string tanhText =
      "func.func public @main(%x: tensor<300001xf32>) -> tensor<300001xf32> {\n"
      "  %r = \"stablehlo.tanh\"(%x) : (tensor<300001xf32>) -> tensor<300001xf32>\n"
      "  \"func.return\"(%r) : (tensor<300001xf32>) -> ()\n}\n";
  Literal zero = f32({}, {0});
  Literal sumAlone = runText(sumText, {matrix, zero})[0];
  Literal tanhAlone = runText(tanhText, {vec})[0];
  ThreadPool pool(3);
  ThreadPoolScope scope(&pool);
  checkSameFloats(runText(sumText, {matrix, zero})[0], sumAlone, "row sums on a pool");
  checkSameFloats(runText(tanhText, {vec})[0], tanhAlone, "tanh on a pool");
  std::vector<int64_t> covered(1000, 0);
  parallelRange(1000, 7, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) covered[size_t(i)]++;
  });
  for (int64_t c : covered) CHECK_EQ(c, 1);
}

TEST(a_full_reduction_of_a_long_row_is_split_in_pieces_the_same_way_on_any_pool) {
  // 300,001 elements into one sum (and a max with a non-identity init): pieces of 64K elements, so the
  // result must not depend on the pool, must be close to float64, and init must count exactly once.
  const int64_t n = 300001;
  std::vector<float> t(static_cast<size_t>(n));
  double exact = 0;
  for (int64_t i = 0; i < n; ++i) {
    t[size_t(i)] = float(std::sin(double(i)) * 6);
    exact += double(t[size_t(i)]);
  }
  auto text = [](const char* op) {
    return std::string("func.func public @main(%x: tensor<300001xf32>, %i: tensor<f32>) -> tensor<f32> {\n") +
           "  %r = \"stablehlo.reduce\"(%x, %i) ({\n  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n" + "    %c = \"stablehlo." + op +
           "\"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>\n" +
           "    \"stablehlo.return\"(%c) : (tensor<f32>) -> ()\n  }) {dimensions = array<i64: 0>} : (tensor<300001xf32>, tensor<f32>) -> tensor<f32>\n" +
           "  \"func.return\"(%r) : (tensor<f32>) -> ()\n}\n";
  };
  Literal vec = f32({n}, t), ten = f32({}, {10}), big = f32({}, {100});
  Literal sumAlone = runText(text("add"), {vec, ten})[0];
  Literal maxAlone = runText(text("maximum"), {vec, big})[0];
  CHECK(std::fabs(double(read<float>(sumAlone)[0]) - (exact + 10)) < 1e-2);
  CHECK(read<float>(maxAlone)[0] == 100.0f);
  ThreadPool pool(3);
  ThreadPoolScope scope(&pool);
  checkSameFloats(runText(text("add"), {vec, ten})[0], sumAlone, "full sum on a pool");
  checkSameFloats(runText(text("maximum"), {vec, big})[0], maxAlone, "full max on a pool");
}

namespace {

// The argmax/argmin body the lowering prints (float form with NaN handling, integer form) written as is
// takes kernels/reduce_arg.cc's loop; with one more op at its end it takes the lane-mode path. Values and
// indices must agree, along either dimension, over NaNs, ties and signed zeros.
std::string argModule(const std::string& elem, int64_t dim, const char* direction, bool floating, bool extraOp) {
  const std::string s = "tensor<" + elem + ">", in = "tensor<4x6x" + elem + ">", out = dim == 0 ? "tensor<6x" + elem + ">" : "tensor<4x" + elem + ">";
  const std::string outI = dim == 0 ? "tensor<6xi64>" : "tensor<4xi64>";
  std::string body = argBodyOps(s, "tensor<i64>", direction, "LT", floating);
  std::string ret = "%v";
  if (extraOp) {
    body += "    %v2 = \"stablehlo.select\"(%eq, %v, %v) : (tensor<i1>, " + s + ", " + s + ") -> " + s + "\n";
    ret = "%v2";
  }
  return "func.func public @main(%x: " + in + ", %init: " + s + ") -> (" + out + ", " + outI + ") {\n" +
         "  %idx = \"stablehlo.iota\"() {iota_dimension = " + std::to_string(dim) + " : i64} : () -> tensor<4x6xi64>\n" +
         "  %zero = \"stablehlo.constant\"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>\n" +
         "  %r:2 = \"stablehlo.reduce\"(%x, %idx, %init, %zero) ({\n  ^bb0(%a: " + s + ", %ai: tensor<i64>, %b: " + s + ", %bi: tensor<i64>):\n" +
         body + "    \"stablehlo.return\"(" + ret + ", %i) : (" + s + ", tensor<i64>) -> ()\n  }) {dimensions = array<i64: " + std::to_string(dim) +
         ">} : (" + in + ", tensor<4x6xi64>, " + s + ", tensor<i64>) -> (" + out + ", " + outI + ")\n" +
         "  \"func.return\"(%r#0, %r#1) : (" + out + ", " + outI + ") -> ()\n}\n";
}

}  // namespace

TEST(argmax_argmin_loop_agrees_with_the_lane_mode_body) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  const std::vector<float> xf = {1, 3, 3, -0.0f, 0, 2, nan, 5, nan, 5, -1, -inf, 2, 2, 2, 2, 2, 2, -inf, 4, -2, 0.0f, -0.0f, 4};
  std::vector<int32_t> xi;
  for (float v : xf) xi.push_back(std::isnan(v) ? 7 : std::isinf(v) ? -9 : int32_t(v));
  for (int64_t dim : {0, 1})
    for (const char* direction : {"GT", "LT"}) {
      const float initF = direction[0] == 'G' ? -inf : inf;
      auto fast = runText(argModule("f32", dim, direction, true, false), {f32({4, 6}, xf), f32({}, {initF})});
      auto general = runText(argModule("f32", dim, direction, true, true), {f32({4, 6}, xf), f32({}, {initF})});
      checkSameFloats(fast[0], general[0], std::string("f32 values ") + direction);
      CHECK(read<int64_t>(fast[1]) == read<int64_t>(general[1]));
      const int32_t initI = direction[0] == 'G' ? std::numeric_limits<int32_t>::min() : std::numeric_limits<int32_t>::max();
      auto fastI = runText(argModule("i32", dim, direction, false, false), {make(ElementType::S32, {4, 6}, xi), make(ElementType::S32, {}, std::vector<int32_t>{initI})});
      auto generalI = runText(argModule("i32", dim, direction, false, true), {make(ElementType::S32, {4, 6}, xi), make(ElementType::S32, {}, std::vector<int32_t>{initI})});
      CHECK(read<int32_t>(fastI[0]) == read<int32_t>(generalI[0]));
      CHECK(read<int64_t>(fastI[1]) == read<int64_t>(generalI[1]));
    }
  // argmax along dim 1 of the rows above, as PyTorch gives it: the first maximum, a NaN wins.
  auto rows = runText(argModule("f32", 1, "GT", true, false), {f32({4, 6}, xf), f32({}, {-inf})});
  CHECK(read<int64_t>(rows[1]) == (std::vector<int64_t>{1, 0, 0, 1}));
}

namespace {

}  // namespace

TEST_MAIN()
