/**
 * @file nn.functional.embedding: the rows of `weight` at each index, as one gather.
 *
 * Differences from PyTorch: indices may be any integer dtype; an index outside [0, num_embeddings)
 * is not an error (the device cannot raise one) but clamps into range, like our other gathers.
 * `paddingIdx`, `scaleGradByFreq` and `sparse` only change gradients in PyTorch; they are checked
 * and otherwise have no effect (no autograd yet; gradients will be dense). `maxNorm` renormalises
 * the looked-up rows of `weight` in place, as PyTorch does: `weight` is rebound to a new buffer.
 */
import { isFloating } from "../../dtype.js";
import { ArgumentError, DTypeError, ShapeError } from "../../runtime/errors.js";
import { rebind, type Tensor } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import * as e from "../emit.js";
import { fmtShape } from "../dims.js";
import { checkTensor, run, runMany } from "../unit.js";
import { checkIndexTensor } from "./indexing.js";
import { c, opmath, vectorNorm } from "./nn_common.js";

export interface EmbeddingOptions {
  /** A row index (negative counts from the end) whose gradient PyTorch keeps at zero; no effect on the values. */
  paddingIdx?: number | null;
  /** Rows looked up whose `normType`-norm exceeds this are scaled (in `weight`, in place) to norm maxNorm. */
  maxNorm?: number | null;
  /** The p of the norm for `maxNorm` (2). */
  normType?: number;
  /** Gradient-only in PyTorch; accepted. */
  scaleGradByFreq?: boolean;
  /** Gradient-only in PyTorch (a sparse gradient); accepted. */
  sparse?: boolean;
}

const KEYS = ["paddingIdx", "maxNorm", "normType", "scaleGradByFreq", "sparse"];

/** weight [num_embeddings, dim] rows at input (any shape) → [...input.shape, dim]. */
export function embedding(input: Tensor, weight: Tensor, options: EmbeddingOptions = {}): Tensor {
  const op = "embedding";
  checkIndexTensor(op, input, "input");
  checkTensor(op, weight, "weight");
  if (typeof options !== "object" || options === null) throw new ArgumentError(`${op}: options must be an object, got ${String(options)}`);
  for (const k of Object.keys(options)) if (!KEYS.includes(k)) throw new ArgumentError(`${op}: unknown option '${k}' (expected ${KEYS.join(", ")})`);
  const { paddingIdx = null, maxNorm = null, normType = 2, scaleGradByFreq = false, sparse = false } = options;
  if (weight.ndim !== 2) throw new ShapeError(`${op}: 'weight' must be 2-D [num_embeddings, embedding_dim], got ${fmtShape(weight.shape)}`);
  const [rows, dim] = weight.shape as [number, number];
  if (paddingIdx !== null && (!Number.isInteger(paddingIdx) || paddingIdx < -rows || paddingIdx >= rows)) {
    throw new ArgumentError(`${op}: paddingIdx must be an integer within num_embeddings (in [${-rows}, ${rows - 1}]), got ${String(paddingIdx)}`);
  }
  if (maxNorm !== null && (typeof maxNorm !== "number" || Number.isNaN(maxNorm))) throw new ArgumentError(`${op}: maxNorm must be a number, got ${String(maxNorm)}`);
  if (typeof normType !== "number" || Number.isNaN(normType)) throw new ArgumentError(`${op}: normType must be a number, got ${String(normType)}`);
  if (typeof scaleGradByFreq !== "boolean" || typeof sparse !== "boolean") throw new ArgumentError(`${op}: scaleGradByFreq and sparse must be booleans`);
  if (rows === 0 && input.numel() > 0) throw new ShapeError(`${op}: cannot look up indices in an empty weight ${fmtShape(weight.shape)}`);
  const outShape = [...input.shape, dim];
  const m = input.numel();

  if (maxNorm === null || m === 0 || dim === 0) {
    return run(op, [input, weight], "", ([i, w]) => e.reshape(e.indexSelect(w as Tracer, e.reshape(i as Tracer, [m]), 0), outShape));
  }
  if (!isFloating(weight.dtype)) throw new DTypeError(`${op}: maxNorm needs a floating weight (it takes norms), got ${weight.dtype}`);
  const [out, renormed] = runMany(op, [input, weight], `${maxNorm}|${normType}`, ([i, w]) => {
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
    return [e.reshape(rowsOut, outShape), written];
  });
  rebind(weight, renormed!);
  return out!;
}
