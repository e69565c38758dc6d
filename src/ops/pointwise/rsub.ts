/**
 * @file torch.rsub: subtraction with the operands swapped, computed by sub.
 */
import { op } from "../signature/op.js";
import { addSub } from "./arithmetic.js";

export const rsub = op(
  "rsub(input: Tensor, other: Tensor | Scalar, *, alpha: Scalar = 1) -> Tensor",
  { doc: "other − alpha × input, with broadcasting and type promotion (sub with its operands swapped)." },
  ({ input, other, alpha }) => addSub("sub", other, input, alpha),
);
