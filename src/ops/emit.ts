/**
 * @file Typed one-line wrappers over `bind` for API op bodies: each emits one primitive on tracers.
 */
import { type DType, dtypes, opmath } from "../dtype.js";
import { productPrecision } from "../matmul_precision.js";
import { bind, bind1, type Tracer } from "../trace/tracer.js";
import type { CompareDirection, GatherParams, ScatterKind, ScatterParams } from "./prims.js";
import type { ConvParams, WindowParams, WindowPrimParams } from "./prims_window.js";

type T = Tracer;
type Dims = readonly number[];
const none = {} as Record<string, never>;

export const add = (a: T, b: T): T => bind1("add", [a, b], none);
export const sub = (a: T, b: T): T => bind1("sub", [a, b], none);
export const mul = (a: T, b: T): T => bind1("mul", [a, b], none);
export const div = (a: T, b: T): T => bind1("div", [a, b], none);
export const rem = (a: T, b: T): T => bind1("rem", [a, b], none);
export const pow = (a: T, b: T): T => bind1("pow", [a, b], none);
export const max = (a: T, b: T): T => bind1("max", [a, b], none);
export const min = (a: T, b: T): T => bind1("min", [a, b], none);
export const and = (a: T, b: T): T => bind1("and", [a, b], none);
export const or = (a: T, b: T): T => bind1("or", [a, b], none);
export const not = (a: T): T => bind1("not", [a], none);
export const neg = (a: T): T => bind1("neg", [a], none);
export const abs = (a: T): T => bind1("abs", [a], none);
export const sign = (a: T): T => bind1("sign", [a], none);
export const exp = (a: T): T => bind1("exp", [a], none);
export const log = (a: T): T => bind1("log", [a], none);
export const sqrt = (a: T): T => bind1("sqrt", [a], none);
export const sin = (a: T): T => bind1("sin", [a], none);
export const cos = (a: T): T => bind1("cos", [a], none);
export const tanh = (a: T): T => bind1("tanh", [a], none);
export const logistic = (a: T): T => bind1("logistic", [a], none);
export const erf = (a: T): T => bind1("erf", [a], none);
export const lgamma = (a: T): T => bind1("lgamma", [a], none);
export const digamma = (a: T): T => bind1("digamma", [a], none);
/** ψ⁽ⁿ⁾(x), the order n a float tensor of x's shape and dtype. */
export const polygamma = (n: T, x: T): T => bind1("polygamma", [n, x], none);
/** The Hurwitz zeta function ζ(x, q). */
export const zeta = (x: T, q: T): T => bind1("zeta", [x, q], none);
export const floor = (a: T): T => bind1("floor", [a], none);
export const ceil = (a: T): T => bind1("ceil", [a], none);
/** Rounds half to even (floats). */
export const roundEven = (a: T): T => bind1("round_even", [a], none);
export const isFinite = (a: T): T => bind1("is_finite", [a], none);
export const compare = (a: T, b: T, direction: CompareDirection): T => bind1("compare", [a, b], { direction });
export const select = (p: T, a: T, b: T): T => bind1("select", [p, a, b], none);
/** x clamped to [lo, hi] (operands of one shape and dtype; NaN in any of them gives NaN; lo > hi gives hi). */
export const clamp = (lo: T, x: T, hi: T): T => bind1("clamp", [lo, x, hi], none);
export const convert = (a: T, dtype: DType): T => (a.dtype === dtype ? a : bind1("convert", [a], { dtype }));
export const reshape = (a: T, shape: Dims): T => bind1("reshape", [a], { shape });
export const transpose = (a: T, perm: Dims): T => bind1("transpose", [a], { perm });
export const broadcastInDim = (a: T, shape: Dims, dims: Dims): T => bind1("broadcast_in_dim", [a], { shape, dims });
export const concatenate = (xs: readonly T[], dim: number): T => bind1("concatenate", xs, { dim });
/** The `sizes` block of `x` starting at the int scalar `starts` (clamped to fit, as StableHLO does). */
export const dynamicSlice = (x: T, starts: readonly T[], sizes: Dims): T => bind1("dynamic_slice", [x, ...starts], { sizes });
/** `x` with `update` written at the int scalar `starts` (clamped to fit). */
export const dynamicUpdateSlice = (x: T, update: T, starts: readonly T[]): T => bind1("dynamic_update_slice", [x, update, ...starts], none);
export const iota = (dtype: DType, shape: Dims, dim: number): T => bind1("iota", [], { dtype, shape, dim });

/** How a product (dot_general, convolution) is computed; see src/matmul_precision.ts. */
export interface ProductOptions {
  /** Return float16/bfloat16 products in float32, their accumulator, instead of rounding them to the operands' dtype. */
  wide?: boolean;
  /** Full float32 precision whatever torch.setFloat32MatmulPrecision says (for products that are not matmuls in PyTorch). */
  exact?: boolean;
}

const precisionOf = (d: DType, o: ProductOptions) => {
  const precision = productPrecision(d, o.exact);
  return precision === undefined ? {} : { precision };
};

/** dot_general with PyTorch's accumulation: half operands give a float32 dot, rounded once unless `wide`. */
export function dotGeneral(a: T, b: T, lhsBatch: Dims, rhsBatch: Dims, lhsContract: Dims, rhsContract: Dims, o: ProductOptions = {}): T {
  const acc = opmath(a.dtype); // half products accumulate in float32, as PyTorch's do on CPU and GPU
  const wider = acc === a.dtype ? {} : { dtype: acc };
  const y = bind1("dot_general", [a, b], { lhsBatch, rhsBatch, lhsContract, rhsContract, ...wider, ...precisionOf(a.dtype, o) });
  return o.wide ? y : convert(y, a.dtype);
}

/**
 * `x` itself with a zero gradient: a bit-for-bit round trip through an integer type (bitcast_convert
 * has no VJP), marked so that an input whose only path to a result runs through it still gets a
 * gradient, of zeros. For PyTorch's gradient conventions that the calculus of a composition does not
 * give: every use is in docs/autograd.md ("Where the gradient is not the composition's").
 */
export const stopGradient = (x: T): T => roundTripBits(x, true);

/**
 * `x` itself carrying no gradient at all: inside torch.compile, a value made by detach() or under
 * noGrad. An input whose only path to a result runs through it gets none (null), as in PyTorch.
 */
export const detached = (x: T): T => roundTripBits(x, false);

function roundTripBits(x: T, zeroGradient: boolean): T {
  if (dtypes[x.dtype].kind !== "float") return x;
  const bits = ({ 2: "int16", 4: "int32", 8: "int64" } as const)[dtypes[x.dtype].itemSize as 2 | 4 | 8];
  const mark = zeroGradient ? { zeroGradient } : {};
  return bind1("bitcast_convert", [bind1("bitcast_convert", [x], { dtype: bits, ...mark })], { dtype: x.dtype, ...mark });
}

/** A constant filled with one value. */
export const full = (value: number | bigint | boolean, dtype: DType, shape: Dims = []): T =>
  bind1("constant", [], { value, dtype, shape });

/** `x` broadcast to `shape` (trailing dimensions aligned; size-1 dimensions stretched). */
export function broadcastTo(x: T, shape: Dims): T {
  if (x.shape.length === shape.length && x.shape.every((d, i) => d === shape[i])) return x;
  const offset = shape.length - x.shape.length;
  return broadcastInDim(x, shape, x.shape.map((_, i) => i + offset));
}

export type ReduceKind = "sum" | "max" | "min" | "prod" | "and" | "or";

/** The identity of a reduction in `dtype` (−inf for max over floats, the type's minimum for integers, …). */
export function reduceInit(kind: ReduceKind, dtype: DType): number | bigint | boolean {
  const info = dtypes[dtype];
  if (kind === "sum" || kind === "or") return dtype === "bool" ? false : 0;
  if (kind === "prod" || kind === "and") return dtype === "bool" ? true : 1;
  const high = kind === "min";
  if (info.kind === "float") return high ? Infinity : -Infinity;
  if (info.kind === "bool") return high;
  const bits = BigInt(info.itemSize * 8);
  const lo = info.kind === "int" ? -(1n << (bits - 1n)) : 0n;
  const hi = info.kind === "int" ? (1n << (bits - 1n)) - 1n : (1n << bits) - 1n;
  const v = high ? hi : lo;
  return info.bigint ? v : Number(v);
}

/** Reduces `x` over `dims` (no keepdim). */
export function reduce(kind: ReduceKind, x: T, dims: Dims, nanSplit = false): T {
  const init = full(reduceInit(kind, x.dtype), x.dtype);
  return bind1(`reduce_${kind}`, [x, init], nanSplit ? { dims, nanSplit } : { dims });
}

/** Values and int64 indices of the maximum (or minimum) along `dim`; NaN counts as the largest, ties go to the first. */
export function argReduce(kind: "argmax" | "argmin", x: T, dim: number): [T, T] {
  const indices = iota("int64", x.shape, dim);
  const init = full(reduceInit(kind === "argmax" ? "max" : "min", x.dtype), x.dtype);
  const [values, idx] = bind(kind, [x, indices, init, full(0, "int64")], { dim });
  return [values!, idx!];
}

// --- gather, scatter, sort ----------------------------------------------------------------------------

export const gather = (x: T, indices: T, p: GatherParams): T => bind1("gather", [x, indices], p);
export const scatter = (x: T, indices: T, updates: T, p: ScatterParams): T => bind1("scatter", [x, indices, updates], p);
export const slice = (x: T, start: Dims, limit: Dims, strides: Dims = start.map(() => 1)): T =>
  bind1("slice", [x], { start, limit, strides });

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

/** Full index vectors `[...index.shape, rank]` (int64): `index` at `dim`, each position's own coordinate elsewhere. */
function indexVectors(index: T, dim: number, rank: number): T {
  const parts = range(rank).map((d) => reshape(d === dim ? convert(index, "int64") : iota("int64", index.shape, d), [...index.shape, 1]));
  return concatenate(parts, index.shape.length);
}

/**
 * torch.gather: out[i][j] = x[index[i][j]][j] (dim 0) etc.; `index` has x's rank. Out-of-range indices
 * clamp. The dims other than `dim` are batching dims of x and index (so no coordinates are built); as
 * they must have one size, x is first cut to index's extent there.
 */
export function gatherAlong(x: T, index: T, dim: number): T {
  if (index.shape.includes(0) || x.shape.includes(0)) return full(0, x.dtype, index.shape); // nothing to read (the API rejects reads from empty dims)
  const rank = x.shape.length;
  const others = range(rank).filter((d) => d !== dim);
  const cut = others.some((d) => x.shape[d] !== index.shape[d]) ? slice(x, x.shape.map(() => 0), x.shape.map((s, d) => (d === dim ? s : index.shape[d]!))) : x;
  return gather(cut, reshape(convert(index, "int64"), [...index.shape, 1]), {
    offsetDims: [], collapsedSliceDims: [dim], startIndexMap: [dim], indexVectorDim: rank, sliceSizes: x.shape.map(() => 1),
    operandBatchingDims: others, startIndicesBatchingDims: others,
  });
}

/** torch.index_select: the slices of x at the 1-d `idx` along `dim`. Out-of-range indices clamp. */
export function indexSelect(x: T, idx: T, dim: number): T {
  const rank = x.shape.length;
  const shape = x.shape.map((s, d) => (d === dim ? (idx.shape[0] ?? 1) : s));
  if (shape.includes(0)) return full(0, x.dtype, shape);
  return gather(x, reshape(idx, [idx.shape[0] ?? 1, 1]), {
    offsetDims: range(rank).filter((d) => d !== dim),
    collapsedSliceDims: [dim],
    startIndexMap: [dim],
    indexVectorDim: 1,
    sliceSizes: x.shape.map((s, d) => (d === dim ? 1 : s)),
  });
}

/**
 * torch.index_add / index_copy: x with slice k of `updates` (x's shape with `dim` of idx's length)
 * combined (by `mode`) into the slice idx[k] along `dim`, one window per index. Out-of-range indices are skipped.
 */
export function indexScatter(x: T, dim: number, idx: T, updates: T, mode: ScatterKind): T {
  const n = idx.shape[0] ?? 1;
  return scatter(x, reshape(idx, [n, 1]), updates, {
    kind: mode,
    updateWindowDims: range(x.shape.length).filter((d) => d !== dim),
    insertedWindowDims: [dim],
    scatterDimsToOperandDims: [dim],
    indexVectorDim: 1,
  });
}

/**
 * torch.scatter family: x with src[i][j] combined (by `mode`) into x[index[i][j]][j] (dim 0) etc.;
 * `src` is cut to index's shape. Out-of-range indices are skipped.
 */
export function scatterAlong(x: T, dim: number, index: T, src: T, mode: ScatterKind): T {
  const rank = x.shape.length;
  const all = range(rank);
  const updates = src.shape.every((s, d) => s === index.shape[d]) ? src : slice(src, all.map(() => 0), index.shape);
  const others = all.filter((d) => d !== dim);
  // where index spans x in every other dim, those are batching dims (no coordinates built)
  if (others.every((d) => x.shape[d] === index.shape[d])) {
    return scatter(x, reshape(convert(index, "int64"), [...index.shape, 1]), updates, {
      kind: mode, updateWindowDims: [], insertedWindowDims: [dim], scatterDimsToOperandDims: [dim], indexVectorDim: rank,
      inputBatchingDims: others, scatterIndicesBatchingDims: others,
    });
  }
  return scatter(x, indexVectors(index, dim, rank), updates, { kind: mode, updateWindowDims: [], insertedWindowDims: all, scatterDimsToOperandDims: all, indexVectorDim: rank });
}

/** Every operand sorted by the first along `dim` (stable; NaN last ascending, first descending). */
export const sortAlong = (operands: readonly T[], dim: number, descending: boolean): T[] => bind("sort", operands, { dim, descending });
// --- windows ----------------------------------------------------------------------------------------

/** A window over every dimension of `x`: size 1, stride 1, no padding or dilation unless given. */
export function windowOf(x: T, over: Partial<WindowParams> = {}): WindowParams {
  const ones = x.shape.map(() => 1);
  return {
    window: over.window ?? ones, strides: over.strides ?? ones, baseDilation: over.baseDilation ?? ones,
    windowDilation: over.windowDilation ?? ones, padding: over.padding ?? x.shape.map(() => [0, 0] as const),
  };
}

/** reduce_window with a fixed body; padding and base-dilation holes hold the reduction's identity. */
export function reduceWindow(kind: "sum" | "max" | "min" | "prod", x: T, p: WindowParams): T {
  return bind1(`reduce_window_${kind}`, [x, full(reduceInit(kind, x.dtype), x.dtype)], p);
}

/** log Σ exp over each window (a floating `x`). */
export const reduceWindowLogAddExp = (x: T, p: WindowParams): T => bind1("reduce_window_logaddexp", [x, full(-Infinity, x.dtype)], p);

/**
 * Arg-max/min over each window: values and int64 `indices`' entries. Ties and NaNs go to the later
 * index for cumargmax/cumargmin, to the earlier for argmax/argmin; padding never wins a tie.
 */
export function reduceWindowArg(kind: "cumargmax" | "cumargmin" | "argmax" | "argmin", x: T, indices: T, p: WindowParams): [T, T] {
  const init = full(reduceInit(kind.endsWith("max") ? "max" : "min", x.dtype), x.dtype);
  const padIndex = kind.startsWith("cum") ? -1n : 1n << 62n;
  const [values, idx] = bind(`reduce_window_${kind}`, [x, indices, init, full(padIndex, indices.dtype)], p);
  return [values!, idx!];
}

/**
 * convolution with PyTorch's accumulation. Half operands are converted to float32 first (the CPU
 * plugin's convolution has one element type throughout); libtpu compiles that like a half
 * convolution, not a float32 one. The precision follows the original dtype.
 */
export function convolution(x: T, w: T, p: ConvParams, o: ProductOptions = {}): T {
  const acc = opmath(x.dtype);
  const y = bind1("convolution", [convert(x, acc), convert(w, acc)], { ...p, ...precisionOf(x.dtype, o) });
  return o.wide ? y : convert(y, x.dtype);
}

export const selectAndScatter = (x: T, source: T, init: T, p: WindowPrimParams["select_and_scatter"]): T =>
  bind1("select_and_scatter", [x, source, init], p);
