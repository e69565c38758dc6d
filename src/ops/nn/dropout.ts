/**
 * @file nn.functional.dropout: zeroes each element with probability p (drawn from the generator
 * like every random op) and scales the kept ones by 1/(1 − p), as PyTorch does in training.
 */
import { isFloating } from "../../dtype.js";
import { uniform } from "../../random/distributions.js";
import { ArgumentError, DTypeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import * as e from "../emit.js";
import { clone } from "../conversion.js";
import { assignInPlace } from "../pointwise/in_place.js";
import { draw } from "../random/draw.js";
import { op } from "../signature/op.js";
import { run } from "../unit.js";

export const dropout = op(
  "dropout(input: Tensor, p: float = 0.5, training: bool = true, inplace: bool = false, *, generator?: Generator) -> Tensor",
  {
    doc: "Zeroes each element with probability p and scales the rest by 1/(1 − p) when training (otherwise a copy); `inplace` rebinds the input to the result, and the mask draws from `generator`, which PyTorch does not take.",
  },
  ({ input, p, training, inplace, generator }) => {
    if (!(p >= 0 && p <= 1)) throw new ArgumentError(`dropout: dropout probability has to be between 0 and 1, but got ${String(p)}`);
    if (!isFloating(input.dtype)) throw new DTypeError(`dropout: expects a floating tensor, got ${input.dtype}`);
    let result: Tensor;
    if (!training || p === 0) result = clone(input);
    else if (p === 1) result = run("dropout", [input], "all", ([x]) => e.mul(x as Tracer, e.full(0, input.dtype, input.shape)));
    else result = draw("dropout", String(p), input.device, generator, [input], (k, [x]) => dropoutTraced(k, x!, p));
    return inplace ? assignInPlace("dropout", input, result) : result;
  },
);

/** `x` with each element zeroed with probability p (0 < p < 1) and the rest scaled by 1/(1 − p), from `key`. */
export function dropoutTraced(key: Tracer, x: Tracer, p: number): Tracer {
  const keep = e.compare(uniform(key, x.shape, x.dtype), e.full(p, x.dtype, x.shape), "GE");
  const scale = e.select(keep, e.full(1 / (1 - p), x.dtype, x.shape), e.full(0, x.dtype, x.shape));
  return e.mul(x, scale);
}
