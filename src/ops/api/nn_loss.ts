/**
 * @file Losses: crossEntropy and nllLoss (class indices picked with one-hot masks from iota +
 * compare, no gather), oneHot, mseLoss, l1Loss, smoothL1Loss, huberLoss, binaryCrossEntropy (log
 * clamped at −100 as in PyTorch), binaryCrossEntropyWithLogits and klDiv. Half inputs compute in float32.
 *
 * Differences from PyTorch: class indices out of range (other than ignoreIndex) and BCE inputs
 * outside [0, 1] are not checked (that needs the values on the host); such entries contribute 0.
 */
import { isFloating } from "../../dtype.js";
import { ArgumentError, DTypeError, ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import * as e from "../emit.js";
import { broadcastShapes, fmtShape, sameShape } from "../dims.js";
import { checkTensor, run } from "../unit.js";
import { amax, amin } from "../reduction/extremes.js";
import { c, checkReduction, log1p, opmath, type Reduction, reduceLoss, requireFloat, runOptional, type T } from "./nn_common.js";

const reductions = ["mean", "sum", "none"] as const;

// --- class-index losses -----------------------------------------------------------------------------

export interface NllLossOptions {
  /** A weight per class, shape [C]. */
  weight?: Tensor | null;
  ignoreIndex?: number;
  reduction?: Reduction;
}

export interface CrossEntropyOptions extends NllLossOptions {
  labelSmoothing?: number;
}

/** The class dim of input ([C], [N, C] or [N, C, d1, …]) and a check of the target's shape and dtype. */
function classTarget(op: string, input: Tensor, target: Tensor, weight: Tensor | null): void {
  if (input.ndim === 0) throw new ShapeError(`${op}: input must have a class dimension ([C], [N, C] or [N, C, d1, …]), got a 0-d tensor`);
  const classDim = input.ndim === 1 ? 0 : 1;
  const want = input.shape.filter((_, i) => i !== classDim);
  if (!sameShape(target.shape, want)) {
    throw new ShapeError(`${op}: class-index target must have shape ${fmtShape(want)} for input ${fmtShape(input.shape)}, got ${fmtShape(target.shape)}`);
  }
  if (target.dtype !== "int64") throw new DTypeError(`${op}: class-index target must be int64, got ${target.dtype} (convert it with .to("int64"))`);
  const classes = input.shape[classDim]!;
  if (weight && !sameShape(weight.shape, [classes])) throw new ShapeError(`${op}: weight must have shape [${classes}] (one per class), got ${fmtShape(weight.shape)}`);
}

interface Picked {
  /** −weight[target] × logp[target] per element, 0 where ignored: [N, d1, …]. */
  loss: T;
  /** weight[target] per element, 0 where ignored. */
  weightOfTarget: T;
  /** target ≠ ignoreIndex. */
  kept: T;
}

/** Picks each element's target class from logp ([C] / [N, C, …], opmath) with a one-hot mask. */
function pick(logp: T, target: T, weight: T | undefined, ignoreIndex: number): Picked {
  const classDim = logp.ndim === 1 ? 0 : 1;
  const others = logp.shape.map((_, i) => i).filter((i) => i !== classDim);
  const hit = e.compare(e.iota("int64", logp.shape, classDim), e.broadcastInDim(target, logp.shape, others), "EQ");
  const zero = c(logp, 0);
  const picked = e.reduce("sum", e.select(hit, logp, zero), [classDim]);
  const w = weight ? e.broadcastInDim(e.convert(weight, logp.dtype), logp.shape, [classDim]) : c(logp, 1);
  const kept = e.compare(target, e.full(BigInt(ignoreIndex), "int64", target.shape), "NE");
  const none = c(picked, 0);
  const weightOfTarget = e.select(kept, e.reduce("sum", e.select(hit, w, zero), [classDim]), none);
  const loss = e.select(kept, e.neg(e.mul(picked, weightOfTarget)), none);
  return { loss, weightOfTarget, kept };
}

/** mean divides by the total weight of the kept targets (their count without weights). */
function reduceWeighted(loss: T, weightOfTarget: T, reduction: Reduction): T {
  if (reduction !== "mean") return reduceLoss(loss, reduction);
  const all = loss.shape.map((_, i) => i);
  return e.div(e.reduce("sum", loss, all), e.reduce("sum", weightOfTarget, all));
}

function logSoftmaxOver(x: T, dim: number): T {
  const kept = x.shape.map((d, i) => (i === dim ? 1 : d));
  const m = e.reshape(e.reduce("max", x, [dim]), kept);
  const z = e.sub(x, e.broadcastTo(e.select(e.isFinite(m), m, c(m, 0)), x.shape));
  const lse = e.log(e.reshape(e.reduce("sum", e.exp(z), [dim]), kept));
  return e.sub(z, e.broadcastTo(lse, x.shape));
}

function nllOptions(op: string, o: NllLossOptions): { weight: Tensor | null; ignoreIndex: number; reduction: Reduction } {
  const ignoreIndex = o.ignoreIndex ?? -100;
  if (!Number.isInteger(ignoreIndex)) throw new ArgumentError(`${op}: ignoreIndex must be an integer, got ${ignoreIndex}`);
  return { weight: o.weight ?? null, ignoreIndex, reduction: checkReduction(op, o.reduction ?? "mean", reductions) };
}

/** Negative log likelihood of class indices: input holds log-probabilities [C] / [N, C] / [N, C, d1, …]. */
export function nllLoss(input: Tensor, target: Tensor, options: NllLossOptions = {}): Tensor {
  const op = "nllLoss";
  checkTensor(op, input);
  checkTensor(op, target, "target");
  requireFloat(op, input);
  const { weight, ignoreIndex, reduction } = nllOptions(op, options);
  classTarget(op, input, target, weight);
  return runOptional(op, [input, target, weight], `${ignoreIndex}|${reduction}`, ([x, t, w]) => {
    const p = pick(e.convert(x!, opmath(x!.dtype)), t!, w, ignoreIndex);
    return e.convert(reduceWeighted(p.loss, p.weightOfTarget, reduction), x!.dtype);
  });
}

/**
 * logSoftmax over the class dim, then nllLoss for class-index targets (int64) or −Σ target × logp for
 * class-probability targets (a float tensor of the input's shape); labelSmoothing mixes in the uniform
 * distribution as PyTorch does.
 */
export function crossEntropy(input: Tensor, target: Tensor, options: CrossEntropyOptions = {}): Tensor {
  const op = "crossEntropy";
  checkTensor(op, input);
  checkTensor(op, target, "target");
  requireFloat(op, input);
  const { weight, ignoreIndex, reduction } = nllOptions(op, options);
  const eps = options.labelSmoothing ?? 0;
  if (!(eps >= 0 && eps <= 1)) throw new ArgumentError(`${op}: labelSmoothing must be in [0, 1], got ${eps}`);
  const probabilities = isFloating(target.dtype);
  if (probabilities) {
    if (!sameShape(target.shape, input.shape)) {
      throw new ShapeError(`${op}: a class-probability target must have the input's shape ${fmtShape(input.shape)}, got ${fmtShape(target.shape)}`);
    }
    if (target.dtype !== input.dtype) throw new DTypeError(`${op}: a class-probability target must have the input's dtype ${input.dtype}, got ${target.dtype}`);
    if (input.ndim === 0) throw new ShapeError(`${op}: input must have a class dimension, got a 0-d tensor`);
    const classes = input.shape[input.ndim === 1 ? 0 : 1]!;
    if (weight && !sameShape(weight.shape, [classes])) throw new ShapeError(`${op}: weight must have shape [${classes}], got ${fmtShape(weight.shape)}`);
  } else {
    classTarget(op, input, target, weight);
  }
  return runOptional(op, [input, target, weight], `${ignoreIndex}|${reduction}|${eps}`, ([x, t, w]) => {
    const dtype = opmath(x!.dtype);
    const classDim = x!.ndim === 1 ? 0 : 1;
    const classes = x!.shape[classDim]!;
    const logp = logSoftmaxOver(e.convert(x!, dtype), classDim);
    const weighted = w ? e.mul(logp, e.broadcastInDim(e.convert(w, dtype), logp.shape, [classDim])) : logp;
    if (probabilities) {
      let p = e.convert(t!, dtype);
      if (eps > 0) p = e.add(e.mul(p, c(p, 1 - eps)), c(p, eps / classes));
      const loss = e.neg(e.reduce("sum", e.mul(weighted, p), [classDim]));
      // mean: over the batch elements (input.numel / C), whatever the weights
      return e.convert(reduceLoss(loss, reduction), x!.dtype);
    }
    const nll = pick(logp, t!, w, ignoreIndex);
    let out = reduceWeighted(nll.loss, nll.weightOfTarget, reduction);
    if (eps > 0) {
      const smoothEach = e.select(nll.kept, e.neg(e.reduce("sum", weighted, [classDim])), c(nll.loss, 0));
      let smooth: T;
      if (reduction !== "mean") smooth = reduceLoss(smoothEach, reduction);
      else {
        const all = smoothEach.shape.map((_, i) => i);
        const denominator = w ? e.reduce("sum", nll.weightOfTarget, all) : e.reduce("sum", e.convert(nll.kept, dtype), all);
        smooth = e.div(e.reduce("sum", smoothEach, all), denominator);
      }
      out = e.add(e.mul(out, c(out, 1 - eps)), e.mul(smooth, c(smooth, eps / classes)));
    }
    return e.convert(out, x!.dtype);
  });
}

/**
 * int64 [*] → int64 [*, numClasses] with a 1 at each value. Like PyTorch on CPU, it reads the smallest
 * and largest value from the device (one host sync) to infer numClasses (−1, the default) and to reject
 * values outside [0, numClasses).
 */
export function oneHot(a: Tensor, options: { numClasses?: number } = {}): Tensor {
  const op = "oneHot";
  checkTensor(op, a);
  if (a.dtype !== "int64") throw new DTypeError(`${op}: is only applicable to int64 (class index) tensors, got ${a.dtype}`);
  let classes = options.numClasses ?? -1;
  if (!Number.isInteger(classes) || classes < -1) throw new ArgumentError(`${op}: numClasses must be a non-negative integer or -1, got ${classes}`);
  if (a.numel() === 0 && classes === -1) throw new ArgumentError(`${op}: cannot infer the number of classes from an empty tensor; pass numClasses`);
  if (a.numel() > 0) {
    const [lo, hi] = [amin(a), amax(a)];
    let smallest: number;
    let largest: number;
    try {
      [smallest, largest] = [Number(lo.item()), Number(hi.item())];
    } finally {
      lo.dispose();
      hi.dispose();
    }
    if (smallest < 0) throw new ArgumentError(`${op}: class values must be non-negative, got ${smallest}`);
    if (classes === -1) classes = largest + 1;
    else if (largest >= classes) throw new ArgumentError(`${op}: class values must be smaller than numClasses (${classes}), got ${largest}`);
  }
  return run(op, [a], String(classes), ([x]) => {
    const t = x as T;
    const shape = [...t.shape, classes];
    const hit = e.compare(e.iota("int64", shape, t.ndim), e.broadcastInDim(t, shape, t.shape.map((_, i) => i)), "EQ");
    return e.convert(hit, "int64");
  });
}

// --- regression losses ------------------------------------------------------------------------------

/** A loss of two float tensors (broadcast) computed pointwise in opmath, then reduced. */
function pairLoss(op: string, input: Tensor, target: Tensor, reduction: Reduction, statics: string, fn: (x: T, y: T) => T, divisor = 1): Tensor {
  checkTensor(op, input);
  checkTensor(op, target, "target");
  requireFloat(op, input);
  requireFloat(op, target, "target");
  if (target.dtype !== input.dtype) throw new DTypeError(`${op}: input and target must have the same dtype, got ${input.dtype} and ${target.dtype}`);
  const shape = broadcastShapes(op, input.shape, target.shape);
  return run(op, [input, target], `${reduction}|${statics}`, ([x, y]) => {
    const dtype = opmath((x as T).dtype);
    const lift = (v: T) => e.broadcastTo(e.convert(v, dtype), shape);
    let loss = reduceLoss(fn(lift(x as T), lift(y as T)), reduction);
    if (divisor !== 1) loss = e.div(loss, c(loss, divisor));
    return e.convert(loss, (x as T).dtype);
  });
}

type Reduce = { reduction?: Reduction };
const reductionOf = (op: string, o: Reduce): Reduction => checkReduction(op, o.reduction ?? "mean", reductions);

export function mseLoss(input: Tensor, target: Tensor, options: Reduce = {}): Tensor {
  return pairLoss("mseLoss", input, target, reductionOf("mseLoss", options), "", (x, y) => {
    const d = e.sub(x, y);
    return e.mul(d, d);
  });
}

export function l1Loss(input: Tensor, target: Tensor, options: Reduce = {}): Tensor {
  return pairLoss("l1Loss", input, target, reductionOf("l1Loss", options), "", (x, y) => e.abs(e.sub(x, y)));
}

/** |d| < beta ? d² / (2 beta) : |d| − beta / 2 (beta 0 is l1Loss). */
export function smoothL1Loss(input: Tensor, target: Tensor, options: Reduce & { beta?: number } = {}): Tensor {
  const beta = options.beta ?? 1;
  if (!(beta >= 0)) throw new ArgumentError(`smoothL1Loss: beta must be non-negative, got ${beta}`);
  return pairLoss("smoothL1Loss", input, target, reductionOf("smoothL1Loss", options), String(beta), (x, y) => {
    const d = e.abs(e.sub(x, y));
    if (beta === 0) return d;
    const quad = e.div(e.mul(c(d, 0.5), e.mul(d, d)), c(d, beta));
    return e.select(e.compare(d, c(d, beta), "LT"), quad, e.sub(d, c(d, 0.5 * beta)));
  });
}

/** |d| ≤ delta ? d² / 2 : delta (|d| − delta / 2). */
export function huberLoss(input: Tensor, target: Tensor, options: Reduce & { delta?: number } = {}): Tensor {
  const delta = options.delta ?? 1;
  if (!(delta > 0)) throw new ArgumentError(`huberLoss: delta must be positive, got ${delta}`);
  return pairLoss("huberLoss", input, target, reductionOf("huberLoss", options), String(delta), (x, y) => {
    const d = e.abs(e.sub(x, y));
    const quad = e.mul(c(d, 0.5), e.mul(d, d));
    return e.select(e.compare(d, c(d, delta), "LE"), quad, e.mul(c(d, delta), e.sub(d, c(d, 0.5 * delta))));
  });
}

/** KL divergence with input as log-probabilities: target (log target − input), 0 where target is 0. */
export function klDiv(input: Tensor, target: Tensor, options: { reduction?: Reduction | "batchmean"; logTarget?: boolean } = {}): Tensor {
  const op = "klDiv";
  const reduction = checkReduction(op, options.reduction ?? "mean", [...reductions, "batchmean"] as const);
  const logTarget = options.logTarget ?? false;
  const batch = input.ndim === 0 ? 1 : input.shape[0]!;
  const base: Reduction = reduction === "batchmean" ? "sum" : reduction;
  return pairLoss(op, input, target, base, `${logTarget}|${reduction}`, (x, y) => {
    if (logTarget) return e.mul(e.exp(y), e.sub(y, x));
    // xlogy(y, y) − y x: 0 × log 0 counts as 0, NaN stays NaN
    const zero = c(y, 0);
    const ylogy = e.select(e.compare(y, zero, "EQ"), zero, e.mul(y, e.log(y)));
    return e.sub(ylogy, e.mul(y, x));
  }, reduction === "batchmean" ? batch : 1);
}

// --- binary cross entropy ---------------------------------------------------------------------------

export interface BceOptions extends Reduce {
  /** Rescales each element's loss; broadcast to the input's shape. */
  weight?: Tensor | null;
}

function checkBce(op: string, input: Tensor, target: Tensor, extra: readonly (Tensor | null | undefined)[]): void {
  checkTensor(op, input);
  checkTensor(op, target, "target");
  requireFloat(op, input);
  if (!sameShape(input.shape, target.shape)) {
    throw new ShapeError(`${op}: target size ${fmtShape(target.shape)} must be the same as input size ${fmtShape(input.shape)}`);
  }
  for (const t of [target, ...extra]) {
    if (t && t.dtype !== input.dtype) throw new DTypeError(`${op}: target and weights must have the input's dtype ${input.dtype}, got ${t.dtype}`);
  }
  for (const t of extra) if (t) broadcastShapes(op, input.shape, t.shape);
}

/** −weight (t log x + (1 − t) log(1 − x)) with each log clamped at −100, as PyTorch does. */
export function binaryCrossEntropy(input: Tensor, target: Tensor, options: BceOptions = {}): Tensor {
  const op = "binaryCrossEntropy";
  const reduction = reductionOf(op, options);
  checkBce(op, input, target, [options.weight]);
  return runOptional(op, [input, target, options.weight], reduction, ([x, t, w]) => {
    const dtype = opmath(x!.dtype);
    const p = e.convert(x!, dtype);
    const y = e.convert(t!, dtype);
    const clampedLog = (v: T) => e.max(e.log(v), c(v, -100));
    let loss = e.neg(e.add(e.mul(y, clampedLog(p)), e.mul(e.sub(c(y, 1), y), clampedLog(e.sub(c(p, 1), p)))));
    if (w) loss = e.mul(loss, e.broadcastTo(e.convert(w, dtype), loss.shape));
    return e.convert(reduceLoss(loss, reduction), x!.dtype);
  });
}

/** BCE on logits, stably: (1 − t) x + (1 + (posWeight − 1) t)(log(1 + e^−|x|) + max(−x, 0)). */
export function binaryCrossEntropyWithLogits(input: Tensor, target: Tensor, options: BceOptions & { posWeight?: Tensor | null } = {}): Tensor {
  const op = "binaryCrossEntropyWithLogits";
  const reduction = reductionOf(op, options);
  checkBce(op, input, target, [options.weight, options.posWeight]);
  return runOptional(op, [input, target, options.weight, options.posWeight], reduction, ([x, t, w, pw]) => {
    const dtype = opmath(x!.dtype);
    const z = e.convert(x!, dtype);
    const y = e.convert(t!, dtype);
    const softplusNeg = e.add(log1p(e.exp(e.neg(e.abs(z)))), e.max(e.neg(z), c(z, 0)));
    const logWeight = pw ? e.add(e.mul(e.sub(e.broadcastTo(e.convert(pw, dtype), z.shape), c(z, 1)), y), c(z, 1)) : undefined;
    let loss = e.add(e.mul(e.sub(c(y, 1), y), z), logWeight ? e.mul(logWeight, softplusNeg) : softplusNeg);
    if (w) loss = e.mul(loss, e.broadcastTo(e.convert(w, dtype), loss.shape));
    return e.convert(reduceLoss(loss, reduction), x!.dtype);
  });
}
