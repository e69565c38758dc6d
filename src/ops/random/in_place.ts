/**
 * @file The in-place random fills, Tensor methods only: x.uniform_(), x.normal_(), x.random_(),
 * x.exponential_(), x.geometric_(), x.logNormal_(), x.cauchy_() and x.bernoulli_(). Each draws with
 * the next key of its generator (the default one unless `generator` is given), as every random op
 * does, so torch.manualSeed makes them repeat; the numbers are Threefry's, not PyTorch's.
 */
import { type DType, defaultFloatDType, dtypes, isFloating } from "../../dtype.js";
import { floatFormats, type FloatDType } from "../../dtype_info.js";
import { randint, standardNormal, uniform } from "../../random/distributions.js";
import { bits64 } from "../../random/threefry.js";
import type { Generator } from "../../random/generator.js";
import { ArgumentError, DTypeError, ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import * as e from "../emit.js";
import { broadcastShapes, fmtShape } from "../dims.js";
import { assignInPlace } from "../pointwise/in_place.js";
import { op } from "../signature/op.js";
import { lift } from "../unit.js";
import { draw, floatDType } from "./draw.js";
import { normalFloats } from "./sampling.js";

export const uniform_ = op(
  "uniform_(input: Tensor, from: float = 0, to: float = 1, *, generator?: Generator) -> Tensor",
  { doc: "Fills the tensor in place with uniform values in [from, to) (a floating tensor); returns it.", method: true },
  ({ input, from, to, generator }) => {
    if (!(from <= to)) throw new ArgumentError(`uniform_: expects 'from' <= 'to', but got from=${from} > to=${to}`);
    const dtype = floatDType("uniform_", input.dtype);
    const shape = input.shape;
    const result = draw("uniform_", `${dtype}|${shape}|${from}|${to}`, input.device, generator, [], (k) => uniform(k, shape, dtype, from, to));
    return assignInPlace("uniform_", input, result);
  },
);

export const normal_ = op(
  "normal_(input: Tensor, mean: float = 0, std: float = 1, *, generator?: Generator) -> Tensor",
  { doc: "Fills the tensor in place with normal values of the given mean and std (a floating tensor); returns it.", method: true },
  ({ input, mean, std, generator }) => {
    if (!(std >= 0)) throw new ArgumentError(`normal_: expects std >= 0.0, but found std ${std}`);
    const dtype = floatDType("normal_", input.dtype);
    return assignInPlace("normal_", input, normalFloats(mean, std, input.shape, dtype, input.device, generator));
  },
);

// --- random_: integers -------------------------------------------------------------------------------------

/** The integers random_ may write into `dtype`: floats' up to 2^digits (each held exactly), integers' whole range, bool's 0 and 1. */
function integerRange(dtype: DType): [bigint, bigint] {
  const info = dtypes[dtype];
  if (info.kind === "bool") return [0n, 1n];
  if (info.kind === "float") {
    const exact = 1n << BigInt(floatFormats[dtype as FloatDType].mantissaBits + 1);
    return [-exact, exact];
  }
  const bits = BigInt(info.itemSize * 8);
  return info.kind === "int" ? [-(1n << (bits - 1n)), (1n << (bits - 1n)) - 1n] : [0n, (1n << bits) - 1n];
}

/** Fills `input` with integers uniform in [from, to) (`to` undefined: up to the largest its dtype holds, inclusive). */
function randomIntegers(input: Tensor, from: number, to: number | undefined, generator: Generator | undefined): Tensor {
  const op = "random_";
  const dtype = input.dtype;
  const [min, max] = integerRange(dtype);
  const lo = BigInt(from);
  const hi = to === undefined ? max + 1n : BigInt(to);
  if (lo >= hi) throw new ArgumentError(`${op}: random_ expects 'from' to be less than 'to', but got from=${lo} >= to=${hi}`);
  if (lo < min || hi - 1n > max) throw new ArgumentError(`${op}: [${lo}, ${hi}) is out of bounds for ${dtype} (which holds the integers ${min} to ${max} here)`);
  const wide = dtypes[dtype].itemSize === 8;
  const compute: DType = dtypes[dtype].kind === "float" || dtypes[dtype].kind === "bool" ? (wide ? "int64" : "int32") : dtype;
  const shape = input.shape;
  const result = draw(op, `${dtype}|${shape}|${lo}|${hi}`, input.device, generator, [], (k) => {
    // the whole uint64 range is every 64-bit pattern
    const ints = hi - lo === 1n << 64n ? bits64(k, shape) : randint(k, shape, lo, hi, compute);
    return e.convert(ints, dtype);
  });
  return assignInPlace(op, input, result);
}

export const random_ = op(
  [
    "random_(input: Tensor, *, generator?: Generator) -> Tensor",
    "random_(input: Tensor, to: int, *, generator?: Generator) -> Tensor",
    "random_(input: Tensor, from: int, to?: int, *, generator?: Generator) -> Tensor",
  ],
  {
    doc: "Fills the tensor in place with integers uniform in [from, to): [0, to) given one bound, and without `to` up to the largest integer its dtype holds (2^24 for float32, 2^53 for float64, the maximum for integer dtypes, 1 for bool); returns it.",
    method: true,
  },
  [
    ({ input, generator }) => randomIntegers(input, 0, undefined, generator),
    ({ input, to, generator }) => randomIntegers(input, 0, to, generator),
    ({ input, from, to, generator }) => randomIntegers(input, from, to, generator),
  ],
);

// --- continuous distributions ----------------------------------------------------------------------------

/**
 * Fills a floating `input` with `sample(u)` of draws u from `base` (uniforms in [0, 1) unless given)
 * computed in float32 (float64 for float64).
 */
function fillFloats(
  op: string, input: Tensor, statics: string, generator: Generator | undefined, sample: (u: Tracer) => Tracer, family: string,
  base: (key: Tracer, shape: readonly number[], dtype: DType) => Tracer = uniform,
): Tensor {
  if (!isFloating(input.dtype)) throw new DTypeError(`${op}: ${family} is a continuous probability distribution; the tensor must be floating point, got ${input.dtype}`);
  const dtype = input.dtype;
  const compute: DType = dtype === "float64" ? "float64" : "float32";
  const shape = input.shape;
  const result = draw(op, `${dtype}|${shape}|${statics}`, input.device, generator, [], (k) => e.convert(sample(base(k, shape, compute)), dtype));
  return assignInPlace(op, input, result);
}

const constant = (like: Tracer, v: number): Tracer => e.full(v, like.dtype, like.shape);

export const exponential_ = op(
  "exponential_(input: Tensor, lambd: float = 1, *, generator?: Generator) -> Tensor",
  { doc: "Fills the tensor in place with exponential samples of rate `lambd` (> 0): −log(1 − u) / lambd; floating tensors. Returns it.", method: true },
  ({ input, lambd, generator }) => {
    if (!(lambd > 0)) throw new ArgumentError(`exponential_: expects lambda > 0.0, but found lambda=${lambd}`);
    return fillFloats("exponential_", input, String(lambd), generator, (u) => e.div(e.neg(e.log(e.sub(constant(u, 1), u))), constant(u, lambd)), "the exponential distribution");
  },
);

export const logNormal_ = op(
  "logNormal_(input: Tensor, mean: float = 1, std: float = 2, *, generator?: Generator) -> Tensor",
  { doc: "Fills the tensor in place with exp(N(mean, std²)) samples (std > 0); floating tensors. Returns it.", method: true },
  ({ input, mean, std, generator }) => {
    if (!(std > 0)) throw new ArgumentError(`logNormal_: expects std > 0.0, but found std=${std}`);
    const sample = (z: Tracer) => e.exp(e.add(e.mul(z, constant(z, std)), constant(z, mean)));
    return fillFloats("logNormal_", input, `${mean}|${std}`, generator, sample, "the log-normal distribution", standardNormal);
  },
);

export const cauchy_ = op(
  "cauchy_(input: Tensor, median: float = 0, sigma: float = 1, *, generator?: Generator) -> Tensor",
  { doc: "Fills the tensor in place with Cauchy samples: median + sigma · tan(π (u − ½)) (sigma > 0); floating tensors. Returns it.", method: true },
  ({ input, median, sigma, generator }) => {
    if (!(sigma > 0)) throw new ArgumentError(`cauchy_: expects sigma > 0.0, but found sigma=${sigma}`);
    return fillFloats("cauchy_", input, `${median}|${sigma}`, generator, (u) => {
      const angle = e.mul(constant(u, Math.PI), e.sub(u, constant(u, 0.5)));
      return e.add(constant(u, median), e.mul(constant(u, sigma), e.div(e.sin(angle), e.cos(angle))));
    }, "the Cauchy distribution");
  },
);

// --- discrete distributions --------------------------------------------------------------------------------

export const geometric_ = op(
  "geometric_(input: Tensor, p: float, *, generator?: Generator) -> Tensor",
  { doc: "Fills the tensor in place with geometric samples (the number of Bernoulli(p) trials up to the first success, 1, 2, …; p in (0, 1)): ⌈log(1 − u) / log(1 − p)⌉, at least 1. Any real dtype; returns it.", method: true },
  ({ input, p, generator }) => {
    const op = "geometric_";
    if (!(p > 0 && p < 1)) throw new ArgumentError(`${op}: expects p to be in (0, 1), but got p=${p}`);
    if (input.dtype === "bool") throw new DTypeError(`${op}: "geometric" is not implemented for bool`);
    const dtype = input.dtype;
    const compute: DType = dtype === "float64" || dtypes[dtype].itemSize === 8 ? "float64" : "float32";
    const shape = input.shape;
    const result = draw(op, `${dtype}|${shape}|${p}`, input.device, generator, [], (k) => {
      const u = uniform(k, shape, compute);
      const trials = e.ceil(e.div(e.log(e.sub(constant(u, 1), u)), constant(u, Math.log1p(-p))));
      return e.convert(e.max(trials, constant(u, 1)), dtype);
    });
    return assignInPlace(op, input, result);
  },
);

export const bernoulli_ = op(
  "bernoulli_(input: Tensor, p: Tensor | float = 0.5, *, generator?: Generator) -> Tensor",
  { doc: "Fills the tensor in place with 1 with probability `p` (a number, or a floating tensor that broadcasts to the tensor's shape), else 0; any dtype. Returns it.", method: true },
  ({ input, p, generator }) => {
    const op = "bernoulli_";
    const shape = input.shape;
    const dtype = input.dtype;
    if (typeof p === "number") {
      if (!(p >= 0 && p <= 1)) throw new ArgumentError(`${op}: expects p to be in [0, 1], but got p=${p}`);
      const result = draw(op, `${dtype}|${shape}|${p}`, input.device, generator, [], (k) => e.convert(e.compare(uniform(k, shape, "float32"), e.full(p, "float32", shape), "LT"), dtype));
      return assignInPlace(op, input, result);
    }
    if (!isFloating(p.dtype)) throw new DTypeError(`${op}: p must be a floating tensor of probabilities, got ${p.dtype}`);
    const joint = broadcastShapes(op, shape, p.shape);
    if (joint.length !== shape.length || joint.some((d, i) => d !== shape[i])) throw new ShapeError(`${op}: p of shape ${fmtShape(p.shape)} does not broadcast to the tensor's shape ${fmtShape(shape)}`);
    const compute: DType = p.dtype === "float64" ? "float64" : defaultFloatDType;
    const result = draw(op, `${dtype}|${shape}|T`, input.device, generator, [p], (k, [prob]) => e.convert(e.compare(uniform(k, shape, compute), lift(prob!, compute, shape), "LT"), dtype));
    return assignInPlace(op, input, result);
  },
);
