#include "ir/narrow_types.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "base/error.h"
#include "ir/element_type.h"

namespace tpjrt::cpu {
namespace {

// ieee: ±inf and NaNs at the top exponent. finite: no inf, the all-ones pattern is NaN (the FN types).
// unsignedZero: no inf and no -0, whose pattern is NaN (FNUZ). saturating: neither; overflow saturates.
// powerOfTwo: f8E8M0FNU, an exponent alone.
enum class Kind { Ieee, Finite, UnsignedZero, Saturating, PowerOfTwo };

struct FloatFormat {
  ElementType type;
  int e, m, bias;
  Kind kind;
};

constexpr FloatFormat kFormats[] = {
    {ElementType::F8E5M2, 5, 2, 15, Kind::Ieee},
    {ElementType::F8E4M3FN, 4, 3, 7, Kind::Finite},
    {ElementType::F8E4M3FNUZ, 4, 3, 8, Kind::UnsignedZero},
    {ElementType::F8E5M2FNUZ, 5, 2, 16, Kind::UnsignedZero},
    {ElementType::F8E4M3B11FNUZ, 4, 3, 11, Kind::UnsignedZero},
    {ElementType::F8E4M3, 4, 3, 7, Kind::Ieee},
    {ElementType::F8E3M4, 3, 4, 3, Kind::Ieee},
    {ElementType::F8E8M0FNU, 8, 0, 127, Kind::PowerOfTwo},
    {ElementType::F4E2M1FN, 2, 1, 1, Kind::Saturating},
};

const FloatFormat& formatOf(ElementType t) {
  for (const auto& f : kFormats)
    if (f.type == t) return f;
  fail(std::string(mlirName(t)) + " is not a narrow float type", ErrorCode::Internal);
}

uint8_t nanBits(const FloatFormat& f) {
  switch (f.kind) {
    case Kind::Ieee: return uint8_t(((1 << f.e) - 1) << f.m | 1 << (f.m - 1));
    case Kind::Finite: return uint8_t((1 << (f.e + f.m)) - 1);
    case Kind::UnsignedZero: return uint8_t(1 << (f.e + f.m));
    case Kind::Saturating: return uint8_t(1 << (f.e + f.m));  // -0, as XLA converts NaN
    case Kind::PowerOfTwo: return 0xff;
  }
  return 0;
}

// The largest finite value's pattern (positive).
uint8_t maxBits(const FloatFormat& f) {
  const int top = (1 << f.e) - 1, allMantissa = (1 << f.m) - 1;
  switch (f.kind) {
    case Kind::Ieee: return uint8_t((top - 1) << f.m | allMantissa);
    case Kind::Finite: return uint8_t(top << f.m | (allMantissa - 1));
    default: return uint8_t(top << f.m | allMantissa);
  }
}

}  // namespace

bool isNarrow(ElementType t) { return t >= ElementType::S2; }

ElementType wideTypeOf(ElementType t) {
  switch (t) {
    case ElementType::S2:
    case ElementType::S4: return ElementType::S8;
    case ElementType::U2:
    case ElementType::U4: return ElementType::U8;
    default: return isNarrow(t) ? ElementType::F32 : t;
  }
}

int valueBits(ElementType t) {
  switch (t) {
    case ElementType::Pred: return 1;
    case ElementType::S2:
    case ElementType::U2: return 2;
    case ElementType::S4:
    case ElementType::U4:
    case ElementType::F4E2M1FN: return 4;
    default: return int(byteWidth(t)) * 8;
  }
}

double narrowFloatValue(ElementType t, uint8_t bits) {
  const FloatFormat& f = formatOf(t);
  if (f.kind == Kind::PowerOfTwo) return bits == 0xff ? std::numeric_limits<double>::quiet_NaN() : std::ldexp(1.0, bits - f.bias);
  const int top = (1 << f.e) - 1;
  const int exponent = (bits >> f.m) & top, mantissa = bits & ((1 << f.m) - 1);
  const double sign = (bits >> (f.e + f.m)) & 1 ? -1 : 1;
  const bool nan = (f.kind == Kind::Ieee && exponent == top && mantissa != 0) ||
                   (f.kind == Kind::Finite && exponent == top && mantissa == (1 << f.m) - 1) ||
                   (f.kind == Kind::UnsignedZero && bits == uint8_t(1 << (f.e + f.m)));
  if (nan) return std::numeric_limits<double>::quiet_NaN();
  if (f.kind == Kind::Ieee && exponent == top) return sign * std::numeric_limits<double>::infinity();
  if (exponent == 0) return sign * std::ldexp(double(mantissa), 1 - f.bias - f.m);
  return sign * std::ldexp(double((1 << f.m) + mantissa), exponent - f.bias - f.m);
}

uint8_t narrowFloatBits(ElementType t, double v) {
  const FloatFormat& f = formatOf(t);
  if (f.kind == Kind::PowerOfTwo) {
    if (!(v > 0) || std::isinf(v)) return nanBits(f);
    int exponent = std::ilogb(v);
    if (std::ldexp(v, -exponent) >= 1.5) ++exponent;  // ties up, as XLA rounds
    exponent = std::max(exponent, -f.bias);           // no zero: below the smallest is the smallest
    return exponent > f.bias ? nanBits(f) : uint8_t(exponent + f.bias);
  }
  if (std::isnan(v)) return nanBits(f);
  const uint8_t sign = std::signbit(v) ? uint8_t(1 << (f.e + f.m)) : 0;
  const double a = std::fabs(v), max = narrowFloatValue(t, maxBits(f));
  const int emin = 1 - f.bias;
  // Round to the grid of the format's significand, unbounded above: a / q is exact, nearbyint ties to even.
  double r = 0;
  if (a > 0 && !std::isinf(a)) {
    const double q = std::ldexp(1.0, std::max(std::ilogb(a), emin) - f.m);
    r = std::nearbyint(a / q) * q;
  }
  if (std::isinf(a) || r > max) {
    if (f.kind == Kind::Ieee) return uint8_t(sign | ((1 << f.e) - 1) << f.m);
    if (f.kind == Kind::Saturating) return uint8_t(sign | maxBits(f));
    return nanBits(f);
  }
  if (r == 0) return f.kind == Kind::UnsignedZero ? 0 : sign;
  const int exponent = std::ilogb(r);
  if (exponent < emin) return uint8_t(sign | int(std::ldexp(r, f.m - emin)));
  return uint8_t(sign | (exponent + f.bias) << f.m | (int(std::ldexp(r, f.m - exponent)) - (1 << f.m)));
}

int64_t wrapNarrowInt(ElementType t, int64_t v) {
  const int bits = valueBits(t);
  const uint64_t mask = (uint64_t{1} << bits) - 1, low = uint64_t(v) & mask;
  if (!isSignedInt(t)) return int64_t(low);
  const uint64_t signBit = uint64_t{1} << (bits - 1);
  return int64_t(low ^ signBit) - int64_t(signBit);
}

int64_t saturateNarrowInt(ElementType t, double v) {
  if (std::isnan(v)) return 0;
  const int bits = valueBits(t);
  const double lo = isSignedInt(t) ? -std::ldexp(1.0, bits - 1) : 0;
  const double hi = isSignedInt(t) ? std::ldexp(1.0, bits - 1) - 1 : std::ldexp(1.0, bits) - 1;
  return int64_t(std::clamp(std::trunc(v), lo, hi));
}

}  // namespace tpjrt::cpu
