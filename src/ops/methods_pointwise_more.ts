/**
 * @file Tensor methods for the ops in api/pointwise_more.ts (`x.clamp({ min: 0 })`, `a.fmod(b)`),
 * with declaration merging for their types. Imported once by src/index.ts.
 */
import type { DType } from "../dtype.js";
import { Tensor } from "../tensor.js";
import { attachMethods, type MethodTable } from "./attach.js";
import * as ops from "./api/pointwise_more.js";
import type { ClampOptions, CloseOptions } from "./api/pointwise_more.js";
import type { ScalarArg, TensorOrScalar } from "./types.js";

declare module "../tensor.js" {
  interface Tensor<D extends DType = DType> {
    exp2(): Tensor; expm1(): Tensor; log2(): Tensor; log10(): Tensor; log1p(): Tensor; rsqrt(): Tensor;
    square(): Tensor; reciprocal(): Tensor; tan(): Tensor; asin(): Tensor; acos(): Tensor; atan(): Tensor;
    sinh(): Tensor; cosh(): Tensor; asinh(): Tensor; acosh(): Tensor; atanh(): Tensor; erf(): Tensor; erfc(): Tensor; erfinv(): Tensor;
    logit(options?: { eps?: number | null }): Tensor;
    floor(): Tensor; ceil(): Tensor; trunc(): Tensor; frac(): Tensor; sign(): Tensor;
    round(options?: { decimals?: number }): Tensor;
    isnan(): Tensor; isinf(): Tensor; isfinite(): Tensor; signbit(): Tensor;
    clamp(options?: ClampOptions): Tensor; clip(options?: ClampOptions): Tensor;
    fmod(other: TensorOrScalar): Tensor; remainder(other: TensorOrScalar): Tensor; floorDivide(other: TensorOrScalar): Tensor;
    fmax(other: Tensor): Tensor; fmin(other: Tensor): Tensor; atan2(other: Tensor): Tensor;
    lerp(end: Tensor, weight: Tensor | number): Tensor;
    addcmul(tensor1: Tensor, tensor2: Tensor, options?: { value?: ScalarArg }): Tensor;
    addcdiv(tensor1: Tensor, tensor2: Tensor, options?: { value?: ScalarArg }): Tensor;
    nanToNum(options?: { nan?: number; posinf?: number | null; neginf?: number | null }): Tensor;
    logicalAnd(other: TensorOrScalar): Tensor; logicalOr(other: TensorOrScalar): Tensor; logicalXor(other: TensorOrScalar): Tensor;
    logicalNot(): Tensor;
    bitwiseAnd(other: TensorOrScalar): Tensor; bitwiseOr(other: TensorOrScalar): Tensor; bitwiseXor(other: TensorOrScalar): Tensor;
    bitwiseNot(): Tensor; bitwiseLeftShift(other: TensorOrScalar): Tensor; bitwiseRightShift(other: TensorOrScalar): Tensor;
    isclose(other: Tensor, options?: CloseOptions): Tensor; allclose(other: Tensor, options?: CloseOptions): boolean;
    equal(other: Tensor): boolean;
  }
}

// `self` first, then the method's own arguments, exactly as the torch.* function takes them.
const methods: MethodTable = {
  exp2: ops.exp2, expm1: ops.expm1, log2: ops.log2, log10: ops.log10, log1p: ops.log1p, rsqrt: ops.rsqrt,
  square: ops.square, reciprocal: ops.reciprocal, tan: ops.tan, asin: ops.asin, acos: ops.acos, atan: ops.atan,
  sinh: ops.sinh, cosh: ops.cosh, asinh: ops.asinh, acosh: ops.acosh, atanh: ops.atanh, erf: ops.erf, erfc: ops.erfc, erfinv: ops.erfinv,
  logit: ops.logit, floor: ops.floor, ceil: ops.ceil, trunc: ops.trunc, frac: ops.frac, sign: ops.sign, round: ops.round,
  isnan: ops.isnan, isinf: ops.isinf, isfinite: ops.isfinite, signbit: ops.signbit, clamp: ops.clamp, clip: ops.clip,
  fmod: ops.fmod, remainder: ops.remainder, floorDivide: ops.floorDivide, fmax: ops.fmax, fmin: ops.fmin, atan2: ops.atan2,
  lerp: ops.lerp, addcmul: ops.addcmul, addcdiv: ops.addcdiv, nanToNum: ops.nanToNum,
  logicalAnd: ops.logicalAnd, logicalOr: ops.logicalOr, logicalXor: ops.logicalXor, logicalNot: ops.logicalNot,
  bitwiseAnd: ops.bitwiseAnd, bitwiseOr: ops.bitwiseOr, bitwiseXor: ops.bitwiseXor, bitwiseNot: ops.bitwiseNot,
  bitwiseLeftShift: ops.bitwiseLeftShift, bitwiseRightShift: ops.bitwiseRightShift,
  isclose: ops.isclose, allclose: ops.allclose, equal: ops.equal,
};

attachMethods(methods);
