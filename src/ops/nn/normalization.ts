/**
 * @file Normalisation: layerNorm, rmsNorm, groupNorm, batchNorm and instanceNorm (which, when they
 * use the batch's statistics, update the running statistics they are given the way PyTorch's
 * in-place update does, by rebinding their buffers), and localResponseNorm. Statistics are computed in float32 for float16/bfloat16 inputs; variances are biased.
 */
import { ArgumentError, ShapeError } from "../../runtime/errors.js";
import { gradSlot, rebind, type Tensor } from "../../tensor.js";
import * as e from "../emit.js";
import { fmtShape, sameShape } from "../dims.js";
import { op } from "../signature/op.js";
import { run, runMany } from "../unit.js";
import { c, rsqrt, type T } from "./emitters.js";
import { opmath, requireFloat } from "./opmath.js";
import { runOptional } from "./optional_tensors.js";

/** The mean of x over `dims`, with those dims kept as size 1. */
function meanKeep(x: T, dims: readonly number[]): T {
  const n = dims.reduce((m, d) => m * x.shape[d]!, 1);
  const s = e.reshape(e.reduce("sum", x, dims), x.shape.map((d, i) => (dims.includes(i) ? 1 : d)));
  return e.div(s, c(s, n));
}

/** Normalises x over `dims` (x in opmath): (x − mean) / sqrt(var + eps). */
function standardize(x: T, dims: readonly number[], eps: number): T {
  const centered = e.sub(x, e.broadcastTo(meanKeep(x, dims), x.shape));
  const variance = meanKeep(e.mul(centered, centered), dims);
  return e.mul(centered, e.broadcastTo(rsqrt(e.add(variance, c(variance, eps))), x.shape));
}

/** y × weight + bias with weight and bias laid along `dims` of y (either may be absent). */
function affine(y: T, weight: T | undefined, bias: T | undefined, dims: readonly number[]): T {
  const along = (p: T) => e.broadcastInDim(e.convert(p, y.dtype), y.shape, dims);
  let out = y;
  if (weight) out = e.mul(out, along(weight));
  if (bias) out = e.add(out, along(bias));
  return out;
}

function checkParam(op: string, p: Tensor | null | undefined, name: string, shape: readonly number[]): void {
  if (p === null || p === undefined) return;
  if (!sameShape(p.shape, shape)) throw new ShapeError(`${op}: ${name} must have shape ${fmtShape(shape)}, got ${fmtShape(p.shape)}`);
}

/** C of a float [N, C, *] input whose per-channel tensors (those given) must be [C]. */
function channelsOf(op: string, a: Tensor, perChannel: Record<string, Tensor | null | undefined>): number {
  requireFloat(op, a);
  if (a.ndim < 2) throw new ShapeError(`${op}: expected an input of at least 2 dimensions [N, C, *], got ${fmtShape(a.shape)}`);
  const channels = a.shape[1]!;
  for (const [name, p] of Object.entries(perChannel)) checkParam(op, p, name, [channels]);
  return channels;
}

function checkNormalizedShape(op: string, a: Tensor, normalizedShape: number | readonly number[]): number[] {
  const ns = typeof normalizedShape === "number" ? [normalizedShape] : [...normalizedShape];
  if (ns.length === 0) throw new ShapeError(`${op}: normalizedShape must have at least one dimension`);
  const tail = a.shape.slice(a.ndim - ns.length);
  if (ns.length > a.ndim || !sameShape(tail, ns)) {
    throw new ShapeError(`${op}: given normalizedShape=${fmtShape(ns)}, expected input with shape [*, ${ns.join(", ")}], but got input of size ${fmtShape(a.shape)}`);
  }
  return ns;
}

export const layerNorm = op(
  "layerNorm(input: Tensor, normalizedShape: int | int[], weight?: Tensor, bias?: Tensor, eps: float = 1e-5) -> Tensor",
  { doc: "Normalises over the last `normalizedShape.length` dims ((x − mean) / sqrt(var + eps), biased variance), then applies weight and bias; half inputs compute in float32." },
  ({ input, normalizedShape, weight, bias, eps }) => {
    requireFloat("layerNorm", input);
    const ns = checkNormalizedShape("layerNorm", input, normalizedShape);
    checkParam("layerNorm", weight, "weight", ns);
    checkParam("layerNorm", bias, "bias", ns);
    return runOptional("layerNorm", [input, weight, bias], `${ns.length}|${eps}`, ([x, w, b]) => {
      const dims = ns.map((_, i) => x!.ndim - ns.length + i);
      const y = standardize(e.convert(x!, opmath(x!.dtype)), dims, eps);
      return e.convert(affine(y, w, b, dims), x!.dtype);
    });
  },
);

export const rmsNorm = op(
  "rmsNorm(input: Tensor, normalizedShape: int | int[], weight?: Tensor, eps?: float) -> Tensor",
  {
    doc: "x / sqrt(mean(x²) + eps) over the last `normalizedShape.length` dims, rounded to x's dtype, then times weight; eps defaults to the machine epsilon of the compute dtype (float32 for half inputs), as in PyTorch.",
  },
  ({ input, normalizedShape, weight, eps: epsArg }) => {
    requireFloat("rmsNorm", input);
    const ns = checkNormalizedShape("rmsNorm", input, normalizedShape);
    checkParam("rmsNorm", weight, "weight", ns);
    const eps = epsArg ?? (opmath(input.dtype) === "float64" ? 2 ** -52 : 2 ** -23);
    return runOptional("rmsNorm", [input, weight], `${ns.length}|${eps}`, ([x, w]) => {
      const dims = ns.map((_, i) => x!.ndim - ns.length + i);
      const t = e.convert(x!, opmath(x!.dtype));
      const ms = meanKeep(e.mul(t, t), dims);
      const y = e.convert(e.mul(t, e.broadcastTo(rsqrt(e.add(ms, c(ms, eps))), t.shape)), x!.dtype);
      if (!w) return y;
      return e.convert(affine(e.convert(y, opmath(y.dtype)), w, undefined, dims), x!.dtype);
    });
  },
);

export const groupNorm = op(
  "groupNorm(input: Tensor, numGroups: int, weight?: Tensor, bias?: Tensor, eps: float = 1e-5) -> Tensor",
  { doc: "Normalises [N, C, *] over groups of C / numGroups channels (and all spatial positions), then applies the per-channel weight and bias." },
  ({ input, numGroups, weight, bias, eps }) => {
    requireFloat("groupNorm", input);
    if (input.ndim < 2) throw new ShapeError(`groupNorm: expected an input of at least 2 dimensions [N, C, *], got ${fmtShape(input.shape)}`);
    if (numGroups <= 0) throw new ArgumentError(`groupNorm: numGroups must be a positive integer, got ${numGroups}`);
    const channels = input.shape[1]!;
    if (channels % numGroups !== 0) {
      throw new ShapeError(`groupNorm: expected number of channels in input to be divisible by numGroups, but got input of shape ${fmtShape(input.shape)} and numGroups=${numGroups}`);
    }
    checkParam("groupNorm", weight, "weight", [channels]);
    checkParam("groupNorm", bias, "bias", [channels]);
    return runOptional("groupNorm", [input, weight, bias], `${numGroups}|${eps}`, ([x, w, b]) => {
      const n = x!.shape[0]!;
      const t = e.convert(x!, opmath(x!.dtype));
      const perGroup = (channels / numGroups) * t.shape.slice(2).reduce((m, d) => m * d, 1);
      const grouped = e.reshape(t, [n, numGroups, perGroup]);
      const y = e.reshape(standardize(grouped, [2], eps), t.shape);
      return e.convert(affine(y, w, b, [1]), x!.dtype);
    });
  },
);

export const batchNorm = op(
  "batchNorm(input: Tensor, runningMean: Tensor | None, runningVar: Tensor | None, weight?: Tensor, bias?: Tensor, training: bool = false, momentum: float = 0.1, eps: float = 1e-5) -> Tensor",
  {
    doc: "Batch normalisation of [N, C, *] per channel. In training mode the batch statistics normalise and runningMean/runningVar (when given) are updated in place: (1 − momentum) × running + momentum × batch (the unbiased batch variance for runningVar), as PyTorch does.",
  },
  ({ input: a, runningMean, runningVar, weight, bias, training, momentum, eps }) => {
    const op = "batchNorm";
    const channels = channelsOf(op, a, { runningMean, runningVar, weight, bias });
    if (!training && (!runningMean || !runningVar)) throw new ArgumentError(`${op}: runningMean and runningVar must be given in evaluation mode (training: false)`);
    const count = a.numel() / channels;
    if (training && count <= 1) throw new ShapeError(`${op}: expected more than 1 value per channel when training, got input of size ${fmtShape(a.shape)}`);
    const update = training && runningMean && runningVar ? [runningMean, runningVar] : [];
    const args = [a, runningMean, runningVar, weight, bias];
    const present = args.map((t) => t !== null && t !== undefined);
    const tensors = args.filter((t): t is Tensor => t !== null && t !== undefined);
    const statics = `${present.map(Number).join("")}|${training}|${momentum}|${eps}`;
    const outs = runMany(op, tensors, statics, (xs) => {
      let k = 0;
      const [x, rm, rv, w, b] = present.map((p) => (p ? xs[k++]! : undefined));
      const t = e.convert(x!, opmath(x!.dtype));
      const dims = t.shape.map((_, i) => i).filter((i) => i !== 1);
      const channel = (p: T) => e.broadcastInDim(e.convert(p, t.dtype), t.shape, [1]);
      const flat = (p: T) => e.reshape(p, [channels]);
      let mean: T;
      let variance: T;
      if (training) {
        mean = meanKeep(t, dims);
        const centered = e.sub(t, e.broadcastTo(mean, t.shape));
        variance = meanKeep(e.mul(centered, centered), dims);
        mean = flat(mean);
        variance = flat(variance);
      } else {
        mean = e.convert(rm!, t.dtype);
        variance = e.convert(rv!, t.dtype);
      }
      const y = e.mul(e.sub(t, channel(mean)), channel(rsqrt(e.add(variance, c(variance, eps)))));
      const out = e.convert(affine(y, w, b, [1]), x!.dtype);
      if (update.length === 0) return [out];
      const blend = (running: T, batch: T): T => {
        const r = e.convert(running, opmath(running.dtype));
        const next = e.add(e.mul(r, c(r, 1 - momentum)), e.mul(e.convert(batch, r.dtype), c(r, momentum)));
        return e.convert(next, running.dtype);
      };
      const unbiased = e.mul(variance, c(variance, count / (count - 1)));
      return [out, blend(rm!, mean), blend(rv!, unbiased)];
    });
    update.forEach((running, i) => {
      gradSlot.setHistory(outs[i + 1]!, null, 0); // running statistics are outside autograd, as in PyTorch
      rebind(running, outs[i + 1]!);
    });
    return outs[0]!;
  },
);

export const instanceNorm = op(
  "instanceNorm(input: Tensor, runningMean?: Tensor, runningVar?: Tensor, weight?: Tensor, bias?: Tensor, useInputStats: bool = true, momentum: float = 0.1, eps: float = 1e-5) -> Tensor",
  {
    doc: "Normalises each channel of each sample of [N, C, *] over its spatial dims, then applies the per-channel weight and bias. With useInputStats, runningMean/runningVar (when given) are updated in place with the statistics averaged over the batch (the unbiased variance for runningVar), as PyTorch does; without it, they normalise instead.",
  },
  ({ input: a, runningMean, runningVar, weight, bias, useInputStats, momentum, eps }) => {
    const op = "instanceNorm";
    const channels = channelsOf(op, a, { runningMean, runningVar, weight, bias });
    const count = a.shape.slice(2).reduce((m, d) => m * d, 1);
    if (useInputStats && count === 1) throw new ShapeError(`${op}: expected more than 1 spatial element when using the input's statistics, got input of size ${fmtShape(a.shape)}`);
    if (!useInputStats && (!runningMean || !runningVar)) throw new ArgumentError(`${op}: runningMean and runningVar must be given when useInputStats is false`);
    const update = useInputStats && runningMean && runningVar ? [runningMean, runningVar] : [];
    const args = [a, runningMean, runningVar, weight, bias];
    const present = args.map((t) => t !== null && t !== undefined);
    const tensors = args.filter((t): t is Tensor => t !== null && t !== undefined);
    const statics = `${present.map(Number).join("")}|${useInputStats}|${momentum}|${eps}`;
    const outs = runMany(op, tensors, statics, (xs) => {
      let k = 0;
      const [x, rm, rv, w, b] = present.map((p) => (p ? xs[k++]! : undefined));
      const t = e.convert(x!, opmath(x!.dtype));
      const channel = (p: T) => e.broadcastInDim(e.convert(p, t.dtype), t.shape, [1]);
      if (!useInputStats) {
        const y = e.mul(e.sub(t, channel(rm!)), channel(rsqrt(e.add(e.convert(rv!, t.dtype), c(e.convert(rv!, t.dtype), eps)))));
        return [e.convert(affine(y, w, b, [1]), x!.dtype)];
      }
      const spatial = t.shape.map((_, i) => i).filter((i) => i >= 2);
      const mean = meanKeep(t, spatial);
      const centered = e.sub(t, e.broadcastTo(mean, t.shape));
      const variance = meanKeep(e.mul(centered, centered), spatial);
      const y = e.mul(centered, e.broadcastTo(rsqrt(e.add(variance, c(variance, eps))), t.shape));
      const out = e.convert(affine(y, w, b, [1]), x!.dtype);
      if (update.length === 0) return [out];
      const n = t.shape[0]!;
      // the per-sample statistics [N, C, 1…] averaged over the batch into [C]
      const batchMean = (s: T) => e.div(e.reduce("sum", s, [0, ...spatial]), e.full(n, s.dtype, [channels]));
      const blend = (running: T, stat: T): T => {
        const r = e.convert(running, opmath(running.dtype));
        return e.convert(e.add(e.mul(r, c(r, 1 - momentum)), e.mul(e.convert(stat, r.dtype), c(r, momentum))), running.dtype);
      };
      return [out, blend(rm!, batchMean(mean)), blend(rv!, batchMean(e.mul(variance, c(variance, count / (count - 1)))))];
    });
    update.forEach((running, i) => {
      gradSlot.setHistory(outs[i + 1]!, null, 0); // running statistics are outside autograd, as in PyTorch
      rebind(running, outs[i + 1]!);
    });
    return outs[0]!;
  },
);

export const localResponseNorm = op(
  "localResponseNorm(input: Tensor, size: int, alpha: float = 0.0001, beta: float = 0.75, k: float = 1) -> Tensor",
  {
    doc: "x / (k + alpha · mean(x²))^beta, the mean over a window of `size` neighbouring channels (dim 1 of [N, C, *], zero-padded: size // 2 before, (size − 1) // 2 after), as PyTorch computes it (float tensors).",
  },
  ({ input, size, alpha, beta, k }) => {
    const op = "localResponseNorm";
    requireFloat(op, input);
    if (input.ndim < 3) throw new ShapeError(`${op}: expected an input of 3 or more dimensions [N, C, *], got ${fmtShape(input.shape)}`);
    if (!(size > 0)) throw new ArgumentError(`${op}: size must be a positive integer, got ${size}`);
    return run(op, [input], `${size}|${alpha}|${beta}|${k}`, ([x]) => {
      const t = e.convert(x as T, opmath((x as T).dtype));
      const window = t.shape.map((_, i) => (i === 1 ? size : 1));
      const padding = t.shape.map((_, i) => (i === 1 ? ([Math.floor(size / 2), Math.floor((size - 1) / 2)] as const) : ([0, 0] as const)));
      const sums = e.reduceWindow("sum", e.mul(t, t), e.windowOf(t, { window, padding }));
      const div = e.pow(e.add(e.mul(sums, c(sums, alpha / size)), c(sums, k)), c(sums, beta));
      return e.convert(e.div(t, div), (x as T).dtype);
    });
  },
);
