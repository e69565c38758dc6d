/**
 * @file In-place forms of indexing ops, Tensor methods only (`x.put_(index, source)`): each computes
 * the result as a new tensor and rebinds `x` to it, as src/ops/pointwise/in_place.ts describes. Their
 * results have x's dtype; a mask that would broadcast x to a larger shape is checked before running.
 */
import { broadcastShapes } from "../dims.js";
import { assignInPlace, checkInPlace } from "../pointwise/in_place.js";
import { op } from "../signature/op.js";
import { indexReduce, maskedScatter, put } from "./gather_scatter.js";

export const put_ = op(
  "put_(input: Tensor, index: Tensor, source: Tensor, accumulate: bool = false) -> Tensor",
  { doc: "In place: put (source written, or with `accumulate` added, at the flat positions `index`); returns x.", method: true },
  ({ input, index, source, accumulate }) => assignInPlace("put_", input, put(input, index, source, { accumulate })),
);

export const maskedScatter_ = op(
  "maskedScatter_(input: Tensor, mask: Tensor, source: Tensor) -> Tensor",
  { doc: "In place: maskedScatter (the positions where `mask`, broadcast to x's shape, is true filled by source's first elements); returns x.", method: true },
  ({ input, mask, source }) => {
    checkInPlace("maskedScatter_", input, input.dtype, broadcastShapes("maskedScatter_", input.shape, mask.shape));
    return assignInPlace("maskedScatter_", input, maskedScatter(input, mask, source));
  },
);

export const indexReduce_ = op(
  'indexReduce_(input: Tensor, dim: int, index: Tensor, source: Tensor, reduce: "prod" | "mean" | "amax" | "amin", *, includeSelf: bool = true) -> Tensor',
  { doc: "In place: indexReduce (slice k of source reduced into position index[k] along `dim`); returns x.", method: true },
  ({ input, dim, index, source, reduce, includeSelf }) => assignInPlace("indexReduce_", input, indexReduce(input, dim, index, source, reduce, { includeSelf })),
);
