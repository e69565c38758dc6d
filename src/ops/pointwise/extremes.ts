/**
 * @file Elementwise extremes: maximum and minimum (NaN propagates), fmax and fmin (NaN ignored),
 * clamp/clip to bounds, and relu.
 */
import { isFloating } from "../../dtype.js";
import { ArgumentError, DTypeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import { broadcastShapes } from "../dims.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import type { TensorOrScalar } from "../types.js";
import { isScalar, lift, type Operand, promote, run } from "../unit.js";
import { c, isNanT, prepare, shapeOf, type T } from "./operands.js";

function elementwiseExtreme(name: "maximum" | "minimum", a: Tensor, b: Tensor): Tensor {
  return run(name, [a, b], "", ([x, y]) => {
    const [p, q] = prepare(name, x!, y!, promote(x!, y!));
    return name === "maximum" ? e.max(p, q) : e.min(p, q);
  });
}

export const maximum = op(
  "maximum(input: Tensor, other: Tensor) -> Tensor",
  { doc: "The larger of input and other, elementwise with broadcasting and type promotion; NaN propagates.", method: true },
  ({ input, other }) => elementwiseExtreme("maximum", input, other),
);

export const minimum = op(
  "minimum(input: Tensor, other: Tensor) -> Tensor",
  { doc: "The smaller of input and other, elementwise with broadcasting and type promotion; NaN propagates.", method: true },
  ({ input, other }) => elementwiseExtreme("minimum", input, other),
);

function nanExtreme(name: "fmax" | "fmin", a: Tensor, b: Tensor): Tensor {
  return run(name, [a, b], "", ([x, y]) => {
    const [p, q] = prepare(name, x!, y!, promote(x!, y!));
    if (!isFloating(p.dtype)) return name === "fmax" ? e.max(p, q) : e.min(p, q);
    // input wins ties and where other is NaN: PyTorch's fmax/fmin gradient goes to it there
    const wins = e.or(e.compare(p, q, name === "fmax" ? "GE" : "LE"), isNanT(q));
    return e.select(wins, p, q);
  });
}

export const fmax = op(
  "fmax(input: Tensor, other: Tensor) -> Tensor",
  { doc: "The larger of input and other, elementwise, ignoring NaN (NaN only where both are NaN).", method: true },
  ({ input, other }) => nanExtreme("fmax", input, other),
);

export const fmin = op(
  "fmin(input: Tensor, other: Tensor) -> Tensor",
  { doc: "The smaller of input and other, elementwise, ignoring NaN (NaN only where both are NaN).", method: true },
  ({ input, other }) => nanExtreme("fmin", input, other),
);

/** A tensor bound, or a scalar one that may round to ±0 in the dtype (float16's least subnormal is 2⁻²⁴). */
const mayBeZero = (v: Operand): boolean => !isScalar(v) || Math.abs(Number(v)) < 2 ** -24;

/** input clamped to [lo, hi] (either may be absent, not both); the body of clamp, clip and clamp_. */
export function clampTo(name: string, a: Tensor, lo: TensorOrScalar | null, hi: TensorOrScalar | null): Tensor {
  if (lo === null && hi === null) throw new ArgumentError(`${name}: at least one of 'min' or 'max' must not be None`);
  const args: TensorOrScalar[] = [a];
  if (lo !== null) args.push(lo);
  if (hi !== null) args.push(hi);
  return run(name, args, `${lo === null ? "-" : "lo"}${hi === null ? "-" : "hi"}`, (xs) => {
    const x = xs[0]!;
    const l = lo === null ? undefined : xs[1]!;
    const h = hi === null ? undefined : xs[lo === null ? 1 : 2]!;
    const bounds = [l, h].filter((v): v is Operand => v !== undefined);
    const dtype = promote(x, ...bounds);
    if (dtype === "bool") throw new DTypeError(`${name}: not implemented for bool tensors`);
    const shape = broadcastShapes(name, shapeOf(x), ...bounds.map(shapeOf));
    const x0 = lift(x, dtype, shape);
    const low = l === undefined ? undefined : lift(l, dtype, shape);
    const high = h === undefined ? undefined : lift(h, dtype, shape);
    if (isFloating(dtype)) {
      // one clamp primitive: its VJP rule gives PyTorch's gradient (inclusive bounds, 0 at NaN); NaN
      // (in x or a bound) gives NaN, and an absent bound is ±inf
      const clamped = () => e.clamp(low ?? c(x0, -Infinity), x0, high ?? c(x0, Infinity));
      if (!bounds.some(mayBeZero)) return clamped();
      // PyTorch gives x itself within the bounds (clamp(-0, min=0) is -0; the primitive gives +0). One
      // sign still differs: x < min with bounds +0 and −0 gives −0 (PyTorch: min, +0)
      const above = low && e.compare(x0, low, "GE");
      const below = high && e.compare(x0, high, "LE");
      const inside = above && below ? e.and(above, below) : (above ?? below)!;
      // a tensor min alone gets the gradient wherever x < min, min = inf too (where the rule's min < max fails)
      const loneMin = high === undefined && !isScalar(l!);
      return e.select(inside, x0, loneMin ? e.select(e.compare(x0, low!, "LT"), low!, c(x0, NaN)) : clamped());
    }
    // integers have no gradient: max and min, or the clamp primitive when both bounds are given
    if (low !== undefined && high !== undefined) return e.clamp(low, x0, high);
    return low !== undefined ? e.max(x0, low) : e.min(x0, high!);
  });
}

export const clamp = op(
  "clamp(input: Tensor, min?: Tensor | Scalar, max?: Tensor | Scalar) -> Tensor",
  { doc: "input clamped to [min, max] elementwise (bounds may be scalars or tensors that broadcast; at least one must be given).", method: true },
  ({ input, min, max }) => clampTo("clamp", input, min ?? null, max ?? null),
);

export const clip = op(
  "clip(input: Tensor, min?: Tensor | Scalar, max?: Tensor | Scalar) -> Tensor",
  { doc: "Alias of clamp: input clamped to [min, max] elementwise.", method: true },
  ({ input, min, max }) => clampTo("clip", input, min ?? null, max ?? null),
);

/** max(a, 0) (also the body of relu_). */
export function rectify(a: Tensor): Tensor {
  return run("relu", [a], "", ([x]) => {
    const t = x as T;
    if (t.dtype === "bool") throw new DTypeError("relu: relu is not supported on bool tensors");
    // a select, so that relu'(0) = 0 as in PyTorch (max would split the gradient at the tie)
    return e.select(e.compare(t, c(t, 0), "LE"), c(t, 0), t);
  });
}

export const relu = op("relu(input: Tensor) -> Tensor", { doc: "max(input, 0), elementwise, in the input's dtype (bool tensors are an error).", method: true }, ({ input }) =>
  rectify(input),
);
