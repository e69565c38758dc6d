/**
 * @file Indexing ops whose result shape depends on the data: nonzero, argwhere, maskedSelect, unique,
 * uniqueConsecutive. Each
 * runs a first unit that counts (nonzero elements, selected elements, distinct values), reads that
 * count back to the host (a synchronous device → host transfer), then runs a second unit whose output
 * has that static size. Under torch.compile these ops cannot be traced.
 */
import { DTypeError, ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import { broadcastShapes, fmtShape, normDim } from "../dims.js";
import * as e from "../emit.js";
import { prefix } from "../reduction/cumulative.js";
import { op } from "../signature/op.js";
import { run, runMany } from "../unit.js";

/** x != 0 (x itself for bool). */
const isNonzero = (x: Tracer): Tracer => (x.dtype === "bool" ? x : e.compare(x, e.full(0, x.dtype, x.shape), "NE"));

/** Runs `unit` to a 0-d count and reads it back. */
function readCount(t: Tensor): number {
  const n = Number(t.item());
  t.dispose();
  return n;
}

/** Flat positions (int64 [n]) of the true elements of the 1-d bool `mask`, in order. */
function truePositions(mask: Tracer, n: number): Tracer {
  const [, positions] = e.sortAlong([e.not(mask), e.iota("int64", mask.shape, 0)], 0, false);
  return e.slice(positions!, [0], [n]);
}

/** The number of nonzero elements of `input`. */
function countNonzero(name: string, input: Tensor): number {
  return readCount(run(`${name}.count`, [input], "", ([x]) => e.reduce("sum", e.convert(isNonzero(x as Tracer), "int64"), (x as Tracer).shape.map((_, i) => i))));
}

/** The coordinates of the nonzero elements of `input`: one int64 [n] tensor per dim with `asTuple`, else int64 [n, ndim]. */
export function nonzeroOf(input: Tensor, asTuple: boolean): Tensor | Tensor[] {
  const n = countNonzero("nonzero", input);
  const rank = input.ndim;
  const strides = input.shape.map((_, d) => input.shape.slice(d + 1).reduce((a, b) => a * b, 1));
  const coordinates = (x: Tracer): Tracer[] => {
    const flat = e.reshape(x, [input.numel()]);
    const positions = truePositions(isNonzero(flat), n);
    return input.shape.map((size, d) => {
      const q = e.div(positions, e.full(strides[d]!, "int64", [n]));
      return d === 0 ? q : e.rem(q, e.full(size, "int64", [n]));
    });
  };
  if (asTuple) {
    if (rank === 0) return [run("nonzero", [input], `${n}|tuple0`, () => e.full(0, "int64", [n]))];
    return runMany("nonzero", [input], `${n}|tuple`, ([x]) => coordinates(x!));
  }
  return run("nonzero", [input], `${n}`, ([x]) => {
    if (rank === 0) return e.full(0, "int64", [n, 0]);
    return e.concatenate(coordinates(x as Tracer).map((c) => e.reshape(c, [n, 1])), 1);
  });
}

export const nonzero = op(
  ["nonzero(input: Tensor, *, asTuple: false = false) -> Tensor", "nonzero(input: Tensor, *, asTuple: true) -> Tensor[]"],
  {
    doc: "int64 [n, ndim] coordinates of the nonzero elements in row-major order, or with `asTuple: true` one int64 [n] tensor per dim; NaN counts as nonzero. Reads the count back to the host.",
    method: true,
  },
  [({ input }) => nonzeroOf(input, false) as Tensor, ({ input }) => nonzeroOf(input, true) as Tensor[]],
);

export const argwhere = op(
  "argwhere(input: Tensor) -> Tensor",
  { doc: "int64 [n, ndim] coordinates of the nonzero elements in row-major order (nonzero(input)); NaN counts as nonzero. Reads the count back to the host.", method: true },
  ({ input }) => nonzeroOf(input, false) as Tensor,
);

export const maskedSelect = op(
  "maskedSelect(input: Tensor, mask: Tensor) -> Tensor",
  { doc: "The elements of `input` (broadcast with the bool `mask`) where `mask` is true, as a 1-d tensor. Reads the count back to the host.", method: true },
  ({ input, mask }) => {
    if (mask.dtype !== "bool") throw new DTypeError(`maskedSelect: mask must be a bool tensor, got ${mask.dtype}`);
    const shape = broadcastShapes("maskedSelect", input.shape, mask.shape);
    const size = shape.reduce((a, b) => a * b, 1);
    const n = readCount(run("maskedSelect.count", [mask], fmtShape(shape), ([m]) => e.reduce("sum", e.convert(e.broadcastTo(m as Tracer, shape), "int64"), shape.map((_, i) => i))));
    return run("maskedSelect", [input, mask], `${n}|${fmtShape(shape)}`, ([x, m]) => {
      const flatMask = e.reshape(e.broadcastTo(m as Tracer, shape), [size]);
      const flat = e.reshape(e.broadcastTo(x as Tracer, shape), [size]);
      const [, values] = e.sortAlong([e.not(flatMask), flat], 0, false);
      return e.slice(values!, [0], [n]);
    });
  },
);

/** The input as rows [N, C]: the slices along `dim` (or every element, for dim null). */
function toRows(x: Tracer, dim: number | null): Tracer {
  if (dim === null) return e.reshape(x, [x.numel(), 1]);
  const perm = [dim, ...x.shape.map((_, i) => i).filter((i) => i !== dim)];
  const n = x.shape[dim]!;
  return e.reshape(e.transpose(x, perm), [n, n === 0 ? 0 : x.numel() / n]);
}

/** The rows sorted lexicographically (one stable sort per column, last column first), their order, and where runs of equal rows start. */
function sortedRuns(rows: Tracer): { order: Tracer; sorted: Tracer; starts: Tracer } {
  const [n, c] = rows.shape as [number, number];
  let order = e.iota("int64", [n], 0);
  for (let k = c - 1; k >= 0; k--) {
    const column = e.reshape(e.slice(e.indexSelect(rows, order, 0), [0, k], [n, k + 1]), [n]);
    order = e.sortAlong([column, order], 0, false)[1]!;
  }
  const sorted = e.indexSelect(rows, order, 0);
  return { order, sorted, starts: runStarts(sorted) };
}

/** Where each run of equal consecutive rows of `rows` ([N, C]) starts (bool [N]); NaN differs from itself. */
function runStarts(rows: Tracer): Tracer {
  const [n, c] = rows.shape as [number, number];
  if (n <= 1) return e.full(true, "bool", [n]);
  const differs = e.compare(e.slice(rows, [1, 0], [n, c]), e.slice(rows, [0, 0], [n - 1, c]), "NE");
  return e.concatenate([e.full(true, "bool", [1]), e.reduce("or", differs, [1])], 0);
}

/** Rows [K, C] from toRows(x, dim) back in x's layout (`shape`), with `dim` of size K (flat [K] for dim null). */
function fromRows(rows: Tracer, shape: readonly number[], dim: number | null): Tracer {
  const k = rows.shape[0]!;
  if (dim === null) return e.reshape(rows, [k]);
  const moved = e.reshape(rows, [k, ...shape.filter((_, i) => i !== dim)]);
  return e.transpose(moved, shape.map((_, i) => (i < dim ? i + 1 : i === dim ? 0 : i)));
}

export const unique = op(
  "unique(input: Tensor, sorted: bool = true, returnInverse: bool = false, returnCounts: bool = false, dim?: int) -> Tensor | Tensor[]",
  {
    doc: "The sorted distinct values (or, with `dim`, slices along it); with `returnInverse` or `returnCounts` an array [values, inverse?, counts?] like PyTorch's tuple. Always sorted; each NaN is its own value. Reads the count back to the host; inverse and counts take numel × numel memory.",
    method: true,
  },
  ({ input, returnInverse, returnCounts, dim: given }) => uniqueOf(input, given, returnInverse, returnCounts),
);

/** unique's and uniqueConsecutive's results for an input with no rows: no values, an empty inverse, no counts. */
function noRows(t: Tracer, dim: number | null, returnInverse: boolean, returnCounts: boolean): Tracer[] {
  const values = dim === null ? e.reshape(t, [0]) : t;
  const inverse = e.full(0, "int64", dim === null ? t.shape : [0]);
  return [values, ...(returnInverse ? [inverse] : []), ...(returnCounts ? [e.full(0, "int64", [0])] : [])];
}

function uniqueOf(input: Tensor, given: number | undefined, returnInverse: boolean, returnCounts: boolean): Tensor | Tensor[] {
  const dim = given === undefined ? null : normDim("unique", given, input.ndim);
  const rowsOf = input.numel() === 0 ? 0 : dim === null ? input.numel() : input.shape[dim]!;
  const n = rowsOf === 0 ? 0 : readCount(run("unique.count", [input], `${dim}`, ([x]) => e.reduce("sum", e.convert(sortedRuns(toRows(x as Tracer, dim)).starts, "int64"), [0])));
  const outs = runMany("unique", [input], `${dim}|${n}|${returnInverse}|${returnCounts}`, ([x]) => {
    const t = x!;
    if (rowsOf === 0) return noRows(t, dim, returnInverse, returnCounts);
    const inverseShape = dim === null ? t.shape : [rowsOf];
    const rows = toRows(t, dim);
    const { order, sorted, starts } = sortedRuns(rows);
    const [, firsts] = e.sortAlong([e.not(starts), e.iota("int64", [rowsOf], 0)], 0, false);
    const results = [fromRows(e.indexSelect(sorted, e.slice(firsts!, [0], [n]), 0), t.shape, dim)];
    if (returnInverse || returnCounts) {
      // group of sorted row i = (run starts at or before i) - 1
      const square = [rowsOf, rowsOf];
      const upTo = e.and(e.compare(e.iota("int64", square, 1), e.iota("int64", square, 0), "LE"), e.broadcastInDim(starts, square, [1]));
      const group = e.sub(e.reduce("sum", e.convert(upTo, "int64"), [1]), e.full(1, "int64", [rowsOf]));
      if (returnInverse) {
        const inverse = e.scatter(e.full(0, "int64", [rowsOf]), e.reshape(order, [rowsOf, 1]), group, {
          kind: "replace", updateWindowDims: [], insertedWindowDims: [0], scatterDimsToOperandDims: [0], indexVectorDim: 1,
        });
        results.push(e.reshape(inverse, inverseShape));
      }
      if (returnCounts) {
        const grid = [rowsOf, n];
        results.push(e.reduce("sum", e.convert(e.compare(e.broadcastInDim(group, grid, [0]), e.iota("int64", grid, 1), "EQ"), "int64"), [0]));
      }
    }
    return results;
  });
  return returnInverse || returnCounts ? outs : outs[0]!;
}

export const uniqueConsecutive = op(
  "uniqueConsecutive(input: Tensor, returnInverse: bool = false, returnCounts: bool = false, dim?: int) -> Tensor | Tensor[]",
  {
    doc: "The values (or, with `dim`, slices along it) with each run of equal consecutive ones kept once, in order; with `returnInverse` or `returnCounts` an array [values, inverse?, counts?] like PyTorch's tuple. Each NaN is its own value. Reads the count back to the host.",
    method: true,
  },
  ({ input, returnInverse, returnCounts, dim: given }) => {
    const dim = given === undefined ? null : normDim("uniqueConsecutive", given, input.ndim);
    if (dim !== null && input.ndim === 0) throw new ShapeError("uniqueConsecutive: a 0-d tensor has no dimension to take runs along (leave dim out)");
    if (dim !== null && input.numel() === 0 && input.shape[dim]! > 0) {
      throw new ShapeError(`uniqueConsecutive: the input ${fmtShape(input.shape)} is empty in a dimension other than dim ${dim}, so its slices cannot be compared`);
    }
    const rowsOf = input.numel() === 0 ? 0 : dim === null ? input.numel() : input.shape[dim]!;
    const n = rowsOf === 0 ? 0 : readCount(run("uniqueConsecutive.count", [input], `${dim}`, ([x]) => e.reduce("sum", e.convert(runStarts(toRows(x as Tracer, dim)), "int64"), [0])));
    const outs = runMany("uniqueConsecutive", [input], `${dim}|${n}|${returnInverse}|${returnCounts}`, ([x]) => {
      const t = x!;
      if (rowsOf === 0) return noRows(t, dim, returnInverse, returnCounts);
      const inverseShape = dim === null ? t.shape : [rowsOf];
      const rows = toRows(t, dim);
      const starts = runStarts(rows);
      const kept = e.indexSelect(rows, truePositions(starts, n), 0);
      const results = [fromRows(kept, t.shape, dim)];
      // the run of row i: the run starts at or before it, minus one
      const group = e.sub(e.reduceWindow("sum", e.convert(starts, "int64"), prefix(starts, 0)), e.full(1, "int64", [rowsOf]));
      if (returnInverse) results.push(e.reshape(group, inverseShape));
      if (returnCounts) {
        results.push(e.scatter(e.full(0, "int64", [n]), e.reshape(group, [rowsOf, 1]), e.full(1, "int64", [rowsOf]), {
          kind: "add", updateWindowDims: [], insertedWindowDims: [0], scatterDimsToOperandDims: [0], indexVectorDim: 1,
        }));
      }
      return results;
    });
    return returnInverse || returnCounts ? outs : outs[0]!;
  },
);
