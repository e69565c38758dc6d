/**
 * @file ctcLoss (nn.functional.ctc_loss): the connectionist temporal classification loss of
 * log-probabilities [T, N, C] (or [T, C]) against label sequences, by the forward (alpha) and backward
 * (beta) recursions over the extended labels (blank, l1, blank, l2, …, blank) in log space, each a
 * device while loop over time.
 *
 * The gradient is PyTorch's, which is not the calculus of the loss: PyTorch treats logProbs as if they
 * came from a logSoftmax and returns exp(logProbs) − γ for t < inputLength (γ the posterior of each
 * class at each step, from alpha·beta), 0 after it; NaN where the loss is infinite (or where logProbs
 * is −∞), 0 for the samples zeroInfinity zeroes. So the loss is computed without a gradient, and
 * x·g − stopGradient(x·g) (zero) carries that g, as binaryCrossEntropy does at its clamps; the loops
 * themselves are never differentiated.
 *
 * The lengths are read back to the host (one synchronous transfer when they are tensors) to check them,
 * as PyTorch does on the CPU.
 */
import { dtypes } from "../../dtype.js";
import { tensorFromData } from "../../creation.js";
import { ArgumentError, DTypeError, ShapeError } from "../../runtime/errors.js";
import { Tensor } from "../../tensor.js";
import { bind, trace, type Tracer } from "../../trace/tracer.js";
import * as e from "../emit.js";
import { fmtShape } from "../dims.js";
import { prefix } from "../reduction/cumulative.js";
import { op } from "../signature/op.js";
import { run } from "../unit.js";
import { c, sliceDim, type T } from "./emitters.js";
import { opmath, requireFloat } from "./opmath.js";

type Reduction = "mean" | "sum" | "none";

/** The lengths as host numbers: one int per batch element, from an integer tensor or an array. */
function hostLengths(op: string, v: Tensor | readonly number[], what: string, batch: number): number[] {
  let values: number[];
  if (v instanceof Tensor) {
    const kind = dtypes[v.dtype].kind;
    if (kind !== "int" && kind !== "uint") throw new DTypeError(`${op}: ${what} must be an integer tensor (int64) or an array of ints, got ${v.dtype}`);
    values = v.numel() === 0 ? [] : Array.from(v.dataSync() as ArrayLike<number | bigint>, Number);
  } else values = [...v];
  if (values.length !== batch) throw new ShapeError(`${op}: ${what} must have one entry per batch element (${batch}), got ${values.length}`);
  return values;
}

/** log(eᵃ + eᵇ + eᶜ), −∞ when all are −∞. */
function logAddExp3(a: T, b: T, d: T): T {
  const m = e.max(a, e.max(b, d));
  const shift = e.select(e.compare(m, c(m, -Infinity), "EQ"), c(m, 0), m);
  const sum = e.add(e.add(e.exp(e.sub(a, shift)), e.exp(e.sub(b, shift))), e.exp(e.sub(d, shift)));
  return e.add(e.log(sum), shift);
}

/** `x` [N, L] moved by `k` along dim 1 (toward higher s for k > 0), filled with `fill`. */
function shifted(x: T, k: number, fill: number | bigint | boolean): T {
  const [n, l] = x.shape as [number, number];
  const pad = e.full(fill, x.dtype, [n, Math.min(Math.abs(k), l)]);
  if (Math.abs(k) >= l) return e.full(fill, x.dtype, x.shape);
  return k > 0 ? e.concatenate([pad, sliceDim(x, 1, 0, l - k)], 1) : e.concatenate([sliceDim(x, 1, -k, l), pad], 1);
}

/** A device while loop over the step counter (int32, first in `state`) while it satisfies `going`. */
function loop(state: T[], going: (t: T, s: T[]) => T, body: (t: T, s: T[]) => T[]): T[] {
  const avals = state.map((x) => ({ shape: x.shape, dtype: x.dtype }));
  const cond = trace(avals, ([t, ...s]) => going(t!, s)).graph;
  return bind("while", state, { cond, body: trace(avals, ([t, ...s]) => body(t!, s)).graph });
}

const int32 = (v: number): T => e.full(v, "int32", []);
/** Row t (an int32 scalar) of x [T, N, L] → [N, L]. */
const rowAt = (x: T, t: T): T => e.reshape(e.dynamicSlice(x, [t, int32(0), int32(0)], [1, x.shape[1]!, x.shape[2]!]), x.shape.slice(1));
const putRow = (x: T, row: T, t: T): T => e.dynamicUpdateSlice(x, e.reshape(row, [1, ...row.shape]), [t, int32(0), int32(0)]);

interface Sizes {
  steps: number;
  batch: number;
  classes: number;
  /** The longest target (the padded targets' width). */
  width: number;
  blank: number;
  concatenated: boolean;
}

/** The labels [N, S] (int64), blank past each target's length. */
function labels(targets: T, targetLengths: T, z: Sizes): T {
  const shape = [z.batch, z.width];
  let raw: T;
  if (z.width === 0) return e.full(BigInt(z.blank), "int64", shape);
  if (z.concatenated) {
    const total = targets.shape[0]!;
    if (total === 0) return e.full(BigInt(z.blank), "int64", shape);
    const ends = e.reduceWindow("sum", targetLengths, prefix(targetLengths, 0));
    const starts = e.sub(ends, targetLengths);
    const at = e.add(e.broadcastInDim(starts, shape, [0]), e.iota("int64", shape, 1));
    const clamped = e.clamp(e.full(0n, "int64", shape), at, e.full(BigInt(total - 1), "int64", shape));
    raw = e.reshape(e.indexSelect(e.convert(targets, "int64"), e.reshape(clamped, [z.batch * z.width]), 0), shape);
  } else raw = e.convert(targets, "int64"); // as PyTorch's targets.to(long): float labels truncate
  const inside = e.compare(e.iota("int64", shape, 1), e.broadcastInDim(targetLengths, shape, [0]), "LT");
  const inRange = e.clamp(e.full(0n, "int64", shape), raw, e.full(BigInt(z.classes - 1), "int64", shape));
  return e.select(inside, inRange, e.full(BigInt(z.blank), "int64", shape));
}

/**
 * Per sample, the negative log likelihood [N] and PyTorch's gradient of it wrt the log-probabilities
 * [T, N, C], from lp [T, N, C] (opmath, no gradient).
 */
function ctc(lp: T, targets: T, inputLengths: T, targetLengths: T, z: Sizes): { nll: T; grad: T } {
  const { steps, batch, classes, width, blank } = z;
  const L = 2 * width + 1;
  const dtype = lp.dtype;
  const row = [batch, L];
  const grid = [steps, batch, L];
  const lab = labels(targets, targetLengths, z);
  // the extended labels: blank at even s, label (s − 1) / 2 at odd s
  const pairs = (): T => e.reshape(e.concatenate([e.full(BigInt(blank), "int64", [batch, width, 1]), e.reshape(lab, [batch, width, 1])], 2), [batch, 2 * width]);
  const ext = width === 0 ? e.full(BigInt(blank), "int64", row) : e.concatenate([pairs(), e.full(BigInt(blank), "int64", [batch, 1])], 1);
  const s = e.iota("int64", row, 1);
  const odd = e.compare(e.rem(s, e.full(2n, "int64", row)), e.full(1n, "int64", row), "EQ");
  // a path may skip the blank before s when s is a label that differs from the label before it
  const skip = e.and(e.and(odd, e.compare(s, e.full(2n, "int64", row), "GE")), e.compare(ext, shifted(ext, 2, BigInt(blank)), "NE"));
  const lpExt = e.gatherAlong(lp, e.broadcastInDim(ext, grid, [1, 2]), 2);
  const il = e.convert(inputLengths, "int32");
  const tl = targetLengths;
  const negInf = e.full(-Infinity, dtype, row);
  const lastStep = e.reduce("max", il, [0]);
  const lived = (t: T, lengths: T, cmp: "LT" | "EQ"): T => e.broadcastInDim(e.compare(e.broadcastTo(t, lengths.shape), lengths, cmp), row, [0]);

  // alpha: alpha_0 at s = 0, 1; alpha_t = lp_t + logsumexp(alpha_{t−1} at s, s − 1 and s − 2 where skip), held after each input's end
  const alpha0 = e.select(e.compare(s, e.full(2n, "int64", row), "LT"), rowAt(lpExt, int32(0)), negInf);
  const [, alphaEnd, alphas] = loop(
    [int32(1), alpha0, putRow(e.full(-Infinity, dtype, grid), alpha0, int32(0)), lpExt, skip, il, lastStep],
    (t, [, , , , , end]) => e.compare(t, end!, "LT"),
    (t, [a, all, x, sk, lengths, end]) => {
      const step = e.add(logAddExp3(a!, shifted(a!, 1, -Infinity), e.select(sk!, shifted(a!, 2, -Infinity), c(a!, -Infinity))), rowAt(x!, t));
      const next = e.select(lived(t, lengths!, "LT"), step, a!);
      return [e.add(t, int32(1)), next, putRow(all!, next, t), x!, sk!, lengths!, end!];
    },
  );
  // the log likelihood: alpha at the input's end, at s = 2·len (the last blank) and 2·len − 1 (the last label)
  const lastBlank = e.mul(tl, e.full(2n, "int64", [batch]));
  const atS = (v: T, at: T): T => e.reshape(e.gatherAlong(v, e.reshape(e.clamp(e.full(0n, "int64", [batch]), at, e.full(BigInt(L - 1), "int64", [batch])), [batch, 1]), 1), [batch]);
  const hasLabels = e.compare(tl, e.full(0n, "int64", [batch]), "GT");
  const endBlank = atS(alphaEnd!, lastBlank);
  const endLabel = e.select(hasLabels, atS(alphaEnd!, e.sub(lastBlank, e.full(1n, "int64", [batch]))), e.full(-Infinity, dtype, [batch]));
  let ll = logAddExp3(endBlank, endLabel, e.full(-Infinity, dtype, [batch]));
  // an empty input matches only an empty target
  const emptyInput = e.compare(il, e.full(0, "int32", [batch]), "EQ");
  ll = e.select(emptyInput, e.select(hasLabels, e.full(-Infinity, dtype, [batch]), e.full(0, dtype, [batch])), ll);
  const nll = e.neg(ll);

  // beta: at t = len − 1 lp_t at s = 2·len and 2·len − 1; before it, lp_t + logsumexp(beta_{t+1} at s, s + 1 and s + 2 where s + 2 skips)
  const ends = e.or(e.compare(s, e.broadcastInDim(lastBlank, row, [0]), "EQ"), e.and(e.broadcastInDim(hasLabels, row, [0]), e.compare(s, e.broadcastInDim(e.sub(lastBlank, e.full(1n, "int64", [batch])), row, [0]), "EQ")));
  const [, , betas] = loop(
    [e.sub(lastStep, int32(1)), negInf, e.full(-Infinity, dtype, grid), lpExt, shifted(skip, -2, false), ends, il],
    (t) => e.compare(t, int32(0), "GE"),
    (t, [b, all, x, sk, last, lengths]) => {
      const lpT = rowAt(x!, t);
      const start = e.select(last!, lpT, c(lpT, -Infinity));
      const step = e.add(logAddExp3(b!, shifted(b!, -1, -Infinity), e.select(sk!, shifted(b!, -2, -Infinity), c(b!, -Infinity))), lpT);
      const lengthsLess1 = e.sub(lengths!, e.full(1, "int32", lengths!.shape));
      const next = e.select(lived(t, lengthsLess1, "EQ"), start, e.select(lived(t, lengthsLess1, "LT"), step, c(b!, -Infinity)));
      return [e.sub(t, int32(1)), next, putRow(all!, next, t), x!, sk!, last!, lengths!];
    },
  );

  // γ: per class, the paths through it at t over all paths, from log(alpha·beta / y) summed over the s of that class
  const finiteLp = e.compare(lpExt, c(lpExt, -Infinity), "NE");
  const logPaths = e.select(finiteLp, e.sub(e.add(alphas!, betas!), lpExt), c(lpExt, -Infinity));
  const top = e.reduce("max", logPaths, [2]);
  const shift = e.select(e.compare(top, c(top, -Infinity), "EQ"), c(top, 0), top);
  const scaled = e.exp(e.sub(logPaths, e.broadcastInDim(shift, grid, [0, 1])));
  const ofClass = e.convert(e.compare(e.broadcastInDim(ext, [batch, L, classes], [0, 1]), e.iota("int64", [batch, L, classes], 2), "EQ"), dtype);
  const perClass = e.transpose(e.dotGeneral(scaled, ofClass, [1], [0], [2], [1]), [1, 0, 2]); // [T, N, C]
  const full3 = [steps, batch, classes];
  const logGamma = e.add(e.add(e.log(perClass), e.broadcastInDim(shift, full3, [0, 1])), e.broadcastInDim(nll, full3, [1]));
  let grad = e.sub(e.exp(lp), e.exp(logGamma));
  // PyTorch's NaN where lp is −∞ (its −∞ + ∞)
  grad = e.select(e.compare(lp, c(lp, -Infinity), "EQ"), c(grad, NaN), grad);
  const running = e.compare(e.iota("int32", full3, 0), e.broadcastInDim(il, full3, [1]), "LT");
  grad = e.select(running, grad, c(grad, 0));
  return { nll, grad };
}

export const ctcLoss = op(
  'ctcLoss(logProbs: Tensor, targets: Tensor, inputLengths: Tensor | int[], targetLengths: Tensor | int[], blank: int = 0, reduction: "mean" | "sum" | "none" = "mean", zeroInfinity: bool = false) -> Tensor',
  {
    doc: "The connectionist temporal classification loss of logProbs [T, N, C] (log-softmax outputs; or unbatched [T, C]) against targets, padded [N, S] or concatenated 1-d (Σ targetLengths), with inputLengths and targetLengths per sample (int tensors or arrays, read back to the host to check them). reduction mean divides each loss by its target length (at least 1) and averages; zeroInfinity turns the infinite losses of impossible alignments (and their gradients) into zeros. The gradient wrt logProbs is PyTorch's (exp(logProbs) − the posterior, as for a logSoftmax input).",
  },
  ({ logProbs, targets, inputLengths, targetLengths, blank, reduction, zeroInfinity }) => {
    const op = "ctcLoss";
    requireFloat(op, logProbs, "logProbs");
    if (logProbs.ndim !== 3 && logProbs.ndim !== 2) {
      throw new ShapeError(`${op}: logProbs must be [T, N, C] (or unbatched [T, C]), got shape ${fmtShape(logProbs.shape)}`);
    }
    if (logProbs.numel() === 0) throw new ShapeError(`${op}: logProbs ${fmtShape(logProbs.shape)} must not be empty`);
    const batched = logProbs.ndim === 3;
    const [steps, classes] = [logProbs.shape[0]!, logProbs.shape[logProbs.ndim - 1]!];
    const batch = batched ? logProbs.shape[1]! : 1;
    if (blank < 0 || blank >= classes) throw new ArgumentError(`${op}: blank must be in label range [0, ${classes}), got ${blank}`);
    const lengthsOf = (v: Tensor | readonly number[], what: string): number[] => hostLengths(op, v, what, batch);
    const inLengths = lengthsOf(inputLengths, "inputLengths");
    const outLengths = lengthsOf(targetLengths, "targetLengths");
    for (const [lengths, what, most] of [[inLengths, "inputLengths", steps], [outLengths, "targetLengths", Infinity]] as const) {
      for (const v of lengths) {
        if (!Number.isInteger(v) || v < 0 || v > most) throw new ArgumentError(`${op}: ${what} must be integers in [0, ${most === Infinity ? "∞" : most}], got ${v}`);
      }
    }
    // as in PyTorch, unbatched logProbs are a batch of one: 1-d targets are concatenated, 2-d ones padded [1, S]
    const concatenated = targets.ndim === 1;
    let width: number;
    if (concatenated) {
      const total = outLengths.reduce((a, b) => a + b, 0);
      if (targets.shape[0] !== total) throw new ShapeError(`${op}: 1-d (concatenated) targets must hold Σ targetLengths = ${total} labels, got ${fmtShape(targets.shape)}`);
      width = Math.max(0, ...outLengths);
    } else {
      if (targets.ndim !== 2 || targets.shape[0] !== batch) {
        throw new ShapeError(`${op}: targets must be padded [${batch}, S] or concatenated 1-d for logProbs ${fmtShape(logProbs.shape)}, got ${fmtShape(targets.shape)}`);
      }
      width = targets.shape[1]!;
      const longest = Math.max(0, ...outLengths);
      if (longest > width) throw new ShapeError(`${op}: a target length (${longest}) exceeds the padded targets' width ${width} (targets ${fmtShape(targets.shape)})`);
    }
    const device = logProbs.device;
    const ilTensor = tensorFromData(inLengths, "int64", device, undefined);
    const tlTensor = tensorFromData(outLengths, "int64", device, undefined);
    const z: Sizes = { steps, batch, classes, width, blank, concatenated };
    try {
      return run(op, [logProbs, targets, ilTensor, tlTensor], `${width}|${blank}|${reduction}|${zeroInfinity}|${concatenated}`, ([x0, t0, il0, tl0]) => {
        const x = x0 as T;
        const dtype = opmath(x.dtype);
        const wide = e.reshape(e.convert(x, dtype), [steps, batch, classes]);
        const { nll: raw, grad: g0 } = ctc(e.stopGradient(wide), t0 as T, il0 as T, tl0 as T, z);
        const infinite = e.compare(raw, c(raw, Infinity), "EQ");
        const nll = zeroInfinity ? e.select(infinite, c(raw, 0), raw) : raw;
        const grad = zeroInfinity ? e.select(e.broadcastInDim(infinite, g0.shape, [1]), c(g0, 0), g0) : g0;
        // the value is nll; the gradient g: (x − stopGradient(x))·g where g is a number, and where it is NaN a term of value 0 and gradient NaN
        const nan = e.compare(grad, grad, "NE");
        const finiteX = e.isFinite(e.stopGradient(wide));
        const moved = e.select(finiteX, e.sub(wide, e.stopGradient(wide)), c(wide, 0));
        const carried = e.mul(moved, e.stopGradient(e.select(nan, c(grad, 0), grad)));
        const p = e.exp(wide);
        const d = e.sub(p, e.stopGradient(p));
        // sqrt(d²) at d = 0: value 0, gradient ∞·0; elsewhere sqrt is taken at 1 so that its gradient stays 0
        const dNan = e.select(nan, d, c(d, 1));
        const nanCarrier = e.select(nan, e.sqrt(e.mul(dNan, dNan)), c(d, 0));
        const loss = e.add(nll, e.reduce("sum", e.add(carried, nanCarrier), [0, 2]));
        let out: T;
        if (reduction === "none") out = batched ? loss : e.reshape(loss, []);
        else if (reduction === "sum") out = e.reduce("sum", loss, [0]);
        else {
          const perLabel = e.div(loss, e.max(e.convert(tl0 as T, dtype), c(loss, 1)));
          out = e.div(e.reduce("sum", perLabel, [0]), e.full(batch, dtype, []));
        }
        return e.convert(out, x.dtype);
      });
    } finally {
      ilTensor.dispose();
      tlTensor.dispose();
    }
  },
);
