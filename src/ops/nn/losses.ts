/**
 * @file Losses: crossEntropy and nllLoss (class indices picked with one-hot masks from iota +
 * compare, no gather), oneHot, mseLoss, l1Loss, smoothL1Loss, huberLoss, binaryCrossEntropy (log
 * clamped at −100 as in PyTorch), binaryCrossEntropyWithLogits and klDiv. Half inputs compute in float32.
 *
 * The margin and embedding losses: marginRankingLoss, hingeEmbeddingLoss, softMarginLoss,
 * cosineEmbeddingLoss, tripletMarginLoss, tripletMarginWithDistanceLoss (over a distance function's
 * results), multilabelSoftMarginLoss, multiMarginLoss and multilabelMarginLoss; and
 * poissonNllLoss and gaussianNllLoss. All are compositions of primitives, so autograd comes from
 * the primitives' VJPs.
 *
 * Differences from PyTorch: class indices out of range (other than ignoreIndex, and multiMarginLoss's),
 * BCE inputs outside [0, 1] and gaussianNllLoss's negative variance tensors are not checked (that
 * needs the values on the host); such entries contribute 0 (or NaN for a negative variance).
 */
import { isFloating, resultType } from "../../dtype.js";
import { ArgumentError, DTypeError, ShapeError } from "../../runtime/errors.js";
import { tidy } from "../../memory.js";
import { Tensor as TensorClass, type Tensor } from "../../tensor.js";
import * as e from "../emit.js";
import { broadcastShapes, fmtShape, sameShape } from "../dims.js";
import { op } from "../signature/op.js";
import { run } from "../unit.js";
import { amax, amin } from "../reduction/extremes.js";
import { pairwiseDistance, vectorNorm } from "./distance.js";
import { c, log1p, type T } from "./emitters.js";
import { opmath, requireFloat } from "./opmath.js";
import { runOptional } from "./optional_tensors.js";
import { logSoftmaxAlong } from "./softmax.js";

type Reduction = "mean" | "sum" | "none";

/** A pointwise loss reduced as PyTorch's `reduction` says. */
function reduceLoss(loss: T, reduction: Reduction): T {
  if (reduction === "none") return loss;
  const all = loss.shape.map((_, i) => i);
  const s = e.reduce("sum", loss, all);
  return reduction === "sum" ? s : e.div(s, e.full(loss.numel(), s.dtype));
}

// --- class-index losses -----------------------------------------------------------------------------

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

export const nllLoss = op(
  'nllLoss(input: Tensor, target: Tensor, weight?: Tensor, *, ignoreIndex: int = -100, reduction: "mean" | "sum" | "none" = "mean") -> Tensor',
  {
    doc: "Negative log likelihood of class indices (int64 target): input holds log-probabilities [C], [N, C] or [N, C, d1, …]. PyTorch's deprecated size_average and reduce are left out, so ignoreIndex and reduction are keyword-only.",
  },
  ({ input, target, weight, ignoreIndex, reduction }) => {
    const op = "nllLoss";
    requireFloat(op, input);
    classTarget(op, input, target, weight ?? null);
    return runOptional(op, [input, target, weight], `${ignoreIndex}|${reduction}`, ([x, t, w]) => {
      const p = pick(e.convert(x!, opmath(x!.dtype)), t!, w, ignoreIndex);
      return e.convert(reduceWeighted(p.loss, p.weightOfTarget, reduction), x!.dtype);
    });
  },
);

export const crossEntropy = op(
  'crossEntropy(input: Tensor, target: Tensor, weight?: Tensor, *, ignoreIndex: int = -100, reduction: "mean" | "sum" | "none" = "mean", labelSmoothing: float = 0) -> Tensor',
  {
    doc: "logSoftmax over the class dim, then nllLoss for class indices (int64 target) or −Σ target · logp for class probabilities (a float target of the input's shape); labelSmoothing mixes in the uniform distribution. PyTorch's deprecated size_average and reduce are left out, so the parameters after weight are keyword-only.",
  },
  ({ input, target, weight: w0, ignoreIndex, reduction, labelSmoothing: eps }) => {
    const op = "crossEntropy";
    requireFloat(op, input);
    const weight = w0 ?? null;
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
      const logp = logSoftmaxAlong(e.convert(x!, dtype), classDim);
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
  },
);

export const oneHot = op(
  "oneHot(input: Tensor, numClasses: int = -1) -> Tensor",
  {
    doc: "int64 [*] → int64 [*, numClasses] with a 1 at each value. Like PyTorch on CPU it reads the smallest and largest value from the device (one host sync) to infer numClasses (−1) and to reject values outside [0, numClasses).",
  },
  ({ input: a, numClasses }) => {
    const op = "oneHot";
    if (a.dtype !== "int64") throw new DTypeError(`${op}: is only applicable to int64 (class index) tensors, got ${a.dtype}`);
    let classes = numClasses;
    if (classes < -1) throw new ArgumentError(`${op}: numClasses must be a non-negative integer or -1, got ${classes}`);
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
  },
);

// --- regression losses ------------------------------------------------------------------------------

/** A loss of two float tensors (broadcast) computed pointwise in opmath, then reduced. */
function pairLoss(op: string, input: Tensor, target: Tensor, reduction: Reduction, statics: string, fn: (x: T, y: T) => T, divisor = 1): Tensor {
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

const noWeight = "PyTorch's deprecated size_average and reduce are left out (so reduction is keyword-only), as is its `weight`.";

export const mseLoss = op(
  'mseLoss(input: Tensor, target: Tensor, *, reduction: "mean" | "sum" | "none" = "mean") -> Tensor',
  { doc: `(input − target)², reduced (float tensors, broadcast). ${noWeight}` },
  ({ input, target, reduction }) =>
    pairLoss("mseLoss", input, target, reduction, "", (x, y) => {
      const d = e.sub(x, y);
      return e.mul(d, d);
    }),
);

export const l1Loss = op(
  'l1Loss(input: Tensor, target: Tensor, *, reduction: "mean" | "sum" | "none" = "mean") -> Tensor',
  { doc: `|input − target|, reduced (float tensors, broadcast). ${noWeight}` },
  ({ input, target, reduction }) => pairLoss("l1Loss", input, target, reduction, "", (x, y) => e.abs(e.sub(x, y))),
);

export const smoothL1Loss = op(
  'smoothL1Loss(input: Tensor, target: Tensor, *, reduction: "mean" | "sum" | "none" = "mean", beta: float = 1) -> Tensor',
  { doc: "|d| < beta ? d² / (2 beta) : |d| − beta / 2 with d = input − target, reduced (beta 0 is l1Loss). PyTorch's deprecated size_average and reduce are left out, so reduction and beta are keyword-only." },
  ({ input, target, reduction, beta }) => {
    if (!(beta >= 0)) throw new ArgumentError(`smoothL1Loss: beta must be non-negative, got ${beta}`);
    return pairLoss("smoothL1Loss", input, target, reduction, String(beta), (x, y) => {
      const d = e.abs(e.sub(x, y));
      if (beta === 0) return d;
      // the square of min(|d|, beta): an infinite |d| would make the unused branch's gradient 0 × inf
      const m = e.min(d, c(d, beta));
      const quad = e.div(e.mul(c(d, 0.5), e.mul(m, m)), c(d, beta));
      return e.select(e.compare(d, c(d, beta), "LT"), quad, e.sub(d, c(d, 0.5 * beta)));
    });
  },
);

export const huberLoss = op(
  'huberLoss(input: Tensor, target: Tensor, reduction: "mean" | "sum" | "none" = "mean", delta: float = 1) -> Tensor',
  { doc: "|d| ≤ delta ? d² / 2 : delta · (|d| − delta / 2) with d = input − target, reduced; PyTorch's `weight` is not supported." },
  ({ input, target, reduction, delta }) => {
    if (!(delta > 0)) throw new ArgumentError(`huberLoss: delta must be positive, got ${delta}`);
    return pairLoss("huberLoss", input, target, reduction, String(delta), (x, y) => {
      const d = e.abs(e.sub(x, y));
      // as smoothL1Loss; at |d| = delta both branches are delta² / 2 and the linear one has PyTorch's gradient
      const m = e.min(d, c(d, delta));
      const quad = e.mul(c(d, 0.5), e.mul(m, m));
      return e.select(e.compare(d, c(d, delta), "LT"), quad, e.mul(c(d, delta), e.sub(d, c(d, 0.5 * delta))));
    });
  },
);

export const klDiv = op(
  'klDiv(input: Tensor, target: Tensor, *, reduction: "mean" | "sum" | "none" | "batchmean" = "mean", logTarget: bool = false) -> Tensor',
  {
    doc: "KL divergence with input as log-probabilities: target · (log target − input), 0 where target is 0 (or exp(target) · (target − input) with logTarget). PyTorch's deprecated size_average and reduce are left out, so reduction and logTarget are keyword-only.",
  },
  ({ input, target, reduction, logTarget }) => {
    const batch = input.ndim === 0 ? 1 : input.shape[0]!;
    const base: Reduction = reduction === "batchmean" ? "sum" : reduction;
    return pairLoss("klDiv", input, target, base, `${logTarget}|${reduction}`, (x, y) => {
      if (logTarget) return e.mul(e.exp(y), e.sub(y, x));
      // xlogy(y, y) − y x: 0 × log 0 counts as 0, NaN stays NaN
      const zero = c(y, 0);
      const ylogy = e.select(e.compare(y, zero, "EQ"), zero, e.mul(y, e.log(y)));
      return e.sub(ylogy, e.mul(y, x));
    }, reduction === "batchmean" ? batch : 1);
  },
);

// --- binary cross entropy ---------------------------------------------------------------------------

function checkBce(op: string, input: Tensor, target: Tensor, extra: readonly (Tensor | null | undefined)[]): void {
  requireFloat(op, input);
  if (!sameShape(input.shape, target.shape)) {
    throw new ShapeError(`${op}: target size ${fmtShape(target.shape)} must be the same as input size ${fmtShape(input.shape)}`);
  }
  for (const t of [target, ...extra]) {
    if (t && t.dtype !== input.dtype) throw new DTypeError(`${op}: target and weights must have the input's dtype ${input.dtype}, got ${t.dtype}`);
  }
  for (const t of extra) if (t) broadcastShapes(op, input.shape, t.shape);
}

export const binaryCrossEntropy = op(
  'binaryCrossEntropy(input: Tensor, target: Tensor, weight?: Tensor, *, reduction: "mean" | "sum" | "none" = "mean") -> Tensor',
  {
    doc: "−weight · (t log x + (1 − t) log(1 − x)) with each log clamped at −100, as PyTorch does; weight broadcasts to the input. PyTorch's deprecated size_average and reduce are left out, so reduction is keyword-only.",
  },
  ({ input, target, weight, reduction }) => {
    const op = "binaryCrossEntropy";
    checkBce(op, input, target, [weight]);
    return runOptional(op, [input, target, weight], reduction, ([x, t, w]) => {
      const dtype = opmath(x!.dtype);
      const p = e.convert(x!, dtype);
      const y = e.convert(t!, dtype);
      const clampedLog = (v: T) => e.max(e.log(v), c(v, -100));
      const bce = (q: T) => e.neg(e.add(e.mul(y, clampedLog(q)), e.mul(e.sub(c(y, 1), y), clampedLog(e.sub(c(q, 1), q)))));
      // PyTorch's gradient is (x − t) / max(x(1 − x), 1e−12): the calculus of the value except where
      // x(1 − x) < 1e−12 (x at or next to 0 or 1, where a log is clamped). There the value is taken
      // without a gradient and x·g − stopGradient(x·g) (zero) carries PyTorch's g.
      const spread = e.mul(p, e.sub(c(p, 1), p));
      const edge = e.compare(spread, c(spread, 1e-12), "LT");
      const g = e.stopGradient(e.div(e.sub(p, y), e.max(spread, c(spread, 1e-12))));
      const pg = e.mul(p, g);
      const atEdge = e.add(bce(e.stopGradient(p)), e.sub(pg, e.stopGradient(pg)));
      let loss = e.select(edge, atEdge, bce(e.select(edge, c(p, 0.5), p)));
      if (w) loss = e.mul(loss, e.broadcastTo(e.convert(w, dtype), loss.shape));
      return e.convert(reduceLoss(loss, reduction), x!.dtype);
    });
  },
);

export const binaryCrossEntropyWithLogits = op(
  'binaryCrossEntropyWithLogits(input: Tensor, target: Tensor, weight?: Tensor, *, reduction: "mean" | "sum" | "none" = "mean", posWeight?: Tensor) -> Tensor',
  {
    doc: "Binary cross entropy on logits, computed stably: (1 − t) x + (1 + (posWeight − 1) t)(log(1 + e^−|x|) + max(−x, 0)), times weight. PyTorch's deprecated size_average and reduce are left out, so reduction and posWeight are keyword-only.",
  },
  ({ input, target, weight, reduction, posWeight }) => {
    const op = "binaryCrossEntropyWithLogits";
    checkBce(op, input, target, [weight, posWeight]);
    return runOptional(op, [input, target, weight, posWeight], reduction, ([x, t, w, pw]) => {
      const dtype = opmath(x!.dtype);
      const z = e.convert(x!, dtype);
      const y = e.convert(t!, dtype);
      const softplusNeg = e.add(log1p(e.exp(e.neg(e.abs(z)))), e.max(e.neg(z), c(z, 0)));
      const logWeight = pw ? e.add(e.mul(e.sub(e.broadcastTo(e.convert(pw, dtype), z.shape), c(z, 1)), y), c(z, 1)) : undefined;
      let loss = e.add(e.mul(e.sub(c(y, 1), y), z), logWeight ? e.mul(logWeight, softplusNeg) : softplusNeg);
      if (w) loss = e.mul(loss, e.broadcastTo(e.convert(w, dtype), loss.shape));
      return e.convert(reduceLoss(loss, reduction), x!.dtype);
    });
  },
);

// --- margin and embedding losses --------------------------------------------------------------------

const reductions: readonly string[] = ["mean", "sum", "none"];

/**
 * A loss of tensors broadcast together, computed pointwise in the first one's opmath dtype, then
 * reduced. The first `floats` tensors must be floating with the first's dtype; the rest (targets)
 * may also be integer or bool tensors (converted).
 */
function broadcastLoss(op: string, inputs: readonly Tensor[], names: readonly string[], floats: number, reduction: Reduction, statics: string, fn: (xs: T[]) => T): Tensor {
  const first = inputs[0]!;
  inputs.forEach((t, i) => {
    if (i < floats) requireFloat(op, t, names[i]);
    if ((i < floats || isFloating(t.dtype)) && t.dtype !== first.dtype) throw new DTypeError(`${op}: ${names.join(", ")} must have the same dtype, got ${first.dtype} and ${t.dtype}`);
  });
  const shape = broadcastShapes(op, ...inputs.map((t) => t.shape));
  return run(op, inputs, `${reduction}|${statics}`, (xs) => {
    const dtype = opmath(first.dtype);
    const lifted = xs.map((v) => e.broadcastTo(e.convert(v as T, dtype), shape));
    return e.convert(reduceLoss(fn(lifted), reduction), first.dtype);
  });
}

/** log(1 + eˣ), computed without overflow. */
const softplusT = (x: T): T => e.add(log1p(e.exp(e.neg(e.abs(x)))), e.max(x, c(x, 0)));
const relu = (x: T): T => e.max(x, c(x, 0));
const where = (cond: T, a: T): T => e.select(cond, a, c(a, 0));
const eq = (x: T, v: number): T => e.compare(x, c(x, v), "EQ");

export const marginRankingLoss = op(
  'marginRankingLoss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0, *, reduction: "mean" | "sum" | "none" = "mean") -> Tensor',
  { doc: "max(0, −target · (input1 − input2) + margin), reduced; target holds 1 (input1 should rank higher) or −1, all three broadcast. PyTorch's deprecated size_average and reduce are left out, so reduction is keyword-only." },
  ({ input1, input2, target, margin, reduction }) =>
    broadcastLoss("marginRankingLoss", [input1, input2, target], ["input1", "input2", "target"], 2, reduction, String(margin), ([a, b, y]) =>
      relu(e.add(e.neg(e.mul(y!, e.sub(a!, b!))), c(a!, margin)))),
);

export const hingeEmbeddingLoss = op(
  'hingeEmbeddingLoss(input: Tensor, target: Tensor, margin: float = 1, *, reduction: "mean" | "sum" | "none" = "mean") -> Tensor',
  { doc: "input where target is 1, max(0, margin − input) where it is −1 (input is a distance), reduced. PyTorch's deprecated size_average and reduce are left out, so reduction is keyword-only." },
  ({ input, target, margin, reduction }) =>
    broadcastLoss("hingeEmbeddingLoss", [input, target], ["input", "target"], 1, reduction, String(margin), ([x, y]) =>
      // as PyTorch: the margin term wherever target ≠ 1, the input itself wherever target ≠ −1
      e.add(where(e.not(eq(y!, 1)), relu(e.sub(c(x!, margin), x!))), where(e.not(eq(y!, -1)), x!))),
);

export const softMarginLoss = op(
  'softMarginLoss(input: Tensor, target: Tensor, *, reduction: "mean" | "sum" | "none" = "mean") -> Tensor',
  { doc: "log(1 + exp(−target · input)), reduced (target 1 or −1). Computed as written, as PyTorch does: where exp overflows (−target · input > 88.7 in float32) the loss is inf and its gradient NaN. PyTorch's deprecated size_average and reduce are left out, so reduction is keyword-only." },
  ({ input, target, reduction }) =>
    broadcastLoss("softMarginLoss", [input, target], ["input", "target"], 1, reduction, "", ([x, y]) => log1p(e.exp(e.neg(e.mul(y!, x!))))),
);

export const cosineEmbeddingLoss = op(
  'cosineEmbeddingLoss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0, *, reduction: "mean" | "sum" | "none" = "mean") -> Tensor',
  { doc: "With cos the cosine similarity of input1 and input2 along their last dim ([N, D] with target [N], or [D] with a 0-d target): 1 − cos where target is 1, max(0, cos − margin) where it is −1, reduced. PyTorch's deprecated size_average and reduce are left out, so reduction is keyword-only." },
  ({ input1, input2, target, margin, reduction }) => {
    const op = "cosineEmbeddingLoss";
    requireFloat(op, input1, "input1");
    requireFloat(op, input2, "input2");
    if (input2.dtype !== input1.dtype || (isFloating(target.dtype) && target.dtype !== input1.dtype)) throw new DTypeError(`${op}: input1, input2 and target must have the same dtype, got ${input1.dtype}, ${input2.dtype} and ${target.dtype}`);
    if (target.ndim > 1) throw new ShapeError(`${op}: target must be 0-d or 1-d, got ${fmtShape(target.shape)}`);
    if (!sameShape(input1.shape, input2.shape) || input1.ndim !== target.ndim + 1 || (target.ndim === 1 && input1.shape[0] !== target.shape[0])) {
      throw new ShapeError(`${op}: expected input1 and input2 of the same shape [N, D] with target [N] (or [D] with a 0-d target), got ${fmtShape(input1.shape)}, ${fmtShape(input2.shape)} and ${fmtShape(target.shape)}`);
    }
    return run(op, [input1, input2, target], `${margin}|${reduction}`, ([x1, x2, t]) => {
      const dtype = opmath(input1.dtype);
      const a = e.convert(x1 as T, dtype);
      const b = e.convert(x2 as T, dtype);
      const y = e.convert(t as T, dtype);
      const last = [a.ndim - 1];
      const dot = e.reduce("sum", e.mul(a, b), last);
      const sq = (v: T) => e.add(e.reduce("sum", e.mul(v, v), last), e.full(1e-12, dtype, y.shape));
      const cos = e.div(dot, e.sqrt(e.mul(sq(a), sq(b))));
      const loss = e.add(where(eq(y, 1), e.sub(c(cos, 1), cos)), where(eq(y, -1), relu(e.sub(cos, c(cos, margin)))));
      return e.convert(reduceLoss(loss, reduction), input1.dtype);
    });
  },
);

export const tripletMarginLoss = op(
  'tripletMarginLoss(anchor: Tensor, positive: Tensor, negative: Tensor, margin: float = 1, p: float = 2, eps: float = 1e-6, swap: bool = false, *, reduction: "mean" | "sum" | "none" = "mean") -> Tensor',
  { doc: "max(0, margin + d(anchor, positive) − d(anchor, negative)) with d the pairwiseDistance (‖x1 − x2 + eps‖_p over the last dim); with swap, d(anchor, negative) is replaced by d(positive, negative) where that is smaller. [N, D] or [D] inputs, reduced. PyTorch's deprecated size_average and reduce are left out, so reduction is keyword-only." },
  ({ anchor, positive, negative, margin, p, eps, swap, reduction }) => {
    const op = "tripletMarginLoss";
    if (anchor.ndim !== positive.ndim || anchor.ndim !== negative.ndim || anchor.ndim < 1 || anchor.ndim > 2) {
      throw new ShapeError(`${op}: anchor, positive and negative must all be 1-d or all 2-d, got ${fmtShape(anchor.shape)}, ${fmtShape(positive.shape)} and ${fmtShape(negative.shape)}`);
    }
    if (!(margin > 0)) throw new ArgumentError(`${op}: margin must be greater than 0, got ${margin}`);
    if (Number.isNaN(p)) throw new ArgumentError(`${op}: p must be a number, got ${p}`);
    return broadcastLoss(op, [anchor, positive, negative], ["anchor", "positive", "negative"], 3, reduction, `${margin}|${p}|${eps}|${swap}`, ([a, pos, neg]) => {
      const last = a!.ndim - 1;
      const dist = (x: T, y: T): T => e.reshape(vectorNorm(e.add(e.sub(x, y), c(x, eps)), p, last), x.shape.slice(0, -1));
      const dPos = dist(a!, pos!);
      let dNeg = dist(a!, neg!);
      if (swap) dNeg = e.min(dNeg, dist(pos!, neg!));
      return relu(e.add(e.sub(dPos, dNeg), c(dPos, margin)));
    });
  },
);

export const poissonNllLoss = op(
  'poissonNllLoss(input: Tensor, target: Tensor, logInput: bool = true, full: bool = false, *, eps: float = 1e-8, reduction: "mean" | "sum" | "none" = "mean") -> Tensor',
  { doc: "Poisson negative log likelihood: exp(input) − target · input when logInput, else input − target · log(input + eps); full adds Stirling's approximation target · log(target) − target + ½ log(2π target) where target > 1. Reduced. PyTorch's deprecated size_average and reduce are left out, so eps and reduction are keyword-only." },
  ({ input, target, logInput, full, eps, reduction }) =>
    broadcastLoss("poissonNllLoss", [input, target], ["input", "target"], 1, reduction, `${logInput}|${full}|${eps}`, ([x, y]) => {
      let loss = logInput ? e.sub(e.exp(x!), e.mul(y!, x!)) : e.sub(x!, e.mul(y!, e.log(e.add(x!, c(x!, eps)))));
      if (full) {
        const big = e.compare(y!, c(y!, 1), "GT");
        const t = e.select(big, y!, c(y!, 1)); // log of targets ≤ 1 is never used, nor differentiated
        const stirling = e.add(e.sub(e.mul(t, e.log(t)), t), e.mul(c(t, 0.5), e.log(e.mul(c(t, 2 * Math.PI), t))));
        loss = e.add(loss, where(big, stirling));
      }
      return loss;
    }),
);

export const gaussianNllLoss = op(
  'gaussianNllLoss(input: Tensor, target: Tensor, var: Tensor | float, full: bool = false, eps: float = 1e-6, reduction: "mean" | "sum" | "none" = "mean") -> Tensor',
  { doc: "Gaussian negative log likelihood ½ (log v + (input − target)² / v) (+ ½ log 2π when full), reduced, where v is var clamped below at eps — the clamp passes var's gradient through unchanged, as PyTorch's in-place clamp under no_grad does. var has the input's shape, or one dim of size 1 (homoscedastic), or the input's shape without its last dim; or is a float. Negative entries of a var tensor are not checked (PyTorch reads them on the host)." },
  ({ input, target, var: v, full, eps, reduction }) => {
    const op = "gaussianNllLoss";
    if (!reductions.includes(reduction)) throw new ArgumentError(`${op}: ${String(reduction)} is not a valid reduction`);
    if (typeof v === "number") {
      if (v < 0) throw new ArgumentError(`${op}: var has negative entry/entries (${v})`);
      return broadcastLoss(op, [input, target], ["input", "target"], 2, reduction, `${v}|${full}|${eps}`, ([x, y]) => gaussian(x!, y!, c(x!, Math.max(v, eps)), full));
    }
    let shaped = v;
    if (!sameShape(v.shape, input.shape)) {
      const mismatched = v.shape.map((d, i) => (d !== input.shape[i] ? d : 0)).filter((d) => d !== 0);
      if (input.ndim > 0 && sameShape(v.shape, input.shape.slice(0, -1))) shaped = v.unsqueeze(-1);
      else if (!(v.ndim === input.ndim && mismatched.length === 1 && mismatched[0] === 1)) {
        throw new ShapeError(`${op}: var is of incorrect size ${fmtShape(v.shape)} for input ${fmtShape(input.shape)} (expected the input's shape, one dim of size 1, or the input's shape without its last dim)`);
      }
    }
    try {
      return broadcastLoss(op, [input, target, shaped], ["input", "target", "var"], 3, reduction, `${full}|${eps}`, ([x, y, w]) => {
        const clamped = e.add(w!, e.stopGradient(e.sub(e.max(w!, c(w!, eps)), w!)));
        return gaussian(x!, y!, clamped, full);
      });
    } finally {
      if (shaped !== v) shaped.dispose();
    }
  },
);

function gaussian(x: T, y: T, v: T, full: boolean): T {
  const d = e.sub(x, y);
  let loss = e.mul(c(x, 0.5), e.add(e.log(v), e.div(e.mul(d, d), v)));
  if (full) loss = e.add(loss, c(loss, 0.5 * Math.log(2 * Math.PI)));
  return loss;
}

export const multilabelSoftMarginLoss = op(
  'multilabelSoftMarginLoss(input: Tensor, target: Tensor, weight?: Tensor, *, reduction: "mean" | "sum" | "none" = "mean") -> Tensor',
  { doc: "Multi-label one-versus-all loss: −(target · logσ(input) + (1 − target) · logσ(−input)), times weight (per class, broadcast), averaged over the class (last) dim, then reduced; target of 0s and 1s with the input's shape. PyTorch's deprecated size_average and reduce are left out, so reduction is keyword-only." },
  ({ input, target, weight, reduction }) => {
    const op = "multilabelSoftMarginLoss";
    requireFloat(op, input);
    if (input.ndim === 0) throw new ShapeError(`${op}: input must have a class dimension, got a 0-d tensor`);
    if (!sameShape(input.shape, target.shape)) throw new ShapeError(`${op}: target size ${fmtShape(target.shape)} must be the same as input size ${fmtShape(input.shape)}`);
    for (const [t, what] of [[target, "target"], [weight, "weight"]] as const) {
      if (t && isFloating(t.dtype) && t.dtype !== input.dtype) throw new DTypeError(`${op}: ${what} must have the input's dtype ${input.dtype}, got ${t.dtype}`);
    }
    if (weight) broadcastShapes(op, input.shape, weight.shape);
    return runOptional(op, [input, target, weight], reduction, ([x0, t0, w0]) => {
      const dtype = opmath(input.dtype);
      const x = e.convert(x0!, dtype);
      const y = e.convert(t0!, dtype);
      let loss = e.add(e.mul(y, softplusT(e.neg(x))), e.mul(e.sub(c(y, 1), y), softplusT(x)));
      if (w0) loss = e.mul(loss, e.broadcastTo(e.convert(w0, dtype), loss.shape));
      const classes = x.shape[x.ndim - 1]!;
      const perSample = e.reduce("sum", loss, [x.ndim - 1]);
      return e.convert(reduceLoss(e.div(perSample, c(perSample, classes)), reduction), input.dtype);
    });
  },
);

export const multiMarginLoss = op(
  'multiMarginLoss(input: Tensor, target: Tensor, p: int = 1, margin: float = 1, weight?: Tensor, *, reduction: "mean" | "sum" | "none" = "mean") -> Tensor',
  { doc: "Multi-class hinge loss of input [N, C] (or [C]) and class indices target [N] (or 0-d, int64): Σ_{i ≠ y} weight[y] · max(0, margin − input[y] + input[i])^p / C per sample (p 1 or 2), reduced. PyTorch's deprecated size_average and reduce are left out, so reduction is keyword-only." },
  ({ input, target, p, margin, weight, reduction }) => {
    const op = "multiMarginLoss";
    requireFloat(op, input);
    if (p !== 1 && p !== 2) throw new ArgumentError(`${op}: only p == 1 and p == 2 are supported, got ${p}`);
    if (input.ndim !== 1 && input.ndim !== 2) throw new ShapeError(`${op}: input must be [N, C] or [C], got ${fmtShape(input.shape)}`);
    if (target.dtype !== "int64") throw new DTypeError(`${op}: class-index target must be int64, got ${target.dtype} (convert it with .to("int64"))`);
    const want = input.shape.slice(0, -1);
    if (!sameShape(target.shape, want)) throw new ShapeError(`${op}: target must have shape ${fmtShape(want)} for input ${fmtShape(input.shape)}, got ${fmtShape(target.shape)}`);
    const classes = input.shape[input.ndim - 1]!;
    if (weight && (!sameShape(weight.shape, [classes]) || weight.dtype !== input.dtype)) {
      throw new ShapeError(`${op}: weight must be a ${input.dtype} tensor of shape [${classes}] (one per class), got ${weight.dtype} ${fmtShape(weight.shape)}`);
    }
    return runOptional(op, [input, target, weight], `${p}|${margin}|${reduction}`, ([x0, t0, w0]) => {
      const dtype = opmath(input.dtype);
      const n = input.ndim === 2 ? input.shape[0]! : 1;
      const x = e.reshape(e.convert(x0!, dtype), [n, classes]);
      const t = e.reshape(t0!, [n]);
      const hit = e.compare(e.iota("int64", [n, classes], 1), e.broadcastInDim(t, [n, classes], [0]), "EQ");
      const zero = c(x, 0);
      const picked = e.broadcastInDim(e.reduce("sum", e.select(hit, x, zero), [1]), [n, classes], [0]);
      let h = relu(e.add(e.sub(c(x, margin), picked), x));
      if (p === 2) h = e.mul(h, h);
      if (w0) h = e.mul(h, e.broadcastInDim(e.reduce("sum", e.select(hit, e.broadcastInDim(e.convert(w0, dtype), [n, classes], [1]), zero), [1]), [n, classes], [0]));
      const perSample = e.reduce("sum", e.select(hit, zero, h), [1]);
      const loss = e.reshape(e.div(perSample, c(perSample, classes)), want);
      return e.convert(reduceLoss(loss, reduction), input.dtype);
    });
  },
);

export const multilabelMarginLoss = op(
  'multilabelMarginLoss(input: Tensor, target: Tensor, *, reduction: "mean" | "sum" | "none" = "mean") -> Tensor',
  { doc: "Multi-label hinge loss of input [N, C] (or [C]) and target of the same shape (int64) listing each sample's classes up to the first −1: Σ_j Σ_{i not a target} max(0, 1 − (input[y_j] − input[i])) / C per sample, a class listed twice counting twice. Reduced. PyTorch's deprecated size_average and reduce are left out, so reduction is keyword-only." },
  ({ input, target, reduction }) => {
    const op = "multilabelMarginLoss";
    requireFloat(op, input);
    if (input.ndim > 2 || (input.ndim === 2 && input.shape[1] === 0) || (input.ndim === 1 && input.shape[0] === 0)) {
      throw new ShapeError(`${op}: expected a non-empty vector or matrix with optional 0-dim batch size, got ${fmtShape(input.shape)}`);
    }
    if (target.dtype !== "int64") throw new DTypeError(`${op}: target must be int64 class indices, got ${target.dtype} (convert it with .to("int64"))`);
    if (!sameShape(target.shape, input.shape)) throw new ShapeError(`${op}: inconsistent target size ${fmtShape(target.shape)} for input of size ${fmtShape(input.shape)}`);
    return run(op, [input, target], reduction, ([x0, t0]) => {
      const dtype = opmath(input.dtype);
      const classes = input.ndim === 0 ? 1 : input.shape[input.ndim - 1]!;
      const n = input.ndim === 2 ? input.shape[0]! : 1;
      const x = e.reshape(e.convert(x0 as T, dtype), [n, classes]);
      const t = e.reshape(t0 as T, [n, classes]);
      // slot j holds a target while no −1 came before it (firstEnd: the first −1's slot, or C)
      const slots = e.iota("int64", [n, classes], 1);
      const firstEnd = e.reduce("min", e.select(e.compare(t, c(t, -1), "EQ"), slots, c(slots, classes)), [1]);
      const valid = e.compare(slots, e.broadcastInDim(firstEnd, [n, classes], [0]), "LT");
      // hit[n, j, i]: slot j names class i
      const cube = [n, classes, classes];
      const hit = e.and(e.compare(e.iota("int64", cube, 2), e.broadcastInDim(t, cube, [0, 1]), "EQ"), e.broadcastInDim(valid, cube, [0, 1]));
      const zero = e.full(0, dtype, cube);
      const picked = e.reduce("sum", e.select(hit, e.broadcastInDim(x, cube, [0, 2]), zero), [2]); // x[y_j]
      const isTarget = e.reduce("or", hit, [1]);
      const h = relu(e.add(e.sub(c(zero, 1), e.broadcastInDim(picked, cube, [0, 1])), e.broadcastInDim(x, cube, [0, 2])));
      const counted = e.and(e.broadcastInDim(valid, cube, [0, 1]), e.not(e.broadcastInDim(isTarget, cube, [0, 2])));
      const perSample = e.reduce("sum", e.select(counted, h, zero), [1, 2]);
      const loss = e.reshape(e.div(perSample, c(perSample, classes)), input.shape.slice(0, input.ndim === 2 ? 1 : 0));
      // an empty batch's mean is 0, as in PyTorch
      const reduced = reduction === "mean" && n === 0 ? e.full(0, dtype) : reduceLoss(loss, reduction);
      return e.convert(reduced, input.dtype);
    });
  },
);

export const tripletMarginWithDistanceLoss = op(
  'tripletMarginWithDistanceLoss(anchor: Tensor, positive: Tensor, negative: Tensor, *, distanceFunction?: DistanceFunction, margin: float = 1, swap: bool = false, reduction: "mean" | "sum" | "none" = "mean") -> Tensor',
  { doc: "max(0, margin + d(anchor, positive) − d(anchor, negative)) with d the `distanceFunction` (a function of two tensors returning their distances; default pairwiseDistance); with swap, d(anchor, negative) is replaced by d(positive, negative) where that is smaller. Reduced. The distances' gradients flow through the function's own ops." },
  ({ anchor, positive, negative, distanceFunction, margin, swap, reduction }) => {
    const op = "tripletMarginWithDistanceLoss";
    if (!(margin > 0)) throw new ArgumentError(`${op}: margin must be greater than 0, got ${margin}`);
    if (anchor.ndim !== positive.ndim || anchor.ndim !== negative.ndim) {
      throw new ShapeError(`${op}: the anchor, positive, and negative tensors are expected to have the same number of dimensions, but got: anchor ${anchor.ndim}D, positive ${positive.ndim}D, and negative ${negative.ndim}D inputs`);
    }
    const distance = distanceFunction ?? ((x1: Tensor, x2: Tensor): Tensor => pairwiseDistance(x1, x2));
    return tidy(() => {
      const measure = (x1: Tensor, x2: Tensor, what: string): Tensor => {
        const d = distance(x1, x2);
        if (!(d instanceof TensorClass)) throw new ArgumentError(`${op}: distanceFunction(${what}) must return a Tensor, got ${typeof d}`);
        requireFloat(op, d, `distanceFunction(${what})`);
        return d;
      };
      const distances = [measure(anchor, positive, "anchor, positive"), measure(anchor, negative, "anchor, negative"), ...(swap ? [measure(positive, negative, "positive, negative")] : [])];
      const dtype = resultType(...distances);
      const shape = broadcastShapes(op, ...distances.map((d) => d.shape));
      return run(op, distances, `${margin}|${swap}|${reduction}`, (ds) => {
        const [dPos, dNeg, dSwap] = ds.map((d) => e.broadcastTo(e.convert(d as T, opmath(dtype)), shape));
        const neg = dSwap === undefined ? dNeg! : e.min(dNeg!, dSwap);
        return e.convert(reduceLoss(relu(e.add(e.sub(dPos!, neg), c(dPos!, margin))), reduction), dtype);
      });
    });
  },
);
