/**
 * @file Joining tensors: cat along an existing dim, stack along a new one, hstack, vstack (rowStack),
 * dstack, columnStack, and blockDiag. Dtypes are promoted as PyTorch does.
 */
import { promoteTypes } from "../../dtype.js";
import { ArgumentError, ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import { bind1, type Tracer } from "../../trace/tracer.js";
import { fmtShape, normDim } from "../dims.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import { promote, run } from "../unit.js";
import { zeros } from "../creation/filled.js";
import { atLeast } from "./atleast.js";

function nonEmpty(op: string, tensors: readonly Tensor[]): void {
  if (tensors.length === 0) throw new ArgumentError(`${op}: expected a non-empty list of tensors`);
}

/** `ts` converted to their promoted dtype and concatenated along `d`. */
function joinAlong(ts: readonly Tracer[], d: number): Tracer {
  const dtype = ts.map((x) => x.dtype).reduce(promoteTypes);
  const conv = ts.map((x) => e.convert(x, dtype));
  return conv.length === 1 ? conv[0]! : e.concatenate(conv, d);
}

/** Concatenation along `dim` (normalized against the first part); 1-d empty tensors are skipped, as in PyTorch. */
function catChecked(op: string, ts: readonly Tracer[], dim: number): Tracer {
  const parts = ts.filter((x) => !(x.ndim === 1 && x.shape[0] === 0));
  if (parts.length === 0) return ts[0]!;
  const ref = parts[0]!;
  if (ref.ndim === 0) throw new ShapeError(`${op}: zero-dimensional tensors cannot be concatenated; unsqueeze them first`);
  const d = normDim(op, dim, ref.ndim);
  for (const x of parts) {
    if (x.ndim !== ref.ndim || x.shape.some((s, i) => i !== d && s !== ref.shape[i])) {
      throw new ShapeError(`${op}: sizes of tensors must match except in dimension ${d}; got ${fmtShape(ref.shape)} and ${fmtShape(x.shape)}`);
    }
  }
  return joinAlong(parts, d);
}

export const cat = op(
  "cat(tensors: Tensor[], dim: int = 0) -> Tensor",
  { doc: "Joins tensors along the existing dim `dim`; the sizes must match in the other dims, dtypes are promoted, and 1-d empty tensors are skipped as in PyTorch." },
  ({ tensors, dim }) => {
    nonEmpty("cat", tensors);
    return run("cat", tensors, String(dim), (xs) => catChecked("cat", xs as Tracer[], dim));
  },
);

export const stack = op(
  "stack(tensors: Tensor[], dim: int = 0) -> Tensor",
  { doc: "Joins equal-shaped tensors along a new dim `dim`; dtypes are promoted." },
  ({ tensors, dim }) => {
    nonEmpty("stack", tensors);
    return run("stack", tensors, String(dim), (xs) => {
      const ts = xs as Tracer[];
      const ref = ts[0]!;
      ts.forEach((x, i) => {
        if (x.ndim !== ref.ndim || x.shape.some((s, k) => s !== ref.shape[k])) {
          throw new ShapeError(`stack: expects each tensor to be equal size, but got ${fmtShape(ref.shape)} at entry 0 and ${fmtShape(x.shape)} at entry ${i}`);
        }
      });
      const d = normDim("stack", dim, ref.ndim + 1);
      const shape = [...ref.shape];
      shape.splice(d, 0, 1);
      return joinAlong(ts.map((x) => e.reshape(x, shape)), d);
    });
  },
);

export const hstack = op(
  "hstack(tensors: Tensor[]) -> Tensor",
  { doc: "Joins tensors column-wise: along dim 1, or dim 0 for 1-d tensors (0-d ones count as 1-d)." },
  ({ tensors }) => {
    nonEmpty("hstack", tensors);
    return run("hstack", tensors, "", (xs) => {
      const ts = (xs as Tracer[]).map((x) => atLeast(x, 1));
      return catChecked("hstack", ts, ts[0]!.ndim === 1 ? 0 : 1);
    });
  },
);

export const vstack = op(
  "vstack(tensors: Tensor[]) -> Tensor",
  { doc: "Joins tensors row-wise along dim 0; 0-d and 1-d tensors become rows first." },
  ({ tensors }) => {
    nonEmpty("vstack", tensors);
    return run("vstack", tensors, "", (xs) => {
      return catChecked("vstack", (xs as Tracer[]).map((x) => atLeast(x, 2)), 0);
    });
  },
);

export const rowStack = op(
  "rowStack(tensors: Tensor[]) -> Tensor",
  { doc: "vstack, by another of PyTorch's names." },
  ({ tensors }) => vstack(tensors),
);

export const dstack = op(
  "dstack(tensors: Tensor[]) -> Tensor",
  { doc: "Joins tensors depth-wise along dim 2, after making each at least 3-d as atleast3d does ([n] → [1, n, 1], [m, n] → [m, n, 1])." },
  ({ tensors }) => {
    nonEmpty("dstack", tensors);
    return run("dstack", tensors, "", (xs) => catChecked("dstack", (xs as Tracer[]).map((x) => atLeast(x, 3)), 2));
  },
);

export const columnStack = op(
  "columnStack(tensors: Tensor[]) -> Tensor",
  { doc: "Joins tensors as columns along dim 1: 0-d and 1-d tensors become columns [n, 1] first, others join as they are (as hstack)." },
  ({ tensors }) => {
    nonEmpty("columnStack", tensors);
    return run("columnStack", tensors, "", (xs) => catChecked("columnStack", (xs as Tracer[]).map((x) => (x.ndim <= 1 ? e.reshape(x, [x.shape[0] ?? 1, 1]) : x)), 1));
  },
);

export const blockDiag = op(
  "blockDiag(...tensors: Tensor) -> Tensor",
  { doc: "The block-diagonal matrix with the given tensors (0-d as [1, 1], 1-d as a row [1, n], or 2-d) as blocks along the diagonal, zeros elsewhere; dtypes are promoted. No tensors give an empty [1, 0] float tensor, as in PyTorch." },
  ({ tensors }) => {
    if (tensors.length === 0) return zeros([1, 0]);
    tensors.forEach((x, i) => {
      if (x.ndim > 2) throw new ShapeError(`blockDiag: input tensors must have 2 or fewer dimensions; input ${i} has shape ${fmtShape(x.shape)}`);
    });
    return run("blockDiag", tensors, "", (xs) => {
      const dtype = promote(...xs);
      const blocks = (xs as Tracer[]).map((x) => atLeast(x, 2));
      const width = blocks.reduce((w, x) => w + x.shape[1]!, 0);
      const zero = e.full(dtype === "bool" ? false : 0, dtype);
      let left = 0;
      const rows = blocks.map((x) => {
        const c = x.shape[1]!;
        const row = bind1("pad", [e.convert(x, dtype), zero], { low: [0, left], high: [0, width - left - c], interior: [0, 0] });
        left += c;
        return row;
      });
      return rows.length === 1 ? rows[0]! : e.concatenate(rows, 0);
    });
  },
);
