/**
 * @file VJP rules of the indexing primitives: gather, scatter (every kind), sort, dynamic_slice and
 * dynamic_update_slice. Index inputs never get a cotangent; neither does a non-floating operand.
 *
 * Out-of-range starts: gather, dynamic_slice and dynamic_update_slice clamp a start so that its
 * window fits, and their rules send the gradient to where the forward actually read or wrote.
 * Scatter skips a whole update window that does not fit; such an update gets a zero cotangent.
 */
import { dtypes } from "../dtype.js";
import { ArgumentError } from "../runtime/errors.js";
import { bind1, type Tracer } from "../trace/tracer.js";
import * as e from "./emit.js";
import type { ScatterKind, ScatterParams } from "./prims.js";
import type { Cotangent, VjpRule } from "./vjp_types.js";

type T = Tracer;
type Dims = readonly number[];

const none = {} as Record<string, never>;
const isFloat = (t: T): boolean => dtypes[t.dtype].kind === "float";
const zerosLike = (t: T): T => e.full(0, t.dtype, t.shape);
const onesLike = (t: T): T => e.full(1, t.dtype, t.shape);
const indicator = (p: T, like: T): T => e.convert(p, like.dtype);
const isSorted = (dims: Dims): boolean => dims.every((d, i) => i === 0 || dims[i - 1]! < d);


// --- index vectors ------------------------------------------------------------------------------------

/** `bounds[k]` (clipped to the index dtype's range) at component k of every index vector, in `indices`' shape. */
function componentBounds(indices: T, indexVectorDim: number, bounds: Dims): T {
  const top = Number(e.reduceInit("min", indices.dtype)); // the dtype's largest value
  const values = bounds.map((b) => Math.min(b, top));
  if (indexVectorDim === indices.shape.length) return e.full(values[0]!, indices.dtype, indices.shape);
  const vector = bind1("constant", [], { value: values, dtype: indices.dtype, shape: [values.length] });
  return e.broadcastInDim(vector, indices.shape, [indexVectorDim]);
}

/** Every component k of the index vectors clamped into [0, bounds[k]], as gather clamps its starts. */
function clampStarts(indices: T, indexVectorDim: number, bounds: Dims): T {
  return bind1("clamp", [zerosLike(indices), indices, componentBounds(indices, indexVectorDim, bounds)], none);
}

/** Per index vector (the indices' shape without index_vector_dim): whether every component k lies in [0, bounds[k]]. */
function startsInRange(indices: T, indexVectorDim: number, bounds: Dims): T {
  const low = e.compare(indices, zerosLike(indices), "GE");
  const high = e.compare(indices, componentBounds(indices, indexVectorDim, bounds), "LE");
  const ok = e.and(low, high);
  return indexVectorDim === indices.shape.length ? ok : e.reduce("and", ok, [indexVectorDim]);
}

// --- gather -------------------------------------------------------------------------------------------

/** Scatter-adds the cotangent into zeros where the forward read, with the starts clamped as gather clamps them. */
const gather: VjpRule<"gather"> = ({ inputs: [x, indices], cts: [ct], params: p }) => {
  if (!ct || !isFloat(x!)) return [null, null];
  const clamped = clampStarts(indices!, p.indexVectorDim, p.startIndexMap.map((d) => x!.shape[d]! - p.sliceSizes[d]!));
  const scatterParams: ScatterParams = {
    kind: "add",
    // gather's shape rule places the window dims at the offset dims in sorted order
    updateWindowDims: [...p.offsetDims].sort((a, b) => a - b),
    insertedWindowDims: p.collapsedSliceDims,
    scatterDimsToOperandDims: p.startIndexMap,
    indexVectorDim: p.indexVectorDim,
    inputBatchingDims: p.operandBatchingDims ?? [],
    scatterIndicesBatchingDims: p.startIndicesBatchingDims ?? [],
  };
  return [e.scatter(zerosLike(x!), clamped, ct, scatterParams), null];
};

// --- scatter ------------------------------------------------------------------------------------------

/** Where each update element of a scatter lands: reads there, and which updates the forward skipped. */
interface UpdateSites {
  /** `t` (operand-shaped) read at each update element's target, in the updates' shape; unmasked. */
  read(t: T): T;
  /** bool, updates' shape: the update's window fits (the forward applied it). */
  applied: T;
  /** A scatter of `updates` into `into` at the same targets. */
  scatter(into: T, updates: T, kind: ScatterKind): T;
}

function updateSites(x: T, indices: T, updates: T, p: ScatterParams): UpdateSites {
  if (!isSorted(p.updateWindowDims)) {
    throw new ArgumentError(`scatter VJP: update_window_dims [${p.updateWindowDims.join(", ")}] must be sorted, as StableHLO requires`);
  }
  const inserted = p.insertedWindowDims;
  const batching = p.inputBatchingDims ?? [];
  const windowDims = x.shape.map((_, d) => d).filter((d) => !inserted.includes(d) && !batching.includes(d));
  const sliceSizes = x.shape.map((_, d) => {
    const k = windowDims.indexOf(d);
    return k < 0 ? 1 : updates.shape[p.updateWindowDims[k]!]!;
  });
  const bounds = p.scatterDimsToOperandDims.map((d) => x.shape[d]! - sliceSizes[d]!);
  const updateScatterDims = updates.shape.map((_, d) => d).filter((d) => !p.updateWindowDims.includes(d));
  const fits = startsInRange(indices, p.indexVectorDim, bounds);
  // an operand smaller than one update's window (an empty one) took no update: there is nothing to read
  const windowFits = sliceSizes.every((s, d) => s <= x.shape[d]!);
  return {
    read: (t) => !windowFits ? e.full(0, t.dtype, updates.shape) : e.gather(t, indices, {
      offsetDims: p.updateWindowDims,
      collapsedSliceDims: inserted,
      startIndexMap: p.scatterDimsToOperandDims,
      indexVectorDim: p.indexVectorDim,
      sliceSizes,
      operandBatchingDims: batching,
      startIndicesBatchingDims: p.scatterIndicesBatchingDims ?? [],
    }),
    applied: e.broadcastInDim(fits, updates.shape, updateScatterDims),
    scatter: (into, values, kind) => e.scatter(into, indices, values, { ...p, kind }),
  };
}

type ScatterCts = [operand: Cotangent, updates: Cotangent];
type ScatterGrad = (ct: T, x: T, u: T, y: T, sites: UpdateSites) => ScatterCts;

const masked = (v: T, sites: UpdateSites): T => e.select(sites.applied, v, zerosLike(v));

const scatterGrads: Record<ScatterKind, ScatterGrad> = {
  // Every duplicate update gets the cotangent of the position it targets, as PyTorch's scatter gives it.
  replace: (ct, _x, u, _y, sites) => [sites.scatter(ct, zerosLike(u), "replace"), masked(sites.read(ct), sites)],
  add: (ct, _x, _u, _y, sites) => [ct, masked(sites.read(ct), sites)],
  mul: scatterMulGrads,
  max: scatterExtremumGrads,
  min: scatterExtremumGrads,
};

/**
 * y = x · Π u over the updates landing there. ∂y/∂x is that product; ∂y/∂u_j is x times the product
 * of the other updates there, computed exactly with zeros: with z zeros among the updates at a
 * target and P the product of its nonzero ones, a nonzero u_j gets x·P/u_j if z = 0 (else 0), and a
 * zero u_j gets x·P if z = 1 (else 0).
 */
function scatterMulGrads(ct: T, x: T, u: T, _y: T, sites: UpdateSites): ScatterCts {
  const isZero = e.compare(u, zerosLike(u), "EQ");
  const nonzeroU = e.select(isZero, onesLike(u), u);
  const product = sites.scatter(onesLike(x), u, "mul");
  const nonzeroProduct = sites.scatter(onesLike(x), nonzeroU, "mul");
  const zeroCount = sites.scatter(zerosLike(x), indicator(isZero, u), "add");
  const others = e.div(sites.read(e.mul(e.mul(ct, x), nonzeroProduct)), nonzeroU);
  const onlyThisZero = e.compare(sites.read(zeroCount), indicator(isZero, u), "EQ");
  return [e.mul(ct, product), masked(e.select(onlyThisZero, others, zerosLike(u)), sites)];
}

/**
 * y = max (or min) of x and the updates landing there. The cotangent is split evenly among every
 * contributor equal to y (x counts too), as PyTorch's scatter_reduce amax/amin does. A NaN result
 * has no contributor equal to it and sends no gradient anywhere.
 */
function scatterExtremumGrads(ct: T, x: T, u: T, y: T, sites: UpdateSites): ScatterCts {
  const xWins = indicator(e.compare(x, y, "EQ"), x);
  const uWins = indicator(e.and(e.compare(u, sites.read(y), "EQ"), sites.applied), u);
  const count = e.max(sites.scatter(xWins, uWins, "add"), onesLike(x));
  const share = e.div(ct, count);
  return [e.mul(share, xWins), e.mul(sites.read(share), uWins)];
}

const scatter: VjpRule<"scatter"> = ({ inputs: [x, indices, updates], outputs: [y], cts: [ct], params: p }) => {
  if (!ct || !isFloat(x!)) return [null, null, null];
  const [operandCt, updatesCt] = scatterGrads[p.kind](ct, x!, updates!, y!, updateSites(x!, indices!, updates!, p));
  return [operandCt, null, updatesCt];
};

// --- sort ---------------------------------------------------------------------------------------------

/**
 * Sorting the keys again with an iota as the second operand gives, at each sorted position, the
 * position it came from (the same stable comparator on the same keys); each cotangent is scattered back there.
 */
const sort: VjpRule<"sort"> = ({ inputs, cts, params: { dim, descending } }) => {
  const wanted = inputs.map((x, i) => isFloat(x) && cts[i] != null);
  if (!wanted.includes(true)) return inputs.map(() => null);
  const keys = inputs[0]!;
  if (keys.numel() === 0) return inputs.map((x, i) => (wanted[i] ? zerosLike(x) : null));
  const origins = e.sortAlong([keys, e.iota("int64", keys.shape, dim)], dim, descending)[1]!;
  return inputs.map((x, i) => (wanted[i] ? e.scatterAlong(zerosLike(x), dim, origins, cts[i]!, "add") : null));
};

// --- dynamic slices -----------------------------------------------------------------------------------

/** The cotangent written into zeros at the slice's starts, which dynamic_update_slice clamps as dynamic_slice does. */
const dynamicSliceVjp: VjpRule<"dynamic_slice"> = ({ inputs: [x, ...starts], cts: [ct] }) => {
  if (!ct || !isFloat(x!)) return [];
  return [e.dynamicUpdateSlice(zerosLike(x!), ct, starts)];
};

const dynamicUpdateSliceVjp: VjpRule<"dynamic_update_slice"> = ({ inputs: [x, update, ...starts], cts: [ct] }) => {
  if (!ct || !isFloat(x!)) return [];
  return [e.dynamicUpdateSlice(ct, zerosLike(update!), starts), e.dynamicSlice(ct, starts, update!.shape)];
};

export const indexingVjps = {
  gather,
  scatter,
  sort,
  dynamic_slice: dynamicSliceVjp,
  dynamic_update_slice: dynamicUpdateSliceVjp,
} satisfies { [P in "gather" | "scatter" | "sort" | "dynamic_slice" | "dynamic_update_slice"]: VjpRule<P> };
