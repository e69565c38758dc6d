// Facts about the plugin's element types and shapes: byte width, MLIR spelling, element counts and
// row-major strides, and reading an integer element as an index.
#pragma once

#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/ir.h"

namespace tpjrt::cpu {

size_t byteWidth(ElementType t);
std::string_view mlirName(ElementType t);                       // "f32", "i1", "ui8", "bf16", …
std::optional<ElementType> parseMlirElementType(std::string_view s);  // inverse of mlirName
bool isFloat(ElementType t);        // f16, bf16, f32, f64 and the narrow floats
bool isSignedInt(ElementType t);    // i2, i4, i8 … i64
bool isUnsignedInt(ElementType t);  // ui2, ui4, ui8 … ui64
bool isInteger(ElementType t);      // signed or unsigned, not Pred
int64_t numElements(const TensorType& t);
std::string typeString(const TensorType& t);  // "tensor<2x3xf32>"
std::vector<int64_t> rowMajorStrides(const std::vector<int64_t>& dims);

// Reads element `i` of an integer or pred literal as int64 (unsigned values above INT64_MAX saturate);
// a literal of one element (a splat attribute) gives that element for every `i`.
int64_t readIndex(const Literal& l, int64_t i = 0);

// Half-precision conversions: round to nearest even, too large to infinity, signed zeros and subnormals
// kept. A NaN stays a NaN of the same sign with the top bits of its payload; narrowing also sets the
// quiet bit. Inline and branch-free, so element loops over half types vectorise.
namespace half_bits {
// c ? a : b written with masks: GCC would turn a ?: into a branch around the float arithmetic (which
// may trap without -fno-trapping-math), and a branch stops vectorisation.
[[gnu::always_inline]] inline uint32_t select(bool c, uint32_t a, uint32_t b) {
  const uint32_t mask = 0u - uint32_t(c);
  return (a & mask) | (b & ~mask);
}
}  // namespace half_bits

[[gnu::always_inline]] inline float halfToFloat(uint16_t h) {
  const uint32_t sign = uint32_t(h & 0x8000) << 16;
  const uint32_t field = uint32_t(h & 0x7fff) << 13;  // exponent and mantissa where a float has them
  const uint32_t exponent = field & 0x0f800000;
  const uint32_t normal = field + ((127 - 15) << 23);
  const uint32_t special = field + ((255 - 31) << 23);  // infinity or NaN
  const uint32_t subnormal = std::bit_cast<uint32_t>(float(int32_t(h & 0x3ff)) * 0x1p-24f);  // zero too; exact
  uint32_t bits = half_bits::select(exponent == 0x0f800000, special, normal);
  bits = half_bits::select(exponent == 0, subnormal, bits);
  return std::bit_cast<float>(sign | bits);
}

[[gnu::always_inline]] inline uint16_t floatToHalf(float f) {
  const uint32_t x = std::bit_cast<uint32_t>(f);
  const uint32_t sign = (x >> 16) & 0x8000;
  const int32_t ax = int32_t(x & 0x7fffffff);  // signed, so the compares below are plain vector compares
  const uint32_t nan = 0x7e00 | ((uint32_t(ax) >> 13) & 0x3ff);
  // Adding 2^-1 leaves |f| < 2^-14 rounded to the half's 2^-24 grid in the low mantissa bits.
  const uint32_t subnormal = std::bit_cast<uint32_t>(std::bit_cast<float>(ax) + 0.5f) - 0x3f000000;
  // Rebias, then round the 13 dropped bits to nearest even; a carry into the exponent is still right.
  const uint32_t rebiased = uint32_t(ax) - ((127 - 15) << 23);
  const uint32_t normal = (rebiased + 0xfff + ((rebiased >> 13) & 1)) >> 13;
  uint32_t h = half_bits::select(ax < 0x38800000, subnormal, normal);  // below 2^-14
  h = half_bits::select(ax >= 0x477ff000, 0x7c00, h);                  // 65520 and above round to infinity
  h = half_bits::select(ax > 0x7f800000, nan, h);
  return uint16_t(sign | h);
}

[[gnu::always_inline]] inline float bf16ToFloat(uint16_t h) { return std::bit_cast<float>(uint32_t(h) << 16); }

// Rounds the low 16 bits away to nearest even; a NaN drops them unrounded and sets the quiet bit. Masks
// rather than a select of two results: the loops vectorise tighter.
[[gnu::always_inline]] inline uint16_t floatToBf16(float f) {
  const uint32_t x = std::bit_cast<uint32_t>(f);
  const uint32_t nan = 0u - uint32_t(int32_t(x & 0x7fffffff) > 0x7f800000);
  const uint32_t bias = (0x7fff + ((x >> 16) & 1)) & ~nan;
  return uint16_t(((x + bias) >> 16) | (nan & 0x40));
}

}  // namespace tpjrt::cpu
