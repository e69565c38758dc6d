/**
 * @file Tensor lifetimes: live-tensor counters per device, `tidy` scopes, and the
 * FinalizationRegistry safety net that frees buffers of tensors collected without dispose().
 *
 * Most tensors of eager code are disposed soon after they are made, so a small new tensor joins the
 * registry only at the next flush (a microtask, or every YOUNG_LIMIT tensors); one disposed before
 * then never touches the registry, which costs more than the rest of a small op.
 *
 * Scopes follow the async call chain (AsyncLocalStorage): a tensor belongs to the innermost tidy
 * whose `fn` — including everything it awaits — created it. Two async tidies that interleave on the
 * event loop therefore never take each other's tensors, and code outside any tidy that runs during
 * an await is not affected.
 */
import { flushPending } from "./trace/inline.js";
import { AsyncLocalStorage } from "node:async_hooks";
import { ArgumentError } from "./runtime/errors.js";
import type { BufferHandle, NativeBuffers } from "./runtime/native.js";

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

/** What the safety net needs to free an owner's buffer. The owner keeps it current. */
export interface Held {
  /** The addon functions that issued `buffer` (tests swap addons; a handle means nothing to another). */
  buffers: NativeBuffers;
  /** DISPOSED once the owner let it go. */
  buffer: BufferHandle;
  bytes: number;
  device: string;
  /** In the registry, its bytes reported to V8 (else owned by a tidy scope, young, or disposed unregistered). */
  registered: boolean;
}

export const DISPOSED = -1;
/** The buffer of a tensor that torch.compile's trace made: it has a value only in the traced graph. */
export const TRACED = -2;
/** The buffer of a tensor fused eager mode recorded: it gets its buffer when the recorded ops run. */
export const PENDING = -3;
/** Young tensors at most before a flush, and the size from which a tensor is registered at once. */
const YOUNG_LIMIT = 256;
const YOUNG_MAX_BYTES = 1 << 16;

interface Scope {
  /** What the scope disposes when it ends, with what the GC safety net would need once it escapes. */
  readonly owned: Map<Owned, Held>;
  readonly parent: Scope | undefined;
}

const perDevice = new Map<string, DeviceMemory>();
/** The scope of the running call chain. */
const currentScope = new AsyncLocalStorage<Scope>();
/** Scopes whose tidy has not ended yet (a disposed tensor leaves all of them). */
const liveScopes = new Set<Scope>();

// The device counted last, whose entry an eager loop's next tensor almost always needs again.
let lastDevice: string | undefined;
let lastEntry: DeviceMemory | undefined;

function count(device: string, tensors: number, bytes: number): void {
  let entry = device === lastDevice ? lastEntry : perDevice.get(device);
  if (!entry) perDevice.set(device, (entry = { numTensors: 0, numBytes: 0 }));
  lastDevice = device;
  lastEntry = entry;
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
    held.buffers.dispose(held.buffer);
  } catch {
    // nothing to report to at finalization time
  }
});

/** `scope`, or its nearest ancestor still running (work an ended tidy left behind goes to its caller's scope). */
function liveScope(scope: Scope | undefined): Scope | undefined {
  while (scope !== undefined && !liveScopes.has(scope)) scope = scope.parent;
  return scope;
}

// Fixed-size so that refilling them after each flush never regrows them.
const youngOwners: (Owned | undefined)[] = new Array<Owned | undefined>(YOUNG_LIMIT).fill(undefined);
const youngHeld: (Held | undefined)[] = new Array<Held | undefined>(YOUNG_LIMIT).fill(undefined);
let youngCount = 0;
let flushQueued = false;

/** Leaves the owner's buffer to the GC safety net, and its host bytes to V8's collection heuristics. */
function register(owner: Owned, held: Held): void {
  if (held.registered || held.buffer === DISPOSED) return;
  collected.register(owner, held, owner);
  held.registered = true;
  if (held.buffer >= 0) held.buffers.reportToGc(held.buffer);
}

/** Registers the young tensors still live. */
function flushYoung(): void {
  flushQueued = false;
  for (let i = 0; i < youngCount; i++) {
    register(youngOwners[i]!, youngHeld[i]!);
    youngOwners[i] = undefined;
    youngHeld[i] = undefined;
  }
  youngCount = 0;
}

/**
 * Starts accounting for a new tensor: counters, then the innermost tidy scope or else the GC safety
 * net. A scope holds its tensors until it disposes them, so a collection could never free one: they
 * join the safety net only if they outlive every scope.
 */
export function track(owner: Owned, held: Held): void {
  count(held.device, 1, held.bytes);
  const scope = liveScopes.size === 0 ? undefined : liveScope(currentScope.getStore());
  if (scope !== undefined) {
    scope.owned.set(owner, held);
    return;
  }
  if (held.bytes >= YOUNG_MAX_BYTES) return register(owner, held);
  youngOwners[youngCount] = owner;
  youngHeld[youngCount] = held;
  if (++youngCount === YOUNG_LIMIT) flushYoung();
  else if (!flushQueued) {
    flushQueued = true;
    queueMicrotask(flushYoung);
  }
}

/** Stops accounting for a tensor that was disposed (the owner has set `held.buffer` to DISPOSED). */
export function untrack(owner: Owned, held: Held): void {
  count(held.device, -1, -held.bytes);
  if (held.registered) {
    collected.unregister(owner);
    held.registered = false;
  }
  if (liveScopes.size !== 0) for (const scope of liveScopes) scope.owned.delete(owner);
}

/** The owner's buffer is being replaced by one of another size or device (Module.to converts in place). */
export function recount(held: Held, device: string, bytes: number): void {
  count(held.device, -1, -held.bytes);
  held.device = device;
  held.bytes = bytes;
  count(device, 1, bytes);
}

/** Live tensors and their bytes (dense host size), in total and per device. */
export function memory(): MemoryInfo {
  flushPending(); // fused eager mode: the counts after what it recorded has run
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

function isOwned(value: unknown, tracked: ReadonlyMap<Owned, Held>): value is Owned {
  return tracked.has(value as Owned);
}

/** Tensors reachable from `value` through arrays, Maps, Sets and plain objects. */
function reachable(value: unknown, tracked: ReadonlyMap<Owned, Held>, out: Set<Owned>, seen: Set<unknown>): void {
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
 * Runs `fn` and disposes every tensor created inside it, except those it returns (found through
 * arrays, objects, Maps and Sets), which move to the enclosing scope. When `fn` returns a promise
 * (an async function), tidy returns a promise too and cleans up once it settles; tensors created
 * anywhere in `fn`'s async call chain belong to this scope (see the file comment).
 */
export function tidy<T>(fn: () => Promise<T>): Promise<T>;
export function tidy<T>(fn: () => T): T;
export function tidy<T>(fn: () => T): T {
  if (typeof fn !== "function") throw new ArgumentError("tidy(fn): fn must be a function");
  const scope: Scope = { owned: new Map(), parent: currentScope.getStore() };
  liveScopes.add(scope);
  let result: T;
  try {
    result = currentScope.run(scope, fn);
  } catch (error) {
    endScope(scope, undefined);
    throw error;
  }
  if (!isPromiseLike(result)) {
    endScope(scope, result);
    return result;
  }
  return Promise.resolve(result).then(
    (value) => (endScope(scope, value), value),
    (error: unknown) => {
      endScope(scope, undefined);
      throw error;
    },
  ) as T;
}

/**
 * Disposes what the scope owns except what `result` reaches, which moves to the nearest live parent
 * (or, with none, to the GC safety net).
 */
function endScope(scope: Scope, result: unknown): void {
  const kept = new Set<Owned>();
  reachable(result, scope.owned, kept, new Set());
  liveScopes.delete(scope);
  const parent = liveScope(scope.parent);
  for (const [owner, held] of [...scope.owned]) {
    if (!kept.has(owner)) owner.dispose();
    else if (parent !== undefined) parent.owned.set(owner, held);
    else register(owner, held);
  }
}

/** Exempts `owner` from every enclosing tidy scope; the caller disposes it. */
export function keep<T extends Owned>(owner: T): T {
  let held: Held | undefined;
  for (const scope of liveScopes) {
    held ??= scope.owned.get(owner);
    scope.owned.delete(owner);
  }
  if (held !== undefined) register(owner, held);
  return owner;
}
