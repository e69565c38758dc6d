/**
 * @file torch.special's x·log terms, elementwise: entr (−x log x) and xlog1py (x · log1p(y)).
 * Integer and bool inputs give float32; float16/bfloat16 compute in float32.
 */
import * as e from "../emit.js";
import { floatBinary, floatOpmath, log1pp } from "../pointwise/math.js";
import { c, isNanT, type T } from "../pointwise/operands.js";
import { op } from "../signature/op.js";

/**
 * −x log x for x > 0, 0 at ±0, −inf below 0, NaN at NaN, with PyTorch's gradient −(1 + log x): +inf at
 * ±0 (√x's there) and NaN below 0 (−inf · (1 + 0·x)'s); at +inf ours is NaN and at −inf 0 (PyTorch's
 * −inf and NaN). Each branch sees x only where it is taken, so the others' gradients stay 0.
 */
function entrT(x: T): T {
  const only = (where: T, fallback: number): T => e.select(where, x, c(x, fallback));
  const positive = e.compare(x, c(x, 0), "GT");
  const zero = e.compare(x, c(x, 0), "EQ");
  const negative = e.and(e.compare(x, c(x, 0), "LT"), e.isFinite(x));
  const safe = only(positive, 1);
  const value = e.neg(e.mul(safe, e.log(safe)));
  const atZero = e.sqrt(e.add(only(zero, 1), c(x, 0))); // −0 + 0 is +0
  const below = e.mul(c(x, -Infinity), e.add(c(x, 1), e.mul(c(x, 0), only(negative, 0))));
  return e.select(positive, value, e.select(zero, atZero, e.select(isNanT(x), x, below)));
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
  ({ input, other }) => floatBinary("xlog1py", input, other, xlog1pyT),
);
