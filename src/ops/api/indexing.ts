/**
 * @file Indexing ops built on gather, scatter and sort: indexSelect, gather, scatter, scatterAdd,
 * scatterReduce, takeAlongDim, maskedFill, sort, argsort, topk, searchsorted, bucketize.
 *
 * Differences from PyTorch: an out-of-range index is not an error (the device cannot raise one):
 * gather-style ops clamp it into range and scatter-style ops skip it. Index tensors may be any
 * integer dtype. sort is always stable and topk always returns sorted values.
 */
import { type DType, dtypes, isFloating, resultType } from "../../dtype.js";
import { ArgumentError, DTypeError, ShapeError } from "../../runtime/errors.js";
import { Tensor } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import * as e from "../emit.js";
import type { ScatterKind } from "../prims.js";
import { broadcastShapes, fmtShape, normDim } from "../dims.js";
import { type ScalarArg } from "../types.js";
import { checkTensor, isScalar, run, runMany } from "../unit.js";
import type { ValuesIndices } from "../types.js";

const isInt = (d: DType): boolean => dtypes[d].kind === "int" || dtypes[d].kind === "uint";

export function checkIndexTensor(op: string, t: unknown, what = "index"): Tensor {
  const idx = checkTensor(op, t, what);
  if (!isInt(idx.dtype)) throw new DTypeError(`${op}: ${what} must be an integer tensor (int64), got ${idx.dtype}`);
  return idx;
}

/** A 0-d tracer as 1-d so gather/scatter/sort see a dimension; `back` undoes it on a result. */
const atLeast1d = (t: Tracer): Tracer => (t.ndim === 0 ? e.reshape(t, [1]) : t);

/** The checks torch.gather / torch.scatter make on index (and src) shapes against the input. */
function checkAlong(op: string, x: Tensor, dim: number, index: Tensor, src?: Tensor): number {
  if (index.ndim !== x.ndim && !(x.ndim <= 1 && index.ndim <= 1)) {
    throw new ShapeError(`${op}: index ${fmtShape(index.shape)} must have as many dimensions as the input ${fmtShape(x.shape)}`);
  }
  const d = normDim(op, dim, x.ndim);
  for (let i = 0; i < index.ndim; i++) {
    if (i !== d && index.shape[i]! > (x.shape[i] ?? 1)) {
      throw new ShapeError(`${op}: index ${fmtShape(index.shape)} is larger than the input ${fmtShape(x.shape)} in dimension ${i}`);
    }
    if (src && index.shape[i]! > (src.shape[i] ?? 1)) {
      throw new ShapeError(`${op}: index ${fmtShape(index.shape)} is larger than src ${fmtShape(src.shape)} in dimension ${i}`);
    }
  }
  if (src && src.ndim !== index.ndim && !(src.ndim <= 1 && index.ndim <= 1)) {
    throw new ShapeError(`${op}: src ${fmtShape(src.shape)} must have as many dimensions as index ${fmtShape(index.shape)}`);
  }
  return d;
}

/** torch.index_select(input, dim, index): the slices of input at the 1-d `index` along `dim`. */
export function indexSelect(input: Tensor, dim: number, index: Tensor): Tensor {
  checkTensor("indexSelect", input);
  checkIndexTensor("indexSelect", index);
  if (index.ndim > 1) throw new ShapeError(`indexSelect: index must be 0-d or 1-d, got ${fmtShape(index.shape)}`);
  if (input.ndim === 0 && index.numel() !== 1) throw new ShapeError(`indexSelect: an index into a 0-d tensor must hold one value, got ${index.numel()}`);
  const d = normDim("indexSelect", dim, input.ndim);
  if (input.ndim > 0 && input.shape[d] === 0 && index.numel() > 0) throw new ShapeError(`indexSelect: cannot select from an empty dimension ${d} of ${fmtShape(input.shape)}`);
  return run("indexSelect", [input, index], `${d}`, ([x, i]) => {
    const t = x as Tracer;
    const out = e.indexSelect(atLeast1d(t), atLeast1d(i as Tracer), d);
    return t.ndim === 0 ? e.reshape(out, []) : out;
  });
}

/** torch.gather(input, dim, index): out[i][j] = input[index[i][j]][j] for dim 0, and so on. */
export function gather(input: Tensor, dim: number, index: Tensor): Tensor {
  checkTensor("gather", input);
  checkIndexTensor("gather", index);
  const d = checkAlong("gather", input, dim, index);
  if (input.ndim > 0 && input.shape[d] === 0 && index.numel() > 0) throw new ShapeError(`gather: cannot gather from an empty dimension ${d} of ${fmtShape(input.shape)}`);
  return run("gather", [input, index], `${d}`, ([x, i]) => {
    const t = x as Tracer;
    const idx = i as Tracer;
    const out = e.gatherAlong(atLeast1d(t), atLeast1d(idx), d);
    return idx.ndim === 0 ? e.reshape(out, []) : out;
  });
}

/** Runs one scatter along `dim` of `src` (a tensor, or a scalar filling index's shape). */
function scatterUnit(op: string, input: Tensor, dim: number, index: Tensor, src: Tensor | ScalarArg, mode: ScatterKind): Tensor {
  checkTensor(op, input);
  checkIndexTensor(op, index);
  if (!isScalar(src)) {
    checkTensor(op, src, "src");
    if (src.dtype !== input.dtype) throw new DTypeError(`${op}: src dtype ${src.dtype} must equal the input dtype ${input.dtype} (convert src first)`);
  }
  const d = checkAlong(op, input, dim, index, isScalar(src) ? undefined : src);
  if (dtypes[input.dtype].kind === "bool" && (mode === "add" || mode === "mul")) {
    throw new DTypeError(`${op}: reduction '${mode}' is not supported for bool tensors`);
  }
  return run(op, [input, index, src], `${d}|${mode}`, ([x, i, s]) => {
    const t = x as Tracer;
    const idx = atLeast1d(i as Tracer);
    const updates = isScalar(s) ? e.full(s, t.dtype, idx.shape) : atLeast1d(s!);
    const out = e.scatterAlong(atLeast1d(t), d, idx, updates, mode);
    return t.ndim === 0 ? e.reshape(out, []) : out;
  });
}

export interface ScatterOptions {
  /** Combine with the existing value instead of replacing it. */
  reduce?: "add" | "multiply";
}

/** torch.scatter(input, dim, index, src | value, { reduce }): input with src written at index along dim. */
export function scatter(input: Tensor, dim: number, index: Tensor, src: Tensor | ScalarArg, options: ScatterOptions = {}): Tensor {
  const { reduce } = options;
  if (reduce !== undefined && reduce !== "add" && reduce !== "multiply") {
    throw new ArgumentError(`scatter: reduce must be "add" or "multiply", got ${String(reduce)}`);
  }
  return scatterUnit("scatter", input, dim, index, src, reduce === "add" ? "add" : reduce === "multiply" ? "mul" : "replace");
}

/** torch.scatter_add(input, dim, index, src): src added into input at index along dim. */
export function scatterAdd(input: Tensor, dim: number, index: Tensor, src: Tensor): Tensor {
  return scatterUnit("scatterAdd", input, dim, index, src, "add");
}

export type ScatterReduction = "sum" | "prod" | "mean" | "amax" | "amin";

/** floor(a / b) for integers with b > 0 (StableHLO's divide truncates). */
function floorDivPositive(a: Tracer, b: Tracer): Tracer {
  const q = e.div(a, b);
  const inexactNegative = e.and(e.compare(a, e.full(0, a.dtype, a.shape), "LT"), e.compare(e.mul(q, b), a, "NE"));
  return e.select(inexactNegative, e.sub(q, e.full(1, a.dtype, a.shape)), q);
}

/**
 * torch.scatter_reduce(input, dim, index, src, reduce, { includeSelf }): src reduced into input at
 * index along dim; without includeSelf the input's value does not take part where anything lands.
 * An integer mean rounds down, as PyTorch does.
 */
export function scatterReduce(input: Tensor, dim: number, index: Tensor, src: Tensor, reduce: ScatterReduction, options: { includeSelf?: boolean } = {}): Tensor {
  const kinds: Record<ScatterReduction, ScatterKind> = { sum: "add", prod: "mul", mean: "add", amax: "max", amin: "min" };
  if (!(reduce in kinds)) throw new ArgumentError(`scatterReduce: reduce must be one of sum, prod, mean, amax, amin; got ${String(reduce)}`);
  checkTensor("scatterReduce", input);
  checkTensor("scatterReduce", src, "src");
  checkIndexTensor("scatterReduce", index);
  if (src.dtype !== input.dtype) throw new DTypeError(`scatterReduce: src dtype ${src.dtype} must equal the input dtype ${input.dtype}`);
  if (input.dtype === "bool") throw new DTypeError("scatterReduce: bool tensors are not supported");
  const d = checkAlong("scatterReduce", input, dim, index, src);
  const includeSelf = options.includeSelf ?? true;
  return run("scatterReduce", [input, index, src], `${d}|${reduce}|${includeSelf}`, ([x, i, s]) => {
    const t = atLeast1d(x as Tracer);
    const idx = atLeast1d(i as Tracer);
    const updates = atLeast1d(s as Tracer);
    const kind = kinds[reduce];
    const { dtype, shape } = t;
    let base = t;
    if (!includeSelf) {
      const touched = e.scatterAlong(e.full(false, "bool", shape), d, idx, e.full(true, "bool", idx.shape), "replace");
      const identity = reduce === "amax" ? e.reduceInit("max", dtype) : reduce === "amin" ? e.reduceInit("min", dtype) : reduce === "prod" ? 1 : 0;
      base = e.select(touched, e.full(identity, dtype, shape), t);
    }
    let out = e.scatterAlong(base, d, idx, updates, kind);
    if (reduce === "mean") {
      const count = e.scatterAlong(e.full(includeSelf ? 1 : 0, dtype, shape), d, idx, e.full(1, dtype, idx.shape), "add");
      const safe = e.max(count, e.full(1, dtype, shape)); // untouched without includeSelf: out is the input
      out = isFloating(dtype) ? e.div(out, safe) : floorDivPositive(out, safe);
    }
    return (x as Tracer).ndim === 0 ? e.reshape(out, []) : out;
  });
}

/** torch.take_along_dim(input, indices, { dim }): gather along dim after broadcasting the other dims; no dim = flattened. */
export function takeAlongDim(input: Tensor, indices: Tensor, options: { dim?: number | null } = {}): Tensor {
  checkTensor("takeAlongDim", input);
  checkIndexTensor("takeAlongDim", indices, "indices");
  const dim = options.dim ?? null;
  if (dim === null) {
    return run("takeAlongDim", [input, indices], "flat", ([x, i]) => {
      const flat = e.reshape(x as Tracer, [input.numel()]);
      return e.gatherAlong(flat, e.reshape(i as Tracer, [indices.numel()]), 0);
    });
  }
  if (input.ndim !== indices.ndim) {
    throw new ShapeError(`takeAlongDim: input ${fmtShape(input.shape)} and indices ${fmtShape(indices.shape)} must have the same number of dimensions`);
  }
  const d = normDim("takeAlongDim", dim, input.ndim);
  const shape = broadcastShapes("takeAlongDim", input.shape.map((s, k) => (k === d ? 1 : s)), indices.shape.map((s, k) => (k === d ? 1 : s)));
  return run("takeAlongDim", [input, indices], `${d}`, ([x, i]) => {
    const t = atLeast1d(x as Tracer);
    const idx = atLeast1d(i as Tracer);
    const xs = e.broadcastInDim(t, shape.map((s, k) => (k === d ? t.shape[k]! : s)), t.shape.map((_, k) => k));
    const is = e.broadcastInDim(idx, shape.map((s, k) => (k === d ? idx.shape[k]! : s)), idx.shape.map((_, k) => k));
    const out = e.gatherAlong(xs, is, d);
    return (i as Tracer).ndim === 0 ? e.reshape(out, []) : out;
  });
}

export interface SortOptions {
  dim?: number;
  descending?: boolean;
  /** Accepted for PyTorch compatibility: the sort is always stable. */
  stable?: boolean;
}

function sortUnit(op: string, input: Tensor, o: SortOptions, which: "both" | "indices"): Tensor[] {
  checkTensor(op, input);
  const d = normDim(op, o.dim ?? -1, input.ndim);
  return runMany(op, [input], `${d}|${o.descending ? 1 : 0}|${which}`, ([x]) => {
    const t = x!;
    if (t.ndim === 0) return which === "both" ? [t, e.full(0, "int64")] : [e.full(0, "int64")];
    const [values, indices] = e.sortAlong([t, e.iota("int64", t.shape, d)], d, o.descending ?? false);
    return which === "both" ? [values!, indices!] : [indices!];
  });
}

/** torch.sort(input, { dim = -1, descending, stable }): { values, indices }; NaN sorts as the largest value. */
export function sort(input: Tensor, options: SortOptions = {}): ValuesIndices {
  const [values, indices] = sortUnit("sort", input, options, "both");
  return { values: values!, indices: indices! };
}

/** torch.argsort(input, { dim = -1, descending, stable }): the indices that sort input along dim. */
export function argsort(input: Tensor, options: SortOptions = {}): Tensor {
  return sortUnit("argsort", input, options, "indices")[0]!;
}

export interface TopkOptions {
  dim?: number;
  /** The k largest (default) or the k smallest. */
  largest?: boolean;
  /** Accepted for PyTorch compatibility: the result is always sorted. */
  sorted?: boolean;
}

/** torch.topk(input, k, { dim = -1, largest = true }): { values, indices } of the k largest (or smallest). */
export function topk(input: Tensor, k: number, options: TopkOptions = {}): ValuesIndices {
  checkTensor("topk", input);
  if (input.dtype === "bool") throw new DTypeError("topk: bool tensors are not supported (as in PyTorch); convert to an integer dtype first");
  const d = normDim("topk", options.dim ?? -1, input.ndim);
  const size = input.ndim === 0 ? 1 : input.shape[d]!;
  if (!Number.isInteger(k) || k < 0 || k > size) {
    throw new ShapeError(`topk: k = ${k} is out of range for dimension ${d} of size ${size} (shape ${fmtShape(input.shape)})`);
  }
  const largest = options.largest ?? true;
  const [values, indices] = runMany("topk", [input], `${k}|${d}|${largest}`, ([x]) => {
    const t = atLeast1d(x!);
    const sorted = e.sortAlong([t, e.iota("int64", t.shape, d)], d, largest);
    const limit = t.shape.map((s, i) => (i === d ? k : s));
    const cut = sorted.map((s) => e.slice(s, t.shape.map(() => 0), limit));
    return x!.ndim === 0 ? cut.map((c) => e.reshape(c, [])) : cut;
  });
  return { values: values!, indices: indices! };
}

export interface SearchsortedOptions {
  /** Return the last suitable position instead of the first (same as side: "right"). */
  right?: boolean;
  side?: "left" | "right";
  /** int32 result instead of int64. */
  outInt32?: boolean;
}

/** Counts, for each value, the sequence entries below it (or at most it with `right`), along the last dim. */
function countBelow(op: string, seq: Tensor, values: Tensor | ScalarArg, right: boolean, outInt32: boolean): Tensor {
  checkTensor(op, seq, "sorted sequence");
  if (!isScalar(values)) checkTensor(op, values, "values");
  if (seq.ndim === 0) throw new ShapeError(`${op}: the sorted sequence must have at least one dimension`);
  const vShape = isScalar(values) ? [] : values.shape;
  if (seq.ndim > 1 && (vShape.length !== seq.ndim || seq.shape.slice(0, -1).some((s, i) => s !== vShape[i]))) {
    throw new ShapeError(`${op}: the leading dimensions of the sorted sequence ${fmtShape(seq.shape)} and values ${fmtShape(vShape)} must match`);
  }
  if (seq.dtype === "bool" || (!isScalar(values) && values.dtype === "bool")) throw new DTypeError(`${op}: bool tensors are not supported`);
  const dtype = resultType({ dtype: seq.dtype, ndim: seq.ndim }, isScalar(values) ? values : { dtype: values.dtype, ndim: values.ndim });
  return run(op, [seq, values], `${right}|${outInt32}`, ([s, v]) => {
    const m = seq.shape[seq.ndim - 1]!;
    const full = [...vShape, m];
    const r = vShape.length;
    const vals = isScalar(v) ? e.full(v, dtype, full) : e.broadcastInDim(e.convert(v!, dtype), full, vShape.map((_, i) => i));
    const seqDims = seq.ndim === 1 ? [r] : [...seq.shape.slice(0, -1).map((_, i) => i), r];
    const bounds = e.broadcastInDim(e.convert(s as Tracer, dtype), full, seqDims);
    const below = e.convert(e.compare(bounds, vals, right ? "LE" : "LT"), outInt32 ? "int32" : "int64");
    return e.reduce("sum", below, [r]);
  });
}

/** torch.searchsorted(sortedSequence, values, { right, side, outInt32 }): insertion points keeping the order. */
export function searchsorted(sortedSequence: Tensor, values: Tensor | ScalarArg, options: SearchsortedOptions = {}): Tensor {
  if (options.side !== undefined && options.side !== "left" && options.side !== "right") {
    throw new ArgumentError(`searchsorted: side must be "left" or "right", got ${String(options.side)}`);
  }
  if (options.side === "left" && options.right) throw new ArgumentError('searchsorted: side "left" contradicts right: true');
  return countBelow("searchsorted", sortedSequence, values, options.right === true || options.side === "right", options.outInt32 ?? false);
}

/** torch.bucketize(input, boundaries, { right, outInt32 }): the bucket of each input value among 1-d boundaries. */
export function bucketize(input: Tensor | ScalarArg, boundaries: Tensor, options: { right?: boolean; outInt32?: boolean } = {}): Tensor {
  checkTensor("bucketize", boundaries, "boundaries");
  if (boundaries.ndim !== 1) throw new ShapeError(`bucketize: boundaries must be 1-d, got ${fmtShape(boundaries.shape)}`);
  return countBelow("bucketize", boundaries, input, options.right ?? false, options.outInt32 ?? false);
}
