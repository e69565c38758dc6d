/**
 * @file Tensor lifetimes: live-tensor counters per device, `tidy` scopes, and the
 * FinalizationRegistry safety net that frees buffers of tensors collected without dispose().
 */
import { ArgumentError } from "./runtime/errors.js";
import type { NativeBuffer } from "./runtime/native.js";

/** Anything that can be owned by a scope and disposed. */
export interface Owned {
  dispose(): void;
}

export interface DeviceMemory {
  numTensors: number;
  numBytes: number;
}

export interface MemoryInfo extends DeviceMemory {
  /** Per canonical device string ("cpu:0"). */
  devices: Record<string, DeviceMemory>;
}

interface Held {
  buffer: NativeBuffer;
  bytes: number;
  device: string;
}

const perDevice = new Map<string, DeviceMemory>();
const scopes: Array<Set<Owned>> = [];

function count(device: string, tensors: number, bytes: number): void {
  let entry = perDevice.get(device);
  if (!entry) perDevice.set(device, (entry = { numTensors: 0, numBytes: 0 }));
  entry.numTensors += tensors;
  entry.numBytes += bytes;
}

const collected = new FinalizationRegistry<Held>((held) => {
  if (process.env.TORCH_PJRT_DEBUG) {
    process.emitWarning(
      `a tensor of ${held.bytes} bytes on ${held.device} was garbage-collected without dispose(); ` +
        `free tensors with t.dispose(), torch.tidy() or \`using\``,
    );
  }
  count(held.device, -1, -held.bytes);
  try {
    held.buffer.dispose();
  } catch {
    // nothing to report to at finalization time
  }
});

/** Starts accounting for a new tensor: counters, the innermost tidy scope, the GC safety net. */
export function track(owner: Owned, buffer: NativeBuffer, bytes: number, device: string): void {
  count(device, 1, bytes);
  scopes.at(-1)?.add(owner);
  collected.register(owner, { buffer, bytes, device }, owner);
}

/** Points the GC safety net of a tracked tensor at the buffer an in-place op gave it. */
export function retrack(owner: Owned, buffer: NativeBuffer, bytes: number, device: string): void {
  collected.unregister(owner);
  collected.register(owner, { buffer, bytes, device }, owner);
}

/** Stops accounting for a tensor that was disposed. */
export function untrack(owner: Owned, bytes: number, device: string): void {
  count(device, -1, -bytes);
  collected.unregister(owner);
  for (const scope of scopes) scope.delete(owner);
}

/** Live tensors and their bytes (dense host size), in total and per device. */
export function memory(): MemoryInfo {
  const devices: Record<string, DeviceMemory> = {};
  let numTensors = 0;
  let numBytes = 0;
  for (const [device, entry] of [...perDevice].sort(([a], [b]) => a.localeCompare(b))) {
    if (entry.numTensors === 0 && entry.numBytes === 0) continue;
    devices[device] = { ...entry };
    numTensors += entry.numTensors;
    numBytes += entry.numBytes;
  }
  return { numTensors, numBytes, devices };
}

function isOwned(value: unknown, tracked: Set<Owned>): value is Owned {
  return tracked.has(value as Owned);
}

/** Tensors reachable from `value` through arrays, Maps, Sets and plain objects. */
function reachable(value: unknown, tracked: Set<Owned>, out: Set<Owned>, seen: Set<unknown>): void {
  if (value === null || typeof value !== "object" || seen.has(value)) return;
  seen.add(value);
  if (isOwned(value, tracked)) {
    out.add(value);
    return;
  }
  if (Array.isArray(value) || value instanceof Set) {
    for (const item of value) reachable(item, tracked, out, seen);
  } else if (value instanceof Map) {
    for (const [k, v] of value) {
      reachable(k, tracked, out, seen);
      reachable(v, tracked, out, seen);
    }
  } else if (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null) {
    for (const item of Object.values(value)) reachable(item, tracked, out, seen);
  }
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}

/**
 * Runs `fn` synchronously and disposes every tensor created inside it, except those it returns
 * (found through arrays, objects, Maps and Sets), which move to the enclosing scope.
 */
export function tidy<T>(fn: () => T): T {
  if (typeof fn !== "function") throw new ArgumentError("tidy(fn): fn must be a function");
  const scope = new Set<Owned>();
  scopes.push(scope);
  let result: T;
  try {
    result = fn();
  } catch (error) {
    endScope(scope, new Set());
    throw error;
  }
  if (isPromiseLike(result)) {
    endScope(scope, new Set());
    throw new ArgumentError("tidy(fn) is synchronous, but fn returned a Promise; dispose async results yourself");
  }
  const kept = new Set<Owned>();
  reachable(result, scope, kept, new Set());
  endScope(scope, kept);
  return result;
}

function endScope(scope: Set<Owned>, kept: Set<Owned>): void {
  const index = scopes.lastIndexOf(scope);
  if (index >= 0) scopes.splice(index, 1);
  const parent = scopes.at(-1);
  for (const owner of [...scope]) {
    if (kept.has(owner)) parent?.add(owner);
    else owner.dispose();
  }
}

/** Exempts `owner` from every enclosing tidy scope; the caller disposes it. */
export function keep<T extends Owned>(owner: T): T {
  for (const scope of scopes) scope.delete(owner);
  return owner;
}
