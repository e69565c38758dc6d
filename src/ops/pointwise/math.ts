/**
 * @file Float math, elementwise: exponentials and logarithms, roots and reciprocals, trigonometric
 * and hyperbolic functions and their inverses, atan2 and sigmoid. Integer and bool inputs give
 * float32, as in PyTorch.
 */
import { type DType, defaultFloatDType, isFloating } from "../../dtype.js";
import type { Tensor } from "../../tensor.js";
import { bind1 } from "../../trace/tracer.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import { promote, run } from "../unit.js";
import { c, computeDType, none, prepare, type T } from "./operands.js";

/** fn of `a` in its own float dtype (integers and bool in float32); the body of exp, log, … and of exp_, log_, …. */
export function floatMath(name: string, a: Tensor, fn: (x: T) => T): Tensor {
  return run(name, [a], "", ([x]) => {
    const t = x as T;
    return fn(isFloating(t.dtype) ? t : e.convert(t, defaultFloatDType));
  });
}

/** Like floatMath, with float16/bfloat16 computed in float32 and rounded once. */
export function floatOpmath(name: string, a: Tensor, fn: (x: T) => T): Tensor {
  return run(name, [a], "", ([x]) => {
    const t = x as T;
    const out = isFloating(t.dtype) ? t.dtype : defaultFloatDType;
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

const sqrt1mx2 = (x: T): T => e.sqrt(e.mul(e.sub(c(x, 1), x), e.add(c(x, 1), x)));
const asinT = (x: T): T => atan2p(x, sqrt1mx2(x));
const acosT = (x: T): T => atan2p(sqrt1mx2(x), x);
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

export const atan2 = op(
  "atan2(input: Tensor, other: Tensor) -> Tensor",
  { doc: "The angle of the point (other, input) in radians, elementwise with broadcasting; integer inputs give float32.", method: true },
  ({ input, other }) =>
    run("atan2", [input, other], "", ([x, y]) => {
      let dtype: DType = promote(x!, y!);
      if (!isFloating(dtype)) dtype = defaultFloatDType;
      const [p, q] = prepare("atan2", x!, y!, computeDType(dtype));
      return e.convert(atan2p(p, q), dtype);
    }),
);

// --- hyperbolic ---------------------------------------------------------------------------------------

/** e^|x| / 2 without overflowing early. */
const halfExpAbs = (ax: T): T => e.exp(e.sub(ax, c(ax, Math.LN2)));

function sinhT(x: T): T {
  const ax = e.abs(x);
  const u = expm1p(ax);
  const small = e.mul(e.add(u, e.div(u, e.add(u, c(x, 1)))), c(x, 0.5));
  const h = halfExpAbs(ax);
  const large = e.sub(h, e.div(c(x, 0.25), h));
  const r = e.select(e.compare(ax, c(x, 1), "LT"), small, large);
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
  const x2 = e.mul(ax, ax);
  const small = log1pp(e.add(ax, e.div(x2, e.add(c(x, 1), e.sqrt(e.add(c(x, 1), x2))))));
  const large = e.add(e.log(ax), c(x, Math.LN2));
  const r = e.select(e.compare(ax, c(x, bigArg(x.dtype)), "GT"), large, small);
  return e.select(e.compare(x, c(x, 0), "LT"), e.neg(r), e.select(e.compare(x, c(x, 0), "EQ"), x, r));
}

function acoshT(x: T): T {
  const t = e.sub(x, c(x, 1));
  const small = log1pp(e.add(t, e.sqrt(e.add(e.mul(c(x, 2), t), e.mul(t, t)))));
  const large = e.add(e.log(x), c(x, Math.LN2));
  return e.select(e.compare(x, c(x, bigArg(x.dtype)), "GT"), large, small);
}

const atanhT = (x: T): T => e.mul(c(x, 0.5), log1pp(e.div(e.mul(c(x, 2), x), e.sub(c(x, 1), x))));

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
