// Independent float64 / BigInt reference semantics for the op table, and the comparison of results.

import {
  DTYPES,
  type DType,
  type Scalar,
  fromBig,
  intMax,
  intMin,
  isFloat,
  isSigned,
  numElements,
  roundFloat,
  roundToFormat,
  toBig,
  ulpOf,
  wrapBig,
} from "./dtypes.js";

export interface Tol {
  /** allowed distance in units in the last place of the expected value's dtype */
  ulp?: number;
  /** allowed absolute distance */
  abs?: number;
  /** zeros of either sign match (default: the sign of zero must match when tolerance is exact) */
  anyZeroSign?: boolean;
}

export interface TensorVal {
  dtype: DType;
  shape: number[];
  values: Scalar[];
}

export interface Expected extends TensorVal {
  tol?: Tol;
  /** per-element absolute tolerance (dot products / sums of inexact terms) */
  tolAbs?: number[];
}

// ---------------------------------------------------------------------------------------------
// Indexing

export function strides(shape: number[]): number[] {
  const s = new Array(shape.length).fill(1);
  for (let i = shape.length - 2; i >= 0; i--) s[i] = s[i + 1] * shape[i + 1]!;
  return s;
}
export function unravel(i: number, shape: number[]): number[] {
  const idx = new Array(shape.length).fill(0);
  for (let d = shape.length - 1; d >= 0; d--) {
    idx[d] = i % shape[d]!;
    i = Math.floor(i / shape[d]!);
  }
  return idx;
}
export function ravel(idx: number[], shape: number[]): number {
  let o = 0;
  for (let d = 0; d < shape.length; d++) o = o * shape[d]! + idx[d]!;
  return o;
}
export function mapIndex(shape: number[], f: (idx: number[]) => Scalar): Scalar[] {
  const n = numElements(shape);
  const out: Scalar[] = new Array(n);
  for (let i = 0; i < n; i++) out[i] = f(unravel(i, shape));
  return out;
}

// ---------------------------------------------------------------------------------------------
// Conversions between dtypes (the semantics XLA implements: float→int truncates toward zero and
// saturates, NaN → 0; int→int wraps; x→pred is x != 0; int→float rounds to nearest even once).

/** Rounds an exact integer to a float dtype with a single rounding. */
export function bigToFloat(d: DType, v: bigint): number {
  const info = DTYPES[d];
  const neg = v < 0n;
  let a = neg ? -v : v;
  const bitlen = a.toString(2).length;
  let r: number;
  if (a === 0n) r = 0;
  else if (bitlen <= info.mant! + 1) r = Number(a);
  else {
    const shift = BigInt(bitlen - (info.mant! + 1));
    let q = a >> shift;
    const rem = a - (q << shift);
    const half = 1n << (shift - 1n);
    if (rem > half || (rem === half && (q & 1n) === 1n)) q += 1n;
    r = Number(q) * 2 ** Number(shift);
  }
  r = roundToFormat(r, info.mant!, info.emin!, info.emax!); // overflow → Inf
  return neg ? -r : r;
}

export function convertScalar(from: DType, to: DType, v: Scalar): Scalar {
  const src = DTYPES[from];
  const dst = DTYPES[to];
  if (dst.kind === "pred") {
    if (src.kind === "float") return (v as number) !== 0 ? 1 : 0; // NaN → true
    return toBig(v) !== 0n ? 1 : 0;
  }
  if (src.kind === "float") {
    const x = v as number;
    if (dst.kind === "float") return roundFloat(to, x);
    if (Number.isNaN(x)) return fromBig(to, 0n);
    if (x === Infinity) return fromBig(to, intMax(to));
    if (x === -Infinity) return fromBig(to, intMin(to));
    const t = BigInt(Math.trunc(x));
    const clamped = t < intMin(to) ? intMin(to) : t > intMax(to) ? intMax(to) : t;
    return fromBig(to, clamped);
  }
  const b = toBig(v); // ints and pred (0/1)
  if (dst.kind === "float") return bigToFloat(to, b);
  return fromBig(to, b);
}

// ---------------------------------------------------------------------------------------------
// Element-wise helpers

export type FloatFn = (...xs: number[]) => number;
export type IntFn = (d: DType, ...xs: bigint[]) => bigint;

/** Float op: computes in float64 and rounds once to the dtype. */
export function ewFloat(d: DType, f: FloatFn, ...ins: Scalar[][]): Scalar[] {
  return ins[0]!.map((_, i) => roundFloat(d, f(...ins.map((a) => a[i] as number))));
}
/** Integer / pred op: computes in BigInt and wraps to the dtype. */
export function ewInt(d: DType, f: IntFn, ...ins: Scalar[][]): Scalar[] {
  return ins[0]!.map((_, i) => fromBig(d, f(d, ...ins.map((a) => toBig(a[i]!)))));
}

export function roundHalfEvenF(x: number): number {
  if (!Number.isFinite(x) || Math.abs(x) >= 2 ** 52) return x;
  const f = Math.floor(x);
  const d = x - f;
  let r = d > 0.5 ? f + 1 : d < 0.5 ? f : f % 2 === 0 ? f : f + 1;
  if (r === 0 && (x < 0 || Object.is(x, -0))) r = -0;
  return r;
}
export function roundAwayF(x: number): number {
  if (!Number.isFinite(x) || Math.abs(x) >= 2 ** 52) return x;
  const t = Math.trunc(x);
  let r = Math.abs(x - t) >= 0.5 ? t + Math.sign(x) : t;
  if (r === 0 && (x < 0 || Object.is(x, -0))) r = -0;
  return r;
}
/** C's pow (JS Math.pow differs: pow(1, NaN) and pow(±1, ±Inf) are 1 in C, NaN in JS). */
export function powC(x: number, y: number): number {
  if (x === 1 || y === 0) return 1;
  if (x === -1 && (y === Infinity || y === -Infinity)) return 1;
  return Math.pow(x, y);
}
export function signF(x: number): number {
  if (Number.isNaN(x) || x === 0) return x;
  return x > 0 ? 1 : -1;
}

// Integer semantics shared by XLA and the StableHLO interpreter.
export const intDiv: IntFn = (d, a, b) => {
  if (b === 0n) return -1n; // all bits set
  if (isSigned(d) && a === intMin(d) && b === -1n) return a;
  return a / b; // BigInt division truncates toward zero
};
export const intRem: IntFn = (d, a, b) => {
  if (b === 0n) return a;
  if (isSigned(d) && a === intMin(d) && b === -1n) return 0n;
  return a % b; // sign of the dividend
};
export const intPow: IntFn = (d, a, b) => {
  if (isSigned(d) && b < 0n) {
    if (a === 1n) return 1n;
    if (a === -1n) return b % 2n === 0n ? 1n : -1n;
    return 0n;
  }
  let r = 1n;
  let base = wrapBig(d, a);
  let e = b;
  while (e > 0n) {
    if (e & 1n) r = wrapBig(d, r * base);
    base = wrapBig(d, base * base);
    e >>= 1n;
  }
  return r;
};
const bitsOf = (d: DType) => BigInt(DTYPES[d].bits);
const unsignedBits = (d: DType, v: bigint) => BigInt.asUintN(DTYPES[d].bits, v);
export const shl: IntFn = (d, a, b) => (unsignedBits(d, b) >= bitsOf(d) ? 0n : a << unsignedBits(d, b));
export const shrLogical: IntFn = (d, a, b) =>
  unsignedBits(d, b) >= bitsOf(d) ? 0n : unsignedBits(d, a) >> unsignedBits(d, b);
export const shrArith: IntFn = (d, a, b) => {
  const s = BigInt.asIntN(DTYPES[d].bits, a); // arithmetic shift works on the bit pattern
  const n = unsignedBits(d, b);
  return n >= bitsOf(d) ? (s < 0n ? -1n : 0n) : s >> n;
};

/** Total order for floats: -NaN < -Inf < … < -0 < +0 < … < +Inf < +NaN (inputs hold positive NaNs). */
export function totalCmp(a: number, b: number): number {
  const an = Number.isNaN(a);
  const bn = Number.isNaN(b);
  if (an || bn) return an && bn ? 0 : an ? 1 : -1;
  if (a < b) return -1;
  if (a > b) return 1;
  if (a === 0 && b === 0) {
    const sa = Object.is(a, -0) ? -1 : 1;
    const sb = Object.is(b, -0) ? -1 : 1;
    return sa === sb ? 0 : sa < sb ? -1 : 1;
  }
  return 0;
}

export function compareScalar(d: DType, dir: string, type: string, a: Scalar, b: Scalar): boolean {
  if (isFloat(d) && type === "TOTALORDER") {
    const c = totalCmp(a as number, b as number);
    return { EQ: c === 0, NE: c !== 0, LT: c < 0, LE: c <= 0, GT: c > 0, GE: c >= 0 }[dir]!;
  }
  if (isFloat(d)) {
    const x = a as number;
    const y = b as number;
    return { EQ: x === y, NE: x !== y, LT: x < y, LE: x <= y, GT: x > y, GE: x >= y }[dir]!;
  }
  const x = toBig(a);
  const y = toBig(b);
  return { EQ: x === y, NE: x !== y, LT: x < y, LE: x <= y, GT: x > y, GE: x >= y }[dir]!;
}

// ---------------------------------------------------------------------------------------------
// Structural ops

export function broadcastInDim(x: TensorVal, outShape: number[], dims: number[]): Scalar[] {
  return mapIndex(outShape, (idx) => x.values[ravel(dims.map((d, i) => (x.shape[i] === 1 ? 0 : idx[d]!)), x.shape)]!);
}
export function transpose(x: TensorVal, perm: number[]): { shape: number[]; values: Scalar[] } {
  const shape = perm.map((p) => x.shape[p]!);
  const values = mapIndex(shape, (idx) => {
    const src = new Array(perm.length);
    perm.forEach((p, i) => (src[p] = idx[i]));
    return x.values[ravel(src, x.shape)]!;
  });
  return { shape, values };
}
export function slice(x: TensorVal, start: number[], limit: number[], stride: number[]) {
  const shape = start.map((s, i) => Math.ceil((limit[i]! - s) / stride[i]!));
  return { shape, values: mapIndex(shape, (idx) => x.values[ravel(idx.map((v, i) => start[i]! + v * stride[i]!), x.shape)]!) };
}
export const clampStart = (s: number, dim: number, size: number) => Math.min(Math.max(s, 0), dim - size);
export function dynamicSlice(x: TensorVal, starts: number[], sizes: number[]): Scalar[] {
  const st = starts.map((s, i) => clampStart(s, x.shape[i]!, sizes[i]!));
  return mapIndex(sizes, (idx) => x.values[ravel(idx.map((v, i) => st[i]! + v), x.shape)]!);
}
export function dynamicUpdateSlice(x: TensorVal, upd: TensorVal, starts: number[]): Scalar[] {
  const st = starts.map((s, i) => clampStart(s, x.shape[i]!, upd.shape[i]!));
  return mapIndex(x.shape, (idx) => {
    const rel = idx.map((v, i) => v - st[i]!);
    const inside = rel.every((r, i) => r >= 0 && r < upd.shape[i]!);
    return inside ? upd.values[ravel(rel, upd.shape)]! : x.values[ravel(idx, x.shape)]!;
  });
}
export function concatenate(xs: TensorVal[], dim: number) {
  const shape = [...xs[0]!.shape];
  shape[dim] = xs.reduce((a, x) => a + x.shape[dim]!, 0);
  const values = mapIndex(shape, (idx) => {
    let k = idx[dim]!;
    for (const x of xs) {
      if (k < x.shape[dim]!) {
        const j = [...idx];
        j[dim] = k;
        return x.values[ravel(j, x.shape)]!;
      }
      k -= x.shape[dim]!;
    }
    throw new Error("unreachable");
  });
  return { shape, values };
}
export function pad(x: TensorVal, padValue: Scalar, lo: number[], hi: number[], interior: number[]) {
  const shape = x.shape.map((n, i) => lo[i]! + hi[i]! + n + Math.max(n - 1, 0) * interior[i]!);
  const values = mapIndex(shape, (idx) => {
    const src: number[] = [];
    for (let i = 0; i < idx.length; i++) {
      const j = idx[i]! - lo[i]!;
      const step = interior[i]! + 1;
      if (j < 0 || j % step !== 0 || j / step >= x.shape[i]!) return padValue;
      src.push(j / step);
    }
    return x.values[ravel(src, x.shape)]!;
  });
  return { shape, values };
}
export function reverse(x: TensorVal, dims: number[]): Scalar[] {
  return mapIndex(x.shape, (idx) => x.values[ravel(idx.map((v, i) => (dims.includes(i) ? x.shape[i]! - 1 - v : v)), x.shape)]!);
}

export interface DotDims {
  lb: number[];
  rb: number[];
  lc: number[];
  rc: number[];
}
export function dotGeneralShape(ls: number[], rs: number[], dn: DotDims): number[] {
  const lfree = ls.map((_, i) => i).filter((i) => !dn.lb.includes(i) && !dn.lc.includes(i));
  const rfree = rs.map((_, i) => i).filter((i) => !dn.rb.includes(i) && !dn.rc.includes(i));
  return [...dn.lb.map((i) => ls[i]!), ...lfree.map((i) => ls[i]!), ...rfree.map((i) => rs[i]!)];
}
/** dot_general; returns exact sums for ints (wrapped) and float64 sums rounded once for floats,
 *  plus the sum of |terms| per output (for tolerances). */
export function dotGeneral(l: TensorVal, r: TensorVal, dn: DotDims, outType: DType) {
  const ls = l.shape;
  const rs = r.shape;
  const lfree = ls.map((_, i) => i).filter((i) => !dn.lb.includes(i) && !dn.lc.includes(i));
  const rfree = rs.map((_, i) => i).filter((i) => !dn.rb.includes(i) && !dn.rc.includes(i));
  const shape = dotGeneralShape(ls, rs, dn);
  const cshape = dn.lc.map((i) => ls[i]!);
  const nc = numElements(cshape);
  const absSums: number[] = [];
  const values = mapIndex(shape, (idx) => {
    const b = idx.slice(0, dn.lb.length);
    const lf = idx.slice(dn.lb.length, dn.lb.length + lfree.length);
    const rf = idx.slice(dn.lb.length + lfree.length);
    let fsum = 0;
    let asum = 0;
    let isum = 0n;
    for (let c = 0; c < nc; c++) {
      const ci = unravel(c, cshape);
      const li = new Array(ls.length);
      const ri = new Array(rs.length);
      dn.lb.forEach((d, k) => (li[d] = b[k]));
      dn.rb.forEach((d, k) => (ri[d] = b[k]));
      lfree.forEach((d, k) => (li[d] = lf[k]));
      rfree.forEach((d, k) => (ri[d] = rf[k]));
      dn.lc.forEach((d, k) => (li[d] = ci[k]));
      dn.rc.forEach((d, k) => (ri[d] = ci[k]));
      const a = l.values[ravel(li, ls)]!;
      const c2 = r.values[ravel(ri, rs)]!;
      if (isFloat(outType)) {
        fsum += (a as number) * (c2 as number);
        asum += Math.abs((a as number) * (c2 as number));
      } else isum += toBig(a) * toBig(c2);
    }
    absSums.push(asum);
    if (outType === "bool") return isum !== 0n ? 1 : 0; // pred dot: OR of ANDs
    return isFloat(outType) ? roundFloat(outType, fsum) : fromBig(outType, isum);
  });
  return { shape, values, absSums };
}

export type ReduceFn = "add" | "mul" | "max" | "min" | "and" | "or";
export function reduce(x: TensorVal, dims: number[], fn: ReduceFn, init: Scalar): TensorVal {
  const d = x.dtype;
  const shape = x.shape.filter((_, i) => !dims.includes(i));
  const acc: Scalar[] = new Array(numElements(shape)).fill(init);
  const n = numElements(x.shape);
  for (let i = 0; i < n; i++) {
    const idx = unravel(i, x.shape);
    const o = ravel(
      idx.filter((_, k) => !dims.includes(k)),
      shape,
    );
    acc[o] = combine(d, fn, acc[o]!, x.values[i]!);
  }
  return { dtype: d, shape, values: acc };
}
export function combine(d: DType, fn: ReduceFn, a: Scalar, b: Scalar): Scalar {
  if (isFloat(d)) {
    const x = a as number;
    const y = b as number;
    const r =
      fn === "add" ? x + y : fn === "mul" ? x * y : Number.isNaN(x) || Number.isNaN(y) ? NaN : fn === "max" ? Math.max(x, y) : Math.min(x, y);
    return roundFloat(d, r);
  }
  const x = toBig(a);
  const y = toBig(b);
  switch (fn) {
    case "add":
      return fromBig(d, x + y);
    case "mul":
      return fromBig(d, x * y);
    case "max":
    case "or":
      return fromBig(d, x > y ? x : y);
    case "min":
    case "and":
      return fromBig(d, x < y ? x : y);
  }
}

// ---------------------------------------------------------------------------------------------
// Comparison of results

function fmt(v: Scalar | undefined): string {
  if (v === undefined) return "undefined";
  if (typeof v === "bigint") return `${v}n`;
  if (Object.is(v, -0)) return "-0";
  return String(v);
}

/** Returns a list of human-readable mismatches (empty when `got` matches `want`). */
export function compareTensors(want: Expected, got: TensorVal, label = "", tolOverride?: Tol): string[] {
  const errs: string[] = [];
  const p = label ? `${label}: ` : "";
  if (got.dtype !== want.dtype) errs.push(`${p}dtype ${got.dtype}, expected ${want.dtype}`);
  if (JSON.stringify(got.shape) !== JSON.stringify(want.shape))
    errs.push(`${p}shape [${got.shape}], expected [${want.shape}]`);
  if (got.values.length !== want.values.length) {
    errs.push(`${p}${got.values.length} elements, expected ${want.values.length}`);
    return errs;
  }
  if (errs.length) return errs;
  const tol = tolOverride ?? want.tol ?? {};
  const d = want.dtype;
  for (let i = 0; i < want.values.length; i++) {
    const w = want.values[i]!;
    const g = got.values[i]!;
    let ok: boolean;
    if (isFloat(d)) {
      const x = w as number;
      const y = g as number;
      if (Number.isNaN(x) || Number.isNaN(y)) ok = Number.isNaN(x) && Number.isNaN(y);
      else if (!Number.isFinite(x) || !Number.isFinite(y)) ok = x === y;
      else {
        const allowed = Math.max((tol.ulp ?? 0) * ulpOf(d, x), tol.abs ?? 0, want.tolAbs?.[i] ?? 0);
        ok = Math.abs(x - y) <= allowed;
        if (ok && x === 0 && y === 0 && allowed === 0 && !tol.anyZeroSign) ok = Object.is(x, y);
      }
    } else ok = toBig(w) === toBig(g);
    if (!ok) {
      if (errs.length < 8) errs.push(`${p}[${unravel(i, want.shape).join(",")}] got ${fmt(g)}, expected ${fmt(w)}`);
      else if (errs.length === 8) errs.push(`${p}…more mismatches`);
    }
  }
  return errs;
}


// ---------------------------------------------------------------------------------------------
// gather and scatter, after the spec's index formulas

export interface GatherDims {
  offsetDims: number[];
  collapsedSliceDims: number[];
  operandBatchingDims: number[];
  startIndicesBatchingDims: number[];
  startIndexMap: number[];
  indexVectorDim: number;
  sliceSizes: number[];
}

/** The index vector of `idx` at batch position `batch` (idx's dimensions other than indexVectorDim). */
function indexVector(idx: TensorVal, ivd: number, batch: number[]): number[] {
  if (ivd >= idx.shape.length) return [Number(idx.values[ravel(batch, idx.shape)]!)];
  const out: number[] = [];
  for (let k = 0; k < idx.shape[ivd]!; k++) {
    const at = [...batch.slice(0, ivd), k, ...batch.slice(ivd)];
    out.push(Number(idx.values[ravel(at, idx.shape)]!));
  }
  return out;
}

export function gather(x: TensorVal, idx: TensorVal, g: GatherDims): TensorVal {
  const batchShape = idx.shape.filter((_, d) => d !== g.indexVectorDim);
  const kept = x.shape.map((_, d) => d).filter((d) => !g.collapsedSliceDims.includes(d) && !g.operandBatchingDims.includes(d));
  const rank = batchShape.length + g.offsetDims.length;
  const shape: number[] = [];
  for (let d = 0, b = 0, o = 0; d < rank; d++) shape.push(g.offsetDims.includes(d) ? g.sliceSizes[kept[o++]!]! : batchShape[b++]!);
  const values = mapIndex(shape, (ri) => {
    const batch = ri.filter((_, d) => !g.offsetDims.includes(d));
    const start = indexVector(idx, g.indexVectorDim, batch);
    const at = new Array(x.shape.length).fill(0);
    g.startIndexMap.forEach((d, k) => (at[d] += clampStart(start[k]!, x.shape[d]!, g.sliceSizes[d]!)));
    g.operandBatchingDims.forEach((d, k) => {
      const s = g.startIndicesBatchingDims[k]!;
      at[d] += batch[s < g.indexVectorDim ? s : s - 1]!;
    });
    g.offsetDims.forEach((d, k) => (at[kept[k]!] += ri[d]!));
    return x.values[ravel(at, x.shape)]!;
  });
  return { dtype: x.dtype, shape, values };
}

export interface ScatterDims {
  updateWindowDims: number[];
  insertedWindowDims: number[];
  inputBatchingDims: number[];
  scatterIndicesBatchingDims: number[];
  scatterDimsToOperandDims: number[];
  indexVectorDim: number;
}

/** scatter with `combine(old, update)`, updates in row-major order; a window that does not fit is skipped
 *  whole, as XLA does. */
export function scatter(x: TensorVal, idx: TensorVal, upd: TensorVal, s: ScatterDims, combine: (a: Scalar, b: Scalar) => Scalar): Scalar[] {
  const out = x.values.slice();
  const kept = x.shape.map((_, d) => d).filter((d) => !s.insertedWindowDims.includes(d) && !s.inputBatchingDims.includes(d));
  const windowShape = s.updateWindowDims.map((d) => upd.shape[d]!);
  const batchShape = upd.shape.filter((_, d) => !s.updateWindowDims.includes(d));
  for (let b = 0; b < numElements(batchShape); b++) {
    const batch = unravel(b, batchShape);
    const start = indexVector(idx, s.indexVectorDim, batch);
    const base = new Array(x.shape.length).fill(0);
    s.scatterDimsToOperandDims.forEach((d, k) => (base[d] += start[k]!));
    s.inputBatchingDims.forEach((d, k) => {
      const sd = s.scatterIndicesBatchingDims[k]!;
      base[d] += batch[sd < s.indexVectorDim ? sd : sd - 1]!;
    });
    const fits = windowShape.every((n, k) => base[kept[k]!]! >= 0 && base[kept[k]!]! + n <= x.shape[kept[k]!]!) &&
      base.every((v, d) => kept.includes(d) || (v >= 0 && v < x.shape[d]!));
    if (!fits) continue;
    for (let w = 0; w < numElements(windowShape); w++) {
      const wi = unravel(w, windowShape);
      const at = base.slice();
      wi.forEach((v, k) => (at[kept[k]!] += v));
      const ui: number[] = [];
      for (let d = 0, bi = 0, k = 0; d < upd.shape.length; d++) ui.push(s.updateWindowDims.includes(d) ? wi[k++]! : batch[bi++]!);
      const o = ravel(at, x.shape);
      out[o] = combine(out[o]!, upd.values[ravel(ui, upd.shape)]!);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// convolution (feature_group_count = batch_group_count = 1), after the spec's window formulas

export interface ConvDims {
  inBatch: number;
  inFeature: number;
  inSpatial: number[];
  kernelIn: number;
  kernelOut: number;
  kernelSpatial: number[];
  outBatch: number;
  outFeature: number;
  outSpatial: number[];
}
export interface ConvWindow {
  strides: number[];
  padLow: number[];
  padHigh: number[];
  lhsDilation: number[];
  rhsDilation: number[];
}

/** The convolution of lhs and rhs into `outType`, products summed exactly (floats in float64, rounded
 *  once; integers in BigInt, wrapped), as a result type wider than the operands' computes it. */
export function convolution(lhs: TensorVal, rhs: TensorVal, c: ConvDims, w: ConvWindow, outType: DType): TensorVal {
  const spatial = c.inSpatial.map((d, i) => {
    const size = lhs.shape[d]!;
    const dilated = size === 0 ? 0 : (size - 1) * w.lhsDilation[i]! + 1;
    const padded = dilated + w.padLow[i]! + w.padHigh[i]!;
    const window = (rhs.shape[c.kernelSpatial[i]!]! - 1) * w.rhsDilation[i]! + 1;
    return padded < window ? 0 : Math.floor((padded - window) / w.strides[i]!) + 1;
  });
  const shape = new Array(lhs.shape.length).fill(0);
  shape[c.outBatch] = lhs.shape[c.inBatch]!;
  shape[c.outFeature] = rhs.shape[c.kernelOut]!;
  c.outSpatial.forEach((d, i) => (shape[d] = spatial[i]!));
  const kernelShape = c.kernelSpatial.map((d) => rhs.shape[d]!);
  const values = mapIndex(shape, (oi) => {
    let fsum = 0;
    let isum = 0n;
    for (let ci = 0; ci < lhs.shape[c.inFeature]!; ci++) {
      for (let k = 0; k < numElements(kernelShape); k++) {
        const ki = unravel(k, kernelShape);
        const li = new Array(lhs.shape.length).fill(0);
        li[c.inBatch] = oi[c.outBatch]!;
        li[c.inFeature] = ci;
        let inside = true;
        c.inSpatial.forEach((d, i) => {
          const q = oi[c.outSpatial[i]!]! * w.strides[i]! + ki[i]! * w.rhsDilation[i]! - w.padLow[i]!;
          if (q < 0 || q % w.lhsDilation[i]! !== 0 || q / w.lhsDilation[i]! >= lhs.shape[d]!) inside = false;
          li[d] = q / w.lhsDilation[i]!;
        });
        if (!inside) continue;
        const ri = new Array(rhs.shape.length).fill(0);
        ri[c.kernelIn] = ci;
        ri[c.kernelOut] = oi[c.outFeature]!;
        c.kernelSpatial.forEach((d, i) => (ri[d] = ki[i]!));
        const a = lhs.values[ravel(li, lhs.shape)]!;
        const b = rhs.values[ravel(ri, rhs.shape)]!;
        if (isFloat(lhs.dtype)) fsum += Number(a) * Number(b);
        else isum += toBig(a) * toBig(b);
      }
    }
    if (isFloat(outType)) return roundFloat(outType, isFloat(lhs.dtype) ? fsum : Number(isum));
    return isFloat(lhs.dtype) ? convertScalar("float64", outType, fsum) : fromBig(outType, isum);
  });
  return { dtype: outType, shape, values };
}
