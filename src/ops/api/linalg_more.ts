/**
 * @file Matrix and vector products with PyTorch's strict rank rules (mm, bmm, mv, dot, outer), the
 * fused forms addmm and baddbmm, tensordot and cross. Each is one dot_general (or a few pointwise
 * prims) after the checks; einsum is in einsum.ts.
 */
import { type DType, dtypes } from "../../dtype.js";
import { ArgumentError, DTypeError, ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import { bind1, type Tracer } from "../../trace/tracer.js";
import * as e from "../emit.js";
import { broadcastShapes, fmtShape, normDim } from "../dims.js";
import { checkTensor, promote, run } from "../unit.js";

type T = Tracer;

/** Both operands of a product: the same dtype, not bool (PyTorch has no bool kernels for them). */
export function checkProductDTypes(op: string, ...xs: readonly T[]): void {
  const first = xs[0]!.dtype;
  const other = xs.find((x) => x.dtype !== first);
  if (other !== undefined) {
    throw new DTypeError(`${op}: expected all tensors to have the same dtype, got ${xs.map((x) => x.dtype).join(" and ")} (convert one with .to(dtype))`);
  }
  if (first === "bool") throw new DTypeError(`${op}: bool tensors are not supported; convert to an integer or float dtype`);
}

/**
 * dot_general, except that with no batch and no contracted dims it is the outer product, a
 * broadcast multiply (our printer leaves out an all-empty dot_dimension_numbers, which the CPU
 * plugin rejects).
 */
export function dotGeneral(a: T, b: T, lhsBatch: number[], rhsBatch: number[], lhsContract: number[], rhsContract: number[]): T {
  if (lhsBatch.length + lhsContract.length > 0) return e.dotGeneral(a, b, lhsBatch, rhsBatch, lhsContract, rhsContract);
  const shape = [...a.shape, ...b.shape];
  const dims = (x: T, from: number): number[] => x.shape.map((_, k) => from + k);
  return e.mul(e.broadcastInDim(a, shape, dims(a, 0)), e.broadcastInDim(b, shape, dims(b, a.ndim)));
}

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
  checkTensor(op, a);
  checkTensor(op, b, "other");
  return run(op, [a, b], "", ([x, y]) => body(x as T, y as T));
}

function mmBody(op: string, x: T, y: T, names = ["input", "mat2"]): T {
  checkRank(op, names[0]!, x, 2);
  checkRank(op, names[1]!, y, 2);
  checkProductDTypes(op, x, y);
  if (x.shape[1] !== y.shape[0]) throw cannotMultiply(op, x, y, x.shape[1]!, y.shape[0]!);
  return e.dotGeneral(x, y, [], [], [1], [0]);
}

function bmmBody(op: string, x: T, y: T, names = ["input", "mat2"]): T {
  checkRank(op, names[0]!, x, 3);
  checkRank(op, names[1]!, y, 3);
  checkProductDTypes(op, x, y);
  if (x.shape[0] !== y.shape[0]) {
    throw new ShapeError(`${op}: batch sizes differ: shapes ${fmtShape(x.shape)} and ${fmtShape(y.shape)} (${x.shape[0]} != ${y.shape[0]}); bmm does not broadcast, use matmul`);
  }
  if (x.shape[2] !== y.shape[1]) throw cannotMultiply(op, x, y, x.shape[2]!, y.shape[1]!);
  return e.dotGeneral(x, y, [0], [0], [2], [1]);
}

/** [n, k] × [k, m] → [n, m]; no broadcasting (use matmul for that). */
export function mm(a: Tensor, mat2: Tensor): Tensor {
  return two("mm", a, mat2, (x, y) => mmBody("mm", x, y));
}

/** [b, n, k] × [b, k, m] → [b, n, m]; no broadcasting. */
export function bmm(a: Tensor, mat2: Tensor): Tensor {
  return two("bmm", a, mat2, (x, y) => bmmBody("bmm", x, y));
}

/** [n, k] × [k] → [n]. */
export function mv(a: Tensor, vec: Tensor): Tensor {
  return two("mv", a, vec, (x, y) => {
    checkRank("mv", "input", x, 2);
    checkRank("mv", "vec", y, 1);
    checkProductDTypes("mv", x, y);
    if (x.shape[1] !== y.shape[0]) throw cannotMultiply("mv", x, y, x.shape[1]!, y.shape[0]!);
    return e.dotGeneral(x, y, [], [], [1], [0]);
  });
}

/** Inner product of two vectors of the same size and dtype (0-d result). */
export function dot(a: Tensor, other: Tensor): Tensor {
  return two("dot", a, other, (x, y) => {
    checkRank("dot", "input", x, 1);
    checkRank("dot", "other", y, 1);
    checkProductDTypes("dot", x, y);
    if (x.shape[0] !== y.shape[0]) {
      throw new ShapeError(`dot: the vectors differ in size: shapes ${fmtShape(x.shape)} and ${fmtShape(y.shape)} (${x.shape[0]} != ${y.shape[0]})`);
    }
    return e.dotGeneral(x, y, [], [], [0], [0]);
  });
}

/** Outer product of two vectors, [n] and [m] → [n, m], with type promotion (bool allowed). */
export function outer(a: Tensor, vec2: Tensor): Tensor {
  return two("outer", a, vec2, (x, y) => {
    checkRank("outer", "input", x, 1);
    checkRank("outer", "vec2", y, 1);
    const dtype = promote(x, y);
    const shape = [x.shape[0]!, y.shape[0]!];
    return e.mul(e.broadcastInDim(e.convert(x, dtype), shape, [0]), e.broadcastInDim(e.convert(y, dtype), shape, [1]));
  });
}

// --- addmm, baddbmm -----------------------------------------------------------------------------------

export interface AddmmOptions {
  /** Multiplier of input; with 0, input is ignored (NaN and inf in it do not propagate). */
  beta?: number;
  /** Multiplier of the product. */
  alpha?: number;
}

function checkScale(op: string, name: string, v: unknown, dtype: DType): number {
  if (typeof v !== "number") throw new ArgumentError(`${op}: ${name} must be a number, got ${typeof v}`);
  if (dtypes[dtype].kind !== "float" && !Number.isInteger(v)) {
    throw new DTypeError(`${op}: for integral input tensors (${dtype}), ${name} must not be a floating point number (got ${v})`);
  }
  return v;
}

function fused(op: "addmm" | "baddbmm", input: Tensor, m1: Tensor, m2: Tensor, options: AddmmOptions): Tensor {
  checkTensor(op, input);
  checkTensor(op, m1, op === "addmm" ? "mat1" : "batch1");
  checkTensor(op, m2, op === "addmm" ? "mat2" : "batch2");
  const beta = options.beta ?? 1;
  const alpha = options.alpha ?? 1;
  return run(op, [input, m1, m2], `${beta}|${alpha}`, ([i, x, y]) => {
    const inp = i as T;
    const product = op === "addmm" ? mmBody(op, x as T, y as T, ["mat1", "mat2"]) : bmmBody(op, x as T, y as T, ["batch1", "batch2"]);
    checkProductDTypes(op, inp, product);
    checkScale(op, "beta", beta, product.dtype);
    checkScale(op, "alpha", alpha, product.dtype);
    const scale = (t: T, s: number): T => (s === 1 ? t : e.mul(t, e.full(s, t.dtype, t.shape)));
    const scaled = scale(product, alpha);
    if (beta === 0) return scaled;
    const lead = product.ndim - inp.ndim;
    if (lead < 0 || inp.shape.some((d, k) => d !== 1 && d !== product.shape[lead + k])) {
      throw new ShapeError(`${op}: input of shape ${fmtShape(inp.shape)} cannot be broadcast to the product's shape ${fmtShape(product.shape)}`);
    }
    return e.add(scale(e.broadcastTo(inp, product.shape), beta), scaled);
  });
}

/** beta × input + alpha × (mat1 @ mat2); input broadcasts to [n, m]. */
export function addmm(input: Tensor, mat1: Tensor, mat2: Tensor, options: AddmmOptions = {}): Tensor {
  return fused("addmm", input, mat1, mat2, options);
}

/** beta × input + alpha × bmm(batch1, batch2); input broadcasts to [b, n, m]. */
export function baddbmm(input: Tensor, batch1: Tensor, batch2: Tensor, options: AddmmOptions = {}): Tensor {
  return fused("baddbmm", input, batch1, batch2, options);
}

// --- tensordot ----------------------------------------------------------------------------------------

export type TensordotDims = number | readonly [number | readonly number[], number | readonly number[]];

/**
 * Contracts `dims` (a count: the last n dims of a with the first n of b; or a pair of dim lists) and
 * returns a's remaining dims followed by b's.
 */
export function tensordot(a: Tensor, b: Tensor, options: { dims?: TensordotDims } = {}): Tensor {
  const dims = options.dims ?? 2;
  const statics = typeof dims === "number" ? String(dims) : JSON.stringify(dims);
  checkTensor("tensordot", a);
  checkTensor("tensordot", b, "other");
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
}

function contractedDims(p: T, q: T, dims: TensordotDims): [number[], number[]] {
  if (typeof dims === "number") {
    if (!Number.isInteger(dims) || dims < 0 || dims > Math.min(p.ndim, q.ndim)) {
      throw new ShapeError(`tensordot: dims must be an integer in [0, ${Math.min(p.ndim, q.ndim)}] for shapes ${fmtShape(p.shape)} and ${fmtShape(q.shape)}, got ${dims}`);
    }
    return [Array.from({ length: dims }, (_, k) => p.ndim - dims + k), Array.from({ length: dims }, (_, k) => k)];
  }
  if (!Array.isArray(dims) || dims.length !== 2) throw new ArgumentError(`tensordot: dims must be a number or a pair of dim lists, got ${JSON.stringify(dims)}`);
  const list = (v: number | readonly number[], x: T): number[] => {
    const ds = (typeof v === "number" ? [v] : [...v]).map((d) => normDim("tensordot", d, x.ndim));
    if (new Set(ds).size !== ds.length) throw new ShapeError(`tensordot: a dim appears twice in [${ds.join(", ")}]`);
    return ds;
  };
  const ca = list(dims[0], p);
  const cb = list(dims[1], q);
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

/**
 * Cross product of 3-vectors along `dim`; shapes broadcast (same rank). Without `dim`, the first
 * dim of size 3 of `a` (PyTorch 2.13's deprecated default; pass dim, as linalg.cross uses −1).
 */
export function cross(a: Tensor, other: Tensor, options: { dim?: number } = {}): Tensor {
  return two("cross", a, other, (x, y) => {
    if (x.ndim !== y.ndim) throw new ShapeError(`cross: inputs must have the same number of dimensions, got shapes ${fmtShape(x.shape)} and ${fmtShape(y.shape)}`);
    checkProductDTypes("cross", x, y);
    let d: number;
    if (options.dim === undefined) {
      d = x.shape.indexOf(3);
      if (d < 0) throw new ShapeError(`cross: no dimension of size 3 in input of shape ${fmtShape(x.shape)}; pass { dim }`);
    } else d = normDim("cross", options.dim, x.ndim);
    if (x.shape[d] !== 3 || y.shape[d] !== 3) {
      throw new ShapeError(`cross: inputs dimension ${d} must have length 3, got ${x.shape[d]} and ${y.shape[d]} (shapes ${fmtShape(x.shape)} and ${fmtShape(y.shape)})`);
    }
    const shape = broadcastShapes("cross", x.shape, y.shape);
    const [p, q] = [e.broadcastTo(x, shape), e.broadcastTo(y, shape)];
    // c_i = a_(i+1) b_(i+2) − a_(i+2) b_(i+1)
    return e.sub(e.mul(rotate(p, d, 1), rotate(q, d, 2)), e.mul(rotate(p, d, 2), rotate(q, d, 1)));
  });
}
