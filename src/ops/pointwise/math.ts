/**
 * @file Float math, elementwise: exponentials and logarithms (xlogy, logaddexp, logaddexp2), roots
 * and reciprocals, trigonometric and hyperbolic functions and their inverses, atan2, sinc, angle
 * conversions and sigmoid. Integer and bool inputs give float32, as in PyTorch.
 */
import { type DType, defaultFloatDType, isFloating } from "../../dtype.js";
import { DTypeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import { bind1 } from "../../trace/tracer.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import type { TensorOrScalar } from "../types.js";
import { promote, run } from "../unit.js";
import { c, computeDType, floatDType, none, prepare, type T } from "./operands.js";

/** fn of `a` in its own float dtype (integers and bool in float32); the body of exp, log, … and of exp_, log_, …. */
export function floatMath(name: string, a: Tensor, fn: (x: T) => T): Tensor {
  return run(name, [a], "", ([x]) => {
    const t = x as T;
    return fn(isFloating(t.dtype) ? t : e.convert(t, defaultFloatDType));
  });
}

/** Like floatMath, with float16/bfloat16 computed in float32 and rounded once; `statics` key fn's own parameters. */
export function floatOpmath(name: string, a: Tensor, fn: (x: T) => T, statics = ""): Tensor {
  return run(name, [a], statics, ([x]) => {
    const t = x as T;
    const out = floatDType(t.dtype);
    return e.convert(fn(e.convert(t, computeDType(out))), out);
  });
}

const atan2p = (a: T, b: T): T => bind1("atan2", [a, b], none);
export const expm1p = (a: T): T => bind1("expm1", [a], none);
export const log1pp = (a: T): T => bind1("log1p", [a], none);
const rsqrtp = (a: T): T => bind1("rsqrt", [a], none);
const tanp = (a: T): T => bind1("tan", [a], none);

// --- exponentials and logarithms ---------------------------------------------------------------------

export const exp = op("exp(input: Tensor) -> Tensor", { doc: "e^input, elementwise; integer and bool inputs give float32.", method: true }, ({ input }) =>
  floatMath("exp", input, e.exp),
);

const exp2T = (x: T): T => e.pow(c(x, 2), x);
export const exp2 = op("exp2(input: Tensor) -> Tensor", { doc: "2^input, elementwise; integer and bool inputs give float32.", method: true }, ({ input }) =>
  floatOpmath("exp2", input, exp2T),
);

export const expm1 = op(
  "expm1(input: Tensor) -> Tensor",
  { doc: "e^input − 1, accurate near 0; integer and bool inputs give float32.", method: true },
  ({ input }) => floatOpmath("expm1", input, expm1p),
);

export const log = op("log(input: Tensor) -> Tensor", { doc: "Natural logarithm, elementwise; integer and bool inputs give float32.", method: true }, ({ input }) =>
  floatMath("log", input, e.log),
);

const log2T = (x: T): T => e.div(e.log(x), c(x, Math.LN2));
export const log2 = op("log2(input: Tensor) -> Tensor", { doc: "Base-2 logarithm, elementwise; integer and bool inputs give float32.", method: true }, ({ input }) =>
  floatOpmath("log2", input, log2T),
);

const log10T = (x: T): T => e.div(e.log(x), c(x, Math.LN10));
export const log10 = op("log10(input: Tensor) -> Tensor", { doc: "Base-10 logarithm, elementwise; integer and bool inputs give float32.", method: true }, ({ input }) =>
  floatOpmath("log10", input, log10T),
);

export const log1p = op(
  "log1p(input: Tensor) -> Tensor",
  { doc: "log(1 + input), accurate near 0; integer and bool inputs give float32.", method: true },
  ({ input }) => floatOpmath("log1p", input, log1pp),
);

// --- roots and reciprocals ---------------------------------------------------------------------------

export const sqrt = op("sqrt(input: Tensor) -> Tensor", { doc: "Square root, elementwise; integer and bool inputs give float32.", method: true }, ({ input }) =>
  floatMath("sqrt", input, e.sqrt),
);

export const rsqrt = op("rsqrt(input: Tensor) -> Tensor", { doc: "1 / sqrt(input), elementwise; integer and bool inputs give float32.", method: true }, ({ input }) =>
  floatOpmath("rsqrt", input, rsqrtp),
);

const reciprocalT = (x: T): T => e.div(c(x, 1), x);
export const reciprocal = op(
  "reciprocal(input: Tensor) -> Tensor",
  { doc: "1 / input, elementwise; integer and bool inputs give float32.", method: true },
  ({ input }) => floatOpmath("reciprocal", input, reciprocalT),
);

// --- trigonometric ------------------------------------------------------------------------------------

export const sin = op("sin(input: Tensor) -> Tensor", { doc: "Sine (radians), elementwise; integer and bool inputs give float32.", method: true }, ({ input }) =>
  floatMath("sin", input, e.sin),
);

export const cos = op("cos(input: Tensor) -> Tensor", { doc: "Cosine (radians), elementwise; integer and bool inputs give float32.", method: true }, ({ input }) =>
  floatMath("cos", input, e.cos),
);

export const tan = op("tan(input: Tensor) -> Tensor", { doc: "Tangent (radians), elementwise; integer and bool inputs give float32.", method: true }, ({ input }) =>
  floatOpmath("tan", input, tanp),
);

/**
 * √((1 − x)(1 + x)), where at x = ±1 the factor that is not 0 is the constant 2 (the same value), so
 * asin/acos get PyTorch's ±inf gradient there (its own gradient would be inf × 0).
 */
const sqrt1mx2 = (x: T): T => {
  const lo = e.select(e.compare(x, c(x, -1), "EQ"), c(x, 2), e.sub(c(x, 1), x));
  const hi = e.select(e.compare(x, c(x, 1), "EQ"), c(x, 2), e.add(c(x, 1), x));
  return e.sqrt(e.mul(lo, hi));
};
const asinT = (x: T): T => atan2p(x, sqrt1mx2(x));
export const acosT = (x: T): T => atan2p(sqrt1mx2(x), x);
const atanT = (x: T): T => atan2p(x, c(x, 1));

export const asin = op("asin(input: Tensor) -> Tensor", { doc: "Arcsine (radians), elementwise; integer and bool inputs give float32.", method: true }, ({ input }) =>
  floatOpmath("asin", input, asinT),
);

export const acos = op("acos(input: Tensor) -> Tensor", { doc: "Arccosine (radians), elementwise; integer and bool inputs give float32.", method: true }, ({ input }) =>
  floatOpmath("acos", input, acosT),
);

export const atan = op("atan(input: Tensor) -> Tensor", { doc: "Arctangent (radians), elementwise; integer and bool inputs give float32.", method: true }, ({ input }) =>
  floatOpmath("atan", input, atanT),
);

/**
 * A binary float op of two operands (tensors or scalars) promoted and broadcast together, computed in
 * float32 for half dtypes; integer and bool inputs give float32, or a DTypeError where PyTorch has no
 * integer kernel (`floatsOnly`).
 */
export const floatBinary = (name: string, input: TensorOrScalar, other: TensorOrScalar, fn: (a: T, b: T) => T, floatsOnly = false): Tensor =>
  run(name, [input, other], "", ([x, y]) => {
    const promoted = promote(x!, y!);
    if (!isFloating(promoted) && floatsOnly) throw new DTypeError(`${name}: not implemented for ${promoted} inputs (PyTorch has no integer kernel); convert to a floating dtype first`);
    const dtype = floatDType(promoted);
    const [p, q] = prepare(name, x!, y!, computeDType(dtype));
    return e.convert(fn(p, q), dtype);
  });

export const atan2 = op(
  "atan2(input: Tensor, other: Tensor) -> Tensor",
  { doc: "The angle of the point (other, input) in radians, elementwise with broadcasting; integer inputs give float32.", method: true },
  ({ input, other }) => floatBinary("atan2", input, other, atan2p),
);

/**
 * max(a, b) + log_base(1 + base^−|a−b|) (at a = b the max and |a − b| split the gradient evenly, as
 * PyTorch's); a itself where both are the same infinity.
 */
function logaddexpBase(a: T, b: T, base: number): T {
  const d = e.neg(e.abs(e.sub(a, b)));
  const tail = base === Math.E ? log1pp(e.exp(d)) : e.div(log1pp(e.pow(c(d, base), d)), c(d, Math.log(base)));
  const general = e.add(e.max(a, b), tail);
  return e.select(e.and(e.compare(a, b, "EQ"), e.compare(e.abs(a), c(a, Infinity), "EQ")), a, general);
}
const logaddexpT = (a: T, b: T): T => logaddexpBase(a, b, Math.E);
const logaddexp2T = (a: T, b: T): T => logaddexpBase(a, b, 2);

export const logaddexp = op(
  "logaddexp(input: Tensor, other: Tensor) -> Tensor",
  { doc: "log(e^input + e^other) without overflow, elementwise with broadcasting; floating inputs only, as in PyTorch.", method: true },
  ({ input, other }) => floatBinary("logaddexp", input, other, logaddexpT, true),
);

export const logaddexp2 = op(
  "logaddexp2(input: Tensor, other: Tensor) -> Tensor",
  { doc: "log2(2^input + 2^other) without overflow, elementwise with broadcasting; floating inputs only, as in PyTorch.", method: true },
  ({ input, other }) => floatBinary("logaddexp2", input, other, logaddexp2T, true),
);

/**
 * x · log(y), 0 where x is 0 and y is not NaN: x times a log that is 0 where x = 0 and y ≤ 0, so
 * the gradients are PyTorch's (log y for x, but 0 there; x / y for y: NaN at x = y = 0). At x = 0,
 * y = +inf the value is 0 by a select (x · log y would be NaN), which gives x the gradient 0 there
 * where PyTorch's is inf.
 */
function xlogyT(x: T, y: T): T {
  const xZero = e.compare(x, c(x, 0), "EQ");
  const product = e.mul(x, e.select(e.and(xZero, e.compare(y, c(y, 0), "LE")), c(y, 0), e.log(y)));
  return e.select(e.and(xZero, e.compare(y, c(y, Infinity), "EQ")), c(x, 0), product);
}

export const xlogy = op(
  "xlogy(input: Tensor | Scalar, other: Tensor | Scalar) -> Tensor",
  { doc: "input × log(other), 0 where input is 0 (unless other is NaN), elementwise with broadcasting; either may be a scalar; integer and bool inputs give float32.", method: true },
  ({ input, other }) => floatBinary("xlogy", input, other, xlogyT),
);

/** √(a² + b²) as m·√(1 + (n/m)²), m = max(|a|, |b|), n = min: no overflow or underflow on the way; 0 where both are 0. */
function hypotT(a: T, b: T): T {
  const [x, y] = [e.abs(a), e.abs(b)];
  const [m, n] = [e.max(x, y), e.min(x, y)];
  const r = e.div(n, m);
  const h = e.mul(m, e.sqrt(e.add(c(m, 1), e.mul(r, r))));
  const infinite = e.or(e.compare(x, c(x, Infinity), "EQ"), e.compare(y, c(y, Infinity), "EQ"));
  return e.select(infinite, c(m, Infinity), e.select(e.compare(m, c(m, 0), "EQ"), c(m, 0), h));
}

export const hypot = op(
  "hypot(input: Tensor, other: Tensor) -> Tensor",
  { doc: "√(input² + other²) without overflow, elementwise with broadcasting; inf when either is ±inf (even with a NaN); floating inputs only, as in PyTorch.", method: true },
  ({ input, other }) => floatBinary("hypot", input, other, hypotT, true),
);

/** sin(πx) / (πx), 1 at 0; the division sees 1 there, so its gradient is 0 as PyTorch's. */
function sincT(x: T): T {
  const zero = e.compare(x, c(x, 0), "EQ");
  const px = e.mul(c(x, Math.PI), e.select(zero, c(x, 1), x));
  return e.select(zero, c(x, 1), e.div(e.sin(px), px));
}

export const sinc = op(
  "sinc(input: Tensor) -> Tensor",
  { doc: "The normalized sinc function sin(π·input) / (π·input), 1 at 0; integer and bool inputs give float32.", method: true },
  ({ input }) => floatOpmath("sinc", input, sincT),
);

const deg2radT = (x: T): T => e.mul(x, c(x, Math.PI / 180));
const rad2degT = (x: T): T => e.mul(x, c(x, 180 / Math.PI));

export const deg2rad = op("deg2rad(input: Tensor) -> Tensor", { doc: "Degrees to radians, elementwise; integer and bool inputs give float32.", method: true }, ({ input }) =>
  floatOpmath("deg2rad", input, deg2radT),
);

export const rad2deg = op("rad2deg(input: Tensor) -> Tensor", { doc: "Radians to degrees, elementwise; integer and bool inputs give float32.", method: true }, ({ input }) =>
  floatOpmath("rad2deg", input, rad2degT),
);

// --- hyperbolic ---------------------------------------------------------------------------------------

/** e^|x| / 2 without overflowing early. */
const halfExpAbs = (ax: T): T => e.exp(e.sub(ax, c(ax, Math.LN2)));

function sinhT(x: T): T {
  const ax = e.abs(x);
  const near = e.compare(ax, c(x, 1), "LT");
  const u = expm1p(e.select(near, ax, c(x, 0))); // inf/inf in the unused lanes would poison the gradient
  const small = e.mul(e.add(u, e.div(u, e.add(u, c(x, 1)))), c(x, 0.5));
  const h = halfExpAbs(ax);
  const large = e.sub(h, e.div(c(x, 0.25), h));
  const r = e.select(near, small, large);
  return e.select(e.compare(x, c(x, 0), "LT"), e.neg(r), e.select(e.compare(x, c(x, 0), "EQ"), x, r));
}

function coshT(x: T): T {
  const h = halfExpAbs(e.abs(x));
  return e.add(h, e.div(c(x, 0.25), h));
}

/** Beyond this |x|, 1/x² vanishes next to 1 in the dtype. */
const bigArg = (d: DType): number => (d === "float64" ? 1e9 : 1e4);

function asinhT(x: T): T {
  const ax = e.abs(x);
  const big = e.compare(ax, c(x, bigArg(x.dtype)), "GT");
  // each branch sees a safe input in the other's lanes (inf/inf, log 0), so no NaN reaches the gradient
  const as = e.select(big, c(x, 1), ax);
  const x2 = e.mul(as, as);
  const small = log1pp(e.add(as, e.div(x2, e.add(c(x, 1), e.sqrt(e.add(c(x, 1), x2))))));
  const large = e.add(e.log(e.select(big, ax, c(x, 1))), c(x, Math.LN2));
  const r = e.select(big, large, small);
  return e.select(e.compare(x, c(x, 0), "LT"), e.neg(r), e.select(e.compare(x, c(x, 0), "EQ"), x, r));
}

/**
 * log1p(t + √(2t + t²)), t = x − 1 (log(x) + ln 2 for large x), with PyTorch's gradient
 * 1/√(x² − 1) at the special values: at x = ±1 the root takes |x| − 1 (the same 0, whose gradient
 * is finite where 2t + t²'s is inf × 0), and below −bigArg a NaN plus −(log|x| + ln 2) gives NaN
 * with gradient 1/|x| (2t + t² would be inf − inf). Each branch sees a safe input elsewhere.
 */
function acoshT(x: T): T {
  const big = e.compare(x, c(x, bigArg(x.dtype)), "GT");
  const negBig = e.compare(x, c(x, -bigArg(x.dtype)), "LT");
  const far = e.or(big, negBig);
  const xs = e.select(far, c(x, 2), x);
  const t = e.sub(xs, c(x, 1));
  const d = e.add(e.mul(c(x, 2), t), e.mul(t, t));
  const pole = e.compare(d, c(d, 0), "EQ");
  const small = log1pp(e.add(t, e.sqrt(e.select(pole, e.sub(e.abs(xs), c(x, 1)), d))));
  const large = e.add(e.log(e.abs(e.select(far, x, c(x, 2)))), c(x, Math.LN2));
  return e.select(big, large, e.select(negBig, e.sub(c(x, NaN), large), small));
}

/**
 * ½ log1p(2x / (1 − x)), with PyTorch's gradient 1 / (1 − x²) at the special values: at x = ±1 the
 * divisor is the constant 2 (the same value; the divisor's own gradient there is inf − inf), at
 * x = 1 through −½ log1p(−2x / 2) (log1p(inf) has gradient 0), and ±inf give NaN with gradient 0.
 */
function atanhT(x: T): T {
  const inf = e.compare(e.abs(x), c(x, Infinity), "EQ");
  const xs = e.select(inf, c(x, 0), x);
  const one = e.compare(xs, c(x, 1), "EQ");
  const pole = e.or(one, e.compare(xs, c(x, -1), "EQ"));
  const num = e.mul(e.select(one, c(x, -2), c(x, 2)), xs);
  const z = e.div(num, e.select(pole, c(x, 2), e.sub(c(x, 1), xs)));
  return e.select(inf, c(x, NaN), e.mul(e.select(one, c(x, -0.5), c(x, 0.5)), log1pp(z)));
}

export const sinh = op("sinh(input: Tensor) -> Tensor", { doc: "Hyperbolic sine, elementwise; integer and bool inputs give float32.", method: true }, ({ input }) =>
  floatOpmath("sinh", input, sinhT),
);

export const cosh = op("cosh(input: Tensor) -> Tensor", { doc: "Hyperbolic cosine, elementwise; integer and bool inputs give float32.", method: true }, ({ input }) =>
  floatOpmath("cosh", input, coshT),
);

export const tanh = op("tanh(input: Tensor) -> Tensor", { doc: "Hyperbolic tangent, elementwise; integer and bool inputs give float32.", method: true }, ({ input }) =>
  floatMath("tanh", input, e.tanh),
);

export const asinh = op(
  "asinh(input: Tensor) -> Tensor",
  { doc: "Inverse hyperbolic sine, elementwise; integer and bool inputs give float32.", method: true },
  ({ input }) => floatOpmath("asinh", input, asinhT),
);

export const acosh = op(
  "acosh(input: Tensor) -> Tensor",
  { doc: "Inverse hyperbolic cosine, elementwise; integer and bool inputs give float32.", method: true },
  ({ input }) => floatOpmath("acosh", input, acoshT),
);

export const atanh = op(
  "atanh(input: Tensor) -> Tensor",
  { doc: "Inverse hyperbolic tangent, elementwise; integer and bool inputs give float32.", method: true },
  ({ input }) => floatOpmath("atanh", input, atanhT),
);

export const sigmoid = op(
  "sigmoid(input: Tensor) -> Tensor",
  { doc: "1 / (1 + e^−input), elementwise; integer and bool inputs give float32.", method: true },
  ({ input }) => floatMath("sigmoid", input, e.logistic),
);
