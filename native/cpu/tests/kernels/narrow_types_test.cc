// The narrow element types (i2, i4, ui2, ui4 and the 8- and 4-bit floats): their codecs, checked
// pattern by pattern, and what the op table cannot check against XLA (XLA CPU cannot compile an i4
// dot_general, and counts an i4's bits in its 8-bit sign extension), and the errors for what the
// plugin does not run on them.
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "base/error.h"
#include "check.h"
#include "exec/interpreter.h"
#include "ir/element_type.h"
#include "ir/narrow_types.h"
#include "ir/stablehlo.h"
#include "tests/test_modules.h"

using namespace tpjrt::cpu;
using namespace tpjrt::cpu::test;

namespace {

const ElementType kNarrowFloats[] = {ElementType::F8E5M2,        ElementType::F8E4M3FN, ElementType::F8E4M3FNUZ,
                                     ElementType::F8E5M2FNUZ,    ElementType::F8E4M3B11FNUZ, ElementType::F8E4M3,
                                     ElementType::F8E3M4,        ElementType::F8E8M0FNU, ElementType::F4E2M1FN};

std::vector<Literal> runText(const std::string& text, const std::vector<Literal>& args) {
  Module m = parseModule(text);
  verifyModule(m);
  return interpret(m, *m.find("main"), args);
}

void verify(const std::string& text) { verifyModule(parseModule(text)); }

}  // namespace

TEST(every_narrow_float_pattern_round_trips) {
  for (ElementType t : kNarrowFloats) {
    const int patterns = 1 << valueBits(t);
    int nans = 0;
    for (int b = 0; b < patterns; ++b) {
      const double v = narrowFloatValue(t, uint8_t(b));
      if (std::isnan(v)) {
        ++nans;
        CHECK(std::isnan(narrowFloatValue(t, narrowFloatBits(t, v))));
        continue;
      }
      if (narrowFloatBits(t, v) != b) ::tpjrt::test::report(__FILE__, __LINE__, std::string(mlirName(t)) + " pattern " + std::to_string(b));
    }
    // f8E5M2 and the other IEEE-like formats have several NaNs; FN one per sign; FNUZ and E8M0 one; f4 none
    const int expected = t == ElementType::F8E5M2 ? 6 : t == ElementType::F8E4M3 ? 14 : t == ElementType::F8E3M4 ? 30
                         : t == ElementType::F8E4M3FN ? 2 : t == ElementType::F4E2M1FN ? 0 : 1;
    CHECK_EQ(nans, expected);
  }
}

TEST(narrow_float_rounding_and_overflow) {
  CHECK_EQ(narrowFloatValue(ElementType::F8E4M3FN, narrowFloatBits(ElementType::F8E4M3FN, 464)), 448.0);  // tie to even
  CHECK(std::isnan(narrowFloatValue(ElementType::F8E4M3FN, narrowFloatBits(ElementType::F8E4M3FN, 480))));
  CHECK(std::isnan(narrowFloatValue(ElementType::F8E4M3FN, narrowFloatBits(ElementType::F8E4M3FN, INFINITY))));
  CHECK_EQ(narrowFloatValue(ElementType::F8E5M2, narrowFloatBits(ElementType::F8E5M2, 61440)), INFINITY);
  CHECK_EQ(narrowFloatValue(ElementType::F8E5M2, narrowFloatBits(ElementType::F8E5M2, 1.0625 + 0x1p-30)), 1.0);
  CHECK_EQ(narrowFloatValue(ElementType::F8E4M3FN, narrowFloatBits(ElementType::F8E4M3FN, 1.0625 + 0x1p-30)), 1.125);
  CHECK_EQ(narrowFloatBits(ElementType::F8E4M3FNUZ, -0.0), 0);  // no -0
  CHECK_EQ(narrowFloatValue(ElementType::F4E2M1FN, narrowFloatBits(ElementType::F4E2M1FN, 1e9)), 6.0);  // saturates
  CHECK_EQ(narrowFloatBits(ElementType::F4E2M1FN, NAN), 0x8);  // -0, as XLA converts NaN
  CHECK_EQ(narrowFloatValue(ElementType::F8E8M0FNU, narrowFloatBits(ElementType::F8E8M0FNU, 6)), 8.0);  // ties up
  CHECK_EQ(narrowFloatValue(ElementType::F8E8M0FNU, narrowFloatBits(ElementType::F8E8M0FNU, 0x1p-130)), 0x1p-127);
  CHECK(std::isnan(narrowFloatValue(ElementType::F8E8M0FNU, narrowFloatBits(ElementType::F8E8M0FNU, 0.0))));
  CHECK_EQ(narrowFloatValue(ElementType::F8E3M4, narrowFloatBits(ElementType::F8E3M4, 0x1p-7)), 0.0);  // half the smallest: even
}

TEST(narrow_integers_wrap_and_saturate) {
  CHECK_EQ(wrapNarrowInt(ElementType::S4, 8), -8);
  CHECK_EQ(wrapNarrowInt(ElementType::S4, -9), 7);
  CHECK_EQ(wrapNarrowInt(ElementType::U2, -1), 3);
  CHECK_EQ(wrapNarrowInt(ElementType::S2, 2), -2);
  CHECK_EQ(saturateNarrowInt(ElementType::S4, 8.5), 7);
  CHECK_EQ(saturateNarrowInt(ElementType::S4, -9.0), -8);
  CHECK_EQ(saturateNarrowInt(ElementType::U4, -0.5), 0);
  CHECK_EQ(saturateNarrowInt(ElementType::U2, NAN), 0);
}

TEST(i4_bit_counts_see_its_own_bits) {
  // popcnt and count_leading_zeros of i4 count its 4 bits (XLA CPU counts popcnt's 8-bit sign extension).
  const char* text = R"mlir(func.func public @main(%a: tensor<6xi32>) -> (tensor<6xi32>, tensor<6xi32>, tensor<6xi32>) {
  %q = stablehlo.convert %a : (tensor<6xi32>) -> tensor<6xi4>
  %p = stablehlo.popcnt %q : tensor<6xi4>
  %z = stablehlo.count_leading_zeros %q : tensor<6xi4>
  %one = stablehlo.constant dense<1> : tensor<6xi4>
  %s = stablehlo.shift_right_logical %q, %one : tensor<6xi4>
  %0 = stablehlo.convert %p : (tensor<6xi4>) -> tensor<6xi32>
  %1 = stablehlo.convert %z : (tensor<6xi4>) -> tensor<6xi32>
  %2 = stablehlo.convert %s : (tensor<6xi4>) -> tensor<6xi32>
  return %0, %1, %2 : tensor<6xi32>, tensor<6xi32>, tensor<6xi32>
})mlir";
  auto out = runText(text, {make(ElementType::S32, {6}, std::vector<int32_t>{-8, -1, 0, 1, 7, 3})});
  CHECK(read<int32_t>(out[0]) == (std::vector<int32_t>{1, 4, 0, 1, 3, 2}));
  CHECK(read<int32_t>(out[1]) == (std::vector<int32_t>{0, 0, 4, 3, 1, 2}));
  CHECK(read<int32_t>(out[2]) == (std::vector<int32_t>{4, 7, 0, 0, 3, 1}));  // 0b1000 >> 1 = 0b0100
}

TEST(narrow_integer_constants_take_their_unsigned_spelling) {
  // Signless i4 takes 0…15 as its bits, as MLIR and XLA read them: 8 is -8 and 15 is -1.
  auto out = runText("func.func public @main() -> tensor<4xi32> {\n  %c = stablehlo.constant dense<[8, 15, -8, 7]> : tensor<4xi4>\n"
                     "  %r = stablehlo.convert %c : (tensor<4xi4>) -> tensor<4xi32>\n  return %r : tensor<4xi32>\n}\n",
                     {});
  CHECK(read<int32_t>(out[0]) == (std::vector<int32_t>{-8, -1, -8, 7}));
}

TEST(i4_dot_general_into_i32) {
  // int4 weights as quantized models hold them: i4 x i4 -> i32 sums the products without wrapping.
  const char* text = R"mlir(func.func public @main(%a: tensor<2x3xi32>, %b: tensor<3x2xi32>) -> tensor<2x2xi32> {
  %qa = stablehlo.convert %a : (tensor<2x3xi32>) -> tensor<2x3xi4>
  %qb = stablehlo.convert %b : (tensor<3x2xi32>) -> tensor<3x2xi4>
  %r = stablehlo.dot_general %qa, %qb, contracting_dims = [1] x [0] : (tensor<2x3xi4>, tensor<3x2xi4>) -> tensor<2x2xi32>
  return %r : tensor<2x2xi32>
})mlir";
  std::vector<int32_t> a = {-8, 7, -8, 7, 7, 7}, b = {-8, 7, -8, -8, 7, 1};
  auto out = runText(text, {make(ElementType::S32, {2, 3}, a), make(ElementType::S32, {3, 2}, b)});
  std::vector<int32_t> want(4);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 3; ++k) want[size_t(i * 2 + j)] += a[size_t(i * 3 + k)] * b[size_t(k * 2 + j)];
  CHECK(read<int32_t>(out[0]) == want);
}

TEST(what_is_not_run_on_narrow_types_is_named) {
  CHECK_THROWS(verify("func.func public @main(%a: tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN> {\n  return %a : tensor<4xf8E4M3FN>\n}\n"),
               "function @main takes tensor<4xf8E4M3FN>: the cpu plugin's buffers do not hold f8E4M3FN");
  CHECK_THROWS(verify("func.func public @main(%a: tensor<4xf32>) -> tensor<f32> {\n"
                      "  %q = stablehlo.convert %a : (tensor<4xf32>) -> tensor<4xf8E5M2>\n"
                      "  %z = stablehlo.constant dense<0.0> : tensor<f8E5M2>\n"
                      "  %s = stablehlo.reduce(%q init: %z) applies stablehlo.add across dimensions = [0] : (tensor<4xf8E5M2>, tensor<f8E5M2>) -> tensor<f8E5M2>\n"
                      "  %r = stablehlo.convert %s : (tensor<f8E5M2>) -> tensor<f32>\n"
                      "  return %r : tensor<f32>\n}\n"),
               "line 4: stablehlo.reduce: the cpu plugin does not run stablehlo.reduce on element type f8E5M2");
  CHECK_THROWS(verify("func.func public @main(%a: tensor<4xi8>) -> tensor<4xi8> {\n"
                      "  %q = stablehlo.bitcast_convert %a : (tensor<4xi8>) -> tensor<4xf8E4M3FN>\n"
                      "  %r = stablehlo.convert %q : (tensor<4xf8E4M3FN>) -> tensor<4xi8>\n"
                      "  return %r : tensor<4xi8>\n}\n"),
               "stablehlo.bitcast_convert on element type f8E4M3FN");
  // the rule of the op as written still holds: f8 and f16 operands differ
  CHECK_THROWS(verify("func.func public @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
                      "  %q = stablehlo.convert %a : (tensor<4xf32>) -> tensor<4xf8E4M3FN>\n"
                      "  %h = stablehlo.convert %a : (tensor<4xf32>) -> tensor<4xf16>\n"
                      "  %s = \"stablehlo.add\"(%q, %h) : (tensor<4xf8E4M3FN>, tensor<4xf16>) -> tensor<4xf8E4M3FN>\n"
                      "  %r = stablehlo.convert %s : (tensor<4xf8E4M3FN>) -> tensor<4xf32>\n"
                      "  return %r : tensor<4xf32>\n}\n"),
               "line 4: stablehlo.add: operand types tensor<4xf8E4M3FN> and tensor<4xf16> differ");
  CHECK_THROWS(verify("func.func public @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
                      "  %q = stablehlo.convert %a : (tensor<4xf32>) -> tensor<4xf6E2M3FN>\n"
                      "  return %a : tensor<4xf32>\n}\n"),
               "element type f6E2M3FN is not supported by the cpu plugin");
  CHECK_THROWS(verify("func.func public @main(%a: tensor<4xi32>) -> tensor<4xi32> {\n"
                      "  %c = stablehlo.constant dense<16> : tensor<4xi4>\n"
                      "  return %a : tensor<4xi32>\n}\n"),
               "value 16 is out of range for i4");
}

TEST_MAIN()
