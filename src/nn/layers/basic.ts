/**
 * @file LayerNorm, RMSNorm, Embedding, Dropout, Flatten and Unflatten, initialised as PyTorch's are
 * (norm weights 1 and biases 0; embeddings N(0, 1) with the paddingIdx row 0).
 */
import { empty, ones, zeros } from "../../ops/creation/filled.js";
import { ArgumentError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import * as F from "../functional.js";
import { normal_ } from "../init.js";
import { Module, Parameter } from "../module.js";
import { noGrad } from "../../autograd/grad_mode.js";
import { factory, type FactoryOptions, layerOptions } from "./options.js";

const shapeOf = (s: number | readonly number[]): number[] => (typeof s === "number" ? [s] : [...s]);

export interface LayerNormOptions extends FactoryOptions {
  eps?: number;
  elementwiseAffine?: boolean;
  bias?: boolean;
}

/** Normalises over the last dims (`normalizedShape`), then scales by weight and shifts by bias. */
export class LayerNorm extends Module {
  readonly normalizedShape: number[];
  readonly eps: number;
  weight: Parameter | null;
  bias: Parameter | null;

  constructor(normalizedShape: number | readonly number[], options?: LayerNormOptions) {
    super();
    const o = layerOptions<LayerNormOptions>("LayerNorm", options, ["eps", "elementwiseAffine", "bias", "device", "dtype"]);
    this.normalizedShape = shapeOf(normalizedShape);
    this.eps = o.eps ?? 1e-5;
    const affine = o.elementwiseAffine ?? true;
    this.weight = affine ? new Parameter(ones(this.normalizedShape, factory(o))) : null;
    this.bias = affine && (o.bias ?? true) ? new Parameter(zeros(this.normalizedShape, factory(o))) : null;
  }

  override forward(x: Tensor): Tensor {
    return F.layerNorm(x, this.normalizedShape, { ...(this.weight ? { weight: this.weight } : {}), ...(this.bias ? { bias: this.bias } : {}), eps: this.eps });
  }

  override extraRepr(): string {
    return `[${this.normalizedShape.join(", ")}], eps=${this.eps}, elementwiseAffine=${this.weight !== null}`;
  }
}

export interface RMSNormOptions extends FactoryOptions {
  eps?: number;
  elementwiseAffine?: boolean;
}

/** x / rms(x) over the last dims, times weight. */
export class RMSNorm extends Module {
  readonly normalizedShape: number[];
  readonly eps: number | undefined;
  weight: Parameter | null;

  constructor(normalizedShape: number | readonly number[], options?: RMSNormOptions) {
    super();
    const o = layerOptions<RMSNormOptions>("RMSNorm", options, ["eps", "elementwiseAffine", "device", "dtype"]);
    this.normalizedShape = shapeOf(normalizedShape);
    this.eps = o.eps;
    this.weight = (o.elementwiseAffine ?? true) ? new Parameter(ones(this.normalizedShape, factory(o))) : null;
  }

  override forward(x: Tensor): Tensor {
    return F.rmsNorm(x, this.normalizedShape, { ...(this.weight ? { weight: this.weight } : {}), ...(this.eps === undefined ? {} : { eps: this.eps }) });
  }
}

export interface EmbeddingOptions extends FactoryOptions {
  paddingIdx?: number;
  maxNorm?: number;
  normType?: number;
}

/** A lookup table [numEmbeddings, embeddingDim]; the paddingIdx row starts at 0 and gets no gradient. */
export class Embedding extends Module {
  readonly numEmbeddings: number;
  readonly embeddingDim: number;
  readonly paddingIdx: number | undefined;
  readonly maxNorm: number | undefined;
  readonly normType: number;
  weight: Parameter;

  constructor(numEmbeddings: number, embeddingDim: number, options?: EmbeddingOptions) {
    super();
    const o = layerOptions<EmbeddingOptions>("Embedding", options, ["paddingIdx", "maxNorm", "normType", "device", "dtype"]);
    this.numEmbeddings = numEmbeddings;
    this.embeddingDim = embeddingDim;
    if (o.paddingIdx !== undefined && (!Number.isInteger(o.paddingIdx) || o.paddingIdx < -numEmbeddings || o.paddingIdx >= numEmbeddings)) {
      throw new ArgumentError(`Embedding: paddingIdx must be within numEmbeddings (in [${-numEmbeddings}, ${numEmbeddings - 1}]), got ${String(o.paddingIdx)}`);
    }
    this.paddingIdx = o.paddingIdx === undefined ? undefined : o.paddingIdx < 0 ? o.paddingIdx + numEmbeddings : o.paddingIdx;
    this.maxNorm = o.maxNorm;
    this.normType = o.normType ?? 2;
    this.weight = new Parameter(empty([numEmbeddings, embeddingDim], factory(o)));
    this.resetParameters();
  }

  resetParameters(): void {
    normal_(this.weight);
    if (this.paddingIdx !== undefined) noGrad(() => this.weight.setIndex(this.paddingIdx!, 0));
  }

  override forward(indices: Tensor): Tensor {
    return F.embedding(indices, this.weight, {
      ...(this.paddingIdx === undefined ? {} : { paddingIdx: this.paddingIdx }),
      ...(this.maxNorm === undefined ? {} : { maxNorm: this.maxNorm, normType: this.normType }),
    });
  }

  override extraRepr(): string {
    return `${this.numEmbeddings}, ${this.embeddingDim}${this.paddingIdx === undefined ? "" : `, paddingIdx=${this.paddingIdx}`}`;
  }
}

/** Zeroes each element with probability p while training (scaling the rest by 1/(1−p)); the identity in eval. */
export class Dropout extends Module {
  readonly p: number;
  constructor(p = 0.5) {
    super();
    if (!(p >= 0 && p <= 1)) throw new ArgumentError(`Dropout: p must be in [0, 1], got ${String(p)}`);
    this.p = p;
  }
  override forward(x: Tensor): Tensor {
    return F.dropout(x, this.p, this.training);
  }
  override extraRepr(): string {
    return `p=${this.p}`;
  }
}

/** Flattens dims startDim…endDim (default 1…−1: everything but the batch). */
export class Flatten extends Module {
  constructor(readonly startDim = 1, readonly endDim = -1) {
    super();
  }
  override forward(x: Tensor): Tensor {
    return x.flatten(this.startDim, this.endDim);
  }
}

/** Splits dim into `sizes`. */
export class Unflatten extends Module {
  constructor(readonly dim: number, readonly sizes: readonly number[]) {
    super();
  }
  override forward(x: Tensor): Tensor {
    return x.unflatten(this.dim, [...this.sizes]);
  }
}

/** Normalises groups of channels per sample, then scales and shifts each channel. */
export class GroupNorm extends Module {
  readonly numGroups: number;
  readonly numChannels: number;
  readonly eps: number;
  weight: Parameter | null;
  bias: Parameter | null;

  constructor(numGroups: number, numChannels: number, options?: { eps?: number; affine?: boolean } & FactoryOptions) {
    super();
    const o = layerOptions<{ eps?: number; affine?: boolean } & FactoryOptions>("GroupNorm", options, ["eps", "affine", "device", "dtype"]);
    if (!Number.isInteger(numGroups) || numGroups < 1 || numChannels % numGroups !== 0) throw new ArgumentError(`GroupNorm: numChannels (${numChannels}) must be divisible by numGroups (${String(numGroups)})`);
    this.numGroups = numGroups;
    this.numChannels = numChannels;
    this.eps = o.eps ?? 1e-5;
    const affine = o.affine ?? true;
    this.weight = affine ? new Parameter(ones([numChannels], factory(o))) : null;
    this.bias = affine ? new Parameter(zeros([numChannels], factory(o))) : null;
  }

  override forward(x: Tensor): Tensor {
    return F.groupNorm(x, this.numGroups, { ...(this.weight ? { weight: this.weight } : {}), ...(this.bias ? { bias: this.bias } : {}), eps: this.eps });
  }
}
