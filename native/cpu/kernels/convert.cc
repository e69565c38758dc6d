// convert (value conversion between any two element types) and bitcast_convert (bit reinterpretation).
#include <algorithm>

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

}  // namespace

ElementLoop convertLoop(ElementType from, ElementType to) {
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
