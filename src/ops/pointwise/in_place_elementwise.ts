/**
 * @file In-place forms of the elementwise ops and of PyTorch's aliases (`x.sin_()`, `x.gt_(0)`,
 * `x.arccos_()`, `x.clampMin_(0)`), Tensor methods only: each computes the op and assigns the
 * result to x with assignInPlace (src/ops/pointwise/in_place.ts: x keeps its dtype and shape, a
 * result that cannot be cast back is a DTypeError).
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
import { assignInPlace } from "./in_place.js";
import { gcd, lcm } from "./integers.js";
import { logicalAnd, logicalNot, logicalOr, logicalXor } from "./logical.js";
import {
  acos, acosh, asin, asinh, atan, atan2, atanh, cos, cosh, deg2rad, exp2, expm1, hypot, log10, log1p, log2, rad2deg, reciprocal, rsqrt, sin, sinc, sinh, tan, xlogy,
} from "./math.js";
import { ceil, fix, floor, frac, round, trunc } from "./rounding.js";

const unary = (name: string, fn: (x: Tensor) => Tensor) => ({ input }: { input: Tensor }) => assignInPlace(name, input, fn(input));

const binary =
  <O extends TensorOrScalar>(name: string, fn: (x: Tensor, other: O) => Tensor) =>
  ({ input, other }: { input: Tensor; other: O }) =>
    assignInPlace(name, input, fn(input, other));

const compared = (name: string, direction: CompareDirection) => binary(name, (x, other: TensorOrScalar) => compare(name.slice(0, -1), direction, x, other));

// --- unary --------------------------------------------------------------------------------------------

export const absolute_ = op("absolute_(input: Tensor) -> Tensor", { doc: "In place: x = |x| (alias of abs_); returns x.", method: true }, unary("absolute_", abs));

export const negative_ = op("negative_(input: Tensor) -> Tensor", { doc: "In place: x = −x (alias of neg_); returns x.", method: true }, unary("negative_", negate));

export const sgn_ = op("sgn_(input: Tensor) -> Tensor", { doc: "In place: x = sgn(x); returns x.", method: true }, unary("sgn_", sgn));

export const sign_ = op("sign_(input: Tensor) -> Tensor", { doc: "In place: x = sign(x); returns x.", method: true }, unary("sign_", sign));

export const square_ = op("square_(input: Tensor) -> Tensor", { doc: "In place: x = x × x; returns x.", method: true }, unary("square_", square));

export const reciprocal_ = op(
  "reciprocal_(input: Tensor) -> Tensor",
  { doc: "In place: x = 1 / x (float tensors); returns x.", method: true },
  unary("reciprocal_", reciprocal),
);

export const rsqrt_ = op("rsqrt_(input: Tensor) -> Tensor", { doc: "In place: x = 1 / sqrt(x) (float tensors); returns x.", method: true }, unary("rsqrt_", rsqrt));

export const exp2_ = op("exp2_(input: Tensor) -> Tensor", { doc: "In place: x = 2^x (float tensors); returns x.", method: true }, unary("exp2_", exp2));

export const expm1_ = op("expm1_(input: Tensor) -> Tensor", { doc: "In place: x = e^x − 1 (float tensors); returns x.", method: true }, unary("expm1_", expm1));

export const log2_ = op("log2_(input: Tensor) -> Tensor", { doc: "In place: x = log2(x) (float tensors); returns x.", method: true }, unary("log2_", log2));

export const log10_ = op("log10_(input: Tensor) -> Tensor", { doc: "In place: x = log10(x) (float tensors); returns x.", method: true }, unary("log10_", log10));

export const log1p_ = op("log1p_(input: Tensor) -> Tensor", { doc: "In place: x = log(1 + x) (float tensors); returns x.", method: true }, unary("log1p_", log1p));

export const sin_ = op("sin_(input: Tensor) -> Tensor", { doc: "In place: x = sin(x) (float tensors); returns x.", method: true }, unary("sin_", sin));

export const cos_ = op("cos_(input: Tensor) -> Tensor", { doc: "In place: x = cos(x) (float tensors); returns x.", method: true }, unary("cos_", cos));

export const tan_ = op("tan_(input: Tensor) -> Tensor", { doc: "In place: x = tan(x) (float tensors); returns x.", method: true }, unary("tan_", tan));

export const asin_ = op("asin_(input: Tensor) -> Tensor", { doc: "In place: x = asin(x) (float tensors); returns x.", method: true }, unary("asin_", asin));

export const acos_ = op("acos_(input: Tensor) -> Tensor", { doc: "In place: x = acos(x) (float tensors); returns x.", method: true }, unary("acos_", acos));

export const atan_ = op("atan_(input: Tensor) -> Tensor", { doc: "In place: x = atan(x) (float tensors); returns x.", method: true }, unary("atan_", atan));

export const arcsin_ = op("arcsin_(input: Tensor) -> Tensor", { doc: "In place: x = arcsin(x) (float tensors); returns x.", method: true }, unary("arcsin_", asin));

export const arccos_ = op("arccos_(input: Tensor) -> Tensor", { doc: "In place: x = arccos(x) (float tensors); returns x.", method: true }, unary("arccos_", acos));

export const arctan_ = op("arctan_(input: Tensor) -> Tensor", { doc: "In place: x = arctan(x) (float tensors); returns x.", method: true }, unary("arctan_", atan));

export const sinh_ = op("sinh_(input: Tensor) -> Tensor", { doc: "In place: x = sinh(x) (float tensors); returns x.", method: true }, unary("sinh_", sinh));

export const cosh_ = op("cosh_(input: Tensor) -> Tensor", { doc: "In place: x = cosh(x) (float tensors); returns x.", method: true }, unary("cosh_", cosh));

export const asinh_ = op("asinh_(input: Tensor) -> Tensor", { doc: "In place: x = asinh(x) (float tensors); returns x.", method: true }, unary("asinh_", asinh));

export const acosh_ = op("acosh_(input: Tensor) -> Tensor", { doc: "In place: x = acosh(x) (float tensors); returns x.", method: true }, unary("acosh_", acosh));

export const atanh_ = op("atanh_(input: Tensor) -> Tensor", { doc: "In place: x = atanh(x) (float tensors); returns x.", method: true }, unary("atanh_", atanh));

export const arcsinh_ = op("arcsinh_(input: Tensor) -> Tensor", { doc: "In place: x = arcsinh(x) (float tensors); returns x.", method: true }, unary("arcsinh_", asinh));

export const arccosh_ = op("arccosh_(input: Tensor) -> Tensor", { doc: "In place: x = arccosh(x) (float tensors); returns x.", method: true }, unary("arccosh_", acosh));

export const arctanh_ = op("arctanh_(input: Tensor) -> Tensor", { doc: "In place: x = arctanh(x) (float tensors); returns x.", method: true }, unary("arctanh_", atanh));

export const deg2rad_ = op(
  "deg2rad_(input: Tensor) -> Tensor",
  { doc: "In place: degrees to radians (float tensors); returns x.", method: true },
  unary("deg2rad_", deg2rad),
);

export const rad2deg_ = op(
  "rad2deg_(input: Tensor) -> Tensor",
  { doc: "In place: radians to degrees (float tensors); returns x.", method: true },
  unary("rad2deg_", rad2deg),
);

export const sinc_ = op("sinc_(input: Tensor) -> Tensor", { doc: "In place: x = sinc(x) (float tensors); returns x.", method: true }, unary("sinc_", sinc));

export const floor_ = op("floor_(input: Tensor) -> Tensor", { doc: "In place: x rounded down; returns x.", method: true }, unary("floor_", floor));

export const ceil_ = op("ceil_(input: Tensor) -> Tensor", { doc: "In place: x rounded up; returns x.", method: true }, unary("ceil_", ceil));

export const trunc_ = op("trunc_(input: Tensor) -> Tensor", { doc: "In place: x rounded toward zero; returns x.", method: true }, unary("trunc_", trunc));

export const fix_ = op("fix_(input: Tensor) -> Tensor", { doc: "In place: x rounded toward zero (alias of trunc_); returns x.", method: true }, unary("fix_", fix));

export const frac_ = op("frac_(input: Tensor) -> Tensor", { doc: "In place: x = x − trunc(x) (float tensors); returns x.", method: true }, unary("frac_", frac));

export const logicalNot_ = op(
  "logicalNot_(input: Tensor) -> Tensor",
  { doc: "In place: x = not x, as 1 or 0 in x's dtype; returns x.", method: true },
  unary("logicalNot_", logicalNot),
);

export const bitwiseNot_ = op(
  "bitwiseNot_(input: Tensor) -> Tensor",
  { doc: "In place: x = ~x (integer and bool tensors); returns x.", method: true },
  unary("bitwiseNot_", bitwiseNot),
);

// --- binary -------------------------------------------------------------------------------------------

export const atan2_ = op(
  "atan2_(input: Tensor, other: Tensor) -> Tensor",
  { doc: "In place: x = atan2(x, other) (float tensors); returns x.", method: true },
  binary("atan2_", atan2),
);

export const arctan2_ = op(
  "arctan2_(input: Tensor, other: Tensor) -> Tensor",
  { doc: "In place: x = arctan2(x, other) (float tensors); returns x.", method: true },
  binary("arctan2_", atan2),
);

export const hypot_ = op(
  "hypot_(input: Tensor, other: Tensor) -> Tensor",
  { doc: "In place: x = hypot(x, other) (float tensors); returns x.", method: true },
  binary("hypot_", hypot),
);

export const xlogy_ = op(
  "xlogy_(input: Tensor, other: Tensor | Scalar) -> Tensor",
  { doc: "In place: x = xlogy(x, other) (float tensors); returns x.", method: true },
  binary("xlogy_", xlogy),
);

export const copysign_ = op(
  "copysign_(input: Tensor, other: Tensor | Scalar) -> Tensor",
  { doc: "In place: x = copysign(x, other) (float tensors); returns x.", method: true },
  binary("copysign_", copysign),
);

export const nextafter_ = op(
  "nextafter_(input: Tensor, other: Tensor) -> Tensor",
  { doc: "In place: x = nextafter(x, other) (float tensors); returns x.", method: true },
  binary("nextafter_", nextafter),
);

export const ldexp_ = op(
  "ldexp_(input: Tensor, other: Tensor) -> Tensor",
  { doc: "In place: x = x × 2^other (float tensors); returns x.", method: true },
  binary("ldexp_", ldexp),
);

export const gcd_ = op(
  "gcd_(input: Tensor, other: Tensor) -> Tensor",
  { doc: "In place: x = gcd(x, other) (integer tensors); returns x.", method: true },
  binary("gcd_", gcd),
);

export const lcm_ = op(
  "lcm_(input: Tensor, other: Tensor) -> Tensor",
  { doc: "In place: x = lcm(x, other) (integer tensors); returns x.", method: true },
  binary("lcm_", lcm),
);

export const multiply_ = op(
  "multiply_(input: Tensor, other: Tensor | Scalar) -> Tensor",
  { doc: "In place: x ×= other (alias of mul_); returns x.", method: true },
  binary("multiply_", multiply),
);

export const floorDivide_ = op(
  "floorDivide_(input: Tensor, other: Tensor | Scalar) -> Tensor",
  { doc: "In place: x = x // other, rounded down; returns x.", method: true },
  binary("floorDivide_", floorDivide),
);

export const fmod_ = op(
  "fmod_(input: Tensor, other: Tensor | Scalar) -> Tensor",
  { doc: "In place: x = fmod(x, other); returns x.", method: true },
  binary("fmod_", fmod),
);

export const remainder_ = op(
  "remainder_(input: Tensor, other: Tensor | Scalar) -> Tensor",
  { doc: "In place: x = remainder(x, other); returns x.", method: true },
  binary("remainder_", remainder),
);

export const logicalAnd_ = op(
  "logicalAnd_(input: Tensor, other: Tensor) -> Tensor",
  { doc: "In place: x = x and other, as 1 or 0 in x's dtype; returns x.", method: true },
  binary("logicalAnd_", logicalAnd),
);

export const logicalOr_ = op(
  "logicalOr_(input: Tensor, other: Tensor) -> Tensor",
  { doc: "In place: x = x or other, as 1 or 0 in x's dtype; returns x.", method: true },
  binary("logicalOr_", logicalOr),
);

export const logicalXor_ = op(
  "logicalXor_(input: Tensor, other: Tensor) -> Tensor",
  { doc: "In place: x = x xor other, as 1 or 0 in x's dtype; returns x.", method: true },
  binary("logicalXor_", logicalXor),
);

export const bitwiseAnd_ = op(
  "bitwiseAnd_(input: Tensor, other: Tensor | Scalar) -> Tensor",
  { doc: "In place: x &= other (integer and bool tensors); returns x.", method: true },
  binary("bitwiseAnd_", bitwiseAnd),
);

export const bitwiseOr_ = op(
  "bitwiseOr_(input: Tensor, other: Tensor | Scalar) -> Tensor",
  { doc: "In place: x |= other (integer and bool tensors); returns x.", method: true },
  binary("bitwiseOr_", bitwiseOr),
);

export const bitwiseXor_ = op(
  "bitwiseXor_(input: Tensor, other: Tensor | Scalar) -> Tensor",
  { doc: "In place: x ^= other (integer and bool tensors); returns x.", method: true },
  binary("bitwiseXor_", bitwiseXor),
);

export const bitwiseLeftShift_ = op(
  "bitwiseLeftShift_(input: Tensor, other: Tensor | Scalar) -> Tensor",
  { doc: "In place: x <<= other (integer tensors); returns x.", method: true },
  binary("bitwiseLeftShift_", bitwiseLeftShift),
);

export const bitwiseRightShift_ = op(
  "bitwiseRightShift_(input: Tensor, other: Tensor | Scalar) -> Tensor",
  { doc: "In place: x >>= other (integer tensors); returns x.", method: true },
  binary("bitwiseRightShift_", bitwiseRightShift),
);

// --- comparisons: x becomes 1 or 0 in its own dtype -----------------------------------------------------

export const eq_ = op(
  "eq_(input: Tensor, other: Tensor | Scalar) -> Tensor",
  { doc: "In place: x = (x == other), as 1 or 0 in x's dtype; returns x.", method: true },
  compared("eq_", "EQ"),
);

export const ne_ = op(
  "ne_(input: Tensor, other: Tensor | Scalar) -> Tensor",
  { doc: "In place: x = (x != other), as 1 or 0 in x's dtype; returns x.", method: true },
  compared("ne_", "NE"),
);

export const lt_ = op(
  "lt_(input: Tensor, other: Tensor | Scalar) -> Tensor",
  { doc: "In place: x = (x < other), as 1 or 0 in x's dtype; returns x.", method: true },
  compared("lt_", "LT"),
);

export const le_ = op(
  "le_(input: Tensor, other: Tensor | Scalar) -> Tensor",
  { doc: "In place: x = (x <= other), as 1 or 0 in x's dtype; returns x.", method: true },
  compared("le_", "LE"),
);

export const gt_ = op(
  "gt_(input: Tensor, other: Tensor | Scalar) -> Tensor",
  { doc: "In place: x = (x > other), as 1 or 0 in x's dtype; returns x.", method: true },
  compared("gt_", "GT"),
);

export const ge_ = op(
  "ge_(input: Tensor, other: Tensor | Scalar) -> Tensor",
  { doc: "In place: x = (x >= other), as 1 or 0 in x's dtype; returns x.", method: true },
  compared("ge_", "GE"),
);

export const greater_ = op(
  "greater_(input: Tensor, other: Tensor | Scalar) -> Tensor",
  { doc: "In place: x = (x > other), as 1 or 0 in x's dtype; returns x.", method: true },
  compared("greater_", "GT"),
);

export const greaterEqual_ = op(
  "greaterEqual_(input: Tensor, other: Tensor | Scalar) -> Tensor",
  { doc: "In place: x = (x >= other), as 1 or 0 in x's dtype; returns x.", method: true },
  compared("greaterEqual_", "GE"),
);

export const less_ = op(
  "less_(input: Tensor, other: Tensor | Scalar) -> Tensor",
  { doc: "In place: x = (x < other), as 1 or 0 in x's dtype; returns x.", method: true },
  compared("less_", "LT"),
);

export const lessEqual_ = op(
  "lessEqual_(input: Tensor, other: Tensor | Scalar) -> Tensor",
  { doc: "In place: x = (x <= other), as 1 or 0 in x's dtype; returns x.", method: true },
  compared("lessEqual_", "LE"),
);

export const notEqual_ = op(
  "notEqual_(input: Tensor, other: Tensor | Scalar) -> Tensor",
  { doc: "In place: x = (x != other), as 1 or 0 in x's dtype; returns x.", method: true },
  compared("notEqual_", "NE"),
);

// --- with more parameters ---------------------------------------------------------------------------------

export const divide_ = op(
  'divide_(input: Tensor, other: Tensor | Scalar, *, roundingMode?: "trunc" | "floor") -> Tensor',
  { doc: "In place: x /= other (alias of div_); returns x.", method: true },
  ({ input, other, roundingMode }) => assignInPlace("divide_", input, divide(input, other, roundingMode ?? null)),
);

export const trueDivide_ = op(
  "trueDivide_(input: Tensor, other: Tensor | Scalar) -> Tensor",
  { doc: "In place: x /= other, true division (float tensors); returns x.", method: true },
  binary("trueDivide_", (x, other: TensorOrScalar) => divide(x, other, null)),
);

export const subtract_ = op(
  "subtract_(input: Tensor, other: Tensor | Scalar, *, alpha: Scalar = 1) -> Tensor",
  { doc: "In place: x −= alpha × other (alias of sub_); returns x.", method: true },
  ({ input, other, alpha }) => assignInPlace("subtract_", input, addSub("sub", input, other, alpha)),
);

export const floatPower_ = op(
  "floatPower_(input: Tensor, exponent: Tensor | Scalar) -> Tensor",
  { doc: "In place: x = x ** exponent in float64 (x must be float64); returns x.", method: true },
  ({ input, exponent }) => {
    if (input.dtype !== "float64") {
      throw new DTypeError(`floatPower_: the base has dtype ${input.dtype} but the result is float64; use the out-of-place floatPower or convert with .to("float64") first`);
    }
    return assignInPlace("floatPower_", input, floatPower(input, exponent));
  },
);

export const heaviside_ = op(
  "heaviside_(input: Tensor, values: Tensor) -> Tensor",
  { doc: "In place: x = heaviside(x, values); returns x.", method: true },
  ({ input, values }) => assignInPlace("heaviside_", input, heaviside(input, values)),
);

export const clip_ = op(
  "clip_(input: Tensor, min?: Tensor | Scalar, max?: Tensor | Scalar) -> Tensor",
  { doc: "In place: x clamped to [min, max] (alias of clamp_); returns x.", method: true },
  ({ input, min, max }) => assignInPlace("clip_", input, clampTo("clip", input, min ?? null, max ?? null)),
);

export const clampMin_ = op(
  "clampMin_(input: Tensor, min: Tensor | Scalar) -> Tensor",
  { doc: "In place: x = max(x, min); returns x.", method: true },
  ({ input, min }) => assignInPlace("clampMin_", input, clampTo("clampMin", input, min, null)),
);

export const clampMax_ = op(
  "clampMax_(input: Tensor, max: Tensor | Scalar) -> Tensor",
  { doc: "In place: x = min(x, max); returns x.", method: true },
  ({ input, max }) => assignInPlace("clampMax_", input, clampTo("clampMax", input, null, max)),
);

export const round_ = op(
  "round_(input: Tensor, *, decimals: int = 0) -> Tensor",
  { doc: "In place: x rounded half to even (to `decimals` places); returns x.", method: true },
  ({ input, decimals }) => assignInPlace("round_", input, round(input, { decimals })),
);

export const nanToNum_ = op(
  "nanToNum_(input: Tensor, nan: float = 0, posinf?: float, neginf?: float) -> Tensor",
  { doc: "In place: NaN and ±inf replaced as by nanToNum; returns x.", method: true },
  ({ input, nan, posinf, neginf }) => assignInPlace("nanToNum_", input, nanToNum(input, nan, posinf ?? null, neginf ?? null)),
);

export const lerp_ = op(
  "lerp_(input: Tensor, end: Tensor, weight: Tensor | float) -> Tensor",
  { doc: "In place: x = x + weight × (end − x) (float tensors); returns x.", method: true },
  ({ input, end, weight }) => assignInPlace("lerp_", input, lerp(input, end, weight)),
);

export const addcmul_ = op(
  "addcmul_(input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: Scalar = 1) -> Tensor",
  { doc: "In place: x += value × tensor1 × tensor2; returns x.", method: true },
  ({ input, tensor1, tensor2, value }) => assignInPlace("addcmul_", input, addcmul(input, tensor1, tensor2, { value })),
);

export const addcdiv_ = op(
  "addcdiv_(input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: Scalar = 1) -> Tensor",
  { doc: "In place: x += value × tensor1 / tensor2 (float tensors); returns x.", method: true },
  ({ input, tensor1, tensor2, value }) => assignInPlace("addcdiv_", input, addcdiv(input, tensor1, tensor2, { value })),
);
