/**
 * @file nn.functional.embedding: the rows of `weight` at each index, as one gather.
 *
 * Differences from PyTorch: indices may be any integer dtype; an index outside [0, num_embeddings)
 * is not an error (the device cannot raise one) but clamps into range, like our other gathers.
 * `paddingIdx` keeps the gradient from the padding row, as in PyTorch; `scaleGradByFreq` and `sparse`
 * are checked and otherwise have no effect (gradients are dense). `maxNorm` renormalises
 * the looked-up rows of `weight` in place, as PyTorch does: `weight` is rebound to a new buffer.
 */
import { isFloating } from "../../dtype.js";
import { ArgumentError, DTypeError, ShapeError } from "../../runtime/errors.js";
import { rebind } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import * as e from "../emit.js";
import { fmtShape } from "../dims.js";
import { op } from "../signature/op.js";
import { checkIndexDType, run, runMany } from "../unit.js";
import { vectorNorm } from "./distance.js";
import { c } from "./emitters.js";
import { opmath } from "./opmath.js";

export const embedding = op(
  "embedding(input: Tensor, weight: Tensor, paddingIdx?: int, maxNorm?: float, normType: float = 2, scaleGradByFreq: bool = false, sparse: bool = false) -> Tensor",
  {
    doc: "The rows of weight [num_embeddings, dim] at each index of input (any shape, any integer dtype) → [...input.shape, dim]; out-of-range indices clamp. maxNorm renormalises the looked-up rows of weight in place; paddingIdx, scaleGradByFreq and sparse only concern gradients.",
  },
  ({ input, weight, paddingIdx, maxNorm, normType }) => {
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
    const padded = (ids: Tracer, looked: Tracer): Tracer => {
      if (pad === undefined) return looked;
      const hit = e.broadcastInDim(e.compare(ids, e.full(pad, ids.dtype, ids.shape), "EQ"), looked.shape, [0]);
      return e.select(hit, e.stopGradient(looked), looked);
    };
    if (maxNorm === undefined || m === 0 || dim === 0) {
      return run(op, [input, weight], `${pad ?? ""}`, ([i, w]) => {
        const ids = e.reshape(i as Tracer, [m]);
        return e.reshape(padded(ids, e.indexSelect(w as Tracer, ids, 0)), outShape);
      });
    }
    if (!isFloating(weight.dtype)) throw new DTypeError(`${op}: maxNorm needs a floating weight (it takes norms), got ${weight.dtype}`);
    const [out, renormed] = runMany(op, [input, weight], `${maxNorm}|${normType}|${pad ?? ""}`, ([i, w]) => {
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
