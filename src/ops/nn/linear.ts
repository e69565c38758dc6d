/**
 * @file linear: x Wᵀ + b as one dot_general (float16/bfloat16 accumulate in float32, rounded once);
 * bilinear: x1ᵀ W x2 + b as two.
 */
import { isFloating } from "../../dtype.js";
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

export const bilinear = op(
  "bilinear(input1: Tensor, input2: Tensor, weight: Tensor, bias?: Tensor) -> Tensor",
  { doc: "y[…, o] = Σᵢⱼ input1[…, i] · weight[o, i, j] · input2[…, j] + bias[o]: input1 [*, in1] and input2 [*, in2] with the same leading dims, weight [out, in1, in2]; half inputs accumulate in float32." },
  ({ input1, input2, weight, bias }) => {
    const op = "bilinear";
    for (const t of [input2, weight, bias]) {
      if (t && t.dtype !== input1.dtype) throw new DTypeError(`${op}: input1, input2, weight and bias must have the same dtype, got ${input1.dtype} and ${t.dtype}`);
    }
    if (!isFloating(input1.dtype)) throw new DTypeError(`${op}: expected floating-point tensors, got ${input1.dtype}`);
    if (input1.ndim === 0 || input1.ndim !== input2.ndim || input1.shape.slice(0, -1).some((d, i) => d !== input2.shape[i])) {
      throw new ShapeError(`${op}: input1 ${fmtShape(input1.shape)} and input2 ${fmtShape(input2.shape)} must have at least 1 dimension and the same sizes except in the last`);
    }
    const in1 = input1.shape[input1.ndim - 1]!;
    const in2 = input2.shape[input2.ndim - 1]!;
    if (weight.ndim !== 3 || weight.shape[1] !== in1 || weight.shape[2] !== in2) {
      throw new ShapeError(`${op}: weight must be [out, ${in1}, ${in2}] for input1 ${fmtShape(input1.shape)} and input2 ${fmtShape(input2.shape)}, got ${fmtShape(weight.shape)}`);
    }
    const out = weight.shape[0]!;
    if (bias && (bias.ndim !== 1 || bias.shape[0] !== out)) throw new ShapeError(`${op}: bias must be [${out}], got ${fmtShape(bias.shape)}`);
    const lead = input1.shape.slice(0, -1);
    const rows = lead.reduce((a, b) => a * b, 1);
    return runOptional(op, [input1, input2, weight, bias], "", ([x1, x2, w, b]) => {
      // [B, in1] · [out, in1, in2] → [B, out, in2]; then batched over B with [B, in2] → [B, out]
      const t = e.dotGeneral(e.reshape(x1!, [rows, in1]), w!, [], [], [1], [1], { wide: true });
      let y = e.dotGeneral(t, e.convert(e.reshape(x2!, [rows, in2]), t.dtype), [0], [0], [2], [1], { wide: true });
      if (b) y = e.add(y, e.broadcastTo(e.convert(b, y.dtype), y.shape));
      return e.convert(e.reshape(y, [...lead, out]), x1!.dtype);
    });
  },
);
