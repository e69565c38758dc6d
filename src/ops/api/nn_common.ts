/**
 * @file What the torch.nn.functional ops share: float-only checks, half-precision math in float32
 * (PyTorch's CPU "opmath"), optional tensor arguments, keepdim reductions, vector norms and the
 * `reduction` option of losses.
 */
import { type DType, isFloating } from "../../dtype.js";
import { ArgumentError, DTypeError } from "../../runtime/errors.js";
import { Tensor } from "../../tensor.js";
import { bind1, type Tracer } from "../../trace/tracer.js";
import * as e from "../emit.js";
import { type TensorOrScalar } from "../types.js";
import { checkTensor, run } from "../unit.js";

export type T = Tracer;
const none = {} as Record<string, never>;

/** float16/bfloat16 compute in float32 and round once at the end, as PyTorch's CPU kernels do. */
export const opmath = (d: DType): DType => (d === "float16" || d === "bfloat16" ? "float32" : d);

/** A constant of x's dtype and shape. */
export const c = (x: T, v: number): T => e.full(v, x.dtype, x.shape);
export const expm1 = (x: T): T => bind1("expm1", [x], none);
export const log1p = (x: T): T => bind1("log1p", [x], none);
export const rsqrt = (x: T): T => bind1("rsqrt", [x], none);
export const slice = (x: T, dim: number, start: number, limit: number): T =>
  bind1("slice", [x], {
    start: x.shape.map((_, i) => (i === dim ? start : 0)),
    limit: x.shape.map((d, i) => (i === dim ? limit : d)),
    strides: x.shape.map(() => 1),
  });

/** DTypeError unless `x` is a floating tensor. */
export function requireFloat(op: string, x: { dtype: DType }, what = "input"): void {
  if (!isFloating(x.dtype)) throw new DTypeError(`${op}: ${what} must be a floating tensor, got ${x.dtype} (convert it first, e.g. x.to("float32"))`);
}

/** One float tensor in, one of the same dtype out, computed in opmath. */
export function floatUnit(op: string, a: Tensor, statics: string, fn: (x: T) => T): Tensor {
  checkTensor(op, a);
  requireFloat(op, a);
  return run(op, [a], statics, ([x]) => {
    const t = x as T;
    return e.convert(fn(e.convert(t, opmath(t.dtype))), t.dtype);
  });
}

/**
 * Runs a unit whose optional tensor arguments may be missing (null/undefined): the body gets
 * undefined in their place, and which ones are present is part of the signature.
 */
export function runOptional(op: string, args: readonly (Tensor | null | undefined)[], statics: string, body: (xs: (T | undefined)[]) => T): Tensor {
  const present = args.map((a) => a !== null && a !== undefined);
  args.forEach((a, i) => {
    if (present[i]) checkTensor(op, a, i === 0 ? "input" : `argument ${i + 1}`);
  });
  const tensors = args.filter((a): a is Tensor => a instanceof Tensor);
  const key = `${present.map((p) => (p ? 1 : 0)).join("")}|${statics}`;
  return run(op, tensors as TensorOrScalar[], key, (xs) => {
    let k = 0;
    return body(present.map((p) => (p ? (xs[k++] as T) : undefined)));
  });
}

/** x reduced over `dims` with those dims kept as size 1. */
export function sumKeep(x: T, dims: readonly number[]): T {
  return e.reshape(e.reduce("sum", x, dims), x.shape.map((d, i) => (dims.includes(i) ? 1 : d)));
}

export function meanKeep(x: T, dims: readonly number[]): T {
  const n = dims.reduce((m, d) => m * x.shape[d]!, 1);
  const s = sumKeep(x, dims);
  return e.div(s, c(s, n));
}

/** The p-norm of x over `dim` (kept as size 1), as torch.norm: p = ±Infinity, 0 (count of nonzeros) or any other number. */
export function vectorNorm(x: T, p: number, dim: number): T {
  const ax = e.abs(x);
  const kept = x.shape.map((d, i) => (i === dim ? 1 : d));
  if (p === Infinity || p === -Infinity) return e.reshape(e.reduce(p > 0 ? "max" : "min", ax, [dim]), kept);
  if (p === 0) return sumKeep(e.convert(e.compare(x, c(x, 0), "NE"), x.dtype), [dim]);
  if (p === 1) return sumKeep(ax, [dim]);
  if (p === 2) return e.sqrt(sumKeep(e.mul(x, x), [dim]));
  const s = sumKeep(e.pow(ax, c(ax, p)), [dim]);
  return e.pow(s, c(s, 1 / p));
}

export type Reduction = "mean" | "sum" | "none";

export function checkReduction<R extends string>(op: string, reduction: unknown, allowed: readonly R[]): R {
  if (!allowed.includes(reduction as R)) {
    throw new ArgumentError(`${op}: reduction must be ${allowed.map((r) => `"${r}"`).join(", ")}, got ${JSON.stringify(reduction)}`);
  }
  return reduction as R;
}

/** A pointwise loss reduced as PyTorch's `reduction` says. */
export function reduceLoss(loss: T, reduction: Reduction): T {
  if (reduction === "none") return loss;
  const all = loss.shape.map((_, i) => i);
  const s = e.reduce("sum", loss, all);
  return reduction === "sum" ? s : e.div(s, e.full(loss.numel(), s.dtype));
}
