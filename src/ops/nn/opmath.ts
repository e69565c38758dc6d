/**
 * @file How nn.functional's float ops compute: float-only checks, and the opmath rule of
 * src/ops/accumulate.ts (float16 and bfloat16 compute in float32 and round once at the end).
 */
import { type DType, isFloating } from "../../dtype.js";
import { DTypeError } from "../../runtime/errors.js";

export { opmath } from "../accumulate.js";

/** DTypeError unless `x` is a floating tensor. */
export function requireFloat(op: string, x: { dtype: DType }, what = "input"): void {
  if (!isFloating(x.dtype)) throw new DTypeError(`${op}: ${what} must be a floating tensor, got ${x.dtype} (convert it first, e.g. x.to("float32"))`);
}

/** The spatial ops' (conv, pool, interpolate, unfold) float check, on a traced input's dtype. */
export function floating(op: string, dtype: DType): void {
  if (!isFloating(dtype)) throw new DTypeError(`${op}: ${dtype} input is not supported; it needs a floating dtype (convert with .to("float32"))`);
}
