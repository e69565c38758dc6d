/**
 * @file Max, average, Lp and adaptive pooling in 1-3 d (nn.functional) on [N, C, …] or unbatched
 * [C, …] inputs. Pools are reduce_windows over the spatial dims; ceilMode adds high padding so the last
 * partial window is kept (PyTorch drops a window that would start in the right padding). Adaptive max
 * pools gather their uneven windows.
 */
import { ArgumentError, ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import { bind1, type Tracer } from "../../trace/tracer.js";
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

export const maxPool3d = op(
  [
    "maxPool3d(input: Tensor, kernelSize: int | int[], stride?: int | int[], padding: int | int[] = 0, dilation: int | int[] = 1, ceilMode: bool = false, returnIndices: false = false) -> Tensor",
    "maxPool3d(input: Tensor, kernelSize: int | int[], stride?: int | int[], padding: int | int[] = 0, dilation: int | int[] = 1, ceilMode: bool = false, returnIndices: true = true) -> (Tensor, Tensor)",
  ],
  { doc: maxPoolDoc(3, "[N, C, D, H, W] (or [C, D, H, W])", "the flat position d·H·W + h·W + w") },
  [
    ({ input, returnIndices, ...a }) => maxPool("maxPool3d", 3, input, a, returnIndices)[0]!,
    ({ input, returnIndices, ...a }) => maxPool("maxPool3d", 3, input, a, returnIndices) as [Tensor, Tensor],
  ],
);

const withIndicesDoc = (pool: string): string => `${pool}'s values and indices, always both (returnIndices is ignored, as in PyTorch).`;

export const maxPool1dWithIndices = op(
  "maxPool1dWithIndices(input: Tensor, kernelSize: int | int[], stride?: int | int[], padding: int | int[] = 0, dilation: int | int[] = 1, ceilMode: bool = false, returnIndices: bool = false) -> (Tensor, Tensor)",
  { doc: withIndicesDoc("maxPool1d") },
  ({ input, returnIndices: _, ...a }) => maxPool("maxPool1dWithIndices", 1, input, a, true) as [Tensor, Tensor],
);

export const maxPool2dWithIndices = op(
  "maxPool2dWithIndices(input: Tensor, kernelSize: int | int[], stride?: int | int[], padding: int | int[] = 0, dilation: int | int[] = 1, ceilMode: bool = false, returnIndices: bool = false) -> (Tensor, Tensor)",
  { doc: withIndicesDoc("maxPool2d") },
  ({ input, returnIndices: _, ...a }) => maxPool("maxPool2dWithIndices", 2, input, a, true) as [Tensor, Tensor],
);

export const maxPool3dWithIndices = op(
  "maxPool3dWithIndices(input: Tensor, kernelSize: int | int[], stride?: int | int[], padding: int | int[] = 0, dilation: int | int[] = 1, ceilMode: bool = false, returnIndices: bool = false) -> (Tensor, Tensor)",
  { doc: withIndicesDoc("maxPool3d") },
  ({ input, returnIndices: _, ...a }) => maxPool("maxPool3dWithIndices", 3, input, a, true) as [Tensor, Tensor],
);

/**
 * Window means of the batched `wide` (x in its opmath dtype): the window sums over the count each window
 * covers (the input and, by default, its padding, never the ceil-mode overhang) or over divisorOverride.
 */
function windowMean(op: string, wide: Tracer, g: Geometry, countIncludePad: boolean, divisorOverride: number | undefined): Tracer {
  const sums = e.reduceWindow("sum", wide, window(g));
  if (divisorOverride !== undefined) {
    if (!Number.isFinite(divisorOverride) || divisorOverride === 0) throw new ArgumentError(`${op}: divisorOverride must be a non-zero number`);
    return e.div(sums, e.full(divisorOverride, wide.dtype, sums.shape));
  }
  const spatial = wide.shape.slice(2).map((d, i) => (countIncludePad ? d + 2 * g.pad[i]! : d));
  const counts = e.reduceWindow("sum", e.full(1, wide.dtype, spatial), {
    window: g.kernel, strides: g.stride, baseDilation: g.kernel.map(() => 1), windowDilation: g.kernel.map(() => 1),
    padding: g.pad.map((p, i) => (countIncludePad ? [0, g.high[i]! - p] as const : [p, g.high[i]!] as const)),
  });
  return e.div(sums, e.broadcastInDim(counts, sums.shape, counts.shape.map((_, i) => 2 + i)));
}

function avgPool(op: string, n: number, input: Tensor, a: PoolArgs, countIncludePad: boolean, divisorOverride: number | undefined): Tensor {
  return run(op, [input], `${keyOf(a)}|${countIncludePad}|${divisorOverride ?? ""}`, ([xi]) => {
    const { x, unbatch } = batched(op, xi as Tracer, n);
    floating(op, x.dtype);
    const g = geometry(op, x.shape.slice(2), a);
    // Window sums of half inputs accumulate in float32 and round once, as PyTorch's do.
    return unbatch(inOpmath(x, (wide) => windowMean(op, wide, g, countIncludePad, divisorOverride)));
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

export const avgPool3d = op(
  "avgPool3d(input: Tensor, kernelSize: int | int[], stride?: int | int[], padding: int | int[] = 0, ceilMode: bool = false, countIncludePad: bool = true, divisorOverride?: float) -> Tensor",
  { doc: "3-d average pooling over [N, C, D, H, W] (or [C, D, H, W]); the options are avgPool2d's." },
  ({ input, kernelSize, stride, padding, ceilMode, countIncludePad, divisorOverride }) =>
    avgPool("avgPool3d", 3, input, { kernelSize, stride, padding, ceilMode }, countIncludePad, divisorOverride),
);

/**
 * Lp pooling as PyTorch computes it: (Σ xᵖ over each window, scaled by kernel size / elements covered)^(1/p).
 * No padding; a ceil-mode window that overhangs the input is scaled up to a full one.
 */
function lpPool(op: string, n: number, input: Tensor, normType: number, kernelSize: IntOrList, stride: IntOrList | undefined, ceilMode: boolean): Tensor {
  return run(op, [input], `${normType}|${keyOf({ kernelSize, stride, padding: 0, ceilMode })}`, ([xi]) => {
    const { x, unbatch } = batched(op, xi as Tracer, n);
    floating(op, x.dtype);
    if (Number.isNaN(normType) || normType === 0) throw new ArgumentError(`${op}: normType must be a non-zero number, got ${normType}`);
    const g = geometry(op, x.shape.slice(2), { kernelSize, stride, padding: 0, ceilMode });
    const y = inOpmath(x, (wide) => {
      const mean = windowMean(op, e.pow(wide, e.full(normType, wide.dtype, wide.shape)), g, true, undefined);
      const size = g.kernel.reduce((p, q) => p * q, 1);
      const sum = e.mul(mean, e.full(size, wide.dtype, mean.shape));
      // a window of zeros (common after a relu) has gradient 0, as PyTorch's: its root is taken of 1 instead
      const nonzero = e.compare(sum, e.full(0, sum.dtype, sum.shape), "NE");
      const root = e.pow(e.select(nonzero, sum, e.full(1, sum.dtype, sum.shape)), e.full(1 / normType, sum.dtype, sum.shape));
      return e.select(nonzero, root, e.full(0 ** (1 / normType), sum.dtype, sum.shape));
    });
    return unbatch(y);
  });
}

const lpDoc = (n: number, layout: string): string =>
  `${n}-d power-average pooling over ${layout}: (Σ xᵖ)^(1/p) over each window (p = normType); stride defaults to kernelSize. Floating inputs only.`;

export const lpPool1d = op(
  "lpPool1d(input: Tensor, normType: float, kernelSize: int | int[], stride?: int | int[], ceilMode: bool = false) -> Tensor",
  { doc: lpDoc(1, "[N, C, L] (or [C, L])") },
  ({ input, normType, kernelSize, stride, ceilMode }) => lpPool("lpPool1d", 1, input, normType, kernelSize, stride, ceilMode),
);

export const lpPool2d = op(
  "lpPool2d(input: Tensor, normType: float, kernelSize: int | int[], stride?: int | int[], ceilMode: bool = false) -> Tensor",
  { doc: lpDoc(2, "[N, C, H, W] (or [C, H, W])") },
  ({ input, normType, kernelSize, stride, ceilMode }) => lpPool("lpPool2d", 2, input, normType, kernelSize, stride, ceilMode),
);

export const lpPool3d = op(
  "lpPool3d(input: Tensor, normType: float, kernelSize: int | int[], stride?: int | int[], ceilMode: bool = false) -> Tensor",
  { doc: lpDoc(3, "[N, C, D, H, W] (or [C, D, H, W])") },
  ({ input, normType, kernelSize, stride, ceilMode }) => lpPool("lpPool3d", 3, input, normType, kernelSize, stride, ceilMode),
);

/** Output i of adaptive pooling covers inputs [⌊i·size/out⌋, ⌈(i+1)·size/out⌉). */
const adaptiveSpan = (i: number, size: number, out: number): [number, number] => [Math.floor((i * size) / out), Math.ceil(((i + 1) * size) / out)];

/** The [in, out] averaging matrix of adaptive pooling: output i averages the inputs of its adaptiveSpan. */
function adaptiveMatrix(size: number, out: number): number[] {
  const m = new Array<number>(size * out).fill(0);
  for (let i = 0; i < out; i++) {
    const [start, end] = adaptiveSpan(i, size, out);
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

export const adaptiveAvgPool3d = op(
  "adaptiveAvgPool3d(input: Tensor, outputSize: int | int[]) -> Tensor",
  { doc: "Adaptive average pooling of [N, C, D, H, W] (or [C, D, H, W]) to `outputSize` (an int or [d, h, w]); PyTorch's null entries are not supported." },
  ({ input, outputSize }) => adaptiveAvgPool("adaptiveAvgPool3d", 3, input, outputSize),
);

/**
 * Adaptive max pooling: each output's window (adaptiveSpan per dim) is read with one gather of the
 * flattened plane, padded to the longest window by repeating its last element, then arg-maxed; the
 * indices are flat positions in each channel's plane, as in PyTorch.
 */
function adaptiveMaxPool(op: string, n: number, input: Tensor, outputSize: IntOrList, returnIndices: boolean): Tensor[] {
  return runMany(op, [input], `${outputSize}|${returnIndices}`, ([xi]) => {
    const { x, unbatch } = batched(op, xi!, n);
    floating(op, x.dtype);
    const out = tuple(op, "outputSize", outputSize, n, 1);
    const spatial = x.shape.slice(2);
    if (spatial.includes(0)) throw new ShapeError(`${op}: input ${fmtShape(x.shape)} has an empty spatial dimension`);
    // per dim: the input position output i reads at window offset k (short windows repeat their last)
    const reads = spatial.map((size, d) => {
      const spans = Array.from({ length: out[d]! }, (_, i) => adaptiveSpan(i, size, out[d]!));
      const longest = Math.max(...spans.map(([start, end]) => end - start));
      return { longest, at: (i: number, k: number) => Math.min(spans[i]![0] + k, spans[i]![1] - 1) };
    });
    const planeStride = spatial.map((_, d) => spatial.slice(d + 1).reduce((p, q) => p * q, 1));
    const window = reads.reduce((p, r) => p * r.longest, 1);
    const outputs = out.reduce((p, q) => p * q, 1);
    // table[o·window + w]: the flat plane position output o (row-major) reads at window offset w (row-major)
    const table: number[] = [];
    for (let o = 0; o < outputs; o++) {
      for (let w = 0; w < window; w++) {
        let [pos, oRest, wRest] = [0, o, w];
        for (let d = n - 1; d >= 0; d--) {
          pos += reads[d]!.at(oRest % out[d]!, wRest % reads[d]!.longest) * planeStride[d]!;
          oRest = Math.floor(oRest / out[d]!);
          wRest = Math.floor(wRest / reads[d]!.longest);
        }
        table.push(pos);
      }
    }
    const positions = bind1("constant", [], { value: table, dtype: "int64", shape: [outputs * window] });
    const [batch, channels] = [x.shape[0]!, x.shape[1]!];
    const plane = e.reshape(x, [batch, channels, spatial.reduce((p, q) => p * q, 1)]);
    const [maxima, offset] = e.argReduce("argmax", e.reshape(e.indexSelect(plane, positions, 2), [batch, channels, outputs, window]), 3);
    const shape = [batch, channels, ...out];
    if (!returnIndices) return [unbatch(e.reshape(maxima, shape))];
    const firsts = e.mul(e.iota("int64", offset.shape, 2), e.full(window, "int64", offset.shape));
    const chosen = e.indexSelect(positions, e.reshape(e.add(firsts, offset), [batch * channels * outputs]), 0);
    return [unbatch(e.reshape(maxima, shape)), unbatch(e.reshape(chosen, shape))];
  });
}

const adaptiveMaxDoc = (layout: string): string =>
  `Adaptive max pooling of ${layout} to \`outputSize\`: output i takes the maximum of inputs [⌊i·L/out⌋, ⌈(i+1)·L/out⌉) per dim; returnIndices: true also gives each maximum's flat position in its plane.`;

export const adaptiveMaxPool1d = op(
  [
    "adaptiveMaxPool1d(input: Tensor, outputSize: int | int[], returnIndices: false = false) -> Tensor",
    "adaptiveMaxPool1d(input: Tensor, outputSize: int | int[], returnIndices: true = true) -> (Tensor, Tensor)",
  ],
  { doc: adaptiveMaxDoc("[N, C, L] (or [C, L])") },
  [
    ({ input, outputSize }) => adaptiveMaxPool("adaptiveMaxPool1d", 1, input, outputSize, false)[0]!,
    ({ input, outputSize }) => adaptiveMaxPool("adaptiveMaxPool1d", 1, input, outputSize, true) as [Tensor, Tensor],
  ],
);

export const adaptiveMaxPool1dWithIndices = op(
  "adaptiveMaxPool1dWithIndices(input: Tensor, outputSize: int | int[], returnIndices: bool = false) -> (Tensor, Tensor)",
  { doc: withIndicesDoc("adaptiveMaxPool1d") },
  ({ input, outputSize }) => adaptiveMaxPool("adaptiveMaxPool1dWithIndices", 1, input, outputSize, true) as [Tensor, Tensor],
);

export const adaptiveMaxPool2d = op(
  [
    "adaptiveMaxPool2d(input: Tensor, outputSize: int | int[], returnIndices: false = false) -> Tensor",
    "adaptiveMaxPool2d(input: Tensor, outputSize: int | int[], returnIndices: true = true) -> (Tensor, Tensor)",
  ],
  { doc: adaptiveMaxDoc("[N, C, H, W] (or [C, H, W])") },
  [
    ({ input, outputSize }) => adaptiveMaxPool("adaptiveMaxPool2d", 2, input, outputSize, false)[0]!,
    ({ input, outputSize }) => adaptiveMaxPool("adaptiveMaxPool2d", 2, input, outputSize, true) as [Tensor, Tensor],
  ],
);

export const adaptiveMaxPool2dWithIndices = op(
  "adaptiveMaxPool2dWithIndices(input: Tensor, outputSize: int | int[], returnIndices: bool = false) -> (Tensor, Tensor)",
  { doc: withIndicesDoc("adaptiveMaxPool2d") },
  ({ input, outputSize }) => adaptiveMaxPool("adaptiveMaxPool2dWithIndices", 2, input, outputSize, true) as [Tensor, Tensor],
);

export const adaptiveMaxPool3d = op(
  [
    "adaptiveMaxPool3d(input: Tensor, outputSize: int | int[], returnIndices: false = false) -> Tensor",
    "adaptiveMaxPool3d(input: Tensor, outputSize: int | int[], returnIndices: true = true) -> (Tensor, Tensor)",
  ],
  { doc: adaptiveMaxDoc("[N, C, D, H, W] (or [C, D, H, W])") },
  [
    ({ input, outputSize }) => adaptiveMaxPool("adaptiveMaxPool3d", 3, input, outputSize, false)[0]!,
    ({ input, outputSize }) => adaptiveMaxPool("adaptiveMaxPool3d", 3, input, outputSize, true) as [Tensor, Tensor],
  ],
);

export const adaptiveMaxPool3dWithIndices = op(
  "adaptiveMaxPool3dWithIndices(input: Tensor, outputSize: int | int[], returnIndices: bool = false) -> (Tensor, Tensor)",
  { doc: withIndicesDoc("adaptiveMaxPool3d") },
  ({ input, outputSize }) => adaptiveMaxPool("adaptiveMaxPool3dWithIndices", 3, input, outputSize, true) as [Tensor, Tensor],
);
