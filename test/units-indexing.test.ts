// Real XLA as the oracle for the StableHLO of the indexing ops (gather, scatter and sort with our
// printed dimension numbers, update bodies and comparators): each unit runs on XLA's CPU client and
// compiles ahead of time for TPU (test/helpers/units.ts). make() returns the inputs in the order the
// unit takes them (bucketize: boundaries first). The data-dependent ops (nonzero, maskedSelect,
// unique) run a counting unit, then a unit sized by the count: make() runs the op once on other
// values of the same shape, so that the case itself compiles (and checks) only the second unit.
import * as torch from "../src/index.js";
import { type UnitCase, unitsOnRealXla } from "./helpers/units.js";

const f32 = (values: number[], shape: number[]) => torch.tensor(new Float32Array(values), { shape });
const i64 = (values: number[], shape: number[]) => torch.tensor(values, { dtype: "int64", shape });
const x34 = () => f32([0.5, -1, 2, NaN, 3, 3, -0, 0, 7, -2, 1e3, -Infinity], [3, 4]);

const cases: UnitCase[] = [
  ["indexSelect", () => [x34(), i64([2, 0, 2], [3])], (x, i) => x!.indexSelect(1, i!)],
  ["indexSelect int32 idx", () => [x34(), torch.tensor([1, 0], { dtype: "int32" })], (x, i) => torch.indexSelect(x!, 0, i!)],
  ["gather dim 0", () => [x34(), i64([2, 1, 0, 0, 1, 2, 2, 2], [2, 4])], (x, i) => x!.gather(0, i!)],
  ["gather bool", () => [torch.tensor([[true, false], [false, true]]), i64([1, 1, 0, 1], [2, 2])], (x, i) => x!.gather(1, i!)],
  ["takeAlongDim broadcast", () => [x34(), i64([3, 0], [1, 2])], (x, i) => x!.takeAlongDim(i!, { dim: 1 })],
  ["scatter src", () => [x34(), i64([3, 0, 1, 1, 2, 2], [3, 2]), f32([1, 2, 3, 4, 5, 6], [3, 2])], (x, i, s) => x!.scatter(1, i!, s!)],
  ["scatter value", () => [torch.zeros([3, 4], { dtype: "int32" }), i64([1, 2], [1, 2])], (x, i) => x!.scatter(0, i!, 7)],
  ["scatterAdd duplicates", () => [torch.zeros([2, 3]), i64([0, 0, 2, 1, 1, 1], [2, 3]), f32([1, 2, 3, 4, 5, 6], [2, 3])], (x, i, s) => x!.scatterAdd(1, i!, s!)],
  ["scatter multiply", () => [f32([1, 2, 3, 4], [4]), i64([1, 1, 3], [3]), f32([2, 3, -1], [3])], (x, i, s) => x!.scatter(0, i!, s!, { reduce: "multiply" })],
  ["scatterReduce amax excl", () => [f32([1, 2, 3, 4], [4]), i64([1, 1, 3], [3]), f32([-5, 0, 9], [3])], (x, i, s) => x!.scatterReduce(0, i!, s!, "amax", { includeSelf: false })],
  ["scatterReduce mean int", () => [torch.tensor([1, -7, 3], { dtype: "int32" }), i64([1, 1, 0], [3]), torch.tensor([2, 0, 5], { dtype: "int32" })], (x, i, s) => x!.scatterReduce(0, i!, s!, "mean")],
  ["maskedFill", () => [x34(), torch.tensor([true, false, false, true])], (x, m) => x!.maskedFill(m!, -Infinity)],
  ["sort", () => [x34()], (x) => {
    const r = x!.sort();
    return [r.values, r.indices];
  }],
  ["sort descending dim 0", () => [x34()], (x) => {
    const r = x!.sort({ dim: 0, descending: true });
    return [r.values, r.indices];
  }],
  ["argsort int", () => [torch.tensor([3, 1, 3, -2, 1], { dtype: "int16" })], (x) => x!.argsort({ descending: true })],
  ["sort bool", () => [torch.tensor([true, false, true, false])], (x) => x!.argsort()],
  ["topk", () => [x34()], (x) => {
    const r = x!.topk(2);
    return [r.values, r.indices];
  }],
  ["searchsorted right", () => [f32([1, 2, 2, 3], [4]), f32([2, 0, 5, 2.5], [2, 2])], (s, v) => torch.searchsorted(s!, v!, { right: true })],
  ["bucketize", () => [i64([0, 3, 6], [3]), i64([5, -1, 3], [3])], (b, x) => torch.bucketize(x!, b!)],
  ["index basic and advanced", () => [x34(), i64([2, -1], [2])], (x, i) => x!.index("1:", i!)],
  ["index apart", () => [f32(Array.from({ length: 24 }, (_, k) => k), [2, 3, 4]), i64([1, 0], [2]), i64([3], [1])], (x, i, j) => x!.index(i!, ":", j!)],
  ["indexPut accumulate", () => [torch.zeros([4, 2]), f32([1, 2, 3, 4, 5, 6], [3, 2]), i64([1, 1, 3], [3])], (x, v, i) => torch.indexPut(x!, [i!], v!, { accumulate: true })],
  ["nonzero (second unit)", () => {
    torch.nonzero(torch.zeros([3, 4]));
    return [x34()];
  }, (x) => torch.nonzero(x!) as torch.Tensor],
  ["maskedSelect (second unit)", () => {
    torch.maskedSelect(x34(), torch.tensor([false, false, false, false]));
    return [x34(), torch.tensor([true, false, true, true])];
  }, (x, m) => torch.maskedSelect(x!, m!)],
  ["unique with inverse and counts (second unit)", () => {
    torch.unique(torch.zeros([6], { dtype: "int32" }), { returnInverse: true, returnCounts: true });
    return [torch.tensor([3, -1, 3, 0, -1, 3], { dtype: "int32" })];
  }, (x) => torch.unique(x!, { returnInverse: true, returnCounts: true }) as torch.Tensor[]],
];

unitsOnRealXla("indexing ops", cases);
