/**
 * @file Shape API ops. Views are copies here: the result never shares storage with its input.
 */
import { promoteTypes } from "../../dtype.js";
import { ArgumentError, ShapeError } from "../../runtime/errors.js";
import { numelOf, type Tensor } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import * as e from "../emit.js";
import { broadcastShapes, fmtShape, normDim, normDims } from "../dims.js";
import { checkTensor, run } from "../unit.js";

type Shape = readonly number[];

/** Flattens reshape(x, [2, 3]) and reshape(x, 2, 3) into one list. */
function sizesFrom(op: string, args: readonly (number | Shape)[]): number[] {
  const list = args.length === 1 && Array.isArray(args[0]) ? [...(args[0] as Shape)] : (args as number[]);
  for (const d of list) {
    if (typeof d !== "number" || !Number.isInteger(d)) throw new ArgumentError(`${op}: sizes must be integers, got [${list.join(", ")}]`);
  }
  return list;
}

/** The target shape with one −1 inferred. */
function inferShape(op: string, from: Shape, to: readonly number[]): number[] {
  const n = numelOf(from);
  const unknown = to.filter((d) => d === -1).length;
  if (unknown > 1) throw new ShapeError(`${op}: only one dimension can be inferred (-1), got ${fmtShape(to)}`);
  if (to.some((d) => d < -1)) throw new ShapeError(`${op}: invalid shape ${fmtShape(to)}`);
  const known = to.reduce((p, d) => (d === -1 ? p : p * d), 1);
  if (unknown === 1) {
    if (known === 0 || n % known !== 0) throw new ShapeError(`${op}: shape ${fmtShape(to)} is invalid for input of size ${n}`);
    return to.map((d) => (d === -1 ? n / known : d));
  }
  if (known !== n) throw new ShapeError(`${op}: shape ${fmtShape(to)} is invalid for input of size ${n} (shape ${fmtShape(from)})`);
  return [...to];
}

function unary(op: string, a: Tensor, statics: string, body: (x: Tracer) => Tracer): Tensor {
  checkTensor(op, a);
  return run(op, [a], statics, ([x]) => body(x as Tracer));
}

/** The same values in a new shape (one dim may be −1). */
export function reshape(a: Tensor, ...shape: (number | Shape)[]): Tensor {
  const sizes = sizesFrom("reshape", shape);
  return unary("reshape", a, sizes.join(","), (x) => e.reshape(x, inferShape("reshape", x.shape, sizes)));
}

/** reshape (a copy, not a view: see the README). */
export function view(a: Tensor, ...shape: (number | Shape)[]): Tensor {
  const sizes = sizesFrom("view", shape);
  return unary("view", a, sizes.join(","), (x) => e.reshape(x, inferShape("view", x.shape, sizes)));
}

/** Swaps two dims. */
export function transpose(a: Tensor, dim0: number, dim1: number): Tensor {
  return unary("transpose", a, `${dim0},${dim1}`, (x) => {
    const d0 = normDim("transpose", dim0, x.ndim);
    const d1 = normDim("transpose", dim1, x.ndim);
    if (x.ndim < 2 || d0 === d1) return x;
    const perm = x.shape.map((_, i) => i);
    perm[d0] = d1;
    perm[d1] = d0;
    return e.transpose(x, perm);
  });
}

/** Reorders the dims: result dim i is input dim dims[i]. */
export function permute(a: Tensor, ...dims: (number | Shape)[]): Tensor {
  const order = sizesFrom("permute", dims);
  return unary("permute", a, order.join(","), (x) => {
    if (order.length !== x.ndim) {
      throw new ShapeError(`permute: the number of dims ${fmtShape(order)} does not match the tensor's ${x.ndim} dims (shape ${fmtShape(x.shape)})`);
    }
    const perm = normDims("permute", order, x.ndim);
    const norm = order.map((d) => normDim("permute", d, x.ndim));
    if (perm.length !== order.length) throw new ShapeError(`permute: repeated dim in ${fmtShape(order)}`);
    return e.transpose(x, norm);
  });
}

/** Inserts a size-1 dim at `dim` (in [−ndim−1, ndim]). */
export function unsqueeze(a: Tensor, dim: number): Tensor {
  return unary("unsqueeze", a, String(dim), (x) => {
    const d = normDim("unsqueeze", dim, x.ndim + 1);
    const shape = [...x.shape];
    shape.splice(d, 0, 1);
    return e.reshape(x, shape);
  });
}

/** Removes size-1 dims (all, or those in `dim`; a listed dim of another size stays). */
export function squeeze(a: Tensor, dim?: number | Shape): Tensor {
  const key = dim === undefined ? "all" : typeof dim === "number" ? String(dim) : dim.join(",");
  return unary("squeeze", a, key, (x) => {
    const dims = dim === undefined ? x.shape.map((_, i) => i) : normDims("squeeze", dim, x.ndim);
    const shape = x.shape.filter((d, i) => !(d === 1 && dims.includes(i)));
    return shape.length === x.ndim ? x : e.reshape(x, shape);
  });
}

function expandShape(op: string, from: Shape, sizes: readonly number[]): number[] {
  if (sizes.length < from.length) {
    throw new ShapeError(`${op}: the number of sizes (${sizes.length}) must be at least the number of dims (${from.length}) of shape ${fmtShape(from)}`);
  }
  const offset = sizes.length - from.length;
  return sizes.map((s, i) => {
    const own = i < offset ? undefined : from[i - offset]!;
    if (s === -1) {
      if (own === undefined) throw new ShapeError(`${op}: -1 is not allowed for a new leading dimension (sizes ${fmtShape(sizes)})`);
      return own;
    }
    if (s < 0) throw new ShapeError(`${op}: invalid size ${s} in ${fmtShape(sizes)}`);
    if (own !== undefined && own !== 1 && own !== s) {
      throw new ShapeError(`${op}: the expanded size ${s} must match the existing size ${own} at dimension ${i} (shape ${fmtShape(from)} to ${fmtShape(sizes)}); only size-1 dims can be expanded`);
    }
    return s;
  });
}

/** Broadcasts size-1 dims (and new leading dims) to `sizes`; −1 keeps a dim. */
export function expand(a: Tensor, ...sizes: (number | Shape)[]): Tensor {
  const list = sizesFrom("expand", sizes);
  return unary("expand", a, list.join(","), (x) => e.broadcastTo(x, expandShape("expand", x.shape, list)));
}

/** expand to a shape. */
export function broadcastTo(a: Tensor, shape: Shape): Tensor {
  const list = sizesFrom("broadcastTo", [shape]);
  return unary("broadcastTo", a, list.join(","), (x) => e.broadcastTo(x, expandShape("broadcastTo", x.shape, list)));
}

/** Joins tensors along an existing dim; dtypes are promoted; 1-d empty tensors are skipped, as in PyTorch. */
export function cat(tensors: readonly Tensor[], dim = 0): Tensor {
  if (!Array.isArray(tensors) || tensors.length === 0) throw new ArgumentError("cat: expected a non-empty list of tensors");
  tensors.forEach((t, i) => checkTensor("cat", t, `tensors[${i}]`));
  return run("cat", tensors, String(dim), (xs) => {
    const ts = xs as Tracer[];
    const parts = ts.filter((t) => !(t.ndim === 1 && t.shape[0] === 0));
    if (parts.length === 0) return ts[0]!;
    const ref = parts[0]!;
    if (ref.ndim === 0) throw new ShapeError("cat: zero-dimensional tensors cannot be concatenated; unsqueeze them first");
    const d = normDim("cat", dim, ref.ndim);
    for (const t of parts) {
      if (t.ndim !== ref.ndim || t.shape.some((s, i) => i !== d && s !== ref.shape[i])) {
        throw new ShapeError(`cat: sizes of tensors must match except in dimension ${d}; got ${fmtShape(ref.shape)} and ${fmtShape(t.shape)}`);
      }
    }
    const dtype = parts.map((t) => t.dtype).reduce(promoteTypes);
    const converted = parts.map((t) => e.convert(t, dtype));
    return converted.length === 1 ? converted[0]! : e.concatenate(converted, d);
  });
}

/** The broadcast shape of several shapes (torch.broadcastShapes). */
export function broadcastShapesOf(...shapes: Shape[]): number[] {
  return broadcastShapes("broadcastShapes", ...shapes);
}
