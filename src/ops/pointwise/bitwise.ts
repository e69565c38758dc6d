/**
 * @file Bitwise ops on integer and bool tensors, elementwise: and, or, xor, not and the shifts
 * (arithmetic right shift for signed dtypes, logical for unsigned); either operand of the binary
 * ones may be a scalar.
 */
import { isFloating } from "../../dtype.js";
import { DTypeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import { bind1 } from "../../trace/tracer.js";
import { broadcastShapes } from "../dims.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import type { TensorOrScalar } from "../types.js";
import { promote, run } from "../unit.js";
import { kind, none, prepare, shapeOf, type T } from "./operands.js";

function bitwise(name: string, fn: (a: T, b: T) => T, a: TensorOrScalar, b: TensorOrScalar, boolOk = true): Tensor {
  return run(name, [a, b], "", ([x, y]) => {
    broadcastShapes(name, shapeOf(x!), shapeOf(y!));
    const dtype = promote(x!, y!);
    if (isFloating(dtype)) throw new DTypeError(`${name}: not implemented for floating point dtypes (${dtype}); use integer or bool tensors`);
    if (!boolOk && dtype === "bool") throw new DTypeError(`${name}: not implemented for bool tensors`);
    const [p, q] = prepare(name, x!, y!, dtype);
    return fn(p, q);
  });
}

const xorp = (a: T, b: T): T => bind1("xor", [a, b], none);
const shl = (a: T, b: T): T => bind1("shl", [a, b], none);
const shr = (a: T, b: T): T => bind1(kind(a.dtype) === "uint" ? "shr_logical" : "shr_arith", [a, b], none);

export const bitwiseAnd = op(
  "bitwiseAnd(input: Tensor | Scalar, other: Tensor | Scalar) -> Tensor",
  { doc: "input & other, elementwise with broadcasting (integer and bool tensors).", method: true },
  ({ input, other }) => bitwise("bitwiseAnd", e.and, input, other),
);

export const bitwiseOr = op(
  "bitwiseOr(input: Tensor | Scalar, other: Tensor | Scalar) -> Tensor",
  { doc: "input | other, elementwise with broadcasting (integer and bool tensors).", method: true },
  ({ input, other }) => bitwise("bitwiseOr", e.or, input, other),
);

export const bitwiseXor = op(
  "bitwiseXor(input: Tensor | Scalar, other: Tensor | Scalar) -> Tensor",
  { doc: "input ^ other, elementwise with broadcasting (integer and bool tensors).", method: true },
  ({ input, other }) => bitwise("bitwiseXor", xorp, input, other),
);

export const bitwiseLeftShift = op(
  "bitwiseLeftShift(input: Tensor | Scalar, other: Tensor | Scalar) -> Tensor",
  { doc: "input << other, elementwise with broadcasting (integer tensors).", method: true },
  ({ input, other }) => bitwise("bitwiseLeftShift", shl, input, other, false),
);

export const bitwiseRightShift = op(
  "bitwiseRightShift(input: Tensor | Scalar, other: Tensor | Scalar) -> Tensor",
  { doc: "input >> other, elementwise with broadcasting (integer tensors; arithmetic for signed dtypes, logical for unsigned).", method: true },
  ({ input, other }) => bitwise("bitwiseRightShift", shr, input, other, false),
);

export const bitwiseNot = op(
  "bitwiseNot(input: Tensor) -> Tensor",
  { doc: "~input, elementwise (integer and bool tensors; for bool, logical not).", method: true },
  ({ input }) =>
    run("bitwiseNot", [input], "", ([x]) => {
      const t = x as T;
      if (isFloating(t.dtype)) throw new DTypeError(`bitwiseNot: not implemented for floating point dtypes (${t.dtype})`);
      return bind1("not", [t], none);
    }),
);
