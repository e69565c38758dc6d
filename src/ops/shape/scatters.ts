/**
 * @file The slice-writing inverses of select, slicing and diagonal: selectScatter, sliceScatter,
 * diagonalScatter. Each returns a copy of `input` with `src` (converted to input's dtype) written
 * where the slice was; `src` must have the slice's shape exactly.
 */
import { ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import { bind1, type Tracer } from "../../trace/tracer.js";
import { fmtShape, normDim, sameShape } from "../dims.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import { run } from "../unit.js";
import { sliceDim } from "./common.js";
import { diagonalMask, diagonalPlanePerm, diagonalSpan, spreadDiagonal } from "./diagonals.js";

type T = Tracer;

function checkSrc(name: string, src: T, slice: readonly number[]): void {
  if (!sameShape(src.shape, slice)) {
    throw new ShapeError(`${name}: expected src to have the shape of the slice it replaces, ${fmtShape(slice)}, got ${fmtShape(src.shape)}`);
  }
}

function twoIn(name: string, input: Tensor, src: Tensor, statics: string, body: (x: T, s: T) => T): Tensor {
  if (input.ndim === 0) throw new ShapeError(`${name}: cannot be applied to a 0-d tensor`);
  return run(name, [input, src], statics, ([x, s]) => body(x as T, s as T));
}

export const selectScatter = op(
  "selectScatter(input: Tensor, src: Tensor, dim: int, index: int) -> Tensor",
  { doc: "A copy of `input` with the slice at `index` of `dim` (what select gives) replaced by `src`.", method: true },
  ({ input, src, dim, index }) =>
    twoIn("selectScatter", input, src, `${dim},${index}`, (x, s) => {
      const d = normDim("selectScatter", dim, x.ndim);
      const n = x.shape[d]!;
      if (index < -n || index >= n) throw new ShapeError(`selectScatter: index ${index} is out of range for dimension ${d} of size ${n} (shape ${fmtShape(x.shape)})`);
      const i = index < 0 ? index + n : index;
      const row = x.shape.map((size, k) => (k === d ? 1 : size));
      checkSrc("selectScatter", s, x.shape.filter((_, k) => k !== d));
      const parts = [sliceDim(x, d, 0, i), e.reshape(e.convert(s, x.dtype), row), sliceDim(x, d, i + 1, n)];
      return e.concatenate(parts.filter((p) => p.shape[d]! > 0), d);
    }),
);

export const sliceScatter = op(
  "sliceScatter(input: Tensor, src: Tensor, dim: int = 0, start?: int, end?: int, step: int = 1) -> Tensor",
  { doc: "A copy of `input` with the slice start:end:step of `dim` (Python's slice bounds: negative count from the end, out of range clamp) replaced by `src`.", method: true },
  ({ input, src, dim, start, end, step }) =>
    twoIn("sliceScatter", input, src, `${dim},${start ?? ""},${end ?? ""},${step}`, (x, s) => {
      if (step <= 0) throw new ShapeError(`sliceScatter: the slice step must be positive, got ${step}`);
      const d = normDim("sliceScatter", dim, x.ndim);
      const n = x.shape[d]!;
      const bound = (v: number | undefined, fallback: number): number => (v === undefined ? fallback : Math.min(n, Math.max(0, v < 0 ? v + n : v)));
      const first = bound(start, 0);
      const stop = Math.max(first, bound(end, n));
      const count = Math.ceil((stop - first) / step);
      checkSrc("sliceScatter", s, x.shape.map((size, k) => (k === d ? count : size)));
      if (count === 0) return x;
      // src spread over the slice's positions (step − 1 holes between), and a mask of those positions
      const last = first + (count - 1) * step;
      const spread = (v: T, axis: number, fill: number | boolean): T => {
        const at = (w: number): number[] => v.shape.map((_, k) => (k === axis ? w : 0));
        return bind1("pad", [v, e.full(fill, v.dtype)], { low: at(first), high: at(n - 1 - last), interior: at(step - 1) });
      };
      const values = spread(e.convert(s, x.dtype), d, x.dtype === "bool" ? false : 0);
      const mask = e.broadcastInDim(spread(e.full(true, "bool", [count]), 0, false), x.shape, [d]);
      return e.select(mask, values, x);
    }),
);

export const diagonalScatter = op(
  "diagonalScatter(input: Tensor, src: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor",
  { doc: "A copy of `input` with diagonal `offset` of the matrices in dims `dim1`, `dim2` (what diagonal gives) replaced by `src`.", method: true },
  ({ input, src, offset, dim1, dim2 }) =>
    twoIn("diagonalScatter", input, src, `${offset},${dim1},${dim2}`, (x, s) => {
      if (x.ndim < 2) throw new ShapeError(`diagonalScatter: expects a tensor with at least 2 dimensions, got shape ${fmtShape(x.shape)}`);
      const d1 = normDim("diagonalScatter", dim1, x.ndim);
      const d2 = normDim("diagonalScatter", dim2, x.ndim);
      if (d1 === d2) throw new ShapeError(`diagonalScatter: dim1 and dim2 cannot be the same dim (${d1})`);
      const toPlane = [...x.shape.map((_, i) => i).filter((i) => i !== d1 && i !== d2), d1, d2];
      const y = e.transpose(x, toPlane);
      const [r, c] = [x.shape[d1]!, x.shape[d2]!];
      checkSrc("diagonalScatter", s, [...y.shape.slice(0, -2), diagonalSpan(r, c, offset).len]);
      const written = e.select(diagonalMask(y.shape, offset), spreadDiagonal(e.convert(s, x.dtype), r, c, offset), y);
      return e.transpose(written, diagonalPlanePerm(x.ndim, d1, d2));
    }),
);
