/**
 * @file The hook that records API ops into a graph instead of running each one: torch.compile's
 * trace of a function (src/compile/), or fused eager mode (fused.ts). API ops are then inlined into
 * the recorder's graph, and what would touch device buffers or the host (in-place writes,
 * gradients, disposal, reads; for a trace also uploads) is handed to it. With neither in use nothing
 * here is set, and eager code pays one check per op.
 */
import type { DType } from "../dtype.js";
import type { Tensor } from "../tensor.js";
import type { UnitInfo } from "./cache.js";
import type { Tracer } from "./tracer.js";

export interface Inliner {
  /** Fused eager mode (ops wait to run together; everything else behaves as in strict eager), rather than a torch.compile trace. */
  readonly fused: boolean;
  /** The unit's outputs as traced tensors of the function's graph, and the unit autograd records. */
  inline(op: string, statics: string, inputs: readonly Tensor[], body: (inputs: Tracer[]) => Tracer | readonly Tracer[], device: string): { unit: UnitInfo; outputs: Tensor[] };
  /** `target` takes `source`'s value (an in-place op or a rebind); `source` is a recorded tensor. */
  assign(target: Tensor, source: Tensor): void;
  /** The grad of `t`, a tensor from outside the recording, was read. */
  gradRead(t: Tensor, grad: Tensor | null): void;
  /** The grad of `t`, a tensor from outside the recording, is about to change from `old`; true when the recorder frees `old` itself. */
  gradWritten(t: Tensor, old: Tensor | null): boolean;
  /** A tensor from outside the recording was disposed while recording. */
  disposeLater(t: Tensor): void;
  /** A module's training flag was read (a guard of a trace). */
  readTraining(module: object, value: boolean): void;
  /**
   * A recorded tensor's values were asked for on the host (`item()`, `dataSync()`, printing…) or it
   * crosses devices: a trace cannot go on (throws); fused eager runs what it recorded, then returns.
   */
  hostRead(t: Tensor, what: string): void;
}

/** torch.compile's trace: host values become constants or per-call inputs of the function's graph. */
export interface TraceInliner extends Inliner {
  readonly fused: false;
  /** Host data uploaded while tracing (torch.tensor(data) in the function): a constant of the graph. */
  constant(storage: ArrayBufferView, dtype: DType, shape: readonly number[], device: string): Tensor;
  /**
   * A value the library takes from the host on every call (a random key, an optimizer's per-step
   * numbers): an input of the graph that `read` fills anew at each call. `undo` takes back the host
   * effect of one read (used when the trace is abandoned).
   */
  hostInput(read: () => ArrayBufferView, undo: () => void, dtype: DType, shape: readonly number[], device: string): Tensor;
}

let active: Inliner | undefined;

/** The inliner of the trace in progress, if any. */
export function inliner(): Inliner | undefined {
  return active;
}

/** Installs (or with undefined removes) the inliner; returns the previous one. */
export function setInliner(next: Inliner | undefined): Inliner | undefined {
  const previous = active;
  active = next;
  return previous;
}

/** The torch.compile trace in progress, if any (not fused eager mode). */
export function tracing(): TraceInliner | undefined {
  return active === undefined || active.fused ? undefined : (active as TraceInliner);
}

let pendingFlush: (() => void) | undefined;

/** Fused eager mode's flush, for tensors whose pending values are needed while its recorder is not installed (inside untraced). */
export function setPendingFlush(fn: (() => void) | undefined): void {
  pendingFlush = fn;
}

/** Runs what fused eager mode has recorded (a tensor waiting for it is being used). */
export function flushPending(): void {
  pendingFlush?.();
}

/** Runs `fn` eagerly even while a function is being traced (an optimizer creating its state). */
export function untraced<T>(fn: () => T): T {
  const previous = setInliner(undefined);
  try {
    return fn();
  } finally {
    setInliner(previous);
  }
}
