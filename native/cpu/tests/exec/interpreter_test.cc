// The interpreter and its kernels, op by op: every result is compared with values written out by hand
// or computed here in double precision. Edge cases (NaN, ±Inf, -0, overflow, division by zero, wide
// shifts, float→int saturation) follow what XLA CPU (jaxlib 0.10.2) returns for the same program.
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
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

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

Literal f64(std::vector<int64_t> dims, const std::vector<double>& v) { return make(ElementType::F64, dims, v); }
Literal i32(std::vector<int64_t> dims, const std::vector<int32_t>& v) { return make(ElementType::S32, dims, v); }
Literal u32(std::vector<int64_t> dims, const std::vector<uint32_t>& v) { return make(ElementType::U32, dims, v); }
Literal pred(std::vector<int64_t> dims, const std::vector<uint8_t>& v) { return make(ElementType::Pred, dims, v); }
Literal f16(std::vector<int64_t> dims, const std::vector<float>& v) {
  std::vector<uint16_t> bits;
  for (float x : v) bits.push_back(floatToHalf(x));
  return make(ElementType::F16, dims, bits);
}
Literal bf16(std::vector<int64_t> dims, const std::vector<float>& v) {
  std::vector<uint16_t> bits;
  for (float x : v) bits.push_back(floatToBf16(x));
  return make(ElementType::BF16, dims, bits);
}

std::vector<double> readHalf(const Literal& l, bool brain) {
  std::vector<double> out;
  for (uint16_t b : read<uint16_t>(l)) out.push_back(brain ? bf16ToFloat(b) : halfToFloat(b));
  return out;
}

std::vector<Literal> runText(const std::string& text, const std::vector<Literal>& args) {
  Module m = parseModule(text);
  const Function* main = m.find("main");
  if (!main) throw std::runtime_error("no main");
  return interpret(m, *main, args);
}

// A module whose main applies one generic-form op to its arguments.
std::string oneOp(const std::string& op, const std::vector<std::string>& argTypes, const std::string& resultType,
                  const std::string& attrs = "") {
  std::string params, uses, types;
  for (size_t i = 0; i < argTypes.size(); ++i) {
    std::string sep = i ? ", " : "";
    params += sep + "%a" + std::to_string(i) + ": " + argTypes[i];
    uses += sep + "%a" + std::to_string(i);
    types += sep + argTypes[i];
  }
  return "func.func public @main(" + params + ") -> " + resultType + " {\n  %r = \"stablehlo." + op + "\"(" + uses +
         ") " + (attrs.empty() ? "" : "{" + attrs + "} ") + ": (" + types + ") -> " + resultType +
         "\n  \"func.return\"(%r) : (" + resultType + ") -> ()\n}\n";
}

Literal run1(const std::string& op, const std::vector<Literal>& args, const TensorType& result,
             const std::string& attrs = "") {
  std::vector<std::string> types;
  for (const auto& a : args) types.push_back(typeString(a.type));
  auto out = runText(oneOp(op, types, typeString(result), attrs), args);
  if (out.size() != 1) throw std::runtime_error("expected one result");
  CHECK(out[0].type == result);
  return out[0];
}

template <class T>
void checkValues(const std::vector<T>& got, const std::vector<T>& want, const char* what) {
  CHECK_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size() && i < want.size(); ++i)
    if (!(got[i] == want[i])) {
      std::ostringstream os;
      os << what << "[" << i << "]: got " << +got[i] << ", want " << +want[i];
      ::tpjrt::test::report(__FILE__, __LINE__, os.str());
    }
}

void checkNear(const std::vector<double>& got, const std::vector<double>& want, double relTol, const char* what) {
  CHECK_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size() && i < want.size(); ++i) {
    double g = got[i], w = want[i];
    bool ok = (std::isnan(g) && std::isnan(w)) || g == w || std::fabs(g - w) <= relTol * std::max(1.0, std::fabs(w));
    if (!ok || (w == 0 && g == 0 && std::signbit(g) != std::signbit(w))) {
      std::ostringstream os;
      os << what << "[" << i << "]: got " << g << ", want " << w;
      ::tpjrt::test::report(__FILE__, __LINE__, os.str());
    }
  }
}

std::vector<double> toDouble(const std::vector<float>& v) { return {v.begin(), v.end()}; }

}  // namespace

// --- element types ---------------------------------------------------------------------------------

TEST(element_type_names_and_sizes) {
  const char* names[] = {"i1", "i8", "i16", "i32", "i64", "ui8", "ui16", "ui32", "ui64", "f16", "bf16", "f32", "f64"};
  size_t widths[] = {1, 1, 2, 4, 8, 1, 2, 4, 8, 2, 2, 4, 8};
  for (int i = 0; i < 13; ++i) {
    auto t = ElementType(i);
    CHECK_EQ(mlirName(t), std::string_view(names[i]));
    CHECK_EQ(byteWidth(t), widths[i]);
    CHECK(parseMlirElementType(names[i]) == t);
  }
  CHECK(!parseMlirElementType("si32"));
  CHECK(!parseMlirElementType("f6E2M3FN"));
  CHECK(parseMlirElementType("f8E4M3FN") == ElementType::F8E4M3FN && isFloat(ElementType::F8E4M3FN));
  CHECK(parseMlirElementType("i4") == ElementType::S4 && isSignedInt(ElementType::S4) && byteWidth(ElementType::S4) == 1);
  CHECK(isFloat(ElementType::BF16) && !isFloat(ElementType::S32));
  CHECK(isSignedInt(ElementType::S8) && !isSignedInt(ElementType::U8) && !isSignedInt(ElementType::Pred));
  CHECK(isUnsignedInt(ElementType::U64) && !isInteger(ElementType::Pred) && isInteger(ElementType::U16));
  CHECK_EQ(numElements({ElementType::F32, {2, 3, 4}}), 24);
  CHECK_EQ(numElements({ElementType::F32, {}}), 1);
  CHECK_EQ(numElements({ElementType::F32, {5, 0}}), 0);
  CHECK_EQ(typeString({ElementType::F32, {2, 3}}), "tensor<2x3xf32>");
  CHECK_EQ(typeString({ElementType::Pred, {}}), "tensor<i1>");
  CHECK_EQ(typeString({ElementType::U8, {7}}), "tensor<7xui8>");
}

TEST(half_conversions_round_to_nearest_even) {
  CHECK_EQ(floatToHalf(1.0f), 0x3c00);
  CHECK_EQ(floatToHalf(-2.0f), 0xc000);
  CHECK_EQ(floatToHalf(-0.0f), 0x8000);
  CHECK_EQ(floatToHalf(65504.0f), 0x7bff);
  CHECK_EQ(floatToHalf(65519.0f), 0x7bff);
  CHECK_EQ(floatToHalf(65520.0f), 0x7c00);  // the rounding boundary goes to infinity
  CHECK_EQ(floatToHalf(1e10f), 0x7c00);
  CHECK_EQ(floatToHalf(-INFINITY), 0xfc00);
  CHECK_EQ(floatToHalf(1.0f + std::ldexp(1.0f, -11)), 0x3c00);      // tie, even stays
  CHECK_EQ(floatToHalf(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02);  // tie, odd rounds up
  CHECK_EQ(floatToHalf(1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20)), 0x3c01);
  CHECK_EQ(floatToHalf(std::ldexp(1.0f, -24)), 0x0001);              // smallest subnormal
  CHECK_EQ(floatToHalf(std::ldexp(1.0f, -25)), 0x0000);              // tie to even zero
  CHECK_EQ(floatToHalf(3 * std::ldexp(1.0f, -25)), 0x0002);          // 1.5 ulps rounds to 2
  CHECK_EQ(floatToHalf(std::ldexp(1.0f, -14)), 0x0400);              // smallest normal
  CHECK_EQ(floatToHalf(std::ldexp(1023.5f, -24)), 0x0400);           // subnormal rounding up into normal
  uint16_t nan = floatToHalf(NAN);
  CHECK((nan & 0x7c00) == 0x7c00 && (nan & 0x3ff) != 0);
  CHECK_EQ(halfToFloat(0x3c00), 1.0f);
  CHECK_EQ(halfToFloat(0x0001), std::ldexp(1.0f, -24));
  CHECK_EQ(halfToFloat(0x03ff), std::ldexp(1023.0f, -24));
  CHECK_EQ(halfToFloat(0x7bff), 65504.0f);
  CHECK_EQ(halfToFloat(0xfc00), -INFINITY);
  CHECK(std::signbit(halfToFloat(0x8000)));
  CHECK(std::isnan(halfToFloat(0x7e00)));
  for (uint32_t b = 0; b < 0x10000; ++b) {  // every finite half survives the round trip
    if ((b & 0x7c00) == 0x7c00) continue;
    if (floatToHalf(halfToFloat(uint16_t(b))) != b) {
      CHECK_EQ(floatToHalf(halfToFloat(uint16_t(b))), b);
      break;
    }
  }
}

TEST(bfloat16_conversions_round_to_nearest_even) {
  CHECK_EQ(floatToBf16(1.0f), 0x3f80);
  CHECK_EQ(floatToBf16(-0.0f), 0x8000);
  CHECK_EQ(floatToBf16(1.0f + std::ldexp(1.0f, -8)), 0x3f80);
  CHECK_EQ(floatToBf16(1.0f + 3 * std::ldexp(1.0f, -8)), 0x3f82);
  CHECK_EQ(floatToBf16(1.0f + std::ldexp(1.0f, -8) + std::ldexp(1.0f, -20)), 0x3f81);
  CHECK_EQ(floatToBf16(std::numeric_limits<float>::max()), 0x7f80);
  CHECK_EQ(floatToBf16(INFINITY), 0x7f80);
  uint16_t nan = floatToBf16(NAN);
  CHECK((nan & 0x7f80) == 0x7f80 && (nan & 0x7f) != 0);
  uint16_t payloadNan = floatToBf16(std::bit_cast<float>(0x7f800001u));  // would round to Inf if not kept NaN
  CHECK((payloadNan & 0x7f) != 0);
  CHECK_EQ(bf16ToFloat(0x3f80), 1.0f);
  CHECK_EQ(bf16ToFloat(0xc040), -3.0f);
}

// --- element-wise unary ---------------------------------------------------------------------------

namespace {

struct FloatUnaryCase {
  const char* op;
  double (*ref)(double);
  std::vector<double> inputs;
};

double refLogistic(double x) { return 1 / (1 + std::exp(-x)); }
double refRsqrt(double x) { return 1 / std::sqrt(x); }
double refSign(double x) { return std::isnan(x) || x == 0 ? x : std::copysign(1.0, x); }
double refRoundEven(double x) { return std::nearbyint(x); }
double refRoundAfz(double x) { return std::round(x); }
double refNegate(double x) { return -x; }
double refAbs(double x) { return std::fabs(x); }

const std::vector<FloatUnaryCase>& floatUnaryCases() {
  static const std::vector<FloatUnaryCase> cases = {
      {"negate", refNegate, {1.5, -0.0, 0.0, kInf, -3.25}},
      {"abs", refAbs, {-1.5, -0.0, kInf, -kInf, 2.0}},
      {"sign", refSign, {-2.5, -0.0, 0.0, 3.0, kNaN, -kInf}},
      {"exponential", [](double x) { return std::exp(x); }, {0.0, 1.0, -1.5, 10.0, -kInf}},
      {"exponential_minus_one", [](double x) { return std::expm1(x); }, {1e-7, 0.5, -2.0, 0.0}},
      {"log", [](double x) { return std::log(x); }, {1.0, 2.718281828459045, 0.25, 0.0, -1.0}},
      {"log_plus_one", [](double x) { return std::log1p(x); }, {1e-7, 1.0, -1.0, -2.0}},
      {"logistic", refLogistic, {0.0, 2.0, -3.0, 30.0, -30.0}},
      {"tanh", [](double x) { return std::tanh(x); }, {0.0, 0.5, -2.0, 20.0}},
      {"sqrt", [](double x) { return std::sqrt(x); }, {4.0, 2.0, 0.0, -0.0, -1.0, kInf}},
      {"rsqrt", refRsqrt, {4.0, 0.25, 0.0, -1.0}},
      {"cbrt", [](double x) { return std::cbrt(x); }, {27.0, -8.0, 2.0, -0.0}},
      {"sine", [](double x) { return std::sin(x); }, {0.0, 1.0, -2.5, 3.14159}},
      {"cosine", [](double x) { return std::cos(x); }, {0.0, 1.0, -2.5, 3.14159}},
      {"tan", [](double x) { return std::tan(x); }, {0.0, 1.0, -0.5}},
      {"floor", [](double x) { return std::floor(x); }, {1.5, -1.5, -0.0, 2.0, -0.25}},
      {"ceil", [](double x) { return std::ceil(x); }, {1.5, -1.5, -0.25, 2.0}},
      {"round_nearest_even", refRoundEven, {0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 2.4}},
      {"round_nearest_afz", refRoundAfz, {0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 2.4, 0.49999997}},
  };
  return cases;
}

}  // namespace

TEST(float_unary_ops_f32_f64) {
  for (const auto& c : floatUnaryCases()) {
    int64_t n = int64_t(c.inputs.size());
    std::vector<float> in32(c.inputs.begin(), c.inputs.end());
    std::vector<double> want32, want64;
    for (float x : in32) want32.push_back(double(float(c.ref(double(x)))));
    for (double x : c.inputs) want64.push_back(c.ref(x));
    auto r32 = run1(c.op, {f32({n}, in32)}, {ElementType::F32, {n}});
    checkNear(toDouble(read<float>(r32)), want32, 2e-6, c.op);
    auto r64 = run1(c.op, {f64({n}, c.inputs)}, {ElementType::F64, {n}});
    checkNear(read<double>(r64), want64, 1e-14, c.op);
  }
}

TEST(float_unary_ops_f16_bf16_compute_in_float_and_round) {
  for (const auto& c : floatUnaryCases()) {
    int64_t n = int64_t(c.inputs.size());
    std::vector<float> in(c.inputs.begin(), c.inputs.end());
    std::vector<double> wantHalf, wantBrain;
    for (float x : in) {
      wantHalf.push_back(halfToFloat(floatToHalf(float(c.ref(halfToFloat(floatToHalf(x)))))));
      wantBrain.push_back(bf16ToFloat(floatToBf16(float(c.ref(bf16ToFloat(floatToBf16(x)))))));
    }
    auto rh = run1(c.op, {f16({n}, in)}, {ElementType::F16, {n}});
    checkNear(readHalf(rh, false), wantHalf, 1e-3, c.op);
    auto rb = run1(c.op, {bf16({n}, in)}, {ElementType::BF16, {n}});
    checkNear(readHalf(rb, true), wantBrain, 8e-3, c.op);
  }
}

TEST(unary_edges_match_xla) {
  // XLA CPU: sign(-0) = -0, sign(NaN) = NaN, rsqrt(-0) = -Inf, sqrt(-0) = -0, round_afz(-0) = -0.
  auto s = read<float>(run1("sign", {f32({2}, {-0.0f, NAN})}, {ElementType::F32, {2}}));
  CHECK(s[0] == 0 && std::signbit(s[0]));
  CHECK(std::isnan(s[1]));
  auto r = read<float>(run1("rsqrt", {f32({4}, {0.0f, -0.0f, -1.0f, 4.0f})}, {ElementType::F32, {4}}));
  CHECK_EQ(r[0], INFINITY);
  CHECK_EQ(r[1], -INFINITY);
  CHECK(std::isnan(r[2]));
  CHECK_EQ(r[3], 0.5f);
  auto q = read<float>(run1("sqrt", {f32({1}, {-0.0f})}, {ElementType::F32, {1}}));
  CHECK(q[0] == 0 && std::signbit(q[0]));
  auto l = read<float>(run1("logistic", {f32({3}, {-100.0f, 100.0f, 0.0f})}, {ElementType::F32, {3}}));
  CHECK_NEAR(l[0], 0.0, 1e-40);
  CHECK_EQ(l[1], 1.0f);
  CHECK_EQ(l[2], 0.5f);
}

TEST(is_finite) {
  auto r = run1("is_finite", {f32({5}, {1.0f, INFINITY, -INFINITY, NAN, -0.0f})}, {ElementType::Pred, {5}});
  checkValues(read<uint8_t>(r), {1, 0, 0, 0, 1}, "is_finite f32");
  auto h = run1("is_finite", {f16({3}, {INFINITY, 1.0f, NAN})}, {ElementType::Pred, {3}});
  checkValues(read<uint8_t>(h), {0, 1, 0}, "is_finite f16");
  auto d = run1("is_finite", {f64({2}, {1e308, -kInf})}, {ElementType::Pred, {2}});
  checkValues(read<uint8_t>(d), {1, 0}, "is_finite f64");
}

TEST(integer_unary_ops) {
  const int32_t kMin = std::numeric_limits<int32_t>::min();
  auto neg = run1("negate", {i32({4}, {5, -7, 0, kMin})}, {ElementType::S32, {4}});
  checkValues(read<int32_t>(neg), {-5, 7, 0, kMin}, "negate i32");
  auto abs = run1("abs", {i32({4}, {5, -7, 0, kMin})}, {ElementType::S32, {4}});
  checkValues(read<int32_t>(abs), {5, 7, 0, kMin}, "abs i32");
  auto abs8 = run1("abs", {make<int8_t>(ElementType::S8, {2}, {-128, -3})}, {ElementType::S8, {2}});
  checkValues(read<int8_t>(abs8), {-128, 3}, "abs i8");
  auto sign = run1("sign", {i32({3}, {-5, 0, 7})}, {ElementType::S32, {3}});
  checkValues(read<int32_t>(sign), {-1, 0, 1}, "sign i32");
  auto usign = run1("sign", {u32({2}, {0, 9})}, {ElementType::U32, {2}});
  checkValues(read<uint32_t>(usign), {0, 1}, "sign ui32");
  auto nots = run1("not", {i32({2}, {0, 5})}, {ElementType::S32, {2}});
  checkValues(read<int32_t>(nots), {-1, -6}, "not i32");
  auto notu = run1("not", {make<uint8_t>(ElementType::U8, {2}, {0, 5})}, {ElementType::U8, {2}});
  checkValues(read<uint8_t>(notu), {255, 250}, "not ui8");
  auto notp = run1("not", {pred({2}, {1, 0})}, {ElementType::Pred, {2}});
  checkValues(read<uint8_t>(notp), {0, 1}, "not i1");
  auto negu = run1("negate", {make<uint16_t>(ElementType::U16, {2}, {1, 0})}, {ElementType::U16, {2}});
  checkValues(read<uint16_t>(negu), {65535, 0}, "negate ui16");
  auto neg64 = run1("negate", {make<int64_t>(ElementType::S64, {1}, {std::numeric_limits<int64_t>::min()})},
                    {ElementType::S64, {1}});
  checkValues(read<int64_t>(neg64), {std::numeric_limits<int64_t>::min()}, "negate i64");
  auto pop = run1("popcnt", {i32({3}, {-1, 7, 0})}, {ElementType::S32, {3}});
  checkValues(read<int32_t>(pop), {32, 3, 0}, "popcnt");
  auto clz = run1("count_leading_zeros", {make<uint8_t>(ElementType::U8, {3}, {0, 1, 128})}, {ElementType::U8, {3}});
  checkValues(read<uint8_t>(clz), {8, 7, 0}, "clz");
  CHECK_THROWS(run1("exponential", {i32({1}, {1})}, {ElementType::S32, {1}}), "not defined");
}

// --- element-wise binary --------------------------------------------------------------------------

TEST(float_binary_ops_f32_f64_f16_bf16) {
  struct Case {
    const char* op;
    double (*ref)(double, double);
  };
  const Case cases[] = {
      {"add", [](double a, double b) { return a + b; }},
      {"subtract", [](double a, double b) { return a - b; }},
      {"multiply", [](double a, double b) { return a * b; }},
      {"divide", [](double a, double b) { return a / b; }},
      {"remainder", [](double a, double b) { return std::fmod(a, b); }},
      {"power", [](double a, double b) { return std::pow(a, b); }},
      {"atan2", [](double a, double b) { return std::atan2(a, b); }},
  };
  const std::vector<double> a = {1.5, -2.25, 7.0, 0.0, -5.5, 3.0, 2.0};
  const std::vector<double> b = {0.5, 4.0, -2.0, 0.0, 2.0, 0.25, -1.0};
  const int64_t n = int64_t(a.size());
  for (const auto& c : cases) {
    std::vector<double> want;
    for (size_t i = 0; i < a.size(); ++i) want.push_back(c.ref(a[i], b[i]));
    std::vector<float> af(a.begin(), a.end()), bf(b.begin(), b.end());
    checkNear(toDouble(read<float>(run1(c.op, {f32({n}, af), f32({n}, bf)}, {ElementType::F32, {n}}))), want, 1e-6, c.op);
    checkNear(read<double>(run1(c.op, {f64({n}, a), f64({n}, b)}, {ElementType::F64, {n}})), want, 1e-15, c.op);
    checkNear(readHalf(run1(c.op, {f16({n}, af), f16({n}, bf)}, {ElementType::F16, {n}}), false), want, 1e-3, c.op);
    checkNear(readHalf(run1(c.op, {bf16({n}, af), bf16({n}, bf)}, {ElementType::BF16, {n}}), true), want, 8e-3, c.op);
  }
}

TEST(float_binary_edges_match_xla) {
  TensorType t{ElementType::F32, {6}};
  auto a = f32({6}, {NAN, 1.0f, -0.0f, 0.0f, NAN, INFINITY});
  auto b = f32({6}, {1.0f, NAN, 0.0f, -0.0f, NAN, -INFINITY});
  auto mx = read<float>(run1("maximum", {a, b}, t));
  auto mn = read<float>(run1("minimum", {a, b}, t));
  CHECK(std::isnan(mx[0]) && std::isnan(mx[1]) && std::isnan(mx[4]));
  CHECK(std::isnan(mn[0]) && std::isnan(mn[1]) && std::isnan(mn[4]));
  CHECK(mx[2] == 0 && !std::signbit(mx[2]) && !std::signbit(mx[3]));  // max(-0, +0) = +0 either way
  CHECK(mn[2] == 0 && std::signbit(mn[2]) && std::signbit(mn[3]));    // min(-0, +0) = -0 either way
  CHECK_EQ(mx[5], INFINITY);
  CHECK_EQ(mn[5], -INFINITY);
  auto p = read<float>(run1("power", {f32({6}, {-8.0f, 0.0f, 0.0f, NAN, 1.0f, -2.0f}),
                                      f32({6}, {1.0f / 3, -1.0f, 0.0f, 0.0f, NAN, 3.0f})},
                            t));
  CHECK(std::isnan(p[0]));
  CHECK_EQ(p[1], INFINITY);
  CHECK_EQ(p[2], 1.0f);
  CHECK_EQ(p[3], 1.0f);
  CHECK_EQ(p[4], 1.0f);
  CHECK_EQ(p[5], -8.0f);
  auto rem = read<float>(run1("remainder", {f32({4}, {5.5f, -5.5f, -0.0f, 1.0f}), f32({4}, {2.0f, 2.0f, 2.0f, INFINITY})},
                              {ElementType::F32, {4}}));
  CHECK_EQ(rem[0], 1.5f);
  CHECK_EQ(rem[1], -1.5f);
  CHECK(rem[2] == 0 && std::signbit(rem[2]));
  CHECK_EQ(rem[3], 1.0f);
  auto at = read<float>(run1("atan2", {f32({3}, {0.0f, -0.0f, 1.0f}), f32({3}, {-0.0f, -1.0f, 0.0f})}, {ElementType::F32, {3}}));
  CHECK_NEAR(at[0], M_PI, 1e-6);
  CHECK_NEAR(at[1], -M_PI, 1e-6);
  CHECK_NEAR(at[2], M_PI / 2, 1e-6);
}

TEST(integer_arithmetic_wraps) {
  auto add8 = run1("add", {make<int8_t>(ElementType::S8, {2}, {127, -128}), make<int8_t>(ElementType::S8, {2}, {1, -1})},
                   {ElementType::S8, {2}});
  checkValues(read<int8_t>(add8), {-128, 127}, "add i8");
  auto mul8 = run1("multiply", {make<int8_t>(ElementType::S8, {1}, {100}), make<int8_t>(ElementType::S8, {1}, {3})},
                   {ElementType::S8, {1}});
  checkValues(read<int8_t>(mul8), {44}, "multiply i8");
  auto mul16 = run1("multiply", {make<uint16_t>(ElementType::U16, {1}, {65535}), make<uint16_t>(ElementType::U16, {1}, {65535})},
                    {ElementType::U16, {1}});
  checkValues(read<uint16_t>(mul16), {1}, "multiply ui16");
  const int32_t kMax = std::numeric_limits<int32_t>::max();
  auto add32 = run1("add", {i32({2}, {kMax, 5}), i32({2}, {1, -9})}, {ElementType::S32, {2}});
  checkValues(read<int32_t>(add32), {std::numeric_limits<int32_t>::min(), -4}, "add i32");
  auto sub = run1("subtract", {u32({2}, {0, 10}), u32({2}, {1, 3})}, {ElementType::U32, {2}});
  checkValues(read<uint32_t>(sub), {0xffffffffu, 7}, "subtract ui32");
  const int64_t kMax64 = std::numeric_limits<int64_t>::max();
  auto mul64 = run1("multiply", {make<int64_t>(ElementType::S64, {2}, {kMax64, -3}), make<int64_t>(ElementType::S64, {2}, {2, 4})},
                    {ElementType::S64, {2}});
  checkValues(read<int64_t>(mul64), {-2, -12}, "multiply i64");
  auto mx = run1("maximum", {i32({2}, {-3, 4}), i32({2}, {2, -9})}, {ElementType::S32, {2}});
  checkValues(read<int32_t>(mx), {2, 4}, "maximum i32");
  auto mnu = run1("minimum", {u32({2}, {0xffffffffu, 4}), u32({2}, {2, 9})}, {ElementType::U32, {2}});
  checkValues(read<uint32_t>(mnu), {2, 4}, "minimum ui32");
}

TEST(integer_division_and_remainder_edges) {
  const int32_t kMin = std::numeric_limits<int32_t>::min();
  auto a = i32({8}, {7, -7, 7, -7, 5, kMin, kMin, 0});
  auto b = i32({8}, {2, 2, -2, -2, 0, -1, 0, 0});
  TensorType t{ElementType::S32, {8}};
  checkValues(read<int32_t>(run1("divide", {a, b}, t)), {3, -3, -3, 3, -1, kMin, -1, -1}, "divide i32");
  checkValues(read<int32_t>(run1("remainder", {a, b}, t)), {1, -1, 1, -1, 5, 0, kMin, 0}, "remainder i32");
  auto ua = u32({3}, {7, 5, 0}), ub = u32({3}, {2, 0, 0});
  TensorType ut{ElementType::U32, {3}};
  checkValues(read<uint32_t>(run1("divide", {ua, ub}, ut)), {3, 0xffffffffu, 0xffffffffu}, "divide ui32");
  checkValues(read<uint32_t>(run1("remainder", {ua, ub}, ut)), {1, 5, 0}, "remainder ui32");
  auto d8 = run1("divide", {make<int8_t>(ElementType::S8, {2}, {-128, 5}), make<int8_t>(ElementType::S8, {2}, {-1, 0})},
                 {ElementType::S8, {2}});
  checkValues(read<int8_t>(d8), {-128, -1}, "divide i8");
}

TEST(integer_power) {
  auto p = run1("power", {i32({11}, {2, 2, -2, 1, -1, -1, 0, 0, 3, 2, -3}), i32({11}, {10, -1, 3, -5, -5, -4, 0, -1, 40, 31, 3})},
                {ElementType::S32, {11}});
  checkValues(read<int32_t>(p), {1024, 0, -8, 1, -1, 1, 1, 0, 689956897, std::numeric_limits<int32_t>::min(), -27}, "power i32");
  auto u = run1("power", {u32({4}, {2, 3, 0, 0}), u32({4}, {3, 40, 0, 5})}, {ElementType::U32, {4}});
  checkValues(read<uint32_t>(u), {8, 689956897, 1, 0}, "power ui32");
  // XLA squares six times: only the exponent's low 6 bits count, and a top-bit-set unsigned exponent
  // behaves as a negative one.
  auto s16 = run1("power", {make<int16_t>(ElementType::S16, {1}, {3}), make<int16_t>(ElementType::S16, {1}, {32767})},
                  {ElementType::S16, {1}});
  checkValues(read<int16_t>(s16), {-5717}, "power i16 huge exponent");
  auto u8 = run1("power", {make<uint8_t>(ElementType::U8, {3}, {75, 255, 255}), make<uint8_t>(ElementType::U8, {3}, {255, 255, 254})},
                 {ElementType::U8, {3}});
  checkValues(read<uint8_t>(u8), {0, 255, 1}, "power ui8 negative-as-signed exponent");
}

TEST(bitwise_and_shifts) {
  TensorType t{ElementType::S32, {3}};
  auto a = i32({3}, {0b1100, -1, 0}), b = i32({3}, {0b1010, 0x0f0f, 7});
  checkValues(read<int32_t>(run1("and", {a, b}, t)), {0b1000, 0x0f0f, 0}, "and");
  checkValues(read<int32_t>(run1("or", {a, b}, t)), {0b1110, -1, 7}, "or");
  checkValues(read<int32_t>(run1("xor", {a, b}, t)), {0b0110, ~0x0f0f, 7}, "xor");
  auto p = pred({4}, {1, 1, 0, 0}), q = pred({4}, {1, 0, 1, 0});
  TensorType pt{ElementType::Pred, {4}};
  checkValues(read<uint8_t>(run1("and", {p, q}, pt)), {1, 0, 0, 0}, "and i1");
  checkValues(read<uint8_t>(run1("or", {p, q}, pt)), {1, 1, 1, 0}, "or i1");
  checkValues(read<uint8_t>(run1("xor", {p, q}, pt)), {0, 1, 1, 0}, "xor i1");
  checkValues(read<uint8_t>(run1("add", {p, q}, pt)), {1, 1, 1, 0}, "add i1");
  checkValues(read<uint8_t>(run1("multiply", {p, q}, pt)), {1, 0, 0, 0}, "multiply i1");

  auto s = i32({8}, {1, 1, 1, -8, -8, -8, -8, 5}), sh = i32({8}, {31, 32, 33, 1, 32, -1, 100, -5});
  TensorType st{ElementType::S32, {8}};
  const int32_t kMin = std::numeric_limits<int32_t>::min();
  checkValues(read<int32_t>(run1("shift_left", {s, sh}, st)), {kMin, 0, 0, -16, 0, 0, 0, 0}, "shift_left");
  checkValues(read<int32_t>(run1("shift_right_arithmetic", {s, sh}, st)), {0, 0, 0, -4, -1, -1, -1, 0}, "sra");
  checkValues(read<int32_t>(run1("shift_right_logical", {s, sh}, st)), {0, 0, 0, 2147483644, 0, 0, 0, 0}, "srl");
  auto us = u32({3}, {0x80000000u, 0x80000000u, 0x80000000u}), ush = u32({3}, {1, 32, 31});
  TensorType ut{ElementType::U32, {3}};
  checkValues(read<uint32_t>(run1("shift_right_arithmetic", {us, ush}, ut)), {0xc0000000u, 0xffffffffu, 0xffffffffu}, "sra ui32");
  checkValues(read<uint32_t>(run1("shift_right_logical", {us, ush}, ut)), {0x40000000u, 0, 1}, "srl ui32");
  auto s8 = run1("shift_left", {make<uint8_t>(ElementType::U8, {2}, {0x81, 1}), make<uint8_t>(ElementType::U8, {2}, {1, 8})},
                 {ElementType::U8, {2}});
  checkValues(read<uint8_t>(s8), {0x02, 0}, "shift_left ui8");
  CHECK_THROWS(run1("and", {f32({1}, {1}), f32({1}, {1})}, {ElementType::F32, {1}}), "not defined");
}

// --- compare, select, clamp -----------------------------------------------------------------------

namespace {
std::string direction(const char* d, const char* type = nullptr) {
  std::string s = std::string("comparison_direction = #stablehlo<comparison_direction ") + d + ">";
  if (type) s += std::string(", compare_type = #stablehlo<comparison_type ") + type + ">";
  return s;
}
}  // namespace

TEST(compare_every_direction) {
  const std::vector<double> a = {1.0, 2.0, 3.0, kNaN, -0.0, kInf};
  const std::vector<double> b = {2.0, 2.0, 2.0, 1.0, 0.0, kInf};
  const char* dirs[] = {"EQ", "NE", "GE", "GT", "LE", "LT"};
  auto ref = [](int d, double x, double y) -> uint8_t {
    switch (d) {
      case 0: return x == y;
      case 1: return x != y;
      case 2: return x >= y;
      case 3: return x > y;
      case 4: return x <= y;
      default: return x < y;
    }
  };
  const int64_t n = int64_t(a.size());
  std::vector<float> af(a.begin(), a.end()), bf(b.begin(), b.end());
  for (int d = 0; d < 6; ++d) {
    std::vector<uint8_t> want;
    for (size_t i = 0; i < a.size(); ++i) want.push_back(ref(d, a[i], b[i]));
    TensorType pt{ElementType::Pred, {n}};
    checkValues(read<uint8_t>(run1("compare", {f32({n}, af), f32({n}, bf)}, pt, direction(dirs[d]))), want, dirs[d]);
    checkValues(read<uint8_t>(run1("compare", {f64({n}, a), f64({n}, b)}, pt, direction(dirs[d], "FLOAT"))), want, dirs[d]);
    checkValues(read<uint8_t>(run1("compare", {bf16({n}, af), bf16({n}, bf)}, pt, direction(dirs[d]))), want, dirs[d]);
    checkValues(read<uint8_t>(run1("compare", {f16({n}, af), f16({n}, bf)}, pt, direction(dirs[d]))), want, dirs[d]);
  }
  // Signed versus unsigned order, and i1 (false < true).
  auto s = run1("compare", {i32({2}, {-1, 1}), i32({2}, {1, 1})}, {ElementType::Pred, {2}}, direction("LT", "SIGNED"));
  checkValues(read<uint8_t>(s), {1, 0}, "LT i32");
  auto u = run1("compare", {u32({2}, {0xffffffffu, 1}), u32({2}, {1, 1})}, {ElementType::Pred, {2}}, direction("GT", "UNSIGNED"));
  checkValues(read<uint8_t>(u), {1, 0}, "GT ui32");
  auto p = run1("compare", {pred({3}, {0, 1, 1}), pred({3}, {1, 0, 1})}, {ElementType::Pred, {3}}, direction("LT"));
  checkValues(read<uint8_t>(p), {1, 0, 0}, "LT i1");
  auto i64s = run1("compare", {make<int64_t>(ElementType::S64, {2}, {-5, 3}), make<int64_t>(ElementType::S64, {2}, {-5, 4})},
                   {ElementType::Pred, {2}}, direction("GE"));
  checkValues(read<uint8_t>(i64s), {1, 0}, "GE i64");
}

TEST(compare_totalorder) {
  const float negNaN = -std::numeric_limits<float>::quiet_NaN();
  auto a = f32({5}, {NAN, -0.0f, negNaN, 1.0f, NAN});
  auto b = f32({5}, {NAN, 0.0f, 1.0f, NAN, -INFINITY});
  TensorType pt{ElementType::Pred, {5}};
  checkValues(read<uint8_t>(run1("compare", {a, b}, pt, direction("LT", "TOTALORDER"))), {0, 1, 1, 1, 0}, "LT total");
  checkValues(read<uint8_t>(run1("compare", {a, b}, pt, direction("EQ", "TOTALORDER"))), {1, 0, 0, 0, 0}, "EQ total");
  checkValues(read<uint8_t>(run1("compare", {a, b}, pt, direction("LT", "FLOAT"))), {0, 0, 0, 0, 0}, "LT float");
  auto d = run1("compare", {f64({2}, {-0.0, -kInf}), f64({2}, {0.0, -kNaN})}, {ElementType::Pred, {2}}, direction("GT", "TOTALORDER"));
  checkValues(read<uint8_t>(d), {0, 1}, "GT total f64");
}

TEST(select_with_tensor_and_scalar_predicate) {
  auto r = run1("select", {pred({4}, {1, 0, 1, 0}), f32({4}, {1, 2, 3, 4}), f32({4}, {10, 20, 30, 40})}, {ElementType::F32, {4}});
  checkValues(read<float>(r), {1, 20, 3, 40}, "select f32");
  auto s = run1("select", {pred({}, {0}), i32({3}, {1, 2, 3}), i32({3}, {7, 8, 9})}, {ElementType::S32, {3}});
  checkValues(read<int32_t>(s), {7, 8, 9}, "select scalar pred");
  auto h = run1("select", {pred({2}, {0, 1}), f16({2}, {1, 2}), f16({2}, {3, 4})}, {ElementType::F16, {2}});
  checkValues(readHalf(h, false), {3, 2}, "select f16");
  auto d = run1("select", {pred({2}, {1, 0}), f64({2}, {1, 2}), f64({2}, {3, 4})}, {ElementType::F64, {2}});
  checkValues(read<double>(d), {1, 4}, "select f64");
  auto p = run1("select", {pred({2}, {1, 0}), pred({2}, {0, 0}), pred({2}, {1, 1})}, {ElementType::Pred, {2}});
  checkValues(read<uint8_t>(p), {0, 1}, "select i1");
}

TEST(clamp_with_scalar_and_tensor_bounds) {
  auto r = run1("clamp", {f32({}, {0}), f32({4}, {NAN, -1, 2, 0.5f}), f32({}, {1})}, {ElementType::F32, {4}});
  auto v = read<float>(r);
  CHECK(std::isnan(v[0]));
  CHECK_EQ(v[1], 0.0f);
  CHECK_EQ(v[2], 1.0f);
  CHECK_EQ(v[3], 0.5f);
  auto nanBound = read<float>(run1("clamp", {f32({}, {NAN}), f32({2}, {-1, 0.5f}), f32({}, {1})}, {ElementType::F32, {2}}));
  CHECK(std::isnan(nanBound[0]) && std::isnan(nanBound[1]));
  auto t = run1("clamp", {i32({3}, {0, 5, -10}), i32({3}, {-4, 4, 4}), i32({3}, {2, 9, -5})}, {ElementType::S32, {3}});
  checkValues(read<int32_t>(t), {0, 5, -5}, "clamp i32 tensor bounds");
  auto u = run1("clamp", {make<uint8_t>(ElementType::U8, {}, {10}), make<uint8_t>(ElementType::U8, {3}, {0, 50, 255}),
                          make<uint8_t>(ElementType::U8, {}, {200})},
                {ElementType::U8, {3}});
  checkValues(read<uint8_t>(u), {10, 50, 200}, "clamp ui8");
  auto b = run1("clamp", {bf16({}, {-1}), bf16({3}, {-3, 0.5f, 3}), bf16({}, {1})}, {ElementType::BF16, {3}});
  checkValues(readHalf(b, true), {-1, 0.5, 1}, "clamp bf16");
}

TEST(clamp_i1_including_min_above_max) {
  // result = min(max(x, lo), hi) with false < true; lo > hi gives hi everywhere (XLA CPU agrees).
  const Literal x = pred({2, 3}, {1, 0, 1, 0, 0, 1});
  auto same = run1("clamp", {pred({}, {0}), x, pred({}, {1})}, {ElementType::Pred, {2, 3}});
  checkValues(read<uint8_t>(same), {1, 0, 1, 0, 0, 1}, "clamp i1 [false, true]");
  auto high = run1("clamp", {pred({}, {1}), x, pred({}, {1})}, {ElementType::Pred, {2, 3}});
  checkValues(read<uint8_t>(high), {1, 1, 1, 1, 1, 1}, "clamp i1 [true, true]");
  auto crossed = run1("clamp", {pred({}, {1}), x, pred({}, {0})}, {ElementType::Pred, {2, 3}});
  checkValues(read<uint8_t>(crossed), {0, 0, 0, 0, 0, 0}, "clamp i1 lo > hi");
  auto tensors = run1("clamp", {pred({4}, {0, 1, 0, 1}), pred({4}, {0, 0, 1, 1}), pred({4}, {0, 0, 1, 1})},
                      {ElementType::Pred, {4}});
  checkValues(read<uint8_t>(tensors), {0, 0, 1, 1}, "clamp i1 tensor bounds");
  auto ints = run1("clamp", {i32({}, {5}), i32({3}, {0, 7, 9}), i32({}, {2})}, {ElementType::S32, {3}});
  checkValues(read<int32_t>(ints), {2, 2, 2}, "clamp i32 lo > hi");
}

// --- convert and bitcast_convert ------------------------------------------------------------------

TEST(convert_float_to_integer_truncates_and_saturates) {
  const std::vector<float> x = {NAN, INFINITY, -INFINITY, 3e9f, -3e9f, 2.7f, -2.7f, -0.0f, 1e20f, -1e20f, 255.9f, 256.5f, -1.5f};
  const int64_t n = int64_t(x.size());
  auto in = f32({n}, x);
  const int32_t kMax = std::numeric_limits<int32_t>::max(), kMin = std::numeric_limits<int32_t>::min();
  checkValues(read<int32_t>(run1("convert", {in}, {ElementType::S32, {n}})),
              {0, kMax, kMin, kMax, kMin, 2, -2, 0, kMax, kMin, 255, 256, -1}, "f32->i32");
  checkValues(read<uint32_t>(run1("convert", {in}, {ElementType::U32, {n}})),
              {0, 0xffffffffu, 0, 3000000000u, 0, 2, 0, 0, 0xffffffffu, 0, 255, 256, 0}, "f32->ui32");
  checkValues(read<int8_t>(run1("convert", {in}, {ElementType::S8, {n}})),
              {0, 127, -128, 127, -128, 2, -2, 0, 127, -128, 127, 127, -1}, "f32->i8");
  checkValues(read<uint8_t>(run1("convert", {in}, {ElementType::U8, {n}})),
              {0, 255, 0, 255, 0, 2, 0, 0, 255, 0, 255, 255, 0}, "f32->ui8");
  const int64_t kMax64 = std::numeric_limits<int64_t>::max(), kMin64 = std::numeric_limits<int64_t>::min();
  checkValues(read<int64_t>(run1("convert", {in}, {ElementType::S64, {n}})),
              {0, kMax64, kMin64, 3000000000, -3000000000, 2, -2, 0, kMax64, kMin64, 255, 256, -1}, "f32->i64");
  checkValues(read<uint64_t>(run1("convert", {f64({4}, {1e20, -5.0, kNaN, 1.8e19})}, {ElementType::U64, {4}})),
              {~uint64_t(0), 0, 0, 18000000000000000000ull}, "f64->ui64");
  checkValues(read<int64_t>(run1("convert", {f64({3}, {1e19, -1e19, 9.3e18})}, {ElementType::S64, {3}})),
              {kMax64, kMin64, kMax64}, "f64->i64");
  checkValues(read<int8_t>(run1("convert", {f16({3}, {300, -300, NAN})}, {ElementType::S8, {3}})), {127, -128, 0}, "f16->i8");
  checkValues(read<int32_t>(run1("convert", {bf16({3}, {3e9f, -3e9f, NAN})}, {ElementType::S32, {3}})), {kMax, kMin, 0},
              "bf16->i32");
}

TEST(convert_between_integers_pred_and_floats) {
  checkValues(read<int8_t>(run1("convert", {i32({3}, {300, -129, 127})}, {ElementType::S8, {3}})), {44, 127, 127}, "i32->i8");
  checkValues(read<uint8_t>(run1("convert", {i32({3}, {300, -1, 127})}, {ElementType::U8, {3}})), {44, 255, 127}, "i32->ui8");
  checkValues(read<int32_t>(run1("convert", {u32({1}, {0xffffffffu})}, {ElementType::S32, {1}})), {-1}, "ui32->i32");
  checkValues(read<int64_t>(run1("convert", {i32({1}, {-5})}, {ElementType::S64, {1}})), {-5}, "i32->i64");
  checkValues(read<uint64_t>(run1("convert", {i32({1}, {-1})}, {ElementType::U64, {1}})), {~uint64_t(0)}, "i32->ui64");
  checkValues(read<uint8_t>(run1("convert", {f32({4}, {0.0f, -0.0f, NAN, 2.0f})}, {ElementType::Pred, {4}})), {0, 0, 1, 1}, "f32->i1");
  checkValues(read<uint8_t>(run1("convert", {i32({3}, {0, 2, -1})}, {ElementType::Pred, {3}})), {0, 1, 1}, "i32->i1");
  checkValues(read<float>(run1("convert", {pred({2}, {1, 0})}, {ElementType::F32, {2}})), {1.0f, 0.0f}, "i1->f32");
  checkValues(read<int32_t>(run1("convert", {pred({2}, {1, 0})}, {ElementType::S32, {2}})), {1, 0}, "i1->i32");
  checkValues(read<float>(run1("convert", {make<uint64_t>(ElementType::U64, {1}, {~uint64_t(0)})}, {ElementType::F32, {1}})),
              {18446744073709551616.0f}, "ui64->f32");
  checkValues(read<float>(run1("convert", {make<int64_t>(ElementType::S64, {1}, {16777217})}, {ElementType::F32, {1}})),
              {16777216.0f}, "i64->f32 rounds to even");
  checkValues(readHalf(run1("convert", {make<int64_t>(ElementType::S64, {4}, {65519, 65520, 100000, 2049})}, {ElementType::F16, {4}}),
                       false),
              {65504.0, kInf, kInf, 2048.0}, "i64->f16");
  checkValues(read<double>(run1("convert", {f32({2}, {0.1f, -INFINITY})}, {ElementType::F64, {2}})), {double(0.1f), -kInf}, "f32->f64");
  checkValues(read<float>(run1("convert", {f64({2}, {0.1, 1e300})}, {ElementType::F32, {2}})), {0.1f, INFINITY}, "f64->f32");
}

TEST(convert_to_half_types_rounds_to_nearest_even) {
  auto h = run1("convert", {f32({6}, {65519.0f, 65520.0f, 1e-8f, 2.9802322e-08f, 2.9802326e-08f, 1.0f + std::ldexp(1.0f, -11)})},
                {ElementType::F16, {6}});
  checkValues(read<uint16_t>(h), {0x7bff, 0x7c00, 0x0000, 0x0000, 0x0001, 0x3c00}, "f32->f16");
  // f64 reaches f16 through f32, as XLA does: 1 + 2^-11 + 2^-40 becomes the tie 1 + 2^-11 and rounds to 1.
  auto d = run1("convert", {f64({2}, {1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40), 65519.99})}, {ElementType::F16, {2}});
  checkValues(read<uint16_t>(d), {0x3c00, 0x7bff}, "f64->f16");
  auto b = run1("convert", {f32({3}, {1.0f + std::ldexp(1.0f, -8), 1.0f + 3 * std::ldexp(1.0f, -8), -2.5f})}, {ElementType::BF16, {3}});
  checkValues(read<uint16_t>(b), {0x3f80, 0x3f82, 0xc020}, "f32->bf16");
  auto hb = run1("convert", {f16({2}, {1.5f, -65504.0f})}, {ElementType::BF16, {2}});
  checkValues(readHalf(hb, true), {1.5, -65536.0}, "f16->bf16");
  auto bh = run1("convert", {bf16({2}, {1e6f, 3.0f})}, {ElementType::F16, {2}});
  checkValues(readHalf(bh, false), {kInf, 3.0}, "bf16->f16");
}

TEST(bitcast_convert_same_and_changed_width) {
  auto r = run1("bitcast_convert", {f32({2}, {1.0f, -2.0f})}, {ElementType::S32, {2}});
  checkValues(read<int32_t>(r), {0x3f800000, int32_t(0xc0000000u)}, "f32->i32");
  auto back = run1("bitcast_convert", {r}, {ElementType::F32, {2}});
  checkValues(read<float>(back), {1.0f, -2.0f}, "i32->f32");
  auto split = run1("bitcast_convert", {f32({2}, {1.0f, -2.5f})}, {ElementType::U16, {2, 2}});
  checkValues(read<uint16_t>(split), {0, 16256, 0, 49184}, "f32->2xui16");
  auto join = run1("bitcast_convert", {split}, {ElementType::F32, {2}});
  checkValues(read<float>(join), {1.0f, -2.5f}, "2xui16->f32");
  auto wide = run1("bitcast_convert", {u32({2}, {0, 0x3ff00000u})}, {ElementType::F64, {}});
  checkValues(read<double>(wide), {1.0}, "2xui32->f64");
  auto h = run1("bitcast_convert", {make<uint16_t>(ElementType::U16, {1}, {0x3c00})}, {ElementType::F16, {1}});
  checkValues(readHalf(h, false), {1.0}, "ui16->f16");
}

// --- data movement --------------------------------------------------------------------------------

TEST(iota_along_each_dimension) {
  auto a = runText(R"(func.func public @main() -> tensor<2x3xi32> {
    %r = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<2x3xi32>
    "func.return"(%r) : (tensor<2x3xi32>) -> ()
  })", {});
  checkValues(read<int32_t>(a[0]), {0, 1, 2, 0, 1, 2}, "iota dim 1");
  auto b = runText(R"(func.func public @main() -> tensor<3x2xf32> {
    %r = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<3x2xf32>
    "func.return"(%r) : (tensor<3x2xf32>) -> ()
  })", {});
  checkValues(read<float>(b[0]), {0, 0, 1, 1, 2, 2}, "iota f32 dim 0");
  auto c = runText(R"(func.func public @main() -> tensor<4xbf16> {
    %r = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<4xbf16>
    "func.return"(%r) : (tensor<4xbf16>) -> ()
  })", {});
  checkValues(readHalf(c[0], true), {0, 1, 2, 3}, "iota bf16");
}

TEST(broadcast_in_dim_reshape_transpose) {
  auto b = run1("broadcast_in_dim", {f32({3}, {1, 2, 3})}, {ElementType::F32, {2, 3}}, "broadcast_dimensions = array<i64: 1>");
  checkValues(read<float>(b), {1, 2, 3, 1, 2, 3}, "broadcast row");
  auto c = run1("broadcast_in_dim", {i32({2, 1}, {7, 8})}, {ElementType::S32, {2, 3}}, "broadcast_dimensions = array<i64: 0, 1>");
  checkValues(read<int32_t>(c), {7, 7, 7, 8, 8, 8}, "broadcast size-1 dim");
  auto s = run1("broadcast_in_dim", {f64({}, {2.5})}, {ElementType::F64, {2, 2}}, "broadcast_dimensions = array<i64>");
  checkValues(read<double>(s), {2.5, 2.5, 2.5, 2.5}, "broadcast scalar");
  auto t = run1("broadcast_in_dim", {i32({2}, {1, 2})}, {ElementType::S32, {2, 2}}, "broadcast_dimensions = array<i64: 0>");
  checkValues(read<int32_t>(t), {1, 1, 2, 2}, "broadcast column");
  auto r = run1("reshape", {i32({2, 3}, {1, 2, 3, 4, 5, 6})}, {ElementType::S32, {3, 2}});
  checkValues(read<int32_t>(r), {1, 2, 3, 4, 5, 6}, "reshape");
  CHECK(r.type.dims == std::vector<int64_t>({3, 2}));
  std::vector<int32_t> x(24);
  for (int i = 0; i < 24; ++i) x[size_t(i)] = i;
  auto tr = run1("transpose", {i32({2, 3, 4}, x)}, {ElementType::S32, {4, 2, 3}}, "permutation = array<i64: 2, 0, 1>");
  std::vector<int32_t> want;
  for (int k = 0; k < 4; ++k)
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j) want.push_back(i * 12 + j * 4 + k);
  checkValues(read<int32_t>(tr), want, "transpose 3-d");
  auto th = run1("transpose", {f16({2, 2}, {1, 2, 3, 4})}, {ElementType::F16, {2, 2}}, "permutation = array<i64: 1, 0>");
  checkValues(readHalf(th, false), {1, 3, 2, 4}, "transpose f16");
}

TEST(slice_with_strides_and_reverse) {
  std::vector<int32_t> x(20);
  for (int i = 0; i < 20; ++i) x[size_t(i)] = i;
  auto s = run1("slice", {i32({4, 5}, x)}, {ElementType::S32, {2, 2}},
                "start_indices = array<i64: 1, 0>, limit_indices = array<i64: 4, 5>, strides = array<i64: 2, 3>");
  checkValues(read<int32_t>(s), {5, 8, 15, 18}, "slice");
  auto e = run1("slice", {i32({4, 5}, x)}, {ElementType::S32, {0, 5}},
                "start_indices = array<i64: 2, 0>, limit_indices = array<i64: 2, 5>, strides = array<i64: 1, 1>");
  CHECK_EQ(e.bytes.size(), size_t(0));
  auto r = run1("reverse", {i32({2, 3}, {1, 2, 3, 4, 5, 6})}, {ElementType::S32, {2, 3}}, "dimensions = array<i64: 1>");
  checkValues(read<int32_t>(r), {3, 2, 1, 6, 5, 4}, "reverse dim 1");
  auto rr = run1("reverse", {i32({2, 3}, {1, 2, 3, 4, 5, 6})}, {ElementType::S32, {2, 3}}, "dimensions = array<i64: 0, 1>");
  checkValues(read<int32_t>(rr), {6, 5, 4, 3, 2, 1}, "reverse both");
}

TEST(dynamic_slice_clamps_start_indices) {
  std::vector<int32_t> x = {0, 1, 2, 3, 4};
  TensorType t{ElementType::S32, {2}};
  auto lo = run1("dynamic_slice", {i32({5}, x), i32({}, {-3})}, t, "slice_sizes = array<i64: 2>");
  checkValues(read<int32_t>(lo), {0, 1}, "negative start");
  auto hi = run1("dynamic_slice", {i32({5}, x), u32({}, {4000000000u})}, t, "slice_sizes = array<i64: 2>");
  checkValues(read<int32_t>(hi), {3, 4}, "huge unsigned start");
  auto mid = run1("dynamic_slice", {i32({5}, x), make<int64_t>(ElementType::S64, {}, {2})}, t, "slice_sizes = array<i64: 2>");
  checkValues(read<int32_t>(mid), {2, 3}, "in range");
  std::vector<float> m(12);
  for (int i = 0; i < 12; ++i) m[size_t(i)] = float(i);
  auto two = run1("dynamic_slice", {f32({3, 4}, m), i32({}, {1}), i32({}, {3})}, {ElementType::F32, {2, 2}},
                  "slice_sizes = array<i64: 2, 2>");
  checkValues(read<float>(two), {6, 7, 10, 11}, "2-d clamped");
}

TEST(dynamic_update_slice_clamps_start_indices) {
  std::vector<float> m(12, 0.0f);
  auto r = run1("dynamic_update_slice", {f32({3, 4}, m), f32({2, 2}, {1, 2, 3, 4}), i32({}, {5}), i32({}, {-1})},
                {ElementType::F32, {3, 4}});
  checkValues(read<float>(r), {0, 0, 0, 0, 1, 2, 0, 0, 3, 4, 0, 0}, "update clamped to (1, 0)");
  auto u = run1("dynamic_update_slice", {i32({4}, {1, 2, 3, 4}), i32({2}, {9, 9}), i32({}, {1})}, {ElementType::S32, {4}});
  checkValues(read<int32_t>(u), {1, 9, 9, 4}, "update 1-d");
}

TEST(concatenate_along_inner_and_outer_dims) {
  auto inner = run1("concatenate", {i32({2, 1}, {1, 2}), i32({2, 2}, {3, 4, 5, 6})}, {ElementType::S32, {2, 3}}, "dimension = 1 : i64");
  checkValues(read<int32_t>(inner), {1, 3, 4, 2, 5, 6}, "concat dim 1");
  auto outer = run1("concatenate", {f16({1, 2}, {1, 2}), f16({2, 2}, {3, 4, 5, 6}), f16({1, 2}, {7, 8})}, {ElementType::F16, {4, 2}},
                    "dimension = 0 : i64");
  checkValues(readHalf(outer, false), {1, 2, 3, 4, 5, 6, 7, 8}, "concat dim 0");
}

TEST(pad_with_interior_and_negative_edges) {
  auto a = run1("pad", {i32({3}, {1, 2, 3}), i32({}, {0})}, {ElementType::S32, {6}},
                "edge_padding_low = array<i64: -1>, edge_padding_high = array<i64: 2>, interior_padding = array<i64: 1>");
  checkValues(read<int32_t>(a), {0, 2, 0, 3, 0, 0}, "pad 1-d");
  auto b = run1("pad", {f32({2, 3}, {1, 2, 3, 4, 5, 6}), f32({}, {9})}, {ElementType::F32, {4, 3}},
                "edge_padding_low = array<i64: 1, -1>, edge_padding_high = array<i64: 0, 1>, interior_padding = array<i64: 1, 0>");
  checkValues(read<float>(b), {9, 9, 9, 2, 3, 9, 9, 9, 9, 5, 6, 9}, "pad 2-d");
  auto c = run1("pad", {i32({4}, {1, 2, 3, 4}), i32({}, {7})}, {ElementType::S32, {3}},
                "edge_padding_low = array<i64: -2>, edge_padding_high = array<i64: -2>, interior_padding = array<i64: 1>");
  checkValues(read<int32_t>(c), {2, 7, 3}, "pad negative both sides");
}

// --- dot_general ----------------------------------------------------------------------------------

namespace {
std::string dotDims(const char* lb, const char* rb, const char* lc, const char* rc) {
  return std::string("dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [") + lb +
         "], rhs_batching_dimensions = [" + rb + "], lhs_contracting_dimensions = [" + lc +
         "], rhs_contracting_dimensions = [" + rc + "]>";
}
}  // namespace

TEST(dot_general_matmul) {
  auto r = run1("dot_general", {f32({2, 3}, {1, 2, 3, 4, 5, 6}), f32({3, 2}, {7, 8, 9, 10, 11, 12})}, {ElementType::F32, {2, 2}},
                dotDims("", "", "1", "0"));
  checkValues(read<float>(r), {58, 64, 139, 154}, "matmul f32");
  auto i = run1("dot_general", {i32({2, 3}, {1, 2, 3, 4, 5, 6}), i32({3, 2}, {7, 8, 9, 10, 11, 12})}, {ElementType::S32, {2, 2}},
                dotDims("", "", "1", "0"));
  checkValues(read<int32_t>(i), {58, 64, 139, 154}, "matmul i32");
  auto v = run1("dot_general", {f64({3}, {1, 2, 3}), f64({3}, {4, 5, 6})}, {ElementType::F64, {}}, dotDims("", "", "0", "0"));
  checkValues(read<double>(v), {32}, "vector dot f64");
  auto o = run1("dot_general", {f32({2}, {1, 2}), f32({3}, {3, 4, 5})}, {ElementType::F32, {2, 3}}, dotDims("", "", "", ""));
  checkValues(read<float>(o), {3, 4, 5, 6, 8, 10}, "outer product");
  auto e = run1("dot_general", {f32({2}, {1, 2}), f32({3}, {3, 4, 5})}, {ElementType::F32, {2, 3}},
                "dot_dimension_numbers = #stablehlo.dot<>");
  checkValues(read<float>(e), {3, 4, 5, 6, 8, 10}, "outer product, every list left out (#stablehlo.dot<>)");
  auto b = run1("dot_general", {bf16({2, 2}, {1, 2, 3, 4}), bf16({2, 2}, {0.5f, 1, 1.5f, 2})}, {ElementType::BF16, {2, 2}},
                dotDims("", "", "1", "0"));
  checkValues(readHalf(b, true), {3.5, 5, 7.5, 11}, "matmul bf16");
  auto w = run1("dot_general", {make<int8_t>(ElementType::S8, {1, 2}, {100, 100}), make<int8_t>(ElementType::S8, {2, 1}, {2, 1})},
                {ElementType::S8, {1, 1}}, dotDims("", "", "1", "0"));
  checkValues(read<int8_t>(w), {44}, "matmul i8 wraps");
}

TEST(dot_general_with_batch_and_transposed_contraction) {
  // lhs [k=3, b=2, m=2], rhs [b=2, n=2, k=3]: result [b, m, n] = Σ_k lhs[k, b, m] · rhs[b, n, k].
  std::vector<double> lhs(12), rhs(12);
  for (int i = 0; i < 12; ++i) {
    lhs[size_t(i)] = i + 1;
    rhs[size_t(i)] = (i % 5) - 2;
  }
  auto r = run1("dot_general", {f64({3, 2, 2}, lhs), f64({2, 2, 3}, rhs)}, {ElementType::F64, {2, 2, 2}}, dotDims("1", "0", "0", "2"));
  std::vector<double> want;
  for (int b = 0; b < 2; ++b)
    for (int m = 0; m < 2; ++m)
      for (int n = 0; n < 2; ++n) {
        double s = 0;
        for (int k = 0; k < 3; ++k) s += lhs[size_t(k * 4 + b * 2 + m)] * rhs[size_t(b * 6 + n * 3 + k)];
        want.push_back(s);
      }
  checkValues(read<double>(r), want, "batched dot");
  // Two free dims on the lhs and the usual [b, m, k] x [b, k, n] layout in f16.
  auto h = run1("dot_general", {f16({1, 2, 2}, {1, 2, 3, 4}), f16({1, 2, 1}, {10, 100})}, {ElementType::F16, {1, 2, 1}},
                dotDims("0", "0", "2", "1"));
  checkValues(readHalf(h, false), {210, 430}, "batched f16");
}

TEST(dot_general_i1_is_or_of_and) {
  // [[1,0,1],[0,0,1]] . [[1,0],[0,0],[0,1]]: XLA CPU gives [[1,1],[0,1]].
  auto r = run1("dot_general", {pred({2, 3}, {1, 0, 1, 0, 0, 1}), pred({3, 2}, {1, 0, 0, 0, 0, 1})}, {ElementType::Pred, {2, 2}},
                dotDims("", "", "1", "0"));
  checkValues(read<uint8_t>(r), {1, 1, 0, 1}, "matmul i1");
  // Many true products stay true (no counter that could wrap), and an empty contraction is false.
  std::vector<uint8_t> ones(600, 1);
  auto many = run1("dot_general", {pred({600}, ones), pred({600}, ones)}, {ElementType::Pred, {}}, dotDims("", "", "0", "0"));
  checkValues(read<uint8_t>(many), {1}, "600 true products");
  auto empty = run1("dot_general", {pred({2, 0}, {}), pred({0, 2}, {})}, {ElementType::Pred, {2, 2}}, dotDims("", "", "1", "0"));
  checkValues(read<uint8_t>(empty), {0, 0, 0, 0}, "empty contraction");
  auto batched = run1("dot_general", {pred({2, 2}, {1, 0, 0, 1}), pred({2, 2}, {0, 1, 0, 1})}, {ElementType::Pred, {2}},
                      dotDims("0", "0", "1", "1"));
  checkValues(read<uint8_t>(batched), {0, 1}, "batched i1");
}

TEST(dot_general_result_type_differs_like_xla) {
  // Expected values are what XLA CPU (jaxlib 0.10.2) returns: a more precise result type converts the
  // operands first, a less precise one converts the finished result.
  auto dot1 = [](Literal a, Literal b, ElementType result) {
    return run1("dot_general", {std::move(a), std::move(b)}, {result, {}}, dotDims("", "", "0", "0"));
  };
  auto s8 = [](std::vector<int8_t> v) { return make(ElementType::S8, {int64_t(v.size())}, v); };
  checkValues(read<int32_t>(dot1(s8({-1, -128}), s8({1, -128}), ElementType::S32)), {16383}, "i8 x i8 -> i32 does not wrap");
  checkValues(read<int32_t>(dot1(make<uint8_t>(ElementType::U8, {2}, {255, 255}), make<uint8_t>(ElementType::U8, {2}, {255, 1}),
                                 ElementType::S32)),
              {65280}, "ui8 x ui8 -> i32");
  checkValues(read<int32_t>(dot1(pred({3}, {1, 1, 0}), pred({3}, {1, 1, 1}), ElementType::S32)), {2}, "i1 -> i32 counts");
  std::vector<uint8_t> ones(300, 1);
  checkValues(read<int8_t>(dot1(pred({300}, ones), pred({300}, ones), ElementType::S8)), {44}, "i1 -> i8 wraps");
  checkValues(read<float>(dot1(pred({3}, {1, 1, 0}), pred({3}, {1, 1, 1}), ElementType::F32)), {2.0f}, "i1 -> f32");
  checkValues(read<uint8_t>(dot1(i32({1}, {65536}), i32({1}, {65536}), ElementType::Pred)), {0}, "i32 -> i1 wraps first");
  checkValues(read<uint8_t>(dot1(make<int8_t>(ElementType::S8, {2}, {2, 0}), make<int8_t>(ElementType::S8, {2}, {3, 5}),
                                 ElementType::Pred)),
              {1}, "i8 -> i1");
  checkValues(read<uint8_t>(dot1(f32({2}, {0.5f, 0}), f32({2}, {1, 1}), ElementType::Pred)), {1}, "f32 -> i1");
  checkValues(read<int16_t>(dot1(i32({2}, {40000, 1}), i32({2}, {2, 1}), ElementType::S16)), {14465}, "i32 -> i16 wraps");
  checkValues(read<int32_t>(dot1(f32({3}, {1.5f, 1.5f, 1.5f}), f32({3}, {1, 1, 1}), ElementType::S32)), {4}, "f32 -> i32 truncates the sum");
  checkValues(read<int64_t>(dot1(f64({4}, {0.5, 0.5, 0.5, 0.5}), f64({4}, {0.5, 0.5, 0.5, 0.5}), ElementType::S64)), {1},
              "f64 -> i64");
  checkValues(read<float>(dot1(i32({2}, {16777217, 1}), i32({2}, {1, 1}), ElementType::F32)), {16777216.0f}, "i32 -> f32 converts first");
  checkValues(read<double>(dot1(i32({3}, {16777216, 1, 1}), i32({3}, {1, 1, 1}), ElementType::F64)), {16777218.0}, "i32 -> f64");
  checkValues(read<float>(dot1(f16({3}, {2048, 1, 1}), f16({3}, {1, 1, 1}), ElementType::F32)), {2050.0f}, "f16 -> f32");
  checkValues(read<float>(dot1(f16({2}, {60000, 60000}), f16({2}, {2, -2}), ElementType::F32)), {0.0f}, "f16 -> f32 no overflow");
  checkValues(readHalf(dot1(f32({3}, {1.0004f, 1.0004f, 1.0004f}), f32({3}, {1, 1, 1}), ElementType::F16), false),
              {3.001953125}, "f32 -> f16 rounds once");
  checkValues(readHalf(dot1(f32({2}, {60000, 60000}), f32({2}, {2, -2}), ElementType::F16), false), {0.0}, "f32 -> f16 no overflow");
  checkValues(readHalf(dot1(f32({3}, {256, 1, 1}), f32({3}, {1, 1, 1}), ElementType::BF16), true), {258.0}, "f32 -> bf16");
  checkValues(readHalf(dot1(bf16({3}, {2048, 1, 1}), bf16({3}, {1, 1, 1}), ElementType::F16), false), {2048.0},
              "bf16 -> f16 computes in bf16");
  checkValues(readHalf(dot1(f16({3}, {256, 1, 1}), f16({3}, {1, 1, 1}), ElementType::BF16), true), {258.0}, "f16 -> bf16");
  checkValues(read<float>(dot1(f64({3}, {16777216, 1, 1}), f64({3}, {1, 1, 1}), ElementType::F32)), {16777218.0f},
              "f64 -> f32 computes in f64");
  // A matrix case through the transposes, i8 -> i32 (values past the i8 range).
  auto m = run1("dot_general", {make<int8_t>(ElementType::S8, {2, 3}, {0, 50, 100, -106, -56, -6}),
                                make<int8_t>(ElementType::S8, {3, 2}, {100, 101, 102, 103, 104, 105})},
                {ElementType::S32, {2, 2}}, dotDims("", "", "1", "0"));
  checkValues(read<int32_t>(m), {15500, 15650, -16936, -17104}, "matmul i8 -> i32");
}

// --- reduce ---------------------------------------------------------------------------------------

namespace {
std::string reduceModule(const std::string& op, const std::string& inType, const std::string& scalar, const std::string& outType,
                         const char* dims) {
  return "func.func public @main(%x: " + inType + ", %init: " + scalar + ") -> " + outType + " {\n" +
         "  %r = \"stablehlo.reduce\"(%x, %init) ({\n  ^bb0(%a: " + scalar + ", %b: " + scalar + "):\n" +
         "    %s = \"stablehlo." + op + "\"(%a, %b) : (" + scalar + ", " + scalar + ") -> " + scalar + "\n" +
         "    \"stablehlo.return\"(%s) : (" + scalar + ") -> ()\n" + "  }) {dimensions = array<i64: " + dims + ">} : (" + inType +
         ", " + scalar + ") -> " + outType + "\n" + "  \"func.return\"(%r) : (" + outType + ") -> ()\n}\n";
}
}  // namespace

TEST(reduce_single_op_bodies) {
  auto x = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  auto rows = runText(reduceModule("add", "tensor<2x3xf32>", "tensor<f32>", "tensor<2xf32>", "1"), {x, f32({}, {0})});
  checkValues(read<float>(rows[0]), {6, 15}, "sum rows");
  auto cols = runText(reduceModule("add", "tensor<2x3xf32>", "tensor<f32>", "tensor<3xf32>", "0"), {x, f32({}, {10})});
  checkValues(read<float>(cols[0]), {15, 17, 19}, "sum cols with init");
  auto all = runText(reduceModule("maximum", "tensor<2x3xf32>", "tensor<f32>", "tensor<f32>", "0, 1"), {x, f32({}, {-INFINITY})});
  checkValues(read<float>(all[0]), {6}, "max all");
  auto nan = runText(reduceModule("minimum", "tensor<3xf32>", "tensor<f32>", "tensor<f32>", "0"), {f32({3}, {1, NAN, -1}), f32({}, {INFINITY})});
  CHECK(std::isnan(read<float>(nan[0])[0]));
  std::vector<int32_t> cube(24);
  for (int i = 0; i < 24; ++i) cube[size_t(i)] = i;
  auto mid = runText(reduceModule("add", "tensor<2x3x4xi32>", "tensor<i32>", "tensor<2x4xi32>", "1"), {i32({2, 3, 4}, cube), i32({}, {0})});
  std::vector<int32_t> want;
  for (int a = 0; a < 2; ++a)
    for (int c = 0; c < 4; ++c) want.push_back((a * 12 + c) * 3 + 4 + 8);
  checkValues(read<int32_t>(mid[0]), want, "sum middle dim");
  auto outer = runText(reduceModule("multiply", "tensor<2x3x4xi32>", "tensor<i32>", "tensor<3xi32>", "0, 2"), {i32({2, 3, 4}, cube), i32({}, {1})});
  std::vector<int32_t> prod;
  for (int b = 0; b < 3; ++b) {
    uint32_t p = 1;
    for (int a = 0; a < 2; ++a)
      for (int c = 0; c < 4; ++c) p *= uint32_t(a * 12 + b * 4 + c);
    prod.push_back(int32_t(p));
  }
  checkValues(read<int32_t>(outer[0]), prod, "product of outer and inner dims");
  auto any = runText(reduceModule("or", "tensor<2x2xi1>", "tensor<i1>", "tensor<2xi1>", "1"), {pred({2, 2}, {0, 0, 0, 1}), pred({}, {0})});
  checkValues(read<uint8_t>(any[0]), {0, 1}, "any");
  auto h = runText(reduceModule("add", "tensor<4xf16>", "tensor<f16>", "tensor<f16>", "0"), {f16({4}, {2048, 1, 1, 1}), f16({}, {0})});
  checkValues(readHalf(h[0], false), {2048}, "f16 sum rounds every step");  // 2048 + 1 rounds back to 2048
  auto empty = runText(reduceModule("add", "tensor<2x0xf32>", "tensor<f32>", "tensor<2xf32>", "1"), {f32({2, 0}, {}), f32({}, {5})});
  checkValues(read<float>(empty[0]), {5, 5}, "empty reduction gives init");
}

namespace {
// Reduces values and their indices along dimension 1 to the first maximum (a general, two-input body).
const char* kArgmax = R"(func.func public @main(%v: tensor<ROWSxCOLSxf32>, %i: tensor<ROWSxCOLSxi32>) -> (tensor<ROWSxf32>, tensor<ROWSxi32>) {
  %ninf = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
  %zero = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %r:2 = "stablehlo.reduce"(%v, %i, %ninf, %zero) ({
  ^bb0(%av: tensor<f32>, %ai: tensor<i32>, %bv: tensor<f32>, %bi: tensor<i32>):
    %gt = "stablehlo.compare"(%av, %bv) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %eq = "stablehlo.compare"(%av, %bv) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %lt = "stablehlo.compare"(%ai, %bi) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %tie = "stablehlo.and"(%eq, %lt) : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %pick = "stablehlo.or"(%gt, %tie) : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %mv = "stablehlo.select"(%pick, %av, %bv) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %mi = "stablehlo.select"(%pick, %ai, %bi) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%mv, %mi) : (tensor<f32>, tensor<i32>) -> ()
  }) {dimensions = array<i64: 1>} : (tensor<ROWSxCOLSxf32>, tensor<ROWSxCOLSxi32>, tensor<f32>, tensor<i32>) -> (tensor<ROWSxf32>, tensor<ROWSxi32>)
  "func.return"(%r#0, %r#1) : (tensor<ROWSxf32>, tensor<ROWSxi32>) -> ()
})";

std::string argmaxModule(int rows, int cols) {
  std::string s = kArgmax;
  for (auto [key, value] : {std::pair{std::string("ROWS"), std::to_string(rows)}, std::pair{std::string("COLS"), std::to_string(cols)}})
    for (size_t at; (at = s.find(key)) != std::string::npos;) s.replace(at, key.size(), value);
  return s;
}
}  // namespace

TEST(reduce_two_operands_argmax) {
  std::vector<int32_t> idx = {0, 1, 2, 3, 0, 1, 2, 3};
  auto r = runText(argmaxModule(2, 4), {f32({2, 4}, {1, 5, 3, 5, 7, 2, 7, 0}), i32({2, 4}, idx)});
  CHECK_EQ(r.size(), size_t(2));
  checkValues(read<float>(r[0]), {5, 7}, "max values");
  checkValues(read<int32_t>(r[1]), {1, 0}, "first index of the max");
}

TEST(reduce_general_body_over_long_rows) {
  // Few lanes and long rows take the two-stage path; the answer must not change.
  const int rows = 3, cols = 7001;
  std::vector<float> v(size_t(rows * cols));
  std::vector<int32_t> idx(v.size());
  uint32_t state = 12345;
  for (size_t k = 0; k < v.size(); ++k) {
    state = state * 1664525u + 1013904223u;
    v[k] = float(state >> 8) / float(1 << 24);
    idx[k] = int32_t(k % size_t(cols));
  }
  v[size_t(0 * cols + 6999)] = 2.0f;
  v[size_t(1 * cols + 17)] = 2.0f;
  v[size_t(1 * cols + 5000)] = 2.0f;  // a tie: the first index wins
  v[size_t(2 * cols + 7000)] = 3.0f;
  auto r = runText(argmaxModule(rows, cols), {f32({rows, cols}, v), i32({rows, cols}, idx)});
  checkValues(read<float>(r[0]), {2, 2, 3}, "max values");
  checkValues(read<int32_t>(r[1]), {6999, 17, 7000}, "argmax");
}

TEST(reduce_body_with_constant_inside) {
  // Σ 2·x over dim 0 with a constant in the body: the body is not a single op, so it runs over lanes.
  const char* text = R"(func.func public @main(%x: tensor<3x2xf64>) -> tensor<2xf64> {
    %z = "stablehlo.constant"() {value = dense<0.0> : tensor<f64>} : () -> tensor<f64>
    %r = "stablehlo.reduce"(%x, %z) ({
    ^bb0(%acc: tensor<f64>, %e: tensor<f64>):
      %two = "stablehlo.constant"() {value = dense<2.0> : tensor<f64>} : () -> tensor<f64>
      %d = "stablehlo.multiply"(%e, %two) : (tensor<f64>, tensor<f64>) -> tensor<f64>
      %s = "stablehlo.add"(%acc, %d) : (tensor<f64>, tensor<f64>) -> tensor<f64>
      "stablehlo.return"(%s) : (tensor<f64>) -> ()
    }) {dimensions = array<i64: 0>} : (tensor<3x2xf64>, tensor<f64>) -> tensor<2xf64>
    "func.return"(%r) : (tensor<2xf64>) -> ()
  })";
  auto r = runText(text, {f64({3, 2}, {1, 2, 3, 4, 5, 6})});
  checkValues(read<double>(r[0]), {18, 24}, "weighted sum");
}

// --- whole programs and errors --------------------------------------------------------------------

TEST(pretty_program_runs_end_to_end) {
  const char* text = R"(module @m {
  func.func public @main(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> (tensor<2x3xf32>, tensor<2xf32>) {
    %bb = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
    %s = stablehlo.add %a, %bb : tensor<2x3xf32>
    %z = stablehlo.constant dense<0.0> : tensor<f32>
    %r = stablehlo.reduce(%s init: %z) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
    return %s, %r : tensor<2x3xf32>, tensor<2xf32>
  }
})";
  auto out = runText(text, {f32({2, 3}, {0, 1, 2, 3, 4, 5}), f32({3}, {0, 10, 20})});
  CHECK_EQ(out.size(), size_t(2));
  checkValues(read<float>(out[0]), {0, 11, 22, 3, 14, 25}, "sum");
  checkValues(read<float>(out[1]), {33, 42}, "row sums");
}

TEST(arguments_pass_through_and_values_are_reused) {
  const char* text = R"(func.func public @main(%a: tensor<2xi32>) -> (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) {
    %d = "stablehlo.add"(%a, %a) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
    %q = "stablehlo.multiply"(%d, %d) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
    "func.return"(%a, %q, %d) : (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> ()
  })";
  auto out = runText(text, {i32({2}, {3, -4})});
  checkValues(read<int32_t>(out[0]), {3, -4}, "argument");
  checkValues(read<int32_t>(out[1]), {36, 64}, "square");
  checkValues(read<int32_t>(out[2]), {6, -8}, "double");
}

TEST(a_reshape_shares_its_operands_storage_and_writes_never_reach_it) {
  // The reshape of an argument is returned without a copy; the add that follows may not take that
  // storage for its own result (it belongs to the argument), nor may dynamic_update_slice write into it.
  const char* text = R"(func.func public @main(%a: tensor<2x2xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
    %r = "stablehlo.reshape"(%a) : (tensor<2x2xf32>) -> tensor<4xf32>
    %s = "stablehlo.add"(%r, %r) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %u = "stablehlo.constant"() {value = dense<9.0> : tensor<1xf32>} : () -> tensor<1xf32>
    %i = "stablehlo.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %w = "stablehlo.dynamic_update_slice"(%r, %u, %i) : (tensor<4xf32>, tensor<1xf32>, tensor<i32>) -> tensor<4xf32>
    "func.return"(%r, %s, %w) : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> ()
  })";
  Literal a = f32({2, 2}, {1, 2, 3, 4});
  auto out = runText(text, {a});
  CHECK(out[0].bytes.sharesStorageWith(a.bytes));
  CHECK(out[0].type.dims == std::vector<int64_t>{4});
  checkValues(read<float>(out[1]), {2, 4, 6, 8}, "sum of the reshape");
  checkValues(read<float>(out[2]), {1, 9, 3, 4}, "update of the reshape");
  checkValues(read<float>(a), {1, 2, 3, 4}, "the argument after the run");
  CHECK(!out[1].bytes.sharesStorageWith(a.bytes));
  CHECK(!out[2].bytes.sharesStorageWith(a.bytes));
}

TEST(literal_storage_is_copied_on_the_first_write_to_a_shared_copy) {
  Bytes a{1, 2, 3};
  const uint8_t* before = a.data();
  Bytes b = a;
  CHECK(b.sharesStorageWith(a) && b.data() == before);
  b.mutableData()[0] = 7;
  CHECK(!b.sharesStorageWith(a));
  CHECK(a == (Bytes{1, 2, 3}) && b == (Bytes{7, 2, 3}));
  CHECK(a.mutableData() == before);  // no longer shared: written in place
}

TEST(a_scatter_writes_into_a_dying_input_only) {
  // %b dies at its scatter, which may write into its storage; %a is returned as well, %x is an
  // argument and %d is also the scatter's updates: none of those may change.
  const std::string body = R"(({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %r = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%r) : (tensor<f32>) -> ()
    }) {indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false})";
  auto scatter = [&](const std::string& result, const std::string& input, const std::string& indices,
                     const std::string& updates, const std::string& indexType, const std::string& updateType) {
    return "    %" + result + " = \"stablehlo.scatter\"(%" + input + ", %" + indices + ", %" + updates + ") " + body +
           " : (tensor<4xf32>, " + indexType + ", " + updateType + ") -> tensor<4xf32>\n";
  };
  const std::string text =
      "func.func public @main(%x: tensor<4xf32>, %i: tensor<2x1xi32>, %u: tensor<2xf32>, %j: tensor<4x1xi32>) -> "
      "(tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {\n"
      "    %c = \"stablehlo.constant\"() {value = dense<10.0> : tensor<4xf32>} : () -> tensor<4xf32>\n"
      "    %a = \"stablehlo.add\"(%x, %c) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n" +
      scatter("s1", "a", "i", "u", "tensor<2x1xi32>", "tensor<2xf32>") +
      "    %b = \"stablehlo.multiply\"(%x, %c) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n" +
      scatter("s2", "b", "i", "u", "tensor<2x1xi32>", "tensor<2xf32>") + scatter("s3", "x", "i", "u", "tensor<2x1xi32>", "tensor<2xf32>") +
      "    %d = \"stablehlo.subtract\"(%x, %c) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n" +
      scatter("s4", "d", "j", "d", "tensor<4x1xi32>", "tensor<4xf32>") +
      "    \"func.return\"(%a, %s1, %s2, %s3, %s4, %x) : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, "
      "tensor<4xf32>, tensor<4xf32>) -> ()\n  }";
  Literal x = f32({4}, {1, 2, 3, 4});
  auto out = runText(text, {x, i32({2, 1}, {2, 0}), f32({2}, {0.5f, 0.25f}), i32({4, 1}, {3, 2, 1, 0})});
  checkValues(read<float>(out[0]), {11, 12, 13, 14}, "the input read again");
  checkValues(read<float>(out[1]), {11.25, 12, 13.5, 14}, "its scatter");
  checkValues(read<float>(out[2]), {10.25, 20, 30.5, 40}, "the scatter of a dying input");
  checkValues(read<float>(out[3]), {1.25, 2, 3.5, 4}, "the scatter of an argument");
  checkValues(read<float>(out[4]), {-15, -15, -15, -15}, "the scatter of its own updates");
  checkValues(read<float>(out[5]), {1, 2, 3, 4}, "the argument");
  checkValues(read<float>(x), {1, 2, 3, 4}, "the argument after the run");
}

TEST(errors_are_cpu_errors_not_crashes) {
  const char* unsupported = R"(func.func public @main(%a: tensor<2xf32>) -> tensor<2xf32> {
    %r = "stablehlo.custom_call"(%a) {call_target_name = "foo"} : (tensor<2xf32>) -> tensor<2xf32>
    "func.return"(%r) : (tensor<2xf32>) -> ()
  })";
  try {
    runText(unsupported, {f32({2}, {1, 2})});
    CHECK(false);
  } catch (const CpuError& e) {
    CHECK(e.code() == ErrorCode::Unimplemented);
    CHECK(std::string(e.what()).find("line 2: stablehlo.custom_call") != std::string::npos);
  }
  CHECK_THROWS(runText(oneOp("add", {"tensor<2xf32>", "tensor<2xf32>"}, "tensor<2xf32>"), {f32({2}, {1, 2})}), "arguments");
  Literal bad = f32({2}, {1, 2});
  bad.bytes = Bytes(bad.bytes.begin(), bad.bytes.end() - 1);
  CHECK_THROWS(runText(oneOp("negate", {"tensor<2xf32>"}, "tensor<2xf32>"), {bad}), "bytes");
}

// A result larger than memory (2^48 bytes: more than a process can map) fails with RESOURCE_EXHAUSTED
// naming the op, the tensor type and the size, whether a constant is filled in or an element-wise op
// writes it; a splat constant itself costs nothing until then.
TEST(a_result_larger_than_memory_is_resource_exhausted) {
  const std::string type = "tensor<70368744177664xf32>";
  const std::string constant = "func.func public @main() -> " + type + " {\n  %c = stablehlo.constant dense<1.0> : " + type +
                               "\n  return %c : " + type + "\n}";
  const std::string added = "func.func public @main() -> " + type + " {\n  %c = stablehlo.constant dense<1.0> : " + type +
                            "\n  %r = stablehlo.add %c, %c : " + type + "\n  return %r : " + type + "\n}";
  for (const auto& [text, where] : {std::pair{constant, "line 2: stablehlo.constant: "}, std::pair{added, "line 3: stablehlo.add: "}}) {
    bool threw = false;
    try {
      runText(text, {});
    } catch (const CpuError& e) {
      threw = true;
      CHECK(e.code() == ErrorCode::ResourceExhausted);
      CHECK_EQ(std::string(e.what()), std::string(where) + "out of memory: could not allocate 256.0 TiB (281474976710656 bytes) for " + type);
    }
    CHECK(threw);
  }
}

TEST_MAIN()
