/**
 * @file One trace of a function for torch.compile: the Inliner that eager dispatch hands every API
 * op to while the function runs on traced tensors. Ops are inlined into one open Graph; tensors from
 * outside the function (module parameters, optimizer state, gradients) become inputs when first
 * read; what the function writes to them (in-place ops, `.grad`) becomes outputs written back after
 * each run; the library's per-call host values (random keys, optimizer step numbers) become inputs
 * read anew at each call. Nothing outside the function changes while it is traced.
 */
import { hostBytesToData, gradSlot, isTraced, type Tensor, tracedTensor } from "../tensor.js";
import type { DType } from "../dtype.js";
import type { GradFn } from "../autograd/grad_fn.js";
import { isGradEnabled } from "../autograd/grad_mode.js";
import { detached } from "../ops/emit.js";
import { GraphBreakError } from "../runtime/errors.js";
import type { UnitInfo } from "../trace/cache.js";
import { Graph } from "../trace/graph.js";
import type { TraceInliner } from "../trace/inline.js";
import { Tracer } from "../trace/tracer.js";
import { inlineGraph, unitKey, unitOf } from "../trace/units.js";
import { userFrame } from "./user_frame.js";

export { clearUnits } from "../trace/units.js";

/** Where a tensor from outside the function is found at each call: an argument, or the same object. */
export type Ref = { readonly arg: number } | { readonly tensor: Tensor };

/** Where each input of the graph comes from at a call. */
export type Source = { readonly ref: Ref } | { readonly read: () => ArrayBufferView; readonly dtype: DType; readonly shape: readonly number[]; first: ArrayBufferView | undefined };

/** What a tensor from outside the function was when the trace first met it (a guard). */
export interface Seen {
  readonly ref: Ref;
  readonly dtype: DType;
  readonly shape: readonly number[];
  readonly device: string;
  readonly requiresGrad: boolean;
  readonly history: { gradFn: GradFn | null; outputIndex: number };
}

export class FunctionTrace implements TraceInliner {
  readonly fused = false;
  readonly graph = new Graph(true);
  readonly sources: Source[] = [];
  /** Outside tensors met, by object (the explicit arguments of this call included). */
  readonly seen = new Map<Tensor, Seen>();
  /** Outside tensors written in place, and the grads written (with the grad each had before). */
  readonly assigned = new Set<Tensor>();
  readonly grads = new Map<Tensor, Tensor | null>();
  readonly training = new Map<object, boolean>();
  /** Outside tensors whose grad the function read before writing it: whether they had one (a guard). */
  readonly gradReads = new Map<Tensor, boolean>();
  readonly undos: (() => void)[] = [];
  readonly deferred: Tensor[] = [];
  /** The value id of each graph input (sources' order). */
  readonly inputIds: number[] = [];
  /** The device every op ran on (the first op's). */
  device: string | undefined;
  readonly #values = new Map<Tensor, Tracer>();
  /**
   * Tensors made under noGrad (detach() among them): where one flows into an op run with grad on, or
   * is returned, the graph carries no gradient through it (emit.detached, made once per value), so that
   * a backward outside the compiled function differentiates what autograd recorded, as in PyTorch.
   */
  readonly #madeUnderNoGrad = new WeakSet<Tensor>();
  readonly #stopped = new Map<number, Tracer>();

  constructor(
    readonly name: string,
    args: readonly Tensor[],
  ) {
    args.forEach((t, i) => {
      if (this.#values.has(t)) return; // the same tensor passed twice is one input
      this.#lift(t, { arg: i });
    });
  }

  #lift(t: Tensor, ref: Ref): Tracer {
    const id = this.graph.addInput({ dtype: t.dtype, shape: t.shape });
    this.sources.push({ ref });
    this.inputIds.push(id);
    this.#see(t, ref);
    const v = new Tracer(this.graph, id, t.shape, t.dtype);
    this.#values.set(t, v);
    return v;
  }

  #see(t: Tensor, ref: Ref): void {
    if (this.seen.has(t)) return;
    const { gradFn, outputIndex } = gradSlot.get(t);
    this.seen.set(t, { ref, dtype: t.dtype, shape: t.shape, device: t.device, requiresGrad: t.requiresGrad, history: { gradFn, outputIndex } });
  }

  /** The graph value of a tensor: traced here, or an outside tensor (lifted as an input when first read). */
  valueOf(t: Tensor): Tracer {
    const v = this.#values.get(t);
    if (v !== undefined) return v;
    if (isTraced(t)) throw this.#break(t, "use a tensor that another torch.compile trace made");
    return this.#lift(t, { tensor: t });
  }

  #traced(tracer: Tracer, device: string): Tensor {
    const t = tracedTensor(device, tracer.dtype, tracer.shape);
    this.#values.set(t, tracer);
    return t;
  }

  inline(op: string, statics: string, inputs: readonly Tensor[], body: (xs: Tracer[]) => Tracer | readonly Tracer[], device: string): { unit: UnitInfo; outputs: Tensor[] } {
    this.#onDevice(device);
    const unit = unitOf(unitKey(op, statics, inputs, device), inputs, body, device);
    const grad = isGradEnabled();
    const values = inputs.map((t) => (grad ? this.gradientValueOf(t) : this.valueOf(t)));
    const outputs = inlineGraph(this.graph, unit.graph, values).map((o) => this.#traced(o, device));
    if (!grad) for (const t of outputs) this.#madeUnderNoGrad.add(t);
    return { unit, outputs };
  }

  /** valueOf(t), through emit.detached when t was made under noGrad. */
  gradientValueOf(t: Tensor): Tracer {
    const v = this.valueOf(t);
    if (!this.#madeUnderNoGrad.has(t)) return v;
    let stopped = this.#stopped.get(v.id);
    if (stopped === undefined) this.#stopped.set(v.id, (stopped = detached(v)));
    return stopped;
  }

  constant(storage: ArrayBufferView, dtype: DType, shape: readonly number[], device: string): Tensor {
    this.#onDevice(device);
    const bytes = storage.buffer.slice(storage.byteOffset, storage.byteOffset + storage.byteLength) as ArrayBuffer;
    const value = Array.from(hostBytesToData(bytes, dtype, "torch.compile") as ArrayLike<number | bigint>);
    const [id] = this.graph.addNode("constant", { value, dtype, shape }, [], [{ dtype, shape }]);
    return this.#traced(new Tracer(this.graph, id!, shape, dtype), device);
  }

  hostInput(read: () => ArrayBufferView, undo: () => void, dtype: DType, shape: readonly number[], device: string): Tensor {
    const first = read();
    this.undos.push(undo);
    this.#onDevice(device);
    const id = this.graph.addInput({ dtype, shape });
    this.sources.push({ read, dtype, shape, first });
    this.inputIds.push(id);
    return this.#traced(new Tracer(this.graph, id, shape, dtype), device);
  }

  assign(target: Tensor, source: Tensor): void {
    const value = this.valueOf(source);
    if (!isTraced(target)) {
      this.#see(target, this.#refOf(target));
      this.assigned.add(target);
    }
    this.#values.set(target, value);
  }

  gradRead(t: Tensor, grad: Tensor | null): void {
    if (this.grads.has(t) || this.gradReads.has(t)) return;
    this.#see(t, this.#refOf(t));
    this.gradReads.set(t, grad !== null);
  }

  gradWritten(t: Tensor, old: Tensor | null): boolean {
    this.#see(t, this.#refOf(t));
    if (!this.grads.has(t)) this.grads.set(t, old);
    return true; // the old grad is put back if the trace is abandoned, else freed after the first run
  }

  disposeLater(t: Tensor): void {
    this.deferred.push(t);
  }

  readTraining(module: object, value: boolean): void {
    if (!this.training.has(module)) this.training.set(module, value);
  }

  hostRead(t: Tensor, what: string): never {
    throw this.#break(t, what === "read" ? "read a tensor's values on the host (item(), tolist(), data(), printing)" : what === "use" ? "move a tensor between devices" : what);
  }

  #break(t: Tensor, what: string): GraphBreakError {
    const frame = userFrame();
    return new GraphBreakError(
      `torch.compile: \`${this.name}\` cannot be traced into one graph: it tried to ${what} (on a tensor of ${t.dtype}[${t.shape.join(", ")}])${frame === undefined ? "" : ` at ${frame}`}. ` +
        "Compute on tensors instead (torch.where for data-dependent choices), or move the host read out of the compiled function",
      what,
      frame,
    );
  }

  #onDevice(device: string): void {
    this.device ??= device;
    if (device !== this.device) {
      throw new GraphBreakError(`torch.compile: \`${this.name}\` runs ops on ${this.device} and on ${device}; one compiled function runs on one device`, "use two devices", userFrame());
    }
  }

  #refOf(t: Tensor): Ref {
    return this.seen.get(t)?.ref ?? { tensor: t };
  }

  /** The final graph value of an outside tensor the function wrote, or of a traced result. */
  valueIfKnown(t: Tensor): Tracer | undefined {
    return this.#values.get(t);
  }

  /** Puts back what the trace changed on outside tensors (their grads and autograd history). */
  restore(): void {
    for (const [t, old] of this.grads) gradSlot.setGrad(t, old);
    for (const t of this.assigned) {
      const { gradFn, outputIndex } = this.seen.get(t)!.history;
      gradSlot.setHistory(t, gradFn, outputIndex);
    }
  }
}
