/**
 * @file The diagonal and the triangles either side of it: tril, triu, diagonal, diag, diagEmbed,
 * diagflat (diagonalScatter, which writes one, is in scatters.ts).
 */
import { ShapeError } from "../../runtime/errors.js";
import { numelOf, type Tensor } from "../../tensor.js";
import { bind1, type Tracer } from "../../trace/tracer.js";
import { fmtShape, normDim } from "../dims.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import { sliceDim, unary } from "./common.js";

function triangle(op: "tril" | "triu", a: Tensor, diagonal: number): Tensor {
  return unary(op, a, String(diagonal), (x) => {
    if (x.ndim < 2) throw new ShapeError(`${op}: input tensor must have at least 2 dimensions, got shape ${fmtShape(x.shape)}`);
    const r = x.shape[x.ndim - 2]!;
    const c = x.shape[x.ndim - 1]!;
    const rows = e.iota("int64", [r, c], 0);
    const cols = e.iota("int64", [r, c], 1);
    // tril keeps col - row <= diagonal; triu keeps col - row >= diagonal
    const diff = e.sub(cols, rows);
    const mask = e.compare(diff, e.full(diagonal, "int64", [r, c]), op === "tril" ? "LE" : "GE");
    return e.select(e.broadcastTo(mask, x.shape), x, e.full(x.dtype === "bool" ? false : 0, x.dtype, x.shape));
  });
}

export const tril = op(
  "tril(input: Tensor, diagonal: int = 0) -> Tensor",
  { doc: "The lower triangle of the last two dims: elements above diagonal `diagonal` (0 the main one, > 0 above it) zeroed.", method: true },
  ({ input, diagonal }) => triangle("tril", input, diagonal),
);

export const triu = op(
  "triu(input: Tensor, diagonal: int = 0) -> Tensor",
  { doc: "The upper triangle of the last two dims: elements below diagonal `diagonal` (0 the main one, > 0 above it) zeroed.", method: true },
  ({ input, diagonal }) => triangle("triu", input, diagonal),
);

/** Where diagonal `offset` of a matrix starts, and its length. */
export function diagonalSpan(rows: number, cols: number, offset: number): { r0: number; c0: number; len: number } {
  const r0 = offset >= 0 ? 0 : Math.min(-offset, rows);
  const c0 = offset >= 0 ? Math.min(offset, cols) : 0;
  return { r0, c0, len: Math.max(0, Math.min(rows - r0, cols - c0)) };
}

/** Of [..., rows, cols]: true on diagonal `offset`. */
export function diagonalMask(shape: readonly number[], offset: number): Tracer {
  const n = shape.length;
  const diff = e.sub(e.iota("int64", shape, n - 1), e.iota("int64", shape, n - 2));
  return e.compare(diff, e.full(offset, "int64", shape), "EQ");
}

/**
 * [..., rows, cols] holding v's last dim (the diagonal's length) along diagonal `offset`, where
 * diagonalMask is true; what it holds elsewhere is not meant to be used.
 */
export function spreadDiagonal(v: Tracer, rows: number, cols: number, offset: number): Tracer {
  const b = v.ndim - 1;
  const batch = v.shape.slice(0, b);
  const len = v.shape[b]!;
  // diagonal element k sits in row k (offset >= 0) or in column k (offset < 0)
  const along = offset >= 0 ? rows : cols;
  const zero = e.full(v.dtype === "bool" ? false : 0, v.dtype);
  const low = v.shape.map(() => 0);
  const padded = bind1("pad", [v, zero], { low, high: [...batch.map(() => 0), along - len], interior: low });
  const dims = [...batch.map((_, i) => i), offset >= 0 ? b : b + 1];
  return e.broadcastInDim(padded, [...batch, rows, cols], dims);
}

export function diagonalBody(x: Tracer, offset: number, dim1: number, dim2: number): Tracer {
  const d1 = normDim("diagonal", dim1, x.ndim);
  const d2 = normDim("diagonal", dim2, x.ndim);
  if (d1 === d2) throw new ShapeError(`diagonal: dim1 and dim2 cannot be the same dim (${d1})`);
  const rest = x.shape.map((_, i) => i).filter((i) => i !== d1 && i !== d2);
  const y = e.transpose(x, [...rest, d1, d2]);
  const batch = rest.map((i) => x.shape[i]!);
  const r = x.shape[d1]!;
  const c = x.shape[d2]!;
  const { r0, c0, len } = diagonalSpan(r, c, offset);
  const b = batch.length;
  const sq = sliceDim(sliceDim(y, b, r0, r0 + len), b + 1, c0, c0 + len);
  const flat = e.reshape(sq, [...batch, len * len]);
  return len === 0 ? e.reshape(flat, [...batch, 0]) : sliceDim(flat, b, 0, len * len, len + 1);
}

export const diagonal = op(
  "diagonal(input: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor",
  { doc: "Diagonal `offset` of the matrices in dims `dim1`, `dim2`: those dims are removed and the diagonal becomes the last dim. A copy here, not a view.", method: true },
  ({ input, offset, dim1, dim2 }) =>
    unary("diagonal", input, `${offset},${dim1},${dim2}`, (x) => {
      if (x.ndim < 2) throw new ShapeError(`diagonal: expects a tensor with at least 2 dimensions, got shape ${fmtShape(x.shape)}`);
      return diagonalBody(x, offset, dim1, dim2);
    }),
);

/** The transpose that moves the last two of `rank` dims to positions d1 and d2, the others keeping their order. */
export function diagonalPlanePerm(rank: number, d1: number, d2: number): number[] {
  const perm: number[] = [];
  for (let i = 0, k = 0; i < rank; i++) perm.push(i === d1 ? rank - 2 : i === d2 ? rank - 1 : k++);
  return perm;
}

/** x's last dim on diagonal `offset` of square matrices in result dims d1, d2 (rank x.ndim + 1, normalized). */
function embedDiagonal(x: Tracer, offset: number, d1: number, d2: number): Tracer {
  const m = x.shape[x.ndim - 1]! + Math.abs(offset);
  const shape = [...x.shape.slice(0, -1), m, m];
  const zero = e.full(x.dtype === "bool" ? false : 0, x.dtype, shape);
  const embedded = e.select(diagonalMask(shape, offset), spreadDiagonal(x, m, m, offset), zero);
  return e.transpose(embedded, diagonalPlanePerm(x.ndim + 1, d1, d2));
}

export const diagEmbed = op(
  "diagEmbed(input: Tensor, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor",
  { doc: "Each vector in the last dim of `input` placed on diagonal `offset` of a square matrix in new dims `dim1`, `dim2` (of the result), zeros elsewhere.", method: true },
  ({ input, offset, dim1, dim2 }) =>
    unary("diagEmbed", input, `${offset},${dim1},${dim2}`, (x) => {
      const d1 = normDim("diagEmbed", dim1, x.ndim + 1);
      const d2 = normDim("diagEmbed", dim2, x.ndim + 1);
      if (d1 === d2) throw new ShapeError(`diagEmbed: the diagonal dims cannot be identical, got dim1 = ${dim1} and dim2 = ${dim2}`);
      return embedDiagonal(x, offset, d1, d2);
    }),
);

export const diagflat = op(
  "diagflat(input: Tensor, offset: int = 0) -> Tensor",
  { doc: "The square matrix with the flattened input on diagonal `offset`, zeros elsewhere.", method: true },
  ({ input, offset }) => unary("diagflat", input, String(offset), (x) => embedDiagonal(e.reshape(x, [numelOf(x.shape)]), offset, 0, 1)),
);

export const diag = op(
  "diag(input: Tensor, diagonal: int = 0) -> Tensor",
  { doc: "Of a 1-d tensor, the square matrix with it on diagonal `diagonal`; of a 2-d tensor, that diagonal.", method: true },
  ({ input, diagonal: k }) =>
    unary("diag", input, String(k), (x) => {
      if (x.ndim === 2) return diagonalBody(x, k, 0, 1);
      if (x.ndim !== 1) throw new ShapeError(`diag: expects a 1-d or 2-d tensor, got shape ${fmtShape(x.shape)}`);
      const n = x.shape[0]!;
      const m = n + Math.abs(k);
      const zero = x.dtype === "bool" ? false : 0;
      const padded = bind1("pad", [x, e.full(zero, x.dtype)], { low: [0], high: [Math.abs(k)], interior: [0] });
      const vals = e.broadcastInDim(padded, [m, m], [k >= 0 ? 0 : 1]);
      const diff = e.sub(e.iota("int64", [m, m], 1), e.iota("int64", [m, m], 0));
      const mask = e.compare(diff, e.full(k, "int64", [m, m]), "EQ");
      return e.select(mask, vals, e.full(zero, x.dtype, [m, m]));
    }),
);
