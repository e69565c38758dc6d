/**
 * @file conv1d/2d/3d, convTranspose1d/2d/3d, unfold and fold (nn.functional), lowered to one StableHLO
 * convolution in PyTorch's channels-first layout. A transposed convolution is the convolution of the
 * input dilated by `stride` with the spatially flipped kernel whose in/out channels are swapped per
 * group; unfold (im2col) is a grouped convolution with one-hot kernels, one output channel per
 * (channel, kernel offset). fold (col2im) is one scatter-add of the columns into the padded output.
 */
import { ArgumentError, DTypeError, ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import { bind1, type Tracer } from "../../trace/tracer.js";
import * as e from "../emit.js";
import { fmtShape } from "../dims.js";
import { op } from "../signature/op.js";
import { run } from "../unit.js";
import { reverse } from "./emitters.js";
import { floating } from "./opmath.js";
import { batched, perChannel, tuple } from "./spatial.js";

type IntOrList = number | readonly number[];

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
 * Runs a convolution's unit on [input, weight, bias?] (its other arguments are in `statics`): `body`
 * gets the input with a batch dim, the weight, and `finish`, which adds the bias and drops a batch dim it added.
 */
function runConv(op: string, n: number, input: Tensor, weight: Tensor, bias: Tensor | undefined, groups: number, statics: string, body: ConvBody): Tensor {
  return run(op, bias ? [input, weight, bias] : [input, weight], `${bias ? 1 : 0}|${statics}`, ([xi, wi, bi]) => {
    const w = wi as Tracer;
    const { x, unbatch } = batched(op, xi as Tracer, n);
    checkWeight(op, x, w, n);
    checkGroups(op, groups);
    return body(x, w, (y) => unbatch(addBias(op, y, bi as Tracer | undefined)));
  });
}

interface ConvArgs {
  input: Tensor;
  weight: Tensor;
  bias: Tensor | undefined;
  stride: IntOrList;
  padding: IntOrList | "valid" | "same";
  dilation: IntOrList;
  groups: number;
}

function convNd(op: string, n: number, { input, weight, bias, stride, padding, dilation, groups }: ConvArgs): Tensor {
  return runConv(op, n, input, weight, bias, groups, JSON.stringify([stride, padding, dilation, groups]), (x, w, finish) => {
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
}

const convDoc = (n: number, layout: string, kernel: string): string =>
  `${n}-d convolution (cross-correlation): input ${layout}, weight [O, C / groups, ${kernel}], bias [O]; padding is per side, or "valid" (none) or "same" (output size = input size; stride 1 only).`;

export const conv1d = op(
  'conv1d(input: Tensor, weight: Tensor, bias?: Tensor, stride: int | int[] = 1, padding: int | int[] | "valid" | "same" = 0, dilation: int | int[] = 1, groups: int = 1) -> Tensor',
  { doc: convDoc(1, "[N, C, L] (or [C, L])", "k") },
  (a) => convNd("conv1d", 1, a),
);

export const conv2d = op(
  'conv2d(input: Tensor, weight: Tensor, bias?: Tensor, stride: int | int[] = 1, padding: int | int[] | "valid" | "same" = 0, dilation: int | int[] = 1, groups: int = 1) -> Tensor',
  { doc: convDoc(2, "[N, C, H, W] (or [C, H, W])", "kh, kw") },
  (a) => convNd("conv2d", 2, a),
);

export const conv3d = op(
  'conv3d(input: Tensor, weight: Tensor, bias?: Tensor, stride: int | int[] = 1, padding: int | int[] | "valid" | "same" = 0, dilation: int | int[] = 1, groups: int = 1) -> Tensor',
  { doc: convDoc(3, "[N, C, D, H, W] (or unbatched)", "kd, kh, kw") },
  (a) => convNd("conv3d", 3, a),
);

interface ConvTransposeArgs {
  input: Tensor;
  weight: Tensor;
  bias: Tensor | undefined;
  stride: IntOrList;
  padding: IntOrList;
  outputPadding: IntOrList;
  groups: number;
  dilation: IntOrList;
}

function convTransposeNd(op: string, n: number, { input, weight, bias, stride, padding, outputPadding, groups, dilation }: ConvTransposeArgs): Tensor {
  const statics = JSON.stringify([stride, padding, outputPadding, groups, dilation]);
  return runConv(op, n, input, weight, bias, groups, statics, (x, w, finish) => {
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
}

const convTransposeDoc = (n: number, layout: string, kernel: string): string =>
  `${n}-d transposed convolution: input ${layout}, weight [Cin, Cout / groups, ${kernel}], bias [Cout]; outputPadding adds to one side of the output.`;

export const convTranspose1d = op(
  "convTranspose1d(input: Tensor, weight: Tensor, bias?: Tensor, stride: int | int[] = 1, padding: int | int[] = 0, outputPadding: int | int[] = 0, groups: int = 1, dilation: int | int[] = 1) -> Tensor",
  { doc: convTransposeDoc(1, "[N, Cin, L] (or [Cin, L])", "k") },
  (a) => convTransposeNd("convTranspose1d", 1, a),
);

export const convTranspose2d = op(
  "convTranspose2d(input: Tensor, weight: Tensor, bias?: Tensor, stride: int | int[] = 1, padding: int | int[] = 0, outputPadding: int | int[] = 0, groups: int = 1, dilation: int | int[] = 1) -> Tensor",
  { doc: convTransposeDoc(2, "[N, Cin, H, W] (or [Cin, H, W])", "kh, kw") },
  (a) => convTransposeNd("convTranspose2d", 2, a),
);

export const convTranspose3d = op(
  "convTranspose3d(input: Tensor, weight: Tensor, bias?: Tensor, stride: int | int[] = 1, padding: int | int[] = 0, outputPadding: int | int[] = 0, groups: int = 1, dilation: int | int[] = 1) -> Tensor",
  { doc: convTransposeDoc(3, "[N, Cin, D, H, W] (or unbatched)", "kd, kh, kw") },
  (a) => convTransposeNd("convTranspose3d", 3, a),
);

export const unfold = op(
  "unfold(input: Tensor, kernelSize: int | int[], dilation: int | int[] = 1, padding: int | int[] = 0, stride: int | int[] = 1) -> Tensor",
  { doc: "Extracts the sliding [kh, kw] blocks of [N, C, H, W] (or [C, H, W]) as columns: [N, C·kh·kw, blocks] (im2col)." },
  ({ input, kernelSize, dilation, padding, stride }) => {
    const op = "unfold";
    return run(op, [input], JSON.stringify([kernelSize, dilation, padding, stride]), ([xi]) => {
      const { x, unbatch } = batched(op, xi as Tracer, 2);
      floating(op, x.dtype);
      const kernel = tuple(op, "kernelSize", kernelSize, 2, 1);
      const dil = tuple(op, "dilation", dilation, 2, 1);
      const pad = tuple(op, "padding", padding, 2, 0);
      const strides = tuple(op, "stride", stride, 2, 1);
      const channels = x.shape[1]!;
      const k = kernel[0]! * kernel[1]!;
      const oneHot = new Array<number>(channels * k * k).fill(0);
      for (let c = 0; c < channels; c++) for (let j = 0; j < k; j++) oneHot[(c * k + j) * k + j] = 1;
      const w = bind1("constant", [], { value: oneHot, dtype: x.dtype, shape: [channels * k, 1, kernel[0]!, kernel[1]!] });
      x.shape.slice(2).forEach((size, i) => {
        if (size + 2 * pad[i]! < dil[i]! * (kernel[i]! - 1) + 1) throw new ShapeError(`${op}: kernel ${fmtShape(kernel)} (dilated) is larger than the padded input ${fmtShape(x.shape.slice(2))}`);
      });
      const geometry = { strides, padding: pad.map((p) => [p, p] as const), lhsDilation: [1, 1], rhsDilation: dil, featureGroups: channels, batchGroups: 1 };
      const y = e.convolution(x, w, geometry, { exact: true }); // a copy in PyTorch: every value must come through whole
      return unbatch(e.reshape(y, [y.shape[0]!, y.shape[1]!, y.shape[2]! * y.shape[3]!]));
    });
  },
);

/** The columns x [N, C·K, L] as [N, C, K·L] added into `into` [N, C, plane] at the plane positions `target` (K·L of them). */
function scatterColumns(x: Tracer, into: Tracer, target: number[], shape: number[]): Tracer {
  const index = e.broadcastInDim(bind1("constant", [], { value: target, dtype: "int64", shape: [target.length] }), shape, [2]);
  return e.scatterAlong(into, 2, index, e.reshape(x, shape), "add");
}

export const fold = op(
  "fold(input: Tensor, outputSize: int | int[], kernelSize: int | int[], dilation: int | int[] = 1, padding: int | int[] = 0, stride: int | int[] = 1) -> Tensor",
  { doc: "The inverse of unfold (col2im): columns [N, C·kh·kw, blocks] (or unbatched) summed back into [N, C, ...outputSize], overlapping blocks adding up." },
  ({ input, outputSize, kernelSize, dilation, padding, stride }) => {
    const op = "fold";
    return run(op, [input], JSON.stringify([outputSize, kernelSize, dilation, padding, stride]), ([xi]) => {
      const xs = xi as Tracer;
      if ((xs.ndim !== 2 && xs.ndim !== 3) || xs.shape.slice(-2).includes(0)) {
        throw new ShapeError(`${op}: expected a 2-d [C·kh·kw, blocks] or 3-d [N, C·kh·kw, blocks] input with non-empty last dims, got shape ${fmtShape(xs.shape)}`);
      }
      const x = xs.ndim === 3 ? xs : e.reshape(xs, [1, ...xs.shape]);
      floating(op, x.dtype);
      const out = tuple(op, "outputSize", outputSize, 2, 1);
      const kernel = tuple(op, "kernelSize", kernelSize, 2, 1);
      const dil = tuple(op, "dilation", dilation, 2, 1);
      const pad = tuple(op, "padding", padding, 2, 0);
      const strides = tuple(op, "stride", stride, 2, 1);
      const k = kernel[0]! * kernel[1]!;
      const [batch, rows, blocks] = x.shape as [number, number, number];
      if (rows % k !== 0) throw new ShapeError(`${op}: input's dim ${x.ndim - 2} (${rows}) must be divisible by the kernel size ${kernel[0]}·${kernel[1]} = ${k}`);
      const padded = out.map((o, i) => o + 2 * pad[i]!);
      const counts = padded.map((p, i) => Math.floor((p - dil[i]! * (kernel[i]! - 1) - 1) / strides[i]!) + 1);
      if (counts.some((n) => n < 1) || counts[0]! * counts[1]! !== blocks) {
        throw new ShapeError(`${op}: outputSize ${fmtShape(out)} with kernelSize ${fmtShape(kernel)}, dilation ${fmtShape(dil)}, padding ${fmtShape(pad)} and stride ${fmtShape(strides)} gives ${Math.max(counts[0]!, 0)}·${Math.max(counts[1]!, 0)} blocks, but the input has ${blocks}`);
      }
      // where column (kernel offset j, block l) lands in the padded output plane
      const target: number[] = [];
      for (let j = 0; j < k; j++) {
        for (let l = 0; l < blocks; l++) {
          const row = Math.floor(l / counts[1]!) * strides[0]! + Math.floor(j / kernel[1]!) * dil[0]!;
          const col = (l % counts[1]!) * strides[1]! + (j % kernel[1]!) * dil[1]!;
          target.push(row * padded[1]! + col);
        }
      }
      const channels = rows / k;
      const zeros = e.full(0, x.dtype, [batch, channels, padded[0]! * padded[1]!]);
      const sums = scatterColumns(x, zeros, target, [batch, channels, k * blocks]);
      const plane = e.reshape(sums, [batch, channels, ...padded]);
      const y = e.slice(plane, [0, 0, pad[0]!, pad[1]!], [batch, channels, pad[0]! + out[0]!, pad[1]! + out[1]!]);
      return xs.ndim === 3 ? y : e.reshape(y, y.shape.slice(1));
    });
  },
);
