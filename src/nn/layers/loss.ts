/**
 * @file Loss modules: each holds its functional loss's options (`new CrossEntropyLoss({ labelSmoothing: 0.1 })`)
 * and calls it with (input, target) — or (input1, input2, target), (anchor, positive, negative),
 * (input, target, var), (logProbs, targets, inputLengths, targetLengths). Tensor options (weight,
 * posWeight) are buffers, as in PyTorch, so they are in the state dict ("weight", "pos_weight") and
 * move with the module. Also the distance modules CosineSimilarity and PairwiseDistance.
 */
import * as F from "../functional.js";
import { ArgumentError } from "../../runtime/errors.js";
import { Tensor } from "../../tensor.js";
import { Module } from "../module.js";
import { layerOptions } from "./options.js";

type Reduction = "mean" | "sum" | "none";
type Inputs2 = [input: Tensor, target: Tensor];
type Inputs3 = [input1: Tensor, input2: Tensor, target: Tensor];

function loss<O extends object, A extends unknown[] = Inputs2>(name: string, fn: (...args: never[]) => Tensor, known: readonly (keyof O & string)[]) {
  const call = fn as unknown as (...args: unknown[]) => Tensor;
  const layer = class extends Module {
    readonly options: Partial<O>;
    constructor(options?: O) {
      super();
      this.options = { ...layerOptions<O>(name, options, known) };
      for (const [k, v] of Object.entries(this.options)) if (v instanceof Tensor) this.registerBuffer(k, v);
    }
    override forward(...inputs: A): Tensor {
      return call(...inputs, this.options);
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
/** forward(input1, input2, target): max(0, −target · (input1 − input2) + margin). */
export const MarginRankingLoss = loss<{ margin?: number; reduction?: Reduction }, Inputs3>("MarginRankingLoss", F.marginRankingLoss as never, ["margin", "reduction"]);
export const HingeEmbeddingLoss = loss<{ margin?: number; reduction?: Reduction }>("HingeEmbeddingLoss", F.hingeEmbeddingLoss as never, ["margin", "reduction"]);
export const SoftMarginLoss = loss<{ reduction?: Reduction }>("SoftMarginLoss", F.softMarginLoss as never, ["reduction"]);
/** forward(input1, input2, target): 1 − cos where target is 1, max(0, cos − margin) where it is −1. */
export const CosineEmbeddingLoss = loss<{ margin?: number; reduction?: Reduction }, Inputs3>("CosineEmbeddingLoss", F.cosineEmbeddingLoss as never, ["margin", "reduction"]);
/** forward(anchor, positive, negative). */
export const TripletMarginLoss = loss<{ margin?: number; p?: number; eps?: number; swap?: boolean; reduction?: Reduction }, [anchor: Tensor, positive: Tensor, negative: Tensor]>(
  "TripletMarginLoss", F.tripletMarginLoss as never, ["margin", "p", "eps", "swap", "reduction"]);
export const PoissonNLLLoss = loss<{ logInput?: boolean; full?: boolean; eps?: number; reduction?: Reduction }>(
  "PoissonNLLLoss", F.poissonNllLoss as never, ["logInput", "full", "eps", "reduction"]);
/** forward(input, target, var). */
export const GaussianNLLLoss = loss<{ full?: boolean; eps?: number; reduction?: Reduction }, [input: Tensor, target: Tensor, variance: Tensor]>(
  "GaussianNLLLoss", F.gaussianNllLoss as never, ["full", "eps", "reduction"]);
export const MultiLabelSoftMarginLoss = loss<{ weight?: Tensor; reduction?: Reduction }>("MultiLabelSoftMarginLoss", F.multilabelSoftMarginLoss as never, ["weight", "reduction"]);
export const MultiMarginLoss = loss<{ p?: number; margin?: number; weight?: Tensor; reduction?: Reduction }>(
  "MultiMarginLoss", F.multiMarginLoss as never, ["p", "margin", "weight", "reduction"]);
/** forward(logProbs, targets, inputLengths, targetLengths): the lengths as int tensors or arrays. */
export const CTCLoss = loss<{ blank?: number; reduction?: Reduction; zeroInfinity?: boolean },
  [logProbs: Tensor, targets: Tensor, inputLengths: Tensor | readonly number[], targetLengths: Tensor | readonly number[]]>(
  "CTCLoss", F.ctcLoss as never, ["blank", "reduction", "zeroInfinity"]);

/** forward(input, target): target lists each sample's classes (int64) up to the first −1. */
export const MultiLabelMarginLoss = loss<{ reduction?: Reduction }>("MultiLabelMarginLoss", F.multilabelMarginLoss as never, ["reduction"]);

type Distance = (x1: Tensor, x2: Tensor) => Tensor;
type TripletDistanceOptions = { distanceFunction?: Distance | Module; margin?: number; swap?: boolean; reduction?: Reduction };

/**
 * forward(anchor, positive, negative) with `distanceFunction`, a function or a module of two tensors
 * (default: a PairwiseDistance module, a child as in PyTorch, so it prints and moves with this one).
 */
export class TripletMarginWithDistanceLoss extends Module {
  readonly distanceFunction: Distance | Module;
  readonly margin: number;
  readonly swap: boolean;
  readonly reduction: Reduction;
  constructor(options?: TripletDistanceOptions) {
    super();
    const o = layerOptions<TripletDistanceOptions>("TripletMarginWithDistanceLoss", options, ["distanceFunction", "margin", "swap", "reduction"]);
    const fn = o.distanceFunction ?? new PairwiseDistance();
    if (typeof fn !== "function" && !(fn instanceof Module)) throw new ArgumentError(`TripletMarginWithDistanceLoss: distanceFunction must be a function or a Module, got ${typeof fn}`);
    this.distanceFunction = fn;
    this.margin = o.margin ?? 1;
    this.swap = o.swap ?? false;
    this.reduction = o.reduction ?? "mean";
    if (!(this.margin > 0)) throw new ArgumentError(`TripletMarginWithDistanceLoss: margin must be greater than 0, got ${this.margin}`);
  }
  override forward(anchor: Tensor, positive: Tensor, negative: Tensor): Tensor {
    const fn = this.distanceFunction;
    const distanceFunction = fn instanceof Module ? (x1: Tensor, x2: Tensor) => fn.call(x1, x2) as Tensor : fn;
    return F.tripletMarginWithDistanceLoss(anchor, positive, negative, { distanceFunction, margin: this.margin, swap: this.swap, reduction: this.reduction });
  }
}

/** Options, or PyTorch's positional arguments followed by options. */
function distanceOptions<O extends object>(name: string, first: number | O | undefined, rest: unknown[], positional: readonly (keyof O & string)[], known: readonly (keyof O & string)[]): Partial<O> {
  const args = [first, ...rest];
  let last = args.length - 1;
  while (last >= 0 && args[last] === undefined) last--;
  const trailing = last >= 0 && typeof args[last] === "object" ? (args[last] as O) : undefined;
  const given = trailing === undefined ? args.slice(0, last + 1) : args.slice(0, last);
  const o: Partial<O> = { ...layerOptions<O>(name, trailing, known) };
  given.forEach((v, i) => {
    const k = positional[i];
    if (k === undefined) throw new ArgumentError(`${name}: takes at most ${positional.length} positional arguments`);
    if (k in o) throw new ArgumentError(`${name}: ${k} given positionally and as an option`);
    (o as Record<string, unknown>)[k] = v;
  });
  return o;
}

/** `new CosineSimilarity(dim = 1, eps = 1e-8)` or `new CosineSimilarity({ dim, eps })` (or positional ones then options): F.cosineSimilarity(x1, x2). */
export class CosineSimilarity extends Module {
  readonly dim: number;
  readonly eps: number;
  constructor(dim?: number | { dim?: number; eps?: number }, eps?: number | { eps?: number }) {
    super();
    const o = distanceOptions<{ dim?: number; eps?: number }>("CosineSimilarity", dim, [eps], ["dim", "eps"], ["dim", "eps"]);
    this.dim = o.dim ?? 1;
    this.eps = o.eps ?? 1e-8;
  }
  override forward(x1: Tensor, x2: Tensor): Tensor {
    return F.cosineSimilarity(x1, x2, this.dim, this.eps);
  }
  override extraRepr(): string {
    return `dim=${this.dim}, eps=${this.eps}`;
  }
}

/** `new PairwiseDistance(p = 2, eps = 1e-6, keepdim = false)` or `new PairwiseDistance({ p, eps, keepdim })`: F.pairwiseDistance(x1, x2). */
export class PairwiseDistance extends Module {
  readonly norm: number;
  readonly eps: number;
  readonly keepdim: boolean;
  constructor(p?: number | { p?: number; eps?: number; keepdim?: boolean }, eps?: number | { eps?: number; keepdim?: boolean }, keepdim?: boolean | { keepdim?: boolean }) {
    super();
    const o = distanceOptions<{ p?: number; eps?: number; keepdim?: boolean }>("PairwiseDistance", p, [eps, keepdim], ["p", "eps", "keepdim"], ["p", "eps", "keepdim"]);
    this.norm = o.p ?? 2;
    this.eps = o.eps ?? 1e-6;
    this.keepdim = o.keepdim ?? false;
  }
  override forward(x1: Tensor, x2: Tensor): Tensor {
    return F.pairwiseDistance(x1, x2, this.norm, this.eps, this.keepdim);
  }
  override extraRepr(): string {
    return `p=${this.norm}, eps=${this.eps}, keepdim=${this.keepdim}`;
  }
}
