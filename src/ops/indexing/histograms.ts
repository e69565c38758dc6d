/**
 * @file Counting values into bins: bincount, histc and histogram. The number of bins of bincount,
 * and the range of histc/histogram when it comes from the data, are read back to the host (a
 * synchronous device → host transfer) before the unit that counts runs. Counts are scatter-adds, so
 * bincount's and histogram's weights get their gradient.
 */
import { type DType, dtypes, isFloating } from "../../dtype.js";
import { ArgumentError, DTypeError, ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import { fmtShape, sameShape } from "../dims.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import type { Histogram } from "../types.js";
import { insertionPoint } from "./searching.js";
import { run, runMany } from "../unit.js";

/** `weights` (or ones of `dtype`) added up into `size` bins at the int64 `bins` ([n]); bins out of [0, size) are skipped. */
function countInto(bins: Tracer, weights: Tracer | undefined, dtype: DType, size: number): Tracer {
  const n = bins.shape[0]!;
  return e.scatter(e.full(0, dtype, [size]), e.reshape(bins, [n, 1]), weights ?? e.full(1, dtype, [n]), {
    kind: "add", updateWindowDims: [], insertedWindowDims: [0], scatterDimsToOperandDims: [0], indexVectorDim: 1,
  });
}

/** The smallest and largest element of a non-empty `input`, read back to the host (NaN when there is one). */
function rangeOf(name: string, input: Tensor): [number, number] {
  const [lo, hi] = runMany(`${name}.range`, [input], "", ([x]) => {
    const flat = e.reshape(x!, [input.numel()]);
    return [e.reduce("min", flat, [0]), e.reduce("max", flat, [0])];
  });
  const range: [number, number] = [Number(lo!.item()), Number(hi!.item())];
  lo!.dispose();
  hi!.dispose();
  return range;
}

export const bincount = op(
  "bincount(input: Tensor, weights?: Tensor, minlength: int = 0) -> Tensor",
  {
    doc: "How often each value 0, 1, … occurs in the 1-d non-negative integer `input` (or the sum of `weights` at its positions): int64 counts, weights' dtype for float32/float64 weights, else float64; length max(input) + 1, at least `minlength`. Reads the largest value back to the host.",
    method: true,
  },
  ({ input, weights, minlength }) => {
    const kind = dtypes[input.dtype].kind;
    if (kind !== "int" && kind !== "uint") throw new DTypeError(`bincount: the input must be an integer tensor, got ${input.dtype}`);
    if (input.ndim !== 1) throw new ShapeError(`bincount: the input must be 1-d, got ${fmtShape(input.shape)}`);
    if (minlength < 0) throw new ArgumentError(`bincount: minlength must be >= 0, got ${minlength}`);
    if (weights !== undefined && !sameShape(weights.shape, input.shape)) {
      throw new ShapeError(`bincount: weights ${fmtShape(weights.shape)} must be 1-d with one value per input element ${fmtShape(input.shape)}`);
    }
    const n = input.numel();
    const [lo, hi] = n === 0 ? [0, -1] : rangeOf("bincount", input);
    if (lo < 0) throw new ShapeError(`bincount: the input must not be negative, got ${lo}`);
    const size = Math.max(hi + 1, minlength);
    const dtype: DType = weights === undefined ? "int64" : weights.dtype === "float32" || weights.dtype === "float64" ? weights.dtype : "float64";
    return runMany("bincount", weights === undefined ? [input] : [input, weights], `${size}`, ([x, w]) => [
      countInto(e.convert(x!, "int64"), w === undefined ? undefined : e.convert(w, dtype), dtype, size),
    ])[0]!;
  },
);

/** The bin of each element of `x` ([n]) among `bins` equal bins from `left` to `right` (constants of x's dtype); `bins` (skipped) outside them or NaN. */
function linearBin(x: Tracer, bins: number, left: Tracer, right: Tracer): Tracer {
  const n = x.shape[0]!;
  const at = (v: Tracer): Tracer => e.broadcastInDim(v, [n], []);
  const inside = e.and(e.compare(x, at(left), "GE"), e.compare(x, at(right), "LE"));
  const scaled = e.div(e.mul(e.sub(x, at(left)), e.full(bins, x.dtype, [n])), at(e.sub(right, left)));
  const bin = e.min(e.convert(e.select(inside, scaled, e.full(0, x.dtype, [n])), "int64"), e.full(bins - 1, "int64", [n]));
  return e.select(inside, bin, e.full(bins, "int64", [n]));
}

export const histc = op(
  "histc(input: Tensor, bins: int = 100, min: Scalar = 0, max: Scalar = 0) -> Tensor",
  {
    doc: "A histogram of the elements of a floating `input` in `bins` equal bins from `min` to `max` (the data's range when min = max, read back to the host; widened by 1 each way when still equal); elements outside and NaN are not counted. In the input's dtype.",
    method: true,
  },
  ({ input, bins, min, max }) => {
    if (!isFloating(input.dtype)) throw new DTypeError(`histc: the input must be a floating tensor, got ${input.dtype} (convert first, e.g. x.to("float32"))`);
    if (bins <= 0) throw new ArgumentError(`histc: bins must be > 0, got ${bins}`);
    let [left, right] = [Number(min), Number(max)];
    if (left === right && input.numel() > 0) [left, right] = rangeOf("histc", input);
    if (left === right) [left, right] = [left - 1, right + 1];
    if (!Number.isFinite(left) || !Number.isFinite(right)) throw new ArgumentError(`histc: the range [${left}, ${right}] is not finite (pass finite min and max, or remove NaN and inf)`);
    if (!(left < right)) throw new ArgumentError(`histc: max must be larger than min, got min ${left} and max ${right}`);
    return run("histc", [input], `${bins}|${left}|${right}`, ([x]) => {
      const t = x as Tracer;
      const flat = e.reshape(t, [t.numel()]);
      return countInto(linearBin(flat, bins, e.full(left, t.dtype), e.full(right, t.dtype)), undefined, t.dtype, bins);
    });
  },
);

/** `count` + 1 edges evenly spaced from `left` to `right` in `dtype`, computed as PyTorch's linspace (the first half up from left, the second down from right). */
function evenEdges(left: number, right: number, count: number, dtype: DType): Tracer {
  const steps = count + 1;
  const c = (v: number | Tracer): Tracer => (typeof v === "number" ? e.full(v, dtype, [steps]) : e.broadcastInDim(v, [steps], []));
  const step = e.div(e.sub(e.full(right, dtype), e.full(left, dtype)), e.full(count, dtype));
  const i = e.iota(dtype, [steps], 0);
  const up = e.add(c(left), e.mul(c(step), i));
  const down = e.sub(c(right), e.mul(c(step), e.sub(c(steps - 1), i)));
  return e.select(e.compare(i, c(Math.floor(steps / 2)), "LT"), up, down);
}

/** The bin of each element of `x` ([n]) among the increasing `edges`: the last edge at or below it (the last bin closed); `edges.length - 1` (skipped) outside them or NaN. */
function binAmong(x: Tracer, edges: Tracer): Tracer {
  const n = x.shape[0]!;
  const m = edges.shape[0]!;
  const atOrBelow = insertionPoint(e.broadcastInDim(edges, [n, m], [1]), x, true, "int64");
  const bin = e.min(e.sub(atOrBelow, e.full(1, "int64", [n])), e.full(m - 2, "int64", [n]));
  const first = e.reshape(e.slice(edges, [0], [1]), []), last = e.reshape(e.slice(edges, [m - 1], [m]), []);
  const inside = e.and(e.compare(x, e.broadcastInDim(first, [n], []), "GE"), e.compare(x, e.broadcastInDim(last, [n], []), "LE"));
  return e.select(inside, bin, e.full(m - 1, "int64", [n]));
}

/**
 * The bin of each element of `x` ([n]) among the evenly spaced `edges` ([bins + 1]), as PyTorch
 * finds it: the linear estimate, then corrected by the edges on either side (the computed edges
 * may be off by a rounding from the estimate's); `bins` (skipped) outside or NaN.
 */
function evenBin(x: Tracer, edges: Tracer): Tracer {
  const n = x.shape[0]!;
  const bins = edges.shape[0]! - 1;
  const edge = (k: number): Tracer => e.reshape(e.slice(edges, [k], [k + 1]), []);
  const estimate = linearBin(x, bins, edge(0), edge(bins));
  const index = (shift: number): Tracer => e.add(estimate, e.full(shift, "int64", [n]));
  // upper_bound among edges estimate−1 … estimate+1 (those that exist), minus one
  let count = e.full(-1, "int64", [n]);
  for (const shift of [-1, 0, 1]) {
    const k = index(shift);
    const exists = e.and(e.compare(k, e.full(0, "int64", [n]), "GE"), e.compare(k, e.full(bins, "int64", [n]), "LE"));
    const atOrBelow = e.and(exists, e.compare(e.gatherAlong(edges, k, 0), x, "LE"));
    count = e.add(count, e.convert(atOrBelow, "int64"));
  }
  const bin = e.min(e.add(e.max(index(-1), e.full(0, "int64", [n])), count), e.full(bins - 1, "int64", [n]));
  return e.select(e.compare(estimate, e.full(bins, "int64", [n]), "EQ"), estimate, bin);
}

export const histogram = op(
  [
    "histogram(input: Tensor, bins: Tensor, *, weight?: Tensor, density: bool = false) -> Histogram",
    "histogram(input: Tensor, bins: int = 100, *, range?: float[], weight?: Tensor, density: bool = false) -> Histogram",
  ],
  {
    doc: "`{ hist, binEdges }` of the elements of a float32/float64 `input`: `bins` equal bins over `range` (default: the data's range, read back to the host; widened by 0.5 each way when empty), or the increasing edges of a 1-d tensor `bins`; each element counts 1 or its `weight`, the last bin is closed, elements outside and NaN are not counted; with `density` the counts are divided by their total and the bin widths.",
    method: true,
  },
  [
    ({ input, bins, weight, density }) => {
      checkHistogram(input, weight);
      if (bins.ndim !== 1) throw new ShapeError(`histogram: a bins tensor must be 1-d, got ${fmtShape(bins.shape)}`);
      if (bins.numel() < 2) throw new ShapeError(`histogram: a bins tensor needs at least two edges (one bin), got ${bins.numel()}`);
      if (bins.dtype !== input.dtype) throw new DTypeError(`histogram: the bins (${bins.dtype}) must have the input's dtype (${input.dtype})`);
      return histogramUnit(input, weight, density, bins, (x, edges) => ({ bin: binAmong(x, edges!), edges: edges! }));
    },
    ({ input, bins, range, weight, density }) => {
      checkHistogram(input, weight);
      if (bins <= 0) throw new ArgumentError(`histogram: bins must be > 0, got ${bins}`);
      if (range !== undefined && range.length !== 2) throw new ArgumentError(`histogram: range must be [min, max], got ${range.length} values`);
      let [left, right] = range ?? (input.numel() > 0 ? rangeOf("histogram", input) : [0, 1]);
      if (!Number.isFinite(left) || !Number.isFinite(right)) throw new ArgumentError(`histogram: the range [${left}, ${right}] is not finite (pass a finite range, or remove NaN and inf)`);
      if (left > right) throw new ArgumentError(`histogram: the range's min must not exceed its max, got [${left}, ${right}]`);
      if (left === right) [left, right] = [left - 0.5, right + 0.5];
      return histogramUnit(input, weight, density, `${bins}|${left}|${right}`, (x) => {
        const edges = evenEdges(left, right, bins, x.dtype);
        return { bin: evenBin(x, edges), edges };
      });
    },
  ],
);

function checkHistogram(input: Tensor, weight: Tensor | undefined): void {
  if (input.dtype !== "float32" && input.dtype !== "float64") throw new DTypeError(`histogram: the input must be float32 or float64, got ${input.dtype}`);
  if (weight === undefined) return;
  if (!sameShape(weight.shape, input.shape)) throw new ShapeError(`histogram: weight ${fmtShape(weight.shape)} must have the input's shape ${fmtShape(input.shape)}`);
  if (weight.dtype !== input.dtype) throw new DTypeError(`histogram: weight (${weight.dtype}) must have the input's dtype (${input.dtype})`);
}

/**
 * Runs histogram: `edges` is the bins tensor, or the static key of even bins; `binsOf` gives each
 * flat element's bin (the bin count when not counted) and the edges (the bins tensor's, or computed).
 */
function histogramUnit(input: Tensor, weight: Tensor | undefined, density: boolean, edges: Tensor | string, binsOf: (x: Tracer, given?: Tracer) => { bin: Tracer; edges: Tracer }): Histogram {
  const inputs = [input, ...(typeof edges === "string" ? [] : [edges]), ...(weight === undefined ? [] : [weight])];
  const statics = `${typeof edges === "string" ? edges : "edges"}|${weight !== undefined}|${density}`;
  const [hist, binEdges] = runMany("histogram", inputs, statics, (xs) => {
    const x = e.reshape(xs[0]!, [input.numel()]);
    const w = weight === undefined ? undefined : e.reshape(xs.at(-1)!, [input.numel()]);
    const found = binsOf(x, typeof edges === "string" ? undefined : xs[1]!);
    const size = found.edges.shape[0]! - 1;
    let counts = countInto(found.bin, w, x.dtype, size);
    if (density) {
      const total = e.broadcastInDim(e.reduce("sum", counts, [0]), [size], []);
      const widths = e.sub(e.slice(found.edges, [1], [size + 1]), e.slice(found.edges, [0], [size]));
      counts = e.div(e.div(counts, total), widths);
    }
    return [counts, found.edges];
  });
  return { hist: hist!, binEdges: binEdges! };
}
