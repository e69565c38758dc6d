/**
 * @file The executable cache of eager dispatch: a bounded LRU keyed by unit signature, and its stats.
 *
 * A signature is a path of keys — op, statics, device, then one interned aval id per input — walked
 * from the root of the current float32 matmul precision and default float dtype through nested Maps, so a hit builds no
 * string and hashes only strings whose hash V8 has cached.
 * Recency is a use stamp, so a hit writes one number; eviction (only on insert) scans for the oldest.
 */
import { type Float32MatmulPrecision, getFloat32MatmulPrecision } from "../matmul_precision.js";
import { ArgumentError } from "../runtime/errors.js";
import type { NativeBuffers, NativeExecutable } from "../runtime/native.js";
import { type DType, defaultFloatDType } from "../dtype.js";
import type { Graph } from "./graph.js";

/** What autograd needs of a traced unit: its graph and outputs (an eager unit, or a compiled function's whole graph). */
export interface UnitInfo {
  /** Canonical device string the unit runs on. */
  readonly device: string;
  /** Output dtypes and (frozen) shapes, so wrapping outputs needs no native call. */
  readonly outputs: readonly { readonly dtype: DType; readonly shape: readonly number[] }[];
  /** The unit returned one tensor (not a list). */
  readonly single: boolean;
  /** The traced unit, which autograd differentiates (src/autograd/). */
  readonly graph: Graph;
  /** Autograd's plans for this unit's backward, by which inputs need gradients. */
  vjpPlans?: Map<string, readonly number[]>;
  /** Per input, whether a float output depends on it through float values (src/autograd/graph_vjp.ts). */
  reaching?: readonly boolean[];
  /** Per output, whether a gradient reaches it from the inputs that need one, by which inputs those are. */
  reached?: Map<string, readonly boolean[]>;
}

export interface CacheEntry extends UnitInfo {
  readonly native: NativeExecutable;
  /** The buffer functions its output handles belong to. */
  readonly buffers: NativeBuffers;
  /** Interned aval ids of the outputs (see avals.ts), handed to the output tensors. */
  readonly outputAvals: readonly number[];
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

/** One step of a signature path; `entry` is set where a full signature ends. */
export interface CacheNode {
  readonly parent: CacheNode | undefined;
  readonly key: unknown;
  next: Map<unknown, CacheNode> | undefined;
  entry: CacheEntry | undefined;
  used: number;
  /** On an op's node: the rest of the signature it was last called with, and where that path ends. */
  last?: LastSignature;
}

export interface LastSignature {
  readonly statics: string;
  readonly device: string;
  readonly avals: readonly number[];
  readonly leaf: CacheNode;
}

/**
 * One signature tree per float32 matmul precision (which every traced product depends on) and default
 * float dtype (which integer inputs of float ops become).
 */
const roots: Record<Float32MatmulPrecision, Partial<Record<DType, CacheNode>>> = { highest: {}, high: {}, medium: {} };
function newRoot(): CacheNode {
  return { parent: undefined, key: undefined, next: undefined, entry: undefined, used: 0 };
}
/** Nodes that hold an entry. */
const live = new Set<CacheNode>();
let clock = 0;
const counters = { hits: 0, misses: 0, compiles: 0, compileTimeMs: 0, evictions: 0 };
let capacity = Number(process.env.TORCH_PJRT_CACHE_SIZE) > 0 ? Math.floor(Number(process.env.TORCH_PJRT_CACHE_SIZE)) : 512;

/** The root of every signature path under the current float32 matmul precision and default float dtype. */
export const cacheRoot = (): CacheNode => (roots[getFloat32MatmulPrecision()][defaultFloatDType] ??= newRoot());

/** The child of `node` under `key`, or undefined. */
export function step(node: CacheNode | undefined, key: unknown): CacheNode | undefined {
  return node?.next?.get(key);
}

/** The child of `node` under `key`, created when missing. */
export function stepOrCreate(node: CacheNode, key: unknown): CacheNode {
  const next = (node.next ??= new Map());
  let child = next.get(key);
  if (child === undefined) next.set(key, (child = { parent: node, key, next: undefined, entry: undefined, used: 0 }));
  return child;
}

/** The entry at `node`, marked most recently used; counts a hit or a miss. */
export function lookup(node: CacheNode | undefined): CacheEntry | undefined {
  const entry = node?.entry;
  if (entry === undefined) {
    counters.misses++;
    return undefined;
  }
  counters.hits++;
  node!.used = ++clock;
  return entry;
}

export function insert(node: CacheNode, entry: CacheEntry, compileTimeMs: number): void {
  counters.compiles++;
  counters.compileTimeMs += compileTimeMs;
  node.entry?.native.dispose();
  node.entry = entry;
  node.used = ++clock;
  live.add(node);
  evictTo(capacity);
}

/** Drops the entry at `node` and the path nodes left empty. */
function remove(node: CacheNode): void {
  live.delete(node);
  node.entry = undefined;
  let n: CacheNode | undefined = node;
  while (n.parent !== undefined && n.entry === undefined && (n.next === undefined || n.next.size === 0)) {
    n.parent.next!.delete(n.key);
    n = n.parent;
  }
}

function evictTo(limit: number): void {
  while (live.size > limit) {
    let oldest: CacheNode | undefined;
    for (const node of live) if (oldest === undefined || node.used < oldest.used) oldest = node;
    const entry = oldest!.entry!;
    remove(oldest!);
    counters.evictions++;
    entry.native.dispose();
  }
}

/** torch.runtime.stats(): eager dispatch counters since start (or the last resetStats()). */
export function stats(): CacheStats {
  return { ...counters, size: live.size, capacity };
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
  for (const node of live) node.entry!.native.dispose();
  live.clear();
  for (const byDType of Object.values(roots)) for (const root of Object.values(byDType)) root.next = undefined;
}
