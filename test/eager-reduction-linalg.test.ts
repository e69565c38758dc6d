// The reductions of src/ops/api/reduction_more.ts and the products of src/ops/linalg/ on
// the real CPU plugin: float64 references computed here (einsum over random equations against a
// naive loop), and the typed errors raised before any compile.
import { describe, expect, it } from "vitest";
import * as torch from "../src/index.js";
import { eagerSuite, expectTensor, missing, scoped, valuesOf } from "./eager/helpers.js";
import { data, numel, reduceRef } from "./eager/ref.js";

const test = missing ? it.skip : it;

/** The float64 variance with `correction` (1: Bessel's), two passes. */
const variance = (correction: number) => (xs: number[]): number => {
  const m = xs.reduce((s, v) => s + v, 0) / xs.length;
  return xs.reduce((s, v) => s + (v - m) ** 2, 0) / Math.max(0, xs.length - correction);
};
if (missing) it.skip(`skipped: ${missing}`, () => {});

const f64 = (shape: number[], seed = 1): torch.Tensor => torch.tensor(new Float64Array(data(numel(shape), seed)), { shape });
const f32 = (shape: number[], seed = 1): torch.Tensor => torch.tensor(new Float32Array(data(numel(shape), seed)), { shape });

/** Runs fn, expects it to throw `type` with a message matching `message`, and no compile to have happened. */
function expectError(fn: () => unknown, type: new (...a: never[]) => Error, message: RegExp | string): void {
  const before = torch.runtime.stats().compiles;
  expect(fn).toThrow(type);
  expect(fn).toThrow(message);
  expect(torch.runtime.stats().compiles).toBe(before);
}

/** A small deterministic generator (mulberry32). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface RandomEinsum {
  equation: string;
  /** Each operand's labels, its ellipsis spelled out as the labels "0", "1", … of the widest one. */
  labels: string[][];
  shapes: number[][];
  output: string[];
}

/** A random equation with 1-3 operands, repeated subscripts, ellipses and size-1 broadcasting. */
function randomEinsum(rand: () => number): RandomEinsum {
  const pick = <X>(xs: readonly X[]): X => xs[Math.floor(rand() * xs.length)]!;
  const letters = ["a", "b", "c", "d", "B"];
  const size: Record<string, number> = { a: 2, b: 3, c: 4, d: 1, B: 2, "0": 3, "1": 2 };
  const width = pick([0, 0, 1, 2]);
  const nOps = 1 + Math.floor(rand() * 3);
  const labels: string[][] = [];
  const terms: string[] = [];
  const shapes: number[][] = [];
  for (let k = 0; k < nOps; k++) {
    const named = Array.from({ length: Math.floor(rand() * 4) }, () => pick(letters));
    const spread = width === 0 || rand() < 0.3 ? 0 : width - Math.floor(rand() * (width + 1)) ;
    const hasEllipsis = width > 0 && (spread > 0 || rand() < 0.5);
    const ell = Array.from({ length: hasEllipsis ? spread : 0 }, (_, j) => String(width - spread + j));
    const at = Math.floor(rand() * (named.length + 1));
    const ls = [...named.slice(0, at), ...ell, ...named.slice(at)];
    labels.push(ls);
    terms.push(named.slice(0, at).join("") + (hasEllipsis ? "..." : "") + named.slice(at).join(""));
    // a size-1 ellipsis dim sometimes, to broadcast against the others
    shapes.push(ls.map((l) => (/\d/.test(l) && rand() < 0.25 ? 1 : size[l]!)));
  }
  const all = labels.flat();
  const used = [...new Set(all)].filter((l) => !/\d/.test(l));
  const ellipsisUsed = terms.some((t) => t.includes("..."));
  const ellLabels = Array.from({ length: ellipsisUsed ? Math.max(0, ...labels.map((ls) => ls.filter((l) => /\d/.test(l)).length)) : 0 }, (_, j) => String(j));
  let output: string[];
  let equation = terms.join(",");
  if (rand() < 0.4) {
    // implicit: ellipsis dims, then subscripts that appear once, sorted
    output = [...ellLabels.map((_, j) => String(width - ellLabels.length + j)), ...used.filter((l) => all.indexOf(l) === all.lastIndexOf(l)).sort()];
  } else {
    const outNamed = used.filter(() => rand() < 0.5).sort(() => rand() - 0.5);
    const keepEllipsis = ellipsisUsed && rand() < 0.7;
    output = [...(keepEllipsis ? ellLabels.map((_, j) => String(width - ellLabels.length + j)) : []), ...outNamed];
    equation += "->" + (keepEllipsis ? "..." : "") + outNamed.join("");
  }
  return { equation, labels, shapes, output };
}

/** The einsum by definition: a loop over every assignment of every subscript, in float64. */
function einsumReference(r: RandomEinsum, values: number[][]): { shape: number[]; values: number[] } {
  const size = new Map<string, number>();
  r.labels.forEach((ls, k) => ls.forEach((l, d) => size.set(l, Math.max(size.get(l) ?? 1, r.shapes[k]![d]!))));
  const every = [...size.keys()];
  const outShape = r.output.map((l) => size.get(l)!);
  const out = new Array<number>(numel(outShape)).fill(0);
  const total = numel(every.map((l) => size.get(l)!));
  const idx = new Map<string, number>();
  for (let n = 0; n < total; n++) {
    let rest = n;
    for (let j = every.length - 1; j >= 0; j--) {
      const s = size.get(every[j]!)!;
      idx.set(every[j]!, rest % s);
      rest = Math.floor(rest / s);
    }
    let term = 1;
    r.labels.forEach((ls, k) => {
      let offset = 0;
      ls.forEach((l, d) => {
        const dimSize = r.shapes[k]![d]!;
        offset = offset * dimSize + (dimSize === 1 ? 0 : idx.get(l)!);
      });
      term *= values[k]![offset]!;
    });
    let o = 0;
    r.output.forEach((l, d) => (o = o * outShape[d]! + idx.get(l)!));
    out[o]! += term;
  }
  return { shape: outShape, values: out };
}

describe("eager reductions and linear algebra (more)", () => {
  eagerSuite();

  test("einsum matches a float64 loop over 60 random equations", () =>
    scoped(() => {
      const rand = rng(7);
      const seen = new Set<string>();
      for (let i = 0; i < 60; i++) {
        const r = randomEinsum(rand);
        seen.add(r.equation);
        const values = r.shapes.map((s, k) => data(numel(s), i * 10 + k));
        const operands = r.shapes.map((s, k) => torch.tensor(new Float64Array(values[k]!), { shape: s }));
        const want = einsumReference(r, values);
        const got = torch.einsum(r.equation, ...operands);
        expect([...got.shape], r.equation).toEqual(want.shape);
        const g = valuesOf(got);
        g.forEach((v, j) => expect(Math.abs(v - want.values[j]!), `${r.equation} [${j}]`).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(want.values[j]!))));
      }
      expect(seen.size).toBeGreaterThan(40); // the generator really varies
    }));

  test("einsum: traces, diagonals, implicit output order, operands as an array", () =>
    scoped(() => {
      const m = torch.tensor(new Float64Array([1, 2, 3, 4, 5, 6, 7, 8, 9]), { shape: [3, 3] });
      expectTensor(torch.einsum("ii", m), { dtype: "float64", shape: [], values: [15] });
      expectTensor(torch.einsum("ii->i", m), { dtype: "float64", shape: [3], values: [1, 5, 9] });
      expectTensor(torch.einsum("ba", [m]), { dtype: "float64", shape: [3, 3], values: [1, 4, 7, 2, 5, 8, 3, 6, 9] });
      // uppercase sorts before lowercase in the implicit output
      const a = f64([2, 3]);
      const b = f64([3, 4], 2);
      const viaEinsum = valuesOf(torch.einsum("Ba,aC", a, b));
      const viaMm = valuesOf(torch.mm(a, b));
      viaEinsum.forEach((v, i) => expect(v).toBeCloseTo(viaMm[i]!, 12));
      expectTensor(torch.einsum("", torch.tensor(2.5)), { dtype: "float32", shape: [], values: [2.5] });
      expectTensor(torch.einsum("i,i,i->", torch.tensor([1, 2, 3], { dtype: "int32" }), torch.tensor([1, 2, 3], { dtype: "int32" }), torch.tensor([1, 1, 2], { dtype: "int32" })), { dtype: "int32", shape: [], values: [1 + 4 + 18] });
    }));

  test("a dim passed positionally reduces along it, as in PyTorch (x.sum(-1), x.sum([0, 1], true))", () =>
    scoped(() => {
      const a = f32([2, 3]);
      const v = valuesOf(a);
      const rows = [0, 1].map((r) => v.slice(3 * r, 3 * r + 3).reduce((x, y) => x + y, 0));
      for (const s of [a.sum(-1), torch.sum(a, -1), a.sum({ dim: -1 }), torch.sum(a, { dim: -1 }), a.sum(-1, false)]) {
        expect(s.shape).toEqual([2]);
        valuesOf(s).forEach((got, r) => expect(got).toBeCloseTo(rows[r]!, 5));
      }
      const kept = a.sum([0, 1], true);
      expect(kept.shape).toEqual([1, 1]);
      expect(valuesOf(kept)[0]).toBeCloseTo(rows[0]! + rows[1]!, 5);
      expectError(() => a.sum(-1, { dim: 0 } as never), torch.ArgumentError, 'got "dim" both as an argument and as an option');
      expectError(() => a.sum({ dims: 1 } as never), torch.ArgumentError, 'Tensor.sum(dim?, keepdim = false, *, dtype?): got an unknown option "dims"; did you mean "dim"?');
    }));

  test("einsum errors name the equation's problem", () =>
    scoped(() => {
      const a = f32([2, 3]);
      const b = f32([3, 4]);
      expectError(() => torch.einsum("i1", a), torch.ArgumentError, "invalid subscript '1' at index 1");
      expectError(() => torch.einsum("i..j", a), torch.ArgumentError, "not part of an ellipsis");
      expectError(() => torch.einsum("...i...", a), torch.ArgumentError, "more than one ellipsis");
      expectError(() => torch.einsum("ij,jk->ik", a), torch.ArgumentError, "has 2 operand term(s) but 1 tensor(s)");
      expectError(() => torch.einsum("ij", a, b), torch.ArgumentError, "has 1 operand term(s) but 2 tensor(s)");
      expectError(() => torch.einsum("ijk->i", a), torch.ShapeError, "operand 0 has 2 dims (shape [2, 3]) but its subscripts 'ijk' name 3");
      expectError(() => torch.einsum("ij,jk->il", a, b), torch.ArgumentError, "output subscript 'l' does not appear");
      expectError(() => torch.einsum("ij,jk->ii", a, b), torch.ArgumentError, "output subscript 'i' appears more than once");
      expectError(() => torch.einsum("i->i->i", torch.tensor([1.5])), torch.ArgumentError, "'->' appears more than once");
      expectError(() => torch.einsum("ij,kj->ik", a, b), torch.ShapeError, "subscript 'j' has size 3 in operand 0 but size 4 in operand 1");
      expectError(() => torch.einsum("ii->i", a), torch.ShapeError, "repeated in operand 0 (shape [2, 3]) with different sizes, 2 != 3");
      expectError(() => torch.einsum("ij,jk", a, f64([3, 4])), torch.DTypeError, "float32 and float64");
      expectError(() => torch.einsum("ij", torch.tensor([[true]])), torch.DTypeError, "bool");
      expect(() => torch.einsum("ij")).toThrow(torch.ArgumentError);
    }));

  test("mm, bmm, mv, dot, outer against float64 loops", () =>
    scoped(() => {
      const a = f64([2, 3]);
      const b = f64([3, 4], 2);
      const av = data(6);
      const bv = data(12, 2);
      const ref = Array.from({ length: 8 }, (_, o) => [0, 1, 2].reduce((s, k) => s + av[Math.floor(o / 4) * 3 + k]! * bv[k * 4 + (o % 4)]!, 0));
      expectTensor(a.mm(b), { dtype: "float64", shape: [2, 4], values: ref }, 1e-12);
      expectTensor(torch.bmm(a.reshape(1, 2, 3), b.reshape(1, 3, 4)), { dtype: "float64", shape: [1, 2, 4], values: ref }, 1e-12);
      const v = f64([3], 3);
      const vv = data(3, 3);
      expectTensor(torch.mv(a, v), { dtype: "float64", shape: [2], values: [0, 1].map((i) => [0, 1, 2].reduce((s, k) => s + av[i * 3 + k]! * vv[k]!, 0)) }, 1e-12);
      expectTensor(v.dot(v), { dtype: "float64", shape: [], values: [vv.reduce((s, x) => s + x * x, 0)] }, 1e-12);
      expectTensor(torch.outer(torch.tensor([true, false]), torch.tensor([true, true])), { dtype: "bool", shape: [2, 2], values: [1, 1, 0, 0] });
    }));

  test("addmm and baddbmm: beta, alpha, broadcast input, beta = 0 ignores NaN", () =>
    scoped(() => {
      const m1 = f64([2, 3]);
      const m2 = f64([3, 4], 2);
      const prod = valuesOf(torch.mm(m1, m2));
      const bias = torch.tensor(new Float64Array([1, 2, 3, 4]));
      expectTensor(torch.addmm(bias, m1, m2, { beta: 0.5, alpha: 2 }), { dtype: "float64", shape: [2, 4], values: prod.map((p, i) => 0.5 * [1, 2, 3, 4][i % 4]! + 2 * p) }, 1e-12);
      const nan = torch.tensor(new Float64Array([NaN]));
      expectTensor(torch.addmm(nan, m1, m2, { beta: 0 }), { dtype: "float64", shape: [2, 4], values: prod }, 1e-12);
      expectTensor(bias.reshape(1, 4).baddbmm(m1.reshape(1, 2, 3), m2.reshape(1, 3, 4), { alpha: -1 }), { dtype: "float64", shape: [1, 2, 4], values: prod.map((p, i) => [1, 2, 3, 4][i % 4]! - p) }, 1e-12);
    }));

  test("tensordot and cross", () =>
    scoped(() => {
      const a = f64([2, 3, 4]);
      const b = f64([4, 3, 5], 2);
      const av = data(24);
      const bv = data(60, 2);
      const ref: number[] = [];
      for (let i = 0; i < 2; i++) for (let l = 0; l < 5; l++) {
        let s = 0;
        for (let j = 0; j < 3; j++) for (let k = 0; k < 4; k++) s += av[i * 12 + j * 4 + k]! * bv[k * 15 + j * 5 + l]!;
        ref.push(s);
      }
      expectTensor(torch.tensordot(a, b, { dims: [[1, 2], [1, 0]] }), { dtype: "float64", shape: [2, 5], values: ref }, 1e-12);
      expectTensor(torch.tensordot(torch.tensor([1, 2], { dtype: "int32" }), torch.tensor([3, 4, 5], { dtype: "int32" }), { dims: 0 }), { dtype: "int32", shape: [2, 3], values: [3, 4, 5, 6, 8, 10] });
      const x = torch.tensor(new Float64Array([1, 0, 0, 0, 1, 0]), { shape: [2, 3] });
      const y = torch.tensor(new Float64Array([0, 1, 0]), { shape: [1, 3] });
      // e1 × e2 = e3, e2 × e2 = 0; y broadcasts; no dim: the first dim of size 3
      expectTensor(torch.cross(x, y), { dtype: "float64", shape: [2, 3], values: [0, 0, 1, 0, 0, 0] });
      expectTensor(x.mT.cross(y.mT, { dim: 0 }), { dtype: "float64", shape: [3, 2], values: [0, 0, 0, 0, 1, 0] });
      // positional dims; the dim is part of the unit's key (one [3, 3] pair crossed along either dim)
      const p = torch.tensor(new Float64Array([1, 0, 0, 0, 1, 0, 0, 0, 1]), { shape: [3, 3] });
      const q = torch.tensor(new Float64Array([0, 1, 0, 0, 0, 1, 1, 0, 0]), { shape: [3, 3] });
      expectTensor(torch.cross(p, q, 1), { dtype: "float64", shape: [3, 3], values: [0, 0, 1, 1, 0, 0, 0, 1, 0] });
      expectTensor(p.cross(q, 0), { dtype: "float64", shape: [3, 3], values: [0, 0, -1, -1, 0, 0, 0, -1, 0] });
      expectTensor(torch.tensordot(a, b, [[1, 2], [1, 0]]), { dtype: "float64", shape: [2, 5], values: ref }, 1e-12);
      // a pair of dims (PyTorch takes only a pair of lists): p's dim 1 with q's dim 0 is p @ q
      expectTensor(torch.tensordot(p, q, [1, 0]), { dtype: "float64", shape: [3, 3], values: valuesOf(p.matmul(q)) });
    }));

  test("product errors: ranks, sizes, dtypes, before any compile", () =>
    scoped(() => {
      const a = f32([2, 3]);
      const b = f32([4, 5]);
      expectError(() => torch.mm(a, b), torch.ShapeError, "mm: shapes [2, 3] and [4, 5] cannot be multiplied (3 != 4)");
      expectError(() => torch.mm(a, f32([3])), torch.ShapeError, "mm: mat2 must be a matrix (2-d), got shape [3]");
      expectError(() => a.mm(f64([3, 2])), torch.DTypeError, "mm: expected all tensors to have the same dtype, got float32 and float64");
      expectError(() => torch.mm(torch.tensor([[true]]), torch.tensor([[true]])), torch.DTypeError, "bool tensors are not supported");
      expectError(() => torch.bmm(f32([2, 2, 3]), f32([3, 3, 4])), torch.ShapeError, "bmm: batch sizes differ");
      expectError(() => torch.bmm(f32([2, 2, 3]), f32([2, 4, 4])), torch.ShapeError, "bmm: shapes [2, 2, 3] and [2, 4, 4] cannot be multiplied (3 != 4)");
      expectError(() => torch.mv(a, f32([4])), torch.ShapeError, "mv: shapes [2, 3] and [4] cannot be multiplied (3 != 4)");
      expectError(() => torch.dot(f32([5]), f32([4])), torch.ShapeError, "dot: the vectors differ in size: shapes [5] and [4] (5 != 4)");
      expectError(() => torch.outer(a, f32([3])), torch.ShapeError, "outer: input must be a vector (1-d), got shape [2, 3]");
      expectError(() => torch.addmm(f32([3, 4]), a, f32([3, 4])), torch.ShapeError, "addmm: input of shape [3, 4] cannot be broadcast to the product's shape [2, 4]");
      const i = torch.tensor([[1, 2]], { dtype: "int32" });
      expectError(() => torch.addmm(i, torch.tensor([[1]], { dtype: "int32" }), i, { beta: 0.5 }), torch.DTypeError, "beta must not be a floating point number");
      expectError(() => torch.tensordot(a, f32([4, 3]), { dims: 1 }), torch.ShapeError, "contracted dimensions must match, but a has size 3 in dim 1 and b has size 4 in dim 0");
      expectError(() => torch.tensordot(a, b, { dims: 3 }), torch.ShapeError, "dims must be an integer in [0, 2]");
      expectError(() => torch.cross(f32([3, 4]), f32([3, 4]), { dim: 1 }), torch.ShapeError, "cross: inputs dimension 1 must have length 3, got 4 and 4");
      expectError(() => torch.cross(f32([2, 4]), f32([2, 4])), torch.ShapeError, "no dimension of size 3");
      expectError(() => torch.cross(f32([3]), f32([2, 3])), torch.ShapeError, "same number of dimensions");
    }));

  test("float16/bfloat16 sum, mean, prod, cumsum and cumprod accumulate in float32 and round once (float64 references)", () =>
    scoped(() => {
      // Sizes where accumulating in the half type is off by far more than the one rounding allowed here.
      // prod: PyTorch's CPU kernel multiplies in the half type, its CUDA kernel in float32, as here.
      for (const [dtype, ulp] of [["float16", 2 ** -10], ["bfloat16", 2 ** -7]] as const) {
        const half = (values: number[]): torch.Tensor => torch.tensor(values, { dtype });
        const rounded = (v: number): number => valuesOf(half([v]))[0]!;
        const x = half(data(6000, 5).map((v) => 0.25 + (v + 3) / 60)); // in [0.25, 0.35]: float16 sums stop at 1024
        const xs = valuesOf(x);
        const total = xs.reduce((s, v) => s + v, 0);
        expectTensor(x.sum(), { dtype, shape: [], values: [rounded(total)] }, ulp);
        expectTensor(x.mean(), { dtype, shape: [], values: [rounded(total / xs.length)] }, ulp);
        expectTensor(x.cumsum(0).index(-1), { dtype, shape: [], values: [rounded(total)] }, ulp);
        const y = half(data(4096, 6).map((v) => 1 + v / 128)); // near 1, product about 0.57
        const product = valuesOf(y).reduce((p, v) => p * v, 1);
        expectTensor(y.prod(), { dtype, shape: [], values: [rounded(product)] }, ulp);
        expectTensor(y.cumprod(0).index(-1), { dtype, shape: [], values: [rounded(product)] }, ulp);
      }
    }));

  test("var, std, varMean, stdMean against float64 two-pass references", () =>
    scoped(() => {
      const x = f64([3, 4, 5]);
      const ref = { shape: [3, 4, 5], values: data(60) };
      const mean = (xs: number[]) => xs.reduce((s, v) => s + v, 0) / xs.length;
      const v1 = reduceRef(ref, [0, 2], variance(1));
      expectTensor(torch.var(x, { dim: [0, -1] }), { dtype: "float64", ...v1 }, 1e-12);
      const v0 = reduceRef(ref, [1], variance(0), true);
      expectTensor(x.std({ dim: 1, correction: 0, keepdim: true }), { dtype: "float64", shape: v0.shape, values: v0.values.map(Math.sqrt) }, 1e-12);
      const [v, m] = torch.varMean(x, { dim: 2, correction: 2 });
      expectTensor(v!, { dtype: "float64", ...reduceRef(ref, [2], variance(2)) }, 1e-12);
      expectTensor(m!, { dtype: "float64", ...reduceRef(ref, [2], mean) }, 1e-12);
      const [s, m2] = torch.stdMean(x);
      expectTensor(s!, { dtype: "float64", shape: [], values: [Math.sqrt(variance(1)(data(60)))] }, 1e-12);
      expectTensor(m2!, { dtype: "float64", shape: [], values: [mean(data(60))] }, 1e-12);
      expectError(() => torch.var(torch.tensor([1, 2, 3])), torch.DTypeError, "var: std and var only support floating point dtypes, got int64");
      expectError(() => torch.std(x, { dim: 3 }), torch.ShapeError, "dimension 3 is out of range");
      expectError(() => torch.std(x, { unbiased: false, correction: 0 } as never), torch.ArgumentError, "no signature fits");
    }));

  test("var, std, varMean, stdMean: dim positionally, correction as an option, PyTorch's unbiased overloads", () =>
    scoped(() => {
      const x = f64([3, 4, 5]);
      const ref = { shape: [3, 4, 5], values: data(60) };
      const byDim1 = { dtype: "float64" as const, ...reduceRef(ref, [1], variance(1)) };
      const byDim0 = { dtype: "float64" as const, ...reduceRef(ref, [1], variance(0)) };
      const kept0 = { dtype: "float64" as const, ...reduceRef(ref, [1], variance(0), true) };
      const all0 = { dtype: "float64" as const, shape: [], values: [variance(0)(data(60))] };
      for (const got of [x.var(1), torch.var(x, 1), x.var({ dim: 1 }), x.var(1, true), x.var(1, { unbiased: true })]) expectTensor(got, byDim1, 1e-12);
      for (const got of [x.var(1, { correction: 0 }), x.var(1, false), x.var({ dim: 1, unbiased: false }), torch.var(x, 1, false)]) expectTensor(got, byDim0, 1e-12);
      for (const got of [x.var(1, false, true), x.var(1, { correction: 0, keepdim: true }), x.var(1, { unbiased: false, keepdim: true })]) expectTensor(got, kept0, 1e-12);
      for (const got of [x.var(false), x.var({ unbiased: false }), x.var(null, false), x.var({ correction: 0 })]) expectTensor(got, all0, 1e-12);
      expectTensor(x.std(1, false), { ...byDim0, values: byDim0.values.map(Math.sqrt) }, 1e-12);
      const [v, m] = torch.varMean(x, 1, false, true);
      expectTensor(v!, kept0, 1e-12);
      expectTensor(m!, { dtype: "float64", ...reduceRef(ref, [1], (xs) => xs.reduce((s, a) => s + a, 0) / xs.length, true) }, 1e-12);
      const [s] = torch.stdMean(x, { unbiased: false });
      expectTensor(s!, { ...all0, values: all0.values.map(Math.sqrt) }, 1e-12);
      expectError(() => x.var(1, 0 as never), torch.ArgumentError, "no signature fits");
      expectError(() => x.var({ dims: 1 } as never), torch.ArgumentError, 'got an unknown option "dims"; did you mean "dim"?');
    }));

  test("all, any, countNonzero, logsumexp, norm and the cumulative ops take dim positionally or by name", () =>
    scoped(() => {
      const x = torch.tensor([[1, 0, 3], [4, 5, 0]], { dtype: "float64" });
      for (const r of [x.cumsum(1), x.cumsum({ dim: 1 }), torch.cumsum(x, { dim: 1 }), x.cumsum(-1, { dtype: "float64" })]) {
        expectTensor(r, { dtype: "float64", shape: [2, 3], values: [1, 1, 4, 4, 9, 9] });
      }
      expectTensor(x.cumsum(0, { dtype: "int32" }), { dtype: "int32", shape: [2, 3], values: [1, 0, 3, 5, 5, 3] });
      expect(() => x.cumsum(0, "int32" as never)).toThrow(torch.ArgumentError); // dtype is keyword-only
      expectTensor(x.cumprod({ dim: 0 }), { dtype: "float64", shape: [2, 3], values: [1, 0, 3, 4, 0, 0] });
      for (const r of [x.cummax(1), x.cummax({ dim: 1 })]) {
        expectTensor(r.values, { dtype: "float64", shape: [2, 3], values: [1, 1, 3, 4, 5, 5] });
        expectTensor(r.indices, { dtype: "int64", shape: [2, 3], values: [0, 0, 2, 0, 1, 1] });
      }
      expectTensor(torch.cummin(x, 0).values, { dtype: "float64", shape: [2, 3], values: [1, 0, 3, 1, 0, 0] });
      expectTensor(x.logcumsumexp({ dim: 0 }), { dtype: "float64", shape: [2, 3], values: [1, 0, 3, Math.log(Math.E + Math.exp(4)), Math.log(1 + Math.exp(5)), Math.log(Math.exp(3) + 1)] }, 1e-12);
      for (const r of [x.all(1), x.all({ dim: 1 }), torch.all(x, 1, false)]) expectTensor(r, { dtype: "bool", shape: [2], values: [0, 0] });
      for (const r of [x.any(0, true), x.any({ dim: 0, keepdim: true })]) expectTensor(r, { dtype: "bool", shape: [1, 3], values: [1, 1, 1] });
      for (const r of [x.countNonzero(0), x.countNonzero({ dim: 0 }), torch.countNonzero(x, [0, 1])]) expect(valuesOf(r).reduce((a, b) => Number(a) + Number(b), 0)).toBe(4);
      for (const r of [x.logsumexp(1, true), torch.logsumexp(x, { dim: 1, keepdim: true })]) {
        expectTensor(r, { dtype: "float64", shape: [2, 1], values: [Math.log(Math.E + 1 + Math.exp(3)), Math.log(Math.exp(4) + Math.exp(5) + 1)] }, 1e-12);
      }
      for (const r of [x.norm(1, 1), x.norm({ p: 1, dim: 1 }), torch.norm(x, 1, [1], false)]) expectTensor(r, { dtype: "float64", shape: [2], values: [4, 9] }, 1e-12);
      for (const r of [x.norm(null, 1), x.norm("fro", 1), x.norm({ dim: 1 })]) expectTensor(r, { dtype: "float64", shape: [2], values: [Math.sqrt(10), Math.sqrt(41)] }, 1e-12);
      expectError(() => x.norm(1, 1, false, "float64" as never), torch.ArgumentError, "Tensor.norm(p?, dim?, keepdim = false, *, dtype?): takes at most 3 positional arguments, got 4"); // dtype is keyword-only
    }));

  test("logsumexp, norm, countNonzero, all, any", () =>
    scoped(() => {
      const ref = { shape: [3, 4], values: data(12) };
      const x = f64([3, 4]);
      const lse = reduceRef(ref, [1], (xs) => Math.log(xs.reduce((s, v) => s + Math.exp(v), 0)));
      expectTensor(torch.logsumexp(x, 1), { dtype: "float64", ...lse }, 1e-12);
      // stable where exp overflows, −inf rows give −inf, integers give float32
      expectTensor(torch.logsumexp(torch.tensor([[1000, 1000], [-Infinity, -Infinity]]), -1), { dtype: "float32", shape: [2], values: [1000 + Math.LN2, -Infinity] });
      expectTensor(torch.tensor([[0, 0]], { dtype: "int32" }).logsumexp([0, 1], { keepdim: true }), { dtype: "float32", shape: [1, 1], values: [Math.LN2] });
      for (const p of [2, 1, 3, 0.5, -1, Infinity, -Infinity, 0]) {
        const pnorm = (xs: number[]): number => {
          const a = xs.map(Math.abs);
          if (p === Infinity) return Math.max(...a);
          if (p === -Infinity) return Math.min(...a);
          if (p === 0) return a.filter((v) => v !== 0).length;
          return a.reduce((s, v) => s + v ** p, 0) ** (1 / p);
        };
        expectTensor(torch.norm(x, { p, dim: 0 }), { dtype: "float64", ...reduceRef(ref, [0], pnorm) }, 1e-12);
      }
      expectTensor(torch.norm(f32([2, 3]), { p: "fro", dtype: "float64" }), { dtype: "float64", shape: [], values: [Math.hypot(...data(6).map(Math.fround))] }, 1e-12);
      expectError(() => torch.norm(torch.tensor([1, 2])), torch.DTypeError, "norm: expected a floating point input, got int64");
      expectError(() => torch.norm(x, { dtype: "float32" }), torch.DTypeError, "cannot be converted without narrowing");
      expectError(() => torch.norm(x, { p: "nuc" }), torch.ArgumentError, "nuclear norm");
      const empty = torch.zeros([0, 3]);
      expectError(() => torch.norm(empty, { p: Infinity }), torch.ShapeError, "cannot compute the Infinity norm over no elements");
      const z = torch.tensor(new Float32Array([0, NaN, -0, 2, 0, 1]), { shape: [2, 3] });
      expectTensor(torch.countNonzero(z), { dtype: "int64", shape: [], values: [3] });
      expectTensor(z.countNonzero({ dim: -1 }), { dtype: "int64", shape: [2], values: [1, 2] });
      expectTensor(z.all({ dim: 1 }), { dtype: "bool", shape: [2], values: [0, 0] });
      expectTensor(z.any({ dim: [0, 1], keepdim: true }), { dtype: "bool", shape: [1, 1], values: [1] });
      expectTensor(z.all({ dim: [] }), { dtype: "bool", shape: [2, 3], values: [0, 1, 0, 1, 0, 1] }); // an empty list reduces nothing
      expectTensor(torch.any(torch.tensor(new Uint8Array([0, 3]))), { dtype: "uint8", shape: [], values: [1] });
      expectTensor(torch.all(torch.zeros([0, 2], { dtype: "bool" })), { dtype: "bool", shape: [], values: [1] });
    }));
});
