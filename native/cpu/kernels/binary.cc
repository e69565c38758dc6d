// Element-wise binary ops, with CHLO's next_after, polygamma, zeta and mulhi. Integer results wrap;
// division by zero, INT_MIN / -1, integer powers and over-wide shifts give what XLA CPU gives.
#include <algorithm>

#include "kernels/isa_loops.h"
#include "kernels/special_math.h"

namespace tpjrt::cpu {

namespace {

template <class S, class F>
TPJRT_LOOP_BODY void binaryRange(const void* const* in, const bool* splat, void* out, int64_t n) {
  const S* pa = static_cast<const S*>(in[0]);
  const S* pb = static_cast<const S*>(in[1]);
  S* o = static_cast<S*>(out);
  const F f{};
  // One loop per case, each with unit strides, so that each vectorises.
  if (splat[0] && splat[1]) {
    std::fill_n(o, n, Num<S>::store(f(Num<S>::load(pa[0]), Num<S>::load(pb[0]))));
  } else if (splat[0]) {
    const auto x = Num<S>::load(pa[0]);
    for (int64_t i = 0; i < n; ++i) o[i] = Num<S>::store(f(x, Num<S>::load(pb[i])));
  } else if (splat[1]) {
    const auto y = Num<S>::load(pb[0]);
    for (int64_t i = 0; i < n; ++i) o[i] = Num<S>::store(f(Num<S>::load(pa[i]), y));
  } else {
    for (int64_t i = 0; i < n; ++i) o[i] = Num<S>::store(f(Num<S>::load(pa[i]), Num<S>::load(pb[i])));
  }
}

// The loop applying `f` (a lambda without captures) to every pair of elements.
template <class S, class F>
ElementLoop mapBinary(F) {
  return isaLoop<&binaryRange<S, F>>();
}

template <class T>
T intDivide(T a, T b) {
  if (b == 0) return T(-1);
  if constexpr (std::is_signed_v<T>) {
    if (b == -1) return T(Wide<T>(0) - Wide<T>(a));
  }
  return T(a / b);
}

template <class T>
T intRemainder(T a, T b) {
  if (b == 0) return a;
  if constexpr (std::is_signed_v<T>) {
    if (b == -1) return 0;
  }
  return T(a % b);
}

// XLA's integer power squares six times, so only the exponent's low 6 bits count (any larger exponent
// overflows anyway). An exponent that is negative as a signed value gives 0, except for bases 1 and -1.
template <class T>
T intPower(T base, T exponent) {
  Wide<T> result = 1, b = Wide<T>(base);
  for (auto e = std::make_unsigned_t<T>(exponent) & 63u; e != 0; e >>= 1) {
    if (e & 1) result *= b;
    b *= b;
  }
  using Signed = std::make_signed_t<T>;
  if (Signed(exponent) < 0) {
    if (base == 1) return 1;
    return Signed(base) == -1 ? T(result) : T(0);
  }
  return T(result);
}

template <class T>
T shiftLeft(T a, T amount) {
  using U = std::make_unsigned_t<T>;
  if (U(amount) >= sizeof(T) * 8) return 0;
  return T(Wide<T>(a) << U(amount));
}

template <class T>
T shiftRightLogical(T a, T amount) {
  using U = std::make_unsigned_t<T>;
  if (U(amount) >= sizeof(T) * 8) return 0;
  return T(U(a) >> U(amount));
}

// Shifts the bit pattern arithmetically even for unsigned types, as XLA does.
template <class T>
T shiftRightArithmetic(T a, T amount) {
  using U = std::make_unsigned_t<T>;
  using Signed = std::make_signed_t<T>;
  auto s = Signed(a);
  if (U(amount) >= sizeof(T) * 8) return T(s < 0 ? Signed(-1) : Signed(0));
  return T(Signed(s >> U(amount)));
}

// The high half of the double-width product (chlo.mulhi).
template <class T>
T mulhi(T a, T b) {
  if constexpr (sizeof(T) == 8) {
    using W = std::conditional_t<std::is_signed_v<T>, __int128, unsigned __int128>;
    return T((W(a) * W(b)) >> 64);
  } else {
    using W = std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>;
    return T((W(a) * W(b)) >> (8 * sizeof(T)));
  }
}

// The neighbour of x towards y in S's own format (half types step their 16-bit patterns).
template <class S, class C>
C nextAfter(C x, C y) {
  if constexpr (std::is_same_v<S, C>) {
    return std::nextafter(x, y);
  } else {
    if (x != x || y != y) return std::numeric_limits<C>::quiet_NaN();
    if (x == y) return y;
    uint16_t bits = Num<S>::store(x).bits;
    if (x == 0) bits = uint16_t((std::signbit(y) ? 0x8000 : 0) | 1);
    else if ((x < y) == (x > 0)) ++bits;
    else --bits;
    return Num<S>::load(S{bits});
  }
}

template <class S>
ElementLoop floatBinary(BinaryOp op) {
  using C = ComputeOf<S>;
  switch (op) {
    case BinaryOp::Add: return mapBinary<S>([](C x, C y) { return x + y; });
    case BinaryOp::Subtract: return mapBinary<S>([](C x, C y) { return x - y; });
    case BinaryOp::Multiply: return mapBinary<S>([](C x, C y) { return x * y; });
    case BinaryOp::Divide: return mapBinary<S>([](C x, C y) { return x / y; });
    case BinaryOp::Remainder: return mapBinary<S>([](C x, C y) { return std::fmod(x, y); });
    case BinaryOp::Power: return mapBinary<S>([](C x, C y) { return std::pow(x, y); });
    case BinaryOp::Maximum: return mapBinary<S>([](C x, C y) { return maxValue(x, y); });
    case BinaryOp::Minimum: return mapBinary<S>([](C x, C y) { return minValue(x, y); });
    case BinaryOp::Atan2: return mapBinary<S>([](C x, C y) { return std::atan2(x, y); });
    case BinaryOp::NextAfter: return mapBinary<S>([](C x, C y) { return nextAfter<S>(x, y); });
    case BinaryOp::Polygamma: return mapBinary<S>([](C n, C x) { return C(special::polygamma(double(n), double(x))); });
    case BinaryOp::Zeta: return mapBinary<S>([](C s, C q) { return C(special::zeta(double(s), double(q))); });
    default: return nullptr;
  }
}

template <class S>
ElementLoop intBinary(BinaryOp op) {
  using W = Wide<S>;
  switch (op) {
    case BinaryOp::Add: return mapBinary<S>([](S x, S y) { return S(W(x) + W(y)); });
    case BinaryOp::Subtract: return mapBinary<S>([](S x, S y) { return S(W(x) - W(y)); });
    case BinaryOp::Multiply: return mapBinary<S>([](S x, S y) { return S(W(x) * W(y)); });
    case BinaryOp::Divide: return mapBinary<S>([](S x, S y) { return intDivide(x, y); });
    case BinaryOp::Remainder: return mapBinary<S>([](S x, S y) { return intRemainder(x, y); });
    case BinaryOp::Power: return mapBinary<S>([](S x, S y) { return intPower(x, y); });
    case BinaryOp::Maximum: return mapBinary<S>([](S x, S y) { return maxValue(x, y); });
    case BinaryOp::Minimum: return mapBinary<S>([](S x, S y) { return minValue(x, y); });
    case BinaryOp::And: return mapBinary<S>([](S x, S y) { return S(x & y); });
    case BinaryOp::Or: return mapBinary<S>([](S x, S y) { return S(x | y); });
    case BinaryOp::Xor: return mapBinary<S>([](S x, S y) { return S(x ^ y); });
    case BinaryOp::ShiftLeft: return mapBinary<S>([](S x, S y) { return shiftLeft(x, y); });
    case BinaryOp::ShiftRightArithmetic:
      return mapBinary<S>([](S x, S y) { return shiftRightArithmetic(x, y); });
    case BinaryOp::ShiftRightLogical: return mapBinary<S>([](S x, S y) { return shiftRightLogical(x, y); });
    case BinaryOp::Mulhi: return mapBinary<S>([](S x, S y) { return mulhi(x, y); });
    default: return nullptr;
  }
}

ElementLoop predBinary(BinaryOp op) {
  switch (op) {
    case BinaryOp::Add:
    case BinaryOp::Maximum:
    case BinaryOp::Or: return mapBinary<Pred>([](bool x, bool y) { return x || y; });
    case BinaryOp::Multiply:
    case BinaryOp::Minimum:
    case BinaryOp::And: return mapBinary<Pred>([](bool x, bool y) { return x && y; });
    case BinaryOp::Xor: return mapBinary<Pred>([](bool x, bool y) { return x != y; });
    default: return nullptr;
  }
}

}  // namespace

ElementLoop binaryLoop(BinaryOp op, ElementType a, ElementType b, ElementType result) {
  ElementLoop loop = a != b || result != a ? nullptr : dispatchType(a, [&](auto tag) -> ElementLoop {
    using S = decltype(tag);
    if constexpr (kIsFloat<S>) return floatBinary<S>(op);
    else if constexpr (kIsInt<S>) return intBinary<S>(op);
    else return predBinary(op);
  });
  if (!loop)
    fail("not defined for " + std::string(mlirName(a)) + " and " + std::string(mlirName(b)) + " giving " +
         std::string(mlirName(result)));
  return loop;
}

}  // namespace tpjrt::cpu
