/**
 * @file Tensor methods (`a.add(b)`, `x.sum({ dim: 1 })`): the API functions attached to
 * Tensor.prototype, with declaration merging for their types. Imported once by src/index.ts.
 */
import type { DType } from "../dtype.js";
import { Tensor } from "../tensor.js";
import { attachMethods, type MethodTable } from "./attach.js";
import * as ops from "./index.js";
import type { RoundingMode, ScalarArg, SoftmaxOptions, TensorOrScalar } from "./index.js";

type Shape = readonly number[];

declare module "../tensor.js" {
  interface Tensor<D extends DType = DType> {
    add(other: TensorOrScalar, options?: { alpha?: ScalarArg }): Tensor;
    sub(other: TensorOrScalar, options?: { alpha?: ScalarArg }): Tensor;
    mul(other: TensorOrScalar): Tensor;
    div(other: TensorOrScalar, options?: { roundingMode?: RoundingMode | null }): Tensor;
    neg(): Tensor;
    abs(): Tensor;
    exp(): Tensor;
    log(): Tensor;
    sqrt(): Tensor;
    sin(): Tensor;
    cos(): Tensor;
    tanh(): Tensor;
    sigmoid(): Tensor;
    relu(): Tensor;
    pow(exponent: TensorOrScalar): Tensor;
    maximum(other: Tensor): Tensor;
    minimum(other: Tensor): Tensor;
    where(condition: Tensor, other: TensorOrScalar): Tensor;
    eq(other: TensorOrScalar): Tensor;
    ne(other: TensorOrScalar): Tensor;
    lt(other: TensorOrScalar): Tensor;
    le(other: TensorOrScalar): Tensor;
    gt(other: TensorOrScalar): Tensor;
    ge(other: TensorOrScalar): Tensor;
    reshape(...shape: (number | Shape)[]): Tensor;
    view(...shape: (number | Shape)[]): Tensor;
    transpose(dim0: number, dim1: number): Tensor;
    permute(...dims: (number | Shape)[]): Tensor;
    unsqueeze(dim: number): Tensor;
    squeeze(dim?: number | Shape): Tensor;
    expand(...sizes: (number | Shape)[]): Tensor;
    broadcastTo(shape: Shape): Tensor;
    matmul(other: Tensor): Tensor;
    softmax(dim: number, options?: SoftmaxOptions): Tensor;
    logSoftmax(dim: number, options?: SoftmaxOptions): Tensor;
  }
}

// `self` first, then the method's own arguments, exactly as the torch.* function takes them.
const methods: MethodTable = {
  add: ops.add, sub: ops.sub, mul: ops.mul, div: ops.div, neg: ops.neg, abs: ops.abs, exp: ops.exp, log: ops.log,
  sqrt: ops.sqrt, sin: ops.sin, cos: ops.cos, tanh: ops.tanh, sigmoid: ops.sigmoid, relu: ops.relu, pow: ops.pow,
  maximum: ops.maximum, minimum: ops.minimum, eq: ops.eq, ne: ops.ne, lt: ops.lt, le: ops.le, gt: ops.gt, ge: ops.ge,
  reshape: ops.reshape, view: ops.view, transpose: ops.transpose,
  permute: ops.permute, unsqueeze: ops.unsqueeze, squeeze: ops.squeeze, expand: ops.expand, broadcastTo: ops.broadcastTo,
  matmul: ops.matmul, softmax: ops.softmax, logSoftmax: ops.logSoftmax,
  // x.where(condition, y) is torch.where(condition, x, y)
  where: (self: Tensor, condition: Tensor, other: TensorOrScalar) => ops.where(condition, self, other),
};

attachMethods(methods);
