/**
 * @file Reductions with `dim` (a number or a list, negative allowed; none = all) and `keepdim`.
 */
import { type DType, defaultIntDType, dtypeInfo, isFloating } from "../../dtype.js";
import { DTypeError, ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import * as e from "../emit.js";
import { checkOptions, checkTensor, fmtShape, normDim, normDims, run, runMany } from "./args.js";
import { maximum, minimum } from "./pointwise.js";

export interface ReduceOptions {
  dim?: number | readonly number[];
  keepdim?: boolean;
}
export interface SumOptions extends ReduceOptions {
  /** Accumulate and return in this dtype. */
  dtype?: DType;
}

const dimKey = (o: ReduceOptions): string =>
  `${o.dim === undefined ? "all" : typeof o.dim === "number" ? o.dim : o.dim.join(",")}|${o.keepdim ? 1 : 0}`;

/** `r` (x reduced over `dims`) with the reduced dims put back as size 1. */
function keep(r: Tracer, x: Tracer, dims: readonly number[], keepdim: boolean | undefined): Tracer {
  if (!keepdim) return r;
  return e.reshape(r, x.shape.map((d, i) => (dims.includes(i) ? 1 : d)));
}

function reduction(op: string, kind: e.ReduceKind, a: Tensor, o: ReduceOptions, dtypeOf: (x: Tracer) => DType, after?: (r: Tracer, n: number) => Tracer): Tensor {
  checkTensor(op, a);
  checkOptions(op, o);
  return run(op, [a], dimKey(o) + "|" + ((o as SumOptions).dtype ?? ""), ([x]) => {
    const t = x as Tracer;
    const dims = normDims(op, o.dim, t.ndim);
    const dtype = dtypeOf(t);
    let r = e.reduce(kind, e.convert(t, dtype), dims);
    if (after) r = after(r, dims.reduce((n, d) => n * t.shape[d]!, 1));
    return keep(r, t, dims, o.keepdim);
  });
}

const accumulate = (o: SumOptions) => (x: Tracer): DType => {
  if (o.dtype !== undefined) return dtypeInfo(o.dtype).name;
  return isFloating(x.dtype) ? x.dtype : defaultIntDType;
};

/** Sum over `dim` (all by default); integer and bool inputs sum in int64. */
export function sum(a: Tensor, options: SumOptions = {}): Tensor {
  return reduction("sum", "sum", a, options, accumulate(options));
}

/** Product over `dim`; integer and bool inputs multiply in int64. */
export function prod(a: Tensor, options: SumOptions = {}): Tensor {
  return reduction("prod", "prod", a, options, accumulate(options));
}

/** Mean over `dim`; the input (or options.dtype) must be a floating dtype. */
export function mean(a: Tensor, options: SumOptions = {}): Tensor {
  const dtypeOf = (x: Tracer): DType => {
    const d = options.dtype === undefined ? x.dtype : dtypeInfo(options.dtype).name;
    if (!isFloating(d)) {
      throw new DTypeError(`mean: could not infer the output dtype; the input must be a floating dtype, got ${d} (pass { dtype: "float32" } or convert first)`);
    }
    return d;
  };
  return reduction("mean", "sum", a, options, dtypeOf, (r, n) => e.div(r, e.full(n, r.dtype, r.shape)));
}

function nonEmpty(op: string, x: Tracer, dims: readonly number[]): void {
  for (const d of dims) {
    if (x.shape[d] === 0) {
      throw new ShapeError(`${op}: cannot reduce over dimension ${d} of size 0 (shape ${fmtShape(x.shape)}); the result has no identity`);
    }
  }
  if (dims.length === 0 && x.numel() === 0) throw new ShapeError(`${op}: cannot reduce an empty tensor`);
}

function extreme(op: "amax" | "amin") {
  return (a: Tensor, options: ReduceOptions = {}): Tensor => {
    checkTensor(op, a);
    checkOptions(op, options);
    return run(op, [a], dimKey(options), ([x]) => {
      const t = x as Tracer;
      const dims = normDims(op, options.dim, t.ndim);
      nonEmpty(op, t, dims.length ? dims : t.shape.map((_, i) => i));
      return keep(e.reduce(op === "amax" ? "max" : "min", t, dims), t, dims, options.keepdim);
    });
  };
}

/** Maximum over `dim` (a number or a list); NaN propagates. */
export const amax = extreme("amax");
/** Minimum over `dim` (a number or a list); NaN propagates. */
export const amin = extreme("amin");

export interface ValuesIndices {
  values: Tensor;
  indices: Tensor;
}

function valuesIndices(op: "max" | "min", a: Tensor, dim: number, keepdim: boolean | undefined): ValuesIndices {
  const [values, indices] = runMany(op, [a], `${dim}|${keepdim ? 1 : 0}`, ([x]) => {
    const t = x!;
    const d = normDim(op, dim, t.ndim);
    nonEmpty(op, t, t.ndim === 0 ? [] : [d]);
    const src = t.ndim === 0 ? e.reshape(t, [1]) : t;
    const [v, i] = e.argReduce(op === "max" ? "argmax" : "argmin", src, t.ndim === 0 ? 0 : d);
    return t.ndim === 0 ? [v, i] : [keep(v, t, [d], keepdim), keep(i, t, [d], keepdim)];
  });
  return { values: values!, indices: indices! };
}

/**
 * max(a): the largest value (0-d). max(a, { dim, keepdim }): { values, indices } along dim (the
 * first index of the maximum; NaN counts as largest). max(a, other): the elementwise maximum.
 */
export function max(a: Tensor): Tensor;
export function max(a: Tensor, options: { dim: number; keepdim?: boolean }): ValuesIndices;
export function max(a: Tensor, other: Tensor): Tensor;
export function max(a: Tensor, arg?: Tensor | { dim: number; keepdim?: boolean }): Tensor | ValuesIndices {
  return extremeOf("max", a, arg);
}

/** The min counterpart of max. */
export function min(a: Tensor): Tensor;
export function min(a: Tensor, options: { dim: number; keepdim?: boolean }): ValuesIndices;
export function min(a: Tensor, other: Tensor): Tensor;
export function min(a: Tensor, arg?: Tensor | { dim: number; keepdim?: boolean }): Tensor | ValuesIndices {
  return extremeOf("min", a, arg);
}

function extremeOf(op: "max" | "min", a: Tensor, arg: Tensor | { dim: number; keepdim?: boolean } | undefined): Tensor | ValuesIndices {
  checkTensor(op, a);
  if (arg === undefined) return op === "max" ? amax(a) : amin(a);
  if (typeof arg === "object" && "dim" in arg && typeof arg.dim === "number") return valuesIndices(op, a, arg.dim, arg.keepdim);
  return op === "max" ? maximum(a, arg as Tensor) : minimum(a, arg as Tensor);
}

function argExtreme(op: "argmax" | "argmin") {
  return (a: Tensor, options: { dim?: number; keepdim?: boolean } = {}): Tensor => {
    checkTensor(op, a);
    return run(op, [a], dimKey(options), ([x]) => {
      const t = x as Tracer;
      if (t.dtype === "bool") throw new DTypeError(`${op}: bool input is not supported; convert it to an integer dtype first`);
      const kind = op === "argmax" ? "argmax" : "argmin";
      if (options.dim === undefined) {
        nonEmpty(op, t, []);
        const flat = e.reshape(t, [t.numel()]);
        const [, i] = e.argReduce(kind, flat, 0);
        return options.keepdim ? e.reshape(i, t.shape.map(() => 1)) : i;
      }
      const d = normDim(op, options.dim, t.ndim);
      if (t.ndim === 0) return e.full(0, "int64");
      nonEmpty(op, t, [d]);
      const [, i] = e.argReduce(kind, t, d);
      return keep(i, t, [d], options.keepdim);
    });
  };
}

/** Index of the maximum (over the flattened tensor, or along `dim`), int64. */
export const argmax = argExtreme("argmax");
/** Index of the minimum, int64. */
export const argmin = argExtreme("argmin");

