/**
 * @file In-place Tensor methods (`x.add_(y)`, `x.maskedFill_(mask, v)`; they return `x`) and
 * `x.maskedFill`, with declaration merging for their types. Imported once by src/index.ts.
 */
import type { DType } from "../dtype.js";
import { Tensor } from "../tensor.js";
import { attachMethods, type MethodTable } from "./attach.js";
import * as ops from "./api/inplace.js";
import type { ScalarArg, TensorOrScalar } from "./types.js";
import type { ClampOptions } from "./api/pointwise_more.js";
import type { RoundingMode } from "./api/pointwise.js";

declare module "../tensor.js" {
  interface Tensor<D extends DType = DType> {
    add_(other: TensorOrScalar, options?: { alpha?: ScalarArg }): this;
    sub_(other: TensorOrScalar, options?: { alpha?: ScalarArg }): this;
    mul_(other: TensorOrScalar): this;
    div_(other: TensorOrScalar, options?: { roundingMode?: RoundingMode | null }): this;
    pow_(exponent: TensorOrScalar): this;
    neg_(): this; abs_(): this; exp_(): this; log_(): this; sqrt_(): this; relu_(): this; sigmoid_(): this; tanh_(): this;
    clamp_(options?: ClampOptions): this;
    zero_(): this;
    fill_(value: ScalarArg | Tensor): this;
    copy_(src: Tensor): this;
    maskedFill_(mask: Tensor, value: ScalarArg | Tensor): this;
    maskedFill(mask: Tensor, value: ScalarArg | Tensor): Tensor<D>;
  }
}

const methods: MethodTable = {
  add_: ops.add_, sub_: ops.sub_, mul_: ops.mul_, div_: ops.div_, pow_: ops.pow_, neg_: ops.neg_, abs_: ops.abs_,
  exp_: ops.exp_, log_: ops.log_, sqrt_: ops.sqrt_, relu_: ops.relu_, sigmoid_: ops.sigmoid_, tanh_: ops.tanh_,
  clamp_: ops.clamp_, zero_: ops.zero_, fill_: ops.fill_, copy_: ops.copy_, maskedFill_: ops.maskedFill_,
  maskedFill: ops.maskedFill,
};

attachMethods(methods);
