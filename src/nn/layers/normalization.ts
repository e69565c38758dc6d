/**
 * @file BatchNorm1d/2d/3d, InstanceNorm1d/2d/3d (affine and trackRunningStats both off by default, as
 * in PyTorch) and LocalResponseNorm.
 */
import { ones, zeros } from "../../ops/creation/filled.js";
import { noGrad } from "../../autograd/grad_mode.js";
import { ArgumentError, ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import * as F from "../functional.js";
import { Module, Parameter } from "../module.js";
import { constructorOptions } from "./constructor_options.js";
import { factory, type FactoryOptions } from "./options.js";

export interface ChannelNormOptions extends FactoryOptions {
  eps?: number;
  /** null: BatchNorm keeps a cumulative average (factor 1 / numBatchesTracked); InstanceNorm then leaves the running statistics as they are */
  momentum?: number | null;
  affine?: boolean;
  trackRunningStats?: boolean;
}
export type BatchNormOptions = ChannelNormOptions;
export type InstanceNormOptions = ChannelNormOptions;

/**
 * What BatchNorm and InstanceNorm keep per channel: weight 1 and bias 0 (affine), and runningMean 0,
 * runningVar 1 and numBatchesTracked (trackRunningStats). Constructed PyTorch's way: (numFeatures,
 * eps = 1e-5, momentum = 0.1, affine, trackRunningStats), the options also by name with device and dtype.
 * momentum null is PyTorch's None.
 */
abstract class ChannelNorm extends Module {
  readonly numFeatures: number;
  readonly eps: number;
  readonly momentum: number | null;
  weight: Parameter | null;
  bias: Parameter | null;
  declare runningMean: Tensor | null;
  declare runningVar: Tensor | null;
  declare numBatchesTracked: Tensor | null;

  constructor(name: string, numFeatures: number, args: readonly unknown[], defaults: { affine: boolean; trackRunningStats: boolean }) {
    super();
    const o = constructorOptions<ChannelNormOptions>(name, args, ["eps", "momentum", "affine", "trackRunningStats"], ["eps", "momentum", "affine", "trackRunningStats", "device", "dtype"]);
    this.numFeatures = numFeatures;
    if (o.eps === null) throw new ArgumentError(`${name}: eps must be a number, got null`);
    this.eps = o.eps ?? 1e-5;
    this.momentum = o.momentum === undefined ? 0.1 : o.momentum;
    const affine = o.affine ?? defaults.affine;
    this.weight = affine ? new Parameter(ones([numFeatures], factory(o))) : null;
    this.bias = affine ? new Parameter(zeros([numFeatures], factory(o))) : null;
    const track = o.trackRunningStats ?? defaults.trackRunningStats;
    this.registerBuffer("runningMean", track ? zeros([numFeatures], factory(o)) : null);
    this.registerBuffer("runningVar", track ? ones([numFeatures], factory(o)) : null);
    this.registerBuffer("numBatchesTracked", track ? zeros([], { dtype: "int64", ...(o.device ? { device: o.device } : {}) }) : null);
  }

  override extraRepr(): string {
    return `${this.numFeatures}, eps=${this.eps}, momentum=${this.momentum}, affine=${this.weight !== null}, trackRunningStats=${this.runningMean !== null}`;
  }
}

/** A norm's weight and bias as F's options (absent when not affine). */
const affineOf = (m: ChannelNorm): { weight?: Tensor; bias?: Tensor } => ({ ...(m.weight ? { weight: m.weight } : {}), ...(m.bias ? { bias: m.bias } : {}) });

/**
 * BatchNorm1d/2d/3d: normalises each channel (dim 1) over the batch (and spatial dims) while training,
 * updating runningMean/runningVar and numBatchesTracked; uses the running statistics in eval.
 */
function batchNorm(name: string, ranks: readonly number[]) {
  const layer = class extends ChannelNorm {
    constructor(numFeatures: number, ...args: unknown[]) {
      super(name, numFeatures, args, { affine: true, trackRunningStats: true });
    }

    override forward(x: Tensor): Tensor {
      if (!ranks.includes(x.ndim)) throw new ArgumentError(`${name}: expected a ${ranks.map((r) => `${r}-d`).join(" or ")} input, got [${x.shape.join(", ")}]`);
      const batchStats = this.training || this.runningMean === null;
      let momentum = this.momentum ?? 0;
      if (this.training && this.numBatchesTracked !== null) {
        noGrad(() => this.numBatchesTracked!.add_(1));
        // momentum null: a cumulative average, read on the host as PyTorch does
        if (this.momentum === null) momentum = 1 / Number(this.numBatchesTracked.item());
      }
      return F.batchNorm(x, this.runningMean, this.runningVar, { ...affineOf(this), training: batchStats, momentum, eps: this.eps });
    }
  };
  Object.defineProperty(layer, "name", { value: name });
  return layer;
}

export const BatchNorm1d = batchNorm("BatchNorm1d", [2, 3]);
export const BatchNorm2d = batchNorm("BatchNorm2d", [4]);
export const BatchNorm3d = batchNorm("BatchNorm3d", [5]);

/**
 * InstanceNorm over inputs of rank `batched` ([N, C, *]) or `batched − 1` (unbatched [C, *]): each
 * sample's channels normalised over their spatial dims; with trackRunningStats, the running
 * statistics are updated while training and used in eval.
 */
function instanceNorm(name: string, batched: number) {
  const layer = class extends ChannelNorm {
    constructor(numFeatures: number, ...args: unknown[]) {
      super(name, numFeatures, args, { affine: false, trackRunningStats: false });
    }

    override forward(x: Tensor): Tensor {
      if (x.ndim !== batched && x.ndim !== batched - 1) throw new ShapeError(`${name}: expected a ${batched - 1}-d or ${batched}-d input, got [${x.shape.join(", ")}]`);
      const channels = x.shape[x.ndim - batched + 1]!;
      if (this.weight !== null && channels !== this.numFeatures) {
        throw new ShapeError(`${name}: expected input's size at dim ${x.ndim - batched + 1} to match numFeatures (${this.numFeatures}), but got ${channels} (input [${x.shape.join(", ")}])`);
      }
      if (x.ndim === batched) return this.#normalize(x);
      const one = x.unsqueeze(0);
      const y = this.#normalize(one);
      try {
        return y.squeeze(0);
      } finally {
        one.dispose();
        y.dispose();
      }
    }

    #normalize(x: Tensor): Tensor {
      return F.instanceNorm(x, this.runningMean, this.runningVar, {
        ...affineOf(this), useInputStats: this.training || this.runningMean === null, momentum: this.momentum ?? 0, eps: this.eps,
      });
    }
  };
  Object.defineProperty(layer, "name", { value: name });
  return layer;
}

export const InstanceNorm1d = instanceNorm("InstanceNorm1d", 3);
export const InstanceNorm2d = instanceNorm("InstanceNorm2d", 4);
export const InstanceNorm3d = instanceNorm("InstanceNorm3d", 5);

export interface LocalResponseNormOptions {
  alpha?: number;
  beta?: number;
  k?: number;
}

/** Normalises each value by the squares of its `size` neighbouring channels. */
export class LocalResponseNorm extends Module {
  readonly size: number;
  readonly alpha: number;
  readonly beta: number;
  readonly k: number;
  /** (size, alpha = 1e-4, beta = 0.75, k = 1), the options also by name. */
  constructor(size: number, ...args: unknown[]) {
    super();
    const o = constructorOptions<LocalResponseNormOptions>("LocalResponseNorm", args, ["alpha", "beta", "k"]);
    this.size = size;
    this.alpha = o.alpha ?? 1e-4;
    this.beta = o.beta ?? 0.75;
    this.k = o.k ?? 1;
  }
  override forward(x: Tensor): Tensor {
    return F.localResponseNorm(x, this.size, this.alpha, this.beta, this.k);
  }
  override extraRepr(): string {
    return `${this.size}, alpha=${this.alpha}, beta=${this.beta}, k=${this.k}`;
  }
}
