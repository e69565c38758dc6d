/**
 * @file What a tensor or a dtype is, as torch.* functions: isTensor, isFloatingPoint, isComplex,
 * isSigned, isNonzero, isSameSize, numel, and the dtype rules resultType, promoteTypes and canCast
 * (the promotion table itself is src/dtype.ts's). None of them runs anything on a device except
 * isNonzero, which reads its one element.
 */
import { type DType, dtypes, isFloating, promoteTypes as promote, resultType as promotion } from "../dtype.js";
import { ShapeError } from "../runtime/errors.js";
import { Tensor } from "../tensor.js";
import { canCast as castable } from "./pointwise/in_place.js";
import { op } from "./signature/op.js";
import { promotionOf } from "./unit.js";

/** Whether `obj` is a Tensor (PyTorch's torch.is_tensor). */
export function isTensor(obj: unknown): obj is Tensor {
  return obj instanceof Tensor;
}

export const isFloatingPoint = op(
  "isFloatingPoint(input: Tensor) -> bool",
  { doc: "Whether the tensor's dtype is a floating one (float16, bfloat16, float32, float64)." },
  ({ input }) => isFloating(input.dtype),
);

export const isComplex = op(
  "isComplex(input: Tensor) -> bool",
  { doc: "Whether the tensor's dtype is a complex one: always false here (there are no complex dtypes).", method: true },
  () => false,
);

export const isSigned = op(
  "isSigned(input: Tensor) -> bool",
  { doc: "Whether the tensor's dtype can hold negative values (the floats and int8 … int64; not bool and the unsigned ones).", method: true },
  ({ input }) => dtypes[input.dtype].kind === "float" || dtypes[input.dtype].kind === "int",
);

export const isNonzero = op(
  "isNonzero(input: Tensor) -> bool",
  { doc: "Whether the one element of a one-element tensor is not zero (NaN is not zero); reads it back to the host.", method: true },
  ({ input }) => {
    const n = input.numel();
    if (n !== 1) throw new ShapeError(`isNonzero: Boolean value of Tensor with ${n === 0 ? "no values" : `more than one value (shape [${input.shape.join(", ")}])`} is ambiguous`);
    const v = input.item();
    return typeof v === "boolean" ? v : typeof v === "bigint" ? v !== 0n : v !== 0;
  },
);

export const isSameSize = op(
  "isSameSize(input: Tensor, other: Tensor) -> bool",
  { doc: "Whether the two tensors have the same shape.", method: true },
  ({ input, other }) => input.ndim === other.ndim && input.shape.every((d, i) => d === other.shape[i]),
);

export const numel = op("numel(input: Tensor) -> int", { doc: "The number of elements of the tensor (the product of its shape)." }, ({ input }) => input.numel());

export const resultType = op(
  [
    "resultType(tensor: Tensor, other: Tensor | Scalar) -> dtype",
    "resultType(scalar: Scalar, tensor: Tensor) -> dtype",
    "resultType(scalar1: Scalar, scalar2: Scalar) -> dtype",
  ],
  { doc: "The dtype an arithmetic op of the two gives (PyTorch's type promotion: dimensioned tensors decide within a category, 0-d tensors and JS numbers only lift the category)." },
  [
    ({ tensor, other }) => promotion(promotionOf(tensor), promotionOf(other)),
    ({ scalar, tensor }) => promotion(scalar, promotionOf(tensor)),
    ({ scalar1, scalar2 }) => promotion(scalar1, scalar2),
  ],
);

export const promoteTypes = op(
  "promoteTypes(type1: dtype, type2: dtype) -> dtype",
  { doc: "The smallest dtype both dtypes convert to without leaving their category (bool < integer < float)." },
  ({ type1, type2 }): DType => promote(type1, type2),
);

export const canCast = op(
  "canCast(from_: dtype, to: dtype) -> bool",
  { doc: "Whether PyTorch's casting rules allow `from_` into `to`: never from a higher category to a lower one (float → integer, integer → bool)." },
  ({ from_, to }) => castable(from_, to),
);
