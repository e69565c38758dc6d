// Float convolutions through the GEMM (kernels/convolution_gemm.h) against the direct loop: every float type,
// with other dimension numbers, groups, batch groups, strides, dilations, padding and reversal, on
// odd shapes. Both are held to the same bound around a float64 reference (the direct loop run on the
// inputs widened to f64): a few roundings of the storage type plus float accumulation error over
// the contraction. On a pool the GEMM path gives the single-thread result bit for bit.
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "base/thread_pool.h"
#include "check.h"
#include "ir/element_type.h"
#include "ir/stablehlo.h"
#include "kernels/convolution_gemm.h"
#include "tests/test_modules.h"

using namespace tpjrt::cpu;
using namespace tpjrt::cpu::test;

namespace {

struct ConvCase {
  const char* what;
  std::vector<int64_t> lhs, rhs, out;
  std::string attrs;
  int64_t depth;  // terms in each output sum
};

std::string tensorType(const std::vector<int64_t>& dims, const char* elem) {
  std::string s = "tensor<";
  for (int64_t d : dims) s += std::to_string(d) + "x";
  return s + elem + ">";
}

Module convModule(const ConvCase& c) {
  const std::string l = tensorType(c.lhs, "f64"), r = tensorType(c.rhs, "f64"), o = tensorType(c.out, "f64");
  return parseModule("func.func public @main(%x: " + l + ", %w: " + r + ") -> " + o +
                     " {\n  %r = \"stablehlo.convolution\"(%x, %w) {" + c.attrs + "} : (" + l + ", " + r + ") -> " + o +
                     "\n  \"func.return\"(%r) : (" + o + ") -> ()\n}\n");
}

std::vector<double> values(const std::vector<int64_t>& dims, double phase) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[size_t(i)] = std::sin(double(i) * 0.731 + phase) * 2;
  return v;
}

// `v` stored as element type t (rounded to it), and the stored values read back as doubles.
Literal stored(ElementType t, const std::vector<int64_t>& dims, const std::vector<double>& v, std::vector<double>& back) {
  Literal l{{t, dims}, Bytes(v.size() * byteWidth(t))};
  back.resize(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    if (t == ElementType::F64) {
      std::memcpy(l.bytes.mutableData() + 8 * i, &v[i], 8);
      back[i] = v[i];
    } else if (t == ElementType::F32) {
      float f = float(v[i]);
      std::memcpy(l.bytes.mutableData() + 4 * i, &f, 4);
      back[i] = f;
    } else {
      uint16_t h = t == ElementType::F16 ? floatToHalf(float(v[i])) : floatToBf16(float(v[i]));
      std::memcpy(l.bytes.mutableData() + 2 * i, &h, 2);
      back[i] = t == ElementType::F16 ? halfToFloat(h) : bf16ToFloat(h);
    }
  }
  return l;
}

std::vector<double> asDoubles(const Literal& l) {
  const int64_t n = numElements(l.type);
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    const uint8_t* p = l.bytes.data() + size_t(i) * byteWidth(l.type.element);
    switch (l.type.element) {
      case ElementType::F64: std::memcpy(&v[size_t(i)], p, 8); break;
      case ElementType::F32: { float f; std::memcpy(&f, p, 4); v[size_t(i)] = f; break; }
      case ElementType::F16: { uint16_t h; std::memcpy(&h, p, 2); v[size_t(i)] = halfToFloat(h); break; }
      default: { uint16_t h; std::memcpy(&h, p, 2); v[size_t(i)] = bf16ToFloat(h); break; }
    }
  }
  return v;
}

double unitRoundoff(ElementType t) {
  switch (t) {
    case ElementType::F64: return 0x1p-53;
    case ElementType::F32: return 0x1p-24;
    case ElementType::F16: return 0x1p-11;
    default: return 0x1p-8;
  }
}

void checkCase(const ConvCase& c) {
  Module m = convModule(c);
  verifyModule(m);
  const Op& op = m.find("main")->body.ops[0];
  const auto xv = values(c.lhs, 0.3), wv = values(c.rhs, 1.1);
  for (ElementType t : {ElementType::F32, ElementType::F64, ElementType::F16, ElementType::BF16}) {
    std::vector<double> xs, ws, unused;
    Literal x = stored(t, c.lhs, xv, xs), w = stored(t, c.rhs, wv, ws);
    // The reference: the stored inputs, exactly, through the direct loop in f64; and the same over |x|·|w|.
    Literal x64 = stored(ElementType::F64, c.lhs, xs, unused), w64 = stored(ElementType::F64, c.rhs, ws, unused);
    for (double& v : xs) v = std::fabs(v);
    for (double& v : ws) v = std::fabs(v);
    Literal xa = stored(ElementType::F64, c.lhs, xs, unused), wa = stored(ElementType::F64, c.rhs, ws, unused);
    const TensorType wide{ElementType::F64, c.out}, type{t, c.out};
    const auto want = asDoubles(convolution(op, {&x64, &w64}, wide, false));
    const auto magnitude = asDoubles(convolution(op, {&xa, &wa}, wide, false));
    const double accumulate = double(c.depth + 2) * unitRoundoff(t == ElementType::F64 ? t : ElementType::F32);
    for (bool gemm : {true, false}) {
      const auto got = asDoubles(convolution(op, {&x, &w}, type, gemm));
      CHECK_EQ(got.size(), want.size());
      for (size_t i = 0; i < got.size() && i < want.size(); ++i) {
        const double bound = 2 * unitRoundoff(t) * std::fabs(want[i]) + accumulate * magnitude[i] + 1e-300;
        if (!(std::fabs(got[i] - want[i]) <= bound)) {
          ::tpjrt::test::report(__FILE__, __LINE__,
                                std::string(c.what) + (gemm ? " gemm " : " direct ") + typeString(type) + "[" +
                                    std::to_string(i) + "]: got " + std::to_string(got[i]) + ", want " +
                                    std::to_string(want[i]));
          break;
        }
      }
    }
  }
}

const std::string kNchw = "dimension_numbers = #stablehlo.conv<[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]>";
const std::string kNhwc = "dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>";

}  // namespace

TEST(gemm_convolution_matches_the_direct_loop_on_odd_shapes) {
  checkCase({"3x3 pad 1", {3, 5, 7, 6}, {4, 5, 3, 3}, {3, 4, 7, 6},
             kNchw + ", padding = dense<1> : tensor<2x2xi64>, window_strides = array<i64: 1, 1>", 45});
  checkCase({"nhwc stride, asymmetric and negative padding, dilations", {2, 9, 8, 3}, {2, 3, 3, 5}, {2, 9, 3, 5},
             kNhwc + ", window_strides = array<i64: 2, 2>, padding = dense<[[1, 0], [-1, 2]]> : tensor<2x2xi64>, "
                     "lhs_dilation = array<i64: 2, 1>, rhs_dilation = array<i64: 1, 2>",
             18});
  checkCase({"feature groups and reversal", {2, 6, 5, 4}, {9, 2, 2, 3}, {2, 9, 4, 2},
             kNchw + ", feature_group_count = 3 : i64, window_reversal = array<i1: true, false>", 12});
  checkCase({"depthwise", {1, 4, 6, 6}, {4, 1, 3, 3}, {1, 4, 4, 4}, kNchw + ", feature_group_count = 4 : i64", 9});
  checkCase({"batch groups", {6, 3, 5, 5}, {4, 3, 2, 2}, {3, 4, 4, 4}, kNchw + ", batch_group_count = 2 : i64", 12});
  checkCase({"1-d, odd layout", {7, 3, 2}, {3, 3, 5}, {7, 5, 2},
             "dimension_numbers = #stablehlo.conv<[0, f, b]x[0, i, o]->[0, f, b]>, padding = dense<[[1, 1]]> : tensor<1x2xi64>",
             9});
  checkCase({"3-d", {1, 2, 4, 5, 3}, {3, 2, 2, 2, 2}, {1, 3, 3, 4, 2},
             "dimension_numbers = #stablehlo.conv<[b, f, 0, 1, 2]x[o, i, 0, 1, 2]->[b, f, 0, 1, 2]>", 16});
  checkCase({"no spatial dimensions", {5, 7}, {3, 7}, {5, 3},
             "dimension_numbers = #stablehlo.conv<[b, f]x[o, i]->[b, f]>", 7});
  checkCase({"empty contraction", {2, 0, 3, 3}, {4, 0, 1, 1}, {2, 4, 3, 3}, kNchw, 1});
}

TEST(gemm_convolution_on_a_pool_gives_the_single_thread_result) {
  // Big enough that the unrolling is split over the pool and the GEMM over its threads.
  const ConvCase c{"pool", {2, 16, 24, 24}, {32, 16, 3, 3}, {2, 32, 24, 24},
                   kNchw + ", padding = dense<1> : tensor<2x2xi64>", 144};
  Module m = convModule(c);
  const Op& op = m.find("main")->body.ops[0];
  for (ElementType t : {ElementType::F32, ElementType::BF16, ElementType::F64}) {
    std::vector<double> unused;
    Literal x = stored(t, c.lhs, values(c.lhs, 0.2), unused), w = stored(t, c.rhs, values(c.rhs, 0.9), unused);
    const TensorType type{t, c.out};
    Literal alone = convolution(op, {&x, &w}, type, true);
    ThreadPool pool(3);
    ThreadPoolScope scope(&pool);
    Literal pooled = convolution(op, {&x, &w}, type, true);
    CHECK(alone.bytes == pooled.bytes);
  }
}

TEST_MAIN()
