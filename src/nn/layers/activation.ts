/**
 * @file Activation modules: each wraps its torch.nn.functional op, with the op's options as the
 * module's (ReLU, GELU({ approximate }), Softmax(dim), LeakyReLU(negativeSlope), …); PReLU holds its
 * slope as a Parameter, and RReLU draws its slopes while training.
 */
import { defaultFloatDType } from "../../dtype.js";
import { full } from "../../ops/creation/filled.js";
import { ArgumentError, ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import * as F from "../functional.js";
import { Module, Parameter } from "../module.js";
import { constructorOptions } from "./constructor_options.js";
import { factory, type FactoryOptions } from "./options.js";

type Unary = (x: Tensor, options?: never) => Tensor;

/** A module class for a functional activation; `positional` names the options PyTorch's module takes positionally. */
function activation<O extends object>(name: string, fn: Unary, positional: readonly (keyof O & string)[] = []) {
  const layer = class extends Module {
    readonly options: Partial<O>;
    constructor(...args: unknown[]) {
      super();
      this.options = constructorOptions<O>(name, args, positional);
    }
    override forward(x: Tensor): Tensor {
      return Object.keys(this.options).length === 0 ? fn(x) : fn(x, this.options as never);
    }
    override extraRepr(): string {
      return Object.entries(this.options).map(([k, v]) => `${k}=${String(v)}`).join(", ");
    }
  };
  Object.defineProperty(layer, "name", { value: name });
  return layer;
}

export const ReLU = activation("ReLU", F.relu);
export const ReLU6 = activation("ReLU6", F.relu6);
export const Sigmoid = activation("Sigmoid", F.sigmoid);
export const Tanh = activation("Tanh", F.tanh);
export const SiLU = activation("SiLU", F.silu);
export const Mish = activation("Mish", F.mish);
export const Softsign = activation("Softsign", F.softsign);
export const Hardsigmoid = activation("Hardsigmoid", F.hardsigmoid);
export const Hardswish = activation("Hardswish", F.hardswish);
export const SELU = activation("SELU", F.selu);
export const GELU = activation<{ approximate: "none" | "tanh" }>("GELU", F.gelu as Unary, ["approximate"]);
export const LeakyReLU = activation<{ negativeSlope: number }>("LeakyReLU", F.leakyRelu as Unary, ["negativeSlope"]);
export const ELU = activation<{ alpha: number }>("ELU", F.elu as Unary, ["alpha"]);
export const CELU = activation<{ alpha: number }>("CELU", F.celu as Unary, ["alpha"]);
export const Softplus = activation<{ beta: number; threshold: number }>("Softplus", F.softplus as Unary, ["beta", "threshold"]);
export const Hardtanh = activation<{ minVal: number; maxVal: number }>("Hardtanh", F.hardtanh as Unary, ["minVal", "maxVal"]);
export const GLU = activation<{ dim: number }>("GLU", F.glu as Unary, ["dim"]);

/** Softmax over `dim`. */
export class Softmax extends Module {
  constructor(readonly dim: number) {
    super();
  }
  override forward(x: Tensor): Tensor {
    return F.softmax(x, this.dim);
  }
  override extraRepr(): string {
    return `dim=${this.dim}`;
  }
}

/** Softmax over the channels of [N, C, H, W] or [C, H, W] (dim −3). */
export class Softmax2d extends Module {
  override forward(x: Tensor): Tensor {
    if (x.ndim !== 3 && x.ndim !== 4) throw new ShapeError(`Softmax2d: expected input to be 3D or 4D, got ${x.ndim}D instead`);
    return F.softmax(x, -3);
  }
}

/** logSoftmax over `dim`. */
export class LogSoftmax extends Module {
  constructor(readonly dim: number) {
    super();
  }
  override forward(x: Tensor): Tensor {
    return F.logSoftmax(x, this.dim);
  }
  override extraRepr(): string {
    return `dim=${this.dim}`;
  }
}

export const LogSigmoid = activation("LogSigmoid", F.logsigmoid);
export const Tanhshrink = activation("Tanhshrink", F.tanhshrink);
export const Hardshrink = activation<{ lambd: number }>("Hardshrink", F.hardshrink as Unary, ["lambd"]);
export const Softshrink = activation<{ lambd: number }>("Softshrink", F.softshrink as Unary, ["lambd"]);

/** value where x ≤ threshold, else x. */
export class Threshold extends Module {
  readonly threshold: number;
  readonly value: number;
  readonly inplace: boolean;
  /** Threshold(threshold, value, inplace = false), or every option by name. */
  constructor(...args: unknown[]) {
    super();
    const o = constructorOptions<{ threshold: number; value: number; inplace: boolean }>("Threshold", args, ["threshold", "value", "inplace"]);
    if (typeof o.threshold !== "number" || typeof o.value !== "number") throw new ArgumentError(`Threshold: threshold and value are required numbers, got ${String(o.threshold)} and ${String(o.value)}`);
    this.threshold = o.threshold;
    this.value = o.value;
    this.inplace = o.inplace ?? false;
  }
  override forward(x: Tensor): Tensor {
    return F.threshold(x, this.threshold, this.value, this.inplace);
  }
  override extraRepr(): string {
    return `threshold=${this.threshold}, value=${this.value}${this.inplace ? ", inplace=true" : ""}`;
  }
}

/** softmin over `dim`. */
export class Softmin extends Module {
  constructor(readonly dim: number) {
    super();
  }
  override forward(x: Tensor): Tensor {
    return F.softmin(x, this.dim);
  }
  override extraRepr(): string {
    return `dim=${this.dim}`;
  }
}

export interface PReLUOptions extends FactoryOptions {
  numParameters?: number;
  init?: number;
}

/** leaky ReLU with a learnt slope: one Parameter `weight` of numParameters (1, or the channels) values, all `init` at first. */
export class PReLU extends Module {
  readonly numParameters: number;
  readonly init: number;
  weight: Parameter;
  /** PReLU(numParameters = 1, init = 0.25, { device, dtype }), or every option by name. */
  constructor(...args: [numParameters?: number | PReLUOptions, init?: number | PReLUOptions, options?: PReLUOptions]) {
    super();
    const o = constructorOptions<PReLUOptions>("PReLU", args, ["numParameters", "init"], ["numParameters", "init", "device", "dtype"]);
    this.numParameters = o.numParameters ?? 1;
    this.init = o.init ?? 0.25;
    if (!Number.isInteger(this.numParameters) || this.numParameters < 1) throw new ArgumentError(`PReLU: numParameters must be a positive integer, got ${String(this.numParameters)}`);
    this.weight = new Parameter(full([this.numParameters], this.init, { dtype: defaultFloatDType, ...factory(o) }));
  }
  override forward(x: Tensor): Tensor {
    return F.prelu(x, this.weight);
  }
  override extraRepr(): string {
    return `numParameters=${this.numParameters}`;
  }
}

/** Randomized leaky ReLU: random slopes in [lower, upper] while training, their mean in eval. */
export class RReLU extends Module {
  readonly lower: number;
  readonly upper: number;
  readonly inplace: boolean;
  /** RReLU(lower = 1/8, upper = 1/3, inplace = false), or every option by name. */
  constructor(...args: [lower?: number | RReLUOptions, upper?: number | RReLUOptions, inplace?: boolean | RReLUOptions, options?: RReLUOptions]) {
    super();
    const o = constructorOptions<RReLUOptions>("RReLU", args, ["lower", "upper", "inplace"]);
    this.lower = o.lower ?? 1 / 8;
    this.upper = o.upper ?? 1 / 3;
    this.inplace = o.inplace ?? false;
  }
  override forward(x: Tensor): Tensor {
    return F.rrelu(x, this.lower, this.upper, this.training, this.inplace);
  }
  override extraRepr(): string {
    return `lower=${this.lower}, upper=${this.upper}${this.inplace ? ", inplace=true" : ""}`;
  }
}

export interface RReLUOptions {
  lower?: number;
  upper?: number;
  inplace?: boolean;
}
