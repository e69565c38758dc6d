/**
 * @file The executable cache of eager dispatch: a bounded LRU keyed by unit signature, and its stats.
 */
import { ArgumentError } from "../runtime/errors.js";
import type { NativeExecutable } from "../runtime/native.js";
import type { DType } from "../dtype.js";

export interface CacheEntry {
  readonly native: NativeExecutable;
  /** Canonical device string the executable runs on. */
  readonly device: string;
  /** Output dtypes and (frozen) shapes, so wrapping outputs needs no native call. */
  readonly outputs: readonly { readonly dtype: DType; readonly shape: readonly number[] }[];
  /** The unit returned one tensor (not a list). */
  readonly single: boolean;
}

export interface CacheStats {
  hits: number;
  misses: number;
  compiles: number;
  /** Total time spent tracing, lowering and compiling on misses. */
  compileTimeMs: number;
  size: number;
  capacity: number;
  evictions: number;
}

const entries = new Map<string, CacheEntry>();
const counters = { hits: 0, misses: 0, compiles: 0, compileTimeMs: 0, evictions: 0 };
let capacity = Number(process.env.TORCH_PJRT_CACHE_SIZE) > 0 ? Math.floor(Number(process.env.TORCH_PJRT_CACHE_SIZE)) : 512;

/** The entry for `key`, marked most recently used; counts a hit or a miss. */
export function lookup(key: string): CacheEntry | undefined {
  const entry = entries.get(key);
  if (entry === undefined) {
    counters.misses++;
    return undefined;
  }
  counters.hits++;
  entries.delete(key);
  entries.set(key, entry);
  return entry;
}

export function insert(key: string, entry: CacheEntry, compileTimeMs: number): void {
  counters.compiles++;
  counters.compileTimeMs += compileTimeMs;
  entries.set(key, entry);
  evictTo(capacity);
}

function evictTo(limit: number): void {
  for (const [key, entry] of entries) {
    if (entries.size <= limit) break;
    entries.delete(key);
    counters.evictions++;
    entry.native.dispose();
  }
}

/** torch.runtime.stats(): eager dispatch counters since start (or the last resetStats()). */
export function stats(): CacheStats {
  return { ...counters, size: entries.size, capacity };
}

export function resetStats(): void {
  counters.hits = counters.misses = counters.compiles = counters.compileTimeMs = counters.evictions = 0;
}

/** Sets how many executables eager dispatch keeps (least recently used ones are freed first). */
export function setCacheCapacity(n: number): void {
  if (!Number.isInteger(n) || n < 1) throw new ArgumentError(`setCacheCapacity(n): n must be a positive integer, got ${n}`);
  capacity = n;
  evictTo(capacity);
}

/** Frees every cached executable. */
export function clearCache(): void {
  for (const entry of entries.values()) entry.native.dispose();
  entries.clear();
}
