/**
 * @file Threefry-2x32 with 20 rounds (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3",
 * SC 2011), the counter-based generator JAX uses, in two forms: on the host for key derivation and
 * as StableHLO integer primitives (uint32 wrapping add, xor, shifts) inside units, so one key gives
 * the same bits on every device. Bits follow JAX's partitionable scheme (`jax_threefry_partitionable`,
 * the default since JAX 0.5): element i of a draw is threefry(key, (hi(i), lo(i))), its two words
 * xor-ed for 32 bits or concatenated for 64.
 */
import type { DType } from "../dtype.js";
import * as e from "../ops/emit.js";
import { bind1, type Tracer } from "../trace/tracer.js";

type T = Tracer;
type Dims = readonly number[];
const none = {} as Record<string, never>;

/** Rotation amounts of the two alternating groups of four rounds. */
const ROTATIONS = [
  [13, 15, 26, 6],
  [17, 29, 16, 24],
] as const;
/** The key schedule's parity constant. */
const PARITY = 0x1bd11bda;

/** A key: two uint32 words, as JAX's raw threefry keys (`jax.random.key_data`). */
export type Key = readonly [number, number];

// --- host ------------------------------------------------------------------------------------------

const rotl = (x: number, r: number): number => ((x << r) | (x >>> (32 - r))) >>> 0;

/** threefry2x32(key, (x0, x1)) on the host. */
export function threefryHost(key: Key, x0: number, x1: number): [number, number] {
  const ks = [key[0] >>> 0, key[1] >>> 0, (key[0] ^ key[1] ^ PARITY) >>> 0];
  let a = (x0 + ks[0]!) >>> 0;
  let b = (x1 + ks[1]!) >>> 0;
  for (let group = 0; group < 5; group++) {
    for (const r of ROTATIONS[group % 2]!) {
      a = (a + b) >>> 0;
      b = rotl(b, r) ^ a;
    }
    a = (a + ks[(group + 1) % 3]!) >>> 0;
    b = (b + ks[(group + 2) % 3]! + group + 1) >>> 0;
  }
  return [a, b >>> 0];
}

/** jax.random.PRNGKey(seed) for a seed taken modulo 2^64: [high word, low word]. */
export function seedKey(seed: bigint): Key {
  const s = BigInt.asUintN(64, seed);
  return [Number(s >> 32n), Number(s & 0xffffffffn)];
}

/** jax.random.fold_in(key, data) for 0 ≤ data < 2^32. */
export function foldIn(key: Key, data: number): Key {
  return threefryHost(key, 0, data >>> 0);
}

/** jax.random.split(key, n)[i] (partitionable: threefry of the counter (0, i)). */
export function splitKey(key: Key, i: number): Key {
  return threefryHost(key, 0, i >>> 0);
}

// --- primitives ------------------------------------------------------------------------------------

/** A uint32 value for every element of `shape`: a 0-d constant broadcast, never a literal of the shape. */
const u32 = (v: number, shape: Dims): T => e.broadcastTo(e.full(v >>> 0, "uint32", []), shape);
const xor = (a: T, b: T): T => bind1("xor", [a, b], none);
const shl = (a: T, b: T): T => bind1("shl", [a, b], none);
const shr = (a: T, b: T): T => bind1("shr_logical", [a, b], none);

function rotlT(x: T, r: number): T {
  return e.or(shl(x, u32(r, x.shape)), shr(x, u32(32 - r, x.shape)));
}

/** threefry2x32 on uint32 tracers: key words `k0`, `k1` (0-d) and counters `x0`, `x1` (any one shape). */
export function threefry(k0: T, k1: T, x0: T, x1: T): [T, T] {
  const shape = x0.shape;
  const ks = [k0, k1, xor(xor(k0, k1), u32(PARITY, []))].map((k) => e.broadcastTo(k, shape));
  let a = e.add(x0, ks[0]!);
  let b = e.add(x1, ks[1]!);
  for (let group = 0; group < 5; group++) {
    for (const r of ROTATIONS[group % 2]!) {
      a = e.add(a, b);
      b = xor(rotlT(b, r), a);
    }
    a = e.add(a, ks[(group + 1) % 3]!);
    b = e.add(e.add(b, ks[(group + 2) % 3]!), u32(group + 1, shape));
  }
  return [a, b];
}

/** Word `i` (0 or 1) of a uint32[2] key tracer, as a 0-d tracer. */
export function keyWord(key: T, i: number): T {
  return e.reshape(bind1("slice", [key], { start: [i], limit: [i + 1], strides: [1] }), []);
}

/**
 * The two output words for every element of `shape`: threefry(key, (hi, lo)) of its flat index i, as
 * JAX's iota_2x32_shape splits it (hi = ⌊i / 2^32⌋, 0 below 2^32 elements). Stream s adds s·2^31 to
 * hi, a counter range no index reaches (hi < 2^21 for the 2^53 elements a tensor has at most).
 */
export function counterWords(key: T, shape: Dims, stream = 0): [T, T] {
  const n = shape.reduce((a, b) => a * b, 1);
  const offset = stream * 2 ** 31;
  if (n <= 2 ** 32) {
    const lo = e.reshape(e.iota("uint32", [n], 0), shape);
    return threefry(keyWord(key, 0), keyWord(key, 1), u32(offset, shape), lo);
  }
  const index = e.reshape(e.iota("uint64", [n], 0), shape);
  const u64 = (v: number): T => e.broadcastTo(e.full(v, "uint64", []), shape);
  const lo = e.convert(e.and(index, u64(0xffffffff)), "uint32");
  const hi = e.add(e.convert(shr(index, u64(32)), "uint32"), u32(offset, shape));
  return threefry(keyWord(key, 0), keyWord(key, 1), hi, lo);
}

/** jax.random.bits(key, shape, uint32). */
export function bits32(key: T, shape: Dims): T {
  const [a, b] = counterWords(key, shape);
  return xor(a, b);
}

/** jax.random.bits(key, shape, uint64) (x64): high word, then low word; `stream` picks another counter range. */
export function bits64(key: T, shape: Dims, stream = 0): T {
  const [a, b] = counterWords(key, shape, stream);
  const hi = shl(e.convert(a, "uint64"), e.broadcastTo(e.full(32, "uint64", []), shape));
  return e.or(hi, e.convert(b, "uint64"));
}

/** A derived key (uint32[2]) inside a unit: jax.random.split(key, n)[i]. */
export function splitKeyT(key: T, i: number): T {
  const [a, b] = threefry(keyWord(key, 0), keyWord(key, 1), u32(0, [1]), u32(i, [1]));
  return e.concatenate([a, b], 0);
}

/** The unsigned integer dtype of each float width, for building floats from random bits. */
export const unsignedOfWidth: Record<number, DType> = { 2: "uint16", 4: "uint32", 8: "uint64" };
