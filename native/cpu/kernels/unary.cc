// Element-wise unary ops: negate, abs, sign, not, the float math functions (with CHLO's), rounding,
// is_finite, popcnt and count_leading_zeros. CHLO's special functions compute in double for every float
// type and round once.
#include <algorithm>
#include <bit>

#include "kernels/fast_math.h"
#include "kernels/isa_loops.h"
#include "kernels/special_math.h"

namespace tpjrt::cpu {

namespace {

template <class S, class R, class F>
TPJRT_LOOP_BODY void unaryRange(const void* const* in, const bool* splat, void* out, int64_t n) {
  const S* x = static_cast<const S*>(in[0]);
  R* o = static_cast<R*>(out);
  const F f{};
  if (splat[0]) {  // compute once
    std::fill_n(o, n, Num<R>::store(f(Num<S>::load(x[0]))));
  } else {
    for (int64_t i = 0; i < n; ++i) o[i] = Num<R>::store(f(Num<S>::load(x[i])));
  }
}

// The loop applying `f` (a lambda without captures) to every element.
template <class S, class R = S, class F>
ElementLoop mapUnary(F) {
  return isaLoop<&unaryRange<S, R, F>>();
}

template <class C>
C logistic(C x) {
  if (x >= 0) return C(1) / (C(1) + std::exp(-x));
  C e = std::exp(x);
  return e / (C(1) + e);
}

template <class S>
ElementLoop floatUnary(UnaryOp op) {
  using C = ComputeOf<S>;
  switch (op) {
    case UnaryOp::Negate: return mapUnary<S>([](C v) { return -v; });
    case UnaryOp::Abs: return mapUnary<S>([](C v) { return std::fabs(v); });
    case UnaryOp::Sign:
      return mapUnary<S>([](C v) { return (std::isnan(v) || v == 0) ? v : std::copysign(C(1), v); });
    case UnaryOp::Exp:
      if constexpr (std::is_same_v<C, float>) return mapUnary<S>([](float v) { return fastmath::exp(v); });
      else return mapUnary<S>([](C v) { return std::exp(v); });
    case UnaryOp::Expm1: return mapUnary<S>([](C v) { return std::expm1(v); });
    case UnaryOp::Log:
      if constexpr (std::is_same_v<C, float>) return mapUnary<S>([](float v) { return fastmath::log(v); });
      else return mapUnary<S>([](C v) { return std::log(v); });
    case UnaryOp::Log1p:
      if constexpr (std::is_same_v<C, float>) return mapUnary<S>([](float v) { return fastmath::log1p(v); });
      else return mapUnary<S>([](C v) { return std::log1p(v); });
    case UnaryOp::Logistic:
      if constexpr (std::is_same_v<C, float>) return mapUnary<S>([](float v) { return fastmath::logistic(v); });
      else return mapUnary<S>([](C v) { return logistic(v); });
    case UnaryOp::Tanh:
      if constexpr (std::is_same_v<C, float>) return mapUnary<S>([](float v) { return fastmath::tanh(v); });
      else return mapUnary<S>([](C v) { return std::tanh(v); });
    case UnaryOp::Erf:
      if constexpr (std::is_same_v<C, float>) return mapUnary<S>([](float v) { return fastmath::erf(v); });
      else return mapUnary<S>([](C v) { return std::erf(v); });
    case UnaryOp::Sqrt: return mapUnary<S>([](C v) { return std::sqrt(v); });
    case UnaryOp::Rsqrt: return mapUnary<S>([](C v) { return C(1) / std::sqrt(v); });
    case UnaryOp::Cbrt: return mapUnary<S>([](C v) { return std::cbrt(v); });
    case UnaryOp::Sin: return mapUnary<S>([](C v) { return std::sin(v); });
    case UnaryOp::Cos: return mapUnary<S>([](C v) { return std::cos(v); });
    case UnaryOp::Tan: return mapUnary<S>([](C v) { return std::tan(v); });
    case UnaryOp::Floor: return mapUnary<S>([](C v) { return std::floor(v); });
    case UnaryOp::Ceil: return mapUnary<S>([](C v) { return std::ceil(v); });
    case UnaryOp::RoundEven: return mapUnary<S>([](C v) { return std::nearbyint(v); });
    case UnaryOp::RoundAwayFromZero: return mapUnary<S>([](C v) { return std::round(v); });
    case UnaryOp::IsFinite: return mapUnary<S, Pred>([](C v) { return std::isfinite(v); });
    case UnaryOp::Acos: return mapUnary<S>([](C v) { return std::acos(v); });
    case UnaryOp::Acosh: return mapUnary<S>([](C v) { return std::acosh(v); });
    case UnaryOp::Asin: return mapUnary<S>([](C v) { return std::asin(v); });
    case UnaryOp::Asinh: return mapUnary<S>([](C v) { return std::asinh(v); });
    case UnaryOp::Atan: return mapUnary<S>([](C v) { return std::atan(v); });
    case UnaryOp::Atanh: return mapUnary<S>([](C v) { return std::atanh(v); });
    case UnaryOp::Cosh: return mapUnary<S>([](C v) { return std::cosh(v); });
    case UnaryOp::Sinh: return mapUnary<S>([](C v) { return std::sinh(v); });
    case UnaryOp::Erfc: return mapUnary<S>([](C v) { return std::erfc(v); });
    case UnaryOp::ErfInv: return mapUnary<S>([](C v) { return C(special::erfInv(double(v))); });
    case UnaryOp::Lgamma: return mapUnary<S>([](C v) { return C(special::lgamma(double(v))); });
    case UnaryOp::Digamma: return mapUnary<S>([](C v) { return C(special::digamma(double(v))); });
    case UnaryOp::BesselI1e: return mapUnary<S>([](C v) { return C(special::besselI1e(double(v))); });
    default: return nullptr;
  }
}

template <class S>
ElementLoop intUnary(UnaryOp op) {
  using U = std::make_unsigned_t<S>;
  switch (op) {
    case UnaryOp::Negate: return mapUnary<S>([](S v) { return S(Wide<S>(0) - Wide<S>(v)); });
    case UnaryOp::Abs:
      return mapUnary<S>([](S v) { return v < 0 ? S(Wide<S>(0) - Wide<S>(v)) : v; });
    case UnaryOp::Sign: return mapUnary<S>([](S v) { return S((v > 0) - (v < 0)); });
    case UnaryOp::Not: return mapUnary<S>([](S v) { return S(~v); });
    case UnaryOp::Popcnt: return mapUnary<S>([](S v) { return S(std::popcount(U(v))); });
    case UnaryOp::CountLeadingZeros: return mapUnary<S>([](S v) { return S(std::countl_zero(U(v))); });
    default: return nullptr;
  }
}

}  // namespace

ElementLoop unaryLoop(UnaryOp op, ElementType x, ElementType result) {
  const ElementType expected = op == UnaryOp::IsFinite ? ElementType::Pred : x;
  ElementLoop loop = dispatchType(x, [&](auto tag) -> ElementLoop {
    using S = decltype(tag);
    if constexpr (kIsFloat<S>) {
      return floatUnary<S>(op);
    } else if constexpr (kIsInt<S>) {
      return intUnary<S>(op);
    } else {
      return op == UnaryOp::Not ? mapUnary<S>([](bool v) { return !v; }) : nullptr;
    }
  });
  if (!loop || result != expected)
    fail("not defined for " + std::string(mlirName(x)) + " giving " + std::string(mlirName(result)));
  return loop;
}

}  // namespace tpjrt::cpu
