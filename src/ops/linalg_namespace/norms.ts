/**
 * @file torch.linalg.vectorNorm, matrixNorm and norm (one of the two, picked from ord and dim). The
 * orders that need singular values (matrix 2, −2 and "nuc") are not supported yet. float16/bfloat16
 * inputs are computed in float32 and rounded once.
 */
import type { DType } from "../../dtype.js";
import { ArgumentError, NotSupportedError, ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import { opmath } from "../accumulate.js";
import { fmtShape, normDim, normDims } from "../dims.js";
import * as e from "../emit.js";
import { absExtreme, normDType, vectorNorm as vectorNormOver, vectorNormOf } from "../reduction/norms.js";
import { keep } from "../reduction/keep.js";
import { op } from "../signature/op.js";
import { run } from "../unit.js";

export const vectorNorm = op(
  "linalg.vectorNorm(input: Tensor, ord: float = 2, dim?: int | int[], keepdim: bool = false, *, dtype?: dtype) -> Tensor",
  {
    doc: "The vector `ord`-norm over `dim` (all dims when omitted), the input seen as a flat vector: `ord` any number, Infinity, -Infinity and 0 included. Floating inputs only; `dtype` computes and returns in a floating dtype no narrower than the input's.",
  },
  ({ input, ord, dim, keepdim, dtype }) => {
    const out = normDType("linalg.vectorNorm", input.dtype, dtype);
    return vectorNormOf("linalg.vectorNorm", input, ord, normDims("linalg.vectorNorm", dim, input.ndim), keepdim, out);
  },
);

/** The max (min) over `outer` of the sums of |A| over `inner`: the 1-norm (inner = rows) and inf-norm (inner = columns). */
function absSumExtreme(a: Tracer, kind: "max" | "min", inner: number, outer: number): Tracer {
  const sums = e.reduce("sum", e.abs(a), [inner]);
  const at = outer > inner ? outer - 1 : outer;
  // no columns (rows) to take the max over: PyTorch gives 0, the max of no non-negative sums
  if (sums.shape[at] === 0) return e.full(0, a.dtype, sums.shape.filter((_, i) => i !== at));
  return absExtreme(kind, sums, [at]);
}

/** The `ord` matrix norm of A over dims `dim` in dtype `out`: linalg.matrixNorm's work, and linalg.norm's with a matrix order. */
function matrixNormOf(op: string, A: Tensor, ord: number | "fro" | "nuc", dim: readonly number[], keepdim: boolean, out: DType): Tensor {
  if (A.ndim < 2) throw new ShapeError(`${op}: the input A must have at least 2 dimensions, got shape ${fmtShape(A.shape)}`);
  if (dim.length !== 2) throw new ShapeError(`${op}: dim must be a list of 2 dims, got [${dim.join(", ")}]`);
  const [d0, d1] = dim.map((d) => normDim(op, d, A.ndim)) as [number, number];
  if (d0 === d1) throw new ShapeError(`${op}: the two dims must be different, got [${dim.join(", ")}]`);
  if (ord === "nuc" || ord === 2 || ord === -2) {
    throw new NotSupportedError(`${op}: ord = ${JSON.stringify(ord)} is not supported yet: it needs the singular values (torch.linalg.svdvals)`);
  }
  if (ord !== "fro" && ![1, -1, Infinity, -Infinity].includes(ord)) {
    throw new ArgumentError(`${op}: order ${ord} is not supported: use "fro", 1, -1, Infinity or -Infinity`);
  }
  // the min over an empty set of column (row) sums has no identity
  const outer = ord === -1 ? d1 : d0;
  if (ord !== "fro" && ord < 0 && A.shape[outer] === 0) {
    throw new ShapeError(`${op}: cannot compute the ${ord} norm of matrices with no ${ord === -1 ? "columns" : "rows"} (shape ${fmtShape(A.shape)})`);
  }
  // "matrix|": linalg.norm runs vector norms under the same op name, with keys of the same form
  return run(op, [A], `matrix|${ord}|${d0},${d1}|${keepdim ? 1 : 0}|${out}`, ([a0]) => {
    const a = e.convert(a0 as Tracer, opmath(out));
    const dims = [d0, d1].sort((p, q) => p - q);
    let r: Tracer;
    if (ord === "fro") r = vectorNormOver(a, 2, dims);
    else if (Math.abs(ord) === 1) r = absSumExtreme(a, ord > 0 ? "max" : "min", d0, d1);
    else r = absSumExtreme(a, ord > 0 ? "max" : "min", d1, d0);
    return e.convert(keep(r, a, dims, keepdim), out);
  });
}

export const matrixNorm = op(
  'linalg.matrixNorm(input: Tensor, ord: float | "fro" | "nuc" = "fro", dim?: int[], keepdim: bool = false, *, dtype?: dtype) -> Tensor',
  {
    doc: 'The matrix norm of the matrices in the two dims `dim` ([-2, -1] when omitted): `ord` "fro", 1 or -1 (max or min column sum of |A|), Infinity or -Infinity (max or min row sum). Floating inputs only; `dtype` as in vectorNorm. The orders 2, -2 and "nuc" (from singular values) are not supported yet.',
  },
  ({ input: A, ord, dim = [-2, -1], keepdim, dtype }) => matrixNormOf("linalg.matrixNorm", A, ord, dim, keepdim, normDType("linalg.matrixNorm", A.dtype, dtype)),
);

export const norm = op(
  'linalg.norm(input: Tensor, ord?: float | "fro" | "nuc", dim?: int | int[], keepdim: bool = false, *, dtype?: dtype) -> Tensor',
  {
    doc: 'A vector or matrix norm, as `ord` and `dim` say: without `ord`, the 2-norm of the input seen as a flat vector (over `dim`, one or two dims, when given); with a number `ord` and one dim (or a 1-d input), vectorNorm; with a string `ord`, or two dims (or a 2-d input), matrixNorm. `ord` without `dim` needs a 1-d or 2-d input. Matrix orders 2, -2 and "nuc" are not supported yet.',
  },
  ({ input: A, ord, dim, keepdim, dtype }) => {
    const dims = typeof dim === "number" ? [dim] : dim;
    if (dims !== undefined && dims.length !== 1 && dims.length !== 2) {
      throw new ShapeError(`linalg.norm: dim must be one dim or a list of 1 or 2 dims, got [${dims.join(", ")}] (use linalg.vectorNorm for more)`);
    }
    if (dims === undefined && ord !== undefined && A.ndim !== 1 && A.ndim !== 2) {
      throw new ShapeError(`linalg.norm: with ord and no dim the input must be 1-d or 2-d, got shape ${fmtShape(A.shape)}; pass dim (one dim for a vector norm, two for a matrix norm)`);
    }
    const out = normDType("linalg.norm", A.dtype, dtype);
    if (typeof ord === "string" || (ord !== undefined && (dims?.length ?? A.ndim) === 2)) return matrixNormOf("linalg.norm", A, ord, dims ?? [-2, -1], keepdim, out);
    return vectorNormOf("linalg.norm", A, ord ?? 2, normDims("linalg.norm", dims, A.ndim), keepdim, out);
  },
);
