/**
 * @file Truth reductions over `dim` (a number or a list, negative allowed; none = all): all, any
 * and countNonzero.
 */
import type { Tensor } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import { normDims } from "../dims.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import { run } from "../unit.js";
import { dimKey, isNonzero, keep } from "./keep.js";

function logical(name: "all" | "any", input: Tensor, dim: number | readonly number[] | undefined, keepdim: boolean): Tensor {
  return run(name, [input], dimKey(dim, keepdim), ([x]) => {
    const t = x as Tracer;
    // An explicit empty list reduces nothing (PyTorch); no dim reduces everything.
    const explicitNone = Array.isArray(dim) && dim.length === 0;
    const dims = explicitNone ? [] : normDims(name, dim, t.ndim);
    const truth = isNonzero(t);
    const r = dims.length === 0 ? truth : keep(e.reduce(name === "all" ? "and" : "or", truth, dims), t, dims, keepdim);
    return t.dtype === "uint8" ? e.convert(r, "uint8") : r; // PyTorch keeps uint8 for uint8 input
  });
}

export const all = op(
  "all(input: Tensor, dim?: int | int[], keepdim: bool = false) -> Tensor",
  { doc: "Whether every element is nonzero (over `dim`; all dims by default, none for `[]`); bool result, uint8 for uint8 input as in PyTorch.", method: true },
  ({ input, dim, keepdim }) => logical("all", input, dim, keepdim),
);

export const any = op(
  "any(input: Tensor, dim?: int | int[], keepdim: bool = false) -> Tensor",
  { doc: "Whether any element is nonzero (over `dim`; all dims by default, none for `[]`); bool result, uint8 for uint8 input as in PyTorch.", method: true },
  ({ input, dim, keepdim }) => logical("any", input, dim, keepdim),
);

export const countNonzero = op(
  "countNonzero(input: Tensor, dim?: int | int[]) -> Tensor",
  { doc: "The number of nonzero elements over `dim` (all dims by default), int64; NaN counts as nonzero.", method: true },
  ({ input, dim }) =>
    run("countNonzero", [input], dimKey(dim, false), ([x]) => {
      const t = x as Tracer;
      return e.reduce("sum", e.convert(isNonzero(t), "int64"), normDims("countNonzero", dim, t.ndim));
    }),
);
