/**
 * @file What the shape ops share: a slice of one dim (split, narrow, roll, diagonal), the one-input
 * unit they run as, and the static key of a list of ints.
 */
import type { Tensor } from "../../tensor.js";
import { bind1, type Tracer } from "../../trace/tracer.js";
import { run } from "../unit.js";

/** Elements start, start + step, … (before stop) of dim `d`; the other dims whole. */
export function sliceDim(x: Tracer, d: number, start: number, stop: number, step = 1): Tracer {
  const s = x.shape.map(() => 0);
  const l = [...x.shape];
  const st = x.shape.map(() => 1);
  s[d] = start;
  l[d] = stop;
  st[d] = step;
  return bind1("slice", [x], { start: s, limit: l, strides: st });
}

/** One tensor in, one out, as one unit keyed by `statics`. */
export function unary(op: string, a: Tensor, statics: string, body: (x: Tracer) => Tracer): Tensor {
  return run(op, [a], statics, ([x]) => body(x as Tracer));
}

/** The static key of an int or a list of ints ("1", "[1,2]"). */
export const intsKey = (v: number | readonly number[]): string => (typeof v === "number" ? String(v) : `[${v.join(",")}]`);
