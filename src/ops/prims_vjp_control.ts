/**
 * @file The VJP rows of the control-flow primitives (src/ops/prims_control.ts), spread into the
 * prim table's VJP column (prims_vjp.ts).
 * - case: a case on the same index whose branch k is the VJP of branch k. Each branch's VJP graph
 *   takes the case's inputs (less the index) and the cotangents given for its outputs, recomputes
 *   what it needs of the branch's forward (src/autograd/graph_vjp.ts), and returns a cotangent for
 *   every floating input: zeros where the branch does not use it, as PyTorch's torch.cond gives
 *   zeros for an operand the branch taken ignores.
 * - while: by recomputation, in constant memory (a static-shape program cannot keep a buffer per
 *   iteration of a trip count known only on the device): a loop counts the trips n, then a loop over
 *   j = n-1 … 0 recomputes iteration j's state with j steps of the body from the start and steps the
 *   cotangents back through the body's VJP. That costs n(n+1)/2 more body evaluations.
 */
import { dtypes } from "../dtype.js";
import { graphVjp, replay } from "../autograd/graph_vjp.js";
import type { Graph } from "../trace/graph.js";
import { bind, trace, type Tracer } from "../trace/tracer.js";
import * as e from "./emit.js";
import type { Aval } from "./prims.js";
import type { ControlPrimParams } from "./prims_control.js";
import type { Cotangent, VjpRule } from "./vjp_types.js";

const isFloat = (a: Aval): boolean => dtypes[a.dtype].kind === "float";
const int32 = (v: number): Tracer => e.full(v, "int32", []);

/** `graph`'s outputs computed from `inputs` in the current trace. */
function apply(graph: Graph, inputs: readonly Tracer[]): Tracer[] {
  const values = replay(graph, inputs);
  return graph.outputs.map((id) => values[id]!);
}

/** A `while` node on `state`, its cond and body traced from these functions. */
function loop(state: readonly Tracer[], cond: (s: Tracer[]) => Tracer, body: (s: Tracer[]) => Tracer[]): Tracer[] {
  return bind("while", state, { cond: trace(state, cond).graph, body: trace(state, body).graph });
}

export const controlVjps = {
  case: ({ inputs: [index, ...xs], cts, params: { branches } }) => {
    const wrt = xs.map(isFloat);
    const given = cts.filter((c): c is NonNullable<Cotangent> => c !== null);
    const vjpBranches = branches.map(
      (branch) =>
        trace([...xs, ...given], (args) => {
          let k = xs.length;
          const branchCts = cts.map((c) => (c === null ? null : args[k++]!));
          const grads = graphVjp(branch, args.slice(0, xs.length), branchCts, wrt);
          return xs.flatMap((x, i) => (wrt[i] ? [grads[i] ?? e.full(0, x.dtype, x.shape)] : []));
        }).graph,
    );
    const grads = bind("case", [index!, ...xs, ...given], { branches: vjpBranches });
    let k = 0;
    return [null, ...wrt.map((w) => (w ? grads[k++]! : null))];
  },
  while: ({ inputs: state, cts, params: { cond, body } }) => {
    const wrt = state.map(isFloat);
    const floats = state.flatMap((_, i) => (wrt[i] ? [i] : []));
    const zerosOf = (i: number) => e.full(0, state[i]!.dtype, state[i]!.shape);
    const [trips] = loop([int32(0), ...state], ([, ...s]) => apply(cond, s)[0]!, ([n, ...s]) => [e.add(n!, int32(1)), ...apply(body, s)]);
    // iteration j = trips - 1 down to 0: recompute its state from the start, then step the cotangents back through the body
    const back = loop([trips!, ...floats.map((i) => cts[i] ?? zerosOf(i)), ...state], ([j]) => e.compare(j!, int32(0), "GT"), ([j, ...rest]) => {
      const start = rest.slice(floats.length);
      const previous = e.sub(j!, int32(1));
      const [, , ...atPrevious] = loop([int32(0), previous, ...start], ([i, k]) => e.compare(i!, k!, "LT"), ([i, k, ...s]) => [e.add(i!, int32(1)), k!, ...apply(body, s)]);
      const given = state.map((_, i) => (wrt[i] ? rest[floats.indexOf(i)]! : null));
      const grads = graphVjp(body, atPrevious, given, wrt);
      return [previous, ...floats.map((i) => grads[i] ?? zerosOf(i)), ...start];
    });
    return state.map((_, i) => (wrt[i] ? back[1 + floats.indexOf(i)]! : null));
  },
} satisfies { [P in keyof ControlPrimParams]: VjpRule<P> };
