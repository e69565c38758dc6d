/**
 * @file The channel and alpha dropout modules: Dropout1d/2d/3d, AlphaDropout, FeatureAlphaDropout,
 * each (p = 0.5, inplace = false) and active only while training, as PyTorch's.
 */
import type { Tensor } from "../../tensor.js";
import { checkP } from "../../ops/nn/dropout.js";
import * as F from "../functional.js";
import { Module } from "../module.js";
import { constructorOptions } from "./constructor_options.js";

export interface DropoutOptions {
  p?: number;
  inplace?: boolean;
}

type DropoutFn = (input: Tensor, p: number, training: boolean, inplace: boolean) => Tensor;

function dropoutLayer(name: string, fn: DropoutFn) {
  const layer = class extends Module {
    readonly p: number;
    readonly inplace: boolean;
    /** (p = 0.5, inplace = false), or either by name. */
    constructor(...args: [p?: number | DropoutOptions, inplace?: boolean | DropoutOptions, options?: DropoutOptions]) {
      super();
      const o = constructorOptions<DropoutOptions>(name, args, ["p", "inplace"]);
      this.p = o.p ?? 0.5;
      this.inplace = o.inplace ?? false;
      checkP(name, this.p);
    }
    override forward(x: Tensor): Tensor {
      return fn(x, this.p, this.training, this.inplace);
    }
    override extraRepr(): string {
      return `p=${this.p}, inplace=${this.inplace}`;
    }
  };
  Object.defineProperty(layer, "name", { value: name });
  return layer;
}

export const Dropout1d = dropoutLayer("Dropout1d", F.dropout1d);
export const Dropout2d = dropoutLayer("Dropout2d", F.dropout2d);
export const Dropout3d = dropoutLayer("Dropout3d", F.dropout3d);
export const AlphaDropout = dropoutLayer("AlphaDropout", F.alphaDropout);
export const FeatureAlphaDropout = dropoutLayer("FeatureAlphaDropout", F.featureAlphaDropout);
