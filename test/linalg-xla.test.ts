// Real XLA as the oracle for the StableHLO of torch.linalg's factorisations and solvers: the
// triangular_solve primitive (every side, triangle and unit diagonal), the Cholesky and LU device
// loops, luSolve's permutation loop; each unit also compiles ahead of time for TPU with libtpu.
import * as torch from "../src/index.js";
import { type UnitCase, unitsOnRealXla } from "./helpers/units.js";

const f32 = (values: number[], shape: number[]) => torch.tensor(new Float32Array(values), { shape });
const f64 = (values: number[], shape: number[]) => torch.tensor(new Float64Array(values), { shape });
const tri = [2, 0.5, -1, 0.25, 3, 0.75, -0.5, 1.5, 4];
const spd = [4, 1, 0.5, 1, 3, -0.25, 0.5, -0.25, 2];
const general = [0.5, 2, -1, 3, 1, 0.25, -2, 0.75, 1.5];
/** A deterministic n×n matrix with entries in [-0.5, 0.5), plus `diagonal` on the diagonal. */
const big = (n: number, diagonal: number, seed: number): number[] => {
  let s = seed;
  return Array.from({ length: n * n }, (_, i) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32 - 0.5 + (i % (n + 1) === 0 ? diagonal : 0);
  });
};
const symmetric = (n: number): number[] => {
  const x = big(n, 0, 3);
  return x.map((v, i) => (v + x[(i % n) * n + Math.floor(i / n)]!) / 2 + (i % (n + 1) === 0 ? n / 4 : 0));
};
const cases: UnitCase[] = [
  // blocked paths: Cholesky and LU in blocks of 64 columns, triangular solves split past 96 rows
  ["choleskyEx 100 (blocked)", () => [f32(symmetric(100), [100, 100])], (a) => {
    const { L, info } = torch.linalg.choleskyEx(a!);
    return [L, info];
  }],
  ["slogdet 100 (blocked LU)", () => [f32(big(100, 2, 5), [100, 100])], (a) => {
    const { sign, logabsdet } = torch.linalg.slogdet(a!);
    return [sign, logabsdet];
  }],
  ["solveTriangular 120 (split)", () => [f32(big(120, 3, 7), [120, 120]), f32(big(120, 0, 9).slice(0, 240), [120, 2])], (a, b) => torch.linalg.solveTriangular(a!, b!, { upper: true })],
  ["solveTriangular lower", () => [f32(tri, [3, 3]), f32([1, 2, 3, 4, 5, 6], [3, 2])], (a, b) => torch.linalg.solveTriangular(a!, b!, { upper: false })],
  ["solveTriangular upper right unit", () => [f32(tri, [3, 3]), f32([1, 2, 3, 4, 5, 6], [2, 3])], (a, b) => torch.linalg.solveTriangular(a!, b!, { upper: true, left: false, unitriangular: true })],
  ["solveTriangular batched f64", () => [f64([...tri, ...tri.map((v) => v * 2)], [2, 3, 3]), f64([1, 2, 3, 4, 5, 6], [2, 3, 1])], (a, b) => torch.linalg.solveTriangular(a!, b!, { upper: true })],
  ["choleskyEx", () => [f32([...spd, 1, 2, 0, 2, 1, 0, 0, 0, 1], [2, 3, 3])], (a) => {
    const { L, info } = torch.linalg.choleskyEx(a!);
    return [L, info];
  }],
  ["choleskySolve", () => [f32([1, 2, 3], [3, 1]), f32([2, 0, 0, 0.5, 1.5, 0, -0.25, 0.5, 1], [3, 3])], (b, l) => torch.choleskySolve(b!, l!)],
  ["choleskyInverse upper", () => [f64([2, 0.5, -0.25, 0, 1.5, 0.5, 0, 0, 1], [3, 3])], (u) => torch.choleskyInverse(u!, true)],
  ["luSolve", () => [f32([3, 1, 2, 0.5, 2, 1, 0.25, 0.5, 1], [3, 3]), torch.tensor([2, 3, 3], { dtype: "int32" }), f32([1, 2, 3], [3, 1])], (lu, p, b) => torch.linalg.luSolve(lu!, p!, b!)],
  ["det", () => [f32([...general, ...spd], [2, 3, 3])], (a) => torch.linalg.det(a!)],
  ["slogdet f64", () => [f64(general, [3, 3])], (a) => {
    const { sign, logabsdet } = torch.linalg.slogdet(a!);
    return [sign, logabsdet];
  }],
];

unitsOnRealXla("linalg factorisations", cases, { tol: 1e-5 });
