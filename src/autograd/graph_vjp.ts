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
 * Per input of `graph`, whether a float output depends on it through float values: a gradient can
 * reach it. A value that passes through an integer (emit.detached's bitcasts, an argmax) carries none;
 * emit.stopGradient's marked bitcasts count as a path (its gradient is zero, not none).
 */
export function inputsReachingOutputs(graph: Graph): boolean[] {
  const live: boolean[] = [];
  const avalOf: { dtype: keyof typeof dtypes }[] = [...graph.inputs];
  for (const node of graph.nodes) avalOf.push(...node.outputs);
  for (const id of graph.outputs) if (isFloat(avalOf[id]!)) live[id] = true;
  let next = avalOf.length;
  for (let i = graph.nodes.length - 1; i >= 0; i--) {
    const node = graph.nodes[i]!;
    next -= node.outputs.length;
    if (!node.outputs.some((_, k) => live[next + k])) continue;
    const zeroGradient = node.prim === "bitcast_convert" && (node.params as { zeroGradient?: boolean }).zeroGradient === true;
    for (const id of node.inputs) if (zeroGradient || isFloat(avalOf[id]!)) live[id] = true;
  }
  return graph.inputs.map((_, i) => live[i] === true);
}

/**
 * Per output of `graph`, whether it depends through the paths inputsReachingOutputs follows on an input
 * marked in `wrt`: the outputs that carry a gradient (a detached or integer one does not).
 */
export function outputsReachedFrom(graph: Graph, wrt: readonly boolean[]): boolean[] {
  const reached: boolean[] = graph.inputs.map((_, i) => wrt[i] === true);
  const avalOf: { dtype: keyof typeof dtypes }[] = [...graph.inputs];
  for (const node of graph.nodes) {
    const zeroGradient = node.prim === "bitcast_convert" && (node.params as { zeroGradient?: boolean }).zeroGradient === true;
    const carries = node.inputs.some((id) => reached[id] === true && (zeroGradient || isFloat(avalOf[id]!)));
    for (const aval of node.outputs) reached.push(carries), avalOf.push(aval);
  }
  return graph.outputs.map((id) => reached[id] === true && isFloat(avalOf[id]!));
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
  const tiles = tilingSlices(graph);
  for (let i = graph.nodes.length - 1; i >= 0; i--) {
    const node = graph.nodes[i]!;
    const first = firstIds[i]!;
    const tile = tiles.get(i);
    if (tile !== undefined) {
      // slices that tile their input (a split): one concatenate instead of a padded sum per piece
      if (tile.first === i && needs[node.inputs[0]!]) {
        const parts = tile.members.map((m) => acc.get(firstIds[m]!) ?? e.full(0, values[firstIds[m]!]!.dtype, values[firstIds[m]!]!.shape));
        accumulate(node.inputs[0]!, e.concatenate(parts, tile.dim), "split");
      }
      continue;
    }
    const outCts = node.outputs.map((_, k) => acc.get(first + k) ?? null);
    if (outCts.every((c) => c === null) || !node.inputs.some((id) => needs[id])) continue;
    const inCts = vjpOf(node.prim)({
      inputs: node.inputs.map((id) => values[id]!),
      outputs: node.outputs.map((_, k) => values[first + k]!),
      cts: outCts,
      needed: node.inputs.map((id) => needs[id] === true),
      params: node.params as never,
    });
    node.inputs.forEach((id, j) => {
      const ct = inCts[j];
      if (ct && needs[id]) accumulate(id, ct, node.prim);
    });
  }
  return inputs.map((_, i) => (wrt[i] ? (acc.get(i) ?? null) : null));
}

/**
 * Groups of unit-stride slices of one value that, side by side along one dim, cover it exactly (what
 * split and chunk emit): by node index, the group's pieces in order, that dim, and its first node.
 */
function tilingSlices(graph: Graph): Map<number, { members: number[]; dim: number; first: number }> {
  const byInput = new Map<number, number[]>();
  graph.nodes.forEach((node, i) => {
    if (node.prim !== "slice") return;
    const list = byInput.get(node.inputs[0]!) ?? [];
    byInput.set(node.inputs[0]!, [...list, i]);
  });
  const out = new Map<number, { members: number[]; dim: number; first: number }>();
  for (const [input, members] of byInput) {
    if (members.length < 2) continue;
    const shape = graph.avals[input]!.shape;
    const params = members.map((m) => graph.nodes[m]!.params as { start: readonly number[]; limit: readonly number[]; strides: readonly number[] });
    const dims = shape.map((_, d) => d).filter((d) => params.some((p) => p.start[d] !== 0 || p.limit[d] !== shape[d]));
    if (dims.length !== 1 || params.some((p) => p.strides.some((s) => s !== 1))) continue;
    const dim = dims[0]!;
    const order = members.map((m, k) => [m, params[k]!] as const).sort((a, b) => a[1].start[dim]! - b[1].start[dim]!);
    let at = 0;
    const covers = order.every(([, p]) => {
      const ok = p.start[dim] === at;
      at = p.limit[dim]!;
      return ok;
    }) && at === shape[dim];
    if (!covers) continue;
    const group = { members: order.map(([m]) => m), dim, first: Math.min(...members) };
    for (const m of members) out.set(m, group);
  }
  return out;
}
