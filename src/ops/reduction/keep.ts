/**
 * @file What reductions share: the `keepdim` reshape, the check that a reduction without an
 * identity (max, argmax, …) has elements to reduce, the static key of `dim`/`keepdim`, and `x != 0`.
 * How float16/bfloat16 accumulate is src/ops/accumulate.ts.
 */
import { ShapeError } from "../../runtime/errors.js";
import type { Tracer } from "../../trace/tracer.js";
import { fmtShape } from "../dims.js";
import * as e from "../emit.js";

/** The shape of `x` with `dims` kept as size 1. */
export const keptShape = (x: Tracer, dims: readonly number[]): number[] => x.shape.map((d, i) => (dims.includes(i) ? 1 : d));

/** `r` (x reduced over `dims`) with the reduced dims put back as size 1 when `keepdim`. */
export function keep(r: Tracer, x: Tracer, dims: readonly number[], keepdim: boolean): Tracer {
  return keepdim ? e.reshape(r, keptShape(x, dims)) : r;
}

/** x != 0 (x itself for bool); NaN counts as nonzero. */
export const isNonzero = (x: Tracer): Tracer => (x.dtype === "bool" ? x : e.compare(x, e.full(0, x.dtype, x.shape), "NE"));

/** The number of elements reduced over `dims`. */
export const countOver = (x: { readonly shape: readonly number[] }, dims: readonly number[]): number => dims.reduce((n, d) => n * x.shape[d]!, 1);

/** ShapeError when a reduction without an identity would reduce an empty dim. */
export function nonEmpty(op: string, x: Tracer, dims: readonly number[]): void {
  for (const d of dims) {
    if (x.shape[d] === 0) {
      throw new ShapeError(`${op}: cannot reduce over dimension ${d} of size 0 (shape ${fmtShape(x.shape)}); the result has no identity`);
    }
  }
  if (dims.length === 0 && x.numel() === 0) throw new ShapeError(`${op}: cannot reduce an empty tensor`);
}

/** The static key of a reduction's `dim` and `keepdim`. */
export const dimKey = (dim: number | readonly number[] | undefined, keepdim: boolean): string =>
  `${dim === undefined ? "all" : typeof dim === "number" ? dim : dim.join(",")}|${keepdim ? 1 : 0}`;
