/**
 * @file torch.linalg's factorisations and solvers beyond the PyTorch fixtures (test/fixtures/linalg.json):
 * matrices of a few hundred rows checked against what defines them (L Lᵀ = A, P L U = A, A X = B,
 * A A⁻¹ = I) in float64 on the host, determinants of matrices built with a known determinant,
 * choleskyEx's info, PyTorch's LinAlgError in eager mode and NaNs instead inside torch.compile.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as torch from "../src/index.js";
import type { Tensor } from "../src/index.js";
import { prims } from "../src/ops/prims.js";
import { realRuntimeMissing } from "./helpers/runtime.js";

const missing = realRuntimeMissing();

/** A deterministic pseudo-random stream in [-1, 1). */
function stream(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return (s / 2 ** 32) * 2 - 1;
  };
}

/** Row-major n×n values. */
type M = Float64Array;
const randomMatrix = (n: number, seed: number): M => Float64Array.from({ length: n * n }, stream(seed));
function matmul(a: M, b: M, n: number, k = n, m = n): M {
  const c = new Float64Array(n * m);
  for (let i = 0; i < n; i++) for (let p = 0; p < k; p++) for (let j = 0; j < m; j++) c[i * m + j]! += a[i * k + p]! * b[p * m + j]!;
  return c;
}
const transpose = (a: M, n: number, m = n): M => Float64Array.from({ length: n * m }, (_, idx) => a[(idx % n) * m + Math.floor(idx / n)]!);
/** X Xᵀ + n I: symmetric positive-definite. */
function spd(n: number, seed: number): M {
  const x = randomMatrix(n, seed);
  const a = matmul(x, transpose(x, n), n);
  for (let i = 0; i < n; i++) a[i * n + i]! += n;
  return a;
}
const maxAbsDiff = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let worst = 0;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i]! - b[i]!));
  return worst;
};
const host = (t: Tensor): M => Float64Array.from(t.dataSync() as Float32Array | Float64Array);
/** LU with partial pivoting on the host (LAPACK's getf2): LU in place and 1-based pivots. */
function hostLu(a: M, rows: number, cols: number): { lu: M; pivots: number[] } {
  const lu = Float64Array.from(a);
  const pivots: number[] = [];
  for (let j = 0; j < Math.min(rows, cols); j++) {
    let p = j;
    for (let i = j + 1; i < rows; i++) if (Math.abs(lu[i * cols + j]!) > Math.abs(lu[p * cols + j]!)) p = i;
    pivots.push(p + 1);
    for (let c = 0; c < cols; c++) [lu[j * cols + c], lu[p * cols + c]] = [lu[p * cols + c]!, lu[j * cols + c]!];
    const d = lu[j * cols + j]!;
    for (let i = j + 1; i < rows; i++) {
      const l = (lu[i * cols + j]! /= d);
      for (let c = j + 1; c < cols; c++) lu[i * cols + c]! -= l * lu[j * cols + c]!;
    }
  }
  return { lu, pivots };
}
const identity = (n: number): M => Float64Array.from({ length: n * n }, (_, i) => (i % (n + 1) === 0 ? 1 : 0));

let before = 0;
beforeEach(() => {
  before = torch.memory().numTensors;
});
afterEach(() => {
  expect(torch.memory().numTensors, "tensors left alive").toBe(before);
});

describe.skipIf(!!missing)("torch.linalg factorisations", () => {
  it("cholesky of a 200×200 float64 and a batch of 96×96 float32 SPD matrices: L lower triangular with L Lᵀ = A", () => {
    torch.tidy(() => {
      const n = 200;
      const a = spd(n, 1);
      const L = torch.linalg.cholesky(torch.tensor(a, { dtype: "float64" }).reshape([n, n]));
      const l = host(L);
      for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) expect(l[i * n + j]).toBe(0);
      expect(maxAbsDiff(matmul(l, transpose(l, n), n), a)).toBeLessThan(1e-10 * n);
      const m = 96;
      const batch = [spd(m, 2), spd(m, 3)];
      const U = torch.linalg.cholesky(torch.tensor(Float64Array.from([...batch[0]!, ...batch[1]!]), { dtype: "float32" }).reshape([2, m, m]), { upper: true });
      const u = host(U);
      batch.forEach((want, k) => {
        const uk = u.subarray(k * m * m, (k + 1) * m * m);
        expect(maxAbsDiff(matmul(transpose(uk, m), uk, m), want) / m).toBeLessThan(1e-5);
      });
    });
  });

  it("luFactor and lu of a 150×150 matrix: P L U = A with |L| ≤ 1 (partial pivoting); luSolve and solve give A X = B", () => {
    torch.tidy(() => {
      const n = 150;
      const a = randomMatrix(n, 4);
      const A = torch.tensor(a, { dtype: "float64" }).reshape([n, n]);
      const { P, L, U } = torch.linalg.lu(A);
      const [p, l, u] = [host(P), host(L), host(U)];
      expect(Math.max(...l.map(Math.abs))).toBeLessThanOrEqual(1);
      expect(maxAbsDiff(matmul(p, matmul(l, u, n), n), a)).toBeLessThan(1e-11 * n);
      const b = randomMatrix(n, 5).subarray(0, n * 3);
      const B = torch.tensor(b, { dtype: "float64" }).reshape([n, 3]);
      const { LU, pivots } = torch.linalg.luFactor(A);
      expect(pivots.dtype).toBe("int32");
      for (const x of [torch.linalg.luSolve(LU, pivots, B), torch.linalg.solve(A, B)]) {
        expect(maxAbsDiff(matmul(a, host(x), n, n, 3), b)).toBeLessThan(1e-10);
      }
      const xt = torch.linalg.luSolve(LU, pivots, B, { adjoint: true });
      expect(maxAbsDiff(matmul(transpose(a, n), host(xt), n, n, 3), b)).toBeLessThan(1e-10);
      // X A = C and X Aᵀ = C for C [3, n]
      const c = transpose(b, n, 3);
      const C = torch.tensor(c, { dtype: "float64" }).reshape([3, n]);
      const xr = torch.linalg.luSolve(LU, pivots, C, { left: false });
      expect(maxAbsDiff(matmul(host(xr), a, 3, n, n), c)).toBeLessThan(1e-10);
      const xra = torch.linalg.luSolve(LU, pivots, C, { left: false, adjoint: true });
      expect(maxAbsDiff(matmul(host(xra), transpose(a, n), 3, n, n), c)).toBeLessThan(1e-10);
    });
  });

  it("luFactor of blocked sizes (tall, wide, batched) gives the pivots and factors of a host LU with partial pivoting", () => {
    torch.tidy(() => {
      for (const [rows, cols, batch] of [[130, 70, 1], [70, 130, 1], [100, 100, 2]] as const) {
        const values = Float64Array.from({ length: batch * rows * cols }, stream(rows * 7 + cols));
        const A = torch.tensor(values, { dtype: "float64" }).reshape(batch === 1 ? [rows, cols] : [batch, rows, cols]);
        const { LU, pivots } = torch.linalg.luFactor(A);
        const [lu, piv] = [host(LU), Array.from(pivots.dataSync() as Int32Array)];
        const k = Math.min(rows, cols);
        for (let q = 0; q < batch; q++) {
          const want = hostLu(values.slice(q * rows * cols, (q + 1) * rows * cols), rows, cols);
          expect(piv.slice(q * k, (q + 1) * k)).toEqual(want.pivots);
          expect(maxAbsDiff(lu.subarray(q * rows * cols, (q + 1) * rows * cols), want.lu)).toBeLessThan(1e-9);
        }
      }
    });
  });

  it("luFactor's gradient through the blocked factorisation agrees with finite differences (70×70, float64)", () => {
    torch.tidy(() => {
      const n = 70;
      const a = randomMatrix(n, 13);
      const g = torch.tensor(randomMatrix(n, 14), { dtype: "float64" }).reshape([n, n]);
      const objective = (values: M): number => torch.noGrad(() => torch.linalg.luFactor(torch.tensor(values, { dtype: "float64" }).reshape([n, n])).LU.mul(g).sum().item() as number);
      const x = torch.tensor(a, { dtype: "float64" }).reshape([n, n]).requiresGrad_();
      torch.linalg.luFactor(x).LU.mul(g).sum().backward();
      const grad = host(x.grad!);
      for (const at of [0, 71, 1000, 2345, 4899]) {
        const h = 1e-6;
        const [up, down] = [Float64Array.from(a), Float64Array.from(a)];
        up[at]! += h;
        down[at]! -= h;
        const fd = (objective(up) - objective(down)) / (2 * h);
        expect(Math.abs(grad[at]! - fd), `element ${at}: autograd ${grad[at]} vs ${fd}`).toBeLessThan(1e-6 * Math.max(1, Math.abs(fd)));
      }
    });
  });

  it("inv of a 120×120 float32 matrix: A A⁻¹ = I; solveTriangular with a 300×300 triangle", () => {
    torch.tidy(() => {
      const n = 120;
      const a = randomMatrix(n, 6);
      for (let i = 0; i < n; i++) a[i * n + i]! += 4;
      const X = torch.linalg.inv(torch.tensor(a, { dtype: "float32" }).reshape([n, n]));
      expect(maxAbsDiff(matmul(a, host(X), n), identity(n))).toBeLessThan(1e-4);
      const m = 300;
      const t = randomMatrix(m, 7).map((v, i) => (i % m > Math.floor(i / m) ? 0 : i % (m + 1) === 0 ? v + 3 : v / 10));
      const b = randomMatrix(m, 8).subarray(0, m * 2);
      const Y = torch.linalg.solveTriangular(torch.tensor(t, { dtype: "float64" }).reshape([m, m]), torch.tensor(b, { dtype: "float64" }).reshape([m, 2]), { upper: false });
      expect(maxAbsDiff(matmul(t, host(Y), m, m, 2), b)).toBeLessThan(1e-12);
    });
  });

  it("solveTriangular of 200×200 triangles (split in blocks) on every side, triangle and unit diagonal: op(A) X = B, and B's gradient against finite differences", () => {
    torch.tidy(() => {
      const n = 200;
      const k = 3;
      const full = randomMatrix(n, 15).map((v, i) => (i % (n + 1) === 0 ? 4 + v : v / 8));
      const b = randomMatrix(n, 16).subarray(0, n * k);
      for (const upper of [false, true]) {
        for (const unitriangular of [false, true]) {
          const t = full.map((v, i) => {
            const [r, c] = [Math.floor(i / n), i % n];
            if (r === c) return unitriangular ? 1 : v;
            return (upper ? c > r : c < r) ? v : 0;
          });
          const A = torch.tensor(full, { dtype: "float64" }).reshape([n, n]); // the other triangle and (unit) diagonal must not be read
          const X = torch.linalg.solveTriangular(A, torch.tensor(b, { dtype: "float64" }).reshape([n, k]), { upper, unitriangular });
          expect(maxAbsDiff(matmul(t, host(X), n, n, k), b), `left upper=${upper} unit=${unitriangular}`).toBeLessThan(1e-12);
          const bt = transpose(b, n, k);
          const Y = torch.linalg.solveTriangular(A, torch.tensor(bt, { dtype: "float64" }).reshape([k, n]), { upper, unitriangular, left: false });
          expect(maxAbsDiff(matmul(host(Y), t, k, n, n), bt), `right upper=${upper} unit=${unitriangular}`).toBeLessThan(1e-12);
        }
      }
      // the gradient of Σ G ⊙ X with respect to A and B, against central differences at a few entries
      const g = torch.tensor(randomMatrix(n, 17).subarray(0, n * k), { dtype: "float64" }).reshape([n, k]);
      const objective = (av: M, bv: M) => torch.noGrad(() => torch.linalg.solveTriangular(torch.tensor(av, { dtype: "float64" }).reshape([n, n]), torch.tensor(bv, { dtype: "float64" }).reshape([n, k]), { upper: true }).mul(g).sum().item() as number);
      const A = torch.tensor(full, { dtype: "float64" }).reshape([n, n]).requiresGrad_();
      const B = torch.tensor(b, { dtype: "float64" }).reshape([n, k]).requiresGrad_();
      torch.linalg.solveTriangular(A, B, { upper: true }).mul(g).sum().backward();
      const [ga, gb] = [host(A.grad!), host(B.grad!)];
      const h = 1e-6;
      for (const at of [5, 150, 3 * n + 170, 150 * n + 20, 199 * n + 199]) {
        const [up, down] = [Float64Array.from(full), Float64Array.from(full)];
        up[at]! += h;
        down[at]! -= h;
        const fd = (objective(up, b) - objective(down, b)) / (2 * h);
        expect(Math.abs(ga[at]! - fd), `A[${at}]: ${ga[at]} vs ${fd}`).toBeLessThan(1e-7);
      }
      for (const at of [0, 301, 599]) {
        const [up, down] = [Float64Array.from(b), Float64Array.from(b)];
        up[at]! += h;
        down[at]! -= h;
        const fd = (objective(full, up) - objective(full, down)) / (2 * h);
        expect(Math.abs(gb[at]! - fd), `B[${at}]: ${gb[at]} vs ${fd}`).toBeLessThan(1e-7);
      }
    });
  });

  it("det and slogdet of Q D Qᵀ (Q a Householder reflection, det −1 · Π D), past float32's range for slogdet", () => {
    torch.tidy(() => {
      const n = 64;
      const v = Float64Array.from({ length: n }, stream(9));
      const vv = v.reduce((s, x) => s + x * x, 0);
      const q = Float64Array.from({ length: n * n }, (_, i) => (i % (n + 1) === 0 ? 1 : 0) - (2 * v[Math.floor(i / n)]! * v[i % n]!) / vv);
      const d = Float64Array.from({ length: n }, (_, i) => (i % 3 === 0 ? -1 : 1) * (4 + (i % 5)));
      const qd = q.map((x, i) => x * d[i % n]!);
      const a = matmul(qd, transpose(q, n), n);
      const logabs = d.reduce((s, x) => s + Math.log(Math.abs(x)), 0);
      const negatives = d.filter((x) => x < 0).length;
      const sign = (negatives % 2 === 0 ? 1 : -1) * -1 * -1; // det Q = −1, and Q appears twice
      const A = torch.tensor(a, { dtype: "float64" }).reshape([n, n]);
      const { sign: s, logabsdet } = torch.linalg.slogdet(A);
      expect(s.item()).toBe(sign);
      expect(Math.abs((logabsdet.item() as number) - logabs)).toBeLessThan(1e-10);
      const det = torch.linalg.det(A).item() as number;
      expect(Math.abs(det / (sign * Math.exp(logabs)) - 1)).toBeLessThan(1e-10);
      const f = torch.linalg.slogdet(A.to("float32"));
      expect(f.sign.item()).toBe(sign);
      expect(Math.abs((f.logabsdet.item() as number) - logabs) / logabs).toBeLessThan(1e-5);
      expect(torch.linalg.det(A.to("float32")).item()).toBe(sign * Infinity); // |det| ≈ e^97 overflows float32, as in PyTorch
    });
  });

  it("choleskyEx reports the first failing leading minor per matrix (PyTorch: [[1, 2], [2, 1]] → 2; −I → 1) without raising", () => {
    torch.tidy(() => {
      const A = torch.tensor([[[1, 2], [2, 1]], [[-1, 0], [0, -1]], [[2, 1], [1, 2]]], { dtype: "float64" });
      const { L, info } = torch.linalg.choleskyEx(A);
      expect(info.dtype).toBe("int32");
      expect(info.tolist()).toEqual([2, 1, 0]);
      const third = host(L).subarray(8, 12); // the positive-definite one: [[√2, 0], [1/√2, √1.5]]
      expect(maxAbsDiff(third, [Math.SQRT2, 0, Math.SQRT1_2, Math.sqrt(1.5)])).toBeLessThan(1e-15);
      expect(() => torch.linalg.choleskyEx(A, { checkErrors: true })).toThrow(/\(Batch element 0\): The factorization could not be completed .* leading minor of order 2/);
      // past the first block of columns: the identity with a_80,80 = −1 fails at the minor of order 81
      const n = 100;
      const values = Float64Array.from([...identity(n), ...identity(n)]);
      values[80 * n + 80] = -1;
      const big = torch.linalg.choleskyEx(torch.tensor(values, { dtype: "float32" }).reshape([2, n, n]));
      expect(big.info.tolist()).toEqual([81, 0]);
      expect(() => torch.linalg.cholesky(torch.tensor(values.subarray(0, n * n), { dtype: "float64" }).reshape([n, n]))).toThrow(/leading minor of order 81 is not/);
    });
  });

  it("luFactorEx, invEx and solveEx report the first zero pivot per matrix (PyTorch: 2 for [[1, 2], [2, 4]], 1 for zeros) without raising", () => {
    torch.tidy(() => {
      const A = torch.tensor([[[1, 2], [2, 4]], [[0, 0], [0, 0]], [[2, 1], [1, 3]]], { dtype: "float32" });
      expect(torch.linalg.luFactorEx(A).info.tolist()).toEqual([2, 1, 0]);
      const { inverse, info } = torch.linalg.invEx(A);
      expect(info.tolist()).toEqual([2, 1, 0]);
      expect(maxAbsDiff(host(inverse).subarray(8), [0.6, -0.2, -0.2, 0.4])).toBeLessThan(1e-6);
      expect(torch.linalg.solveEx(A, torch.ones([3, 2, 1])).info.tolist()).toEqual([2, 1, 0]);
      expect(() => torch.linalg.invEx(A, { checkErrors: true })).toThrow(/linalg.invEx: \(Batch element 0\): The diagonal element 2 is zero/);
      expect(() => torch.linalg.solveEx(A, torch.ones([3, 2, 1]), { checkErrors: true })).toThrow(torch.linalg.LinAlgError);
      expect(() => torch.linalg.luFactorEx(A, { checkErrors: true })).toThrow(/\(Batch element 0\): U\[2,2\] is zero/);
    });
  });

  it("raises LinAlgError in eager mode; inside torch.compile gives NaN (cholesky) and inf/NaN (inv) instead", () => {
    torch.tidy(() => {
      const notPd = torch.tensor([[1, 2], [2, 1]], { dtype: "float32" });
      const singular = torch.tensor([[1, 2], [2, 4]], { dtype: "float32" });
      expect(() => torch.linalg.cholesky(notPd)).toThrow(torch.linalg.LinAlgError);
      expect(() => torch.linalg.inv(singular)).toThrow(/linalg.inv: The diagonal element 2 is zero/);
      expect(() => torch.linalg.solve(singular, torch.ones([2, 1]))).toThrow(/torch.linalg.solve: The solver failed because the input matrix is singular/);
      expect(() => torch.linalg.luFactor(singular)).toThrow(/U\[2,2\] is zero/);
      const chol = torch.compile((a: Tensor) => torch.linalg.cholesky(a));
      const l = chol(notPd).tolist() as number[][];
      expect(l[0]).toEqual([1, 0]);
      expect(l[1]![0]).toBe(2);
      expect(l[1]![1]).toBeNaN(); // the failing column on

      const inv = torch.compile((a: Tensor) => torch.linalg.inv(a));
      expect((inv(singular).tolist() as number[][]).flat().some((x) => !Number.isFinite(x))).toBe(true);
      const good = torch.tensor([[4, 1], [2, 3]], { dtype: "float32" });
      expect(inv(good).tolist()).toEqual(torch.linalg.inv(good).tolist());
      expect(torch.linalg.det(singular).item()).toBe(-0); // PyTorch: -0 (one row swap, a zero pivot)
    });
  });

  it("gradients inside torch.compile match eager ones (logdet of an SPD matrix, a solve, a Cholesky factor)", () => {
    torch.tidy(() => {
      const a = torch.tensor(spd(5, 11), { dtype: "float64" }).reshape([5, 5]);
      const b = torch.tensor(randomMatrix(5, 12).subarray(0, 10), { dtype: "float64" }).reshape([5, 2]);
      const loss = (x: Tensor, y: Tensor) => torch.logdet(x).add(torch.linalg.solve(x, y).square().sum()).add(torch.linalg.cholesky(x).sum());
      const eager = [a.detach().requiresGrad_(), b.detach().requiresGrad_()];
      loss(eager[0]!, eager[1]!).backward();
      const compiled = [a.detach().requiresGrad_(), b.detach().requiresGrad_()];
      torch.compile(loss)(compiled[0]!, compiled[1]!).backward();
      for (let k = 0; k < 2; k++) expect(maxAbsDiff(host(compiled[k]!.grad!), host(eager[k]!.grad!))).toBeLessThan(1e-12);
      // d logdet / dA = A⁻ᵀ: the gradient of logdet alone against the inverse
      const x = a.detach().requiresGrad_();
      torch.logdet(x).backward();
      expect(maxAbsDiff(host(x.grad!), host(torch.linalg.inv(a).mT))).toBeLessThan(1e-14);
    });
  });
});

describe("the triangular_solve primitive's shape rule", () => {
  const f = (dtype: torch.DType, ...shape: number[]) => ({ shape, dtype });
  const infer = (ins: { shape: number[]; dtype: torch.DType }[], left: boolean) => prims.triangular_solve.infer(ins, { left, lower: true, unitDiagonal: false, transposeA: false });
  it("gives b's aval and rejects what StableHLO's verifier would", () => {
    expect(infer([f("float32", 2, 3, 3), f("float32", 2, 3, 5)], true)).toEqual([f("float32", 2, 3, 5)]);
    expect(infer([f("float64", 4, 4), f("float64", 2, 4)], false)).toEqual([f("float64", 2, 4)]);
    expect(() => infer([f("float32", 3, 3), f("float32", 2, 3)], true)).toThrow(/must be square matrices matching the rows/);
    expect(() => infer([f("float32", 2, 3, 3), f("float32", 3, 3, 1)], true)).toThrow(/batch/);
    expect(() => infer([f("float32", 3, 3), f("float64", 3, 1)], true)).toThrow(/differ in dtype/);
    expect(() => infer([f("int32", 3, 3), f("int32", 3, 1)], true)).toThrow(/int32 is not a valid input/);
  });
});
