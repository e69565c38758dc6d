/**
 * @file What torch.linalg's factorisations and solvers share: PyTorch's checks of their matrix
 * arguments, batch broadcasting, and the batched matrix pieces their bodies are built from.
 *
 * Their gradients are PyTorch's formulas, not the calculus of the device loops that compute them: a
 * loop runs on inputs under stopGradient, and when an input requires grad the result gets
 * `withTangent(value, t)`, value + (t − stopGradient(t)) (zero), where t is linear in the inputs
 * with the factorisation's own Jacobian at this point. Without grad that term is not traced at all.
 */
import { isGradEnabled } from "../../autograd/grad_mode.js";
import { type DType, dtypes, resultType } from "../../dtype.js";
import { DTypeError, ShapeError, TorchError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import { tracing } from "../../trace/inline.js";
import { bind1, type Tracer } from "../../trace/tracer.js";
import { broadcastShapes, fmtShape } from "../dims.js";
import * as e from "../emit.js";
import { diagonalMask } from "../shape/diagonals.js";

export type T = Tracer;

/** torch.linalg.LinAlgError: a matrix the operation cannot handle (singular, not positive-definite). */
export class LinAlgError extends TorchError {
  override name = "LinAlgError";
}

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

/** ShapeError unless `A` has at least two dims. */
export function checkMatrix(op: string, A: Tensor, what = "A"): void {
  if (A.ndim < 2) throw new ShapeError(`${op}: The input tensor ${what} must have at least 2 dimensions, got shape ${fmtShape(A.shape)}`);
}

/** ShapeError unless `A` is batches of square matrices. */
export function checkSquare(op: string, A: Tensor, what = "A"): number {
  checkMatrix(op, A, what);
  const [rows, cols] = A.shape.slice(-2) as [number, number];
  if (rows !== cols) throw new ShapeError(`${op}: ${what} must be batches of square matrices, but they are ${rows} by ${cols} matrices (shape ${fmtShape(A.shape)})`);
  return rows;
}

/** DTypeError unless every tensor is float32 or float64 (PyTorch's CPU linalg); the dtype they compute in. */
export function linalgDType(op: string, ...ts: readonly Tensor[]): DType {
  for (const t of ts) {
    if (t.dtype !== "float32" && t.dtype !== "float64") {
      const why = dtypes[t.dtype].kind === "float" ? "is not supported (only float32 and float64)" : "is not a floating point dtype";
      throw new DTypeError(`${op}: Expected a float32 or float64 tensor, got ${t.dtype}, which ${why}; convert first, e.g. A.to("float32")`);
    }
  }
  return resultType(...ts.map((t) => ({ dtype: t.dtype, ndim: t.ndim })));
}

/** The broadcast batch shape of matrices `a` and `b` (their dims before the last two). */
export function batchOf(op: string, a: readonly number[], b: readonly number[]): number[] {
  return broadcastShapes(op, a.slice(0, -2), b.slice(0, -2));
}

/** Whether autograd will record this op: grad mode is on and an input requires grad. */
export const needsGrad = (...ts: readonly (Tensor | undefined)[]): boolean => isGradEnabled() && ts.some((t) => t?.requiresGrad === true);

/** Whether host reads (PyTorch's checks of a factorisation's info) are allowed: not inside torch.compile's trace. */
export const eager = (): boolean => tracing() === undefined;

/**
 * PyTorch's check of a factorisation's info (int32, one per matrix; 0: success) in eager mode: read
 * back to the host, and for the first nonzero code LinAlgError(`message(batchPrefix, code)`) after
 * disposing `outputs` and info. Inside torch.compile's trace nothing can be read: no check.
 */
export function raiseOnInfo(info: Tensor, outputs: readonly Tensor[], message: (batchPrefix: string, code: number) => string): void {
  if (!eager()) return;
  const codes = info.dataSync() as Int32Array;
  const batch = codes.findIndex((c) => c !== 0);
  if (batch < 0) return;
  const prefix = info.ndim > 0 ? `(Batch element ${batch}): ` : "";
  for (const t of [...outputs, info]) t.dispose();
  throw new LinAlgError(message(prefix, codes[batch]!));
}

/** `x`'s matrices transposed. */
export const mT = (x: T): T => e.transpose(x, [...range(x.ndim - 2), x.ndim - 1, x.ndim - 2]);

/** The batched matrix product of [..., n, k] and [..., k, m] (equal batch dims), at full precision. */
export function mm(a: T, b: T): T {
  const batch = range(a.ndim - 2);
  return e.dotGeneral(a, b, batch, batch, [a.ndim - 1], [b.ndim - 2], { exact: true });
}

/** Row and column indices of `shape`'s matrices (int32, shape `shape`). */
export const rowsCols = (shape: readonly number[]): [T, T] => [e.iota("int32", shape, shape.length - 2), e.iota("int32", shape, shape.length - 1)];

/** `x` where its matrices' row index stands in `direction` to the column index (GE: the lower triangle), 0 elsewhere. */
export function triangle(x: T, direction: "GE" | "GT" | "LE" | "LT" | "EQ"): T {
  const [r, c] = rowsCols(x.shape);
  return e.select(e.compare(r, c, direction), x, e.full(0, x.dtype, x.shape));
}

/** Identity matrices of `shape` [..., n, n]. */
export function eye(shape: readonly number[], dtype: DType): T {
  return e.convert(diagonalMask(shape, 0), dtype);
}

export interface TriangularOptions {
  left?: boolean;
  lower: boolean;
  unit?: boolean;
  transpose?: boolean;
}

/** Triangles up to this size are one triangular_solve; larger ones are split in two (see solveTriangular). */
const kTriangle = 96;

/**
 * x with op(a) x = b (left) or x op(a) = b; equal batch dims. Up to kTriangle rows one
 * triangular_solve; larger triangles are split into 2 × 2 blocks, solved for one half, the product
 * with the off-diagonal block taken from the other half's right side, and solved for that: most of
 * the work becomes matrix products (the CPU plugin's substitution kernel is O(n²) per column).
 */
export function solveTriangular(a: T, b: T, options: TriangularOptions): T {
  const { left = true, lower, unit = false, transpose = false } = options;
  const n = a.shape[a.ndim - 1]!;
  if (n <= kTriangle) return bind1("triangular_solve", [a, b], { left, lower, unitDiagonal: unit, transposeA: transpose });
  const h = Math.floor(n / 2);
  const batch = a.shape.slice(0, -2);
  const origin = batch.map(() => 0);
  const part = (x: T, r0: number, r1: number, c0: number, c1: number) => e.slice(x, [...origin, r0, c0], [...batch, r1, c1]);
  // M = op(a) in blocks: M11, M22 are op of a's diagonal blocks; the off-diagonal block of M's triangle
  const [a11, a22] = [part(a, 0, h, 0, h), part(a, h, n, h, n)];
  const mLower = lower !== transpose;
  const off = lower ? part(a, h, n, 0, h) : part(a, 0, h, h, n); // a21 or a12
  const m21or12 = transpose ? mT(off) : off; // M21 when mLower, else M12
  const [rows, cols] = b.shape.slice(-2) as [number, number];
  if (left) {
    const [b1, b2] = [part(b, 0, h, 0, cols), part(b, h, n, 0, cols)];
    if (mLower) {
      const x1 = solveTriangular(a11, b1, options);
      return e.concatenate([x1, solveTriangular(a22, e.sub(b2, mm(m21or12, x1)), options)], b.ndim - 2);
    }
    const x2 = solveTriangular(a22, b2, options);
    return e.concatenate([solveTriangular(a11, e.sub(b1, mm(m21or12, x2)), options), x2], b.ndim - 2);
  }
  const [b1, b2] = [part(b, 0, rows, 0, h), part(b, 0, rows, h, n)];
  if (mLower) {
    const x2 = solveTriangular(a22, b2, options);
    return e.concatenate([solveTriangular(a11, e.sub(b1, mm(x2, m21or12)), options), x2], b.ndim - 1);
  }
  const x1 = solveTriangular(a11, b1, options);
  return e.concatenate([x1, solveTriangular(a22, e.sub(b2, mm(x1, m21or12)), options)], b.ndim - 1);
}

/** `value` with the gradient of `t` (linear in the inputs): value + (t − stopGradient(t)). */
export function withTangent(value: T, t: T): T {
  return e.add(value, e.sub(t, e.stopGradient(t)));
}

/** A scalar (0-d int32) index for dynamic slices. */
export const int32 = (v: number): T => e.full(v, "int32", []);
