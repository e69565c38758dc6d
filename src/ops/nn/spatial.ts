/**
 * @file What the spatial ops of nn.functional (convolution, pooling, resampling, unfold) share on
 * their [N, C, ...spatial] inputs: PyTorch's int-or-tuple arguments, unbatched inputs, per-channel
 * vectors and separable linear maps along one dim.
 */
import { ArgumentError, ShapeError } from "../../runtime/errors.js";
import type { Tracer } from "../../trace/tracer.js";
import * as e from "../emit.js";
import { fmtShape } from "../dims.js";

type Dims = readonly number[];

/** PyTorch's `int or tuple of n ints`, checked to be integers at least `min`. */
export function tuple(op: string, name: string, v: number | Dims, n: number, min: number): number[] {
  const out = typeof v === "number" ? new Array<number>(n).fill(v) : v.length === 1 ? new Array<number>(n).fill(v[0]!) : [...v];
  if (out.length !== n || out.some((x) => !Number.isInteger(x) || x < min)) {
    throw new ArgumentError(`${op}: ${name} must be an integer >= ${min} or a list of ${n} of them, got ${JSON.stringify(v)}`);
  }
  return out;
}

/** The input as [N, C, ...spatial]: an unbatched [C, ...spatial] input gets a batch of 1 (undone by `unbatch`). */
export function batched(op: string, x: Tracer, spatial: number): { x: Tracer; unbatch: (y: Tracer) => Tracer } {
  if (x.ndim === spatial + 2) return { x, unbatch: (y) => y };
  if (x.ndim === spatial + 1) return { x: e.reshape(x, [1, ...x.shape]), unbatch: (y) => e.reshape(y, y.shape.slice(1)) };
  throw new ShapeError(`${op}: expected a ${spatial + 1}-d (unbatched) or ${spatial + 2}-d (batched) input, got shape ${fmtShape(x.shape)}`);
}

/** `v` broadcast along dim 1 of a [N, C, ...] tensor of `shape` (a per-channel bias). */
export const perChannel = (v: Tracer, shape: Dims): Tracer => e.broadcastInDim(v, shape, [1]);

/**
 * Applies the [in, out] matrix `m` along `dim` of `x` (a separable linear map such as resampling), at
 * full precision: PyTorch computes these maps as sums, not as matmuls.
 */
export function alongDim(x: Tracer, dim: number, m: Tracer): Tracer {
  const y = e.dotGeneral(x, m, [], [], [dim], [0], { exact: true }); // the new dim comes last
  const perm = x.shape.map((_, i) => (i < dim ? i : i === dim ? x.ndim - 1 : i - 1));
  return e.transpose(y, perm);
}
