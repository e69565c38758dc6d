/**
 * @file nn.functional.fractionalMaxPool2d/3d: max pooling over windows whose starts are spread
 * pseudo-randomly so that `outputSize` windows of `kernelSize` cover the input. The starts along a dim
 * of n inputs and m outputs with sample u in [0, 1) are ⌊(i + u)·α⌋ − ⌊u·α⌋ for i < m − 1 and n − k
 * for the last, α = (n − k)/(m − 1), computed in the input's dtype as PyTorch does; one sample per
 * (batch, channel, spatial dim). `randomSamples` ([N, C, dims], the input's dtype; PyTorch's
 * `_random_samples`) fixes them, otherwise they are drawn from the default generator. The windows are
 * gathered along each dim, so gradients flow through the gathers to the maximum of each window.
 */
import { ArgumentError, DTypeError, ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import { fmtShape } from "../dims.js";
import * as e from "../emit.js";
import { rand } from "../random/factories.js";
import { op } from "../signature/op.js";
import { runMany } from "../unit.js";
import { requireFloat } from "./opmath.js";

type Sizes = number | readonly number[];
interface Options {
  kernelSize: Sizes;
  outputSize?: Sizes | undefined;
  outputRatio?: number | readonly number[] | undefined;
  randomSamples?: Tensor | undefined;
}

const tuple = <V>(v: V | readonly V[], n: number): V[] => (Array.isArray(v) ? [...(v as V[])] : new Array<V>(n).fill(v as V));

/** The window starts along one dim: [N, C, m] int64 from the samples u [N, C] (see the file comment). */
function starts(u: Tracer, inSize: number, outSize: number, kernel: number): Tracer {
  const [n, c] = u.shape as [number, number];
  const shape = [n, c, outSize];
  const last = e.full(inSize - kernel, "int64", shape);
  if (outSize === 1) return last;
  const alpha = e.full((inSize - kernel) / (outSize - 1), u.dtype, shape);
  const uu = e.broadcastInDim(u, shape, [0, 1]);
  const at = e.convert(e.mul(e.add(e.iota(u.dtype, shape, 2), uu), alpha), "int64"); // truncation: the values are ≥ 0
  const spread = e.sub(at, e.convert(e.mul(uu, alpha), "int64"));
  return e.select(e.compare(e.iota("int64", shape, 2), e.full(outSize - 1, "int64", shape), "LT"), spread, last);
}

function fractionalMaxPool(op: string, dims: 2 | 3, input: Tensor, o: Options): [Tensor, Tensor] {
  requireFloat(op, input);
  if (input.ndim !== dims + 1 && input.ndim !== dims + 2) throw new ShapeError(`${op}: expected a ${dims + 1}-d or ${dims + 2}-d input ([N, C, ...] or [C, ...] with ${dims} spatial dims), got ${fmtShape(input.shape)}`);
  const spatial = input.shape.slice(-dims);
  const batch = input.ndim === dims + 2 ? input.shape[0]! : 1;
  const channels = input.shape[input.ndim - dims - 1]!;
  const kernel = tuple(o.kernelSize, dims);
  if (kernel.length !== dims || kernel.some((k) => !Number.isInteger(k) || k < 1)) throw new ArgumentError(`${op}: kernelSize must be a positive int or ${dims} of them, got ${JSON.stringify(o.kernelSize)}`);
  if ((o.outputSize === undefined) === (o.outputRatio === undefined)) {
    throw new ArgumentError(`${op}: give exactly one of outputSize and outputRatio, got ${o.outputSize === undefined ? "neither" : "both"}`);
  }
  let out: number[];
  if (o.outputSize !== undefined) out = tuple(o.outputSize, dims);
  else {
    const ratio = tuple(o.outputRatio!, dims);
    if (ratio.length !== dims || ratio.some((r) => !(r > 0 && r < 1))) throw new ArgumentError(`${op}: outputRatio must be in (0, 1), got ${JSON.stringify(o.outputRatio)}`);
    out = spatial.map((s, k) => Math.floor(s * ratio[k]!));
  }
  if (out.length !== dims || out.some((m) => !Number.isInteger(m) || m < 0)) throw new ArgumentError(`${op}: outputSize must be a non-negative int or ${dims} of them, got ${JSON.stringify(o.outputSize)}`);
  // PyTorch lets the 2-d windows reach the last input, the 3-d ones not
  const reach = dims === 2 ? 0 : 1;
  spatial.forEach((s, k) => {
    if (out[k]! + kernel[k]! - 1 > s - reach) {
      throw new ShapeError(`${op}: pool size ${kernel[k]} too large relative to input size ${s} in spatial dim ${k} for an output of ${out[k]} (output + pool − 1 must be ${dims === 2 ? "at most" : "less than"} the input)`);
    }
  });
  let samples = o.randomSamples;
  if (samples !== undefined) {
    if (samples.dtype !== input.dtype) throw new DTypeError(`${op}: randomSamples must have the input's dtype ${input.dtype}, got ${samples.dtype}`);
    if (samples.ndim !== 3 || samples.shape[0]! < batch || samples.shape[1] !== channels || samples.shape[2] !== dims) {
      throw new ShapeError(`${op}: randomSamples must be [N, C, ${dims}] with N at least the batch (${batch}) and C the channels (${channels}), got ${fmtShape(samples.shape)}`);
    }
  }
  const drawn = samples === undefined ? (samples = rand([batch, channels, dims], { dtype: input.dtype, device: input.device })) : undefined;
  try {
    const statics = `${kernel}|${out}`;
    const [values, indices] = runMany(op, [input, samples], statics, ([x0, s0]) => {
      const x = e.reshape(x0 as Tracer, [batch, channels, ...spatial]);
      const s = e.slice(s0 as Tracer, [0, 0, 0], [batch, channels, dims]);
      // PyTorch's 2-d pooling takes sample 1 for the height and 0 for the width; 3-d ones in order
      const sampleOf = (k: number): number => (dims === 2 ? 1 - k : k);
      const startsOf = spatial.map((size, k) => starts(e.reshape(e.slice(s, [0, 0, sampleOf(k)], [batch, channels, sampleOf(k) + 1]), [batch, channels]), size, out[k]!, kernel[k]!));
      // gather the windows along each spatial dim: [N, C, m0·k0, m1·k1, …]
      let g = x;
      startsOf.forEach((st, k) => {
        const w = out[k]! * kernel[k]!;
        const offsets = e.iota("int64", [batch, channels, out[k]!, kernel[k]!], 3);
        const rows = e.reshape(e.add(e.broadcastInDim(st, [batch, channels, out[k]!, kernel[k]!], [0, 1, 2]), offsets), [batch, channels, w]);
        const shape = g.shape.map((d, i) => (i === 2 + k ? w : d));
        g = e.gatherAlong(g, e.broadcastInDim(rows, shape, [0, 1, 2 + k]), 2 + k);
      });
      const split = [batch, channels, ...out.flatMap((m, k) => [m, kernel[k]!])];
      const perm = [0, 1, ...out.map((_, k) => 2 + 2 * k), ...out.map((_, k) => 3 + 2 * k)];
      const window = kernel.reduce((a, b) => a * b, 1);
      const windows = e.reshape(e.transpose(e.reshape(g, split), perm), [batch, channels, ...out, window]);
      const last = 2 + dims;
      const maxima = e.reduce("max", windows, [last]);
      const [, position] = e.argReduce("argmax", windows, last);
      // the flat index in the input plane: Σ (start_k + offset_k) · stride_k
      const outShape = [batch, channels, ...out];
      let flat = e.full(0, "int64", outShape);
      let rest = position;
      let stride = 1;
      for (let k = dims - 1; k >= 0; k--) {
        const kk = e.full(kernel[k]!, "int64", outShape);
        const offset = e.rem(rest, kk);
        rest = e.div(rest, kk);
        const coordinate = e.add(e.broadcastInDim(startsOf[k]!, outShape, [0, 1, 2 + k]), offset);
        flat = e.add(flat, e.mul(coordinate, e.full(stride, "int64", outShape)));
        stride *= spatial[k]!;
      }
      const shape = input.ndim === dims + 2 ? outShape : outShape.slice(1);
      return [e.reshape(maxima, shape), e.reshape(flat, shape)];
    });
    return [values!, indices!];
  } finally {
    drawn?.dispose();
  }
}

const doc = (dims: number, layout: string) =>
  `Fractional max pooling of ${layout} over windows of kernelSize whose starts are spread by one sample in [0, 1) per (batch, channel, dim) (\`randomSamples\`, [N, C, ${dims}] of the input's dtype; drawn from the default generator when not given), to outputSize or floor(input size × outputRatio); with returnIndices also the flat index of each maximum in its input plane (int64).`;

export const fractionalMaxPool2d = op(
  [
    "fractionalMaxPool2d(input: Tensor, kernelSize: int | int[], outputSize?: int | int[], outputRatio?: float | float[], returnIndices: false = false, randomSamples?: Tensor) -> Tensor",
    "fractionalMaxPool2d(input: Tensor, kernelSize: int | int[], outputSize?: int | int[], outputRatio?: float | float[], returnIndices: true = true, randomSamples?: Tensor) -> (Tensor, Tensor)",
  ],
  { doc: doc(2, "[N, C, H, W] (or [C, H, W])") },
  [
    ({ input, returnIndices: _, ...o }) => fractionalMaxPool("fractionalMaxPool2d", 2, input, o)[0],
    ({ input, returnIndices: _, ...o }) => fractionalMaxPool("fractionalMaxPool2d", 2, input, o),
  ],
);

export const fractionalMaxPool3d = op(
  [
    "fractionalMaxPool3d(input: Tensor, kernelSize: int | int[], outputSize?: int | int[], outputRatio?: float | float[], returnIndices: false = false, randomSamples?: Tensor) -> Tensor",
    "fractionalMaxPool3d(input: Tensor, kernelSize: int | int[], outputSize?: int | int[], outputRatio?: float | float[], returnIndices: true = true, randomSamples?: Tensor) -> (Tensor, Tensor)",
  ],
  { doc: doc(3, "[N, C, T, H, W] (or [C, T, H, W])") },
  [
    ({ input, returnIndices: _, ...o }) => fractionalMaxPool("fractionalMaxPool3d", 3, input, o)[0],
    ({ input, returnIndices: _, ...o }) => fractionalMaxPool("fractionalMaxPool3d", 3, input, o),
  ],
);
