/**
 * @file torch.linalg's products: vecdot, cross, multiDot (in the cheapest order of the chain) and
 * matrixPower (n ≥ 0, by repeated squaring; also torch.matrixPower and x.matrixPower).
 */
import { isFloating } from "../../dtype.js";
import { ArgumentError, DTypeError, NotSupportedError, ShapeError } from "../../runtime/errors.js";
import type { Tracer } from "../../trace/tracer.js";
import { broadcastShapes, fmtShape, normDim } from "../dims.js";
import * as e from "../emit.js";
import { checkProductDTypes } from "../linalg/dot_general.js";
import { crossOf } from "../linalg/products.js";
import { op } from "../signature/op.js";
import { run } from "../unit.js";

type T = Tracer;

export const vecdot = op(
  "linalg.vecdot(x: Tensor, y: Tensor, *, dim: int = -1) -> Tensor",
  { doc: "The dot products of the vectors along `dim` of x and y (shapes broadcast): (x * y).sum(dim). Floating inputs of one dtype." },
  ({ x, y, dim }) =>
    run("linalg.vecdot", [x, y], String(dim), ([a, b]) => {
      const [p, q] = [a as T, b as T];
      if (!isFloating(p.dtype)) throw new DTypeError(`linalg.vecdot: expected floating point inputs, got ${p.dtype} (convert first, e.g. x.to("float32"))`);
      if (p.dtype !== q.dtype) throw new DTypeError(`linalg.vecdot: expected x and y to have the same dtype, got ${p.dtype} and ${q.dtype}`);
      const shape = broadcastShapes("linalg.vecdot", p.shape, q.shape);
      const d = normDim("linalg.vecdot", dim, shape.length);
      const batch = shape.map((_, i) => i).filter((i) => i !== d);
      return e.dotGeneral(e.broadcastTo(p, shape), e.broadcastTo(q, shape), batch, batch, [d], [d]);
    }),
);

export const cross = op(
  "linalg.cross(input: Tensor, other: Tensor, *, dim: int = -1) -> Tensor",
  { doc: "The cross products of the 3-vectors along `dim` (size 3 in both) of input and other; the other dims broadcast (both of one rank). Inputs of one dtype." },
  ({ input, other, dim }) => {
    if (input.ndim !== other.ndim) {
      throw new ShapeError(`linalg.cross: inputs must have the same number of dimensions, got shapes ${fmtShape(input.shape)} and ${fmtShape(other.shape)}`);
    }
    const d = normDim("linalg.cross", dim, input.ndim);
    if (input.shape[d] !== 3 || other.shape[d] !== 3) {
      throw new ShapeError(`linalg.cross: inputs must have length 3 in dim ${dim}, got ${input.shape[d]} and ${other.shape[d]} (shapes ${fmtShape(input.shape)} and ${fmtShape(other.shape)})`);
    }
    const shape = broadcastShapes("linalg.cross", input.shape, other.shape);
    return run("linalg.cross", [input, other], String(d), ([a, b]) => {
      checkProductDTypes("linalg.cross", a as T, b as T);
      return crossOf(e.broadcastTo(a as T, shape), e.broadcastTo(b as T, shape), d);
    });
  },
);

/** The matrix product of [..., n, k] and [..., k, m] (the same batch dims). */
function mm(a: T, b: T): T {
  const batch = a.shape.slice(0, -2).map((_, i) => i);
  return e.dotGeneral(a, b, batch, batch, [a.ndim - 1], [b.ndim - 2]);
}

/**
 * The cheapest order of a matrix chain with sizes[i] × sizes[i + 1] for matrix i (the classic
 * dynamic programme): product(i, j) is the product of matrices i..j, split where it costs least.
 */
function chainProduct(ms: readonly T[]): T {
  const n = ms.length;
  const sizes = [...ms.map((m) => m.shape[0]!), ms[n - 1]!.shape[1]!];
  const cost = ms.map(() => new Array<number>(n).fill(0));
  const split = ms.map(() => new Array<number>(n).fill(0));
  for (let len = 2; len <= n; len++) {
    for (let i = 0; i + len - 1 < n; i++) {
      const j = i + len - 1;
      cost[i]![j] = Infinity;
      for (let k = i; k < j; k++) {
        const c = cost[i]![k]! + cost[k + 1]![j]! + sizes[i]! * sizes[k + 1]! * sizes[j + 1]!;
        if (c < cost[i]![j]!) [cost[i]![j], split[i]![j]] = [c, k];
      }
    }
  }
  const product = (i: number, j: number): T => (i === j ? ms[i]! : mm(product(i, split[i]![j]!), product(split[i]![j]! + 1, j)));
  return product(0, n - 1);
}

export const multiDot = op(
  "linalg.multiDot(tensors: Tensor[]) -> Tensor",
  {
    doc: "The product of two or more matrices, multiplied in the order that needs the fewest scalar multiplications. The first may be a 1-d row vector and the last a 1-d column vector (those dims are dropped from the result); all of one dtype.",
  },
  ({ tensors }) => {
    const n = tensors.length;
    if (n < 2) throw new ArgumentError(`linalg.multiDot: expected at least 2 tensors, got ${n}`);
    tensors.forEach((t, i) => {
      const ends = i === 0 ? "first" : i === n - 1 ? "last" : undefined;
      if (ends !== undefined ? t.ndim !== 1 && t.ndim !== 2 : t.ndim !== 2) {
        throw new ShapeError(`linalg.multiDot: the ${ends ?? `tensor ${i}`} must be ${ends ? "1-d or 2-d" : "2-d"}, got shape ${fmtShape(t.shape)}`);
      }
    });
    return run("linalg.multiDot", tensors, "", (xs) => {
      const ts = xs as T[];
      checkProductDTypes("linalg.multiDot", ...ts);
      const [first, last] = [ts[0]!, ts[n - 1]!];
      const ms = ts.map((t, i) => (t.ndim === 2 ? t : i === 0 ? e.reshape(t, [1, t.shape[0]!]) : e.reshape(t, [t.shape[0]!, 1])));
      for (let i = 0; i + 1 < n; i++) {
        if (ms[i]!.shape[1] !== ms[i + 1]!.shape[0]) {
          throw new ShapeError(`linalg.multiDot: tensors ${i} and ${i + 1} with shapes ${fmtShape(ts[i]!.shape)} and ${fmtShape(ts[i + 1]!.shape)} cannot be multiplied`);
        }
      }
      const r = chainProduct(ms);
      const shape = [...(first.ndim === 2 ? [r.shape[0]!] : []), ...(last.ndim === 2 ? [r.shape[1]!] : [])];
      return e.reshape(r, shape);
    });
  },
);

export const matrixPower = op(
  "matrixPower(input: Tensor, n: int) -> Tensor",
  { doc: "input to the integer power n ≥ 0 for the square matrices in the last two dims (the identity for n = 0), by repeated squaring. Negative n (which needs torch.linalg.inv) is not supported yet.", method: true },
  ({ input: A, n }) => {
    if (A.ndim < 2) throw new ShapeError(`linalg.matrixPower: the input A must have at least 2 dimensions, got shape ${fmtShape(A.shape)}`);
    const [rows, cols] = A.shape.slice(-2) as [number, number];
    if (rows !== cols) throw new ShapeError(`linalg.matrixPower: A must be batches of square matrices, got ${rows} by ${cols} matrices (shape ${fmtShape(A.shape)})`);
    if (n < 0) throw new NotSupportedError(`linalg.matrixPower: n = ${n} < 0 is not supported yet: needs torch.linalg.inv`);
    if (n >= 2 && A.dtype === "bool") throw new DTypeError("linalg.matrixPower: bool matrices cannot be multiplied; convert to an integer or float dtype");
    return run("linalg.matrixPower", [A], String(n), ([a0]) => {
      const a = a0 as T;
      if (n === 0) {
        const eye = e.compare(e.iota("int32", [rows, rows], 0), e.iota("int32", [rows, rows], 1), "EQ");
        return e.broadcastTo(e.convert(eye, a.dtype), a.shape);
      }
      // result × square^k over the bits of n, low to high
      let result: T | undefined;
      let square = a;
      for (let k = n; k > 0; k >>= 1) {
        if (k & 1) result = result === undefined ? square : mm(result, square);
        if (k > 1) square = mm(square, square);
      }
      return result!;
    });
  },
);
