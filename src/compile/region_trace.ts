/**
 * @file The trace of one region of a control-flow op (a torch.cond branch, a whileLoop cond or body)
 * inside a torch.compile trace. API ops are inlined into the region's own graph; tensors from around
 * it (the enclosing trace's values, module parameters) become the region's inputs as they are read,
 * and the op that owns the region passes them in from the enclosing trace. Host values (constants,
 * random keys) belong to the enclosing trace and are read from there.
 */
import type { DType } from "../dtype.js";
import { ArgumentError } from "../runtime/errors.js";
import { type Tensor, tracedTensor } from "../tensor.js";
import type { UnitInfo } from "../trace/cache.js";
import { Graph } from "../trace/graph.js";
import type { TraceInliner } from "../trace/inline.js";
import { Tracer } from "../trace/tracer.js";
import { inlineGraph, unitKey, unitOf } from "../trace/units.js";

export class RegionTrace implements TraceInliner {
  readonly fused = false;
  readonly #graph = new Graph(true);
  /** The tensor behind each input of the graph, in order: the region's parameters, then what it read from around it. */
  readonly #inputs: Tensor[] = [];
  readonly #parameters = new Set<Tensor>();
  readonly #values = new Map<Tensor, Tracer>();

  /** `what` names the region in errors ("torch.cond's trueFn"). */
  constructor(
    readonly parent: TraceInliner,
    readonly what: string,
  ) {}

  /** A new traced tensor standing for a value the op hands the region (a whileLoop's carried value). */
  parameter(dtype: DType, shape: readonly number[], device: string): Tensor {
    const t = tracedTensor(device, dtype, shape);
    this.#parameters.add(t);
    this.#lift(t);
    return t;
  }

  /** The tensors from around the region that it read, in the order it first read them. */
  captured(): Tensor[] {
    return this.#inputs.filter((t) => !this.#parameters.has(t));
  }

  #lift(t: Tensor): Tracer {
    const v = new Tracer(this.#graph, this.#graph.addInput({ dtype: t.dtype, shape: t.shape }), t.shape, t.dtype);
    this.#inputs.push(t);
    this.#values.set(t, v);
    return v;
  }

  #valueOf(t: Tensor): Tracer {
    return this.#values.get(t) ?? this.#lift(t);
  }

  /**
   * The region as a closed graph: its inputs are `inputs` (every tensor the region read must be among
   * them), its outputs `results` (tensors of the region or from around it), then `passThrough` (inputs
   * returned as they are: a loop's captured values).
   */
  graphOf(inputs: readonly Tensor[], results: readonly Tensor[], passThrough: readonly Tensor[] = []): Graph {
    const resultIds = results.map((t) => this.#valueOf(t).id);
    this.#graph.outputs = resultIds;
    const own = this.#graph.pruned(); // inputs first, in #inputs' order
    const closed = new Graph();
    const inputIds = new Map(inputs.map((t) => [t, closed.addInput({ dtype: t.dtype, shape: t.shape })]));
    const ids = this.#inputs.map((t) => inputIds.get(t)!);
    for (const node of own.nodes) ids.push(...closed.addNode(node.prim, node.params, node.inputs.map((i) => ids[i]!), node.outputs));
    closed.outputs = [...own.outputs.map((o) => ids[o]!), ...passThrough.map((t) => inputIds.get(t)!)];
    return closed;
  }

  inline(op: string, statics: string, inputs: readonly Tensor[], body: (xs: Tracer[]) => Tracer | readonly Tracer[], device: string): { unit: UnitInfo; outputs: Tensor[] } {
    const unit = unitOf(unitKey(op, statics, inputs, device), inputs, body, device);
    const outs = inlineGraph(this.#graph, unit.graph, inputs.map((t) => this.#valueOf(t)));
    return {
      unit,
      outputs: outs.map((o) => {
        const t = tracedTensor(device, o.dtype, o.shape);
        this.#values.set(t, o);
        return t;
      }),
    };
  }

  constant(storage: ArrayBufferView, dtype: DType, shape: readonly number[], device: string): Tensor {
    return this.parent.constant(storage, dtype, shape, device);
  }

  hostInput(read: () => ArrayBufferView, undo: () => void, dtype: DType, shape: readonly number[], device: string): Tensor {
    return this.parent.hostInput(read, undo, dtype, shape, device);
  }

  assign(target: Tensor, source: Tensor): void {
    if (!this.#isOwn(target)) throw new ArgumentError(`${this.what} writes in place to a tensor from outside it; ${this.what.split("'")[0]} branches and bodies must not mutate their inputs (clone first)`);
    this.#values.set(target, this.#valueOf(source));
  }

  #isOwn(t: Tensor): boolean {
    return this.#values.has(t) && (this.#parameters.has(t) || !this.#inputs.includes(t));
  }

  gradRead(): void {
    throw new ArgumentError(`${this.what} reads a tensor's .grad; that is not supported inside torch.cond or torch.whileLoop`);
  }

  gradWritten(): boolean {
    throw new ArgumentError(`${this.what} writes a tensor's .grad; that is not supported inside torch.cond or torch.whileLoop`);
  }

  disposeLater(t: Tensor): void {
    if (!this.#isOwn(t)) this.parent.disposeLater(t);
  }

  readTraining(module: object, value: boolean): void {
    this.parent.readTraining(module, value);
  }

  hostRead(t: Tensor, what: string): void {
    this.parent.hostRead(t, what);
  }
}
