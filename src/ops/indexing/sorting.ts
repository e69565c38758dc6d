/**
 * @file Sorting along one dim: sort, argsort, msort, topk, mode, and the order statistics kthvalue, median,
 * nanmedian, quantile and nanquantile. The sort is always stable (so `stable` changes nothing) and topk's result is always sorted
 * (so `sorted: false` changes nothing); NaN sorts as the largest value.
 */
import { isFloating, opmath } from "../../dtype.js";
import { DTypeError, ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import { fmtShape, normDim } from "../dims.js";
import * as e from "../emit.js";
import { prefix } from "../reduction/cumulative.js";
import { keptShape } from "../reduction/keep.js";
import { op } from "../signature/op.js";
import type { ValuesIndices } from "../types.js";
import { run, runMany } from "../unit.js";

function sortUnit(name: string, input: Tensor, dim: number, descending: boolean, which: "both" | "indices"): Tensor[] {
  const d = normDim(name, dim, input.ndim);
  return runMany(name, [input], `${d}|${descending ? 1 : 0}|${which}`, ([x]) => {
    const t = x!;
    if (t.ndim === 0) return which === "both" ? [t, e.full(0, "int64")] : [e.full(0, "int64")];
    const [values, indices] = e.sortAlong([t, e.iota("int64", t.shape, d)], d, descending);
    return which === "both" ? [values!, indices!] : [indices!];
  });
}

export const sort = op(
  "sort(input: Tensor, dim: int = -1, descending: bool = false, *, stable: bool = false) -> ValuesIndices",
  { doc: "`{ values, indices }` of `input` sorted along `dim`; always stable (equal values keep their order); NaN sorts as the largest value.", method: true },
  ({ input, dim, descending }) => {
    const [values, indices] = sortUnit("sort", input, dim, descending, "both");
    return { values: values!, indices: indices! };
  },
);

export const argsort = op(
  "argsort(input: Tensor, dim: int = -1, descending: bool = false, *, stable: bool = false) -> Tensor",
  { doc: "The indices that sort `input` along `dim` (int64); always stable; NaN sorts as the largest value.", method: true },
  ({ input, dim, descending }) => sortUnit("argsort", input, dim, descending, "indices")[0]!,
);

export const msort = op(
  "msort(input: Tensor) -> Tensor",
  { doc: "`input` sorted along its first dim (the values of sort(input, 0)); NaN sorts as the largest value.", method: true },
  ({ input }) => run("msort", [input], "", ([x]) => (input.ndim === 0 ? (x as Tracer) : e.sortAlong([x as Tracer], 0, false)[0]!)),
);

export const topk = op(
  "topk(input: Tensor, k: int, dim: int = -1, largest: bool = true, sorted: bool = true) -> ValuesIndices",
  { doc: "`{ values, indices }` of the `k` largest (or, with `largest: false`, smallest) elements along `dim`, always sorted.", method: true },
  ({ input, k, dim, largest }) => {
    if (input.dtype === "bool") throw new DTypeError("topk: bool tensors are not supported (as in PyTorch); convert to an integer dtype first");
    const d = normDim("topk", dim, input.ndim);
    const size = input.ndim === 0 ? 1 : input.shape[d]!;
    if (k < 0 || k > size) throw new ShapeError(`topk: k = ${k} is out of range for dimension ${d} of size ${size} (shape ${fmtShape(input.shape)})`);
    const [values, indices] = runMany("topk", [input], `${k}|${d}|${largest}`, ([x]) => {
      const t = x!.ndim === 0 ? e.reshape(x!, [1]) : x!;
      const sorted = e.sortAlong([t, e.iota("int64", t.shape, d)], d, largest);
      const limit = t.shape.map((s, i) => (i === d ? k : s));
      const cut = sorted.map((s) => e.slice(s, t.shape.map(() => 0), limit));
      return x!.ndim === 0 ? cut.map((c) => e.reshape(c, [])) : cut;
    });
    return { values: values!, indices: indices! };
  },
);

/**
 * Which element of each slice sorted ascending (NaN largest, stable) an order statistic takes: the
 * k-th; the lower median, or the first NaN when the slice holds one (PyTorch's median); the lower
 * median of the values that are not NaN (nanmedian: the first NaN when all are).
 */
type Statistic = { kind: "kth"; k: number } | { kind: "median" } | { kind: "nanmedian" };

/** The sorted position `statistic` takes in each slice of `t` along `d` (int64, `d` kept as 1). */
function positionOf(statistic: Statistic, t: Tracer, d: number): Tracer {
  const size = t.shape[d]!;
  const kept = keptShape(t, [d]);
  const constant = (v: number): Tracer => e.full(v, "int64", kept);
  if (statistic.kind === "kth") return constant(statistic.k - 1);
  const lowerMiddle = constant(Math.floor((size - 1) / 2));
  if (!isFloating(t.dtype)) return lowerMiddle;
  const nans = e.reshape(e.reduce("sum", e.convert(e.compare(t, t, "NE"), "int64"), [d]), kept);
  const hasNan = e.compare(nans, constant(0), "GT");
  const numbers = e.sub(constant(size), nans);
  if (statistic.kind === "median") return e.select(hasNan, numbers, lowerMiddle);
  return e.select(hasNan, e.div(e.max(e.sub(numbers, constant(1)), constant(0)), constant(2)), lowerMiddle);
}

/** The statistic's values and int64 indices of `t` (at least 1-d) along `d`, `d` kept as 1. */
function statisticAlong(statistic: Statistic, t: Tracer, d: number): Tracer[] {
  const sorted = e.sortAlong([t, e.iota("int64", t.shape, d)], d, false);
  const position = positionOf(statistic, t, d);
  return sorted.map((s) => e.gatherAlong(s, position, d));
}

function checkStatistic(name: string, input: Tensor, size: number, d: number, statistic: Statistic): void {
  if (input.dtype === "bool") throw new DTypeError(`${name}: bool tensors are not supported (as in PyTorch); convert to an integer dtype first`);
  if (size === 0) throw new ShapeError(`${name}: dimension ${d} of ${fmtShape(input.shape)} is empty`);
  if (statistic.kind === "kth" && (statistic.k < 1 || statistic.k > size)) {
    throw new ShapeError(`${name}: k = ${statistic.k} is out of range for dimension ${d} of size ${size} (shape ${fmtShape(input.shape)})`);
  }
}

/** `shape` reduced along `d`: `d` kept as 1 with `keepdim`, else left out (a 0-d shape stays 0-d). */
const reducedShape = (shape: readonly number[], d: number, keepdim: boolean): number[] =>
  shape.length === 0 ? [] : keepdim ? shape.map((s, i) => (i === d ? 1 : s)) : shape.filter((_, i) => i !== d);

function orderStatistic(name: string, input: Tensor, dim: number, keepdim: boolean, statistic: Statistic): ValuesIndices {
  const d = normDim(name, dim, input.ndim);
  checkStatistic(name, input, input.ndim === 0 ? 1 : input.shape[d]!, d, statistic);
  const statics = `${d}|${keepdim}|${statistic.kind}|${statistic.kind === "kth" ? statistic.k : ""}`;
  const [values, indices] = runMany(name, [input], statics, ([x]) => {
    const t = x!.ndim === 0 ? e.reshape(x!, [1]) : x!;
    return statisticAlong(statistic, t, d).map((r) => e.reshape(r, reducedShape(input.shape, d, keepdim)));
  });
  return { values: values!, indices: indices! };
}

/**
 * `value` (0-d, one of `flat`'s elements) with PyTorch's gradient for the median of all elements: spread
 * evenly over the elements equal to it (all NaNs, when it is NaN). The forward value keeps its bits
 * (−0 included); an infinite value passes no gradient.
 */
function spreadGradient(value: Tracer, flat: Tracer): Tracer {
  const n = flat.shape[0]!;
  const v = e.broadcastInDim(value, [n], []);
  const isNan = (t: Tracer): Tracer => e.compare(t, t, "NE");
  const ties = e.or(e.compare(flat, v, "EQ"), e.and(isNan(flat), isNan(v)));
  // the mean of the ties, each divided by their count first (no sum overflows), in float32 for halves
  const wide = opmath(flat.dtype);
  const count = e.broadcastInDim(e.reduce("sum", e.convert(ties, wide), [0]), [n], []);
  const spread = e.reduce("sum", e.select(ties, e.div(e.convert(flat, wide), count), e.full(0, wide, [n])), [0]);
  const none = e.convert(e.sub(e.stopGradient(spread), spread), flat.dtype); // 0 (NaN for a NaN value), with the spread's gradient negated
  const passes = e.or(isNan(value), e.isFinite(value));
  return e.sub(e.stopGradient(value), e.select(passes, none, e.full(0, flat.dtype)));
}

/** The statistic of all elements (0-d); NaN for an empty floating input, as PyTorch's. */
function statisticOfAll(name: string, input: Tensor, statistic: Statistic): Tensor {
  const n = input.numel();
  if (n > 0 || !isFloating(input.dtype)) checkStatistic(name, input, n, 0, statistic);
  return runMany(name, [input], `all|${statistic.kind}`, ([x]) => {
    if (n === 0) return [e.full(Number.NaN, input.dtype)];
    const flat = e.reshape(x!, [n]);
    const value = e.reshape(statisticAlong(statistic, flat, 0)[0]!, []);
    return [isFloating(input.dtype) ? spreadGradient(value, flat) : value];
  })[0]!;
}

export const kthvalue = op(
  "kthvalue(input: Tensor, k: int, dim: int = -1, keepdim: bool = false) -> ValuesIndices",
  { doc: "`{ values, indices }` of the k-th smallest element along `dim` (k from 1); NaN counts as the largest value.", method: true },
  ({ input, k, dim, keepdim }) => orderStatistic("kthvalue", input, dim, keepdim, { kind: "kth", k }),
);

export const median = op(
  ["median(input: Tensor) -> Tensor", "median(input: Tensor, dim: int, keepdim: bool = false) -> ValuesIndices"],
  {
    doc: "The lower median (of an even count, the smaller middle value): of all elements, or `{ values, indices }` along `dim`; NaN when there is a NaN (the first NaN's index).",
    method: true,
  },
  [({ input }) => statisticOfAll("median", input, { kind: "median" }), ({ input, dim, keepdim }) => orderStatistic("median", input, dim, keepdim, { kind: "median" })],
);

export const nanmedian = op(
  ["nanmedian(input: Tensor) -> Tensor", "nanmedian(input: Tensor, dim: int, keepdim: bool = false) -> ValuesIndices"],
  {
    doc: "median ignoring NaN: the lower median of the values that are not NaN, all elements or `{ values, indices }` along `dim`; NaN only where all are NaN.",
    method: true,
  },
  [({ input }) => statisticOfAll("nanmedian", input, { kind: "nanmedian" }), ({ input, dim, keepdim }) => orderStatistic("nanmedian", input, dim, keepdim, { kind: "nanmedian" })],
);

type Interpolation = "linear" | "lower" | "higher" | "midpoint" | "nearest";

/** The q's of quantile as numbers (a tensor q is read on the host to check them), and whether q was one value. */
function quantileLevels(name: string, input: Tensor, q: number | Tensor): { levels: number[]; scalar: boolean } {
  if (input.dtype !== "float32" && input.dtype !== "float64") {
    throw new DTypeError(`${name}: the input must be float32 or float64, got ${input.dtype}`);
  }
  let levels: number[];
  let scalar = true;
  if (typeof q === "number") levels = [q];
  else {
    if (q.ndim > 1) throw new ShapeError(`${name}: q must be a number, a 0-d or a 1-d tensor, got shape ${fmtShape(q.shape)}`);
    if (q.dtype !== input.dtype) throw new DTypeError(`${name}: q (${q.dtype}) must have the input's dtype (${input.dtype})`);
    levels = Array.from(q.dataSync() as Float32Array | Float64Array);
    scalar = q.ndim === 0;
  }
  for (const v of levels) if (!(v >= 0 && v <= 1)) throw new ShapeError(`${name}: q must be in the range [0, 1], got ${v}`);
  return { levels, scalar };
}

/**
 * PyTorch's quantile along `d` of `t` (at least 1-d) at each of `count` levels (`level(k)`: a tracer of
 * `t`'s dtype, `d` kept as 1), stacked along a new leading dim: ranks q·(n − 1) among the sorted values
 * (n counts the values that are not NaN for nanquantile; a slice with a NaN gives NaN for quantile),
 * then the two neighbours interpolated, so a tensor q gets its gradient through the weight.
 */
function quantilesAlong(t: Tracer, d: number, count: number, level: (k: number, kept: readonly number[]) => Tracer, interpolation: Interpolation, ignoreNan: boolean): Tracer {
  const size = t.shape[d]!;
  const kept = keptShape(t, [d]);
  const [sorted] = e.sortAlong([t], d, false);
  const full = (v: number): Tracer => e.full(v, t.dtype, kept);
  const nans = e.reshape(e.reduce("sum", e.convert(e.compare(t, t, "NE"), t.dtype), [d]), kept);
  const last = ignoreNan ? e.sub(full(size - 1), nans) : full(size - 1); // the last position that is not NaN
  const out: Tracer[] = [];
  for (let k = 0; k < count; k++) {
    let rank = e.mul(level(k, kept), e.max(last, full(0)));
    if (!ignoreNan) rank = e.select(e.compare(nans, full(0), "GT"), full(size - 1), rank);
    if (interpolation === "nearest") rank = e.roundEven(rank);
    const below = e.floor(rank), above = e.ceil(rank);
    const at = (r: Tracer): Tracer => e.gatherAlong(sorted!, e.convert(r, "int64"), d);
    let r: Tracer;
    if (interpolation === "lower" || interpolation === "nearest") r = at(below);
    else if (interpolation === "higher") r = at(above);
    else {
      const x = at(below), y = at(above);
      const w = interpolation === "midpoint" ? full(0.5) : e.sub(rank, below);
      // lerp from the nearer end, as PyTorch's
      const near = e.compare(e.abs(w), full(0.5), "LT");
      r = e.add(e.select(near, x, y), e.mul(e.select(near, w, e.sub(w, full(1))), e.sub(y, x)));
    }
    out.push(e.reshape(r, [1, ...kept]));
  }
  return e.concatenate(out, 0);
}

function quantileUnit(name: string, input: Tensor, q: number | Tensor, dim: number | undefined, keepdim: boolean, interpolation: Interpolation): Tensor {
  const { levels, scalar } = quantileLevels(name, input, q);
  if (input.numel() === 0) throw new ShapeError(`${name}: the input must not be empty`);
  const d = dim === undefined ? 0 : normDim(name, dim, input.ndim);
  const statics = `${typeof q === "number" ? q : `t${levels.length}`}|${scalar}|${dim ?? "all"}|${keepdim}|${interpolation}`;
  return runMany(name, typeof q === "number" ? [input] : [input, q], statics, ([x, qt]) => {
    const t = dim === undefined ? e.reshape(x!, [input.numel()]) : x!.ndim === 0 ? e.reshape(x!, [1]) : x!;
    const flatQ = qt === undefined ? undefined : e.reshape(qt, [levels.length]);
    const level = (k: number, kept: readonly number[]): Tracer =>
      flatQ === undefined ? e.full(levels[k]!, t.dtype, kept) : e.broadcastInDim(e.reshape(e.slice(flatQ, [k], [k + 1]), []), kept, []);
    const r = quantilesAlong(t, d, levels.length, level, interpolation, name === "nanquantile");
    const reduced = dim === undefined ? (keepdim ? input.shape.map(() => 1) : []) : reducedShape(input.shape, d, keepdim);
    return [e.reshape(r, scalar ? reduced : [levels.length, ...reduced])];
  })[0]!;
}

const interpolationDoc = "between two values `interpolation` chooses (linear, lower, higher, midpoint, or the nearest with ties to the even position)";

export const quantile = op(
  'quantile(input: Tensor, q: float | Tensor, dim?: int, keepdim: bool = false, *, interpolation: "linear" | "lower" | "higher" | "midpoint" | "nearest" = "linear") -> Tensor',
  {
    doc: `The q-th quantiles (q in [0, 1]: a number, or a 0-d or 1-d tensor, whose values make a leading dim and which is read on the host to check its range) of all elements or along \`dim\`, float32/float64 only; ${interpolationDoc}; NaN where a slice holds a NaN.`,
    method: true,
  },
  ({ input, q, dim, keepdim, interpolation }) => quantileUnit("quantile", input, q, dim, keepdim, interpolation),
);

export const nanquantile = op(
  'nanquantile(input: Tensor, q: float | Tensor, dim?: int, keepdim: bool = false, *, interpolation: "linear" | "lower" | "higher" | "midpoint" | "nearest" = "linear") -> Tensor',
  {
    doc: `quantile ignoring NaN: the q-th quantiles of the values that are not NaN (NaN only where all are), of all elements or along \`dim\`; ${interpolationDoc}.`,
    method: true,
  },
  ({ input, q, dim, keepdim, interpolation }) => quantileUnit("nanquantile", input, q, dim, keepdim, interpolation),
);

/**
 * The mode along `d` of `t` (at least 1-d, `d` not empty), `d` kept as 1: the most frequent value,
 * the smallest among equally frequent ones (each NaN counts once), and the last index where it
 * occurs. Runs of equal values in the stably sorted slice are counted; argmax then takes the first
 * (smallest) run of the largest count at its end, whose index is the value's last occurrence.
 */
function modeAlong(t: Tracer, d: number): Tracer[] {
  const n = t.shape[d]!;
  const [sorted, order] = e.sortAlong([t, e.iota("int64", t.shape, d)], d, false);
  const position = e.iota("int64", t.shape, d);
  const from = (start: number, limit: number): Tracer => e.slice(sorted!, t.shape.map((_, i) => (i === d ? start : 0)), t.shape.map((s, i) => (i === d ? limit : s)));
  const starts = e.concatenate([e.full(true, "bool", keptShape(t, [d])), e.compare(from(1, n), from(0, n - 1), "NE")], d);
  const runStart = e.reduceWindow("max", e.select(starts, position, e.full(0, "int64", t.shape)), prefix(position, d));
  const earlier = e.sub(position, runStart); // the equal values before each one
  const [, best] = e.argReduce("argmax", earlier, d);
  const at = e.reshape(best, keptShape(t, [d]));
  return [e.gatherAlong(sorted!, at, d), e.gatherAlong(order!, at, d)];
}

export const mode = op(
  "mode(input: Tensor, dim: int = -1, keepdim: bool = false) -> ValuesIndices",
  {
    doc: "`{ values, indices }` of the most frequent value along `dim`: the smallest of equally frequent values (each NaN counts once), with the last index where it occurs (PyTorch's CPU rule for rows of up to 16 elements; unspecified in PyTorch for longer rows).",
    method: true,
  },
  ({ input, dim, keepdim }) => {
    const d = normDim("mode", dim, input.ndim);
    const size = input.ndim === 0 ? 1 : input.shape[d]!;
    if (size === 0) throw new ShapeError(`mode: cannot take the mode over dimension ${d} of size 0 (shape ${fmtShape(input.shape)})`);
    const [values, indices] = runMany("mode", [input], `${d}|${keepdim}`, ([x]) => {
      const out = reducedShape(input.shape, d, keepdim);
      if (input.numel() === 0) return [e.full(0, input.dtype, out), e.full(0, "int64", out)];
      const t = x!.ndim === 0 ? e.reshape(x!, [1]) : x!;
      return modeAlong(t, d).map((r) => e.reshape(r, out));
    });
    return { values: values!, indices: indices! };
  },
);
