/**
 * @file In-place forms of the elementwise ops and of PyTorch's aliases (`x.sin_()`, `x.gt_(0)`,
 * `x.arccos_()`, `x.clampMin_(0)`), Tensor methods only: each checks its result's dtype and shape
 * before running and then assigns the result to x (elementwiseInPlace in src/ops/pointwise/in_place.ts:
 * x keeps its dtype and shape, a result that cannot be cast back is a DTypeError). Most are rows
 * of the tables below, one row per op.
 */
import { DTypeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import type { CompareDirection } from "../prims.js";
import { op } from "../signature/op.js";
import type { TensorOrScalar } from "../types.js";
import { abs, addSub, addcdiv, addcmul, divide, floatPower, floorDivide, fmod, heaviside, lerp, multiply, negate, remainder, sgn, sign, square } from "./arithmetic.js";
import { bitwiseAnd, bitwiseLeftShift, bitwiseNot, bitwiseOr, bitwiseRightShift, bitwiseXor } from "./bitwise.js";
import { nanToNum } from "./classification.js";
import { compare } from "./comparison.js";
import { clampTo } from "./extremes.js";
import { copysign, ldexp, nextafter } from "./floats.js";
import { elementwiseInPlace, type ResultKind } from "./in_place.js";
import { gcd, lcm } from "./integers.js";
import { logicalAnd, logicalNot, logicalOr, logicalXor } from "./logical.js";
import {
  acos, acosh, asin, asinh, atan, atan2, atanh, cos, cosh, deg2rad, exp2, expm1, hypot, log10, log1p, log2, rad2deg, reciprocal, rsqrt, sin, sinc, sinh, tan, xlogy,
} from "./math.js";
import { ceil, fix, floor, frac, round, trunc } from "./rounding.js";
import { erf, erfc, erfinv, logit } from "./special.js";

const unary = (name: string, fn: (x: Tensor) => Tensor, kind: ResultKind) => ({ input }: { input: Tensor }) => elementwiseInPlace(name, kind, input, [], () => fn(input));

const binary =
  <O extends TensorOrScalar>(name: string, kind: ResultKind, fn: (x: Tensor, other: O) => Tensor) =>
  ({ input, other }: { input: Tensor; other: O }) =>
    elementwiseInPlace(name, kind, input, [other], () => fn(input, other));

/**
 * op() for the rows of the tables below, whose signatures are built from each row's name (their
 * types are checked against the generated ones by test/generated.test.ts and test/signatures.test.ts).
 */
const define = op as unknown as (signature: string, options: { doc: string; method: true }, body: (args: never) => Tensor) => unknown;

// --- unary: [name, op, doc] ------------------------------------------------------------------------------

/** Ops whose result keeps x's dtype. */
const unaryOps: readonly [string, (x: Tensor) => Tensor, string][] = [
  ["absolute_", abs, "In place: x = |x| (alias of abs_); returns x."],
  ["negative_", negate, "In place: x = −x (alias of neg_); returns x."],
  ["sgn_", sgn, "In place: x = sgn(x); returns x."],
  ["sign_", sign, "In place: x = sign(x); returns x."],
  ["square_", square, "In place: x = x × x; returns x."],
  ["floor_", floor, "In place: x rounded down; returns x."],
  ["ceil_", ceil, "In place: x rounded up; returns x."],
  ["trunc_", trunc, "In place: x rounded toward zero; returns x."],
  ["fix_", fix, "In place: x rounded toward zero (alias of trunc_); returns x."],
  ["frac_", frac, "In place: x = x − trunc(x) (float tensors); returns x."],
  ["logicalNot_", logicalNot, "In place: x = not x, as 1 or 0 in x's dtype; returns x."],
  ["bitwiseNot_", bitwiseNot, "In place: x = ~x (integer and bool tensors); returns x."],
];

/** Ops whose result is float (an integer or bool x is a DTypeError, as its float result cannot be cast back). */
const floatUnaryOps: readonly [string, (x: Tensor) => Tensor, string][] = [
  ["reciprocal_", reciprocal, "In place: x = 1 / x (float tensors); returns x."],
  ["rsqrt_", rsqrt, "In place: x = 1 / sqrt(x) (float tensors); returns x."],
  ["exp2_", exp2, "In place: x = 2^x (float tensors); returns x."],
  ["expm1_", expm1, "In place: x = e^x − 1 (float tensors); returns x."],
  ["log2_", log2, "In place: x = log2(x) (float tensors); returns x."],
  ["log10_", log10, "In place: x = log10(x) (float tensors); returns x."],
  ["log1p_", log1p, "In place: x = log(1 + x) (float tensors); returns x."],
  ["sin_", sin, "In place: x = sin(x) (float tensors); returns x."],
  ["cos_", cos, "In place: x = cos(x) (float tensors); returns x."],
  ["tan_", tan, "In place: x = tan(x) (float tensors); returns x."],
  ["asin_", asin, "In place: x = asin(x) (float tensors); returns x."],
  ["acos_", acos, "In place: x = acos(x) (float tensors); returns x."],
  ["atan_", atan, "In place: x = atan(x) (float tensors); returns x."],
  ["arcsin_", asin, "In place: x = arcsin(x) (float tensors); returns x."],
  ["arccos_", acos, "In place: x = arccos(x) (float tensors); returns x."],
  ["arctan_", atan, "In place: x = arctan(x) (float tensors); returns x."],
  ["sinh_", sinh, "In place: x = sinh(x) (float tensors); returns x."],
  ["cosh_", cosh, "In place: x = cosh(x) (float tensors); returns x."],
  ["asinh_", asinh, "In place: x = asinh(x) (float tensors); returns x."],
  ["acosh_", acosh, "In place: x = acosh(x) (float tensors); returns x."],
  ["atanh_", atanh, "In place: x = atanh(x) (float tensors); returns x."],
  ["arcsinh_", asinh, "In place: x = arcsinh(x) (float tensors); returns x."],
  ["arccosh_", acosh, "In place: x = arccosh(x) (float tensors); returns x."],
  ["arctanh_", atanh, "In place: x = arctanh(x) (float tensors); returns x."],
  ["deg2rad_", deg2rad, "In place: degrees to radians (float tensors); returns x."],
  ["rad2deg_", rad2deg, "In place: radians to degrees (float tensors); returns x."],
  ["sinc_", sinc, "In place: x = sinc(x) (float tensors); returns x."],
  ["erf_", erf, "In place: x = erf(x) (float tensors); returns x."],
  ["erfc_", erfc, "In place: x = erfc(x) = 1 − erf(x) (float tensors); returns x."],
  ["erfinv_", erfinv, "In place: x = erfinv(x) (float tensors); returns x."],
];

for (const [name, fn, doc] of unaryOps) define(`${name}(input: Tensor) -> Tensor`, { doc, method: true }, unary(name, fn, "promoted"));
for (const [name, fn, doc] of floatUnaryOps) define(`${name}(input: Tensor) -> Tensor`, { doc, method: true }, unary(name, fn, "float"));

// --- binary: [name, result dtype, op, doc] ----------------------------------------------------------------

/** Ops whose other operand is a tensor or a scalar. */
const binaryOps: readonly [string, ResultKind, (x: Tensor, other: TensorOrScalar) => Tensor, string][] = [
  ["xlogy_", "float", xlogy, "In place: x = xlogy(x, other) (float tensors); returns x."],
  ["copysign_", "float", copysign, "In place: x = copysign(x, other) (float tensors); returns x."],
  ["multiply_", "promoted", multiply, "In place: x ×= other (alias of mul_); returns x."],
  ["floorDivide_", "promoted", floorDivide, "In place: x = x // other, rounded down; returns x."],
  ["fmod_", "promoted", fmod, "In place: x = fmod(x, other); returns x."],
  ["remainder_", "promoted", remainder, "In place: x = remainder(x, other); returns x."],
  ["bitwiseAnd_", "promoted", bitwiseAnd, "In place: x &= other (integer and bool tensors); returns x."],
  ["bitwiseOr_", "promoted", bitwiseOr, "In place: x |= other (integer and bool tensors); returns x."],
  ["bitwiseXor_", "promoted", bitwiseXor, "In place: x ^= other (integer and bool tensors); returns x."],
  ["bitwiseLeftShift_", "promoted", bitwiseLeftShift, "In place: x <<= other (integer tensors); returns x."],
  ["bitwiseRightShift_", "promoted", bitwiseRightShift, "In place: x >>= other (integer tensors); returns x."],
];

/** Ops whose other operand is a tensor. */
const tensorBinaryOps: readonly [string, ResultKind, (x: Tensor, other: Tensor) => Tensor, string][] = [
  ["atan2_", "float", atan2, "In place: x = atan2(x, other) (float tensors); returns x."],
  ["arctan2_", "float", atan2, "In place: x = arctan2(x, other) (float tensors); returns x."],
  ["hypot_", "float", hypot, "In place: x = hypot(x, other) (float tensors); returns x."],
  ["nextafter_", "float", nextafter, "In place: x = nextafter(x, other) (float tensors); returns x."],
  ["ldexp_", "float", ldexp, "In place: x = x × 2^other (float tensors); returns x."],
  ["gcd_", "promoted", gcd, "In place: x = gcd(x, other) (integer tensors); returns x."],
  ["lcm_", "promoted", lcm, "In place: x = lcm(x, other) (integer tensors); returns x."],
  ["logicalAnd_", "bool", logicalAnd, "In place: x = x and other, as 1 or 0 in x's dtype; returns x."],
  ["logicalOr_", "bool", logicalOr, "In place: x = x or other, as 1 or 0 in x's dtype; returns x."],
  ["logicalXor_", "bool", logicalXor, "In place: x = x xor other, as 1 or 0 in x's dtype; returns x."],
];

for (const [name, kind, fn, doc] of binaryOps) define(`${name}(input: Tensor, other: Tensor | Scalar) -> Tensor`, { doc, method: true }, binary(name, kind, fn));
for (const [name, kind, fn, doc] of tensorBinaryOps) define(`${name}(input: Tensor, other: Tensor) -> Tensor`, { doc, method: true }, binary(name, kind, fn));

// --- comparisons, x becoming 1 or 0 in its own dtype: [name, direction, doc] ------------------------------

const comparisonOps: readonly [string, CompareDirection, string][] = [
  ["eq_", "EQ", "In place: x = (x == other), as 1 or 0 in x's dtype; returns x."],
  ["ne_", "NE", "In place: x = (x != other), as 1 or 0 in x's dtype; returns x."],
  ["lt_", "LT", "In place: x = (x < other), as 1 or 0 in x's dtype; returns x."],
  ["le_", "LE", "In place: x = (x <= other), as 1 or 0 in x's dtype; returns x."],
  ["gt_", "GT", "In place: x = (x > other), as 1 or 0 in x's dtype; returns x."],
  ["ge_", "GE", "In place: x = (x >= other), as 1 or 0 in x's dtype; returns x."],
  ["greater_", "GT", "In place: x = (x > other), as 1 or 0 in x's dtype; returns x."],
  ["greaterEqual_", "GE", "In place: x = (x >= other), as 1 or 0 in x's dtype; returns x."],
  ["less_", "LT", "In place: x = (x < other), as 1 or 0 in x's dtype; returns x."],
  ["lessEqual_", "LE", "In place: x = (x <= other), as 1 or 0 in x's dtype; returns x."],
  ["notEqual_", "NE", "In place: x = (x != other), as 1 or 0 in x's dtype; returns x."],
];

for (const [name, direction, doc] of comparisonOps) {
  define(`${name}(input: Tensor, other: Tensor | Scalar) -> Tensor`, { doc, method: true }, binary(name, "bool", (x, other: TensorOrScalar) => compare(name.slice(0, -1), direction, x, other)));
}

// --- with more parameters ---------------------------------------------------------------------------------

export const divide_ = op(
  'divide_(input: Tensor, other: Tensor | Scalar, *, roundingMode?: "trunc" | "floor") -> Tensor',
  { doc: "In place: x /= other (alias of div_); returns x.", method: true },
  ({ input, other, roundingMode }) => elementwiseInPlace("divide_", roundingMode ? "promoted" : "float", input, [other], () => divide(input, other, roundingMode ?? null)),
);

export const trueDivide_ = op(
  "trueDivide_(input: Tensor, other: Tensor | Scalar) -> Tensor",
  { doc: "In place: x /= other, true division (float tensors); returns x.", method: true },
  binary("trueDivide_", "float", (x, other: TensorOrScalar) => divide(x, other, null)),
);

export const subtract_ = op(
  "subtract_(input: Tensor, other: Tensor | Scalar, *, alpha: Scalar = 1) -> Tensor",
  { doc: "In place: x −= alpha × other (alias of sub_); returns x.", method: true },
  ({ input, other, alpha }) => elementwiseInPlace("subtract_", "promoted", input, [other], () => addSub("sub", input, other, alpha)),
);

export const floatPower_ = op(
  "floatPower_(input: Tensor, exponent: Tensor | Scalar) -> Tensor",
  { doc: "In place: x = x ** exponent in float64 (x must be float64); returns x.", method: true },
  ({ input, exponent }) => {
    if (input.dtype !== "float64") {
      throw new DTypeError(`floatPower_: the base has dtype ${input.dtype} but the result is float64; use the out-of-place floatPower or convert with .to("float64") first`);
    }
    return elementwiseInPlace("floatPower_", "promoted", input, [exponent], () => floatPower(input, exponent));
  },
);

export const heaviside_ = op(
  "heaviside_(input: Tensor, values: Tensor) -> Tensor",
  { doc: "In place: x = heaviside(x, values); returns x.", method: true },
  ({ input, values }) => elementwiseInPlace("heaviside_", "promoted", input, [values], () => heaviside(input, values)),
);

export const clip_ = op(
  "clip_(input: Tensor, min?: Tensor | Scalar, max?: Tensor | Scalar) -> Tensor",
  { doc: "In place: x clamped to [min, max] (alias of clamp_); returns x.", method: true },
  ({ input, min, max }) => elementwiseInPlace("clip_", "promoted", input, [min, max], () => clampTo("clip", input, min ?? null, max ?? null)),
);

export const clampMin_ = op(
  "clampMin_(input: Tensor, min: Tensor | Scalar) -> Tensor",
  { doc: "In place: x = max(x, min); returns x.", method: true },
  ({ input, min }) => elementwiseInPlace("clampMin_", "promoted", input, [min], () => clampTo("clampMin", input, min, null)),
);

export const clampMax_ = op(
  "clampMax_(input: Tensor, max: Tensor | Scalar) -> Tensor",
  { doc: "In place: x = min(x, max); returns x.", method: true },
  ({ input, max }) => elementwiseInPlace("clampMax_", "promoted", input, [max], () => clampTo("clampMax", input, null, max)),
);

export const round_ = op(
  "round_(input: Tensor, *, decimals: int = 0) -> Tensor",
  { doc: "In place: x rounded half to even (to `decimals` places); returns x.", method: true },
  ({ input, decimals }) => elementwiseInPlace("round_", "promoted", input, [], () => round(input, { decimals })),
);

export const nanToNum_ = op(
  "nanToNum_(input: Tensor, nan: float = 0, posinf?: float, neginf?: float) -> Tensor",
  { doc: "In place: NaN and ±inf replaced as by nanToNum; returns x.", method: true },
  ({ input, nan, posinf, neginf }) => elementwiseInPlace("nanToNum_", "promoted", input, [], () => nanToNum(input, nan, posinf ?? null, neginf ?? null)),
);

export const lerp_ = op(
  "lerp_(input: Tensor, end: Tensor, weight: Tensor | float) -> Tensor",
  { doc: "In place: x = x + weight × (end − x) (float tensors); returns x.", method: true },
  ({ input, end, weight }) => elementwiseInPlace("lerp_", "promoted", input, [end, weight], () => lerp(input, end, weight)),
);

export const addcmul_ = op(
  "addcmul_(input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: Scalar = 1) -> Tensor",
  { doc: "In place: x += value × tensor1 × tensor2; returns x.", method: true },
  ({ input, tensor1, tensor2, value }) => elementwiseInPlace("addcmul_", "promoted", input, [tensor1, tensor2], () => addcmul(input, tensor1, tensor2, { value })),
);

export const addcdiv_ = op(
  "addcdiv_(input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: Scalar = 1) -> Tensor",
  { doc: "In place: x += value × tensor1 / tensor2 (float tensors); returns x.", method: true },
  ({ input, tensor1, tensor2, value }) => elementwiseInPlace("addcdiv_", "promoted", input, [tensor1, tensor2], () => addcdiv(input, tensor1, tensor2, { value })),
);

export const logit_ = op(
  "logit_(input: Tensor, eps?: float) -> Tensor",
  { doc: "In place: x = logit(x, eps) (float tensors; x first clamped to [eps, 1 − eps] when eps is given); returns x.", method: true },
  ({ input, eps }) => elementwiseInPlace("logit_", "float", input, [], () => logit(input, eps ?? null)),
);
