/**
 * @file In-place forms of reductions along a dim, Tensor methods only: cumsum_, cumprod_ and renorm_.
 * Each computes the result and assigns it to x (its dtype kept), as src/ops/pointwise/in_place.ts
 * describes; returns x.
 */
import { DTypeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import type { DType } from "../../dtype.js";
import { assignInPlace } from "../pointwise/in_place.js";
import { op } from "../signature/op.js";
import { cumprod, cumsum } from "./cumulative.js";
import { renorm } from "./norms.js";

/** PyTorch's in-place cumulative ops take only x's own dtype. */
function ownDType(name: string, input: Tensor, dtype: DType | undefined): void {
  if (dtype !== undefined && dtype !== input.dtype) throw new DTypeError(`${name}: bad in-place call: the tensor is ${input.dtype} and dtype is ${dtype}; they must match (use the out-of-place ${name.slice(0, -1)} for another dtype)`);
}

export const cumsum_ = op(
  "cumsum_(input: Tensor, dim: int, *, dtype?: dtype) -> Tensor",
  { doc: "In place: x = cumsum(x, dim), in x's dtype (`dtype`, if given, must be x's); returns x.", method: true },
  ({ input, dim, dtype }) => {
    ownDType("cumsum_", input, dtype);
    return assignInPlace("cumsum_", input, cumsum(input, dim));
  },
);

export const cumprod_ = op(
  "cumprod_(input: Tensor, dim: int, *, dtype?: dtype) -> Tensor",
  { doc: "In place: x = cumprod(x, dim), in x's dtype (`dtype`, if given, must be x's); returns x.", method: true },
  ({ input, dim, dtype }) => {
    ownDType("cumprod_", input, dtype);
    return assignInPlace("cumprod_", input, cumprod(input, dim));
  },
);

export const renorm_ = op(
  "renorm_(input: Tensor, p: float, dim: int, maxnorm: float) -> Tensor",
  { doc: "In place: x = renorm(x, p, dim, maxnorm) (each slice along `dim` whose p-norm exceeds maxnorm scaled down to it); returns x.", method: true },
  ({ input, p, dim, maxnorm }) => assignInPlace("renorm_", input, renorm(input, p, dim, maxnorm)),
);
