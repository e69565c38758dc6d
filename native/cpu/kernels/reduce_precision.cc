// reduce_precision: rounds each float to `mantissa_bits` (to nearest, ties to even) and then to the
// exponent range of `exponent_bits` (overflow to infinity, anything below its smallest normal to zero),
// on the operand's own bit pattern, as XLA does; NaN stays NaN.
#include <cstring>

#include "kernels/kernels.h"

namespace tpjrt::cpu {

namespace {

// One element's bits U of a float format with `srcE` exponent and `srcM` mantissa bits.
template <class U>
U reduceBits(U bits, int srcE, int srcM, int64_t e, int64_t m) {
  const U sign = U(U(1) << (srcE + srcM));
  const U exponent = U(((U(1) << srcE) - 1) << srcM);
  const U mantissa = U((U(1) << srcM) - 1);
  if ((bits & exponent) == exponent && (bits & mantissa) != 0) return bits;  // NaN
  if (m < srcM) {
    const U last = U(U(1) << (srcM - m));  // the lowest mantissa bit kept
    const U bias = U((last >> 1) - 1 + ((bits & last) ? 1 : 0));
    bits = U((bits + bias) & ~U(last - 1));
  }
  if (e < srcE) {
    const int64_t srcBias = (int64_t(1) << (srcE - 1)) - 1, reducedBias = (int64_t(1) << (e - 1)) - 1;
    const U biased = U(bits & exponent);
    if (biased > (U(srcBias + reducedBias) << srcM)) bits = U((bits & sign) | exponent);
    else if (biased <= (U(srcBias - reducedBias) << srcM)) bits = U(bits & sign);
  }
  return bits;
}

template <class U>
void reduceAll(const Literal& x, Literal& out, int srcE, int srcM, int64_t e, int64_t m) {
  const int64_t n = numElements(x.type);
  const uint8_t* in = x.bytes.data();
  uint8_t* o = out.bytes.mutableData();
  for (int64_t i = 0; i < n; ++i) {
    U bits;
    std::memcpy(&bits, in + i * sizeof(U), sizeof(U));
    bits = reduceBits<U>(bits, srcE, srcM, e, m);
    std::memcpy(o + i * sizeof(U), &bits, sizeof(U));
  }
}

}  // namespace

Literal reducePrecisionKernel(const Op& op, const Operands& in, const TensorType& result) {
  const Literal& x = *in[0];
  const int64_t e = intAttr(op, "exponent_bits"), m = intAttr(op, "mantissa_bits");
  if (e < 1 || m < 0) fail("exponent_bits must be at least 1 and mantissa_bits at least 0");
  if (x.type.element != result.element || numElements(x.type) != numElements(result)) fail("result must have the operand's type");
  Literal out = uninitializedLiteral(result);
  switch (x.type.element) {
    case ElementType::F16: reduceAll<uint16_t>(x, out, 5, 10, e, m); break;
    case ElementType::BF16: reduceAll<uint16_t>(x, out, 8, 7, e, m); break;
    case ElementType::F32: reduceAll<uint32_t>(x, out, 8, 23, e, m); break;
    case ElementType::F64: reduceAll<uint64_t>(x, out, 11, 52, e, m); break;
    default: fail("operand " + typeString(x.type) + " must have a floating-point element type");
  }
  return out;
}

}  // namespace tpjrt::cpu
