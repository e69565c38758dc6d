/**
 * @file nn.functional's dropouts: dropout zeroes each element with probability p (drawn from the
 * generator like every random op) and scales the kept ones by 1/(1 − p), as PyTorch does in
 * training; dropout1d/2d/3d zero whole channels; alphaDropout and featureAlphaDropout set the
 * dropped values to SELU's negative saturation and rescale so that mean and variance are kept.
 */
import { isFloating } from "../../dtype.js";
import { uniform } from "../../random/distributions.js";
import { ArgumentError, DTypeError, ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import * as e from "../emit.js";
import { clone } from "../conversion.js";
import { fmtShape } from "../dims.js";
import { assignInPlace } from "../pointwise/in_place.js";
import { draw } from "../random/draw.js";
import { op } from "../signature/op.js";
import { run } from "../unit.js";
import { SELU_ALPHA, SELU_SCALE } from "./activations.js";

export const checkP = (op: string, p: number): void => {
  if (!(p >= 0 && p <= 1)) throw new ArgumentError(`${op}: dropout probability has to be between 0 and 1, but got ${String(p)}`);
};

export const dropout = op(
  "dropout(input: Tensor, p: float = 0.5, training: bool = true, inplace: bool = false, *, generator?: Generator) -> Tensor",
  {
    doc: "Zeroes each element with probability p and scales the rest by 1/(1 − p) when training (otherwise a copy); `inplace` rebinds the input to the result, and the mask draws from `generator`, which PyTorch does not take.",
  },
  ({ input, p, training, inplace, generator }) => {
    checkP("dropout", p);
    if (!isFloating(input.dtype)) throw new DTypeError(`dropout: expects a floating tensor, got ${input.dtype}`);
    let result: Tensor;
    if (!training || p === 0) result = clone(input);
    else if (p === 1) result = run("dropout", [input], "all", ([x]) => e.mul(x as Tracer, e.full(0, input.dtype, input.shape)));
    else result = draw("dropout", String(p), input.device, generator, [input], (k, [x]) => dropoutTraced(k, x!, p));
    return inplace ? assignInPlace("dropout", input, result) : result;
  },
);

/** `x` with each element zeroed with probability p (0 < p < 1) and the rest scaled by 1/(1 − p), from `key`. */
export function dropoutTraced(key: Tracer, x: Tracer, p: number): Tracer {
  const keep = e.compare(uniform(key, x.shape, x.dtype), e.full(p, x.dtype, x.shape), "GE");
  const scale = e.select(keep, e.full(1 / (1 - p), x.dtype, x.shape), e.full(0, x.dtype, x.shape));
  return e.mul(x, scale);
}

/** SELU's negative saturation is −ALPHA. */
const ALPHA = SELU_SCALE * SELU_ALPHA;

/** Which values share one keep/drop draw: each element, the channels of [N, C, *], or the channels of unbatched [C, *]. */
type Noise = "element" | "channel" | "unbatched-channel";

/**
 * PyTorch's dropout family (its _dropout_impl): a copy unless training with p > 0 on a non-empty
 * input, zeros for p = 1, else a mask drawn per `noise` unit (each kept with probability 1 − p).
 * Plain dropout scales kept values by 1/(1 − p); alpha dropout maps x to a·x + ALPHA·a·p where kept
 * and to ALPHA·a·(p − 1) where dropped, a = 1/sqrt((ALPHA²·p + 1)(1 − p)).
 */
function dropoutFamily(op: string, input: Tensor, p: number, training: boolean, inplace: boolean, noise: Noise, alpha: boolean): Tensor {
  checkP(op, p);
  let result: Tensor;
  if (!training || p === 0 || input.numel() === 0) result = clone(input);
  else if (p === 1) result = run(op, [input], "all", ([x]) => e.mul(x as Tracer, e.full(0, input.dtype, input.shape)));
  else {
    if (!isFloating(input.dtype)) throw new DTypeError(`${op}: expects a floating tensor, got ${input.dtype} (convert with .to("float32"))`);
    const kept = noise === "element" ? 0 : noise === "channel" ? 2 : 1;
    if (input.ndim < kept) throw new ShapeError(`${op}: feature dropout requires at least ${kept} dimensions in the input, got ${fmtShape(input.shape)}`);
    const noiseShape = noise === "element" ? input.shape : input.shape.map((d, i) => (i < kept ? d : 1));
    result = draw(op, `${p}|${noise}|${alpha}`, input.device, undefined, [input], (key, [x]) => {
      const t = x!;
      const full = (v: number) => e.full(v, t.dtype, t.shape);
      const keep = e.broadcastTo(e.compare(uniform(key, noiseShape, t.dtype), e.full(p, t.dtype, noiseShape), "GE"), t.shape);
      if (!alpha) return e.mul(t, e.select(keep, full(1 / (1 - p)), full(0)));
      const a = 1 / Math.sqrt((ALPHA * ALPHA * p + 1) * (1 - p));
      return e.add(e.mul(t, e.select(keep, full(a), full(0))), e.select(keep, full(ALPHA * a * p), full(ALPHA * a * (p - 1))));
    });
  }
  return inplace ? assignInPlace(op, input, result) : result;
}

export const dropout1d = op(
  "dropout1d(input: Tensor, p: float = 0.5, training: bool = true, inplace: bool = false) -> Tensor",
  { doc: "Zeroes whole channels of [N, C, L] (or unbatched [C, L]) with probability p and scales the rest by 1/(1 − p) when training (otherwise a copy); `inplace` rebinds the input to the result." },
  ({ input, p, training, inplace }) => {
    if (input.ndim !== 2 && input.ndim !== 3) throw new ShapeError(`dropout1d: expected a 2-d or 3-d input ([C, L] or [N, C, L]), but got ${fmtShape(input.shape)}`);
    return dropoutFamily("dropout1d", input, p, training, inplace, input.ndim === 3 ? "channel" : "unbatched-channel", false);
  },
);

export const dropout2d = op(
  "dropout2d(input: Tensor, p: float = 0.5, training: bool = true, inplace: bool = false) -> Tensor",
  { doc: "Zeroes whole channels (dim 1 of [N, C, *]) with probability p and scales the rest by 1/(1 − p) when training (otherwise a copy). As in PyTorch, a 3-d input is read as [N, C, L], not as unbatched [C, H, W]." },
  ({ input, p, training, inplace }) => dropoutFamily("dropout2d", input, p, training, inplace, "channel", false),
);

export const dropout3d = op(
  "dropout3d(input: Tensor, p: float = 0.5, training: bool = true, inplace: bool = false) -> Tensor",
  { doc: "Zeroes whole channels of [N, C, D, H, W] (or unbatched [C, D, H, W]: any input that is not 5-d) with probability p and scales the rest by 1/(1 − p) when training (otherwise a copy)." },
  ({ input, p, training, inplace }) => dropoutFamily("dropout3d", input, p, training, inplace, input.ndim === 5 ? "channel" : "unbatched-channel", false),
);

export const alphaDropout = op(
  "alphaDropout(input: Tensor, p: float = 0.5, training: bool = false, inplace: bool = false) -> Tensor",
  { doc: "Dropout for SELU networks when training (otherwise a copy; note training defaults to false, as in PyTorch): dropped values become SELU's negative saturation and all are rescaled so that a zero-mean, unit-variance input keeps its mean and variance." },
  ({ input, p, training, inplace }) => dropoutFamily("alphaDropout", input, p, training, inplace, "element", true),
);

export const featureAlphaDropout = op(
  "featureAlphaDropout(input: Tensor, p: float = 0.5, training: bool = false, inplace: bool = false) -> Tensor",
  { doc: "alphaDropout of whole channels (dim 1 of [N, C, *]) when training (otherwise a copy; training defaults to false, as in PyTorch)." },
  ({ input, p, training, inplace }) => dropoutFamily("featureAlphaDropout", input, p, training, inplace, "channel", true),
);
