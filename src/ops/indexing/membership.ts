/**
 * @file torch.isin: which elements appear among the test elements, as one unit (every element
 * compared with every test element, then any).
 */
import { resultType } from "../../dtype.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import type { TensorOrScalar } from "../types.js";
import { lift, promotionOf, run } from "../unit.js";

const shapeOf = (v: TensorOrScalar): readonly number[] => (typeof v === "object" ? v.shape : []);

export const isin = op(
  "isin(elements: Tensor | Scalar, testElements: Tensor | Scalar, *, assumeUnique: bool = false, invert: bool = false) -> Tensor",
  { doc: "Bool tensor of elements' shape: whether each element equals one of testElements (in their promoted dtype; NaN matches nothing), or does not with `invert`. assumeUnique is accepted and changes nothing. Every element is compared with every test element (memory of their product)." },
  ({ elements, testElements, invert }) => {
    const dtype = resultType(promotionOf(elements), promotionOf(testElements));
    const shape = shapeOf(elements);
    const n = shape.reduce((m, d) => m * d, 1);
    const m = shapeOf(testElements).reduce((a, d) => a * d, 1);
    return run("isin", [elements, testElements], `${invert}`, ([a, b]) => {
      const x = e.broadcastTo(e.reshape(lift(a!, dtype, shape), [n, 1]), [n, m]);
      const t = e.broadcastTo(e.reshape(lift(b!, dtype, shapeOf(testElements)), [1, m]), [n, m]);
      const found = e.reduce("or", e.compare(x, t, "EQ"), [1]);
      return e.reshape(invert ? e.not(found) : found, shape);
    });
  },
);
