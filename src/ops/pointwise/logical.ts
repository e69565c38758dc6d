/**
 * @file Logical ops, elementwise: and, or, xor and not of truth values (nonzero is true), with bool
 * results; either operand of the binary ones may be a scalar.
 */
import type { Tensor } from "../../tensor.js";
import { bind1 } from "../../trace/tracer.js";
import { broadcastShapes } from "../dims.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import type { TensorOrScalar } from "../types.js";
import { isScalar, run } from "../unit.js";
import { c, none, shapeOf, type T } from "./operands.js";

const truthy = (x: T): T => (x.dtype === "bool" ? x : e.compare(x, c(x, 0), "NE"));
const xorp = (a: T, b: T): T => bind1("xor", [a, b], none);

function logical(name: string, fn: (a: T, b: T) => T, a: TensorOrScalar, b: TensorOrScalar): Tensor {
  return run(name, [a, b], "", ([x, y]) => {
    const shape = broadcastShapes(name, shapeOf(x!), shapeOf(y!));
    const p = isScalar(x!) ? e.full(Boolean(x), "bool", shape) : e.broadcastTo(truthy(x!), shape);
    const q = isScalar(y!) ? e.full(Boolean(y), "bool", shape) : e.broadcastTo(truthy(y!), shape);
    return fn(p, q);
  });
}

export const logicalAnd = op(
  "logicalAnd(input: Tensor | Scalar, other: Tensor | Scalar) -> Tensor",
  { doc: "input and other as truth values (nonzero is true), elementwise with broadcasting (bool).", method: true },
  ({ input, other }) => logical("logicalAnd", e.and, input, other),
);

export const logicalOr = op(
  "logicalOr(input: Tensor | Scalar, other: Tensor | Scalar) -> Tensor",
  { doc: "input or other as truth values (nonzero is true), elementwise with broadcasting (bool).", method: true },
  ({ input, other }) => logical("logicalOr", e.or, input, other),
);

export const logicalXor = op(
  "logicalXor(input: Tensor | Scalar, other: Tensor | Scalar) -> Tensor",
  { doc: "input xor other as truth values (nonzero is true), elementwise with broadcasting (bool).", method: true },
  ({ input, other }) => logical("logicalXor", xorp, input, other),
);

export const logicalNot = op(
  "logicalNot(input: Tensor) -> Tensor",
  { doc: "not input as a truth value (zero is false), elementwise (bool).", method: true },
  ({ input }) => run("logicalNot", [input], "", ([x]) => bind1("not", [truthy(x as T)], none)),
);
