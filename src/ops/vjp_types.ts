/**
 * @file The shape of a VJP rule (src/ops/prims_vjp.ts): given a primitive's traced inputs, outputs,
 * params and one cotangent per output, it emits primitives that compute one cotangent per input.
 */
import type { Tracer } from "../trace/tracer.js";
import type { Prim, PrimParams } from "./prims.js";

/** A cotangent, or null for zero (an output nothing depends on, an input with no gradient). */
export type Cotangent = Tracer | null;

export interface VjpArgs<P extends Prim> {
  readonly inputs: readonly Tracer[];
  readonly outputs: readonly Tracer[];
  /** One per output, with the output's shape and dtype; null where no gradient reaches it (at least one is not null). */
  readonly cts: readonly Cotangent[];
  /** One per input: whether a gradient flows to it (a rule for an input with no gradient in PyTorch throws when it is needed). */
  readonly needed: readonly boolean[];
  readonly params: PrimParams[P];
}

/**
 * One cotangent per input (a missing entry is null): an input that is not a floating dtype, or on
 * which the output does not depend differentiably, gets null. A cotangent has its input's shape and dtype.
 */
export type VjpRule<P extends Prim> = (a: VjpArgs<P>) => readonly Cotangent[];
