/**
 * @file torch.nn.functional: `torch.nn.functional.relu(x)`, `F.crossEntropy(logits, target)`.
 * Re-exports only; each op lives in src/ops/nn (relu, sigmoid and tanh with the pointwise ops).
 */
export { relu } from "../ops/pointwise/extremes.js";
export { sigmoid, tanh } from "../ops/pointwise/math.js";
export { softmax, logSoftmax } from "../ops/nn/softmax.js";
export { relu6, hardtanh, leakyRelu, elu, selu, celu, gelu, silu, softplus, mish, softsign, hardsigmoid, hardswish, glu } from "../ops/nn/activations.js";
export { layerNorm, rmsNorm, groupNorm, batchNorm } from "../ops/nn/normalization.js";
export { linear, bilinear } from "../ops/nn/linear.js";
export { scaledDotProductAttention } from "../ops/nn/attention.js";
export {
  crossEntropy, nllLoss, oneHot, mseLoss, l1Loss, smoothL1Loss, huberLoss, klDiv, binaryCrossEntropy, binaryCrossEntropyWithLogits,
  marginRankingLoss, hingeEmbeddingLoss, softMarginLoss, cosineEmbeddingLoss, tripletMarginLoss, poissonNllLoss, gaussianNllLoss,
  multilabelSoftMarginLoss, multiMarginLoss,
} from "../ops/nn/losses.js";
export { cosineSimilarity, pairwiseDistance, normalize } from "../ops/nn/distance.js";
export { dropout } from "../ops/nn/dropout.js";
export { embedding } from "../ops/nn/embedding.js";
export { conv1d, conv2d, conv3d, convTranspose1d, convTranspose2d, unfold } from "../ops/nn/convolution.js";
export { maxPool1d, maxPool2d, avgPool1d, avgPool2d, adaptiveAvgPool1d, adaptiveAvgPool2d } from "../ops/nn/pooling.js";
export { pad } from "../ops/nn/padding.js";
export { interpolate } from "../ops/nn/resampling.js";
