// reduce_precision (round the mantissa to nearest even, then overflow to infinity or flush below the
// smallest normal of the narrower exponent) and triangular_solve (every side, triangle and transpose),
// with float64 references.

import type { OpCase } from "./cases.js";
import { DTYPES, type DType, FLOATS, type Scalar, minNormal, roundFloat, roundToFormat } from "./dtypes.js";
import { buildModule, typeStr, type TType } from "./mlir.js";
import type { Expected, TensorVal } from "./ref.js";
import { rng } from "./rng.js";

const T = (dtype: DType, shape: number[]): TType => ({ dtype, shape });
const tv = (dtype: DType, shape: number[], values: Scalar[]): TensorVal => ({ dtype, shape, values });

/** The spec's reduce_precision of x (a value of dtype d) to `e` exponent and `m` mantissa bits. */
function reducePrecision(d: DType, x: number, e: number, m: number): number {
  if (Number.isNaN(x) || !Number.isFinite(x)) return x;
  const info = DTYPES[d];
  let r = m < info.mant! ? roundToFormat(x, m, -100000, 100000) : x;
  const bits = Math.log2(info.emax! + 1) + 1; // the source's exponent bits
  if (e < bits) {
    const bias = 2 ** (e - 1) - 1;
    if (Math.abs(r) >= 2 ** (bias + 1)) r = r < 0 ? -Infinity : Infinity;
    else if (Math.abs(r) < 2 ** (1 - bias)) r = r < 0 || Object.is(r, -0) ? -0 : 0;
  }
  return roundFloat(d, r);
}

function reducePrecisionCases(): OpCase[] {
  const cases: OpCase[] = [];
  const formats: [number, number][] = [
    [5, 10],
    [8, 7],
    [5, 2],
    [4, 3],
    [8, 23],
    [2, 0],
    [11, 52],
  ];
  for (const d of FLOATS) {
    const r = rng(`reduce_precision.${d}`);
    // ties at the kept bit, values past the narrow formats' range and below their smallest normals
    const edges = [1 + 2 ** -3, 1 + 3 * 2 ** -3, 1 + 2 ** -8, 65504, 65520, 1e5, 3e-5, 2 ** -14, 2 ** -15, 448, 500, -0, NaN, Infinity, -Infinity, 0.1];
    const xs = edges.map((x) => roundFloat(d, x));
    while (xs.length < 24) xs.push(roundFloat(d, (r() < 0.5 ? -1 : 1) * 2 ** (r() * 30 - 15) * (1 + r())));
    const values = xs.map((x) => (x !== 0 && Math.abs(x) < minNormal(d) ? 0.5 : x));
    const x = tv(d, [24], values);
    const want: Expected[] = formats.map(([e, m]) => ({ dtype: d, shape: [24], values: values.map((v) => reducePrecision(d, v, e, m)) }));
    const mlir = buildModule([T(d, [24])], (b, [a]) =>
      formats.map(([e, m]) => b.op1("stablehlo.reduce_precision", [a!], T(d, [24]), `exponent_bits = ${e} : i32, mantissa_bits = ${m} : i32`)),
    );
    cases.push({ name: `reduce_precision.${d}`, op: "reduce_precision", form: "generic", mlir, inputs: [x], expected: want });
  }
  {
    const d: DType = "float32";
    const x = tv(d, [4], [1 + 2 ** -11, 70000, 1e-6, -3.140625]);
    const want: Expected[] = [{ dtype: d, shape: [4], values: x.values.map((v) => reducePrecision(d, v as number, 5, 10)) }];
    const t = typeStr(T(d, [4]));
    const mlir = [
      `module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {`,
      `  func.func public @main(%arg0: ${t}) -> ${t} {`,
      `    %0 = stablehlo.reduce_precision %arg0, format = e5m10 : ${t}`,
      `    return %0 : ${t}`,
      `  }`,
      `}`,
      ``,
    ].join("\n");
    cases.push({ name: "pretty.reduce_precision.float32", op: "reduce_precision", form: "pretty", mlir, inputs: [x], expected: want });
  }
  return cases;
}

interface Solve {
  left: boolean;
  lower: boolean;
  transpose: string;
  unit: boolean;
}

/** x with op(a) x = b (left) or x op(a) = b, reading only a's `lower` (or upper) triangle. */
function triangularSolve(a: TensorVal, b: TensorVal, s: Solve, d: DType): Scalar[] {
  const m = a.shape[a.shape.length - 1]!;
  const rows = b.shape[b.shape.length - 2]!;
  const cols = b.shape[b.shape.length - 1]!;
  const batches = a.values.length / (m * m);
  const out: number[] = new Array(b.values.length).fill(0);
  const tr = s.transpose !== "NO_TRANSPOSE";
  for (let p = 0; p < batches; p++) {
    // op(a) as a dense matrix with the unread triangle zero
    const A = (i: number, j: number) => {
      const inTriangle = s.lower ? j <= i : j >= i;
      if (!inTriangle) return 0;
      if (i === j && s.unit) return 1;
      return a.values[p * m * m + i * m + j] as number;
    };
    const op = (i: number, j: number) => (tr ? A(j, i) : A(i, j));
    const B = (i: number, j: number) => b.values[p * rows * cols + i * cols + j] as number;
    // Gaussian elimination with the dense triangular matrix (the zero triangle makes it substitution)
    const systems = s.left ? cols : rows;
    for (let k = 0; k < systems; k++) {
      const M = Array.from({ length: m }, (_, i) => Array.from({ length: m }, (_, j) => (s.left ? op(i, j) : op(j, i))));
      const v = Array.from({ length: m }, (_, i) => (s.left ? B(i, k) : B(k, i)));
      for (let c = 0; c < m; c++) {
        let piv = c;
        for (let r2 = c + 1; r2 < m; r2++) if (Math.abs(M[r2]![c]!) > Math.abs(M[piv]![c]!)) piv = r2;
        [M[c], M[piv]] = [M[piv]!, M[c]!];
        [v[c], v[piv]] = [v[piv]!, v[c]!];
        for (let r2 = 0; r2 < m; r2++) {
          if (r2 === c) continue;
          const f = M[r2]![c]! / M[c]![c]!;
          if (f === 0) continue;
          for (let j = c; j < m; j++) M[r2]![j]! -= f * M[c]![j]!;
          v[r2]! -= f * v[c]!;
        }
      }
      for (let i = 0; i < m; i++) {
        const x = v[i]! / M[i]![i]!;
        out[p * rows * cols + (s.left ? i * cols + k : k * cols + i)] = roundFloat(d, x);
      }
    }
  }
  return out;
}

function triangularSolveCases(): OpCase[] {
  const cases: OpCase[] = [];
  for (const d of ["float32", "float64"] as DType[]) {
    const r = rng(`triangular_solve.${d}`);
    const m = 4;
    // well-conditioned: diagonal of magnitude 2 to 4, the rest in [-1, 1]
    const a = tv(d, [2, m, m], Array.from({ length: 2 * m * m }, (_, i) => roundFloat(d, i % (m + 1) === 0 ? (r() < 0.5 ? -1 : 1) * (2 + 2 * r()) : 2 * r() - 1)));
    const bl = tv(d, [2, m, 3], Array.from({ length: 2 * m * 3 }, () => roundFloat(d, 8 * r() - 4)));
    const br = tv(d, [2, 3, m], Array.from({ length: 2 * 3 * m }, () => roundFloat(d, 8 * r() - 4)));
    const solves: Solve[] = [];
    for (const left of [true, false])
      for (const lower of [true, false])
        for (const transpose of ["NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"]) solves.push({ left, lower, transpose, unit: transpose === "TRANSPOSE" && lower });
    const tol = d === "float32" ? { ulp: 64, abs: 1e-5 } : { ulp: 64, abs: 1e-13 };
    const want: Expected[] = solves.map((s) => {
      const b = s.left ? bl : br;
      return { dtype: d, shape: b.shape, values: triangularSolve(a, b, s, d), tol };
    });
    const mlir = buildModule([T(d, a.shape), T(d, bl.shape), T(d, br.shape)], (bb, [av, lv, rv]) =>
      solves.map((s) =>
        bb.op1(
          "stablehlo.triangular_solve",
          [av!, s.left ? lv! : rv!],
          T(d, s.left ? bl.shape : br.shape),
          `left_side = ${s.left}, lower = ${s.lower}, transpose_a = #stablehlo<transpose ${s.transpose}>, unit_diagonal = ${s.unit}`,
        ),
      ),
    );
    cases.push({ name: `triangular_solve.${d}`, op: "triangular_solve", form: "generic", mlir, inputs: [a, bl, br], expected: want });
  }
  return cases;
}

export function reducePrecisionSolveCases(): OpCase[] {
  return [...reducePrecisionCases(), ...triangularSolveCases()];
}
