/**
 * @file Running an API op's unit: tensor arguments become the executable's inputs, scalar arguments
 * are static (part of the signature); promotion and lifting of mixed tensor/scalar operands.
 */
import { type DType, dtypes, resultType } from "../dtype.js";
import { ArgumentError, DisposedError, DTypeError } from "../runtime/errors.js";
import { Tensor } from "../tensor.js";
import { fmtShape } from "./dims.js";
import { describeValue } from "./signature/bind.js";
import type { ScalarArg, TensorOrScalar } from "./types.js";
import { dispatch, dispatch1 } from "../trace/eager.js";
import type { Tracer } from "../trace/tracer.js";
import { broadcastTo, convert, full } from "./emit.js";

/** What a unit body sees for each argument: a tracer for a tensor, the value for a scalar. */
export type Operand = Tracer | ScalarArg;

export function isScalar(v: unknown): v is ScalarArg {
  return typeof v === "number" || typeof v === "boolean" || typeof v === "bigint";
}

export function checkTensor(op: string, t: unknown, what = "input"): Tensor {
  if (!(t instanceof Tensor)) throw new ArgumentError(`${op}: ${what} must be a Tensor, got ${describeValue(t)}${Array.isArray(t) ? " (wrap it with torch.tensor)" : ""}`);
  if (t.isDisposed) throw new DisposedError(`${op}: ${what} has been disposed (${t.dtype}${fmtShape(t.shape)} on ${t.device})`);
  return t;
}

/** DTypeError unless `index` (of gather, scatter, embedding, …) has an integer dtype. */
export function checkIndexDType(op: string, index: Tensor, what = "index"): void {
  const kind = dtypes[index.dtype].kind;
  if (kind !== "int" && kind !== "uint") throw new DTypeError(`${op}: ${what} must be an integer tensor (int64), got ${index.dtype}`);
}

/** The promotion operand of an argument (tensors by dtype and rank, scalars by value). */
export const promotionOf = (v: Operand | Tensor): { dtype: DType; ndim: number } | ScalarArg =>
  isScalar(v) ? v : { dtype: v.dtype, ndim: v.shape.length };

/** `v` as a tracer of `dtype` broadcast to `shape` (scalars become constants). */
export function lift(v: Operand, dtype: DType, shape: readonly number[]): Tracer {
  if (isScalar(v)) return full(v, dtype, shape);
  return broadcastTo(convert(v, dtype), shape);
}

/**
 * Runs a unit whose arguments may mix tensors and scalars: tensors are the executable's inputs,
 * scalars are static (they are in the signature and become constants). At least one tensor.
 */
export function run(op: string, args: readonly TensorOrScalar[], statics: string, body: (xs: Operand[]) => Tracer): Tensor {
  let key = statics;
  let numTensors = 0;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a instanceof Tensor) numTensors++;
    else if (isScalar(a)) key += `|${i}:${typeof a === "boolean" ? a : Object.is(a, -0) ? "-0" : a}`;
    else checkTensor(op, a, `argument ${i + 1}`);
  }
  if (numTensors === 0) throw new ArgumentError(`${op}: expected at least one Tensor argument, got only scalars`);
  // all tensors (the common case): the argument list is the input list
  const tensors = numTensors === args.length ? (args as readonly Tensor[]) : args.filter((a): a is Tensor => a instanceof Tensor);
  for (let i = 0; i < tensors.length; i++) checkTensor(op, tensors[i]);
  return dispatch1(op, key, tensors, (tracers) => {
    let k = 0;
    return body(args.map((a) => (a instanceof Tensor ? tracers[k++]! : (a as ScalarArg))));
  });
}

/** Like run, for units with several outputs. */
export function runMany(op: string, inputs: readonly Tensor[], statics: string, body: (xs: Tracer[]) => readonly Tracer[]): Tensor[] {
  for (const t of inputs) checkTensor(op, t);
  return dispatch(op, statics, inputs, body) as Tensor[];
}

/** torch.result_type over operands of a unit body. */
export const promote = (...xs: Operand[]): DType => resultType(...xs.map(promotionOf));
