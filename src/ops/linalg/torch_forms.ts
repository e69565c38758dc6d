/**
 * @file torch.* linear-algebra functions PyTorch keeps beside torch.linalg's: chainMatmul
 * (linalg.multiDot of matrices), vander (linalg.vander's columns in decreasing powers by default)
 * and frobeniusNorm (linalg.vectorNorm of order 2 over at most two dims), each computed by the
 * torch.linalg op.
 */
import { defaultIntDType, isFloating } from "../../dtype.js";
import { ArgumentError, ShapeError } from "../../runtime/errors.js";
import { clone } from "../conversion.js";
import { full } from "../creation/filled.js";
import { fmtShape } from "../dims.js";
import { vectorNorm } from "../linalg_namespace/norms.js";
import { multiDot } from "../linalg_namespace/products.js";
import { vander as linalgVander } from "../linalg_namespace/vander.js";
import { flip } from "../shape/reordering.js";
import { op } from "../signature/op.js";

export const chainMatmul = op(
  "chainMatmul(...matrices: Tensor) -> Tensor",
  { doc: "Deprecated in PyTorch for linalg.multiDot: the product of one or more 2-d matrices, multiplied in the cheapest order (one matrix: a copy)." },
  ({ matrices }) => {
    if (matrices.length === 0) throw new ArgumentError("chainMatmul: expected one or more matrices");
    matrices.forEach((m, i) => {
      if (m.ndim !== 2) throw new ShapeError(`chainMatmul: every matrix must be 2-d, but matrix ${i} has shape ${fmtShape(m.shape)}`);
    });
    return matrices.length === 1 ? clone(matrices[0]!) : multiDot(matrices);
  },
);

export const vander = op(
  "vander(x: Tensor, N?: int, increasing: bool = false) -> Tensor",
  { doc: "The Vandermonde matrix [n, N] of the 1-d x: columns x^(N−1), …, x^1, x^0 (x^0 first with `increasing`); N defaults to n. Integer inputs give int64." },
  ({ x, N, increasing }) => {
    if (x.ndim !== 1) throw new ShapeError(`vander: x must be a one-dimensional tensor, got shape ${fmtShape(x.shape)}`);
    const cols = N ?? x.shape[0]!;
    if (cols < 0) throw new ArgumentError(`vander: N must be non-negative, got ${cols}`);
    if (cols < 2) return full([x.shape[0]!, cols], 1, { dtype: isFloating(x.dtype) ? x.dtype : defaultIntDType, device: x.device });
    const powers = linalgVander(x, { N: cols });
    if (increasing) return powers;
    try {
      return flip(powers, [-1]);
    } finally {
      powers.dispose();
    }
  },
);

export const frobeniusNorm = op(
  "frobeniusNorm(input: Tensor, dim: int | int[], keepdim: bool = false) -> Tensor",
  { doc: "Deprecated in PyTorch for linalg.vectorNorm: the square root of the sum of squares over `dim` (at most two dims; [] means all), float inputs." },
  ({ input, dim, keepdim }) => {
    const dims = typeof dim === "number" ? [dim] : dim;
    if (dims.length > 2) throw new ShapeError(`frobeniusNorm: expected at most 2 dims, got ${dims.length} (${JSON.stringify(dims)}); linalg.vectorNorm takes any number`);
    return vectorNorm(input, 2, dims.length === 0 ? null : dims, keepdim);
  },
);
