/**
 * @file The API ops as torch.* functions.
 */
export { add, sub, mul, div, neg, abs, exp, log, sqrt, sin, cos, tanh, sigmoid, relu, pow, maximum, minimum, where, eq, ne, lt, le, gt, ge, type RoundingMode } from "./pointwise.js";
export { sum, prod, mean, amax, amin, max, min, argmax, argmin, type ReduceOptions, type SumOptions, type ValuesIndices } from "./reduction.js";
export { reshape, view, transpose, permute, unsqueeze, squeeze, expand, broadcastTo, cat, broadcastShapesOf as broadcastShapes } from "./shape.js";
export { matmul } from "./linalg.js";
export { all, any, variance as var, std, varMean, stdMean, logsumexp, norm, countNonzero, type NormOptions, type VarOptions } from "./reduction_more.js";
export { mm, bmm, mv, dot, outer, addmm, baddbmm, tensordot, cross, type AddmmOptions, type TensordotDims } from "./linalg_more.js";
export { einsum } from "./einsum.js";
export { flatten, unflatten, t, expandAs, stack, hstack, vstack, split, chunk, unbind, narrow, flip, roll, tile, movedim, tril, triu, diagonal, diag, meshgrid, broadcastTensors } from "./shape_more.js";
export { zeros, ones, full, empty, arange, linspace, logspace, eye, zerosLike, onesLike, fullLike, emptyLike, type CreationOptions, type LogspaceOptions } from "./creation_ops.js";
export { softmax, logSoftmax, type SoftmaxOptions } from "./activation.js";
export { exp2, expm1, log2, log10, log1p, rsqrt, square, reciprocal, tan, asin, acos, atan, sinh, cosh, asinh, acosh, atanh, erf, erfc, erfinv, logit, floor, ceil, trunc, frac, round, sign, isnan, isinf, isfinite, signbit, clamp, clip, fmod, remainder, floorDivide, fmax, fmin, lerp, addcmul, addcdiv, nanToNum, logicalAnd, logicalOr, logicalXor, logicalNot, bitwiseAnd, bitwiseOr, bitwiseXor, bitwiseNot, bitwiseLeftShift, bitwiseRightShift, isclose, allclose, equal, atan2, type ClampOptions, type CloseOptions } from "./pointwise_more.js";
export { indexSelect, gather, scatter, scatterAdd, scatterReduce, takeAlongDim, sort, argsort, topk, searchsorted, bucketize, type ScatterOptions, type ScatterReduction, type SortOptions, type TopkOptions, type SearchsortedOptions } from "./indexing.js";
export { nonzero, maskedSelect, unique, type UniqueOptions } from "./indexing_host.js";
export { slice, Slice, index, indexPut, setIndex, indexPut_, type IndexItem } from "./indexing_call.js";
export { cumsum, cumprod, cummax, cummin, logcumsumexp, type CumulativeOptions } from "./cumulative.js";
export type { ScalarArg, TensorOrScalar } from "./args.js";
export { clone, detach, type ToOptions, type ToTarget } from "./conversion.js";
export { maskedFill } from "./inplace.js";
export { rand, randn, randint, randperm, normal, bernoulli, multinomial, randLike, randnLike, randintLike, type RandomOptions } from "./random.js";
