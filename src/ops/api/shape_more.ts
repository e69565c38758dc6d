/**
 * @file More shape API ops (flatten … broadcastTensors), composed from existing primitives.
 * Like the rest of the op library, results are copies, never views.
 */
import { promoteTypes } from "../../dtype.js";
import { ArgumentError, DTypeError, ShapeError } from "../../runtime/errors.js";
import { Tensor } from "../../tensor.js";
import { bind1, type Tracer } from "../../trace/tracer.js";
import * as e from "../emit.js";
import { broadcastShapes, fmtShape, normDim, normDims } from "../dims.js";
import { checkTensor, run, runMany } from "../unit.js";

type Shape = readonly number[];

function sliceDim(x: Tracer, d: number, start: number, stop: number, step = 1): Tracer {
  const s = x.shape.map(() => 0);
  const l = [...x.shape];
  const st = x.shape.map(() => 1);
  s[d] = start;
  l[d] = stop;
  st[d] = step;
  return bind1("slice", [x], { start: s, limit: l, strides: st });
}

function unary(op: string, a: Tensor, statics: string, body: (x: Tracer) => Tracer): Tensor {
  checkTensor(op, a);
  return run(op, [a], statics, ([x]) => body(x as Tracer));
}

function checkInt(op: string, what: string, v: unknown): number {
  if (typeof v !== "number" || !Number.isInteger(v)) throw new ArgumentError(`${op}: ${what} must be an integer, got ${String(v)}`);
  return v;
}

function checkList(op: string, tensors: unknown): Tensor[] {
  if (!Array.isArray(tensors) || tensors.length === 0) throw new ArgumentError(`${op}: expected a non-empty list of tensors`);
  tensors.forEach((t, i) => checkTensor(op, t, `tensors[${i}]`));
  return tensors as Tensor[];
}

/** Merges dims startDim..endDim into one. */
export function flatten(a: Tensor, options: { startDim?: number; endDim?: number } = {}): Tensor {
  const { startDim = 0, endDim = -1 } = options;
  return unary("flatten", a, `${startDim},${endDim}`, (x) => {
    if (x.ndim === 0) return e.reshape(x, [1]);
    const s = normDim("flatten", startDim, x.ndim);
    const t = normDim("flatten", endDim, x.ndim);
    if (s > t) throw new ShapeError(`flatten: startDim ${startDim} cannot come after endDim ${endDim}`);
    const merged = x.shape.slice(s, t + 1).reduce((p, d) => p * d, 1);
    return e.reshape(x, [...x.shape.slice(0, s), merged, ...x.shape.slice(t + 1)]);
  });
}

/** Splits one dim into `sizes` (one may be −1). */
export function unflatten(a: Tensor, dim: number, sizes: Shape): Tensor {
  return unary("unflatten", a, `${dim}|${sizes.join(",")}`, (x) => {
    const d = normDim("unflatten", dim, x.ndim);
    const n = x.shape[d]!;
    const unknown = sizes.filter((s) => s === -1).length;
    const known = sizes.reduce((p, s) => (s === -1 ? p : p * s), 1);
    if (unknown > 1 || (unknown === 1 && (known === 0 || n % known !== 0)) || (unknown === 0 && known !== n)) {
      throw new ShapeError(`unflatten: sizes ${fmtShape(sizes)} do not multiply to the size ${n} of dim ${d}`);
    }
    const full = sizes.map((s) => (s === -1 ? n / known : s));
    return e.reshape(x, [...x.shape.slice(0, d), ...full, ...x.shape.slice(d + 1)]);
  });
}

/** Transpose of a ≤2-d tensor. */
export function t(a: Tensor): Tensor {
  return unary("t", a, "", (x) => {
    if (x.ndim > 2) throw new ShapeError(`t: expects a tensor with <= 2 dimensions, but the input is ${x.ndim}-d (shape ${fmtShape(x.shape)})`);
    return x.ndim < 2 ? x : e.transpose(x, [1, 0]);
  });
}

/** Transposes the last two dims (the Tensor.mT property). */
export function mT(a: Tensor): Tensor {
  return unary("mT", a, "", (x) => {
    if (x.ndim < 2) throw new ShapeError(`mT: expects a tensor with at least 2 dimensions, got shape ${fmtShape(x.shape)}`);
    const perm = x.shape.map((_, i) => i);
    perm[x.ndim - 2] = x.ndim - 1;
    perm[x.ndim - 1] = x.ndim - 2;
    return e.transpose(x, perm);
  });
}

/** expand to other's shape. */
export function expandAs(a: Tensor, other: Tensor): Tensor {
  checkTensor("expandAs", other, "other");
  const shape = other.shape;
  return unary("expandAs", a, shape.join(","), (x) => {
    const target = broadcastShapes("expandAs", x.shape, shape);
    if (target.length !== shape.length || target.some((d, i) => d !== shape[i])) {
      throw new ShapeError(`expandAs: shape ${fmtShape(x.shape)} cannot be expanded to ${fmtShape(shape)}`);
    }
    return e.broadcastTo(x, shape);
  });
}

function joinAlong(op: string, ts: Tracer[], d: number): Tracer {
  const dtype = ts.map((x) => x.dtype).reduce(promoteTypes);
  const conv = ts.map((x) => e.convert(x, dtype));
  return conv.length === 1 ? conv[0]! : e.concatenate(conv, d);
}

/** Joins equal-shaped tensors along a new dim. */
export function stack(tensors: readonly Tensor[], dim = 0): Tensor {
  const list = checkList("stack", tensors);
  return run("stack", list, String(dim), (xs) => {
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
    return joinAlong("stack", ts.map((x) => e.reshape(x, shape)), d);
  });
}

function catChecked(op: string, ts: Tracer[], d: number): Tracer {
  const parts = ts.filter((x) => !(x.ndim === 1 && x.shape[0] === 0));
  if (parts.length === 0) return ts[0]!;
  const ref = parts[0]!;
  for (const x of parts) {
    if (x.ndim !== ref.ndim || x.shape.some((s, i) => i !== d && s !== ref.shape[i])) {
      throw new ShapeError(`${op}: sizes of tensors must match except in dimension ${d}; got ${fmtShape(ref.shape)} and ${fmtShape(x.shape)}`);
    }
  }
  return joinAlong(op, parts, d);
}

/** Concatenates column-wise (1-d tensors along dim 0). */
export function hstack(tensors: readonly Tensor[]): Tensor {
  const list = checkList("hstack", tensors);
  return run("hstack", list, "", (xs) => {
    const ts = (xs as Tracer[]).map((x) => (x.ndim === 0 ? e.reshape(x, [1]) : x));
    return catChecked("hstack", ts, ts[0]!.ndim === 1 ? 0 : 1);
  });
}

/** Concatenates row-wise (1-d tensors become rows). */
export function vstack(tensors: readonly Tensor[]): Tensor {
  const list = checkList("vstack", tensors);
  return run("vstack", list, "", (xs) => {
    const ts = (xs as Tracer[]).map((x) => (x.ndim === 0 ? e.reshape(x, [1, 1]) : x.ndim === 1 ? e.reshape(x, [1, x.shape[0]!]) : x));
    return catChecked("vstack", ts, 0);
  });
}

/** Slices along `d` at the given sizes. */
function pieces(x: Tracer, d: number, sizes: readonly number[]): Tracer[] {
  const out: Tracer[] = [];
  let at = 0;
  for (const s of sizes) {
    out.push(sliceDim(x, d, at, at + s));
    at += s;
  }
  return out;
}

/** Splits into chunks of `splitSize` (the last may be smaller) or of the listed sizes. */
export function split(a: Tensor, splitSizeOrSections: number | Shape, options: { dim?: number } = {}): Tensor[] {
  const { dim = 0 } = options;
  checkTensor("split", a);
  const key = typeof splitSizeOrSections === "number" ? String(splitSizeOrSections) : `[${splitSizeOrSections.join(",")}]`;
  const d = normDim("split", dim, a.shape.length);
  const n = a.shape[d] ?? 1;
  let sizes: number[];
  if (typeof splitSizeOrSections === "number") {
    const s = checkInt("split", "splitSize", splitSizeOrSections);
    if (s < 0 || (s === 0 && n !== 0)) throw new ShapeError(`split: split size must be positive, got ${s}`);
    sizes = [];
    for (let at = 0; at < n || (n === 0 && sizes.length === 0); at += s) sizes.push(Math.min(s, n - at));
  } else {
    sizes = splitSizeOrSections.map((s) => checkInt("split", "split size", s));
    const total = sizes.reduce((p, s) => p + s, 0);
    if (total !== n || sizes.some((s) => s < 0)) {
      throw new ShapeError(`split: split sizes ${fmtShape(sizes)} must sum exactly to ${n} (the size of dim ${d}, shape ${fmtShape(a.shape)})`);
    }
  }
  if (a.shape.length === 0) throw new ShapeError("split: cannot split a 0-d tensor");
  return runMany("split", [a], `${key}|${d}`, ([x]) => pieces(x!, d, sizes));
}

/** Splits into `chunks` pieces of equal size (ceil), the last may be smaller. */
export function chunk(a: Tensor, chunks: number, options: { dim?: number } = {}): Tensor[] {
  checkTensor("chunk", a);
  checkInt("chunk", "chunks", chunks);
  if (chunks <= 0) throw new ShapeError(`chunk: chunks must be positive, got ${chunks}`);
  const d = normDim("chunk", options.dim ?? 0, a.shape.length);
  const n = a.shape[d] ?? 1;
  const size = Math.max(1, Math.ceil(n / chunks));
  return split(a, n === 0 ? 0 : size, { dim: d });
}

/** The slices along `dim`, with `dim` removed. */
export function unbind(a: Tensor, options: { dim?: number } = {}): Tensor[] {
  checkTensor("unbind", a);
  if (a.shape.length === 0) throw new ShapeError("unbind: cannot unbind a 0-d tensor");
  const d = normDim("unbind", options.dim ?? 0, a.shape.length);
  const n = a.shape[d]!;
  return runMany("unbind", [a], String(d), ([x]) => {
    const shape = x!.shape.filter((_, i) => i !== d);
    return pieces(x!, d, new Array<number>(n).fill(1)).map((p) => e.reshape(p, shape));
  });
}

/** `length` elements of `dim` from `start` (negative start counts from the end). */
export function narrow(a: Tensor, dim: number, start: number, length: number): Tensor {
  checkTensor("narrow", a);
  if (a.shape.length === 0) throw new ShapeError("narrow: cannot be applied to a 0-d tensor");
  const d = normDim("narrow", dim, a.shape.length);
  const n = a.shape[d]!;
  checkInt("narrow", "start", start);
  checkInt("narrow", "length", length);
  if (start < -n || start > n) throw new ShapeError(`narrow: start (${start}) is out of range for dimension ${d} of size ${n}`);
  const s = start < 0 ? start + n : start;
  if (length < 0) throw new ShapeError(`narrow: length must be non-negative, got ${length}`);
  if (s + length > n) throw new ShapeError(`narrow: start (${s}) + length (${length}) exceeds dimension size (${n})`);
  return unary("narrow", a, `${d},${s},${length}`, (x) => sliceDim(x, d, s, s + length));
}

/** Reverses the order along the given dims. */
export function flip(a: Tensor, dims: number | Shape): Tensor {
  const list = typeof dims === "number" ? [dims] : [...dims];
  return unary("flip", a, list.join(","), (x) => {
    const ds = normDims("flip", list, x.ndim);
    if (x.ndim === 0 || ds.length === 0) return x;
    return bind1("reverse", [x], { dims: ds });
  });
}

function rollDim(x: Tracer, d: number, shift: number): Tracer {
  const n = x.shape[d]!;
  if (n === 0) return x;
  const k = ((shift % n) + n) % n;
  if (k === 0) return x;
  return e.concatenate([sliceDim(x, d, n - k, n), sliceDim(x, d, 0, n - k)], d);
}

/** Rotates elements along dims (all flattened when dims is omitted). */
export function roll(a: Tensor, shifts: number | Shape, options: { dims?: number | Shape } = {}): Tensor {
  const sh = typeof shifts === "number" ? [shifts] : [...shifts];
  const dims = options.dims === undefined ? undefined : typeof options.dims === "number" ? [options.dims] : [...options.dims];
  sh.forEach((s) => checkInt("roll", "shift", s));
  return unary("roll", a, `${sh.join(",")}|${dims?.join(",") ?? "flat"}`, (x) => {
    if (dims === undefined) {
      if (sh.length !== 1) throw new ShapeError(`roll: shifts ${fmtShape(sh)} need dims when there is more than one`);
      return e.reshape(rollDim(e.reshape(x, [x.shape.reduce((p, d) => p * d, 1)]), 0, sh[0]!), x.shape);
    }
    if (dims.length !== sh.length) throw new ShapeError(`roll: shifts and dims must align, got ${sh.length} shifts and ${dims.length} dims`);
    let y = x;
    dims.forEach((dd, i) => {
      y = rollDim(y, normDim("roll", dd, x.ndim), sh[i]!);
    });
    return y;
  });
}

function sizeList(op: string, args: readonly (number | Shape)[]): number[] {
  const list = args.length === 1 && Array.isArray(args[0]) ? [...(args[0] as Shape)] : (args as number[]);
  list.forEach((d) => {
    checkInt(op, "a size", d);
    if (d < 0) throw new ShapeError(`${op}: sizes must be non-negative, got ${fmtShape(list)}`);
  });
  return list;
}

function repeatBody(op: string, x: Tracer, reps: readonly number[]): Tracer {
  if (reps.length < x.ndim) {
    throw new ShapeError(`${op}: the number of repeats (${reps.length}) can not be smaller than the number of dims (${x.ndim}) of shape ${fmtShape(x.shape)}`);
  }
  const shape = [...new Array<number>(reps.length - x.ndim).fill(1), ...x.shape];
  const wide: number[] = [];
  shape.forEach((s, i) => wide.push(reps[i]!, s));
  const b = e.broadcastInDim(e.reshape(x, shape), wide, shape.map((_, i) => 2 * i + 1));
  return e.reshape(b, shape.map((s, i) => s * reps[i]!));
}

/** Tensor.repeat: tiles the tensor `sizes` times along each dim. */
export function repeat(a: Tensor, ...sizes: (number | Shape)[]): Tensor {
  const reps = sizeList("repeat", sizes);
  return unary("repeat", a, reps.join(","), (x) => repeatBody("repeat", x, reps));
}

/** Like repeat; fewer dims than the tensor's are padded with leading 1s. */
export function tile(a: Tensor, dims: Shape): Tensor {
  const reps = sizeList("tile", [dims]);
  return unary("tile", a, reps.join(","), (x) => {
    const full = [...new Array<number>(Math.max(0, x.ndim - reps.length)).fill(1), ...reps];
    return repeatBody("tile", x, full);
  });
}

/** Moves dims `source` to positions `destination`; the others keep their order. */
export function movedim(a: Tensor, source: number | Shape, destination: number | Shape): Tensor {
  const src = typeof source === "number" ? [source] : [...source];
  const dst = typeof destination === "number" ? [destination] : [...destination];
  return unary("movedim", a, `${src.join(",")}|${dst.join(",")}`, (x) => {
    if (src.length !== dst.length) throw new ShapeError(`movedim: source ${fmtShape(src)} and destination ${fmtShape(dst)} must have the same number of dims`);
    const s = src.map((d) => normDim("movedim", d, x.ndim));
    const t2 = dst.map((d) => normDim("movedim", d, x.ndim));
    if (new Set(s).size !== s.length) throw new ShapeError(`movedim: repeated dim in source ${fmtShape(src)}`);
    if (new Set(t2).size !== t2.length) throw new ShapeError(`movedim: repeated dim in destination ${fmtShape(dst)}`);
    const perm = new Array<number>(x.ndim).fill(-1);
    s.forEach((d, i) => (perm[t2[i]!] = d));
    const rest = x.shape.map((_, i) => i).filter((i) => !s.includes(i));
    let k = 0;
    for (let i = 0; i < perm.length; i++) if (perm[i] === -1) perm[i] = rest[k++]!;
    return x.ndim === 0 ? x : e.transpose(x, perm);
  });
}

function triangle(op: "tril" | "triu", a: Tensor, diagonal: number): Tensor {
  checkInt(op, "diagonal", diagonal);
  return unary(op, a, String(diagonal), (x) => {
    if (x.ndim < 2) throw new ShapeError(`${op}: input tensor must have at least 2 dimensions, got shape ${fmtShape(x.shape)}`);
    const r = x.shape[x.ndim - 2]!;
    const c = x.shape[x.ndim - 1]!;
    const rows = e.iota("int64", [r, c], 0);
    const cols = e.iota("int64", [r, c], 1);
    // tril keeps col - row <= diagonal; triu keeps col - row >= diagonal
    const diff = e.sub(cols, rows);
    const mask = e.compare(diff, e.full(diagonal, "int64", [r, c]), op === "tril" ? "LE" : "GE");
    return e.select(e.broadcastTo(mask, x.shape), x, e.full(x.dtype === "bool" ? false : 0, x.dtype, x.shape));
  });
}

/** The lower triangle of the last two dims (elements above `diagonal` zeroed). */
export const tril = (a: Tensor, options: { diagonal?: number } = {}): Tensor => triangle("tril", a, options.diagonal ?? 0);
/** The upper triangle of the last two dims. */
export const triu = (a: Tensor, options: { diagonal?: number } = {}): Tensor => triangle("triu", a, options.diagonal ?? 0);

function diagonalBody(x: Tracer, offset: number, dim1: number, dim2: number): Tracer {
  const d1 = normDim("diagonal", dim1, x.ndim);
  const d2 = normDim("diagonal", dim2, x.ndim);
  if (d1 === d2) throw new ShapeError(`diagonal: dim1 and dim2 cannot be the same dim (${d1})`);
  const rest = x.shape.map((_, i) => i).filter((i) => i !== d1 && i !== d2);
  const y = e.transpose(x, [...rest, d1, d2]);
  const batch = rest.map((i) => x.shape[i]!);
  const r = x.shape[d1]!;
  const c = x.shape[d2]!;
  const r0 = offset >= 0 ? 0 : Math.min(-offset, r);
  const c0 = offset >= 0 ? Math.min(offset, c) : 0;
  const len = Math.max(0, Math.min(r - r0, c - c0));
  const b = batch.length;
  const sq = sliceDim(sliceDim(y, b, r0, r0 + len), b + 1, c0, c0 + len);
  const flat = e.reshape(sq, [...batch, len * len]);
  return len === 0 ? e.reshape(flat, [...batch, 0]) : sliceDim(flat, b, 0, len * len, len + 1);
}

/** The diagonal of dims dim1, dim2 (removed; the diagonal becomes the last dim). */
export function diagonal(a: Tensor, options: { offset?: number; dim1?: number; dim2?: number } = {}): Tensor {
  const { offset = 0, dim1 = 0, dim2 = 1 } = options;
  checkInt("diagonal", "offset", offset);
  return unary("diagonal", a, `${offset},${dim1},${dim2}`, (x) => {
    if (x.ndim < 2) throw new ShapeError(`diagonal: expects a tensor with at least 2 dimensions, got shape ${fmtShape(x.shape)}`);
    return diagonalBody(x, offset, dim1, dim2);
  });
}

/** 1-d → a square matrix with the vector on diagonal `diagonal`; 2-d → that diagonal. */
export function diag(a: Tensor, options: { diagonal?: number } = {}): Tensor {
  const k = options.diagonal ?? 0;
  checkInt("diag", "diagonal", k);
  return unary("diag", a, String(k), (x) => {
    if (x.ndim === 2) return diagonalBody(x, k, 0, 1);
    if (x.ndim !== 1) throw new ShapeError(`diag: expects a 1-d or 2-d tensor, got shape ${fmtShape(x.shape)}`);
    const n = x.shape[0]!;
    const m = n + Math.abs(k);
    const zero = x.dtype === "bool" ? false : 0;
    const padded = bind1("pad", [x, e.full(zero, x.dtype)], { low: [0], high: [Math.abs(k)], interior: [0] });
    const vals = e.broadcastInDim(padded, [m, m], [k >= 0 ? 0 : 1]);
    const diff = e.sub(e.iota("int64", [m, m], 1), e.iota("int64", [m, m], 0));
    const mask = e.compare(diff, e.full(k, "int64", [m, m]), "EQ");
    return e.select(mask, vals, e.full(zero, x.dtype, [m, m]));
  });
}

function splitVarargs<O extends object>(args: readonly unknown[]): [Tensor[], O] {
  const last = args[args.length - 1];
  const hasOpts = last !== undefined && !(last instanceof Tensor) && !Array.isArray(last) && typeof last === "object" && last !== null;
  const rest = hasOpts ? args.slice(0, -1) : args;
  const list = rest.length === 1 && Array.isArray(rest[0]) ? (rest[0] as unknown[]) : rest;
  return [list as Tensor[], (hasOpts ? last : {}) as O];
}

/** Coordinate grids from 1-d tensors (indexing "ij" or "xy"). */
export function meshgrid(...args: (Tensor | readonly Tensor[] | { indexing?: "ij" | "xy" })[]): Tensor[] {
  const [list, opts] = splitVarargs<{ indexing?: "ij" | "xy" }>(args);
  const indexing = opts.indexing ?? "ij";
  if (indexing !== "ij" && indexing !== "xy") throw new ArgumentError(`meshgrid: indexing must be "ij" or "xy", got ${String(indexing)}`);
  checkList("meshgrid", list);
  const dtype = list[0]!.dtype;
  if (list.some((x) => x.dtype !== dtype)) throw new DTypeError(`meshgrid: expects all tensors to have the same dtype, got ${list.map((x) => x.dtype).join(", ")}`);
  list.forEach((x, i) => {
    if (x.shape.length > 1) throw new ShapeError(`meshgrid: expects 0-d or 1-d tensors, got shape ${fmtShape(x.shape)} at entry ${i}`);
  });
  return runMany("meshgrid", list, indexing, (xs) => {
    const sizes = xs.map((x) => (x.ndim === 0 ? 1 : x.shape[0]!));
    const order = sizes.map((_, i) => i);
    if (indexing === "xy" && order.length >= 2) [order[0], order[1]] = [order[1]!, order[0]!];
    const shape = order.map((i) => sizes[i]!);
    return xs.map((x, i) => e.broadcastInDim(e.reshape(x, [sizes[i]!]), shape, [order.indexOf(i)]));
  });
}

/** Broadcasts tensors to their common shape. */
export function broadcastTensors(...args: (Tensor | readonly Tensor[])[]): Tensor[] {
  const [list] = splitVarargs(args);
  checkList("broadcastTensors", list);
  const shape = broadcastShapes("broadcastTensors", ...list.map((x) => x.shape));
  return runMany("broadcastTensors", list, "", (xs) => xs.map((x) => e.broadcastTo(x, shape)));
}
