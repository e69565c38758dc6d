/**
 * @file torch.linalg.solveTriangular: X with A X = B (left) or X A = B for triangular A, and
 * torch.triangularSolve, PyTorch's deprecated form (B first, upper by default, A transposed on
 * request, A's copy returned too): triangular_solve primitives, whose VJP is PyTorch's formula.
 */
import { DTypeError, ShapeError } from "../../runtime/errors.js";
import { fmtShape } from "../dims.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import type { SolutionCoefficient } from "../types.js";
import { run, runMany } from "../unit.js";
import { batchOf, checkMatrix, checkSquare, linalgDType, solveTriangular as solve, type T } from "./matrices.js";

export const solveTriangular = op(
  "linalg.solveTriangular(input: Tensor, B: Tensor, *, upper: bool, left: bool = true, unitriangular: bool = false) -> Tensor",
  {
    doc: "X with A X = B (left) or X A = B for the upper (or lower) triangular matrices A [..., n, n] and B [..., n, k] (left) or [..., k, n]; batch dims broadcast. Only A's upper (lower) triangle is read, its diagonal taken as ones with unitriangular. A float32/float64; B is converted to A's dtype, the result's.",
  },
  ({ input: A, B, upper, left, unitriangular }) => {
    const op = "linalg.solveTriangular";
    const n = checkSquare(op, A);
    checkMatrix(op, B, "B");
    const dtype = linalgDType(op, A); // PyTorch's: B (of any dtype) is converted to A's
    const k = B.shape[B.ndim - (left ? 2 : 1)];
    if (k !== n) {
      const equation = left ? "AX = B" : "XA = B";
      throw new ShapeError(`${op}: Incompatible shapes of A and B for the equation ${equation} (${n}x${n} and ${B.shape.slice(-2).join("x")}; shapes ${fmtShape(A.shape)} and ${fmtShape(B.shape)})`);
    }
    const batch = batchOf(op, A.shape, B.shape);
    return run(op, [A, B], `${upper ? 1 : 0}|${left ? 1 : 0}|${unitriangular ? 1 : 0}`, ([a, b]) => {
      const lhs = e.broadcastTo(e.convert(a as T, dtype), [...batch, n, n]);
      const rhs = e.broadcastTo(e.convert(b as T, dtype), [...batch, ...B.shape.slice(-2)]);
      return solve(lhs, rhs, { left, lower: !upper, unit: unitriangular });
    });
  },
);

export const triangularSolve = op(
  "triangularSolve(input: Tensor, A: Tensor, upper: bool = true, transpose: bool = false, unitriangular: bool = false) -> SolutionCoefficient",
  {
    doc: "Deprecated in PyTorch for linalg.solveTriangular: `{ solution, clonedCoefficient }` with op(A) X = B for B (`input`, [..., n, k]) and triangular A [..., n, n] (op(A) = Aᵀ with transpose), batch dims broadcast, and a copy of A broadcast to the batch. One float32/float64 dtype.",
    method: true,
  },
  ({ input: B, A, upper, transpose, unitriangular }): SolutionCoefficient => {
    const op = "triangularSolve";
    if (B.ndim < 2) throw new ShapeError(`${op}: Expected b to have at least 2 dimensions, but it has ${B.ndim} dimensions instead`);
    const n = checkSquare(op, A);
    const dtype = linalgDType(op, B, A);
    if (A.dtype !== B.dtype) throw new DTypeError(`${op}: Expected b and A to have the same dtype, but found b of type ${B.dtype} and A of type ${A.dtype} instead`);
    if (B.shape[B.ndim - 2] !== n) {
      throw new ShapeError(`${op}: Incompatible matrix sizes for triangular_solve: each A matrix is ${n} by ${n} but each b matrix is ${B.shape.slice(-2).join(" by ")}`);
    }
    const batch = batchOf(op, A.shape, B.shape);
    const [solution, clonedCoefficient] = runMany(op, [B, A], `${upper ? 1 : 0}|${transpose ? 1 : 0}|${unitriangular ? 1 : 0}`, ([b, a]) => {
      const lhs = e.broadcastTo(e.convert(a!, dtype), [...batch, n, n]);
      const rhs = e.broadcastTo(e.convert(b!, dtype), [...batch, ...B.shape.slice(-2)]);
      return [solve(lhs, rhs, { lower: !upper, unit: unitriangular, transpose }), lhs];
    });
    return { solution: solution!, clonedCoefficient: clonedCoefficient! };
  },
);
