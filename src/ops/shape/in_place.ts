/**
 * @file In-place forms of shape ops, Tensor methods only: t_, transpose_, swapaxes_, swapdims_,
 * squeeze_ and unsqueeze_ (which change the tensor's shape: views are copies here, so the tensor takes
 * the reordered copy's buffer and shape), tril_, triu_ and fillDiagonal_. Each returns the tensor
 * itself; a leaf that requires grad is an error, as for every in-place op.
 */
import { ShapeError } from "../../runtime/errors.js";
import { rebindReshaped, type Tensor } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import { castValue } from "../creation/common.js";
import { fmtShape } from "../dims.js";
import * as e from "../emit.js";
import { assignInPlace } from "../pointwise/in_place.js";
import { op } from "../signature/op.js";
import { run } from "../unit.js";
import { tril, triu } from "./diagonals.js";
import { squeeze, unsqueeze } from "./reshaping.js";
import { t, transpose } from "./transposing.js";

/** Makes `self` hold `result` (same dtype and size, any shape); `result` is consumed. Returns `self`. */
function reshapeInPlace(name: string, self: Tensor, result: Tensor): Tensor {
  try {
    rebindReshaped(self, result, name);
    return self;
  } finally {
    if (result !== self) result.dispose();
  }
}

export const t_ = op("t_(input: Tensor) -> Tensor", { doc: "In place: x becomes its transpose (a matrix; 0-d and 1-d tensors stay); returns x.", method: true }, ({ input }) =>
  reshapeInPlace("t_", input, t(input)),
);

export const transpose_ = op(
  "transpose_(input: Tensor, dim0: int, dim1: int) -> Tensor",
  { doc: "In place: x with dims `dim0` and `dim1` swapped (its shape changes); returns x.", method: true },
  ({ input, dim0, dim1 }) => reshapeInPlace("transpose_", input, transpose(input, dim0, dim1)),
);

export const swapaxes_ = op(
  "swapaxes_(input: Tensor, axis0: int, axis1: int) -> Tensor",
  { doc: "transpose_, by NumPy's name.", method: true },
  ({ input, axis0, axis1 }) => reshapeInPlace("swapaxes_", input, transpose(input, axis0, axis1)),
);

export const swapdims_ = op(
  "swapdims_(input: Tensor, dim0: int, dim1: int) -> Tensor",
  { doc: "transpose_, by another of PyTorch's names.", method: true },
  ({ input, dim0, dim1 }) => reshapeInPlace("swapdims_", input, transpose(input, dim0, dim1)),
);

export const squeeze_ = op(
  "squeeze_(input: Tensor, dim?: int | int[]) -> Tensor",
  { doc: "In place: x without its size-1 dims (all of them, or those in `dim`); returns x.", method: true },
  ({ input, dim }) => reshapeInPlace("squeeze_", input, squeeze(input, dim ?? null)),
);

export const unsqueeze_ = op(
  "unsqueeze_(input: Tensor, dim: int) -> Tensor",
  { doc: "In place: x with a size-1 dim inserted at `dim`; returns x.", method: true },
  ({ input, dim }) => reshapeInPlace("unsqueeze_", input, unsqueeze(input, dim)),
);

export const tril_ = op(
  "tril_(input: Tensor, diagonal: int = 0) -> Tensor",
  { doc: "In place: x = tril(x, diagonal); returns x.", method: true },
  ({ input, diagonal }) => assignInPlace("tril_", input, tril(input, diagonal)),
);

export const triu_ = op(
  "triu_(input: Tensor, diagonal: int = 0) -> Tensor",
  { doc: "In place: x = triu(x, diagonal); returns x.", method: true },
  ({ input, diagonal }) => assignInPlace("triu_", input, triu(input, diagonal)),
);

export const fillDiagonal_ = op(
  "fillDiagonal_(input: Tensor, fillValue: Scalar, wrap: bool = false) -> Tensor",
  {
    doc: "In place: the main diagonal (elements whose indices are all equal) set to `fillValue`, cast to x's dtype. x has at least 2 dims, all of one length beyond 2; with `wrap`, the diagonal of a tall matrix starts again every cols + 1 rows. Returns x.",
    method: true,
  },
  ({ input, fillValue, wrap }) => {
    const op = "fillDiagonal_";
    if (input.ndim < 2) throw new ShapeError(`${op}: dimensions must larger than 1, got shape ${fmtShape(input.shape)}`);
    if (input.ndim > 2 && input.shape.some((d) => d !== input.shape[0])) throw new ShapeError(`${op}: all dimensions of input must be of equal length, got shape ${fmtShape(input.shape)}`);
    const value = castValue(op, fillValue, input.dtype);
    const numel = input.numel();
    // the diagonal's flat positions are multiples of `step` (below `end`)
    const [rows, cols] = [input.shape[0]!, input.shape[1]!];
    const step = input.ndim === 2 ? cols + 1 : input.shape.reduce((s, _, i) => s + input.shape[0]! ** i, 0);
    const end = input.ndim === 2 && !wrap ? Math.min(rows, cols) * step : numel;
    return assignInPlace(op, input, run(op, [input], `${String(value)}|${wrap}`, ([x]) => {
      const flat = e.iota("int64", [numel], 0);
      const onDiagonal = e.and(e.compare(e.rem(flat, e.full(step, "int64", [numel])), e.full(0, "int64", [numel]), "EQ"), e.compare(flat, e.full(end, "int64", [numel]), "LT"));
      const t0 = x as Tracer;
      return e.select(e.reshape(onDiagonal, t0.shape), e.full(value, t0.dtype, t0.shape), t0);
    }));
  },
);
