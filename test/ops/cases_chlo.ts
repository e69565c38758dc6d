// The CHLO ops JAX emits: the math functions (float64 references in special.ts and Math, rounded once to
// the dtype), next_after, polygamma, zeta, mulhi, is_inf and its signed forms, square, conj, top_k, the
// broadcasting binary ops, constant and constant_like.

import type { OpCase } from "./cases.js";
import { type DType, FLOATS, INTS, type Scalar, fromBig, intMax, intMin, isFloat, isSigned, maxFinite, minNormal, roundFloat, DTYPES } from "./dtypes.js";
import { buildModule, cmpAttrs, typeStr, type TType } from "./mlir.js";
import type { Expected, TensorVal, Tol } from "./ref.js";
import { rng } from "./rng.js";
import * as S from "./special.js";

const T = (dtype: DType, shape: number[]): TType => ({ dtype, shape });
const tv = (dtype: DType, shape: number[], values: Scalar[]): TensorVal => ({ dtype, shape, values });

interface UnarySpec {
  f: (x: number) => number;
  /** values to test besides random ones in [lo, hi] */
  edges: number[];
  lo: number;
  hi: number;
  /** tolerance for f32 / f64 results (f16 and bf16 allow 1 ulp: XLA computes them in f32) */
  tol32: Tol;
  tol64: Tol;
  result?: "bool";
}

const I = Infinity;
const UNARY: Record<string, UnarySpec> = {
  lgamma: { f: S.lgamma, edges: [1, 2, 0.5, -0.5, -2.5, 0, -1, -3, I, -I, NaN, 1e-3, 100.5], lo: -8, hi: 30, tol32: { ulp: 8, abs: 4e-6 }, tol64: { ulp: 64, abs: 1e-14 } },
  digamma: { f: S.digamma, edges: [1, 0.5, 2, -0.5, -2.25, 0, -1, I, NaN, 1e-3, 40], lo: -6, hi: 30, tol32: { ulp: 8, abs: 4e-6 }, tol64: { ulp: 64, abs: 1e-14 } },
  erf_inv: { f: S.erfInv, edges: [0, -0, 0.5, -0.9, 0.999, -0.99, 1, -1, 1.5, NaN, 0.001], lo: -1, hi: 1, tol32: { ulp: 8 }, tol64: { ulp: 16 } },
  erfc: { f: S.erfc, edges: [0, -0, 1, -1, 3, 9, -4, I, -I, NaN, 0.25], lo: -3, hi: 8, tol32: { ulp: 32 }, tol64: { ulp: 64 } },
  bessel_i1e: { f: S.besselI1e, edges: [0, -0, 1, -1, 30, -35, 500, I, -I, NaN, 1e-3], lo: -40, hi: 40, tol32: { ulp: 8 }, tol64: { ulp: 32 } },
  acos: { f: Math.acos, edges: [0, 1, -1, 0.5, -0.999, 1.5, NaN], lo: -1, hi: 1, tol32: { ulp: 4 }, tol64: { ulp: 4 } },
  acosh: { f: Math.acosh, edges: [1, 1.5, 10, 0.5, I, NaN], lo: 1, hi: 50, tol32: { ulp: 4 }, tol64: { ulp: 4 } },
  asin: { f: Math.asin, edges: [0, -0, 1, -1, 0.5, -1.5, NaN], lo: -1, hi: 1, tol32: { ulp: 4 }, tol64: { ulp: 4 } },
  asinh: { f: Math.asinh, edges: [0, -0, 1, -1, 100, I, -I, NaN], lo: -20, hi: 20, tol32: { ulp: 4 }, tol64: { ulp: 4 } },
  atan: { f: Math.atan, edges: [0, -0, 1, -1, 1e6, I, -I, NaN], lo: -20, hi: 20, tol32: { ulp: 4 }, tol64: { ulp: 4 } },
  atanh: { f: Math.atanh, edges: [0, -0, 0.5, -0.5, 1, -1, 2, NaN], lo: -1, hi: 1, tol32: { ulp: 4 }, tol64: { ulp: 128 } },
  cosh: { f: Math.cosh, edges: [0, -0, 1, -1, 10, I, -I, NaN], lo: -10, hi: 10, tol32: { ulp: 16 }, tol64: { ulp: 4 } },
  sinh: { f: Math.sinh, edges: [0, -0, 1, -1, 10, I, -I, NaN], lo: -10, hi: 10, tol32: { ulp: 16 }, tol64: { ulp: 4 } },
  tan: { f: Math.tan, edges: [0, -0, 1, -1, 3, I, NaN], lo: -3, hi: 3, tol32: { ulp: 4 }, tol64: { ulp: 4 } },
  square: { f: (x) => x * x, edges: [0, -0, 3, -1.5, I, -I, NaN], lo: -100, hi: 100, tol32: {}, tol64: {} },
  conj: { f: (x) => x, edges: [0, -0, 3, -1.5, I, -I, NaN], lo: -100, hi: 100, tol32: {}, tol64: {} },
  is_inf: { f: (x) => (Math.abs(x) === I ? 1 : 0), edges: [0, I, -I, NaN, 1], lo: -10, hi: 10, tol32: {}, tol64: {}, result: "bool" },
  is_pos_inf: { f: (x) => (x === I ? 1 : 0), edges: [0, I, -I, NaN, 1], lo: -10, hi: 10, tol32: {}, tol64: {}, result: "bool" },
  is_neg_inf: { f: (x) => (x === -I ? 1 : 0), edges: [0, I, -I, NaN, 1], lo: -10, hi: 10, tol32: {}, tol64: {}, result: "bool" },
};

const N = 24;

const subnormal = (d: DType, v: number) => v !== 0 && Math.abs(v) < minNormal(d);

function inputs(d: DType, spec: UnarySpec, seed: string): number[] {
  const r = rng(seed);
  const xs = spec.edges.map((x) => roundFloat(d, x));
  while (xs.length < N) xs.push(roundFloat(d, spec.lo + (spec.hi - spec.lo) * r()));
  // no subnormal inputs or results: XLA CPU flushes those
  return xs.map((x) => (subnormal(d, x) || subnormal(d, roundFloat(d, spec.f(x))) ? roundFloat(d, spec.edges[0]!) : x));
}

function tolFor(d: DType, spec: UnarySpec): Tol {
  if (d === "float64") return spec.tol64;
  if (d === "float32") return spec.tol32;
  return { ...spec.tol32, ulp: Math.max(1, spec.tol32.ulp ?? 0), abs: spec.tol32.abs ? 8 * spec.tol32.abs : undefined };
}

function unaryCases(): OpCase[] {
  const cases: OpCase[] = [];
  for (const [op, spec] of Object.entries(UNARY)) {
    for (const d of FLOATS) {
      const name = `chlo.${op}.${d}`;
      const xs = inputs(d, spec, name);
      const out: DType = spec.result ?? d;
      const want = xs.map((x) => (out === "bool" ? spec.f(x) : roundFloat(d, spec.f(x))));
      const x = tv(d, [N], xs);
      add(cases, { name, op: `chlo.${op}`, form: "generic", mlir: buildModule([T(d, [N])], (b, [a]) => [b.op1(`chlo.${op}`, [a!], T(out, [N]))]), inputs: [x], expected: [{ dtype: out, shape: [N], values: want, tol: out === "bool" ? undefined : tolFor(d, spec) }] });
    }
  }
  return cases;
}

function add(cases: OpCase[], c: OpCase) {
  // results that are subnormal in the dtype: XLA CPU flushes them, so leave those elements out
  for (const e of c.expected) {
    if (!isFloat(e.dtype)) continue;
    const bad = e.values.map((v) => typeof v === "number" && v !== 0 && Math.abs(v) < minNormal(e.dtype));
    if (bad.some((b) => b)) throw new Error(`${c.name}: subnormal expected values; choose other inputs`);
  }
  cases.push(c);
}

function binaryCases(): OpCase[] {
  const cases: OpCase[] = [];
  const bin = (op: string, d: DType, a: number[], b: number[], f: (x: number, y: number) => number, tol?: Tol) => {
    const n = a.length;
    const want = a.map((x, i) => roundFloat(d, f(x, b[i]!)));
    const mlir = buildModule([T(d, [n]), T(d, [n])], (bb, [x, y]) => [bb.op1(`chlo.${op}`, [x!, y!], T(d, [n]))]);
    add(cases, { name: `chlo.${op}.${d}`, op: `chlo.${op}`, form: "generic", mlir, inputs: [tv(d, [n], a), tv(d, [n], b)], expected: [{ dtype: d, shape: [n], values: want, tol }] });
  };
  for (const d of FLOATS) {
    const r = (xs: number[]) => xs.map((x) => roundFloat(d, x));
    const mx = maxFinite(d);
    // next_after: steps of one ulp in the dtype's own format, towards the second operand
    const next = (x: number, y: number): number => {
      if (Number.isNaN(x) || Number.isNaN(y)) return NaN;
      if (x === y) return y;
      const info = DTYPES[d];
      const ulp = (v: number) => 2 ** (Math.max(Math.floor(Math.log2(Math.abs(v))), info.emin!) - info.mant!);
      const a = Math.abs(x);
      // stepping down from a power of two halves the step
      const step = (x < y) === (x > 0) ? ulp(x) : a === 2 ** Math.floor(Math.log2(a)) && a > minNormal(d) ? ulp(x) / 2 : ulp(x);
      const out = x + (x < y ? step : -step);
      return Math.abs(out) > mx ? out * Infinity : out;
    };
    const nx = r([1, 1, -1, 2, 3.5, -3.5, mx, -mx, 1, NaN, 5, 0.25]);
    const ny = r([2, 0, -2, 1, 3.5, 0, I, -I, NaN, 1, -I, 100]);
    bin("next_after", d, nx, ny, next);
    // polygamma(n, x) for n = 0…3 and zeta(s, q), at positive and negative non-integer points
    const pn = r([0, 1, 2, 3, 1, 2, 0, 1, 2, 3, 1.5, -1]);
    const px = r([2.5, 0.5, 1.5, 3.25, -1.5, -2.25, -0.5, 10, 0, 7.5, 2, 2]);
    const tol = d === "float64" ? { ulp: 256, abs: 1e-13 } : d === "float32" ? { ulp: 16 } : { ulp: 2 };
    bin("polygamma", d, pn, px, S.polygamma, tol);
    const zs = r([2, 3, 1.5, 4.5, 2, 3, 1, 0.5, 2, 2, 6, 2.5]);
    const zq = r([1, 0.5, 2, 1.25, -1.5, -2.25, 3, 1, 0, -1, 3.5, -0.5]);
    bin("zeta", d, zs, zq, S.zeta, tol);
  }
  // mulhi: the high half of the double-width product
  for (const d of INTS) {
    const r = rng(`chlo.mulhi.${d}`);
    const bits = BigInt(DTYPES[d].bits);
    const edges = [intMin(d), intMax(d), 0n, 1n, isSigned(d) ? -1n : 2n, intMax(d) / 2n];
    const pick = (): bigint => intMin(d) + BigInt(Math.floor(r() * 2 ** 30)) * ((intMax(d) - intMin(d)) / 2n ** 30n);
    const a = [...edges, ...edges.map(() => pick())];
    const b = [...edges.slice().reverse(), ...edges.map(() => pick())];
    const want = a.map((x, i) => fromBig(d, (x * b[i]!) >> bits));
    const n = a.length;
    const mlir = buildModule([T(d, [n]), T(d, [n])], (bb, [x, y]) => [bb.op1("chlo.mulhi", [x!, y!], T(d, [n]))]);
    const no64 = DTYPES[d].bits === 64 ? { tpuMayReject: "libtpu 0.0.42.1 cannot rewrite a 64-bit mulhi for TPU" } : {};
    cases.push({ ...no64, name: `chlo.mulhi.${d}`, op: "chlo.mulhi", form: "generic", mlir, inputs: [tv(d, [n], a.map((v) => fromBig(d, v))), tv(d, [n], b.map((v) => fromBig(d, v)))], expected: [{ dtype: d, shape: [n], values: want }] });
  }
  return cases;
}

/** Descending total order (NaN above +inf, +0 above -0, -NaN last), equal values in index order. */
function topK(x: TensorVal, k: number, indexType: DType): Expected[] {
  const last = x.shape[x.shape.length - 1]!;
  const rows = x.values.length / last;
  const key = (v: Scalar): number => {
    if (typeof v === "bigint") return Number(v);
    if (!isFloat(x.dtype)) return v;
    if (Number.isNaN(v)) return Infinity * 2;
    return Object.is(v, -0) ? -1e-400 : v; // -1e-400 is -0 in doubles: order -0 below +0 by hand
  };
  const values: Scalar[] = [];
  const indices: Scalar[] = [];
  for (let r = 0; r < rows; r++) {
    const row = x.values.slice(r * last, (r + 1) * last).map((v, i) => ({ v, i }));
    row.sort((a, b) => {
      const ka = key(a.v);
      const kb = key(b.v);
      const za = Object.is(a.v, -0) ? -1 : Object.is(a.v, 0) ? 1 : 0;
      const zb = Object.is(b.v, -0) ? -1 : Object.is(b.v, 0) ? 1 : 0;
      if (ka !== kb && !(ka === 0 && kb === 0)) return kb > ka ? 1 : -1;
      if (za !== zb) return zb - za;
      return a.i - b.i;
    });
    for (const e of row.slice(0, k)) {
      values.push(e.v);
      indices.push(e.i);
    }
  }
  const shape = [...x.shape.slice(0, -1), k];
  return [
    { dtype: x.dtype, shape, values },
    { dtype: indexType, shape, values: indices },
  ];
}

function otherCases(): OpCase[] {
  const cases: OpCase[] = [];
  // top_k: ties, NaN and signed zeros, k = 1, 3 and the whole row
  for (const d of ["float32", "bfloat16", "float64", "int32", "uint8"] as DType[]) {
    const r = rng(`chlo.top_k.${d}`);
    const fl = isFloat(d);
    const special: Scalar[] = fl ? [3, NaN, 3, -0, 0, -I, 1, 2] : [3, 0, 3, 1, 7, 2, 2, 9].map((v) => fromBig(d, BigInt(v)));
    const rest: Scalar[] = Array.from({ length: 16 }, () => (fl ? roundFloat(d, Math.round(r() * 16 - 8) / 2) : fromBig(d, BigInt(Math.floor(r() * 10)))));
    const x = tv(d, [3, 8], [...special, ...rest]);
    const ks = [1, 3, 8];
    const want = ks.flatMap((k) => topK(x, k, "int32"));
    const mlir = buildModule([T(d, [3, 8])], (b, [a]) =>
      ks.flatMap((k) => b.op("chlo.top_k", [a!], [T(d, [3, k]), T("int32", [3, k])], `k = ${k} : i64`)),
    );
    cases.push({ name: `chlo.top_k.${d}`, op: "chlo.top_k", form: "generic", mlir, inputs: [x], expected: want });
  }
  // broadcasting ops: trailing alignment, a dimension of 1, broadcast_dimensions, compare, select
  {
    const d: DType = "float32";
    const a = tv(d, [2, 3], [1, 2, 3, 4, 5, 6]);
    const row = tv(d, [3], [10, 20, 30]);
    const col = tv(d, [2], [100, 200]);
    const one = tv(d, [2, 1], [-1, 1]);
    const p = tv("bool", [], [1]);
    const at = (i: number, j: number) => i * 3 + j;
    const grid = (f: (i: number, j: number) => Scalar) => [0, 1].flatMap((i) => [0, 1, 2].map((j) => f(i, j)));
    const av = a.values as number[];
    const want: Expected[] = [
      { dtype: d, shape: [2, 3], values: grid((i, j) => av[at(i, j)]! + [10, 20, 30][j]!) },
      { dtype: d, shape: [2, 3], values: grid((i, j) => av[at(i, j)]! * [10, 20, 30][j]!) },
      { dtype: d, shape: [2, 3], values: grid((i, j) => av[at(i, j)]! - [-1, 1][i]!) },
      { dtype: "bool", shape: [2, 3], values: grid((i, j) => (av[at(i, j)]! < [10, 20, 30][j]! / 5 ? 1 : 0)) },
      { dtype: d, shape: [2, 3], values: grid((i, j) => av[at(i, j)]!) },
      { dtype: d, shape: [2, 3], values: grid((i, j) => Math.max(av[at(i, j)]!, 2.5)) },
      { dtype: d, shape: [2, 3], values: grid(() => 2.5) },
      { dtype: "int32", shape: [2], values: [7, -7] },
    ];
    const mlir = buildModule([T(d, [2, 3]), T(d, [3]), T(d, [2]), T(d, [2, 1]), T("bool", [])], (b, [av_, rv, cv, ov, pv]) => {
      const five = b.op1("chlo.constant_like", [rv!], T(d, [3]), "value = 5.0 : f32");
      const scaled = b.op1("chlo.broadcast_divide", [rv!, five], T(d, [3]));
      const half = b.op1("chlo.constant", [], T(d, []), "value = dense<2.5> : tensor<f32>");
      return [
        b.op1("chlo.broadcast_add", [av_!, rv!], T(d, [2, 3])),
        b.op1("chlo.broadcast_multiply", [av_!, rv!], T(d, [2, 3]), "broadcast_dimensions = array<i64: 1>"),
        b.op1("chlo.broadcast_subtract", [av_!, ov!], T(d, [2, 3])),
        b.op1("chlo.broadcast_compare", [av_!, scaled], T("bool", [2, 3]), cmpAttrs("LT", "FLOAT").replace(/#stablehlo</g, "#chlo<")),
        b.op1("chlo.broadcast_select", [pv!, av_!, ov!], T(d, [2, 3])),
        b.op1("chlo.broadcast_maximum", [av_!, half], T(d, [2, 3])),
        b.op1("chlo.constant_like", [av_!], T(d, [2, 3]), "value = 2.5 : f32"),
        b.op1("chlo.constant", [], T("int32", [2]), "value = dense<[7, -7]> : tensor<2xi32>"),
      ];
    });
    cases.push({ name: "chlo.broadcast.float32", op: "chlo.broadcast_add", form: "generic", mlir, inputs: [a, row, col, one, p], expected: want });
  }
  // the pretty forms JAX prints
  {
    const d: DType = "float32";
    const x = tv(d, [4], [0.5, 2.5, 7, 0.25]);
    const y = tv(d, [2, 4], [3, 1, 2, 5, 9, 0, 4, 4]);
    const want: Expected[] = [
      { dtype: d, shape: [4], values: x.values.map((v) => roundFloat(d, S.lgamma(v as number))), tol: { ulp: 8, abs: 1e-6 } },
      { dtype: d, shape: [4], values: x.values.map((v) => roundFloat(d, S.digamma(v as number))), tol: { ulp: 8, abs: 1e-6 } },
      { dtype: "bool", shape: [4], values: [0, 0, 0, 0] },
      { dtype: d, shape: [4], values: x.values.map((v) => roundFloat(d, S.polygamma(1, v as number))), tol: { ulp: 16 } },
      ...topK(y, 2, "int32"),
    ];
    const t = typeStr(T(d, [4]));
    const mlir = [
      `module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {`,
      `  func.func public @main(%arg0: ${t}, %arg1: tensor<2x4xf32>) -> (${t}, ${t}, tensor<4xi1>, ${t}, tensor<2x2xf32>, tensor<2x2xi32>) {`,
      `    %0 = chlo.lgamma %arg0 : ${t} -> ${t}`,
      `    %1 = chlo.digamma %arg0 : ${t} -> ${t}`,
      `    %2 = chlo.is_inf %arg0 : ${t} -> tensor<4xi1>`,
      `    %cst = stablehlo.constant dense<1.000000e+00> : ${t}`,
      `    %3 = chlo.polygamma %cst, %arg0 : ${t}, ${t} -> ${t}`,
      `    %values, %indices = chlo.top_k(%arg1, k = 2) : tensor<2x4xf32> -> (tensor<2x2xf32>, tensor<2x2xi32>)`,
      `    return %0, %1, %2, %3, %values, %indices : ${t}, ${t}, tensor<4xi1>, ${t}, tensor<2x2xf32>, tensor<2x2xi32>`,
      `  }`,
      `}`,
      ``,
    ].join("\n");
    cases.push({ name: "pretty.chlo.float32", op: "chlo.lgamma", form: "pretty", mlir, inputs: [x, y], expected: want });
  }
  return cases;
}

export function chloCases(): OpCase[] {
  return [...unaryCases(), ...binaryCases(), ...otherCases()];
}
