/**
 * @file PyTorch's other names for cat: concat and concatenate (NumPy's, with `axis`), each an op
 * of its own with PyTorch's signature for that name, computed by cat.
 */
import { ArgumentError } from "../../runtime/errors.js";
import { op } from "../signature/op.js";
import { cat } from "./joining.js";

export const concat = op(
  "concat(tensors: Tensor[], dim: int = 0) -> Tensor",
  { doc: "Alias of cat: joins tensors along the existing dim `dim`." },
  ({ tensors, dim }) => cat(tensors, dim),
);

export const concatenate = op(
  "concatenate(tensors: Tensor[], dim: int = 0, *, axis?: int) -> Tensor",
  { doc: "Alias of cat (NumPy's name): joins tensors along the existing dim `dim`, which PyTorch also takes as `axis`." },
  ({ tensors, dim, axis }) => {
    if (axis !== undefined && dim !== 0) throw new ArgumentError(`concatenate: give the dim once, as dim or as axis, not both (got dim ${dim} and axis ${axis})`);
    return cat(tensors, axis ?? dim);
  },
);
