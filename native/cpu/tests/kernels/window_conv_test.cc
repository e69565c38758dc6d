// reduce_window, convolution, select_and_scatter, while and case in the CPU plugin: parse, verify and
// run. Expected values are written out by hand or computed here by a direct double-precision
// definition of each op (pad, dilate, slide) that shares no code with the plugin.
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "base/error.h"
#include "check.h"
#include "exec/interpreter.h"
#include "ir/element_type.h"
#include "ir/stablehlo.h"
#include "tests/test_modules.h"

using namespace tpjrt::cpu;
using namespace tpjrt::cpu::test;

namespace {

Literal f64(std::vector<int64_t> dims, const std::vector<double>& v) { return make(ElementType::F64, dims, v); }
Literal i32(std::vector<int64_t> dims, const std::vector<int32_t>& v) { return make(ElementType::S32, dims, v); }

std::vector<Literal> runText(const std::string& text, const std::vector<Literal>& args) {
  Module m = parseModule(text);
  verifyModule(m);
  return interpret(m, *m.find("main"), args);
}

void verifyText(const std::string& text) { verifyModule(parseModule(text)); }

void checkNear(const std::vector<double>& got, const std::vector<double>& want, const char* what) {
  CHECK_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size() && i < want.size(); ++i)
    if (!(std::fabs(got[i] - want[i]) <= 1e-9 * std::max(1.0, std::fabs(want[i])))) {
      ::tpjrt::test::report(__FILE__, __LINE__,
                            std::string(what) + "[" + std::to_string(i) + "]: got " + std::to_string(got[i]) + ", want " +
                                std::to_string(want[i]));
      return;
    }
}

std::vector<double> ramp(size_t n, double scale = 1, double offset = 0) {
  std::vector<double> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = std::sin(double(i) * 1.7 + offset) * scale;
  return v;
}

void replaceAll(std::string& s, const std::string& key, const std::string& value) {
  for (size_t at; (at = s.find(key)) != std::string::npos;) s.replace(at, key.size(), value);
}

// --- reduce_window --------------------------------------------------------------------------------

std::string reduceWindowModule(const std::string& combiner, const std::string& in, const std::string& scalar,
                               const std::string& out, const std::string& attrs) {
  std::string s = R"(func.func public @main(%x: IN, %init: S) -> OUT {
  %r = "stablehlo.reduce_window"(%x, %init) ({
  ^bb0(%a: S, %b: S):
    %c = "stablehlo.COMB"(%a, %b) : (S, S) -> S
    "stablehlo.return"(%c) : (S) -> ()
  }) {ATTRS} : (IN, S) -> OUT
  "func.return"(%r) : (OUT) -> ()
})";
  replaceAll(s, "IN", in);
  replaceAll(s, "OUT", out);
  replaceAll(s, "COMB", combiner);
  replaceAll(s, "ATTRS", attrs);
  replaceAll(s, "S", scalar);
  return s;
}

// Definition of a 2-d reduce_window: dilate the base by inserting holes, pad (holes and pads hold
// init), then slide a dilated window with strides.
std::vector<double> refReduceWindow2d(const std::vector<double>& x, int64_t h, int64_t w, double init,
                                      const std::function<double(double, double)>& f, const int64_t win[2],
                                      const int64_t stride[2], const int64_t base[2], const int64_t wdil[2],
                                      const int64_t lo[2], const int64_t hi[2], int64_t& oh, int64_t& ow) {
  int64_t dh = (h - 1) * base[0] + 1 + lo[0] + hi[0], dw = (w - 1) * base[1] + 1 + lo[1] + hi[1];
  std::vector<double> padded(size_t(dh * dw), init);
  for (int64_t i = 0; i < h; ++i)
    for (int64_t j = 0; j < w; ++j) padded[size_t((lo[0] + i * base[0]) * dw + lo[1] + j * base[1])] = x[size_t(i * w + j)];
  oh = (dh - ((win[0] - 1) * wdil[0] + 1)) / stride[0] + 1;
  ow = (dw - ((win[1] - 1) * wdil[1] + 1)) / stride[1] + 1;
  std::vector<double> out;
  for (int64_t a = 0; a < oh; ++a)
    for (int64_t b = 0; b < ow; ++b) {
      double acc = init;
      for (int64_t p = 0; p < win[0]; ++p)
        for (int64_t q = 0; q < win[1]; ++q) acc = f(acc, padded[size_t((a * stride[0] + p * wdil[0]) * dw + b * stride[1] + q * wdil[1])]);
      out.push_back(acc);
    }
  return out;
}

}  // namespace

TEST(reduce_window_1d_sum_with_padding_and_stride) {
  // [0 | 1 2 3 4 5 | 0], windows of 3 every 2: 0+1+2, 2+3+4, 4+5+0.
  auto r = runText(reduceWindowModule("add", "tensor<5xf64>", "tensor<f64>", "tensor<3xf64>",
                                      "window_dimensions = array<i64: 3>, window_strides = array<i64: 2>, "
                                      "padding = dense<[[1, 1]]> : tensor<1x2xi64>"),
                   {f64({5}, {1, 2, 3, 4, 5}), f64({}, {0})});
  checkNear(read<double>(r[0]), {3, 9, 9}, "sum");
}

TEST(reduce_window_2d_max_with_dilations_matches_definition) {
  const int64_t h = 5, w = 6;
  auto x = ramp(size_t(h * w), 10);
  const int64_t win[2] = {2, 3}, stride[2] = {2, 1}, base[2] = {2, 1}, wdil[2] = {1, 2}, lo[2] = {1, 0}, hi[2] = {0, 2};
  int64_t oh, ow;
  auto want = refReduceWindow2d(x, h, w, -INFINITY, [](double a, double b) { return std::max(a, b); }, win, stride, base,
                                wdil, lo, hi, oh, ow);
  std::string out = "tensor<" + std::to_string(oh) + "x" + std::to_string(ow) + "xf64>";
  auto r = runText(reduceWindowModule("maximum", "tensor<5x6xf64>", "tensor<f64>", out,
                                      "window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 1>, "
                                      "base_dilations = array<i64: 2, 1>, window_dilations = array<i64: 1, 2>, "
                                      "padding = dense<[[1, 0], [0, 2]]> : tensor<2x2xi64>"),
                   {f64({h, w}, x), f64({}, {-INFINITY})});
  CHECK(r[0].type.dims == (std::vector<int64_t>{oh, ow}));
  checkNear(read<double>(r[0]), want, "max");
  // The same window summing i32 (holes and padding add the init value 100).
  std::vector<int32_t> xi(size_t(h * w));
  std::vector<double> xd(xi.size());
  for (size_t i = 0; i < xi.size(); ++i) xd[i] = xi[i] = int32_t(i * 7 % 11) - 5;
  auto wantSum = refReduceWindow2d(xd, h, w, 100, [](double a, double b) { return a + b; }, win,
                                   stride, base, wdil, lo, hi, oh, ow);
  std::string outI = "tensor<" + std::to_string(oh) + "x" + std::to_string(ow) + "xi32>";
  auto ri = runText(reduceWindowModule("add", "tensor<5x6xi32>", "tensor<i32>", outI,
                                       "window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 1>, "
                                       "base_dilations = array<i64: 2, 1>, window_dilations = array<i64: 1, 2>, "
                                       "padding = dense<[[1, 0], [0, 2]]> : tensor<2x2xi64>"),
                    {i32({h, w}, xi), i32({}, {100})});
  auto got = read<int32_t>(ri[0]);
  checkNear(std::vector<double>(got.begin(), got.end()), wantSum, "i32 sum with init in holes");
}

TEST(reduce_window_prefix_windows_run_as_scans_with_the_window_results) {
  // Prefix windows (cumsum's shape) along either dimension of a 4 × 6 input: with init 0 they run as a
  // scan, whose float32 results must be the left folds bit for bit; with init 100 (100 + 100 is not
  // 100) they take the window path, where every padded position adds the init again.
  const int64_t h = 4, w = 6;
  std::vector<float> x(size_t(h * w));
  for (size_t i = 0; i < x.size(); ++i) x[i] = 0.1f * float(i * 7 % 13) - 0.35f;
  for (int along = 0; along < 2; ++along) {
    const int64_t len = along == 0 ? h : w;
    const std::string pad = along == 0 ? "[[" + std::to_string(h - 1) + ", 0], [0, 0]]" : "[[0, 0], [" + std::to_string(w - 1) + ", 0]]";
    const std::string window = along == 0 ? "4, 1" : "1, 6";
    const std::string attrs = "window_dimensions = array<i64: " + window + ">, padding = dense<" + pad + "> : tensor<2x2xi64>";
    auto r = runText(reduceWindowModule("add", "tensor<4x6xf32>", "tensor<f32>", "tensor<4x6xf32>", attrs), {f32({h, w}, x), f32({}, {0})});
    std::vector<float> want(x.size());
    for (int64_t i = 0; i < h; ++i)
      for (int64_t j = 0; j < w; ++j) {
        const int64_t k = along == 0 ? i : j;
        float acc = 0;
        for (int64_t t = 0; t <= k; ++t) acc += x[size_t(along == 0 ? t * w + j : i * w + t)];
        want[size_t(i * w + j)] = acc;
      }
    CHECK(read<float>(r[0]) == want);
    auto r100 = runText(reduceWindowModule("add", "tensor<4x6xf32>", "tensor<f32>", "tensor<4x6xf32>", attrs), {f32({h, w}, x), f32({}, {100})});
    auto got = read<float>(r100[0]);
    for (int64_t i = 0; i < h; ++i)
      for (int64_t j = 0; j < w; ++j) {
        const int64_t k = along == 0 ? i : j;
        CHECK(std::fabs(got[size_t(i * w + j)] - (want[size_t(i * w + j)] + 100.0f * float(len - k))) < 1e-3f);
      }
  }
}

TEST(reduce_window_two_operands_cumulative_argmax) {
  // Running maximum with its last index along a row of 5: window 5, padding 4 on the left.
  const char* text = R"(func.func public @main(%v: tensor<5xf32>, %i: tensor<5xi32>) -> (tensor<5xf32>, tensor<5xi32>) {
  %ninf = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
  %zero = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %r:2 = "stablehlo.reduce_window"(%v, %i, %ninf, %zero) ({
  ^bb0(%av: tensor<f32>, %ai: tensor<i32>, %bv: tensor<f32>, %bi: tensor<i32>):
    %gt = "stablehlo.compare"(%av, %bv) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %eq = "stablehlo.compare"(%av, %bv) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %later = "stablehlo.compare"(%ai, %bi) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %tie = "stablehlo.and"(%eq, %later) : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %pick = "stablehlo.or"(%gt, %tie) : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %mv = "stablehlo.select"(%pick, %av, %bv) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %mi = "stablehlo.select"(%pick, %ai, %bi) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%mv, %mi) : (tensor<f32>, tensor<i32>) -> ()
  }) {window_dimensions = array<i64: 5>, padding = dense<[[4, 0]]> : tensor<1x2xi64>} : (tensor<5xf32>, tensor<5xi32>, tensor<f32>, tensor<i32>) -> (tensor<5xf32>, tensor<5xi32>)
  "func.return"(%r#0, %r#1) : (tensor<5xf32>, tensor<5xi32>) -> ()
})";
  auto r = runText(text, {f32({5}, {1, 3, 2, 3, 0}), i32({5}, {0, 1, 2, 3, 4})});
  CHECK_EQ(r.size(), size_t(2));
  auto v = read<float>(r[0]);
  CHECK(v == (std::vector<float>{1, 3, 3, 3, 3}));
  CHECK(read<int32_t>(r[1]) == (std::vector<int32_t>{0, 1, 1, 3, 3}));
}

TEST(reduce_window_bad_modules_fail_verification) {
  CHECK_THROWS(verifyText(reduceWindowModule("add", "tensor<5xf32>", "tensor<f32>", "tensor<4xf32>",
                                             "window_dimensions = array<i64: 3>")),
               "result type tensor<4xf32> should be tensor<3xf32>");
  CHECK_THROWS(verifyText(reduceWindowModule("add", "tensor<5xf32>", "tensor<f32>", "tensor<3xf32>",
                                             "window_dimensions = array<i64: 3, 1>")),
               "window_dimensions [3, 1] needs 1 entries");
  CHECK_THROWS(verifyText(reduceWindowModule("add", "tensor<5xf32>", "tensor<f32>", "tensor<3xf32>",
                                             "window_dimensions = array<i64: 3>, window_strides = array<i64: 0>")),
               "window_strides [0] must be at least 1");
  CHECK_THROWS(verifyText(reduceWindowModule("add", "tensor<5xf32>", "tensor<f32>", "tensor<3xf32>",
                                             "window_dimensions = array<i64: 3>, padding = dense<[1, 1]> : tensor<2xi64>")),
               "padding must be dense");
  CHECK_THROWS(verifyText(reduceWindowModule("add", "tensor<5xf32>", "tensor<f32>", "tensor<3xf32>", "")),
               "missing attribute window_dimensions");
}

// --- convolution ----------------------------------------------------------------------------------

namespace {

struct ConvCase {
  int64_t n, c, o, groups, size[2], kernel[2], stride[2], lhsDil[2], rhsDil[2], lo[2], hi[2];
  bool reverse[2];
};

int64_t convOut(const ConvCase& k, int d) {
  int64_t padded = (k.size[d] - 1) * k.lhsDil[d] + 1 + k.lo[d] + k.hi[d];
  return (padded - ((k.kernel[d] - 1) * k.rhsDil[d] + 1)) / k.stride[d] + 1;
}

// Definition: x is [n, h, w, c] (NHWC), w is [kh, kw, c/groups, o] (HWIO), result [n, oh, ow, o].
std::vector<double> refConv(const ConvCase& k, const std::vector<double>& x, const std::vector<double>& w) {
  const int64_t oh = convOut(k, 0), ow = convOut(k, 1), cg = k.c / k.groups, og = k.o / k.groups;
  std::vector<double> out;
  for (int64_t b = 0; b < k.n; ++b)
    for (int64_t i = 0; i < oh; ++i)
      for (int64_t j = 0; j < ow; ++j)
        for (int64_t o = 0; o < k.o; ++o) {
          double acc = 0;
          for (int64_t p = 0; p < k.kernel[0]; ++p)
            for (int64_t q = 0; q < k.kernel[1]; ++q) {
              int64_t y = i * k.stride[0] + p * k.rhsDil[0] - k.lo[0], z = j * k.stride[1] + q * k.rhsDil[1] - k.lo[1];
              if (y < 0 || z < 0 || y % k.lhsDil[0] || z % k.lhsDil[1]) continue;
              y /= k.lhsDil[0];
              z /= k.lhsDil[1];
              if (y >= k.size[0] || z >= k.size[1]) continue;
              int64_t kp = k.reverse[0] ? k.kernel[0] - 1 - p : p, kq = k.reverse[1] ? k.kernel[1] - 1 - q : q;
              for (int64_t ci = 0; ci < cg; ++ci)
                acc += x[size_t(((b * k.size[0] + y) * k.size[1] + z) * k.c + (o / og) * cg + ci)] *
                       w[size_t(((kp * k.kernel[1] + kq) * cg + ci) * k.o + o)];
            }
          out.push_back(acc);
        }
  return out;
}

std::string dims(std::initializer_list<int64_t> d, const char* e = "f64") {
  std::string s = "tensor<";
  for (int64_t x : d) s += std::to_string(x) + "x";
  return s + e + ">";
}

std::string convModule(const std::string& lhs, const std::string& rhs, const std::string& out, const std::string& attrs) {
  return "func.func public @main(%x: " + lhs + ", %w: " + rhs + ") -> " + out + " {\n  %r = \"stablehlo.convolution\"(%x, %w) {" +
         attrs + "} : (" + lhs + ", " + rhs + ") -> " + out + "\n  \"func.return\"(%r) : (" + out + ") -> ()\n}\n";
}

std::string convAttrs(const ConvCase& k, const std::string& layout) {
  auto pair = [](const int64_t* v) { return std::to_string(v[0]) + ", " + std::to_string(v[1]); };
  return "dimension_numbers = " + layout + ", window_strides = array<i64: " + pair(k.stride) +
         ">, padding = dense<[[" + std::to_string(k.lo[0]) + ", " + std::to_string(k.hi[0]) + "], [" + std::to_string(k.lo[1]) +
         ", " + std::to_string(k.hi[1]) + "]]> : tensor<2x2xi64>, lhs_dilation = array<i64: " + pair(k.lhsDil) +
         ">, rhs_dilation = array<i64: " + pair(k.rhsDil) + ">, window_reversal = array<i1: " +
         (k.reverse[0] ? "true" : "false") + ", " + (k.reverse[1] ? "true" : "false") +
         ">, feature_group_count = " + std::to_string(k.groups) + " : i64, batch_group_count = 1 : i64";
}

void runConvCase(const ConvCase& k, const char* what) {
  auto x = ramp(size_t(k.n * k.size[0] * k.size[1] * k.c));
  auto w = ramp(size_t(k.kernel[0] * k.kernel[1] * (k.c / k.groups) * k.o), 1, 0.5);
  auto want = refConv(k, x, w);
  std::string out = dims({k.n, convOut(k, 0), convOut(k, 1), k.o});
  auto r = runText(convModule(dims({k.n, k.size[0], k.size[1], k.c}), dims({k.kernel[0], k.kernel[1], k.c / k.groups, k.o}), out,
                              convAttrs(k, "#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>")),
                   {f64({k.n, k.size[0], k.size[1], k.c}, x), f64({k.kernel[0], k.kernel[1], k.c / k.groups, k.o}, w)});
  checkNear(read<double>(r[0]), want, what);
}

}  // namespace

TEST(convolution_2d_matches_definition) {
  runConvCase({2, 3, 4, 1, {5, 6}, {3, 2}, {1, 1}, {1, 1}, {1, 1}, {0, 0}, {0, 0}, {false, false}}, "plain");
  runConvCase({1, 2, 3, 1, {7, 6}, {3, 3}, {2, 3}, {1, 1}, {1, 1}, {1, 2}, {1, 0}, {false, false}}, "stride and padding");
  runConvCase({1, 2, 2, 1, {6, 7}, {2, 3}, {1, 1}, {1, 1}, {2, 2}, {1, 1}, {1, 1}, {false, false}}, "rhs dilation");
  runConvCase({1, 4, 6, 2, {4, 5}, {2, 2}, {1, 1}, {1, 1}, {1, 1}, {0, 1}, {1, 0}, {false, false}}, "feature groups");
  runConvCase({2, 4, 4, 4, {4, 4}, {3, 3}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {false, false}}, "depthwise");
  runConvCase({1, 2, 3, 1, {3, 4}, {3, 2}, {1, 2}, {2, 3}, {1, 1}, {2, 1}, {2, 1}, {true, false}}, "lhs dilation and reversal");
  runConvCase({1, 1, 1, 1, {3, 3}, {2, 2}, {1, 1}, {1, 1}, {1, 1}, {-1, 0}, {0, -1}, {false, false}}, "negative padding");
}

TEST(convolution_1d_channels_first_and_raw_dimension_numbers) {
  // x [n=1, c=2, w=5] (NCW), w [o=2, i=2, k=3] (OIW), stride 2, padding 1: out[o, j] = Σ x[c, 2j+t-1]·w[o, c, t].
  std::vector<double> x = {1, 2, 3, 4, 5, -1, 0, 1, 0, -1};
  std::vector<double> w = {1, 0, -1, 2, 1, 0, 0.5, 0.5, 0.5, 1, 1, 1};
  std::vector<double> want;
  for (int o = 0; o < 2; ++o)
    for (int j = 0; j < 3; ++j) {
      double acc = 0;
      for (int c = 0; c < 2; ++c)
        for (int t = 0; t < 3; ++t) {
          int p = 2 * j + t - 1;
          if (p >= 0 && p < 5) acc += x[size_t(c * 5 + p)] * w[size_t((o * 2 + c) * 3 + t)];
        }
      want.push_back(acc);
    }
  const std::string attrs = ", window_strides = array<i64: 2>, padding = dense<[[1, 1]]> : tensor<1x2xi64>";
  auto r = runText(convModule(dims({1, 2, 5}), dims({2, 2, 3}), dims({1, 2, 3}),
                              "dimension_numbers = #stablehlo.conv<[b, f, 0]x[o, i, 0]->[b, f, 0]>" + attrs),
                   {f64({1, 2, 5}, x), f64({2, 2, 3}, w)});
  checkNear(read<double>(r[0]), want, "conv1d NCW");
  auto raw = runText(convModule(dims({1, 2, 5}), dims({2, 2, 3}), dims({1, 2, 3}),
                                "dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 1, "
                                "input_spatial_dimensions = [2], kernel_input_feature_dimension = 1, "
                                "kernel_output_feature_dimension = 0, kernel_spatial_dimensions = [2], output_batch_dimension = 0, "
                                "output_feature_dimension = 1, output_spatial_dimensions = [2]>" + attrs),
                     {f64({1, 2, 5}, x), f64({2, 2, 3}, w)});
  checkNear(read<double>(raw[0]), want, "conv1d raw dimension numbers");
  // i32 wraps like XLA: a single product of 2^16·2^16 overflows to 0.
  auto wrap = runText(convModule(dims({1, 1, 1}, "i32"), dims({1, 1, 1}, "i32"), dims({1, 1, 1}, "i32"),
                                 "dimension_numbers = #stablehlo.conv<[b, f, 0]x[o, i, 0]->[b, f, 0]>"),
                      {i32({1, 1, 1}, {65536}), i32({1, 1, 1}, {65537})});
  CHECK(read<int32_t>(wrap[0]) == std::vector<int32_t>{65536});
}

TEST(convolution_half_types_accumulate_in_float_and_i1_is_or_of_and) {
  // 256 + 1 + 1 in bf16: rounding after every step would give 256; accumulating in float gives 258.
  const std::string layout = "dimension_numbers = #stablehlo.conv<[b, f, 0]x[o, i, 0]->[b, f, 0]>";
  std::vector<uint16_t> x = {floatToBf16(256), floatToBf16(1), floatToBf16(1)}, w(3, floatToBf16(1));
  auto r = runText(convModule(dims({1, 1, 3}, "bf16"), dims({1, 1, 3}, "bf16"), dims({1, 1, 1}, "bf16"), layout),
                   {make(ElementType::BF16, {1, 1, 3}, x), make(ElementType::BF16, {1, 1, 3}, w)});
  CHECK_EQ(bf16ToFloat(read<uint16_t>(r[0])[0]), 258.0f);
  std::vector<uint16_t> hx = {floatToHalf(2048), floatToHalf(1), floatToHalf(1)}, hw(3, floatToHalf(1));
  auto h = runText(convModule(dims({1, 1, 3}, "f16"), dims({1, 1, 3}, "f16"), dims({1, 1, 1}, "f16"), layout),
                   {make(ElementType::F16, {1, 1, 3}, hx), make(ElementType::F16, {1, 1, 3}, hw)});
  CHECK_EQ(halfToFloat(read<uint16_t>(h[0])[0]), 2050.0f);
  // i1: out[j] = OR_t (x[j + t] AND w[t]).
  auto p = runText(convModule(dims({1, 1, 4}, "i1"), dims({1, 1, 2}, "i1"), dims({1, 1, 3}, "i1"), layout),
                   {make<uint8_t>(ElementType::Pred, {1, 1, 4}, {0, 1, 0, 0}), make<uint8_t>(ElementType::Pred, {1, 1, 2}, {0, 1})});
  CHECK(read<uint8_t>(p[0]) == (std::vector<uint8_t>{1, 0, 0}));
}

TEST(convolution_batch_groups) {
  // batch_group_count 2 (the weight gradient form): lhs batch 2 splits over output features 2.
  // x [b=2, w=3, f=1], w [k=2, i=1, o=2]: out[0, j, o] = Σ_t x[o, j+t]·w[t, o].
  std::vector<double> x = {1, 2, 3, 10, 20, 30};
  std::vector<double> w = {1, 2, 3, 4};
  auto r = runText(convModule(dims({2, 3, 1}), dims({2, 1, 2}), dims({1, 2, 2}),
                              "dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, batch_group_count = 2 : i64"),
                   {f64({2, 3, 1}, x), f64({2, 1, 2}, w)});
  // o=0 uses batch 0 with w[:,0] = (1, 3); o=1 uses batch 1 with w[:,1] = (2, 4).
  checkNear(read<double>(r[0]), {1 * 1 + 2 * 3, 10 * 2 + 20 * 4, 2 * 1 + 3 * 3, 20 * 2 + 30 * 4}, "batch groups");
}

TEST(convolution_bad_modules_fail_verification) {
  const std::string layout = "dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>";
  CHECK_THROWS(verifyText(convModule(dims({1, 5, 3}), dims({2, 2, 4}), dims({1, 4, 4}), layout)),
               "kernel input features 2 times feature_group_count 1 must equal the input features 3");
  CHECK_THROWS(verifyText(convModule(dims({1, 5, 3}), dims({2, 3, 4}), dims({1, 5, 4}), layout)),
               "result type tensor<1x5x4xf64> should be tensor<1x4x4xf64>");
  CHECK_THROWS(verifyText(convModule(dims({1, 5, 3}), dims({2, 3, 4}), dims({1, 4, 4}),
                                     "dimension_numbers = #stablehlo.conv<[b, 0, 0]x[0, i, o]->[b, 0, f]>")),
               "bad spatial index");
  CHECK_THROWS(verifyText(convModule(dims({1, 5, 3}), dims({2, 3, 4}), dims({1, 4, 4}), "")),
               "missing attribute dimension_numbers");
  CHECK_THROWS(verifyText(convModule(dims({1, 5, 4}), dims({2, 2, 4}), dims({1, 4, 4}), layout + ", feature_group_count = 3 : i64")),
               "not divisible by feature_group_count 3");
}

// --- select_and_scatter ---------------------------------------------------------------------------

namespace {
std::string selectAndScatterModule(const std::string& x, const std::string& src, const std::string& attrs) {
  std::string s = R"(func.func public @main(%x: X, %s: SRC) -> X {
  %zero = "stablehlo.constant"() {value = dense<0.0> : tensor<f64>} : () -> tensor<f64>
  %r = "stablehlo.select_and_scatter"(%x, %s, %zero) ({
  ^bb0(%a: tensor<f64>, %b: tensor<f64>):
    %ge = "stablehlo.compare"(%a, %b) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<f64>, tensor<f64>) -> tensor<i1>
    "stablehlo.return"(%ge) : (tensor<i1>) -> ()
  }, {
  ^bb0(%a: tensor<f64>, %b: tensor<f64>):
    %sum = "stablehlo.add"(%a, %b) : (tensor<f64>, tensor<f64>) -> tensor<f64>
    "stablehlo.return"(%sum) : (tensor<f64>) -> ()
  }) {ATTRS} : (X, SRC, tensor<f64>) -> X
  "func.return"(%r) : (X) -> ()
})";
  replaceAll(s, "SRC", src);
  replaceAll(s, "X", x);
  replaceAll(s, "ATTRS", attrs);
  return s;
}
}  // namespace

TEST(select_and_scatter_max_pool_gradient) {
  // 2x2 windows, stride 2 over 4x4: each gradient lands on its window's (first) maximum.
  std::vector<double> x = {1, 5, 2, 2, 3, 4, 2, 1, 0, 0, 9, 8, 0, 7, 8, 9};
  auto r = runText(selectAndScatterModule("tensor<4x4xf64>", "tensor<2x2xf64>",
                                          "window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>"),
                   {f64({4, 4}, x), f64({2, 2}, {10, 20, 30, 40})});
  checkNear(read<double>(r[0]), {0, 10, 20, 0, 0, 0, 0, 0, 0, 0, 40, 0, 0, 30, 0, 0}, "max pool grad");
  // Overlapping windows of 3 with padding 1 over 1-d: gradients of windows sharing a maximum add up.
  auto o = runText(selectAndScatterModule("tensor<5xf64>", "tensor<5xf64>",
                                          "window_dimensions = array<i64: 3>, padding = dense<[[1, 1]]> : tensor<1x2xi64>"),
                   {f64({5}, {-1, -3, 2, -5, -4}), f64({5}, {1, 2, 4, 8, 16})});
  // windows: [pad,-1,-3] -> 0; [-1,-3,2] -> 2; [-3,2,-5] -> 2; [2,-5,-4] -> 2; [-5,-4,pad] -> 4 (padding never wins).
  checkNear(read<double>(o[0]), {1, 0, 2 + 4 + 8, 0, 16}, "overlapping windows");
  CHECK_THROWS(verifyText(selectAndScatterModule("tensor<4x4xf64>", "tensor<3x3xf64>",
                                                 "window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>")),
               "source type tensor<3x3xf64> should be tensor<2x2xf64>");
}

// --- while and case -------------------------------------------------------------------------------

TEST(while_loop_sums_with_an_outer_value) {
  // s = Σ_{i < n} (i · step), with step captured from outside the loop.
  const char* text = R"(func.func public @main(%n: tensor<i64>, %step: tensor<i64>) -> (tensor<i64>, tensor<i64>) {
  %zero = "stablehlo.constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %r:2 = "stablehlo.while"(%zero, %zero) ({
  ^bb0(%i: tensor<i64>, %s: tensor<i64>):
    %lt = "stablehlo.compare"(%i, %n) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<i64>, tensor<i64>) -> tensor<i1>
    "stablehlo.return"(%lt) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i64>, %s: tensor<i64>):
    %one = "stablehlo.constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
    %t = "stablehlo.multiply"(%i, %step) : (tensor<i64>, tensor<i64>) -> tensor<i64>
    %s2 = "stablehlo.add"(%s, %t) : (tensor<i64>, tensor<i64>) -> tensor<i64>
    %i2 = "stablehlo.add"(%i, %one) : (tensor<i64>, tensor<i64>) -> tensor<i64>
    "stablehlo.return"(%i2, %s2) : (tensor<i64>, tensor<i64>) -> ()
  }) : (tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>)
  "func.return"(%r#0, %r#1) : (tensor<i64>, tensor<i64>) -> ()
})";
  auto r = runText(text, {make<int64_t>(ElementType::S64, {}, {10}), make<int64_t>(ElementType::S64, {}, {3})});
  CHECK(read<int64_t>(r[0]) == std::vector<int64_t>{10});
  CHECK(read<int64_t>(r[1]) == std::vector<int64_t>{3 * 45});
  auto none = runText(text, {make<int64_t>(ElementType::S64, {}, {0}), make<int64_t>(ElementType::S64, {}, {3})});
  CHECK(read<int64_t>(none[1]) == std::vector<int64_t>{0});
  std::string bad = text;
  replaceAll(bad, "\"stablehlo.return\"(%i2, %s2) : (tensor<i64>, tensor<i64>)", "\"stablehlo.return\"(%i2) : (tensor<i64>)");
  CHECK_THROWS(verifyText(bad), "returns (tensor<i64>) but the while body needs (tensor<i64>, tensor<i64>)");
}

TEST(case_with_three_branches) {
  const char* text = R"(func.func public @main(%k: tensor<i32>, %x: tensor<2xf64>) -> tensor<2xf64> {
  %r = "stablehlo.case"(%k) ({
    %a = "stablehlo.negate"(%x) : (tensor<2xf64>) -> tensor<2xf64>
    "stablehlo.return"(%a) : (tensor<2xf64>) -> ()
  }, {
    %b = "stablehlo.add"(%x, %x) : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
    "stablehlo.return"(%b) : (tensor<2xf64>) -> ()
  }, {
    %c = "stablehlo.multiply"(%x, %x) : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
    "stablehlo.return"(%c) : (tensor<2xf64>) -> ()
  }) : (tensor<i32>) -> tensor<2xf64>
  "func.return"(%r) : (tensor<2xf64>) -> ()
})";
  auto x = f64({2}, {3, -2});
  checkNear(read<double>(runText(text, {i32({}, {0}), x})[0]), {-3, 2}, "branch 0");
  checkNear(read<double>(runText(text, {i32({}, {1}), x})[0]), {6, -4}, "branch 1");
  checkNear(read<double>(runText(text, {i32({}, {2}), x})[0]), {9, 4}, "branch 2");
  checkNear(read<double>(runText(text, {i32({}, {7}), x})[0]), {9, 4}, "out of range runs the last branch");
  checkNear(read<double>(runText(text, {i32({}, {-1}), x})[0]), {9, 4}, "negative runs the last branch");
  std::string bad = text;
  replaceAll(bad, "%k: tensor<i32>", "%k: tensor<f32>");
  replaceAll(bad, ": (tensor<i32>) -> tensor<2xf64>", ": (tensor<f32>) -> tensor<2xf64>");
  CHECK_THROWS(verifyText(bad), "expects one index operand of type tensor<i32>");
}

// --- pretty forms --------------------------------------------------------------------------------

TEST(pretty_convolution_and_while_parse_like_the_generic_form) {
  // The convolution of convolution_1d_channels_first (stride 2, padding 1), as MLIR prints it pretty.
  const char* conv = R"(func.func public @main(%x: tensor<1x2x5xf64>, %w: tensor<2x2x3xf64>) -> tensor<1x2x3xf64> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [2], pad = [[1, 1]], lhs_dilate = [1], rhs_dilate = [1], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x2x5xf64>, tensor<2x2x3xf64>) -> tensor<1x2x3xf64>
  return %r : tensor<1x2x3xf64>
})";
  std::vector<double> x = {1, 2, 3, 4, 5, -1, 0, 1, 0, -1};
  std::vector<double> w = {1, 0, -1, 2, 1, 0, 0.5, 0.5, 0.5, 1, 1, 1};
  auto generic = runText(convModule(dims({1, 2, 5}), dims({2, 2, 3}), dims({1, 2, 3}),
                                    "dimension_numbers = #stablehlo.conv<[b, f, 0]x[o, i, 0]->[b, f, 0]>, window_strides = "
                                    "array<i64: 2>, padding = dense<[[1, 1]]> : tensor<1x2xi64>"),
                         {f64({1, 2, 5}, x), f64({2, 2, 3}, w)});
  auto pretty = runText(conv, {f64({1, 2, 5}, x), f64({2, 2, 3}, w)});
  checkNear(read<double>(pretty[0]), read<double>(generic[0]), "pretty convolution");
  const char* loop = R"(func.func public @main(%n: tensor<i64>) -> tensor<i64> {
  %zero = stablehlo.constant dense<0> : tensor<i64>
  %one = stablehlo.constant dense<1> : tensor<i64>
  %r:2 = stablehlo.while(%i = %zero, %s = %zero) : tensor<i64>, tensor<i64>
  cond {
    %lt = stablehlo.compare LT, %i, %n : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %s2 = stablehlo.add %s, %i : tensor<i64>
    %i2 = stablehlo.add %i, %one : tensor<i64>
    stablehlo.return %i2, %s2 : tensor<i64>, tensor<i64>
  }
  return %r#1 : tensor<i64>
})";
  auto sum = runText(loop, {make<int64_t>(ElementType::S64, {}, {5})});
  CHECK(read<int64_t>(sum[0]) == std::vector<int64_t>{0 + 1 + 2 + 3 + 4});
}

namespace {
// jax 0.10's pretty text for lax.while_loop, lax.switch, lax.reduce_window and lax.conv_general_dilated
// (jax.jit(f).lower(jnp.int32(3), jnp.arange(6.0)).as_text()).
const char* kJaxWindowProgram = R"mlir(module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<i32>, %arg1: tensor<6xf32>) -> (tensor<6xf32> {jax.result_info = "result[0]"}, tensor<1x6xf32> {jax.result_info = "result[1]"}, tensor<1x2x6xf32> {jax.result_info = "result[2]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1:4 = stablehlo.while(%iterArg = %arg0, %iterArg_6 = %arg1, %iterArg_7 = %c, %iterArg_8 = %0) : tensor<i32>, tensor<6xf32>, tensor<i32>, tensor<6xf32>
    cond {
      %11 = stablehlo.compare LT, %iterArg_7, %iterArg, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %11 : tensor<i1>
    } do {
      %c_9 = stablehlo.constant dense<1> : tensor<i32>
      %11 = stablehlo.add %iterArg_7, %c_9 : tensor<i32>
      %12 = stablehlo.convert %iterArg_7 : (tensor<i32>) -> tensor<f32>
      %13 = stablehlo.broadcast_in_dim %12, dims = [] : (tensor<f32>) -> tensor<6xf32>
      %14 = stablehlo.multiply %iterArg_6, %13 : tensor<6xf32>
      %15 = stablehlo.add %iterArg_8, %14 : tensor<6xf32>
      stablehlo.return %iterArg, %iterArg_6, %11, %15 : tensor<i32>, tensor<6xf32>, tensor<i32>, tensor<6xf32>
    }
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<2> : tensor<i32>
    %2 = call @clip(%arg0, %c_0, %c_1) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %c_3 = stablehlo.constant dense<2> : tensor<i32>
    %3 = stablehlo.clamp %c_2, %2, %c_3 : tensor<i32>
    %4 = "stablehlo.case"(%3) ({
      %cst_6 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
      %11 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<6xf32>
      %12 = stablehlo.multiply %1#3, %11 : tensor<6xf32>
      stablehlo.return %12 : tensor<6xf32>
    }, {
      %11 = stablehlo.negate %1#3 : tensor<6xf32>
      stablehlo.return %11 : tensor<6xf32>
    }, {
      %cst_6 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %11 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<6xf32>
      %12 = stablehlo.add %1#3, %11 : tensor<6xf32>
      stablehlo.return %12 : tensor<6xf32>
    }) : (tensor<i32>) -> tensor<6xf32>
    %5 = stablehlo.reshape %arg1 : (tensor<6xf32>) -> tensor<1x6xf32>
    %cst_4 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<f32>
    %7 = "stablehlo.reduce_window"(%5, %6) <{base_dilations = array<i64: 1, 1>, padding = dense<[[0, 0], [0, 1]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 1, 2>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %11 = stablehlo.maximum %arg2, %arg3 : tensor<f32>
      stablehlo.return %11 : tensor<f32>
    }) : (tensor<1x6xf32>, tensor<f32>) -> tensor<1x6xf32>
    %8 = stablehlo.reshape %arg1 : (tensor<6xf32>) -> tensor<1x1x6xf32>
    %cst_5 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x1x3xf32>
    %10 = stablehlo.convolution(%8, %9) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [1], pad = [[1, 1]], lhs_dilate = [1], rhs_dilate = [1], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x1x6xf32>, tensor<2x1x3xf32>) -> tensor<1x2x6xf32>
    return %4, %7, %10 : tensor<6xf32>, tensor<1x6xf32>, tensor<1x2x6xf32>
  }
  func.func private @clip(%arg0: tensor<i32>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.convert %arg1 : tensor<i32>
    %1 = stablehlo.maximum %0, %arg0 : tensor<i32>
    %2 = stablehlo.convert %arg2 : tensor<i32>
    %3 = stablehlo.minimum %2, %1 : tensor<i32>
    return %3 : tensor<i32>
  }
})mlir";
}  // namespace

TEST(jax_program_with_while_case_reduce_window_and_convolution) {
  auto r = runText(kJaxWindowProgram, {i32({}, {3}), f32({6}, {0, 1, 2, 3, 4, 5})});
  CHECK_EQ(r.size(), size_t(3));
  // while: s = x·(0 + 1 + 2); case index clip(3, 0, 2) = 2 adds 1.
  CHECK(read<float>(r[0]) == (std::vector<float>{1, 4, 7, 10, 13, 16}));
  // SAME max window of 2: the last window holds 5 and the -inf padding.
  CHECK(read<float>(r[1]) == (std::vector<float>{1, 2, 3, 4, 5, 5}));
  // Two output channels of a box filter of 3 with padding 1.
  CHECK(read<float>(r[2]) == (std::vector<float>{1, 3, 6, 9, 12, 9, 1, 3, 6, 9, 12, 9}));
  auto other = runText(kJaxWindowProgram, {i32({}, {1}), f32({6}, {0, 1, 2, 3, 4, 5})});
  auto neg = read<float>(other[0]);  // n = 1: s = x·0 = 0, branch 1 negates
  for (float v : neg) CHECK(v == 0.0f && std::signbit(v));
}

TEST_MAIN()
