/**
 * @file gridSample and affineGrid (nn.functional), 2-d and 3-d. gridSample maps each grid point's
 * normalized coordinates ([-1, 1] per spatial dim, x = width first) to input positions, applies the
 * padding mode to them, and reads the input there with one gather per corner: 2ⁿ weighted corners
 * (bilinear, trilinear in 3-d) or the nearest one. Corners outside the input read zero and pass no
 * gradient, as in PyTorch. Bicubic (2-d only) reads the 4 × 4 taps around the unpadded position,
 * weighted by the cubic convolution (A = −0.75), and applies the padding mode to each tap, as PyTorch does.
 */
import { DTypeError, ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import { bind1, type Tracer } from "../../trace/tracer.js";
import { inOpmath } from "../accumulate.js";
import * as e from "../emit.js";
import { fmtShape } from "../dims.js";
import { op } from "../signature/op.js";
import { run } from "../unit.js";
import { c } from "./emitters.js";
import { floating, opmath, requireFloat } from "./opmath.js";

type Padding = "zeros" | "border" | "reflection";

/** Reflects `x` into [low, high] (PyTorch's reflect_coordinates with twice_low = 2·low, twice_high = 2·high). */
function reflect(x: Tracer, low: number, high: number): Tracer {
  if (low === high) return c(x, 0);
  const span = high - low;
  const dist = e.abs(e.sub(x, c(x, low)));
  const flips = e.floor(e.div(dist, c(x, span)));
  const extra = e.rem(dist, c(x, span));
  const even = e.compare(e.rem(flips, c(x, 2)), c(x, 0), "EQ");
  return e.select(even, e.add(extra, c(x, low)), e.add(e.sub(c(x, span), extra), c(x, low)));
}

/** The input position (in elements) of normalized coordinates `g` along a dim of `size`, before the padding mode. */
function unnormalize(g: Tracer, size: number, alignCorners: boolean): Tracer {
  return alignCorners ? e.mul(e.add(g, c(g, 1)), c(g, (size - 1) / 2)) : e.div(e.sub(e.mul(e.add(g, c(g, 1)), c(g, size)), c(g, 1)), c(g, 2));
}

/** The input position (in elements) of normalized coordinates `g` along a dim of `size`, after the padding mode. */
function sourceIndex(g: Tracer, size: number, padding: Padding, alignCorners: boolean): Tracer {
  const pos = unnormalize(g, size, alignCorners);
  // as PyTorch's clip_coordinates_set_grad: no gradient at or beyond the bounds
  const clip = (x: Tracer): Tracer => {
    const inside = e.and(e.compare(x, c(x, 0), "GT"), e.compare(x, c(x, size - 1), "LT"));
    return e.select(inside, x, e.stopGradient(e.clamp(c(x, 0), x, c(x, size - 1))));
  };
  if (padding === "border") return clip(pos);
  if (padding === "reflection") return clip(alignCorners ? reflect(pos, 0, size - 1) : reflect(pos, -0.5, size - 0.5));
  return pos;
}

/** A bicubic tap's integer position `x` (float) along a dim of `size` after the padding mode (zeros: as it is). */
function tapIndex(x: Tracer, size: number, padding: Padding, alignCorners: boolean): Tracer {
  if (padding === "zeros") return x;
  const inside = (v: Tracer): Tracer => e.clamp(c(v, 0), v, c(v, size - 1));
  if (padding === "border") return inside(x);
  return inside(alignCorners ? reflect(x, 0, size - 1) : reflect(x, -0.5, size - 0.5));
}

const A = -0.75; // PyTorch's cubic convolution constant
/** Keys' cubic convolution weights of the taps at −1, 0, 1, 2 from the fraction t ∈ [0, 1). */
function cubicWeights(t: Tracer): Tracer[] {
  const near = (x: Tracer): Tracer => e.add(e.mul(e.mul(e.sub(e.mul(c(x, A + 2), x), c(x, A + 3)), x), x), c(x, 1)); // |x| ≤ 1
  const far = (x: Tracer): Tracer => e.sub(e.mul(e.add(e.mul(e.sub(e.mul(c(x, A), x), c(x, 5 * A)), x), c(x, 8 * A)), x), c(x, 4 * A)); // 1 < |x| < 2
  const u = e.sub(c(t, 1), t);
  return [far(e.add(t, c(t, 1))), near(t), near(u), far(e.add(u, c(u, 1)))];
}

export const gridSample = op(
  'gridSample(input: Tensor, grid: Tensor, mode: "bilinear" | "nearest" | "bicubic" = "bilinear", paddingMode: "zeros" | "border" | "reflection" = "zeros", alignCorners?: bool) -> Tensor',
  {
    doc: "Samples input [N, C, H, W] (or [N, C, D, H, W]) at grid [N, Ho, Wo, 2] (or [N, Do, Ho, Wo, 3]) of normalized (x, y[, z]) coordinates in [-1, 1] → [N, C, Ho, Wo] (or 3-d). mode bilinear (trilinear in 3-d), nearest, or bicubic (4-d input only); paddingMode says what outside points read; alignCorners (default false) maps ±1 to the corner pixels' centres.",
  },
  ({ input, grid, mode, paddingMode, alignCorners }) => {
    const op = "gridSample";
    if (input.ndim !== 4 && input.ndim !== 5) throw new ShapeError(`${op}: expected a 4-d or 5-d input [N, C, …spatial], got shape ${fmtShape(input.shape)}`);
    const n = input.ndim - 2;
    if (grid.ndim !== input.ndim || grid.shape[0] !== input.shape[0] || grid.shape[n + 1] !== n) {
      throw new ShapeError(`${op}: grid must be [${input.shape[0]}, …output, ${n}] for input ${fmtShape(input.shape)}, got ${fmtShape(grid.shape)}`);
    }
    if (grid.dtype !== input.dtype) throw new DTypeError(`${op}: input (${input.dtype}) and grid (${grid.dtype}) must have the same dtype`);
    floating(op, input.dtype);
    if (input.shape.slice(2).includes(0)) throw new ShapeError(`${op}: input ${fmtShape(input.shape)} has an empty spatial dimension`);
    if (mode === "bicubic" && n !== 2) throw new ShapeError(`${op}: bicubic interpolation only supports 4-d input [N, C, H, W], got ${fmtShape(input.shape)}`);
    const corners = alignCorners ?? false;
    return run(op, [input, grid], `${mode}|${paddingMode}|${corners}`, ([xi, gi]) => {
      const [x, g] = [xi as Tracer, gi as Tracer];
      const spatial = x.shape.slice(2);
      const [batch, channels] = [x.shape[0]!, x.shape[1]!];
      const out = g.shape.slice(1, -1);
      const points = out.reduce((p, q) => p * q, 1);
      const plane = spatial.reduce((p, q) => p * q, 1);
      const planeStride = spatial.map((_, d) => spatial.slice(d + 1).reduce((p, q) => p * q, 1));
      const wide = opmath(x.dtype); // half inputs are sampled in float32 and rounded once
      // [N·plane, C]: one row per (batch, input position)
      const rows = e.reshape(e.transpose(e.convert(x, wide), [0, ...spatial.map((_, d) => 2 + d), 1]), [batch * plane, channels]);
      const rowBase = e.mul(e.iota("int64", [batch, points], 0), e.full(plane, "int64", [batch, points]));
      /** The input at integer positions `at` (one [N, points] int64 per spatial dim) → [N, points, C], zero outside. */
      const read = (at: Tracer[], weight: Tracer | undefined): Tracer => {
        let inside = e.full(true, "bool", [batch, points]);
        let flat = rowBase;
        at.forEach((i, d) => {
          const fits = e.and(e.compare(i, e.full(0, "int64", i.shape), "GE"), e.compare(i, e.full(spatial[d]!, "int64", i.shape), "LT"));
          inside = e.and(inside, fits);
          flat = e.add(flat, e.mul(e.clamp(e.full(0, "int64", i.shape), i, e.full(spatial[d]! - 1, "int64", i.shape)), e.full(planeStride[d]!, "int64", i.shape)));
        });
        const values = e.reshape(e.indexSelect(rows, e.reshape(flat, [batch * points]), 0), [batch, points, channels]);
        const weighted = weight === undefined ? values : e.mul(values, e.broadcastInDim(weight, values.shape, [0, 1]));
        return e.select(e.broadcastInDim(inside, values.shape, [0, 1]), weighted, c(weighted, 0));
      };
      const sampled = inOpmath(g, (wg) => {
        // grid's last dim is (x, y[, z]): coordinate k indexes spatial dim n - 1 - k
        const gridCoord = (d: number): Tracer => {
          const k = n - 1 - d;
          return e.reshape(e.slice(wg, [0, ...out.map(() => 0), k], [batch, ...out, k + 1]), [batch, points]);
        };
        if (mode === "bicubic") {
          const pos = spatial.map((size, d) => unnormalize(gridCoord(d), size, corners));
          const lows = pos.map((p) => e.floor(p));
          const weights = pos.map((p, d) => cubicWeights(e.sub(p, lows[d]!)));
          let sum: Tracer | undefined;
          for (let i = 0; i < 4; i++) {
            for (let j = 0; j < 4; j++) {
              const taps = [i, j];
              const at = lows.map((low, d) => e.convert(tapIndex(e.add(low, c(low, taps[d]! - 1)), spatial[d]!, paddingMode, corners), "int64"));
              const term = read(at, e.mul(weights[0]![i]!, weights[1]![j]!));
              sum = sum === undefined ? term : e.add(sum, term);
            }
          }
          return sum!;
        }
        const coords = spatial.map((size, d) => sourceIndex(gridCoord(d), size, paddingMode, corners));
        if (mode === "nearest") return read(coords.map((p) => e.convert(e.roundEven(p), "int64")), undefined);
        const lows = coords.map((p) => e.floor(p));
        let sum: Tracer | undefined;
        for (let corner = 0; corner < 1 << n; corner++) {
          const high = (d: number): boolean => ((corner >> (n - 1 - d)) & 1) === 1;
          let weight: Tracer | undefined;
          const at = coords.map((p, d) => {
            const frac = e.sub(p, lows[d]!);
            const w = high(d) ? frac : e.sub(c(frac, 1), frac);
            weight = weight === undefined ? w : e.mul(weight, w);
            return e.convert(high(d) ? e.add(lows[d]!, c(p, 1)) : lows[d]!, "int64");
          });
          const term = read(at, weight);
          sum = sum === undefined ? term : e.add(sum, term);
        }
        return sum!;
      });
      return e.transpose(e.reshape(sampled, [batch, ...out, channels]), [0, n + 1, ...out.map((_, d) => 1 + d)]);
    });
  },
);

/** PyTorch's base grid coordinates along a dim of `size`: linspace(-1, 1), shrunk by (size - 1) / size unless alignCorners. */
function baseCoords(size: number, alignCorners: boolean): number[] {
  if (size <= 1) return [0];
  const scale = alignCorners ? 1 : (size - 1) / size;
  return Array.from({ length: size }, (_, i) => (-1 + (2 * i) / (size - 1)) * scale);
}

export const affineGrid = op(
  "affineGrid(theta: Tensor, size: int[], alignCorners?: bool) -> Tensor",
  {
    doc: "The sampling grid of affine maps theta [N, 2, 3] for size [N, C, H, W] → [N, H, W, 2] (or theta [N, 3, 4], size [N, C, D, H, W] → [N, D, H, W, 3]), for gridSample; alignCorners defaults to false.",
  },
  ({ theta, size, alignCorners }) => {
    const op = "affineGrid";
    if (size.length !== 4 && size.length !== 5) throw new ShapeError(`${op}: size must have 4 ([N, C, H, W]) or 5 ([N, C, D, H, W]) entries, got ${fmtShape(size)}`);
    const n = size.length - 2;
    requireFloat(op, theta, "theta");
    if (theta.ndim !== 3 || theta.shape[0] !== size[0] || theta.shape[1] !== n || theta.shape[2] !== n + 1) {
      throw new ShapeError(`${op}: for size ${fmtShape(size)}, theta must be a batch of affine matrices [${size[0]}, ${n}, ${n + 1}], got ${fmtShape(theta.shape)}`);
    }
    const spatial = size.slice(2);
    if (size.some((d) => !Number.isInteger(d) || d <= 0)) throw new ShapeError(`${op}: expected a positive output size, got ${fmtShape(size)}`);
    const corners = alignCorners ?? false;
    return run(op, [theta], `${fmtShape(size)}|${corners}`, ([ti]) => {
      const t = ti as Tracer;
      const points = spatial.reduce((p, q) => p * q, 1);
      // the base grid [points, n + 1]: (x, y[, z], 1) per output point, x along the last dim, from each dim's 1-d coordinates
      const column = (v: Tracer): Tracer => e.reshape(v, [points, 1]);
      const axes = spatial.map((d, k) => column(e.broadcastInDim(bind1("constant", [], { value: baseCoords(d, corners), dtype: t.dtype, shape: [d] }), spatial, [k])));
      const b = e.concatenate([...axes.reverse(), e.full(1, t.dtype, [points, 1])], 1);
      const grid = e.dotGeneral(t, b, [], [], [2], [1]); // [N, n, points]
      return e.reshape(e.transpose(grid, [0, 2, 1]), [t.shape[0]!, ...spatial, n]);
    });
  },
);
