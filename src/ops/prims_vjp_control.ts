/**
 * @file The VJP rows of the control-flow primitives (src/ops/prims_control.ts), spread into the
 * prim table's VJP column (prims_vjp.ts).
 * - case: a case on the same index whose branch k is the VJP of branch k. Each branch's VJP graph
 *   takes the case's inputs (less the index) and the cotangents given for its outputs, recomputes
 *   what it needs of the branch's forward (src/autograd/graph_vjp.ts), and returns a cotangent for
 *   every floating input: zeros where the branch does not use it, as PyTorch's torch.cond gives
 *   zeros for an operand the branch taken ignores.
 * - while: no gradient (see the message).
 */
import { dtypes } from "../dtype.js";
import { graphVjp } from "../autograd/graph_vjp.js";
import { NotSupportedError } from "../runtime/errors.js";
import { bind, trace } from "../trace/tracer.js";
import * as e from "./emit.js";
import type { Aval } from "./prims.js";
import type { ControlPrimParams } from "./prims_control.js";
import type { Cotangent, VjpRule } from "./vjp_types.js";

const isFloat = (a: Aval): boolean => dtypes[a.dtype].kind === "float";

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
  while: () => {
    throw new NotSupportedError(
      "torch.whileLoop: no gradient through a loop traced inside torch.compile: its trip count is known only on the device, " +
        "and a backward pass needs every iteration's values (PyTorch keeps them in a buffer of dynamic size; " +
        "JAX's while_loop has no reverse-mode gradient either). Use torch.cond for a data-dependent choice (it is differentiable inside torch.compile), " +
        "a JavaScript loop for a trip count known when tracing (it is unrolled), run the loop outside torch.compile, or detach its inputs",
    );
  },
} satisfies { [P in keyof ControlPrimParams]: VjpRule<P> };
