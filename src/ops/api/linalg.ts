/**
 * @file matmul with every PyTorch broadcasting case, as one dot_general.
 */
import { DTypeError, ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import * as e from "../emit.js";
import { broadcastShapes, fmtShape } from "../dims.js";
import { checkTensor, run } from "../unit.js";

function mismatch(a: readonly number[], b: readonly number[], k1: number, k2: number): ShapeError {
  return new ShapeError(`matmul: shapes ${fmtShape(a)} and ${fmtShape(b)} cannot be multiplied (${k1} != ${k2})`);
}

function matmulTraced(a: Tracer, b: Tracer): Tracer {
  if (a.ndim === 0 || b.ndim === 0) {
    throw new ShapeError(`matmul: both arguments need at least 1 dimension, got shapes ${fmtShape(a.shape)} and ${fmtShape(b.shape)}`);
  }
  if (a.dtype !== b.dtype) throw new DTypeError(`matmul: expected both tensors to have the same dtype, got ${a.dtype} and ${b.dtype}`);
  if (a.dtype === "bool") throw new DTypeError("matmul: bool tensors are not supported; convert to an integer or float dtype");
  const ka = a.shape[a.ndim - 1]!;
  const kb = b.ndim === 1 ? b.shape[0]! : b.shape[b.ndim - 2]!;
  if (ka !== kb) throw mismatch(a.shape, b.shape, ka, kb);
  if (b.ndim === 1) return e.dotGeneral(a, b, [], [], [a.ndim - 1], [0]); // vector or matrix-vector (batched)
  if (a.ndim === 1) {
    // a as a [1, k] row, then drop that dim
    const out = matmulTraced(e.reshape(a, [1, ka]), b);
    const shape = [...out.shape];
    shape.splice(shape.length - 2, 1);
    return e.reshape(out, shape);
  }
  if (a.ndim === 2 && b.ndim === 2) return e.dotGeneral(a, b, [], [], [1], [0]);
  const batch = broadcastShapes("matmul", a.shape.slice(0, -2), b.shape.slice(0, -2));
  const nb = batch.length;
  const x = e.broadcastTo(a, [...batch, ...a.shape.slice(-2)]);
  const y = e.broadcastTo(b, [...batch, ...b.shape.slice(-2)]);
  const dims = batch.map((_, i) => i);
  return e.dotGeneral(x, y, dims, dims, [nb + 1], [nb]);
}

/** Matrix product with PyTorch's rules for 1-d operands and broadcast batch dims. */
export function matmul(a: Tensor, b: Tensor): Tensor {
  checkTensor("matmul", a);
  checkTensor("matmul", b, "other");
  return run("matmul", [a, b], "", ([x, y]) => matmulTraced(x as Tracer, y as Tracer));
}
