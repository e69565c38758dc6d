/**
 * @file nn.functional.dropout: zeroes each element with probability p (drawn from the generator
 * like every random op) and scales the kept ones by 1/(1 − p), as PyTorch does in training.
 */
import { isFloating } from "../../dtype.js";
import { uniform } from "../../random/distributions.js";
import { Generator } from "../../random/generator.js";
import { ArgumentError, DTypeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import * as e from "../emit.js";
import { checkTensor, run } from "../unit.js";
import { clone } from "./conversion.js";
import { assignInPlace } from "./inplace.js";
import { draw } from "./random.js";

export interface DropoutOptions {
  /** Probability of zeroing an element (0.5). */
  p?: number;
  /** Only drop in training (true); otherwise return a copy of the input. */
  training?: boolean;
  /** Write the result into the input (rebinding it, like every in-place op). */
  inplace?: boolean;
  generator?: Generator;
}

export function dropout(input: Tensor, options: DropoutOptions = {}): Tensor {
  checkTensor("dropout", input);
  const { p = 0.5, training = true, inplace = false, generator } = options;
  if (typeof p !== "number" || !(p >= 0 && p <= 1)) throw new ArgumentError(`dropout: dropout probability has to be between 0 and 1, but got ${String(p)}`);
  if (generator !== undefined && !(generator instanceof Generator)) throw new ArgumentError("dropout: generator must be a torch.Generator");
  if (!isFloating(input.dtype)) throw new DTypeError(`dropout: expects a floating tensor, got ${input.dtype}`);
  let result: Tensor;
  if (!training || p === 0) result = clone(input);
  else if (p === 1) result = run("dropout", [input], "all", ([x]) => e.mul(x as Tracer, e.full(0, input.dtype, input.shape)));
  else {
    result = draw("dropout", String(p), input.device, generator, [input], (k, [x]) => dropoutTraced(k, x!, p));
  }
  return inplace ? assignInPlace("dropout", input, result) : result;
}

/** `x` with each element zeroed with probability p (0 < p < 1) and the rest scaled by 1/(1 − p), from `key`. */
export function dropoutTraced(key: Tracer, x: Tracer, p: number): Tracer {
  const keep = e.compare(uniform(key, x.shape, x.dtype), e.full(p, x.dtype, x.shape), "GE");
  const scale = e.select(keep, e.full(1 / (1 - p), x.dtype, x.shape), e.full(0, x.dtype, x.shape));
  return e.mul(x, scale);
}
