/**
 * @file Tracing: a Tracer stands for a value of the Graph being built; `bind` applies a primitive
 * to tracers (its shape rule gives the outputs) and records the node. `trace` runs a function on
 * tracers for given input avals and returns the Graph (without nodes its outputs do not use).
 */
import { type DType } from "../dtype.js";
import { type Aval, type Prim, type PrimParams, prims } from "../ops/prims.js";
import { Graph } from "./graph.js";

export class Tracer implements Aval {
  constructor(
    readonly graph: Graph,
    readonly id: number,
    readonly shape: readonly number[],
    readonly dtype: DType,
  ) {}

  get ndim(): number {
    return this.shape.length;
  }

  numel(): number {
    let n = 1;
    for (const d of this.shape) n *= d;
    return n;
  }
}

const active: Graph[] = [];

/** The graph being traced; primitives without inputs (constant, iota) are added to it. */
export function currentGraph(): Graph {
  const graph = active.at(-1);
  if (!graph) throw new Error("a primitive was bound outside of a trace");
  return graph;
}

/** Applies a primitive to tracers of the current graph and returns its outputs. */
export function bind<P extends Prim>(prim: P, inputs: readonly Tracer[], params: PrimParams[P]): Tracer[] {
  const def = prims[prim] as unknown as { arity: number | null; infer: (ins: readonly Aval[], p: PrimParams[P]) => Aval[] };
  const graph = inputs[0]?.graph ?? currentGraph();
  if (def.arity !== null && def.arity !== inputs.length) throw new Error(`${prim}: expects ${def.arity} inputs, got ${inputs.length}`);
  for (const t of inputs) if (t.graph !== graph) throw new Error(`${prim}: inputs come from different traces`);
  const outputs = def.infer(inputs, params);
  const ids = graph.addNode(prim, params, inputs.map((t) => t.id), outputs);
  return ids.map((id, k) => new Tracer(graph, id, outputs[k]!.shape, outputs[k]!.dtype));
}

/** bind for single-output primitives. */
export function bind1<P extends Prim>(prim: P, inputs: readonly Tracer[], params: PrimParams[P]): Tracer {
  return bind(prim, inputs, params)[0]!;
}

/** Runs `fn` on tracers for `inputs` and records what it returns as the graph's outputs. */
export function trace(inputs: readonly Aval[], fn: (args: Tracer[]) => Tracer | readonly Tracer[]): { graph: Graph; single: boolean } {
  const graph = new Graph();
  // plain avals: a Tensor given as one can change shape or dtype later (t_(), Module.to), the graph's inputs cannot
  const args = inputs.map((a) => new Tracer(graph, graph.addInput({ shape: a.shape, dtype: a.dtype }), a.shape, a.dtype));
  active.push(graph);
  try {
    const result = fn(args);
    const single = result instanceof Tracer;
    const outs = single ? [result] : result;
    for (const t of outs) if (t.graph !== graph) throw new Error("a traced function returned a value of another trace");
    graph.outputs = outs.map((t) => t.id);
    return { graph: graph.pruned(), single };
  } finally {
    active.pop();
  }
}
