/**
 * @file maxUnpool1d/2d/3d (nn.functional): the partial inverse of max pooling. Each input value is
 * written at its index (a flat position in its channel's output plane, as max pooling returns them)
 * into zeros, with one scatter. The indices are read back to the host first: one outside the output
 * plane is an error, as in PyTorch.
 */
import { ArgumentError, DTypeError, ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import * as e from "../emit.js";
import { fmtShape } from "../dims.js";
import { checkIndicesOnHost } from "../indexing/gather_scatter.js";
import { op } from "../signature/op.js";
import { run } from "../unit.js";
import { floating } from "./opmath.js";
import { batched, tuple } from "./spatial.js";

type IntOrList = number | readonly number[];

interface UnpoolArgs {
  input: Tensor;
  indices: Tensor;
  kernelSize: IntOrList;
  stride: IntOrList | undefined;
  padding: IntOrList;
  outputSize: readonly number[] | undefined;
}

/** The output plane: PyTorch's default size, or outputSize (n sizes, or n + 2 with N and C) within a stride of it. */
function outputPlane(op: string, spatial: readonly number[], a: UnpoolArgs): number[] {
  const n = spatial.length;
  const kernel = tuple(op, "kernelSize", a.kernelSize, n, 1);
  const stride = a.stride === undefined || (Array.isArray(a.stride) && a.stride.length === 0) ? kernel : tuple(op, "stride", a.stride, n, 1);
  const pad = tuple(op, "padding", a.padding, n, 0);
  const defaults = spatial.map((s, i) => (s - 1) * stride[i]! - 2 * pad[i]! + kernel[i]!);
  if (a.outputSize === undefined) return defaults;
  const given = a.outputSize.length === n + 2 ? a.outputSize.slice(2) : a.outputSize;
  if (given.length !== n) throw new ArgumentError(`${op}: outputSize must have ${n} or ${n + 2} entries, got ${fmtShape(a.outputSize)}`);
  given.forEach((size, i) => {
    const [lo, hi] = [defaults[i]! - stride[i]!, defaults[i]! + stride[i]!];
    if (!Number.isInteger(size) || size <= lo || size >= hi) throw new ArgumentError(`${op}: outputSize ${fmtShape(given)} is invalid: dim ${i} must be between ${lo} and ${hi} (exclusive)`);
  });
  return [...given];
}

function maxUnpool(op: string, n: number, a: UnpoolArgs): Tensor {
  const { input, indices } = a;
  if (indices.dtype !== "int64") throw new DTypeError(`${op}: indices must be int64 (as max pooling returns them), got ${indices.dtype}`);
  if (indices.shape.length !== input.shape.length || indices.shape.some((d, i) => d !== input.shape[i])) {
    throw new ShapeError(`${op}: indices ${fmtShape(indices.shape)} must have the input's shape ${fmtShape(input.shape)}`);
  }
  if (input.ndim !== n + 1 && input.ndim !== n + 2) {
    throw new ShapeError(`${op}: expected a ${n + 1}-d (unbatched) or ${n + 2}-d (batched) input, got shape ${fmtShape(input.shape)}`);
  }
  floating(op, input.dtype);
  const out = outputPlane(op, input.shape.slice(-n), a);
  checkIndicesOnHost(op, indices, out.reduce((p, q) => p * q, 1), false, `an output plane of ${out.join("x")}`);
  return run(op, [input, indices], JSON.stringify([a.kernelSize, a.stride ?? null, a.padding, a.outputSize ?? null]), ([xi, ii]) => {
    const { x, unbatch } = batched(op, xi as Tracer, n);
    const idx = batched(op, ii as Tracer, n).x;
    const [batch, channels] = [x.shape[0]!, x.shape[1]!];
    const length = x.shape.slice(2).reduce((p, q) => p * q, 1);
    const zeros = e.full(0, x.dtype, [batch, channels, out.reduce((p, q) => p * q, 1)]);
    const y = e.scatterAlong(zeros, 2, e.reshape(idx, [batch, channels, length]), e.reshape(x, [batch, channels, length]), "replace");
    return unbatch(e.reshape(y, [batch, channels, ...out]));
  });
}

const unpoolDoc = (n: number, layout: string): string =>
  `Partial inverse of maxPool${n}d: input ${layout} and its indices (from maxPool${n}d with returnIndices) → zeros with each value at its index. stride defaults to kernelSize; outputSize picks among the sizes that pool to the input's. The indices are read back to the host to check that each lies in its output plane.`;

export const maxUnpool1d = op(
  "maxUnpool1d(input: Tensor, indices: Tensor, kernelSize: int | int[], stride?: int | int[], padding: int | int[] = 0, outputSize?: int[]) -> Tensor",
  { doc: unpoolDoc(1, "[N, C, L] (or [C, L])") },
  (a) => maxUnpool("maxUnpool1d", 1, a),
);

export const maxUnpool2d = op(
  "maxUnpool2d(input: Tensor, indices: Tensor, kernelSize: int | int[], stride?: int | int[], padding: int | int[] = 0, outputSize?: int[]) -> Tensor",
  { doc: unpoolDoc(2, "[N, C, H, W] (or [C, H, W])") },
  (a) => maxUnpool("maxUnpool2d", 2, a),
);

export const maxUnpool3d = op(
  "maxUnpool3d(input: Tensor, indices: Tensor, kernelSize: int | int[], stride?: int | int[], padding: int | int[] = 0, outputSize?: int[]) -> Tensor",
  { doc: unpoolDoc(3, "[N, C, D, H, W] (or [C, D, H, W])") },
  (a) => maxUnpool("maxUnpool3d", 3, a),
);
