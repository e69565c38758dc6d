// reduce_window's typed loops (one input, a body of one add, multiply, maximum or minimum) agree bit
// for bit with the generic lane-mode evaluation of the same body, which a two-input reduce_window
// always takes: prefix windows (scans) along every dimension and small windows with strides,
// padding (negative too) and dilations, over order-sensitive floats with NaN, ±inf and -0, half
// types and integers. Bodies and types without a typed loop, and general bodies along the last
// dimension (run with the dimension moved first), give the results of their definition. The arg
// bodies of cummax and its kin scan as typed loops too, against the same body with two ops reordered.
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
  verifyModule(m);
  return interpret(m, *m.find("main"), args);
}

std::string join(const std::vector<int64_t>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s;
}

std::string shapeOf(const std::vector<int64_t>& dims, const std::string& elem) {
  std::string s = "tensor<";
  for (int64_t d : dims) s += std::to_string(d) + "x";
  return s + elem + ">";
}

struct Geometry {
  std::vector<int64_t> window, strides, base, dilation;
  std::vector<std::pair<int64_t, int64_t>> padding;
};

std::string attrsOf(const Geometry& g) {
  const size_t rank = g.window.size();
  auto orOnes = [&](const std::vector<int64_t>& v) { return v.empty() ? std::vector<int64_t>(rank, 1) : v; };
  std::string pad;
  for (size_t d = 0; d < rank; ++d) {
    const auto p = g.padding.empty() ? std::pair<int64_t, int64_t>{0, 0} : g.padding[d];
    pad += (d ? ", [" : "[") + std::to_string(p.first) + ", " + std::to_string(p.second) + "]";
  }
  return "window_dimensions = array<i64: " + join(g.window) + ">, window_strides = array<i64: " + join(orOnes(g.strides)) +
         ">, base_dilations = array<i64: " + join(orOnes(g.base)) + ">, window_dilations = array<i64: " +
         join(orOnes(g.dilation)) + ">, padding = dense<[" + pad + "]> : tensor<" + std::to_string(rank) + "x2xi64>";
}

std::vector<int64_t> outputDims(const std::vector<int64_t>& dims, const Geometry& g) {
  std::vector<int64_t> out;
  for (size_t d = 0; d < dims.size(); ++d) {
    const int64_t base = g.base.empty() ? 1 : g.base[d], dil = g.dilation.empty() ? 1 : g.dilation[d];
    const int64_t stride = g.strides.empty() ? 1 : g.strides[d];
    const auto p = g.padding.empty() ? std::pair<int64_t, int64_t>{0, 0} : g.padding[d];
    const int64_t padded = (dims[d] == 0 ? 0 : (dims[d] - 1) * base + 1) + p.first + p.second;
    const int64_t span = (g.window[d] - 1) * dil + 1;
    out.push_back(padded < span ? 0 : (padded - span) / stride + 1);
  }
  return out;
}

// reduce_window(x) with `op` as the body, alone (typed loop) and as the first of two inputs (generic).
struct Pair {
  Literal fast, generic;
};
Pair windowBoth(const std::string& op, const std::string& elem, const Literal& x, const Literal& init, const Geometry& g) {
  const std::string in = typeString(x.type), s = "tensor<" + elem + ">", out = shapeOf(outputDims(x.type.dims, g), elem);
  const std::string attrs = attrsOf(g);
  const std::string one =
      "func.func public @main(%x: " + in + ", %i: " + s + ") -> " + out + " {\n" +
      "  %r = \"stablehlo.reduce_window\"(%x, %i) ({\n  ^bb0(%a: " + s + ", %b: " + s + "):\n" +
      "    %c = \"stablehlo." + op + "\"(%a, %b) : (" + s + ", " + s + ") -> " + s + "\n" +
      "    \"stablehlo.return\"(%c) : (" + s + ") -> ()\n  }) {" + attrs + "} : (" + in + ", " + s + ") -> " + out +
      "\n  \"func.return\"(%r) : (" + out + ") -> ()\n}\n";
  const std::string two =
      "func.func public @main(%x: " + in + ", %i: " + s + ") -> " + out + " {\n" +
      "  %r:2 = \"stablehlo.reduce_window\"(%x, %x, %i, %i) ({\n  ^bb0(%a: " + s + ", %a2: " + s + ", %b: " + s +
      ", %b2: " + s + "):\n" +
      "    %c = \"stablehlo." + op + "\"(%a, %b) : (" + s + ", " + s + ") -> " + s + "\n" +
      "    %c2 = \"stablehlo." + op + "\"(%a2, %b2) : (" + s + ", " + s + ") -> " + s + "\n" +
      "    \"stablehlo.return\"(%c, %c2) : (" + s + ", " + s + ") -> ()\n  }) {" + attrs + "} : (" + in + ", " + in + ", " +
      s + ", " + s + ") -> (" + out + ", " + out + ")\n  \"func.return\"(%r#0) : (" + out + ") -> ()\n}\n";
  Pair p{runText(one, {x, init})[0], runText(two, {x, init})[0]};
  CHECK(p.fast.type == p.generic.type);
  return p;
}

// The prefix window (cumsum and its kin) along `dim`.
Geometry prefix(const std::vector<int64_t>& dims, size_t dim) {
  Geometry g;
  for (size_t d = 0; d < dims.size(); ++d) {
    g.window.push_back(d == dim ? dims[d] : 1);
    g.padding.push_back({d == dim ? dims[d] - 1 : 0, 0});
  }
  return g;
}

bool isNanBits(const Literal& l, size_t i) {
  switch (l.type.element) {
    case ElementType::F32: return std::isnan(read<float>(l)[i]);
    case ElementType::F64: return std::isnan(read<double>(l)[i]);
    case ElementType::F16: return std::isnan(halfToFloat(read<uint16_t>(l)[i]));
    case ElementType::BF16: return std::isnan(bf16ToFloat(read<uint16_t>(l)[i]));
    default: return false;
  }
}

// Bitwise equal element by element, or both NaN.
void checkSame(const Literal& got, const Literal& want, const std::string& what) {
  CHECK(got.type == want.type);
  if (got.type != want.type || got.bytes.size() != want.bytes.size()) return;
  const size_t width = byteWidth(got.type.element);
  int reported = 0;
  for (size_t i = 0; i * width < got.bytes.size(); ++i) {
    if (std::memcmp(got.bytes.data() + i * width, want.bytes.data() + i * width, width) == 0) continue;
    if (isNanBits(got, i) && isNanBits(want, i)) continue;
    if (reported++ < 3) ::tpjrt::test::report(__FILE__, __LINE__, what + ": element " + std::to_string(i) + " differs");
  }
}

// Floats of mixed magnitudes, so that sums and products depend on their order, with NaN, ±inf and -0
// placed where `specials` says.
std::vector<float> mixedFloats(size_t n, bool specials) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = float(std::sin(double(i) * 1.3 + 0.2) * std::pow(10.0, double(int(i % 7) - 3)));
  if (specials && n > 60) {
    v[5] = NAN;
    v[17] = -INFINITY;
    v[29] = INFINITY;
    v[30] = -0.0f;
    v[31] = 0.0f;
    v[n / 2] = -0.0f;
    v[n - 2] = NAN;
  }
  return v;
}

Literal floats(ElementType t, std::vector<int64_t> dims, bool specials) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  const auto v = mixedFloats(size_t(n), specials);
  if (t == ElementType::F32) return f32(dims, v);
  if (t == ElementType::F64) return make(t, dims, std::vector<double>(v.begin(), v.end()));
  std::vector<uint16_t> h;
  for (float f : v) h.push_back(t == ElementType::F16 ? floatToHalf(f) : floatToBf16(f));
  return make(t, dims, h);
}

Literal scalarOf(ElementType t, double value) {
  if (t == ElementType::F32) return f32({}, {float(value)});
  if (t == ElementType::F64) return make(t, {}, std::vector<double>{value});
  if (t == ElementType::S32) return make(t, {}, std::vector<int32_t>{int32_t(value)});
  const float f = float(value);
  return make(t, {}, std::vector<uint16_t>{t == ElementType::F16 ? floatToHalf(f) : floatToBf16(f)});
}

const char* nameOf(ElementType t) {
  switch (t) {
    case ElementType::F32: return "f32";
    case ElementType::F64: return "f64";
    case ElementType::F16: return "f16";
    case ElementType::BF16: return "bf16";
    default: return "i32";
  }
}

// The identity init of each op (the scan's precondition).
double identityOf(const std::string& op) {
  if (op == "add") return 0;
  if (op == "multiply") return 1;
  return op == "maximum" ? -INFINITY : INFINITY;
}

const char* const kOps[] = {"add", "multiply", "maximum", "minimum"};
const ElementType kFloatTypes[] = {ElementType::F32, ElementType::F64, ElementType::F16, ElementType::BF16};

Literal ints(std::vector<int64_t> dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  std::vector<int32_t> v(static_cast<size_t>(n));
  for (size_t i = 0; i < v.size(); ++i) v[i] = int32_t(uint32_t(i) * 2654435761u) >> (i % 3 == 0 ? 0 : 20);
  return make(ElementType::S32, dims, v);
}

}  // namespace

TEST(typed_scans_match_generic_along_every_dimension) {
  const std::vector<std::vector<int64_t>> shapes = {{70}, {13, 50}, {5, 37, 19}, {3, 4, 300}, {2, 600}};
  for (const auto& dims : shapes)
    for (size_t dim = 0; dim < dims.size(); ++dim) {
      const std::string where = "shape " + join(dims) + " along " + std::to_string(dim);
      for (ElementType t : kFloatTypes)
        for (const char* op : kOps) {
          auto p = windowBoth(op, nameOf(t), floats(t, dims, true), scalarOf(t, identityOf(op)), prefix(dims, dim));
          checkSame(p.fast, p.generic, std::string(op) + " " + nameOf(t) + " " + where);
        }
      for (const char* op : kOps) {
        const double init = std::string(op) == "maximum" ? double(std::numeric_limits<int32_t>::min())
                            : std::string(op) == "minimum" ? double(std::numeric_limits<int32_t>::max())
                                                           : identityOf(op);
        auto p = windowBoth(op, "i32", ints(dims), scalarOf(ElementType::S32, init), prefix(dims, dim));
        checkSame(p.fast, p.generic, std::string(op) + " i32 " + where);
      }
      // -0 is its own identity for add: the scan starts from it.
      auto p = windowBoth("add", "f32", floats(ElementType::F32, dims, true), f32({}, {-0.0f}), prefix(dims, dim));
      checkSame(p.fast, p.generic, "add from -0, " + where);
    }
}

TEST(prefix_windows_whose_init_is_not_an_identity_fold_it_in_every_window) {
  // 0.5 + 0.5 != 0.5: these are no scans, and every window folds init and each padded init.
  const std::vector<int64_t> dims{4, 9};
  for (size_t dim = 0; dim < 2; ++dim) {
    auto p = windowBoth("add", "f32", floats(ElementType::F32, dims, false), f32({}, {0.5f}), prefix(dims, dim));
    checkSame(p.fast, p.generic, "add with init 0.5 along " + std::to_string(dim));
    std::vector<float> x = read<float>(floats(ElementType::F32, dims, false));
    std::vector<float> got = read<float>(p.fast);
    if (dim == 1) {  // output (0, 1): init, 7 padded inits, x[0], x[1]
      float want = 0.5f;
      for (int k = 0; k < 7; ++k) want += 0.5f;
      want += x[0];
      want += x[1];
      CHECK(got[1] == want);
    }
  }
}

TEST(typed_windows_match_generic_with_strides_padding_and_dilations) {
  const std::vector<std::pair<std::vector<int64_t>, Geometry>> cases = {
      {{2, 3, 9, 10}, {{1, 1, 2, 2}, {1, 1, 2, 2}, {}, {}, {}}},                                     // 2x2 pool
      {{2, 3, 9, 10}, {{1, 1, 3, 3}, {1, 1, 1, 1}, {}, {}, {{0, 0}, {0, 0}, {1, 1}, {1, 1}}}},       // 3x3, same size
      {{2, 3, 9, 10}, {{1, 1, 3, 3}, {1, 1, 2, 2}, {}, {}, {{0, 0}, {0, 0}, {1, 2}, {1, 2}}}},       // ceil-mode-like
      {{2, 2, 11, 13}, {{1, 1, 3, 2}, {1, 1, 2, 3}, {}, {1, 1, 2, 2}, {{0, 0}, {0, 0}, {2, 1}, {3, 2}}}},
      {{2, 2, 7, 8}, {{1, 1, 2, 2}, {}, {1, 1, 2, 2}, {}, {{0, 0}, {0, 0}, {1, 1}, {1, 0}}}},          // base dilation
      {{2, 2, 7, 8}, {{1, 1, 3, 3}, {1, 1, 2, 1}, {1, 1, 3, 2}, {1, 1, 1, 2}, {{0, 0}, {0, 0}, {2, 0}, {0, 3}}}},
      {{2, 2, 9, 10}, {{1, 1, 2, 3}, {1, 1, 1, 2}, {}, {}, {{0, 0}, {0, 0}, {-1, 1}, {2, -1}}}},      // cropping
      {{37}, {{5}, {2}, {}, {}, {{3, 4}}}},
      {{37}, {{4}, {3}, {2}, {3}, {{1, 2}}}},
      {{6, 40}, {{3, 1}, {2, 1}, {}, {}, {}}},                                                       // last dim untouched
      {{6, 40}, {{2, 40}, {1, 1}, {}, {}, {{1, 0}, {0, 0}}}},                                        // whole rows
      {{3, 5, 6}, {{2, 2, 2}, {1, 2, 3}, {}, {}, {{1, 1}, {0, 1}, {2, 2}}}},
      {{2, 3}, {{2, 3}, {}, {}, {}, {{4, 4}, {5, 5}}}},                                              // mostly padding
  };
  for (const auto& [dims, g] : cases) {
    const std::string where = "shape " + join(dims) + ", " + attrsOf(g);
    for (ElementType t : kFloatTypes)
      for (const char* op : kOps) {
        for (double init : {identityOf(op), 0.25, -0.0}) {
          auto p = windowBoth(op, nameOf(t), floats(t, dims, true), scalarOf(t, init), g);
          checkSame(p.fast, p.generic, std::string(op) + " " + nameOf(t) + " init " + std::to_string(init) + ", " + where);
        }
      }
    for (const char* op : kOps) {
      auto p = windowBoth(op, "i32", ints(dims), scalarOf(ElementType::S32, 7), g);
      checkSame(p.fast, p.generic, std::string(op) + " i32, " + where);
    }
  }
}

TEST(typed_windows_and_scans_on_a_pool_give_the_single_thread_results) {
  const std::vector<std::pair<std::vector<int64_t>, Geometry>> cases = {
      {{4, 16, 40, 64}, {{1, 1, 2, 2}, {1, 1, 2, 2}, {}, {}, {}}},
      {{4, 16, 40, 64}, {{1, 1, 3, 3}, {1, 1, 1, 1}, {}, {}, {{0, 0}, {0, 0}, {1, 1}, {1, 1}}}},
      {{300, 700}, prefix({300, 700}, 1)},
      {{300, 700}, prefix({300, 700}, 0)},
      {{3, 200, 500}, prefix({3, 200, 500}, 1)},
  };
  for (const auto& [dims, g] : cases) {
    Literal x = floats(ElementType::F32, dims, true), zero = f32({}, {0});
    for (const char* op : {"add", "maximum"}) {
      auto alone = windowBoth(op, "f32", x, scalarOf(ElementType::F32, identityOf(op)), g);
      checkSame(alone.fast, alone.generic, std::string(op) + " alone, shape " + join(dims));
      ThreadPool pool(3);
      ThreadPoolScope scope(&pool);
      auto pooled = windowBoth(op, "f32", x, scalarOf(ElementType::F32, identityOf(op)), g);
      checkSame(pooled.fast, alone.fast, std::string(op) + " on a pool, shape " + join(dims));
      checkSame(pooled.generic, alone.generic, std::string(op) + " generic on a pool, shape " + join(dims));
    }
  }
}

TEST(bodies_without_a_typed_loop_keep_their_definition) {
  // maximum(element, accumulator): the first NaN operand wins, so with NaN inputs the order of
  // operands shows; subtract is no combiner at all; i1 "or" has no typed loop.
  const std::string s = "tensor<f32>", in = "tensor<6xf32>", out = "tensor<6xf32>";
  auto moduleOf = [&](const std::string& body) {
    return "func.func public @main(%x: " + in + ", %i: " + s + ") -> " + out + " {\n" +
           "  %r = \"stablehlo.reduce_window\"(%x, %i) ({\n  ^bb0(%a: " + s + ", %b: " + s + "):\n" + body +
           "  }) {window_dimensions = array<i64: 6>, padding = dense<[[5, 0]]> : tensor<1x2xi64>} : (" + in + ", " + s +
           ") -> " + out + "\n  \"func.return\"(%r) : (" + out + ") -> ()\n}\n";
  };
  const Literal x = f32({6}, {1, 2, 3, 4, 5, 6});
  auto sub = read<float>(runText(moduleOf("    %c = \"stablehlo.subtract\"(%a, %b) : (" + s + ", " + s + ") -> " + s +
                                          "\n    \"stablehlo.return\"(%c) : (" + s + ") -> ()\n"),
                                 {x, f32({}, {0})})[0]);
  // 0 - 0 == 0, so this is a scan: acc_j = acc_{j-1} - x_j.
  CHECK(sub == (std::vector<float>{-1, -3, -6, -10, -15, -21}));
  auto swapped = read<float>(runText(moduleOf("    %c = \"stablehlo.maximum\"(%b, %a) : (" + s + ", " + s + ") -> " + s +
                                              "\n    \"stablehlo.return\"(%c) : (" + s + ") -> ()\n"),
                                     {x, f32({}, {-INFINITY})})[0]);
  CHECK(swapped == (std::vector<float>{1, 2, 3, 4, 5, 6}));

  const std::string pred =
      "func.func public @main(%x: tensor<2x5xi1>, %i: tensor<i1>) -> tensor<2x5xi1> {\n"
      "  %r = \"stablehlo.reduce_window\"(%x, %i) ({\n  ^bb0(%a: tensor<i1>, %b: tensor<i1>):\n"
      "    %c = \"stablehlo.or\"(%a, %b) : (tensor<i1>, tensor<i1>) -> tensor<i1>\n"
      "    \"stablehlo.return\"(%c) : (tensor<i1>) -> ()\n"
      "  }) {window_dimensions = array<i64: 1, 2>, padding = dense<[[0, 0], [1, 0]]> : tensor<2x2xi64>} : "
      "(tensor<2x5xi1>, tensor<i1>) -> tensor<2x5xi1>\n  \"func.return\"(%r) : (tensor<2x5xi1>) -> ()\n}\n";
  auto ors = read<uint8_t>(runText(pred, {make(ElementType::Pred, {2, 5}, std::vector<uint8_t>{0, 1, 0, 0, 1, 1, 0, 0, 0, 0}),
                                          make(ElementType::Pred, {}, std::vector<uint8_t>{0})})[0]);
  CHECK(ors == (std::vector<uint8_t>{0, 1, 1, 0, 1, 1, 1, 0, 0, 0}));
}

TEST(general_bodies_scan_along_the_last_dimension_as_along_the_first) {
  // A two-input body (cummax with indices) along dimension 1 of x equals the same scan along
  // dimension 0 of x transposed, transposed back.
  const int64_t rows = 11, cols = 23;
  std::vector<float> v = mixedFloats(size_t(rows * cols), true);
  for (size_t i = 0; i < v.size(); i += 7) v[i] = 0.5f;  // ties
  std::vector<int32_t> idx(v.size());
  for (size_t i = 0; i < idx.size(); ++i) idx[i] = int32_t(i % size_t(cols));
  const std::string body = R"(  ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
    %gt = "stablehlo.compare"(%a, %b) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %nan = "stablehlo.compare"(%a, %a) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %keep = "stablehlo.or"(%gt, %nan) : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %v = "stablehlo.select"(%keep, %a, %b) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %i = "stablehlo.select"(%keep, %ai, %bi) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%v, %i) : (tensor<f32>, tensor<i32>) -> ()
  })";
  const std::string rc = std::to_string(rows) + "x" + std::to_string(cols), cr = std::to_string(cols) + "x" + std::to_string(rows);
  const std::string last =
      "func.func public @main(%x: tensor<" + rc + "xf32>, %j: tensor<" + rc + "xi32>) -> (tensor<" + rc + "xf32>, tensor<" + rc +
      "xi32>) {\n  %n = \"stablehlo.constant\"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>\n"
      "  %z = \"stablehlo.constant\"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>\n"
      "  %r:2 = \"stablehlo.reduce_window\"(%x, %j, %n, %z) ({\n" + body +
      ") {window_dimensions = array<i64: 1, " + std::to_string(cols) + ">, padding = dense<[[0, 0], [" +
      std::to_string(cols - 1) + ", 0]]> : tensor<2x2xi64>} : (tensor<" + rc + "xf32>, tensor<" + rc +
      "xi32>, tensor<f32>, tensor<i32>) -> (tensor<" + rc + "xf32>, tensor<" + rc + "xi32>)\n"
      "  \"func.return\"(%r#0, %r#1) : (tensor<" + rc + "xf32>, tensor<" + rc + "xi32>) -> ()\n}\n";
  const std::string first =
      "func.func public @main(%x: tensor<" + rc + "xf32>, %j: tensor<" + rc + "xi32>) -> (tensor<" + rc + "xf32>, tensor<" + rc +
      "xi32>) {\n  %n = \"stablehlo.constant\"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>\n"
      "  %z = \"stablehlo.constant\"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>\n"
      "  %xt = \"stablehlo.transpose\"(%x) {permutation = array<i64: 1, 0>} : (tensor<" + rc + "xf32>) -> tensor<" + cr + "xf32>\n"
      "  %jt = \"stablehlo.transpose\"(%j) {permutation = array<i64: 1, 0>} : (tensor<" + rc + "xi32>) -> tensor<" + cr + "xi32>\n"
      "  %r:2 = \"stablehlo.reduce_window\"(%xt, %jt, %n, %z) ({\n" + body +
      ") {window_dimensions = array<i64: " + std::to_string(cols) + ", 1>, padding = dense<[[" + std::to_string(cols - 1) +
      ", 0], [0, 0]]> : tensor<2x2xi64>} : (tensor<" + cr + "xf32>, tensor<" + cr +
      "xi32>, tensor<f32>, tensor<i32>) -> (tensor<" + cr + "xf32>, tensor<" + cr + "xi32>)\n"
      "  %v = \"stablehlo.transpose\"(%r#0) {permutation = array<i64: 1, 0>} : (tensor<" + cr + "xf32>) -> tensor<" + rc + "xf32>\n"
      "  %i = \"stablehlo.transpose\"(%r#1) {permutation = array<i64: 1, 0>} : (tensor<" + cr + "xi32>) -> tensor<" + rc + "xi32>\n"
      "  \"func.return\"(%v, %i) : (tensor<" + rc + "xf32>, tensor<" + rc + "xi32>) -> ()\n}\n";
  const std::vector<Literal> args{f32({rows, cols}, v), make(ElementType::S32, {rows, cols}, idx)};
  auto a = runText(last, args), b = runText(first, args);
  CHECK_EQ(a.size(), size_t(2));
  CHECK_EQ(b.size(), size_t(2));
  if (a.size() != 2 || b.size() != 2) return;
  checkSame(a[0], b[0], "cummax values");
  checkSame(a[1], b[1], "cummax indices");
  // Spot check: row 0's running maximum (NaN wins from where it appears).
  auto values = read<float>(a[0]);
  float running = -INFINITY;
  for (int64_t j = 0; j < cols; ++j) {
    const float x = v[size_t(j)];
    running = (std::isnan(running) || running > x) ? running : x;
    CHECK((std::isnan(running) && std::isnan(values[size_t(j)])) || running == values[size_t(j)]);
  }
}

// The arg body as the lowering prints it (typed scan), or with its first two compares swapped, which
// computes the same but is no body the typed scan knows (generic scan).
std::string argScanModule(const std::string& v, const std::string& ix, const std::vector<int64_t>& dims, size_t dim,
                          const char* direction, const char* order, bool floating, bool reordered, const std::string& initValue) {
  const std::string xt = shapeOf(dims, v), it = shapeOf(dims, ix), sv = "tensor<" + v + ">", si = "tensor<" + ix + ">";
  const std::string body = argBodyOps(sv, si, direction, order, floating, reordered) +
                           "    \"stablehlo.return\"(%v, %i) : (" + sv + ", " + si + ") -> ()\n";
  const Geometry g = prefix(dims, dim);
  return "func.func public @main(%x: " + xt + ", %j: " + it + ") -> (" + xt + ", " + it + ") {\n" +
         "  %n = \"stablehlo.constant\"() {value = dense<" + initValue + "> : " + sv + "} : () -> " + sv + "\n" +
         "  %z = \"stablehlo.constant\"() {value = dense<0> : " + si + "} : () -> " + si + "\n" +
         "  %r:2 = \"stablehlo.reduce_window\"(%x, %j, %n, %z) ({\n  ^bb0(%a: " + sv + ", %ai: " + si + ", %b: " + sv + ", %bi: " +
         si + "):\n" + body + "  }) {" + attrsOf(g) + "} : (" + xt + ", " + it + ", " + sv + ", " + si + ") -> (" + xt + ", " +
         it + ")\n  \"func.return\"(%r#0, %r#1) : (" + xt + ", " + it + ") -> ()\n}\n";
}

TEST(arg_scans_match_generic_for_cummax_cummin_and_the_first_index_kinds) {
  const std::vector<std::vector<int64_t>> shapes = {{40}, {7, 33}, {3, 20, 9}};
  for (const auto& dims : shapes)
    for (size_t dim = 0; dim < dims.size(); ++dim) {
      int64_t n = 1;
      for (int64_t d : dims) n *= d;
      std::vector<float> v = mixedFloats(size_t(n), true);
      for (size_t i = 0; i < v.size(); i += 5) v[i] = 0.5f;  // ties
      for (size_t i = 2; i < v.size(); i += 11) v[i] = (i / 11) % 2 ? 0.0f : -0.0f;
      std::vector<int32_t> iv(v.size());
      for (size_t i = 0; i < iv.size(); ++i) iv[i] = int32_t((i * 7) % 5) - 2;
      for (const char* direction : {"GT", "LT"})
        for (const char* order : {"GT", "LT"})
          for (const char* index : {"i64", "i32"}) {
            const std::string where = std::string(direction) + "/" + order + " " + index + ", shape " + join(dims) + " along " +
                                      std::to_string(dim);
            std::vector<int64_t> idx64(v.size());
            for (size_t i = 0; i < idx64.size(); ++i) idx64[i] = int64_t((i * 13) % 9);
            const Literal indices = std::string(index) == "i64"
                                        ? make(ElementType::S64, dims, idx64)
                                        : make(ElementType::S32, dims, std::vector<int32_t>(idx64.begin(), idx64.end()));
            const std::string init = std::string(direction) == "GT" ? "0xFF800000" : "0x7F800000";
            const std::vector<Literal> fargs{f32(dims, v), indices};
            auto fast = runText(argScanModule("f32", index, dims, dim, direction, order, true, false, init), fargs);
            auto generic = runText(argScanModule("f32", index, dims, dim, direction, order, true, true, init), fargs);
            checkSame(fast[0], generic[0], "f32 values " + where);
            checkSame(fast[1], generic[1], "f32 indices " + where);
            const std::string iinit = std::string(direction) == "GT" ? "-2147483648" : "2147483647";
            const std::vector<Literal> iargs{make(ElementType::S32, dims, iv), indices};
            auto ifast = runText(argScanModule("i32", index, dims, dim, direction, order, false, false, iinit), iargs);
            auto igeneric = runText(argScanModule("i32", index, dims, dim, direction, order, false, true, iinit), iargs);
            checkSame(ifast[0], igeneric[0], "i32 values " + where);
            checkSame(ifast[1], igeneric[1], "i32 indices " + where);
          }
    }
}

TEST_MAIN()
