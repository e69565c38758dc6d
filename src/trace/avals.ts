/**
 * @file Interned avals: each distinct (dtype, shape) gets a small integer id once, so an eager
 * signature compares numbers instead of building shape strings. A tensor caches its id.
 */
import type { DType } from "../dtype.js";
import { avalSlot, type Tensor } from "../tensor.js";

const ids = new Map<string, number>();

/** The id of (dtype, shape); the same pair always gets the same id. */
export function internAval(dtype: DType, shape: readonly number[]): number {
  let key: string = dtype;
  for (let d = 0; d < shape.length; d++) key += "," + shape[d];
  let id = ids.get(key);
  if (id === undefined) ids.set(key, (id = ids.size));
  return id;
}

/** The tensor's aval id, interned on first use. */
export function avalOf(t: Tensor): number {
  let id = avalSlot.get(t);
  if (id < 0) avalSlot.set(t, (id = internAval(t.dtype, t.shape)));
  return id;
}
