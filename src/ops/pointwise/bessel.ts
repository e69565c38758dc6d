/**
 * @file Bessel functions, elementwise: the modified ones of the first kind i0 (torch.i0 and
 * torch.special.i0) and torch.special's i0e, i1, i1e (the "e" forms scaled by e^−|x|); torch.special's
 * besselJ0, besselJ1, besselY0, besselY1 (first and second kind) and sphericalBesselJ0 (sin x / x).
 * All but the last are a power series near 0 and an asymptotic (Hankel) expansion beyond, with the
 * term counts that converge there (float32 J and Y: Taylor polynomials in between, from 3 to 8), so
 * gradients come from the composition (PyTorch has none for
 * the J and Y functions). At ±inf they give PyTorch's values: NaN for i0, i1, J and Y (inf − inf or
 * cos(inf)), 0 for the scaled forms. Integer and bool inputs give float32; float16/bfloat16 compute
 * in float32.
 */
import type { DType } from "../../dtype.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import { elementwiseInPlace } from "./in_place.js";
import { floatOpmath } from "./math.js";
import { c, type T } from "./operands.js";

type Order = 0 | 1;

/** Where the power series stops (|x| ≤ near) and how many terms each series takes, converged to the dtype there. */
const planI = (d: DType) => (d === "float64" ? { near: 20, series: 36, asymptotic: 24 } : { near: 12, series: 20, asymptotic: 10 });
// J's series alternates: it loses digits as |x| grows (~1e-12 in float64 at 12, absolute). In float32 it
// stops at 3 and the Hankel expansion starts at 8 (`mid`); between them, a Taylor polynomial (besselMiddle)
const planJ = (d: DType) =>
  d === "float64" ? { near: 12, mid: 12, series: 40, asymptotic: 26 } : { near: 3, mid: 8, series: 14, asymptotic: 12 };

// J and Y of orders 0 and 1 at the Taylor centres, [J0, J1] and [Y0, Y1] (mpmath, rounded to float64)
const CENTRES = [3.5, 4.5, 5.5, 6.5, 7.5];
const AT_CENTRES = {
  J: [[-0.3801277399872634, 0.1373775273623272], [-0.32054250898512143, -0.23106043192337064], [-0.006843869417819197, -0.34143821542904335], [0.2600946055816064, -0.15384130140997185], [0.2663396578803784, 0.1352484275797055]],
  Y: [[0.1890219439208265, 0.41018841788751187], [-0.19470500862950454, 0.3009973230696546], [-0.339480592881911, -0.023758238956389618], [-0.17324243491898234, -0.27409127395927546], [0.11731328614820863, -0.25912851048611624]],
} as const;
const TAYLOR_DEGREE = 10; // |x − centre| ≤ ½: the terms fall below float32's rounding well before

/**
 * The Taylor coefficients about c of the solution of Bessel's equation x²y'' + xy' + (x² − ν²)y = 0
 * with this value and slope at c: with x = c + t, c²(n+1)(n+2)a_{n+2} = −(c(n+1)(2n+1)a_{n+1} +
 * (n² − ν² + c²)a_n + 2c·a_{n−1} + a_{n−2}).
 */
function besselTaylor(c: number, nu: Order, value: number, slope: number): number[] {
  const a = [value, slope];
  const at = (i: number) => (i >= 0 ? a[i]! : 0);
  for (let n = 0; n + 2 <= TAYLOR_DEGREE; n++) {
    a.push(-(c * (n + 1) * (2 * n + 1) * a[n + 1]! + (n * n - nu * nu + c * c) * a[n]! + 2 * c * at(n - 1) + at(n - 2)) / (c * c * (n + 1) * (n + 2)));
  }
  return a;
}

/**
 * J_ν(x) or Y_ν(x) (`second`) for 3 ≤ x ≤ 8, where in float32 the series has lost digits and the Hankel
 * expansion has not converged: the Taylor polynomial about the nearest centre (~1.5e-7 absolute).
 * The slopes: J0' = −J1, J1' = J0 − J1/x, and the same for Y.
 */
function besselMiddle(x: T, nu: Order, second: boolean): T {
  const polynomials = CENTRES.map((centre, i) => {
    const [f0, f1] = AT_CENTRES[second ? "Y" : "J"][i]!;
    return nu === 0 ? besselTaylor(centre, 0, f0, -f1) : besselTaylor(centre, 1, f1, f0 - f1 / centre);
  });
  return taylorAtNearestCentre(x, e.floor(e.sub(x, c(x, CENTRES[0]! - 0.5))), CENTRES, polynomials);
}

/**
 * Σ a_n (x − centre)^n with the centre and coefficients `polynomials[i]` (a_0 … a_degree) of centre i
 * picked per element: i is the last of 1, 2, … that `index` has reached (0 below 1). Horner's rule.
 */
export function taylorAtNearestCentre(x: T, index: T, centres: readonly number[], polynomials: readonly (readonly number[])[]): T {
  const pick = (values: readonly number[]): T =>
    values.slice(1).reduce((acc, v, i) => e.select(e.compare(index, c(x, i + 1), "GE"), c(x, v), acc), c(x, values[0]!));
  const degree = polynomials[0]!.length - 1;
  const t = e.sub(x, pick(centres));
  let sum = pick(polynomials.map((a) => a[degree]!));
  for (let n = degree - 1; n >= 0; n--) sum = e.add(e.mul(sum, t), pick(polynomials.map((a) => a[n]!)));
  return sum;
}

/** Beyond `near`: besselMiddle up to `mid` (float32), the Hankel expansion beyond; for a = |x| (or x > near for Y). */
function besselBeyond(a: T, nu: Order, second: boolean): T {
  const p = planJ(a.dtype);
  const far = e.not(e.compare(a, c(a, p.mid), "LE")); // NaN included
  const hankelValue = hankel(e.select(far, a, c(a, 2 * p.mid)), nu, p.asymptotic, second);
  if (p.mid === p.near) return hankelValue;
  return e.select(far, hankelValue, besselMiddle(e.clamp(c(a, p.near), a, c(a, p.mid)), nu, second));
}

/** I_ν(x) = Σ_k (x/2)^(2k+ν) / (k! (k+ν)!) (positive terms), or J_ν(x), the same with alternating signs; odd in x for ν = 1. */
function powerSeries(x: T, nu: Order, terms: number, alternating = false): T {
  const h2 = e.mul(c(x, alternating ? -0.25 : 0.25), e.mul(x, x));
  let term = nu === 0 ? c(x, 1) : e.mul(c(x, 0.5), x);
  let sum = term;
  for (let k = 1; k < terms; k++) {
    term = e.mul(term, e.div(h2, c(x, k * (k + nu))));
    sum = e.add(sum, term);
  }
  return sum;
}

/** √(2πa) e^−a I_ν(a) for a > 0: Σ_k t_k, t_k = t_{k−1} ((2k − 1)² − 4ν²) / (8ka). */
function asymptoticSeries(a: T, nu: Order, terms: number): T {
  let term = c(a, 1);
  let sum = term;
  for (let k = 1; k < terms; k++) {
    term = e.mul(term, e.div(c(a, (2 * k - 1) ** 2 - 4 * nu * nu), e.mul(c(a, 8 * k), a)));
    sum = e.add(sum, term);
  }
  return sum;
}

/** I_ν(x), or e^−|x| I_ν(x) when `scaled`; each series sees a safe input where it is not used. */
function besselI(x: T, nu: Order, scaled: boolean): T {
  const p = planI(x.dtype);
  const ax = e.abs(x);
  const near = e.compare(ax, c(x, p.near), "LE");
  const series = powerSeries(e.select(near, x, c(x, 0)), nu, p.series);
  const nearValue = scaled ? e.mul(series, e.exp(e.neg(ax))) : series;
  const a = e.select(near, c(x, 2 * p.near), ax);
  const twoPiA = e.mul(c(x, 2 * Math.PI), a);
  const sum = asymptoticSeries(a, nu, p.asymptotic);
  // unscaled: e^a / √(2πa) as one exponential, which overflows only where the result does
  let farValue = scaled ? e.div(sum, e.sqrt(twoPiA)) : e.mul(sum, e.exp(e.sub(a, e.mul(c(x, 0.5), e.log(twoPiA)))));
  if (nu === 1) farValue = e.mul(farValue, e.sign(x));
  return e.select(near, nearValue, farValue);
}

/**
 * J_ν(a) (or Y_ν(a) when `second`) for a > near: √(2/(πa)) (P cos χ − Q sin χ) (Y: P sin χ + Q cos χ),
 * χ = a − (2ν + 1)π/4, P and Q the even and odd terms u_k = u_{k−1} (4ν² − (2k − 1)²) / (8ka) with
 * alternating signs; cos χ and sin χ from cos a and sin a, which keeps the phase exact for large a.
 */
function hankel(a: T, nu: Order, terms: number, second: boolean): T {
  let u = c(a, 1);
  let p = u;
  let q = c(a, 0);
  for (let k = 1; k < terms; k++) {
    u = e.mul(u, e.div(c(a, (4 * nu * nu - (2 * k - 1) ** 2) / (8 * k)), a));
    const negative = Math.floor(k / 2) % 2 === 1;
    if (k % 2 === 0) p = negative ? e.sub(p, u) : e.add(p, u);
    else q = negative ? e.sub(q, u) : e.add(q, u);
  }
  const [cos, sin] = [e.cos(a), e.sin(a)];
  const r = c(a, Math.SQRT1_2);
  const cosChi = e.mul(r, nu === 0 ? e.add(cos, sin) : e.sub(sin, cos));
  const sinChi = e.mul(r, nu === 0 ? e.sub(sin, cos) : e.neg(e.add(sin, cos)));
  const phase = second ? e.add(e.mul(p, sinChi), e.mul(q, cosChi)) : e.sub(e.mul(p, cosChi), e.mul(q, sinChi));
  return e.mul(e.sqrt(e.div(c(a, 2 / Math.PI), a)), phase);
}

/** J_ν(x); each expansion sees a safe input where it is not used. */
function besselJ(x: T, nu: Order): T {
  const p = planJ(x.dtype);
  const near = e.compare(e.abs(x), c(x, p.near), "LE");
  const series = powerSeries(e.select(near, x, c(x, 0)), nu, p.series, true);
  let far = besselBeyond(e.abs(x), nu, false);
  if (nu === 1) far = e.mul(far, e.sign(x));
  return e.select(near, series, far);
}

const EULER_GAMMA = 0.5772156649015329;

/**
 * Y_ν(x) for 0 < x ≤ near, from J_ν's series terms v_k (J_ν = Σ v_k) and harmonic numbers H_k:
 * Y0 = (2/π) ((log(x/2) + γ) J0 − Σ_{k≥1} H_k v_k), Y1 = (2/π) (log(x/2) + γ) J1 − 2/(πx) − (1/π) Σ (H_k + H_{k+1}) v_k.
 */
function besselYSeries(x: T, nu: Order, terms: number): T {
  const h2 = e.mul(c(x, -0.25), e.mul(x, x));
  let v = nu === 0 ? c(x, 1) : e.mul(c(x, 0.5), x);
  let j = v;
  let harmonic = 0;
  let weighted = nu === 0 ? c(x, 0) : v; // Σ w_k v_k, w_k = H_k (ν = 0) or H_k + H_{k+1} (ν = 1; w_0 = 1)
  for (let k = 1; k < terms; k++) {
    v = e.mul(v, e.div(h2, c(x, k * (k + nu))));
    j = e.add(j, v);
    harmonic += 1 / k;
    weighted = e.add(weighted, e.mul(c(x, nu === 0 ? harmonic : 2 * harmonic + 1 / (k + 1)), v));
  }
  const logTerm = e.mul(e.add(e.log(e.mul(c(x, 0.5), x)), c(x, EULER_GAMMA)), j);
  if (nu === 0) return e.mul(c(x, 2 / Math.PI), e.sub(logTerm, weighted));
  return e.sub(e.sub(e.mul(c(x, 2 / Math.PI), logTerm), e.div(c(x, 2 / Math.PI), x)), e.mul(c(x, 1 / Math.PI), weighted));
}

/** Y_ν(x): −inf at 0, NaN below; each expansion sees a safe input where it is not used. */
function besselY(x: T, nu: Order): T {
  const p = planJ(x.dtype);
  const near = e.compare(x, c(x, p.near), "LE");
  const positive = e.compare(x, c(x, 0), "GT");
  const series = besselYSeries(e.select(e.and(near, positive), x, c(x, 1)), nu, p.series);
  const far = besselBeyond(x, nu, true);
  const edge = e.select(e.compare(x, c(x, 0), "EQ"), c(x, -Infinity), c(x, NaN));
  return e.select(positive, e.select(near, series, far), edge);
}

export const i0T = (x: T): T => besselI(x, 0, false);

export const i0 = op(
  "i0(input: Tensor) -> Tensor",
  { doc: "The modified Bessel function of the first kind, order 0, elementwise; integer and bool inputs give float32.", method: true },
  ({ input }) => floatOpmath("i0", input, i0T),
);

export const i0_ = op("i0_(input: Tensor) -> Tensor", { doc: "In place: x = i0(x) (float tensors); returns x.", method: true }, ({ input }) =>
  elementwiseInPlace("i0_", "float", input, [], () => floatOpmath("i0", input, i0T)),
);

export const i0e = op(
  "i0e(input: Tensor) -> Tensor",
  { doc: "e^−|input| · i0(input), the exponentially scaled Bessel function of order 0, elementwise; integer and bool inputs give float32." },
  ({ input }) => floatOpmath("i0e", input, (x) => besselI(x, 0, true)),
);

export const i1 = op(
  "i1(input: Tensor) -> Tensor",
  { doc: "The modified Bessel function of the first kind, order 1, elementwise; integer and bool inputs give float32." },
  ({ input }) => floatOpmath("i1", input, (x) => besselI(x, 1, false)),
);

export const i1e = op(
  "i1e(input: Tensor) -> Tensor",
  { doc: "e^−|input| · i1(input), the exponentially scaled Bessel function of order 1, elementwise; integer and bool inputs give float32." },
  ({ input }) => floatOpmath("i1e", input, (x) => besselI(x, 1, true)),
);

export const besselJ0 = op(
  "besselJ0(input: Tensor) -> Tensor",
  { doc: "The Bessel function of the first kind, order 0, elementwise; integer and bool inputs give float32." },
  ({ input }) => floatOpmath("besselJ0", input, (x) => besselJ(x, 0)),
);

export const besselJ1 = op(
  "besselJ1(input: Tensor) -> Tensor",
  { doc: "The Bessel function of the first kind, order 1, elementwise; integer and bool inputs give float32." },
  ({ input }) => floatOpmath("besselJ1", input, (x) => besselJ(x, 1)),
);

/** sin(x) / x: 1 at 0 (the division sees 1 there) and 0 at ±inf, as PyTorch's. */
function sphericalJ0T(x: T): T {
  const zero = e.compare(x, c(x, 0), "EQ");
  const inf = e.compare(e.abs(x), c(x, Infinity), "EQ");
  const xs = e.select(e.or(zero, inf), c(x, 1), x);
  return e.select(zero, c(x, 1), e.select(inf, c(x, 0), e.div(e.sin(xs), xs)));
}

export const sphericalBesselJ0 = op(
  "sphericalBesselJ0(x: Tensor) -> Tensor",
  { doc: "The spherical Bessel function of the first kind, order 0: sin(x) / x (1 at 0, 0 at ±inf), elementwise; integer and bool inputs give float32." },
  ({ x }) => floatOpmath("sphericalBesselJ0", x, sphericalJ0T),
);

export const besselY0 = op(
  "besselY0(input: Tensor) -> Tensor",
  { doc: "The Bessel function of the second kind, order 0, elementwise (−inf at 0, NaN for negative inputs); integer and bool inputs give float32." },
  ({ input }) => floatOpmath("besselY0", input, (x) => besselY(x, 0)),
);

export const besselY1 = op(
  "besselY1(input: Tensor) -> Tensor",
  { doc: "The Bessel function of the second kind, order 1, elementwise (−inf at 0, NaN for negative inputs); integer and bool inputs give float32." },
  ({ input }) => floatOpmath("besselY1", input, (x) => besselY(x, 1)),
);
