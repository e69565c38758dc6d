/**
 * @file torch.optim: optimizers and, under `lrScheduler`, learning-rate schedules.
 */
export { Optimizer, type OptimizerStateDict, type ParamGroup, type ParamGroupInput, type ParamsInput, type ParamState } from "./optimizer.js";
export { SGD, type SGDGroup, type SGDOptions } from "./sgd.js";
export { Adam, AdamW, type AdamGroup, type AdamOptions, type AdamWOptions } from "./adam.js";
export { RMSprop, type RMSpropGroup, type RMSpropOptions } from "./rmsprop.js";
export { Adagrad, type AdagradGroup, type AdagradOptions } from "./adagrad.js";
export * as lrScheduler from "./lr_schedulers.js";
