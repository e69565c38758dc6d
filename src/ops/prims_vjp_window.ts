/**
 * @file VJP rules of the window primitives (src/ops/prims_window.ts). Window sums transpose into
 * window sums over the cotangent (strides and base dilation swap places); max/min and the arg
 * reductions send each window's cotangent to the element it selected, found by rerunning the
 * arg reduction with flat positions as indices; convolution transposes into two convolutions.
 * Negative padding, which these transposes produce, means cropping: our CPU plugin, XLA and libtpu
 * accept it in pad, reduce_window and convolution.
 */
import { dtypes } from "../dtype.js";
import { ArgumentError } from "../runtime/errors.js";
import { bind, bind1, type Tracer } from "../trace/tracer.js";
import * as e from "./emit.js";
import { reverse } from "./nn/emitters.js";
import type { ConvParams, Padding, WindowParams, WindowPrimParams } from "./prims_window.js";
import type { Cotangent, VjpArgs, VjpRule } from "./vjp_types.js";

type T = Tracer;
type Dims = readonly number[];
type ArgKind = "argmax" | "argmin" | "cumargmax" | "cumargmin";

const isFloat = (x: T): boolean => dtypes[x.dtype].kind === "float";
const isEmpty = (...xs: T[]): boolean => xs.some((x) => x.shape.includes(0));
const zerosLike = (x: T): T => e.full(0, x.dtype, x.shape);
const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);
/** The extent of `size` points `dilation` apart (0 for none). */
const dilated = (size: number, dilation: number): number => (size === 0 ? 0 : (size - 1) * dilation + 1);

// --- window sums and their transpose -------------------------------------------------------------

/**
 * The transpose of a window reduction of an operand of `shape` (sum, or logaddexp in log space):
 * each operand element combines the cotangents of every window that covers it. The cotangent is
 * dilated by the forward strides and padded so that every window reaching an element lies within
 * reach; a window of the forward window's size then slides by the forward base dilation, skipping
 * its holes. Padding and holes hold the combination's identity.
 */
function transposeWindow(kind: "sum" | "logaddexp", ct: T, shape: Dims, p: WindowParams): T {
  const identity = kind === "sum" ? 0 : -Infinity;
  if (isEmpty(ct) || shape.includes(0)) return e.full(identity, ct.dtype, shape);
  const padding: Padding = shape.map((n, d) => {
    const span = dilated(p.window[d]!, p.windowDilation[d]!);
    const lo = p.padding[d]![0];
    return [span - 1 - lo, dilated(n, p.baseDilation[d]!) + lo - dilated(ct.shape[d]!, p.strides[d]!)] as const;
  });
  const q: WindowParams = { window: p.window, strides: p.baseDilation, baseDilation: p.strides, windowDilation: p.windowDilation, padding };
  return kind === "sum" ? e.reduceWindow("sum", ct, q) : e.reduceWindowLogAddExp(ct, q);
}

function windowSumVjp({ inputs: [x], cts: [ct], params }: VjpArgs<"reduce_window_sum">): Cotangent[] {
  return [ct && isFloat(x!) ? transposeWindow("sum", ct, x!.shape, params) : null, null];
}

/**
 * grad_i = Σ_{w ∋ i} ct_w · Π_{j ∈ w, j ≠ i} x_j, exact where x has zeros: for a nonzero x_i the
 * product over the others is the window's product / x_i when the window holds no zero (else 0);
 * for x_i = 0 it is the product of the window's nonzero elements when x_i is its only zero (else 0).
 */
function windowProdVjp({ inputs: [x, init], cts: [ct], params }: VjpArgs<"reduce_window_prod">): Cotangent[] {
  if (!ct || !isFloat(x!)) return [null, null];
  if (isEmpty(x!, ct)) return [zerosLike(x!), null];
  const isZero = e.compare(x!, zerosLike(x!), "EQ");
  const nonzero = e.select(isZero, e.full(1, x!.dtype, x!.shape), x!);
  const product = bind1("reduce_window_prod", [nonzero, init!], params);
  const zeroCount = e.reduceWindow("sum", e.convert(isZero, "int32"), params);
  const whereCount = (k: number): T =>
    e.select(e.compare(zeroCount, e.full(k, "int32", zeroCount.shape), "EQ"), e.mul(ct, product), zerosLike(ct));
  const forNonzero = e.div(transposeWindow("sum", whereCount(0), x!.shape, params), nonzero);
  const forZero = transposeWindow("sum", whereCount(1), x!.shape, params);
  return [e.select(isZero, forZero, forNonzero), null];
}

/**
 * grad_i = Σ_{w ∋ i} ct_w · exp(x_i − y_w) = exp(x_i + log Σ_{w ∋ i} ct_w · exp(−y_w)), with the
 * inner sum done in log space (logaddexp windows), separately for ct's positive and negative parts.
 * A window of −∞ only (y_w = −∞) passes no gradient.
 */
function windowLogAddExpVjp({ inputs: [x], outputs: [y], cts: [ct], params }: VjpArgs<"reduce_window_logaddexp">): Cotangent[] {
  if (!ct) return [null, null];
  if (isEmpty(x!, ct)) return [zerosLike(x!), null];
  const minusInf = e.full(-Infinity, y!.dtype, y!.shape);
  const dead = e.compare(y!, minusInf, "EQ");
  const logPart = (c: T): T => {
    const perWindow = e.select(dead, minusInf, e.sub(e.log(c), y!));
    return e.exp(e.add(x!, transposeWindow("logaddexp", perWindow, x!.shape, params)));
  };
  const zero = zerosLike(ct);
  return [e.sub(logPart(e.max(ct, zero)), logPart(e.neg(e.min(ct, zero)))), null];
}

// --- selections: max/min, the arg reductions, select_and_scatter ------------------------------------

/**
 * Which element each window of `x` selects, as the arg reduction `kind` (with value init `init`)
 * selects it when an element's index is its flat position: ties go to the first position, or the
 * last for the cumulative kinds. (The API ops' indices grow with the position, so this is the
 * forward's own choice.) Positions count x's n elements (row-major) from 1; a window that selects
 * none (padding, or the init won) gets 0 or n + 1, whichever loses every tie to an element.
 */
function selectionOf(kind: ArgKind, x: T, init: T, p: WindowParams): T {
  const n = x.numel();
  const none = e.full(kind.startsWith("cum") ? 0n : BigInt(n + 1), "int64");
  const positions = e.reshape(e.slice(e.iota("int64", [n + 1], 0), [1], [n + 1]), x.shape);
  return bind(`reduce_window_${kind}`, [x, positions, init, none], p)[1]!;
}

const flat = (t: T): T => e.reshape(t, [t.numel()]);

/** Each window's cotangent added at the element it selected; zero elsewhere. */
function addAtSelected(ct: T, x: T, at: T): T {
  const n = x.numel();
  const slots = e.scatterAlong(e.full(0, ct.dtype, [n + 2]), 0, flat(at), flat(ct), "add");
  return e.reshape(e.slice(slots, [1], [n + 1]), x.shape);
}

/** The cotangent of `x` (shaped like `x`) read at each window's selected element; zero where none. */
function readAtSelected(ct: T, at: T): T {
  const slots = bind1("pad", [flat(ct), e.full(0, ct.dtype)], { low: [1], high: [1], interior: [0] });
  return e.reshape(e.gatherAlong(slots, flat(at), 0), at.shape);
}

/** A cotangent for `x` routed to the selected elements (null where there is none to route). */
function routed(kind: ArgKind, x: T, init: T, ct: Cotangent, p: WindowParams): Cotangent {
  if (!ct || !isFloat(x)) return null;
  if (isEmpty(x, ct)) return zerosLike(x);
  return addAtSelected(ct, x, selectionOf(kind, x, init, p));
}

/** reduce_window_max/min: the gradient goes to each window's first maximum (minimum), as in PyTorch's pools. */
const extremumVjp =
  <P extends "reduce_window_max" | "reduce_window_min">(kind: "argmax" | "argmin"): VjpRule<P> =>
  ({ inputs: [x, init], cts: [ct], params }) => [routed(kind, x!, init!, ct ?? null, params as WindowParams), null];

/** The arg reductions: values' cotangent to the selected elements; indices and inits get none. */
const argVjp =
  <P extends `reduce_window_${ArgKind}`>(kind: ArgKind): VjpRule<P> =>
  ({ inputs: [x, , init], cts: [ct], params }) => [routed(kind, x!, init!, ct ?? null, params as WindowParams), null, null, null];

/**
 * select_and_scatter adds each source value at its window's selected element on top of init: the
 * source's cotangent is the output's cotangent read there, init's is the sum of the output's
 * cotangent, and the operand (which only picks positions) gets none.
 */
function selectAndScatterVjp({ inputs: [x, source], cts: [ct], params }: VjpArgs<"select_and_scatter">): Cotangent[] {
  if (!ct || !isFloat(x!)) return [null, null, null];
  const initCt = e.reduce("sum", ct, range(ct.shape.length));
  if (isEmpty(x!, source!)) return [null, zerosLike(source!), initCt];
  const max = params.select === "GE";
  const window = e.windowOf(x!, { window: params.window, strides: params.strides, padding: params.padding });
  const init = e.full(e.reduceInit(max ? "max" : "min", x!.dtype), x!.dtype);
  return [null, readAtSelected(ct, selectionOf(max ? "argmax" : "argmin", x!, init, window)), initCt];
}

// --- convolution ---------------------------------------------------------------------------------

const withPrecision = (q: Omit<ConvParams, "precision">, p: ConvParams): ConvParams =>
  p.precision === undefined ? q : { ...q, precision: p.precision };

/** Swaps the first two dimensions ([N, C, ...] ↔ [C, N, ...]). */
const swapFirstTwo = (x: T): T => e.transpose(x, [1, 0, ...range(x.shape.length).slice(2)]);

/**
 * The lhs cotangent: the cotangent convolved with the spatially reversed kernel whose features are
 * transposed within each group ([O, C/K, k…] → [K·C/K, O/K, k…] for K groups). The cotangent is
 * dilated by the forward strides, and windows step by the forward lhs dilation so that they land on
 * the lhs's own elements only. With batch groups the K groups come out along features and go back
 * to the batch.
 */
function convLhsCt(ct: T, w: T, lhsShape: Dims, p: ConvParams): T {
  const spatial = range(lhsShape.length - 2);
  const kernel = w.shape.slice(2);
  const groups = p.featureGroups * p.batchGroups;
  const [out, perGroup] = [w.shape[0]!, w.shape[1]!];
  const grouped = e.reshape(w, [groups, out / groups, perGroup, ...kernel]);
  const swapped = e.transpose(grouped, [0, 2, 1, ...spatial.map((i) => 3 + i)]);
  const flipped = reverse(e.reshape(swapped, [groups * perGroup, out / groups, ...kernel]), spatial.map((i) => 2 + i));
  const padding = spatial.map((i) => {
    const before = dilated(kernel[i]!, p.rhsDilation[i]!) - 1 - p.padding[i]![0];
    const after = dilated(lhsShape[2 + i]!, p.lhsDilation[i]!) + p.padding[i]![0] - dilated(ct.shape[2 + i]!, p.strides[i]!);
    return [before, after] as const;
  });
  const q = { strides: p.lhsDilation, padding, lhsDilation: p.strides, rhsDilation: p.rhsDilation, featureGroups: groups, batchGroups: 1 };
  const dx = bind1("convolution", [ct, flipped], withPrecision(q, p));
  if (p.batchGroups === 1) return dx;
  const [batch, channels] = [lhsShape[0]!, lhsShape[1]!];
  const split = e.reshape(dx, [batch / p.batchGroups, p.batchGroups, channels, ...lhsShape.slice(2)]);
  return e.reshape(swapFirstTwo(split), lhsShape);
}

/**
 * The rhs cotangent: the lhs ([C, N, ...] as batch × features) convolved with the cotangent
 * ([O, N/B, ...] as the kernel), summing over the batch; windows step by the forward rhs dilation
 * and the cotangent is dilated by the forward strides, so the result has the kernel's size.
 * Feature groups become batch groups and batch groups feature groups.
 */
function convRhsCt(x: T, ct: T, rhsShape: Dims, p: ConvParams): T {
  const padding = range(rhsShape.length - 2).map((i) => {
    const lo = p.padding[i]![0];
    const reach = dilated(rhsShape[2 + i]!, p.rhsDilation[i]!) - 1 + dilated(ct.shape[2 + i]!, p.strides[i]!);
    return [lo, reach - dilated(x.shape[2 + i]!, p.lhsDilation[i]!) - lo] as const;
  });
  const q = { strides: p.rhsDilation, padding, lhsDilation: p.lhsDilation, rhsDilation: p.strides, featureGroups: p.batchGroups, batchGroups: p.featureGroups };
  return swapFirstTwo(bind1("convolution", [swapFirstTwo(x), swapFirstTwo(ct)], withPrecision(q, p)));
}

function convolutionVjp({ inputs: [x, w], cts: [ct], params }: VjpArgs<"convolution">): Cotangent[] {
  if (!ct || !isFloat(x!)) return [null, null];
  if (params.featureGroups > 1 && params.batchGroups > 1) {
    throw new ArgumentError(
      `the gradient of a convolution with both feature_group_count ${params.featureGroups} and batch_group_count ${params.batchGroups} above 1 is not supported`,
    );
  }
  if (isEmpty(x!, w!, ct)) return [zerosLike(x!), zerosLike(w!)];
  return [convLhsCt(ct, w!, x!.shape, params), convRhsCt(x!, ct, w!.shape, params)];
}

export const windowVjps = {
  reduce_window_sum: windowSumVjp,
  reduce_window_max: extremumVjp("argmax"),
  reduce_window_min: extremumVjp("argmin"),
  reduce_window_prod: windowProdVjp,
  reduce_window_logaddexp: windowLogAddExpVjp,
  reduce_window_cumargmax: argVjp("cumargmax"),
  reduce_window_cumargmin: argVjp("cumargmin"),
  reduce_window_argmax: argVjp("argmax"),
  reduce_window_argmin: argVjp("argmin"),
  convolution: convolutionVjp,
  select_and_scatter: selectAndScatterVjp,
} satisfies { [P in keyof WindowPrimParams]: VjpRule<P> };
