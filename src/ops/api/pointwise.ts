/**
 * @file Pointwise API ops: arithmetic with PyTorch's broadcasting and type promotion (Python-style
 * scalars included), unary math, comparisons and where.
 */
import { type DType, defaultFloatDType, dtypes, isFloating } from "../../dtype.js";
import { ArgumentError, DTypeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import * as e from "../emit.js";
import type { CompareDirection } from "../prims.js";
import { broadcastShapes } from "../dims.js";
import { type ScalarArg, type TensorOrScalar } from "../types.js";
import { checkTensor, isScalar, lift, type Operand, promote, run } from "../unit.js";

const shapeOf = (v: Operand): readonly number[] => (isScalar(v) ? [] : v.shape);

/** Both operands promoted to `dtype` and broadcast to their common shape. */
function prepare(op: string, a: Operand, b: Operand, dtype: DType): [Tracer, Tracer] {
  const shape = broadcastShapes(op, shapeOf(a), shapeOf(b));
  return [lift(a, dtype, shape), lift(b, dtype, shape)];
}

function checkAlpha(op: string, alpha: ScalarArg, dtype: DType): void {
  if (dtypes[dtype].kind !== "float" && typeof alpha === "number" && !Number.isInteger(alpha)) {
    throw new DTypeError(`${op}: for integral input tensors (${dtype}), alpha must not be a floating point number (got ${alpha})`);
  }
  if (dtype !== "bool" && typeof alpha === "boolean") throw new DTypeError(`${op}: a boolean alpha is only allowed for bool tensors`);
}

function addLike(op: "add" | "sub", a: TensorOrScalar, b: TensorOrScalar, alpha: ScalarArg): Tensor {
  return run(op, [a, b], String(alpha), ([x, y]) => {
    const dtype = promote(x!, y!);
    if (op === "sub" && [x!, y!].some((v) => v === true || v === false || (!isScalar(v) && v.dtype === "bool"))) {
      throw new DTypeError("sub: subtraction with a bool tensor or value is not supported; to invert a mask use logicalNot, for two masks logicalXor");
    }
    checkAlpha(op, alpha, dtype);
    let [p, q] = prepare(op, x!, y!, dtype);
    if (alpha !== 1 && alpha !== true) q = e.mul(q, e.full(alpha, dtype, q.shape));
    return op === "add" ? e.add(p, q) : e.sub(p, q);
  });
}

/** a + alpha × b. */
export function add(a: TensorOrScalar, b: TensorOrScalar, options: { alpha?: ScalarArg } = {}): Tensor {
  return addLike("add", a, b, options.alpha ?? 1);
}

/** a − alpha × b. */
export function sub(a: TensorOrScalar, b: TensorOrScalar, options: { alpha?: ScalarArg } = {}): Tensor {
  return addLike("sub", a, b, options.alpha ?? 1);
}

export function mul(a: TensorOrScalar, b: TensorOrScalar): Tensor {
  return run("mul", [a, b], "", ([x, y]) => {
    const [p, q] = prepare("mul", x!, y!, promote(x!, y!));
    return e.mul(p, q);
  });
}

export type RoundingMode = "trunc" | "floor";

/** True division (integers give float32), or rounded with roundingMode "trunc" | "floor". */
export function div(a: TensorOrScalar, b: TensorOrScalar, options: { roundingMode?: RoundingMode | null } = {}): Tensor {
  const mode = options.roundingMode ?? null;
  if (mode !== null && mode !== "trunc" && mode !== "floor") {
    throw new ArgumentError(`div: roundingMode must be "trunc", "floor" or null, got ${JSON.stringify(mode)}`);
  }
  return run("div", [a, b], String(mode), ([x, y]) => {
    let dtype = promote(x!, y!);
    if (mode === null && !isFloating(dtype)) dtype = defaultFloatDType;
    if (mode !== null && dtype === "bool") throw new DTypeError(`div: roundingMode "${mode}" is not supported for bool tensors`);
    const [p, q] = prepare("div", x!, y!, dtype);
    const quotient = e.div(p, q);
    if (mode === null) return quotient;
    if (isFloating(dtype)) {
      if (mode === "floor") return floorDivFloat(p, q, quotient);
      const negative = e.compare(quotient, e.full(0, dtype, quotient.shape), "LT");
      return e.select(negative, e.ceil(quotient), e.floor(quotient));
    }
    if (mode === "trunc") return quotient; // integer division truncates
    // floor: one less where the division was inexact and the operands' signs differ
    const zero = e.full(0, dtype, quotient.shape);
    const inexact = e.compare(e.rem(p, q), zero, "NE");
    const signsDiffer = e.compare(e.compare(p, zero, "LT"), e.compare(q, zero, "LT"), "NE");
    return e.select(e.and(inexact, signsDiffer), e.sub(quotient, e.full(1, dtype, quotient.shape)), quotient);
  });
}

/**
 * PyTorch's floor division of floats: from fmod, so that x // ±inf and ±inf // x agree with Python
 * (−3 // inf = −1, inf // 3 = NaN), rounded to the nearest integer quotient; IEEE a / b when b is 0.
 */
function floorDivFloat(p: Tracer, q: Tracer, quotient: Tracer): Tracer {
  const c = (v: number) => e.full(v, p.dtype, p.shape);
  const mod = e.rem(p, q);
  let d = e.div(e.sub(p, mod), q);
  const signsDiffer = e.compare(e.compare(q, c(0), "LT"), e.compare(mod, c(0), "LT"), "NE");
  d = e.select(e.and(e.compare(mod, c(0), "NE"), signsDiffer), e.sub(d, c(1)), d);
  const fl = e.floor(d);
  const rounded = e.select(e.compare(e.sub(d, fl), c(0.5), "GT"), e.add(fl, c(1)), fl);
  const signedZero = e.mul(quotient, c(0)); // copysign(0, a / b)
  const nonzero = e.select(e.compare(d, c(0), "NE"), rounded, signedZero);
  return e.select(e.compare(q, c(0), "EQ"), quotient, nonzero);
}

function noBool(op: string, x: Tracer, what = op): void {
  if (x.dtype === "bool") throw new DTypeError(`${op}: ${what} is not supported on bool tensors`);
}

export function neg(a: Tensor): Tensor {
  return run("neg", [a], "", ([x]) => {
    noBool("neg", x as Tracer, "negation (-)");
    return e.neg(x as Tracer);
  });
}

export function abs(a: Tensor): Tensor {
  return run("abs", [a], "", ([x]) => {
    const t = x as Tracer;
    noBool("abs", t);
    return dtypes[t.dtype].kind === "uint" ? t : e.abs(t);
  });
}

/** Float math: integer and bool inputs compute in float32, as in PyTorch. */
function floatUnary(op: string, fn: (x: Tracer) => Tracer): (a: Tensor) => Tensor {
  return (a) =>
    run(op, [a], "", ([x]) => {
      const t = x as Tracer;
      return fn(isFloating(t.dtype) ? t : e.convert(t, defaultFloatDType));
    });
}

export const exp = floatUnary("exp", e.exp);
export const log = floatUnary("log", e.log);
export const sqrt = floatUnary("sqrt", e.sqrt);
export const sin = floatUnary("sin", e.sin);
export const cos = floatUnary("cos", e.cos);
export const tanh = floatUnary("tanh", e.tanh);
export const sigmoid = floatUnary("sigmoid", e.logistic);

export function relu(a: Tensor): Tensor {
  return run("relu", [a], "", ([x]) => {
    const t = x as Tracer;
    noBool("relu", t);
    return e.max(t, e.full(0, t.dtype, t.shape));
  });
}

/** a ** b; either may be a scalar. */
export function pow(a: TensorOrScalar, b: TensorOrScalar): Tensor {
  return run("pow", [a, b], "", ([x, y]) => {
    const dtype = promote(x!, y!);
    if (dtype === "bool") throw new DTypeError("pow: bool ** bool is not supported; convert to an integer or float dtype");
    if (!isFloating(dtype) && (typeof y === "number" || typeof y === "bigint") && y < 0) {
      throw new DTypeError(`pow: integers to negative integer powers are not allowed (exponent ${y}); use a float tensor`);
    }
    const [p, q] = prepare("pow", x!, y!, dtype);
    return e.pow(p, q);
  });
}

function elementwiseExtreme(op: "maximum" | "minimum") {
  return (a: Tensor, b: Tensor): Tensor => {
    checkTensor(op, a);
    checkTensor(op, b, "other");
    return run(op, [a, b], "", ([x, y]) => {
      const [p, q] = prepare(op, x!, y!, promote(x!, y!));
      return op === "maximum" ? e.max(p, q) : e.min(p, q);
    });
  };
}

/** Elementwise maximum; NaN propagates. */
export const maximum = elementwiseExtreme("maximum");
/** Elementwise minimum; NaN propagates. */
export const minimum = elementwiseExtreme("minimum");

/** condition ? a : b, elementwise, with broadcasting; a and b may be scalars. */
export function where(condition: Tensor, a: TensorOrScalar, b: TensorOrScalar): Tensor {
  checkTensor("where", condition, "condition");
  if (condition.dtype !== "bool") throw new DTypeError(`where: condition must be a bool tensor, got ${condition.dtype}`);
  return run("where", [condition, a, b], "", ([c, x, y]) => {
    const dtype = promote(x!, y!);
    const shape = broadcastShapes("where", shapeOf(c!), shapeOf(x!), shapeOf(y!));
    return e.select(lift(c!, "bool", shape), lift(x!, dtype, shape), lift(y!, dtype, shape));
  });
}

function comparison(op: string, direction: CompareDirection) {
  return (a: TensorOrScalar, b: TensorOrScalar): Tensor =>
    run(op, [a, b], "", ([x, y]) => {
      const [p, q] = prepare(op, x!, y!, promote(x!, y!));
      return e.compare(p, q, direction);
    });
}

export const eq = comparison("eq", "EQ");
export const ne = comparison("ne", "NE");
export const lt = comparison("lt", "LT");
export const le = comparison("le", "LE");
export const gt = comparison("gt", "GT");
export const ge = comparison("ge", "GE");
