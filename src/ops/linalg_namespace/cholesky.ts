/**
 * @file torch.linalg.cholesky and choleskyEx, torch.cholesky (deprecated), choleskySolve and
 * choleskyInverse. The factor comes from a device while loop over columns (right-looking: column j
 * is scaled by √a_jj and its outer product leaves the trailing matrix), on blocks of 64 columns for
 * larger matrices (the panels below by triangular solves, the trailing matrix by matrix products). A matrix that is not
 * positive-definite makes the failing column's pivot NaN, and every column after it; `info` is the
 * order of the first leading minor that is not positive-definite (0: none). In eager mode
 * linalg.cholesky reads info back to the host and raises LinAlgError, as PyTorch does; inside
 * torch.compile's trace it cannot, and the factor is NaN from that column on (docs/differences.md).
 *
 * Gradients are PyTorch's: cholesky's gA = sym(L⁻ᵀ Φ(Lᵀ gL) L⁻¹) (Φ: the lower triangle with half the
 * diagonal), and choleskySolve's and choleskyInverse's treat the factor as a full matrix in A = L Lᵀ.
 */
import { DTypeError, ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import { bind, trace } from "../../trace/tracer.js";
import { fmtShape } from "../dims.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import type { LInfo } from "../types.js";
import { run, runMany } from "../unit.js";
import { batchOf, checkMatrix, checkSquare, linalgDType, mm, mT, needsGrad, raiseOnInfo, rowsCols, solveTriangular, type T, triangle, withTangent } from "./matrices.js";

/** The lower Cholesky factor of the symmetric matrices `a` [..., n, n] (their lower triangle read) and info (int32 [...]). */
export function choleskyLoop(a: T): [T, T] {
  const n = a.shape[a.ndim - 1]!;
  const batch = a.shape.slice(0, -2);
  const r = a.ndim;
  const state = [e.full(0, "int32", []), a, e.full(0, "int32", batch)];
  const avals = state.map((t) => ({ shape: t.shape, dtype: t.dtype }));
  const cond = ([j]: T[]) => e.compare(j!, e.full(n, "int32", []), "LT");
  const body = ([j, m, info]: T[]) => {
    const [rows, cols] = rowsCols(m!.shape);
    const at = e.broadcastTo(j!, m!.shape);
    const column = e.reduce("sum", e.select(e.compare(cols, at, "EQ"), m!, e.full(0, m!.dtype, m!.shape)), [r - 1]);
    const index = e.iota("int32", column.shape, r - 2);
    const jv = e.broadcastTo(j!, column.shape);
    const pivot = e.reduce("sum", e.select(e.compare(index, jv, "EQ"), column, e.full(0, column.dtype, column.shape)), [r - 2]);
    const failed = e.and(e.not(e.compare(pivot, e.full(0, pivot.dtype, batch), "GT")), e.compare(info!, e.full(0, "int32", batch), "EQ"));
    const nextInfo = e.select(failed, e.broadcastTo(e.add(j!, e.full(1, "int32", [])), batch), info!);
    const scaled = e.div(column, e.broadcastInDim(e.sqrt(pivot), column.shape, batch.map((_, i) => i)));
    const below = e.select(e.compare(index, jv, "GT"), scaled, e.full(0, scaled.dtype, scaled.shape));
    const outer = e.mul(e.broadcastInDim(below, m!.shape, [...batch.map((_, i) => i), r - 2]), e.broadcastInDim(below, m!.shape, [...batch.map((_, i) => i), r - 1]));
    const updated = e.sub(m!, outer);
    const inColumn = e.and(e.compare(cols, at, "EQ"), e.compare(rows, at, "GE"));
    const next = e.select(inColumn, e.broadcastInDim(scaled, m!.shape, [...batch.map((_, i) => i), r - 2]), updated);
    return [e.add(j!, e.full(1, "int32", [])), next, nextInfo];
  };
  const [, m, info] = bind("while", state, { cond: trace(avals, cond).graph, body: trace(avals, body).graph });
  return [triangle(m!, "GE"), info!];
}

/** Matrices larger than this are factored in blocks of this many columns. */
const kBlock = 64;

/**
 * The lower Cholesky factor and info of `a` (its lower triangle read), blocked: each block of
 * columns is choleskyLoop on its diagonal block, a triangular solve for the panel below it, and one
 * product taken from the trailing matrix, so most of the work is matrix products.
 */
export function choleskyOf(a: T): [T, T] {
  const n = a.shape[a.ndim - 1]!;
  if (n <= kBlock) return choleskyLoop(a);
  const batch = a.shape.slice(0, -2);
  const r = a.ndim;
  const block = (x: T, r0: number, r1: number, c0: number, c1: number) => e.slice(x, [...batch.map(() => 0), r0, c0], [...batch, r1, c1]);
  const panels: T[] = [];
  let info = e.full(0, "int32", batch);
  let rest = a;
  for (let k = 0; k < n; k += kBlock) {
    const b = Math.min(kBlock, n - k);
    const m = n - k;
    const [l11, i11] = choleskyLoop(block(rest, 0, b, 0, b));
    const zero = e.full(0, "int32", batch);
    const first = e.and(e.compare(info, zero, "EQ"), e.compare(i11, zero, "NE"));
    info = e.select(first, e.add(i11, e.full(k, "int32", batch)), info);
    let panel = l11;
    if (m > b) {
      const l21 = solveTriangular(l11, block(rest, b, m, 0, b), { left: false, lower: true, transpose: true });
      panel = e.concatenate([l11, l21], r - 2);
      rest = e.sub(block(rest, b, m, b, m), mm(l21, mT(l21)));
    }
    panels.push(k === 0 ? panel : e.concatenate([e.full(0, a.dtype, [...batch, k, b]), panel], r - 2));
  }
  return [e.concatenate(panels, r - 1), info];
}

/** The symmetric part (A + Aᵀ)/2. */
const sym = (a: T): T => e.mul(e.add(a, mT(a)), e.full(0.5, a.dtype, a.shape));

/** The lower factor of `a`, with cholesky's gradient when `grad`. */
function factorOf(a: T, grad: boolean): [T, T] {
  const [L, info] = choleskyOf(e.stopGradient(a));
  if (!grad) return [L, info];
  // dL = L Φ(L⁻¹ dA L⁻ᵀ) for symmetric dA
  const inner = solveTriangular(L, solveTriangular(L, sym(a), { lower: true }), { left: false, lower: true, transpose: true });
  const phi = e.sub(triangle(inner, "GE"), e.mul(triangle(inner, "EQ"), e.full(0.5, inner.dtype, inner.shape)));
  return [withTangent(L, mm(L, phi)), info];
}

/** Factor and info of a checked square float input. */
function factorUnit(op: string, A: Tensor, upper: boolean): [Tensor, Tensor] {
  checkSquare(op, A);
  const dtype = linalgDType(op, A);
  const grad = needsGrad(A);
  const [L, info] = runMany(op, [A], `${upper ? 1 : 0}|${grad ? 1 : 0}`, ([a]) => {
    // with upper, A's upper triangle is read (as LAPACK's): Aᵀ's lower one
    const x = e.convert(a!, dtype);
    const [l, i] = factorOf(upper ? mT(x) : x, grad);
    return [upper ? mT(l) : l, i];
  });
  return [L!, info!];
}

/** PyTorch's LinAlgError for a matrix that is not positive-definite (an eager host read). */
const raiseIfFailed = (op: string, info: Tensor, L: Tensor): void =>
  raiseOnInfo(info, [L], (at, order) => `${op}: ${at}The factorization could not be completed because the input is not positive-definite (the leading minor of order ${order} is not positive-definite).`);

/** The factor, or LinAlgError when a matrix is not positive-definite. */
function checkedFactor(name: string, A: Tensor, upper: boolean): Tensor {
  const [L, info] = factorUnit(name, A, upper);
  raiseIfFailed(name, info, L);
  info.dispose();
  return L;
}

export const cholesky = op(
  "linalg.cholesky(input: Tensor, *, upper: bool = false) -> Tensor",
  {
    doc: "The Cholesky factor L (lower triangular, A = L Lᵀ; with upper, U = Lᵀ) of the symmetric positive-definite matrices A [..., n, n]; only A's lower triangle is read (its upper one with upper). float32/float64. A matrix that is not positive-definite raises LinAlgError naming the failing leading minor (a host read); inside torch.compile its factor is NaN from that column on.",
  },
  ({ input: A, upper }) => checkedFactor("linalg.cholesky", A, upper),
);

export const choleskyEx = op(
  "linalg.choleskyEx(input: Tensor, *, upper: bool = false, checkErrors: bool = false) -> LInfo",
  {
    doc: "`{ L, info }`: linalg.cholesky's factor and, per matrix, the order of the first leading minor that is not positive-definite (int32, 0 when the factorisation succeeded); no error unless checkErrors. Where info > 0 the factor is NaN from that column on (PyTorch leaves LAPACK's partial result).",
  },
  ({ input: A, upper, checkErrors }): LInfo => {
    const [L, info] = factorUnit("linalg.choleskyEx", A, upper);
    if (checkErrors) raiseIfFailed("linalg.choleskyEx", info, L);
    return { L, info };
  },
);

export const choleskyDeprecated = op(
  "cholesky(input: Tensor, upper: bool = false) -> Tensor",
  { doc: "Deprecated in PyTorch for linalg.cholesky: the same factor, with `upper` positional.", method: true },
  ({ input, upper }) => checkedFactor("cholesky", input, upper),
);

export const choleskySolve = op(
  "choleskySolve(input: Tensor, input2: Tensor, upper: bool = false) -> Tensor",
  {
    doc: "X with A X = B for A = L Lᵀ (or Uᵀ U with upper) given B (`input`, [..., n, k]) and the Cholesky factor (`input2`, [..., n, n]); batch dims broadcast. Only the factor's lower (upper) triangle is read.",
    method: true,
  },
  ({ input: B, input2: L, upper }) => {
    const op = "choleskySolve";
    checkMatrix(op, B, "input");
    const n = checkSquare(op, L, "input2");
    if (B.shape[B.ndim - 2] !== n) {
      throw new ShapeError(`${op}: Incompatible matrix sizes for cholesky_solve: each A matrix is ${n} by ${n} but each b matrix is ${B.shape.slice(-2).join(" by ")} (shapes ${fmtShape(L.shape)} and ${fmtShape(B.shape)})`);
    }
    const dtype = linalgDType(op, B, L);
    if (B.dtype !== L.dtype) throw new DTypeError(`${op}: Expected b and A to have the same dtype, but found b of type ${B.dtype} and A of type ${L.dtype} instead`);
    const batch = batchOf(op, B.shape, L.shape);
    const grad = needsGrad(L);
    return run(op, [B, L], `${upper ? 1 : 0}|${grad ? 1 : 0}`, ([b0, l0]) => {
      const b = e.broadcastTo(e.convert(b0 as T, dtype), [...batch, ...B.shape.slice(-2)]);
      const full = e.broadcastTo(e.convert(l0 as T, dtype), [...batch, n, n]);
      const lower = upper ? mT(triangle(full, "LE")) : triangle(full, "GE");
      const fixed = e.stopGradient(lower);
      const solveWith = (rhs: T) => solveTriangular(fixed, solveTriangular(fixed, rhs, { lower: true }), { lower: true, transpose: true });
      const x = solveWith(b);
      if (!grad) return x;
      // dX = −A⁻¹ dA X with dA = dL Lᵀ + L dLᵀ over the whole factor, as PyTorch's formula
      const l = upper ? mT(full) : full;
      const dA = e.add(mm(l, mT(fixed)), mm(fixed, mT(l)));
      return withTangent(x, e.neg(solveWith(mm(dA, e.stopGradient(x)))));
    });
  },
);

export const choleskyInverse = op(
  "choleskyInverse(input: Tensor, upper: bool = false) -> Tensor",
  { doc: "The inverse of A = L Lᵀ (or Uᵀ U with upper) from its Cholesky factor `input` [..., n, n]; only the factor's lower (upper) triangle is read.", method: true },
  ({ input, upper }) => {
    const op = "choleskyInverse";
    const n = checkSquare(op, input, "input");
    const dtype = linalgDType(op, input);
    const grad = needsGrad(input);
    return run(op, [input], `${upper ? 1 : 0}|${grad ? 1 : 0}`, ([l0]) => {
      const full = e.convert(l0 as T, dtype);
      const lower = upper ? mT(triangle(full, "LE")) : triangle(full, "GE");
      const fixed = e.stopGradient(lower);
      const [r, c] = rowsCols(full.shape);
      const identity = e.convert(e.compare(r, c, "EQ"), dtype);
      const x = solveTriangular(fixed, solveTriangular(fixed, identity, { lower: true }), { lower: true, transpose: true });
      if (!grad || n === 0) return x;
      const l = upper ? mT(full) : full;
      const dA = e.add(mm(l, mT(fixed)), mm(fixed, mT(l)));
      const fx = e.stopGradient(x);
      return withTangent(x, e.neg(mm(fx, mm(dA, fx))));
    });
  },
);
