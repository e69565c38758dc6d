/**
 * @file Indexing along one dim with gather and scatter: indexSelect, gather, scatter, scatterAdd,
 * scatterReduce, takeAlongDim, take, indexAdd, indexCopy, indexFill, indexReduce; and by flat
 * position: put, maskedScatter.
 *
 * Differences from PyTorch: an out-of-range index is not an error (the device cannot raise one):
 * gather-style ops clamp it into range and scatter-style ops skip it (put and indexReduce read their
 * indices back to the host and raise, as PyTorch). Index tensors may be any integer dtype, except
 * put's, which is int64 as in PyTorch.
 */
import { dtypes, isFloating } from "../../dtype.js";
import { DTypeError, ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import { broadcastShapes, fmtShape, normDim, sameShape } from "../dims.js";
import * as e from "../emit.js";
import type { ScatterKind } from "../prims.js";
import { prefix } from "../reduction/cumulative.js";
import { op } from "../signature/op.js";
import type { ScalarArg } from "../types.js";
import { checkIndexDType, isScalar, run } from "../unit.js";

/** A 0-d tracer as 1-d so gather/scatter see a dimension. */
const atLeast1d = (t: Tracer): Tracer => (t.ndim === 0 ? e.reshape(t, [1]) : t);

/** The checks torch.gather / torch.scatter make on index (and src) shapes against the input. */
function checkAlong(name: string, x: Tensor, dim: number, index: Tensor, src?: Tensor): number {
  if (index.ndim !== x.ndim && !(x.ndim <= 1 && index.ndim <= 1)) {
    throw new ShapeError(`${name}: index ${fmtShape(index.shape)} must have as many dimensions as the input ${fmtShape(x.shape)}`);
  }
  const d = normDim(name, dim, x.ndim);
  for (let i = 0; i < index.ndim; i++) {
    if (i !== d && index.shape[i]! > (x.shape[i] ?? 1)) {
      throw new ShapeError(`${name}: index ${fmtShape(index.shape)} is larger than the input ${fmtShape(x.shape)} in dimension ${i}`);
    }
    if (src && index.shape[i]! > (src.shape[i] ?? 1)) {
      throw new ShapeError(`${name}: index ${fmtShape(index.shape)} is larger than src ${fmtShape(src.shape)} in dimension ${i}`);
    }
  }
  if (src && src.ndim !== index.ndim && !(src.ndim <= 1 && index.ndim <= 1)) {
    throw new ShapeError(`${name}: src ${fmtShape(src.shape)} must have as many dimensions as index ${fmtShape(index.shape)}`);
  }
  return d;
}

export const indexSelect = op(
  "indexSelect(input: Tensor, dim: int, index: Tensor) -> Tensor",
  { doc: "The slices of `input` at the 0-d or 1-d integer `index` along `dim` (out-of-range indices clamp instead of raising).", method: true },
  ({ input, dim, index }) => {
    checkIndexDType("indexSelect", index);
    if (index.ndim > 1) throw new ShapeError(`indexSelect: index must be 0-d or 1-d, got ${fmtShape(index.shape)}`);
    if (input.ndim === 0 && index.numel() !== 1) throw new ShapeError(`indexSelect: an index into a 0-d tensor must hold one value, got ${index.numel()}`);
    const d = normDim("indexSelect", dim, input.ndim);
    if (input.ndim > 0 && input.shape[d] === 0 && index.numel() > 0) throw new ShapeError(`indexSelect: cannot select from an empty dimension ${d} of ${fmtShape(input.shape)}`);
    return run("indexSelect", [input, index], `${d}`, ([x, i]) => {
      const t = x as Tracer;
      const out = e.indexSelect(atLeast1d(t), atLeast1d(i as Tracer), d);
      return t.ndim === 0 ? e.reshape(out, []) : out;
    });
  },
);

export const gather = op(
  "gather(input: Tensor, dim: int, index: Tensor) -> Tensor",
  { doc: "out[i][j] = input[index[i][j]][j] for dim 0, and so on; `index` has the input's rank (out-of-range indices clamp instead of raising).", method: true },
  ({ input, dim, index }) => {
    checkIndexDType("gather", index);
    const d = checkAlong("gather", input, dim, index);
    if (input.ndim > 0 && input.shape[d] === 0 && index.numel() > 0) throw new ShapeError(`gather: cannot gather from an empty dimension ${d} of ${fmtShape(input.shape)}`);
    return run("gather", [input, index], `${d}`, ([x, i]) => {
      const t = x as Tracer;
      const idx = i as Tracer;
      const out = e.gatherAlong(atLeast1d(t), atLeast1d(idx), d);
      return idx.ndim === 0 ? e.reshape(out, []) : out;
    });
  },
);

/** Runs one scatter along `dim` of `src` (a tensor, or a scalar filling index's shape). */
function scatterUnit(name: string, input: Tensor, dim: number, index: Tensor, src: Tensor | ScalarArg, mode: ScatterKind): Tensor {
  checkIndexDType(name, index);
  if (!isScalar(src) && src.dtype !== input.dtype) throw new DTypeError(`${name}: src dtype ${src.dtype} must equal the input dtype ${input.dtype} (convert src first)`);
  const d = checkAlong(name, input, dim, index, isScalar(src) ? undefined : src);
  if (dtypes[input.dtype].kind === "bool" && (mode === "add" || mode === "mul")) {
    throw new DTypeError(`${name}: reduction '${mode}' is not supported for bool tensors`);
  }
  return run(name, [input, index, src], `${d}|${mode}`, ([x, i, s]) => {
    const t = x as Tracer;
    const idx = atLeast1d(i as Tracer);
    const updates = isScalar(s) ? e.full(s, t.dtype, idx.shape) : atLeast1d(s!);
    const out = e.scatterAlong(atLeast1d(t), d, idx, updates, mode);
    return t.ndim === 0 ? e.reshape(out, []) : out;
  });
}

const scatterMode = (reduce: "add" | "multiply" | undefined): ScatterKind => (reduce === "add" ? "add" : reduce === "multiply" ? "mul" : "replace");

export const scatter = op(
  [
    'scatter(input: Tensor, dim: int, index: Tensor, src: Tensor, *, reduce?: "add" | "multiply") -> Tensor',
    'scatter(input: Tensor, dim: int, index: Tensor, value: Scalar, *, reduce?: "add" | "multiply") -> Tensor',
  ],
  {
    doc: "`input` with `src` (a tensor, or the scalar `value`) written at `index` along `dim`, or combined with what is there by `reduce`; a new tensor (out-of-range indices are skipped).",
    method: true,
  },
  [
    ({ input, dim, index, src, reduce }) => scatterUnit("scatter", input, dim, index, src, scatterMode(reduce)),
    ({ input, dim, index, value, reduce }) => scatterUnit("scatter", input, dim, index, value, scatterMode(reduce)),
  ],
);

export const scatterAdd = op(
  "scatterAdd(input: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor",
  { doc: "`input` with `src` added in at `index` along `dim`; a new tensor (out-of-range indices are skipped).", method: true },
  ({ input, dim, index, src }) => scatterUnit("scatterAdd", input, dim, index, src, "add"),
);

/** floor(a / b) for integers with b > 0 (StableHLO's divide truncates). */
function floorDivPositive(a: Tracer, b: Tracer): Tracer {
  const q = e.div(a, b);
  const inexactNegative = e.and(e.compare(a, e.full(0, a.dtype, a.shape), "LT"), e.compare(e.mul(q, b), a, "NE"));
  return e.select(inexactNegative, e.sub(q, e.full(1, a.dtype, a.shape)), q);
}

type ScatterReduction = "sum" | "prod" | "mean" | "amax" | "amin";
const scatterKinds: Record<ScatterReduction, ScatterKind> = { sum: "add", prod: "mul", mean: "add", amax: "max", amin: "min" };

export const scatterReduce = op(
  'scatterReduce(input: Tensor, dim: int, index: Tensor, src: Tensor, reduce: "sum" | "prod" | "mean" | "amax" | "amin", *, includeSelf: bool = true) -> Tensor',
  {
    doc: "`src` reduced into `input` at `index` along `dim`; without `includeSelf` the input's value takes no part where anything lands. An integer mean rounds down, as in PyTorch.",
    method: true,
  },
  ({ input, dim, index, src, reduce, includeSelf }) => {
    checkIndexDType("scatterReduce", index);
    if (src.dtype !== input.dtype) throw new DTypeError(`scatterReduce: src dtype ${src.dtype} must equal the input dtype ${input.dtype}`);
    if (input.dtype === "bool") throw new DTypeError("scatterReduce: bool tensors are not supported");
    const d = checkAlong("scatterReduce", input, dim, index, src);
    return run("scatterReduce", [input, index, src], `${d}|${reduce}|${includeSelf}`, ([x, i, s]) => {
      const out = reduceAlong(atLeast1d(x as Tracer), d, atLeast1d(i as Tracer), atLeast1d(s as Tracer), reduce, includeSelf);
      return (x as Tracer).ndim === 0 ? e.reshape(out, []) : out;
    });
  },
);

/** `updates` reduced into `t` at `idx` (updates' shape) along `d`, as scatterReduce; without `includeSelf` t's value takes no part where anything lands. */
function reduceAlong(t: Tracer, d: number, idx: Tracer, updates: Tracer, reduce: ScatterReduction, includeSelf: boolean): Tracer {
  const kind = scatterKinds[reduce];
  const { dtype, shape } = t;
  let base = t;
  if (!includeSelf) {
    const touched = e.scatterAlong(e.full(false, "bool", shape), d, idx, e.full(true, "bool", idx.shape), "replace");
    const identity = reduce === "amax" ? e.reduceInit("max", dtype) : reduce === "amin" ? e.reduceInit("min", dtype) : reduce === "prod" ? 1 : 0;
    base = e.select(touched, e.full(identity, dtype, shape), t);
  }
  const out = e.scatterAlong(base, d, idx, updates, kind);
  if (reduce !== "mean") return out;
  const count = e.scatterAlong(e.full(includeSelf ? 1 : 0, dtype, shape), d, idx, e.full(1, dtype, idx.shape), "add");
  const safe = e.max(count, e.full(1, dtype, shape)); // untouched without includeSelf: out is the input
  return isFloating(dtype) ? e.div(out, safe) : floorDivPositive(out, safe);
}

export const takeAlongDim = op(
  "takeAlongDim(input: Tensor, indices: Tensor, dim?: int) -> Tensor",
  { doc: "gather along `dim` after broadcasting the other dims of `input` and `indices`; without `dim`, from the flattened input.", method: true },
  ({ input, indices, dim }) => {
    checkIndexDType("takeAlongDim", indices, "indices");
    if (dim === undefined) {
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
  },
);

export const take = op(
  "take(input: Tensor, index: Tensor) -> Tensor",
  { doc: "The elements of the flattened input at `index`, in index's shape; a negative index counts from the end (out-of-range indices clamp instead of raising).", method: true },
  ({ input, index }) => {
    checkIndexDType("take", index);
    const numel = input.numel();
    if (numel === 0 && index.numel() > 0) throw new ShapeError(`take: cannot take from an empty tensor ${fmtShape(input.shape)}`);
    return run("take", [input, index], "", ([x, i]) => {
      const flat = e.reshape(x as Tracer, [numel]);
      const idx = e.reshape(i as Tracer, [index.numel()]);
      const wrapped = e.select(e.compare(idx, e.full(0, idx.dtype, idx.shape), "LT"), e.add(idx, e.full(numel, idx.dtype, idx.shape)), idx);
      return e.reshape(e.gatherAlong(flat, wrapped, 0), [...index.shape]);
    });
  },
);

/**
 * `input` with the slices of `source` (or `value`) put at the 1-d `index` along `dim`: slice k of
 * source goes to position index[k], added (`add`, scaled by `alpha`) or written (`replace`).
 */
function indexPutAlong(name: string, input: Tensor, dim: number, index: Tensor, source: Tensor | ScalarArg, mode: ScatterKind, alpha: ScalarArg = 1): Tensor {
  checkIndexDType(name, index);
  if (index.ndim > 1) throw new ShapeError(`${name}: index must be 0-d or 1-d, got ${fmtShape(index.shape)}`);
  const d = normDim(name, dim, Math.max(1, input.ndim));
  const sliceShape = input.ndim === 0 ? [index.numel()] : input.shape.map((s, i) => (i === d ? index.numel() : s));
  if (!isScalar(source)) {
    if (source.dtype !== input.dtype) throw new DTypeError(`${name}: source dtype ${source.dtype} must equal the input dtype ${input.dtype} (convert source first)`);
    // a 0-d input takes a 0-d or 1-d source, as PyTorch's
    const fits = source.ndim === input.ndim ? sameShape(source.shape, sliceShape) : source.ndim <= 1 && input.ndim <= 1 && source.numel() === index.numel();
    if (!fits) {
      throw new ShapeError(`${name}: source ${fmtShape(source.shape)} must be the input ${fmtShape(input.shape)} with dim ${d} of size ${index.numel()} (one slice per index)`);
    }
  }
  return run(name, [input, index, source, alpha], `${d}|${mode}`, ([x, i, s, a]) => {
    const t = atLeast1d(x as Tracer);
    let updates = isScalar(s) ? e.full(s, t.dtype, sliceShape) : e.reshape(s!, sliceShape);
    if (mode === "add" && a !== 1) updates = e.mul(updates, e.full(a as ScalarArg, t.dtype, sliceShape));
    const out = sliceShape.includes(0) ? t : e.indexScatter(t, d, e.reshape(i as Tracer, [index.numel()]), updates, mode);
    return (x as Tracer).ndim === 0 ? e.reshape(out, []) : out;
  });
}

export const indexAdd = op(
  "indexAdd(input: Tensor, dim: int, index: Tensor, source: Tensor, *, alpha: Scalar = 1) -> Tensor",
  { doc: "`input` with alpha × slice k of `source` added at position index[k] along `dim` (repeated indices add up); a new tensor (out-of-range indices are skipped).", method: true },
  ({ input, dim, index, source, alpha }) => indexPutAlong("indexAdd", input, dim, index, source, "add", alpha),
);

export const indexCopy = op(
  "indexCopy(input: Tensor, dim: int, index: Tensor, source: Tensor) -> Tensor",
  { doc: "`input` with slice k of `source` written at position index[k] along `dim`; a new tensor (out-of-range indices are skipped).", method: true },
  ({ input, dim, index, source }) => indexPutAlong("indexCopy", input, dim, index, source, "replace"),
);

export const indexFill = op(
  "indexFill(input: Tensor, dim: int, index: Tensor, value: Scalar) -> Tensor",
  { doc: "`input` with `value` at positions `index` along `dim`; a new tensor (out-of-range indices are skipped).", method: true },
  ({ input, dim, index, value }) => indexPutAlong("indexFill", input, dim, index, value, "replace"),
);


/**
 * The values of a small integer `index` read back to the host, each checked to lie in [-size, size) (or [0, size) without
 * `negative`); the error names the first offending value, its position in `index`, and what the range is (`range`).
 */
export function checkIndicesOnHost(name: string, index: Tensor, size: number, negative: boolean, range = negative ? `${size} elements` : `a dimension of size ${size}`): void {
  const values = Array.from(index.dataSync() as ArrayLike<number | bigint>, Number);
  const lo = negative ? -size : 0;
  const at = values.findIndex((v) => v < lo || v >= size);
  if (at < 0) return;
  const position = index.shape.map(() => 0);
  for (let d = index.shape.length - 1, rest = at; d >= 0; d--) [position[d], rest] = [rest % index.shape[d]!, Math.floor(rest / index.shape[d]!)];
  throw new ShapeError(`${name}: index ${values[at]} at position ${fmtShape(position)} is out of range for ${range} (valid indices are in [${lo}, ${size}))`);
}

export const put = op(
  "put(input: Tensor, index: Tensor, source: Tensor, accumulate: bool = false) -> Tensor",
  {
    doc: "`input` with the elements of `source` written (or with `accumulate`, added) at the flat positions `index` (int64, same number of elements; a negative index counts from the end); a new tensor. The indices are read back to the host to check their range.",
    method: true,
  },
  ({ input, index, source, accumulate }) => {
    if (index.dtype !== "int64") throw new DTypeError(`put: index must be an int64 tensor, got ${index.dtype}`);
    if (source.dtype !== input.dtype) throw new DTypeError(`put: source dtype ${source.dtype} must equal the input dtype ${input.dtype} (convert source first)`);
    const k = index.numel();
    if (source.numel() !== k) throw new ShapeError(`put: source ${fmtShape(source.shape)} and index ${fmtShape(index.shape)} must have the same number of elements`);
    const numel = input.numel();
    if (numel === 0 && k > 0) throw new ShapeError(`put: cannot put elements into an empty tensor ${fmtShape(input.shape)}`);
    checkIndicesOnHost("put", index, numel, true);
    return run("put", [input, index, source], `${accumulate}`, ([x, i, s]) => {
      const t = x as Tracer;
      if (k === 0) return t;
      const idx = e.reshape(i as Tracer, [k]);
      const wrapped = e.select(e.compare(idx, e.full(0, "int64", [k]), "LT"), e.add(idx, e.full(numel, "int64", [k])), idx);
      const flat = e.indexScatter(e.reshape(t, [numel]), 0, wrapped, e.reshape(s as Tracer, [k]), accumulate ? "add" : "replace");
      return e.reshape(flat, t.shape);
    });
  },
);

export const maskedScatter = op(
  "maskedScatter(input: Tensor, mask: Tensor, source: Tensor) -> Tensor",
  {
    doc: "`input` (broadcast with the bool `mask`) with the positions where `mask` is true filled, in row-major order, by the first elements of `source` (flattened). Reads the number of true elements back to the host to check that source has enough.",
    method: true,
  },
  ({ input, mask, source }) => {
    if (mask.dtype !== "bool") throw new DTypeError(`maskedScatter: mask must be a bool tensor, got ${mask.dtype}`);
    if (source.dtype !== input.dtype) throw new DTypeError(`maskedScatter: source dtype ${source.dtype} must equal the input dtype ${input.dtype} (convert source first)`);
    const shape = broadcastShapes("maskedScatter", input.shape, mask.shape);
    const size = shape.reduce((a, b) => a * b, 1);
    const all = shape.map((_, i) => i);
    const count = run("maskedScatter.count", [mask], fmtShape(shape), ([m]) => e.reduce("sum", e.convert(e.broadcastTo(m as Tracer, shape), "int64"), all));
    const needed = Number(count.item());
    count.dispose();
    if (needed > source.numel()) throw new ShapeError(`maskedScatter: mask has ${needed} true elements but source ${fmtShape(source.shape)} only ${source.numel()}`);
    return run("maskedScatter", [input, mask, source], fmtShape(shape), ([x, m, s]) => {
      const flatMask = e.reshape(e.broadcastTo(m as Tracer, shape), [size]);
      const flat = e.reshape(e.broadcastTo(x as Tracer, shape), [size]);
      // true element j takes source element j: its rank among the true elements
      const rank = e.sub(e.reduceWindow("sum", e.convert(flatMask, "int64"), prefix(flatMask, 0)), e.full(1, "int64", [size]));
      const taken = e.gatherAlong(e.reshape(s as Tracer, [source.numel()]), e.max(rank, e.full(0, "int64", [size])), 0);
      return e.reshape(e.select(flatMask, taken, flat), shape);
    });
  },
);

export const indexReduce = op(
  'indexReduce(input: Tensor, dim: int, index: Tensor, source: Tensor, reduce: "prod" | "mean" | "amax" | "amin", *, includeSelf: bool = true) -> Tensor',
  {
    doc: "`input` with slice k of `source` reduced into position index[k] along `dim` (repeated indices reduce together); without `includeSelf` the input's value takes no part where anything lands. An integer mean rounds down. The indices are read back to the host to check their range; bool tensors are not supported.",
    method: true,
  },
  ({ input, dim, index, source, reduce, includeSelf }) => {
    checkIndexDType("indexReduce", index);
    if (index.ndim > 1) throw new ShapeError(`indexReduce: index must be 0-d or 1-d, got ${fmtShape(index.shape)}`);
    if (source.dtype !== input.dtype) throw new DTypeError(`indexReduce: source dtype ${source.dtype} must equal the input dtype ${input.dtype} (convert source first)`);
    if (input.dtype === "bool") throw new DTypeError("indexReduce: bool tensors are not supported; convert to an integer dtype first");
    const d = normDim("indexReduce", dim, input.ndim);
    const rank = Math.max(1, input.ndim);
    const inputShape = input.ndim === 0 ? [1] : input.shape;
    const sourceShape = source.ndim === 0 ? [1] : source.shape;
    const fits = source.ndim === input.ndim && sourceShape.every((s, i) => i === d || s === inputShape[i]);
    if (!fits) throw new ShapeError(`indexReduce: source ${fmtShape(source.shape)} must have the shape of the input ${fmtShape(input.shape)} except in dim ${d}`);
    if (index.numel() !== sourceShape[d]) throw new ShapeError(`indexReduce: ${index.numel()} indices for dim ${d} of source ${fmtShape(source.shape)}, which has size ${sourceShape[d]}`);
    checkIndicesOnHost("indexReduce", index, inputShape[d]!, false);
    return run("indexReduce", [input, index, source], `${d}|${reduce}|${includeSelf}`, ([x, i, s]) => {
      const t = e.reshape(x as Tracer, inputShape);
      if (sourceShape.includes(0)) return x as Tracer;
      const updates = e.reshape(s as Tracer, sourceShape);
      const idx = e.broadcastInDim(e.convert(e.reshape(i as Tracer, [index.numel()]), "int64"), sourceShape, [d]);
      const out = reduceAlong(t, d, idx, updates, reduce, includeSelf);
      return rank === input.ndim ? out : e.reshape(out, []);
    });
  },
);
