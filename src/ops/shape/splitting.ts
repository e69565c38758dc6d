/**
 * @file Taking a tensor apart along one dim: split, splitWithSizes, tensorSplit, hsplit, vsplit,
 * dsplit, chunk, unbind, and narrow, narrowCopy and select (one piece).
 * Like the rest of the op library, the pieces are copies, never views.
 */
import { ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import { fmtShape, normDim } from "../dims.js";
import { op } from "../signature/op.js";
import * as e from "../emit.js";
import { runMany } from "../unit.js";
import { intsKey, sliceDim, unary } from "./common.js";

/** Slices along `d` at the given sizes. */
function pieces(x: Tracer, d: number, sizes: readonly number[]): Tracer[] {
  const out: Tracer[] = [];
  let at = 0;
  for (const s of sizes) {
    out.push(sliceDim(x, d, at, at + s));
    at += s;
  }
  return out;
}

/** Chunks of `splitSizeOrSections` (the last may be smaller), or pieces of the listed sizes, along `dim`. */
function splitAlong(a: Tensor, splitSizeOrSections: number | readonly number[], dim: number, name = "split"): Tensor[] {
  const d = normDim(name, dim, a.shape.length);
  const n = a.shape[d] ?? 1;
  let sizes: number[];
  if (typeof splitSizeOrSections === "number") {
    const s = splitSizeOrSections;
    if (s < 0 || (s === 0 && n !== 0)) throw new ShapeError(`${name}: split size must be positive, got ${s}`);
    sizes = [];
    for (let at = 0; at < n || (n === 0 && sizes.length === 0); at += s) sizes.push(Math.min(s, n - at));
  } else {
    sizes = [...splitSizeOrSections];
    const total = sizes.reduce((p, s) => p + s, 0);
    if (total !== n || sizes.some((s) => s < 0)) {
      throw new ShapeError(`${name}: split sizes ${fmtShape(sizes)} must be non-negative and sum exactly to ${n} (the size of dim ${d}, shape ${fmtShape(a.shape)})`);
    }
  }
  if (a.shape.length === 0) throw new ShapeError(`${name}: cannot split a 0-d tensor`);
  return runMany(name, [a], `${intsKey(splitSizeOrSections)}|${d}`, ([x]) => pieces(x!, d, sizes));
}

export const split = op(
  "split(tensor: Tensor, splitSizeOrSections: int | int[], dim: int = 0) -> Tensor[]",
  {
    doc: "Pieces along `dim`: of `splitSizeOrSections` elements each (the last may be smaller), or of the listed sizes, which must add up to the dim's size. The method takes the same names (PyTorch's Tensor.split calls the size `split_size`).",
    method: true,
  },
  ({ tensor, splitSizeOrSections, dim }) => splitAlong(tensor, splitSizeOrSections, dim),
);

export const splitWithSizes = op(
  "splitWithSizes(input: Tensor, splitSizes: int[], dim: int = 0) -> Tensor[]",
  { doc: "Pieces of the listed sizes along `dim`; the sizes must be non-negative and add up to the dim's size.", method: true },
  ({ input, splitSizes, dim }) => splitAlong(input, splitSizes, dim, "splitWithSizes"),
);

export const chunk = op(
  "chunk(input: Tensor, chunks: int, dim: int = 0) -> Tensor[]",
  { doc: "`chunks` pieces along `dim` of ceil(size / chunks) elements (the last may be smaller, and there may be fewer pieces).", method: true },
  ({ input, chunks, dim }) => {
    if (chunks <= 0) throw new ShapeError(`chunk: chunks must be positive, got ${chunks}`);
    const d = normDim("chunk", dim, input.shape.length);
    const n = input.shape[d] ?? 1;
    const size = Math.max(1, Math.ceil(n / chunks));
    return splitAlong(input, n === 0 ? 0 : size, d);
  },
);

export const unbind = op(
  "unbind(input: Tensor, dim: int = 0) -> Tensor[]",
  { doc: "The slices along `dim`, each without that dim.", method: true },
  ({ input, dim }) => {
    if (input.shape.length === 0) throw new ShapeError("unbind: cannot unbind a 0-d tensor");
    const d = normDim("unbind", dim, input.shape.length);
    const n = input.shape[d]!;
    return runMany("unbind", [input], String(d), ([x]) => {
      const shape = x!.shape.filter((_, i) => i !== d);
      return pieces(x!, d, new Array<number>(n).fill(1)).map((p) => e.reshape(p, shape));
    });
  },
);

export const narrow = op(
  "narrow(input: Tensor, dim: int, start: int, length: int) -> Tensor",
  { doc: "`length` elements of `dim` from `start` (a negative start counts from the end); a copy here, not a view.", method: true },
  ({ input, dim, start, length }) => {
    if (input.shape.length === 0) throw new ShapeError("narrow: cannot be applied to a 0-d tensor");
    const d = normDim("narrow", dim, input.shape.length);
    const n = input.shape[d]!;
    if (start < -n || start > n) throw new ShapeError(`narrow: start (${start}) is out of range for dimension ${d} of size ${n}`);
    const s = start < 0 ? start + n : start;
    if (length < 0) throw new ShapeError(`narrow: length must be non-negative, got ${length}`);
    if (s + length > n) throw new ShapeError(`narrow: start (${s}) + length (${length}) exceeds dimension size (${n})`);
    return unary("narrow", input, `${d},${s},${length}`, (x) => sliceDim(x, d, s, s + length));
  },
);

/** numpy's array_split along `dim`: `sections` pieces, or the pieces between the `indices` (slice bounds). */
function tensorSplitAlong(input: Tensor, sectionsOrIndices: number | readonly number[], dim: number, name = "tensorSplit"): Tensor[] {
  if (input.shape.length === 0) throw new ShapeError(`${name}: expected at least a 1-dimensional tensor, but got a 0-d tensor`);
  const d = normDim(name, dim, input.shape.length);
  const n = input.shape[d]!;
  const bounds: [number, number][] = [];
  if (typeof sectionsOrIndices === "number") {
    const sections = sectionsOrIndices;
    if (sections <= 0) throw new ShapeError(`${name}: the number of sections must be positive, got ${sections}`);
    const size = Math.floor(n / sections), longer = n % sections;
    for (let k = 0, at = 0; k < sections; k++) {
      const length = size + (k < longer ? 1 : 0);
      bounds.push([at, at + length]);
      at += length;
    }
  } else {
    const clampIndex = (i: number): number => Math.min(n, Math.max(0, i < 0 ? i + n : i));
    const cuts = [0, ...sectionsOrIndices.map(clampIndex), n];
    for (let k = 0; k + 1 < cuts.length; k++) bounds.push([cuts[k]!, Math.max(cuts[k]!, cuts[k + 1]!)]);
  }
  return runMany(name, [input], `${intsKey(sectionsOrIndices)}|${d}`, ([x]) => bounds.map(([a, b]) => sliceDim(x!, d, a, b)));
}

export const tensorSplit = op(
  ["tensorSplit(input: Tensor, sections: int, dim: int = 0) -> Tensor[]", "tensorSplit(input: Tensor, indices: int[], dim: int = 0) -> Tensor[]"],
  {
    doc: "numpy's array_split along `dim`: `sections` pieces (the first size % sections one element longer), or the pieces between the `indices` (taken as slice bounds: negative ones count from the end, out-of-range ones clamp).",
    method: true,
  },
  [({ input, sections, dim }) => tensorSplitAlong(input, sections, dim), ({ input, indices, dim }) => tensorSplitAlong(input, indices, dim)],
);

/**
 * hsplit, vsplit, dsplit: tensorSplit along `dim` of a tensor of at least `minRank` dims, where a
 * number of sections must divide the dim evenly.
 */
function splitAt(name: string, input: Tensor, sectionsOrIndices: number | readonly number[], minRank: number, dim: number): Tensor[] {
  if (input.ndim < minRank) {
    throw new ShapeError(`${name}: requires a tensor with at least ${minRank} dimension${minRank > 1 ? "s" : ""}, but got shape ${fmtShape(input.shape)}`);
  }
  const n = input.shape[dim]!;
  if (typeof sectionsOrIndices === "number" && (sectionsOrIndices === 0 || n % sectionsOrIndices !== 0)) {
    throw new ShapeError(`${name}: cannot split dimension ${dim} of size ${n} (shape ${fmtShape(input.shape)}) into ${sectionsOrIndices} equal sections; use tensorSplit for unequal ones`);
  }
  return tensorSplitAlong(input, sectionsOrIndices, dim, name);
}

export const hsplit = op(
  ["hsplit(input: Tensor, sections: int) -> Tensor[]", "hsplit(input: Tensor, indices: int[]) -> Tensor[]"],
  { doc: "Splits column-wise: tensorSplit along dim 1 (dim 0 of a 1-d tensor), into `sections` equal pieces or at `indices`.", method: true },
  [
    ({ input, sections }) => splitAt("hsplit", input, sections, 1, input.ndim === 1 ? 0 : 1),
    ({ input, indices }) => splitAt("hsplit", input, indices, 1, input.ndim === 1 ? 0 : 1),
  ],
);

export const vsplit = op(
  ["vsplit(input: Tensor, sections: int) -> Tensor[]", "vsplit(input: Tensor, indices: int[]) -> Tensor[]"],
  { doc: "Splits row-wise: tensorSplit along dim 0 of an at least 2-d tensor, into `sections` equal pieces or at `indices`.", method: true },
  [({ input, sections }) => splitAt("vsplit", input, sections, 2, 0), ({ input, indices }) => splitAt("vsplit", input, indices, 2, 0)],
);

export const dsplit = op(
  ["dsplit(input: Tensor, sections: int) -> Tensor[]", "dsplit(input: Tensor, indices: int[]) -> Tensor[]"],
  { doc: "Splits depth-wise: tensorSplit along dim 2 of an at least 3-d tensor, into `sections` equal pieces or at `indices`.", method: true },
  [({ input, sections }) => splitAt("dsplit", input, sections, 3, 2), ({ input, indices }) => splitAt("dsplit", input, indices, 3, 2)],
);

export const select = op(
  "select(input: Tensor, dim: int, index: int) -> Tensor",
  { doc: "The slice at `index` of `dim`, without that dim (`x.select(0, i)` is `x[i]`); a negative index counts from the end; a copy here, not a view.", method: true },
  ({ input, dim, index }) => {
    if (input.shape.length === 0) throw new ShapeError("select: cannot be applied to a 0-d tensor");
    const d = normDim("select", dim, input.shape.length);
    const n = input.shape[d]!;
    if (index < -n || index >= n) throw new ShapeError(`select: index ${index} is out of range for dimension ${d} of size ${n} (shape ${fmtShape(input.shape)})`);
    const i = index < 0 ? index + n : index;
    const shape = input.shape.filter((_, k) => k !== d);
    return unary("select", input, `${d},${i}`, (x) => e.reshape(sliceDim(x, d, i, i + 1), shape));
  },
);

export const narrowCopy = op(
  "narrowCopy(input: Tensor, dim: int, start: int, length: int) -> Tensor",
  { doc: "narrow, as a copy (narrow is one here too).", method: true },
  ({ input, dim, start, length }) => narrow(input, dim, start, length),
);
