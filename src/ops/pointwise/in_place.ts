/**
 * @file In-place ops, Tensor methods only (`x.add_(y)`, `x.zero_()`, `x.maskedFill_(mask, v)`; they
 * return `x`). Each computes its result as a new buffer and then rebinds `x` to it (the old buffer
 * is freed at once), so every reference to `x` sees the new values. The result keeps `x`'s dtype
 * and shape, as in PyTorch: a result dtype that cannot be cast back to `x`'s (float into int,
 * anything into bool) is a DTypeError, and a result that broadcasts to a larger shape is a
 * ShapeError, both raised before anything runs (checkInPlace). Views are copies here, so writing
 * into a tensor never changes the tensor it was sliced or reshaped from.
 */
import { type DType, dtypes, resultType } from "../../dtype.js";
import { DTypeError, ShapeError } from "../../runtime/errors.js";
import { rebind, Tensor } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import * as e from "../emit.js";
import { broadcastShapes, fmtShape } from "../dims.js";
import { op } from "../signature/op.js";
import type { TensorOrScalar } from "../types.js";
import { checkTensor, isScalar, lift, promotionOf, run } from "../unit.js";
import { floatDType } from "./operands.js";
import { to } from "../conversion.js";
import { filled } from "../creation/common.js";
import { zerosLike } from "../creation/filled.js";
import { absolute, addSub, divide, multiply, negate, power } from "./arithmetic.js";
import { clampTo, rectify } from "./extremes.js";
import { floatMath } from "./math.js";
import { fillMasked } from "./selection.js";
import { indexAdd, indexCopy, indexFill, scatter, scatterAdd } from "../indexing/gather_scatter.js";

const kindRank = { bool: 0, uint: 1, int: 1, float: 2 } as const;
const torchName: Record<DType, string> = {
  float32: "Float", float64: "Double", float16: "Half", bfloat16: "BFloat16", int8: "Char", int16: "Short", int32: "Int",
  int64: "Long", uint8: "Byte", uint16: "UInt16", uint32: "UInt32", uint64: "UInt64", bool: "Bool",
};

/** torch.can_cast: never from a higher category (float > integer > bool) to a lower one. */
export function canCast(from: DType, into: DType): boolean {
  return kindRank[dtypes[from].kind] <= kindRank[dtypes[into].kind];
}

/**
 * PyTorch's checks that a result of `dtype` and `shape` can be written into `self`: the shape must be
 * self's and the dtype must cast back (canCast). In-place ops call it before running, so bad input
 * runs nothing; assignInPlace calls it again on the actual result.
 */
export function checkInPlace(name: string, self: Tensor, dtype: DType, shape: readonly number[]): void {
  if (shape.length !== self.shape.length || shape.some((d, i) => d !== self.shape[i])) {
    throw new ShapeError(`${name}: output with shape ${fmtShape(self.shape)} doesn't match the broadcast shape ${fmtShape(shape)}; an in-place op cannot change the shape of its tensor`);
  }
  if (!canCast(dtype, self.dtype)) {
    throw new DTypeError(
      `${name}: result type ${torchName[dtype]} (${dtype}) can't be cast to the desired output type ${torchName[self.dtype]} (${self.dtype}); ` +
        `use the out-of-place ${name.slice(0, -1)} or convert the tensor with .to("${dtype}") first`,
    );
  }
}

/**
 * How an elementwise op's result dtype follows from its operands: "promoted" is torch.result_type,
 * "float" the same with integers and bool as the default float dtype, "bool" a comparison or logical op.
 */
export type ResultKind = "promoted" | "float" | "bool";

/**
 * Runs the elementwise op `compute` of `self` and `others` in place: checks first (checkInPlace on
 * the broadcast shape and the dtype by `kind`), then assigns the result to self. Operands that are
 * not tensors or scalars are left to the op's own checks.
 */
export function elementwiseInPlace(name: string, kind: ResultKind, self: Tensor, others: readonly unknown[], compute: () => Tensor): Tensor {
  checkTensor(name, self);
  const operands = others.filter((o): o is TensorOrScalar => o instanceof Tensor || isScalar(o));
  let shape: readonly number[] = self.shape;
  for (const o of operands) if (o instanceof Tensor) shape = broadcastShapes(name, shape, o.shape);
  const promoted = kind === "bool" ? "bool" : resultType(...[self, ...operands].map(promotionOf));
  checkInPlace(name, self, kind === "float" ? floatDType(promoted) : promoted, shape);
  return assignInPlace(name, self, compute());
}

/** Makes `self` hold `result`'s values (cast to self's dtype); `result` is consumed. Returns `self`. */
export function assignInPlace(name: string, self: Tensor, result: Tensor): Tensor {
  let value = result;
  try {
    checkInPlace(name, self, result.dtype, result.shape);
    value = to(result, self.dtype);
    rebind(self, value);
    return self;
  } finally {
    result.dispose();
    if (value !== result && value !== self) value.dispose();
  }
}

export const add_ = op(
  "add_(input: Tensor, other: Tensor | Scalar, *, alpha: Scalar = 1) -> Tensor",
  { doc: "In place: x += alpha × other; returns x.", method: true },
  ({ input, other, alpha }) => elementwiseInPlace("add_", "promoted", input, [other], () => addSub("add", input, other, alpha)),
);

export const sub_ = op(
  "sub_(input: Tensor, other: Tensor | Scalar, *, alpha: Scalar = 1) -> Tensor",
  { doc: "In place: x −= alpha × other; returns x.", method: true },
  ({ input, other, alpha }) => elementwiseInPlace("sub_", "promoted", input, [other], () => addSub("sub", input, other, alpha)),
);

export const mul_ = op(
  "mul_(input: Tensor, other: Tensor | Scalar) -> Tensor",
  { doc: "In place: x ×= other; returns x.", method: true },
  ({ input, other }) => elementwiseInPlace("mul_", "promoted", input, [other], () => multiply(input, other)),
);

export const div_ = op(
  'div_(input: Tensor, other: Tensor | Scalar, *, roundingMode?: "trunc" | "floor") -> Tensor',
  { doc: "In place: x /= other (rounded with roundingMode \"trunc\" or \"floor\"); returns x. True division of an integer tensor is an error, as its float result cannot be cast back.", method: true },
  ({ input, other, roundingMode }) => elementwiseInPlace("div_", roundingMode ? "promoted" : "float", input, [other], () => divide(input, other, roundingMode ?? null)),
);

export const pow_ = op(
  "pow_(input: Tensor, exponent: Tensor | Scalar) -> Tensor",
  { doc: "In place: x = x ** exponent; returns x.", method: true },
  ({ input, exponent }) => elementwiseInPlace("pow_", "promoted", input, [exponent], () => power(input, exponent)),
);

export const neg_ = op("neg_(input: Tensor) -> Tensor", { doc: "In place: x = −x; returns x.", method: true }, ({ input }) => elementwiseInPlace("neg_", "promoted", input, [], () => negate(input)));

export const abs_ = op("abs_(input: Tensor) -> Tensor", { doc: "In place: x = |x|; returns x.", method: true }, ({ input }) => elementwiseInPlace("abs_", "promoted", input, [], () => absolute(input)));

export const exp_ = op("exp_(input: Tensor) -> Tensor", { doc: "In place: x = e^x (float tensors); returns x.", method: true }, ({ input }) =>
  elementwiseInPlace("exp_", "float", input, [], () => floatMath("exp", input, e.exp)),
);

export const log_ = op("log_(input: Tensor) -> Tensor", { doc: "In place: x = log(x) (float tensors); returns x.", method: true }, ({ input }) =>
  elementwiseInPlace("log_", "float", input, [], () => floatMath("log", input, e.log)),
);

export const sqrt_ = op("sqrt_(input: Tensor) -> Tensor", { doc: "In place: x = sqrt(x) (float tensors); returns x.", method: true }, ({ input }) =>
  elementwiseInPlace("sqrt_", "float", input, [], () => floatMath("sqrt", input, e.sqrt)),
);

export const relu_ = op("relu_(input: Tensor) -> Tensor", { doc: "In place: x = max(x, 0); returns x.", method: true }, ({ input }) =>
  elementwiseInPlace("relu_", "promoted", input, [], () => rectify(input)),
);

export const sigmoid_ = op("sigmoid_(input: Tensor) -> Tensor", { doc: "In place: x = sigmoid(x) (float tensors); returns x.", method: true }, ({ input }) =>
  elementwiseInPlace("sigmoid_", "float", input, [], () => floatMath("sigmoid", input, e.logistic)),
);

export const tanh_ = op("tanh_(input: Tensor) -> Tensor", { doc: "In place: x = tanh(x) (float tensors); returns x.", method: true }, ({ input }) =>
  elementwiseInPlace("tanh_", "float", input, [], () => floatMath("tanh", input, e.tanh)),
);

export const clamp_ = op(
  "clamp_(input: Tensor, min?: Tensor | Scalar, max?: Tensor | Scalar) -> Tensor",
  { doc: "In place: x clamped to [min, max] (at least one given); returns x.", method: true },
  ({ input, min, max }) => elementwiseInPlace("clamp_", "promoted", input, [min, max], () => clampTo("clamp", input, min ?? null, max ?? null)),
);

export const zero_ = op("zero_(input: Tensor) -> Tensor", { doc: "In place: fills x with zeros; returns x.", method: true }, ({ input }) =>
  assignInPlace("zero_", input, zerosLike(input)),
);

export const fill_ = op(
  "fill_(input: Tensor, value: Tensor | Scalar) -> Tensor",
  { doc: "In place: fills x with `value`, a scalar (cast to x's dtype: floats truncate into ints) or a 0-d tensor; returns x.", method: true },
  ({ input, value }) => {
    if (value instanceof Tensor) {
      if (value.ndim !== 0) throw new ShapeError(`fill_: only supports a 0-dimension value tensor, but got a tensor with ${value.ndim} dimensions`);
      return copyInto(input, value);
    }
    return assignInPlace("fill_", input, filled("fill_", input.shape, value, input.dtype, input.device, false));
  },
);

/** Copies `src` into `self` (broadcast to self's shape, converted to self's dtype, moved from its device). */
function copyInto(self: Tensor, src: Tensor): Tensor {
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

export const copy_ = op(
  "copy_(input: Tensor, other: Tensor) -> Tensor",
  { doc: "In place: copies `other` into x (broadcast to x's shape, converted to x's dtype, moved from its device); returns x.", method: true },
  ({ input, other }) => copyInto(input, other),
);

export const maskedFill_ = op(
  "maskedFill_(input: Tensor, mask: Tensor, value: Tensor | Scalar) -> Tensor",
  { doc: "In place: x = maskedFill(x, mask, value); returns x.", method: true },
  ({ input, mask, value }) => {
    checkInPlace("maskedFill_", input, input.dtype, broadcastShapes("maskedFill_", input.shape, mask.shape)); // value is cast to x's dtype
    return assignInPlace("maskedFill_", input, fillMasked("maskedFill", input, mask, value));
  },
);

// --- scatter-style writes along one dim (src/ops/indexing/gather_scatter.ts), in place ----------------

export const scatter_ = op(
  [
    'scatter_(input: Tensor, dim: int, index: Tensor, src: Tensor, *, reduce?: "add" | "multiply") -> Tensor',
    'scatter_(input: Tensor, dim: int, index: Tensor, value: Scalar, *, reduce?: "add" | "multiply") -> Tensor',
  ],
  { doc: "In place: x = scatter(x, dim, index, src or value); returns x.", method: true },
  [
    ({ input, dim, index, src, reduce }) => assignInPlace("scatter_", input, scatter(input, dim, index, src, { reduce })),
    ({ input, dim, index, value, reduce }) => assignInPlace("scatter_", input, scatter(input, dim, index, value, { reduce })),
  ],
);

export const scatterAdd_ = op(
  "scatterAdd_(input: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor",
  { doc: "In place: x = scatterAdd(x, dim, index, src); returns x.", method: true },
  ({ input, dim, index, src }) => assignInPlace("scatterAdd_", input, scatterAdd(input, dim, index, src)),
);

export const indexAdd_ = op(
  "indexAdd_(input: Tensor, dim: int, index: Tensor, source: Tensor, *, alpha: Scalar = 1) -> Tensor",
  { doc: "In place: x = indexAdd(x, dim, index, source, { alpha }); returns x.", method: true },
  ({ input, dim, index, source, alpha }) => assignInPlace("indexAdd_", input, indexAdd(input, dim, index, source, { alpha })),
);

export const indexCopy_ = op(
  "indexCopy_(input: Tensor, dim: int, index: Tensor, source: Tensor) -> Tensor",
  { doc: "In place: x = indexCopy(x, dim, index, source); returns x.", method: true },
  ({ input, dim, index, source }) => assignInPlace("indexCopy_", input, indexCopy(input, dim, index, source)),
);

export const indexFill_ = op(
  "indexFill_(input: Tensor, dim: int, index: Tensor, value: Scalar) -> Tensor",
  { doc: "In place: x = indexFill(x, dim, index, value); returns x.", method: true },
  ({ input, dim, index, value }) => assignInPlace("indexFill_", input, indexFill(input, dim, index, value)),
);

