/**
 * @file Insertion points in sorted sequences: searchsorted and bucketize. Each counts, for every
 * value, the sequence entries below it (or at most it, with `right`), so it needs no sort and no
 * data-dependent control flow.
 */
import { resultType } from "../../dtype.js";
import { ArgumentError, DTypeError, ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import { fmtShape, sameShape } from "../dims.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import type { ScalarArg } from "../types.js";
import { checkIndexDType, isScalar, run } from "../unit.js";

/**
 * How many of the sorted `bounds` (along their last dim) lie below each value of `values` (bounds'
 * shape less that dim, one dtype), or at most it with `right`: the insertion point.
 */
export function insertionPoint(bounds: Tracer, values: Tracer, right: boolean, dtype: "int32" | "int64"): Tracer {
  const r = values.ndim;
  const vals = e.broadcastInDim(values, bounds.shape, values.shape.map((_, i) => i));
  return e.reduce("sum", e.convert(e.compare(bounds, vals, right ? "LE" : "LT"), dtype), [r]);
}

/** Counts, for each value, the sequence entries below it (or at most it with `right`), along the last dim; `sorter` orders the sequence first. */
function countBelow(name: string, seq: Tensor, values: Tensor | ScalarArg, right: boolean, outInt32: boolean, sorter?: Tensor): Tensor {
  if (seq.ndim === 0) throw new ShapeError(`${name}: the sorted sequence must have at least one dimension`);
  const vShape = isScalar(values) ? [] : values.shape;
  if (seq.ndim > 1 && (vShape.length !== seq.ndim || seq.shape.slice(0, -1).some((s, i) => s !== vShape[i]))) {
    throw new ShapeError(`${name}: the leading dimensions of the sorted sequence ${fmtShape(seq.shape)} and values ${fmtShape(vShape)} must match`);
  }
  if (seq.dtype === "bool" || (!isScalar(values) && values.dtype === "bool")) throw new DTypeError(`${name}: bool tensors are not supported`);
  if (sorter !== undefined) {
    checkIndexDType(name, sorter, "sorter");
    if (!sameShape(sorter.shape, seq.shape)) throw new ShapeError(`${name}: sorter ${fmtShape(sorter.shape)} must have the sorted sequence's shape ${fmtShape(seq.shape)}`);
  }
  const dtype = resultType({ dtype: seq.dtype, ndim: seq.ndim }, isScalar(values) ? values : { dtype: values.dtype, ndim: values.ndim });
  const args = sorter === undefined ? [seq, values] : [seq, values, sorter];
  return run(name, args, `${right}|${outInt32}|${sorter === undefined ? "" : "sorter"}`, ([s, v, order]) => {
    const m = seq.shape[seq.ndim - 1]!;
    const full = [...vShape, m];
    const r = vShape.length;
    const vals = isScalar(v) ? e.full(v, dtype, vShape) : e.convert(v!, dtype);
    const seqDims = seq.ndim === 1 ? [r] : [...seq.shape.slice(0, -1).map((_, i) => i), r];
    const sorted = order === undefined ? (s as Tracer) : e.gatherAlong(s as Tracer, order as Tracer, seq.ndim - 1);
    const bounds = e.broadcastInDim(e.convert(sorted, dtype), full, seqDims);
    return insertionPoint(bounds, vals, right, outInt32 ? "int32" : "int64");
  });
}

export const searchsorted = op(
  'searchsorted(sortedSequence: Tensor, input: Tensor | Scalar, *, outInt32: bool = false, right: bool = false, side?: "left" | "right", sorter?: Tensor) -> Tensor',
  {
    doc: 'The indices where `input`\'s values would be inserted into the last dim of `sortedSequence` to keep it sorted: the first such place, or the last with `right: true` or `side: "right"`; `sorter` (indices that sort the sequence) for an unsorted sequence; int64, or int32 with `outInt32`.',
  },
  ({ sortedSequence, input, outInt32, right, side, sorter }) => {
    if (side === "left" && right) throw new ArgumentError('searchsorted: side "left" contradicts right: true');
    return countBelow("searchsorted", sortedSequence, input, right || side === "right", outInt32, sorter);
  },
);

export const bucketize = op(
  "bucketize(input: Tensor | Scalar, boundaries: Tensor, *, outInt32: bool = false, right: bool = false) -> Tensor",
  { doc: "The bucket of each value of `input` among the 1-d sorted `boundaries` (searchsorted with the arguments swapped); int64, or int32 with `outInt32`." },
  ({ input, boundaries, outInt32, right }) => {
    if (boundaries.ndim !== 1) throw new ShapeError(`bucketize: boundaries must be 1-d, got ${fmtShape(boundaries.shape)}`);
    return countBelow("bucketize", boundaries, input, right, outInt32);
  },
);
