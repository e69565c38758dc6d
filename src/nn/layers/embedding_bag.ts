/**
 * @file EmbeddingBag: a lookup table whose rows are summed, averaged or maxed per bag (F.embeddingBag).
 */
import { noGrad } from "../../autograd/grad_mode.js";
import { empty } from "../../ops/creation/filled.js";
import { ArgumentError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import * as F from "../functional.js";
import { normal_ } from "../init.js";
import { Module, Parameter } from "../module.js";
import { constructorOptions } from "./constructor_options.js";
import { factory, type FactoryOptions, layerOptions } from "./options.js";

export interface EmbeddingBagOptions extends FactoryOptions {
  maxNorm?: number;
  normType?: number;
  scaleGradByFreq?: boolean;
  mode?: "sum" | "mean" | "max";
  sparse?: boolean;
  includeLastOffset?: boolean;
  paddingIdx?: number;
}

/** What forward takes besides the input (PyTorch's offsets and per_sample_weights; null is PyTorch's None). */
export interface EmbeddingBagCallOptions {
  offsets?: Tensor | null;
  perSampleWeights?: Tensor | null;
}

const known = ["maxNorm", "normType", "scaleGradByFreq", "mode", "sparse", "includeLastOffset", "paddingIdx", "device", "dtype"] as const;

/** A table [numEmbeddings, embeddingDim] (normal(0, 1), the paddingIdx row 0) reduced per bag: forward(input, offsets?, perSampleWeights?). */
export class EmbeddingBag extends Module {
  readonly numEmbeddings: number;
  readonly embeddingDim: number;
  readonly options: Omit<EmbeddingBagOptions, "device" | "dtype">;
  weight: Parameter;

  constructor(numEmbeddings: number, embeddingDim: number, options?: EmbeddingBagOptions) {
    super();
    const o = layerOptions<EmbeddingBagOptions>("EmbeddingBag", options, known);
    this.numEmbeddings = numEmbeddings;
    this.embeddingDim = embeddingDim;
    const { device, dtype, ...rest } = o;
    if (rest.paddingIdx !== undefined) {
      if (!Number.isInteger(rest.paddingIdx) || rest.paddingIdx < -numEmbeddings || rest.paddingIdx >= numEmbeddings) {
        throw new ArgumentError(`EmbeddingBag: paddingIdx must be within numEmbeddings (in [${-numEmbeddings}, ${numEmbeddings - 1}]), got ${String(rest.paddingIdx)}`);
      }
      if (rest.paddingIdx < 0) rest.paddingIdx += numEmbeddings;
    }
    this.options = rest;
    this.weight = new Parameter(empty([numEmbeddings, embeddingDim], factory({ device, dtype })));
    this.resetParameters();
  }

  resetParameters(): void {
    normal_(this.weight);
    const pad = this.options.paddingIdx;
    if (pad !== undefined) noGrad(() => this.weight.setIndex(pad, 0));
  }

  /** forward(input, offsets?, perSampleWeights?) in PyTorch's order, either also by name in one trailing options object. */
  override forward(input: Tensor, ...args: (Tensor | null | EmbeddingBagCallOptions | undefined)[]): Tensor {
    const { offsets, perSampleWeights } = constructorOptions<EmbeddingBagCallOptions>("EmbeddingBag.forward", args, ["offsets", "perSampleWeights"]);
    return F.embeddingBag(input, this.weight, {
      ...this.options,
      ...(offsets ? { offsets } : {}),
      ...(perSampleWeights ? { perSampleWeights } : {}),
    });
  }

  override extraRepr(): string {
    const extras = Object.entries(this.options).map(([k, v]) => `${k}=${String(v)}`);
    return [`${this.numEmbeddings}, ${this.embeddingDim}`, ...extras].join(", ");
  }
}
