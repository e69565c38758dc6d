/**
 * @file The torch.optim.lrScheduler namespace.
 */
export { CosineAnnealingLR, ExponentialLR, LambdaLR, LinearLR, LRScheduler, MultiStepLR, StepLR, type LrLambda } from "./lr_scheduler.js";
export { OneCycleLR, type OneCycleLROptions } from "./one_cycle_lr.js";
export { ReduceLROnPlateau, type ReduceLROnPlateauOptions } from "./reduce_lr_on_plateau.js";
export { SequentialLR } from "./sequential_lr.js";
