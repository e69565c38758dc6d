/**
 * @file Distances and norms along a dim: cosineSimilarity, pairwiseDistance, normalize, pdist, and the
 * vector p-norm they (and embedding's maxNorm) use. Half inputs compute in float32.
 */
import { ArgumentError, ShapeError } from "../../runtime/errors.js";
import * as e from "../emit.js";
import { broadcastShapes, fmtShape, normDim } from "../dims.js";
import { op } from "../signature/op.js";
import { absExtreme, powAbsOrZero, rootOrZero, sqrtOrZero } from "../reduction/norms.js";
import { promote, run } from "../unit.js";
import { prefix } from "../reduction/cumulative.js";
import { c, type T } from "./emitters.js";
import { opmath, requireFloat } from "./opmath.js";

/** x summed over `dims` with those dims kept as size 1. */
const sumKeep = (x: T, dims: readonly number[]): T => e.reshape(e.reduce("sum", x, dims), x.shape.map((d, i) => (dims.includes(i) ? 1 : d)));

/** The p-norm of x over `dim` (kept as size 1), as torch.norm: p = ±Infinity, 0 (count of nonzeros) or any other number. */
export function vectorNorm(x: T, p: number, dim: number): T {
  const kept = x.shape.map((d, i) => (i === dim ? 1 : d));
  if (p === Infinity || p === -Infinity) return e.reshape(absExtreme(p > 0 ? "max" : "min", x, [dim]), kept);
  if (p === 0) return sumKeep(e.convert(e.compare(x, c(x, 0), "NE"), x.dtype), [dim]);
  if (p === 1) return sumKeep(e.abs(x), [dim]);
  if (p === 2) return sqrtOrZero(sumKeep(e.mul(x, x), [dim]));
  return rootOrZero(sumKeep(powAbsOrZero(e.abs(x), p), [dim]), p);
}

const checkP = (op: string, p: number): void => {
  if (Number.isNaN(p)) throw new ArgumentError(`${op}: p must be a number, got ${String(p)}`);
};

export const cosineSimilarity = op(
  "cosineSimilarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor",
  { doc: "Σ (x1 / max(‖x1‖, eps)) · (x2 / max(‖x2‖, eps)) along `dim`, the inputs broadcast together (float tensors)." },
  ({ x1, x2, dim: d, eps }) => {
    const op = "cosineSimilarity";
    requireFloat(op, x1, "x1");
    requireFloat(op, x2, "x2");
    const shape = broadcastShapes(op, x1.shape, x2.shape);
    const dim = normDim(op, d, shape.length);
    return run(op, [x1, x2], `${dim}|${eps}`, ([a, b]) => {
      const out = promote(a!, b!);
      const dtype = opmath(out);
      const lift = (v: T) => e.broadcastTo(e.convert(v, dtype), shape);
      const unit = (v: T) => {
        const n = vectorNorm(v, 2, dim);
        return e.div(v, e.broadcastTo(e.max(n, c(n, eps)), shape));
      };
      const s = e.reduce("sum", e.mul(unit(lift(a as T)), unit(lift(b as T))), [dim]);
      return e.convert(s, out);
    });
  },
);

export const pairwiseDistance = op(
  "pairwiseDistance(x1: Tensor, x2: Tensor, p: float = 2, eps: float = 1e-6, keepdim: bool = false) -> Tensor",
  { doc: "‖x1 − x2 + eps‖_p over the last dim, the inputs broadcast together (float tensors)." },
  ({ x1, x2, p, eps, keepdim }) => {
    const op = "pairwiseDistance";
    requireFloat(op, x1, "x1");
    requireFloat(op, x2, "x2");
    checkP(op, p);
    const shape = broadcastShapes(op, x1.shape, x2.shape);
    return run(op, [x1, x2], `${p}|${eps}|${keepdim}`, ([a, b]) => {
      const out = promote(a!, b!);
      const dtype = opmath(out);
      const lift = (v: T) => e.broadcastTo(e.convert(v, dtype), shape);
      const d = e.add(e.sub(lift(a as T), lift(b as T)), e.full(eps, dtype, shape));
      if (shape.length === 0) return e.convert(e.abs(d), out);
      const last = shape.length - 1;
      const n = vectorNorm(d, p, last);
      return e.convert(keepdim ? n : e.reshape(n, shape.slice(0, -1)), out);
    });
  },
);

export const normalize = op(
  "normalize(input: Tensor, p: float = 2, dim: int = 1, eps: float = 1e-12) -> Tensor",
  { doc: "x / max(‖x‖_p, eps) along `dim` (float tensors); PyTorch's `out` is not supported." },
  ({ input, p, dim: d, eps }) => {
    const op = "normalize";
    requireFloat(op, input);
    checkP(op, p);
    const dim = normDim(op, d, input.ndim);
    return run(op, [input], `${p}|${dim}|${eps}`, ([x]) => {
      const t = e.convert(x as T, opmath((x as T).dtype));
      const n = t.ndim === 0 ? e.abs(t) : vectorNorm(t, p, dim);
      return e.convert(e.div(t, e.broadcastTo(e.max(n, c(n, eps)), t.shape)), (x as T).dtype);
    });
  },
);

/** The pairs i < j of `n` (≥ 2) rows in row-major order, as two int64 index vectors [n·(n − 1)/2] built in the graph. */
function pairs(n: number): [T, T] {
  const count = (n * (n - 1)) / 2;
  const int = (v: number, shape: readonly number[]): T => e.full(v, "int64", shape);
  // row i's pairs start at s(i) = i·n − i·(i + 1)/2
  const start = (i: T): T => e.sub(e.mul(i, int(n, i.shape)), e.div(e.mul(i, e.add(i, int(1, i.shape))), int(2, i.shape)));
  // the first row of pair q: how many rows 1 … n − 2 start at or before q (a prefix sum of marks at their starts)
  const later = e.add(e.iota("int64", [n - 1], 0), int(1, [n - 1]));
  const marks = e.indexScatter(int(0, [count]), 0, start(later), int(1, [n - 1]), "add");
  const first = e.reduceWindow("sum", marks, prefix(marks, 0));
  const second = e.add(e.sub(e.iota("int64", [count], 0), start(first)), e.add(first, int(1, [count])));
  return [first, second];
}

export const pdist = op(
  "pdist(input: Tensor, p: float = 2) -> Tensor",
  { doc: "The p-norm distances between the rows of [N, M], for every pair i < j in row-major order: [N·(N − 1)/2] (float tensors, p ≥ 0)." },
  ({ input, p }) => {
    const op = "pdist";
    requireFloat(op, input);
    if (input.ndim !== 2) throw new ShapeError(`${op}: only supports 2-d tensors [N, M], got ${fmtShape(input.shape)}`);
    if (!(p >= 0)) throw new ArgumentError(`${op}: only supports non-negative p values, got ${String(p)}`);
    const [n, m] = input.shape as [number, number];
    const count = (n * (n - 1)) / 2;
    return run(op, [input], String(p), ([x]) => {
      const t = e.convert(x as T, opmath((x as T).dtype));
      if (count === 0 || m === 0) return e.full(0, (x as T).dtype, [count]);
      const [first, second] = pairs(n);
      const diff = e.sub(e.indexSelect(t, first, 0), e.indexSelect(t, second, 0));
      return e.convert(e.reshape(vectorNorm(diff, p, 1), [count]), (x as T).dtype);
    });
  },
);
