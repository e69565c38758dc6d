/**
 * @file torch.nn.functional: `torch.nn.functional.relu(x)`, `F.crossEntropy(logits, target)`.
 * Re-exports only; each op lives in src/ops/api.
 */
export { relu, sigmoid, tanh } from "../ops/api/pointwise.js";
export { softmax, logSoftmax, type SoftmaxOptions } from "../ops/api/activation.js";
export { relu6, hardtanh, leakyRelu, elu, selu, celu, gelu, silu, softplus, mish, softsign, hardsigmoid, hardswish, glu } from "../ops/api/nn_activation.js";
export { layerNorm, rmsNorm, groupNorm, batchNorm, type LayerNormOptions, type BatchNormOptions } from "../ops/api/nn_norm.js";
export { linear } from "../ops/api/nn_linear.js";
export { scaledDotProductAttention, type AttentionOptions } from "../ops/api/nn_attention.js";
export {
  crossEntropy, nllLoss, oneHot, mseLoss, l1Loss, smoothL1Loss, huberLoss, klDiv, binaryCrossEntropy, binaryCrossEntropyWithLogits,
  type CrossEntropyOptions, type NllLossOptions, type BceOptions,
} from "../ops/api/nn_loss.js";
export { cosineSimilarity, pairwiseDistance, normalize } from "../ops/api/nn_distance.js";
export { dropout, type DropoutOptions } from "../ops/api/nn_dropout.js";
export * from "../ops/api/nn_window_index.js";
export { embedding, type EmbeddingOptions } from "../ops/api/nn_embedding.js";
