/**
 * @file Tensor.sumToSize: the tensor summed down to a shape that broadcasts to its own (autograd's
 * reduction of a broadcast gradient, as a method).
 */
import { ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import { clone } from "../conversion.js";
import { fmtShape } from "../dims.js";
import { op } from "../signature/op.js";
import { reshape } from "../shape/reshaping.js";
import { sum } from "./sums.js";

export const sumToSize = op(
  "sumToSize(input: Tensor, ...size: int) -> Tensor",
  {
    doc: "The tensor summed to `size` (`x.sumToSize(3, 1)` or a list), a shape that broadcasts to x's: its leading extra dims and the dims where size has 1 are summed (integers and bool in int64, as sum does); the same shape gives a copy.",
    method: true,
  },
  ({ input, size }) => {
    const shape = input.shape;
    const lead = shape.length - size.length;
    if (lead < 0 || size.some((d, i) => d !== shape[lead + i] && d !== 1)) throw new ShapeError(`sumToSize: size ${fmtShape(size)} is not expandable to size ${fmtShape(shape)}`);
    const dims = shape.map((_, i) => i).filter((i) => i < lead || (size[i - lead] === 1 && shape[i] !== 1));
    if (dims.length === 0) return clone(input);
    const summed = sum(input, dims, true);
    try {
      return reshape(summed, size);
    } finally {
      summed.dispose();
    }
  },
);
