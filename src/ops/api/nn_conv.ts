/**
 * @file conv1d/2d/3d and convTranspose1d/2d (nn.functional), lowered to one StableHLO convolution in
 * PyTorch's channels-first layout. A transposed convolution is the convolution of the input dilated by
 * `stride` with the spatially flipped kernel whose in/out channels are swapped per group.
 */
import { ArgumentError, DTypeError, ShapeError } from "../../runtime/errors.js";
import { Tensor } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import * as e from "../emit.js";
import { fmtShape } from "../dims.js";
import { checkTensor, run } from "../unit.js";
import { batched, floating, perChannel, reverse, tuple } from "./nn_window_common.js";

type IntOrList = number | readonly number[];

export interface ConvOptions {
  bias?: Tensor;
  stride?: IntOrList;
  /** Zero padding per side, or "valid" (none) or "same" (output size = input size; stride 1 only). */
  padding?: IntOrList | "same" | "valid";
  dilation?: IntOrList;
  groups?: number;
}

export interface ConvTransposeOptions {
  bias?: Tensor;
  stride?: IntOrList;
  padding?: IntOrList;
  outputPadding?: IntOrList;
  groups?: number;
  dilation?: IntOrList;
}

const keyOf = (o: object): string => JSON.stringify(o, (k, v) => (v instanceof Tensor ? "T" : v));

function checkGroups(op: string, groups: number): void {
  if (!Number.isInteger(groups) || groups < 1) throw new ArgumentError(`${op}: groups must be a positive integer, got ${groups}`);
}

function checkWeight(op: string, x: Tracer, w: Tracer, n: number): void {
  if (w.ndim !== n + 2) throw new ShapeError(`${op}: weight must be ${n + 2}-d, got shape ${fmtShape(w.shape)}`);
  if (w.dtype !== x.dtype) throw new DTypeError(`${op}: input (${x.dtype}) and weight (${w.dtype}) must have the same dtype`);
  floating(op, x.dtype);
}

function addBias(op: string, y: Tracer, b: Tracer | undefined): Tracer {
  if (!b) return y;
  if (b.ndim !== 1 || b.shape[0] !== y.shape[1]) throw new ShapeError(`${op}: bias must have shape [${y.shape[1]}], got ${fmtShape(b.shape)}`);
  if (b.dtype !== y.dtype) throw new DTypeError(`${op}: bias (${b.dtype}) must have the input's dtype (${y.dtype})`);
  return e.add(y, perChannel(b, y.shape));
}

type ConvBody = (x: Tracer, w: Tracer, finish: (y: Tracer) => Tracer) => Tracer;

/**
 * Checks a convolution's tensors and runs its unit on [input, weight, bias?]: `body` gets the input
 * with a batch dim, the weight, and `finish`, which adds the bias and drops a batch dim it added.
 */
function runConv(op: string, n: number, input: Tensor, weight: Tensor, options: ConvOptions | ConvTransposeOptions, body: ConvBody): Tensor {
  checkTensor(op, input);
  checkTensor(op, weight, "weight");
  const bias = options.bias;
  if (bias !== undefined) checkTensor(op, bias, "bias");
  return run(op, bias ? [input, weight, bias] : [input, weight], keyOf(options), ([xi, wi, bi]) => {
    const w = wi as Tracer;
    const { x, unbatch } = batched(op, xi as Tracer, n);
    checkWeight(op, x, w, n);
    checkGroups(op, options.groups ?? 1);
    return body(x, w, (y) => unbatch(addBias(op, y, bi as Tracer | undefined)));
  });
}

function convNd(op: string, n: number) {
  return (input: Tensor, weight: Tensor, options: ConvOptions = {}): Tensor => {
    const { stride = 1, padding = 0, dilation = 1, groups = 1 } = options;
    return runConv(op, n, input, weight, options, (x, w, finish) => {
      const strides = tuple(op, "stride", stride, n, 1);
      const dil = tuple(op, "dilation", dilation, n, 1);
      const channels = x.shape[1]!;
      if (w.shape[1]! * groups !== channels) {
        throw new ShapeError(`${op}: given groups=${groups}, weight of size ${fmtShape(w.shape)} expects input ${fmtShape(x.shape)} to have ${w.shape[1]! * groups} channels, but got ${channels}`);
      }
      if (w.shape[0]! % groups !== 0) throw new ShapeError(`${op}: out channels ${w.shape[0]} must be divisible by groups=${groups}`);
      let pads: (readonly [number, number])[];
      if (padding === "same") {
        if (strides.some((s) => s !== 1)) throw new ArgumentError(`${op}: padding="same" is not supported for strided convolutions`);
        pads = dil.map((d, i) => {
          const total = d * (w.shape[2 + i]! - 1);
          return [Math.floor(total / 2), total - Math.floor(total / 2)] as const;
        });
      } else if (padding === "valid") {
        pads = dil.map(() => [0, 0] as const);
      } else {
        pads = tuple(op, "padding", padding, n, 0).map((p) => [p, p] as const);
      }
      x.shape.slice(2).forEach((size, i) => {
        if (size + pads[i]![0] + pads[i]![1] < dil[i]! * (w.shape[2 + i]! - 1) + 1) {
          throw new ShapeError(`${op}: kernel size ${fmtShape(w.shape.slice(2))} (dilated) is larger than the padded input ${fmtShape(x.shape.slice(2))}`);
        }
      });
      return finish(e.convolution(x, w, { strides, padding: pads, lhsDilation: strides.map(() => 1), rhsDilation: dil, featureGroups: groups, batchGroups: 1 }));
    });
  };
}

/** 1-d convolution: input [N, C, L] (or [C, L]), weight [O, C / groups, k]. */
export const conv1d = convNd("conv1d", 1);
/** 2-d convolution: input [N, C, H, W] (or [C, H, W]), weight [O, C / groups, kh, kw]. */
export const conv2d = convNd("conv2d", 2);
/** 3-d convolution: input [N, C, D, H, W] (or unbatched), weight [O, C / groups, kd, kh, kw]. */
export const conv3d = convNd("conv3d", 3);

function convTransposeNd(op: string, n: number) {
  return (input: Tensor, weight: Tensor, options: ConvTransposeOptions = {}): Tensor => {
    const { stride = 1, padding = 0, outputPadding = 0, groups = 1, dilation = 1 } = options;
    return runConv(op, n, input, weight, options, (x, w, finish) => {
      const strides = tuple(op, "stride", stride, n, 1);
      const pad = tuple(op, "padding", padding, n, 0);
      const outPad = tuple(op, "outputPadding", outputPadding, n, 0);
      const dil = tuple(op, "dilation", dilation, n, 1);
      outPad.forEach((p, i) => {
        if (p >= strides[i]! && p >= dil[i]!) throw new ArgumentError(`${op}: outputPadding ${p} must be smaller than stride or dilation`);
      });
      const [cin, perGroup] = [w.shape[0]!, w.shape[1]!];
      if (x.shape[1] !== cin) throw new ShapeError(`${op}: weight of size ${fmtShape(w.shape)} expects input ${fmtShape(x.shape)} to have ${cin} channels, but got ${x.shape[1]}`);
      if (cin % groups !== 0) throw new ShapeError(`${op}: in channels ${cin} must be divisible by groups=${groups}`);
      const kernel = w.shape.slice(2);
      // [Cin, Cout/G, k…] → [G, Cin/G, Cout/G, k…] → [G, Cout/G, Cin/G, k…] → [Cout, Cin/G, k…], flipped.
      const grouped = e.reshape(w, [groups, cin / groups, perGroup, ...kernel]);
      const swapped = e.transpose(grouped, [0, 2, 1, ...kernel.map((_, i) => 3 + i)]);
      const flipped = reverse(e.reshape(swapped, [groups * perGroup, cin / groups, ...kernel]), kernel.map((_, i) => 2 + i));
      const pads = kernel.map((k, i) => {
        const edge = dil[i]! * (k - 1) - pad[i]!;
        return [edge, edge + outPad[i]!] as const;
      });
      return finish(e.convolution(x, flipped, { strides: kernel.map(() => 1), padding: pads, lhsDilation: strides, rhsDilation: dil, featureGroups: groups, batchGroups: 1 }));
    });
  };
}

/** 1-d transposed convolution: input [N, Cin, L], weight [Cin, Cout / groups, k]. */
export const convTranspose1d = convTransposeNd("convTranspose1d", 1);
/** 2-d transposed convolution: input [N, Cin, H, W], weight [Cin, Cout / groups, kh, kw]. */
export const convTranspose2d = convTransposeNd("convTranspose2d", 2);
