/**
 * @file torch.gradient: the derivative of samples along each asked dim by finite differences —
 * central ones inside (second-order accurate, also for uneven sample points) and one-sided first-
 * or second-order ones at the two ends (edgeOrder), as NumPy's gradient. One unit for all dims.
 */
import { type DType, defaultFloatDType, isFloating, opmath } from "../../dtype.js";
import { ArgumentError, ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import { fmtShape, normDims } from "../dims.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import type { ScalarArg } from "../types.js";
import { runMany } from "../unit.js";

/** Entries [start, start + length) of `t` along `dim`. */
const part = (t: Tracer, dim: number, start: number, length: number): Tracer =>
  e.slice(t, t.shape.map((_, i) => (i === dim ? start : 0)), t.shape.map((s, i) => (i === dim ? start + length : s)));

/** The derivative of `f` along `d` with the constant spacing h. */
function evenly(f: Tracer, d: number, h: number, edgeOrder: number): Tracer {
  const n = f.shape[d]!;
  const at = (i: number, len = 1): Tracer => part(f, d, i, len);
  const c = (v: number, like: Tracer): Tracer => e.full(v, f.dtype, like.shape);
  const over = (x: Tracer, v: number): Tracer => e.div(x, c(v, x));
  const inner = over(e.sub(at(2, n - 2), at(0, n - 2)), 2 * h);
  let first: Tracer;
  let last: Tracer;
  if (edgeOrder === 1) {
    first = over(e.sub(at(1), at(0)), h);
    last = over(e.sub(at(n - 1), at(n - 2)), h);
  } else {
    const comb = (a: number, x: Tracer, b: number, y: Tracer, z: Tracer): Tracer => e.add(e.add(e.mul(c(a, x), x), e.mul(c(b, y), y)), z);
    first = over(comb(-3, at(0), 4, at(1), e.neg(at(2))), 2 * h);
    last = over(comb(3, at(n - 1), -4, at(n - 2), at(n - 3)), 2 * h);
  }
  return e.concatenate([first, inner, last], d);
}

/** The derivative of `f` along `d` at the sample points x (1-d, one per entry along d). */
function atPoints(f: Tracer, d: number, x: Tracer, edgeOrder: number): Tracer {
  const n = f.shape[d]!;
  const at = (i: number, len = 1): Tracer => part(f, d, i, len);
  /** x's entries [start, start + len) as a tensor broadcasting along d of f's slices. */
  const xs = (i: number, len = 1): Tracer => {
    const shape = f.shape.map((s, k) => (k === d ? len : s));
    return e.broadcastInDim(e.slice(x, [i], [i + len]), shape, [d]);
  };
  // inside: hl, hr the steps to the left and right neighbours
  const hl = e.sub(xs(1, n - 2), xs(0, n - 2));
  const hr = e.sub(xs(2, n - 2), xs(1, n - 2));
  const num = e.add(e.sub(e.mul(e.mul(hl, hl), at(2, n - 2)), e.mul(e.mul(hr, hr), at(0, n - 2))), e.mul(e.sub(e.mul(hr, hr), e.mul(hl, hl)), at(1, n - 2)));
  const inner = e.div(num, e.mul(e.mul(hl, hr), e.add(hl, hr)));
  let first: Tracer;
  let last: Tracer;
  if (edgeOrder === 1) {
    first = e.div(e.sub(at(1), at(0)), e.sub(xs(1), xs(0)));
    last = e.div(e.sub(at(n - 1), at(n - 2)), e.sub(xs(n - 1), xs(n - 2)));
  } else {
    const three = (w: [Tracer, Tracer, Tracer], v: [Tracer, Tracer, Tracer]): Tracer => e.add(e.add(e.mul(w[0], v[0]), e.mul(w[1], v[1])), e.mul(w[2], v[2]));
    const [h1, h2] = [e.sub(xs(1), xs(0)), e.sub(xs(2), xs(1))];
    const s = e.add(h1, h2);
    first = three([e.neg(e.div(e.add(e.add(h1, h1), h2), e.mul(h1, s))), e.div(s, e.mul(h1, h2)), e.neg(e.div(h1, e.mul(h2, s)))], [at(0), at(1), at(2)]);
    const [k1, k2] = [e.sub(xs(n - 2), xs(n - 3)), e.sub(xs(n - 1), xs(n - 2))];
    const t = e.add(k1, k2);
    last = three([e.div(k2, e.mul(k1, t)), e.neg(e.div(t, e.mul(k1, k2))), e.div(e.add(e.add(k2, k2), k1), e.mul(k2, t))], [at(n - 3), at(n - 2), at(n - 1)]);
  }
  return e.concatenate([first, inner, last], d);
}

export const gradient = op(
  "gradient(input: Tensor, *, spacing: Scalar | Scalar[] | Tensor[] = 1, dim?: int | int[], edgeOrder: int = 1) -> Tensor[]",
  {
    doc: "The derivative of the samples in input along each dim of `dim` (all by default), one tensor per dim: central differences inside, one-sided ones of order edgeOrder (1 or 2) at the ends. spacing is one step for all dims, one step per dim, or per dim the 1-d sample coordinates. Integer inputs give the default float dtype.",
  },
  ({ input, spacing, dim, edgeOrder }) => {
    const op = "gradient";
    if (edgeOrder !== 1 && edgeOrder !== 2) throw new ArgumentError(`${op}: only supports edgeOrder 1 and 2, got ${edgeOrder}`);
    const dims = dim === undefined ? normDims(op, undefined, input.ndim) : normDims(op, dim, input.ndim);
    if (input.ndim === 0) throw new ShapeError(`${op}: input must have at least one dim, got a 0-d tensor`);
    const list = Array.isArray(spacing) ? (spacing as readonly (ScalarArg | Tensor)[]) : undefined;
    if (list !== undefined && list.length !== dims.length) {
      throw new ArgumentError(`${op}: expected spacing to be unspecified, a scalar, or a list of length ${dims.length} (one per dim), but got a list of length ${list.length}`);
    }
    for (const d of dims) {
      if (input.shape[d]! < edgeOrder + 1) throw new ShapeError(`${op}: expected each dimension size to be at least edgeOrder + 1 = ${edgeOrder + 1}, but dim ${d} of ${fmtShape(input.shape)} has ${input.shape[d]}`);
    }
    const coords = list !== undefined && list.some((s) => typeof s === "object") ? (list as Tensor[]) : [];
    coords.forEach((x, i) => {
      if (typeof x !== "object") throw new ArgumentError(`${op}: spacing must be all numbers or all tensors, got a mix`);
      if (x.ndim !== 1 || x.shape[0] !== input.shape[dims[i]!]) {
        throw new ShapeError(`${op}: the coordinates for dim ${dims[i]} must be 1-d with ${input.shape[dims[i]!]} entries, got ${fmtShape(x.shape)}`);
      }
    });
    const steps = coords.length > 0 ? [] : dims.map((_, i) => Number(list === undefined ? spacing : list[i]));
    const dtype: DType = isFloating(input.dtype) ? input.dtype : defaultFloatDType;
    const work = opmath(dtype);
    return runMany(op, [input, ...coords], `${dims.join(",")}|${steps.join(",")}|${edgeOrder}`, ([x, ...cs]) => {
      const f = e.convert(x!, work);
      return dims.map((d, i) => e.convert(cs.length > 0 ? atPoints(f, d, e.convert(cs[i]!, work), edgeOrder) : evenly(f, d, steps[i]!, edgeOrder), dtype));
    });
  },
);
