// compare, select and clamp.
#include <algorithm>

#include "kernels/isa_loops.h"

namespace tpjrt::cpu {

namespace {

enum class Direction { EQ, NE, GE, GT, LE, LT };

Direction directionOf(const Op& op) {
  auto it = op.attrs.find("comparison_direction");
  if (it == op.attrs.end() || !it->second || it->second->kind != Attribute::Kind::Symbol)
    fail("missing attribute comparison_direction");
  const std::string& s = it->second->s;
  if (s == "EQ") return Direction::EQ;
  if (s == "NE") return Direction::NE;
  if (s == "GE") return Direction::GE;
  if (s == "GT") return Direction::GT;
  if (s == "LE") return Direction::LE;
  if (s == "LT") return Direction::LT;
  fail("unknown comparison_direction " + s);
}

bool isTotalOrder(const Op& op) {
  auto it = op.attrs.find("compare_type");
  return it != op.attrs.end() && it->second && it->second->s == "TOTALORDER";
}

// Maps a float to a signed integer whose order is IEEE totalOrder: -NaN < -Inf < … < -0 < +0 < … < NaN.
template <class C>
auto totalOrderKey(C v) {
  using I = std::conditional_t<sizeof(C) == 4, int32_t, int64_t>;
  I bits;
  std::memcpy(&bits, &v, sizeof bits);
  return bits < 0 ? I(bits ^ std::numeric_limits<I>::max()) : bits;
}

template <class S, class F>
TPJRT_LOOP_BODY void compareRange(const void* const* in, const bool* splat, void* out, int64_t n) {
  const S* pa = static_cast<const S*>(in[0]);
  const S* pb = static_cast<const S*>(in[1]);
  auto* o = static_cast<Pred*>(out);
  const F f{};
  // Unit-stride loops for the usual cases, so that they vectorise.
  if (!splat[0] && !splat[1]) {
    for (int64_t i = 0; i < n; ++i) o[i].v = f(Num<S>::load(pa[i]), Num<S>::load(pb[i])) ? 1 : 0;
  } else if (!splat[0]) {
    const auto y = Num<S>::load(pb[0]);
    for (int64_t i = 0; i < n; ++i) o[i].v = f(Num<S>::load(pa[i]), y) ? 1 : 0;
  } else {
    const int64_t sb = splat[1] ? 0 : 1;
    const auto x = Num<S>::load(pa[0]);
    for (int64_t i = 0; i < n; ++i) o[i].v = f(x, Num<S>::load(pb[i * sb])) ? 1 : 0;
  }
}

// The comparison of keys made by `Key` (a default-constructible function object) in direction `d`.
template <class S, class Key>
ElementLoop compareWith(Direction d) {
  using C = ComputeOf<S>;
  switch (d) {
    case Direction::EQ: return isaLoop<&compareRange<S, decltype([](C x, C y) { return Key{}(x) == Key{}(y); })>>();
    case Direction::NE: return isaLoop<&compareRange<S, decltype([](C x, C y) { return Key{}(x) != Key{}(y); })>>();
    case Direction::GE: return isaLoop<&compareRange<S, decltype([](C x, C y) { return Key{}(x) >= Key{}(y); })>>();
    case Direction::GT: return isaLoop<&compareRange<S, decltype([](C x, C y) { return Key{}(x) > Key{}(y); })>>();
    case Direction::LE: return isaLoop<&compareRange<S, decltype([](C x, C y) { return Key{}(x) <= Key{}(y); })>>();
    case Direction::LT: return isaLoop<&compareRange<S, decltype([](C x, C y) { return Key{}(x) < Key{}(y); })>>();
  }
  fail("unknown comparison direction", ErrorCode::Internal);
}

template <size_t W>
struct Bits;
template <> struct Bits<1> { using T = uint8_t; };
template <> struct Bits<2> { using T = uint16_t; };
template <> struct Bits<4> { using T = uint32_t; };
template <> struct Bits<8> { using T = uint64_t; };

// Unit strides and a mask instead of a branch, so that it vectorises; a splat side is one value.
template <class T, bool kSplatTrue, bool kSplatFalse>
TPJRT_LOOP_BODY void selectMasked(const Pred* p, const T* pt, const T* pf, T* o, int64_t n) {
  const T t0 = pt[0], f0 = pf[0];
  for (int64_t i = 0; i < n; ++i) {
    const T mask = T(T(0) - T(p[i].v != 0));
    const T t = kSplatTrue ? t0 : pt[i], f = kSplatFalse ? f0 : pf[i];
    o[i] = T((t & mask) | (f & T(~mask)));
  }
}

template <size_t W>
TPJRT_LOOP_BODY void selectRange(const void* const* in, const bool* splat, void* out, int64_t n) {
  using T = typename Bits<W>::T;
  const auto* p = static_cast<const Pred*>(in[0]);
  const T* pt = static_cast<const T*>(in[1]);
  const T* pf = static_cast<const T*>(in[2]);
  T* o = static_cast<T*>(out);
  if (splat[0]) {  // one choice for the whole range
    const T* from = p[0].v ? pt : pf;
    if (splat[p[0].v ? 1 : 2]) std::fill_n(o, n, from[0]);
    else std::copy_n(from, n, o);
  } else if (splat[1]) {
    if (splat[2]) selectMasked<T, true, true>(p, pt, pf, o, n);
    else selectMasked<T, true, false>(p, pt, pf, o, n);
  } else {
    if (splat[2]) selectMasked<T, false, true>(p, pt, pf, o, n);
    else selectMasked<T, false, false>(p, pt, pf, o, n);
  }
}

template <class S>
TPJRT_LOOP_BODY void clampRange(const void* const* in, const bool* splat, void* out, int64_t n) {
  const S* pl = static_cast<const S*>(in[0]);
  const S* px = static_cast<const S*>(in[1]);
  const S* ph = static_cast<const S*>(in[2]);
  S* o = static_cast<S*>(out);
  if (splat[0] && !splat[1] && splat[2]) {  // constant bounds: unit strides, so that it vectorises
    const auto lo = Num<S>::load(pl[0]), hi = Num<S>::load(ph[0]);
    for (int64_t i = 0; i < n; ++i) o[i] = Num<S>::store(minValue(maxValue(Num<S>::load(px[i]), lo), hi));
    return;
  }
  const int64_t sl = splat[0] ? 0 : 1, sx = splat[1] ? 0 : 1, sh = splat[2] ? 0 : 1;
  for (int64_t i = 0; i < n; ++i) {
    auto v = maxValue(Num<S>::load(px[i * sx]), Num<S>::load(pl[i * sl]));
    o[i] = Num<S>::store(minValue(v, Num<S>::load(ph[i * sh])));
  }
}

std::string typeList(const std::vector<ElementType>& in, ElementType result) {
  std::string s;
  for (ElementType t : in) s += (s.empty() ? "" : ", ") + std::string(mlirName(t));
  return s + " giving " + std::string(mlirName(result));
}

}  // namespace

ElementLoop compareLoop(const Op& op, const std::vector<ElementType>& in, ElementType result) {
  if (in.size() != 2 || in[0] != in[1] || result != ElementType::Pred) fail("not defined for " + typeList(in, result));
  Direction d = directionOf(op);
  bool total = isTotalOrder(op);
  return dispatchType(in[0], [&](auto tag) -> ElementLoop {
    using S = decltype(tag);
    using C = ComputeOf<S>;
    if constexpr (kIsFloat<S>) {
      if (total) return compareWith<S, decltype([](C v) { return totalOrderKey(v); })>(d);
    }
    return compareWith<S, decltype([](C v) { return v; })>(d);
  });
}

ElementLoop selectLoop(const Op&, const std::vector<ElementType>& in, ElementType result) {
  if (in.size() != 3 || in[0] != ElementType::Pred || in[1] != result || in[2] != result)
    fail("not defined for " + typeList(in, result));
  switch (byteWidth(result)) {
    case 1: return isaLoop<&selectRange<1>>();
    case 2: return isaLoop<&selectRange<2>>();
    case 4: return isaLoop<&selectRange<4>>();
    case 8: return isaLoop<&selectRange<8>>();
    default: fail("unsupported element width", ErrorCode::Internal);
  }
}

ElementLoop clampLoop(const Op&, const std::vector<ElementType>& in, ElementType result) {
  if (in.size() != 3 || in[0] != result || in[1] != result || in[2] != result)
    fail("not defined for " + typeList(in, result));
  return dispatchType(result, [](auto tag) -> ElementLoop { return isaLoop<&clampRange<decltype(tag)>>(); });
}

}  // namespace tpjrt::cpu
