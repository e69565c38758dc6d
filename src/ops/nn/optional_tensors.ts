/**
 * @file Units whose optional tensor arguments (a weight, a bias, a mask) may be absent.
 */
import { Tensor } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import { run } from "../unit.js";

/**
 * Runs a unit whose optional tensor arguments may be missing (null/undefined): the body gets
 * undefined in their place, and which ones are present is part of the signature.
 */
export function runOptional(op: string, args: readonly (Tensor | null | undefined)[], statics: string, body: (xs: (Tracer | undefined)[]) => Tracer): Tensor {
  const present = args.map((a) => a !== null && a !== undefined);
  const tensors = args.filter((a): a is Tensor => a instanceof Tensor);
  const key = `${present.map((p) => (p ? 1 : 0)).join("")}|${statics}`;
  return run(op, tensors, key, (xs) => {
    let k = 0;
    return body(present.map((p) => (p ? (xs[k++] as Tracer) : undefined)));
  });
}
