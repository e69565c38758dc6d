/**
 * @file Indexing ops whose result shape depends on the data: nonzero, maskedSelect, unique. Each
 * runs a first unit that counts (nonzero elements, selected elements, distinct values), reads that
 * count back to the host (a synchronous device → host transfer), then runs a second unit whose output
 * has that static size. Under torch.compile these ops cannot be traced.
 */
import { DTypeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import * as e from "../emit.js";
import { broadcastShapes, fmtShape, normDim } from "../dims.js";
import { checkTensor, run, runMany } from "../unit.js";

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
function countNonzero(op: string, input: Tensor): number {
  return readCount(run(`${op}.count`, [input], "", ([x]) => e.reduce("sum", e.convert(isNonzero(x as Tracer), "int64"), (x as Tracer).shape.map((_, i) => i))));
}

/**
 * torch.nonzero(input): int64 [n, ndim] coordinates of the nonzero elements in row-major order;
 * { asTuple: true } gives one int64 [n] tensor per dimension instead. NaN counts as nonzero.
 */
export function nonzero(input: Tensor, options: { asTuple?: boolean } = {}): Tensor | Tensor[] {
  checkTensor("nonzero", input);
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
  if (options.asTuple) {
    if (rank === 0) return [run("nonzero", [input], `${n}|tuple0`, () => e.full(0, "int64", [n]))];
    return runMany("nonzero", [input], `${n}|tuple`, ([x]) => coordinates(x!));
  }
  return run("nonzero", [input], `${n}`, ([x]) => {
    if (rank === 0) return e.full(0, "int64", [n, 0]);
    return e.concatenate(coordinates(x as Tracer).map((c) => e.reshape(c, [n, 1])), 1);
  });
}

/** torch.masked_select(input, mask): the 1-d elements of input (broadcast with mask) where mask is true. */
export function maskedSelect(input: Tensor, mask: Tensor): Tensor {
  checkTensor("maskedSelect", input);
  checkTensor("maskedSelect", mask, "mask");
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
}

export interface UniqueOptions {
  /** Accepted for PyTorch compatibility: the values always come back sorted. */
  sorted?: boolean;
  returnInverse?: boolean;
  returnCounts?: boolean;
  /** Unique slices along this dim (sorted lexicographically); null (default) flattens the input. */
  dim?: number | null;
}

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
  if (n <= 1) return { order, sorted, starts: e.full(true, "bool", [n]) };
  const differs = e.compare(e.slice(sorted, [1, 0], [n, c]), e.slice(sorted, [0, 0], [n - 1, c]), "NE");
  const starts = e.concatenate([e.full(true, "bool", [1]), e.reduce("or", differs, [1])], 0);
  return { order, sorted, starts };
}

/**
 * torch.unique(input, { returnInverse, returnCounts, dim }): the sorted distinct values (or slices
 * along dim); with either flag an array [values, inverse?, counts?] like PyTorch's tuple. Each NaN
 * is its own value, as in PyTorch. inverse and counts take numel × numel memory (a running count of
 * run starts), so they suit moderate sizes.
 */
export function unique(input: Tensor, options: UniqueOptions = {}): Tensor | Tensor[] {
  checkTensor("unique", input);
  const dim = options.dim === undefined || options.dim === null ? null : normDim("unique", options.dim, input.ndim);
  const { returnInverse = false, returnCounts = false } = options;
  const rowsOf = input.numel() === 0 ? 0 : dim === null ? input.numel() : input.shape[dim]!;
  const n = rowsOf === 0 ? 0 : readCount(run("unique.count", [input], `${dim}`, ([x]) => e.reduce("sum", e.convert(sortedRuns(toRows(x as Tracer, dim)).starts, "int64"), [0])));
  const outs = runMany("unique", [input], `${dim}|${n}|${returnInverse}|${returnCounts}`, ([x]) => {
    const t = x!;
    const restore = (rows: Tracer): Tracer => {
      if (dim === null) return e.reshape(rows, [rows.shape[0]!]);
      const others = t.shape.filter((_, i) => i !== dim);
      const moved = e.reshape(rows, [rows.shape[0]!, ...others]);
      const back = t.shape.map((_, i) => (i < dim ? i + 1 : i === dim ? 0 : i));
      return e.transpose(moved, back);
    };
    const inverseShape = dim === null ? t.shape : [rowsOf];
    if (rowsOf === 0) {
      const empty = dim === null ? e.reshape(t, [0]) : t;
      return [empty, ...(returnInverse ? [e.full(0, "int64", inverseShape)] : []), ...(returnCounts ? [e.full(0, "int64", [0])] : [])];
    }
    const rows = toRows(t, dim);
    const { order, sorted, starts } = sortedRuns(rows);
    const [, firsts] = e.sortAlong([e.not(starts), e.iota("int64", [rowsOf], 0)], 0, false);
    const results = [restore(e.indexSelect(sorted, e.slice(firsts!, [0], [n]), 0))];
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
