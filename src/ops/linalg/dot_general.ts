/**
 * @file What the products (products.ts, einsum.ts) share: dotGeneral, which also does the outer
 * product, and the dtype check of their operands.
 */
import { DTypeError } from "../../runtime/errors.js";
import type { Tracer } from "../../trace/tracer.js";
import * as e from "../emit.js";

type T = Tracer;

/** Both operands of a product: the same dtype, not bool (PyTorch has no bool kernels for them). */
export function checkProductDTypes(op: string, ...xs: readonly T[]): void {
  const first = xs[0]!.dtype;
  const other = xs.find((x) => x.dtype !== first);
  if (other !== undefined) {
    throw new DTypeError(`${op}: expected all tensors to have the same dtype, got ${xs.map((x) => x.dtype).join(" and ")} (convert one with .to(dtype))`);
  }
  if (first === "bool") throw new DTypeError(`${op}: bool tensors are not supported; convert to an integer or float dtype`);
}

/**
 * dot_general, except that with no batch and no contracted dims it is the outer product, a
 * broadcast multiply (our printer leaves out an all-empty dot_dimension_numbers, which the CPU
 * plugin rejects).
 */
export function dotGeneral(a: T, b: T, lhsBatch: number[], rhsBatch: number[], lhsContract: number[], rhsContract: number[]): T {
  if (lhsBatch.length + lhsContract.length > 0) return e.dotGeneral(a, b, lhsBatch, rhsBatch, lhsContract, rhsContract);
  const shape = [...a.shape, ...b.shape];
  const dims = (x: T, from: number): number[] => x.shape.map((_, k) => from + k);
  return e.mul(e.broadcastInDim(a, shape, dims(a, 0)), e.broadcastInDim(b, shape, dims(b, a.ndim)));
}
