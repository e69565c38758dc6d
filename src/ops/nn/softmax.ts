/**
 * @file softmax and logSoftmax along a dim (torch.softmax, torch.nn.functional.softmax and
 * x.softmax are one op), computed stably (the maximum is subtracted first). float16/bfloat16
 * compute in float32 and round once. A row holding +inf, or only −inf, gives NaNs, as in PyTorch.
 */
import { type DType, dtypeInfo, isFloating } from "../../dtype.js";
import { DTypeError } from "../../runtime/errors.js";
import type { Tracer } from "../../trace/tracer.js";
import { inOpmath } from "../accumulate.js";
import * as e from "../emit.js";
import { normDim } from "../dims.js";
import { op } from "../signature/op.js";
import { run } from "../unit.js";

/** z = x − max along dim, exp(z), and Σ exp(z) along dim (kept as a size-1 dim); x is at least 1-d. */
function shifted(x: Tracer, dim: number): { z: Tracer; expZ: Tracer; sumExp: Tracer } {
  const kept = x.shape.map((s, i) => (i === dim ? 1 : s));
  // No guard for infinite maxima: +inf − +inf and −inf − −inf are NaN, which is PyTorch's answer too.
  const z = e.sub(x, e.broadcastTo(e.reshape(e.stopGradient(e.reduce("max", x, [dim])), kept), x.shape));
  const expZ = e.exp(z);
  return { z, expZ, sumExp: e.reshape(e.reduce("sum", expZ, [dim]), kept) };
}

/** log-softmax of `x` along `dim`, in x's dtype (callers widen half inputs first); the log is taken once per row, before broadcasting. */
export function logSoftmaxAlong(x: Tracer, dim: number): Tracer {
  const { z, sumExp } = shifted(x, dim);
  return e.sub(z, e.broadcastTo(e.log(sumExp), x.shape));
}

function softmaxAlong(x: Tracer, dim: number): Tracer {
  const { expZ, sumExp } = shifted(x, dim);
  return e.div(expZ, e.broadcastTo(sumExp, x.shape));
}

/** `fn` along `dim` of x (converted to `dtype` first), in float32 for half types; a 0-d x is one element. */
function along(op: string, x: Tracer, dim: number, dtype: DType | undefined, fn: (x: Tracer, dim: number) => Tracer): Tracer {
  const t = dtype === undefined ? x : e.convert(x, dtypeInfo(dtype).name);
  if (!isFloating(t.dtype)) throw new DTypeError(`${op}: expected a floating dtype, got ${t.dtype} (pass { dtype: "float32" } or convert first)`);
  const d = normDim(op, dim, t.ndim);
  if (t.ndim === 0) return e.reshape(inOpmath(e.reshape(t, [1]), (w) => fn(w, 0)), []);
  return inOpmath(t, (w) => fn(w, d));
}

export const softmax = op(
  "softmax(input: Tensor, dim: int, *, dtype?: dtype) -> Tensor",
  {
    doc: "exp(x) / sum(exp(x)) along `dim`, computed stably, in `dtype` if given. `dim` is required (PyTorch's implicit dim is deprecated) and `dtype` is keyword-only.",
    method: true,
  },
  ({ input, dim, dtype }) => run("softmax", [input], `${dim}|${dtype ?? ""}`, ([x]) => along("softmax", x as Tracer, dim, dtype, softmaxAlong)),
);

export const logSoftmax = op(
  "logSoftmax(input: Tensor, dim: int, *, dtype?: dtype) -> Tensor",
  {
    doc: "x − log(sum(exp(x))) along `dim`, computed stably, in `dtype` if given. `dim` is required (PyTorch's implicit dim is deprecated) and `dtype` is keyword-only.",
    method: true,
  },
  ({ input, dim, dtype }) => run("logSoftmax", [input], `${dim}|${dtype ?? ""}`, ([x]) => along("logSoftmax", x as Tracer, dim, dtype, logSoftmaxAlong)),
);
