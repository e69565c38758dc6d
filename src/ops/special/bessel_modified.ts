/**
 * @file torch.special's modified Bessel functions of the second kind, elementwise: K0, K1 and their
 * scaled forms e^x K0(x), e^x K1(x), and the Airy function Ai (from K_1/3 for x > 1). Near 0 the power
 * series (with its log term); beyond, the integral e^x K_ν(x) = ∫₀^∞ e^−x(cosh t − 1) cosh νt dt by the
 * trapezoidal rule (exponentially convergent: ~1e-15 relative from x = ½ with step 1/8 out to t = 6);
 * far out the asymptotic expansion. As PyTorch's: inf at 0, NaN below 0, 0 at inf (K0, K1 and the
 * scaled forms). PyTorch has no gradients for them: the result does not require grad. Integer and bool
 * inputs give float32; float16/bfloat16 compute in float32.
 */
import { noGrad } from "../../autograd/grad_mode.js";
import * as e from "../emit.js";
import { taylorAtNearestCentre } from "../pointwise/bessel.js";
import { floatOpmath } from "../pointwise/math.js";
import { c, type T } from "../pointwise/operands.js";
import { op } from "../signature/op.js";

type Order = 0 | 1;

const EULER_GAMMA = 0.5772156649015329;
const SERIES_UNTIL = 1;
const SERIES_TERMS = 16;
/** Where the asymptotic expansion takes over and how many terms it takes (its smallest term is ~e^−2x). */
const planFar = (x: T) => (x.dtype === "float64" ? { from: 25, terms: 30 } : { from: 10, terms: 14 });
const STEP = 0.125;
const NODES = 49; // t = 0 … 6: e^−x(cosh t − 1) < 1e-17 there for x ≥ 1

/**
 * K_ν(x) for 0 < x ≤ 1: with h = x²/4, K0 = −(log(x/2) + γ) I0 + Σ_{k≥1} H_k h^k/(k!)² and
 * K1 = 1/x + log(x/2) I1 − (x/4) Σ_{k≥0} (ψ(k+1) + ψ(k+2)) h^k/(k!(k+1)!), ψ(k+1) = H_k − γ.
 */
function seriesK(x: T, nu: Order): T {
  const h = e.mul(c(x, 0.25), e.mul(x, x));
  let term = c(x, 1); // h^k / (k! (k+ν)!)
  let bessel = term; // Σ h^k / (k! (k+ν)!): I_ν without its (x/2)^ν
  let harmonic = 0;
  let weighted = nu === 0 ? c(x, 0) : c(x, 1 - 2 * EULER_GAMMA); // Σ w_k term_k
  for (let k = 1; k < SERIES_TERMS; k++) {
    term = e.mul(term, e.div(h, c(x, k * (k + nu))));
    bessel = e.add(bessel, term);
    harmonic += 1 / k;
    const w = nu === 0 ? harmonic : 2 * harmonic + 1 / (k + 1) - 2 * EULER_GAMMA;
    weighted = e.add(weighted, e.mul(c(x, w), term));
  }
  const logHalf = e.log(e.mul(c(x, 0.5), x));
  if (nu === 0) return e.add(e.neg(e.mul(e.add(logHalf, c(x, EULER_GAMMA)), bessel)), weighted);
  const halfX = e.mul(c(x, 0.5), x);
  return e.sub(e.add(e.div(c(x, 1), x), e.mul(logHalf, e.mul(halfX, bessel))), e.mul(e.mul(c(x, 0.5), halfX), weighted));
}

/** e^x K_ν(x) = ∫₀^∞ e^−x(cosh t − 1) cosh νt dt by the trapezoidal rule, for x ≥ 1. */
function integralScaledK(x: T, nu: number): T {
  let sum = c(x, 0.5);
  for (let j = 1; j < NODES; j++) {
    const t = j * STEP;
    sum = e.add(sum, e.mul(e.exp(e.mul(x, c(x, 1 - Math.cosh(t)))), c(x, Math.cosh(nu * t))));
  }
  return e.mul(sum, c(x, STEP));
}

/** e^x K_ν(x) ~ √(π/2x) Σ_k t_k, t_k = t_{k−1} (4ν² − (2k − 1)²) / (8kx), for large x. */
function asymptoticScaledK(x: T, nu: number, terms: number): T {
  let term = c(x, 1);
  let sum = term;
  for (let k = 1; k < terms; k++) {
    term = e.mul(term, e.div(c(x, (4 * nu * nu - (2 * k - 1) ** 2) / (8 * k)), x));
    sum = e.add(sum, term);
  }
  return e.mul(sum, e.sqrt(e.div(c(x, Math.PI / 2), x)));
}

/**
 * e^x K_ν(x) for x > `from` (the integral, then the asymptotic expansion), with a safe input for each
 * where it is not used; the integral's nodes suffice from x = ½.
 */
function scaledKBeyond(x: T, nu: number, from = SERIES_UNTIL): T {
  const far = planFar(x);
  const distant = e.compare(x, c(x, far.from), "GT");
  const xm = e.select(e.and(e.compare(x, c(x, from), "GT"), e.not(distant)), x, c(x, 2));
  const xf = e.select(e.and(distant, e.isFinite(x)), x, c(x, 2 * far.from));
  return e.select(distant, asymptoticScaledK(xf, nu, far.terms), integralScaledK(xm, nu));
}

/** K_ν(x), or e^x K_ν(x) when `scaled`; each expansion sees a safe input where it is not used. */
function besselK(x: T, nu: Order, scaled: boolean): T {
  const near = e.compare(x, c(x, SERIES_UNTIL), "LE");
  const positive = e.compare(x, c(x, 0), "GT");
  const finite = e.isFinite(x);
  const xn = e.select(e.and(near, positive), x, c(x, 1));
  const series = seriesK(xn, nu);
  const nearValue = scaled ? e.mul(series, e.exp(xn)) : series;
  const scaledFar = scaledKBeyond(x, nu);
  const xe = e.select(near, c(x, 1), x);
  const farValue = scaled ? scaledFar : e.mul(scaledFar, e.exp(e.neg(xe)));
  const value = e.select(near, nearValue, farValue);
  const edge = e.select(e.compare(x, c(x, 0), "EQ"), c(x, Infinity), e.select(e.compare(x, c(x, Infinity), "EQ"), c(x, 0), c(x, NaN)));
  return e.select(e.and(positive, finite), value, edge);
}

export const modifiedBesselK0 = op(
  "modifiedBesselK0(input: Tensor) -> Tensor",
  { doc: "The modified Bessel function of the second kind, order 0, elementwise (inf at 0, NaN for negative inputs); no gradient (as in PyTorch); integer and bool inputs give float32." },
  ({ input }) => noGrad(() => floatOpmath("modifiedBesselK0", input, (x) => besselK(x, 0, false))),
);

export const modifiedBesselK1 = op(
  "modifiedBesselK1(input: Tensor) -> Tensor",
  { doc: "The modified Bessel function of the second kind, order 1, elementwise (inf at 0, NaN for negative inputs); no gradient (as in PyTorch); integer and bool inputs give float32." },
  ({ input }) => noGrad(() => floatOpmath("modifiedBesselK1", input, (x) => besselK(x, 1, false))),
);

export const scaledModifiedBesselK0 = op(
  "scaledModifiedBesselK0(x: Tensor) -> Tensor",
  { doc: "e^x · modifiedBesselK0(x), elementwise (inf at 0, NaN for negative inputs); no gradient (as in PyTorch); integer and bool inputs give float32." },
  ({ x }) => noGrad(() => floatOpmath("scaledModifiedBesselK0", x, (v) => besselK(v, 0, true))),
);

export const scaledModifiedBesselK1 = op(
  "scaledModifiedBesselK1(x: Tensor) -> Tensor",
  { doc: "e^x · modifiedBesselK1(x), elementwise (inf at 0, NaN for negative inputs); no gradient (as in PyTorch); integer and bool inputs give float32." },
  ({ x }) => noGrad(() => floatOpmath("scaledModifiedBesselK1", x, (v) => besselK(v, 1, true))),
);

// Ai: its Maclaurin series for −2 ≤ x ≤ 1; Taylor polynomials about −2.5, −3.5, …, −9.5 below (where the
// series cancels badly); √(x/3) K_1/3(ζ) / π, ζ = (2/3) x^(3/2), above 1; the oscillating asymptotic
// expansion below −10. NaN at ±inf and 0 above 103.892, as PyTorch's.
const AI_0 = 0.3550280538878172; // Ai(0)
const AI_PRIME_0 = -0.2588194037928068; // Ai'(0)
const MACLAURIN_TERMS = 24;
// Ai and Ai' at the Taylor centres (mpmath, rounded to float64)
const AIRY_CENTRES = [-2.5, -3.5, -4.5, -5.5, -6.5, -7.5, -8.5, -9.5];
const AIRY_AT_CENTRES = [
  [-0.11232506769296609, 0.6788527342647943], [-0.37553382314043193, -0.34344343345404815], [0.2921527810559595, -0.5233625323157477],
  [0.017781541276574976, 0.8641972177713984], [-0.2380203019971158, -0.6749524925132022], [0.3217757163806479, 0.3188095066985546],
  [-0.33029023763020887, -0.03231334828463914], [0.3191032477191282, -0.10809531881187123],
] as const;
const AIRY_TAYLOR_DEGREE = 26; // |x − centre| ≤ ½: converged to float64
const AIRY_OSCILLATING_TERMS = 20;
const AIRY_ZERO_ABOVE = 103.892;

/** Ai(x) = Ai(0) f(x) + Ai'(0) g(x), f = Σ 3^k (1/3)_k x^3k / (3k)!, g = Σ 3^k (2/3)_k x^(3k+1) / (3k+1)!. */
function airyMaclaurin(x: T): T {
  const cube = e.mul(x, e.mul(x, x));
  let [fTerm, gTerm] = [c(x, 1), x];
  let [f, g] = [fTerm, gTerm];
  for (let k = 1; k < MACLAURIN_TERMS; k++) {
    fTerm = e.mul(fTerm, e.div(cube, c(x, 3 * k * (3 * k - 1))));
    gTerm = e.mul(gTerm, e.div(cube, c(x, 3 * k * (3 * k + 1))));
    [f, g] = [e.add(f, fTerm), e.add(g, gTerm)];
  }
  return e.add(e.mul(c(x, AI_0), f), e.mul(c(x, AI_PRIME_0), g));
}

/** The Taylor coefficients of Ai about c from Ai'' = x Ai: (n + 2)(n + 1) a_{n+2} = c a_n + a_{n−1}. */
function airyTaylor(centre: number, value: number, slope: number): number[] {
  const a = [value, slope];
  for (let n = 0; n + 2 <= AIRY_TAYLOR_DEGREE; n++) a.push((centre * a[n]! + (n >= 1 ? a[n - 1]! : 0)) / ((n + 2) * (n + 1)));
  return a;
}

/** Ai(x) for −10 ≤ x ≤ −2: the Taylor polynomial about the nearest centre. */
function airyMiddle(x: T): T {
  const polynomials = AIRY_CENTRES.map((centre, i) => airyTaylor(centre, AIRY_AT_CENTRES[i]![0], AIRY_AT_CENTRES[i]![1]));
  return taylorAtNearestCentre(x, e.floor(e.sub(e.neg(x), c(x, -AIRY_CENTRES[0]! - 0.5))), AIRY_CENTRES, polynomials);
}

/**
 * Ai(x) for x < −10: (sin θ · P − cos θ · Q) / (√π (−x)^¼), θ = ζ + π/4, with P = Σ (−1)^k u_2k ζ^−2k,
 * Q = Σ (−1)^k u_2k+1 ζ^−(2k+1), u_k = u_{k−1} (6k − 5)(6k − 3)(6k − 1) / (216 k (2k − 1)).
 */
function airyOscillating(x: T): T {
  const root = e.sqrt(e.neg(x));
  const zeta = e.div(e.mul(e.mul(c(x, -2), x), root), c(x, 3));
  const inverse = e.div(c(x, 1), zeta);
  let u = c(x, 1);
  let [p, q] = [u, c(x, 0)];
  for (let k = 1; k < AIRY_OSCILLATING_TERMS; k++) {
    u = e.mul(u, e.mul(inverse, c(x, ((6 * k - 5) * (6 * k - 3) * (6 * k - 1)) / (216 * k * (2 * k - 1)))));
    const negative = Math.floor(k / 2) % 2 === 1;
    if (k % 2 === 0) p = negative ? e.sub(p, u) : e.add(p, u);
    else q = negative ? e.sub(q, u) : e.add(q, u);
  }
  const theta = e.add(zeta, c(x, Math.PI / 4));
  const amplitude = e.div(c(x, 1 / Math.sqrt(Math.PI)), e.sqrt(root));
  return e.mul(amplitude, e.sub(e.mul(e.sin(theta), p), e.mul(e.cos(theta), q)));
}

/** Ai(x) for x > 1: √(x/3) e^−ζ (e^ζ K_1/3(ζ)) / π. */
function airyDecaying(x: T): T {
  const zeta = e.mul(c(x, 2 / 3), e.mul(x, e.sqrt(x)));
  const scaled = scaledKBeyond(zeta, 1 / 3, 0.5); // ζ > ⅔ here
  return e.mul(e.mul(e.sqrt(e.div(x, c(x, 3))), c(x, 1 / Math.PI)), e.mul(scaled, e.exp(e.neg(zeta))));
}

function airyAiT(x: T): T {
  const [low, high] = [-2, 1];
  const decaying = e.compare(x, c(x, high), "GT");
  const middle = e.compare(x, c(x, low), "LT");
  const oscillating = e.compare(x, c(x, 5 * low), "LT");
  const series = airyMaclaurin(e.clamp(c(x, low), x, c(x, high)));
  const taylor = airyMiddle(e.clamp(c(x, 5 * low), x, c(x, low)));
  const far = airyOscillating(e.select(oscillating, x, c(x, 10 * low)));
  const above = airyDecaying(e.select(decaying, x, c(x, 2)));
  const value = e.select(decaying, above, e.select(oscillating, far, e.select(middle, taylor, series)));
  const zero = e.and(e.compare(x, c(x, AIRY_ZERO_ABOVE), "GT"), e.isFinite(x));
  return e.select(e.isFinite(x), e.select(zero, c(x, 0), value), c(x, NaN));
}

export const airyAi = op(
  "airyAi(x: Tensor) -> Tensor",
  { doc: "The Airy function Ai(x), elementwise (NaN at ±inf); no gradient (as in PyTorch); integer and bool inputs give float32." },
  ({ x }) => noGrad(() => floatOpmath("airyAi", x, airyAiT)),
);
