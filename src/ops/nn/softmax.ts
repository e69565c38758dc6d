/**
 * @file softmax and logSoftmax along a dim (torch.softmax, torch.nn.functional.softmax and
 * x.softmax are one op), computed stably (the maximum is subtracted first).
 */
import { type DType, dtypeInfo, isFloating } from "../../dtype.js";
import { DTypeError } from "../../runtime/errors.js";
import type { Tracer } from "../../trace/tracer.js";
import * as e from "../emit.js";
import { normDim } from "../dims.js";
import { op } from "../signature/op.js";
import { run } from "../unit.js";

/** z = x − max along dim, exp(z), and the sum of exp(z) along dim broadcast back to x's shape. */
function shifted(op: string, x: Tracer, dim: number, dtype: DType | undefined): { z: Tracer; expZ: Tracer; sumExp: Tracer } {
  const t = dtype === undefined ? x : e.convert(x, dtypeInfo(dtype).name);
  if (!isFloating(t.dtype)) throw new DTypeError(`${op}: expected a floating dtype, got ${t.dtype} (pass { dtype: "float32" } or convert first)`);
  const d = normDim(op, dim, t.ndim);
  const rank = t.ndim;
  if (rank === 0) {
    const z = e.sub(t, t);
    return { z, expZ: e.exp(z), sumExp: e.exp(e.full(0, t.dtype)) };
  }
  const kept = t.shape.map((s, i) => (i === d ? 1 : s));
  const m = e.reshape(e.reduce("max", t, [d]), kept);
  // A row of −inf has max −inf; use 0 there so the result is NaN-free where PyTorch's is.
  const finite = e.select(e.isFinite(m), m, e.full(0, t.dtype, kept));
  const z = e.sub(t, e.broadcastTo(finite, t.shape));
  const expZ = e.exp(z);
  const sumExp = e.reshape(e.reduce("sum", expZ, [d]), kept);
  return { z, expZ, sumExp: e.broadcastTo(sumExp, t.shape) };
}

export const softmax = op(
  "softmax(input: Tensor, dim: int, *, dtype?: dtype) -> Tensor",
  {
    doc: "exp(x) / sum(exp(x)) along `dim`, computed stably, in `dtype` if given. `dim` is required (PyTorch's implicit dim is deprecated) and `dtype` is keyword-only.",
    method: true,
  },
  ({ input, dim, dtype }) =>
    run("softmax", [input], `${dim}|${dtype ?? ""}`, ([x]) => {
      const { expZ, sumExp } = shifted("softmax", x as Tracer, dim, dtype);
      return e.div(expZ, sumExp);
    }),
);

export const logSoftmax = op(
  "logSoftmax(input: Tensor, dim: int, *, dtype?: dtype) -> Tensor",
  {
    doc: "x − log(sum(exp(x))) along `dim`, computed stably, in `dtype` if given. `dim` is required (PyTorch's implicit dim is deprecated) and `dtype` is keyword-only.",
    method: true,
  },
  ({ input, dim, dtype }) =>
    run("logSoftmax", [input], `${dim}|${dtype ?? ""}`, ([x]) => {
      const { z, sumExp } = shifted("logSoftmax", x as Tracer, dim, dtype);
      return e.sub(z, e.log(sumExp));
    }),
);
