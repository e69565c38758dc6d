/**
 * @file Sampling with given parameters: normal (numbers or tensors for mean and std), bernoulli
 * and multinomial. Each draw takes the next key of its generator, as in factories.ts.
 */
import { type DType, defaultFloatDType, isFloating, promoteTypes } from "../../dtype.js";
import type { DeviceLike } from "../../device.js";
import { standardNormal, uniform } from "../../random/distributions.js";
import type { Generator } from "../../random/generator.js";
import { ArgumentError, DTypeError, ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import { bind1, type Tracer } from "../../trace/tracer.js";
import * as e from "../emit.js";
import { withGrad } from "../creation/common.js";
import { broadcastShapes, checkTensorSize, fmtShape } from "../dims.js";
import { op } from "../signature/op.js";
import { lift } from "../unit.js";
import { checkShape, deviceName, draw, floatDType } from "./draw.js";

type T = Tracer;

// --- normal -------------------------------------------------------------------------------------------

/** Normal floats of `shape` with number mean and std (std >= 0, checked by the caller). */
export function normalFloats(mean: number, std: number, shape: readonly number[], dtype: DType | undefined, device: DeviceLike | undefined, generator: Generator | undefined): Tensor {
  const d = floatDType("normal", dtype);
  checkTensorSize("normal", shape, d);
  return draw("normal", `${d}|${shape}|${mean}|${std}`, deviceName(device), generator, [], (k) =>
    e.add(e.mul(standardNormal(k, shape, d), e.full(std, d, shape)), e.full(mean, d, shape)),
  );
}

function checkStd(std: number): void {
  if (!(std >= 0)) throw new ArgumentError(`normal: expects std >= 0.0, but found std ${std}`);
}

/** At least one of mean and std is a tensor: their broadcast shape, their promoted (floating) dtype. */
function normalOf(mean: number | Tensor, std: number | Tensor, generator: Generator | undefined): Tensor {
  if (typeof std === "number") checkStd(std);
  const tensors = [mean, std].filter((p): p is Tensor => typeof p !== "number");
  const dtype = tensors.map((t) => t.dtype).reduce(promoteTypes);
  if (tensors.some((t) => !isFloating(t.dtype))) throw new DTypeError(`normal: mean and std tensors must be floating point, got ${tensors.map((t) => t.dtype).join(" and ")}`);
  const shape = broadcastShapes("normal", ...tensors.map((t) => t.shape));
  const statics = `${dtype}|${typeof mean === "number" ? mean : "T"}|${typeof std === "number" ? std : "T"}`;
  return draw("normal", statics, tensors[0]!.device, generator, tensors, (k, xs) => {
    let i = 0;
    const m = typeof mean === "number" ? mean : xs[i++]!;
    const s = typeof std === "number" ? std : xs[i++]!;
    return e.add(e.mul(standardNormal(k, shape, dtype), lift(s, dtype, shape)), lift(m, dtype, shape));
  });
}

export const normal = op(
  [
    "normal(mean: Tensor, std: Tensor, *, generator?: Generator) -> Tensor",
    "normal(mean: Tensor, std: float = 1, *, generator?: Generator) -> Tensor",
    "normal(mean: float, std: Tensor, *, generator?: Generator) -> Tensor",
    "normal(mean: float, std: float, size: int[], *, generator?: Generator, dtype?: dtype, device?: device, requiresGrad: bool = false) -> Tensor",
  ],
  {
    doc: "Normal samples with the given mean and std: tensors (shapes broadcast, the result's dtype is theirs) or numbers; with two numbers, `size` gives the shape.",
  },
  [
    ({ mean, std, generator }) => normalOf(mean, std, generator),
    ({ mean, std, generator }) => normalOf(mean, std, generator),
    ({ mean, std, generator }) => normalOf(mean, std, generator),
    ({ mean, std, size, generator, dtype, device, requiresGrad }) => {
      checkStd(std);
      return withGrad(normalFloats(mean, std, checkShape("normal", size), dtype, device, generator), requiresGrad);
    },
  ],
);

// --- bernoulli ----------------------------------------------------------------------------------------

export const bernoulli = op(
  "bernoulli(input: Tensor, p?: float, *, generator?: Generator) -> Tensor",
  { doc: "1 with probability `input` (or `p` for every element), else 0, in input's dtype.", method: true },
  ({ input, p, generator }) => {
    if (p !== undefined && !(p >= 0 && p <= 1)) throw new ArgumentError(`bernoulli: expects 0 <= p <= 1, but got p=${p}`);
    if (!isFloating(input.dtype) && p === undefined) throw new DTypeError(`bernoulli: probabilities must be a floating tensor, got ${input.dtype}`);
    const shape = input.shape;
    return draw("bernoulli", `${p ?? "T"}`, input.device, generator, [input], (k, [x]) => {
      const compute = isFloating(x!.dtype) ? x!.dtype : defaultFloatDType;
      const prob = p === undefined ? x! : e.full(p, compute, shape);
      const hit = e.compare(uniform(k, shape, compute), prob, "LT");
      return e.convert(hit, x!.dtype);
    });
  },
);

// --- multinomial --------------------------------------------------------------------------------------

export const multinomial = op(
  "multinomial(input: Tensor, numSamples: int, replacement: bool = false, *, generator?: Generator) -> Tensor",
  {
    doc: "Samples category indices (int64) from rows of non-negative weights (1-d [k] or 2-d [n, k]): with replacement by inverse CDF, without by Gumbel-top-k.",
    method: true,
  },
  ({ input, numSamples, replacement, generator }) => {
    if (input.ndim !== 1 && input.ndim !== 2) throw new ShapeError(`multinomial: prob_dist must be 1 or 2 dim, got ${fmtShape(input.shape)}`);
    if (!isFloating(input.dtype)) throw new DTypeError(`multinomial: only supports floating-point dtypes for input, got ${input.dtype}`);
    if (numSamples <= 0) throw new ArgumentError(`multinomial: cannot sample n_sample <= 0 samples (got ${numSamples})`);
    const k = input.shape[input.ndim - 1]!;
    if (k === 0) throw new ShapeError("multinomial: the number of categories cannot be zero");
    if (!replacement && numSamples > k) {
      throw new ArgumentError(`multinomial: cannot sample n_sample (${numSamples}) > prob_dist.size(-1) (${k}) samples without replacement`);
    }
    const rows = input.ndim === 2 ? input.shape[0]! : 1;
    const outShape = input.ndim === 2 ? [rows, numSamples] : [numSamples];
    return draw("multinomial", `${numSamples}|${replacement}`, input.device, generator, [input], (key, [x]) => {
      const dtype = x!.dtype === "float64" ? "float64" : "float32";
      const w = e.reshape(e.convert(x!, dtype), [rows, k]);
      const idx = replacement ? sampleWithReplacement(key, w, numSamples) : sampleWithoutReplacement(key, w, numSamples);
      return e.reshape(idx, outShape);
    });
  },
);

/** [rows, k] weights → [rows, s] int64 indices: the first category whose CDF exceeds u·total. */
export function sampleWithReplacement(key: T, w: T, s: number): T {
  const [rows, k] = w.shape as [number, number];
  const dtype = w.dtype;
  const cdf = prefixSums(w);
  const total = e.reduce("sum", w, [1]); // [rows]
  const u = e.mul(uniform(key, [rows, s], dtype), e.broadcastInDim(total, [rows, s], [0]));
  const below = e.compare(e.broadcastInDim(cdf, [rows, s, k], [0, 2]), e.broadcastInDim(u, [rows, s, k], [0, 1]), "LE");
  const count = e.reduce("sum", e.convert(below, "int64"), [2]);
  return e.min(count, e.full(k - 1, "int64", [rows, s]));
}

/** Inclusive prefix sums along the last dim of [rows, k] in ⌈log2 k⌉ shifted adds (Hillis–Steele). */
function prefixSums(x: T): T {
  const [rows, k] = x.shape as [number, number];
  const zero = e.full(0, x.dtype);
  let sums = x;
  for (let step = 1; step < k; step *= 2) {
    const padded = bind1("pad", [sums, zero], { low: [0, step], high: [0, 0], interior: [0, 0] });
    const shifted = bind1("slice", [padded], { start: [0, 0], limit: [rows, k], strides: [1, 1] });
    sums = e.add(sums, shifted);
  }
  return sums;
}

/**
 * [rows, k] weights → [rows, s] distinct int64 indices: the s largest of log(w) + Gumbel noise
 * (Gumbel-top-k, one sort per row), which is sampling without replacement in weight proportion.
 */
export function sampleWithoutReplacement(key: T, w: T, s: number): T {
  const [rows, k] = w.shape as [number, number];
  const dtype = w.dtype;
  const u = uniform(key, [rows, k], dtype);
  const gumbel = e.neg(e.log(e.neg(e.log(e.sub(e.full(1, dtype, [rows, k]), u)))));
  const scores = e.add(e.log(w), gumbel);
  const [, order] = e.sortAlong([scores, e.iota("int64", [rows, k], 1)], 1, true);
  return e.slice(order!, [0, 0], [rows, s]);
}
