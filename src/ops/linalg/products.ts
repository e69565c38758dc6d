/**
 * @file Matrix and vector products: matmul with every PyTorch broadcasting case, the strict-rank
 * mm, bmm, mv, dot, vdot, inner and outer (ger), kron, trace, the fused addmm, baddbmm, addmv, addbmm
 * and addr, tensordot and cross. Each is one dot_general (or a few pointwise prims) after the checks;
 * einsum is in einsum.ts, the distances dist and cdist in distances.ts.
 */
import { type DType, dtypes, opmath, promoteTypes } from "../../dtype.js";
import { ArgumentError, DTypeError, ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import { bind1, type Tracer } from "../../trace/tracer.js";
import * as e from "../emit.js";
import { broadcastShapes, fmtShape, normDim } from "../dims.js";
import { op } from "../signature/op.js";
import { promote, run } from "../unit.js";
import { checkProductDTypes, dotGeneral } from "./dot_general.js";
import { inOpmath } from "../accumulate.js";
import { diagonalBody } from "../shape/diagonals.js";

type T = Tracer;

// --- matmul -------------------------------------------------------------------------------------------

function mismatch(a: readonly number[], b: readonly number[], k1: number, k2: number): ShapeError {
  return new ShapeError(`matmul: shapes ${fmtShape(a)} and ${fmtShape(b)} cannot be multiplied (${k1} != ${k2})`);
}

function matmulTraced(a: T, b: T): T {
  if (a.ndim === 0 || b.ndim === 0) {
    throw new ShapeError(`matmul: both arguments need at least 1 dimension, got shapes ${fmtShape(a.shape)} and ${fmtShape(b.shape)}`);
  }
  if (a.dtype !== b.dtype) throw new DTypeError(`matmul: expected both tensors to have the same dtype, got ${a.dtype} and ${b.dtype}`);
  if (a.dtype === "bool") throw new DTypeError("matmul: bool tensors are not supported; convert to an integer or float dtype");
  const ka = a.shape[a.ndim - 1]!;
  const kb = b.ndim === 1 ? b.shape[0]! : b.shape[b.ndim - 2]!;
  if (ka !== kb) throw mismatch(a.shape, b.shape, ka, kb);
  if (b.ndim === 1) return e.dotGeneral(a, b, [], [], [a.ndim - 1], [0]); // vector or matrix-vector (batched)
  if (a.ndim === 1) {
    // a as a [1, k] row, then drop that dim
    const out = matmulTraced(e.reshape(a, [1, ka]), b);
    const shape = [...out.shape];
    shape.splice(shape.length - 2, 1);
    return e.reshape(out, shape);
  }
  if (a.ndim === 2 && b.ndim === 2) return e.dotGeneral(a, b, [], [], [1], [0]);
  const batch = broadcastShapes("matmul", a.shape.slice(0, -2), b.shape.slice(0, -2));
  const nb = batch.length;
  const x = e.broadcastTo(a, [...batch, ...a.shape.slice(-2)]);
  const y = e.broadcastTo(b, [...batch, ...b.shape.slice(-2)]);
  const dims = batch.map((_, i) => i);
  return e.dotGeneral(x, y, dims, dims, [nb + 1], [nb]);
}

export const matmul = op(
  "matmul(input: Tensor, other: Tensor) -> Tensor",
  { doc: "Matrix product with PyTorch's rules for 1-d operands and broadcast batch dims; both operands must have the same dtype.", method: true },
  ({ input, other }) => run("matmul", [input, other], "", ([x, y]) => matmulTraced(x as T, y as T)),
);

// --- mm, bmm, mv, dot, outer --------------------------------------------------------------------------

function checkRank(op: string, what: string, x: T, rank: number): void {
  if (x.ndim !== rank) {
    const kind = rank === 1 ? "a vector" : rank === 2 ? "a matrix" : `a ${rank}-d tensor`;
    throw new ShapeError(`${op}: ${what} must be ${kind} (${rank}-d), got shape ${fmtShape(x.shape)}`);
  }
}

function cannotMultiply(op: string, a: T, b: T, k1: number, k2: number): ShapeError {
  return new ShapeError(`${op}: shapes ${fmtShape(a.shape)} and ${fmtShape(b.shape)} cannot be multiplied (${k1} != ${k2})`);
}

function two(op: string, a: Tensor, b: Tensor, body: (x: T, y: T) => T): Tensor {
  return run(op, [a, b], "", ([x, y]) => body(x as T, y as T));
}

function mmBody(op: string, x: T, y: T, names = ["input", "mat2"], o: e.ProductOptions = {}): T {
  checkRank(op, names[0]!, x, 2);
  checkRank(op, names[1]!, y, 2);
  checkProductDTypes(op, x, y);
  if (x.shape[1] !== y.shape[0]) throw cannotMultiply(op, x, y, x.shape[1]!, y.shape[0]!);
  return e.dotGeneral(x, y, [], [], [1], [0], o);
}

/** bmm's operands: [b, n, k] and [b, k, m] of one dtype. */
function checkBatches(op: string, x: T, y: T, names: readonly string[]): void {
  checkRank(op, names[0]!, x, 3);
  checkRank(op, names[1]!, y, 3);
  checkProductDTypes(op, x, y);
  if (x.shape[0] !== y.shape[0]) {
    throw new ShapeError(`${op}: batch sizes differ: shapes ${fmtShape(x.shape)} and ${fmtShape(y.shape)} (${x.shape[0]} != ${y.shape[0]}); ${op} does not broadcast batch dims (matmul does)`);
  }
  if (x.shape[2] !== y.shape[1]) throw cannotMultiply(op, x, y, x.shape[2]!, y.shape[1]!);
}

function bmmBody(op: string, x: T, y: T, names = ["input", "mat2"], o: e.ProductOptions = {}): T {
  checkBatches(op, x, y, names);
  return e.dotGeneral(x, y, [0], [0], [2], [1], o);
}

export const mm = op(
  "mm(input: Tensor, mat2: Tensor) -> Tensor",
  { doc: "[n, k] × [k, m] → [n, m]; no broadcasting (use matmul for that).", method: true },
  ({ input, mat2 }) => two("mm", input, mat2, (x, y) => mmBody("mm", x, y)),
);

export const bmm = op(
  "bmm(input: Tensor, mat2: Tensor) -> Tensor",
  { doc: "[b, n, k] × [b, k, m] → [b, n, m]; no broadcasting.", method: true },
  ({ input, mat2 }) => two("bmm", input, mat2, (x, y) => bmmBody("bmm", x, y)),
);

export const mv = op(
  "mv(input: Tensor, vec: Tensor) -> Tensor",
  { doc: "Matrix times vector: [n, k] × [k] → [n].", method: true },
  ({ input, vec }) =>
    two("mv", input, vec, (x, y) => {
      checkRank("mv", "input", x, 2);
      checkRank("mv", "vec", y, 1);
      checkProductDTypes("mv", x, y);
      if (x.shape[1] !== y.shape[0]) throw cannotMultiply("mv", x, y, x.shape[1]!, y.shape[0]!);
      return e.dotGeneral(x, y, [], [], [1], [0]);
    }),
);

function dotBody(op: string, x: T, y: T, names: [string, string]): T {
  checkRank(op, names[0], x, 1);
  checkRank(op, names[1], y, 1);
  checkProductDTypes(op, x, y);
  if (x.shape[0] !== y.shape[0]) {
    throw new ShapeError(`${op}: the vectors differ in size: shapes ${fmtShape(x.shape)} and ${fmtShape(y.shape)} (${x.shape[0]} != ${y.shape[0]})`);
  }
  return e.dotGeneral(x, y, [], [], [0], [0]);
}

export const dot = op(
  "dot(input: Tensor, tensor: Tensor) -> Tensor",
  { doc: "Inner product of two vectors of the same size and dtype (0-d result).", method: true },
  ({ input, tensor }) => two("dot", input, tensor, (x, y) => dotBody("dot", x, y, ["input", "tensor"])),
);

export const vdot = op(
  "vdot(input: Tensor, other: Tensor) -> Tensor",
  { doc: "dot of two vectors, conjugating the first (the same as dot for the real dtypes here).", method: true },
  ({ input, other }) => two("vdot", input, other, (x, y) => dotBody("vdot", x, y, ["input", "other"])),
);

export const inner = op(
  "inner(input: Tensor, other: Tensor) -> Tensor",
  { doc: "Sums of products over the last dims (of one size): shape input.shape[:-1] + other.shape[:-1]; with a 0-d operand, the product (dtypes promoted).", method: true },
  ({ input, other }) =>
    two("inner", input, other, (x, y) => {
      if (x.ndim === 0 || y.ndim === 0) {
        const dtype = promote(x, y);
        const shape = broadcastShapes("inner", x.shape, y.shape);
        return e.mul(e.broadcastTo(e.convert(x, dtype), shape), e.broadcastTo(e.convert(y, dtype), shape));
      }
      checkProductDTypes("inner", x, y);
      const [k1, k2] = [x.shape[x.ndim - 1]!, y.shape[y.ndim - 1]!];
      if (k1 !== k2) throw new ShapeError(`inner: the last dims must match, got shapes ${fmtShape(x.shape)} and ${fmtShape(y.shape)} (${k1} != ${k2})`);
      return e.dotGeneral(x, y, [], [], [x.ndim - 1], [y.ndim - 1]);
    }),
);

export const kron = op(
  "kron(input: Tensor, other: Tensor) -> Tensor",
  { doc: "The Kronecker product: the blocks input[i] × other, in dims of size input.shape[d] · other.shape[d] (the lower-rank operand gets leading 1s); dtypes are promoted.", method: true },
  ({ input, other }) =>
    two("kron", input, other, (x, y) => {
      const rank = Math.max(x.ndim, y.ndim);
      // a 0-d operand promotes as a tensor here (PyTorch's promote_types), not as a scalar
      const dtype = promoteTypes(x.dtype, y.dtype);
      const padded = (v: T): number[] => [...new Array<number>(rank - v.ndim).fill(1), ...v.shape];
      const [a, b] = [padded(x), padded(y)];
      // dims interleaved: [a0, b0, a1, b1, …], each operand broadcast along the other's
      const shape = a.flatMap((d, i) => [d, b[i]!]);
      const xs = e.broadcastInDim(e.reshape(e.convert(x, dtype), a), shape, a.map((_, i) => 2 * i));
      const ys = e.broadcastInDim(e.reshape(e.convert(y, dtype), b), shape, b.map((_, i) => 2 * i + 1));
      return e.reshape(e.mul(xs, ys), a.map((d, i) => d * b[i]!));
    }),
);

export const trace = op(
  "trace(input: Tensor) -> Tensor",
  { doc: "The sum of a matrix's main diagonal (0-d); integer inputs sum in int64, float16/bfloat16 in float32.", method: true },
  ({ input }) =>
    run("trace", [input], "", ([v]) => {
      const x = v as T;
      if (x.ndim !== 2) throw new ShapeError(`trace: expected a matrix (2-d), got shape ${fmtShape(x.shape)}`);
      if (x.dtype === "bool") throw new DTypeError("trace: bool tensors are not supported; convert to an integer or float dtype");
      const dtype = dtypes[x.dtype].kind === "float" ? x.dtype : "int64";
      return inOpmath(e.convert(diagonalBody(x, 0, 0, 1), dtype), (d) => e.reduce("sum", d, [0]));
    }),
);

export const outer = op(
  "outer(input: Tensor, vec2: Tensor) -> Tensor",
  { doc: "Outer product of two vectors, [n] and [m] → [n, m], with type promotion (bool allowed).", method: true },
  ({ input, vec2 }) =>
    two("outer", input, vec2, (x, y) => {
      checkRank("outer", "input", x, 1);
      checkRank("outer", "vec2", y, 1);
      return outerBody(x, y, promote(x, y));
    }),
);

function outerBody(x: T, y: T, dtype: DType): T {
  const shape = [x.shape[0]!, y.shape[0]!];
  return e.mul(e.broadcastInDim(e.convert(x, dtype), shape, [0]), e.broadcastInDim(e.convert(y, dtype), shape, [1]));
}

export const ger = op(
  "ger(input: Tensor, vec2: Tensor) -> Tensor",
  { doc: "outer, by its older name.", method: true },
  ({ input, vec2 }) => outer(input, vec2),
);

// --- addmm, baddbmm, addmv, addbmm, addr -------------------------------------------------------------

type Fused = "addmm" | "baddbmm" | "addmv" | "addbmm";

/** The product of a fused op, in float32 for half operands (`wide`). */
function fusedProduct(op: Fused, x: T, y: T): T {
  const wide = { wide: true };
  switch (op) {
    case "addmm":
      return mmBody(op, x, y, ["mat1", "mat2"], wide);
    case "baddbmm":
      return bmmBody(op, x, y, ["batch1", "batch2"], wide);
    case "addbmm":
      checkBatches(op, x, y, ["batch1", "batch2"]);
      // the sum over the batch is part of the contraction
      return e.dotGeneral(x, y, [], [], [0, 2], [0, 1], wide);
    case "addmv":
      checkRank(op, "mat", x, 2);
      checkRank(op, "vec", y, 1);
      checkProductDTypes(op, x, y);
      if (x.shape[1] !== y.shape[0]) throw cannotMultiply(op, x, y, x.shape[1]!, y.shape[0]!);
      return e.dotGeneral(x, y, [], [], [1], [0], wide);
  }
}

/**
 * beta × input + alpha × product, in the product's accumulator dtype and rounded once to `dtype`
 * (half products stay in float32 until the end); with beta = 0, input is ignored (NaN and inf in it
 * do not propagate). Bool computes (beta ∧ input) ∨ (alpha ∧ product).
 */
function scaledSum(op: string, inp: T, product: T, beta: number, alpha: number, dtype: DType): T {
  const lead = product.ndim - inp.ndim;
  if (lead < 0 || inp.shape.some((d, k) => d !== 1 && d !== product.shape[lead + k])) {
    throw new ShapeError(`${op}: input of shape ${fmtShape(inp.shape)} cannot be broadcast to the product's shape ${fmtShape(product.shape)}`);
  }
  if (dtype === "bool") {
    const p = alpha === 0 ? e.full(false, "bool", product.shape) : product;
    return beta === 0 ? p : e.or(e.broadcastTo(inp, product.shape), p);
  }
  const scale = (t: T, s: number): T => (s === 1 ? t : e.mul(t, e.full(s, t.dtype, t.shape)));
  const scaled = scale(product, alpha);
  if (beta === 0) return e.convert(scaled, dtype);
  return e.convert(e.add(scale(e.broadcastTo(e.convert(inp, product.dtype), product.shape), beta), scaled), dtype);
}

function checkScale(op: string, name: string, v: number, dtype: DType): number {
  if (dtypes[dtype].kind !== "float" && !Number.isInteger(v)) {
    throw new DTypeError(`${op}: for integral and bool tensors (${dtype}), ${name} must not be a floating point number (got ${v})`);
  }
  return v;
}

function fused(op: Fused, input: Tensor, m1: Tensor, m2: Tensor, beta: number, alpha: number): Tensor {
  return run(op, [input, m1, m2], `${beta}|${alpha}`, ([i, x, y]) => {
    const inp = i as T;
    const product = fusedProduct(op, x as T, y as T);
    const dtype = (x as T).dtype;
    checkProductDTypes(op, inp, x as T);
    return scaledSum(op, inp, product, checkScale(op, "beta", beta, dtype), checkScale(op, "alpha", alpha, dtype), dtype);
  });
}

export const addmm = op(
  "addmm(input: Tensor, mat1: Tensor, mat2: Tensor, *, beta: float = 1, alpha: float = 1) -> Tensor",
  { doc: "beta × input + alpha × (mat1 @ mat2); input broadcasts to [n, m], and with beta = 0 it is ignored (NaN and inf in it do not propagate).", method: true },
  ({ input, mat1, mat2, beta, alpha }) => fused("addmm", input, mat1, mat2, beta, alpha),
);

export const baddbmm = op(
  "baddbmm(input: Tensor, batch1: Tensor, batch2: Tensor, *, beta: float = 1, alpha: float = 1) -> Tensor",
  { doc: "beta × input + alpha × bmm(batch1, batch2); input broadcasts to [b, n, m], and with beta = 0 it is ignored (NaN and inf in it do not propagate).", method: true },
  ({ input, batch1, batch2, beta, alpha }) => fused("baddbmm", input, batch1, batch2, beta, alpha),
);

export const addmv = op(
  "addmv(input: Tensor, mat: Tensor, vec: Tensor, *, beta: float = 1, alpha: float = 1) -> Tensor",
  { doc: "beta × input + alpha × (mat @ vec); input broadcasts to [n], and with beta = 0 it is ignored (NaN and inf in it do not propagate).", method: true },
  ({ input, mat, vec, beta, alpha }) => fused("addmv", input, mat, vec, beta, alpha),
);

export const addbmm = op(
  "addbmm(input: Tensor, batch1: Tensor, batch2: Tensor, *, beta: float = 1, alpha: float = 1) -> Tensor",
  { doc: "beta × input + alpha × (the sum over the batch of batch1[i] @ batch2[i]); input broadcasts to [n, m], and with beta = 0 it is ignored (NaN and inf in it do not propagate).", method: true },
  ({ input, batch1, batch2, beta, alpha }) => fused("addbmm", input, batch1, batch2, beta, alpha),
);

export const addr = op(
  "addr(input: Tensor, vec1: Tensor, vec2: Tensor, *, beta: float = 1, alpha: float = 1) -> Tensor",
  {
    doc: "beta × input + alpha × outer(vec1, vec2), dtypes promoted; input broadcasts to [n, m], and with beta = 0 it is ignored (NaN and inf in it do not propagate). Bool computes (beta ∧ input) ∨ (alpha ∧ vec1[i] ∧ vec2[j]).",
    method: true,
  },
  ({ input, vec1, vec2, beta, alpha }) =>
    run("addr", [input, vec1, vec2], `${beta}|${alpha}`, ([i, a, b]) => {
      const [inp, x, y] = [i as T, a as T, b as T];
      checkRank("addr", "vec1", x, 1);
      checkRank("addr", "vec2", y, 1);
      // a 0-d input promotes as a tensor here (PyTorch's promote_types), not as a scalar
      const dtype = [inp, x, y].map((v) => v.dtype).reduce(promoteTypes);
      return scaledSum("addr", inp, outerBody(x, y, opmath(dtype)), checkScale("addr", "beta", beta, dtype), checkScale("addr", "alpha", alpha, dtype), dtype);
    }),
);

// --- tensordot ----------------------------------------------------------------------------------------

/** A count (the last n dims of a with the first n of b), or a pair of dims or of dim lists. */
export type TensordotDims = number | readonly number[] | readonly (readonly number[])[];

export const tensordot = op(
  "tensordot(a: Tensor, b: Tensor, dims: int | int[] | int[][] = 2) -> Tensor",
  {
    doc: "Contracts `dims` (a count: the last n dims of a with the first n of b; or a pair of dim lists, or of dims) and returns a's remaining dims followed by b's.",
  },
  ({ a, b, dims }) => {
    const statics = typeof dims === "number" ? String(dims) : JSON.stringify(dims);
    return run("tensordot", [a, b], statics, ([x, y]) => {
      const [p, q] = [x as T, y as T];
      checkProductDTypes("tensordot", p, q);
      const [ca, cb] = contractedDims(p, q, dims);
      ca.forEach((d, k) => {
        if (p.shape[d] !== q.shape[cb[k]!]) {
          throw new ShapeError(`tensordot: contracted dimensions must match, but a has size ${p.shape[d]} in dim ${d} and b has size ${q.shape[cb[k]!]} in dim ${cb[k]}`);
        }
      });
      return dotGeneral(p, q, [], [], ca, cb);
    });
  },
);

function contractedDims(p: T, q: T, dims: TensordotDims): [number[], number[]] {
  if (typeof dims === "number") {
    if (dims < 0 || dims > Math.min(p.ndim, q.ndim)) {
      throw new ShapeError(`tensordot: dims must be an integer in [0, ${Math.min(p.ndim, q.ndim)}] for shapes ${fmtShape(p.shape)} and ${fmtShape(q.shape)}, got ${dims}`);
    }
    return [Array.from({ length: dims }, (_, k) => p.ndim - dims + k), Array.from({ length: dims }, (_, k) => k)];
  }
  if (dims.length !== 2) throw new ArgumentError(`tensordot: dims must be a number or a pair of dim lists, got ${JSON.stringify(dims)}`);
  const list = (v: number | readonly number[], x: T): number[] => {
    const ds = (typeof v === "number" ? [v] : [...v]).map((d) => normDim("tensordot", d, x.ndim));
    if (new Set(ds).size !== ds.length) throw new ShapeError(`tensordot: a dim appears twice in [${ds.join(", ")}]`);
    return ds;
  };
  const ca = list(dims[0]!, p);
  const cb = list(dims[1]!, q);
  if (ca.length !== cb.length) throw new ShapeError(`tensordot: both dim lists must have the same length, got [${ca.join(", ")}] and [${cb.join(", ")}]`);
  return [ca, cb];
}

// --- cross --------------------------------------------------------------------------------------------

/** x with its dim `d` (of size 3) rotated left by `k`: component i becomes component (i + k) mod 3. */
function rotate(x: T, d: number, k: 1 | 2): T {
  const part = (start: number, stop: number): T => {
    const begin = x.shape.map(() => 0);
    begin[d] = start;
    const limit = [...x.shape];
    limit[d] = stop;
    return bind1("slice", [x], { start: begin, limit, strides: x.shape.map(() => 1) });
  };
  return e.concatenate([part(k, 3), part(0, k)], d);
}

export const cross = op(
  "cross(input: Tensor, other: Tensor, dim?: int) -> Tensor",
  {
    doc: "Cross product of 3-vectors along `dim`; shapes broadcast (same rank). Without `dim`, the first dim of size 3 (PyTorch 2.13's deprecated default; pass dim, as linalg.cross uses −1).",
    method: true,
  },
  ({ input, other, dim }) =>
    run("cross", [input, other], dim === undefined ? "" : String(dim), ([a, b]) => {
      const [x, y] = [a as T, b as T];
      if (x.ndim !== y.ndim) throw new ShapeError(`cross: inputs must have the same number of dimensions, got shapes ${fmtShape(x.shape)} and ${fmtShape(y.shape)}`);
      checkProductDTypes("cross", x, y);
      let d: number;
      if (dim === undefined) {
        d = x.shape.indexOf(3);
        if (d < 0) throw new ShapeError(`cross: no dimension of size 3 in input of shape ${fmtShape(x.shape)}; pass dim`);
      } else d = normDim("cross", dim, x.ndim);
      if (x.shape[d] !== 3 || y.shape[d] !== 3) {
        throw new ShapeError(`cross: inputs dimension ${d} must have length 3, got ${x.shape[d]} and ${y.shape[d]} (shapes ${fmtShape(x.shape)} and ${fmtShape(y.shape)})`);
      }
      const shape = broadcastShapes("cross", x.shape, y.shape);
      return crossOf(e.broadcastTo(x, shape), e.broadcastTo(y, shape), d);
    }),
);

/** The cross products of the 3-vectors along dim d of p and q (one shape): c_i = p_(i+1) q_(i+2) − p_(i+2) q_(i+1). */
export function crossOf(p: T, q: T, d: number): T {
  return e.sub(e.mul(rotate(p, d, 1), rotate(q, d, 2)), e.mul(rotate(p, d, 2), rotate(q, d, 1)));
}
