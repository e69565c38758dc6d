/**
 * @file The gamma family, elementwise: lgamma, digamma, polygamma, mvlgamma, the regularized
 * incomplete gamma functions igamma and igammac (and their in-place methods), and torch.special's
 * Hurwitz zeta. lgamma, digamma, polygamma and zeta are primitives (CHLO kernels); the poles get
 * PyTorch's values here. Integer and bool inputs give float32 (igamma/igammac: floating inputs
 * only, as in PyTorch); float16/bfloat16 compute in float32.
 */
import { finfo } from "../../dtype_info.js";
import { ArgumentError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import { bind, trace } from "../../trace/tracer.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import { elementwiseInPlace } from "./in_place.js";
import { floatBinary, floatOpmath, log1pp } from "./math.js";
import { c, type T } from "./operands.js";

/** A pole of Γ: 0, a negative integer or −inf. */
const isPole = (x: T): T => e.and(e.compare(x, c(x, 0), "LE"), e.compare(e.floor(x), x, "EQ"));

/** ψ(x); at ±0 PyTorch's −inf / +inf (the one-sided limits), NaN at the other poles. */
function digammaT(x: T): T {
  const negZero = e.compare(e.div(c(x, 1), x), c(x, 0), "LT");
  return e.select(e.compare(x, c(x, 0), "EQ"), e.select(negZero, c(x, Infinity), c(x, -Infinity)), e.digamma(x));
}

/**
 * ψ⁽ⁿ⁾(x) with PyTorch's values where the kernel gives NaN: for n ≥ 2, (−1)ⁿ⁺¹ inf at the poles
 * (−inf included); for n = 1, 0 at +inf and +inf at the finite poles, where PyTorch gives +inf at 0
 * but large finite values at the negative integers (1.29e15 at −1 in float32, 6.6e32 in float64).
 */
function polygammaT(n: number, x: T): T {
  if (n === 0) return digammaT(x);
  const value = e.polygamma(c(x, n), x);
  if (n === 1) {
    const finitePole = e.and(isPole(x), e.isFinite(x));
    return e.select(finitePole, c(x, Infinity), e.select(e.compare(x, c(x, Infinity), "EQ"), c(x, 0), value));
  }
  return e.select(isPole(x), c(x, n % 2 === 1 ? Infinity : -Infinity), value);
}

/** log of the multivariate gamma function of dimension p: Σ_{j<p} lgamma(x − j/2) + p(p − 1)/4 · log π, the p terms on a new last axis. */
function mvlgammaT(x: T, p: number): T {
  const shape = [...x.shape, p];
  const halves = e.mul(e.iota(x.dtype, shape, x.shape.length), e.full(0.5, x.dtype, shape));
  const terms = e.lgamma(e.sub(e.broadcastInDim(x, shape, x.shape.map((_, i) => i)), halves));
  return e.add(e.reduce("sum", terms, [x.shape.length]), c(x, (p * (p - 1) * Math.log(Math.PI)) / 4));
}

function checkOrder(name: string, n: number): void {
  if (n < 0) throw new ArgumentError(`${name}: polygamma(n, x) does not support negative n, got n = ${n}; the order n must be 0 (digamma), 1, 2, …`);
}

function checkDimension(name: string, p: number): void {
  if (p < 1) throw new ArgumentError(`${name}: p has to be greater than or equal to 1, got p = ${p}; p is the dimension of the multivariate gamma function (p = 1 is lgamma)`);
}

export const lgamma = op(
  "lgamma(input: Tensor) -> Tensor",
  { doc: "log |Γ(input)|, elementwise (+inf at 0 and the negative integers); integer and bool inputs give float32.", method: true },
  ({ input }) => floatOpmath("lgamma", input, e.lgamma),
);

export const digamma = op(
  "digamma(input: Tensor) -> Tensor",
  { doc: "ψ(input) = Γ'(input)/Γ(input), elementwise (−inf at 0, NaN at the negative integers); integer and bool inputs give float32.", method: true },
  ({ input }) => floatOpmath("digamma", input, digammaT),
);

export const polygamma = op(
  "polygamma(n: int, input: Tensor) -> Tensor",
  { doc: "ψ⁽ⁿ⁾(input), the n-th derivative of digamma, elementwise (n ≥ 0); integer and bool inputs give float32.", method: "input" },
  ({ n, input }) => {
    checkOrder("polygamma", n);
    return floatOpmath("polygamma", input, (x) => polygammaT(n, x), String(n));
  },
);

export const mvlgamma = op(
  "mvlgamma(input: Tensor, p: int) -> Tensor",
  { doc: "The log of the multivariate gamma function of dimension p ≥ 1, elementwise; integer and bool inputs give float32.", method: true },
  ({ input, p }) => {
    checkDimension("mvlgamma", p);
    return floatOpmath("mvlgamma", input, (x) => mvlgammaT(x, p), String(p));
  },
);

export const lgamma_ = op("lgamma_(input: Tensor) -> Tensor", { doc: "In place: x = lgamma(x) (float tensors); returns x.", method: true }, ({ input }) =>
  elementwiseInPlace("lgamma_", "float", input, [], () => floatOpmath("lgamma", input, e.lgamma)),
);

export const digamma_ = op("digamma_(input: Tensor) -> Tensor", { doc: "In place: x = digamma(x) (float tensors); returns x.", method: true }, ({ input }) =>
  elementwiseInPlace("digamma_", "float", input, [], () => floatOpmath("digamma", input, digammaT)),
);

export const polygamma_ = op(
  "polygamma_(input: Tensor, n: int) -> Tensor",
  { doc: "In place: x = polygamma(n, x) (float tensors); returns x.", method: true },
  ({ input, n }) => {
    checkOrder("polygamma_", n);
    return elementwiseInPlace("polygamma_", "float", input, [], () => floatOpmath("polygamma", input, (x) => polygammaT(n, x), String(n)));
  },
);

export const mvlgamma_ = op(
  "mvlgamma_(input: Tensor, p: int) -> Tensor",
  { doc: "In place: x = mvlgamma(x, p) (float tensors); returns x.", method: true },
  ({ input, p }) => {
    checkDimension("mvlgamma_", p);
    return elementwiseInPlace("mvlgamma_", "float", input, [], () => floatOpmath("mvlgamma", input, (x) => mvlgammaT(x, p), String(p)));
  },
);

export const zeta = op(
  "zeta(input: Tensor | Scalar, other: Tensor | Scalar) -> Tensor",
  { doc: "The Hurwitz zeta function ζ(input, other) = Σ_k (other + k)^−input, elementwise with broadcasting; either may be a scalar; integer and bool inputs give float32." },
  ({ input, other }) => floatBinary("zeta", input, other, e.zeta),
);

// igamma / igammac: P(a, x) by its power series where x < a + 1, Q(a, x) by its continued fraction
// (Legendre's, evaluated forward by Lentz's method) beyond; the other one as 1 minus it. Each runs in a
// while loop until every element has converged: the number of terms grows like √a (~2,700 at a = 1e5
// in float64), capped at MAX_TERMS (enough for a up to ~1e8).
const MAX_TERMS = 1e5;

// Stirling's series for log Γ(a + 1) − (a log a − a + ½ log(2πa)), to 1/a⁹: converged to float64 for a ≥ 10
const STIRLING = [1 / 12, -1 / 360, 1 / 1260, -1 / 1680, 1 / 1188];
const STIRLING_FROM = 10;

/**
 * log(x^a e^−x / Γ(a + 1)). For a ≥ 10 as −a (d − log1p(d)) − ½ log(2πa) − Stirling's correction, with
 * d = (x − a)/a: a log x − x and log Γ(a + 1) are large and nearly cancel there.
 */
function logPowerOverGamma(a: T, x: T): T {
  const direct = e.sub(e.sub(e.mul(a, e.log(x)), x), e.lgamma(e.add(a, c(a, 1))));
  const large = e.compare(a, c(a, STIRLING_FROM), "GE");
  const al = e.select(large, a, c(a, STIRLING_FROM));
  const xl = e.select(large, x, c(x, STIRLING_FROM));
  const d = e.div(e.sub(xl, al), al);
  const inv2 = e.div(c(a, 1), e.mul(al, al));
  let series = c(a, STIRLING[STIRLING.length - 1]!);
  for (let i = STIRLING.length - 2; i >= 0; i--) series = e.add(e.mul(series, inv2), c(a, STIRLING[i]!));
  const stirling = e.div(series, al);
  const bulk = e.neg(e.mul(al, e.sub(d, log1pp(d))));
  const asymptotic = e.sub(e.sub(bulk, e.mul(c(a, 0.5), e.log(e.mul(c(a, 2 * Math.PI), al)))), stirling);
  return e.select(large, asymptotic, direct);
}

/**
 * `state` stepped until every element is done (its last entry, a bool; an element stops changing once
 * set), with `fixed` (the loop's inputs, unchanged) passed along: step(fixed, state) gives the next state.
 */
function untilConverged(fixed: T[], state: T[], step: (fixed: T[], s: T[]) => T[]): T[] {
  const k = fixed.length;
  const pending = (s: T[]) => e.reduce("or", e.not(s[s.length - 1]!), s[0]!.shape.map((_, i) => i));
  const body = (s: T[]) => {
    const [inputs, current] = [s.slice(0, k), s.slice(k)];
    const done = current[current.length - 1]!;
    return [...inputs, ...step(inputs, current).map((v, i) => e.select(done, current[i]!, v))];
  };
  const all = [...fixed, ...state];
  return bind("while", all, { cond: trace(all, pending).graph, body: trace(all, body).graph }).slice(k);
}

/** Whether the loops' term count n has reached its cap. */
const capped = (n: T): T => e.compare(n, c(n, MAX_TERMS), "GE");
/** Half the unit roundoff of x's dtype, shaped like x: where a relative change no longer shows. */
const epsLike = (x: T): T => c(x, finfo(x.dtype).eps / 2);

/**
 * P(a, x) (or Q(a, x) when `upper`) for finite a, x > 0; each expansion sees a safe x where it is not
 * used. No gradient flows through the loops (the caller adds x's).
 */
function incompleteGamma(a: T, x: T, upper: boolean): T {
  const notDone = e.full(false, "bool", a.shape);
  const useFraction = e.compare(x, e.add(a, c(a, 1)), "GE");
  // P = x^a e^−x / Γ(a + 1) · Σ_n x^n / ((a + 1)…(a + n))
  const xs = e.select(useFraction, a, x);
  const [, , sum] = untilConverged([a, xs], [c(a, 0), c(a, 1), c(a, 1), notDone], ([a, x], [n, term, total]) => {
    const n1 = e.add(n!, c(n!, 1));
    const t = e.mul(term!, e.div(x!, e.add(a!, n1)));
    const s = e.add(total!, t);
    return [n1, t, s, e.or(e.compare(t, e.mul(epsLike(s), s), "LE"), capped(n1))];
  });
  const lower = e.mul(e.exp(logPowerOverGamma(a, xs)), sum!);
  // Q = x^a e^−x / Γ(a) · h, h = 1/(x + 1 − a − 1(1 − a)/(x + 3 − a − 2(2 − a)/(x + 5 − a − …))) by Lentz's method
  const xf = e.select(useFraction, x, e.add(a, c(a, 1)));
  const floor = (v: T): T => c(v, v.dtype === "float64" ? 1e-300 : 1e-30); // Lentz's guard against a zero denominator
  const guard = (v: T): T => e.select(e.compare(e.abs(v), floor(v), "LT"), floor(v), v);
  const b0 = e.sub(e.add(xf, c(a, 1)), a);
  const d0 = e.div(c(a, 1), b0);
  const [, , , , h] = untilConverged([a], [c(a, 0), b0, e.div(c(a, 1), floor(a)), d0, d0, notDone], ([a], [n, b, cf, d, hf]) => {
    const n1 = e.add(n!, c(n!, 1));
    const an = e.neg(e.mul(n1, e.sub(n1, a!)));
    const b1 = e.add(b!, c(b!, 2));
    const d1 = e.div(c(d!, 1), guard(e.add(e.mul(an, d!), b1)));
    const c1 = guard(e.add(b1, e.div(an, cf!)));
    const delta = e.mul(d1, c1);
    const done = e.or(e.compare(e.abs(e.sub(delta, c(delta, 1))), epsLike(delta), "LE"), capped(n1));
    return [n1, b1, c1, d1, e.mul(hf!, delta), done];
  });
  // x^a e^−x / Γ(a) = a · x^a e^−x / Γ(a + 1)
  const upperTail = e.mul(e.exp(e.add(logPowerOverGamma(a, xf), e.log(a))), h!);
  const one = c(a, 1);
  return upper ? e.select(useFraction, upperTail, e.sub(one, lower)) : e.select(useFraction, e.sub(one, upperTail), lower);
}

/**
 * P(a, x) or Q(a, x) with PyTorch's values at the edges: NaN for a negative or NaN argument, at
 * a = x = 0 and at a = x = inf; otherwise P = 1 at a = 0 and at x = inf, P = 0 at x = 0 and at a = inf.
 * Gradients are PyTorch's: none for a, and ±e^−x·x^(a−1)/Γ(a) for x (0 where that is not finite,
 * e.g. at x = 0 for a < 1, where PyTorch's is inf).
 */
function igammaT(input: T, other: T, upper: boolean): T {
  const [a, x] = [e.detached(input), e.detached(other)];
  const positive = (v: T): T => e.compare(v, c(v, 0), "GT");
  const zero = (v: T): T => e.compare(v, c(v, 0), "EQ");
  const inf = (v: T): T => e.compare(v, c(v, Infinity), "EQ");
  const regular = e.and(e.and(positive(a), positive(x)), e.and(e.isFinite(a), e.isFinite(x)));
  const value = incompleteGamma(e.select(regular, a, c(a, 1)), e.select(regular, x, c(x, 1)), upper);
  const valid = e.and(e.and(e.compare(a, c(a, 0), "GE"), e.compare(x, c(x, 0), "GE")), e.not(e.or(e.and(zero(a), zero(x)), e.and(inf(a), inf(x)))));
  const pIsOne = e.or(zero(a), e.and(positive(x), e.not(inf(a)))); // a = 0, or x = inf (with a finite)
  const edge = e.select(valid, e.select(pIsOne, c(a, upper ? 0 : 1), c(a, upper ? 1 : 0)), c(a, NaN));
  // x's gradient: the slope times x − x, which is 0 in value (where both are finite)
  const slope = e.exp(e.sub(e.sub(e.mul(e.sub(a, c(a, 1)), e.log(x)), x), e.lgamma(a)));
  const carries = e.and(e.isFinite(slope), e.isFinite(x));
  const shift = e.mul(e.select(carries, e.sub(other, x), c(x, 0)), e.select(carries, upper ? e.neg(slope) : slope, c(x, 0)));
  return e.add(e.select(regular, value, edge), shift);
}

/** igamma / igammac: floating inputs only (PyTorch has no integer kernel). */
const igammaUnit = (name: string, input: Tensor, other: Tensor, upper: boolean): Tensor =>
  floatBinary(name, input, other, (a, x) => igammaT(a, x, upper), true);

export const igamma = op(
  "igamma(input: Tensor, other: Tensor) -> Tensor",
  { doc: "The regularized lower incomplete gamma function P(input, other), elementwise with broadcasting; floating inputs only, as in PyTorch.", method: true },
  ({ input, other }) => igammaUnit("igamma", input, other, false),
);

export const igammac = op(
  "igammac(input: Tensor, other: Tensor) -> Tensor",
  { doc: "The regularized upper incomplete gamma function Q(input, other) = 1 − P(input, other), elementwise with broadcasting; floating inputs only, as in PyTorch.", method: true },
  ({ input, other }) => igammaUnit("igammac", input, other, true),
);

export const igamma_ = op("igamma_(input: Tensor, other: Tensor) -> Tensor", { doc: "In place: x = igamma(x, other) (float tensors); returns x.", method: true }, ({ input, other }) =>
  elementwiseInPlace("igamma_", "float", input, [other], () => igammaUnit("igamma", input, other, false)),
);

export const igammac_ = op("igammac_(input: Tensor, other: Tensor) -> Tensor", { doc: "In place: x = igammac(x, other) (float tensors); returns x.", method: true }, ({ input, other }) =>
  elementwiseInPlace("igammac_", "float", input, [other], () => igammaUnit("igammac", input, other, true)),
);
