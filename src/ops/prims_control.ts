/**
 * @file The control-flow primitives of the prim table (src/ops/prims.ts spreads these rows in): nodes
 * whose params hold sub-graphs, lowered to StableHLO ops with regions.
 * - case: inputs are an int32 scalar index, then the values the branches read; every branch is a
 *   graph taking those values and returning the node's outputs. An index out of range runs the last branch.
 * - while: inputs are the loop state; `cond` maps it to one bool scalar, `body` to the next state.
 */
import { ShapeError } from "../runtime/errors.js";
import type { Graph } from "../trace/graph.js";
import type { Aval, PrimDef } from "./prims.js";

export interface ControlPrimParams {
  case: { branches: readonly Graph[] };
  while: { cond: Graph; body: Graph };
}

const fmt = (a: Aval): string => `${a.dtype}[${a.shape.join(", ")}]`;
const same = (a: Aval, b: Aval): boolean => a.dtype === b.dtype && a.shape.length === b.shape.length && a.shape.every((d, i) => d === b.shape[i]);

/** The avals of a graph's outputs. */
export function outputAvals(graph: Graph): Aval[] {
  return graph.outputs.map((id) => graph.avals[id]!);
}

function checkAvals(prim: string, what: string, got: readonly Aval[], want: readonly Aval[]): void {
  if (got.length !== want.length || got.some((a, i) => !same(a, want[i]!))) {
    throw new ShapeError(`${prim}: ${what} are (${got.map(fmt).join(", ")}), expected (${want.map(fmt).join(", ")})`);
  }
}

export const controlPrims = {
  case: {
    arity: null,
    infer: ([index, ...captured], { branches }) => {
      if (index === undefined || index.dtype !== "int32" || index.shape.length !== 0) throw new ShapeError(`case: the index must be an int32 scalar, got ${index ? fmt(index) : "nothing"}`);
      if (branches.length === 0) throw new ShapeError("case: needs at least one branch");
      const outputs = outputAvals(branches[0]!);
      branches.forEach((b, k) => {
        checkAvals("case", `branch ${k}'s inputs`, b.inputs, captured);
        checkAvals("case", `branch ${k}'s outputs`, outputAvals(b), outputs);
      });
      return outputs;
    },
    lower: ({ branches }) => ({ op: "case", regions: branches }),
  },
  while: {
    arity: null,
    infer: (state, { cond, body }) => {
      checkAvals("while", "the cond's inputs", cond.inputs, state);
      checkAvals("while", "the cond's outputs", outputAvals(cond), [{ dtype: "bool", shape: [] }]);
      checkAvals("while", "the body's inputs", body.inputs, state);
      checkAvals("while", "the body's outputs", outputAvals(body), state);
      return [...state];
    },
    lower: ({ cond, body }) => ({ op: "while", regions: [cond, body] }),
  },
} satisfies { [P in keyof ControlPrimParams]: PrimDef<P> };
