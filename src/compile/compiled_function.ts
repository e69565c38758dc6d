/**
 * @file A compiled function: its traces by call signature, each one executable with the guards
 * that must hold to reuse it, running it (inputs gathered, outputs written back), recompiles with
 * their reasons, and the fall back to eager (a graph break, or too many signatures).
 */
import { isGradEnabled, noGrad } from "../autograd/grad_mode.js";
import { fromHost } from "../creation.js";
import { getDefaultDevice } from "../device.js";
import { ArgumentError, GraphBreakError } from "../runtime/errors.js";
import { gradSlot, isTraced, rebind, Tensor } from "../tensor.js";
import type { CacheEntry } from "../trace/cache.js";
import type { Graph } from "../trace/graph.js";
import { recordRun, runEntry } from "../trace/eager.js";
import { setInliner } from "../trace/inline.js";
import { compileGraphCached } from "./disk_cache.js";
import { Lowered } from "./lowered.js";
import { FunctionTrace, type Ref, type Seen, type Source } from "./function_trace.js";
import { type CallSignature, describeChange, signatureOf } from "./signature.js";
import { compilerConfig, globalStats, logRecompile, warnOnce } from "./stats.js";

/** Where a value of the results or of a write-back comes from: an output of the executable or one of its inputs. */
type OutSlot = { readonly out: number };
type Slot = OutSlot | { readonly input: number };

/** The function's result with its tensors replaced by where they come from. */
type Template =
  | { readonly slot: OutSlot }
  | { readonly copyOf: number; readonly grad: boolean } // a new tensor holding input copyOf's value (a clone), with a gradient or not
  | { readonly ref: Ref }
  | { readonly value: unknown }
  | { readonly array: readonly Template[] }
  | { readonly object: readonly (readonly [string, Template])[] };

interface Entry {
  readonly signature: CallSignature;
  readonly executable: CacheEntry | undefined;
  readonly sources: readonly Source[];
  readonly seen: readonly Seen[];
  readonly training: readonly (readonly [object, boolean])[];
  /** Whether each outside tensor whose grad the function read had one. */
  readonly gradReads: readonly { readonly ref: Ref; readonly hasGrad: boolean }[];
  readonly result: Template;
  readonly writes: readonly { readonly ref: Ref; readonly slot: Slot }[];
  readonly grads: readonly { readonly ref: Ref; readonly slot: Slot | null }[];
  /** The results carry autograd history (the function wrote no gradients itself). */
  readonly recordsGrad: boolean;
}

export interface CompileOptions {
  /** Throw on anything that cannot be traced instead of running that signature eagerly. */
  fullgraph?: boolean;
  /** Only false: every shape compiles its own executable. */
  dynamic?: boolean;
  /** PyTorch's modes are accepted; there is one way to compile here. */
  mode?: "default" | "reduce-overhead" | "max-autotune" | "max-autotune-no-cudagraphs";
  /** Run fn eagerly (torch.compile(fn, disable=True)). */
  disable?: boolean;
}

export interface CompiledStats {
  calls: number;
  hits: number;
  compiles: number;
  compileMs: number;
  /** Calls run eagerly (graph breaks, or past the cache size limit). */
  eagerCalls: number;
  /** Why each compile after the first happened. */
  recompileReasons: string[];
  /** What stopped tracing, per signature that runs eagerly. */
  graphBreaks: string[];
  /** Compiles whose executable was loaded from the persistent cache instead of compiled. */
  diskHits: number;
}

const sameRef = (a: Ref, b: Ref): boolean => ("arg" in a ? "arg" in b && a.arg === b.arg : "tensor" in b && a.tensor === b.tensor);

/**
 * The outputs that may take the memory of the input they replace: each outside tensor the function
 * read and wrote gets its new value in its old buffer (its old value is not needed after the run).
 * Not when autograd records the run for a backward outside the function (it may read the old
 * values), nor for an input whose value the results or another write take after the run.
 */
function donations(
  ft: FunctionTrace,
  result: Template,
  writes: readonly { ref: Ref; slot: Slot }[],
  grads: readonly { slot: Slot | null }[],
): { output: number; input: number }[] {
  const readAfter = new Set<number>();
  const visit = (tpl: Template): void => {
    if ("copyOf" in tpl) readAfter.add(tpl.copyOf);
    else if ("array" in tpl) tpl.array.forEach(visit);
    else if ("object" in tpl) for (const [, v] of tpl.object) visit(v);
  };
  visit(result);
  for (const { slot } of [...writes, ...grads]) if (slot !== null && "input" in slot) readAfter.add(slot.input);
  const aliases: { output: number; input: number }[] = [];
  for (const { ref, slot } of writes) {
    if (!("out" in slot) || aliases.some((a) => a.output === slot.out)) continue;
    const input = ft.sources.findIndex((s) => "ref" in s && sameRef(s.ref, ref));
    if (input >= 0 && !readAfter.has(input)) aliases.push({ output: slot.out, input });
  }
  return aliases;
}

const resolve = (ref: Ref, args: readonly Tensor[]): Tensor => ("arg" in ref ? args[ref.arg]! : ref.tensor);

const describe = (s: Seen): string => `${"arg" in s.ref ? `input tensor ${s.ref.arg}` : "a tensor it reads"} (${s.dtype}[${s.shape.join(", ")}])`;

export class CompiledFunction {
  readonly #entries: Entry[] = [];
  /** Signatures that run eagerly, with why. */
  readonly #eager = new Map<string, string>();
  readonly #stats: CompiledStats = { calls: 0, hits: 0, compiles: 0, compileMs: 0, eagerCalls: 0, recompileReasons: [], graphBreaks: [], diskHits: 0 };
  #generation = compilerConfig.generation;

  constructor(
    readonly fn: (...args: never[]) => unknown,
    readonly name: string,
    readonly options: CompileOptions,
  ) {}

  stats(): CompiledStats {
    return { ...this.#stats, recompileReasons: [...this.#stats.recompileReasons], graphBreaks: [...this.#stats.graphBreaks] };
  }

  call(args: unknown[]): unknown {
    if (this.#generation !== compilerConfig.generation) this.#reset();
    this.#countCall();
    const signature = signatureOf(this.name, args);
    if (this.#eager.has(signature.key)) return this.#runEagerly(args);
    let reason: string | undefined;
    for (const entry of this.#entries) {
      if (entry.signature.key !== signature.key) continue;
      const failed = this.#guardFailure(entry, signature.tensors);
      if (failed === undefined) {
        this.#stats.hits++;
        globalStats.hits++;
        return this.#run(entry, signature.tensors);
      }
      reason ??= failed;
    }
    const last = this.#entries.at(-1);
    if (last !== undefined) {
      reason ??= describeChange(last.signature, signature);
      if (this.#entries.length >= compilerConfig.cacheSizeLimit) {
        warnOnce(this, `torch.compile: \`${this.name}\` reached the cache size limit (${compilerConfig.cacheSizeLimit} signatures; torch.compiler.config.cacheSizeLimit); new signatures run eagerly. Last change: ${reason}`);
        this.#eager.set(signature.key, "cache size limit");
        return this.#runEagerly(args);
      }
      this.#stats.recompileReasons.push(reason);
      logRecompile(this.name, reason);
    }
    return this.#compileAndRun(args, signature);
  }

  /** fn itself, counted as a call and nothing else (torch.compile(fn, { disable: true })). */
  callDisabled(args: unknown[]): unknown {
    this.#countCall();
    return this.fn(...(args as never[]));
  }

  #countCall(): void {
    this.#stats.calls++;
    globalStats.calls++;
  }

  #reset(): void {
    this.#entries.length = 0;
    this.#eager.clear();
    this.#generation = compilerConfig.generation;
  }

  #runEagerly(args: unknown[]): unknown {
    this.#stats.eagerCalls++;
    globalStats.eagerCalls++;
    return this.fn(...(args as never[]));
  }

  #guardFailure(entry: Entry, args: readonly Tensor[]): string | undefined {
    for (const s of entry.seen) {
      const t = resolve(s.ref, args);
      if (t.isDisposed) return `${describe(s)} was disposed`;
      if (t.dtype !== s.dtype || t.device !== s.device || t.shape.length !== s.shape.length || t.shape.some((d, i) => d !== s.shape[i])) {
        return `${describe(s)} is now ${t.dtype}[${t.shape.join(", ")}] on ${t.device}`;
      }
      if (t.requiresGrad !== s.requiresGrad) return `${describe(s)} requiresGrad ${s.requiresGrad} → ${t.requiresGrad}`;
    }
    for (const { ref, hasGrad } of entry.gradReads) {
      if ((resolve(ref, args).grad !== null) !== hasGrad) return `the grad of ${describe(entry.seen.find((s) => s.ref === ref)!)} ${hasGrad ? "was set and is now null" : "was null and is now set"}`;
    }
    for (const [module, value] of entry.training) {
      if ((module as { training: boolean }).training !== value) return `${module.constructor.name}.training ${value} → ${!value}`;
    }
    return undefined;
  }

  #compileAndRun(args: unknown[], signature: CallSignature): unknown {
    const start = performance.now();
    const ft = new FunctionTrace(this.name, signature.tensors);
    let entry: Entry;
    try {
      entry = this.#trace(ft, args, signature);
    } catch (error) {
      for (const undo of ft.undos.reverse()) undo();
      if (!(error instanceof GraphBreakError) || this.options.fullgraph) throw error;
      warnOnce(this, `torch.compile: ${error.message}. This signature of \`${this.name}\` runs eagerly.`);
      this.#stats.graphBreaks.push(error.message);
      this.#eager.set(signature.key, error.message);
      return this.#runEagerly(args);
    }
    const ms = performance.now() - start;
    this.#stats.compiles++;
    this.#stats.compileMs += ms;
    globalStats.compiles++;
    globalStats.compileMs += ms;
    this.#entries.push(entry);
    try {
      return this.#run(entry, signature.tensors);
    } finally {
      for (const s of entry.sources) if ("read" in s) s.first = undefined;
      for (const t of ft.deferred) t.dispose();
    }
  }

  /** Traces fn on this call's arguments into one graph and compiles it (or loads it from the persistent cache). */
  #trace(ft: FunctionTrace, args: unknown[], signature: CallSignature): Entry {
    const { graph, device, ...entry } = this.#traceGraph(ft, args, signature);
    if (graph.outputs.length === 0) return { ...entry, executable: undefined };
    const { entry: executable, fromDisk } = compileGraphCached(`compiled ${this.name}`, graph, false, device);
    if (fromDisk) {
      this.#stats.diskHits++;
      globalStats.diskHits++;
    }
    return { ...entry, executable };
  }

  /**
   * The graph of fn on these arguments, as `torch.compile(fn).lower(...)` gives it, without running
   * or compiling anything: nothing outside the function changes.
   */
  lower(args: unknown[]): Lowered {
    const signature = signatureOf(this.name, args);
    const ft = new FunctionTrace(this.name, signature.tensors);
    try {
      const { graph } = this.#traceGraph(ft, args, signature);
      return new Lowered(this.name, graph);
    } finally {
      for (const undo of ft.undos.reverse()) undo();
    }
  }

  #traceGraph(ft: FunctionTrace, args: unknown[], signature: CallSignature): Omit<Entry, "executable"> & { graph: Graph; device: string } {
    const previous = setInliner(ft);
    let result: unknown;
    try {
      result = this.fn(...(args as never[]));
    } catch (error) {
      ft.restore();
      throw error;
    } finally {
      setInliner(previous);
    }
    try {
      if (result !== null && typeof result === "object" && typeof (result as { then?: unknown }).then === "function") {
        throw new ArgumentError(`torch.compile: \`${this.name}\` returned a Promise; compile a synchronous function (await outside it)`);
      }
      const outputIds: number[] = [];
      // results autograd may differentiate (no grads written, grad on): one made under noGrad carries no gradient
      const gradientResults = ft.grads.size === 0 && isGradEnabled();
      const slotOf = (t: Tensor, what: string): Slot => {
        if (t.isDisposed) throw new ArgumentError(`torch.compile: \`${this.name}\` ${what} a tensor it disposed`);
        const id = (gradientResults && what === "returned" ? ft.gradientValueOf(t) : ft.valueOf(t)).id;
        const input = ft.inputIds.indexOf(id);
        if (input >= 0) return { input };
        let out = outputIds.indexOf(id);
        if (out < 0) out = outputIds.push(id) - 1;
        return { out };
      };
      const build = (v: unknown): Template => {
        if (v instanceof Tensor) {
          const outside = ft.seen.get(v); // an argument or a tensor fn closes over, returned as itself
          if (outside !== undefined) return { ref: outside.ref };
          if (!isTraced(v) && ft.valueIfKnown(v) === undefined) return { ref: { tensor: v } };
          const slot = slotOf(v, "returned");
          return "input" in slot ? { copyOf: slot.input, grad: gradientResults && v.requiresGrad } : { slot };
        }
        if (Array.isArray(v)) return { array: v.map(build) };
        if (v !== null && typeof v === "object" && Object.getPrototypeOf(v) === Object.prototype) return { object: Object.entries(v).map(([k, x]) => [k, build(x)] as const) };
        return { value: v };
      };
      const template = build(result);
      const writes = [...ft.assigned].map((t) => ({ ref: ft.seen.get(t)!.ref, slot: slotOf(t, "wrote into") }));
      const grads = [...ft.grads.keys()].map((t) => ({ ref: ft.seen.get(t)!.ref, slot: t.grad === null ? null : slotOf(t.grad, "set as a grad") }));
      ft.graph.outputs = outputIds;
      const graph = ft.graph.pruned();
      const backwardOutside = ft.grads.size === 0 && ft.sources.some((s) => "ref" in s && resolve(s.ref, signature.tensors).requiresGrad);
      if (compilerConfig.donateBuffers && !backwardOutside) graph.aliases = donations(ft, template, writes, grads);
      return {
        graph,
        device: ft.device ?? signature.tensors[0]?.device ?? getDefaultDevice(),
        signature,
        sources: ft.sources,
        seen: [...ft.seen.values()],
        training: [...ft.training],
        gradReads: [...ft.gradReads].map(([t, hasGrad]) => ({ ref: ft.seen.get(t)!.ref, hasGrad })),
        result: template,
        writes,
        grads,
        recordsGrad: ft.grads.size === 0,
      };
    } finally {
      ft.restore();
    }
  }

  /** One run: inputs gathered, the executable run, results built, writes and grads put back. */
  #run(entry: Entry, args: readonly Tensor[]): unknown {
    const temporaries: Tensor[] = [];
    const inputs = entry.sources.map((s) => {
      if ("ref" in s) return resolve(s.ref, args);
      const data = s.first ?? s.read(); // read even when nothing uses it: reading advances the host state
      const t = entry.executable === undefined ? undefined : fromHost(data, s.dtype, s.shape, entry.executable.device);
      if (t !== undefined) temporaries.push(t);
      return t;
    }) as Tensor[];
    try {
      const outs = entry.executable === undefined ? [] : runEntry(`compiled ${this.name}`, entry.executable, inputs);
      if (entry.recordsGrad && entry.executable !== undefined) recordRun(`Compiled${this.name.charAt(0).toUpperCase()}${this.name.slice(1)}`, entry.executable, inputs, outs);
      const taken = new Set<number>();
      /** The tensor of a slot: an output (each one once; a clone when asked again) or a clone of an input. */
      const take = (slot: Slot): Tensor => {
        if ("input" in slot) return noGrad(() => inputs[slot.input]!.clone());
        const t = outs[slot.out]!;
        if (!taken.has(slot.out)) {
          taken.add(slot.out);
          return t;
        }
        return noGrad(() => t.clone());
      };
      // a value returned twice is the same tensor twice, as the function's own return was (and both carry its gradient)
      const returned = new Map<number, Tensor>();
      const rebuild = (tpl: Template): unknown => {
        if ("slot" in tpl) {
          const { out } = tpl.slot;
          if (!returned.has(out)) returned.set(out, take(tpl.slot));
          return returned.get(out);
        }
        if ("copyOf" in tpl) {
          const input = inputs[tpl.copyOf]!;
          return tpl.grad ? input.clone() : noGrad(() => input.clone());
        }
        if ("ref" in tpl) return resolve(tpl.ref, args);
        if ("array" in tpl) return tpl.array.map(rebuild);
        if ("object" in tpl) return Object.fromEntries(tpl.object.map(([k, v]) => [k, rebuild(v)]));
        return tpl.value;
      };
      const result = rebuild(entry.result);
      for (const { ref, slot } of entry.grads) {
        const t = resolve(ref, args);
        const old = t.grad;
        const grad = slot === null ? null : take(slot);
        if (grad !== null) gradSlot.setHistory(grad, null, 0);
        gradSlot.setGrad(t, grad);
        if (old !== null && old !== grad) old.dispose();
      }
      for (const { ref, slot } of entry.writes) {
        const target = resolve(ref, args);
        if ("input" in slot && inputs[slot.input] === target) continue;
        const value = take(slot);
        gradSlot.setHistory(value, null, 0);
        noGrad(() => rebind(target, value));
      }
      for (let k = 0; k < outs.length; k++) if (!taken.has(k)) outs[k]!.dispose();
      return result;
    } finally {
      for (const t of temporaries) t.dispose();
    }
  }
}
