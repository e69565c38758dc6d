/**
 * @file Special functions, elementwise: erf, erfc (accurate where 1 − erf would cancel), erfinv
 * and logit. Integer and bool inputs give float32; float16/bfloat16 compute in float32.
 */
import { type DType, defaultFloatDType, isFloating } from "../../dtype.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import { run } from "../unit.js";
import { floatOpmath, log1pp } from "./math.js";
import { c, computeDType, type T } from "./operands.js";

export const erf = op("erf(input: Tensor) -> Tensor", { doc: "The error function, elementwise; integer and bool inputs give float32.", method: true }, ({ input }) =>
  floatOpmath("erf", input, e.erf),
);

// erf is a primitive (chlo.erf). erfc, where 1 − erf would cancel: in float64, Taylor series for |x| ≤ 2
// and erfc's continued fraction (60 terms, converged to float64 there) above; in float32, Taylor for
// |x| ≤ 1 and Numerical Recipes' Chebyshev erfc (relative error < 1.2e-7, an ulp) above.
const TAYLOR_TERMS = 40;
const taylorCoef = Array.from({ length: TAYLOR_TERMS }, (_, n) => {
  let f = 1;
  for (let k = 2; k <= n; k++) f *= k;
  return ((n % 2 === 0 ? 1 : -1) / (f * (2 * n + 1))) * (2 / Math.sqrt(Math.PI));
});
const erfSplit = (d: DType): number => (d === "float64" ? 2 : 1);
function erfSmall(x: T): T {
  const x2 = e.mul(x, x);
  const terms = x.dtype === "float64" ? TAYLOR_TERMS : 12;
  let acc = c(x, taylorCoef[terms - 1]!);
  for (let n = terms - 2; n >= 0; n--) acc = e.add(e.mul(acc, x2), c(x, taylorCoef[n]!));
  return e.mul(x, acc);
}
const NR = [-1.26551223, 1.00002368, 0.37409196, 0.09678418, -0.18628806, 0.27886807, -1.13520398, 1.48851587, -0.82215223, 0.17087277];
/** erfc(z) for z ≥ erfSplit (z ≥ 0 in float32). */
function erfcPos(z: T): T {
  if (z.dtype === "float64") {
    const zs = e.max(z, c(z, 1)); // keeps the unused small-|x| lanes away from 0/0
    let t = zs;
    for (let k = 60; k >= 1; k--) t = e.add(zs, e.div(c(z, k / 2), t));
    return e.div(e.exp(e.neg(e.mul(zs, zs))), e.mul(c(z, Math.sqrt(Math.PI)), t));
  }
  const t = e.div(c(z, 1), e.add(c(z, 1), e.mul(c(z, 0.5), z)));
  let p = c(z, NR[9]!);
  for (let i = 8; i >= 0; i--) p = e.add(e.mul(p, t), c(z, NR[i]!));
  return e.mul(t, e.exp(e.sub(p, e.mul(z, z))));
}
function erfcFinite(x: T): T {
  const ax = e.abs(x);
  const pos = erfcPos(ax);
  const big = e.select(e.compare(x, c(x, 0), "LT"), e.sub(c(x, 2), pos), pos);
  const near = e.compare(ax, c(x, erfSplit(x.dtype)), "LE");
  // the series sees 0 where it is not used: its overflow would turn the zero cotangent into NaN
  return e.select(near, e.sub(c(x, 1), erfSmall(e.select(near, x, c(x, 0)))), big);
}
/** erfc, with ±inf as constants (0 and 2, gradient 0): exp(−x²)'s gradient there is 0 × inf. */
export function erfcT(x: T): T {
  const inf = e.compare(e.abs(x), c(x, Infinity), "EQ");
  const r = erfcFinite(e.select(inf, c(x, 0), x));
  return e.select(inf, e.select(e.compare(x, c(x, 0), "GT"), c(x, 0), c(x, 2)), r);
}

export const erfc = op(
  "erfc(input: Tensor) -> Tensor",
  { doc: "1 − erf(input), computed without cancellation for large inputs; integer and bool inputs give float32.", method: true },
  ({ input }) => floatOpmath("erfc", input, erfcT),
);

// erfinv: Giles' single-precision approximation ("Approximating the erfinv function", 2010; relative
// error ~1.2e-7), then in float64 one Newton step on erf(x) = y.
const GILES_A = [1.50140941, 0.246640727, -0.00417768164, -0.00125372503, 0.00021858087, -4.39150654e-6, -3.5233877e-6, 3.43273939e-7, 2.81022636e-8];
const GILES_B = [2.83297682, 1.00167406, 0.00943887047, -0.0076224613, 0.00573950773, -0.00367342844, 0.00134934322, 0.000100950558, -0.000200214257];
function horner(coefs: readonly number[], w: T): T {
  let p = c(w, coefs[coefs.length - 1]!);
  for (let i = coefs.length - 2; i >= 0; i--) p = e.add(e.mul(p, w), c(w, coefs[i]!));
  return p;
}
/**
 * Giles' approximation (and a Newton step in float64), with PyTorch's gradient √π/2 · exp(x²) at the
 * special values: ±1 give ±inf through −sign(y) log1p(−|y|) (gradient 1/(1 − |y|) = inf there), and
 * each branch sees a safe input where it is not used (√w at w = 0 would give 0/0).
 */
function erfinvT(y0: T): T {
  const one = e.compare(e.abs(y0), c(y0, 1), "EQ");
  const y = e.select(one, c(y0, 0), y0);
  const w = e.neg(e.log(e.mul(e.sub(c(y, 1), y), e.add(c(y, 1), y))));
  const near = e.compare(w, c(y, 5), "LT");
  const central = horner(GILES_A, e.sub(w, c(y, 2.5)));
  const tail = horner(GILES_B, e.sub(e.sqrt(e.select(near, c(y, 5), w)), c(y, 3)));
  let x = e.mul(e.select(near, central, tail), y);
  if (y.dtype === "float64") {
    const erfx = e.erf(x);
    const slope = e.mul(c(x, 2 / Math.sqrt(Math.PI)), e.exp(e.neg(e.mul(x, x))));
    const step = e.sub(x, e.div(e.sub(erfx, y), slope));
    x = e.select(e.isFinite(step), step, x);
  }
  const ay = e.abs(e.select(one, y0, c(y0, 0)));
  const pole = e.mul(e.sign(y0), e.neg(log1pp(e.neg(ay))));
  return e.select(one, pole, x);
}

export const erfinv = op(
  "erfinv(input: Tensor) -> Tensor",
  { doc: "The inverse error function, elementwise (±1 give ±inf); integer and bool inputs give float32.", method: true },
  ({ input }) => floatOpmath("erfinv", input, erfinvT),
);

/**
 * log(v / (1 − v)), v = x clamped to [lo, hi] by selects when eps is given (at a bound the gradient
 * goes to x, as in PyTorch), with PyTorch's gradient 1 / (v(1 − v)) at the special values: at v = 0
 * the divisor is the constant 1 and at v = 1 the value is −log((1 − v) / 1) (the same values, with
 * gradient ±inf instead of inf × 0 or 0), and outside [0, 1] the log is multiplied by NaN (its
 * gradient is NaN there too, as PyTorch's).
 */
function logitT(x: T, eps: number | null): T {
  let v = x;
  if (eps !== null) {
    const lo = c(x, eps);
    const hi = c(x, 1 - eps);
    v = e.select(e.compare(x, lo, "LT"), lo, e.select(e.compare(x, hi, "GT"), hi, x));
  }
  const zero = e.compare(v, c(v, 0), "EQ");
  const one = e.compare(v, c(v, 1), "EQ");
  const num = e.select(one, e.sub(c(v, 1), v), v);
  const den = e.select(e.or(zero, one), c(v, 1), e.sub(c(v, 1), v));
  const outside = e.or(e.compare(v, c(v, 0), "LT"), e.compare(v, c(v, 1), "GT"));
  const factor = e.select(outside, c(v, NaN), e.select(one, c(v, -1), c(v, 1)));
  return e.mul(e.log(e.div(num, den)), factor);
}

export const logit = op(
  "logit(input: Tensor, eps?: float) -> Tensor",
  { doc: "log(input / (1 − input)), with input first clamped to [eps, 1 − eps] when eps is given; integer and bool inputs give float32.", method: true },
  ({ input, eps }) => {
    const lo = eps ?? null;
    return run("logit", [input], String(lo), ([x]) => {
      const t = x as T;
      const out = isFloating(t.dtype) ? t.dtype : defaultFloatDType;
      return e.convert(logitT(e.convert(t, computeDType(out)), lo), out);
    });
  },
);
