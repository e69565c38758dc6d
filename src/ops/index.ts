/**
 * @file The torch.* ops: every family folder re-exported (torch.nn.functional's are in src/nn/functional.ts).
 */
export { add, sub, mul, div, neg, abs, exp, log, sqrt, sin, cos, tanh, sigmoid, relu, pow, maximum, minimum, where, eq, ne, lt, le, gt, ge, type RoundingMode } from "./api/pointwise.js";
export { sum, prod, mean } from "./reduction/sums.js";
export { amax, amin, max, min, argmax, argmin } from "./reduction/extremes.js";
export { reshape, view, transpose, permute, unsqueeze, squeeze, expand, broadcastTo, cat, broadcastShapesOf as broadcastShapes } from "./api/shape.js";
export { matmul } from "./api/linalg.js";
export { all, any, variance as var, std, varMean, stdMean, logsumexp, norm, countNonzero, type NormOptions, type VarOptions } from "./api/reduction_more.js";
export { mm, bmm, mv, dot, outer, addmm, baddbmm, tensordot, cross, type AddmmOptions, type TensordotDims } from "./api/linalg_more.js";
export { einsum } from "./api/einsum.js";
export { flatten, unflatten, t, expandAs, stack, hstack, vstack, split, chunk, unbind, narrow, flip, roll, tile, movedim, tril, triu, diagonal, diag, meshgrid, broadcastTensors } from "./api/shape_more.js";
export { zeros, ones, full, empty, arange, linspace, logspace, eye, zerosLike, onesLike, fullLike, emptyLike, type CreationOptions, type LogspaceOptions } from "./api/creation_ops.js";
export { softmax, logSoftmax, type SoftmaxOptions } from "./api/activation.js";
export { exp2, expm1, log2, log10, log1p, rsqrt, square, reciprocal, tan, asin, acos, atan, sinh, cosh, asinh, acosh, atanh, erf, erfc, erfinv, logit, floor, ceil, trunc, frac, round, sign, isnan, isinf, isfinite, signbit, clamp, clip, fmod, remainder, floorDivide, fmax, fmin, lerp, addcmul, addcdiv, nanToNum, logicalAnd, logicalOr, logicalXor, logicalNot, bitwiseAnd, bitwiseOr, bitwiseXor, bitwiseNot, bitwiseLeftShift, bitwiseRightShift, isclose, allclose, equal, atan2, type ClampOptions, type CloseOptions } from "./api/pointwise_more.js";
export { indexSelect, gather, scatter, scatterAdd, scatterReduce, takeAlongDim, sort, argsort, topk, searchsorted, bucketize, type ScatterOptions, type ScatterReduction, type SortOptions, type TopkOptions, type SearchsortedOptions } from "./api/indexing.js";
export { nonzero, maskedSelect, unique, type UniqueOptions } from "./api/indexing_host.js";
export { slice, Slice, index, indexPut, setIndex, indexPut_, type IndexItem } from "./api/indexing_call.js";
export { cumsum, cumprod, cummax, cummin, logcumsumexp, type CumulativeOptions } from "./api/cumulative.js";
export type { ScalarArg, TensorOrScalar, ValuesIndices } from "./types.js";
export { clone, detach, type ToOptions, type ToTarget } from "./api/conversion.js";
export { maskedFill } from "./api/inplace.js";
export { rand, randn, randint, randperm, normal, bernoulli, multinomial, randLike, randnLike, randintLike, type RandomOptions } from "./api/random.js";
