/**
 * @file The Graph IR: typed inputs, nodes (primitive, static params, input value ids, output avals)
 * and outputs. Value ids: inputs are 0..n-1, then every node's outputs in order. `toNative` turns
 * it into the addon's wire form through the prim table's lowerings. Control-flow nodes hold whole
 * sub-graphs in their params (src/ops/prims_control.ts), lowered as the op's regions.
 */
import { dtypes } from "../dtype.js";
import { checkTensorSize } from "../ops/dims.js";
import { type Aval, type Lowering, type Prim, type PrimParams, prims } from "../ops/prims.js";
import type { NativeGraph, NativeNode } from "../runtime/native.js";

export interface Node<P extends Prim = Prim> {
  readonly prim: P;
  readonly params: PrimParams[P];
  readonly inputs: readonly number[];
  readonly outputs: readonly Aval[];
}

export class Graph {
  readonly inputs: Aval[] = [];
  readonly nodes: Node[] = [];
  outputs: number[] = [];
  /** Output positions that may reuse an input's memory (NativeGraph.aliases): its buffer is donated to the run. */
  aliases: { output: number; input: number }[] = [];
  /** The aval of every value id. */
  readonly avals: Aval[] = [];

  /**
   * `openInputs`: inputs may be added after nodes (torch.compile lifts the tensors a function reads
   * as it meets them); pruned() then renumbers them first.
   */
  constructor(readonly openInputs = false) {}

  /** The value id of each input. */
  readonly #inputIds: number[] = [];

  addInput(aval: Aval): number {
    if (this.nodes.length > 0 && !this.openInputs) throw new Error("Graph: inputs must be added before nodes");
    this.inputs.push(aval);
    this.avals.push(aval);
    this.#inputIds.push(this.avals.length - 1);
    return this.avals.length - 1;
  }

  /** Output ids of the nodes added so far, by primitive, params and inputs (see addNode). */
  readonly #seen = new Map<string, number[]>();
  /** The id of each node's first output. */
  readonly #firstIds: number[] = [];

  /**
   * Appends a node and returns the ids of its outputs. Every primitive is a pure function, so a node
   * that repeats an earlier one (same primitive, params and inputs) returns that node's outputs
   * instead: an API op that builds exp(z) twice computes it once. Nodes without inputs (constants,
   * iota) are not looked up: their params may be large and they cost nothing to repeat.
   */
  addNode<P extends Prim>(prim: P, params: PrimParams[P], inputs: readonly number[], outputs: readonly Aval[]): number[] {
    const key = inputs.length === 0 ? undefined : `${prim}|${inputs.join(",")}|${JSON.stringify(params, keyText)}`;
    const earlier = key === undefined ? undefined : this.#seen.get(key);
    if (earlier !== undefined) return earlier;
    this.nodes.push({ prim, params, inputs, outputs } as Node);
    const first = this.avals.length;
    this.#firstIds.push(first);
    this.avals.push(...outputs);
    const ids = outputs.map((_, k) => first + k);
    if (key !== undefined) this.#seen.set(key, ids);
    return ids;
  }

  /**
   * The graph without the nodes its outputs do not depend on (inputs all stay: they are the
   * executable's parameters), with inputs numbered first. Returns this graph when every node is used
   * and the inputs are.
   */
  pruned(): Graph {
    const live = new Set<number>(this.outputs);
    const used: boolean[] = [];
    for (let i = this.nodes.length - 1; i >= 0; i--) {
      const node = this.nodes[i]!;
      const first = this.#firstIds[i]!;
      used[i] = node.outputs.some((_, k) => live.has(first + k));
      if (used[i]) for (const id of node.inputs) live.add(id);
    }
    if (used.every(Boolean) && !this.openInputs) return this;
    const out = new Graph();
    const ids = new Map<number, number>();
    this.inputs.forEach((a, i) => ids.set(this.#inputIds[i]!, out.addInput(a)));
    this.nodes.forEach((node, i) => {
      if (!used[i]) return;
      const mapped = out.addNode(node.prim, node.params, node.inputs.map((id) => ids.get(id)!), node.outputs);
      mapped.forEach((id, k) => ids.set(this.#firstIds[i]! + k, id));
    });
    out.outputs = this.outputs.map((id) => ids.get(id)!);
    out.aliases = this.aliases.map((a) => ({ ...a }));
    return out;
  }
}

/** Sub-graphs (control flow's regions) are keyed by identity: the same region objects, the same node. */
const graphIds = new WeakMap<Graph, number>();
let graphCount = 0;
const keyText = (_key: string, value: unknown): unknown => {
  if (typeof value === "bigint") return `${value}n`;
  if (!(value instanceof Graph)) return value;
  if (!graphIds.has(value)) graphIds.set(value, graphCount++);
  return `graph#${graphIds.get(value)}`;
};

const wireType = (a: Aval) => ({ type: dtypes[a.dtype].pjrt, dims: [...a.shape] });

/** The compact structured value the addon lowers (src/runtime/native.ts, NativeGraph); a result too large for any tensor is a ShapeError here. */
export function toNative(graph: Graph): NativeGraph {
  const nodes = graph.nodes.map((node): NativeNode => {
    for (const a of node.outputs) checkTensorSize(node.prim, a.shape, a.dtype);
    const def = prims[node.prim] as { lower: (p: unknown, ins: readonly Aval[]) => Lowering };
    const lowered = def.lower(node.params, node.inputs.map((id) => graph.avals[id]!));
    const out: NativeNode = { op: lowered.op, operands: [...node.inputs], results: node.outputs.map(wireType) };
    if (lowered.attrs) out.attrs = lowered.attrs;
    if (lowered.body) out.body = lowered.body;
    if (lowered.regions) out.regions = lowered.regions.map(toNative);
    return out;
  });
  const native: NativeGraph = { inputs: graph.inputs.map(wireType), nodes, outputs: [...graph.outputs] };
  if (graph.aliases.length > 0) native.aliases = graph.aliases.map((a) => ({ ...a }));
  return native;
}
