/**
 * @file nn.functional.embedding: the rows of `weight` at each index, as one gather; embeddingBag:
 * those rows summed, averaged or maxed per bag with one scatter.
 *
 * Differences from PyTorch: embedding's indices may be any integer dtype; an index outside
 * [0, num_embeddings) is not an error (the device cannot raise one) but clamps into range, like our
 * other gathers. embeddingBag reads its indices and offsets back to the host and raises, as PyTorch does.
 * `paddingIdx` keeps the gradient from the padding row, as in PyTorch; `scaleGradByFreq` divides each
 * looked-up row's gradient by its index's count in input; `sparse` is checked and otherwise has no
 * effect (gradients are dense). `maxNorm` renormalises
 * the looked-up rows of `weight` in place, as PyTorch does: `weight` is rebound to a new buffer.
 */
import { noGrad } from "../../autograd/grad_mode.js";
import { isFloating } from "../../dtype.js";
import { ArgumentError, DTypeError, ShapeError } from "../../runtime/errors.js";
import { rebind, type Tensor } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import * as e from "../emit.js";
import { fmtShape } from "../dims.js";
import { checkIndicesOnHost } from "../indexing/gather_scatter.js";
import { op } from "../signature/op.js";
import { prefix } from "../reduction/cumulative.js";
import { checkIndexDType, run, runMany } from "../unit.js";
import { vectorNorm } from "./distance.js";
import { c } from "./emitters.js";
import { opmath, requireFloat } from "./opmath.js";

/**
 * `looked` [m, dim], the rows of a weight with `rows` rows at `ids` [m], with its gradient divided by
 * each index's count in ids (scaleGradByFreq); the values are unchanged (non-finite ones pass as they are).
 */
function scaledByFreq(looked: Tracer, ids: Tracer, rows: number): Tracer {
  const m = ids.shape[0]!;
  const at = e.clamp(e.full(0, ids.dtype, [m]), ids, e.full(rows - 1, ids.dtype, [m])); // the rows the gather read
  const counts = e.indexScatter(e.full(0, "int64", [rows]), 0, at, e.full(1, "int64", [m]), "add");
  const scale = e.broadcastInDim(e.convert(e.indexSelect(counts, at, 0), looked.dtype), looked.shape, [0]);
  const fixed = e.stopGradient(looked);
  return e.select(e.isFinite(looked), e.add(fixed, e.div(e.sub(looked, fixed), scale)), looked);
}

export const embedding = op(
  "embedding(input: Tensor, weight: Tensor, paddingIdx?: int, maxNorm?: float, normType: float = 2, scaleGradByFreq: bool = false, sparse: bool = false) -> Tensor",
  {
    doc: "The rows of weight [num_embeddings, dim] at each index of input (any shape, any integer dtype) → [...input.shape, dim]; out-of-range indices clamp. maxNorm renormalises the looked-up rows of weight in place; paddingIdx, scaleGradByFreq and sparse only concern gradients.",
  },
  ({ input, weight, paddingIdx, maxNorm, normType, scaleGradByFreq }) => {
    const op = "embedding";
    checkIndexDType(op, input, "input");
    if (weight.ndim !== 2) throw new ShapeError(`${op}: 'weight' must be 2-D [num_embeddings, embedding_dim], got ${fmtShape(weight.shape)}`);
    const [rows, dim] = weight.shape as [number, number];
    if (paddingIdx !== undefined && (paddingIdx < -rows || paddingIdx >= rows)) {
      throw new ArgumentError(`${op}: paddingIdx must be an integer within num_embeddings (in [${-rows}, ${rows - 1}]), got ${String(paddingIdx)}`);
    }
    if (maxNorm !== undefined && Number.isNaN(maxNorm)) throw new ArgumentError(`${op}: maxNorm must be a number, got ${String(maxNorm)}`);
    if (Number.isNaN(normType)) throw new ArgumentError(`${op}: normType must be a number, got ${String(normType)}`);
    if (rows === 0 && input.numel() > 0) throw new ShapeError(`${op}: cannot look up indices in an empty weight ${fmtShape(weight.shape)}`);
    const outShape = [...input.shape, dim];
    const m = input.numel();

    const pad = paddingIdx === undefined ? undefined : paddingIdx < 0 ? paddingIdx + rows : paddingIdx;
    // the paddingIdx row gets no gradient, as in PyTorch
    const padded = (ids: Tracer, rowsRead: Tracer): Tracer => {
      const looked = scaleGradByFreq && isFloating(rowsRead.dtype) ? scaledByFreq(rowsRead, ids, rows) : rowsRead;
      if (pad === undefined) return looked;
      const hit = e.broadcastInDim(e.compare(ids, e.full(pad, ids.dtype, ids.shape), "EQ"), looked.shape, [0]);
      return e.select(hit, e.stopGradient(looked), looked);
    };
    if (maxNorm === undefined || m === 0 || dim === 0) {
      return run(op, [input, weight], `${pad ?? ""}|${scaleGradByFreq}`, ([i, w]) => {
        const ids = e.reshape(i as Tracer, [m]);
        return e.reshape(padded(ids, e.indexSelect(w as Tracer, ids, 0)), outShape);
      });
    }
    if (!isFloating(weight.dtype)) throw new DTypeError(`${op}: maxNorm needs a floating weight (it takes norms), got ${weight.dtype}`);
    const [out, renormed] = runMany(op, [input, weight], `${maxNorm}|${normType}|${pad ?? ""}|${scaleGradByFreq}`, ([i, w]) => {
      // the gather's own clamping gives each index's row, so the write-back hits the rows that were read
      const rowIds = e.indexSelect(e.iota("int64", [rows], 0), e.reshape(i!, [m]), 0);
      const { dtype } = w!;
      const looked = e.convert(e.indexSelect(w!, rowIds, 0), opmath(dtype));
      // as PyTorch: the norm and the scale are rounded to weight's dtype (float16 norms accumulate in float32)
      const roundTrip = (x: Tracer): Tracer => e.convert(e.convert(x, dtype), x.dtype);
      const norm = e.broadcastTo(roundTrip(vectorNorm(looked, normType, 1)), [m, dim]);
      const scaled = e.mul(looked, roundTrip(e.div(c(norm, maxNorm), e.add(norm, c(norm, 1e-7)))));
      const rowsOut = e.convert(e.select(e.compare(norm, c(norm, maxNorm), "GT"), scaled, looked), dtype);
      const written = e.scatter(w!, e.reshape(rowIds, [m, 1]), rowsOut, {
        kind: "replace", updateWindowDims: [1], insertedWindowDims: [0], scatterDimsToOperandDims: [0], indexVectorDim: 1,
      });
      return [e.reshape(padded(e.reshape(i!, [m]), rowsOut), outShape), written];
    });
    rebind(weight, renormed!);
    return out!;
  },
);

/** Bag sums, means or maxima of `rows` [M, D]: row j goes to bag `bag[j]` (a bag outside [0, bags) drops it); empty bags give 0. */
function reduceBags(rows: Tracer, bag: Tracer, bags: number, mode: "sum" | "mean" | "max"): Tracer {
  const dim = rows.shape[1]!;
  const into = (init: number, updates: Tracer, kind: "add" | "max" | "min"): Tracer => e.indexScatter(e.full(init, updates.dtype, [bags, ...updates.shape.slice(1)]), 0, bag, updates, kind);
  if (mode === "sum") return into(0, rows, "add");
  const counts = e.broadcastInDim(into(0, e.full(1, rows.dtype, [rows.shape[0]!]), "add"), [bags, dim], [0]);
  if (mode === "mean") return e.div(into(0, rows, "add"), e.max(counts, c(counts, 1)));
  // each bag's first maximal row per column, gathered: as in PyTorch, a tie's gradient goes to that row alone
  const m = rows.shape[0]!;
  const maxima = e.indexSelect(into(-Infinity, rows, "max"), bag, 0);
  const atMax = e.or(e.compare(rows, maxima, "EQ"), e.compare(rows, rows, "NE")); // NaN is the maximum
  const position = e.broadcastInDim(e.iota("int64", [m], 0), [m, dim], [0]);
  const first = into(m, e.select(atMax, position, e.full(m, "int64", [m, dim])), "min");
  return e.select(e.compare(counts, c(counts, 0), "GT"), e.gatherAlong(rows, first, 0), c(counts, 0));
}

/** Bag starts read back to the host: PyTorch requires them to start at 0, never decrease, and stay within the input's length m. */
function checkOffsets(offsets: Tensor, m: number): void {
  const starts = Array.from(offsets.dataSync() as ArrayLike<number | bigint>, Number);
  if (starts.length > 0 && starts[0] !== 0) throw new ArgumentError(`embeddingBag: offsets[0] must be 0 (the first bag starts at the input's start), got ${starts[0]}`);
  const down = starts.findIndex((s, i) => i > 0 && s < starts[i - 1]!);
  if (down > 0) throw new ArgumentError(`embeddingBag: offsets must not decrease, got offsets[${down - 1}] = ${starts[down - 1]} > offsets[${down}] = ${starts[down]}`);
  const last = starts[starts.length - 1];
  if (last !== undefined && last > m) throw new ArgumentError(`embeddingBag: offsets must not pass the input's length ${m}, got offsets[${starts.length - 1}] = ${last}`);
}

export const embeddingBag = op(
  'embeddingBag(input: Tensor, weight: Tensor, offsets?: Tensor, maxNorm?: float, normType: float = 2, scaleGradByFreq: bool = false, mode: "sum" | "mean" | "max" = "mean", sparse: bool = false, perSampleWeights?: Tensor, includeLastOffset: bool = false, paddingIdx?: int) -> Tensor',
  {
    doc: "Sums, means or maxima of bags of embeddings: weight's rows at input [B, L] (one bag per row), or at a 1-d input cut into bags at offsets (the last bag runs to the end, or with includeLastOffset offsets' last entry ends the last bag) → [bags, dim]. perSampleWeights (mode sum) weights each index; paddingIdx entries are left out of their bag; empty bags give 0. input and offsets are read back to the host and checked, as in PyTorch: indices lie in [0, num_embeddings), offsets start at 0, never decrease and do not pass input's length. maxNorm renormalises the looked-up rows of weight in place, as in embedding.",
  },
  ({ input, weight, offsets, maxNorm, normType, scaleGradByFreq, mode, perSampleWeights, includeLastOffset, paddingIdx }) => {
    const op = "embeddingBag";
    if (input.dtype !== "int64" && input.dtype !== "int32") throw new DTypeError(`${op}: input must be an int64 or int32 tensor of indices, got ${input.dtype}`);
    requireFloat(op, weight, "weight");
    if (weight.ndim !== 2) throw new ShapeError(`${op}: weight must be 2-d [num_embeddings, embedding_dim], got ${fmtShape(weight.shape)}`);
    if (input.ndim === 2 && offsets) throw new ArgumentError(`${op}: a 2-d input is a batch of fixed-length bags: pass offsets only with a 1-d input`);
    if (input.ndim === 1 && !offsets) throw new ArgumentError(`${op}: a 1-d input needs offsets (a 1-d tensor of bag starts)`);
    if (input.ndim !== 1 && input.ndim !== 2) throw new ShapeError(`${op}: input must be 1-d (with offsets) or 2-d, got ${fmtShape(input.shape)}`);
    if (input.ndim === 2 && input.shape[1] === 0) throw new ShapeError(`${op}: a 2-d input's bags must not be empty, got shape ${fmtShape(input.shape)}`);
    if (offsets && offsets.ndim !== 1) throw new ShapeError(`${op}: offsets must be 1-d, got ${fmtShape(offsets.shape)}`);
    if (offsets && offsets.dtype !== "int64" && offsets.dtype !== "int32") throw new DTypeError(`${op}: offsets must be an int64 or int32 tensor, got ${offsets.dtype}`);
    if (scaleGradByFreq && mode === "max") throw new ArgumentError(`${op}: mode "max" does not support scaleGradByFreq`);
    if (perSampleWeights) {
      if (mode !== "sum") throw new ArgumentError(`${op}: perSampleWeights is only supported for mode "sum", got mode "${mode}"`);
      if (perSampleWeights.shape.length !== input.ndim || perSampleWeights.shape.some((d, i) => d !== input.shape[i])) {
        throw new ShapeError(`${op}: perSampleWeights ${fmtShape(perSampleWeights.shape)} must have the input's shape ${fmtShape(input.shape)}`);
      }
      if (perSampleWeights.dtype !== weight.dtype) throw new DTypeError(`${op}: perSampleWeights (${perSampleWeights.dtype}) must have weight's dtype (${weight.dtype})`);
    }
    const [rows, dim] = weight.shape as [number, number];
    if (paddingIdx !== undefined && (paddingIdx < -rows || paddingIdx >= rows)) {
      throw new ArgumentError(`${op}: paddingIdx must be within num_embeddings (in [${-rows}, ${rows - 1}]), got ${paddingIdx}`);
    }
    const m = input.numel();
    if (rows === 0 && m > 0) throw new ShapeError(`${op}: cannot look up indices in an empty weight ${fmtShape(weight.shape)}`);
    // a 1-d input's bags: one per offset, or one fewer when the last offset only ends the last bag
    const bags = input.ndim === 2 ? input.shape[0]! : offsets!.shape[0]! - (includeLastOffset ? 1 : 0);
    if (bags < 0) throw new ShapeError(`${op}: includeLastOffset needs at least one offset`);
    if (offsets) checkOffsets(offsets, m);
    checkIndicesOnHost(op, input, rows, false, `weight's ${rows} rows`);
    // renormalises weight's looked-up rows in place, outside autograd (as PyTorch's embedding_renorm_ under no_grad)
    if (maxNorm !== undefined) noGrad(() => embedding(input, weight, { maxNorm, normType }).dispose());
    const pad = paddingIdx === undefined ? undefined : paddingIdx < 0 ? paddingIdx + rows : paddingIdx;
    const inputs = [input, weight, ...(offsets ? [offsets] : []), ...(perSampleWeights ? [perSampleWeights] : [])];
    return run(op, inputs, `${mode}|${includeLastOffset}|${pad ?? ""}|${offsets ? 1 : 0}|${perSampleWeights ? 1 : 0}|${scaleGradByFreq}`, (xs) => {
      const [ids, w] = [e.reshape(xs[0] as Tracer, [m]), xs[1] as Tracer];
      const position = e.iota("int64", [m], 0);
      let bag: Tracer;
      if (!offsets) {
        bag = e.div(position, e.full(input.shape[1]!, "int64", [m]));
      } else {
        // bag of position j: the number of bag starts at or before j (a prefix sum of the starts; a start at m, an empty last bag, drops out), less one;
        // past the end offset (includeLastOffset), none
        const starts = e.convert(xs[2] as Tracer, "int64");
        const count = starts.shape[0]!;
        const used = includeLastOffset ? e.slice(starts, [0], [count - 1]) : starts;
        const marks = e.indexScatter(e.full(0, "int64", [m]), 0, used, e.full(1, "int64", [bags]), "add");
        bag = e.sub(m === 0 ? marks : e.reduceWindow("sum", marks, prefix(marks, 0)), e.full(1, "int64", [m]));
        if (includeLastOffset) {
          const end = e.broadcastInDim(e.reshape(e.slice(starts, [count - 1], [count]), []), [m], []);
          bag = e.select(e.compare(position, end, "LT"), bag, e.full(-1, "int64", [m]));
        }
      }
      if (pad !== undefined) bag = e.select(e.compare(ids, e.full(pad, ids.dtype, [m]), "EQ"), e.full(-1, "int64", [m]), bag);
      const wide = opmath(w.dtype); // half bags accumulate in float32
      let looked = e.convert(e.indexSelect(w, ids, 0), wide);
      if (scaleGradByFreq) looked = scaledByFreq(looked, ids, rows);
      if (perSampleWeights) looked = e.mul(looked, e.broadcastInDim(e.convert(e.reshape(xs[xs.length - 1] as Tracer, [m]), wide), [m, dim], [0]));
      return e.convert(reduceBags(looked, bag, bags, mode), w.dtype);
    });
  },
);
