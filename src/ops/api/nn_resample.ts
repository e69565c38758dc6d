/**
 * @file nn.functional.interpolate (nearest, linear, bilinear) and unfold. Resampling is separable: each
 * spatial dim is multiplied by a constant [in, out] matrix of interpolation weights (a one-hot matrix
 * for nearest). unfold is a grouped convolution with one-hot kernels, one output channel per (channel,
 * kernel offset).
 */
import { ArgumentError, ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import { bind1 } from "../../trace/tracer.js";
import * as e from "../emit.js";
import { fmtShape } from "../dims.js";
import { checkTensor, run } from "../unit.js";
import { alongDim, batched, floating, matrix, tuple } from "./nn_window_common.js";

type IntOrList = number | readonly number[];

export interface InterpolateOptions {
  size?: IntOrList;
  scaleFactor?: number | readonly number[];
  mode?: "nearest" | "linear" | "bilinear";
  alignCorners?: boolean;
}

/** The [in, out] weights of one dim; `scale` maps output to input coordinates. */
function weights(mode: "nearest" | "linear", size: number, out: number, scale: number, alignCorners: boolean): number[] {
  const m = new Array<number>(size * out).fill(0);
  for (let j = 0; j < out; j++) {
    if (mode === "nearest") {
      m[Math.min(Math.floor(j * scale), size - 1) * out + j] = 1;
      continue;
    }
    const src = alignCorners ? j * scale : Math.max(scale * (j + 0.5) - 0.5, 0);
    const i0 = Math.min(Math.floor(src), size - 1);
    const i1 = i0 < size - 1 ? i0 + 1 : i0;
    const l1 = src - i0;
    m[i0 * out + j] += 1 - l1;
    m[i1 * out + j] += l1;
  }
  return m;
}

/** Resizes the spatial dims of [N, C, …] to `size`, or by `scaleFactor`. */
export function interpolate(input: Tensor, options: InterpolateOptions = {}): Tensor {
  checkTensor("interpolate", input);
  const mode = options.mode ?? "nearest";
  const op = "interpolate";
  if (!["nearest", "linear", "bilinear"].includes(mode)) throw new ArgumentError(`${op}: mode "${mode}" is not supported (nearest, linear or bilinear)`);
  if ((options.size === undefined) === (options.scaleFactor === undefined)) throw new ArgumentError(`${op}: pass exactly one of size and scaleFactor`);
  if (mode === "nearest" && options.alignCorners !== undefined) throw new ArgumentError(`${op}: alignCorners only applies to linear and bilinear modes`);
  return run(op, [input], JSON.stringify(options), ([xi]) => {
    const x = xi as Tracer;
    const n = x.ndim - 2;
    if (n < 1) throw new ShapeError(`${op}: expected a batched input [N, C, …spatial], got shape ${fmtShape(x.shape)}`);
    if ((mode === "linear" && n !== 1) || (mode === "bilinear" && n !== 2)) throw new ShapeError(`${op}: ${mode} mode needs a ${mode === "linear" ? 3 : 4}-d input, got shape ${fmtShape(x.shape)}`);
    floating(op, x.dtype);
    const spatial = x.shape.slice(2);
    const factors = options.scaleFactor === undefined ? undefined : typeof options.scaleFactor === "number" ? spatial.map(() => options.scaleFactor as number) : [...options.scaleFactor];
    if (factors && (factors.length !== n || factors.some((f) => !(f > 0)))) throw new ArgumentError(`${op}: scaleFactor must be positive, one per spatial dim (${n})`);
    const out = options.size !== undefined ? tuple(op, "size", options.size, n, 1) : spatial.map((s, i) => Math.floor(s * factors![i]!));
    const alignCorners = options.alignCorners ?? false;
    let y = x;
    spatial.forEach((size, i) => {
      const o = out[i]!;
      const scale = alignCorners ? (o > 1 ? (size - 1) / (o - 1) : 0) : factors ? 1 / factors[i]! : size / o;
      y = alongDim(y, 2 + i, matrix(weights(mode === "nearest" ? "nearest" : "linear", size, o, scale, alignCorners), size, o, x.dtype));
    });
    return y;
  });
}

export interface UnfoldOptions {
  dilation?: IntOrList;
  padding?: IntOrList;
  stride?: IntOrList;
}

/** Extracts sliding [kh, kw] blocks of [N, C, H, W] (or [C, H, W]) as columns: [N, C·kh·kw, blocks]. */
export function unfold(input: Tensor, kernelSize: IntOrList, options: UnfoldOptions = {}): Tensor {
  checkTensor("unfold", input);
  const op = "unfold";
  return run(op, [input], JSON.stringify([kernelSize, options]), ([xi]) => {
    const { x, unbatch } = batched(op, xi as Tracer, 2);
    floating(op, x.dtype);
    const kernel = tuple(op, "kernelSize", kernelSize, 2, 1);
    const dil = tuple(op, "dilation", options.dilation ?? 1, 2, 1);
    const pad = tuple(op, "padding", options.padding ?? 0, 2, 0);
    const stride = tuple(op, "stride", options.stride ?? 1, 2, 1);
    const channels = x.shape[1]!;
    const k = kernel[0]! * kernel[1]!;
    const oneHot = new Array<number>(channels * k * k).fill(0);
    for (let c = 0; c < channels; c++) for (let j = 0; j < k; j++) oneHot[(c * k + j) * k + j] = 1;
    const w = bind1("constant", [], { value: oneHot, dtype: x.dtype, shape: [channels * k, 1, kernel[0]!, kernel[1]!] });
    x.shape.slice(2).forEach((size, i) => {
      if (size + 2 * pad[i]! < dil[i]! * (kernel[i]! - 1) + 1) throw new ShapeError(`${op}: kernel ${fmtShape(kernel)} (dilated) is larger than the padded input ${fmtShape(x.shape.slice(2))}`);
    });
    const y = e.convolution(x, w, { strides: stride, padding: pad.map((p) => [p, p] as const), lhsDilation: [1, 1], rhsDilation: dil, featureGroups: channels, batchGroups: 1 });
    return unbatch(e.reshape(y, [y.shape[0]!, y.shape[1]!, y.shape[2]! * y.shape[3]!]));
  });
}
