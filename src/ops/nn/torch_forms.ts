/**
 * @file The torch.* forms of nn.functional ops whose signature in PyTorch's torch namespace differs
 * from torch.nn.functional's: torch.dropout(input, p, train) with every argument required, the
 * losses' `reduction` as an int (0 none, 1 mean, 2 sum: PyTorch's at::Reduction; none when left
 * out, as PyTorch's binding has it), torch.batch_norm's and torch.instance_norm's nine required
 * arguments, torch.embedding(weight, indices), the cudnn flags (accepted and ignored), the
 * poolings without returnIndices; featureDropout, constantPadNd and convolution, which F spells
 * otherwise, and the in-place forms (dropout_, threshold_, selu_, …: the input rebound to the result).
 * Each computes through the F op; those that share their bare name with it are named `torch.<name>`.
 */
import { ArgumentError, ShapeError } from "../../runtime/errors.js";
import { fmtShape } from "../dims.js";
import { op } from "../signature/op.js";
import { assignInPlace } from "../pointwise/in_place.js";
import { celu, rrelu as rreluF, selu, threshold as thresholdF } from "./activations.js";
import { conv1d, conv2d, conv3d, convTranspose1d, convTranspose2d, convTranspose3d } from "./convolution.js";
import { alphaDropout as alphaDropoutF, dropout as dropoutF, dropout2d, featureAlphaDropout as featureAlphaDropoutF } from "./dropout.js";
import { embedding as embeddingF } from "./embedding.js";
import {
  binaryCrossEntropyWithLogits as bceWithLogitsF,
  cosineEmbeddingLoss as cosineEmbeddingLossF,
  hingeEmbeddingLoss as hingeEmbeddingLossF,
  klDiv as klDivF,
  marginRankingLoss as marginRankingLossF,
  poissonNllLoss as poissonNllLossF,
  tripletMarginLoss as tripletMarginLossF,
} from "./losses.js";
import { batchNorm as batchNormF, groupNorm as groupNormF, instanceNorm as instanceNormF, layerNorm as layerNormF } from "./normalization.js";
import { pad } from "./padding.js";
import { adaptiveMaxPool1dWithIndices, maxPool1d as maxPool1dF, maxPool1dWithIndices as maxPool1dWithIndicesF, maxPool2d as maxPool2dF, maxPool3d as maxPool3dF } from "./pooling.js";

type Reduction = "none" | "mean" | "sum";
const reductionNames: readonly Reduction[] = ["none", "mean", "sum"];

/** PyTorch's at::Reduction as an int: 0 none, 1 mean, 2 sum. */
function reductionOf(op: string, reduction: number): Reduction {
  const r = reductionNames[reduction];
  if (r === undefined) throw new ArgumentError(`torch.${op}: reduction must be 0 (none), 1 (mean) or 2 (sum), got ${reduction} (torch.nn.functional.${op} takes "none", "mean" or "sum")`);
  return r;
}

// --- dropouts ---------------------------------------------------------------------------------------

export const dropout = op(
  "torch.dropout(input: Tensor, p: float, train: bool) -> Tensor",
  { doc: "nn.functional.dropout with PyTorch's torch.dropout signature: p and train are required." },
  ({ input, p, train }) => dropoutF(input, p, train),
);

export const alphaDropout = op(
  "torch.alphaDropout(input: Tensor, p: float, train: bool) -> Tensor",
  { doc: "nn.functional.alphaDropout with PyTorch's torch.alpha_dropout signature: p and train are required." },
  ({ input, p, train }) => alphaDropoutF(input, p, train),
);

export const featureAlphaDropout = op(
  "torch.featureAlphaDropout(input: Tensor, p: float, train: bool) -> Tensor",
  { doc: "nn.functional.featureAlphaDropout with PyTorch's torch.feature_alpha_dropout signature: p and train are required." },
  ({ input, p, train }) => featureAlphaDropoutF(input, p, train),
);

export const featureDropout = op(
  "featureDropout(input: Tensor, p: float, train: bool) -> Tensor",
  { doc: "Dropout of whole channels (dim 1 of [N, C, *], at least 2 dims): nn.functional.dropout2d's computation with PyTorch's torch.feature_dropout signature, p and train required." },
  ({ input, p, train }) => dropout2d(input, p, train),
);

// --- in-place forms: the input rebound to the result, which is returned ----------------------------------

export const dropout_ = op(
  "dropout_(input: Tensor, p: float, train: bool) -> Tensor",
  { doc: "In place: input = torch.dropout(input, p, train); returns input." },
  ({ input, p, train }) => dropoutF(input, p, train, true),
);

export const alphaDropout_ = op(
  "alphaDropout_(input: Tensor, p: float, train: bool) -> Tensor",
  { doc: "In place: input = torch.alphaDropout(input, p, train); returns input." },
  ({ input, p, train }) => alphaDropoutF(input, p, train, true),
);

export const featureAlphaDropout_ = op(
  "featureAlphaDropout_(input: Tensor, p: float, train: bool) -> Tensor",
  { doc: "In place: input = torch.featureAlphaDropout(input, p, train); returns input." },
  ({ input, p, train }) => featureAlphaDropoutF(input, p, train, true),
);

export const featureDropout_ = op(
  "featureDropout_(input: Tensor, p: float, train: bool) -> Tensor",
  { doc: "In place: input = torch.featureDropout(input, p, train); returns input." },
  ({ input, p, train }) => dropout2d(input, p, train, true),
);

export const threshold_ = op(
  "threshold_(input: Tensor, threshold: float, value: float) -> Tensor",
  { doc: "In place: input = torch.threshold(input, threshold, value); returns input." },
  ({ input, threshold: th, value }) => thresholdF(input, th, value, true),
);

export const rrelu_ = op(
  "rrelu_(input: Tensor, lower: float = 0.125, upper: float = 0.3333333333333333, training: bool = false) -> Tensor",
  { doc: "In place: input = torch.rrelu(input, lower, upper, training); returns input." },
  ({ input, lower, upper, training }) => rreluF(input, lower, upper, training, true),
);

export const selu_ = op("selu_(input: Tensor) -> Tensor", { doc: "In place: input = selu(input); returns input." }, ({ input }) => assignInPlace("selu_", input, selu(input)));

export const celu_ = op(
  "celu_(input: Tensor, alpha: float = 1) -> Tensor",
  { doc: "In place: input = celu(input, alpha); returns input." },
  ({ input, alpha }) => assignInPlace("celu_", input, celu(input, alpha)),
);

// --- convolution -----------------------------------------------------------------------------------

export const convolution = op(
  "convolution(input: Tensor, weight: Tensor, bias: Tensor | None, stride: int[], padding: int[], dilation: int[], transposed: bool, outputPadding: int[], groups: int) -> Tensor",
  { doc: "The convolution (or, with `transposed`, the transposed convolution) of a batched input [N, C, *] of weight's number of dims, every argument required: conv1d … conv3d or convTranspose1d … convTranspose3d by weight's spatial dims." },
  ({ input, weight, bias, stride, padding, dilation, transposed, outputPadding, groups }) => {
    const n = weight.ndim - 2;
    if (n < 1 || n > 3) throw new ShapeError(`convolution: expected a weight of 3, 4 or 5 dims (1 to 3 spatial dims), got ${fmtShape(weight.shape)}`);
    if (input.ndim !== weight.ndim) {
      throw new ShapeError(`convolution: expected a ${weight.ndim}-dimensional input for the ${weight.ndim}-dimensional weight ${fmtShape(weight.shape)}, but got ${fmtShape(input.shape)}`);
    }
    if (!transposed) return [conv1d, conv2d, conv3d][n - 1]!(input, weight, bias, stride, padding, dilation, groups);
    if (outputPadding.length !== 1 && outputPadding.length !== n) {
      throw new ArgumentError(`convolution: expected outputPadding to be a single integer value or a list of ${n} values to match the convolution dimensions, but got [${outputPadding.join(", ")}]`);
    }
    return [convTranspose1d, convTranspose2d, convTranspose3d][n - 1]!(input, weight, bias, stride, padding, outputPadding, groups, dilation);
  },
);

// --- embedding, normalisations ------------------------------------------------------------------------

export const embedding = op(
  "torch.embedding(weight: Tensor, indices: Tensor, paddingIdx: int = -1, scaleGradByFreq: bool = false, sparse: bool = false) -> Tensor",
  { doc: "nn.functional.embedding with PyTorch's torch.embedding signature: weight first, and a negative paddingIdx (default −1) means no padding row (it is not counted from the end, as F.embedding's is)." },
  ({ weight, indices, paddingIdx, scaleGradByFreq, sparse }) => embeddingF(indices, weight, { paddingIdx: paddingIdx < 0 ? null : paddingIdx, scaleGradByFreq, sparse }),
);

export const layerNorm = op(
  "torch.layerNorm(input: Tensor, normalizedShape: int | int[], weight?: Tensor, bias?: Tensor, eps: float = 1e-5, cudnnEnable: bool = true) -> Tensor",
  { doc: "nn.functional.layerNorm with PyTorch's torch.layer_norm signature (cudnnEnable is accepted and has no effect)." },
  ({ input, normalizedShape, weight, bias, eps }) => layerNormF(input, normalizedShape, weight ?? null, bias ?? null, eps),
);

export const groupNorm = op(
  "torch.groupNorm(input: Tensor, numGroups: int, weight?: Tensor, bias?: Tensor, eps: float = 1e-5, cudnnEnabled: bool = true) -> Tensor",
  { doc: "nn.functional.groupNorm with PyTorch's torch.group_norm signature (cudnnEnabled is accepted and has no effect)." },
  ({ input, numGroups, weight, bias, eps }) => groupNormF(input, numGroups, weight ?? null, bias ?? null, eps),
);

export const batchNorm = op(
  "torch.batchNorm(input: Tensor, weight: Tensor | None, bias: Tensor | None, runningMean: Tensor | None, runningVar: Tensor | None, training: bool, momentum: float, eps: float, cudnnEnabled: bool) -> Tensor",
  { doc: "nn.functional.batchNorm with PyTorch's torch.batch_norm signature: weight and bias first, every argument required (cudnnEnabled has no effect); in training the running statistics, when given, are updated in place." },
  ({ input, weight, bias, runningMean, runningVar, training, momentum, eps }) => batchNormF(input, runningMean, runningVar, weight, bias, training, momentum, eps),
);

export const instanceNorm = op(
  "torch.instanceNorm(input: Tensor, weight: Tensor | None, bias: Tensor | None, runningMean: Tensor | None, runningVar: Tensor | None, useInputStats: bool, momentum: float, eps: float, cudnnEnabled: bool) -> Tensor",
  { doc: "nn.functional.instanceNorm with PyTorch's torch.instance_norm signature: weight and bias first, every argument required (cudnnEnabled has no effect)." },
  ({ input, weight, bias, runningMean, runningVar, useInputStats, momentum, eps }) => instanceNormF(input, runningMean, runningVar, weight, bias, useInputStats, momentum, eps),
);

// --- activations ---------------------------------------------------------------------------------------

export const rrelu = op(
  "torch.rrelu(input: Tensor, lower: float = 0.125, upper: float = 0.3333333333333333, training: bool = false) -> Tensor",
  { doc: "nn.functional.rrelu with PyTorch's torch.rrelu signature (no inplace; PyTorch's generator is not taken: the slopes draw from the default generator)." },
  ({ input, lower, upper, training }) => rreluF(input, lower, upper, training),
);

export const threshold = op(
  "torch.threshold(input: Tensor, threshold: float, value: float) -> Tensor",
  { doc: "nn.functional.threshold with PyTorch's torch.threshold signature (no inplace): x where x > threshold, else value." },
  ({ input, threshold: th, value }) => thresholdF(input, th, value),
);

// --- losses with an int reduction ----------------------------------------------------------------------

/** PyTorch's schemas give these reduction = 1 (mean), but its Python binding reads that default as 0: left out, it is none. */
const intReduction = "reduction is an int, as in PyTorch's torch namespace: 0 none (the default there, though its schema says mean), 1 mean, 2 sum";

export const cosineEmbeddingLoss = op(
  "torch.cosineEmbeddingLoss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0, reduction: int = 0) -> Tensor",
  { doc: `nn.functional.cosineEmbeddingLoss; ${intReduction}.` },
  ({ input1, input2, target, margin, reduction }) => cosineEmbeddingLossF(input1, input2, target, margin, { reduction: reductionOf("cosineEmbeddingLoss", reduction) }),
);

export const hingeEmbeddingLoss = op(
  "torch.hingeEmbeddingLoss(input: Tensor, target: Tensor, margin: float = 1, reduction: int = 0) -> Tensor",
  { doc: `nn.functional.hingeEmbeddingLoss; ${intReduction}.` },
  ({ input, target, margin, reduction }) => hingeEmbeddingLossF(input, target, margin, { reduction: reductionOf("hingeEmbeddingLoss", reduction) }),
);

export const marginRankingLoss = op(
  "torch.marginRankingLoss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0, reduction: int = 0) -> Tensor",
  { doc: `nn.functional.marginRankingLoss; ${intReduction}.` },
  ({ input1, input2, target, margin, reduction }) => marginRankingLossF(input1, input2, target, margin, { reduction: reductionOf("marginRankingLoss", reduction) }),
);

export const klDiv = op(
  "torch.klDiv(input: Tensor, target: Tensor, reduction: int = 0, *, logTarget: bool = false) -> Tensor",
  { doc: `nn.functional.klDiv; ${intReduction} (elementwise, so no "batchmean").` },
  ({ input, target, reduction, logTarget }) => klDivF(input, target, { reduction: reductionOf("klDiv", reduction), logTarget }),
);

export const poissonNllLoss = op(
  "torch.poissonNllLoss(input: Tensor, target: Tensor, logInput: bool, full: bool, eps: float, reduction: int) -> Tensor",
  { doc: `nn.functional.poissonNllLoss with PyTorch's torch.poisson_nll_loss signature: every argument required and positional; ${intReduction}.` },
  ({ input, target, logInput, full, eps, reduction }) => poissonNllLossF(input, target, logInput, full, { eps, reduction: reductionOf("poissonNllLoss", reduction) }),
);

export const tripletMarginLoss = op(
  "torch.tripletMarginLoss(anchor: Tensor, positive: Tensor, negative: Tensor, margin: float = 1, p: float = 2, eps: float = 1e-6, swap: bool = false, reduction: int = 0) -> Tensor",
  { doc: `nn.functional.tripletMarginLoss; ${intReduction}.` },
  ({ anchor, positive, negative, margin, p, eps, swap, reduction }) =>
    tripletMarginLossF(anchor, positive, negative, margin, p, eps, swap, { reduction: reductionOf("tripletMarginLoss", reduction) }),
);

export const binaryCrossEntropyWithLogits = op(
  "torch.binaryCrossEntropyWithLogits(input: Tensor, target: Tensor, weight?: Tensor, posWeight?: Tensor, reduction: int = 0) -> Tensor",
  { doc: `nn.functional.binaryCrossEntropyWithLogits with posWeight positional; ${intReduction}.` },
  ({ input, target, weight, posWeight, reduction }) =>
    bceWithLogitsF(input, target, weight ?? null, { posWeight: posWeight ?? null, reduction: reductionOf("binaryCrossEntropyWithLogits", reduction) }),
);

// --- poolings, padding ---------------------------------------------------------------------------------

/** PyTorch's torch.max_pool*d take stride = [] for "the kernel size". */
const strideOf = (stride: number | readonly number[] | undefined): number | readonly number[] | null =>
  stride === undefined || (Array.isArray(stride) && stride.length === 0) ? null : (stride as number | readonly number[]);

export const maxPool1d = op(
  "torch.maxPool1d(input: Tensor, kernelSize: int | int[], stride?: int | int[], padding: int | int[] = 0, dilation: int | int[] = 1, ceilMode: bool = false) -> Tensor",
  { doc: "nn.functional.maxPool1d without returnIndices (torch.max_pool1d's signature; stride [] or left out is the kernel size)." },
  ({ input, kernelSize, stride, padding, dilation, ceilMode }) => maxPool1dF(input, kernelSize, strideOf(stride), padding, dilation, ceilMode),
);

export const maxPool2d = op(
  "torch.maxPool2d(input: Tensor, kernelSize: int | int[], stride?: int | int[], padding: int | int[] = 0, dilation: int | int[] = 1, ceilMode: bool = false) -> Tensor",
  { doc: "nn.functional.maxPool2d without returnIndices (torch.max_pool2d's signature; stride [] or left out is the kernel size)." },
  ({ input, kernelSize, stride, padding, dilation, ceilMode }) => maxPool2dF(input, kernelSize, strideOf(stride), padding, dilation, ceilMode),
);

export const maxPool3d = op(
  "torch.maxPool3d(input: Tensor, kernelSize: int | int[], stride?: int | int[], padding: int | int[] = 0, dilation: int | int[] = 1, ceilMode: bool = false) -> Tensor",
  { doc: "nn.functional.maxPool3d without returnIndices (torch.max_pool3d's signature; stride [] or left out is the kernel size)." },
  ({ input, kernelSize, stride, padding, dilation, ceilMode }) => maxPool3dF(input, kernelSize, strideOf(stride), padding, dilation, ceilMode),
);

export const maxPool1dWithIndices = op(
  "torch.maxPool1dWithIndices(input: Tensor, kernelSize: int | int[], stride?: int | int[], padding: int | int[] = 0, dilation: int | int[] = 1, ceilMode: bool = false) -> (Tensor, Tensor)",
  { doc: "nn.functional.maxPool1d's values and indices (torch.max_pool1d_with_indices's signature, without returnIndices)." },
  ({ input, kernelSize, stride, padding, dilation, ceilMode }) => maxPool1dWithIndicesF(input, kernelSize, strideOf(stride), padding, dilation, ceilMode),
);

export const adaptiveMaxPool1d = op(
  "torch.adaptiveMaxPool1d(input: Tensor, outputSize: int | int[]) -> (Tensor, Tensor)",
  { doc: "nn.functional.adaptiveMaxPool1d's values and indices: PyTorch's torch.adaptive_max_pool1d always returns both." },
  ({ input, outputSize }) => adaptiveMaxPool1dWithIndices(input, outputSize),
);

export const constantPadNd = op(
  "constantPadNd(input: Tensor, pad: int[], value: Scalar = 0) -> Tensor",
  { doc: "nn.functional.pad in constant mode: pad holds (before, after) pairs from the last dim backwards; negative entries crop." },
  ({ input, pad: widths, value }) => pad(input, widths, "constant", Number(value)),
);
