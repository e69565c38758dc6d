/**
 * @file Sorting along one dim: sort, argsort, topk. The sort is always stable (so `stable` changes
 * nothing) and topk's result is always sorted (so `sorted: false` changes nothing); NaN sorts as the
 * largest value.
 */
import { DTypeError, ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import { fmtShape, normDim } from "../dims.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import type { ValuesIndices } from "../types.js";
import { runMany } from "../unit.js";

function sortUnit(name: string, input: Tensor, dim: number, descending: boolean, which: "both" | "indices"): Tensor[] {
  const d = normDim(name, dim, input.ndim);
  return runMany(name, [input], `${d}|${descending ? 1 : 0}|${which}`, ([x]) => {
    const t = x!;
    if (t.ndim === 0) return which === "both" ? [t, e.full(0, "int64")] : [e.full(0, "int64")];
    const [values, indices] = e.sortAlong([t, e.iota("int64", t.shape, d)], d, descending);
    return which === "both" ? [values!, indices!] : [indices!];
  });
}

export const sort = op(
  "sort(input: Tensor, dim: int = -1, descending: bool = false, *, stable: bool = false) -> ValuesIndices",
  { doc: "`{ values, indices }` of `input` sorted along `dim`; always stable (equal values keep their order); NaN sorts as the largest value.", method: true },
  ({ input, dim, descending }) => {
    const [values, indices] = sortUnit("sort", input, dim, descending, "both");
    return { values: values!, indices: indices! };
  },
);

export const argsort = op(
  "argsort(input: Tensor, dim: int = -1, descending: bool = false, *, stable: bool = false) -> Tensor",
  { doc: "The indices that sort `input` along `dim` (int64); always stable; NaN sorts as the largest value.", method: true },
  ({ input, dim, descending }) => sortUnit("argsort", input, dim, descending, "indices")[0]!,
);

export const topk = op(
  "topk(input: Tensor, k: int, dim: int = -1, largest: bool = true, sorted: bool = true) -> ValuesIndices",
  { doc: "`{ values, indices }` of the `k` largest (or, with `largest: false`, smallest) elements along `dim`, always sorted.", method: true },
  ({ input, k, dim, largest }) => {
    if (input.dtype === "bool") throw new DTypeError("topk: bool tensors are not supported (as in PyTorch); convert to an integer dtype first");
    const d = normDim("topk", dim, input.ndim);
    const size = input.ndim === 0 ? 1 : input.shape[d]!;
    if (k < 0 || k > size) throw new ShapeError(`topk: k = ${k} is out of range for dimension ${d} of size ${size} (shape ${fmtShape(input.shape)})`);
    const [values, indices] = runMany("topk", [input], `${k}|${d}|${largest}`, ([x]) => {
      const t = x!.ndim === 0 ? e.reshape(x!, [1]) : x!;
      const sorted = e.sortAlong([t, e.iota("int64", t.shape, d)], d, largest);
      const limit = t.shape.map((s, i) => (i === d ? k : s));
      const cut = sorted.map((s) => e.slice(s, t.shape.map(() => 0), limit));
      return x!.ndim === 0 ? cut.map((c) => e.reshape(c, [])) : cut;
    });
    return { values: values!, indices: indices! };
  },
);
