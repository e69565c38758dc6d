/**
 * @file torch.linalg.tensorinv and tensorsolve: linalg.inv and linalg.solve of the tensor seen as
 * one square matrix (its leading dims against its trailing ones), reshaped back.
 */
import { ArgumentError, ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import { fmtShape, normDims } from "../dims.js";
import { op } from "../signature/op.js";
import { invert, solveChecked } from "./solve.js";

const product = (dims: readonly number[]): number => dims.reduce((p, d) => p * d, 1);

/** `fn` of `t`, then `t` disposed (an intermediate of these compositions). */
function consume<R>(t: Tensor, fn: (t: Tensor) => R): R {
  try {
    return fn(t);
  } finally {
    t.dispose();
  }
}

export const tensorinv = op(
  "linalg.tensorinv(input: Tensor, ind: int = 2) -> Tensor",
  {
    doc: "The inverse of `input` for tensordot over `ind` dims: input [*a, *b] with prod(a) = prod(b) (a its first `ind` dims) seen as a square matrix, inverted (linalg.inv) and returned as [*b, *a].",
  },
  ({ input, ind }) => {
    const op = "linalg.tensorinv";
    if (!Number.isInteger(ind) || ind <= 0) throw new ArgumentError(`${op}: ind must be a strictly positive integer, got ${ind}`);
    const [lead, rest] = [input.shape.slice(0, ind), input.shape.slice(ind)];
    if (product(lead) !== product(rest)) {
      throw new ShapeError(`${op}: the product of the first ${ind} dims must equal that of the others, got ${product(lead)} and ${product(rest)} (shape ${fmtShape(input.shape)})`);
    }
    const n = product(lead);
    return consume(input.reshape([n, n]), (square) => consume(invert(op, square), (inverse) => inverse.reshape([...rest, ...lead])));
  },
);

export const tensorsolve = op(
  "linalg.tensorsolve(input: Tensor, other: Tensor, dims?: int[]) -> Tensor",
  {
    doc: "X with tensordot(A, X, X.ndim) = B for A = `input` and B = `other`: A's first B.ndim dims against the rest (whose sizes are X's shape, with `dims` of A moved to the end first), their products equal, solved as one square system (linalg.solve).",
  },
  ({ input: A, other: B, dims }) => {
    const op = "linalg.tensorsolve";
    let a = A;
    if (dims !== undefined && dims.length > 0) {
      const moved = normDims(op, dims, A.ndim);
      const kept = A.shape.map((_, i) => i).filter((i) => !moved.includes(i));
      a = A.permute([...kept, ...moved]);
    }
    const [lead, rest] = [a.shape.slice(0, B.ndim), a.shape.slice(B.ndim)];
    const fail = (why: string): never => {
      if (a !== A) a.dispose();
      throw new ShapeError(`${op}: ${why} (A ${fmtShape(A.shape)}${dims?.length ? ` with dims [${dims.join(", ")}] moved last` : ""}, B ${fmtShape(B.shape)})`);
    };
    if (product(lead) !== product(rest)) fail(`the product of A's first B.ndim = ${B.ndim} dims must equal that of the others, got ${product(lead)} and ${product(rest)}`);
    if (B.numel() !== product(lead)) fail(`B must have ${product(lead)} elements, got ${B.numel()}`);
    const n = product(lead);
    const square = a.reshape([n, n]);
    if (a !== A) a.dispose();
    return consume(square, (s) => consume(B.reshape([n]), (b) => consume(solveChecked(op, s, b, true), (x) => x.reshape(rest))));
  },
);
