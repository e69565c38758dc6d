/**
 * @file torch.nn: Module and Parameter, layers, `functional` and `init`.
 */
export * as functional from "./functional.js";
export * as init from "./init.js";
export * as utils from "./utils.js";
export { Module, Parameter, type ForwardHook, type ForwardPreHook, type LoadResult } from "./module.js";
export { Bilinear, Identity, Linear, type LinearOptions } from "./layers/linear.js";
export {
  Dropout, Embedding, Flatten, GroupNorm, LayerNorm, RMSNorm, Unflatten,
  type EmbeddingOptions, type LayerNormOptions, type RMSNormOptions,
} from "./layers/basic.js";
export * from "./layers/conv.js";
export { EmbeddingBag, type EmbeddingBagCallOptions, type EmbeddingBagOptions } from "./layers/embedding_bag.js";
export { ModuleDict, ModuleList, ParameterDict, ParameterList, Sequential } from "./layers/containers.js";
export * from "./layers/activation.js";
export * from "./layers/dropout.js";
export * from "./layers/normalization.js";
export * from "./layers/shuffle.js";
export * from "./layers/padding.js";
export * from "./layers/loss.js";
export {
  MultiheadAttention, TransformerEncoder, TransformerEncoderLayer,
  type AttentionCallOptions, type MultiheadAttentionOptions, type TransformerActivation, type TransformerEncoderLayerOptions,
} from "./layers/transformer.js";
export {
  Transformer, TransformerDecoder, TransformerDecoderLayer,
  type TransformerCallOptions, type TransformerDecoderCallOptions, type TransformerDecoderLayerOptions, type TransformerOptions,
} from "./layers/transformer_decoder.js";
export {
  GRU, GRUCell, LSTM, LSTMCell, RNN, RNNBase, RNNCell, RNNCellBase,
  type CellOptions, type GRUOptions, type LSTMOptions, type RNNBaseOptions, type RNNCellOptions, type RNNOptions,
} from "./layers/rnn.js";
export { Upsample, UpsamplingBilinear2d, UpsamplingNearest2d, type UpsampleOptions } from "./layers/upsample.js";
