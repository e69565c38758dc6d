// Real XLA as the oracle for the StableHLO of the first eager ops (pointwise, reductions, shape,
// matmul, softmax): each unit runs on XLA's CPU client with our plugin's numbers and compiles ahead
// of time for TPU with libtpu (test/helpers/units.ts).
import * as torch from "../src/index.js";
import { type UnitCase, unitsOnRealXla } from "./helpers/units.js";

const f32 = (values: number[], shape: number[]) => torch.tensor(new Float32Array(values), { shape });
const cases: UnitCase[] = [
  ["add broadcast", () => [f32([1, 2, 3, 4, 5, 6], [2, 3]), f32([10, 20, 30], [3])], (a, b) => torch.add(a!, b!, { alpha: 2 })],
  ["int promotion", () => [torch.tensor([1, -2, 3], { dtype: "int32" })], (a) => torch.mul(a!, 2.5)],
  ["div floor int", () => [torch.tensor([7, -7, 6], { dtype: "int64" }), torch.tensor([2, 2, -4], { dtype: "int64" })], (a, b) => torch.div(a!, b!, { roundingMode: "floor" })],
  ["div trunc float", () => [f32([7.5, -7.5], [2]), f32([2, 2], [2])], (a, b) => torch.div(a!, b!, { roundingMode: "trunc" })],
  ["where bool const", () => [torch.tensor([true, false, true]), f32([1, 2, 3], [3])], (c, x) => torch.where(c!, x!, 0)],
  ["lt", () => [f32([1, NaN, 3], [3]), f32([1, 2, NaN], [3])], (a, b) => torch.lt(a!, b!)],
  ["ne", () => [f32([1, NaN, 3], [3]), f32([1, 2, NaN], [3])], (a, b) => torch.ne(a!, b!)],
  ["exp", () => [f32([0.5, -1, 2], [3])], (a) => a!.exp()],
  ["tanh", () => [f32([0.5, -1, 2], [3])], (a) => a!.tanh()],
  ["erf (chlo.erf)", () => [f32([0, -0.3, 0.9, 1, -1.7, 3.5, 6, -Infinity], [8])], (a) => a!.erf()],
  ["erf float64", () => [torch.tensor([0.2, -1.1, 2.5, 5], { dtype: "float64" })], (a) => a!.erf()],
  ["erf bfloat16", () => [torch.tensor([0.2, -1.1, 2.5], { dtype: "bfloat16" })], (a) => a!.erf()],
  ["lgamma (chlo.lgamma)", () => [f32([0.5, 3, -2.5, 10, 1e-3, 0], [6])], (a) => a!.lgamma()],
  ["digamma (chlo.digamma)", () => [f32([0.5, 3, -2.5, 10, 1e-3], [5])], (a) => a!.digamma()],
  ["polygamma (chlo.polygamma)", () => [f32([0.5, 3, -2.5, 10], [4])], (a) => torch.polygamma(2, a!)],
  ["zeta (chlo.zeta)", () => [f32([2, 3.5, 5, 1.5], [4]), f32([1, 0.5, 4, 2], [4])], (a, b) => torch.special.zeta(a!, b!)],
  ["sigmoid", () => [f32([0.5, -1, 2], [3])], (a) => a!.sigmoid()],
  ["relu", () => [f32([0.5, -1, 2], [3])], (a) => a!.relu()],
  ["sqrt int", () => [torch.tensor([1, 4, 2], { dtype: "int32" })], (a) => a!.sqrt()],
  ["sum keepdim", () => [f32([1, 2, 3, 4, 5, 6], [2, 3])], (a) => a!.sum({ dim: -1, keepdim: true })],
  ["int sum", () => [torch.tensor([[1, 2], [3, 4]], { dtype: "int8" })], (a) => a!.sum({ dim: 0 })],
  ["mean", () => [f32([1, 2, 3, 4, 5, 6], [2, 3])], (a) => a!.mean({ dim: [0, 1] })],
  ["amax nan", () => [f32([1, NaN, 3, 4], [2, 2])], (a) => a!.amax({ dim: 1 })],
  ["max dim", () => [f32([1, 7, 7, NaN, 2, NaN], [2, 3])], (a) => {
    const r = a!.max({ dim: 1 });
    return [r.values, r.indices];
  }],
  ["argmin int", () => [torch.tensor([[3, 1, 1], [0, 5, 0]], { dtype: "int32" })], (a) => a!.argmin({ dim: 1 })],
  ["prod", () => [f32([1, 2, 3, 4], [4])], (a) => a!.prod()],
  ["softmax", () => [f32([1, 2, 3, 1000, 1001, -Infinity], [2, 3])], (a) => a!.softmax(-1)],
  ["logSoftmax", () => [f32([1, 2, 3, 4], [2, 2])], (a) => a!.logSoftmax(0)],
  ["matmul batched", () => [f32([1, 2, 3, 4, 5, 6], [1, 2, 3]), f32([1, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3], [2, 3, 2])], (a, b) => a!.matmul(b!)],
  ["matmul vec", () => [f32([1, 2, 3], [3]), f32([1, 2, 3, 4, 5, 6], [3, 2])], (a, b) => a!.matmul(b!)],
  ["transpose", () => [f32([1, 2, 3, 4, 5, 6], [2, 3])], (a) => a!.transpose(0, 1)],
  ["reshape", () => [f32([1, 2, 3, 4, 5, 6], [2, 3])], (a) => a!.reshape(-1)],
  ["expand", () => [f32([1, 2, 3, 4, 5, 6], [2, 1, 3])], (a) => a!.expand(2, 2, 3)],
  ["cat", () => [torch.tensor([[1, 2]], { dtype: "int32" }), f32([0.5, 1.5], [1, 2])], (a, b) => torch.cat([a!, b!], 0)],
  ["pow", () => [f32([1, 2, 3], [3])], (a) => torch.pow(2, a!)],
];

unitsOnRealXla("first ops", cases);
