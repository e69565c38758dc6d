/**
 * @file Distributions as unit bodies over a uint32[2] key tracer (see threefry.ts): uniform floats
 * exactly as jax.random.uniform builds them, standard normals by Box–Muller, and integers in a
 * range exactly as jax.random.randint.
 */
import { type DType, dtypes } from "../dtype.js";
import { type FloatDType, floatFormats } from "../dtype_info.js";
import * as e from "../ops/emit.js";
import { bind1, type Tracer } from "../trace/tracer.js";
import { bits32, bits64, counterWords, splitKeyT, unsignedOfWidth } from "./threefry.js";

type T = Tracer;
type Dims = readonly number[];
const none = {} as Record<string, never>;

/** `v` for every element of `shape`: a 0-d constant broadcast (as in threefry.ts), never a literal of the shape. */
const c = (v: number | bigint, dtype: DType, shape: Dims): T => e.broadcastTo(e.full(v, dtype, []), shape);
const shr = (a: T, b: T): T => bind1("shr_logical", [a, b], none);
const bitcast = (a: T, dtype: DType): T => bind1("bitcast_convert", [a], { dtype });

/** Mantissa bits of each float dtype (numpy's finfo.nmant). */
const mantissaBits = (dtype: DType): number => floatFormats[dtype as FloatDType].mantissaBits;

/** Uniform floats in [0, 1) from `width` random bits (held in the float's width): 1.m with random m, minus 1. */
export function floatsFromBits(bits: T, dtype: DType, width = dtypes[dtype].itemSize * 8): T {
  const unsigned = unsignedOfWidth[dtypes[dtype].itemSize]!;
  const one = dtype === "float64" ? 0x3ff0000000000000n : dtype === "float32" ? 0x3f800000 : dtype === "float16" ? 0x3c00 : 0x3f80;
  const shifted = shr(bits, c(width - mantissaBits(dtype), unsigned, bits.shape));
  const mantissa = e.or(shifted, c(one, unsigned, bits.shape));
  return e.sub(bitcast(mantissa, dtype), c(1, dtype, bits.shape));
}

/**
 * The random bits jax.random.uniform uses for `dtype`: as wide as the float, except that floats with
 * fewer than 8 mantissa bits (bfloat16) use 8 random bits; narrower draws keep the low bits of 32.
 */
function bitsFor(key: T, shape: Dims, dtype: DType): { bits: T; width: number } {
  const size = dtypes[dtype].itemSize;
  if (size === 8) return { bits: bits64(key, shape), width: 64 };
  const b = bits32(key, shape);
  if (size === 4) return { bits: b, width: 32 };
  const unsigned = unsignedOfWidth[size]!;
  if (mantissaBits(dtype) < 8) return { bits: e.convert(e.convert(b, "uint8"), unsigned), width: 8 };
  return { bits: e.convert(b, unsigned), width: 16 };
}

/** jax.random.uniform(key, shape, dtype, low, high): floats in [low, high). */
export function uniform(key: T, shape: Dims, dtype: DType, low = 0, high = 1): T {
  const { bits, width } = bitsFor(key, shape, dtype);
  const u = floatsFromBits(bits, dtype, width);
  if (low === 0 && high === 1) return e.max(c(0, dtype, shape), u);
  return e.max(c(low, dtype, shape), e.add(e.mul(u, c(high - low, dtype, shape)), c(low, dtype, shape)));
}

/**
 * Standard normals by Box–Muller: z = √(−2 ln(1 − u₁)) · cos(2π u₂) with two independent uniforms
 * (the two threefry words of each element; two counter streams for float64). 16-bit floats are
 * computed in float32.
 */
export function standardNormal(key: T, shape: Dims, dtype: DType): T {
  let u1: T;
  let u2: T;
  const compute: DType = dtype === "float64" ? "float64" : "float32";
  if (compute === "float64") {
    u1 = floatsFromBits(bits64(key, shape, 0), "float64");
    u2 = floatsFromBits(bits64(key, shape, 1), "float64");
  } else {
    const [a, b] = counterWords(key, shape);
    u1 = floatsFromBits(a, "float32");
    u2 = floatsFromBits(b, "float32");
  }
  const radius = e.sqrt(e.mul(c(-2, compute, shape), e.log(e.sub(c(1, compute, shape), u1))));
  const z = e.mul(radius, e.cos(e.mul(c(2 * Math.PI, compute, shape), u2)));
  return e.convert(z, dtype);
}

/**
 * jax.random.randint(key, shape, low, high, dtype) for low < high: two independent bit draws
 * (split(key)[0] for the high part, [1] for the low part) reduced modulo the span. 64-bit dtypes
 * use 64-bit bits (JAX with x64); every other dtype uses 32 bits and converts.
 */
export function randint(key: T, shape: Dims, low: bigint, high: bigint, dtype: DType): T {
  const wide = dtypes[dtype].itemSize === 8;
  const unsigned: DType = wide ? "uint64" : "uint32";
  const signed: DType = wide ? "int64" : "int32";
  const draw = (k: T): T => (wide ? bits64(k, shape) : bits32(k, shape));
  const higher = draw(splitKeyT(key, 0));
  const lower = draw(splitKeyT(key, 1));
  const spanValue = BigInt.asUintN(wide ? 64 : 32, high - low);
  const asConst = (v: bigint): number | bigint => (wide ? v : Number(v));
  const span = c(asConst(spanValue), unsigned, shape);
  const half = 1n << (wide ? 32n : 16n);
  const m = half % spanValue;
  // JAX squares in the unsigned dtype, so the product wraps (for spans above 2^16, or 2^32 when wide).
  const multiplier = c(asConst(BigInt.asUintN(wide ? 64 : 32, m * m) % spanValue), unsigned, shape);
  let offset = e.add(e.mul(e.rem(higher, span), multiplier), e.rem(lower, span));
  offset = e.rem(offset, span);
  const start = c(asConst(BigInt.asIntN(wide ? 64 : 32, low)), signed, shape);
  return e.convert(e.add(start, bitcast(offset, signed)), dtype);
}
