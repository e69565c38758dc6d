/**
 * @file The gamma family, elementwise: lgamma, digamma, polygamma, mvlgamma, the regularized
 * incomplete gamma functions igamma and igammac (and their in-place methods), and torch.special's
 * Hurwitz zeta. lgamma, digamma, polygamma and zeta are primitives (CHLO kernels); the poles get
 * PyTorch's values here. Integer and bool inputs give float32 (igamma/igammac: floating inputs
 * only, as in PyTorch); float16/bfloat16 compute in float32.
 */
import { type DType, defaultFloatDType, isFloating } from "../../dtype.js";
import { ArgumentError, DTypeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import type { TensorOrScalar } from "../types.js";
import { promote, run } from "../unit.js";
import { assignInPlace } from "./in_place.js";
import { floatOpmath, log1pp } from "./math.js";
import { c, computeDType, prepare, type T } from "./operands.js";

/** fn of two operands (tensors or scalars) promoted and broadcast together; integer and bool give float32, half dtypes compute in float32. */
export function floatPair(name: string, input: TensorOrScalar, other: TensorOrScalar, fn: (a: T, b: T) => T): Tensor {
  return run(name, [input, other], "", ([x, y]) => {
    let dtype: DType = promote(x!, y!);
    if (!isFloating(dtype)) dtype = defaultFloatDType;
    const [a, b] = prepare(name, x!, y!, computeDType(dtype));
    return e.convert(fn(a, b), dtype);
  });
}

/** A pole of Γ: 0, a negative integer or −inf. */
const isPole = (x: T): T => e.and(e.compare(x, c(x, 0), "LE"), e.compare(e.floor(x), x, "EQ"));

/** ψ(x); at ±0 PyTorch's −inf / +inf (the one-sided limits), NaN at the other poles. */
function digammaT(x: T): T {
  const negZero = e.compare(e.div(c(x, 1), x), c(x, 0), "LT");
  return e.select(e.compare(x, c(x, 0), "EQ"), e.select(negZero, c(x, Infinity), c(x, -Infinity)), e.digamma(x));
}

/**
 * ψ⁽ⁿ⁾(x) with PyTorch's values where the kernel gives NaN: for n ≥ 2, (−1)ⁿ⁺¹ inf at the poles
 * (−inf included); for n = 1, +inf at the finite poles and 0 at +inf.
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

/** log of the multivariate gamma function of dimension p: Σ_{j<p} lgamma(x − j/2) + p(p − 1)/4 · log π. */
function mvlgammaT(x: T, p: number): T {
  let sum = e.lgamma(x);
  for (let j = 1; j < p; j++) sum = e.add(sum, e.lgamma(e.sub(x, c(x, j / 2))));
  return e.add(sum, c(x, (p * (p - 1) * Math.log(Math.PI)) / 4));
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
  assignInPlace("lgamma_", input, floatOpmath("lgamma", input, e.lgamma)),
);

export const digamma_ = op("digamma_(input: Tensor) -> Tensor", { doc: "In place: x = digamma(x) (float tensors); returns x.", method: true }, ({ input }) =>
  assignInPlace("digamma_", input, floatOpmath("digamma", input, digammaT)),
);

export const polygamma_ = op(
  "polygamma_(input: Tensor, n: int) -> Tensor",
  { doc: "In place: x = polygamma(n, x) (float tensors); returns x.", method: true },
  ({ input, n }) => {
    checkOrder("polygamma_", n);
    return assignInPlace("polygamma_", input, floatOpmath("polygamma", input, (x) => polygammaT(n, x), String(n)));
  },
);

export const mvlgamma_ = op(
  "mvlgamma_(input: Tensor, p: int) -> Tensor",
  { doc: "In place: x = mvlgamma(x, p) (float tensors); returns x.", method: true },
  ({ input, p }) => {
    checkDimension("mvlgamma_", p);
    return assignInPlace("mvlgamma_", input, floatOpmath("mvlgamma", input, (x) => mvlgammaT(x, p), String(p)));
  },
);

export const zeta = op(
  "zeta(input: Tensor | Scalar, other: Tensor | Scalar) -> Tensor",
  { doc: "The Hurwitz zeta function ζ(input, other) = Σ_k (other + k)^−input, elementwise with broadcasting; either may be a scalar; integer and bool inputs give float32." },
  ({ input, other }) => floatPair("zeta", input, other, e.zeta),
);

// igamma / igammac: P(a, x) by its power series where x < a + 1, Q(a, x) by its continued fraction
// (Legendre's) beyond; the other one as 1 minus it. The number of terms each takes grows like √a: 256
// converge in float64 for a ≤ 1000 (absolute error ~1e-13), 128 in float32 (~3e-5 at a = 1000).
const igammaTerms = (d: DType): number => (d === "float64" ? 256 : 128);

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

/** P(a, x) (or Q(a, x) when `upper`) for finite a, x > 0; each expansion sees a safe x where it is not used. */
function incompleteGamma(a: T, x: T, upper: boolean): T {
  const terms = igammaTerms(a.dtype);
  const useFraction = e.compare(x, e.add(a, c(a, 1)), "GE");
  // P = x^a e^−x / Γ(a + 1) · Σ_n x^n / ((a + 1)…(a + n))
  const xs = e.select(useFraction, a, x);
  let term = c(a, 1);
  let sum = term;
  for (let n = 1; n <= terms; n++) {
    term = e.mul(term, e.div(xs, e.add(a, c(a, n))));
    sum = e.add(sum, term);
  }
  const lower = e.mul(e.exp(logPowerOverGamma(a, xs)), sum);
  // Q = x^a e^−x / Γ(a) / (x + 1 − a − 1(1 − a)/(x + 3 − a − 2(2 − a)/(x + 5 − a − …))), from the deepest term up
  const xf = e.select(useFraction, x, e.add(a, c(a, 1)));
  let t = e.sub(e.add(xf, c(a, 2 * terms + 1)), a);
  for (let n = terms; n >= 1; n--) {
    const b = e.sub(e.add(xf, c(a, 2 * n - 1)), a);
    t = e.sub(b, e.div(e.mul(c(a, n), e.sub(c(a, n), a)), t));
  }
  // x^a e^−x / Γ(a) = a · x^a e^−x / Γ(a + 1)
  const upperTail = e.div(e.exp(e.add(logPowerOverGamma(a, xf), e.log(a))), t);
  const one = c(a, 1);
  return upper ? e.select(useFraction, upperTail, e.sub(one, lower)) : e.select(useFraction, e.sub(one, upperTail), lower);
}

/**
 * P(a, x) or Q(a, x) with PyTorch's values at the edges: NaN for a negative or NaN argument, at
 * a = x = 0 and at a = x = inf; otherwise P = 1 at a = 0 and at x = inf, P = 0 at x = 0 and at a = inf.
 */
function igammaT(a: T, x: T, upper: boolean): T {
  const positive = (v: T): T => e.compare(v, c(v, 0), "GT");
  const zero = (v: T): T => e.compare(v, c(v, 0), "EQ");
  const inf = (v: T): T => e.compare(v, c(v, Infinity), "EQ");
  const regular = e.and(e.and(positive(a), positive(x)), e.and(e.isFinite(a), e.isFinite(x)));
  const value = incompleteGamma(e.select(regular, a, c(a, 1)), e.select(regular, x, c(x, 1)), upper);
  const valid = e.and(e.and(e.compare(a, c(a, 0), "GE"), e.compare(x, c(x, 0), "GE")), e.not(e.or(e.and(zero(a), zero(x)), e.and(inf(a), inf(x)))));
  const pIsOne = e.or(zero(a), e.and(positive(x), e.not(inf(a)))); // a = 0, or x = inf (with a finite)
  const edge = e.select(valid, e.select(pIsOne, c(a, upper ? 0 : 1), c(a, upper ? 1 : 0)), c(a, NaN));
  return e.select(regular, value, edge);
}

/** The unit of igamma / igammac: floating inputs only (PyTorch has no integer kernel), half dtypes in float32. */
function igammaUnit(name: string, input: Tensor, other: Tensor, upper: boolean): Tensor {
  return run(name, [input, other], "", ([a, x]) => {
    const dtype = promote(a!, x!);
    if (!isFloating(dtype)) throw new DTypeError(`${name}: not implemented for ${dtype} inputs (PyTorch has no integer kernel); convert to a floating dtype first`);
    const [p, q] = prepare(name, a!, x!, computeDType(dtype));
    return e.convert(igammaT(p, q, upper), dtype);
  });
}

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
  assignInPlace("igamma_", input, igammaUnit("igamma", input, other, false)),
);

export const igammac_ = op("igammac_(input: Tensor, other: Tensor) -> Tensor", { doc: "In place: x = igammac(x, other) (float tensors); returns x.", method: true }, ({ input, other }) =>
  assignInPlace("igammac_", input, igammaUnit("igammac", input, other, true)),
);
