/**
 * @file Activation functions of torch.nn.functional (relu6, leakyRelu, elu, selu, celu, gelu, silu,
 * mish, softplus, softsign, hardtanh, hardsigmoid, hardswish, glu). Float ones compute float16 and
 * bfloat16 in float32 and round once, as PyTorch's CPU kernels do.
 */
import { defaultFloatDType, isFloating } from "../../dtype.js";
import { ArgumentError, DTypeError, ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import * as e from "../emit.js";
import { normDim } from "../dims.js";
import { checkTensor, run } from "../unit.js";
import { c, expm1, floatUnit, log1p, opmath, requireFloat, slice, type T } from "./nn_common.js";

const relu0 = (x: T): T => e.max(x, c(x, 0));
/** x > 0 ? x : neg(x), with NaN kept (it fails the comparison and neg(NaN) is NaN). */
const positiveOr = (x: T, neg: (x: T) => T): T => e.select(e.compare(x, c(x, 0), "GT"), x, neg(x));

/** Clamps to [lo, hi]; NaN stays NaN. Integer tensors stay integers. */
function clampUnit(op: string, a: Tensor, lo: number, hi: number): Tensor {
  checkTensor(op, a);
  if (a.dtype === "bool") throw new DTypeError(`${op}: not implemented for bool tensors`);
  if (lo > hi) throw new ArgumentError(`${op}: minVal (${lo}) must not be greater than maxVal (${hi})`);
  return run(op, [a], `${lo}|${hi}`, ([x]) => {
    const t = x as T;
    const l = isFloating(t.dtype) ? lo : Math.ceil(lo);
    const h = isFloating(t.dtype) ? hi : Math.floor(hi);
    return e.min(e.max(t, c(t, l)), c(t, h));
  });
}

export function relu6(a: Tensor): Tensor {
  return clampUnit("relu6", a, 0, 6);
}

export function hardtanh(a: Tensor, options: { minVal?: number; maxVal?: number } = {}): Tensor {
  return clampUnit("hardtanh", a, options.minVal ?? -1, options.maxVal ?? 1);
}

export function leakyRelu(a: Tensor, options: { negativeSlope?: number } = {}): Tensor {
  const slope = options.negativeSlope ?? 0.01;
  return floatUnit("leakyRelu", a, String(slope), (x) => positiveOr(x, (v) => e.mul(v, c(v, slope))));
}

export function elu(a: Tensor, options: { alpha?: number } = {}): Tensor {
  const alpha = options.alpha ?? 1;
  return floatUnit("elu", a, String(alpha), (x) => positiveOr(x, (v) => e.mul(c(v, alpha), expm1(v))));
}

const SELU_ALPHA = 1.6732632423543772848170429916717;
const SELU_SCALE = 1.0507009873554804934193349852946;

export function selu(a: Tensor): Tensor {
  return floatUnit("selu", a, "", (x) => e.mul(c(x, SELU_SCALE), positiveOr(x, (v) => e.mul(c(v, SELU_ALPHA), expm1(v)))));
}

export function celu(a: Tensor, options: { alpha?: number } = {}): Tensor {
  const alpha = options.alpha ?? 1;
  if (alpha === 0) throw new ArgumentError("celu: alpha must not be 0 (ZeroDivisionError in PyTorch)");
  return floatUnit("celu", a, String(alpha), (x) => positiveOr(x, (v) => e.mul(c(v, alpha), expm1(e.div(v, c(v, alpha))))));
}

export function gelu(a: Tensor, options: { approximate?: "none" | "tanh" } = {}): Tensor {
  const approximate = options.approximate ?? "none";
  if (approximate !== "none" && approximate !== "tanh") throw new ArgumentError(`gelu: approximate must be "none" or "tanh", got ${JSON.stringify(approximate)}`);
  return floatUnit("gelu", a, approximate, (x) => {
    const half = e.mul(c(x, 0.5), x);
    if (approximate === "none") return e.mul(half, e.add(c(x, 1), e.erf(e.mul(x, c(x, Math.SQRT1_2)))));
    const inner = e.mul(c(x, Math.sqrt(2 / Math.PI)), e.add(x, e.mul(c(x, 0.044715), e.mul(x, e.mul(x, x)))));
    return e.mul(half, e.add(c(x, 1), e.tanh(inner)));
  });
}

export function silu(a: Tensor): Tensor {
  return floatUnit("silu", a, "", (x) => e.mul(x, e.logistic(x)));
}

/** log(1 + exp(beta x)) / beta, and x itself where beta x > threshold. */
const softplusT = (x: T, beta: number, threshold: number): T => {
  const bx = e.mul(x, c(x, beta));
  const soft = e.div(log1p(e.exp(bx)), c(x, beta));
  return e.select(e.compare(bx, c(x, threshold), "GT"), x, soft);
};

export function softplus(a: Tensor, options: { beta?: number; threshold?: number } = {}): Tensor {
  const beta = options.beta ?? 1;
  const threshold = options.threshold ?? 20;
  return floatUnit("softplus", a, `${beta}|${threshold}`, (x) => softplusT(x, beta, threshold));
}

export function mish(a: Tensor): Tensor {
  return floatUnit("mish", a, "", (x) => e.mul(x, e.tanh(softplusT(x, 1, 20))));
}

/** x / (1 + |x|); integer and bool inputs give float32, as PyTorch's true division does. */
export function softsign(a: Tensor): Tensor {
  checkTensor("softsign", a);
  return run("softsign", [a], "", ([x]) => {
    const t = x as T;
    const out = isFloating(t.dtype) ? t.dtype : defaultFloatDType;
    const f = e.convert(t, opmath(out));
    return e.convert(e.div(f, e.add(c(f, 1), e.abs(f))), out);
  });
}

/** relu6(x + 3) / 6. */
const hardsigmoidT = (x: T): T => e.div(e.min(relu0(e.add(x, c(x, 3))), c(x, 6)), c(x, 6));

export function hardsigmoid(a: Tensor): Tensor {
  return floatUnit("hardsigmoid", a, "", hardsigmoidT);
}

export function hardswish(a: Tensor): Tensor {
  return floatUnit("hardswish", a, "", (x) => e.mul(x, hardsigmoidT(x)));
}

/** First half of `dim` times the sigmoid of the second half. */
export function glu(a: Tensor, options: { dim?: number } = {}): Tensor {
  checkTensor("glu", a);
  requireFloat("glu", a);
  if (a.ndim === 0) throw new ShapeError("glu: does not support 0-d (scalar) tensors");
  const dim = normDim("glu", options.dim ?? -1, a.ndim);
  const n = a.shape[dim]!;
  if (n % 2 !== 0) throw new ShapeError(`glu: halving dimension must be even, but dimension ${dim} is size ${n} (shape [${a.shape.join(", ")}])`);
  return floatUnit("glu", a, String(dim), (x) => e.mul(slice(x, dim, 0, n / 2), e.logistic(slice(x, dim, n / 2, n))));
}
