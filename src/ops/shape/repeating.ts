/**
 * @file Tiling a tensor: Tensor.repeat, tile and repeatInterleave.
 */
import { dtypes } from "../../dtype.js";
import { ArgumentError, DTypeError, ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import { arange } from "../creation/ranges.js";
import { fmtShape, normDim } from "../dims.js";
import * as e from "../emit.js";
import { indexSelect } from "../indexing/gather_scatter.js";
import { searchsorted } from "../indexing/searching.js";
import { cumsum } from "../reduction/cumulative.js";
import { op } from "../signature/op.js";
import { unary } from "./common.js";
import { flatten } from "./reshaping.js";

function checkSizes(op: string, sizes: readonly number[]): void {
  if (sizes.some((d) => d < 0)) throw new ShapeError(`${op}: sizes must be non-negative, got ${fmtShape(sizes)}`);
}

function repeatBody(op: string, x: Tracer, reps: readonly number[]): Tracer {
  if (reps.length < x.ndim) {
    throw new ShapeError(`${op}: the number of repeats (${reps.length}) can not be smaller than the number of dims (${x.ndim}) of shape ${fmtShape(x.shape)}`);
  }
  const shape = [...new Array<number>(reps.length - x.ndim).fill(1), ...x.shape];
  const wide: number[] = [];
  shape.forEach((s, i) => wide.push(reps[i]!, s));
  const b = e.broadcastInDim(e.reshape(x, shape), wide, shape.map((_, i) => 2 * i + 1));
  return e.reshape(b, shape.map((s, i) => s * reps[i]!));
}

export const repeat = op(
  "repeat(input: Tensor, ...repeats: int) -> Tensor",
  { doc: "The tensor tiled `repeats[i]` times along each dim (`x.repeat(2, 3)` or a list); at least one repeat per dim, extra ones add leading dims.", method: true },
  ({ input, repeats }) => {
    checkSizes("repeat", repeats);
    return unary("repeat", input, repeats.join(","), (x) => repeatBody("repeat", x, repeats));
  },
);

export const tile = op(
  "tile(input: Tensor, ...dims: int) -> Tensor",
  { doc: "Like repeat, but fewer `dims` than the tensor has are padded with leading 1s (`x.tile(2, 2)` or a list).", method: true },
  ({ input, dims }) => {
    checkSizes("tile", dims);
    return unary("tile", input, dims.join(","), (x) => {
      const full = [...new Array<number>(Math.max(0, x.ndim - dims.length)).fill(1), ...dims];
      return repeatBody("tile", x, full);
    });
  },
);

/** Each element (dim undefined: of the flattened tensor) or slice along `dim`, `repeats` times in a row: one unit. */
function interleaveTimes(input: Tensor, repeats: number, dim: number | undefined): Tensor {
  const op = "repeatInterleave";
  if (!Number.isInteger(repeats) || repeats < 0) throw new ArgumentError(`${op}: repeats must be a non-negative integer, got ${repeats}`);
  const d = dim === undefined ? 0 : normDim(op, dim, Math.max(1, input.ndim));
  return unary(op, input, `${repeats}|${dim}`, (v) => {
    const x = dim === undefined || v.ndim === 0 ? e.reshape(v, [v.shape.reduce((a, b) => a * b, 1)]) : v;
    const spread = [...x.shape.slice(0, d + 1), repeats, ...x.shape.slice(d + 1)];
    const kept = x.shape.map((_, i) => (i <= d ? i : i + 1));
    return e.reshape(e.broadcastInDim(x, spread, kept), x.shape.map((s, i) => (i === d ? s * repeats : s)));
  });
}

/**
 * Slice i along `dim` repeated `counts[i]` times: positions 0..total−1 looked up in the running sums of
 * the counts (the total is read back to the host unless `outputSize` gives it, as in PyTorch).
 */
function interleaveCounts(input: Tensor, counts: Tensor, dim: number | undefined, outputSize: number | undefined): Tensor {
  const op = "repeatInterleave";
  if (dtypes[counts.dtype].kind !== "int" && dtypes[counts.dtype].kind !== "uint") throw new DTypeError(`${op}: repeats must be an integer tensor, got ${counts.dtype}`);
  if (counts.ndim > 1) throw new ShapeError(`${op}: repeats must be 0-d or 1-d, got shape ${fmtShape(counts.shape)}`);
  const made: Tensor[] = [];
  const keep = (t: Tensor): Tensor => (made.push(t), t);
  try {
    const source = dim === undefined ? keep(flatten(input)) : input;
    const d = dim === undefined ? 0 : normDim(op, dim, Math.max(1, input.ndim));
    const n = source.ndim === 0 ? 1 : source.shape[d]!;
    const perSlice = counts.numel() === 1 ? keep(keep(counts.reshape([1])).expand(n)) : counts; // one count for every slice
    if (perSlice.numel() !== n) throw new ShapeError(`${op}: repeats must have one count per slice along dim ${d} (${n}), got ${perSlice.numel()}`);
    const ends = keep(cumsum(perSlice, 0, { dtype: "int64" }));
    let total = outputSize;
    if (total === undefined) {
      const host = Array.from(perSlice.dataSync() as ArrayLike<number | bigint>, Number);
      if (host.some((c) => c < 0)) throw new ArgumentError(`${op}: repeats can not be negative, got [${host.join(", ")}]`);
      total = host.reduce((a, b) => a + b, 0);
    }
    const positions = keep(arange(total, { dtype: "int64", device: input.device }));
    return indexSelect(source, d, keep(searchsorted(ends, positions, { right: true })));
  } finally {
    for (const t of made) t.dispose();
  }
}

export const repeatInterleave = op(
  [
    "repeatInterleave(input: Tensor, repeats: int, dim?: int, *, outputSize?: int) -> Tensor",
    "repeatInterleave(input: Tensor, repeats: Tensor, dim?: int, *, outputSize?: int) -> Tensor",
    "repeatInterleave(repeats: Tensor, *, outputSize?: int) -> Tensor",
  ],
  {
    doc: "Each slice along `dim` (each element of the flattened tensor when `dim` is not given) repeated `repeats` times in a row, or `repeats[i]` times for slice i (a 1-d integer tensor; the total is read back to the host unless `outputSize` gives it). With a tensor of counts alone, `repeatInterleave(arange(n), counts)`.",
    method: true,
  },
  [
    ({ input, repeats, dim }) => interleaveTimes(input, repeats, dim),
    ({ input, repeats, dim, outputSize }) => interleaveCounts(input, repeats, dim, outputSize),
    ({ repeats, outputSize }) => {
      const indices = arange(repeats.numel(), { dtype: "int64", device: repeats.device });
      try {
        return interleaveCounts(indices, repeats, 0, outputSize);
      } finally {
        indices.dispose();
      }
    },
  ],
);

