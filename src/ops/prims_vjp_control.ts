/**
 * @file The VJP rows of the control-flow primitives (src/ops/prims_control.ts), spread into the
 * prim table's VJP column (prims_vjp.ts).
 * - case: a case on the same index whose branch k is the VJP of branch k. Each branch's VJP graph
 *   takes the case's inputs (less the index) and the cotangents given for its outputs, recomputes
 *   what it needs of the branch's forward (src/autograd/graph_vjp.ts), and returns a cotangent for
 *   every floating input: zeros where the branch does not use it, as PyTorch's torch.cond gives
 *   zeros for an operand the branch taken ignores.
 * - while: a static-shape program cannot keep every iteration's values of a trip count known only on
 *   the device, so the gradient recomputes them from checkpoints: one loop counts the trips n, a second
 *   stores the state at the start of each of K segments of ⌈n/K⌉ iterations (K fixed when tracing: up
 *   to 64 slots within kCheckpointBytes), then the segments are walked last to first, each iteration
 *   recomputed from its segment's checkpoint and the cotangents stepped back through the body's VJP.
 *   That costs about 2n + n·⌈n/K⌉/2 body evaluations: linear up to K trips.
 */
import { dtypes } from "../dtype.js";
import { graphVjp, outputsReachedFrom, replay } from "../autograd/graph_vjp.js";
import type { Graph } from "../trace/graph.js";
import { bind, trace, type Tracer } from "../trace/tracer.js";
import * as e from "./emit.js";
import type { Aval } from "./prims.js";
import type { ControlPrimParams } from "./prims_control.js";
import type { Cotangent, VjpRule } from "./vjp_types.js";

const isFloat = (a: Aval): boolean => dtypes[a.dtype].kind === "float";
const int32 = (v: number): Tracer => e.full(v, "int32", []);
/** Memory a while loop's gradient may spend on checkpoints of its state. */
const kCheckpointBytes = 64 * 2 ** 20;

/** `graph`'s outputs computed from `inputs` in the current trace. */
function apply(graph: Graph, inputs: readonly Tracer[]): Tracer[] {
  const values = replay(graph, inputs);
  return graph.outputs.map((id) => values[id]!);
}

/** The state after `count` (an int32 scalar) applications of `step` to `x`: one more while node. */
function steps(count: Tracer, x: readonly Tracer[], step: (s: readonly Tracer[]) => Tracer[]): Tracer[] {
  return loop([int32(0), count, ...x], ([i, n]) => e.compare(i!, n!, "LT"), ([i, n, ...s]) => [e.add(i!, int32(1)), n!, ...step(s)]).slice(2);
}

/** Checkpoint slots for a loop's changing values: up to 64, within kCheckpointBytes. */
function checkpointSlots(values: readonly Tracer[]): number {
  const bytes = values.reduce((sum, v) => sum + v.shape.reduce((n, d) => n * d, 1) * dtypes[v.dtype].itemSize, 0);
  return Math.max(1, Math.min(64, Math.floor(kCheckpointBytes / Math.max(1, bytes))));
}

/** A `while` node on `state`, its cond and body traced from these functions. */
function loop(state: readonly Tracer[], cond: (s: Tracer[]) => Tracer, body: (s: Tracer[]) => Tracer[]): Tracer[] {
  return bind("while", state, { cond: trace(state, cond).graph, body: trace(state, body).graph });
}

export const controlVjps = {
  case: ({ inputs: [index, ...xs], cts, needed, params: { branches } }) => {
    const wrt = xs.map((x, i) => isFloat(x) && needed[i + 1] === true);
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
  while: ({ inputs: state, cts, needed, params: { cond, body } }) => {
    // the carried values a gradient flows to: the needed ones and, step by step, those the body makes from them
    let wrt = state.map((x, i) => isFloat(x) && needed[i] === true);
    for (let more = true; more; ) {
      const reached = outputsReachedFrom(body, wrt);
      more = reached.some((r, i) => r && !wrt[i]);
      wrt = wrt.map((w, i) => w || reached[i]!);
    }
    const floats = state.flatMap((_, i) => (wrt[i] ? [i] : []));
    const zerosOf = (i: number) => e.full(0, state[i]!.dtype, state[i]!.shape);
    const step = (s: readonly Tracer[]) => apply(body, s);
    // The values the body changes are checkpointed; the rest (what the loop closes over) stay the inputs.
    const moving = state.flatMap((_, i) => (body.outputs[i] !== i ? [i] : []));
    const slots = checkpointSlots(moving.map((i) => state[i]!));
    const [trips] = loop([int32(0), ...state], ([, ...s]) => apply(cond, s)[0]!, ([n, ...s]) => [e.add(n!, int32(1)), ...step(s)]);
    const stride = e.max(int32(1), e.div(e.add(trips!, int32(slots - 1)), int32(slots)));
    const segments = e.div(e.add(trips!, e.sub(stride, int32(1))), stride);
    const lengthOf = (segment: Tracer, n: Tracer, s: Tracer) => e.min(s, e.sub(n, e.mul(segment, s)));
    const slotStart = (segment: Tracer, x: Tracer) => [segment, ...x.shape.map(() => int32(0))];

    // forward: segment g's first state into slot g, then the segment's steps
    const empty = moving.map((i) => e.full(0, state[i]!.dtype, [slots, ...state[i]!.shape]));
    const stored = loop([int32(0), trips!, stride, ...empty, ...state], ([g, n, s]) => e.compare(e.mul(g!, s!), n!, "LT"), ([g, n, s, ...rest]) => {
      const x = rest.slice(moving.length);
      const kept = rest.slice(0, moving.length).map((buffer, k) => {
        const value = x[moving[k]!]!;
        return e.dynamicUpdateSlice(buffer, e.reshape(value, [1, ...value.shape]), slotStart(g!, value));
      });
      return [e.add(g!, int32(1)), n!, s!, ...kept, ...steps(lengthOf(g!, n!, s!), x, step)];
    });
    const checkpoints = stored.slice(3, 3 + moving.length);

    // backward: segments last to first; in each, iterations last to first, each recomputed from the segment's checkpoint
    const F = floats.length;
    const back = loop([segments, trips!, stride, ...floats.map((i) => cts[i] ?? zerosOf(i)), ...checkpoints, ...state], ([g]) => e.compare(g!, int32(0), "GT"), ([g, n, s, ...rest]) => {
      const segment = e.sub(g!, int32(1));
      const buffers = rest.slice(F, F + moving.length);
      const start = rest.slice(F + moving.length);
      moving.forEach((i, k) => (start[i] = e.reshape(e.dynamicSlice(buffers[k]!, slotStart(segment, start[i]!), [1, ...start[i]!.shape]), start[i]!.shape)));
      const inner = loop([lengthOf(segment, n!, s!), ...rest.slice(0, F), ...start], ([j]) => e.compare(j!, int32(0), "GT"), ([j, ...r]) => {
        const previous = e.sub(j!, int32(1));
        const from = r.slice(F);
        const given = state.map((_, i) => (wrt[i] ? r[floats.indexOf(i)]! : null));
        const grads = graphVjp(body, steps(previous, from, step), given, wrt);
        return [previous, ...floats.map((i) => grads[i] ?? zerosOf(i)), ...from];
      });
      return [segment, n!, s!, ...inner.slice(1, 1 + F), ...rest.slice(F)];
    });
    return state.map((_, i) => (wrt[i] ? back[3 + floats.indexOf(i)]! : null));
  },
} satisfies { [P in keyof ControlPrimParams]: VjpRule<P> };
