// Element-wise unary ops: negate, abs, sign, not, the float math functions, rounding, is_finite,
// popcnt and count_leading_zeros.
#include <algorithm>
#include <bit>

#include "fast_math.h"
#include "kernels.h"
#include "thread_pool.h"

namespace tpjrt::cpu {

namespace {

template <class S, class R = S, class F>
Literal mapUnary(const Literal& x, const TensorType& result, F f) {
  Literal out = makeLiteral(result);
  const S* in = elements<S>(x);
  R* o = elements<R>(out);
  const int64_t n = numElements(result);
  if (numElements(x.type) == 1 && n != 1) {  // a splat operand: compute once
    const R v = Num<R>::store(f(Num<S>::load(in[0])));
    for (int64_t i = 0; i < n; ++i) o[i] = v;
  } else {
    for (int64_t i = 0; i < n; ++i) o[i] = Num<R>::store(f(Num<S>::load(in[i])));
  }
  return out;
}

// float32 exp, logistic and tanh loops, compiled twice on x86-64 GCC (AVX2 and baseline SSE2; the
// loader picks one for the CPU). Both do the same operations in the same order (no FMA), so their
// results are identical. Each loop is a pure function of its range, so a thread pool can split [0, n)
// into chunks and run the same loop on each.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define TPJRT_AVX2_CLONE __attribute__((target_clones("avx2", "default")))
#else
#define TPJRT_AVX2_CLONE
#endif
TPJRT_AVX2_CLONE void expLoop(const float* x, float* o, int64_t n) {
  for (int64_t i = 0; i < n; ++i) o[i] = fastmath::exp(x[i]);
}
TPJRT_AVX2_CLONE void logisticLoop(const float* x, float* o, int64_t n) {
  for (int64_t i = 0; i < n; ++i) o[i] = fastmath::logistic(x[i]);
}
TPJRT_AVX2_CLONE void tanhLoop(const float* x, float* o, int64_t n) {
  for (int64_t i = 0; i < n; ++i) o[i] = fastmath::tanh(x[i]);
}

Literal mapFloat32(const Literal& x, const TensorType& result, void (*loop)(const float*, float*, int64_t)) {
  Literal out = makeLiteral(result);
  const int64_t n = numElements(result);
  if (numElements(x.type) == 1 && n != 1) {  // a splat operand: compute once
    float v;
    loop(elements<float>(x), &v, 1);
    std::fill_n(elements<float>(out), n, v);
  } else {
    const float* in = elements<float>(x);
    float* o = elements<float>(out);
    parallelRange(n, kParallelElements, [&](int64_t b, int64_t e) { loop(in + b, o + b, e - b); });
  }
  return out;
}

template <class C>
C logistic(C x) {
  if (x >= 0) return C(1) / (C(1) + std::exp(-x));
  C e = std::exp(x);
  return e / (C(1) + e);
}

template <class S>
Literal floatUnary(UnaryOp op, const Literal& x, const TensorType& r) {
  using C = ComputeOf<S>;
  switch (op) {
    case UnaryOp::Negate: return mapUnary<S>(x, r, [](C v) { return -v; });
    case UnaryOp::Abs: return mapUnary<S>(x, r, [](C v) { return std::fabs(v); });
    case UnaryOp::Sign:
      return mapUnary<S>(x, r, [](C v) { return (std::isnan(v) || v == 0) ? v : std::copysign(C(1), v); });
    case UnaryOp::Exp:
      if constexpr (std::is_same_v<S, float>) return mapFloat32(x, r, expLoop);
      else return mapUnary<S>(x, r, [](C v) { return std::exp(v); });
    case UnaryOp::Expm1: return mapUnary<S>(x, r, [](C v) { return std::expm1(v); });
    case UnaryOp::Log: return mapUnary<S>(x, r, [](C v) { return std::log(v); });
    case UnaryOp::Log1p: return mapUnary<S>(x, r, [](C v) { return std::log1p(v); });
    case UnaryOp::Logistic:
      if constexpr (std::is_same_v<S, float>) return mapFloat32(x, r, logisticLoop);
      else return mapUnary<S>(x, r, [](C v) { return logistic(v); });
    case UnaryOp::Tanh:
      if constexpr (std::is_same_v<S, float>) return mapFloat32(x, r, tanhLoop);
      else return mapUnary<S>(x, r, [](C v) { return std::tanh(v); });
    case UnaryOp::Sqrt: return mapUnary<S>(x, r, [](C v) { return std::sqrt(v); });
    case UnaryOp::Rsqrt: return mapUnary<S>(x, r, [](C v) { return C(1) / std::sqrt(v); });
    case UnaryOp::Cbrt: return mapUnary<S>(x, r, [](C v) { return std::cbrt(v); });
    case UnaryOp::Sin: return mapUnary<S>(x, r, [](C v) { return std::sin(v); });
    case UnaryOp::Cos: return mapUnary<S>(x, r, [](C v) { return std::cos(v); });
    case UnaryOp::Tan: return mapUnary<S>(x, r, [](C v) { return std::tan(v); });
    case UnaryOp::Floor: return mapUnary<S>(x, r, [](C v) { return std::floor(v); });
    case UnaryOp::Ceil: return mapUnary<S>(x, r, [](C v) { return std::ceil(v); });
    case UnaryOp::RoundEven: return mapUnary<S>(x, r, [](C v) { return std::nearbyint(v); });
    case UnaryOp::RoundAwayFromZero: return mapUnary<S>(x, r, [](C v) { return std::round(v); });
    case UnaryOp::IsFinite: return mapUnary<S, Pred>(x, r, [](C v) { return std::isfinite(v); });
    default: fail("not defined for " + typeString(x.type));
  }
}

template <class S>
Literal intUnary(UnaryOp op, const Literal& x, const TensorType& r) {
  using U = std::make_unsigned_t<S>;
  switch (op) {
    case UnaryOp::Negate: return mapUnary<S>(x, r, [](S v) { return S(Wide<S>(0) - Wide<S>(v)); });
    case UnaryOp::Abs:
      return mapUnary<S>(x, r, [](S v) { return v < 0 ? S(Wide<S>(0) - Wide<S>(v)) : v; });
    case UnaryOp::Sign: return mapUnary<S>(x, r, [](S v) { return S((v > 0) - (v < 0)); });
    case UnaryOp::Not: return mapUnary<S>(x, r, [](S v) { return S(~v); });
    case UnaryOp::Popcnt: return mapUnary<S>(x, r, [](S v) { return S(std::popcount(U(v))); });
    case UnaryOp::CountLeadingZeros: return mapUnary<S>(x, r, [](S v) { return S(std::countl_zero(U(v))); });
    default: fail("not defined for " + typeString(x.type));
  }
}

}  // namespace

Literal unary(UnaryOp op, const Literal& x, const TensorType& result) {
  return dispatchType(x.type.element, [&](auto tag) -> Literal {
    using S = decltype(tag);
    if constexpr (kIsFloat<S>) {
      return floatUnary<S>(op, x, result);
    } else if constexpr (kIsInt<S>) {
      return intUnary<S>(op, x, result);
    } else {
      if (op != UnaryOp::Not) fail("not defined for " + typeString(x.type));
      return mapUnary<S>(x, result, [](bool v) { return !v; });
    }
  });
}

}  // namespace tpjrt::cpu
