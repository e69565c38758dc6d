/**
 * @file More pointwise API ops, composed from the primitives: float math (exp2, log2, inverse
 * trigonometric and hyperbolic functions, erf), rounding, clamping, modular arithmetic, NaN-aware
 * extremes, lerp/addcmul/addcdiv, classification (isnan, signbit, …), logical and bitwise ops, and
 * closeness tests (isclose, allclose, equal).
 */
import { type DType, defaultFloatDType, dtypes, isFloating } from "../../dtype.js";
import { ArgumentError, DTypeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import { bind1, type Tracer } from "../../trace/tracer.js";
import * as e from "../emit.js";
import { broadcastShapes } from "../dims.js";
import { type ScalarArg, type TensorOrScalar } from "../types.js";
import { checkTensor, isScalar, lift, type Operand, promote, run } from "../unit.js";
import { div } from "./pointwise.js";

type T = Tracer;
const none = {} as Record<string, never>;
const c = (x: T, v: number | bigint | boolean): T => e.full(v, x.dtype, x.shape);
const shapeOf = (v: Operand): readonly number[] => (isScalar(v) ? [] : v.shape);
const kind = (d: DType) => dtypes[d].kind;

const atan2p = (a: T, b: T): T => bind1("atan2", [a, b], none);
const xorp = (a: T, b: T): T => bind1("xor", [a, b], none);
const un = (p: "expm1" | "log1p" | "rsqrt" | "tan" | "sign" | "round_even" | "not") => (a: T): T => bind1(p, [a], none);
const expm1p = un("expm1");
const log1pp = un("log1p");
const notp = un("not");

function prepare(op: string, a: Operand, b: Operand, dtype: DType): [T, T] {
  const shape = broadcastShapes(op, shapeOf(a), shapeOf(b));
  return [lift(a, dtype, shape), lift(b, dtype, shape)];
}

/** float16/bfloat16 compute in float32 (as PyTorch's CPU kernels do), then round back. */
const computeDType = (d: DType): DType => (d === "float16" || d === "bfloat16" ? "float32" : d);

/** Float math: integer and bool inputs give float32, as in PyTorch. */
function floatUnary(op: string, fn: (x: T) => T): (a: Tensor) => Tensor {
  return (a) => {
    checkTensor(op, a);
    return run(op, [a], "", ([x]) => {
      const t = x as T;
      const out = isFloating(t.dtype) ? t.dtype : defaultFloatDType;
      return e.convert(fn(e.convert(t, computeDType(out))), out);
    });
  };
}

const isNanT = (x: T): T => e.compare(x, x, "NE");

// --- float unary ------------------------------------------------------------------------------------

export const exp2 = floatUnary("exp2", (x) => e.pow(c(x, 2), x));
export const expm1 = floatUnary("expm1", expm1p);
export const log2 = floatUnary("log2", (x) => e.div(e.log(x), c(x, Math.LN2)));
export const log10 = floatUnary("log10", (x) => e.div(e.log(x), c(x, Math.LN10)));
export const log1p = floatUnary("log1p", log1pp);
export const rsqrt = floatUnary("rsqrt", un("rsqrt"));
export const reciprocal = floatUnary("reciprocal", (x) => e.div(c(x, 1), x));
export const tan = floatUnary("tan", un("tan"));
export const atan = floatUnary("atan", (x) => atan2p(x, c(x, 1)));
const sqrt1mx2 = (x: T): T => e.sqrt(e.mul(e.sub(c(x, 1), x), e.add(c(x, 1), x)));
export const asin = floatUnary("asin", (x) => atan2p(x, sqrt1mx2(x)));
export const acos = floatUnary("acos", (x) => atan2p(sqrt1mx2(x), x));

/** e^|x| / 2 without overflowing early. */
const halfExpAbs = (ax: T): T => e.exp(e.sub(ax, c(ax, Math.LN2)));

export const sinh = floatUnary("sinh", (x) => {
  const ax = e.abs(x);
  const u = expm1p(ax);
  const small = e.mul(e.add(u, e.div(u, e.add(u, c(x, 1)))), c(x, 0.5));
  const h = halfExpAbs(ax);
  const large = e.sub(h, e.div(c(x, 0.25), h));
  const r = e.select(e.compare(ax, c(x, 1), "LT"), small, large);
  return e.select(e.compare(x, c(x, 0), "LT"), e.neg(r), e.select(e.compare(x, c(x, 0), "EQ"), x, r));
});

export const cosh = floatUnary("cosh", (x) => {
  const h = halfExpAbs(e.abs(x));
  return e.add(h, e.div(c(x, 0.25), h));
});

/** Beyond this |x|, 1/x² vanishes next to 1 in the dtype. */
const bigArg = (d: DType): number => (d === "float64" ? 1e9 : 1e4);

export const asinh = floatUnary("asinh", (x) => {
  const ax = e.abs(x);
  const x2 = e.mul(ax, ax);
  const small = log1pp(e.add(ax, e.div(x2, e.add(c(x, 1), e.sqrt(e.add(c(x, 1), x2))))));
  const large = e.add(e.log(ax), c(x, Math.LN2));
  const r = e.select(e.compare(ax, c(x, bigArg(x.dtype)), "GT"), large, small);
  return e.select(e.compare(x, c(x, 0), "LT"), e.neg(r), e.select(e.compare(x, c(x, 0), "EQ"), x, r));
});

export const acosh = floatUnary("acosh", (x) => {
  const t = e.sub(x, c(x, 1));
  const small = log1pp(e.add(t, e.sqrt(e.add(e.mul(c(x, 2), t), e.mul(t, t)))));
  const large = e.add(e.log(x), c(x, Math.LN2));
  return e.select(e.compare(x, c(x, bigArg(x.dtype)), "GT"), large, small);
});

export const atanh = floatUnary("atanh", (x) => e.mul(c(x, 0.5), log1pp(e.div(e.mul(c(x, 2), x), e.sub(c(x, 1), x)))));

// erf is a primitive (chlo.erf). erfc, where 1 − erf would cancel: in float64, Taylor series for |x| ≤ 2
// and erfc's continued fraction (60 terms, converged to float64 there) above; in float32, Taylor for
// |x| ≤ 1 and Numerical Recipes' Chebyshev erfc (relative error < 1.2e-7, an ulp) above.
const TAYLOR_TERMS = 40;
const taylorCoef = Array.from({ length: TAYLOR_TERMS }, (_, n) => {
  let f = 1;
  for (let k = 2; k <= n; k++) f *= k;
  return ((n % 2 === 0 ? 1 : -1) / (f * (2 * n + 1))) * (2 / Math.sqrt(Math.PI));
});
const erfSplit = (d: DType): number => (d === "float64" ? 2 : 1);
function erfSmall(x: T): T {
  const x2 = e.mul(x, x);
  const terms = x.dtype === "float64" ? TAYLOR_TERMS : 12;
  let acc = c(x, taylorCoef[terms - 1]!);
  for (let n = terms - 2; n >= 0; n--) acc = e.add(e.mul(acc, x2), c(x, taylorCoef[n]!));
  return e.mul(x, acc);
}
const NR = [-1.26551223, 1.00002368, 0.37409196, 0.09678418, -0.18628806, 0.27886807, -1.13520398, 1.48851587, -0.82215223, 0.17087277];
/** erfc(z) for z ≥ erfSplit (z ≥ 0 in float32). */
function erfcPos(z: T): T {
  if (z.dtype === "float64") {
    const zs = e.max(z, c(z, 1)); // keeps the unused small-|x| lanes away from 0/0
    let t = zs;
    for (let k = 60; k >= 1; k--) t = e.add(zs, e.div(c(z, k / 2), t));
    return e.div(e.exp(e.neg(e.mul(zs, zs))), e.mul(c(z, Math.sqrt(Math.PI)), t));
  }
  const t = e.div(c(z, 1), e.add(c(z, 1), e.mul(c(z, 0.5), z)));
  let p = c(z, NR[9]!);
  for (let i = 8; i >= 0; i--) p = e.add(e.mul(p, t), c(z, NR[i]!));
  return e.mul(t, e.exp(e.sub(p, e.mul(z, z))));
}
export const erf = floatUnary("erf", e.erf);
export const erfc = floatUnary("erfc", (x) => {
  const ax = e.abs(x);
  const pos = erfcPos(ax);
  const big = e.select(e.compare(x, c(x, 0), "LT"), e.sub(c(x, 2), pos), pos);
  return e.select(e.compare(ax, c(x, erfSplit(x.dtype)), "LE"), e.sub(c(x, 1), erfSmall(x)), big);
});

// erfinv: Giles' single-precision approximation ("Approximating the erfinv function", 2010; relative
// error ~1.2e-7), then in float64 one Newton step on erf(x) = y.
const GILES_A = [1.50140941, 0.246640727, -0.00417768164, -0.00125372503, 0.00021858087, -4.39150654e-6, -3.5233877e-6, 3.43273939e-7, 2.81022636e-8];
const GILES_B = [2.83297682, 1.00167406, 0.00943887047, -0.0076224613, 0.00573950773, -0.00367342844, 0.00134934322, 0.000100950558, -0.000200214257];
function horner(coefs: readonly number[], w: T): T {
  let p = c(w, coefs[coefs.length - 1]!);
  for (let i = coefs.length - 2; i >= 0; i--) p = e.add(e.mul(p, w), c(w, coefs[i]!));
  return p;
}
export const erfinv = floatUnary("erfinv", (y) => {
  const w = e.neg(e.log(e.mul(e.sub(c(y, 1), y), e.add(c(y, 1), y))));
  const central = horner(GILES_A, e.sub(w, c(y, 2.5)));
  const tail = horner(GILES_B, e.sub(e.sqrt(w), c(y, 3)));
  let x = e.mul(e.select(e.compare(w, c(y, 5), "LT"), central, tail), y);
  if (y.dtype === "float64") {
    const erfx = e.erf(x);
    const slope = e.mul(c(x, 2 / Math.sqrt(Math.PI)), e.exp(e.neg(e.mul(x, x))));
    const step = e.sub(x, e.div(e.sub(erfx, y), slope));
    x = e.select(e.isFinite(step), step, x);
  }
  const one = e.compare(e.abs(y), c(y, 1), "EQ");
  return e.select(one, e.mul(y, c(y, Infinity)), x);
});

/** log(x / (1 − x)), x first clamped to [eps, 1 − eps] when eps is given. */
export function logit(a: Tensor, options: { eps?: number | null } = {}): Tensor {
  const eps = options.eps ?? null;
  return run("logit", [a], String(eps), ([x]) => {
    const t = x as T;
    const out = isFloating(t.dtype) ? t.dtype : defaultFloatDType;
    let v = e.convert(t, computeDType(out));
    if (eps !== null) v = e.max(e.min(v, c(v, 1 - eps)), c(v, eps));
    return e.convert(e.log(e.div(v, e.sub(c(v, 1), v))), out);
  });
}

// --- same-dtype unary -------------------------------------------------------------------------------

function sameUnary(op: string, fn: (x: T) => T, opts: { bool?: "error" | "identity"; int?: "identity" | "error" } = {}): (a: Tensor) => Tensor {
  return (a) => {
    checkTensor(op, a);
    return run(op, [a], "", ([x]) => {
      const t = x as T;
      const k = kind(t.dtype);
      if (k === "bool" && opts.bool !== "identity") throw new DTypeError(`${op}: not implemented for bool tensors`);
      if (k === "bool") return t;
      if (k !== "float") {
        if (opts.int === "error") throw new DTypeError(`${op}: not implemented for integer tensors (${t.dtype}); use a float tensor`);
        return t;
      }
      return e.convert(fn(e.convert(t, computeDType(t.dtype))), t.dtype);
    });
  };
}

const truncT = (x: T): T => e.select(e.compare(x, c(x, 0), "LT"), e.ceil(x), e.floor(x));

export const floor = sameUnary("floor", e.floor);
export const ceil = sameUnary("ceil", e.ceil);
export const trunc = sameUnary("trunc", truncT);
export const frac = sameUnary("frac", (x) => e.sub(x, truncT(x)), { int: "error" });

/** Rounds half to even; with decimals, to that many decimal places (negative: tens, hundreds, …). */
export function round(a: Tensor, options: { decimals?: number } = {}): Tensor {
  const decimals = options.decimals ?? 0;
  if (!Number.isInteger(decimals)) throw new ArgumentError(`round: decimals must be an integer, got ${decimals}`);
  checkTensor("round", a);
  return run("round", [a], String(decimals), ([x]) => {
    const t = x as T;
    const k = kind(t.dtype);
    if (k === "bool") throw new DTypeError("round: not implemented for bool tensors");
    if (k !== "float") {
      if (decimals !== 0) throw new DTypeError(`round: decimals is not supported for integer tensors (${t.dtype})`);
      return t;
    }
    const v = e.convert(t, computeDType(t.dtype));
    let r: T;
    if (decimals === 0) r = un("round_even")(v);
    else if (decimals > 0) {
      const s = c(v, 10 ** decimals);
      r = e.div(un("round_even")(e.mul(v, s)), s);
    } else {
      const s = c(v, 10 ** -decimals);
      r = e.mul(un("round_even")(e.div(v, s)), s);
    }
    return e.convert(r, t.dtype);
  });
}

export function sign(a: Tensor): Tensor {
  checkTensor("sign", a);
  return run("sign", [a], "", ([x]) => {
    const t = x as T;
    const k = kind(t.dtype);
    if (k === "bool") return t;
    if (k === "uint") return e.convert(e.compare(t, c(t, 0), "GT"), t.dtype);
    if (k === "int") return un("sign")(t);
    const v = e.convert(t, computeDType(t.dtype));
    return e.convert(e.select(isNanT(v), c(v, 0), un("sign")(v)), t.dtype); // sign(NaN) is 0 in PyTorch
  });
}

/** x * x; bool squares as int64, as PyTorch's pow(x, 2) does. */
export function square(a: Tensor): Tensor {
  checkTensor("square", a);
  return run("square", [a], "", ([x]) => {
    const t = x as T;
    const v = t.dtype === "bool" ? e.convert(t, "int64") : t;
    return e.mul(v, v);
  });
}

// --- classification ---------------------------------------------------------------------------------

function classify(op: string, float: (x: T) => T, other: boolean): (a: Tensor) => Tensor {
  return (a) => {
    checkTensor(op, a);
    return run(op, [a], "", ([x]) => {
      const t = x as T;
      return isFloating(t.dtype) ? float(t) : e.full(other, "bool", t.shape);
    });
  };
}

export const isnan = classify("isnan", isNanT, false);
export const isinf = classify("isinf", (x) => e.compare(e.abs(x), c(x, Infinity), "EQ"), false);
export const isfinite = classify("isfinite", e.isFinite, true);

const intOfWidth: Record<number, DType> = { 2: "int16", 4: "int32", 8: "int64" };

export function signbit(a: Tensor): Tensor {
  checkTensor("signbit", a);
  return run("signbit", [a], "", ([x]) => {
    const t = x as T;
    const k = kind(t.dtype);
    if (k === "float") {
      const bits = bind1("bitcast_convert", [t], { dtype: intOfWidth[dtypes[t.dtype].itemSize]! });
      return e.compare(bits, c(bits, 0), "LT");
    }
    if (k === "int") return e.compare(t, c(t, 0), "LT");
    return e.full(false, "bool", t.shape);
  });
}

// --- clamping ---------------------------------------------------------------------------------------

export interface ClampOptions {
  min?: TensorOrScalar | null;
  max?: TensorOrScalar | null;
}

export function clamp(a: Tensor, options: ClampOptions = {}): Tensor {
  return clampImpl("clamp", a, options);
}
export function clip(a: Tensor, options: ClampOptions = {}): Tensor {
  return clampImpl("clip", a, options);
}

function clampImpl(op: string, a: Tensor, options: ClampOptions): Tensor {
  checkTensor(op, a);
  const lo = options.min ?? null;
  const hi = options.max ?? null;
  if (lo === null && hi === null) throw new ArgumentError(`${op}: at least one of 'min' or 'max' must not be None`);
  const args: TensorOrScalar[] = [a];
  if (lo !== null) args.push(lo);
  if (hi !== null) args.push(hi);
  return run(op, args, `${lo === null ? "-" : "lo"}${hi === null ? "-" : "hi"}`, (xs) => {
    const x = xs[0]!;
    const l = lo === null ? undefined : xs[1]!;
    const h = hi === null ? undefined : xs[lo === null ? 1 : 2]!;
    const bounds = [l, h].filter((v): v is Operand => v !== undefined);
    const dtype = promote(x, ...bounds);
    if (dtype === "bool") throw new DTypeError(`${op}: not implemented for bool tensors`);
    const shape = broadcastShapes(op, shapeOf(x), ...bounds.map(shapeOf));
    let r = lift(x, dtype, shape);
    if (l !== undefined) r = e.max(r, lift(l, dtype, shape));
    if (h !== undefined) r = e.min(r, lift(h, dtype, shape));
    return r;
  });
}

// --- binary arithmetic ------------------------------------------------------------------------------

function noBoolDType(op: string, dtype: DType): void {
  if (dtype === "bool") throw new DTypeError(`${op}: not implemented for bool tensors`);
}

/** C-style remainder: the sign of the dividend. */
export function fmod(a: TensorOrScalar, b: TensorOrScalar): Tensor {
  return run("fmod", [a, b], "", ([x, y]) => {
    const dtype = promote(x!, y!);
    noBoolDType("fmod", dtype);
    const [p, q] = prepare("fmod", x!, y!, dtype);
    const cd = computeDType(dtype);
    return e.convert(e.rem(e.convert(p, cd), e.convert(q, cd)), dtype);
  });
}

/** Python-style remainder: the sign of the divisor. */
export function remainder(a: TensorOrScalar, b: TensorOrScalar): Tensor {
  return run("remainder", [a, b], "", ([x, y]) => {
    const dtype = promote(x!, y!);
    noBoolDType("remainder", dtype);
    const [p0, q0] = prepare("remainder", x!, y!, dtype);
    const cd = computeDType(dtype);
    const p = e.convert(p0, cd);
    const q = e.convert(q0, cd);
    const mod = e.rem(p, q);
    const zero = c(mod, 0);
    const fix = e.and(e.compare(mod, zero, "NE"), e.compare(e.compare(q, zero, "LT"), e.compare(mod, zero, "LT"), "NE"));
    return e.convert(e.select(fix, e.add(mod, q), mod), dtype);
  });
}

/** a // b (rounds toward −infinity). */
export function floorDivide(a: TensorOrScalar, b: TensorOrScalar): Tensor {
  return div(a, b, { roundingMode: "floor" });
}

function nanExtreme(op: "fmax" | "fmin") {
  return (a: Tensor, b: Tensor): Tensor => {
    checkTensor(op, a);
    checkTensor(op, b, "other");
    return run(op, [a, b], "", ([x, y]) => {
      const [p, q] = prepare(op, x!, y!, promote(x!, y!));
      const m = op === "fmax" ? e.max(p, q) : e.min(p, q);
      if (!isFloating(p.dtype)) return m;
      return e.select(isNanT(p), q, e.select(isNanT(q), p, m));
    });
  };
}

/** Elementwise maximum that ignores NaN (NaN only where both are NaN). */
export const fmax = nanExtreme("fmax");
/** Elementwise minimum that ignores NaN. */
export const fmin = nanExtreme("fmin");

/** start + weight × (end − start), float tensors only. */
export function lerp(start: Tensor, end: Tensor, weight: Tensor | number): Tensor {
  checkTensor("lerp", start);
  checkTensor("lerp", end, "end");
  return run("lerp", [start, end, weight], "", ([s, en, w]) => {
    const dtype = promote(s!, en!);
    if (!isFloating(dtype)) throw new DTypeError(`lerp: not implemented for ${dtype} tensors; use a float tensor`);
    const shape = broadcastShapes("lerp", shapeOf(s!), shapeOf(en!), shapeOf(w!));
    const cd = computeDType(dtype);
    const x = lift(s!, cd, shape);
    const y = lift(en!, cd, shape);
    const wt = lift(w!, cd, shape);
    const diff = e.sub(y, x);
    const low = e.add(x, e.mul(wt, diff));
    const high = e.sub(y, e.mul(diff, e.sub(c(wt, 1), wt)));
    return e.convert(e.select(e.compare(e.abs(wt), c(wt, 0.5), "LT"), low, high), dtype);
  });
}

function addcLike(op: "addcmul" | "addcdiv", input: Tensor, t1: Tensor, t2: Tensor, value: ScalarArg): Tensor {
  checkTensor(op, input);
  checkTensor(op, t1, "tensor1");
  checkTensor(op, t2, "tensor2");
  return run(op, [input, t1, t2], String(value), ([x, a, b]) => {
    const dtype = promote(x!, a!, b!);
    if (op === "addcdiv" && !isFloating(dtype)) {
      throw new DTypeError("addcdiv: integer division with addcdiv is no longer supported; use floating point tensors");
    }
    if (!isFloating(dtype) && typeof value === "number" && !Number.isInteger(value)) {
      throw new DTypeError(`${op}: for integer tensors value must be an integer, got ${value}`);
    }
    const shape = broadcastShapes(op, shapeOf(x!), shapeOf(a!), shapeOf(b!));
    const cd = computeDType(dtype);
    const p = lift(x!, cd, shape);
    const q = lift(a!, cd, shape);
    const r = lift(b!, cd, shape);
    const prod = op === "addcmul" ? e.mul(q, r) : e.div(q, r);
    const scaled = value === 1 ? prod : e.mul(c(prod, value), prod);
    return e.convert(e.add(p, scaled), dtype);
  });
}

/** input + value × tensor1 × tensor2. */
export function addcmul(input: Tensor, tensor1: Tensor, tensor2: Tensor, options: { value?: ScalarArg } = {}): Tensor {
  return addcLike("addcmul", input, tensor1, tensor2, options.value ?? 1);
}

/** input + value × tensor1 / tensor2 (float tensors). */
export function addcdiv(input: Tensor, tensor1: Tensor, tensor2: Tensor, options: { value?: ScalarArg } = {}): Tensor {
  return addcLike("addcdiv", input, tensor1, tensor2, options.value ?? 1);
}

/** NaN → nan (0), +inf → posinf (the dtype's largest), −inf → neginf (the dtype's lowest). */
export function nanToNum(a: Tensor, options: { nan?: number; posinf?: number | null; neginf?: number | null } = {}): Tensor {
  checkTensor("nanToNum", a);
  const nan = options.nan ?? 0;
  const posinf = options.posinf ?? null;
  const neginf = options.neginf ?? null;
  return run("nanToNum", [a], `${nan},${posinf},${neginf}`, ([x]) => {
    const t = x as T;
    if (!isFloating(t.dtype)) return t;
    const big = finiteMax[t.dtype]!;
    const v = e.select(isNanT(t), c(t, nan), t);
    const p = e.select(e.compare(t, c(t, Infinity), "EQ"), c(t, posinf ?? big), v);
    return e.select(e.compare(t, c(t, -Infinity), "EQ"), c(t, neginf ?? -big), p);
  });
}

const finiteMax: Partial<Record<DType, number>> = {
  float64: Number.MAX_VALUE,
  float32: 3.4028234663852886e38,
  float16: 65504,
  bfloat16: 3.3895313892515355e38,
};

// --- logical and bitwise ----------------------------------------------------------------------------

const truthy = (x: T): T => (x.dtype === "bool" ? x : e.compare(x, c(x, 0), "NE"));

function logical(op: string, fn: (a: T, b: T) => T) {
  return (a: TensorOrScalar, b: TensorOrScalar): Tensor =>
    run(op, [a, b], "", ([x, y]) => {
      const shape = broadcastShapes(op, shapeOf(x!), shapeOf(y!));
      const p = isScalar(x!) ? e.full(Boolean(x), "bool", shape) : e.broadcastTo(truthy(x!), shape);
      const q = isScalar(y!) ? e.full(Boolean(y), "bool", shape) : e.broadcastTo(truthy(y!), shape);
      return fn(p, q);
    });
}

export const logicalAnd = logical("logicalAnd", e.and);
export const logicalOr = logical("logicalOr", e.or);
export const logicalXor = logical("logicalXor", xorp);

export function logicalNot(a: Tensor): Tensor {
  checkTensor("logicalNot", a);
  return run("logicalNot", [a], "", ([x]) => notp(truthy(x as T)));
}

function bitwise(op: string, fn: (a: T, b: T) => T, boolOk = true) {
  return (a: TensorOrScalar, b: TensorOrScalar): Tensor =>
    run(op, [a, b], "", ([x, y]) => {
      broadcastShapes(op, shapeOf(x!), shapeOf(y!));
      const dtype = promote(x!, y!);
      if (isFloating(dtype)) throw new DTypeError(`${op}: not implemented for floating point dtypes (${dtype}); use integer or bool tensors`);
      if (!boolOk && dtype === "bool") throw new DTypeError(`${op}: not implemented for bool tensors`);
      const [p, q] = prepare(op, x!, y!, dtype);
      return fn(p, q);
    });
}

export const bitwiseAnd = bitwise("bitwiseAnd", e.and);
export const bitwiseOr = bitwise("bitwiseOr", e.or);
export const bitwiseXor = bitwise("bitwiseXor", xorp);
export const bitwiseLeftShift = bitwise("bitwiseLeftShift", (a, b) => bind1("shl", [a, b], none), false);
export const bitwiseRightShift = bitwise(
  "bitwiseRightShift",
  (a, b) => bind1(kind(a.dtype) === "uint" ? "shr_logical" : "shr_arith", [a, b], none),
  false,
);

export function bitwiseNot(a: Tensor): Tensor {
  checkTensor("bitwiseNot", a);
  return run("bitwiseNot", [a], "", ([x]) => {
    const t = x as T;
    if (isFloating(t.dtype)) throw new DTypeError(`bitwiseNot: not implemented for floating point dtypes (${t.dtype})`);
    return notp(t);
  });
}

// --- closeness --------------------------------------------------------------------------------------

export interface CloseOptions {
  rtol?: number;
  atol?: number;
  equalNan?: boolean;
}

function closeTracer(x: Operand, y: Operand, rtol: number, atol: number, equalNan: boolean): T {
  const dtype = promote(x, y);
  const [p, q] = prepare("isclose", x, y, dtype);
  const eq = e.compare(p, q, "EQ");
  if (!isFloating(dtype)) {
    if (rtol === 0 && atol === 0) return eq;
    const f = (v: T) => e.convert(v, "float64");
    const diff = e.abs(e.sub(f(p), f(q)));
    return e.or(eq, e.compare(diff, e.add(c(diff, atol), e.mul(c(diff, rtol), e.abs(f(q)))), "LE"));
  }
  const cd = computeDType(dtype);
  const a = e.convert(p, cd);
  const b = e.convert(q, cd);
  const diff = e.abs(e.sub(a, b));
  const tol = e.add(c(diff, atol), e.mul(c(diff, rtol), e.abs(b)));
  const finiteClose = e.and(e.isFinite(diff), e.compare(diff, tol, "LE"));
  let r = e.or(eq, finiteClose);
  if (equalNan) r = e.or(r, e.and(isNanT(a), isNanT(b)));
  return r;
}

function closeArgs(op: string, options: CloseOptions): [number, number, boolean] {
  const rtol = options.rtol ?? 1e-5;
  const atol = options.atol ?? 1e-8;
  if (rtol < 0) throw new ArgumentError(`${op}: rtol must be greater than or equal to zero, got ${rtol}`);
  if (atol < 0) throw new ArgumentError(`${op}: atol must be greater than or equal to zero, got ${atol}`);
  return [rtol, atol, options.equalNan ?? false];
}

/** |a − b| ≤ atol + rtol × |b|, elementwise (equal infinities are close; NaNs only with equalNan). */
export function isclose(a: Tensor, b: Tensor, options: CloseOptions = {}): Tensor {
  checkTensor("isclose", a);
  checkTensor("isclose", b, "other");
  const [rtol, atol, equalNan] = closeArgs("isclose", options);
  if (a.dtype !== b.dtype) throw new DTypeError(`isclose: ${a.dtype} and ${b.dtype} tensors differ in dtype`);
  return run("isclose", [a, b], `${rtol},${atol},${equalNan}`, ([x, y]) => closeTracer(x!, y!, rtol, atol, equalNan));
}

function allOf(op: string, inputs: Tensor[], statics: string, body: (xs: Operand[]) => T): boolean {
  const t = run(op, inputs, statics, (xs) => {
    const r = body(xs);
    return e.reduce("and", r, r.shape.map((_, i) => i));
  });
  try {
    return t.item() as boolean;
  } finally {
    t.dispose();
  }
}

/** Whether every element of a is close to b (see isclose). */
export function allclose(a: Tensor, b: Tensor, options: CloseOptions = {}): boolean {
  checkTensor("allclose", a);
  checkTensor("allclose", b, "other");
  const [rtol, atol, equalNan] = closeArgs("allclose", options);
  if (a.dtype !== b.dtype) throw new DTypeError(`allclose: ${a.dtype} and ${b.dtype} tensors differ in dtype`);
  return allOf("allclose", [a, b], `${rtol},${atol},${equalNan}`, ([x, y]) => closeTracer(x!, y!, rtol, atol, equalNan));
}

/** Whether a and b have the same shape and elements. */
export function equal(a: Tensor, b: Tensor): boolean {
  checkTensor("equal", a);
  checkTensor("equal", b, "other");
  if (a.shape.length !== b.shape.length || a.shape.some((d, i) => d !== b.shape[i])) return false;
  return allOf("equal", [a, b], "", ([x, y]) => {
    const [p, q] = prepare("equal", x!, y!, promote(x!, y!));
    return e.compare(p, q, "EQ");
  });
}


/** atan2(a, b): the angle of (b, a), float results (integers give float32). */
export function atan2(a: Tensor, b: Tensor): Tensor {
  checkTensor("atan2", a);
  checkTensor("atan2", b, "other");
  return run("atan2", [a, b], "", ([x, y]) => {
    let dtype = promote(x!, y!);
    if (!isFloating(dtype)) dtype = defaultFloatDType;
    const [p, q] = prepare("atan2", x!, y!, computeDType(dtype));
    return e.convert(atan2p(p, q), dtype);
  });
}
