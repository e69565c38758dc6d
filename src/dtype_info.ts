/**
 * @file `torch.finfo` and `torch.iinfo`: the numerical limits of the floating and integer dtypes,
 * worked out from each format's bits (PyTorch's attribute names in camelCase).
 */
import { type DType, defaultFloatDType, dtypes } from "./dtype.js";
import { ArgumentError } from "./runtime/errors.js";

/** Significand bits stored (without the implicit one) and the largest exponent of each float format. */
export const floatFormats = {
  float16: { mantissaBits: 10, maxExponent: 15 },
  bfloat16: { mantissaBits: 7, maxExponent: 127 },
  float32: { mantissaBits: 23, maxExponent: 127 },
  float64: { mantissaBits: 52, maxExponent: 1023 },
} as const;

export type FloatDType = keyof typeof floatFormats;

export interface FloatInfo {
  readonly dtype: FloatDType;
  readonly bits: number;
  /** The gap between 1 and the next larger value. */
  readonly eps: number;
  /** The largest finite value. */
  readonly max: number;
  /** The lowest finite value (−max). */
  readonly min: number;
  /** The smallest positive normal value (the same as smallestNormal). */
  readonly tiny: number;
  readonly smallestNormal: number;
  /** 10^−(decimal digits of precision). */
  readonly resolution: number;
}

export interface IntInfo {
  readonly dtype: DType;
  readonly bits: number;
  /** bigint for the 64-bit dtypes, whose limits a JS number cannot hold exactly. */
  readonly min: number | bigint;
  readonly max: number | bigint;
}

/** The limits of a floating dtype (PyTorch's `torch.finfo`; float32 unless given). */
export function finfo(dtype: DType = defaultFloatDType): FloatInfo {
  const format = (floatFormats as Partial<Record<DType, { mantissaBits: number; maxExponent: number }>>)[dtype];
  if (format === undefined) throw new ArgumentError(`torch.finfo: ${String(dtype)} is not a floating dtype (${Object.keys(floatFormats).join(", ")}); use torch.iinfo for integer dtypes`);
  const { mantissaBits, maxExponent } = format;
  const max = (2 - 2 ** -mantissaBits) * 2 ** maxExponent;
  const tiny = 2 ** (1 - maxExponent);
  return { dtype: dtype as FloatDType, bits: dtypes[dtype].itemSize * 8, eps: 2 ** -mantissaBits, max, min: -max, tiny, smallestNormal: tiny, resolution: 10 ** -Math.floor(mantissaBits * Math.log10(2)) };
}

/** The limits of an integer dtype (PyTorch's `torch.iinfo`). */
export function iinfo(dtype: DType): IntInfo {
  const { kind, itemSize, bigint } = dtypes[dtype] ?? {};
  if (kind !== "int" && kind !== "uint") throw new ArgumentError(`torch.iinfo: ${String(dtype)} is not an integer dtype; use torch.finfo for floating dtypes`);
  const bits = itemSize! * 8;
  const [min, max] = kind === "int" ? [-(1n << BigInt(bits - 1)), (1n << BigInt(bits - 1)) - 1n] : [0n, (1n << BigInt(bits)) - 1n];
  return bigint ? { dtype, bits, min, max } : { dtype, bits, min: Number(min), max: Number(max) };
}
