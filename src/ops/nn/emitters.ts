/**
 * @file Emitters the nn.functional ops share on top of src/ops/emit.ts: a constant shaped like a
 * tracer, the prims emit.ts does not wrap (expm1, log1p, rsqrt, reverse, pad), a slice along one dim
 * and a constant matrix.
 */
import type { DType } from "../../dtype.js";
import { bind1, type Tracer } from "../../trace/tracer.js";
import * as e from "../emit.js";

export type T = Tracer;
type Dims = readonly number[];
const none = {} as Record<string, never>;

/** A constant of x's dtype and shape. */
export const c = (x: T, v: number): T => e.full(v, x.dtype, x.shape);
export const expm1 = (x: T): T => bind1("expm1", [x], none);
export const log1p = (x: T): T => bind1("log1p", [x], none);
export const rsqrt = (x: T): T => bind1("rsqrt", [x], none);
export const reverse = (x: T, dims: Dims): T => bind1("reverse", [x], { dims });
export const pad = (x: T, value: T, low: Dims, high: Dims): T => bind1("pad", [x, value], { low, high, interior: low.map(() => 0) });

/** `x` sliced to [start, end) along `dim`. */
export function sliceDim(x: T, dim: number, start: number, end: number): T {
  return e.slice(x, x.shape.map((_, i) => (i === dim ? start : 0)), x.shape.map((d, i) => (i === dim ? end : d)));
}

/** A constant [rows, cols] matrix of `dtype` from row-major values. */
export const matrix = (values: number[], rows: number, cols: number, dtype: DType): T =>
  bind1("constant", [], { value: values, dtype, shape: [rows, cols] });
