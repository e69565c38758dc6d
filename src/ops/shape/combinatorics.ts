/**
 * @file cartesianProd and combinations: the tuples of elements of 1-d tensors, one tuple a row.
 */
import { ArgumentError, DTypeError, ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import { bind1, type Tracer } from "../../trace/tracer.js";
import { fmtShape } from "../dims.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import { run } from "../unit.js";
import { unary } from "./common.js";

function checkVector(name: string, x: Tensor): void {
  if (x.ndim !== 1) throw new ShapeError(`${name}: expects 1-d tensors, got shape ${fmtShape(x.shape)}`);
}

/** Each grid (all of one shape) flattened into a column, the columns side by side. */
const columns = (grids: readonly Tracer[]): Tracer => {
  const n = grids[0]!.shape.reduce((p, d) => p * d, 1);
  return e.concatenate(grids.map((g) => e.reshape(g, [n, 1])), 1);
};

export const cartesianProd = op(
  "cartesianProd(...tensors: Tensor) -> Tensor",
  { doc: "[n0 · n1 · …, k]: every tuple of one element from each of the k vectors (of one dtype), in lexicographic order; one vector is returned as it is." },
  ({ tensors }) => {
    if (tensors.length === 0) throw new ArgumentError("cartesianProd: expected at least one tensor");
    tensors.forEach((x) => checkVector("cartesianProd", x));
    const dtype = tensors[0]!.dtype;
    if (tensors.some((x) => x.dtype !== dtype)) throw new DTypeError(`cartesianProd: expects all tensors to have the same dtype, got ${tensors.map((x) => x.dtype).join(", ")}`);
    return run("cartesianProd", tensors, "", (xs) => {
      const ts = xs as Tracer[];
      if (ts.length === 1) return ts[0]!;
      const shape = ts.map((x) => x.shape[0]!);
      return columns(ts.map((x, i) => e.broadcastInDim(x, shape, [i])));
    });
  },
);

/** The positions of each r-combination of n (increasing, or non-decreasing with replacement), in lexicographic order, flat. */
function positionTuples(n: number, r: number, withReplacement: boolean): number[] {
  const out: number[] = [];
  const tuple = new Array<number>(r);
  const fill = (k: number, from: number): void => {
    if (k === r) {
      out.push(...tuple);
      return;
    }
    for (let i = from; i < n; i++) {
      tuple[k] = i;
      fill(k + 1, withReplacement ? i : i + 1);
    }
  };
  fill(0, 0);
  return out;
}

export const combinations = op(
  "combinations(input: Tensor, r: int = 2, withReplacement: bool = false) -> Tensor",
  { doc: "[C, r]: the r-element combinations of the vector's elements (by position; with repeats if `withReplacement`), in lexicographic order; r = 0 gives an empty vector." },
  ({ input, r, withReplacement }) => {
    checkVector("combinations", input);
    if (r < 0) throw new ArgumentError(`combinations: r must be non-negative, got ${r}`);
    return unary("combinations", input, `${r},${withReplacement}`, (x) => {
      const zero = x.dtype === "bool" ? false : 0;
      if (r === 0) return e.full(zero, x.dtype, [0]);
      const tuples = positionTuples(x.shape[0]!, r, withReplacement);
      if (tuples.length === 0) return e.full(zero, x.dtype, [0, r]);
      const positions = bind1("constant", [], { value: tuples, dtype: "int32", shape: [tuples.length] });
      return e.reshape(e.indexSelect(x, positions, 0), [tuples.length / r, r]);
    });
  },
);
