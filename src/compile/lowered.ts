/**
 * @file `torch.compile(fn).lower(...args)`: the whole function's graph for one call signature as
 * StableHLO, and its ahead-of-time compile for a device topology (a TPU slice, with no TPU here).
 */
import { addon } from "../runtime/addon.js";
import { compileFor, type CompileForOptions, type CompileForResult } from "../runtime/compile.js";
import { mapNativeError, isNativeError } from "../runtime/errors.js";
import type { Aval } from "../ops/prims.js";
import { type Graph, toNative } from "../trace/graph.js";

export class Lowered {
  /** The executable's parameters: the function's tensor inputs, then the tensors it reads (parameters, state), then per-call host values. */
  readonly inputs: readonly Aval[];
  /** Its results: the function's returned tensors, then what it writes back (updated parameters, state, grads). */
  readonly outputs: readonly Aval[];
  readonly #graph: Graph;
  #text: string | undefined;

  constructor(
    readonly name: string,
    graph: Graph,
  ) {
    this.#graph = graph;
    this.inputs = graph.inputs.map((a) => ({ dtype: a.dtype, shape: [...a.shape] }));
    this.outputs = graph.outputs.map((o) => ({ dtype: graph.avals[o]!.dtype, shape: [...graph.avals[o]!.shape] }));
  }

  /** The StableHLO module (`module @main`), as the device's compiler receives it. */
  get text(): string {
    if (this.#text === undefined) {
      try {
        this.#text = addon().printGraph(toNative(this.#graph));
      } catch (error) {
        throw isNativeError(error) ? mapNativeError(error, { op: `lower ${this.name}` }) : error;
      }
    }
    return this.#text;
  }

  /**
   * Compiles the module ahead of time for a plugin's topology (`"tpu", { topology: "v5e:2x2" }`)
   * without that hardware: the plugin's output types, memory and cost analysis of the whole function.
   */
  compileFor(plugin: string, options: CompileForOptions): Promise<CompileForResult> {
    return compileFor(plugin, this.text, options);
  }
}
