/**
 * @file The hook torch.compile (src/compile/) installs while it traces a function: API ops are then
 * inlined into the function's graph instead of run, and what would touch device buffers or the host
 * (uploads, in-place writes, gradients, disposal, reads) is handed to it. Outside a trace nothing
 * here is set, and eager code pays one check per op.
 */
import type { DType } from "../dtype.js";
import type { Tensor } from "../tensor.js";
import type { UnitInfo } from "./cache.js";
import type { Tracer } from "./tracer.js";

export interface Inliner {
  /** The unit's outputs as traced tensors of the function's graph, and the unit autograd records. */
  inline(op: string, statics: string, inputs: readonly Tensor[], body: (inputs: Tracer[]) => Tracer | readonly Tracer[], device: string): { unit: UnitInfo; outputs: Tensor[] };
  /** Host data uploaded while tracing (torch.tensor(data) in the function): a constant of the graph. */
  constant(storage: ArrayBufferView, dtype: DType, shape: readonly number[], device: string): Tensor;
  /**
   * A value the library takes from the host on every call (a random key, an optimizer's per-step
   * numbers): an input of the graph that `read` fills anew at each call. `undo` takes back the host
   * effect of one read (used when the trace is abandoned).
   */
  hostInput(read: () => ArrayBufferView, undo: () => void, dtype: DType, shape: readonly number[], device: string): Tensor;
  /** `target` takes `source`'s value (an in-place op or a rebind); `source` is a traced tensor. */
  assign(target: Tensor, source: Tensor): void;
  /** The grad of `t`, a tensor from outside the function, was read. */
  gradRead(t: Tensor, grad: Tensor | null): void;
  /** The grad of `t`, a tensor from outside the function, is about to change from `old`. */
  gradWritten(t: Tensor, old: Tensor | null): void;
  /** A tensor from outside the function was disposed while tracing: done after the first run instead. */
  disposeLater(t: Tensor): void;
  /** A module's training flag was read (a guard of the trace). */
  readTraining(module: object, value: boolean): void;
  /** A traced tensor's values were asked for on the host (`item()`, `dataSync()`, printing…): the trace cannot go on. */
  hostRead(t: Tensor, what: string): never;
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

/** Runs `fn` eagerly even while a function is being traced (an optimizer creating its state). */
export function untraced<T>(fn: () => T): T {
  const previous = setInliner(undefined);
  try {
    return fn();
  } finally {
    setInliner(previous);
  }
}
