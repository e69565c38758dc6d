/**
 * @file The same elements in another shape: reshape/view, flatten/unflatten/ravel, squeeze/unsqueeze.
 * Views are copies here: a result never shares storage with its input.
 */
import { ShapeError } from "../../runtime/errors.js";
import { numelOf } from "../../tensor.js";
import { fmtShape, normDim, normDims } from "../dims.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import { unary } from "./common.js";

type Shape = readonly number[];

/** The target shape with one −1 inferred. */
function inferShape(op: string, from: Shape, to: Shape): number[] {
  const n = numelOf(from);
  const unknown = to.filter((d) => d === -1).length;
  if (unknown > 1) throw new ShapeError(`${op}: only one dimension can be inferred (-1), got ${fmtShape(to)}`);
  if (to.some((d) => d < -1)) throw new ShapeError(`${op}: invalid shape ${fmtShape(to)}`);
  const known = to.reduce((p, d) => (d === -1 ? p : p * d), 1);
  if (unknown === 1) {
    if (known === 0 || n % known !== 0) throw new ShapeError(`${op}: shape ${fmtShape(to)} is invalid for input of size ${n}`);
    return to.map((d) => (d === -1 ? n / known : d));
  }
  if (known !== n) throw new ShapeError(`${op}: shape ${fmtShape(to)} is invalid for input of size ${n} (shape ${fmtShape(from)})`);
  return [...to];
}

export const reshape = op(
  "reshape(input: Tensor, ...shape: int) -> Tensor",
  { doc: "The same values in a new shape (`x.reshape(2, -1)` or a list; one size may be -1, inferred). Always a copy here, never a view.", method: true },
  ({ input, shape }) => unary("reshape", input, shape.join(","), (x) => e.reshape(x, inferShape("reshape", x.shape, shape))),
);

export const view = op(
  "view(input: Tensor, ...size: int) -> Tensor",
  { doc: "reshape: the same values in a new shape (one size may be -1). A copy here, not a view sharing storage (see the README); view(dtype) is not supported.", method: true },
  ({ input, size }) => unary("view", input, size.join(","), (x) => e.reshape(x, inferShape("view", x.shape, size))),
);

export const flatten = op(
  "flatten(input: Tensor, startDim: int = 0, endDim: int = -1) -> Tensor",
  { doc: "Merges dims `startDim` … `endDim` into one (all dims by default); a 0-d tensor becomes 1-d.", method: true },
  ({ input, startDim, endDim }) =>
    unary("flatten", input, `${startDim},${endDim}`, (x) => {
      if (x.ndim === 0) return e.reshape(x, [1]);
      const s = normDim("flatten", startDim, x.ndim);
      const t = normDim("flatten", endDim, x.ndim);
      if (s > t) throw new ShapeError(`flatten: startDim ${startDim} cannot come after endDim ${endDim}`);
      const merged = x.shape.slice(s, t + 1).reduce((p, d) => p * d, 1);
      return e.reshape(x, [...x.shape.slice(0, s), merged, ...x.shape.slice(t + 1)]);
    }),
);

export const ravel = op(
  "ravel(input: Tensor) -> Tensor",
  { doc: "The elements as a 1-d tensor, in row-major order (a copy here, as flatten).", method: true },
  ({ input }) => unary("ravel", input, "", (x) => e.reshape(x, [numelOf(x.shape)])),
);

export const unflatten = op(
  "unflatten(input: Tensor, dim: int, sizes: int[]) -> Tensor",
  { doc: "Splits dim `dim` into `sizes` (one may be -1, inferred).", method: true },
  ({ input, dim, sizes }) =>
    unary("unflatten", input, `${dim}|${sizes.join(",")}`, (x) => {
      const d = normDim("unflatten", dim, x.ndim);
      const n = x.shape[d]!;
      const unknown = sizes.filter((s) => s === -1).length;
      const known = sizes.reduce((p, s) => (s === -1 ? p : p * s), 1);
      if (unknown > 1 || (unknown === 1 && (known === 0 || n % known !== 0)) || (unknown === 0 && known !== n)) {
        throw new ShapeError(`unflatten: sizes ${fmtShape(sizes)} do not multiply to the size ${n} of dim ${d}`);
      }
      const full = sizes.map((s) => (s === -1 ? n / known : s));
      return e.reshape(x, [...x.shape.slice(0, d), ...full, ...x.shape.slice(d + 1)]);
    }),
);

export const unsqueeze = op(
  "unsqueeze(input: Tensor, dim: int) -> Tensor",
  { doc: "Inserts a size-1 dim at `dim` (in [-ndim-1, ndim]).", method: true },
  ({ input, dim }) =>
    unary("unsqueeze", input, String(dim), (x) => {
      const d = normDim("unsqueeze", dim, x.ndim + 1);
      const shape = [...x.shape];
      shape.splice(d, 0, 1);
      return e.reshape(x, shape);
    }),
);

export const squeeze = op(
  "squeeze(input: Tensor, dim?: int | int[]) -> Tensor",
  { doc: "Removes size-1 dims: all of them, or those in `dim` (a listed dim of another size stays).", method: true },
  ({ input, dim }) =>
    unary("squeeze", input, dim === undefined ? "all" : typeof dim === "number" ? String(dim) : dim.join(","), (x) => {
      const dims = dim === undefined ? x.shape.map((_, i) => i) : normDims("squeeze", dim, x.ndim);
      const shape = x.shape.filter((d, i) => !(d === 1 && dims.includes(i)));
      return shape.length === x.ndim ? x : e.reshape(x, shape);
    }),
);

export const reshapeAs = op(
  "reshapeAs(input: Tensor, other: Tensor) -> Tensor",
  { doc: "reshape to `other`'s shape.", method: true },
  ({ input, other }) => reshape(input, [...other.shape]),
);

export const viewAs = op(
  "viewAs(input: Tensor, other: Tensor) -> Tensor",
  { doc: "view as `other`'s shape (a copy here, as view is).", method: true },
  ({ input, other }) => view(input, [...other.shape]),
);
