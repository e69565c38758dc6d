/**
 * @file Distances: dist (the p-norm of a difference) and cdist (the p-norm distance of every pair of
 * rows of two batches of matrices). float16/bfloat16 compute in float32 and round once.
 */
import { dtypes } from "../../dtype.js";
import { ArgumentError, DTypeError, ShapeError } from "../../runtime/errors.js";
import type { Tracer } from "../../trace/tracer.js";
import { inOpmath } from "../accumulate.js";
import { broadcastShapes, fmtShape } from "../dims.js";
import * as e from "../emit.js";
import { vectorNorm } from "../reduction/norms.js";
import { op } from "../signature/op.js";
import { promote, run } from "../unit.js";

type T = Tracer;

/**
 * PyTorch's matrix-product form of the Euclidean distances of the rows of x [..., P, M] and y
 * [..., R, M] (same batch dims): sqrt(|x|² − 2 x·y + |y|²), clamped at 1e-30 before the root.
 */
function euclideanByProduct(x: T, y: T): T {
  const b = x.ndim - 2;
  const squares = (v: T): T => e.reshape(e.reduce("sum", e.mul(v, v), [b + 1]), [...v.shape.slice(0, -1), 1]);
  const ones = (v: T): T => e.full(1, v.dtype, [...v.shape.slice(0, -1), 1]);
  const xs = e.concatenate([e.mul(x, e.full(-2, x.dtype, x.shape)), squares(x), ones(x)], b + 1);
  const ys = e.concatenate([y, ones(y), squares(y)], b + 1);
  const batch = x.shape.slice(0, b).map((_, i) => i);
  const d2 = e.dotGeneral(xs, ys, batch, batch, [b + 1], [b + 1]);
  return e.sqrt(e.max(d2, e.full(1e-30, d2.dtype, d2.shape)));
}

export const dist = op(
  "dist(input: Tensor, other: Tensor, p: float = 2) -> Tensor",
  { doc: "The p-norm of input − other (broadcast, dtypes promoted to a floating one), over all elements: 0-d. p may be 0 (the count of differing elements), inf or -inf.", method: true },
  ({ input, other, p }) =>
    run("dist", [input, other], String(p), ([a, b]) => {
      const [x, y] = [a as T, b as T];
      if (x.dtype === "bool" || y.dtype === "bool") throw new DTypeError("dist: bool tensors are not supported (their difference is not defined); convert to a floating dtype");
      const dtype = promote(x, y);
      if (dtypes[dtype].kind !== "float") throw new DTypeError(`dist: expects floating point inputs, got ${x.dtype} and ${y.dtype} (convert one with .float())`);
      const shape = broadcastShapes("dist", x.shape, y.shape);
      const n = shape.reduce((q, s) => q * s, 1);
      if (n === 0 && (p < 0 || p === Infinity)) throw new ShapeError(`dist: cannot compute the ${p} norm of empty tensors (shape ${fmtShape(shape)}): the reduction has no identity`);
      const flat = (v: T): T => e.reshape(e.broadcastTo(e.convert(v, dtype), shape), [n]);
      return inOpmath(flat(x), (wx) => vectorNorm(e.sub(wx, e.convert(flat(y), wx.dtype)), p, [0]));
    }),
);

const computeModes = ["use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist", "donot_use_mm_for_euclid_dist"];

export const cdist = op(
  "cdist(x1: Tensor, x2: Tensor, p: float = 2, computeMode?: str) -> Tensor",
  {
    doc: "[…, P, R]: the p-norm distance between each row of x1 [B…, P, M] and each row of x2 [B…, R, M] (batch dims broadcast; one floating dtype; p ≥ 0, inf allowed). For p = 2, `computeMode` picks PyTorch's matrix-product form (by default when P or R > 25) or the direct one.",
  },
  ({ x1, x2, p, computeMode }) => {
    if (computeMode !== undefined && !computeModes.includes(computeMode)) {
      throw new ArgumentError(`cdist: computeMode must be one of ${computeModes.join(", ")}, got "${computeMode}"`);
    }
    return run("cdist", [x1, x2], `${p}|${computeMode ?? ""}`, ([a, b]) => {
      const [x, y] = [a as T, b as T];
      for (const [name, v] of [["x1", x], ["x2", y]] as const) {
        if (v.ndim < 2) throw new ShapeError(`cdist: expects at least 2-d tensors, ${name} has shape ${fmtShape(v.shape)}`);
        if (dtypes[v.dtype].kind !== "float") throw new DTypeError(`cdist: expects floating point tensors, ${name} is ${v.dtype}`);
      }
      if (x.dtype !== y.dtype) throw new DTypeError(`cdist: x1 and x2 must have the same dtype, got ${x.dtype} and ${y.dtype}`);
      const m = x.shape[x.ndim - 1]!;
      if (y.shape[y.ndim - 1] !== m) throw new ShapeError(`cdist: x1 and x2 must have the same number of columns, got shapes ${fmtShape(x.shape)} and ${fmtShape(y.shape)}`);
      if (!(p >= 0)) throw new ArgumentError(`cdist: p must be non-negative, got ${p}`);
      const batch = broadcastShapes("cdist", x.shape.slice(0, -2), y.shape.slice(0, -2));
      const [rows, cols] = [x.shape[x.ndim - 2]!, y.shape[y.ndim - 2]!];
      const mode = computeMode ?? computeModes[0];
      if (p === 2 && m > 0 && (mode === "use_mm_for_euclid_dist" || (mode === computeModes[0] && (rows > 25 || cols > 25)))) {
        const whole = (v: T, r: number): T => e.broadcastTo(v, [...batch, r, m]);
        return inOpmath(whole(x, rows), (wx) => euclideanByProduct(wx, e.convert(whole(y, cols), wx.dtype)));
      }
      const shape = [...batch, rows, cols, m];
      const nb = batch.length;
      const at = (v: T, rowDim: number): T => e.broadcastInDim(v, shape, [...v.shape.slice(0, -2).map((_, i) => nb - (v.ndim - 2) + i), rowDim, nb + 2]);
      // max over no columns: 0, as PyTorch gives
      return inOpmath(at(x, nb), (wx) => vectorNorm(e.sub(wx, e.convert(at(y, nb + 1), wx.dtype)), m === 0 ? 1 : p, [nb + 2]));
    });
  },
);
