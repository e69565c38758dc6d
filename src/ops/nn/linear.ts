/**
 * @file linear: x Wᵀ + b as one dot_general (float16/bfloat16 accumulate in float32, rounded once).
 */
import { DTypeError, ShapeError } from "../../runtime/errors.js";
import * as e from "../emit.js";
import { broadcastShapes, fmtShape } from "../dims.js";
import { op } from "../signature/op.js";
import { runOptional } from "./optional_tensors.js";

export const linear = op(
  "linear(input: Tensor, weight: Tensor, bias?: Tensor) -> Tensor",
  { doc: "input [*, in] times weight [out, in] (or [in]) transposed, plus bias (broadcast to [*, out]); half inputs accumulate in float32." },
  ({ input, weight, bias }) => {
    const op = "linear";
    if (input.ndim === 0) throw new ShapeError(`${op}: input must have at least 1 dimension, got a 0-d tensor`);
    if (weight.ndim !== 1 && weight.ndim !== 2) throw new ShapeError(`${op}: weight must be 1-d or 2-d [out, in], got ${fmtShape(weight.shape)}`);
    for (const t of [weight, bias]) {
      if (t && t.dtype !== input.dtype) throw new DTypeError(`${op}: input, weight and bias must have the same dtype, got ${input.dtype} and ${t.dtype}`);
    }
    if (input.dtype === "bool") throw new DTypeError(`${op}: bool tensors are not supported`);
    const k = input.shape[input.ndim - 1]!;
    const kw = weight.shape[weight.ndim - 1]!;
    if (k !== kw) throw new ShapeError(`${op}: input ${fmtShape(input.shape)} and weight ${fmtShape(weight.shape)} cannot be multiplied (${k} != ${kw}); weight is [out, in]`);
    const outShape = [...input.shape.slice(0, -1), ...weight.shape.slice(0, -1)];
    if (bias && broadcastShapes(op, outShape, bias.shape).length !== outShape.length) {
      throw new ShapeError(`${op}: bias ${fmtShape(bias.shape)} does not broadcast to the output ${fmtShape(outShape)}`);
    }
    return runOptional(op, [input, weight, bias], "", ([x, w, b]) => {
      let y = e.dotGeneral(x!, w!, [], [], [x!.ndim - 1], [w!.ndim - 1], { wide: true });
      if (b) y = e.add(y, e.broadcastTo(e.convert(b, y.dtype), y.shape));
      return e.convert(y, x!.dtype);
    });
  },
);
