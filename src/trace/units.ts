/**
 * @file Unit graphs for the recorders that inline API ops into a larger graph (torch.compile's trace,
 * fused eager): each unit is traced once per signature, and its nodes are copied into the graph
 * being recorded.
 */
import { defaultFloatDType } from "../dtype.js";
import { getFloat32MatmulPrecision } from "../matmul_precision.js";
import type { Tensor } from "../tensor.js";
import type { UnitInfo } from "./cache.js";
import type { Graph } from "./graph.js";
import { trace, Tracer } from "./tracer.js";

/** Unit graphs by signature (autograd keeps plans on them). */
const units = new Map<string, UnitInfo>();

export function clearUnits(): void {
  units.clear();
}

/** The key of a unit's signature: op, static arguments, device, float32 matmul precision, default float dtype, input avals. */
export function unitKey(op: string, statics: string, inputs: readonly Tensor[], device: string): string {
  let key = `${op}\u0000${statics}\u0000${device}\u0000${getFloat32MatmulPrecision()}\u0000${defaultFloatDType}`;
  for (const t of inputs) key += `\u0000${t.dtype}[${t.shape.join(",")}]`;
  return key;
}

/** The unit graph of an API op on inputs of these avals, traced on first use (shape errors are thrown here). */
export function unitOf(key: string, inputs: readonly Tensor[], body: (xs: Tracer[]) => Tracer | readonly Tracer[], device: string): UnitInfo {
  let unit = units.get(key);
  if (unit === undefined) {
    const { graph, single } = trace(inputs, body);
    const outputs = graph.outputs.map((o) => ({ dtype: graph.avals[o]!.dtype, shape: Object.freeze([...graph.avals[o]!.shape]) }));
    units.set(key, (unit = { device, outputs, single, graph }));
  }
  return unit;
}

/** Copies `unit`'s nodes into `outer` with `args` as its inputs; returns its outputs there. */
export function inlineGraph(outer: Graph, unit: Graph, args: readonly Tracer[]): Tracer[] {
  const ids = args.map((a) => a.id);
  for (const node of unit.nodes) ids.push(...outer.addNode(node.prim, node.params, node.inputs.map((i) => ids[i]!), node.outputs));
  return unit.outputs.map((o) => new Tracer(outer, ids[o]!, unit.avals[o]!.shape, unit.avals[o]!.dtype));
}
