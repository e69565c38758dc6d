/**
 * @file Determinants: torch.linalg.det and det, linalg.slogdet and slogdet, logdet. From an LU
 * factorisation with partial pivoting (lu.ts): the product of U's diagonal, its sign flipped once per
 * row swap. A singular matrix gives 0 (sign 0, logabsdet −inf). Gradients are PyTorch's formulas
 * (g · det · A⁻ᵀ, g · A⁻ᵀ) for invertible matrices; for a singular one the gradient is 0 here, where
 * PyTorch's is the adjugate's (docs/differences.md).
 */
import type { Tensor } from "../../tensor.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import type { SignLogabsdet } from "../types.js";
import { diagonalBody } from "../shape/diagonals.js";
import { run, runMany } from "../unit.js";
import { firstZeroPivot, luOf, luSolveWith } from "./lu.js";
import { checkSquare, eye, linalgDType, needsGrad, type T, withTangent } from "./matrices.js";

interface Parts {
  /** ±1 (0 for a singular matrix), [...]. */
  sign: T;
  /** log |det|, [...]. */
  logabs: T;
  /** The product of U's diagonal with the swaps' sign, [...]. */
  det: T;
  /** tr(A⁻¹ A') as a function of A (zero where A is singular), for the gradients: linear in `a`. */
  traceTangent: () => T;
}

function partsOf(a: T): Parts {
  const n = a.shape[a.ndim - 1]!;
  const [lu, pivots, perm] = luOf(e.stopGradient(a), true);
  const diag = diagonalBody(lu, 0, -2, -1);
  const last = diag.ndim - 1;
  const swaps = e.compare(pivots, e.add(e.iota("int32", pivots.shape, last), e.full(1, "int32", pivots.shape)), "NE");
  const odd = e.compare(e.rem(e.reduce("sum", e.convert(swaps, "int32"), [last]), e.full(2, "int32", diag.shape.slice(0, -1))), e.full(1, "int32", diag.shape.slice(0, -1)), "EQ");
  const flip = e.select(odd, e.full(-1, a.dtype, odd.shape), e.full(1, a.dtype, odd.shape));
  return {
    sign: e.mul(flip, e.reduce("prod", e.sign(diag), [last])),
    logabs: e.reduce("sum", e.log(e.abs(diag)), [last]),
    det: e.mul(flip, e.reduce("prod", diag, [last])),
    traceTangent: () => {
      const inverse = luSolveWith(lu, perm, eye(a.shape, a.dtype), true, false);
      const singular = e.compare(firstZeroPivot(lu), e.full(0, "int32", diag.shape.slice(0, -1)), "NE");
      const bd = Array.from({ length: a.ndim - 2 }, (_, i) => i);
      const x = e.select(e.broadcastInDim(singular, a.shape, bd), e.full(0, a.dtype, a.shape), inverse);
      // tr(X A) = Σ Xᵀ ⊙ A
      const perm2 = [...bd, a.ndim - 1, a.ndim - 2];
      return n === 0 ? e.full(0, a.dtype, diag.shape.slice(0, -1)) : e.reduce("sum", e.mul(e.transpose(x, perm2), a), [a.ndim - 2, a.ndim - 1]);
    },
  };
}

/** log |det|, carrying its tangent when the gradient is needed. */
function logabsOf(p: Parts, grad: boolean): T {
  return grad ? withTangent(p.logabs, p.traceTangent()) : p.logabs;
}

function determinant(op: string, A: Tensor): Tensor {
  checkSquare(op, A);
  const dtype = linalgDType(op, A);
  const grad = needsGrad(A);
  return run(op, [A], grad ? "grad" : "", ([a0]) => {
    const p = partsOf(e.convert(a0 as T, dtype));
    return grad ? withTangent(p.det, e.mul(p.det, p.traceTangent())) : p.det;
  });
}

function signLogabs(op: string, A: Tensor): SignLogabsdet {
  checkSquare(op, A);
  const dtype = linalgDType(op, A);
  const grad = needsGrad(A);
  const [sign, logabsdet] = runMany(op, [A], grad ? "grad" : "", ([a0]) => {
    const p = partsOf(e.convert(a0!, dtype));
    return [p.sign, logabsOf(p, grad)];
  });
  return { sign: sign!, logabsdet: logabsdet! };
}

export const det = op(
  "linalg.det(A: Tensor) -> Tensor",
  { doc: "The determinants of the square matrices A [..., n, n] (shape [...]), from LU with partial pivoting; 0 for a singular matrix. float32/float64." },
  ({ A }) => determinant("linalg.det", A),
);

export const detFunction = op(
  "det(input: Tensor) -> Tensor",
  { doc: "linalg.det: the determinants of the square matrices in the last two dims.", method: true },
  ({ input }) => determinant("det", input),
);

export const slogdet = op(
  "linalg.slogdet(A: Tensor) -> SignLogabsdet",
  { doc: "`{ sign, logabsdet }`: the sign (±1, 0 when singular) and log |det| (−inf when singular) of the square matrices A [..., n, n], from LU with partial pivoting; float32/float64." },
  ({ A }): SignLogabsdet => signLogabs("linalg.slogdet", A),
);

export const slogdetFunction = op(
  "slogdet(input: Tensor) -> SignLogabsdet",
  { doc: "linalg.slogdet: `{ sign, logabsdet }` of the square matrices in the last two dims.", method: true },
  ({ input }): SignLogabsdet => signLogabs("slogdet", input),
);

export const logdet = op(
  "logdet(input: Tensor) -> Tensor",
  { doc: "log det of the square matrices in the last two dims: NaN where det < 0, −inf where it is 0. float32/float64.", method: true },
  ({ input }) => {
    checkSquare("logdet", input);
    const dtype = linalgDType("logdet", input);
    const grad = needsGrad(input);
    return run("logdet", [input], grad ? "grad" : "", ([a0]) => {
      const p = partsOf(e.convert(a0 as T, dtype));
      const logabs = logabsOf(p, grad);
      return e.select(e.compare(p.sign, e.full(0, dtype, p.sign.shape), "LT"), e.full(NaN, dtype, logabs.shape), logabs);
    });
  },
);
