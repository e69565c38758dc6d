/**
 * @file What reductions share: the `keepdim` reshape and the check that a reduction without an
 * identity (max, argmax, …) has elements to reduce.
 */
import { ShapeError } from "../../runtime/errors.js";
import type { Tracer } from "../../trace/tracer.js";
import { fmtShape } from "../dims.js";
import * as e from "../emit.js";

/** `r` (x reduced over `dims`) with the reduced dims put back as size 1 when `keepdim`. */
export function keep(r: Tracer, x: Tracer, dims: readonly number[], keepdim: boolean): Tracer {
  if (!keepdim) return r;
  return e.reshape(r, x.shape.map((d, i) => (dims.includes(i) ? 1 : d)));
}

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
