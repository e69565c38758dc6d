/**
 * @file LU with partial pivoting: torch.linalg.luFactor, lu and luSolve. The factorisation is a
 * device while loop over columns: the largest |value| on or below the diagonal is swapped into the
 * pivot row, the column below it divided by the pivot, and its outer product with the pivot row taken
 * from the trailing matrix. A zero pivot (a singular matrix) leaves its column as it is, as LAPACK's
 * getrf does. Past 64 pivots it works in blocks (luOf). pivots are PyTorch's: int32, 1-based, row i
 * swapped with row pivots[i] in turn.
 *
 * luFactor's and lu's gradients are the calculus of that loop (the while loop's VJP, exact for the
 * pivots chosen); luSolve's come from its triangular solves (PyTorch's formulas).
 */
import { DTypeError, ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import { bind, trace } from "../../trace/tracer.js";
import { broadcastShapes, fmtShape } from "../dims.js";
import * as e from "../emit.js";
import { diagonalBody } from "../shape/diagonals.js";
import { op } from "../signature/op.js";
import type { LUPivots, LUPivotsInfo, PLU } from "../types.js";
import { run, runMany } from "../unit.js";
import { checkMatrix, checkSquare, linalgDType, mm, mT, raiseOnInfo, rowsCols, solveTriangular, type T, triangle } from "./matrices.js";

const i32 = (v: number, shape: readonly number[] = []): T => e.full(v, "int32", shape);
const batchDims = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

/** The entries of `x` [..., m] at index `j` (int32: 0-d, or one per matrix [...]), [...]. */
function pick(x: T, j: T): T {
  const index = e.iota("int32", x.shape, x.ndim - 1);
  const at = j.ndim === 0 ? e.broadcastTo(j, x.shape) : e.broadcastInDim(j, x.shape, batchDims(j.ndim));
  return e.reduce("sum", e.select(e.compare(index, at, "EQ"), x, e.full(0, x.dtype, x.shape)), [x.ndim - 1]);
}

/**
 * The LU factorisation of `a` [..., m, n]: LU (L's strict lower part and U in one matrix), pivots
 * (int32 [..., min(m, n)], 1-based) and the row permutation perm (int32 [..., m]: row i of L U is row
 * perm[i] of a). Without `pivot` no rows are swapped.
 */
export function luLoop(a: T, pivot: boolean): [T, T, T] {
  const r = a.ndim;
  const [m, n] = a.shape.slice(-2) as [number, number];
  const k = Math.min(m, n);
  const batch = a.shape.slice(0, -2);
  const bd = batchDims(batch.length);
  const state = [i32(0), a, e.broadcastTo(e.add(e.iota("int32", [k], 0), i32(1, [k])), [...batch, k]), e.broadcastTo(e.iota("int32", [m], 0), [...batch, m])];
  const avals = state.map((t) => ({ shape: t.shape, dtype: t.dtype }));
  const cond = ([j]: T[]) => e.compare(j!, i32(k), "LT");
  const body = ([j, x, pivots, perm]: T[]) => {
    const [rows, cols] = rowsCols(x!.shape);
    const jm = e.broadcastTo(j!, x!.shape);
    const zeros = e.full(0, x!.dtype, x!.shape);
    const column = e.reduce("sum", e.select(e.compare(cols, jm, "EQ"), x!, zeros), [r - 1]);
    const rowIndex = e.iota("int32", column.shape, r - 2);
    const below = e.compare(rowIndex, e.broadcastTo(j!, column.shape), "GE");
    const p = pivot
      ? e.convert(e.argReduce("argmax", e.select(below, e.abs(column), e.full(-1, column.dtype, column.shape)), r - 2)[1], "int32")
      : e.broadcastTo(j!, batch);
    const pm = e.broadcastInDim(p, x!.shape, bd);
    const rowOf = (at: T) => e.reduce("sum", e.select(e.compare(rows, at, "EQ"), x!, zeros), [r - 2]);
    const asRows = (row: T) => e.broadcastInDim(row, x!.shape, [...bd, r - 1]);
    const [rowJ, rowP] = [rowOf(jm), rowOf(pm)];
    const swapped = e.select(e.compare(rows, jm, "EQ"), asRows(rowP), e.select(e.compare(rows, pm, "EQ"), asRows(rowJ), x!));
    const permIndex = e.iota("int32", perm!.shape, r - 2);
    const [pj, pp] = [e.broadcastTo(j!, perm!.shape), e.broadcastInDim(p, perm!.shape, bd)];
    const permSwapped = e.select(e.compare(permIndex, pj, "EQ"), e.broadcastInDim(pick(perm!, p), perm!.shape, bd),
      e.select(e.compare(permIndex, pp, "EQ"), e.broadcastInDim(pick(perm!, j!), perm!.shape, bd), perm!));
    const nextPivots = e.select(e.compare(e.iota("int32", pivots!.shape, r - 2), e.broadcastTo(j!, pivots!.shape), "EQ"), e.broadcastInDim(e.add(p, i32(1, batch)), pivots!.shape, bd), pivots!);
    const col = e.reduce("sum", e.select(e.compare(cols, jm, "EQ"), swapped, zeros), [r - 1]);
    const diag = pick(col, j!);
    const isZero = e.compare(diag, e.full(0, diag.dtype, diag.shape), "EQ");
    const safe = e.select(isZero, e.full(1, diag.dtype, diag.shape), diag);
    const l = e.select(e.compare(rowIndex, e.broadcastTo(j!, column.shape), "GT"), e.div(col, e.broadcastInDim(safe, col.shape, bd)), e.full(0, col.dtype, col.shape));
    const colIndex = e.iota("int32", rowP.shape, r - 2);
    const u = e.select(e.compare(colIndex, e.broadcastTo(j!, rowP.shape), "GT"), rowP, e.full(0, rowP.dtype, rowP.shape));
    const updated = e.sub(swapped, e.mul(e.broadcastInDim(l, x!.shape, [...bd, r - 2]), asRows(u)));
    const next = e.select(e.and(e.compare(cols, jm, "EQ"), e.compare(rows, jm, "GT")), e.broadcastInDim(l, x!.shape, [...bd, r - 2]), updated);
    return [e.add(j!, i32(1)), next, nextPivots, permSwapped];
  };
  const [, lu, pivots, perm] = bind("while", state, { cond: trace(avals, cond).graph, body: trace(avals, body).graph });
  return [lu!, pivots!, perm!];
}

/** Factorisations with more than this many pivots work in blocks of this many columns. */
const kBlock = 64;

/**
 * luLoop's factorisation, blocked for larger matrices: each block of columns is luLoop on the panel
 * below the diagonal; its row swaps are applied to the columns on both sides, U's block row beside
 * it comes from a triangular solve, and one product updates the trailing matrix. Same results.
 */
export function luOf(a: T, pivot: boolean): [T, T, T] {
  const r = a.ndim;
  const [m, n] = a.shape.slice(-2) as [number, number];
  const kmin = Math.min(m, n);
  if (kmin <= kBlock) return luLoop(a, pivot);
  const batch = a.shape.slice(0, -2);
  const bd = batchDims(batch.length);
  const block = (x: T, r0: number, r1: number, c0: number, c1: number) => e.slice(x, [...batch.map(() => 0), r0, c0], [...batch, r1, c1]);
  const rowsOut: T[] = [];
  const pivotsOut: T[] = [];
  const orderOut: T[] = [];
  let rest = a; // rows k.., columns k..
  let left: T | undefined; // rows k.. of the columns before k
  let order = e.broadcastTo(e.iota("int32", [m], 0), [...batch, m]); // which row of a each row k.. is
  for (let k = 0; k < kmin; k += kBlock) {
    const b = Math.min(kBlock, kmin - k);
    const [rows, cols] = [m - k, n - k];
    const [panel, pivots, perm] = luLoop(block(rest, 0, rows, 0, b), pivot);
    const swapRows = (x: T) => e.gatherAlong(x, e.broadcastInDim(perm, x.shape, [...bd, r - 2]), r - 2);
    if (left !== undefined) left = swapRows(left);
    order = e.gatherAlong(order, perm, r - 2);
    pivotsOut.push(e.add(pivots, e.full(k, "int32", pivots.shape)));
    const top = [...(left === undefined ? [] : [block(left, 0, b, 0, k)]), block(panel, 0, b, 0, b)];
    if (cols > b) {
      const right = swapRows(block(rest, 0, rows, b, cols));
      const u12 = solveTriangular(block(panel, 0, b, 0, b), block(right, 0, b, 0, cols - b), { lower: true, unit: true });
      top.push(u12);
      if (rows > b) rest = e.sub(block(right, b, rows, 0, cols - b), mm(block(panel, b, rows, 0, b), u12));
    }
    rowsOut.push(top.length === 1 ? top[0]! : e.concatenate(top, r - 1));
    orderOut.push(e.slice(order, order.shape.map(() => 0), [...batch, b]));
    if (rows > b) {
      const below = block(panel, b, rows, 0, b);
      left = left === undefined ? below : e.concatenate([block(left, b, rows, 0, k), below], r - 1);
      order = e.slice(order, [...batch.map(() => 0), b], [...batch, rows]);
    }
  }
  // a tall matrix's rows below the last pivot: L's rows only
  if (m > kmin) rowsOut.push(left!), orderOut.push(order);
  return [e.concatenate(rowsOut, r - 2), e.concatenate(pivotsOut, r - 2), e.concatenate(orderOut, r - 2)];
}

/** The permutation matrices Q [..., m, m] with Q[i, c] = 1 where c = perm[i]: (Q B) row i is B's row perm[i]. */
export function gatherMatrix(perm: T, dtype: T["dtype"]): T {
  const m = perm.shape[perm.ndim - 1]!;
  const shape = [...perm.shape, m];
  const cols = e.iota("int32", shape, shape.length - 1);
  return e.convert(e.compare(e.broadcastInDim(perm, shape, batchDims(perm.ndim)), cols, "EQ"), dtype);
}

/** The row permutation [..., m] that the 1-based sequential swaps `pivots` [..., k] make, by a device loop. */
export function permutationOf(pivots: T, m: number): T {
  const k = pivots.shape[pivots.ndim - 1]!;
  const batch = pivots.shape.slice(0, -1);
  const bd = batchDims(batch.length);
  const state = [i32(0), pivots, e.broadcastTo(e.iota("int32", [m], 0), [...batch, m])];
  const avals = state.map((t) => ({ shape: t.shape, dtype: t.dtype }));
  const cond = ([j]: T[]) => e.compare(j!, i32(k), "LT");
  const body = ([j, piv, perm]: T[]) => {
    const p = e.sub(pick(piv!, j!), i32(1, batch));
    const index = e.iota("int32", perm!.shape, perm!.ndim - 1);
    const swapped = e.select(e.compare(index, e.broadcastTo(j!, perm!.shape), "EQ"), e.broadcastInDim(pick(perm!, p), perm!.shape, bd),
      e.select(e.compare(index, e.broadcastInDim(p, perm!.shape, bd), "EQ"), e.broadcastInDim(pick(perm!, j!), perm!.shape, bd), perm!));
    return [e.add(j!, i32(1)), piv!, swapped];
  };
  return bind("while", state, { cond: trace(avals, cond).graph, body: trace(avals, body).graph })[2]!;
}

/**
 * X with A X = B (left) or X A = B, or with Aᵀ (adjoint), for A = Pᵀ L U given by `lu` and `perm`
 * (luLoop's, equal batch dims): triangular solves and a permutation product.
 */
export function luSolveWith(lu: T, perm: T, b: T, left: boolean, adjoint: boolean): T {
  const q = gatherMatrix(perm, lu.dtype); // Q A = L U
  const L = { lower: true, unit: true };
  const U = { lower: false };
  if (left && !adjoint) return solveTriangular(lu, solveTriangular(lu, mm(q, b), L), U);
  if (left) return mm(mT(q), solveTriangular(lu, solveTriangular(lu, b, { ...U, transpose: true }), { ...L, transpose: true }));
  if (!adjoint) return mm(solveTriangular(lu, solveTriangular(lu, b, { ...U, left: false }), { ...L, left: false }), q);
  return solveTriangular(lu, solveTriangular(lu, mm(b, mT(q)), { ...L, left: false, transpose: true }), { ...U, left: false, transpose: true });
}

/** Per matrix, the 1-based index of the first zero on LU's diagonal (int32 [...]; 0: none). */
export function firstZeroPivot(lu: T): T {
  const [m, n] = lu.shape.slice(-2) as [number, number];
  const k = Math.min(m, n);
  if (k === 0) return i32(0, lu.shape.slice(0, -2));
  const diag = diagonalBody(lu, 0, -2, -1);
  const order = e.add(e.iota("int32", diag.shape, diag.ndim - 1), i32(1, diag.shape));
  const none = i32(k + 1, diag.shape);
  const first = e.reduce("min", e.select(e.compare(diag, e.full(0, diag.dtype, diag.shape), "EQ"), order, none), [diag.ndim - 1]);
  return e.select(e.compare(first, i32(k + 1, first.shape), "EQ"), i32(0, first.shape), first);
}

/** LU, pivots and info of a checked input. */
function factorUnit(op: string, A: Tensor, pivot: boolean): [Tensor, Tensor, Tensor] {
  checkMatrix(op, A);
  const dtype = linalgDType(op, A);
  const outs = runMany(op, [A], `${pivot ? 1 : 0}`, ([a]) => {
    const [lu, pivots] = luOf(e.convert(a!, dtype), pivot);
    return [lu, pivots, firstZeroPivot(lu)];
  });
  return outs as [Tensor, Tensor, Tensor];
}

const zeroPivot = (op: string) => (at: string, k: number) =>
  `torch.${op}: ${at}U[${k},${k}] is zero and using it on luSolve would result in a division by zero. If you still want to perform the factorization, consider calling linalg.lu(A, { pivot }) or linalg.luFactorEx(A, { pivot })`;

export const luFactor = op(
  "linalg.luFactor(A: Tensor, *, pivot: bool = true) -> LUPivots",
  {
    doc: "`{ LU, pivots }`: the LU factorisation with partial pivoting of A [..., m, n] (A = P L U with L unit lower triangular, stored below LU's diagonal, and U upper triangular) and the 1-based row swaps pivots (int32 [..., min(m, n)]). An exactly singular U (a zero on its diagonal) raises LinAlgError, as in PyTorch (a host read; not inside torch.compile). float32/float64. pivot = false factors without row swaps.",
  },
  ({ A, pivot }): LUPivots => {
    const [LU, pivots, info] = factorUnit("linalg.luFactor", A, pivot);
    raiseOnInfo(info, [LU, pivots], zeroPivot("linalg.luFactor"));
    info.dispose();
    return { LU, pivots };
  },
);

export const luFactorEx = op(
  "linalg.luFactorEx(A: Tensor, *, pivot: bool = true, checkErrors: bool = false) -> LUPivotsInfo",
  { doc: "`{ LU, pivots, info }`: luFactor's factorisation and, per matrix, the 1-based index of U's first zero diagonal element (int32, 0: none); no error unless checkErrors." },
  ({ A, pivot, checkErrors }): LUPivotsInfo => {
    const [LU, pivots, info] = factorUnit("linalg.luFactorEx", A, pivot);
    if (checkErrors) raiseOnInfo(info, [LU, pivots], zeroPivot("linalg.luFactorEx"));
    return { LU, pivots, info };
  },
);

export const lu = op(
  "linalg.lu(A: Tensor, *, pivot: bool = true) -> PLU",
  {
    doc: "`{ P, L, U }` with A = P L U for A [..., m, n]: P a permutation matrix [..., m, m] (in A's dtype), L unit lower triangular [..., m, k] and U upper triangular [..., k, n], k = min(m, n); partial pivoting (pivot = false: P is the identity). Singular matrices are fine (U has zeros on its diagonal). float32/float64.",
  },
  ({ A, pivot }): PLU => {
    const op = "linalg.lu";
    checkMatrix(op, A);
    const dtype = linalgDType(op, A);
    const [perm, L, U] = runMany(op, [A], `${pivot ? 1 : 0}`, ([a]) => {
      const x = e.convert(a!, dtype);
      const [m, n] = x.shape.slice(-2) as [number, number];
      const k = Math.min(m, n);
      const [lu, , perm] = luOf(x, pivot);
      const batch = x.shape.slice(0, -2);
      const zero = x.shape.map(() => 0);
      const left = e.slice(lu, zero, [...batch, m, k]);
      const [r, c] = rowsCols(left.shape);
      const unit = e.add(triangle(left, "GT"), e.convert(e.compare(r, c, "EQ"), dtype));
      return [perm, unit, triangle(e.slice(lu, zero, [...batch, k, n]), "LE")];
    });
    // P from the integer permutation in a unit of its own: as in PyTorch, it does not require grad
    const P = run(op, [perm!], dtype, ([q]) => mT(gatherMatrix(q as T, dtype)));
    perm!.dispose();
    return { P, L: L!, U: U! };
  },
);

export const luSolve = op(
  "linalg.luSolve(LU: Tensor, pivots: Tensor, B: Tensor, *, left: bool = true, adjoint: bool = false) -> Tensor",
  {
    doc: "X with A X = B (left) or X A = B, or with Aᵀ when adjoint, from luFactor's LU [..., n, n] and pivots [..., n] (int32, LU's batch shape) of A; B is [..., n, k] (left) or [..., k, n] of LU's dtype, its batch dims broadcast with LU's. float32/float64.",
  },
  ({ LU, pivots, B, left, adjoint }) => {
    const op = "linalg.luSolve";
    const n = checkSquare(op, LU, "LU");
    checkMatrix(op, B, "B");
    const dtype = linalgDType(op, LU, B);
    if (LU.dtype !== B.dtype) throw new DTypeError(`${op}: Expected LU and B to have the same dtype, but found LU of type ${LU.dtype} and B of type ${B.dtype} instead`);
    if (pivots.dtype !== "int32") throw new DTypeError(`${op}: pivots must be an int32 tensor (luFactor's), got ${pivots.dtype}`);
    if (pivots.ndim !== LU.ndim - 1 || pivots.shape.some((d, i) => d !== LU.shape[i])) {
      throw new ShapeError(`${op}: Expected LU.shape[:-1] and pivots.shape to be the same, but got pivots with shape ${fmtShape(pivots.shape)} for LU ${fmtShape(LU.shape)}`);
    }
    if (B.shape[B.ndim - (left ? 2 : 1)] !== n) {
      throw new ShapeError(`${op}: Incompatible shapes of A and B for the equation ${left ? "AX = B" : "XA = B"} (${n}x${n} and ${B.shape.slice(-2).join("x")})`);
    }
    const batch = broadcastShapes(op, LU.shape.slice(0, -2), B.shape.slice(0, -2));
    return run(op, [LU, pivots, B], `${left ? 1 : 0}|${adjoint ? 1 : 0}`, ([l0, p0, b0]) => {
      const lu = e.broadcastTo(e.convert(l0 as T, dtype), [...batch, n, n]);
      const perm = permutationOf(e.broadcastTo(p0 as T, [...batch, n]), n);
      const b = e.broadcastTo(e.convert(b0 as T, dtype), [...batch, ...B.shape.slice(-2)]);
      return luSolveWith(lu, perm, b, left, adjoint);
    });
  },
);
