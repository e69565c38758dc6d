// convert (value conversion between any two element types, the narrow ones too) and bitcast_convert
// (bit reinterpretation).
#include <algorithm>

#include "ir/narrow_types.h"
#include "kernels/isa_loops.h"

namespace tpjrt::cpu {

namespace {

template <class From, class To>
TPJRT_LOOP_BODY void convertRange(const void* const* in, const bool* splat, void* out, int64_t n) {
  const From* px = static_cast<const From*>(in[0]);
  To* o = static_cast<To*>(out);
  if (splat[0]) {
    std::fill_n(o, n, Num<To>::store(convertValue<To>(Num<From>::load(px[0]))));
    return;
  }
  for (int64_t i = 0; i < n; ++i) o[i] = Num<To>::store(convertValue<To>(Num<From>::load(px[i])));
}

// The narrow types (ir/narrow_types.h), one byte each: read as double (floats) or int64 (integers), and
// written from any value with the narrow type's rounding, saturation or wrap.
template <ElementType N>
struct Narrow {
  static constexpr bool kFloat = N >= ElementType::F8E5M2;
  static auto load(uint8_t b) {
    if constexpr (kFloat) return narrowFloatValue(N, b);
    else if constexpr (N == ElementType::S2 || N == ElementType::S4) return int64_t(int8_t(b));
    else return int64_t(b);
  }
  template <class C>
  static uint8_t store(C v) {
    if constexpr (kFloat) return narrowFloatBits(N, double(v));
    else if constexpr (std::is_floating_point_v<C>) return uint8_t(saturateNarrowInt(N, v));
    else return uint8_t(wrapNarrowInt(N, int64_t(v)));
  }
};

template <class Fn>
ElementLoop dispatchNarrow(ElementType t, Fn&& fn) {
  switch (t) {
    case ElementType::S2: return fn(Narrow<ElementType::S2>{});
    case ElementType::S4: return fn(Narrow<ElementType::S4>{});
    case ElementType::U2: return fn(Narrow<ElementType::U2>{});
    case ElementType::U4: return fn(Narrow<ElementType::U4>{});
    case ElementType::F8E5M2: return fn(Narrow<ElementType::F8E5M2>{});
    case ElementType::F8E4M3FN: return fn(Narrow<ElementType::F8E4M3FN>{});
    case ElementType::F8E4M3FNUZ: return fn(Narrow<ElementType::F8E4M3FNUZ>{});
    case ElementType::F8E5M2FNUZ: return fn(Narrow<ElementType::F8E5M2FNUZ>{});
    case ElementType::F8E4M3B11FNUZ: return fn(Narrow<ElementType::F8E4M3B11FNUZ>{});
    case ElementType::F8E4M3: return fn(Narrow<ElementType::F8E4M3>{});
    case ElementType::F8E3M4: return fn(Narrow<ElementType::F8E3M4>{});
    case ElementType::F8E8M0FNU: return fn(Narrow<ElementType::F8E8M0FNU>{});
    case ElementType::F4E2M1FN: return fn(Narrow<ElementType::F4E2M1FN>{});
    default: fail(std::string(mlirName(t)) + " is not a narrow type", ErrorCode::Internal);
  }
}

template <class From, class To>
void narrowRange(const void* const* in, const bool* splat, void* out, int64_t n) {
  const auto* x = static_cast<const uint8_t*>(in[0]);
  auto* o = static_cast<uint8_t*>(out);
  for (int64_t i = 0; i < n; ++i) o[i] = To::store(From::load(x[splat[0] ? 0 : i]));
}

template <class From, class To>
void fromNarrowRange(const void* const* in, const bool* splat, void* out, int64_t n) {
  const auto* x = static_cast<const uint8_t*>(in[0]);
  To* o = static_cast<To*>(out);
  for (int64_t i = 0; i < n; ++i) o[i] = Num<To>::store(convertValue<To>(From::load(x[splat[0] ? 0 : i])));
}

template <class From, class To>
void toNarrowRange(const void* const* in, const bool* splat, void* out, int64_t n) {
  const From* x = static_cast<const From*>(in[0]);
  auto* o = static_cast<uint8_t*>(out);
  for (int64_t i = 0; i < n; ++i) o[i] = To::store(Num<From>::load(x[splat[0] ? 0 : i]));
}

}  // namespace

ElementLoop convertLoop(ElementType from, ElementType to) {
  if (isNarrow(from) && isNarrow(to))
    return dispatchNarrow(from, [&](auto a) { return dispatchNarrow(to, [&](auto b) -> ElementLoop { return &narrowRange<decltype(a), decltype(b)>; }); });
  if (isNarrow(from))
    return dispatchNarrow(from, [&](auto a) { return dispatchType(to, [&](auto b) -> ElementLoop { return &fromNarrowRange<decltype(a), decltype(b)>; }); });
  if (isNarrow(to))
    return dispatchNarrow(to, [&](auto b) { return dispatchType(from, [&](auto a) -> ElementLoop { return &toNarrowRange<decltype(a), decltype(b)>; }); });
  return dispatchType(from, [&](auto fromTag) -> ElementLoop {
    return dispatchType(to, [&](auto toTag) -> ElementLoop { return isaLoop<&convertRange<decltype(fromTag), decltype(toTag)>>(); });
  });
}

Literal convertLiteral(Literal x, ElementType to) {
  if (x.type.element == to) return x;
  return runElementwise(convertLoop(x.type.element, to), {&x}, TensorType{to, x.type.dims});
}

// Row-major bytes are the same before and after: a wider operand element becomes a trailing dimension
// of narrower result elements (and back), in memory order.
Literal bitcastConvertKernel(const Op& op, const Operands& in, const TensorType& result) {
  const Literal& x = *in[0];
  Literal out = makeLiteral(result);
  if (out.bytes.size() != x.bytes.size())
    fail("cannot reinterpret " + typeString(x.type) + " as " + typeString(result));
  out.bytes = x.bytes;
  return out;
}

}  // namespace tpjrt::cpu
