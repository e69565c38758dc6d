/**
 * @file In-place ops (`x.add_(y)`, `x.zero_()`, …) and masked fill. Each computes its result as a
 * new buffer and then rebinds `x` to it (the old buffer is freed at once), so every reference to
 * `x` sees the new values. The result keeps `x`'s dtype and shape, as in PyTorch: a result dtype
 * that cannot be cast back to `x`'s (float into int, anything into bool) is a DTypeError, and a
 * result that broadcasts to a larger shape is a ShapeError. Views are copies here, so writing into
 * a tensor never changes the tensor it was sliced or reshaped from.
 */
import { type DType, dtypes } from "../../dtype.js";
import { ArgumentError, DTypeError, ShapeError } from "../../runtime/errors.js";
import { rebind, Tensor } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import * as e from "../emit.js";
import { broadcastShapes, fmtShape } from "../dims.js";
import { type ScalarArg, type TensorOrScalar } from "../types.js";
import { checkTensor, isScalar, lift, run } from "../unit.js";
import { to } from "./conversion.js";
import { fullLike, zerosLike } from "./creation_ops.js";
import { clamp, type ClampOptions } from "./pointwise_more.js";
import * as p from "./pointwise.js";

const kindRank = { bool: 0, uint: 1, int: 1, float: 2 } as const;
const torchName: Record<DType, string> = {
  float32: "Float", float64: "Double", float16: "Half", bfloat16: "BFloat16", int8: "Char", int16: "Short", int32: "Int",
  int64: "Long", uint8: "Byte", uint16: "UInt16", uint32: "UInt32", uint64: "UInt64", bool: "Bool",
};

/** torch.can_cast: never from a higher category (float > integer > bool) to a lower one. */
export function canCast(from: DType, into: DType): boolean {
  return kindRank[dtypes[from].kind] <= kindRank[dtypes[into].kind];
}

/** Makes `self` hold `result`'s values (cast to self's dtype); `result` is consumed. Returns `self`. */
export function assignInPlace(op: string, self: Tensor, result: Tensor): Tensor {
  let value = result;
  try {
    if (result.shape.length !== self.shape.length || result.shape.some((d, i) => d !== self.shape[i])) {
      throw new ShapeError(`${op}: output with shape ${fmtShape(self.shape)} doesn't match the broadcast shape ${fmtShape(result.shape)}; an in-place op cannot change the shape of its tensor`);
    }
    if (!canCast(result.dtype, self.dtype)) {
      throw new DTypeError(
        `${op}: result type ${torchName[result.dtype]} (${result.dtype}) can't be cast to the desired output type ${torchName[self.dtype]} (${self.dtype}); ` +
          `use the out-of-place ${op.slice(0, -1)} or convert the tensor with .to("${result.dtype}") first`,
      );
    }
    value = to(result, self.dtype);
    rebind(self, value);
    return self;
  } finally {
    result.dispose();
    if (value !== result && value !== self) value.dispose();
  }
}

/** Checks `self` first, computes the out-of-place result, then assigns it. */
function inPlace(op: string, self: Tensor, compute: () => Tensor): Tensor {
  checkTensor(op, self, "self");
  return assignInPlace(op, self, compute());
}

export const add_ = (self: Tensor, other: TensorOrScalar, options?: { alpha?: ScalarArg }): Tensor =>
  inPlace("add_", self, () => p.add(self, other, options));
export const sub_ = (self: Tensor, other: TensorOrScalar, options?: { alpha?: ScalarArg }): Tensor =>
  inPlace("sub_", self, () => p.sub(self, other, options));
export const mul_ = (self: Tensor, other: TensorOrScalar): Tensor => inPlace("mul_", self, () => p.mul(self, other));
export const div_ = (self: Tensor, other: TensorOrScalar, options?: { roundingMode?: p.RoundingMode | null }): Tensor =>
  inPlace("div_", self, () => p.div(self, other, options));
export const pow_ = (self: Tensor, exponent: TensorOrScalar): Tensor => inPlace("pow_", self, () => p.pow(self, exponent));
export const neg_ = (self: Tensor): Tensor => inPlace("neg_", self, () => p.neg(self));
export const abs_ = (self: Tensor): Tensor => inPlace("abs_", self, () => p.abs(self));
export const exp_ = (self: Tensor): Tensor => inPlace("exp_", self, () => p.exp(self));
export const log_ = (self: Tensor): Tensor => inPlace("log_", self, () => p.log(self));
export const sqrt_ = (self: Tensor): Tensor => inPlace("sqrt_", self, () => p.sqrt(self));
export const relu_ = (self: Tensor): Tensor => inPlace("relu_", self, () => p.relu(self));
export const sigmoid_ = (self: Tensor): Tensor => inPlace("sigmoid_", self, () => p.sigmoid(self));
export const tanh_ = (self: Tensor): Tensor => inPlace("tanh_", self, () => p.tanh(self));
export const clamp_ = (self: Tensor, options?: ClampOptions): Tensor => inPlace("clamp_", self, () => clamp(self, options));
export const zero_ = (self: Tensor): Tensor => inPlace("zero_", self, () => zerosLike(self));

/** Fills with a scalar (cast to self's dtype, floats truncate into ints) or a 0-d tensor. */
export function fill_(self: Tensor, value: ScalarArg | Tensor): Tensor {
  checkTensor("fill_", self, "self");
  if (value instanceof Tensor) {
    if (value.ndim !== 0) throw new ShapeError(`fill_: only supports a 0-dimension value tensor, but got a tensor with ${value.ndim} dimensions`);
    return copy_(self, value);
  }
  if (!isScalar(value)) throw new ArgumentError(`fill_: value must be a number, bigint, boolean or 0-d Tensor, got ${String(value)}`);
  return inPlace("fill_", self, () => fullLike(self, value));
}

/** Copies `src` (broadcast to self's shape, converted to self's dtype, moved from its device). */
export function copy_(self: Tensor, src: Tensor): Tensor {
  checkTensor("copy_", self, "self");
  checkTensor("copy_", src, "src");
  const shape = broadcastShapes("copy_", self.shape, src.shape);
  if (shape.length !== self.shape.length || shape.some((d, i) => d !== self.shape[i])) {
    throw new ShapeError(`copy_: src of shape ${fmtShape(src.shape)} cannot be broadcast to self's shape ${fmtShape(self.shape)}`);
  }
  const local = to(src, self.device);
  try {
    const result = run("copy_", [self, local], "", ([s, x]) => lift(x as Tracer, (s as Tracer).dtype, self.shape));
    return assignInPlace("copy_", self, result);
  } finally {
    if (local !== src) local.dispose();
  }
}

function checkMask(op: string, x: Tensor, mask: Tensor, value: ScalarArg | Tensor): void {
  checkTensor(op, x);
  checkTensor(op, mask, "mask");
  if (mask.dtype !== "bool") throw new DTypeError(`${op}: expected a bool mask, got ${mask.dtype}; build one with a comparison (x.gt(0)) or .to("bool")`);
  if (value instanceof Tensor) {
    checkTensor(op, value, "value");
    if (value.ndim !== 0) throw new ShapeError(`${op}: only supports a 0-dimensional value tensor, but got a tensor with ${value.ndim} dimensions`);
  } else if (!isScalar(value)) {
    throw new ArgumentError(`${op}: value must be a number, bigint, boolean or 0-d Tensor, got ${String(value)}`);
  }
}

/** Where `mask` is true, `value` (cast to x's dtype: floats truncate into ints); elsewhere x. Shapes broadcast. */
export function maskedFill(x: Tensor, mask: Tensor, value: ScalarArg | Tensor): Tensor {
  checkMask("maskedFill", x, mask, value);
  const shape = broadcastShapes("maskedFill", x.shape, mask.shape);
  const integral = dtypes[x.dtype].kind === "int" || dtypes[x.dtype].kind === "uint";
  const fill = integral && typeof value === "number" ? Math.trunc(value) : value;
  return run("maskedFill", [x, mask, fill], "", ([v, m, f]) => {
    const t = v as Tracer;
    return e.select(lift(m!, "bool", shape), lift(f!, t.dtype, shape), lift(t, t.dtype, shape));
  });
}

export function maskedFill_(self: Tensor, mask: Tensor, value: ScalarArg | Tensor): Tensor {
  return inPlace("maskedFill_", self, () => maskedFill(self, mask, value));
}
