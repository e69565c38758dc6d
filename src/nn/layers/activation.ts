/**
 * @file Activation modules: each wraps its torch.nn.functional op, with the op's options as the
 * module's (ReLU, GELU({ approximate }), Softmax(dim), LeakyReLU(negativeSlope), …).
 */
import * as F from "../functional.js";
import type { Tensor } from "../../tensor.js";
import { Module } from "../module.js";
import { layerOptions } from "./options.js";

type Unary = (x: Tensor, options?: never) => Tensor;

/** A module class for a functional activation; `positional` names the options PyTorch's module takes positionally. */
function activation<O extends object>(name: string, fn: Unary, positional: readonly (keyof O & string)[] = []) {
  const layer = class extends Module {
    readonly options: Partial<O>;
    constructor(...args: unknown[]) {
      super();
      const last = args.at(-1);
      const named = last !== null && typeof last === "object" ? (args.pop() as O) : undefined;
      const given = Object.fromEntries(args.map((v, i) => [positional[i] ?? `argument ${i}`, v]));
      this.options = layerOptions<O>(name, { ...given, ...named } as O, positional);
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
