/**
 * @file Activation functions of torch.nn.functional (relu6, leakyRelu, elu, selu, celu, gelu, silu,
 * mish, softplus, softsign, hardtanh, hardsigmoid, hardswish, glu, logsigmoid, threshold, hardshrink,
 * softshrink, tanhshrink, prelu, rrelu, softmin). Float ones compute float16 and bfloat16 in float32 and round
 * once, as PyTorch's CPU kernels do. PyTorch's `inplace` is supported for threshold and rrelu
 * (the input is rebound to the result); PyTorch's other activations that take `inplace` (relu6, elu,
 * selu, celu, leaky_relu, hardtanh, silu, mish, hardsigmoid, hardswish) have no such option here: it is rejected.
 */
import { defaultFloatDType, dtypeInfo, isFloating } from "../../dtype.js";
import { uniform } from "../../random/distributions.js";
import { ArgumentError, DTypeError, ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import * as e from "../emit.js";
import { normDim } from "../dims.js";
import { neg } from "../pointwise/arithmetic.js";
import { assignInPlace } from "../pointwise/in_place.js";
import { draw } from "../random/draw.js";
import { op } from "../signature/op.js";
import { run } from "../unit.js";
import { c, expm1, log1p, sliceDim, type T } from "./emitters.js";
import { opmath, requireFloat } from "./opmath.js";
import { softmax } from "./softmax.js";

/** x > 0 ? x : neg(x), with NaN kept (it fails the comparison and neg(NaN) is NaN). */
const positiveOr = (x: T, neg: (x: T) => T): T => e.select(e.compare(x, c(x, 0), "GT"), x, neg(x));

/**
 * x ≤ 0 ? neg(x) : x, the elu family's shape: NaN takes the x branch (PyTorch's gradient there is
 * the cotangent), and neg sees 0 where it is not used (expm1(inf)'s gradient would be 0 × inf).
 */
const nonPositiveOr = (x: T, neg: (x: T) => T): T => {
  const low = e.compare(x, c(x, 0), "LE");
  return e.select(low, neg(e.select(low, x, c(x, 0))), x);
};

/** One float tensor in, one of the same dtype out, computed in opmath. */
function floatUnit(op: string, a: Tensor, statics: string, fn: (x: T) => T): Tensor {
  requireFloat(op, a);
  return run(op, [a], statics, ([x]) => {
    const t = x as T;
    return e.convert(fn(e.convert(t, opmath(t.dtype))), t.dtype);
  });
}

/** Clamps to [lo, hi]; NaN stays NaN. Integer tensors stay integers. */
function clampUnit(op: string, a: Tensor, lo: number, hi: number): Tensor {
  if (a.dtype === "bool") throw new DTypeError(`${op}: not implemented for bool tensors`);
  if (lo > hi) throw new ArgumentError(`${op}: minVal (${lo}) must not be greater than maxVal (${hi})`);
  return run(op, [a], `${lo}|${hi}`, ([x]) => {
    const t = x as T;
    const l = isFloating(t.dtype) ? lo : Math.ceil(lo);
    const h = isFloating(t.dtype) ? hi : Math.floor(hi);
    // selects, so that at a bound the gradient is 0 as in PyTorch's hardtanh (max/min would split it)
    return e.select(e.compare(t, c(t, l), "LE"), c(t, l), e.select(e.compare(t, c(t, h), "GE"), c(t, h), t));
  });
}

export const relu6 = op(
  "relu6(input: Tensor) -> Tensor",
  { doc: "min(max(x, 0), 6); integer tensors stay integers." },
  ({ input }) => clampUnit("relu6", input, 0, 6),
);

export const hardtanh = op(
  "hardtanh(input: Tensor, minVal: float = -1, maxVal: float = 1) -> Tensor",
  { doc: "x clamped to [minVal, maxVal] (NaN stays NaN); integer tensors stay integers." },
  ({ input, minVal, maxVal }) => clampUnit("hardtanh", input, minVal, maxVal),
);

export const leakyRelu = op(
  "leakyRelu(input: Tensor, negativeSlope: float = 0.01) -> Tensor",
  { doc: "x where x > 0, else negativeSlope · x (float tensors)." },
  ({ input, negativeSlope }) => floatUnit("leakyRelu", input, String(negativeSlope), (x) => positiveOr(x, (v) => e.mul(v, c(v, negativeSlope)))),
);

export const elu = op(
  "elu(input: Tensor, alpha: float = 1) -> Tensor",
  { doc: "x where x > 0, else alpha · (exp(x) − 1) (float tensors)." },
  ({ input, alpha }) => floatUnit("elu", input, String(alpha), (x) => nonPositiveOr(x, (v) => e.mul(c(v, alpha), expm1(v)))),
);

export const SELU_ALPHA = 1.6732632423543772848170429916717;
export const SELU_SCALE = 1.0507009873554804934193349852946;

export const selu = op(
  "selu(input: Tensor) -> Tensor",
  { doc: "scale · elu(x, alpha) with PyTorch's fixed scale ≈ 1.0507 and alpha ≈ 1.6733 (float tensors)." },
  ({ input }) => floatUnit("selu", input, "", (x) => e.mul(c(x, SELU_SCALE), nonPositiveOr(x, (v) => e.mul(c(v, SELU_ALPHA), expm1(v))))),
);

export const celu = op(
  "celu(input: Tensor, alpha: float = 1) -> Tensor",
  { doc: "x where x > 0, else alpha · (exp(x / alpha) − 1) (float tensors; alpha must not be 0)." },
  ({ input, alpha }) => {
    if (alpha === 0) throw new ArgumentError("celu: alpha must not be 0 (ZeroDivisionError in PyTorch)");
    return floatUnit("celu", input, String(alpha), (x) => nonPositiveOr(x, (v) => e.mul(c(v, alpha), expm1(e.div(v, c(v, alpha))))));
  },
);

export const gelu = op(
  'gelu(input: Tensor, *, approximate: "none" | "tanh" = "none") -> Tensor',
  { doc: 'x · Φ(x) with Φ the standard normal CDF (through erf), or its tanh approximation with approximate: "tanh" (float tensors).' },
  ({ input, approximate }) =>
    floatUnit("gelu", input, approximate, (x) => {
      const half = e.mul(c(x, 0.5), x);
      if (approximate === "none") return e.mul(half, e.add(c(x, 1), e.erf(e.mul(x, c(x, Math.SQRT1_2)))));
      const inner = e.mul(c(x, Math.sqrt(2 / Math.PI)), e.add(x, e.mul(c(x, 0.044715), e.mul(x, e.mul(x, x)))));
      return e.mul(half, e.add(c(x, 1), e.tanh(inner)));
    }),
);

export const silu = op(
  "silu(input: Tensor) -> Tensor",
  { doc: "x · sigmoid(x) (float tensors)." },
  ({ input }) => floatUnit("silu", input, "", (x) => e.mul(x, e.logistic(x))),
);

/** log(1 + exp(beta x)) / beta, and x itself where beta x > threshold. */
const softplusT = (x: T, beta: number, threshold: number): T => {
  const bx = e.mul(x, c(x, beta));
  const linear = e.compare(bx, c(x, threshold), "GT");
  // exp sees 0 where x is returned (exp(inf)'s gradient would be 0 × inf)
  const soft = e.div(log1p(e.exp(e.select(linear, c(x, 0), bx))), c(x, beta));
  return e.select(linear, x, soft);
};

export const softplus = op(
  "softplus(input: Tensor, beta: float = 1, threshold: float = 20) -> Tensor",
  { doc: "log(1 + exp(beta · x)) / beta, and x itself where beta · x > threshold (float tensors)." },
  ({ input, beta, threshold }) => floatUnit("softplus", input, `${beta}|${threshold}`, (x) => softplusT(x, beta, threshold)),
);

export const mish = op(
  "mish(input: Tensor) -> Tensor",
  { doc: "x · tanh(softplus(x)) (float tensors)." },
  ({ input }) => floatUnit("mish", input, "", (x) => e.mul(x, e.tanh(softplusT(x, 1, 20)))),
);

export const softsign = op(
  "softsign(input: Tensor) -> Tensor",
  { doc: "x / (1 + |x|); integer and bool inputs give float32, as PyTorch's true division does." },
  ({ input }) =>
    run("softsign", [input], "", ([x]) => {
      const t = x as T;
      const out = isFloating(t.dtype) ? t.dtype : defaultFloatDType;
      const f = e.convert(t, opmath(out));
      return e.convert(e.div(f, e.add(c(f, 1), e.abs(f))), out);
    }),
);

/**
 * relu6(x + 3) / 6 by selects, with PyTorch's gradient: 1/6 strictly inside (−3, 3), 0 at the bounds
 * and for NaN (a constant NaN).
 */
const hardsigmoidT = (x: T): T => {
  const low = e.select(e.compare(x, c(x, -3), "LE"), c(x, 0), c(x, NaN));
  const mid = e.select(e.compare(x, c(x, 3), "LT"), e.div(e.add(x, c(x, 3)), c(x, 6)), c(x, 1));
  return e.select(e.compare(x, c(x, -3), "GT"), mid, low);
};

/**
 * x · relu6(x + 3) / 6 (so −inf gives NaN, as in PyTorch), with PyTorch's gradient: 0 below −3,
 * x/3 + ½ on [−3, 3), and the cotangent itself from 3 up and for NaN (the x branch).
 */
const hardswishT = (x: T): T => {
  const below = e.compare(x, c(x, 3), "LT");
  const v = e.select(below, x, c(x, 0)); // the product sees 0 where x is returned (inf × 0 in its gradient)
  const h = e.select(e.compare(v, c(v, -3), "LT"), c(v, 0), e.div(e.add(v, c(v, 3)), c(v, 6)));
  return e.select(below, e.mul(v, h), x);
};

export const hardsigmoid = op(
  "hardsigmoid(input: Tensor) -> Tensor",
  { doc: "relu6(x + 3) / 6 (float tensors)." },
  ({ input }) => floatUnit("hardsigmoid", input, "", hardsigmoidT),
);

export const hardswish = op(
  "hardswish(input: Tensor) -> Tensor",
  { doc: "x · relu6(x + 3) / 6 (float tensors)." },
  ({ input }) => floatUnit("hardswish", input, "", hardswishT),
);

export const glu = op(
  "glu(input: Tensor, dim: int = -1) -> Tensor",
  { doc: "The first half of `input` along `dim` times the sigmoid of the second half (float tensors; that dim's size must be even)." },
  ({ input, dim: d }) => {
    requireFloat("glu", input);
    if (input.ndim === 0) throw new ShapeError("glu: does not support 0-d (scalar) tensors");
    const dim = normDim("glu", d, input.ndim);
    const n = input.shape[dim]!;
    if (n % 2 !== 0) throw new ShapeError(`glu: halving dimension must be even, but dimension ${dim} is size ${n} (shape [${input.shape.join(", ")}])`);
    return floatUnit("glu", input, String(dim), (x) => e.mul(sliceDim(x, dim, 0, n / 2), e.logistic(sliceDim(x, dim, n / 2, n))));
  },
);

export const logsigmoid = op(
  "logsigmoid(input: Tensor) -> Tensor",
  { doc: "log(sigmoid(x)), computed stably as min(x, 0) − log(1 + exp(−|x|)) (float tensors)." },
  ({ input }) =>
    floatUnit("logsigmoid", input, "", (x) => {
      const negative = e.compare(x, c(x, 0), "LT");
      // −|x| by a select rather than abs, so that the gradient at 0 is ½ as in PyTorch
      const minusAbs = e.select(negative, x, e.neg(x));
      return e.sub(e.select(negative, x, c(x, 0)), log1p(e.exp(minusAbs)));
    }),
);

/** `inside` where lo ≤ x ≤ hi, else `other` (NaN is outside, so its gradient is the cotangent's, as in PyTorch). */
const insideOr = (x: T, lo: number, hi: number, inside: T, other: T): T =>
  e.select(e.and(e.compare(x, c(x, lo), "GE"), e.compare(x, c(x, hi), "LE")), inside, other);

export const threshold = op(
  "threshold(input: Tensor, threshold: float, value: float, inplace: bool = false) -> Tensor",
  { doc: "x where x > threshold, else value (NaN stays NaN); integer tensors compare with and fill in their dtype (threshold and value truncated). `inplace` rebinds the input to the result." },
  ({ input, threshold: th, value, inplace }) => {
    const result = thresholded("threshold", input, th, value);
    return inplace ? assignInPlace("threshold", input, result) : result;
  },
);

function thresholded(op: string, a: Tensor, th: number, value: number): Tensor {
  if (a.dtype === "bool") throw new DTypeError(`${op}: not implemented for bool tensors (convert with .to("float32") or an integer dtype)`);
  return run(op, [a], `${th}|${value}`, ([x]) => {
    const t = x as T;
    const cast = (v: number) => (isFloating(t.dtype) ? v : Math.trunc(v));
    return e.select(e.compare(t, c(t, cast(th)), "LE"), c(t, cast(value)), t);
  });
}

export const hardshrink = op(
  "hardshrink(input: Tensor, lambd: float = 0.5) -> Tensor",
  { doc: "x where |x| > lambd, else 0 (NaN stays NaN; float tensors).", method: true },
  ({ input, lambd }) => floatUnit("hardshrink", input, String(lambd), (x) => insideOr(x, -lambd, lambd, c(x, 0), x)),
);

export const softshrink = op(
  "softshrink(input: Tensor, lambd: float = 0.5) -> Tensor",
  { doc: "x − lambd where x > lambd, x + lambd where x < −lambd, else 0 (NaN stays NaN; float tensors; lambd ≥ 0)." },
  ({ input, lambd }) => {
    if (!(lambd >= 0)) throw new ArgumentError(`softshrink: lambd must be in range [0, inf), but got ${String(lambd)}`);
    return floatUnit("softshrink", input, String(lambd), (x) => insideOr(x, -lambd, lambd, c(x, 0), e.sub(x, e.mul(e.sign(x), c(x, lambd)))));
  },
);

export const tanhshrink = op(
  "tanhshrink(input: Tensor) -> Tensor",
  { doc: "x − tanh(x); integer inputs give float32, as PyTorch's subtraction of a float tanh does (bool is an error)." },
  ({ input }) => {
    if (input.dtype === "bool") throw new DTypeError(`tanhshrink: subtraction with a bool tensor is not supported (convert with .to("float32") first)`);
    return run("tanhshrink", [input], "", ([x]) => {
      const t = x as T;
      const out = isFloating(t.dtype) ? t.dtype : defaultFloatDType;
      const f = e.convert(t, opmath(out));
      return e.convert(e.sub(f, e.tanh(f)), out);
    });
  },
);

export const prelu = op(
  "prelu(input: Tensor, weight: Tensor) -> Tensor",
  { doc: "x where x > 0, else weight · x, with weight one value or one per channel (dim 1) of the same float dtype as the input.", method: true },
  ({ input, weight }) => {
    const op = "prelu";
    requireFloat(op, input);
    if (weight.dtype !== input.dtype) throw new DTypeError(`${op}: type promoting not supported: input is ${input.dtype} and weight ${weight.dtype} (convert one of them)`);
    if (weight.ndim > 1) throw new ShapeError(`${op}: expected weight to be a scalar or 1-d tensor, but got shape [${weight.shape.join(", ")}]`);
    const channels = input.ndim > 1 ? input.shape[1]! : 1;
    if (weight.numel() !== 1) {
      if (input.ndim === 0) throw new ShapeError(`${op}: a 0-d input needs a weight of one element, got ${weight.numel()}`);
      if (weight.numel() !== channels) {
        throw new ShapeError(`${op}: mismatch of parameter numbers and input channel size: found ${weight.numel()} parameters and channel size ${channels} (input shape [${input.shape.join(", ")}])`);
      }
    }
    return run(op, [input, weight], "", ([x, w]) => {
      const t = x as T;
      const wt = e.reshape(w as T, weight.numel() === 1 ? [] : [channels]);
      const slope = wt.ndim === 0 ? e.broadcastTo(wt, t.shape) : e.broadcastInDim(wt, t.shape, [1]);
      const f = e.convert(t, opmath(t.dtype));
      return e.convert(positiveOr(f, (v) => e.mul(v, e.convert(slope, f.dtype))), t.dtype);
    });
  },
);

export const rrelu = op(
  "rrelu(input: Tensor, lower: float = 0.125, upper: float = 0.3333333333333333, training: bool = false, inplace: bool = false) -> Tensor",
  {
    doc: "Randomized leaky ReLU: when training, each x ≤ 0 is multiplied by its own slope drawn uniformly from [lower, upper] (from the default generator); otherwise leakyRelu with slope (lower + upper) / 2 (float tensors). `inplace` rebinds the input to the result.",
  },
  ({ input, lower, upper, training, inplace }) => {
    const result = randomizedLeaky("rrelu", input, lower, upper, training);
    return inplace ? assignInPlace("rrelu", input, result) : result;
  },
);

function randomizedLeaky(op: string, a: Tensor, lower: number, upper: number, training: boolean): Tensor {
  requireFloat(op, a);
  if (!(lower <= upper)) throw new ArgumentError(`${op}: lower bound (${lower}) should be less than or equal to the upper bound (${upper})`);
  if (!training) {
    const slope = (lower + upper) / 2;
    return floatUnit(op, a, String(slope), (x) => positiveOr(x, (v) => e.mul(v, c(v, slope))));
  }
  return draw(op, `${lower}|${upper}`, a.device, undefined, [a], (key, [x]) => {
    const f = e.convert(x!, opmath(x!.dtype));
    const slope = uniform(key, f.shape, f.dtype, lower, upper);
    return e.convert(e.select(e.compare(f, c(f, 0), "LE"), e.mul(f, slope), f), x!.dtype);
  });
}

export const softmin = op(
  "softmin(input: Tensor, dim: int, *, dtype?: dtype) -> Tensor",
  { doc: "softmax(−x) along `dim`, in `dtype` if given (then −x is taken in the input's dtype first, as in PyTorch). `dim` is required, as for softmax." },
  ({ input, dim, dtype }) => {
    const op = "softmin";
    if (input.dtype === "bool") throw new DTypeError(`${op}: negation of a bool tensor is not supported (convert with .to("float32") first)`);
    normDim(op, dim, input.ndim);
    const computed = dtype === undefined ? input.dtype : dtypeInfo(dtype).name;
    if (!isFloating(computed)) throw new DTypeError(`${op}: expected a floating dtype, got ${computed} (pass { dtype: "float32" } or convert first)`);
    const negated = neg(input);
    try {
      return dtype === undefined ? softmax(negated, dim) : softmax(negated, dim, { dtype });
    } finally {
      negated.dispose();
    }
  },
);
