// The element types StableHLO has beyond torch-pjrt's tensors: the 8- and 4-bit floats (f8E5M2,
// f8E4M3FN, …, f8E8M0FNU, f4E2M1FN) and the 2- and 4-bit integers. Each module takes f32 / f64 / i32
// inputs and converts inside: conversions both ways (rounding, overflow, NaN, wrap and saturation),
// constants, element-wise arithmetic (computed wider and rounded once), dot_general, and data movement.
// References: narrow.ts.

import type { OpCase } from "./cases.js";
import type { DType, Scalar } from "./dtypes.js";
import { roundFloat } from "./dtypes.js";
import { buildModule, type TType } from "./mlir.js";
import { type IntFormat, NARROW_FLOATS, NARROW_INTS, roundTo, saturateInt, wrapInt } from "./narrow.js";
import type { Expected, TensorVal } from "./ref.js";
import { rng } from "./rng.js";

const T = (dtype: DType, shape: number[]): TType => ({ dtype, shape });
const tv = (dtype: DType, shape: number[], values: Scalar[]): TensorVal => ({ dtype, shape, values });

/** A value of an element type that tensors cannot hold (dtype is a stand-in the builder never prints). */
const narrowType = (element: string, shape: number[]): TType => ({ dtype: "int8", shape, element });

// Finite values to convert: ties of every format, past their largest, below their smallest, signs.
const EDGES = [0, -0, 1, -1.5, 0.3, 3.25, 1.0625, 1.1875, 6, 7, 15.5, 16, 28, 30, 240, 248, 448, 464, 480, 57344, 61440, 1e6, 2 ** -9, 2 ** -10, 1e-10, NaN, Infinity, -Infinity];

function floatCases(): OpCase[] {
  const cases: OpCase[] = [];
  for (const f of NARROW_FLOATS) {
    const r = rng(`convert.${f.mlir}`);
    const xs = EDGES.map((x) => Math.fround(x));
    while (xs.length < 40) xs.push(Math.fround((r() < 0.5 ? -1 : 1) * 2 ** (r() * 20 - 10)));
    const n = xs.length;
    const x = tv("float32", [n], xs);
    const back = xs.map((v) => roundTo(f, v));
    const want: Expected[] = [
      { dtype: "float32", shape: [n], values: back.map((v) => Math.fround(v)) },
      { dtype: "float64", shape: [n], values: back },
      { dtype: "bfloat16", shape: [n], values: back.map((v) => roundFloat("bfloat16", v)) },
    ];
    const mlir = buildModule([T("float32", [n])], (b, [a]) => {
        const narrow = b.op1("stablehlo.convert", [a!], narrowType(f.mlir, [n]));
        return [
          b.op1("stablehlo.convert", [narrow], T("float32", [n])),
          b.op1("stablehlo.convert", [narrow], T("float64", [n])),
          b.op1("stablehlo.convert", [narrow], T("bfloat16", [n])),
        ];
      });
    cases.push({ name: `convert.${f.mlir}`, op: "convert", form: "generic", mlir, inputs: [x], expected: want });
  }
  // float64 rounds to the narrow format directly (no float32 step between)
  {
    const f = NARROW_FLOATS.find((g) => g.mlir === "f8E4M3FN")!;
    const xs = [1.0625 + 2 ** -30, 1.25 + 2 ** -40, 2 ** -10 + 2 ** -40, 464 - 2 ** -30, -3.25 - 2 ** -35];
    const mlir = buildModule([T("float64", [5])], (b, [a]) => [b.op1("stablehlo.convert", [b.op1("stablehlo.convert", [a!], narrowType(f.mlir, [5]))], T("float64", [5]))]);
    cases.push({ name: "convert.float64.f8E4M3FN", op: "convert", form: "generic", mlir, inputs: [tv("float64", [5], xs)], expected: [{ dtype: "float64", shape: [5], values: xs.map((v) => roundTo(f, v)) }] });
  }
  // arithmetic in f8E4M3FN and f8E5M2: computed in f32, rounded once to the narrow type
  for (const f of NARROW_FLOATS.filter((g) => g.mlir === "f8E4M3FN" || g.mlir === "f8E5M2")) {
    const r = rng(`arith.${f.mlir}`);
    const n = 16;
    const av = Array.from({ length: n }, () => roundTo(f, (r() < 0.5 ? -1 : 1) * 2 ** (r() * 8 - 3)));
    const bv = Array.from({ length: n }, () => roundTo(f, (r() < 0.5 ? -1 : 1) * 2 ** (r() * 8 - 3)));
    const f32 = (g: (x: number, y: number) => number) => av.map((x, i) => Math.fround(roundTo(f, Math.fround(g(x, bv[i]!)))));
    const want: Expected[] = [
      { dtype: "float32", shape: [n], values: f32((x, y) => x + y) },
      { dtype: "float32", shape: [n], values: f32((x, y) => x * y) },
      { dtype: "float32", shape: [n], values: f32((x, y) => x / y) },
      { dtype: "float32", shape: [n], values: f32((x, y) => Math.max(x, y)) },
      { dtype: "float32", shape: [n], values: f32((x) => -x) },
      { dtype: "bool", shape: [n], values: av.map((x, i) => (x < bv[i]! ? 1 : 0)) },
      { dtype: "float32", shape: [n], values: av.map((x, i) => (x < bv[i]! ? x : bv[i]!)) },
    ];
    const t = narrowType(f.mlir, [n]);
    const mlir = buildModule([T("float32", [n]), T("float32", [n])], (b, [x, y]) => {
        const a = b.op1("stablehlo.convert", [x!], t);
        const c = b.op1("stablehlo.convert", [y!], t);
        const out = (v: ReturnType<typeof b.op1>) => b.op1("stablehlo.convert", [v], T("float32", [n]));
        const lt = b.op1("stablehlo.compare", [a, c], T("bool", [n]), "comparison_direction = #stablehlo<comparison_direction LT>");
        return [
          out(b.op1("stablehlo.add", [a, c], t)),
          out(b.op1("stablehlo.multiply", [a, c], t)),
          out(b.op1("stablehlo.divide", [a, c], t)),
          out(b.op1("stablehlo.maximum", [a, c], t)),
          out(b.op1("stablehlo.negate", [a], t)),
          lt,
          out(b.op1("stablehlo.select", [lt, a, c], t)),
        ];
      });
    cases.push({ name: `arithmetic.${f.mlir}`, op: "add", form: "generic", mlir, inputs: [tv("float32", [n], av), tv("float32", [n], bv)], expected: want });
  }
  return cases;
}

function intCases(): OpCase[] {
  const cases: OpCase[] = [];
  const ints = [0, 1, -1, 7, 8, -8, -9, 15, 16, 100, -100, 3, 2, -2];
  const floats = [0, 1.9, -1.9, 7.9, 8.5, -9, NaN, 1e9, -1e9, 2.5, -0.5, 3, 15.5, 16];
  const n = ints.length;
  for (const f of NARROW_INTS) {
    const t = narrowType(f.mlir, [n]);
    const want: Expected[] = [
      { dtype: "int32", shape: [n], values: ints.map((v) => wrapInt(f, v)) },
      { dtype: "int32", shape: [n], values: floats.map((v) => saturateInt(f, Math.fround(v))) },
      { dtype: "float32", shape: [n], values: ints.map((v) => wrapInt(f, v)) },
    ];
    const mlir = buildModule([T("int32", [n]), T("float32", [n])], (b, [i, x]) => {
        const a = b.op1("stablehlo.convert", [i!], t);
        return [
          b.op1("stablehlo.convert", [a], T("int32", [n])),
          b.op1("stablehlo.convert", [b.op1("stablehlo.convert", [x!], t)], T("int32", [n])),
          b.op1("stablehlo.convert", [a], T("float32", [n])),
        ];
      });
    const noInt2 = f.bits === 2 ? { tpuMayReject: "libtpu 0.0.42.1: INT2 is not supported for rank 1" } : {};
    cases.push({ ...noInt2, name: `convert.${f.mlir}`, op: "convert", form: "generic", mlir, inputs: [tv("int32", [n], ints), tv("float32", [n], floats.map(Math.fround))], expected: want });
  }
  // arithmetic in the narrow type: wraps at its width; bit ops see only its bits
  const binary: [string, (f: IntFormat, a: number, b: number) => number][] = [
    ["add", (f, a, b) => wrapInt(f, a + b)],
    ["multiply", (f, a, b) => wrapInt(f, a * b)],
    ["divide", (f, a, b) => (b === 0 ? wrapInt(f, -1) : wrapInt(f, Math.trunc(a / b)))],
    ["shift_left", (f, a, b) => (unsigned(f, b) >= f.bits ? 0 : wrapInt(f, a * 2 ** unsigned(f, b)))],
    ["shift_right_logical", (f, a, b) => (unsigned(f, b) >= f.bits ? 0 : wrapInt(f, Math.floor(unsigned(f, a) / 2 ** unsigned(f, b))))],
    ["shift_right_arithmetic", (f, a, b) => wrapInt(f, Math.floor(signed(f, a) / 2 ** Math.min(unsigned(f, b), f.bits - 1)))],
    ["xor", (f, a, b) => wrapInt(f, a ^ b)],
  ];
  // popcnt is left out: XLA CPU counts the bits of i4's 8-bit sign extension (popcnt(-8) = 5, not 1); the
  // plugin counts i4's own bits, as the spec says (native/cpu/tests/kernels/narrow_types_test.cc)
  const unary: [string, (f: IntFormat, a: number) => number][] = [
    ["count_leading_zeros", (f, a) => f.bits - unsigned(f, a).toString(2).replace(/^0+$/, "").length],
    ["not", (f, a) => wrapInt(f, ~a)],
    ["negate", (f, a) => wrapInt(f, -a)],
  ];
  for (const f of NARROW_INTS.filter((g) => g.bits === 4)) {
    const lo = f.signed ? -8 : 0;
    const av: number[] = [];
    const bv: number[] = [];
    for (let a = lo; a < lo + 16; a += 3) for (let b = lo; b < lo + 16; b += 5) (av.push(a), bv.push(b));
    const m = av.length;
    const t = narrowType(f.mlir, [m]);
    const want: Expected[] = [
      ...binary.map(([, g]) => ({ dtype: "int32" as DType, shape: [m], values: av.map((a, i) => g(f, a, bv[i]!)) })),
      ...unary.map(([, g]) => ({ dtype: "int32" as DType, shape: [m], values: av.map((a) => g(f, a)) })),
    ];
    const mlir = buildModule([T("int32", [m]), T("int32", [m])], (b, [x, y]) => {
        const a = b.op1("stablehlo.convert", [x!], t);
        const c = b.op1("stablehlo.convert", [y!], t);
        const out = (v: ReturnType<typeof b.op1>) => b.op1("stablehlo.convert", [v], T("int32", [m]));
        return [...binary.map(([op]) => out(b.op1(`stablehlo.${op}`, [a, c], t))), ...unary.map(([op]) => out(b.op1(`stablehlo.${op}`, [a], t)))];
      });
    cases.push({ name: `arithmetic.${f.mlir}`, op: "add", form: "generic", mlir, inputs: [tv("int32", [m], av), tv("int32", [m], bv)], expected: want });
  }
  return cases;
}

const unsigned = (f: IntFormat, v: number) => Number(BigInt.asUintN(f.bits, BigInt(v)));
const signed = (f: IntFormat, v: number) => Number(BigInt.asIntN(f.bits, BigInt(v)));

/** An f8 matrix product as quantized models write it, constants, and data movement. (XLA CPU cannot
 *  compile an i4 dot_general; narrow_types_test.cc checks the plugin's.) */
function otherCases(): OpCase[] {
  const cases: OpCase[] = [];
  const i4 = NARROW_INTS[0]!;
  const e4m3 = NARROW_FLOATS.find((g) => g.mlir === "f8E4M3FN")!;
  const r = rng("narrow.dot");
  const a = Array.from({ length: 3 * 8 }, () => Math.floor(r() * 16) - 8);
  const bm = Array.from({ length: 8 * 2 }, () => Math.floor(r() * 16) - 8);
  const fa = a.map((v) => roundTo(e4m3, v * 1.25));
  const fb = bm.map((v) => roundTo(e4m3, v / 3));
  const dot = (x: number[], y: number[]) =>
    Array.from({ length: 6 }, (_, o) => {
      const i = Math.floor(o / 2);
      const j = o % 2;
      let s = 0;
      for (let k = 0; k < 8; k++) s += x[i * 8 + k]! * y[k * 2 + j]!;
      return s;
    });
  const dims = `dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>`;
  // a constant of each kind, moved around: concatenate, transpose, slice, broadcast, reverse
  const constI4 = [-8, 7, 0, -1];
  const constF8 = [1.5, 448, -0.001953125, 3.25];
  const want: Expected[] = [
    { dtype: "float32", shape: [3, 2], values: dot(fa, fb).map(Math.fround) },
    { dtype: "int32", shape: [2, 4], values: [...constI4, ...constI4.map((v) => wrapInt(i4, v + 1))] },
    { dtype: "float32", shape: [4, 2], values: [0, 1, 2, 3].flatMap((k) => [constF8[k]!, constF8[3 - k]!]) },
  ];
  const ti4 = (s: number[]) => narrowType("i4", s);
  const tf8 = (s: number[]) => narrowType("f8E4M3FN", s);
  const mlir = buildModule([T("float32", [3, 8]), T("float32", [8, 2])], (b, [u, v]) => {
      const fa8 = b.op1("stablehlo.convert", [u!], tf8([3, 8]));
      const fb8 = b.op1("stablehlo.convert", [v!], tf8([8, 2]));
      const ci = b.op1("stablehlo.constant", [], ti4([4]), `value = dense<[${constI4.join(", ")}]> : tensor<4xi4>`);
      const one = b.op1("stablehlo.constant", [], ti4([4]), "value = dense<1> : tensor<4xi4>");
      const cat = b.op1("stablehlo.concatenate", [ci, b.op1("stablehlo.add", [ci, one], ti4([4]))], ti4([8]), "dimension = 0 : i64");
      const cf = b.op1("stablehlo.constant", [], tf8([4]), `value = dense<[1.5, 448.0, -0.001953125, 3.25]> : tensor<4xf8E4M3FN>`);
      const rev = b.op1("stablehlo.reverse", [cf], tf8([4]), "dimensions = array<i64: 0>");
      const b1 = b.op1("stablehlo.broadcast_in_dim", [cf], tf8([4, 1]), "broadcast_dimensions = array<i64: 0>");
      const b2 = b.op1("stablehlo.broadcast_in_dim", [rev], tf8([4, 1]), "broadcast_dimensions = array<i64: 0>");
      const pair = b.op1("stablehlo.concatenate", [b1, b2], tf8([4, 2]), "dimension = 1 : i64");
      return [
        b.op1("stablehlo.dot_general", [fa8, fb8], T("float32", [3, 2]), dims),
        b.op1("stablehlo.convert", [b.op1("stablehlo.reshape", [cat], ti4([2, 4]))], T("int32", [2, 4])),
        b.op1("stablehlo.convert", [pair], T("float32", [4, 2])),
      ];
    });
  cases.push({
    name: "narrow.dot_constants_movement",
    op: "dot_general",
    form: "generic",
    mlir,
    inputs: [tv("float32", [3, 8], fa), tv("float32", [8, 2], fb)],
    expected: want,
  });
  return cases;
}

export function narrowTypeCases(): OpCase[] {
  return [...floatCases(), ...intCases(), ...otherCases()];
}
