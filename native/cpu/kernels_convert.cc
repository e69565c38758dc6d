// convert (value conversion between any two element types) and bitcast_convert (bit reinterpretation).
#include "kernels.h"

namespace tpjrt::cpu {

Literal convertKernel(const Op& op, const Operands& in, const TensorType& result) {
  const Literal& x = *in[0];
  return dispatchType(x.type.element, [&](auto fromTag) -> Literal {
    using From = decltype(fromTag);
    return dispatchType(result.element, [&](auto toTag) -> Literal {
      using To = decltype(toTag);
      Literal out = makeLiteral(result);
      const From* px = elements<From>(x);
      To* o = elements<To>(out);
      const int64_t n = numElements(result);
      const int64_t step = numElements(x.type) == 1 ? 0 : 1;
      for (int64_t i = 0; i < n; ++i) o[i] = Num<To>::store(convertValue<To>(Num<From>::load(px[i * step])));
      return out;
    });
  });
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
