/**
 * @file torch.linalg.solve and solveEx, linalg.inv and invEx, torch.inverse: an LU factorisation with
 * partial pivoting (lu.ts) and triangular solves. An exactly singular matrix (a zero pivot) raises
 * LinAlgError in eager mode, as in PyTorch (its info is read back to the host); inside torch.compile
 * it cannot, and the result has infinities or NaNs. Gradients are PyTorch's: gB = A⁻ᵀ gX, gA = −gB Xᵀ
 * (left), inv's −A⁻ᵀ g A⁻ᵀ.
 */
import { DTypeError, ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import { fmtShape } from "../dims.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import type { InverseInfo, ResultInfo } from "../types.js";
import { runMany } from "../unit.js";
import { firstZeroPivot, luOf, luSolveWith } from "./lu.js";
import { batchOf, checkSquare, eye, linalgDType, mm, needsGrad, raiseOnInfo, type T, withTangent } from "./matrices.js";

/** The inverse of each matrix in `a` [..., n, n] and the first zero pivot per matrix (int32 [...]; 0: none), with inv's gradient when `grad`. */
export function inverseOf(a: T, grad: boolean): [T, T] {
  const [lu, , perm] = luOf(e.stopGradient(a), true);
  const x = luSolveWith(lu, perm, eye(a.shape, a.dtype), true, false);
  return [grad ? withTangent(x, e.neg(mm(x, mm(a, x)))) : x, firstZeroPivot(lu)];
}

/** The inverses and info of a checked input. */
function inverseUnit(op: string, A: Tensor): [Tensor, Tensor] {
  checkSquare(op, A);
  const dtype = linalgDType(op, A);
  const grad = needsGrad(A);
  const [x, info] = runMany(op, [A], grad ? "grad" : "", ([a]) => inverseOf(e.convert(a!, dtype), grad));
  return [x!, info!];
}

const singularInverse = (op: string) => (at: string, k: number) =>
  `${op}: ${at}The diagonal element ${k} is zero, the inversion could not be completed because the input matrix is singular.`;

/** linalg.inv's work under the name `op`: the inverses, or LinAlgError for a singular matrix (eager mode). */
export function invert(op: string, A: Tensor): Tensor {
  const [x, info] = inverseUnit(op, A);
  raiseOnInfo(info, [x], singularInverse(op));
  info.dispose();
  return x;
}

export const inv = op(
  "linalg.inv(A: Tensor) -> Tensor",
  { doc: "The inverses of the square matrices A [..., n, n], by LU with partial pivoting. An exactly singular matrix raises LinAlgError (a host read; inside torch.compile the result is inf/NaN instead). float32/float64." },
  ({ A }) => invert("linalg.inv", A),
);

export const inverse = op(
  "inverse(input: Tensor) -> Tensor",
  { doc: "linalg.inv: the inverses of the square matrices in the last two dims.", method: true },
  ({ input }) => invert("inverse", input),
);

export const invEx = op(
  "linalg.invEx(A: Tensor, *, checkErrors: bool = false) -> InverseInfo",
  { doc: "`{ inverse, info }`: linalg.inv's inverses and, per matrix, the 1-based index of the first zero pivot of its LU factorisation (int32, 0 when invertible; the inverse is then inf/NaN); no error unless checkErrors." },
  ({ A, checkErrors }): InverseInfo => {
    const [inverse, info] = inverseUnit("linalg.invEx", A);
    if (checkErrors) raiseOnInfo(info, [inverse], singularInverse("linalg.invEx"));
    return { inverse, info };
  },
);

/** X and info of linalg.solve's checked arguments. */
function solveUnit(op: string, A: Tensor, B: Tensor, left: boolean): [Tensor, Tensor] {
  const n = checkSquare(op, A);
  if (B.ndim < 1) throw new ShapeError(`${op}: The input tensor B must have at least 1 dimension, got shape ${fmtShape(B.shape)}`);
  linalgDType(op, A, B);
  if (A.dtype !== B.dtype) throw new DTypeError(`${op}: Expected A and B to have the same dtype, but found A of type ${A.dtype} and B of type ${B.dtype} instead`);
  const vector = B.ndim === 1 || (B.ndim === A.ndim - 1 && B.shape.every((d, i) => d === A.shape[i]));
  const bShape = vector ? [...B.shape, 1] : B.shape;
  const [rows, cols] = bShape.slice(-2) as [number, number];
  if ((left ? rows : cols) !== n) {
    throw new ShapeError(`${op}: Incompatible shapes of A and B for the equation ${left ? "AX = B" : "XA = B"} (${n}x${n} and ${rows}x${cols}; shapes ${fmtShape(A.shape)} and ${fmtShape(B.shape)})`);
  }
  const batch = batchOf(op, A.shape, bShape);
  const grad = needsGrad(A);
  const [x, info] = runMany(op, [A, B], `${left ? 1 : 0}|${grad ? 1 : 0}`, ([a0, b0]) => {
    const a = e.broadcastTo(a0!, [...batch, n, n]);
    const b = e.broadcastTo(e.reshape(b0!, bShape), [...batch, rows, cols]);
    const [lu, , perm] = luOf(e.stopGradient(a), true);
    let x = luSolveWith(lu, perm, b, left, false);
    // dX = −A⁻¹ dA X (left) or −X dA A⁻¹
    if (grad) x = withTangent(x, e.neg(left ? luSolveWith(lu, perm, mm(a, e.stopGradient(x)), true, false) : luSolveWith(lu, perm, mm(e.stopGradient(x), a), false, false)));
    return [vector ? e.reshape(x, [...batch, rows]) : x, firstZeroPivot(lu)];
  });
  return [x!, info!];
}

const singularSolve = (at: string) => `torch.linalg.solve: ${at}The solver failed because the input matrix is singular.`;

/** linalg.solve's work under the name `op`: X, or LinAlgError for a singular matrix (eager mode). */
export function solveChecked(op: string, A: Tensor, B: Tensor, left: boolean): Tensor {
  const [x, info] = solveUnit(op, A, B, left);
  raiseOnInfo(info, [x], singularSolve);
  info.dispose();
  return x;
}

export const solve = op(
  "linalg.solve(A: Tensor, B: Tensor, *, left: bool = true) -> Tensor",
  {
    doc: "X with A X = B (left) or X A = B for square A [..., n, n] and B [..., n, k] (left) or [..., k, n]; batch dims broadcast. B may be a vector [n] or a batch of vectors [..., n] (A's batch shape), giving X of B's shape. An exactly singular A raises LinAlgError (a host read; not inside torch.compile). float32/float64, one dtype.",
  },
  ({ A, B, left }) => solveChecked("linalg.solve", A, B, left),
);

export const solveEx = op(
  "linalg.solveEx(A: Tensor, B: Tensor, *, left: bool = true, checkErrors: bool = false) -> ResultInfo",
  { doc: "`{ result, info }`: linalg.solve's X and, per matrix, the 1-based index of the first zero pivot of A's LU factorisation (int32, 0 when A is invertible); no error unless checkErrors." },
  ({ A, B, left, checkErrors }): ResultInfo => {
    const [result, info] = solveUnit("linalg.solveEx", A, B, left);
    if (checkErrors) raiseOnInfo(info, [result], singularSolve);
    return { result, info };
  },
);
