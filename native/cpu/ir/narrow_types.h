// The element types narrower than the plugin's kernels compute in: the 2- and 4-bit integers (i2, i4,
// ui2, ui4) and the 8- and 4-bit floats (f8E5M2, f8E4M3FN, f8E4M3FNUZ, f8E5M2FNUZ, f8E4M3B11FNUZ,
// f8E4M3, f8E3M4, f8E8M0FNU, f4E2M1FN). Each is stored in one byte: an integer as its value (sign-
// extended), a float as its bit pattern. Kernels convert and move them; arithmetic on them runs in a
// wider type (ir/widen_narrow_types.h).
#pragma once

#include <cstdint>

#include "ir/ir.h"

namespace tpjrt::cpu {

bool isNarrow(ElementType t);
// The type arithmetic on a narrow type runs in: f32 for the floats, i8 / ui8 for the integers.
ElementType wideTypeOf(ElementType t);
// Bits of the values a type holds: 1 for i1, 2 and 4 for the narrow integers and f4E2M1FN, 8·byteWidth
// otherwise.
int valueBits(ElementType t);

// A narrow float's stored bits as a value (NaN for its NaN patterns), and a value rounded to the
// nearest of the format's (ties to even) with the format's overflow: ±inf where it has them, NaN for
// the FN and FNUZ formats, the largest finite for f4E2M1FN (whose NaN becomes -0). f8E8M0FNU holds
// powers of two only: ties round up, zero and negatives are NaN, anything below 2^-127 is 2^-127.
double narrowFloatValue(ElementType t, uint8_t bits);
uint8_t narrowFloatBits(ElementType t, double v);

// A narrow integer type's value of an integer: its low bits, sign-extended for the signed types.
int64_t wrapNarrowInt(ElementType t, int64_t v);
// A narrow integer type's value of a float: truncated towards zero and saturated; NaN is 0.
int64_t saturateNarrowInt(ElementType t, double v);

}  // namespace tpjrt::cpu
