/**
 * @file maxPool1d/2d, avgPool1d/2d and adaptiveAvgPool1d/2d (nn.functional) on [N, C, …] or unbatched
 * [C, …] inputs. Pools are reduce_windows over the spatial dims; ceilMode adds high padding so the last
 * partial window is kept (PyTorch drops a window that would start in the right padding).
 */
import { ArgumentError, ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import * as e from "../emit.js";
import type { WindowParams } from "../prims_window.js";
import { fmtShape } from "../dims.js";
import { checkTensor, run, runMany } from "../unit.js";
import { alongDim, batched, floating, matrix, tuple } from "./nn_window_common.js";

type IntOrList = number | readonly number[];

export interface MaxPoolOptions {
  stride?: IntOrList;
  padding?: IntOrList;
  dilation?: IntOrList;
  ceilMode?: boolean;
  returnIndices?: boolean;
}

export interface AvgPoolOptions {
  stride?: IntOrList;
  padding?: IntOrList;
  ceilMode?: boolean;
  countIncludePad?: boolean;
  divisorOverride?: number;
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

function geometry(op: string, spatial: readonly number[], kernelSize: IntOrList, o: MaxPoolOptions): Geometry {
  const n = spatial.length;
  const kernel = tuple(op, "kernelSize", kernelSize, n, 1);
  const stride = o.stride === undefined || (Array.isArray(o.stride) && o.stride.length === 0) ? kernel : tuple(op, "stride", o.stride, n, 1);
  const pad = tuple(op, "padding", o.padding ?? 0, n, 0);
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

const keyOf = (kernelSize: IntOrList, o: object): string => JSON.stringify([kernelSize, o]);

function maxPoolNd(op: string, n: number) {
  function pool(input: Tensor, kernelSize: IntOrList, options?: MaxPoolOptions & { returnIndices?: false }): Tensor;
  function pool(input: Tensor, kernelSize: IntOrList, options: MaxPoolOptions & { returnIndices: true }): [Tensor, Tensor];
  function pool(input: Tensor, kernelSize: IntOrList, options: MaxPoolOptions = {}): Tensor | [Tensor, Tensor] {
    checkTensor(op, input);
    const outs = runMany(op, [input], keyOf(kernelSize, options), ([xi]) => {
      const { x, unbatch } = batched(op, xi!, n);
      if (x.dtype === "bool") throw new ArgumentError(`${op}: bool input is not supported; convert it first`);
      const g = geometry(op, x.shape.slice(2), kernelSize, options);
      if (!options.returnIndices) return [unbatch(e.reduceWindow("max", x, window(g)))];
      // Indices are flat positions in each channel's spatial plane, as in PyTorch.
      const plane = x.shape.slice(2);
      const flat = e.reshape(e.iota("int64", [plane.reduce((a, b) => a * b, 1)], 0), plane);
      const indices = e.broadcastInDim(flat, x.shape, plane.map((_, i) => 2 + i));
      const [v, i] = e.reduceWindowArg("argmax", x, indices, window(g));
      return [unbatch(v), unbatch(i)];
    });
    return options.returnIndices ? [outs[0]!, outs[1]!] : outs[0]!;
  }
  return pool;
}

/** 1-d max pooling over [N, C, L] (or [C, L]); returnIndices also gives each maximum's position. */
export const maxPool1d = maxPoolNd("maxPool1d", 1);
/** 2-d max pooling over [N, C, H, W] (or [C, H, W]); indices are flat positions h·W + w. */
export const maxPool2d = maxPoolNd("maxPool2d", 2);

function avgPoolNd(op: string, n: number) {
  return (input: Tensor, kernelSize: IntOrList, options: AvgPoolOptions = {}): Tensor => {
    checkTensor(op, input);
    return run(op, [input], keyOf(kernelSize, options), ([xi]) => {
      const { x, unbatch } = batched(op, xi as Tracer, n);
      floating(op, x.dtype);
      const g = geometry(op, x.shape.slice(2), kernelSize, { stride: options.stride, padding: options.padding, ceilMode: options.ceilMode });
      const sums = e.reduceWindow("sum", x, window(g));
      let divisor: Tracer;
      if (options.divisorOverride !== undefined) {
        if (!Number.isFinite(options.divisorOverride) || options.divisorOverride === 0) throw new ArgumentError(`${op}: divisorOverride must be a non-zero number`);
        divisor = e.full(options.divisorOverride, x.dtype, sums.shape);
      } else {
        // Count what each window covers: the input (and its padding, by default), never the ceil-mode overhang.
        const withPad = options.countIncludePad ?? true;
        const spatial = x.shape.slice(2).map((d, i) => (withPad ? d + 2 * g.pad[i]! : d));
        const counts = e.reduceWindow("sum", e.full(1, x.dtype, spatial), {
          window: g.kernel, strides: g.stride, baseDilation: g.kernel.map(() => 1), windowDilation: g.kernel.map(() => 1),
          padding: g.pad.map((p, i) => (withPad ? [0, g.high[i]! - p] as const : [p, g.high[i]!] as const)),
        });
        divisor = e.broadcastInDim(counts, sums.shape, counts.shape.map((_, i) => 2 + i));
      }
      return unbatch(e.div(sums, divisor));
    });
  };
}

/** 1-d average pooling over [N, C, L] (or [C, L]). */
export const avgPool1d = avgPoolNd("avgPool1d", 1);
/** 2-d average pooling over [N, C, H, W] (or [C, H, W]). */
export const avgPool2d = avgPoolNd("avgPool2d", 2);

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

function adaptiveAvgPoolNd(op: string, n: number) {
  return (input: Tensor, outputSize: IntOrList): Tensor => {
    checkTensor(op, input);
    return run(op, [input], JSON.stringify(outputSize), ([xi]) => {
      const { x, unbatch } = batched(op, xi as Tracer, n);
      floating(op, x.dtype);
      const out = tuple(op, "outputSize", outputSize, n, 1);
      let y = x;
      out.forEach((o, i) => {
        const size = x.shape[2 + i]!;
        if (size === 0) throw new ShapeError(`${op}: input ${fmtShape(x.shape)} has an empty spatial dimension`);
        y = alongDim(y, 2 + i, matrix(adaptiveMatrix(size, o), size, o, x.dtype));
      });
      return unbatch(y);
    });
  };
}

/** Adaptive average pooling to `outputSize` over [N, C, L] (or [C, L]). */
export const adaptiveAvgPool1d = adaptiveAvgPoolNd("adaptiveAvgPool1d", 1);
/** Adaptive average pooling to `outputSize` over [N, C, H, W] (or [C, H, W]). */
export const adaptiveAvgPool2d = adaptiveAvgPoolNd("adaptiveAvgPool2d", 2);

