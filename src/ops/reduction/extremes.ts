/**
 * @file The largest and smallest values: amax/amin over dims, aminmax (both at once), max/min (of
 * everything, along a dim with indices, or of two tensors) and argmax/argmin.
 */
import { DTypeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import { normDim, normDims } from "../dims.js";
import * as e from "../emit.js";
import { maximum, minimum } from "../pointwise/extremes.js";
import { op } from "../signature/op.js";
import type { MinMax, ValuesIndices } from "../types.js";
import { run, runMany } from "../unit.js";
import { dimKey, keep, nonEmpty } from "./keep.js";

/** amax/amin, or (name max/min) PyTorch's max()/min() of all elements, whose gradient at a NaN result differs. */
function extreme(name: "amax" | "amin" | "max" | "min", input: Tensor, dim: number | readonly number[] | undefined, keepdim: boolean): Tensor {
  return run(name, [input], dimKey(dim, keepdim), ([x]) => {
    const t = x as Tracer;
    const dims = normDims(name, dim, t.ndim);
    nonEmpty(name, t, dims.length ? dims : t.shape.map((_, i) => i));
    return keep(e.reduce(name.endsWith("max") ? "max" : "min", t, dims, !name.startsWith("a")), t, dims, keepdim);
  });
}

export const amax = op(
  "amax(input: Tensor, dim?: int | int[], keepdim: bool = false) -> Tensor",
  { doc: "Maximum over `dim` (a number or a list; all dims by default); NaN propagates.", method: true },
  ({ input, dim, keepdim }) => extreme("amax", input, dim, keepdim),
);

export const amin = op(
  "amin(input: Tensor, dim?: int | int[], keepdim: bool = false) -> Tensor",
  { doc: "Minimum over `dim` (a number or a list; all dims by default); NaN propagates.", method: true },
  ({ input, dim, keepdim }) => extreme("amin", input, dim, keepdim),
);

export const aminmax = op(
  "aminmax(input: Tensor, *, dim?: int, keepdim: bool = false) -> MinMax",
  { doc: "`{ min, max }`: amin and amax of all elements or along `dim`, in one pass; NaN propagates.", method: true },
  ({ input, dim, keepdim }) => {
    const [lo, hi] = runMany("aminmax", [input], dimKey(dim, keepdim), ([x]) => {
      const t = x!;
      const d = dim === undefined ? undefined : normDim("aminmax", dim, t.ndim);
      const dims = d === undefined ? t.shape.map((_, i) => i) : t.ndim === 0 ? [] : [d];
      nonEmpty("aminmax", t, dims);
      return (["min", "max"] as const).map((kind) => keep(e.reduce(kind, t, dims), t, dims, keepdim));
    });
    return { min: lo!, max: hi! };
  },
);

function valuesIndices(name: "max" | "min", input: Tensor, dim: number, keepdim: boolean): ValuesIndices {
  const [values, indices] = runMany(name, [input], dimKey(dim, keepdim), ([x]) => {
    const t = x!;
    const d = normDim(name, dim, t.ndim);
    nonEmpty(name, t, t.ndim === 0 ? [] : [d]);
    const src = t.ndim === 0 ? e.reshape(t, [1]) : t;
    const [v, i] = e.argReduce(name === "max" ? "argmax" : "argmin", src, t.ndim === 0 ? 0 : d);
    return t.ndim === 0 ? [v, i] : [keep(v, t, [d], keepdim), keep(i, t, [d], keepdim)];
  });
  return { values: values!, indices: indices! };
}

export const max = op(
  [
    "max(input: Tensor) -> Tensor",
    "max(input: Tensor, dim: int, keepdim: bool = false) -> ValuesIndices",
    "max(input: Tensor, other: Tensor) -> Tensor",
  ],
  {
    doc: "The largest value (0-d); or `{ values, indices }` along `dim` (the first index of the maximum, NaN counting as largest); or the elementwise maximum with `other`.",
    method: true,
  },
  [({ input }) => extreme("max", input, undefined, false), ({ input, dim, keepdim }) => valuesIndices("max", input, dim, keepdim), ({ input, other }) => maximum(input, other)],
);

export const min = op(
  [
    "min(input: Tensor) -> Tensor",
    "min(input: Tensor, dim: int, keepdim: bool = false) -> ValuesIndices",
    "min(input: Tensor, other: Tensor) -> Tensor",
  ],
  {
    doc: "The smallest value (0-d); or `{ values, indices }` along `dim` (the first index of the minimum, NaN counting as smallest); or the elementwise minimum with `other`.",
    method: true,
  },
  [({ input }) => extreme("min", input, undefined, false), ({ input, dim, keepdim }) => valuesIndices("min", input, dim, keepdim), ({ input, other }) => minimum(input, other)],
);

function argExtreme(name: "argmax" | "argmin", input: Tensor, dim: number | undefined, keepdim: boolean): Tensor {
  return run(name, [input], dimKey(dim, keepdim), ([x]) => {
    const t = x as Tracer;
    if (t.dtype === "bool") throw new DTypeError(`${name}: bool input is not supported; convert it to an integer dtype first`);
    if (dim === undefined) {
      nonEmpty(name, t, []);
      const [, i] = e.argReduce(name, e.reshape(t, [t.numel()]), 0);
      return keepdim ? e.reshape(i, t.shape.map(() => 1)) : i;
    }
    const d = normDim(name, dim, t.ndim);
    if (t.ndim === 0) return e.full(0, "int64");
    nonEmpty(name, t, [d]);
    const [, i] = e.argReduce(name, t, d);
    return keep(i, t, [d], keepdim);
  });
}

export const argmax = op(
  "argmax(input: Tensor, dim?: int, keepdim: bool = false) -> Tensor",
  { doc: "Index of the maximum (of the flattened tensor, or along `dim`), int64.", method: true },
  ({ input, dim, keepdim }) => argExtreme("argmax", input, dim, keepdim),
);

export const argmin = op(
  "argmin(input: Tensor, dim?: int, keepdim: bool = false) -> Tensor",
  { doc: "Index of the minimum (of the flattened tensor, or along `dim`), int64.", method: true },
  ({ input, dim, keepdim }) => argExtreme("argmin", input, dim, keepdim),
);
