/**
 * @file More reductions with `dim` (a number or a list, negative allowed; none = all) and `keepdim`:
 * all, any, var, std, varMean, stdMean, logsumexp, norm and countNonzero. float16/bfloat16 inputs
 * are computed in float32 and rounded once at the end, as PyTorch accumulates them.
 */
import { type DType, defaultFloatDType, dtypeInfo, isFloating, promoteTypes } from "../../dtype.js";
import { ArgumentError, DTypeError, ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import * as e from "../emit.js";
import { fmtShape, normDims } from "../dims.js";
import { checkOptions, checkTensor, run, runMany } from "../unit.js";
interface ReduceOptions {
  dim?: number | readonly number[];
  keepdim?: boolean;
}

type Dim = number | readonly number[];

const key = (...parts: unknown[]): string => parts.map((p) => String(p)).join("|");

/** The dtype a float computation runs in: float32 for the 16-bit floats, the dtype itself otherwise. */
const opmath = (dtype: DType): DType => (dtype === "float16" || dtype === "bfloat16" ? "float32" : dtype);

/** The shape of `x` with `dims` kept as size 1. */
const keptShape = (x: Tracer, dims: readonly number[]): number[] => x.shape.map((d, i) => (dims.includes(i) ? 1 : d));

/** `r` (x reduced over `dims`) with the reduced dims put back as size 1 when `keepdim`. */
function keep(r: Tracer, x: Tracer, dims: readonly number[], keepdim: boolean | undefined): Tracer {
  return keepdim ? e.reshape(r, keptShape(x, dims)) : r;
}

/** Number of elements reduced over `dims`. */
const count = (x: Tracer, dims: readonly number[]): number => dims.reduce((n, d) => n * x.shape[d]!, 1);

const nonzero = (x: Tracer): Tracer => (x.dtype === "bool" ? x : e.compare(x, e.full(0, x.dtype, x.shape), "NE"));

// --- all, any ---------------------------------------------------------------------------------------

function logical(op: "all" | "any") {
  return (a: Tensor, options: ReduceOptions = {}): Tensor => {
    checkTensor(op, a);
    checkOptions(op, options);
    return run(op, [a], key(options.dim, options.keepdim), ([x]) => {
      const t = x as Tracer;
      // An explicit empty list reduces nothing (PyTorch); no dim reduces everything.
      const explicitNone = Array.isArray(options.dim) && options.dim.length === 0;
      const dims = explicitNone ? [] : normDims(op, options.dim, t.ndim);
      const truth = nonzero(t);
      const r = dims.length === 0 ? truth : keep(e.reduce(op === "all" ? "and" : "or", truth, dims), t, dims, options.keepdim);
      return t.dtype === "uint8" ? e.convert(r, "uint8") : r; // PyTorch keeps uint8 for uint8 input
    });
  };
}

/** Whether every element is nonzero (over `dim`); bool result, uint8 for uint8 input as in PyTorch. */
export const all = logical("all");
/** Whether any element is nonzero (over `dim`); bool result, uint8 for uint8 input as in PyTorch. */
export const any = logical("any");

// --- var, std, varMean, stdMean ---------------------------------------------------------------------

export interface VarOptions extends ReduceOptions {
  /** Subtracted from the number of elements in the divisor: 1 (default) is Bessel's correction, 0 the population variance. */
  correction?: number;
}

/**
 * Variance (or, with `root`, standard deviation) and mean of `x` over options.dim, two-pass, in the
 * input's dtype with keepdim applied.
 */
function moments(op: string, x: Tracer, o: VarOptions, root: boolean): { spread: Tracer; mean: Tracer } {
  if (!isFloating(x.dtype)) {
    throw new DTypeError(`${op}: std and var only support floating point dtypes, got ${x.dtype} (convert first, e.g. x.to("float32"))`);
  }
  if ("unbiased" in o) throw new ArgumentError(`${op}: unbiased is not supported; pass { correction: 1 } (unbiased) or { correction: 0 } instead`);
  const correction = o.correction ?? 1;
  if (typeof correction !== "number" || !Number.isFinite(correction)) throw new ArgumentError(`${op}: correction must be a finite number, got ${String(correction)}`);
  const dims = normDims(op, o.dim, x.ndim);
  const t = e.convert(x, opmath(x.dtype));
  const n = count(x, dims);
  const sum = e.reduce("sum", t, dims);
  const mean = e.div(sum, e.full(n, t.dtype, sum.shape)); // 0/0 = NaN over no elements, as in PyTorch
  const dev = e.sub(t, e.broadcastTo(e.reshape(mean, keptShape(x, dims)), t.shape));
  const squares = e.reduce("sum", e.mul(dev, dev), dims);
  const variance = e.div(squares, e.full(Math.max(0, n - correction), t.dtype, squares.shape));
  const out = (r: Tracer): Tracer => e.convert(keep(r, x, dims, o.keepdim), x.dtype);
  return { spread: out(root ? e.sqrt(variance) : variance), mean: out(mean) };
}

const varKey = (o: VarOptions): string => key(o.dim, o.keepdim, o.correction ?? 1);

/** Variance over `dim` with `correction` (default 1); floating inputs only. */
export function variance(a: Tensor, options: VarOptions = {}): Tensor {
  checkTensor("var", a);
  checkOptions("var", options);
  return run("var", [a], varKey(options), ([x]) => moments("var", x as Tracer, options, false).spread);
}

/** Standard deviation over `dim` with `correction` (default 1); floating inputs only. */
export function std(a: Tensor, options: VarOptions = {}): Tensor {
  checkTensor("std", a);
  checkOptions("std", options);
  return run("std", [a], varKey(options), ([x]) => moments("std", x as Tracer, options, true).spread);
}

/** [variance, mean] over `dim` (PyTorch's tuple as an array). */
export function varMean(a: Tensor, options: VarOptions = {}): [Tensor, Tensor] {
  checkTensor("varMean", a);
  checkOptions("varMean", options);
  const [v, m] = runMany("varMean", [a], varKey(options), ([x]) => {
    const { spread, mean } = moments("varMean", x!, options, false);
    return [spread, mean];
  });
  return [v!, m!];
}

/** [standard deviation, mean] over `dim` (PyTorch's tuple as an array). */
export function stdMean(a: Tensor, options: VarOptions = {}): [Tensor, Tensor] {
  checkTensor("stdMean", a);
  checkOptions("stdMean", options);
  const [s, m] = runMany("stdMean", [a], varKey(options), ([x]) => {
    const { spread, mean } = moments("stdMean", x!, options, true);
    return [spread, mean];
  });
  return [s!, m!];
}

// --- logsumexp ----------------------------------------------------------------------------------------

/** log(sum(exp(x))) over `dim`, computed stably (the maximum is taken out first); integers give float32. */
export function logsumexp(a: Tensor, dim: Dim, options: { keepdim?: boolean } = {}): Tensor {
  checkTensor("logsumexp", a);
  return run("logsumexp", [a], key(dim, options.keepdim), ([x]) => {
    const t0 = x as Tracer;
    const dtype = isFloating(t0.dtype) ? t0.dtype : defaultFloatDType;
    const dims = normDims("logsumexp", dim, t0.ndim);
    const t = e.convert(t0, opmath(dtype));
    const m = e.reduce("max", t, dims);
    // ±inf (or an empty or all −inf row) cannot be taken out; 0 is taken out instead, as PyTorch does.
    const shift = e.select(e.isFinite(m), m, e.full(0, t.dtype, m.shape));
    const z = e.sub(t, e.broadcastTo(e.reshape(shift, keptShape(t, dims)), t.shape));
    const r = e.add(e.log(e.reduce("sum", e.exp(z), dims)), shift);
    return e.convert(keep(r, t, dims, options.keepdim), dtype);
  });
}

// --- norm ---------------------------------------------------------------------------------------------

export interface NormOptions extends ReduceOptions {
  /** The order: any number (2 by default; Infinity, -Infinity and 0 included) or "fro" (2 over at most two dims). */
  p?: number | "fro" | "nuc";
  /** Compute and return in this floating dtype (no narrower than the input's). */
  dtype?: DType;
}

/** The vector p-norm over `dim` (all by default); floating inputs only. */
export function norm(a: Tensor, options: NormOptions = {}): Tensor {
  checkTensor("norm", a);
  checkOptions("norm", options);
  const p = options.p ?? 2;
  if (p === "nuc") throw new ArgumentError('norm: p = "nuc" (the nuclear norm) is not supported yet: it needs a singular value decomposition');
  if (p !== "fro" && typeof p !== "number") throw new ArgumentError(`norm: p must be a number or "fro", got ${JSON.stringify(p)}`);
  const target = options.dtype === undefined ? undefined : dtypeInfo(options.dtype).name;
  return run("norm", [a], key(p, options.dim, options.keepdim, target), ([x]) => {
    const t0 = x as Tracer;
    if (!isFloating(t0.dtype)) throw new DTypeError(`norm: expected a floating point input, got ${t0.dtype} (convert first, e.g. x.to("float32"))`);
    if (target !== undefined && (!isFloating(target) || promoteTypes(t0.dtype, target) !== target)) {
      throw new DTypeError(`norm: the input's dtype ${t0.dtype} cannot be converted without narrowing to dtype ${target}`);
    }
    const dtype = target ?? t0.dtype;
    if (p === "fro" && Array.isArray(options.dim) && options.dim.length > 2) {
      throw new ShapeError(`norm: p = "fro" takes at most two dims, got [${options.dim.join(", ")}] (use p = 2 for a vector norm over more)`);
    }
    const order = p === "fro" ? 2 : p;
    const dims = normDims("norm", options.dim, t0.ndim);
    if ((order < 0 || order === Infinity) && count(t0, dims) === 0) {
      throw new ShapeError(`norm: cannot compute the ${order} norm over no elements (shape ${fmtShape(t0.shape)}): the reduction has no identity`);
    }
    const t = e.convert(t0, opmath(dtype));
    const r = vectorNorm(t, order, dims);
    return e.convert(keep(r, t, dims, options.keepdim), dtype);
  });
}

function vectorNorm(t: Tracer, p: number, dims: readonly number[]): Tracer {
  const abs = e.abs(t);
  const constant = (v: number, like: Tracer): Tracer => e.full(v, like.dtype, like.shape);
  if (p === 2) return e.sqrt(e.reduce("sum", e.mul(t, t), dims));
  if (p === 1) return e.reduce("sum", abs, dims);
  if (p === Infinity) return e.reduce("max", abs, dims);
  if (p === -Infinity) return e.reduce("min", abs, dims);
  if (p === 0) return e.reduce("sum", e.convert(nonzero(t), t.dtype), dims);
  const sum = e.reduce("sum", e.pow(abs, constant(p, abs)), dims);
  return e.pow(sum, constant(1 / p, sum));
}

// --- countNonzero -------------------------------------------------------------------------------------

/** Number of nonzero elements over `dim` (all by default), int64. NaN counts as nonzero. */
export function countNonzero(a: Tensor, options: { dim?: Dim } = {}): Tensor {
  checkTensor("countNonzero", a);
  return run("countNonzero", [a], key(options.dim), ([x]) => {
    const t = x as Tracer;
    const dims = normDims("countNonzero", options.dim, t.ndim);
    return e.reduce("sum", e.convert(nonzero(t), "int64"), dims);
  });
}
