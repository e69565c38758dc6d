/**
 * @file torch.nn: Module and Parameter, layers, `functional` and `init`.
 */
export * as functional from "./functional.js";
export * as init from "./init.js";
export { Module, Parameter, type ForwardHook, type ForwardPreHook, type LoadResult } from "./module.js";
export { Identity, Linear, type LinearOptions } from "./layers/linear.js";
export { Dropout, Embedding, Flatten, LayerNorm, RMSNorm, Unflatten, type EmbeddingOptions, type LayerNormOptions, type RMSNormOptions } from "./layers/basic.js";
export { ModuleDict, ModuleList, Sequential } from "./layers/containers.js";
export * from "./layers/activation.js";
export * from "./layers/loss.js";
