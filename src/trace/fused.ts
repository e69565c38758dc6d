/**
 * @file Fused eager mode (`torch.setEagerMode("fused")`, env TORCH_PJRT_EAGER=fused): API ops are
 * checked and recorded into a pending graph instead of run one by one; the graph is compiled and
 * run when a value is needed on the host, a tensor crosses devices, another device is used, or the
 * graph reaches its node limit. Graphs are cached (in eager dispatch's cache, torch.runtime.stats()
 * counts them) by the ops recorded, so a loop of identical steps compiles once. Everything else is eager: shape and dtype errors are thrown by the
 * op that causes them, tensors are disposed, tidied, written in place and differentiated as in
 * strict mode (one op, one executable; the default).
 */
import { checkDeviceHolds } from "../device.js";
import { ArgumentError } from "../runtime/errors.js";
import { resolveDevice } from "../runtime/clients.js";
import { disposeKeepingBuffer, fill, isPending, pendingTensor, type Tensor } from "../tensor.js";
import { type CacheEntry, cacheRoot, insert, lookup, step, stepOrCreate, type UnitInfo } from "./cache.js";
import { compileGraph, runEntry } from "./eager.js";
import { Graph } from "./graph.js";
import { type Inliner, inliner, setInliner, setPendingFlush, untraced } from "./inline.js";
import { Tracer } from "./tracer.js";
import { inlineGraph, unitKey, unitOf } from "./units.js";

export type EagerMode = "strict" | "fused";

export interface FusedOptions {
  /** Graph nodes fused eager records before it runs them (default 4096). */
  graphLimit?: number;
}

const OP = "fused eager";
let graphLimit = 4096;

class FusedRecorder implements Inliner {
  readonly fused = true;
  #graph = new Graph(true);
  #device: string | undefined;
  /** The tensors whose buffers are the graph's inputs, in order, with their value ids. */
  #inputs: Tensor[] = [];
  #inputIds: number[] = [];
  /** The graph value of every tensor it knows: inputs, pending tensors, tensors written in place. */
  #values = new Map<Tensor, Tracer>();
  #pending: Tensor[] = [];
  #assigned = new Set<Tensor>();
  /** Buffers of inputs the user disposed before the flush, freed after it. */
  #kept: Tensor[] = [];
  /** What was recorded, as the cache key of the graph: each unit's key and input ids. */
  #ops: string[] = [];
  /** The API ops recorded, each once: the executable's name in errors ("running fused eager (exp, sum) on cpu:0 failed"). */
  #opNames: string[] = [];
  #flushing = false;

  inline(op: string, statics: string, inputs: readonly Tensor[], body: (xs: Tracer[]) => Tracer | readonly Tracer[], device: string): { unit: UnitInfo; outputs: Tensor[] } {
    if (this.#device !== undefined && device !== this.#device) this.flush();
    const key = unitKey(op, statics, inputs, device);
    const unit = unitOf(key, inputs, body, device);
    for (const o of unit.outputs) checkDeviceHolds(op, o.dtype, device);
    this.#device = device;
    if (!this.#opNames.includes(op)) this.#opNames.push(op);
    const args = inputs.map((t) => this.#valueOf(t));
    this.#ops.push(`${key}\u0001${args.map((a) => a.id).join(",")}`);
    const buffers = resolveDevice(device).client.buffers;
    const outputs = inlineGraph(this.#graph, unit.graph, args).map((v) => {
      const t = pendingTensor(buffers, device, v.dtype, v.shape);
      this.#values.set(t, v);
      this.#pending.push(t);
      return t;
    });
    if (this.#graph.nodes.length >= graphLimit) this.flush();
    return { unit, outputs };
  }

  #valueOf(t: Tensor): Tracer {
    const known = this.#values.get(t);
    if (known !== undefined) return known;
    if (isPending(t)) this.flush(); // recorded before a switch of mode or device: run it first
    const id = this.#graph.addInput({ dtype: t.dtype, shape: t.shape });
    const v = new Tracer(this.#graph, id, t.shape, t.dtype);
    this.#inputs.push(t);
    this.#inputIds.push(id);
    this.#ops.push(`input ${t.dtype}[${t.shape.join(",")}]`);
    this.#values.set(t, v);
    return v;
  }

  assign(target: Tensor, source: Tensor): void {
    const value = this.#valueOf(source);
    this.#values.set(target, value);
    if (!isPending(target)) this.#assigned.add(target);
  }

  gradRead(): void {}

  gradWritten(): boolean {
    return false; // the old grad is disposed as in strict mode
  }

  disposeLater(t: Tensor): void {
    const input = this.#inputs.indexOf(t);
    this.#assigned.delete(t);
    this.#values.delete(t);
    if (input < 0) return untraced(() => t.dispose());
    const keeper = disposeKeepingBuffer(t);
    if (keeper === undefined) return; // autograd still holds t: it stays, and so does its buffer
    this.#inputs[input] = keeper;
    this.#kept.push(keeper);
  }

  readTraining(): void {}

  hostRead(): void {
    this.flush();
  }

  /** Compiles (or finds) and runs the recorded graph; every pending tensor gets its buffer. */
  flush(): void {
    if (this.#flushing || (this.#pending.length === 0 && this.#assigned.size === 0 && this.#kept.length === 0)) return;
    this.#flushing = true;
    const previous = setInliner(undefined);
    try {
      const targets = [...this.#pending.filter(isPending), ...this.#assigned];
      const ids = targets.map((t) => this.#values.get(t)!.id);
      const outputIds = [...new Set(ids.filter((id) => !this.#inputIds.includes(id)))];
      this.#graph.outputs = outputIds;
      const key = `${this.#device}\u0002${this.#ops.join("\u0002")}\u0003${outputIds.join(",")}`;
      let entry: CacheEntry | undefined;
      if (outputIds.length > 0) {
        entry = lookup(step(step(cacheRoot(), OP), key));
        if (entry === undefined) {
          const start = performance.now();
          const names = this.#opNames.length > 8 ? [...this.#opNames.slice(0, 8), "…"] : this.#opNames;
          entry = compileGraph(`${OP} (${names.join(", ")})`, this.#graph.pruned(), false, this.#device!);
          insert(stepOrCreate(stepOrCreate(cacheRoot(), OP), key), entry, performance.now() - start);
        }
      }
      const outs = entry === undefined ? [] : runEntry(OP, entry, this.#inputs);
      // every source first: a target written in place frees the buffer another target may copy
      const taken = new Set<number>();
      const sources = ids.map((id) => {
        const input = this.#inputIds.indexOf(id);
        if (input >= 0) return this.#inputs[input]!.clone();
        const k = outputIds.indexOf(id);
        if (taken.has(k)) return outs[k]!.clone();
        taken.add(k);
        return outs[k]!;
      });
      targets.forEach((t, i) => fill(t, sources[i]!));
    } finally {
      const kept = this.#kept;
      this.#reset();
      for (const t of kept) t.dispose();
      setInliner(previous);
      this.#flushing = false;
    }
  }

  #reset(): void {
    this.#graph = new Graph(true);
    this.#device = undefined;
    this.#inputs = [];
    this.#inputIds = [];
    this.#values = new Map();
    this.#pending = [];
    this.#assigned = new Set();
    this.#kept = [];
    this.#ops = [];
    this.#opNames = [];
  }
}

let recorder: FusedRecorder | undefined;

/** Runs every op fused eager mode has recorded (before a host read; torch.runtime.synchronize). */
export function flushFused(): void {
  recorder?.flush();
}

/** A tensor's pending value is needed where the recorder is not installed (inside untraced). */
setPendingFlush(flushFused);

/**
 * "fused": record eager ops and run them as one executable when a value is needed (TorchTPU's fused
 * eager); "strict" (the default): every op runs as soon as it is called. Switching runs what is pending.
 */
export function setEagerMode(mode: EagerMode, options: FusedOptions = {}): void {
  if (mode !== "strict" && mode !== "fused") throw new ArgumentError(`torch.setEagerMode: mode must be "strict" or "fused", got ${JSON.stringify(mode)}`);
  if (options === null || typeof options !== "object") throw new ArgumentError(`torch.setEagerMode: options must be an object, got ${String(options)}`);
  for (const key of Object.keys(options)) if (key !== "graphLimit") throw new ArgumentError(`torch.setEagerMode: got an unknown option "${key}"; the option is graphLimit`);
  const limit = options.graphLimit;
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) throw new ArgumentError(`torch.setEagerMode: graphLimit must be a positive integer, got ${String(limit)}`);
  if (limit !== undefined && mode === "strict") throw new ArgumentError('torch.setEagerMode: graphLimit applies to "fused" mode only');
  const current = inliner();
  if (current !== undefined && !current.fused) throw new ArgumentError("torch.setEagerMode: cannot switch modes inside a function torch.compile is tracing");
  if (mode === "fused") {
    graphLimit = limit ?? 4096;
    recorder ??= new FusedRecorder();
    setInliner(recorder);
    return;
  }
  if (recorder === undefined) return;
  setInliner(undefined);
  recorder.flush();
  recorder = undefined;
}

export function getEagerMode(): EagerMode {
  return recorder === undefined ? "strict" : "fused";
}

/** Runs `fn` in strict eager mode (what fused eager recorded runs first); torch.compile runs its executables so. */
export function strictly<T>(fn: () => T): T {
  if (recorder === undefined || inliner() !== recorder) return fn();
  recorder.flush();
  return untraced(fn);
}

const fromEnv = process.env.TORCH_PJRT_EAGER;
if (fromEnv !== undefined && fromEnv !== "") {
  if (fromEnv !== "strict" && fromEnv !== "fused") throw new ArgumentError(`TORCH_PJRT_EAGER must be "strict" or "fused", got ${JSON.stringify(fromEnv)}`);
  setEagerMode(fromEnv);
}
