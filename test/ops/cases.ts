// THE table of op cases: every op the CPU plugin supports, on every dtype StableHLO allows for it
// (among f32 f64 f16 bf16 s8 s16 s32 s64 u8 u16 u32 u64 pred). Each case is one module (generic
// MLIR form unless `form` says "pretty"), its inputs, and expected outputs computed here in float64 /
// BigInt and rounded to the dtype. Inputs come from a generator seeded by the case name, so the table is
// the same on every run. Used by ops.test.ts (our plugin), xla.test.ts (real XLA) and libtpu.test.ts.

import {
  ALL,
  DTYPES,
  FLOATS,
  INTS,
  NUMERIC,
  type DType,
  type Scalar,
  decode,
  encode,
  epsilon,
  fromBig,
  intMax,
  intMin,
  isFloat,
  isSigned,
  maxFinite,
  minNormal,
  numElements,
  roundFloat,
  toBig,
} from "./dtypes.js";
import { chloCases } from "./cases_chlo.js";
import { gatherScatterCases } from "./cases_gather_scatter.js";
import { mixedTypeCases } from "./cases_mixed_types.js";
import { narrowTypeCases } from "./cases_narrow_types.js";
import { reducePrecisionSolveCases } from "./cases_reduce_precision_solve.js";
import { specOpCases } from "./cases_spec_ops.js";
import { arr, buildModule, cmpAttrs, singleOp, typeStr, type TType } from "./mlir.js";
import * as R from "./ref.js";
import type { Expected, TensorVal, Tol } from "./ref.js";
import { rng } from "./rng.js";

export interface OpCase {
  /** unique, e.g. "add.float32" */
  name: string;
  /** the op under test */
  op: string;
  form: "generic" | "pretty";
  mlir: string;
  inputs: TensorVal[];
  expected: Expected[];
  /** why XLA:TPU may reject this valid module (libtpu.test accepts a CompileError then, and logs it) */
  tpuMayReject?: string;
}

// ---------------------------------------------------------------------------------------------
// Deterministic inputs

type Rng = () => number;

const N = 24; // elements per element-wise case
const shapeFor = (d: DType): number[] => (ALL.indexOf(d) % 2 === 0 ? [4, 6] : [N]);

/** Random float in ±[lo, hi] (magnitude), rounded to d, never subnormal. */
function randMag(r: Rng, d: DType, lo: number, hi: number): number {
  const m = lo + (hi - lo) * r();
  const v = roundFloat(d, r() < 0.5 ? -m : m);
  return Math.abs(v) < minNormal(d) ? 1 : v;
}
/** Random float in [lo, hi], rounded to d, never subnormal. */
function randIn(r: Rng, d: DType, lo: number, hi: number): number {
  const v = roundFloat(d, lo + (hi - lo) * r());
  return v !== 0 && Math.abs(v) < 4 * minNormal(d) ? lo : v;
}
/** Random multiple of q in [lo, hi] (exact in every float dtype for small ranges). */
function randQ(r: Rng, lo: number, hi: number, q: number): number {
  return Math.round((lo + (hi - lo) * r()) / q) * q;
}
/** Random integer of dtype d in [lo, hi] (bigint bounds; defaults to the full range). */
function randInt(r: Rng, d: DType, lo?: bigint, hi?: bigint): Scalar {
  const a = lo ?? (d === "bool" ? 0n : intMin(d));
  const b = hi ?? (d === "bool" ? 1n : intMax(d));
  const span = b - a + 1n;
  const x = (BigInt(Math.floor(r() * 2 ** 32)) << 32n) | BigInt(Math.floor(r() * 2 ** 32));
  return fromBig(d, a + (x % span));
}
function fill(base: Scalar[], n: number, gen: () => Scalar): Scalar[] {
  const out = base.slice(0, n);
  while (out.length < n) out.push(gen());
  return out;
}
const rf = (d: DType, xs: number[]) => xs.map((x) => roundFloat(d, x));
const big = (d: DType, xs: (number | bigint)[]) => xs.map((x) => fromBig(d, BigInt(x)));

/** Integer edge values of a dtype, in table representation. */
function intEdges(d: DType): Scalar[] {
  const mn = intMin(d);
  const mx = intMax(d);
  const xs = isSigned(d) ? [mn, mx, 0n, 1n, -1n, mn + 1n, mx - 1n, 2n, -2n] : [mn, mx, 0n, 1n, mx - 1n, 2n, mx / 2n, mx / 2n + 1n];
  return xs.map((x) => fromBig(d, x));
}

// ---------------------------------------------------------------------------------------------
// Case construction helpers

const cases: OpCase[] = [];
const T = (dtype: DType, shape: number[]): TType => ({ dtype, shape });
const tv = (dtype: DType, shape: number[], values: Scalar[]): TensorVal => ({ dtype, shape, values });

function add(c: OpCase) {
  if (cases.some((x) => x.name === c.name)) throw new Error(`duplicate case name ${c.name}`);
  for (const t of [...c.inputs, ...c.expected])
    if (t.values.length !== numElements(t.shape)) throw new Error(`${c.name}: ${t.values.length} values for shape [${t.shape}]`);
  cases.push(c);
}

/** One element-wise op on same-shaped inputs. */
function ew(op: string, d: DType, ins: Scalar[][], outDtype: DType, want: Scalar[], tol?: Tol, name?: string) {
  const shape = shapeFor(d);
  const inputs = ins.map((v) => tv(d, shape, v));
  add({
    name: name ?? `${op}.${d}`,
    op,
    form: "generic",
    mlir: singleOp(`stablehlo.${op}`, inputs.map((i) => T(d, shape)), T(outDtype, shape)),
    inputs,
    expected: [{ dtype: outDtype, shape, values: want, tol }],
  });
}

// Tolerances for inexact float math, in ulps of the result dtype (XLA approximates in f32 for f16/bf16).
const TRANS: Record<string, Tol> = {
  float32: { ulp: 4 },
  float64: { ulp: 4 },
  float16: { ulp: 1 },
  bfloat16: { ulp: 1 },
};
const transTol = (d: DType, extra: Partial<Tol> = {}): Tol => ({ ...TRANS[d], ...extra });

/** Replaces inputs whose exact result would be a subnormal of d (XLA CPU flushes those). */
function avoidSubnormal(d: DType, ins: number[][], f: (...x: number[]) => number, safe: number[]) {
  for (let i = 0; i < ins[0]!.length; i++) {
    const y = f(...ins.map((a) => a[i]!));
    if (y !== 0 && Math.abs(y) < 2 * minNormal(d)) ins.forEach((a, k) => (a[i] = roundFloat(d, safe[k]!)));
  }
}

// ---------------------------------------------------------------------------------------------
// Binary element-wise ops

function floatPairs(d: DType): [number[], number[]] {
  const mx = maxFinite(d);
  const A = [NaN, 1, Infinity, Infinity, -Infinity, 0, -0, 0, mx, -mx, 1, -1, 0, 3, -7.5, 0.25];
  const B = [1, NaN, Infinity, -Infinity, -Infinity, -0, -0, 0, mx, mx, 0, 0, 5, -0.5, 2, -4];
  return [rf(d, A), rf(d, B)];
}

const binFloat: Record<string, (a: number, b: number) => number> = {
  add: (a, b) => a + b,
  subtract: (a, b) => a - b,
  multiply: (a, b) => a * b,
  divide: (a, b) => a / b,
  remainder: (a, b) => a % b,
  power: R.powC,
  maximum: (a, b) => (Number.isNaN(a) || Number.isNaN(b) ? NaN : Math.max(a, b)),
  minimum: (a, b) => (Number.isNaN(a) || Number.isNaN(b) ? NaN : Math.min(a, b)),
  atan2: Math.atan2,
};
const binInt: Record<string, R.IntFn> = {
  add: (_d, a, b) => a + b,
  subtract: (_d, a, b) => a - b,
  multiply: (_d, a, b) => a * b,
  divide: R.intDiv,
  remainder: R.intRem,
  power: R.intPow,
  maximum: (_d, a, b) => (a > b ? a : b),
  minimum: (_d, a, b) => (a < b ? a : b),
  and: (_d, a, b) => a & b,
  or: (_d, a, b) => a | b,
  xor: (_d, a, b) => a ^ b,
  shift_left: R.shl,
  shift_right_arithmetic: R.shrArith,
  shift_right_logical: R.shrLogical,
};

for (const op of ["add", "subtract", "multiply", "divide", "remainder", "power", "maximum", "minimum", "atan2"]) {
  for (const d of FLOATS) {
    const r = rng(`${op}.${d}`);
    let [A, B] = floatPairs(d);
    if (op === "maximum" || op === "minimum") {
      // max/min of +0 and -0 may return either zero: keep the pair out
      A = A.map((a, i) => (a === 0 && B[i] === 0 ? 2 : a));
    }
    let gen = () => randMag(r, d, 0.5, 100);
    if (op === "power") gen = () => randIn(r, d, 0.5, 4);
    const a = fill(A, N, gen) as number[];
    const b = fill(B, N, op === "power" ? () => randQ(r, -6, 6, 0.25) : gen) as number[];
    if (op === "power") {
      // negative base with integer and non-integer exponents
      a[20] = rf(d, [-2])[0]!;
      b[20] = 3;
      a[21] = rf(d, [-2])[0]!;
      b[21] = 0.5;
    }
    avoidSubnormal(d, [a, b], binFloat[op]!, [1, 1]);
    const exact = ["add", "subtract", "multiply", "divide", "remainder", "maximum", "minimum"].includes(op);
    ew(op, d, [a, b], d, R.ewFloat(d, binFloat[op]!, a, b), exact ? undefined : transTol(d));
  }
}

function intPairs(op: string, d: DType, r: Rng): [Scalar[], Scalar[]] {
  const mn = intMin(d);
  const mx = intMax(d);
  const bits = BigInt(DTYPES[d].bits);
  const s = isSigned(d);
  let A: bigint[];
  let B: bigint[];
  let genA = () => randInt(r, d);
  let genB = () => randInt(r, d);
  switch (op) {
    case "divide":
    case "remainder":
      A = s ? [mn, mn, 7n, -7n, 7n, -7n, 5n, 0n, mx, mx, -1n] : [mx, 7n, 7n, 0n, mx, 1n];
      B = s ? [-1n, 1n, 2n, 2n, -2n, -2n, 0n, 0n, mx, -1n, mn] : [0n, 2n, 0n, 0n, mx, mx];
      genB = () => {
        const v = randInt(r, d);
        return toBig(v) === 0n ? fromBig(d, 3n) : v;
      };
      break;
    case "power":
      A = s ? [2n, 1n, -1n, -1n, 0n, 0n, 3n, 2n, -2n, 2n, 5n, -3n] : [2n, 1n, 0n, 3n, 2n, 5n, 0n];
      // exponent == bit width wraps to 0, but XLA CPU returns 1 for 2^64 on 64-bit types (its
      // square-and-multiply loop stops at bit 5), so 64-bit types use 62 there
      const wide = bits === 64n ? 62n : bits;
      B = s ? [-1n, -3n, -3n, -4n, 0n, 5n, 50n, bits - 1n, bits - 1n, wide, 0n, 3n] : [wide, 7n, 0n, 40n, bits - 1n, 3n, 9n];
      genA = () => randInt(r, d, s ? -5n : 0n, 6n);
      genB = () => randInt(r, d, 0n, 9n);
      break;
    case "shift_left":
    case "shift_right_arithmetic":
    case "shift_right_logical":
      A = s ? [mn, -1n, mx, 1n, -5n, mn, -1n, 1n, mn] : [mx, mx, 1n, mx / 2n + 1n, mx / 2n + 1n, 1n];
      B = s ? [1n, bits - 1n, 1n, bits - 1n, 2n, bits, bits + 1n, -1n, 0n] : [1n, bits - 1n, bits, 1n, mx, 0n];
      genB = () => randInt(r, d, 0n, bits - 1n);
      break;
    default:
      A = s ? [mn, mx, mn, mx, 0n, -1n, mn, 5n, -7n] : [mx, 0n, mx, 0n, 1n, mx];
      B = s ? [-1n, 1n, mn, mx, 0n, -1n, 1n, -7n, 5n] : [1n, 1n, mx, 0n, mx, 2n];
  }
  return [fill(big(d, A), N, genA), fill(big(d, B), N, genB)];
}

const intBinaryOps = ["add", "subtract", "multiply", "divide", "remainder", "power", "maximum", "minimum", "and", "or", "xor", "shift_left", "shift_right_arithmetic", "shift_right_logical"];
for (const op of intBinaryOps) {
  for (const d of INTS) {
    const r = rng(`${op}.${d}`);
    const [a, b] = intPairs(op, d, r);
    ew(op, d, [a, b], d, R.ewInt(d, binInt[op]!, a, b));
  }
}

// pred: and/or/xor/maximum/minimum, and add (= or) and multiply (= and) as StableHLO defines for i1
{
  const a = fill([0, 0, 1, 1], N, () => 0);
  const b = fill([0, 1, 0, 1], N, () => 0);
  const r = rng("pred");
  for (let i = 4; i < N; i++) {
    a[i] = r() < 0.5 ? 1 : 0;
    b[i] = r() < 0.5 ? 1 : 0;
  }
  const predOps: Record<string, (x: number, y: number) => number> = {
    and: (x, y) => x & y,
    or: (x, y) => x | y,
    xor: (x, y) => x ^ y,
    maximum: (x, y) => Math.max(x, y),
    minimum: (x, y) => Math.min(x, y),
    add: (x, y) => x | y,
    multiply: (x, y) => x & y,
  };
  for (const [op, f] of Object.entries(predOps)) {
    ew(op, "bool", [a, b], "bool", a.map((x, i) => f(x as number, b[i] as number)));
  }
  ew("not", "bool", [a], "bool", a.map((x) => 1 - (x as number)));
}

// ---------------------------------------------------------------------------------------------
// Unary element-wise ops

function floatSpecials(d: DType): number[] {
  const mx = maxFinite(d);
  return rf(d, [NaN, Infinity, -Infinity, 0, -0, 1, -1, 0.5, -0.5, mx, -mx, minNormal(d), -minNormal(d), 2.5, -2.5, 3.75]);
}

interface UnarySpec {
  f: (x: number) => number;
  specials: number[];
  gen: (r: Rng, d: DType) => number;
  tol?: (d: DType) => Tol | undefined;
  dtypes?: DType[];
}
const sinTol = (d: DType) => transTol(d, { abs: 2 * epsilon(d) });
const unaryFloat: Record<string, UnarySpec> = {
  negate: { f: (x) => -x, specials: [], gen: (r, d) => randMag(r, d, 0.001, 1e4) },
  abs: { f: Math.abs, specials: [], gen: (r, d) => randMag(r, d, 0.001, 1e4) },
  sign: { f: R.signF, specials: [], gen: (r, d) => randMag(r, d, 0.001, 1e4) },
  floor: { f: Math.floor, specials: [-0.25, 0.25, 1e6, -1e6], gen: (r) => randQ(r, -8, 8, 0.25) },
  ceil: { f: Math.ceil, specials: [-0.25, 0.25, 1e6, -1e6], gen: (r) => randQ(r, -8, 8, 0.25) },
  round_nearest_even: { f: R.roundHalfEvenF, specials: [-0.25, 0.25, 1.5, -1.5, 4.5, -3.5, 1e6], gen: (r) => randQ(r, -8, 8, 0.25) },
  round_nearest_afz: { f: R.roundAwayF, specials: [-0.25, 0.25, 1.5, -1.5, 4.5, -3.5, 1e6], gen: (r) => randQ(r, -8, 8, 0.25) },
  exponential: { f: Math.exp, specials: [80, -80, 700, 11, -9], gen: (r, d) => randIn(r, d, -9, 11) },
  exponential_minus_one: { f: Math.expm1, specials: [1e-3, -1e-3, 80, -80], gen: (r, d) => randIn(r, d, -5, 5) },
  log: { f: Math.log, specials: [2, 10, 1e-3, 1000], gen: (r, d) => randIn(r, d, 0.001, 1000) },
  log_plus_one: { f: Math.log1p, specials: [-1, -2, 1e-3, -1e-3, 0.75], gen: (r, d) => randIn(r, d, -0.99, 100) },
  logistic: { f: (x) => 1 / (1 + Math.exp(-x)), specials: [20, -20, 5], gen: (r, d) => randIn(r, d, -12, 12) },
  tanh: { f: Math.tanh, specials: [1e-3, -1e-3, 20, -20], gen: (r, d) => randIn(r, d, -5, 5) },
  sqrt: { f: Math.sqrt, specials: [4, 2, 1e4], gen: (r, d) => randIn(r, d, 0, 1000) },
  rsqrt: { f: (x) => 1 / Math.sqrt(x), specials: [4, 2, 1e4], gen: (r, d) => randIn(r, d, 0.001, 1000) },
  cbrt: { f: Math.cbrt, specials: [27, -8, 1000, -0.001], gen: (r, d) => randIn(r, d, -1000, 1000) },
  sine: { f: Math.sin, specials: [3.140625, 1.5703125, 6], gen: (r, d) => randIn(r, d, -10, 10), tol: sinTol },
  cosine: { f: Math.cos, specials: [3.140625, 1.5703125, 6], gen: (r, d) => randIn(r, d, -10, 10), tol: sinTol },
  tan: { f: Math.tan, specials: [0.75, -1.25], gen: (r, d) => randIn(r, d, -1.5, 1.5), tol: sinTol },
};
const exactUnary = ["negate", "abs", "sign", "floor", "ceil", "round_nearest_even", "round_nearest_afz", "sqrt"];

for (const [op, spec] of Object.entries(unaryFloat)) {
  for (const d of FLOATS) {
    const r = rng(`${op}.${d}`);
    // the op's specials first, then the generic ones, then random values
    const base = [...rf(d, spec.specials), ...floatSpecials(d)];
    const x = fill(base, N, () => spec.gen(r, d)) as number[];
    // drop inputs whose exact results are subnormals in d; minNormal itself stays for exact ops
    avoidSubnormal(d, [x], spec.f, [0.5]);
    const want = R.ewFloat(d, spec.f, x);
    const tol = exactUnary.includes(op) ? undefined : (spec.tol ?? transTol)(d);
    ew(op, d, [x], d, want, tol);
  }
}

// is_finite: float → pred
for (const d of FLOATS) {
  const r = rng(`is_finite.${d}`);
  const x = fill(floatSpecials(d), N, () => randMag(r, d, 0.001, 1e4)) as number[];
  const shape = shapeFor(d);
  add({
    name: `is_finite.${d}`,
    op: "is_finite",
    form: "generic",
    mlir: singleOp("stablehlo.is_finite", [T(d, shape)], T("bool", shape)),
    inputs: [tv(d, shape, x)],
    expected: [{ dtype: "bool", shape, values: x.map((v) => (Number.isFinite(v) ? 1 : 0)) }],
  });
}

// integer unary: negate, abs, sign (signed), not (all ints)
for (const d of INTS) {
  const r = rng(`unary.${d}`);
  const x = fill(intEdges(d), N, () => randInt(r, d));
  ew("not", d, [x], d, R.ewInt(d, (_d, a) => ~a, x));
  ew("negate", d, [x], d, R.ewInt(d, (_d, a) => -a, x));
  if (isSigned(d)) {
    ew("abs", d, [x], d, R.ewInt(d, (_d, a) => (a < 0n ? -a : a), x));
    ew("sign", d, [x], d, R.ewInt(d, (_d, a) => (a > 0n ? 1n : a < 0n ? -1n : 0n), x));
  }
}

// ---------------------------------------------------------------------------------------------
// compare: every direction (one output each) for every dtype and comparison type

const DIRS = ["EQ", "NE", "GE", "GT", "LE", "LT"];
function compareCase(d: DType, ctype: string | undefined, a: Scalar[], b: Scalar[]) {
  const shape = shapeFor(d);
  const mlir = buildModule([T(d, shape), T(d, shape)], (blk, [x, y]) =>
    DIRS.map((dir) => blk.op1("stablehlo.compare", [x!, y!], T("bool", shape), cmpAttrs(dir, ctype))),
  );
  add({
    name: `compare.${ctype ?? "NOTYPE"}.${d}`,
    op: "compare",
    form: "generic",
    mlir,
    inputs: [tv(d, shape, a), tv(d, shape, b)],
    expected: DIRS.map((dir) => ({
      dtype: "bool" as DType,
      shape,
      values: a.map((v, i) => (R.compareScalar(d, dir, ctype ?? (isFloat(d) ? "FLOAT" : ""), v, b[i]!) ? 1 : 0)),
    })),
  });
}
for (const d of ALL) {
  const r = rng(`compare.${d}`);
  let a: Scalar[];
  let b: Scalar[];
  if (isFloat(d)) {
    const [A, B] = floatPairs(d);
    a = fill([...A, 2, -3], N, () => randQ(r, -4, 4, 0.5));
    b = fill([...B, 2, -3], N, () => randQ(r, -4, 4, 0.5));
  } else if (d === "bool") {
    a = fill([0, 0, 1, 1], N, () => (r() < 0.5 ? 1 : 0));
    b = fill([0, 1, 0, 1], N, () => (r() < 0.5 ? 1 : 0));
  } else {
    const e = intEdges(d);
    a = fill([...e, ...e], N, () => randInt(r, d, 0n, 3n));
    b = fill([...e, ...[...e].reverse()], N, () => randInt(r, d, 0n, 3n));
  }
  const ctype = isFloat(d) ? "FLOAT" : isSigned(d) ? "SIGNED" : "UNSIGNED";
  compareCase(d, ctype, a, b);
  if (isFloat(d)) compareCase(d, "TOTALORDER", a, b);
  if (d === "float32" || d === "int32" || d === "uint8" || d === "bool") compareCase(d, undefined, a, b);
}

// ---------------------------------------------------------------------------------------------
// select, clamp

function anyValues(d: DType, r: Rng, n: number): Scalar[] {
  if (isFloat(d)) return fill(floatSpecials(d), n, () => randMag(r, d, 0.01, 1000));
  if (d === "bool") return fill([], n, () => (r() < 0.5 ? 1 : 0));
  return fill(intEdges(d), n, () => randInt(r, d));
}
function shuffled<T>(r: Rng, xs: T[]): T[] {
  const a = xs.slice();
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

for (const d of ALL) {
  const r = rng(`select.${d}`);
  const shape = shapeFor(d);
  const a = anyValues(d, r, N);
  const b = shuffled(r, anyValues(d, r, N));
  const p = fill([], N, () => (r() < 0.5 ? 1 : 0));
  const mlir = buildModule([T("bool", shape), T(d, shape), T(d, shape), T("bool", [])], (blk, [pp, x, y, s]) => [
    blk.op1("stablehlo.select", [pp!, x!, y!], T(d, shape)),
    blk.op1("stablehlo.select", [s!, x!, y!], T(d, shape)),
  ]);
  add({
    name: `select.${d}`,
    op: "select",
    form: "generic",
    mlir,
    inputs: [tv("bool", shape, p), tv(d, shape, a), tv(d, shape, b), tv("bool", [], [0])],
    expected: [
      { dtype: d, shape, values: p.map((c, i) => (c ? a[i]! : b[i]!)) },
      { dtype: d, shape, values: b },
    ],
  });
}

for (const d of ALL) {
  const r = rng(`clamp.${d}`);
  const shape = shapeFor(d);
  let x: Scalar[];
  let lo: Scalar[];
  let hi: Scalar[];
  let slo: Scalar;
  let shi: Scalar;
  if (isFloat(d)) {
    x = fill(rf(d, [Infinity, -Infinity, -0, 5, -5, 1e3, -1e3, 0.5]), N, () => randQ(r, -10, 10, 0.25));
    lo = fill([], N, () => randQ(r, -6, 0, 0.5));
    hi = fill([], N, () => randQ(r, 0.5, 6, 0.5));
    slo = -2;
    shi = 3;
  } else if (d === "bool") {
    // pred clamp is min(max(x, lo), hi) on false < true
    x = fill([0, 1, 0, 1, 0, 1, 0, 1], N, () => (r() < 0.5 ? 1 : 0));
    lo = fill([0, 0, 1, 1, 0, 0, 1, 1], N, () => (r() < 0.3 ? 1 : 0));
    hi = fill([0, 0, 0, 0, 1, 1, 1, 1], N, () => (r() < 0.7 ? 1 : 0));
    slo = 0;
    shi = 1;
  } else {
    x = fill(intEdges(d), N, () => randInt(r, d));
    const m = isSigned(d) ? -100n : 3n;
    lo = fill([], N, () => randInt(r, d, m, m + 50n));
    hi = fill([], N, () => randInt(r, d, m + 60n, m + 120n));
    slo = fromBig(d, isSigned(d) ? -5n : 2n);
    shi = fromBig(d, 7n);
  }
  const cl = (v: Scalar, l: Scalar, h: Scalar): Scalar => {
    if (isFloat(d)) return Math.min(Math.max(v as number, l as number), h as number);
    const bv = toBig(v);
    const bl = toBig(l);
    const bh = toBig(h);
    const m = bv > bl ? bv : bl; // min(max(x, lo), hi), also when lo > hi
    return fromBig(d, m < bh ? m : bh);
  };
  const mlir = buildModule([T(d, shape), T(d, shape), T(d, shape), T(d, []), T(d, [])], (blk, [l, v, h, sl, sh]) => [
    blk.op1("stablehlo.clamp", [l!, v!, h!], T(d, shape)),
    blk.op1("stablehlo.clamp", [sl!, v!, sh!], T(d, shape)),
  ]);
  add({
    name: `clamp.${d}`,
    op: "clamp",
    form: "generic",
    ...(d === "bool" ? { tpuMayReject: "libtpu 0.0.42.1 has no pred clamp (\"Hit an unimplemented case while compiling clamp\")" } : {}),
    mlir,
    inputs: [tv(d, shape, lo), tv(d, shape, x), tv(d, shape, hi), tv(d, [], [slo]), tv(d, [], [shi])],
    expected: [
      { dtype: d, shape, values: x.map((v, i) => cl(v, lo[i]!, hi[i]!)), tol: { anyZeroSign: true } },
      { dtype: d, shape, values: x.map((v) => cl(v, slo, shi)), tol: { anyZeroSign: true } },
    ],
  });
}

// ---------------------------------------------------------------------------------------------
// constant, iota, convert, bitcast_convert

for (const d of ALL) {
  const r = rng(`constant.${d}`);
  const shape = [2, 5];
  const values = anyValues(d, r, 10);
  const scalar = anyValues(d, r, 1);
  const mlir = buildModule([], (blk) => [blk.constant(T(d, shape), values), blk.constant(T(d, []), scalar)]);
  add({
    name: `constant.${d}`,
    op: "constant",
    form: "generic",
    mlir,
    inputs: [],
    expected: [
      { dtype: d, shape, values },
      { dtype: d, shape: [], values: scalar },
    ],
  });
}

for (const d of NUMERIC) {
  const mlir = buildModule([], (blk) => [
    blk.op1("stablehlo.iota", [], T(d, [3, 4]), "iota_dimension = 1 : i64"),
    blk.op1("stablehlo.iota", [], T(d, [3, 4]), "iota_dimension = 0 : i64"),
    blk.op1("stablehlo.iota", [], T(d, [5]), "iota_dimension = 0 : i64"),
  ]);
  const conv = (xs: number[]) => xs.map((x) => (isFloat(d) ? x : fromBig(d, BigInt(x))));
  add({
    name: `iota.${d}`,
    op: "iota",
    form: "generic",
    mlir,
    inputs: [],
    expected: [
      { dtype: d, shape: [3, 4], values: conv(R.mapIndex([3, 4], (i) => i[1]!) as number[]) },
      { dtype: d, shape: [3, 4], values: conv(R.mapIndex([3, 4], (i) => i[0]!) as number[]) },
      { dtype: d, shape: [5], values: conv([0, 1, 2, 3, 4]) },
    ],
  });
}

/** Inputs for convert from d: edge values that exercise rounding, saturation and wrap-around. */
function convertInputs(d: DType): Scalar[] {
  const r = rng(`convert.${d}`);
  if (d === "bool") return fill([0, 1, 1, 0], 16, () => (r() < 0.5 ? 1 : 0));
  if (isFloat(d)) {
    const xs = [NaN, Infinity, -Infinity, 0, -0, 1.5, -1.5, 2.5, -2.75, 127.5, 128, -129, 255.75, 256, 65504, -65504, 70000, 1e10, -1e10, 3e9, 1e20, -1e20, 2 ** 63, -(2 ** 63), 0.1, 1 / 3, 1 + 2 ** -9, 1 + 2 ** -12, 3.4e38, 1e-5];
    return xs.map((x) => roundFloat(d, x)).filter((x) => !(x !== 0 && Math.abs(x) < minNormal(d)));
  }
  const mn = intMin(d);
  const mx = intMax(d);
  const xs = [mn, mx, 0n, 1n, mx - 1n, 255n, 256n, 257n, 65535n, 65536n, 2049n, 16777217n, (1n << 53n) + 1n, (1n << 62n) + 12345n, -1n, -129n, -200n, 33554431n];
  return fill(
    xs.filter((x) => x >= mn && x <= mx).map((x) => fromBig(d, x)),
    16,
    () => randInt(r, d),
  );
}
for (const from of ALL) {
  const x = convertInputs(from);
  for (const to of ALL) {
    if (from === to) continue;
    // f64→f32/f16/bf16 and f32→f16/bf16: keep results out of the target's subnormal range
    const xin = x.filter((v) => {
      if (!isFloat(from) || !isFloat(to)) return true;
      const a = Math.abs(v as number);
      return !(a !== 0 && a < minNormal(to)); // subnormal or underflowing results: XLA CPU flushes
    });
    const shape = [xin.length];
    add({
      name: `convert.${from}.${to}`,
      op: "convert",
      form: "generic",
      mlir: singleOp("stablehlo.convert", [T(from, shape)], T(to, shape)),
      inputs: [tv(from, shape, xin)],
      expected: [{ dtype: to, shape, values: xin.map((v) => R.convertScalar(from, to, v)) }],
    });
  }
}

const BITCAST_GROUPS: DType[][] = [
  ["int8", "uint8"],
  ["int16", "uint16", "float16", "bfloat16"],
  ["int32", "uint32", "float32"],
  ["int64", "uint64", "float64"],
];
function bitcastInputs(d: DType, n: number): Scalar[] {
  const r = rng(`bitcast.${d}`);
  if (isFloat(d)) {
    // no NaN: its payload is not fixed by our inputs path
    return fill(rf(d, [Infinity, -Infinity, -0, 0, 1, -1, maxFinite(d), minNormal(d), 0.1]), n, () => randMag(r, d, 0.001, 1e4));
  }
  // integers whose bit patterns are normal floats, zeros or infinities (no NaN / subnormal patterns)
  const out: Scalar[] = [];
  const width = DTYPES[d].bits;
  const expBits = width === 16 ? [5, 8] : width === 32 ? [8] : width === 64 ? [11] : [0];
  while (out.length < n) {
    const v = toBig(randInt(r, d));
    const u = BigInt.asUintN(width, v);
    let ok = true;
    for (const eb of expBits) {
      const mant = width - 1 - eb;
      const e = (u >> BigInt(mant)) & ((1n << BigInt(eb)) - 1n);
      if (e === 0n || e === (1n << BigInt(eb)) - 1n) ok = false;
    }
    if (ok || width === 8) out.push(fromBig(d, v));
  }
  return out;
}
for (const g of BITCAST_GROUPS) {
  for (const from of g) {
    for (const to of g) {
      if (from === to) continue;
      const x = bitcastInputs(from, 12);
      const shape = [3, 4];
      add({
        name: `bitcast_convert.${from}.${to}`,
        op: "bitcast_convert",
        form: "generic",
        mlir: singleOp("stablehlo.bitcast_convert", [T(from, shape)], T(to, shape)),
        inputs: [tv(from, shape, x)],
        expected: [{ dtype: to, shape, values: decode(to, encode(from, x)) }],
      });
    }
  }
}
// width-changing bitcasts: the new minor dimension holds the narrow elements in little-endian order
{
  const x = bitcastInputs("int32", 3);
  add({
    name: "bitcast_convert.int32.uint8x4",
    op: "bitcast_convert",
    form: "generic",
    mlir: singleOp("stablehlo.bitcast_convert", [T("int32", [3])], T("uint8", [3, 4])),
    inputs: [tv("int32", [3], x)],
    expected: [{ dtype: "uint8", shape: [3, 4], values: decode("uint8", encode("int32", x)) }],
  });
  const y = bitcastInputs("uint16", 6);
  add({
    name: "bitcast_convert.uint16x2.float32",
    op: "bitcast_convert",
    form: "generic",
    mlir: singleOp("stablehlo.bitcast_convert", [T("uint16", [3, 2])], T("float32", [3])),
    inputs: [tv("uint16", [3, 2], y)],
    expected: [{ dtype: "float32", shape: [3], values: decode("float32", encode("uint16", y)) }],
  });
}

// ---------------------------------------------------------------------------------------------
// Shape and data-movement ops, on every dtype

for (const d of ALL) {
  const r = rng(`shape.${d}`);
  const vals = (n: number) => anyValues(d, r, n).slice(0, n);
  const cur = (shape: number[]) => tv(d, shape, shuffled(r, vals(numElements(shape))));

  // broadcast_in_dim: vector into the middle dim, size-1 dims expanded, scalar
  {
    const x = cur([3]);
    const y = cur([3, 1]);
    const s = cur([]);
    const mlir = buildModule([T(d, [3]), T(d, [3, 1]), T(d, [])], (b, [a0, a1, a2]) => [
      b.op1("stablehlo.broadcast_in_dim", [a0!], T(d, [2, 3, 4]), `broadcast_dimensions = ${arr([1])}`),
      b.op1("stablehlo.broadcast_in_dim", [a1!], T(d, [2, 3, 4]), `broadcast_dimensions = ${arr([1, 2])}`),
      b.op1("stablehlo.broadcast_in_dim", [a2!], T(d, [2, 2]), `broadcast_dimensions = ${arr([])}`),
      b.op1("stablehlo.broadcast_in_dim", [a1!], T(d, [1, 3]), `broadcast_dimensions = ${arr([1, 0])}`),
    ]);
    add({
      name: `broadcast_in_dim.${d}`,
      op: "broadcast_in_dim",
      form: "generic",
      mlir,
      inputs: [x, y, s],
      expected: [
        { dtype: d, shape: [2, 3, 4], values: R.broadcastInDim(x, [2, 3, 4], [1]) },
        { dtype: d, shape: [2, 3, 4], values: R.broadcastInDim(y, [2, 3, 4], [1, 2]) },
        { dtype: d, shape: [2, 2], values: R.broadcastInDim(s, [2, 2], []) },
        { dtype: d, shape: [1, 3], values: R.broadcastInDim(y, [1, 3], [1, 0]) },
      ],
    });
  }
  // reshape
  {
    const x = cur([2, 3, 4]);
    const mlir = buildModule([T(d, [2, 3, 4])], (b, [a]) => [
      b.op1("stablehlo.reshape", [a!], T(d, [6, 4])),
      b.op1("stablehlo.reshape", [a!], T(d, [24])),
      b.op1("stablehlo.reshape", [b.op1("stablehlo.reshape", [a!], T(d, [4, 1, 6]))], T(d, [1, 2, 12])),
    ]);
    add({
      name: `reshape.${d}`,
      op: "reshape",
      form: "generic",
      mlir,
      inputs: [x],
      expected: [
        { dtype: d, shape: [6, 4], values: x.values },
        { dtype: d, shape: [24], values: x.values },
        { dtype: d, shape: [1, 2, 12], values: x.values },
      ],
    });
  }
  // transpose
  {
    const x = cur([2, 3, 4]);
    const perms = [
      [2, 0, 1],
      [1, 0, 2],
      [0, 1, 2],
    ];
    const mlir = buildModule([T(d, [2, 3, 4])], (b, [a]) =>
      perms.map((p) => b.op1("stablehlo.transpose", [a!], T(d, p.map((i) => x.shape[i]!)), `permutation = ${arr(p)}`)),
    );
    add({
      name: `transpose.${d}`,
      op: "transpose",
      form: "generic",
      mlir,
      inputs: [x],
      expected: perms.map((p) => ({ dtype: d, ...R.transpose(x, p) })),
    });
  }
  // slice
  {
    const x = cur([4, 6]);
    const specs: [number[], number[], number[]][] = [
      [[1, 0], [3, 6], [1, 1]],
      [[0, 1], [4, 6], [2, 3]],
      [[3, 5], [4, 6], [1, 1]],
      [[0, 2], [4, 2], [1, 1]],
    ];
    const outs = specs.map(([s, l, st]) => R.slice(x, s, l, st));
    const mlir = buildModule([T(d, [4, 6])], (b, [a]) =>
      specs.map(([s, l, st], i) =>
        b.op1("stablehlo.slice", [a!], T(d, outs[i]!.shape), `start_indices = ${arr(s)}, limit_indices = ${arr(l)}, strides = ${arr(st)}`),
      ),
    );
    add({ name: `slice.${d}`, op: "slice", form: "generic", mlir, inputs: [x], expected: outs.map((o) => ({ dtype: d, ...o })) });
  }
  // dynamic_slice and dynamic_update_slice (start indices clamped into range)
  {
    const x = cur([4, 6]);
    const upd = cur([2, 3]);
    const starts: [Scalar, Scalar][] = [
      [1, 2],
      [-3, 5],
      [3, 100],
    ];
    const idxType: DType[] = ["int32", "int64", "uint32"];
    const argTypes: TType[] = [T(d, [4, 6]), T(d, [2, 3])];
    const inputs: TensorVal[] = [x, upd];
    starts.forEach(([i, j], k) => {
      const it = idxType[k]!;
      argTypes.push(T(it, []), T(it, []));
      inputs.push(tv(it, [], [fromBig(it, BigInt(i))]), tv(it, [], [fromBig(it, BigInt(j))]));
    });
    const mlir = buildModule(argTypes, (b, a) => {
      const outs = [];
      for (let k = 0; k < 3; k++) {
        outs.push(b.op1("stablehlo.dynamic_slice", [a[0]!, a[2 + 2 * k]!, a[3 + 2 * k]!], T(d, [2, 3]), `slice_sizes = ${arr([2, 3])}`));
        outs.push(b.op1("stablehlo.dynamic_update_slice", [a[0]!, a[1]!, a[2 + 2 * k]!, a[3 + 2 * k]!], T(d, [4, 6])));
      }
      return outs;
    });
    const starts2 = [
      [1, 2],
      [-3, 5],
      [3, 100],
    ];
    const expected: Expected[] = [];
    for (const [i, j] of starts2) {
      expected.push({ dtype: d, shape: [2, 3], values: R.dynamicSlice(x, [i!, j!], [2, 3]) });
      expected.push({ dtype: d, shape: [4, 6], values: R.dynamicUpdateSlice(x, upd, [i!, j!]) });
    }
    // uint32 start 3/100 stay positive; -3 only appears as int64
    add({ name: `dynamic_slice.${d}`, op: "dynamic_slice", form: "generic", mlir, inputs, expected });
  }
  // concatenate
  {
    const a = cur([2, 3]);
    const b2 = cur([1, 3]);
    const c = cur([2, 2]);
    const mlir = buildModule([T(d, [2, 3]), T(d, [1, 3]), T(d, [2, 2])], (b, [x, y, z]) => [
      b.op1("stablehlo.concatenate", [x!, y!, x!], T(d, [5, 3]), "dimension = 0 : i64"),
      b.op1("stablehlo.concatenate", [x!, z!], T(d, [2, 5]), "dimension = 1 : i64"),
    ]);
    const o1 = R.concatenate([a, b2, a], 0);
    const o2 = R.concatenate([a, c], 1);
    add({
      name: `concatenate.${d}`,
      op: "concatenate",
      form: "generic",
      mlir,
      inputs: [a, b2, c],
      expected: [
        { dtype: d, ...o1 },
        { dtype: d, ...o2 },
      ],
    });
  }
  // pad: edge, interior and negative (cropping) padding
  {
    const x = cur([2, 3]);
    const pv = cur([]);
    const specs: [number[], number[], number[]][] = [
      [[1, 0], [0, 2], [0, 0]],
      [[0, 1], [1, 0], [1, 2]],
      [[-1, 1], [1, -2], [2, 1]],
    ];
    const outs = specs.map(([lo, hi, int]) => R.pad(x, pv.values[0]!, lo, hi, int));
    const mlir = buildModule([T(d, [2, 3]), T(d, [])], (b, [a, p]) =>
      specs.map(([lo, hi, int], i) =>
        b.op1(
          "stablehlo.pad",
          [a!, p!],
          T(d, outs[i]!.shape),
          `edge_padding_low = ${arr(lo)}, edge_padding_high = ${arr(hi)}, interior_padding = ${arr(int)}`,
        ),
      ),
    );
    add({ name: `pad.${d}`, op: "pad", form: "generic", mlir, inputs: [x, pv], expected: outs.map((o) => ({ dtype: d, ...o })) });
  }
  // reverse
  {
    const x = cur([2, 3, 4]);
    const dimsList = [[0], [1, 2], [0, 1, 2]];
    const mlir = buildModule([T(d, [2, 3, 4])], (b, [a]) =>
      dimsList.map((ds) => b.op1("stablehlo.reverse", [a!], T(d, [2, 3, 4]), `dimensions = ${arr(ds)}`)),
    );
    add({
      name: `reverse.${d}`,
      op: "reverse",
      form: "generic",
      mlir,
      inputs: [x],
      expected: dimsList.map((ds) => ({ dtype: d, shape: [2, 3, 4], values: R.reverse(x, ds) })),
    });
  }
}

// ---------------------------------------------------------------------------------------------
// dot_general

const dotAttrs = (dn: R.DotDims) => {
  const parts: string[] = [];
  if (dn.lb.length) parts.push(`lhs_batching_dimensions = [${dn.lb.join(", ")}]`, `rhs_batching_dimensions = [${dn.rb.join(", ")}]`);
  parts.push(`lhs_contracting_dimensions = [${dn.lc.join(", ")}]`, `rhs_contracting_dimensions = [${dn.rc.join(", ")}]`);
  return `dot_dimension_numbers = #stablehlo.dot<${parts.join(", ")}>`;
};
interface DotSpec {
  l: number[];
  r: number[];
  dn: R.DotDims;
}
const DOTS: DotSpec[] = [
  { l: [3, 4], r: [4, 5], dn: { lb: [], rb: [], lc: [1], rc: [0] } }, // matmul
  { l: [2, 3, 4], r: [2, 4, 2], dn: { lb: [0], rb: [0], lc: [2], rc: [1] } }, // batched matmul
  { l: [4, 3], r: [5, 4], dn: { lb: [], rb: [], lc: [0], rc: [1] } }, // transposed contraction
  { l: [2, 3, 4], r: [4, 2, 3], dn: { lb: [0], rb: [1], lc: [1, 2], rc: [2, 0] } }, // two contracting dims
  { l: [4], r: [4], dn: { lb: [], rb: [], lc: [0], rc: [0] } }, // inner product → scalar
  { l: [3], r: [2], dn: { lb: [], rb: [], lc: [], rc: [] } }, // outer product
];
for (const d of ALL) {
  const r = rng(`dot_general.${d}`);
  // small integers / halves: every product and partial sum is exact in every dtype, so any
  // summation order gives the same result
  const gen = (shape: number[]) =>
    tv(
      d,
      shape,
      fill([], numElements(shape), () =>
        isFloat(d) ? randQ(r, -4, 4, d === "bfloat16" ? 1 : 0.5) : randInt(r, d, isSigned(d) ? -9n : 0n, d === "bool" ? 1n : 9n),
      ),
    );
  const ins: TensorVal[] = [];
  const exp: Expected[] = [];
  for (const s of DOTS) {
    const l = gen(s.l);
    const rr = gen(s.r);
    ins.push(l, rr);
    const o = R.dotGeneral(l, rr, s.dn, d);
    // an outer product of ±0 may keep -0 or (as XLA does with a zero accumulator) give +0
    exp.push({ dtype: d, shape: o.shape, values: o.values, tol: { anyZeroSign: true } });
  }
  const mlir = buildModule(
    DOTS.flatMap((s) => [T(d, s.l), T(d, s.r)]),
    (b, a) => DOTS.map((s, i) => b.op1("stablehlo.dot_general", [a[2 * i]!, a[2 * i + 1]!], T(d, exp[i]!.shape), dotAttrs(s.dn))),
  );
  const no64 = d === "int64" || d === "uint64" ? { tpuMayReject: "libtpu 0.0.42.1 cannot rewrite a 64-bit integer dot for TPU" } : {};
  add({ name: `dot_general.${d}`, op: "dot_general", form: "generic", mlir, inputs: ins, expected: exp, ...no64 });
}
// integer overflow wraps; floats with inexact products get a summation-order tolerance
for (const d of ["int8", "uint8", "int32", "int64", "uint64"] as DType[]) {
  const r = rng(`dot_general.wrap.${d}`);
  const l = tv(d, [2, 8], fill([], 16, () => randInt(r, d)));
  const rr = tv(d, [8, 3], fill([], 24, () => randInt(r, d)));
  const dn = { lb: [], rb: [], lc: [1], rc: [0] };
  const o = R.dotGeneral(l, rr, dn, d);
  add({
    name: `dot_general.wrap.${d}`,
    op: "dot_general",
    form: "generic",
    ...(d === "int64" || d === "uint64" ? { tpuMayReject: "libtpu 0.0.42.1 cannot rewrite a 64-bit integer dot for TPU" } : {}),
    mlir: singleOp("stablehlo.dot_general", [T(d, [2, 8]), T(d, [8, 3])], T(d, o.shape), dotAttrs(dn)),
    inputs: [l, rr],
    expected: [{ dtype: d, shape: o.shape, values: o.values }],
  });
}
for (const d of ["float32", "float64"] as DType[]) {
  const r = rng(`dot_general.inexact.${d}`);
  const l = tv(d, [4, 16], fill([], 64, () => randIn(r, d, -1, 1)));
  const rr = tv(d, [16, 3], fill([], 48, () => randIn(r, d, -1, 1)));
  const dn = { lb: [], rb: [], lc: [1], rc: [0] };
  const o = R.dotGeneral(l, rr, dn, d);
  add({
    name: `dot_general.inexact.${d}`,
    op: "dot_general",
    form: "generic",
    mlir: singleOp("stablehlo.dot_general", [T(d, [4, 16]), T(d, [16, 3])], T(d, o.shape), dotAttrs(dn)),
    inputs: [l, rr],
    expected: [{ dtype: d, shape: o.shape, values: o.values, tolAbs: o.absSums.map((s) => 32 * epsilon(d) * s), tol: { ulp: 2 } }],
  });
}

// ---------------------------------------------------------------------------------------------
// reduce: add / mul / max / min bodies (and / or on pred), over one and several dims, and a
// 2-operand argmax body

const REDUCE_OPS: Record<string, string> = { add: "stablehlo.add", mul: "stablehlo.multiply", max: "stablehlo.maximum", min: "stablehlo.minimum", and: "stablehlo.and", or: "stablehlo.or" };
function reduceInit(d: DType, fn: R.ReduceFn): Scalar {
  if (fn === "add") return isFloat(d) ? 0 : fromBig(d, 0n);
  if (fn === "mul") return isFloat(d) ? 1 : fromBig(d, 1n);
  if (fn === "and") return 1;
  if (fn === "or") return 0;
  if (isFloat(d)) return fn === "max" ? -Infinity : Infinity;
  return fromBig(d, fn === "max" ? intMin(d) : intMax(d));
}
const reduceDims = [[1], [0, 2], [0, 1, 2]];
for (const d of ALL) {
  const fns: R.ReduceFn[] = d === "bool" ? ["and", "or"] : ["add", "mul", "max", "min"];
  for (const fn of fns) {
    const r = rng(`reduce.${fn}.${d}`);
    const shape = [2, 3, 4];
    let values: Scalar[];
    if (d === "bool") values = fill([], 24, () => (r() < 0.8 ? 1 : 0));
    else if (isFloat(d)) {
      values =
        fn === "mul"
          ? fill([], 24, () => [-2, -1, -0.5, 0.5, 1, 2, 1.5][Math.floor(r() * 7)]!)
          : fill(fn === "add" ? [] : [NaN], 24, () => randQ(r, -8, 8, 0.25));
      if (fn !== "add" && fn !== "mul") values[5] = -Infinity;
    } else if (fn === "add" || fn === "mul") values = fill([], 24, () => randInt(r, d)); // wraps
    else values = fill(intEdges(d), 24, () => randInt(r, d));
    values = shuffled(r, values);
    const x = tv(d, shape, values);
    const init = reduceInit(d, fn);
    const exp = reduceDims.map((ds) => R.reduce(x, ds, fn, init));
    const mlir = buildModule([T(d, shape), T(d, [])], (b, [a, z]) =>
      reduceDims.map((ds, i) =>
        b.op1(
          "stablehlo.reduce",
          [a!, z!],
          T(d, exp[i]!.shape),
          `dimensions = ${arr(ds)}`,
          [b.region([T(d, []), T(d, [])], (rb, [p, q]) => [rb.op1(REDUCE_OPS[fn]!, [p!, q!], T(d, []))])],
        ),
      ),
    );
    add({
      name: `reduce.${fn}.${d}`,
      op: "reduce",
      form: "generic",
      mlir,
      inputs: [x, tv(d, [], [init])],
      expected: exp.map((e) => ({ ...e, tol: { anyZeroSign: true } })),
    });
  }
}
// argmax over the last dim: (value, index) pairs, ties to the lower index
for (const d of ["float32", "float64", "float16", "bfloat16", "int32", "int8", "uint16", "int64"] as DType[]) {
  const r = rng(`reduce.argmax.${d}`);
  const shape = [3, 5];
  const values = fill([], 15, () => (isFloat(d) ? randQ(r, -4, 4, 0.5) : randInt(r, d, isSigned(d) ? -3n : 0n, 3n))); // ties likely
  const x = tv(d, shape, values);
  const idx = tv("int32", shape, R.mapIndex(shape, (i) => i[1]!));
  const initV: Scalar = isFloat(d) ? -Infinity : fromBig(d, intMin(d));
  const outV: Scalar[] = [];
  const outI: Scalar[] = [];
  for (let row = 0; row < 3; row++) {
    let bv = initV;
    let bi = 0;
    for (let c = 0; c < 5; c++) {
      const v = values[row * 5 + c]!;
      if (isFloat(d) ? (v as number) > (bv as number) : toBig(v) > toBig(bv)) {
        bv = v;
        bi = c;
      }
    }
    outV.push(bv);
    outI.push(bi);
  }
  const mlir = buildModule([T(d, shape), T("int32", shape), T(d, []), T("int32", [])], (b, [v, i, v0, i0]) =>
    b.op(
      "stablehlo.reduce",
      [v!, i!, v0!, i0!],
      [T(d, [3]), T("int32", [3])],
      `dimensions = ${arr([1])}`,
      [
        b.region([T(d, []), T("int32", []), T(d, []), T("int32", [])], (rb, [av, ai, bv, bi]) => {
          const s = T("bool", []);
          const gt = rb.op1("stablehlo.compare", [av!, bv!], s, cmpAttrs("GT"));
          const eq = rb.op1("stablehlo.compare", [av!, bv!], s, cmpAttrs("EQ"));
          const lt = rb.op1("stablehlo.compare", [ai!, bi!], s, cmpAttrs("LT", "SIGNED"));
          const pickA = rb.op1("stablehlo.or", [gt, rb.op1("stablehlo.and", [eq, lt], s)], s);
          return [rb.op1("stablehlo.select", [pickA, av!, bv!], T(d, [])), rb.op1("stablehlo.select", [pickA, ai!, bi!], T("int32", []))];
        }),
      ],
    ),
  );
  add({
    name: `reduce.argmax.${d}`,
    op: "reduce",
    form: "generic",
    mlir,
    inputs: [x, idx, tv(d, [], [initV]), tv("int32", [], [0])],
    expected: [
      { dtype: d, shape: [3], values: outV },
      { dtype: "int32", shape: [3], values: outI },
    ],
  });
}

// ---------------------------------------------------------------------------------------------
// A few modules in pretty form (what people and JAX write)

function pretty(args: TType[], results: TType[], body: string): string {
  const params = args.map((t, i) => `%a${i}: ${typeStr(t)}`).join(", ");
  return [
    `module @m attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {`,
    `  func.func public @main(${params}) -> (${results.map(typeStr).join(", ")}) {`,
    body,
    `  }`,
    `}`,
    ``,
  ].join("\n");
}
{
  const find = (n: string) => cases.find((c) => c.name === n)!;
  for (const d of ["float32", "int32", "bfloat16"] as DType[]) {
    const src = find(`add.${d}`);
    const t = typeStr(src.inputs[0]!);
    add({
      ...src,
      name: `pretty.add.${d}`,
      form: "pretty",
      mlir: pretty([src.inputs[0]!, src.inputs[1]!], [src.expected[0]!], `    %0 = stablehlo.add %a0, %a1 : ${t}\n    return %0 : ${t}`),
    });
  }
  {
    const src = find("exponential.float32");
    const t = typeStr(src.inputs[0]!);
    add({ ...src, name: "pretty.exponential.float32", form: "pretty", mlir: pretty([src.inputs[0]!], [src.expected[0]!], `    %0 = stablehlo.exponential %a0 : ${t}\n    return %0 : ${t}`) });
  }
  {
    const src = find("compare.FLOAT.float32");
    const [a, b] = src.inputs;
    const bt = typeStr(src.expected[0]!);
    const lines = DIRS.map((dir, i) => `    %${i} = stablehlo.compare ${dir}, %a0, %a1, FLOAT : (${typeStr(a!)}, ${typeStr(b!)}) -> ${bt}`);
    lines.push(`    return ${DIRS.map((_, i) => `%${i}`).join(", ")} : ${DIRS.map(() => bt).join(", ")}`);
    add({ ...src, name: "pretty.compare.float32", form: "pretty", mlir: pretty([a!, b!], src.expected, lines.join("\n")) });
  }
  {
    const src = find("convert.int32.float32");
    add({
      ...src,
      name: "pretty.convert.int32.float32",
      form: "pretty",
      mlir: pretty([src.inputs[0]!], [src.expected[0]!], `    %0 = stablehlo.convert %a0 : (${typeStr(src.inputs[0]!)}) -> ${typeStr(src.expected[0]!)}\n    return %0 : ${typeStr(src.expected[0]!)}`),
    });
  }
  {
    const src = find("transpose.float32");
    const x = src.inputs[0]!;
    const outs = src.expected;
    const perms = [
      [2, 0, 1],
      [1, 0, 2],
      [0, 1, 2],
    ];
    const lines = perms.map((p, i) => `    %${i} = stablehlo.transpose %a0, dims = [${p.join(", ")}] : (${typeStr(x)}) -> ${typeStr(outs[i]!)}`);
    lines.push(`    return %0, %1, %2 : ${outs.map(typeStr).join(", ")}`);
    add({ ...src, name: "pretty.transpose.float32", form: "pretty", mlir: pretty([x], outs, lines.join("\n")) });
  }
  {
    const src = find("iota.int32");
    const o = src.expected;
    const body = [
      `    %0 = stablehlo.iota dim = 1 : ${typeStr(o[0]!)}`,
      `    %1 = stablehlo.iota dim = 0 : ${typeStr(o[1]!)}`,
      `    %2 = stablehlo.iota dim = 0 : ${typeStr(o[2]!)}`,
      `    return %0, %1, %2 : ${o.map(typeStr).join(", ")}`,
    ].join("\n");
    add({ ...src, name: "pretty.iota.int32", form: "pretty", mlir: pretty([], o, body) });
  }
  {
    const src = find("select.float64");
    const [p, a, b, s] = src.inputs;
    const body = [
      `    %0 = stablehlo.select %a0, %a1, %a2 : ${typeStr(p!)}, ${typeStr(a!)}`,
      `    %1 = stablehlo.select %a3, %a1, %a2 : ${typeStr(s!)}, ${typeStr(a!)}`,
      `    return %0, %1 : ${typeStr(a!)}, ${typeStr(a!)}`,
    ].join("\n");
    add({ ...src, name: "pretty.select.float64", form: "pretty", mlir: pretty([p!, a!, b!, s!], src.expected, body) });
  }
  {
    const src = find("slice.int64");
    const x = src.inputs[0]!;
    const o = src.expected;
    const specs = ["[1:3, 0:6]", "[0:4:2, 1:6:3]", "[3:4, 5:6]", "[0:4, 2:2]"];
    const lines = specs.map((s, i) => `    %${i} = stablehlo.slice %a0 ${s} : (${typeStr(x)}) -> ${typeStr(o[i]!)}`);
    lines.push(`    return %0, %1, %2, %3 : ${o.map(typeStr).join(", ")}`);
    add({ ...src, name: "pretty.slice.int64", form: "pretty", mlir: pretty([x], o, lines.join("\n")) });
  }
  {
    const src = find("concatenate.float16");
    const [a, b, c] = src.inputs;
    const o = src.expected;
    const body = [
      `    %0 = stablehlo.concatenate %a0, %a1, %a0, dim = 0 : (${typeStr(a!)}, ${typeStr(b!)}, ${typeStr(a!)}) -> ${typeStr(o[0]!)}`,
      `    %1 = stablehlo.concatenate %a0, %a2, dim = 1 : (${typeStr(a!)}, ${typeStr(c!)}) -> ${typeStr(o[1]!)}`,
      `    return %0, %1 : ${o.map(typeStr).join(", ")}`,
    ].join("\n");
    add({ ...src, name: "pretty.concatenate.float16", form: "pretty", mlir: pretty([a!, b!, c!], o, body) });
  }
  {
    const src = find("dot_general.float32");
    const ins = src.inputs;
    const o = src.expected;
    const lines = DOTS.map((s, i) => {
      const batch = s.dn.lb.length ? `batching_dims = [${s.dn.lb.join(", ")}] x [${s.dn.rb.join(", ")}], ` : "";
      return `    %${i} = stablehlo.dot_general %a${2 * i}, %a${2 * i + 1}, ${batch}contracting_dims = [${s.dn.lc.join(", ")}] x [${s.dn.rc.join(", ")}], precision = [DEFAULT, DEFAULT] : (${typeStr(ins[2 * i]!)}, ${typeStr(ins[2 * i + 1]!)}) -> ${typeStr(o[i]!)}`;
    });
    lines.push(`    return ${o.map((_, i) => `%${i}`).join(", ")} : ${o.map(typeStr).join(", ")}`);
    add({ ...src, name: "pretty.dot_general.float32", form: "pretty", mlir: pretty(ins, o, lines.join("\n")) });
  }
  {
    // the fact sheet's broadcast + add + reduce module, with our values
    const r = rng("pretty.bcast_reduce");
    const a = tv("float32", [2, 3], fill([], 6, () => randQ(r, -4, 4, 0.25)));
    const bvec = tv("float32", [3], fill([], 3, () => randQ(r, -4, 4, 0.25)));
    const bb = R.broadcastInDim(bvec, [2, 3], [1]);
    const s = a.values.map((v, i) => (v as number) + (bb[i] as number));
    const red = R.reduce(tv("float32", [2, 3], s), [1], "add", 0);
    const body = [
      `    %bb = stablehlo.broadcast_in_dim %a1, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>`,
      `    %s = stablehlo.add %a0, %bb : tensor<2x3xf32>`,
      `    %z = stablehlo.constant dense<0.0> : tensor<f32>`,
      `    %r = stablehlo.reduce(%s init: %z) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>`,
      `    %m = stablehlo.reduce(%s init: %z) across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>`,
      `     reducer(%p: tensor<f32>, %q: tensor<f32>) {`,
      `      %t = stablehlo.add %p, %q : tensor<f32>`,
      `      stablehlo.return %t : tensor<f32>`,
      `    }`,
      `    return %s, %r, %m : tensor<2x3xf32>, tensor<2xf32>, tensor<2xf32>`,
    ].join("\n");
    add({
      name: "pretty.broadcast_reduce.float32",
      op: "reduce",
      form: "pretty",
      mlir: pretty([a, bvec], [T("float32", [2, 3]), T("float32", [2]), T("float32", [2])], body),
      inputs: [a, bvec],
      expected: [
        { dtype: "float32", shape: [2, 3], values: s },
        { ...red, tol: { anyZeroSign: true } },
        { ...red, tol: { anyZeroSign: true } },
      ],
    });
  }
}

for (const c of [...gatherScatterCases(), ...mixedTypeCases(), ...chloCases(), ...reducePrecisionSolveCases(), ...narrowTypeCases(), ...specOpCases()]) add(c);

export const OP_CASES: readonly OpCase[] = cases;

/** Ops the table must cover (checked by ops.test.ts so a missing family is a failure, not a gap). */
export const REQUIRED_OPS = [
  "constant", "iota", "convert", "bitcast_convert", "add", "subtract", "multiply", "divide", "remainder", "power",
  "maximum", "minimum", "atan2", "and", "or", "xor", "not", "shift_left", "shift_right_arithmetic", "shift_right_logical",
  "negate", "abs", "sign", "exponential", "exponential_minus_one", "log", "log_plus_one", "logistic", "tanh", "sqrt",
  "rsqrt", "cbrt", "sine", "cosine", "tan", "floor", "ceil", "round_nearest_even", "round_nearest_afz", "is_finite",
  "compare", "select", "clamp", "broadcast_in_dim", "reshape", "transpose", "slice", "dynamic_slice",
  "dynamic_update_slice", "concatenate", "pad", "reverse", "dot_general", "reduce",
];

