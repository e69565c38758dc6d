/**
 * @file torch.linalg.diagonal: torch.diagonal with its dims keyword-only and defaulting to the
 * last two (the matrices of a batch).
 */
import { ShapeError } from "../../runtime/errors.js";
import type { Tracer } from "../../trace/tracer.js";
import { normDim } from "../dims.js";
import { diagonalBody } from "../shape/diagonals.js";
import { op } from "../signature/op.js";
import { run } from "../unit.js";

export const diagonal = op(
  "linalg.diagonal(A: Tensor, *, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor",
  { doc: "Diagonal `offset` of the matrices in dims `dim1`, `dim2` (the last two by default): those dims are removed and the diagonal becomes the last dim. A copy here, as torch.diagonal." },
  ({ A, offset, dim1, dim2 }) => {
    const d1 = normDim("linalg.diagonal", dim1, A.ndim);
    const d2 = normDim("linalg.diagonal", dim2, A.ndim);
    if (d1 === d2) throw new ShapeError(`linalg.diagonal: dim1 and dim2 must be different dims, got ${dim1} and ${dim2}`);
    return run("linalg.diagonal", [A], `${offset},${d1},${d2}`, ([a]) => diagonalBody(a as Tracer, offset, d1, d2));
  },
);
