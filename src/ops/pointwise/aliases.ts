/**
 * @file PyTorch's other names for pointwise ops (NumPy's spellings: arccos, multiply, greater, …,
 * and clampMin/clampMax), each an op of its own with PyTorch's signature for that name, computed by
 * the op it stands for.
 */
import { op } from "../signature/op.js";
import { absolute as abs, addSub, divide as divideBy, multiply as times, negate } from "./arithmetic.js";
import { compare } from "./comparison.js";
import { clampTo } from "./extremes.js";
import { acos, acosh, asin, asinh, atan, atan2, atanh } from "./math.js";

export const absolute = op("absolute(input: Tensor) -> Tensor", { doc: "Alias of abs: |input| (bool tensors are an error).", method: true }, ({ input }) => abs(input));

export const negative = op("negative(input: Tensor) -> Tensor", { doc: "Alias of neg: −input (bool tensors are an error).", method: true }, ({ input }) => negate(input));

export const arccos = op("arccos(input: Tensor) -> Tensor", { doc: "Alias of acos: arccosine (radians), elementwise.", method: true }, ({ input }) => acos(input));

export const arccosh = op("arccosh(input: Tensor) -> Tensor", { doc: "Alias of acosh: inverse hyperbolic cosine, elementwise.", method: true }, ({ input }) => acosh(input));

export const arcsin = op("arcsin(input: Tensor) -> Tensor", { doc: "Alias of asin: arcsine (radians), elementwise.", method: true }, ({ input }) => asin(input));

export const arcsinh = op("arcsinh(input: Tensor) -> Tensor", { doc: "Alias of asinh: inverse hyperbolic sine, elementwise.", method: true }, ({ input }) => asinh(input));

export const arctan = op("arctan(input: Tensor) -> Tensor", { doc: "Alias of atan: arctangent (radians), elementwise.", method: true }, ({ input }) => atan(input));

export const arctanh = op("arctanh(input: Tensor) -> Tensor", { doc: "Alias of atanh: inverse hyperbolic tangent, elementwise.", method: true }, ({ input }) => atanh(input));

export const arctan2 = op(
  "arctan2(input: Tensor, other: Tensor) -> Tensor",
  { doc: "Alias of atan2: the angle of the point (other, input) in radians, elementwise with broadcasting.", method: true },
  ({ input, other }) => atan2(input, other),
);

export const multiply = op(
  "multiply(input: Tensor | Scalar, other: Tensor | Scalar) -> Tensor",
  { doc: "Alias of mul: input × other, with broadcasting and type promotion.", method: true },
  ({ input, other }) => times(input, other),
);

export const divide = op(
  'divide(input: Tensor | Scalar, other: Tensor | Scalar, *, roundingMode?: "trunc" | "floor") -> Tensor',
  { doc: 'Alias of div: input / other, true division or rounded with roundingMode "trunc" or "floor".', method: true },
  ({ input, other, roundingMode }) => divideBy(input, other, roundingMode ?? null),
);

export const trueDivide = op(
  "trueDivide(input: Tensor | Scalar, other: Tensor | Scalar) -> Tensor",
  { doc: "Alias of div without rounding: input / other (integer inputs give float32).", method: true },
  ({ input, other }) => divideBy(input, other, null),
);

export const subtract = op(
  "subtract(input: Tensor | Scalar, other: Tensor | Scalar, *, alpha: Scalar = 1) -> Tensor",
  { doc: "Alias of sub: input − alpha × other, with broadcasting and type promotion.", method: true },
  ({ input, other, alpha }) => addSub("sub", input, other, alpha),
);

export const greater = op(
  "greater(input: Tensor, other: Tensor | Scalar) -> Tensor",
  { doc: "Alias of gt: input > other, elementwise (bool).", method: true },
  ({ input, other }) => compare("greater", "GT", input, other),
);

export const greaterEqual = op(
  "greaterEqual(input: Tensor, other: Tensor | Scalar) -> Tensor",
  { doc: "Alias of ge: input >= other, elementwise (bool).", method: true },
  ({ input, other }) => compare("greaterEqual", "GE", input, other),
);

export const less = op(
  "less(input: Tensor, other: Tensor | Scalar) -> Tensor",
  { doc: "Alias of lt: input < other, elementwise (bool).", method: true },
  ({ input, other }) => compare("less", "LT", input, other),
);

export const lessEqual = op(
  "lessEqual(input: Tensor, other: Tensor | Scalar) -> Tensor",
  { doc: "Alias of le: input <= other, elementwise (bool).", method: true },
  ({ input, other }) => compare("lessEqual", "LE", input, other),
);

export const notEqual = op(
  "notEqual(input: Tensor, other: Tensor | Scalar) -> Tensor",
  { doc: "Alias of ne: input != other, elementwise (bool).", method: true },
  ({ input, other }) => compare("notEqual", "NE", input, other),
);

export const clampMin = op(
  "clampMin(input: Tensor, min: Tensor | Scalar) -> Tensor",
  { doc: "clamp with only a lower bound: max(input, min) elementwise (min a scalar or a tensor that broadcasts).", method: true },
  ({ input, min }) => clampTo("clampMin", input, min, null),
);

export const clampMax = op(
  "clampMax(input: Tensor, max: Tensor | Scalar) -> Tensor",
  { doc: "clamp with only an upper bound: min(input, max) elementwise (max a scalar or a tensor that broadcasts).", method: true },
  ({ input, max }) => clampTo("clampMax", input, null, max),
);
