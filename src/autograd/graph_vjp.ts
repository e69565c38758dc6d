/**
 * @file The gradient of a traced graph, emitted into the trace being built: the graph is replayed on
 * the given tracers, then its nodes are walked backwards through the prim table's VJP rules
 * (src/ops/prims_vjp.ts), summing cotangents where a value is used more than once.
 */
import { dtypes } from "../dtype.js";
import * as e from "../ops/emit.js";
import { vjpOf } from "../ops/prims_vjp.js";
import type { Cotangent } from "../ops/vjp_types.js";
import type { Graph } from "../trace/graph.js";
import { bind, type Tracer } from "../trace/tracer.js";

const isFloat = (t: { dtype: keyof typeof dtypes }): boolean => dtypes[t.dtype].kind === "float";

/** Every value of `graph` (by id) computed from `inputs` in the current trace. */
export function replay(graph: Graph, inputs: readonly Tracer[]): Tracer[] {
  const values = [...inputs];
  for (const node of graph.nodes) values.push(...bind(node.prim, node.inputs.map((id) => values[id]!), node.params as never));
  return values;
}

/**
 * The cotangents of `graph`'s inputs (null where none reaches one, or `wrt` leaves it out) given one
 * cotangent per output (null: zero), computed from `inputs` in the current trace.
 */
export function graphVjp(graph: Graph, inputs: readonly Tracer[], cts: readonly Cotangent[], wrt: readonly boolean[]): Cotangent[] {
  const values = replay(graph, inputs);
  // which values depend on an input we differentiate
  const needs = values.map((v, id) => id < inputs.length && wrt[id] === true && isFloat(v));
  const firstIds: number[] = [];
  let next = graph.inputs.length;
  for (const node of graph.nodes) {
    firstIds.push(next);
    const dependent = node.inputs.some((id) => needs[id]);
    for (let k = 0; k < node.outputs.length; k++) needs[next + k] = dependent && isFloat(node.outputs[k]!);
    next += node.outputs.length;
  }
  const acc = new Map<number, Tracer>();
  const accumulate = (id: number, ct: Tracer, where: string): void => {
    const v = values[id]!;
    if (ct.dtype !== v.dtype || ct.shape.length !== v.shape.length || ct.shape.some((d, i) => d !== v.shape[i])) {
      throw new Error(`autograd: the VJP of ${where} gave a ${ct.dtype}[${ct.shape.join(", ")}] cotangent for a ${v.dtype}[${v.shape.join(", ")}] value`);
    }
    const earlier = acc.get(id);
    acc.set(id, earlier === undefined ? ct : e.add(earlier, ct));
  };
  graph.outputs.forEach((id, k) => {
    const ct = cts[k];
    if (ct && needs[id]) accumulate(id, ct, "the output");
  });
  for (let i = graph.nodes.length - 1; i >= 0; i--) {
    const node = graph.nodes[i]!;
    const first = firstIds[i]!;
    const outCts = node.outputs.map((_, k) => acc.get(first + k) ?? null);
    if (outCts.every((c) => c === null) || !node.inputs.some((id) => needs[id])) continue;
    const inCts = vjpOf(node.prim)({
      inputs: node.inputs.map((id) => values[id]!),
      outputs: node.outputs.map((_, k) => values[first + k]!),
      cts: outCts,
      params: node.params as never,
    });
    node.inputs.forEach((id, j) => {
      const ct = inCts[j];
      if (ct && needs[id]) accumulate(id, ct, node.prim);
    });
  }
  return inputs.map((_, i) => (wrt[i] ? (acc.get(i) ?? null) : null));
}
