/**
 * @file Elementwise comparisons (eq, ne, lt, le, gt, ge): bool results, with broadcasting and the
 * operands promoted to a common dtype first; either operand may be a scalar.
 */
import type { Tensor } from "../../tensor.js";
import * as e from "../emit.js";
import type { CompareDirection } from "../prims.js";
import { op } from "../signature/op.js";
import type { TensorOrScalar } from "../types.js";
import { promote, run } from "../unit.js";
import { prepare } from "./operands.js";

/** a `direction` b (the body of eq, …, ge and their aliases greater, …). */
export function compare(name: string, direction: CompareDirection, a: TensorOrScalar, b: TensorOrScalar): Tensor {
  return run(name, [a, b], "", ([x, y]) => {
    const [p, q] = prepare(name, x!, y!, promote(x!, y!));
    return e.compare(p, q, direction);
  });
}

export const eq = op(
  "eq(input: Tensor | Scalar, other: Tensor | Scalar) -> Tensor",
  { doc: "input == other, elementwise (bool), with broadcasting and type promotion.", method: true },
  ({ input, other }) => compare("eq", "EQ", input, other),
);

export const ne = op(
  "ne(input: Tensor | Scalar, other: Tensor | Scalar) -> Tensor",
  { doc: "input != other, elementwise (bool), with broadcasting and type promotion.", method: true },
  ({ input, other }) => compare("ne", "NE", input, other),
);

export const lt = op(
  "lt(input: Tensor | Scalar, other: Tensor | Scalar) -> Tensor",
  { doc: "input < other, elementwise (bool), with broadcasting and type promotion.", method: true },
  ({ input, other }) => compare("lt", "LT", input, other),
);

export const le = op(
  "le(input: Tensor | Scalar, other: Tensor | Scalar) -> Tensor",
  { doc: "input <= other, elementwise (bool), with broadcasting and type promotion.", method: true },
  ({ input, other }) => compare("le", "LE", input, other),
);

export const gt = op(
  "gt(input: Tensor | Scalar, other: Tensor | Scalar) -> Tensor",
  { doc: "input > other, elementwise (bool), with broadcasting and type promotion.", method: true },
  ({ input, other }) => compare("gt", "GT", input, other),
);

export const ge = op(
  "ge(input: Tensor | Scalar, other: Tensor | Scalar) -> Tensor",
  { doc: "input >= other, elementwise (bool), with broadcasting and type promotion.", method: true },
  ({ input, other }) => compare("ge", "GE", input, other),
);
