// Test-side dtype facts and number helpers for the op table. Written independently of src/dtype.ts on
// purpose: the tests must not share the code they check.
//
// Values in the table are plain JS: `number` for floats and integers up to 32 bits (pred is 0/1),
// `bigint` for int64/uint64. Float values are always already rounded to their dtype.

export type DType =
  | "float32"
  | "float64"
  | "float16"
  | "bfloat16"
  | "int8"
  | "int16"
  | "int32"
  | "int64"
  | "uint8"
  | "uint16"
  | "uint32"
  | "uint64"
  | "bool";

export type Scalar = number | bigint;

export interface DInfo {
  name: DType;
  mlir: string;
  bytes: number;
  kind: "float" | "sint" | "uint" | "pred";
  bits: number;
  // floats: explicit mantissa bits, minimum normal exponent, maximum exponent
  mant?: number;
  emin?: number;
  emax?: number;
}

export const DTYPES: Record<DType, DInfo> = {
  float32: { name: "float32", mlir: "f32", bytes: 4, kind: "float", bits: 32, mant: 23, emin: -126, emax: 127 },
  float64: { name: "float64", mlir: "f64", bytes: 8, kind: "float", bits: 64, mant: 52, emin: -1022, emax: 1023 },
  float16: { name: "float16", mlir: "f16", bytes: 2, kind: "float", bits: 16, mant: 10, emin: -14, emax: 15 },
  bfloat16: { name: "bfloat16", mlir: "bf16", bytes: 2, kind: "float", bits: 16, mant: 7, emin: -126, emax: 127 },
  int8: { name: "int8", mlir: "i8", bytes: 1, kind: "sint", bits: 8 },
  int16: { name: "int16", mlir: "i16", bytes: 2, kind: "sint", bits: 16 },
  int32: { name: "int32", mlir: "i32", bytes: 4, kind: "sint", bits: 32 },
  int64: { name: "int64", mlir: "i64", bytes: 8, kind: "sint", bits: 64 },
  uint8: { name: "uint8", mlir: "ui8", bytes: 1, kind: "uint", bits: 8 },
  uint16: { name: "uint16", mlir: "ui16", bytes: 2, kind: "uint", bits: 16 },
  uint32: { name: "uint32", mlir: "ui32", bytes: 4, kind: "uint", bits: 32 },
  uint64: { name: "uint64", mlir: "ui64", bytes: 8, kind: "uint", bits: 64 },
  bool: { name: "bool", mlir: "i1", bytes: 1, kind: "pred", bits: 1 },
};

export const FLOATS: DType[] = ["float32", "float64", "float16", "bfloat16"];
export const SINTS: DType[] = ["int8", "int16", "int32", "int64"];
export const UINTS: DType[] = ["uint8", "uint16", "uint32", "uint64"];
export const INTS: DType[] = [...SINTS, ...UINTS];
export const NUMERIC: DType[] = [...FLOATS, ...INTS];
export const ALL: DType[] = [...NUMERIC, "bool"];

export const isFloat = (d: DType) => DTYPES[d].kind === "float";
export const isInt = (d: DType) => DTYPES[d].kind === "sint" || DTYPES[d].kind === "uint";
export const isSigned = (d: DType) => DTYPES[d].kind === "sint";
export const isUnsigned = (d: DType) => DTYPES[d].kind === "uint";
export const is64 = (d: DType) => isInt(d) && DTYPES[d].bits === 64;

// ---------------------------------------------------------------------------------------------
// Float rounding (round to nearest, ties to even), with subnormals and overflow to ±Inf.

const f64buf = new Float64Array(1);
const f64bits = new BigUint64Array(f64buf.buffer);
const f32buf = new Float32Array(1);
const u32buf = new Uint32Array(f32buf.buffer);

/** Unbiased binary exponent of a finite nonzero double (floor(log2|x|)), exact. */
export function exponentOf(x: number): number {
  f64buf[0] = x;
  const e = Number((f64bits[0] >> 52n) & 0x7ffn);
  if (e === 0) {
    // subnormal double
    return Math.floor(Math.log2(Math.abs(x)));
  }
  return e - 1023;
}

function roundHalfEven(r: number): number {
  const f = Math.floor(r);
  const d = r - f;
  if (d > 0.5) return f + 1;
  if (d < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}

/** Rounds a double to a binary float format with `mant` fraction bits and normal exponents [emin, emax]. */
export function roundToFormat(x: number, mant: number, emin: number, emax: number): number {
  if (Number.isNaN(x) || x === 0 || !Number.isFinite(x)) return x;
  const a = Math.abs(x);
  const e = Math.max(exponentOf(a), emin);
  const q = 2 ** (e - mant);
  const r = roundHalfEven(a / q) * q;
  const out = r >= 2 ** (emax + 1) ? Infinity : r;
  return x < 0 ? -out : out;
}

export const roundF32 = (x: number) => Math.fround(x);
export const roundF16 = (x: number) => roundToFormat(x, 10, -14, 15);
export const roundBF16 = (x: number) => roundToFormat(x, 7, -126, 127);

export function roundFloat(d: DType, x: number): number {
  switch (d) {
    case "float32":
      return Math.fround(x);
    case "float64":
      return x;
    case "float16":
      return roundF16(x);
    case "bfloat16":
      return roundBF16(x);
    default:
      throw new Error(`roundFloat: ${d} is not a float dtype`);
  }
}

export function maxFinite(d: DType): number {
  const i = DTYPES[d];
  return (2 - 2 ** -i.mant!) * 2 ** i.emax!;
}
export function minNormal(d: DType): number {
  return 2 ** DTYPES[d].emin!;
}
export function epsilon(d: DType): number {
  return 2 ** -DTYPES[d].mant!;
}
/** Distance between x and the next representable value away from zero (for finite x), subnormal-aware. */
export function ulpOf(d: DType, x: number): number {
  const i = DTYPES[d];
  if (!Number.isFinite(x) || x === 0) return 2 ** (i.emin! - i.mant!);
  return 2 ** (Math.max(exponentOf(Math.abs(x)), i.emin!) - i.mant!);
}

// ---------------------------------------------------------------------------------------------
// Integers: ranges and wrapping (two's complement), always through BigInt.

export function intMin(d: DType): bigint {
  const b = DTYPES[d].bits;
  return isSigned(d) ? -(1n << BigInt(b - 1)) : 0n;
}
export function intMax(d: DType): bigint {
  const b = DTYPES[d].bits;
  return isSigned(d) ? (1n << BigInt(b - 1)) - 1n : (1n << BigInt(b)) - 1n;
}
export function wrapBig(d: DType, v: bigint): bigint {
  const b = DTYPES[d].bits;
  return isSigned(d) ? BigInt.asIntN(b, v) : BigInt.asUintN(b, v);
}
/** Converts a bigint to the table's representation for an integer dtype (number unless 64-bit). */
export function fromBig(d: DType, v: bigint): Scalar {
  const w = wrapBig(d, v);
  return is64(d) ? w : Number(w);
}
export function toBig(v: Scalar): bigint {
  return typeof v === "bigint" ? v : BigInt(v);
}

// ---------------------------------------------------------------------------------------------
// Half-precision bit patterns.

export function f16Bits(x: number): number {
  if (Number.isNaN(x)) return 0x7e00;
  const s = x < 0 || Object.is(x, -0) ? 0x8000 : 0;
  const a = Math.abs(x);
  if (a === Infinity) return s | 0x7c00;
  if (a === 0) return s;
  const e = exponentOf(a);
  if (e < -14) return s | Math.round(a / 2 ** -24); // subnormal, a is already rounded
  const m = a / 2 ** (e - 10) - 1024;
  return s | ((e + 15) << 10) | m;
}
export function f16FromBits(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const m = h & 0x3ff;
  if (e === 0x1f) return m ? NaN : s * Infinity;
  if (e === 0) return s * m * 2 ** -24;
  return s * (1024 + m) * 2 ** (e - 25);
}
export function bf16Bits(x: number): number {
  if (Number.isNaN(x)) return 0x7fc0;
  f32buf[0] = x; // exact: bf16 values are f32 values
  return u32buf[0]! >>> 16;
}
export function bf16FromBits(h: number): number {
  u32buf[0] = (h & 0xffff) << 16;
  return f32buf[0]!;
}

// ---------------------------------------------------------------------------------------------
// Little-endian byte encoding (the oracle's wire format) and back.

export function encode(d: DType, values: Scalar[]): Uint8Array {
  const n = values.length;
  const buf = new ArrayBuffer(n * DTYPES[d].bytes);
  const dv = new DataView(buf);
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    switch (d) {
      case "float32":
        dv.setFloat32(i * 4, v as number, true);
        break;
      case "float64":
        dv.setFloat64(i * 8, v as number, true);
        break;
      case "float16":
        dv.setUint16(i * 2, f16Bits(v as number), true);
        break;
      case "bfloat16":
        dv.setUint16(i * 2, bf16Bits(v as number), true);
        break;
      case "int8":
        dv.setInt8(i, Number(v));
        break;
      case "uint8":
        dv.setUint8(i, Number(v));
        break;
      case "bool":
        dv.setUint8(i, v ? 1 : 0);
        break;
      case "int16":
        dv.setInt16(i * 2, Number(v), true);
        break;
      case "uint16":
        dv.setUint16(i * 2, Number(v), true);
        break;
      case "int32":
        dv.setInt32(i * 4, Number(v), true);
        break;
      case "uint32":
        dv.setUint32(i * 4, Number(v), true);
        break;
      case "int64":
        dv.setBigInt64(i * 8, toBig(v), true);
        break;
      case "uint64":
        dv.setBigUint64(i * 8, toBig(v), true);
        break;
    }
  }
  return new Uint8Array(buf);
}

export function decode(d: DType, bytes: Uint8Array): Scalar[] {
  const w = DTYPES[d].bytes;
  if (bytes.length % w !== 0) throw new Error(`decode ${d}: ${bytes.length} bytes is not a multiple of ${w}`);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = bytes.length / w;
  const out: Scalar[] = new Array(n);
  for (let i = 0; i < n; i++) {
    switch (d) {
      case "float32":
        out[i] = dv.getFloat32(i * 4, true);
        break;
      case "float64":
        out[i] = dv.getFloat64(i * 8, true);
        break;
      case "float16":
        out[i] = f16FromBits(dv.getUint16(i * 2, true));
        break;
      case "bfloat16":
        out[i] = bf16FromBits(dv.getUint16(i * 2, true));
        break;
      case "int8":
        out[i] = dv.getInt8(i);
        break;
      case "uint8":
      case "bool":
        out[i] = dv.getUint8(i);
        break;
      case "int16":
        out[i] = dv.getInt16(i * 2, true);
        break;
      case "uint16":
        out[i] = dv.getUint16(i * 2, true);
        break;
      case "int32":
        out[i] = dv.getInt32(i * 4, true);
        break;
      case "uint32":
        out[i] = dv.getUint32(i * 4, true);
        break;
      case "int64":
        out[i] = dv.getBigInt64(i * 8, true);
        break;
      case "uint64":
        out[i] = dv.getBigUint64(i * 8, true);
        break;
    }
  }
  return out;
}

export function numElements(shape: number[]): number {
  return shape.reduce((a, b) => a * b, 1);
}

/** Converts a TypedArray read back from a tensor into the table's representation. */
export function fromTyped(d: DType, arr: ArrayLike<number | bigint>): Scalar[] {
  const out: Scalar[] = new Array(arr.length);
  for (let i = 0; i < arr.length; i++) {
    const v = arr[i]!;
    if (d === "bool") out[i] = v ? 1 : 0;
    else if (is64(d)) out[i] = typeof v === "bigint" ? v : BigInt(v);
    else out[i] = Number(v);
  }
  return out;
}

/** The TypedArray used to hand table values to torch.tensor for a dtype (f16/bf16 go as exact float32). */
export function toTyped(d: DType, values: Scalar[]): ArrayBufferView {
  switch (d) {
    case "float32":
    case "float16":
    case "bfloat16":
      return Float32Array.from(values as number[]);
    case "float64":
      return Float64Array.from(values as number[]);
    case "int8":
      return Int8Array.from(values as number[]);
    case "int16":
      return Int16Array.from(values as number[]);
    case "int32":
      return Int32Array.from(values as number[]);
    case "int64":
      return BigInt64Array.from(values.map(toBig));
    case "uint8":
      return Uint8Array.from(values as number[]);
    case "bool":
      return Uint8Array.from((values as number[]).map((v) => (v ? 1 : 0)));
    case "uint16":
      return Uint16Array.from(values as number[]);
    case "uint32":
      return Uint32Array.from(values as number[]);
    case "uint64":
      return BigUint64Array.from(values.map(toBig));
  }
}
