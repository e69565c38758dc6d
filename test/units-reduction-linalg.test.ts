// Real XLA as the oracle for the StableHLO of the reductions in reduction_more.ts and the products in
// src/ops/linalg/: each unit runs on XLA's CPU client with our plugin's numbers and
// compiles ahead of time for TPU with libtpu (test/helpers/units.ts).
import * as torch from "../src/index.js";
import { type UnitCase, unitsOnRealXla } from "./helpers/units.js";

const f32 = (values: number[], shape: number[]) => torch.tensor(new Float32Array(values), { shape });
const f64 = (values: number[], shape: number[]) => torch.tensor(new Float64Array(values), { shape });
const i32 = (values: number[], shape: number[]) => torch.tensor(new Int32Array(values), { shape });
const seq = (n: number, scale = 0.25, offset = -1) => Array.from({ length: n }, (_, i) => ((i * 7) % 11) * scale + offset);

const cases: UnitCase[] = [
  ["all dims", () => [f32([1, 0, 2, NaN, 3, 4], [2, 3])], (a) => a!.all({ dim: 1 })],
  ["any uint8 keepdim", () => [torch.tensor(new Uint8Array([0, 0, 3, 0]), { shape: [2, 2] })], (a) => a!.any({ dim: [0, 1], keepdim: true })],
  ["var dim", () => [f32(seq(24), [2, 3, 4])], (a) => a!.var({ dim: [0, -1] })],
  ["std correction 0 keepdim", () => [f64(seq(12), [3, 4])], (a) => a!.std({ dim: 1, correction: 0, keepdim: true })],
  ["var bfloat16", () => [torch.tensor(new Float32Array(seq(12)), { shape: [3, 4], dtype: "bfloat16" })], (a) => a!.var({ dim: 0 })],
  ["varMean", () => [f32(seq(12), [3, 4])], (a) => torch.varMean(a!, { dim: 1 })],
  ["stdMean all", () => [f32(seq(6), [2, 3])], (a) => torch.stdMean(a!)],
  ["logsumexp stable", () => [f32([1000, 1000, -Infinity, -Infinity, 1, 2], [3, 2])], (a) => a!.logsumexp(1)],
  ["logsumexp int", () => [i32([1, 2, 3, 4], [2, 2])], (a) => torch.logsumexp(a!, [0, 1], { keepdim: true })],
  ["norm default", () => [f32(seq(12), [3, 4])], (a) => a!.norm()],
  ["norm p3 dim", () => [f32(seq(12), [3, 4])], (a) => a!.norm({ p: 3, dim: 1 })],
  ["norm inf", () => [f32(seq(12), [3, 4])], (a) => a!.norm({ p: Infinity, dim: 0 })],
  ["norm p0", () => [f32([0, 1, 0, 2, NaN, 0], [2, 3])], (a) => a!.norm({ p: 0, dim: -1 })],
  ["countNonzero", () => [i32([0, 1, 0, 2, 3, 0], [2, 3])], (a) => a!.countNonzero({ dim: 0 })],
  // float16/bfloat16 accumulate in float32 in the program: XLA and libtpu see convert, reduce, convert
  ["sum float16 4096 ones", () => [torch.tensor(new Float32Array(4096).fill(1), { dtype: "float16" })], (a) => a!.sum()],
  ["mean bfloat16 dim", () => [torch.tensor(new Float32Array(2000).fill(0.1), { dtype: "bfloat16", shape: [2, 1000] })], (a) => a!.mean(1)],
  ["prod bfloat16", () => [torch.tensor(new Float32Array(512).fill(1.0078125), { dtype: "bfloat16" })], (a) => a!.prod()],
  ["mm", () => [f32(seq(6), [2, 3]), f32(seq(12, 0.5), [3, 4])], (a, b) => a!.mm(b!)],
  ["mm int32", () => [i32([1, -2, 3, 4, 0, 2], [2, 3]), i32([1, 2, 3, 4, 5, 6], [3, 2])], (a, b) => torch.mm(a!, b!)],
  ["bmm", () => [f32(seq(12), [2, 2, 3]), f32(seq(24, 0.5), [2, 3, 4])], (a, b) => a!.bmm(b!)],
  ["mv", () => [f32(seq(6), [2, 3]), f32([1, 2, 3], [3])], (a, b) => a!.mv(b!)],
  ["dot", () => [f64([1, 2, 3], [3]), f64([4, -5, 6], [3])], (a, b) => a!.dot(b!)],
  ["outer promote", () => [i32([1, 2, 3], [3]), f32([0.5, -1], [2])], (a, b) => torch.outer(a!, b!)],
  ["addmm", () => [f32([1, 2, 3, 4], [4]), f32(seq(6), [2, 3]), f32(seq(12, 0.5), [3, 4])], (i, a, b) => torch.addmm(i!, a!, b!, { beta: 0.5, alpha: 2 })],
  ["baddbmm beta 0", () => [f32([NaN], [1]), f32(seq(12), [2, 2, 3]), f32(seq(24), [2, 3, 4])], (i, a, b) => i!.baddbmm(a!, b!, { beta: 0 })],
  ["tensordot lists", () => [f32(seq(24), [2, 3, 4]), f32(seq(60, 0.1), [4, 3, 5])], (a, b) => torch.tensordot(a!, b!, { dims: [[1, 2], [1, 0]] })],
  ["tensordot outer", () => [f32(seq(6), [2, 3]), f32(seq(4), [4])], (a, b) => torch.tensordot(a!, b!, { dims: 0 })],
  ["cross broadcast", () => [f32(seq(12), [4, 3]), f32([1, 2, 3], [1, 3])], (a, b) => a!.cross(b!, { dim: 1 })],
  ["einsum attention", () => [f32(seq(24), [1, 2, 3, 4]), f32(seq(40, 0.1), [1, 2, 5, 4])], (a, b) => torch.einsum("bhqd,bhkd->bhqk", a!, b!)],
  ["einsum trace diag", () => [f32(seq(18), [3, 3, 2])], (a) => torch.einsum("iij->j", a!)],
  ["einsum three operands", () => [f32(seq(6), [2, 3]), f32(seq(12), [3, 4]), f32(seq(8), [4, 2])], (a, b, c) => torch.einsum("ij,jk,kl->il", a!, b!, c!)],
  ["einsum ellipsis broadcast", () => [f32(seq(30), [5, 2, 3]), f32(seq(12), [1, 3, 4])], (a, b) => torch.einsum("...ij,...jk->...ik", a!, b!)],
];

unitsOnRealXla("reductions and linear algebra (more)", cases, { tol: 1e-5 });
