// compare, select and clamp.
#include "kernels.h"

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
Literal mapCompare(const Literal& a, const Literal& b, const TensorType& result, F f) {
  Literal out = makeLiteral(result);
  const S* pa = elements<S>(a);
  const S* pb = elements<S>(b);
  auto* o = elements<Pred>(out);
  const int64_t n = numElements(result);
  const int64_t sa = numElements(a.type) == 1 ? 0 : 1, sb = numElements(b.type) == 1 ? 0 : 1;
  for (int64_t i = 0; i < n; ++i) o[i].v = f(Num<S>::load(pa[i * sa]), Num<S>::load(pb[i * sb])) ? 1 : 0;
  return out;
}

template <class S, class Key>
Literal compareWith(Direction d, const Literal& a, const Literal& b, const TensorType& r, Key key) {
  using C = ComputeOf<S>;
  switch (d) {
    case Direction::EQ: return mapCompare<S>(a, b, r, [&](C x, C y) { return key(x) == key(y); });
    case Direction::NE: return mapCompare<S>(a, b, r, [&](C x, C y) { return key(x) != key(y); });
    case Direction::GE: return mapCompare<S>(a, b, r, [&](C x, C y) { return key(x) >= key(y); });
    case Direction::GT: return mapCompare<S>(a, b, r, [&](C x, C y) { return key(x) > key(y); });
    case Direction::LE: return mapCompare<S>(a, b, r, [&](C x, C y) { return key(x) <= key(y); });
    case Direction::LT: return mapCompare<S>(a, b, r, [&](C x, C y) { return key(x) < key(y); });
  }
  fail("unknown comparison direction", ErrorCode::Internal);
}

template <size_t W>
struct Bits;
template <> struct Bits<1> { using T = uint8_t; };
template <> struct Bits<2> { using T = uint16_t; };
template <> struct Bits<4> { using T = uint32_t; };
template <> struct Bits<8> { using T = uint64_t; };

template <size_t W>
void selectOfWidth(const Literal& pred, const Literal& t, const Literal& f, Literal& out) {
  using T = typename Bits<W>::T;
  const auto* p = elements<Pred>(pred);
  const T* pt = elements<T>(t);
  const T* pf = elements<T>(f);
  T* o = elements<T>(out);
  const int64_t n = numElements(out.type);
  const int64_t sp = numElements(pred.type) == 1 ? 0 : 1;
  const int64_t st = numElements(t.type) == 1 ? 0 : 1, sf = numElements(f.type) == 1 ? 0 : 1;
  for (int64_t i = 0; i < n; ++i) o[i] = p[i * sp].v ? pt[i * st] : pf[i * sf];
}

}  // namespace

Literal compareKernel(const Op& op, const Operands& in, const TensorType& result) {
  const Literal& a = *in[0];
  const Literal& b = *in[1];
  Direction d = directionOf(op);
  bool total = isTotalOrder(op);
  return dispatchType(a.type.element, [&](auto tag) -> Literal {
    using S = decltype(tag);
    using C = ComputeOf<S>;
    if constexpr (kIsFloat<S>) {
      if (total) return compareWith<S>(d, a, b, result, [](C v) { return totalOrderKey(v); });
    }
    return compareWith<S>(d, a, b, result, [](C v) { return v; });
  });
}

Literal selectKernel(const Op& op, const Operands& in, const TensorType& result) {
  if (in[0]->type.element != ElementType::Pred) fail("select predicate must be i1");
  Literal out = makeLiteral(result);
  switch (byteWidth(result.element)) {
    case 1: selectOfWidth<1>(*in[0], *in[1], *in[2], out); break;
    case 2: selectOfWidth<2>(*in[0], *in[1], *in[2], out); break;
    case 4: selectOfWidth<4>(*in[0], *in[1], *in[2], out); break;
    case 8: selectOfWidth<8>(*in[0], *in[1], *in[2], out); break;
    default: fail("unsupported element width", ErrorCode::Internal);
  }
  return out;
}

Literal clampKernel(const Op& op, const Operands& in, const TensorType& result) {
  const Literal& lo = *in[0];
  const Literal& x = *in[1];
  const Literal& hi = *in[2];
  return dispatchType(x.type.element, [&](auto tag) -> Literal {
    using S = decltype(tag);
    Literal out = makeLiteral(result);
    const S* pl = elements<S>(lo);
    const S* px = elements<S>(x);
    const S* ph = elements<S>(hi);
    S* o = elements<S>(out);
    const int64_t n = numElements(result);
    const int64_t sl = numElements(lo.type) == 1 ? 0 : 1, sx = numElements(x.type) == 1 ? 0 : 1,
                  sh = numElements(hi.type) == 1 ? 0 : 1;
    for (int64_t i = 0; i < n; ++i) {
      auto v = maxValue(Num<S>::load(px[i * sx]), Num<S>::load(pl[i * sl]));
      o[i] = Num<S>::store(minValue(v, Num<S>::load(ph[i * sh])));
    }
    return out;
  });
}

}  // namespace tpjrt::cpu
