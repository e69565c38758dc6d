/**
 * @file Choosing elements by a bool mask: where (from two tensors or scalars) and maskedFill.
 */
import { dtypes } from "../../dtype.js";
import { DTypeError, ShapeError } from "../../runtime/errors.js";
import { Tensor } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import { broadcastShapes } from "../dims.js";
import { nonzero } from "../indexing/host.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import type { ScalarArg } from "../types.js";
import { lift, promote, run } from "../unit.js";
import { shapeOf } from "./operands.js";

export const where = op(
  ["where(condition: Tensor, input: Tensor | Scalar, other: Tensor | Scalar) -> Tensor", "where(condition: Tensor) -> Tensor[]"],
  {
    doc: "input where condition is true, else other, elementwise with broadcasting; input and other may be scalars. The method is input.where(condition, other). With the condition alone, `nonzero(condition, { asTuple: true })`.",
    method: "input",
  },
  [
    ({ condition, input, other }) => {
      if (condition.dtype !== "bool") throw new DTypeError(`where: condition must be a bool tensor, got ${condition.dtype}`);
      return run("where", [condition, input, other], "", ([c, x, y]) => {
        const dtype = promote(x!, y!);
        const shape = broadcastShapes("where", shapeOf(c!), shapeOf(x!), shapeOf(y!));
        return e.select(lift(c!, "bool", shape), lift(x!, dtype, shape), lift(y!, dtype, shape));
      });
    },
    ({ condition }) => nonzero(condition, { asTuple: true }),
  ],
);

/** `value` of maskedFill and maskedFill_: a scalar or a 0-d tensor. */
function checkMask(name: string, mask: Tensor, value: ScalarArg | Tensor): void {
  if (mask.dtype !== "bool") throw new DTypeError(`${name}: expected a bool mask, got ${mask.dtype}; build one with a comparison (x.gt(0)) or .to("bool")`);
  if (value instanceof Tensor && value.ndim !== 0) {
    throw new ShapeError(`${name}: only supports a 0-dimensional value tensor, but got a tensor with ${value.ndim} dimensions`);
  }
}

/** The body of maskedFill and maskedFill_. */
export function fillMasked(name: string, x: Tensor, mask: Tensor, value: ScalarArg | Tensor): Tensor {
  checkMask(name, mask, value);
  const shape = broadcastShapes(name, x.shape, mask.shape);
  const integral = dtypes[x.dtype].kind === "int" || dtypes[x.dtype].kind === "uint";
  const fill = integral && typeof value === "number" ? Math.trunc(value) : value;
  return run(name, [x, mask, fill], "", ([v, m, f]) => {
    const t = v as Tracer;
    return e.select(lift(m!, "bool", shape), lift(f!, t.dtype, shape), lift(t, t.dtype, shape));
  });
}

export const maskedFill = op(
  "maskedFill(input: Tensor, mask: Tensor, value: Tensor | Scalar) -> Tensor",
  { doc: "`value` (a scalar or 0-d tensor, cast to input's dtype: floats truncate into ints) where the bool `mask` is true, input elsewhere; shapes broadcast.", method: true },
  ({ input, mask, value }) => fillMasked("maskedFill", input, mask, value),
);
