/**
 * @file The API ops as torch.* functions.
 */
export { add, sub, mul, div, neg, abs, exp, log, sqrt, sin, cos, tanh, sigmoid, relu, pow, maximum, minimum, where, eq, ne, lt, le, gt, ge, type RoundingMode } from "./pointwise.js";
export { sum, prod, mean, amax, amin, max, min, argmax, argmin, type ReduceOptions, type SumOptions, type ValuesIndices } from "./reduction.js";
export { reshape, view, transpose, permute, unsqueeze, squeeze, expand, broadcastTo, cat, broadcastShapesOf as broadcastShapes } from "./shape.js";
export { matmul } from "./linalg.js";
export { softmax, logSoftmax, type SoftmaxOptions } from "./activation.js";
export type { ScalarArg, TensorOrScalar } from "./args.js";
