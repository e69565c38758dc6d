/**
 * @file The trapezoidal rule along one dim: trapezoid (and its older name trapz) and
 * cumulativeTrapezoid, with a constant spacing dx or sample points x, each one unit. Integer and
 * bool inputs give the default float dtype; float16/bfloat16 compute in float32 and round once.
 */
import { type DType, defaultFloatDType, isFloating, opmath, resultType } from "../../dtype.js";
import { ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import { fmtShape, normDim } from "../dims.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import { promotionOf, run } from "../unit.js";
import { prefix } from "./cumulative.js";

/** The spacing: sample points x (1-d along dim, or broadcasting with y), or the constant dx. */
type Spacing = { x: Tensor } | { dx: number };

/** The slices [start, start + length) of `t` along `dim`. */
const along = (t: Tracer, dim: number, start: number, length: number): Tracer =>
  e.slice(t, t.shape.map((_, i) => (i === dim ? start : 0)), t.shape.map((s, i) => (i === dim ? start + length : s)));

function trapezoidal(op: string, y: Tensor, spacing: Spacing, dim: number, cumulative: boolean): Tensor {
  const d = normDim(op, dim, y.ndim);
  const n = y.ndim === 0 ? 1 : y.shape[d]!;
  const x = "x" in spacing ? spacing.x : undefined;
  const dx = "dx" in spacing ? spacing.dx : 1;
  const promoted = resultType(promotionOf(y), x ? promotionOf(x) : dx);
  const dtype: DType = isFloating(promoted) ? promoted : defaultFloatDType;
  if (x && x.ndim === 1 && x.shape[0] !== n) {
    throw new ShapeError(`${op}: there must be one x value for each sample point along dim ${dim}: x has ${x.shape[0]} values, y ${fmtShape(y.shape)} has ${n}`);
  }
  if (x && x.ndim !== 1 && x.ndim !== y.ndim) {
    throw new ShapeError(`${op}: x must be 1-d or have y's number of dims, got x ${fmtShape(x.shape)} and y ${fmtShape(y.shape)}`);
  }
  if (y.ndim === 0) throw new ShapeError(`${op}: y must have at least one dim, got a 0-d tensor`);
  const work = opmath(dtype);
  const inputs = x ? [y, x] : [y];
  return run(op, inputs, `${d}|${cumulative}|${x ? "x" : dx}`, ([yt, xt]) => {
    const t = e.convert(yt as Tracer, work);
    const m = Math.max(n - 1, 0);
    const sums = e.add(along(t, d, 0, m), along(t, d, Math.min(n, 1), m));
    let areas: Tracer;
    if (xt === undefined) areas = e.mul(sums, e.full(dx / 2, work, sums.shape));
    else {
      const xs = e.convert(xt as Tracer, work);
      const xd = xs.ndim === 1 ? 0 : d;
      const steps = e.sub(along(xs, xd, Math.min(n, 1), m), along(xs, xd, 0, m));
      const spread = xs.ndim === 1 ? e.broadcastInDim(steps, sums.shape, [d]) : e.broadcastTo(steps, sums.shape);
      areas = e.div(e.mul(spread, sums), e.full(2, work, sums.shape));
    }
    const total = cumulative ? (m === 0 ? areas : e.reduceWindow("sum", areas, prefix(areas, d))) : e.reduce("sum", areas, [d]);
    return e.convert(total, dtype);
  });
}

const doc = (what: string): string =>
  `${what} of y along dim by the trapezoidal rule, with sample points x (1-d along dim, or broadcasting with y) or the constant spacing dx (default 1). Integer inputs give the default float dtype.`;

export const trapezoid = op(
  ["trapezoid(y: Tensor, x: Tensor, *, dim: int = -1) -> Tensor", "trapezoid(y: Tensor, *, dx: Scalar = 1, dim: int = -1) -> Tensor"],
  { doc: doc("The integral") },
  [({ y, x, dim }) => trapezoidal("trapezoid", y, { x }, dim, false), ({ y, dx, dim }) => trapezoidal("trapezoid", y, { dx: Number(dx) }, dim, false)],
);

export const trapz = op(
  ["trapz(y: Tensor, x: Tensor, *, dim: int = -1) -> Tensor", "trapz(y: Tensor, *, dx: float = 1, dim: int = -1) -> Tensor"],
  { doc: `Alias of trapezoid (NumPy's older name). ${doc("The integral")}` },
  [({ y, x, dim }) => trapezoidal("trapz", y, { x }, dim, false), ({ y, dx, dim }) => trapezoidal("trapz", y, { dx }, dim, false)],
);

export const cumulativeTrapezoid = op(
  ["cumulativeTrapezoid(y: Tensor, x: Tensor, *, dim: int = -1) -> Tensor", "cumulativeTrapezoid(y: Tensor, *, dx: Scalar = 1, dim: int = -1) -> Tensor"],
  { doc: `${doc("The running integral (one value fewer than y along dim)")}` },
  [
    ({ y, x, dim }) => trapezoidal("cumulativeTrapezoid", y, { x }, dim, true),
    ({ y, dx, dim }) => trapezoidal("cumulativeTrapezoid", y, { dx: Number(dx) }, dim, true),
  ],
);
