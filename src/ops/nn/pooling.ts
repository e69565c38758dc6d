/**
 * @file maxPool1d/2d, avgPool1d/2d and adaptiveAvgPool1d/2d (nn.functional) on [N, C, …] or unbatched
 * [C, …] inputs. Pools are reduce_windows over the spatial dims; ceilMode adds high padding so the last
 * partial window is kept (PyTorch drops a window that would start in the right padding).
 */
import { ArgumentError, ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import { inOpmath } from "../accumulate.js";
import * as e from "../emit.js";
import type { WindowParams } from "../prims_window.js";
import { fmtShape } from "../dims.js";
import { op } from "../signature/op.js";
import { run, runMany } from "../unit.js";
import { matrix } from "./emitters.js";
import { floating } from "./opmath.js";
import { alongDim, batched, tuple } from "./spatial.js";

type IntOrList = number | readonly number[];

/** The window arguments pools share (maxPool's dilation; avgPool has none). */
interface PoolArgs {
  kernelSize: IntOrList;
  stride: IntOrList | undefined;
  padding: IntOrList;
  dilation?: IntOrList;
  ceilMode: boolean;
}

interface Geometry {
  kernel: number[];
  stride: number[];
  pad: number[];
  dil: number[];
  /** High padding per spatial dim (pad, or more in ceil mode). */
  high: number[];
  out: number[];
}

function geometry(op: string, spatial: readonly number[], o: PoolArgs): Geometry {
  const n = spatial.length;
  const kernel = tuple(op, "kernelSize", o.kernelSize, n, 1);
  const stride = o.stride === undefined || (Array.isArray(o.stride) && o.stride.length === 0) ? kernel : tuple(op, "stride", o.stride, n, 1);
  const pad = tuple(op, "padding", o.padding, n, 0);
  const dil = tuple(op, "dilation", o.dilation ?? 1, n, 1);
  const out: number[] = [];
  const high: number[] = [];
  spatial.forEach((size, i) => {
    const span = dil[i]! * (kernel[i]! - 1) + 1;
    if (pad[i]! * 2 > kernel[i]!) throw new ArgumentError(`${op}: padding ${pad[i]} should be at most half of the kernel size ${kernel[i]}`);
    const room = size + 2 * pad[i]! - span;
    if (room < 0) throw new ShapeError(`${op}: kernel ${fmtShape(kernel)} (dilated) is larger than the padded input ${fmtShape(spatial)}`);
    let count = (o.ceilMode ? Math.ceil(room / stride[i]!) : Math.floor(room / stride[i]!)) + 1;
    if (o.ceilMode && (count - 1) * stride[i]! >= size + pad[i]!) count -= 1;
    out.push(count);
    high.push(Math.max(pad[i]!, (count - 1) * stride[i]! + span - size - pad[i]!));
  });
  return { kernel, stride, pad, dil, high, out };
}

/** The window over [N, C, …spatial] (size 1 over N and C). */
function window(g: Geometry): WindowParams {
  return {
    window: [1, 1, ...g.kernel], strides: [1, 1, ...g.stride], baseDilation: [1, 1, ...g.kernel.map(() => 1)],
    windowDilation: [1, 1, ...g.dil], padding: [[0, 0], [0, 0], ...g.pad.map((p, i) => [p, g.high[i]!] as const)],
  };
}

const keyOf = (o: PoolArgs): string => `${o.kernelSize}|${o.stride ?? ""}|${o.padding}|${o.dilation ?? ""}|${o.ceilMode}`;

/** Max pooling over the last n dims; with indices, each maximum's flat position in its channel's plane, as in PyTorch. */
function maxPool(op: string, n: number, input: Tensor, a: PoolArgs, returnIndices: boolean): Tensor[] {
  return runMany(op, [input], `${keyOf(a)}|${returnIndices}`, ([xi]) => {
    const { x, unbatch } = batched(op, xi!, n);
    if (x.dtype === "bool") throw new ArgumentError(`${op}: bool input is not supported; convert it first`);
    const g = geometry(op, x.shape.slice(2), a);
    if (!returnIndices) return [unbatch(e.reduceWindow("max", x, window(g)))];
    const plane = x.shape.slice(2);
    const flat = e.reshape(e.iota("int64", [plane.reduce((p, q) => p * q, 1)], 0), plane);
    const indices = e.broadcastInDim(flat, x.shape, plane.map((_, i) => 2 + i));
    const [v, i] = e.reduceWindowArg("argmax", x, indices, window(g));
    return [unbatch(v), unbatch(i)];
  });
}

const maxPoolDoc = (n: number, layout: string, indices: string): string =>
  `${n}-d max pooling over ${layout}; returnIndices: true also gives each maximum's position (${indices}). stride defaults to kernelSize.`;

export const maxPool1d = op(
  [
    "maxPool1d(input: Tensor, kernelSize: int | int[], stride?: int | int[], padding: int | int[] = 0, dilation: int | int[] = 1, ceilMode: bool = false, returnIndices: false = false) -> Tensor",
    "maxPool1d(input: Tensor, kernelSize: int | int[], stride?: int | int[], padding: int | int[] = 0, dilation: int | int[] = 1, ceilMode: bool = false, returnIndices: true = true) -> (Tensor, Tensor)",
  ],
  { doc: maxPoolDoc(1, "[N, C, L] (or [C, L])", "an index along L") },
  [
    ({ input, returnIndices, ...a }) => maxPool("maxPool1d", 1, input, a, returnIndices)[0]!,
    ({ input, returnIndices, ...a }) => maxPool("maxPool1d", 1, input, a, returnIndices) as [Tensor, Tensor],
  ],
);

export const maxPool2d = op(
  [
    "maxPool2d(input: Tensor, kernelSize: int | int[], stride?: int | int[], padding: int | int[] = 0, dilation: int | int[] = 1, ceilMode: bool = false, returnIndices: false = false) -> Tensor",
    "maxPool2d(input: Tensor, kernelSize: int | int[], stride?: int | int[], padding: int | int[] = 0, dilation: int | int[] = 1, ceilMode: bool = false, returnIndices: true = true) -> (Tensor, Tensor)",
  ],
  { doc: maxPoolDoc(2, "[N, C, H, W] (or [C, H, W])", "the flat position h·W + w") },
  [
    ({ input, returnIndices, ...a }) => maxPool("maxPool2d", 2, input, a, returnIndices)[0]!,
    ({ input, returnIndices, ...a }) => maxPool("maxPool2d", 2, input, a, returnIndices) as [Tensor, Tensor],
  ],
);

function avgPool(op: string, n: number, input: Tensor, a: PoolArgs, countIncludePad: boolean, divisorOverride: number | undefined): Tensor {
  return run(op, [input], `${keyOf(a)}|${countIncludePad}|${divisorOverride ?? ""}`, ([xi]) => {
    const { x, unbatch } = batched(op, xi as Tracer, n);
    floating(op, x.dtype);
    const g = geometry(op, x.shape.slice(2), a);
    // Window sums of half inputs accumulate in float32 and round once, as PyTorch's do.
    const mean = inOpmath(x, (wide) => {
      const sums = e.reduceWindow("sum", wide, window(g));
      if (divisorOverride !== undefined) {
        if (!Number.isFinite(divisorOverride) || divisorOverride === 0) throw new ArgumentError(`${op}: divisorOverride must be a non-zero number`);
        return e.div(sums, e.full(divisorOverride, wide.dtype, sums.shape));
      }
      // Count what each window covers: the input (and its padding, by default), never the ceil-mode overhang.
      const spatial = x.shape.slice(2).map((d, i) => (countIncludePad ? d + 2 * g.pad[i]! : d));
      const counts = e.reduceWindow("sum", e.full(1, wide.dtype, spatial), {
        window: g.kernel, strides: g.stride, baseDilation: g.kernel.map(() => 1), windowDilation: g.kernel.map(() => 1),
        padding: g.pad.map((p, i) => (countIncludePad ? [0, g.high[i]! - p] as const : [p, g.high[i]!] as const)),
      });
      return e.div(sums, e.broadcastInDim(counts, sums.shape, counts.shape.map((_, i) => 2 + i)));
    });
    return unbatch(mean);
  });
}

export const avgPool1d = op(
  "avgPool1d(input: Tensor, kernelSize: int | int[], stride?: int | int[], padding: int | int[] = 0, ceilMode: bool = false, countIncludePad: bool = true) -> Tensor",
  { doc: "1-d average pooling over [N, C, L] (or [C, L]); stride defaults to kernelSize, and countIncludePad counts the zero padding in each window's divisor." },
  ({ input, kernelSize, stride, padding, ceilMode, countIncludePad }) => avgPool("avgPool1d", 1, input, { kernelSize, stride, padding, ceilMode }, countIncludePad, undefined),
);

export const avgPool2d = op(
  "avgPool2d(input: Tensor, kernelSize: int | int[], stride?: int | int[], padding: int | int[] = 0, ceilMode: bool = false, countIncludePad: bool = true, divisorOverride?: float) -> Tensor",
  { doc: "2-d average pooling over [N, C, H, W] (or [C, H, W]); stride defaults to kernelSize, countIncludePad counts the zero padding in the divisor, and divisorOverride replaces it (any non-zero number here, an int in PyTorch)." },
  ({ input, kernelSize, stride, padding, ceilMode, countIncludePad, divisorOverride }) =>
    avgPool("avgPool2d", 2, input, { kernelSize, stride, padding, ceilMode }, countIncludePad, divisorOverride),
);

/** The [in, out] averaging matrix of adaptive pooling: output i averages inputs [⌊i·in/out⌋, ⌈(i+1)·in/out⌉). */
function adaptiveMatrix(size: number, out: number): number[] {
  const m = new Array<number>(size * out).fill(0);
  for (let i = 0; i < out; i++) {
    const start = Math.floor((i * size) / out);
    const end = Math.ceil(((i + 1) * size) / out);
    for (let l = start; l < end; l++) m[l * out + i] = 1 / (end - start);
  }
  return m;
}

function adaptiveAvgPool(op: string, n: number, input: Tensor, outputSize: IntOrList): Tensor {
  return run(op, [input], String(outputSize), ([xi]) => {
    const { x, unbatch } = batched(op, xi as Tracer, n);
    floating(op, x.dtype);
    const out = tuple(op, "outputSize", outputSize, n, 1);
    // Half inputs are averaged in float32 (weights and sums) and rounded once, as PyTorch does.
    const y = inOpmath(x, (wide) => {
      let r = wide;
      out.forEach((o, i) => {
        const size = x.shape[2 + i]!;
        if (size === 0) throw new ShapeError(`${op}: input ${fmtShape(x.shape)} has an empty spatial dimension`);
        r = alongDim(r, 2 + i, matrix(adaptiveMatrix(size, o), size, o, wide.dtype));
      });
      return r;
    });
    return unbatch(y);
  });
}

export const adaptiveAvgPool1d = op(
  "adaptiveAvgPool1d(input: Tensor, outputSize: int | int[]) -> Tensor",
  { doc: "Adaptive average pooling of [N, C, L] (or [C, L]) to `outputSize`: output i averages inputs [⌊i·L/out⌋, ⌈(i+1)·L/out⌉)." },
  ({ input, outputSize }) => adaptiveAvgPool("adaptiveAvgPool1d", 1, input, outputSize),
);

export const adaptiveAvgPool2d = op(
  "adaptiveAvgPool2d(input: Tensor, outputSize: int | int[]) -> Tensor",
  { doc: "Adaptive average pooling of [N, C, H, W] (or [C, H, W]) to `outputSize` (an int or [h, w]); PyTorch's null entries (keep that size) are not supported." },
  ({ input, outputSize }) => adaptiveAvgPool("adaptiveAvgPool2d", 2, input, outputSize),
);
