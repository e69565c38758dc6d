/**
 * @file torch.nn.functional: `torch.nn.functional.relu(x)`, `F.crossEntropy(logits, target)`.
 * Re-exports only; each op lives in src/ops/nn (relu, sigmoid and tanh with the pointwise ops).
 */
export { relu } from "../ops/pointwise/extremes.js";
export { sigmoid, tanh } from "../ops/pointwise/math.js";
export { softmax, logSoftmax } from "../ops/nn/softmax.js";
export {
  relu6, hardtanh, leakyRelu, elu, selu, celu, gelu, silu, softplus, mish, softsign, hardsigmoid, hardswish, glu,
  logsigmoid, softmin, threshold, hardshrink, softshrink, tanhshrink, prelu, rrelu,
} from "../ops/nn/activations.js";
export { layerNorm, rmsNorm, groupNorm, batchNorm, instanceNorm, localResponseNorm } from "../ops/nn/normalization.js";
export { linear, bilinear } from "../ops/nn/linear.js";
export { scaledDotProductAttention } from "../ops/nn/attention.js";
export {
  crossEntropy, nllLoss, oneHot, mseLoss, l1Loss, smoothL1Loss, huberLoss, klDiv, binaryCrossEntropy, binaryCrossEntropyWithLogits,
  marginRankingLoss, hingeEmbeddingLoss, softMarginLoss, cosineEmbeddingLoss, tripletMarginLoss, poissonNllLoss, gaussianNllLoss,
  multilabelSoftMarginLoss, multiMarginLoss, multilabelMarginLoss, tripletMarginWithDistanceLoss,
} from "../ops/nn/losses.js";
export { cosineSimilarity, pairwiseDistance, normalize, pdist } from "../ops/nn/distance.js";
export { dropout, dropout1d, dropout2d, dropout3d, alphaDropout, featureAlphaDropout } from "../ops/nn/dropout.js";
export { gumbelSoftmax } from "../ops/nn/gumbel_softmax.js";
export { pixelShuffle, pixelUnshuffle, channelShuffle } from "../ops/nn/shuffle.js";
export { embedding, embeddingBag } from "../ops/nn/embedding.js";
export { conv1d, conv2d, conv3d, convTranspose1d, convTranspose2d, convTranspose3d, unfold, fold } from "../ops/nn/convolution.js";
export {
  maxPool1d, maxPool2d, maxPool3d, maxPool1dWithIndices, maxPool2dWithIndices, maxPool3dWithIndices, avgPool1d, avgPool2d, avgPool3d,
  adaptiveAvgPool1d, adaptiveAvgPool2d, adaptiveAvgPool3d, adaptiveMaxPool1d, adaptiveMaxPool2d, adaptiveMaxPool3d,
  adaptiveMaxPool1dWithIndices, adaptiveMaxPool2dWithIndices, adaptiveMaxPool3dWithIndices, lpPool1d, lpPool2d, lpPool3d,
} from "../ops/nn/pooling.js";
export { maxUnpool1d, maxUnpool2d, maxUnpool3d } from "../ops/nn/unpooling.js";
export { fractionalMaxPool2d, fractionalMaxPool3d } from "../ops/nn/fractional_pooling.js";
export { pad } from "../ops/nn/padding.js";
export { interpolate, upsample, upsampleNearest, upsampleBilinear } from "../ops/nn/resampling.js";
export { gridSample, affineGrid } from "../ops/nn/sampling.js";
export { ctcLoss } from "../ops/nn/ctc_loss.js";
