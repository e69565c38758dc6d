/**
 * @file Distances and normalisation along a dim: cosineSimilarity, pairwiseDistance, normalize.
 * Half inputs compute in float32.
 */
import { ArgumentError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import * as e from "../emit.js";
import { broadcastShapes, normDim } from "../dims.js";
import { checkTensor, promote, run } from "../unit.js";
import { c, opmath, requireFloat, type T, vectorNorm } from "./nn_common.js";

function checkPair(op: string, x1: Tensor, x2: Tensor): void {
  checkTensor(op, x1, "x1");
  checkTensor(op, x2, "x2");
  requireFloat(op, x1, "x1");
  requireFloat(op, x2, "x2");
}

const checkP = (op: string, p: number): void => {
  if (typeof p !== "number" || Number.isNaN(p)) throw new ArgumentError(`${op}: p must be a number, got ${String(p)}`);
};

/** Σ (x1 / max(‖x1‖, eps)) (x2 / max(‖x2‖, eps)) along dim (inputs broadcast). */
export function cosineSimilarity(x1: Tensor, x2: Tensor, options: { dim?: number; eps?: number } = {}): Tensor {
  const op = "cosineSimilarity";
  checkPair(op, x1, x2);
  const shape = broadcastShapes(op, x1.shape, x2.shape);
  const dim = normDim(op, options.dim ?? 1, shape.length);
  const eps = options.eps ?? 1e-8;
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
}

/** ‖x1 − x2 + eps‖_p over the last dim. */
export function pairwiseDistance(x1: Tensor, x2: Tensor, options: { p?: number; eps?: number; keepdim?: boolean } = {}): Tensor {
  const op = "pairwiseDistance";
  checkPair(op, x1, x2);
  const p = options.p ?? 2;
  checkP(op, p);
  const eps = options.eps ?? 1e-6;
  const keepdim = options.keepdim ?? false;
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
}

/** x / max(‖x‖_p, eps) along dim. */
export function normalize(a: Tensor, options: { p?: number; dim?: number; eps?: number } = {}): Tensor {
  const op = "normalize";
  checkTensor(op, a);
  requireFloat(op, a);
  const p = options.p ?? 2;
  checkP(op, p);
  const dim = normDim(op, options.dim ?? 1, a.ndim);
  const eps = options.eps ?? 1e-12;
  return run(op, [a], `${p}|${dim}|${eps}`, ([x]) => {
    const t = e.convert(x as T, opmath((x as T).dtype));
    const n = t.ndim === 0 ? e.abs(t) : vectorNorm(t, p, dim);
    return e.convert(e.div(t, e.broadcastTo(e.max(n, c(n, eps)), t.shape)), (x as T).dtype);
  });
}
