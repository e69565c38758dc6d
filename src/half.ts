/**
 * @file float16 and bfloat16 ⇄ float32 conversion (round to nearest, ties to even).
 * Values go through float32 first, as PyTorch's c10::Half / c10::BFloat16 constructors do.
 */

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** float32 bits of `x` (after rounding `x` to float32). */
function float32Bits(x: number): number {
  f32[0] = x;
  return u32[0]!;
}

/** IEEE binary16 bits of `x`. NaN becomes a quiet NaN with the same sign. */
export function toFloat16Bits(x: number): number {
  const bits = float32Bits(x);
  const sign = (bits >>> 16) & 0x8000;
  const exp = (bits >>> 23) & 0xff;
  const mant = bits & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant !== 0 ? 0x200 : 0);
  if (exp === 0) return sign; // float32 zero or subnormal: far below float16's smallest subnormal
  let e = exp - 127;
  if (e > 15) return sign | 0x7c00;
  const m = mant | 0x800000; // 24-bit significand
  const normal = e >= -14;
  const shift = normal ? 13 : 13 + (-14 - e);
  if (shift > 24) return sign;
  let q = m >>> shift;
  const rest = m & ((1 << shift) - 1);
  const half = 1 << (shift - 1);
  if (rest > half || (rest === half && (q & 1) === 1)) q += 1;
  if (!normal) return sign | q; // q === 0x400 is the smallest normal, which these bits spell
  if (q === 0x800) {
    q = 0x400;
    e += 1;
    if (e > 15) return sign | 0x7c00;
  }
  return sign | ((e + 15) << 10) | (q & 0x3ff);
}

/** The value of IEEE binary16 bits. */
export function fromFloat16Bits(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >>> 10) & 0x1f;
  const mant = h & 0x3ff;
  if (exp === 0) return sign * mant * 2 ** -24;
  if (exp === 0x1f) return mant !== 0 ? NaN : sign * Infinity;
  return sign * (0x400 + mant) * 2 ** (exp - 25);
}

/** bfloat16 bits of `x`. NaN becomes a quiet NaN with the same sign. */
export function toBFloat16Bits(x: number): number {
  const bits = float32Bits(x);
  if ((bits & 0x7f800000) === 0x7f800000 && (bits & 0x7fffff) !== 0) return ((bits >>> 16) & 0x8000) | 0x7fc0;
  const rounding = 0x7fff + ((bits >>> 16) & 1);
  return (bits + rounding) >>> 16;
}

/** The value of bfloat16 bits. */
export function fromBFloat16Bits(b: number): number {
  u32[0] = (b & 0xffff) << 16;
  return f32[0]!;
}

/** Raw bits → Float32Array of values. */
export function halfBitsToFloat32(bits: Uint16Array, format: "float16" | "bfloat16"): Float32Array {
  const out = new Float32Array(bits.length);
  if (format === "bfloat16") {
    new Uint32Array(out.buffer).set(bits); // widen, then shift into the high half
    const words = new Uint32Array(out.buffer);
    for (let i = 0; i < words.length; i++) words[i] = words[i]! << 16;
  } else {
    for (let i = 0; i < bits.length; i++) out[i] = fromFloat16Bits(bits[i]!);
  }
  return out;
}

/** Values → raw bits. */
export function float32ToHalfBits(values: ArrayLike<number>, format: "float16" | "bfloat16"): Uint16Array {
  const out = new Uint16Array(values.length);
  const convert = format === "bfloat16" ? toBFloat16Bits : toFloat16Bits;
  for (let i = 0; i < values.length; i++) out[i] = convert(values[i]!);
  return out;
}
