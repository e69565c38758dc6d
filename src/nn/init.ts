/**
 * @file torch.nn.init: in-place initialisation of parameters (outside autograd), with PyTorch's
 * formulas for fans and gains, drawing from torch-pjrt's generators.
 */
import { noGrad } from "../autograd/grad_mode.js";
import type { Generator } from "../random/generator.js";
import { ArgumentError, ShapeError } from "../runtime/errors.js";
import type { Tensor } from "../tensor.js";

type Nonlinearity = "linear" | "conv1d" | "conv2d" | "conv3d" | "sigmoid" | "tanh" | "relu" | "leaky_relu" | "selu";

/** PyTorch's recommended gain for a nonlinearity (`calculate_gain`). */
export function calculateGain(nonlinearity: Nonlinearity, param?: number): number {
  switch (nonlinearity) {
    case "linear": case "conv1d": case "conv2d": case "conv3d": case "sigmoid": return 1;
    case "tanh": return 5 / 3;
    case "relu": return Math.SQRT2;
    case "leaky_relu": return Math.sqrt(2 / (1 + (param ?? 0.01) ** 2));
    case "selu": return 3 / 4;
    default: throw new ArgumentError(`calculateGain: unsupported nonlinearity "${String(nonlinearity)}"`);
  }
}

/** [fanIn, fanOut] of a weight [out, in, ...kernel]. */
export function fans(t: Tensor, op = "init"): [number, number] {
  if (t.ndim < 2) throw new ShapeError(`${op}: fan in and fan out cannot be computed for a tensor with fewer than 2 dimensions, got [${t.shape.join(", ")}]`);
  const receptive = t.shape.slice(2).reduce((a, b) => a * b, 1);
  return [t.shape[1]! * receptive, t.shape[0]! * receptive];
}

type Options = { generator?: Generator };

export const uniform_ = (t: Tensor, a = 0, b = 1, options: Options = {}): Tensor => noGrad(() => t.uniform_(a, b, options));
export const normal_ = (t: Tensor, mean = 0, std = 1, options: Options = {}): Tensor => noGrad(() => t.normal_(mean, std, options));
export const constant_ = (t: Tensor, value: number): Tensor => noGrad(() => t.fill_(value));
export const zeros_ = (t: Tensor): Tensor => noGrad(() => t.zero_());
export const ones_ = (t: Tensor): Tensor => noGrad(() => t.fill_(1));

/** Glorot uniform: U(−a, a) with a = gain·√(6 / (fanIn + fanOut)). */
export function xavierUniform_(t: Tensor, gain = 1, options: Options = {}): Tensor {
  const [fanIn, fanOut] = fans(t, "xavierUniform_");
  const a = gain * Math.sqrt(6 / (fanIn + fanOut));
  return uniform_(t, -a, a, options);
}

/** Glorot normal: N(0, gain²·2 / (fanIn + fanOut)). */
export function xavierNormal_(t: Tensor, gain = 1, options: Options = {}): Tensor {
  const [fanIn, fanOut] = fans(t, "xavierNormal_");
  return normal_(t, 0, gain * Math.sqrt(2 / (fanIn + fanOut)), options);
}

interface KaimingOptions extends Options {
  a?: number;
  mode?: "fanIn" | "fanOut";
  nonlinearity?: Nonlinearity;
}

function kaimingStd(t: Tensor, op: string, { a = 0, mode = "fanIn", nonlinearity = "leaky_relu" }: KaimingOptions): number {
  if (mode !== "fanIn" && mode !== "fanOut") throw new ArgumentError(`${op}: mode must be "fanIn" or "fanOut", got ${String(mode)}`);
  const [fanIn, fanOut] = fans(t, op);
  return calculateGain(nonlinearity, a) / Math.sqrt(mode === "fanIn" ? fanIn : fanOut);
}

/** He uniform: U(−b, b) with b = gain·√(3 / fan) (`a` is leaky_relu's slope). */
export function kaimingUniform_(t: Tensor, options: KaimingOptions = {}): Tensor {
  const bound = Math.sqrt(3) * kaimingStd(t, "kaimingUniform_", options);
  return uniform_(t, -bound, bound, options.generator ? { generator: options.generator } : {});
}

/** He normal: N(0, gain² / fan). */
export function kaimingNormal_(t: Tensor, options: KaimingOptions = {}): Tensor {
  return normal_(t, 0, kaimingStd(t, "kaimingNormal_", options), options.generator ? { generator: options.generator } : {});
}
