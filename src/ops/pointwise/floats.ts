/**
 * @file The parts of a float, elementwise: copysign (sign bits), nextafter (the neighbouring float),
 * ldexp (scaling by powers of two) and frexp (mantissa and exponent). Worked on the bits through
 * an integer view of the same width; integer and bool inputs of copysign and ldexp give float32.
 */
import { isFloating } from "../../dtype.js";
import { type FloatDType, floatFormats } from "../../dtype_info.js";
import { DTypeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import { bind1 } from "../../trace/tracer.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import type { MantissaExponent } from "../types.js";
import { broadcastShapes } from "../dims.js";
import { lift, promote, run, runMany } from "../unit.js";
import { bitsOf, c, computeDType, floatDType, fromBits, isNanT, none, prepare, type T } from "./operands.js";

/**
 * |x| with the sign bit of y, with PyTorch's gradient g · result / x: 0 at x = ±0 (abs's), NaN at
 * ±inf and NaN, where ±inf / ±inf is NaN (there |x| is taken as √(x·x), whose gradient is 0 · inf).
 */
function copysignT(x: T, y: T): T {
  const finite = e.isFinite(x);
  const nonFinite = e.select(finite, c(x, 1), x); // 1 where the root is not used, so its gradient stays finite there
  const magnitude = e.select(finite, e.abs(x), e.sqrt(e.mul(nonFinite, nonFinite)));
  const bits = bitsOf(y);
  return e.select(e.compare(bits, c(bits, 0), "LT"), e.neg(magnitude), magnitude);
}

export const copysign = op(
  "copysign(input: Tensor, other: Tensor | Scalar) -> Tensor",
  { doc: "|input| with the sign of other (the sign bit: −0 and −NaN count as negative), elementwise with broadcasting; integer and bool inputs give float32.", method: true },
  ({ input, other }) =>
    run("copysign", [input, other], "", ([x, y]) => {
      const [p, q] = prepare("copysign", x!, y!, floatDType(promote(x!, y!)));
      return copysignT(p, q);
    }),
);

/**
 * The float after x toward y: y where they are equal, NaN where either is NaN, the least subnormal
 * (signed like y) after ±0, else x's bits one step away from or toward zero. PyTorch's gradient is
 * 1 for x where x ≠ y, 0 for y: y is under stopGradient, and where x is finite and moves the result
 * is x plus the (exact) step under stopGradient.
 */
function nextafterT(x: T, other: T): T {
  const y = e.stopGradient(other);
  const bits = bitsOf(x);
  const one = c(bits, 1);
  const away = e.compare(e.compare(y, x, "GT"), e.compare(x, c(x, 0), "GT"), "EQ");
  const stepped = fromBits(e.select(away, e.add(bits, one), e.sub(bits, one)), x.dtype);
  const least = fromBits(one, x.dtype);
  const fromZero = e.select(e.compare(y, c(y, 0), "GT"), least, e.neg(least));
  const moved = e.select(e.compare(x, c(x, 0), "EQ"), fromZero, stepped);
  const withGradient = e.select(e.isFinite(x), e.add(x, e.stopGradient(e.sub(moved, x))), moved);
  return e.select(e.or(isNanT(x), isNanT(y)), e.add(x, y), e.select(e.compare(x, y, "EQ"), y, withGradient));
}

export const nextafter = op(
  "nextafter(input: Tensor, other: Tensor) -> Tensor",
  { doc: "The next representable float after input in the direction of other, elementwise with broadcasting; float tensors only.", method: true },
  ({ input, other }) =>
    run("nextafter", [input, other], "", ([x, y]) => {
      const dtype = promote(x!, y!);
      if (!isFloating(dtype)) throw new DTypeError(`nextafter: not implemented for ${dtype} tensors; use float tensors`);
      const [p, q] = prepare("nextafter", x!, y!, dtype);
      return nextafterT(p, q);
    }),
);

export const ldexp = op(
  "ldexp(input: Tensor, other: Tensor) -> Tensor",
  { doc: "input × 2^other, elementwise with broadcasting, in the promoted float dtype (integer inputs give float32; a bool other is an error). A float input with an integer other is scaled exactly (one rounding); otherwise 2^other is rounded to other's float dtype first, as PyTorch.", method: true },
  ({ input, other }) =>
    run("ldexp", [input, other], "", ([x, y]) => {
      const [base, exponent] = [x as T, y as T];
      if (exponent.dtype === "bool") throw new DTypeError("ldexp: not implemented for a bool exponent (other); convert it to an integer dtype");
      const dtype = floatDType(promote(base, exponent));
      if (isFloating(base.dtype) && !isFloating(exponent.dtype)) {
        const shape = broadcastShapes("ldexp", base.shape, exponent.shape);
        return e.convert(scaleByPowerOfTwo(lift(base, computeDType(dtype), shape), lift(exponent, exponent.dtype, shape)), dtype);
      }
      // as PyTorch: 2^other rounded to other's float dtype (float32 for integers), then the product in the result's
      const scaleDType = floatDType(exponent.dtype);
      const q = e.convert(exponent, computeDType(scaleDType));
      const scale = e.convert(e.pow(c(q, 2), q), scaleDType);
      const [p, s] = prepare("ldexp", base, scale, computeDType(dtype));
      return e.convert(e.mul(p, s), dtype);
    }),
);

const shr = (a: T, b: T): T => bind1("shr_arith", [a, b], none);
const shl = (a: T, b: T): T => bind1("shl", [a, b], none);

/** 2^k as a float of `dtype`, built from its bits, for integer tracers k within the dtype's normal exponents. */
function powerOfTwo(k: T, dtype: FloatDType): T {
  const { mantissaBits, maxExponent } = floatFormats[dtype];
  return fromBits(shl(e.add(k, c(k, maxExponent)), c(k, mantissaBits)), dtype);
}

/**
 * [mantissa, exponent] with x = mantissa × 2^exponent and 0.5 ≤ |mantissa| < 1; (x, 0) for ±0, ±inf
 * and NaN. The exponent is read from the bits (subnormals scaled up into the normals first); the
 * mantissa is x times two exact powers of two, so its gradient is 2^−exponent, as PyTorch's.
 */
function frexpT(x: T): [T, T] {
  const dtype = x.dtype as FloatDType;
  const { mantissaBits, maxExponent } = floatFormats[dtype];
  const regular = e.and(e.isFinite(x), e.compare(x, c(x, 0), "NE"));
  const subnormal = e.compare(e.abs(x), c(x, 2 ** (1 - maxExponent)), "LT");
  const scaled = e.select(subnormal, e.mul(x, c(x, 2 ** (mantissaBits + 1))), x);
  const bits = bitsOf(scaled);
  const biased = e.and(shr(bits, c(bits, mantissaBits)), c(bits, 2 * maxExponent + 1));
  const unscale = e.select(subnormal, c(bits, mantissaBits + 1), c(bits, 0));
  const exponent = e.select(regular, e.sub(e.sub(biased, c(bits, maxExponent - 1)), unscale), c(bits, 0));
  const half = shr(exponent, c(exponent, 1));
  const mantissa = e.mul(e.mul(x, powerOfTwo(e.neg(half), dtype)), powerOfTwo(e.sub(half, exponent), dtype));
  return [mantissa, e.convert(exponent, "int32")];
}

/**
 * x · 2^k for a float x and integer k, rounded once (PyTorch's ldexp with an integer exponent):
 * x = m · 2^ex (frexp) and m · 2^(ex + k) as m times two exact normal powers of two, the larger first
 * so that only the last product can leave the normal range.
 */
function scaleByPowerOfTwo(x: T, k: T): T {
  const dtype = x.dtype as FloatDType;
  const { maxExponent } = floatFormats[dtype];
  const int = dtype === "float64" ? "int64" : "int32";
  const wide = e.convert(k, "int64");
  const bounded = e.convert(e.clamp(c(wide, -4 * maxExponent), wide, c(wide, 4 * maxExponent)), int);
  const [mantissa, ex] = frexpT(x);
  const total = e.add(e.convert(ex, int), bounded);
  // beyond these m · 2^total is 0 or inf anyway, and each half stays within the normal exponents
  const clamped = e.clamp(c(total, 4 - 2 * maxExponent), total, c(total, 2 * maxExponent));
  const first = e.neg(shr(e.neg(clamped), c(clamped, 1))); // ⌈total / 2⌉
  return e.mul(e.mul(mantissa, powerOfTwo(first, dtype)), powerOfTwo(e.sub(clamped, first), dtype));
}

export const frexp = op(
  "frexp(input: Tensor) -> MantissaExponent",
  { doc: "`{ mantissa, exponent }` with input = mantissa × 2^exponent, 0.5 ≤ |mantissa| < 1 (mantissa in input's dtype, exponent int32); ±0, ±inf and NaN give themselves and exponent 0. Float tensors only.", method: true },
  ({ input }) => {
    if (!isFloating(input.dtype)) throw new DTypeError(`frexp: only supports floating-point dtypes, got ${input.dtype}; convert with .to("float32") first`);
    const [mantissa, exponent] = runMany("frexp", [input], "", ([x]) => frexpT(x!));
    return { mantissa: mantissa!, exponent: exponent! };
  },
);
