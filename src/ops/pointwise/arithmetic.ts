/**
 * @file Arithmetic with PyTorch's broadcasting and type promotion (Python-style scalars included):
 * add, sub, mul, div (true, truncating or flooring), pow and floatPower, neg, positive, abs, sign
 * and sgn, heaviside, square, the remainders (fmod, remainder, floorDivide) and the fused lerp,
 * addcmul and addcdiv.
 */
import { type DType, defaultFloatDType, dtypes, isFloating } from "../../dtype.js";
import { DTypeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import { bind1 } from "../../trace/tracer.js";
import { broadcastShapes } from "../dims.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import type { ScalarArg, TensorOrScalar } from "../types.js";
import { isScalar, lift, promote, run } from "../unit.js";
import { c, computeDType, isNanT, kind, none, prepare, shapeOf, type T } from "./operands.js";

function checkAlpha(op: string, alpha: ScalarArg, dtype: DType): void {
  if (dtypes[dtype].kind !== "float" && typeof alpha === "number" && !Number.isInteger(alpha)) {
    throw new DTypeError(`${op}: for integral input tensors (${dtype}), alpha must not be a floating point number (got ${alpha})`);
  }
  if (dtype !== "bool" && typeof alpha === "boolean") throw new DTypeError(`${op}: a boolean alpha is only allowed for bool tensors`);
}

/** a ± alpha × b (also the body of add_ and sub_). */
export function addSub(op: "add" | "sub", a: TensorOrScalar, b: TensorOrScalar, alpha: ScalarArg): Tensor {
  return run(op, [a, b], String(alpha), ([x, y]) => {
    const dtype = promote(x!, y!);
    if (op === "sub" && [x!, y!].some((v) => v === true || v === false || (!isScalar(v) && v.dtype === "bool"))) {
      throw new DTypeError("sub: subtraction with a bool tensor or value is not supported; to invert a mask use logicalNot, for two masks logicalXor");
    }
    checkAlpha(op, alpha, dtype);
    let [p, q] = prepare(op, x!, y!, dtype);
    if (alpha !== 1 && alpha !== true) q = e.mul(q, e.full(alpha, dtype, q.shape));
    return op === "add" ? e.add(p, q) : e.sub(p, q);
  });
}

export const add = op(
  "add(input: Tensor | Scalar, other: Tensor | Scalar, *, alpha: Scalar = 1) -> Tensor",
  { doc: "input + alpha × other, with broadcasting and type promotion; either operand may be a scalar.", method: true },
  ({ input, other, alpha }) => addSub("add", input, other, alpha),
);

export const sub = op(
  "sub(input: Tensor | Scalar, other: Tensor | Scalar, *, alpha: Scalar = 1) -> Tensor",
  { doc: "input − alpha × other, with broadcasting and type promotion; either operand may be a scalar (bool operands are an error).", method: true },
  ({ input, other, alpha }) => addSub("sub", input, other, alpha),
);

/** a × b (also the body of mul_). */
export function multiply(a: TensorOrScalar, b: TensorOrScalar): Tensor {
  return run("mul", [a, b], "", ([x, y]) => {
    const [p, q] = prepare("mul", x!, y!, promote(x!, y!));
    return e.mul(p, q);
  });
}

export const mul = op(
  "mul(input: Tensor | Scalar, other: Tensor | Scalar) -> Tensor",
  { doc: "input × other, with broadcasting and type promotion; either operand may be a scalar.", method: true },
  ({ input, other }) => multiply(input, other),
);

export type RoundingMode = "trunc" | "floor";

/** a / b: true division (integers give float32), or rounded "trunc" | "floor" (also the body of div_ and floorDivide). */
export function divide(a: TensorOrScalar, b: TensorOrScalar, mode: RoundingMode | null): Tensor {
  return run("div", [a, b], String(mode), ([x, y]) => {
    let dtype = promote(x!, y!);
    if (mode === null && !isFloating(dtype)) dtype = defaultFloatDType;
    if (mode !== null && dtype === "bool") throw new DTypeError(`div: roundingMode "${mode}" is not supported for bool tensors`);
    const [p, q] = prepare("div", x!, y!, dtype);
    const quotient = e.div(p, q);
    if (mode === null) return quotient;
    if (isFloating(dtype)) {
      // a step function: PyTorch's gradient is 0 everywhere, where the composition's is NaN at inf and 0
      // (docs/autograd.md, "Where the gradient is not the composition's")
      if (mode === "floor") return e.stopGradient(floorDivFloat(p, q, quotient));
      const negative = e.compare(quotient, e.full(0, dtype, quotient.shape), "LT");
      return e.select(negative, e.ceil(quotient), e.floor(quotient));
    }
    if (mode === "trunc") return quotient; // integer division truncates
    // floor: one less where the division was inexact and the operands' signs differ
    const zero = e.full(0, dtype, quotient.shape);
    const inexact = e.compare(e.rem(p, q), zero, "NE");
    const signsDiffer = e.compare(e.compare(p, zero, "LT"), e.compare(q, zero, "LT"), "NE");
    return e.select(e.and(inexact, signsDiffer), e.sub(quotient, e.full(1, dtype, quotient.shape)), quotient);
  });
}

/**
 * PyTorch's floor division of floats: from fmod, so that x // ±inf and ±inf // x agree with Python
 * (−3 // inf = −1, inf // 3 = NaN), rounded to the nearest integer quotient; IEEE a / b when b is 0.
 */
function floorDivFloat(p: T, q: T, quotient: T): T {
  const k = (v: number) => e.full(v, p.dtype, p.shape);
  const mod = e.rem(p, q);
  let d = e.div(e.sub(p, mod), q);
  const signsDiffer = e.compare(e.compare(q, k(0), "LT"), e.compare(mod, k(0), "LT"), "NE");
  d = e.select(e.and(e.compare(mod, k(0), "NE"), signsDiffer), e.sub(d, k(1)), d);
  const fl = e.floor(d);
  const rounded = e.select(e.compare(e.sub(d, fl), k(0.5), "GT"), e.add(fl, k(1)), fl);
  const signedZero = e.mul(quotient, k(0)); // copysign(0, a / b)
  const nonzero = e.select(e.compare(d, k(0), "NE"), rounded, signedZero);
  return e.select(e.compare(q, k(0), "EQ"), quotient, nonzero);
}

export const div = op(
  'div(input: Tensor | Scalar, other: Tensor | Scalar, *, roundingMode?: "trunc" | "floor") -> Tensor',
  {
    doc: 'input / other: true division (integer inputs give float32), or rounded toward zero (roundingMode "trunc") or down ("floor"); either operand may be a scalar.',
    method: true,
  },
  ({ input, other, roundingMode }) => divide(input, other, roundingMode ?? null),
);

export const floorDivide = op(
  "floorDivide(input: Tensor | Scalar, other: Tensor | Scalar) -> Tensor",
  { doc: "input // other, rounded toward −infinity (div with roundingMode \"floor\"); either operand may be a scalar.", method: true },
  ({ input, other }) => divide(input, other, "floor"),
);

function noBool(op: string, x: T, what = op): void {
  if (x.dtype === "bool") throw new DTypeError(`${op}: ${what} is not supported on bool tensors`);
}

/** −a (also the body of neg_). */
export function negate(a: Tensor): Tensor {
  return run("neg", [a], "", ([x]) => {
    noBool("neg", x as T, "negation (-)");
    return e.neg(x as T);
  });
}

export const neg = op("neg(input: Tensor) -> Tensor", { doc: "−input (bool tensors are an error).", method: true }, ({ input }) => negate(input));

/** |a| (also the body of abs_). */
export function absolute(a: Tensor): Tensor {
  return run("abs", [a], "", ([x]) => {
    const t = x as T;
    noBool("abs", t);
    // one abs primitive (its VJP rule gives PyTorch's gradient 0 at NaN: sgn(NaN) = 0)
    return dtypes[t.dtype].kind === "uint" ? t : e.abs(t);
  });
}

export const positive = op("positive(input: Tensor) -> Tensor", { doc: "input itself, as a new tensor (+input; bool tensors are an error).", method: true }, ({ input }) =>
  run("positive", [input], "", ([x]) => {
    noBool("positive", x as T, "the + operator");
    return x as T;
  }),
);

export const abs = op("abs(input: Tensor) -> Tensor", { doc: "|input| (bool tensors are an error).", method: true }, ({ input }) => absolute(input));

const signp = (a: T): T => bind1("sign", [a], none);

export const sign = op(
  "sign(input: Tensor) -> Tensor",
  { doc: "−1, 0 or 1 by the sign of each element, in the input's dtype (sign(NaN) is 0, as in PyTorch; bool stays bool).", method: true },
  ({ input }) =>
    run("sign", [input], "", ([x]) => {
      const t = x as T;
      const k = kind(t.dtype);
      if (k === "bool") return t;
      if (k === "uint") return e.convert(e.compare(t, c(t, 0), "GT"), t.dtype);
      if (k === "int") return signp(t);
      const v = e.convert(t, computeDType(t.dtype));
      return e.convert(e.select(isNanT(v), c(v, 0), signp(v)), t.dtype); // sign(NaN) is 0 in PyTorch
    }),
);

export const sgn = op(
  "sgn(input: Tensor) -> Tensor",
  { doc: "sign under the name PyTorch gives its extension to complex numbers (every dtype here is real): −1, 0 or 1 in the input's dtype.", method: true },
  ({ input }) => sign(input),
);

export const heaviside = op(
  "heaviside(input: Tensor, values: Tensor) -> Tensor",
  { doc: "The Heaviside step function: 0 where input < 0 (or NaN), 1 where input > 0, and `values` (broadcast) where input is 0; both tensors must have the same dtype.", method: true },
  ({ input, values }) => {
    if (input.dtype !== values.dtype) {
      throw new DTypeError(`heaviside: input (${input.dtype}) and values (${values.dtype}) must have the same dtype; convert one with .to("${input.dtype}")`);
    }
    return run("heaviside", [input, values], "", ([x, v]) => {
      const [p, q] = prepare("heaviside", x!, v!, input.dtype);
      const step = e.select(e.compare(p, c(p, 0), "GT"), c(p, 1), c(p, 0));
      return e.select(e.compare(p, c(p, 0), "EQ"), q, step);
    });
  },
);

export const square = op(
  "square(input: Tensor) -> Tensor",
  { doc: "input × input; bool squares as int64, as PyTorch's pow(x, 2) does.", method: true },
  ({ input }) =>
    run("square", [input], "", ([x]) => {
      const t = x as T;
      const v = t.dtype === "bool" ? e.convert(t, "int64") : t;
      return e.mul(v, v);
    }),
);

/** a ** b (also the body of pow_). */
export function power(a: TensorOrScalar, b: TensorOrScalar): Tensor {
  return run("pow", [a, b], "", ([x, y]) => {
    const dtype = promote(x!, y!);
    if (dtype === "bool") throw new DTypeError("pow: bool ** bool is not supported; convert to an integer or float dtype");
    if (!isFloating(dtype) && (typeof y === "number" || typeof y === "bigint") && y < 0) {
      throw new DTypeError(`pow: integers to negative integer powers are not allowed (exponent ${y}); use a float tensor`);
    }
    const [p, q] = prepare("pow", x!, y!, dtype);
    return (isFloating(dtype) && typeof y === "number" && powByScalar(p, y)) || e.pow(p, q);
  });
}

/**
 * PyTorch's own shortcuts for a float tensor to a scalar power, which give its exact bits (a power
 * function may round x³ differently from x·x·x) and cost a multiply instead of a pow: 2, 3, 0.5, -1;
 * undefined for other exponents.
 */
function powByScalar(x: T, exponent: number): T | undefined {
  switch (exponent) {
    case 2: return e.mul(x, x);
    case 3: return e.mul(e.mul(x, x), x);
    case 0.5: return e.sqrt(x);
    case -1: return e.div(c(x, 1), x);
    default: return undefined;
  }
}

export const pow = op(
  "pow(input: Tensor | Scalar, exponent: Tensor | Scalar) -> Tensor",
  { doc: "input ** exponent, with broadcasting and type promotion; either may be a scalar (integers to negative integer powers are an error). A float tensor to the power 2, 3, 0.5 or -1 is computed as PyTorch does (multiplies, sqrt, a division), to its bits.", method: true },
  ({ input, exponent }) => power(input, exponent),
);

export const floatPower = op(
  "floatPower(input: Tensor | Scalar, exponent: Tensor | Scalar) -> Tensor",
  { doc: "input ** exponent computed in float64 (the result is always float64), with broadcasting; either may be a scalar.", method: true },
  ({ input, exponent }) =>
    run("floatPower", [input, exponent], "", ([x, y]) => {
      const [p, q] = prepare("floatPower", x!, y!, "float64");
      return (typeof y === "number" && powByScalar(p, y)) || e.pow(p, q);
    }),
);

function noBoolDType(op: string, dtype: DType): void {
  if (dtype === "bool") throw new DTypeError(`${op}: not implemented for bool tensors`);
}

export const fmod = op(
  "fmod(input: Tensor | Scalar, other: Tensor | Scalar) -> Tensor",
  { doc: "C-style remainder of input / other: it has the sign of the dividend.", method: true },
  ({ input, other }) =>
    run("fmod", [input, other], "", ([x, y]) => {
      const dtype = promote(x!, y!);
      noBoolDType("fmod", dtype);
      const [p, q] = prepare("fmod", x!, y!, dtype);
      const cd = computeDType(dtype);
      return e.convert(e.rem(e.convert(p, cd), e.convert(q, cd)), dtype);
    }),
);

export const remainder = op(
  "remainder(input: Tensor | Scalar, other: Tensor | Scalar) -> Tensor",
  { doc: "Python-style remainder of input / other: it has the sign of the divisor.", method: true },
  ({ input, other }) =>
    run("remainder", [input, other], "", ([x, y]) => {
      const dtype = promote(x!, y!);
      noBoolDType("remainder", dtype);
      const [p0, q0] = prepare("remainder", x!, y!, dtype);
      const cd = computeDType(dtype);
      const p = e.convert(p0, cd);
      const q = e.convert(q0, cd);
      const mod = e.rem(p, q);
      const zero = c(mod, 0);
      const fix = e.and(e.compare(mod, zero, "NE"), e.compare(e.compare(q, zero, "LT"), e.compare(mod, zero, "LT"), "NE"));
      return e.convert(e.select(fix, e.add(mod, q), mod), dtype);
    }),
);

export const lerp = op(
  "lerp(input: Tensor, end: Tensor, weight: Tensor | float) -> Tensor",
  { doc: "input + weight × (end − input), float tensors only (computed from whichever end is nearer, as PyTorch does).", method: true },
  ({ input, end, weight }) =>
    run("lerp", [input, end, weight], "", ([s, en, w]) => {
      const dtype = promote(s!, en!);
      if (!isFloating(dtype)) throw new DTypeError(`lerp: not implemented for ${dtype} tensors; use a float tensor`);
      const shape = broadcastShapes("lerp", shapeOf(s!), shapeOf(en!), shapeOf(w!));
      const cd = computeDType(dtype);
      const x = lift(s!, cd, shape);
      const y = lift(en!, cd, shape);
      const wt = lift(w!, cd, shape);
      // x + w (y − x) for |w| < 0.5, else y + (w − 1)(y − x): the selects pick operands, not results, so
      // the branch not taken sends no 0 × inf into the gradient
      const near = e.compare(e.abs(wt), c(wt, 0.5), "LT");
      const base = e.select(near, x, y);
      const scale = e.select(near, wt, e.sub(wt, c(wt, 1)));
      return e.convert(e.add(base, e.mul(scale, e.sub(y, x))), dtype);
    }),
);

function addcLike(op: "addcmul" | "addcdiv", input: Tensor, t1: Tensor, t2: Tensor, value: ScalarArg): Tensor {
  return run(op, [input, t1, t2], String(value), ([x, a, b]) => {
    const dtype = promote(x!, a!, b!);
    if (op === "addcdiv" && !isFloating(dtype)) {
      throw new DTypeError("addcdiv: integer division with addcdiv is no longer supported; use floating point tensors");
    }
    if (!isFloating(dtype) && typeof value === "number" && !Number.isInteger(value)) {
      throw new DTypeError(`${op}: for integer tensors value must be an integer, got ${value}`);
    }
    const shape = broadcastShapes(op, shapeOf(x!), shapeOf(a!), shapeOf(b!));
    const cd = computeDType(dtype);
    const p = lift(x!, cd, shape);
    const q = lift(a!, cd, shape);
    const r = lift(b!, cd, shape);
    const prod = op === "addcmul" ? e.mul(q, r) : e.div(q, r);
    const scaled = value === 1 ? prod : e.mul(c(prod, value), prod);
    return e.convert(e.add(p, scaled), dtype);
  });
}

export const addcmul = op(
  "addcmul(input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: Scalar = 1) -> Tensor",
  { doc: "input + value × tensor1 × tensor2, with broadcasting.", method: true },
  ({ input, tensor1, tensor2, value }) => addcLike("addcmul", input, tensor1, tensor2, value),
);

export const addcdiv = op(
  "addcdiv(input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: Scalar = 1) -> Tensor",
  { doc: "input + value × tensor1 / tensor2, with broadcasting (float tensors only).", method: true },
  ({ input, tensor1, tensor2, value }) => addcLike("addcdiv", input, tensor1, tensor2, value),
);
