/**
 * @file The VJP column of the primitive table: one rule per primitive (src/ops/prims.ts has the shape
 * rules and lowerings; the window, indexing and control-flow rows' rules live in prims_vjp_window.ts,
 * prims_vjp_indexing.ts and prims_vjp_control.ts). Every gradient in the library is composed from these rows.
 *
 * Where PyTorch's gradient convention is not the calculus of the composition, the rule follows
 * PyTorch (docs/autograd.md, "Gradient conventions"):
 * - abs: the cotangent times sgn(x), 0 at 0 and at NaN (PyTorch's sgn(NaN) = 0);
 * - maximum/minimum of two equal values: half the gradient to each;
 * - reduce_max/reduce_min (amax/amin): split evenly among all elements equal to the result (a NaN
 *   result gives NaN gradients to its row, as amax's do; with nanSplit, max()/min()'s rule: split
 *   among the NaNs);
 * - pow: 0 for the base where the exponent is 0, 0 for the exponent where the base is 0 and the
 *   exponent ≥ 0;
 * - clamp at a bound: the gradient goes to the input (lo ≤ x ≤ hi inclusive); at NaN it is 0 (the
 *   comparisons fail);
 * - floor, ceil, round, sign, comparisons, integer and bitwise primitives: no gradient (zeros).
 */
import { dtypes, opmath } from "../dtype.js";
import { ArgumentError } from "../runtime/errors.js";
import { bind1, type Tracer } from "../trace/tracer.js";
import * as e from "./emit.js";
import type { Aval, Prim, PrimParams } from "./prims.js";
import { controlVjps } from "./prims_vjp_control.js";
import { indexingVjps } from "./prims_vjp_indexing.js";
import { windowVjps } from "./prims_vjp_window.js";
import type { Cotangent, VjpArgs, VjpRule } from "./vjp_types.js";

type T = Tracer;
type Dims = readonly number[];

const isFloat = (a: Aval): boolean => dtypes[a.dtype].kind === "float";
const scalar = (v: number, like: T): T => e.full(v, like.dtype, like.shape);
const zerosLike = (t: T): T => e.full(0, t.dtype, t.shape);
const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

/** No input gets a gradient. */
const none = (): Cotangent[] => [];

/** Rules of one-input, one-output primitives: the input's cotangent from x, y and the output's cotangent. */
function unary<P extends Prim>(rule: (x: T, y: T, ct: T) => T): VjpRule<P> {
  return ({ inputs, outputs, cts }) => [rule(inputs[0]!, outputs[0]!, cts[0]!)];
}

/** Rules of two-input primitives: both cotangents from a, b, the result and its cotangent. */
function binary<P extends Prim>(rule: (a: T, b: T, y: T, ct: T) => [Cotangent, Cotangent]): VjpRule<P> {
  return ({ inputs, outputs, cts }) => rule(inputs[0]!, inputs[1]!, outputs[0]!, cts[0]!);
}

const where = (p: T, a: T): T => e.select(p, a, zerosLike(a));
const cmp = (a: T, b: T, d: PrimParams["compare"]["direction"]): T => e.compare(a, b, d);

/** Reduces `x` over `dims` with sums accumulated in float32 for half dtypes (a cotangent summed over a broadcast). */
function sumOver(x: T, dims: Dims): T {
  if (dims.length === 0) return x;
  const acc = opmath(x.dtype);
  return e.convert(e.reduce("sum", e.convert(x, acc), dims), x.dtype);
}

/** The cotangent of broadcast_in_dim: summed over the dims it added or stretched, back in x's shape and dim order. */
function unbroadcast(ct: T, x: Aval, dims: Dims): T {
  const summed = range(ct.shape.length).filter((d) => {
    const i = dims.indexOf(d);
    return i < 0 || (x.shape[i] === 1 && ct.shape[d] !== 1);
  });
  const reduced = sumOver(ct, summed);
  // what remains is x's unstretched dims in the order of their output positions; put them in x's order
  const byPosition = range(ct.shape.length).filter((d) => !summed.includes(d)).map((d) => dims.indexOf(d));
  const sorted = [...byPosition].sort((i, j) => i - j);
  const perm = sorted.map((i) => byPosition.indexOf(i));
  const inOrder = perm.every((p, k) => p === k) ? reduced : e.transpose(reduced, perm);
  return e.reshape(inOrder, x.shape);
}

/** Spreads a reduction's cotangent (reduced over `dims`) back over x's shape. */
const spread = (ct: T, x: Aval, dims: Dims): T =>
  e.broadcastInDim(ct, x.shape, range(x.shape.length).filter((d) => !dims.includes(d)));

/** The gradient of an extremum reduction: split evenly among the elements equal to it (NaN rows give NaN, as in PyTorch). */
function amaxRule<P extends "reduce_max" | "reduce_min">(): VjpRule<P> {
  return ({ inputs: [x], outputs: [y], cts: [ct], params: { dims, nanSplit } }) => {
    const result = spread(y!, x!, dims);
    const equal = cmp(x!, result, "EQ");
    const chosen = nanSplit ? e.or(equal, e.and(cmp(x!, x!, "NE"), cmp(result, result, "NE"))) : equal;
    const mask = e.convert(chosen, x!.dtype);
    const count = sumOver(mask, dims);
    return [e.mul(spread(e.div(ct!, count), x!, dims), mask)];
  };
}

/** x with the reduced dims moved last and merged into one: [kept..., n]. */
function reducedLast(x: T, dims: Dims): { moved: T; perm: number[] } {
  const kept = range(x.shape.length).filter((d) => !dims.includes(d));
  const perm = [...kept, ...dims];
  const t = e.transpose(x, perm);
  const n = dims.reduce((p, d) => p * x.shape[d]!, 1);
  return { moved: e.reshape(t, [...kept.map((d) => x.shape[d]!), n]), perm };
}

/** Products of all elements before each position along the last dim (1 at the first). */
function exclusiveProducts(x: T): T {
  const last = x.shape.length - 1;
  const n = x.shape[last]!;
  const ones = x.shape.map(() => 1);
  const padding = x.shape.map((_, d) => (d === last ? ([n, 0] as const) : ([0, 0] as const)));
  const shifted = e.reduceWindow("prod", x, { window: x.shape.map((s, d) => (d === last ? n : 1)), strides: ones, baseDilation: ones, windowDilation: ones, padding });
  return e.slice(shifted, x.shape.map(() => 0), x.shape);
}

/** reduce_prod: each element's gradient is the product of the others (exact when some are zero). */
const prodRule: VjpRule<"reduce_prod"> = ({ inputs: [x], cts: [ct], params: { dims } }) => {
  if (dims.length === 0) return [ct];
  if (x!.shape.includes(0)) return [zerosLike(x!)];
  const { moved, perm } = reducedLast(x!, dims);
  const last = moved.shape.length - 1;
  const before = exclusiveProducts(moved);
  const after = bind1("reverse", [exclusiveProducts(bind1("reverse", [moved], { dims: [last] }))], { dims: [last] });
  const others = e.reshape(e.mul(before, after), perm.map((d) => x!.shape[d]!));
  const inverse = perm.map((_, k) => perm.indexOf(k));
  return [e.mul(e.transpose(others, inverse), spread(ct!, x!, dims))];
};

/** The matrix product of [..., n, k] and [..., k, m] (equal batch dims), at full precision. */
function matmulOf(a: T, b: T): T {
  const batch = range(a.shape.length - 2);
  return e.dotGeneral(a, b, batch, batch, [a.shape.length - 1], [b.shape.length - 2], { exact: true });
}
const swapLast = (x: T): T => e.transpose(x, [...range(x.shape.length - 2), x.shape.length - 1, x.shape.length - 2]);

/**
 * triangular_solve: with M = op(a), b's cotangent solves Mᵀ y = g (left) or y Mᵀ = g (right); M's is
 * −y xᵀ (left) or −xᵀ y (right), transposed back to a when op transposes, and kept to the triangle a
 * is read from (its strict part with a unit diagonal), as PyTorch's solve_triangular gradient.
 */
const triangularSolveRule: VjpRule<"triangular_solve"> = ({ inputs: [a], outputs: [x], cts: [ct], needed, params }) => {
  const gb = bind1("triangular_solve", [a!, ct!], { ...params, transposeA: !params.transposeA });
  if (!needed[0]) return [null, gb];
  const gm = e.neg(params.left ? matmulOf(gb, swapLast(x!)) : matmulOf(swapLast(x!), gb));
  const ga = params.transposeA ? swapLast(gm) : gm;
  const rank = a!.shape.length;
  const [rows, cols] = [e.iota("int32", a!.shape, rank - 2), e.iota("int32", a!.shape, rank - 1)];
  const kept = e.compare(rows, cols, params.lower ? (params.unitDiagonal ? "GT" : "GE") : params.unitDiagonal ? "LT" : "LE");
  return [where(kept, ga), gb];
};

/** dot_general: each operand's cotangent is a dot_general of the cotangent with the other operand. */
const dotRule: VjpRule<"dot_general"> = ({ inputs: [a, b], cts: [ct], params }) => {
  const { lhsBatch, rhsBatch, lhsContract, rhsContract } = params;
  const nb = lhsBatch.length;
  const free = (x: T, batch: Dims, contract: Dims) => range(x.shape.length).filter((d) => !batch.includes(d) && !contract.includes(d));
  const lhsFree = free(a!, lhsBatch, lhsContract);
  const rhsFree = free(b!, rhsBatch, rhsContract);
  const g = e.convert(ct!, a!.dtype);
  const product = (other: T, otherBatch: Dims, ctContract: Dims, otherContract: Dims, resultDtype: T) => {
    const y = bind1("dot_general", [g, other], {
      lhsBatch: range(nb), rhsBatch: otherBatch, lhsContract: ctContract, rhsContract: otherContract,
      ...(params.dtype ? { dtype: params.dtype } : {}), ...(params.precision ? { precision: params.precision } : {}),
    });
    return e.convert(y, resultDtype.dtype);
  };
  // result layouts: [batch, own free dims, the other's remaining (contracting) dims in its order]
  const place = (y: T, own: T, batch: Dims, ownFree: Dims, ownContract: Dims, otherContract: Dims): T => {
    const otherRemaining = [...otherContract].sort((p, q) => p - q);
    const dimsOfResult = [...batch, ...ownFree, ...otherRemaining.map((d) => ownContract[otherContract.indexOf(d)]!)];
    const perm = range(own.shape.length).map((d) => dimsOfResult.indexOf(d));
    return perm.every((p, i) => p === i) ? y : e.transpose(y, perm);
  };
  const ctRhsFree = range(rhsFree.length).map((k) => nb + lhsFree.length + k);
  const ctLhsFree = range(lhsFree.length).map((k) => nb + k);
  return [
    place(product(b!, rhsBatch, ctRhsFree, rhsFree, a!), a!, lhsBatch, lhsFree, lhsContract, rhsContract),
    place(product(a!, lhsBatch, ctLhsFree, lhsFree, b!), b!, rhsBatch, rhsFree, rhsContract, lhsContract),
  ];
};

/** The cotangent of pad's operand: the padded cotangent with the padding cut away (negative padding restored as zeros). */
function unpad(ct: T, x: Aval, { low, high, interior }: PrimParams["pad"]): T {
  const grow = low.some((l) => l < 0) || high.some((h) => h < 0);
  const t = grow ? bind1("pad", [ct, e.full(0, ct.dtype)], { low: low.map((l) => Math.max(-l, 0)), high: high.map((h) => Math.max(-h, 0)), interior: low.map(() => 0) }) : ct;
  const start = low.map((l) => Math.max(l, 0));
  const strides = interior.map((i) => i + 1);
  const limit = x.shape.map((n, d) => (n === 0 ? start[d]! : start[d]! + (n - 1) * strides[d]! + 1));
  return e.slice(t, start, limit, strides);
}

const powRule = binary<"pow">((a, b, y, ct) => {
  const da = where(cmp(b, zerosLike(b), "NE"), e.mul(ct, e.mul(b, e.pow(a, e.sub(b, scalar(1, b))))));
  const baseZero = e.and(cmp(a, zerosLike(a), "EQ"), cmp(b, zerosLike(b), "GE"));
  const db = e.select(baseZero, zerosLike(b), e.mul(ct, e.mul(y, e.log(a))));
  return [da, db];
});

/** maximum/minimum: the gradient goes to the larger (smaller) input, half to each when they are equal. */
function extremumRule<P extends "max" | "min">(losing: "LT" | "GT"): VjpRule<P> {
  return binary((a, b, _y, ct) => {
    const g = e.select(cmp(a, b, "EQ"), e.div(ct, scalar(2, ct)), ct);
    const other = losing === "LT" ? "GT" : "LT";
    return [e.select(cmp(a, b, losing), zerosLike(g), g), e.select(cmp(a, b, other), zerosLike(g), g)];
  });
}

const trunc = (q: T): T => e.mul(e.sign(q), e.floor(e.abs(q)));

/** PyTorch's sgn of a real x, (0 < x) − (x < 0): sign(x), but +0 at ±0 and at NaN (StableHLO's sign(NaN) is NaN). */
const sgn = (x: T): T => e.select(cmp(e.abs(x), zerosLike(x), "GT"), e.sign(x), zerosLike(x));

const clampRule: VjpRule<"clamp"> = ({ inputs: [lo, x, hi], cts: [ct] }) => {
  const g = ct!;
  return [
    where(e.and(cmp(x!, lo!, "LT"), cmp(lo!, hi!, "LT")), g),
    where(e.and(cmp(x!, lo!, "GE"), cmp(x!, hi!, "LE")), g),
    where(e.or(cmp(x!, hi!, "GT"), cmp(hi!, lo!, "LT")), g),
  ];
};

const sliceRule: VjpRule<"slice"> = ({ inputs: [x], cts: [ct], params: { start, strides } }) => {
  const high = x!.shape.map((n, d) => {
    const count = ct!.shape[d]!;
    return count === 0 ? n - start[d]! : n - (start[d]! + (count - 1) * strides[d]! + 1);
  });
  const low = x!.shape.map((_, d) => (ct!.shape[d] === 0 ? start[d]! : start[d]!));
  const interior = strides.map((s, d) => (ct!.shape[d]! > 1 ? s - 1 : 0));
  return [bind1("pad", [ct!, e.full(0, ct!.dtype)], { low, high, interior })];
};

const concatRule: VjpRule<"concatenate"> = ({ inputs, cts: [ct], params: { dim } }) => {
  let at = 0;
  return inputs.map((x) => {
    const start = x.shape.map((_, d) => (d === dim ? at : 0));
    at += x.shape[dim]!;
    return isFloat(x) ? e.slice(ct!, start, x.shape.map((n, d) => (d === dim ? start[d]! + n : n))) : null;
  });
};

/** argmax/argmin (values, indices, inits): the values' gradient goes to the element whose index was chosen. */
function argRule<P extends "argmax" | "argmin">(): VjpRule<P> {
  return ({ inputs: [x, indices], outputs: [, chosen], cts: [ct], params: { dim } }) => {
    if (ct === null) return [];
    const kept = range(x!.shape.length).filter((d) => d !== dim);
    const hit = cmp(indices!, e.broadcastInDim(chosen!, x!.shape, kept), "EQ");
    return [where(hit, e.broadcastInDim(ct!, x!.shape, kept))];
  };
}

const rules = {
  add: binary((_a, _b, _y, ct) => [ct, ct]),
  sub: binary((_a, _b, _y, ct) => [ct, e.neg(ct)]),
  mul: binary((a, b, _y, ct) => [e.mul(ct, b), e.mul(ct, a)]),
  div: binary((a, b, _y, ct) => [e.div(ct, b), e.neg(e.mul(ct, e.div(e.div(a, b), b)))]),
  rem: binary((a, b, _y, ct) => [ct, e.neg(e.mul(ct, trunc(e.div(a, b))))]),
  pow: powRule,
  max: extremumRule("LT"),
  min: extremumRule("GT"),
  atan2: binary((a, b, _y, ct) => {
    const scale = e.div(ct, e.add(e.mul(a, a), e.mul(b, b)));
    return [e.mul(scale, b), e.neg(e.mul(scale, a))];
  }),
  and: none, or: none, xor: none, shl: none, shr_arith: none, shr_logical: none, not: none,
  neg: unary((_x, _y, ct) => e.neg(ct)),
  abs: unary((x, _y, ct) => e.mul(ct, sgn(x))),
  sign: none,
  exp: unary((_x, y, ct) => e.mul(ct, y)),
  expm1: unary((_x, y, ct) => e.mul(ct, e.add(y, scalar(1, y)))),
  log: unary((x, _y, ct) => e.div(ct, x)),
  log1p: unary((x, _y, ct) => e.div(ct, e.add(x, scalar(1, x)))),
  logistic: unary((_x, y, ct) => e.mul(ct, e.mul(e.sub(scalar(1, y), y), y))),
  tanh: unary((_x, y, ct) => e.mul(ct, e.sub(scalar(1, y), e.mul(y, y)))),
  erf: unary((x, _y, ct) => e.mul(ct, e.mul(scalar(2 / Math.sqrt(Math.PI), x), e.exp(e.neg(e.mul(x, x)))))),
  lgamma: unary((x, _y, ct) => e.mul(ct, e.digamma(x))),
  digamma: unary((x, _y, ct) => e.mul(ct, e.polygamma(scalar(1, x), x))),
  polygamma: binary((n, x, _y, ct) => [null, e.mul(ct, e.polygamma(e.add(n, scalar(1, n)), x))]),
  // ∂/∂q ζ(x, q) = −x ζ(x + 1, q); none for x: an error when x needs one (as in PyTorch)
  zeta: ({ inputs: [x, q], cts: [ct], needed }) => {
    if (needed[0]) throw new ArgumentError("zeta: no gradient with respect to input (PyTorch has none either); detach it");
    return [null, e.mul(ct!, e.neg(e.mul(x!, e.zeta(e.add(x!, scalar(1, x!)), q!))))];
  },
  sqrt: unary((_x, y, ct) => e.div(ct, e.mul(scalar(2, y), y))),
  rsqrt: unary((_x, y, ct) => e.mul(e.mul(scalar(-0.5, y), ct), e.mul(y, e.mul(y, y)))),
  cbrt: unary((_x, y, ct) => e.div(ct, e.mul(scalar(3, y), e.mul(y, y)))),
  sin: unary((x, _y, ct) => e.mul(ct, e.cos(x))),
  cos: unary((x, _y, ct) => e.mul(ct, e.neg(e.sin(x)))),
  tan: unary((_x, y, ct) => e.mul(ct, e.add(scalar(1, y), e.mul(y, y)))),
  floor: none, ceil: none, round_even: none, round_afz: none, is_finite: none, compare: none,
  select: ({ inputs: [p], cts: [ct] }) => [null, where(p!, ct!), e.select(p!, zerosLike(ct!), ct!)],
  clamp: clampRule,
  convert: ({ inputs: [x], cts: [ct] }) => [isFloat(x!) ? e.convert(ct!, x!.dtype) : null],
  bitcast_convert: none,
  constant: none,
  iota: none,
  broadcast_in_dim: ({ inputs: [x], cts: [ct], params: { dims } }) => [unbroadcast(ct!, x!, dims)],
  reshape: ({ inputs: [x], cts: [ct] }) => [e.reshape(ct!, x!.shape)],
  transpose: ({ cts: [ct], params: { perm } }) => [e.transpose(ct!, perm.map((_, k) => perm.indexOf(k)))],
  slice: sliceRule,
  concatenate: concatRule,
  pad: ({ inputs: [x, v], cts: [ct], params }) => {
    const inner = unpad(ct!, x!, params);
    const all = range(ct!.shape.length);
    return [inner, isFloat(v!) ? e.sub(sumOver(ct!, all), sumOver(inner, all)) : null];
  },
  reverse: ({ cts: [ct], params: { dims } }) => [bind1("reverse", [ct!], { dims })],
  dot_general: dotRule,
  reduce_sum: ({ inputs: [x], cts: [ct], params: { dims } }) => [spread(ct!, x!, dims), sumOver(ct!, range(ct!.shape.length))],
  reduce_max: amaxRule(),
  reduce_min: amaxRule(),
  reduce_prod: prodRule,
  reduce_and: none,
  reduce_or: none,
  argmax: argRule(),
  argmin: argRule(),
  triangular_solve: triangularSolveRule,
  ...indexingVjps,
  ...windowVjps,
  ...controlVjps,
} satisfies { [P in Prim]: VjpRule<P> };

/** The VJP rule of a primitive. */
export function vjpOf<P extends Prim>(prim: P): (a: VjpArgs<P>) => readonly Cotangent[] {
  return rules[prim] as unknown as (a: VjpArgs<P>) => readonly Cotangent[];
}
