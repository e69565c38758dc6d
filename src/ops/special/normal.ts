/**
 * @file torch.special's normal-distribution functions, elementwise: erfcx (e^x² erfc(x)), ndtr (the
 * standard normal CDF), logNdtr (its log, without underflow in the left tail) and ndtri (its
 * inverse). Integer and bool inputs give float32; float16/bfloat16 compute in float32.
 */
import * as e from "../emit.js";
import { floatOpmath, log1pp } from "../pointwise/math.js";
import { c, type T } from "../pointwise/operands.js";
import { erfcT } from "../pointwise/special.js";
import { op } from "../signature/op.js";

const CF_TERMS = 60;

/**
 * erfcx(z) for z ≥ 0: below the split e^z² (1 − erf(z)), whose cancellation costs up to ~1.2e-14
 * relative just below z = 2 in float64 (1 − erf(2) ≈ 0.0047) and ~2.7e-7 just below 1 in float32; above
 * it erfc's continued fraction without its e^−z²: 1 / (√π (z + ½/(z + 1/(z + …)))).
 */
function erfcxPos(z: T): T {
  const split = z.dtype === "float64" ? 2 : 1;
  const near = e.compare(z, c(z, split), "LT");
  const zn = e.select(near, z, c(z, 0)); // e^z² overflows where it is not used
  const small = e.mul(e.exp(e.mul(zn, zn)), e.sub(c(z, 1), e.erf(zn)));
  const zf = e.select(near, c(z, split), z);
  let t = zf;
  for (let k = CF_TERMS; k >= 1; k--) t = e.add(zf, e.div(c(z, k / 2), t));
  return e.select(near, small, e.div(c(z, 1 / Math.sqrt(Math.PI)), t));
}

/** erfcx(x); for x < 0, 2e^x² − erfcx(−x) (inf once e^x² overflows). */
function erfcxT(x: T): T {
  const negative = e.compare(x, c(x, 0), "LT");
  const pos = erfcxPos(e.select(negative, e.neg(x), x)); // not |x|: its gradient at 0 is 0
  const xs = e.select(negative, x, c(x, 0));
  return e.select(negative, e.sub(e.mul(c(x, 2), e.exp(e.mul(xs, xs))), pos), pos);
}

const ndtrT = (x: T): T => e.mul(c(x, 0.5), erfcT(e.mul(x, c(x, -Math.SQRT1_2))));

/** log Φ(x): log(erfcx(−x/√2) / 2) − x²/2 for x < −1 (Φ underflows there), else log1p(−erfc(x/√2) / 2). */
function logNdtrT(x: T): T {
  const left = e.compare(x, c(x, -1), "LT");
  const xl = e.select(left, x, c(x, -1));
  const tail = e.sub(e.log(e.mul(c(x, 0.5), erfcxT(e.mul(xl, c(x, -Math.SQRT1_2))))), e.mul(c(x, 0.5), e.mul(xl, xl)));
  const xr = e.select(left, c(x, 0), x);
  const body = log1pp(e.mul(c(x, -0.5), erfcT(e.mul(xr, c(x, Math.SQRT1_2)))));
  return e.select(left, tail, body);
}

// ndtri: Abramowitz & Stegun 26.2.23 (|error| < 4.5e-4) for the lower half, then Newton steps on
// log Φ(x) = log q, which stay accurate deep in the tail (Φ itself would underflow).
const AS_NUM = [2.515517, 0.802853, 0.010328];
const AS_DEN = [1, 1.432788, 0.189269, 0.001308];
const NEWTON_STEPS = 4;
/** Σ_i coefs[i] tⁱ, by Horner's rule. */
function poly(coefs: readonly number[], t: T): T {
  let p = c(t, coefs[coefs.length - 1]!);
  for (let i = coefs.length - 2; i >= 0; i--) p = e.add(e.mul(p, t), c(t, coefs[i]!));
  return p;
}

/** min(x, 0), with the whole gradient to x at 0 (min's would split it). */
const nonPositive = (x: T): T => e.select(e.compare(x, c(x, 0), "GT"), c(x, 0), x);

/** The x ≤ 0 with Φ(x) = q, for q in (0, 0.5]. */
function ndtriLower(q: T): T {
  const logq = e.log(q);
  const t = e.sqrt(e.mul(c(q, -2), logq));
  let x = e.neg(e.sub(t, e.div(poly(AS_NUM, t), poly(AS_DEN, t))));
  for (let i = 0; i < NEWTON_STEPS; i++) {
    // for x ≤ 0: Φ(x) = erfcx(−x/√2) e^−x²/2 / 2, so log Φ(x) and Φ'(x)/Φ(x) = √(2/π) / erfcx(−x/√2) need no exponential
    const xc = nonPositive(x);
    const scaled = erfcxT(e.mul(xc, c(x, -Math.SQRT1_2)));
    const logPhi = e.sub(e.log(e.mul(c(x, 0.5), scaled)), e.mul(c(x, 0.5), e.mul(xc, xc)));
    x = e.sub(xc, e.mul(e.sub(logPhi, logq), e.div(scaled, c(x, Math.sqrt(2 / Math.PI)))));
  }
  return nonPositive(x);
}

/** Φ⁻¹(p): −inf at 0, inf at 1, NaN outside [0, 1]; the upper half by symmetry (1 − p is exact there). */
function ndtriT(p: T): T {
  const upper = e.compare(p, c(p, 0.5), "GT");
  const inside = e.and(e.compare(p, c(p, 0), "GT"), e.compare(p, c(p, 1), "LT"));
  const q = e.select(inside, e.select(upper, e.sub(c(p, 1), p), p), c(p, 0.25));
  const x = ndtriLower(q);
  const value = e.select(upper, e.neg(x), x);
  const edge = e.select(e.compare(p, c(p, 0), "EQ"), c(p, -Infinity), e.select(e.compare(p, c(p, 1), "EQ"), c(p, Infinity), c(p, NaN)));
  return e.select(inside, value, edge);
}

export const erfcx = op(
  "erfcx(input: Tensor) -> Tensor",
  { doc: "The scaled complementary error function e^(input²) · erfc(input), elementwise; integer and bool inputs give float32." },
  ({ input }) => floatOpmath("erfcx", input, erfcxT),
);

export const ndtr = op(
  "ndtr(input: Tensor) -> Tensor",
  { doc: "The standard normal CDF Φ(input), elementwise; integer and bool inputs give float32." },
  ({ input }) => floatOpmath("ndtr", input, ndtrT),
);

export const logNdtr = op(
  "logNdtr(input: Tensor) -> Tensor",
  { doc: "log Φ(input), the log of the standard normal CDF, accurate far into the left tail, elementwise; integer and bool inputs give float32." },
  ({ input }) => floatOpmath("logNdtr", input, logNdtrT),
);

export const ndtri = op(
  "ndtri(input: Tensor) -> Tensor",
  { doc: "Φ⁻¹(input), the inverse of the standard normal CDF (−inf at 0, inf at 1, NaN outside [0, 1]), elementwise; integer and bool inputs give float32." },
  ({ input }) => floatOpmath("ndtri", input, ndtriT),
);
