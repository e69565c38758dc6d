/**
 * @file nn.functional.pad: `pad` lists (before, after) pairs starting from the last dim. Constant mode
 * is one StableHLO pad (negative amounts crop); reflect, replicate and circular concatenate slices.
 */
import { ArgumentError } from "../../runtime/errors.js";
import type { Tracer } from "../../trace/tracer.js";
import * as e from "../emit.js";
import { fmtShape } from "../dims.js";
import { op } from "../signature/op.js";
import { run } from "../unit.js";
import { pad as padPrim, reverse, sliceDim } from "./emitters.js";

type PadMode = "constant" | "reflect" | "replicate" | "circular";

/** The edge of `x` that `mode` puts before (side 0) or after (side 1) dim `d`, `n` wide. */
function edge(mode: Exclude<PadMode, "constant">, x: Tracer, d: number, n: number, side: 0 | 1): Tracer {
  const size = x.shape[d]!;
  if (mode === "replicate") {
    const one = side === 0 ? sliceDim(x, d, 0, 1) : sliceDim(x, d, size - 1, size);
    return e.broadcastInDim(one, x.shape.map((s, i) => (i === d ? n : s)), x.shape.map((_, i) => i));
  }
  if (mode === "circular") return side === 0 ? sliceDim(x, d, size - n, size) : sliceDim(x, d, 0, n);
  return reverse(side === 0 ? sliceDim(x, d, 1, n + 1) : sliceDim(x, d, size - 1 - n, size - 1), [d]);
}

export const pad = op(
  'pad(input: Tensor, pad: int[], mode: "constant" | "reflect" | "replicate" | "circular" = "constant", value?: float) -> Tensor',
  {
    doc: "Pads (or, with negative amounts in constant mode, crops) the last `pad.length / 2` dims of input; `pad` lists (before, after) pairs starting from the last dim, and `value` fills constant mode (0).",
  },
  ({ input, pad: padding, mode, value }) => {
    if (padding.length % 2 !== 0) throw new ArgumentError(`pad: padding must be an even-length list of integers, got ${JSON.stringify(padding)}`);
    if (mode !== "constant" && value !== undefined && value !== 0) throw new ArgumentError(`pad: value is only used in constant mode, not ${mode}`);
    return run("pad", [input], `${padding.join(",")}|${mode}|${Object.is(value, -0) ? "-0" : String(value ?? 0)}`, ([xi]) => {
      let x = xi as Tracer;
      const dims = padding.length / 2;
      if (dims > x.ndim) throw new ArgumentError(`pad: ${padding.length} padding values need at least ${dims} dims, got shape ${fmtShape(x.shape)}`);
      const amounts = Array.from({ length: dims }, (_, k) => ({ d: x.ndim - 1 - k, before: padding[2 * k]!, after: padding[2 * k + 1]! }));
      if (mode === "constant") {
        const low = x.shape.map(() => 0);
        const high = x.shape.map(() => 0);
        for (const { d, before, after } of amounts) [low[d], high[d]] = [before, after];
        amounts.forEach(({ d }) => {
          if (x.shape[d]! + low[d]! + high[d]! < 0) throw new ArgumentError(`pad: padding ${JSON.stringify(padding)} crops more than dim ${d} of ${fmtShape(x.shape)} holds`);
        });
        return padPrim(x, e.full(value ?? 0, x.dtype), low, high);
      }
      if (dims > 3 || x.ndim < dims + 1) throw new ArgumentError(`pad: ${mode} mode pads the last 1-3 dims of a batched or unbatched input; got ${padding.length} values for shape ${fmtShape(x.shape)}`);
      for (const { d, before, after } of amounts) {
        const size = x.shape[d]!;
        const limit = mode === "reflect" ? size - 1 : mode === "circular" ? size : Infinity;
        if (before < 0 || after < 0) {
          throw new ArgumentError(`pad: negative padding is only supported in constant mode`);
        }
        if (before > limit || after > limit || (mode === "replicate" && size === 0)) {
          throw new ArgumentError(`pad: ${mode} padding (${before}, ${after}) must be at most ${limit} for dim ${d} of size ${size}`);
        }
        const parts = [before > 0 ? edge(mode, x, d, before, 0) : undefined, x, after > 0 ? edge(mode, x, d, after, 1) : undefined];
        x = e.concatenate(parts.filter((p): p is Tracer => p !== undefined), d);
      }
      return x;
    });
  },
);
