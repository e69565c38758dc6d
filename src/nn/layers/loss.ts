/**
 * @file Loss modules: each holds its functional loss's options (`new CrossEntropyLoss({ labelSmoothing: 0.1 })`)
 * and calls it with (input, target).
 */
import * as F from "../functional.js";
import type { Tensor } from "../../tensor.js";
import { Module } from "../module.js";
import { layerOptions } from "./options.js";

type Reduction = "mean" | "sum" | "none";
type LossFn<O> = (input: Tensor, target: Tensor, options?: O) => Tensor;

function loss<O extends object>(name: string, fn: LossFn<O>, known: readonly (keyof O & string)[]) {
  const layer = class extends Module {
    readonly options: Partial<O>;
    constructor(options?: O) {
      super();
      this.options = layerOptions<O>(name, options, known);
    }
    override forward(input: Tensor, target: Tensor): Tensor {
      return fn(input, target, this.options as O);
    }
    override extraRepr(): string {
      return Object.entries(this.options).map(([k, v]) => `${k}=${v instanceof Object ? "Tensor" : String(v)}`).join(", ");
    }
  };
  Object.defineProperty(layer, "name", { value: name });
  return layer;
}

export const CrossEntropyLoss = loss<{ weight?: Tensor; ignoreIndex?: number; reduction?: Reduction; labelSmoothing?: number }>(
  "CrossEntropyLoss", F.crossEntropy as never, ["weight", "ignoreIndex", "reduction", "labelSmoothing"]);
export const NLLLoss = loss<{ weight?: Tensor; ignoreIndex?: number; reduction?: Reduction }>("NLLLoss", F.nllLoss as never, ["weight", "ignoreIndex", "reduction"]);
export const MSELoss = loss<{ reduction?: Reduction }>("MSELoss", F.mseLoss as never, ["reduction"]);
export const L1Loss = loss<{ reduction?: Reduction }>("L1Loss", F.l1Loss as never, ["reduction"]);
export const SmoothL1Loss = loss<{ reduction?: Reduction; beta?: number }>("SmoothL1Loss", F.smoothL1Loss as never, ["reduction", "beta"]);
export const HuberLoss = loss<{ reduction?: Reduction; delta?: number }>("HuberLoss", F.huberLoss as never, ["reduction", "delta"]);
export const KLDivLoss = loss<{ reduction?: Reduction | "batchmean"; logTarget?: boolean }>("KLDivLoss", F.klDiv as never, ["reduction", "logTarget"]);
export const BCELoss = loss<{ weight?: Tensor; reduction?: Reduction }>("BCELoss", F.binaryCrossEntropy as never, ["weight", "reduction"]);
export const BCEWithLogitsLoss = loss<{ weight?: Tensor; reduction?: Reduction; posWeight?: Tensor }>(
  "BCEWithLogitsLoss", F.binaryCrossEntropyWithLogits as never, ["weight", "reduction", "posWeight"]);
