/**
 * @file torch.special's orthogonal polynomials of degree n, elementwise with broadcasting: Chebyshev's
 * four kinds (T, U, V, W) on [−1, 1] and shifted to [0, 1], Hermite's (physicists' H, probabilists'
 * He), Laguerre's L and Legendre's P. Either argument may be a scalar; n is truncated to an integer
 * (a NaN or infinite n, or n < 0, gives 0). As PyTorch's: the values at the ends of the interval are
 * exact, Chebyshev's of larger n inside the interval come from their trigonometric closed forms,
 * Hermite's beyond n = 128 (float32) or 512 (float64) are NaN, and the rest run the three-term
 * recurrence, in a device while loop up to the largest n that needs it. PyTorch has no gradients for
 * them: the result does not require grad. Integer and bool inputs give float32.
 */
import { noGrad } from "../../autograd/grad_mode.js";
import * as e from "../emit.js";
import { bind, trace } from "../../trace/tracer.js";
import { acosT, floatBinary } from "../pointwise/math.js";
import { c, type T } from "../pointwise/operands.js";
import { op } from "../signature/op.js";
import type { Tensor } from "../../tensor.js";
import type { TensorOrScalar } from "../types.js";

/** The degree as PyTorch's kernel sees it: n truncated, with what cannot be an int64 (NaN, ±inf, |n| ≥ 2⁶³) as −1. */
interface Degree {
  /** n as an integer, in x's dtype. */
  readonly n: T;
  readonly even: T;
}

/** A branch PyTorch takes before the recurrence: where it applies and its value there. */
type Branch = readonly [where: T, value: T];

interface Polynomial {
  /** PyTorch's branches ahead of n = 0 and the recurrence (after n < 0), first taken first. */
  branches: (x: T, d: Degree) => Branch[];
  /** The polynomial of degree 1. */
  first: (x: T) => T;
  /** The polynomial of degree m + 1 from those of degree m (q) and m − 1 (p). */
  step: (x: T, m: T, p: T, q: T) => T;
}

function degreeOf(n: T): Degree {
  const representable = e.and(e.isFinite(n), e.compare(e.abs(n), c(n, 2 ** 63), "LT"));
  const whole = e.convert(e.convert(e.select(representable, n, c(n, -1)), "int64"), n.dtype);
  const even = e.compare(e.rem(whole, c(whole, 2)), c(whole, 0), "EQ");
  return { n: whole, even };
}

/**
 * The recurrence's value at degree n (for n ≥ 1) where `active`, stepped on the device from degree 1
 * until every active element has reached its n or turned NaN (where PyTorch's loop stops too, so a huge
 * n outside the interval ends once the values overflow); elsewhere whatever it reached.
 */
function recurrence(x: T, n: T, active: T, poly: Polynomial): T {
  const dims = n.shape.map((_, i) => i);
  const degree = e.convert(n, "int64");
  const state = [x, degree, active, e.full(1, "int64", []), c(x, 1), poly.first(x)];
  const avals = state.map((t) => ({ shape: t.shape, dtype: t.dtype }));
  const going = ([, k, on, m, , q]: T[]) => e.and(e.and(on!, e.compare(e.broadcastTo(m!, k!.shape), k!, "LT")), e.compare(q!, q!, "EQ"));
  const cond = (s: T[]) => e.reduce("or", going(s), dims);
  const body = (s: T[]) => {
    const [xs, k, on, m, p, q] = s;
    const step = going(s);
    const r = poly.step(xs!, e.convert(e.broadcastTo(m!, xs!.shape), xs!.dtype), p!, q!);
    return [xs!, k!, on!, e.add(m!, e.full(1, "int64", [])), e.select(step, q!, p!), e.select(step, r, q!)];
  };
  return bind("while", state, { cond: trace(avals, cond).graph, body: trace(avals, body).graph })[5]!;
}

function evaluate(x: T, nIn: T, poly: Polynomial): T {
  const d = degreeOf(nIn);
  const branches = poly.branches(x, d);
  const taken = branches.reduce((any, [where]) => e.or(any, where), e.compare(d.n, c(d.n, 2), "LT"));
  const viaRecurrence = recurrence(x, d.n, e.not(taken), poly);
  let value = e.select(e.compare(d.n, c(d.n, 0), "EQ"), c(x, 1), viaRecurrence);
  for (const [where, v] of [...branches].reverse()) value = e.select(where, v, value);
  return e.select(e.compare(d.n, c(d.n, 0), "LT"), c(x, 0), value);
}

/** The polynomial op's body: x and n promoted together, under noGrad (PyTorch has no gradients for these). */
const polynomialOp = (name: string, x: TensorOrScalar, n: TensorOrScalar, poly: Polynomial): Tensor =>
  noGrad(() => floatBinary(name, x, n, (xs, k) => evaluate(xs, k, poly)));

const plusMinus = (positive: T, v: T): T => e.select(positive, v, e.neg(v));
const isOne = (x: T): T => e.compare(e.abs(x), c(x, 1), "EQ");
const inside = (x: T): T => e.compare(e.abs(x), c(x, 1), "LT");
const above = (d: Degree, k: number): T => e.compare(d.n, c(d.n, k), "GT");
const twiceNPlusOne = (d: Degree): T => e.add(e.add(d.n, d.n), c(d.n, 1));
const nPlusOne = (d: Degree): T => e.add(d.n, c(d.n, 1));

/**
 * Chebyshev's polynomials of the four kinds in the variable t (x itself, or 2x − 1 when shifted): the
 * value at the interval's ends, the trigonometric form for n above `trigFrom` inside it, the recurrence
 * y_{m+1} = 2t·y_m − y_{m−1} from `first` elsewhere.
 */
type Kind = "t" | "u" | "v" | "w";

/** Chebyshev's value at t = 1 (`upper`) or t = −1. */
function chebyshevEnd(kind: Kind, d: Degree, x: T, upper: boolean): T {
  const one = c(x, 1);
  const alternating = (v: T) => (upper ? v : plusMinus(d.even, v));
  if (kind === "t") return alternating(one);
  if (kind === "u") return alternating(nPlusOne(d));
  if (kind === "v") return upper ? one : plusMinus(d.even, twiceNPlusOne(d));
  return upper ? twiceNPlusOne(d) : plusMinus(d.even, one);
}

/** The closed form in θ = acos t, with PyTorch's fallbacks where its denominator rounds to a degenerate value. */
function chebyshevTrig(kind: Kind, d: Degree, t: T, shifted: boolean): T {
  const theta = acosT(t);
  const half = e.mul(theta, c(t, 0.5));
  const nHalf = e.add(d.n, c(t, 0.5));
  if (kind === "t") return e.cos(e.mul(d.n, theta));
  if (kind === "u") {
    const s = e.sin(theta);
    const angle = e.mul(nPlusOne(d), theta);
    const degenerate = e.mul(nPlusOne(d), e.cos(angle));
    return e.select(e.compare(s, c(t, 0), "NE"), e.div(e.sin(angle), s), shifted ? e.div(degenerate, t) : degenerate);
  }
  if (kind === "v") {
    const ok = e.compare(e.sin(half), c(t, 1), "NE");
    return e.select(ok, e.div(e.cos(e.mul(nHalf, theta)), e.cos(half)), chebyshevEnd("v", d, t, false));
  }
  const ok = e.compare(e.cos(half), c(t, 1), "NE");
  const fallback = shifted ? chebyshevEnd("w", d, t, false) : e.select(e.compare(t, c(t, 0), "GT"), twiceNPlusOne(d), chebyshevEnd("w", d, t, false));
  return e.select(ok, e.div(e.sin(e.mul(nHalf, theta)), e.sin(half)), fallback);
}

const TRIG_FROM: Record<Kind, [plain: number, shifted: number]> = { t: [6, 6], u: [8, 6], v: [8, 6], w: [8, 4] };
const FIRST_OFFSET: Record<Kind, number> = { t: 0, u: 0, v: -1, w: 1 };

function chebyshev(kind: Kind, shifted: boolean): Polynomial {
  const variable = (x: T): T => (shifted ? e.sub(e.add(x, x), c(x, 1)) : x);
  const doubled = (x: T): T => (shifted ? e.add(variable(x), variable(x)) : e.add(x, x));
  return {
    branches: (x, d) => {
      const t = variable(x);
      const ends: Branch[] = shifted
        ? [[e.compare(x, c(x, 1), "EQ"), chebyshevEnd(kind, d, x, true)], [e.compare(x, c(x, 0), "EQ"), chebyshevEnd(kind, d, x, false)]]
        : [[isOne(x), e.select(e.compare(x, c(x, 0), "GT"), chebyshevEnd(kind, d, x, true), chebyshevEnd(kind, d, x, false))]];
      const trig = e.and(above(d, TRIG_FROM[kind][shifted ? 1 : 0]), inside(t));
      return [...ends, [trig, chebyshevTrig(kind, d, t, shifted)]];
    },
    first: (x) => {
      const offset = FIRST_OFFSET[kind];
      if (kind === "t") return variable(x);
      const two = doubled(x);
      return offset === 0 ? two : e.add(two, c(x, offset));
    },
    step: (x, _m, p, q) => e.sub(e.mul(doubled(x), q), p),
  };
}

/** Hermite's polynomials are NaN above this degree in PyTorch (float32, float64). */
const hermiteLimit = (x: T): number => (x.dtype === "float64" ? 512 : 128);

const hermiteH: Polynomial = {
  branches: (x, d) => [[above(d, hermiteLimit(x)), c(x, NaN)]],
  first: (x) => e.add(x, x),
  // H_{m+1} = 2x·H_m − 2m·H_{m−1}
  step: (x, m, p, q) => e.sub(e.mul(e.add(x, x), q), e.mul(e.add(m, m), p)),
};

const hermiteHe: Polynomial = {
  branches: (x, d) => [[above(d, hermiteLimit(x)), c(x, NaN)]],
  first: (x) => x,
  step: (x, m, p, q) => e.sub(e.mul(x, q), e.mul(m, p)),
};

const laguerre: Polynomial = {
  branches: (x) => [[e.compare(x, c(x, 0), "EQ"), c(x, 1)]],
  first: (x) => e.sub(c(x, 1), x),
  // (m + 1) L_{m+1} = (2m + 1 − x) L_m − m L_{m−1}
  step: (x, m, p, q) => e.div(e.sub(e.mul(e.add(e.add(m, m), e.sub(c(x, 1), x)), q), e.mul(m, p)), e.add(m, c(m, 1))),
};

const legendre: Polynomial = {
  branches: (x, d) => [[isOne(x), e.select(e.or(e.compare(x, c(x, 0), "GT"), d.even), c(x, 1), c(x, -1))]],
  first: (x) => x,
  // (m + 1) P_{m+1} = (2m + 1) x P_m − m P_{m−1}
  step: (x, m, p, q) => e.div(e.sub(e.mul(e.mul(e.add(e.add(m, m), c(m, 1)), x), q), e.mul(m, p)), e.add(m, c(m, 1))),
};

const TAIL = "at x, elementwise with broadcasting; either may be a scalar; n is truncated to an integer (0 for n < 0); no gradient (as in PyTorch); integer and bool inputs give float32.";

export const chebyshevPolynomialT = op(
  "chebyshevPolynomialT(x: Tensor | Scalar, n: Tensor | Scalar) -> Tensor",
  { doc: `The Chebyshev polynomial of the first kind T_n ${TAIL}` },
  ({ x, n }) => polynomialOp("chebyshevPolynomialT", x, n, chebyshev("t", false)),
);

export const chebyshevPolynomialU = op(
  "chebyshevPolynomialU(x: Tensor | Scalar, n: Tensor | Scalar) -> Tensor",
  { doc: `The Chebyshev polynomial of the second kind U_n ${TAIL}` },
  ({ x, n }) => polynomialOp("chebyshevPolynomialU", x, n, chebyshev("u", false)),
);

export const chebyshevPolynomialV = op(
  "chebyshevPolynomialV(x: Tensor | Scalar, n: Tensor | Scalar) -> Tensor",
  { doc: `The Chebyshev polynomial of the third kind V_n ${TAIL}` },
  ({ x, n }) => polynomialOp("chebyshevPolynomialV", x, n, chebyshev("v", false)),
);

export const chebyshevPolynomialW = op(
  "chebyshevPolynomialW(x: Tensor | Scalar, n: Tensor | Scalar) -> Tensor",
  { doc: `The Chebyshev polynomial of the fourth kind W_n ${TAIL}` },
  ({ x, n }) => polynomialOp("chebyshevPolynomialW", x, n, chebyshev("w", false)),
);

export const shiftedChebyshevPolynomialT = op(
  "shiftedChebyshevPolynomialT(x: Tensor | Scalar, n: Tensor | Scalar) -> Tensor",
  { doc: `The shifted Chebyshev polynomial of the first kind T*_n(x) = T_n(2x − 1) ${TAIL}` },
  ({ x, n }) => polynomialOp("shiftedChebyshevPolynomialT", x, n, chebyshev("t", true)),
);

export const shiftedChebyshevPolynomialU = op(
  "shiftedChebyshevPolynomialU(x: Tensor | Scalar, n: Tensor | Scalar) -> Tensor",
  { doc: `The shifted Chebyshev polynomial of the second kind U*_n(x) = U_n(2x − 1) ${TAIL}` },
  ({ x, n }) => polynomialOp("shiftedChebyshevPolynomialU", x, n, chebyshev("u", true)),
);

export const shiftedChebyshevPolynomialV = op(
  "shiftedChebyshevPolynomialV(x: Tensor | Scalar, n: Tensor | Scalar) -> Tensor",
  { doc: `The shifted Chebyshev polynomial of the third kind V*_n(x) = V_n(2x − 1) ${TAIL}` },
  ({ x, n }) => polynomialOp("shiftedChebyshevPolynomialV", x, n, chebyshev("v", true)),
);

export const shiftedChebyshevPolynomialW = op(
  "shiftedChebyshevPolynomialW(x: Tensor | Scalar, n: Tensor | Scalar) -> Tensor",
  { doc: `The shifted Chebyshev polynomial of the fourth kind W*_n(x) = W_n(2x − 1) ${TAIL}` },
  ({ x, n }) => polynomialOp("shiftedChebyshevPolynomialW", x, n, chebyshev("w", true)),
);

export const hermitePolynomialH = op(
  "hermitePolynomialH(x: Tensor | Scalar, n: Tensor | Scalar) -> Tensor",
  { doc: `The physicists' Hermite polynomial H_n (NaN above n = 128 in float32, 512 in float64) ${TAIL}` },
  ({ x, n }) => polynomialOp("hermitePolynomialH", x, n, hermiteH),
);

export const hermitePolynomialHe = op(
  "hermitePolynomialHe(x: Tensor | Scalar, n: Tensor | Scalar) -> Tensor",
  { doc: `The probabilists' Hermite polynomial He_n (NaN above n = 128 in float32, 512 in float64) ${TAIL}` },
  ({ x, n }) => polynomialOp("hermitePolynomialHe", x, n, hermiteHe),
);

export const laguerrePolynomialL = op(
  "laguerrePolynomialL(x: Tensor | Scalar, n: Tensor | Scalar) -> Tensor",
  { doc: `The Laguerre polynomial L_n ${TAIL}` },
  ({ x, n }) => polynomialOp("laguerrePolynomialL", x, n, laguerre),
);

export const legendrePolynomialP = op(
  "legendrePolynomialP(x: Tensor | Scalar, n: Tensor | Scalar) -> Tensor",
  { doc: `The Legendre polynomial P_n ${TAIL}` },
  ({ x, n }) => polynomialOp("legendrePolynomialP", x, n, legendre),
);
