/**
 * @file cartesianProd and combinations: the tuples of elements of 1-d tensors, one tuple a row.
 */
import { ArgumentError, DTypeError, ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import { fmtShape } from "../dims.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import { run } from "../unit.js";
import { sliceDim, unary } from "./common.js";

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

/** n choose k. */
function binomial(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let c = 1;
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
  return Math.round(c);
}

export const combinations = op(
  "combinations(input: Tensor, r: int = 2, withReplacement: bool = false) -> Tensor",
  { doc: "[C, r]: the r-element combinations of the vector's elements (by position; with repeats if `withReplacement`), in lexicographic order; r = 0 gives an empty vector." },
  ({ input, r, withReplacement }) => {
    checkVector("combinations", input);
    if (r < 0) throw new ArgumentError(`combinations: r must be non-negative, got ${r}`);
    const n = input.shape[0]!;
    const count = withReplacement ? binomial(n + r - 1, r) : binomial(n, r);
    return unary("combinations", input, `${r},${withReplacement}`, (x) => {
      const zero = x.dtype === "bool" ? false : 0;
      if (r === 0) return e.full(zero, x.dtype, [0]);
      if (count === 0) return e.full(zero, x.dtype, [0, r]);
      // every r-tuple of positions; the increasing (or non-decreasing) ones, in order, are sorted to the front
      const shape = new Array<number>(r).fill(n);
      const positions = shape.map((_, k) => e.iota("int32", shape, k));
      let keep = e.full(true, "bool", shape);
      for (let k = 0; k + 1 < r; k++) keep = e.and(keep, e.compare(positions[k]!, positions[k + 1]!, withReplacement ? "LE" : "LT"));
      const key = e.select(keep, e.full(0, "int32", shape), e.full(1, "int32", shape));
      const flat = (t: Tracer): Tracer => e.reshape(t, [n ** r]);
      const [, ...sorted] = e.sortAlong([flat(key), ...shape.map((_, k) => flat(e.broadcastInDim(x, shape, [k])))], 0, false);
      return columns(sorted.map((v) => sliceDim(v, 0, 0, count)));
    });
  },
);
