/**
 * @file sum, prod, mean and logsumexp over `dim` (a number or a list, negative allowed; none = all).
 * float16/bfloat16 accumulate in float32 and round once.
 */
import { type DType, defaultFloatDType, defaultIntDType, isFloating } from "../../dtype.js";
import { DTypeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import { normDims } from "../dims.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import { run } from "../unit.js";
import { inOpmath, opmath } from "../accumulate.js";
import { countOver, dimKey, keep, keptShape } from "./keep.js";
import { isNanT } from "../pointwise/operands.js";

interface Reduce {
  input: Tensor;
  dim: number | readonly number[] | undefined;
  keepdim: boolean;
  dtype: DType | undefined;
}

/**
 * Reduces in the result dtype (float16/bfloat16: in float32, rounded once after `after`), `before`
 * applied to the (converted) input first. `after` gets the reduction, that input and the reduced dims.
 */
function reduction(op: string, kind: e.ReduceKind, a: Reduce, dtypeOf: (x: Tracer) => DType, after?: (r: Tracer, v: Tracer, dims: number[]) => Tracer, before?: (v: Tracer) => Tracer): Tensor {
  return run(op, [a.input], `${dimKey(a.dim, a.keepdim)}|${a.dtype ?? ""}`, ([x]) => {
    const t = x as Tracer;
    const dims = normDims(op, a.dim, t.ndim);
    const r = inOpmath(e.convert(t, dtypeOf(t)), (v) => {
      const reduced = e.reduce(kind, before ? before(v) : v, dims);
      return after ? after(reduced, v, dims) : reduced;
    });
    return keep(r, t, dims, a.keepdim);
  });
}

/** v with its NaNs replaced by 0 (integers as they are). */
const zeroNaN = (v: Tracer): Tracer => (isFloating(v.dtype) ? e.select(isNanT(v), e.full(0, v.dtype, v.shape), v) : v);

/** The dtype mean and nanmean compute in: the input's, or `dtype`, which must be a floating one. */
const meanDType = (op: string, dtype: DType | undefined) => (x: Tracer): DType => {
  const d = dtype ?? x.dtype;
  if (!isFloating(d)) throw new DTypeError(`${op}: could not infer the output dtype; the input must be a floating dtype, got ${d} (pass { dtype: "float32" } or convert first)`);
  return d;
};

/** Integers and bool accumulate in int64 unless `dtype` says otherwise. */
const accumulate = (dtype: DType | undefined) => (x: Tracer): DType => dtype ?? (isFloating(x.dtype) ? x.dtype : defaultIntDType);

export const sum = op(
  "sum(input: Tensor, dim?: int | int[], keepdim: bool = false, *, dtype?: dtype) -> Tensor",
  { doc: "Sum over `dim` (all dims by default); integer and bool inputs sum in int64, float16/bfloat16 in float32.", method: true },
  (a) => reduction("sum", "sum", a, accumulate(a.dtype)),
);

export const prod = op(
  "prod(input: Tensor, dim?: int | int[], keepdim: bool = false, *, dtype?: dtype) -> Tensor",
  { doc: "Product over `dim` (all dims by default); integer and bool inputs multiply in int64, float16/bfloat16 in float32.", method: true },
  (a) => reduction("prod", "prod", a, accumulate(a.dtype)),
);

export const mean = op(
  "mean(input: Tensor, dim?: int | int[], keepdim: bool = false, *, dtype?: dtype) -> Tensor",
  { doc: "Mean over `dim` (all dims by default); the input (or `dtype`) must be a floating dtype; float16/bfloat16 sum in float32.", method: true },
  (a) => reduction("mean", "sum", a, meanDType("mean", a.dtype), (r, v, dims) => e.div(r, e.full(countOver(v, dims), r.dtype, r.shape))),
);

export const nansum = op(
  "nansum(input: Tensor, dim?: int | int[], keepdim: bool = false, *, dtype?: dtype) -> Tensor",
  { doc: "sum with NaNs counted as 0 (their gradient is 0).", method: true },
  (a) => reduction("nansum", "sum", a, accumulate(a.dtype), undefined, zeroNaN),
);

export const nanmean = op(
  "nanmean(input: Tensor, dim?: int | int[], keepdim: bool = false, *, dtype?: dtype) -> Tensor",
  { doc: "The mean of the elements that are not NaN (NaN where every one is); floating inputs (or `dtype`).", method: true },
  (a) =>
    reduction("nanmean", "sum", a, meanDType("nanmean", a.dtype), (r, v, dims) => e.div(r, e.reduce("sum", e.convert(e.compare(v, v, "EQ"), v.dtype), dims)), zeroNaN),
);

export const logsumexp = op(
  "logsumexp(input: Tensor, dim: int | int[], keepdim: bool = false) -> Tensor",
  {
    doc: "log(sum(exp(x))) over `dim`, computed stably (the maximum is taken out first); integer inputs give float32, float16/bfloat16 accumulate in float32.",
    method: true,
  },
  ({ input, dim, keepdim }) =>
    run("logsumexp", [input], dimKey(dim, keepdim), ([x]) => {
      const t0 = x as Tracer;
      const dtype = isFloating(t0.dtype) ? t0.dtype : defaultFloatDType;
      const dims = normDims("logsumexp", dim, t0.ndim);
      const t = e.convert(t0, opmath(dtype));
      const m = e.stopGradient(e.reduce("max", t, dims));
      // ±inf (or an empty or all −inf row) cannot be taken out; 0 is taken out instead, as PyTorch does.
      const shift = e.select(e.isFinite(m), m, e.full(0, t.dtype, m.shape));
      const z = e.sub(t, e.broadcastTo(e.reshape(shift, keptShape(t, dims)), t.shape));
      const r = e.add(e.log(e.reduce("sum", e.exp(z), dims)), shift);
      return e.convert(keep(r, t, dims, keepdim), dtype);
    }),
);
