/**
 * @file torch.special's x·log terms, elementwise: entr (−x log x) and xlog1py (x · log1p(y)).
 * Integer and bool inputs give float32; float16/bfloat16 compute in float32.
 */
import * as e from "../emit.js";
import { floatPair } from "../pointwise/gamma.js";
import { floatOpmath, log1pp } from "../pointwise/math.js";
import { c, type T } from "../pointwise/operands.js";
import { op } from "../signature/op.js";

/** −x log x for x > 0, 0 at 0, −inf below 0, NaN at NaN. */
function entrT(x: T): T {
  const zero = e.compare(x, c(x, 0), "EQ");
  const value = e.neg(e.mul(x, e.log(e.select(zero, c(x, 1), x))));
  return e.select(e.compare(x, c(x, 0), "LT"), c(x, -Infinity), value);
}

/** x · log1p(y), 0 where x is 0 and y is not NaN (as xlogy: the log is 0 there, so the gradients are PyTorch's). */
function xlog1pyT(x: T, y: T): T {
  const zero = e.and(e.compare(x, c(x, 0), "EQ"), e.compare(y, y, "EQ"));
  return e.mul(x, e.select(zero, c(y, 0), log1pp(y)));
}

export const entr = op(
  "entr(input: Tensor) -> Tensor",
  { doc: "The elementwise entropy −input · log(input): 0 at 0, −inf for negative inputs; integer and bool inputs give float32." },
  ({ input }) => floatOpmath("entr", input, entrT),
);

export const xlog1py = op(
  "xlog1py(input: Tensor | Scalar, other: Tensor | Scalar) -> Tensor",
  { doc: "input × log1p(other), 0 where input is 0 (unless other is NaN), elementwise with broadcasting; either may be a scalar; integer and bool inputs give float32." },
  ({ input, other }) => floatPair("xlog1py", input, other, xlog1pyT),
);
