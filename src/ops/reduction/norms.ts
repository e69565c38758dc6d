/**
 * @file torch.norm: the vector p-norm over `dim` (a number or a list, negative allowed; none = all);
 * renorm, which scales down the slices whose p-norm is too large.
 * float16/bfloat16 inputs are computed in float32 and rounded once at the end.
 */
import { type DType, isFloating, promoteTypes } from "../../dtype.js";
import { ArgumentError, DTypeError, ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import { fmtShape, normDim, normDims } from "../dims.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import { run } from "../unit.js";
import { opmath } from "../accumulate.js";
import { countOver, dimKey, isNonzero, keep } from "./keep.js";

const constant = (v: number, like: Tracer): Tracer => e.full(v, like.dtype, like.shape);

/**
 * √s with gradient 0 where s is 0 (PyTorch's norm subgradient at a zero vector; the calculus gives
 * inf there, and 0 × inf further down): the root sees 1 in those lanes.
 */
export function sqrtOrZero(s: Tracer): Tracer {
  const zero = e.compare(s, constant(0, s), "EQ");
  return e.select(zero, constant(0, s), e.sqrt(e.select(zero, constant(1, s), s)));
}

/**
 * |x|^p with gradient 0 where x is 0 (PyTorch's norm convention; 0^(p−1) is inf for p < 1): there
 * the value is |x| itself (+ inf for p < 0), whose gradient is the cotangent × sgn(0), so a NaN or
 * infinite cotangent (a NaN row, an infinite norm) still gives NaN, as in PyTorch.
 */
export function powAbsOrZero(abs: Tracer, p: number): Tracer {
  const zero = e.compare(abs, constant(0, abs), "EQ");
  const atZero = p > 0 ? abs : e.add(abs, constant(Infinity, abs));
  return e.select(zero, atZero, e.pow(e.select(zero, constant(1, abs), abs), constant(p, abs)));
}

/**
 * s^(1/p), the p-norm from s = Σ |x|^p. For p > 1 its gradient is 0 where s is 0 (as sqrtOrZero; the
 * calculus gives inf there); for 0 < p < 1 the calculus gives 0 there, and for p < 0 s = 0 is an infinite norm.
 */
export function rootOrZero(s: Tracer, p: number): Tracer {
  if (p < 1) return e.pow(s, constant(1 / p, s));
  const zero = e.compare(s, constant(0, s), "EQ");
  return e.select(zero, constant(0, s), e.pow(e.select(zero, constant(1, s), s), constant(1 / p, s)));
}

/**
 * The max (min) of |x| over dims, NaN where a NaN is reduced. A NaN row's gradient is 0, as
 * PyTorch's (no element equals NaN), where the max rule would give NaN (0/0).
 */
export function absExtreme(kind: "max" | "min", t: Tracer, dims: readonly number[]): Tracer {
  const nan = e.compare(t, t, "NE");
  const anyNan = e.reduce("or", nan, dims);
  const r = e.reduce(kind, e.abs(e.select(nan, constant(0, t), t)), dims);
  return e.select(anyNan, constant(NaN, r), r);
}

export function vectorNorm(t: Tracer, p: number, dims: readonly number[]): Tracer {
  const abs = e.abs(t);
  if (p === 2) return sqrtOrZero(e.reduce("sum", e.mul(t, t), dims));
  if (p === 1) return e.reduce("sum", abs, dims);
  if (p === Infinity) return absExtreme("max", t, dims);
  if (p === -Infinity) return absExtreme("min", t, dims);
  if (p === 0) return e.reduce("sum", e.convert(isNonzero(t), t.dtype), dims);
  return rootOrZero(e.reduce("sum", powAbsOrZero(abs, p), dims), p);
}

/** The dtype a norm computes and returns in: `dtype` when given (floating, no narrowing), else the input's (floating). */
export function normDType(op: string, input: DType, dtype: DType | undefined): DType {
  if (!isFloating(input)) throw new DTypeError(`${op}: expected a floating point input, got ${input} (convert first, e.g. x.to("float32"))`);
  if (dtype !== undefined && (!isFloating(dtype) || promoteTypes(input, dtype) !== dtype)) {
    throw new DTypeError(`${op}: the input's dtype ${input} cannot be converted without narrowing to dtype ${dtype}`);
  }
  return dtype ?? input;
}

/** The `order`-norm of `input` over `dims` (normalised), computed in opmath(out) and returned in `out`: torch.norm's and torch.linalg.vectorNorm's unit. */
export function vectorNormOf(op: string, input: Tensor, order: number, dims: readonly number[], keepdim: boolean, out: DType): Tensor {
  if ((order < 0 || order === Infinity) && countOver(input, dims) === 0) {
    throw new ShapeError(`${op}: cannot compute the ${order} norm over no elements (shape ${fmtShape(input.shape)}): the reduction has no identity`);
  }
  return run(op, [input], `${order}|${dimKey(dims, keepdim)}|${out}`, ([x]) => {
    const t = e.convert(x as Tracer, opmath(out));
    return e.convert(keep(vectorNorm(t, order, dims), t, dims, keepdim), out);
  });
}

export const norm = op(
  'norm(input: Tensor, p?: float | "fro" | "nuc", dim?: int | int[], keepdim: bool = false, *, dtype?: dtype) -> Tensor',
  {
    doc: 'The vector p-norm over `dim` (all dims by default): `p` any number (Infinity, -Infinity and 0 included) or "fro" (2, over at most two dims); 2 when omitted or null. Floating inputs only; `dtype` computes and returns in a floating dtype no narrower than the input\'s. "nuc" is not supported yet.',
    method: true,
  },
  ({ input, p = 2, dim, keepdim, dtype }) => {
    if (p === "nuc") throw new ArgumentError('norm: p = "nuc" (the nuclear norm) is not supported yet: it needs a singular value decomposition');
    const out = normDType("norm", input.dtype, dtype);
    if (p === "fro" && Array.isArray(dim) && dim.length > 2) {
      throw new ShapeError(`norm: p = "fro" takes at most two dims, got [${dim.join(", ")}] (use p = 2 for a vector norm over more)`);
    }
    return vectorNormOf("norm", input, p === "fro" ? 2 : p, normDims("norm", dim, input.ndim), keepdim, out);
  },
);

export const renorm = op(
  "renorm(input: Tensor, p: float, dim: int, maxnorm: float) -> Tensor",
  {
    doc: "`input` with each slice along `dim` (input.select(dim, i)) whose p-norm (p > 0, Infinity allowed) exceeds `maxnorm` scaled by maxnorm / (norm + 1e-7); the others unchanged. Floating inputs of at least 2 dims.",
    method: true,
  },
  ({ input, p, dim, maxnorm }) => {
    normDType("renorm", input.dtype, undefined);
    if (input.ndim < 2) throw new ShapeError(`renorm: the input needs at least 2 dimensions, got ${fmtShape(input.shape)}`);
    if (!(p > 0)) throw new ArgumentError(`renorm: p must be positive, got ${p}`);
    if (!(maxnorm >= 0)) throw new ArgumentError(`renorm: maxnorm must be >= 0, got ${maxnorm}`);
    const d = normDim("renorm", dim, input.ndim);
    return run("renorm", [input], `${p}|${d}|${maxnorm}`, ([x]) => {
      const t = x as Tracer;
      const others = t.shape.map((_, i) => i).filter((i) => i !== d);
      const wide = e.convert(t, opmath(t.dtype));
      const norms = keep(vectorNorm(wide, p, others), wide, others, true);
      const limit = constant(maxnorm, norms);
      const factor = e.select(e.compare(norms, limit, "GT"), e.div(limit, e.add(norms, constant(1e-7, norms))), constant(1, norms));
      return e.mul(t, e.broadcastTo(e.convert(factor, t.dtype), t.shape));
    });
  },
);
