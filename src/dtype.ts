/**
 * @file The dtype table: the one place that knows each dtype's name, item size, host TypedArray,
 * StableHLO spelling and PJRT_Buffer_Type code. Everything else looks facts up here.
 */
import { z } from "zod";
import { DTypeError } from "./runtime/errors.js";

/** Every dtype name, in the order PyTorch lists them. */
export const dtypeNames = [
  "float32",
  "float64",
  "float16",
  "bfloat16",
  "int8",
  "int16",
  "int32",
  "int64",
  "uint8",
  "uint16",
  "uint32",
  "uint64",
  "bool",
] as const;

export type DType = (typeof dtypeNames)[number];

/** The category of a dtype; PyTorch's promotion (bool < integer < floating) will build on it. */
export type DTypeKind = "bool" | "int" | "uint" | "float";

/** The TypedArray a dtype's values are stored in on the host (float16/bfloat16: raw bits). */
export type StorageArray =
  | Float32Array
  | Float64Array
  | Int8Array
  | Int16Array
  | Int32Array
  | BigInt64Array
  | Uint8Array
  | Uint16Array
  | Uint32Array
  | BigUint64Array;

/** What `t.data()` returns per dtype: the storage array, except float16/bfloat16 → Float32Array. */
export interface DataArrayMap {
  float32: Float32Array;
  float64: Float64Array;
  float16: Float32Array;
  bfloat16: Float32Array;
  int8: Int8Array;
  int16: Int16Array;
  int32: Int32Array;
  int64: BigInt64Array;
  uint8: Uint8Array;
  uint16: Uint16Array;
  uint32: Uint32Array;
  uint64: BigUint64Array;
  bool: Uint8Array;
}

export type DataArray<D extends DType = DType> = DataArrayMap[D];

interface StorageConstructor<A extends StorageArray = StorageArray> {
  new (length: number): A;
  new (buffer: ArrayBufferLike, byteOffset?: number, length?: number): A;
  readonly BYTES_PER_ELEMENT: number;
}

export interface DTypeInfo {
  readonly name: DType;
  readonly kind: DTypeKind;
  readonly itemSize: number;
  /** Host storage; float16/bfloat16 hold raw bits in a Uint16Array. */
  readonly storage: StorageConstructor;
  /** Element type in StableHLO text (`tensor<2x3xf32>`). */
  readonly stablehlo: string;
  /** PJRT_Buffer_Type enum value. */
  readonly pjrt: number;
  /** Values are bigint (int64, uint64). */
  readonly bigint: boolean;
}

const row = (
  name: DType,
  kind: DTypeKind,
  storage: StorageConstructor,
  stablehlo: string,
  pjrt: number,
): DTypeInfo => ({
  name,
  kind,
  itemSize: storage.BYTES_PER_ELEMENT,
  storage,
  stablehlo,
  pjrt,
  bigint: storage === BigInt64Array || storage === BigUint64Array,
});

/** THE table. */
export const dtypes: { readonly [D in DType]: DTypeInfo } = {
  float32: row("float32", "float", Float32Array, "f32", 11),
  float64: row("float64", "float", Float64Array, "f64", 12),
  float16: row("float16", "float", Uint16Array, "f16", 10),
  bfloat16: row("bfloat16", "float", Uint16Array, "bf16", 13),
  int8: row("int8", "int", Int8Array, "i8", 2),
  int16: row("int16", "int", Int16Array, "i16", 3),
  int32: row("int32", "int", Int32Array, "i32", 4),
  int64: row("int64", "int", BigInt64Array, "i64", 5),
  uint8: row("uint8", "uint", Uint8Array, "ui8", 6),
  uint16: row("uint16", "uint", Uint16Array, "ui16", 7),
  uint32: row("uint32", "uint", Uint32Array, "ui32", 8),
  uint64: row("uint64", "uint", BigUint64Array, "ui64", 9),
  bool: row("bool", "bool", Uint8Array, "i1", 1),
};

/**
 * PyTorch's default float dtype: what a JS float, a float factory without `dtype` and an integer
 * input of a float op become (float32 unless torch.setDefaultDtype changed it).
 */
export let defaultFloatDType: DType = "float32";

/**
 * torch.set_default_dtype: the float dtype of `torch.tensor([1.5])`, `torch.zeros([2])`, `rand`, and of
 * float results of integer inputs (`x.sqrt()`, true division). Ops traced afterwards compile anew.
 */
export function setDefaultDtype(dtype: DType): void {
  if (!isDType(dtype) || !isFloating(dtype)) {
    throw new DTypeError(`setDefaultDtype: only a floating-point dtype can be the default (float16, bfloat16, float32 or float64), got ${String(dtype)}`);
  }
  defaultFloatDType = dtype;
}

/** torch.get_default_dtype: float32 unless setDefaultDtype changed it. */
export function getDefaultDtype(): DType {
  return defaultFloatDType;
}

/**
 * The dtype work on `dtype` is computed and accumulated in (PyTorch's "opmath"): float32 for float16
 * and bfloat16, the dtype itself otherwise. src/ops/accumulate.ts writes it into programs.
 */
export const opmath = (dtype: DType): DType => (dtype === "float16" || dtype === "bfloat16" ? "float32" : dtype);
export const defaultIntDType: DType = "int64";

export const dtypeSchema = z.enum(dtypeNames);

const byPjrt = new Map<number, DTypeInfo>(Object.values(dtypes).map((d) => [d.pjrt, d]));

export function isDType(name: unknown): name is DType {
  return typeof name === "string" && Object.hasOwn(dtypes, name);
}

/** The table row for `name`; a DTypeError naming the valid dtypes otherwise. */
export function dtypeInfo(name: string): DTypeInfo {
  if (!isDType(name)) {
    throw new DTypeError(`unknown dtype '${name}'; expected one of: ${dtypeNames.join(", ")}`);
  }
  return dtypes[name];
}

/** The dtype of a PJRT_Buffer_Type code (for buffers that come back from a plugin). */
export function dtypeFromPjrt(code: number): DType {
  const info = byPjrt.get(code);
  if (!info) {
    throw new DTypeError(`PJRT buffer type ${code} has no torch-pjrt dtype (supported: ${dtypeNames.join(", ")})`);
  }
  return info.name;
}

export function isFloating(dtype: DType): boolean {
  return dtypes[dtype].kind === "float";
}

/** The dtype whose host storage is this TypedArray, or undefined. Uint8ClampedArray counts as uint8. */
export function dtypeOfTypedArray(array: ArrayBufferView): DType | undefined {
  if (array instanceof Float32Array) return "float32";
  if (array instanceof Float64Array) return "float64";
  if (array instanceof Int8Array) return "int8";
  if (array instanceof Int16Array) return "int16";
  if (array instanceof Int32Array) return "int32";
  if (array instanceof BigInt64Array) return "int64";
  if (array instanceof Uint8Array || array instanceof Uint8ClampedArray) return "uint8";
  if (array instanceof Uint16Array) return "uint16";
  if (array instanceof Uint32Array) return "uint32";
  if (array instanceof BigUint64Array) return "uint64";
  const float16 = (globalThis as { Float16Array?: abstract new (...args: never[]) => unknown }).Float16Array;
  if (float16 && array instanceof float16) return "float16";
  return undefined;
}

// --- PyTorch type promotion ------------------------------------------------------------------------

const rank: Record<DTypeKind, number> = { bool: 0, uint: 1, int: 1, float: 2 };
/** The unsigned dtypes PyTorch only promotes with themselves and bool ("shell" dtypes). */
const shellUnsigned = new Set<DType>(["uint16", "uint32", "uint64"]);

/** torch.promote_types(a, b): the smallest dtype both convert to without losing their category. */
export function promoteTypes(a: DType, b: DType): DType {
  if (a === b) return a;
  if (a === "bool") return b;
  if (b === "bool") return a;
  if (shellUnsigned.has(a) || shellUnsigned.has(b)) {
    throw new DTypeError(`type promotion of ${a} with ${b} is not supported (as in PyTorch); convert one of them with .to(dtype) first`);
  }
  const ka = dtypes[a].kind;
  const kb = dtypes[b].kind;
  if (ka === "float" && kb === "float") {
    if (dtypes[a].itemSize === 2 && dtypes[b].itemSize === 2) return "float32"; // float16 with bfloat16
    return dtypes[a].itemSize >= dtypes[b].itemSize ? a : b;
  }
  if (ka === "float") return a;
  if (kb === "float") return b;
  // Integers: uint8 with a signed type needs the next wider signed type.
  if (a === "uint8" || b === "uint8") {
    const other = a === "uint8" ? b : a;
    return other === "int8" ? "int16" : other;
  }
  return dtypes[a].itemSize >= dtypes[b].itemSize ? a : b;
}

/** One operand of torch.result_type: a tensor's dtype and rank, or a JS number/boolean (a "Python scalar"). */
export type PromotionOperand = { dtype: DType; ndim: number } | number | boolean | bigint;

/** The dtype a JS scalar has on its own: bool, int64 for integers and bigints, float32 otherwise. */
export function scalarDType(value: number | boolean | bigint): DType {
  if (typeof value === "boolean") return "bool";
  if (typeof value === "bigint" || Number.isInteger(value)) return defaultIntDType;
  return defaultFloatDType;
}

/**
 * torch.result_type over tensors and scalars. Dimensioned tensors decide, unless a 0-d tensor or a
 * scalar is of a higher category (bool < integer < float); within a category only the dimensioned
 * tensors' widths count, so int32 tensor + 5 → int32, float16 tensor + 2.5 → float16,
 * int64 tensor + 2.5 → float32, int32 tensor + float64 0-d tensor → float64.
 */
export function resultType(...operands: PromotionOperand[]): DType {
  let dim: DType | undefined;
  let zero: DType | undefined;
  let scalar: DType | undefined;
  const join = (acc: DType | undefined, d: DType): DType => (acc === undefined ? d : promoteTypes(acc, d));
  for (const o of operands) {
    if (typeof o === "object") {
      if (o.ndim > 0) dim = join(dim, o.dtype);
      else zero = join(zero, o.dtype);
    } else {
      scalar = join(scalar, scalarDType(o));
    }
  }
  return combineCategories(dim, combineCategories(zero, scalar)) ?? defaultFloatDType;
}

function combineCategories(higher: DType | undefined, lower: DType | undefined): DType | undefined {
  if (higher === undefined) return lower;
  if (lower === undefined) return higher;
  if (rank[dtypes[higher].kind] >= rank[dtypes[lower].kind] && higher !== "bool") return higher;
  return promoteTypes(higher, lower);
}
