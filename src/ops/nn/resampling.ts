/**
 * @file nn.functional.interpolate and its deprecated aliases upsample, upsampleNearest and
 * upsampleBilinear. Resampling is separable: each spatial dim is multiplied by a constant [in, out]
 * matrix of interpolation weights (src/ops/nn/resampling_weights.ts), or, for the nearest modes,
 * gathered at one source index per output.
 */
import { isFloating } from "../../dtype.js";
import { ArgumentError, DTypeError, ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import { bind1, type Tracer } from "../../trace/tracer.js";
import { inOpmath } from "../accumulate.js";
import { fmtShape } from "../dims.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import { run } from "../unit.js";
import { matrix } from "./emitters.js";
import { antialiasWeights, areaWeights, type Axis, cubicWeights, linearWeights, nearestIndices } from "./resampling_weights.js";
import { alongDim } from "./spatial.js";

type Mode = "nearest" | "nearest-exact" | "area" | "linear" | "bilinear" | "bicubic" | "trilinear" | "lanczos";
type IntOrList = number | readonly number[];
type FloatOrList = number | readonly number[];

/** The spatial rank each interpolating mode needs (the nearest modes and area take 1 to 3). */
const RANK: Partial<Record<Mode, number>> = { linear: 1, bilinear: 2, bicubic: 2, trilinear: 3, lanczos: 2 };
const isNearest = (mode: Mode) => mode === "nearest" || mode === "nearest-exact";
const indices = (v: number[]): Tracer => bind1("constant", [], { value: v, dtype: "int64", shape: [v.length] });

/** PyTorch's argument checks that need no input: alignCorners, size vs scaleFactor, antialias. */
function checkOptions(mode: Mode, size: unknown, scaleFactor: unknown, alignCorners: boolean | undefined, recompute: boolean | undefined, antialias: boolean): void {
  const op = "interpolate";
  if ((isNearest(mode) || mode === "area") && alignCorners !== undefined) {
    throw new ArgumentError(`${op}: alignCorners only applies to the interpolating modes linear, bilinear, bicubic and trilinear, not ${mode}; leave it out`);
  }
  if (size !== undefined && scaleFactor !== undefined) throw new ArgumentError(`${op}: pass only one of size and scaleFactor`);
  if (size === undefined && scaleFactor === undefined) throw new ArgumentError(`${op}: pass exactly one of size and scaleFactor`);
  if (recompute === true && size !== undefined) throw new ArgumentError(`${op}: recomputeScaleFactor is not meaningful with an explicit size`);
  if (mode === "lanczos" && alignCorners) throw new ArgumentError(`${op}: lanczos mode does not support alignCorners = true`);
  if (mode === "lanczos" && !antialias) throw new ArgumentError(`${op}: lanczos mode requires antialias = true`);
}

/** One value per spatial dim: a scalar is repeated, a list must have exactly `n` entries (PyTorch's rule). */
function perDim(name: string, v: number | readonly number[], n: number, shape: readonly number[]): number[] {
  if (typeof v === "number") return new Array<number>(n).fill(v);
  if (v.length !== n) throw new ArgumentError(`interpolate: ${name} ${JSON.stringify(v)} has ${v.length} entries but input ${fmtShape(shape)} has ${n} spatial dims`);
  return [...v];
}

/** The output sizes, and the scale factors PyTorch passes to its kernels (none when sizes are given or recomputed). */
function outputSizes(x: Tracer, n: number, mode: Mode, size: IntOrList | undefined, scaleFactor: FloatOrList | undefined, recompute: boolean | undefined) {
  const spatial = x.shape.slice(2);
  if (size !== undefined) {
    const out = perDim("size", size, n, x.shape);
    if (out.some((o) => !Number.isInteger(o))) throw new ArgumentError(`interpolate: size must be integers, got ${JSON.stringify(size)}`);
    return { out, factors: undefined };
  }
  const factors = perDim("scaleFactor", scaleFactor!, n, x.shape);
  const out = spatial.map((s, i) => Math.trunc(s * factors[i]!));
  return { out, factors: recompute === true || mode === "area" ? undefined : factors };
}

/** PyTorch's kernels' checks on the input and output extents (area is adaptive pooling's, which allows empty outputs). */
function checkExtents(mode: Mode, x: Tracer, out: readonly number[]): void {
  const spatial = x.shape.slice(2);
  if (spatial.some((s) => s <= 0) || out.some((o) => o < (mode === "area" ? 0 : 1))) {
    throw new ShapeError(`interpolate: input and output sizes must be greater than 0, got input ${fmtShape(x.shape)} and output size ${fmtShape(out)}`);
  }
  if (mode !== "area" && x.shape[1] === 0) throw new ShapeError(`interpolate: input ${fmtShape(x.shape)} has no channels`);
}

/** antialias's modes, each mode's rank, and the dtypes PyTorch's kernels take (uint8 only for the nearest modes). */
function checkRankAndDtype(mode: Mode, x: Tracer, antialias: boolean): void {
  const n = x.ndim - 2;
  if (antialias && !(x.ndim === 4 && (mode === "bilinear" || mode === "bicubic" || mode === "lanczos"))) {
    throw new ArgumentError(`interpolate: antialias applies to bilinear, bicubic and lanczos modes on 4-d input, got ${mode} on ${fmtShape(x.shape)}`);
  }
  const need = RANK[mode];
  if (need !== undefined && n !== need) throw new ShapeError(`interpolate: ${mode} mode needs a ${need + 2}-d input [N, C, …], got shape ${fmtShape(x.shape)}`);
  if (n < 1 || n > 3) throw new ShapeError(`interpolate: expected a 3-d, 4-d or 5-d input [N, C, …spatial], got shape ${fmtShape(x.shape)}`);
  if (!isFloating(x.dtype) && !(isNearest(mode) && x.dtype === "uint8")) {
    throw new DTypeError(`interpolate: ${mode} mode does not support ${x.dtype} input (${isNearest(mode) ? "float or uint8" : "float"} only); convert with .to("float32")`);
  }
}

/** The [in, out] weight matrix of one dim for the non-nearest modes. */
function weightsOf(mode: Mode, antialias: boolean, axis: Axis): number[] {
  if (mode === "area") return areaWeights(axis);
  if (antialias) return antialiasWeights(mode as "bilinear" | "bicubic" | "lanczos", axis);
  return mode === "bicubic" ? cubicWeights(axis) : linearWeights(axis);
}

interface Resize {
  mode: Mode;
  size: IntOrList | undefined;
  scaleFactor: FloatOrList | undefined;
  alignCorners: boolean | undefined;
  recomputeScaleFactor: boolean | undefined;
  antialias: boolean;
}

function resize(input: Tensor, r: Resize): Tensor {
  const { mode, size, scaleFactor, alignCorners, recomputeScaleFactor, antialias } = r;
  checkOptions(mode, size, scaleFactor, alignCorners, recomputeScaleFactor, antialias);
  return run("interpolate", [input], JSON.stringify([size ?? null, scaleFactor ?? null, mode, alignCorners ?? null, recomputeScaleFactor ?? null, antialias]), ([xi]) => {
    const x = xi as Tracer;
    const { out, factors } = outputSizes(x, Math.max(x.ndim - 2, 0), mode, size, scaleFactor, recomputeScaleFactor); // PyTorch checks list lengths first
    checkRankAndDtype(mode, x, antialias);
    checkExtents(mode, x, out);
    const axes: Axis[] = out.map((o, i) => ({
      size: x.shape[2 + i]!, out: o, scaleFactor: factors?.[i], alignCorners: alignCorners ?? false,
      round: x.dtype === "float64" ? (v: number) => v : Math.fround,
    }));
    if (isNearest(mode)) {
      return axes.reduce((y, a, i) => e.indexSelect(y, indices(nearestIndices(mode === "nearest-exact", axes.length === 2, a)), 2 + i), x);
    }
    // Half inputs are interpolated in float32 (weights and sums) and rounded once, as PyTorch's opmath does.
    return inOpmath(x, (wide) => axes.reduce((y, a, i) => alongDim(y, 2 + i, matrix(weightsOf(mode, antialias, a), a.size, a.out, wide.dtype)), wide));
  });
}

export const interpolate = op(
  'interpolate(input: Tensor, size?: int | int[], scaleFactor?: float | float[], mode: "nearest" | "linear" | "bilinear" | "bicubic" | "trilinear" | "area" | "nearest-exact" | "lanczos" = "nearest", alignCorners?: bool, recomputeScaleFactor?: bool, antialias: bool = false) -> Tensor',
  {
    doc: "Resizes the spatial dims of [N, C, …] to `size`, or by `scaleFactor` (exactly one of them): nearest, nearest-exact and area on 3- to 5-d input, linear (3-d), bilinear and bicubic (4-d), trilinear (5-d), with PyTorch's alignCorners, recomputeScaleFactor and antialias (bilinear, bicubic, lanczos).",
  },
  (a) => resize(a.input, a),
);

export const upsample = op(
  'upsample(input: Tensor, size?: int | int[], scaleFactor?: float | float[], mode: "nearest" | "linear" | "bilinear" | "bicubic" | "trilinear" | "area" | "nearest-exact" = "nearest", alignCorners?: bool) -> Tensor',
  { doc: "Deprecated alias of interpolate (without recomputeScaleFactor and antialias)." },
  (a) => resize(a.input, { ...a, recomputeScaleFactor: undefined, antialias: false }),
);

export const upsampleNearest = op(
  "upsampleNearest(input: Tensor, size?: int | int[], scaleFactor?: float | float[]) -> Tensor",
  { doc: "Deprecated: interpolate with mode nearest." },
  ({ input, size, scaleFactor }) => resize(input, { mode: "nearest", size, scaleFactor, alignCorners: undefined, recomputeScaleFactor: undefined, antialias: false }),
);

export const upsampleBilinear = op(
  "upsampleBilinear(input: Tensor, size?: int | int[], scaleFactor?: float | float[]) -> Tensor",
  { doc: "Deprecated: interpolate with mode bilinear and alignCorners = true." },
  ({ input, size, scaleFactor }) => resize(input, { mode: "bilinear", size, scaleFactor, alignCorners: true, recomputeScaleFactor: undefined, antialias: false }),
);
