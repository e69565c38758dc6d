/**
 * @file nn.functional.interpolate (nearest, linear, bilinear). Resampling is separable: each spatial
 * dim is multiplied by a constant [in, out] matrix of interpolation weights (a one-hot matrix for
 * nearest).
 */
import { ArgumentError, ShapeError } from "../../runtime/errors.js";
import type { Tracer } from "../../trace/tracer.js";
import { fmtShape } from "../dims.js";
import { op } from "../signature/op.js";
import { run } from "../unit.js";
import { matrix } from "./emitters.js";
import { floating } from "./opmath.js";
import { alongDim, tuple } from "./spatial.js";

/** The [in, out] weights of one dim; `scale` maps output to input coordinates. */
function weights(mode: "nearest" | "linear", size: number, out: number, scale: number, alignCorners: boolean): number[] {
  const m = new Array<number>(size * out).fill(0);
  for (let j = 0; j < out; j++) {
    if (mode === "nearest") {
      m[Math.min(Math.floor(j * scale), size - 1) * out + j] = 1;
      continue;
    }
    const src = alignCorners ? j * scale : Math.max(scale * (j + 0.5) - 0.5, 0);
    const i0 = Math.min(Math.floor(src), size - 1);
    const i1 = i0 < size - 1 ? i0 + 1 : i0;
    const l1 = src - i0;
    m[i0 * out + j] += 1 - l1;
    m[i1 * out + j] += l1;
  }
  return m;
}

export const interpolate = op(
  'interpolate(input: Tensor, size?: int | int[], scaleFactor?: float | float[], mode: "nearest" | "linear" | "bilinear" = "nearest", alignCorners?: bool) -> Tensor',
  {
    doc: "Resizes the spatial dims of [N, C, …] to `size`, or by `scaleFactor` (exactly one of them), with nearest, linear (3-d input) or bilinear (4-d input) interpolation. PyTorch's recomputeScaleFactor and antialias are not supported.",
  },
  ({ input, size, scaleFactor, mode, alignCorners }) => {
    const op = "interpolate";
    if ((size === undefined) === (scaleFactor === undefined)) throw new ArgumentError(`${op}: pass exactly one of size and scaleFactor`);
    if (mode === "nearest" && alignCorners !== undefined) throw new ArgumentError(`${op}: alignCorners only applies to linear and bilinear modes`);
    return run(op, [input], JSON.stringify([size ?? null, scaleFactor ?? null, mode, alignCorners ?? null]), ([xi]) => {
      const x = xi as Tracer;
      const n = x.ndim - 2;
      if (n < 1) throw new ShapeError(`${op}: expected a batched input [N, C, …spatial], got shape ${fmtShape(x.shape)}`);
      if ((mode === "linear" && n !== 1) || (mode === "bilinear" && n !== 2)) throw new ShapeError(`${op}: ${mode} mode needs a ${mode === "linear" ? 3 : 4}-d input, got shape ${fmtShape(x.shape)}`);
      floating(op, x.dtype);
      const spatial = x.shape.slice(2);
      const factors = scaleFactor === undefined ? undefined : typeof scaleFactor === "number" ? spatial.map(() => scaleFactor) : [...scaleFactor];
      if (factors && (factors.length !== n || factors.some((f) => !(f > 0)))) throw new ArgumentError(`${op}: scaleFactor must be positive, one per spatial dim (${n})`);
      const out = size !== undefined ? tuple(op, "size", size, n, 1) : spatial.map((s, i) => Math.floor(s * factors![i]!));
      const corners = alignCorners ?? false;
      let y = x;
      spatial.forEach((inSize, i) => {
        const o = out[i]!;
        const scale = corners ? (o > 1 ? (inSize - 1) / (o - 1) : 0) : factors ? 1 / factors[i]! : inSize / o;
        y = alongDim(y, 2 + i, matrix(weights(mode === "nearest" ? "nearest" : "linear", inSize, o, scale, corners), inSize, o, x.dtype));
      });
      return y;
    });
  },
);
