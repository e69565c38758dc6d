// Eager API ops on the real CPU plugin: values against float64 references, broadcasting, 0-d and
// empty tensors, negative dims, keepdim, and the leak check after every test.
import { describe, expect, it } from "vitest";
import * as torch from "../src/index.js";
import { eagerSuite, expectTensor, missing, scoped } from "./eager/helpers.js";
import { data, elementwise, f32, mm, numel, reduceRef, type Ref } from "./eager/ref.js";

const test = missing ? it.skip : it;
if (missing) it.skip(`skipped: ${missing}`, () => {});

const mk = (shape: number[], seed = 1): { t: torch.Tensor; ref: Ref } => {
  const values = data(numel(shape), seed).map(f32);
  return { t: torch.tensor(new Float32Array(values), { shape }), ref: { shape, values } };
};

describe("eager pointwise ops", () => {
  eagerSuite();

  const binaries: Array<[string, (a: torch.Tensor, b: torch.Tensor) => torch.Tensor, (x: number, y: number) => number]> = [
    ["add", torch.add, (x, y) => x + y],
    ["sub", torch.sub, (x, y) => x - y],
    ["mul", torch.mul, (x, y) => x * y],
    ["div", torch.div, (x, y) => x / y],
    ["maximum", torch.maximum, Math.max],
    ["minimum", torch.minimum, Math.min],
    ["add alpha=2", (a, b) => torch.add(a, b, { alpha: 2 }), (x, y) => x + 2 * y],
    ["sub alpha=0.5", (a, b) => a.sub(b, { alpha: 0.5 }), (x, y) => x - 0.5 * y],
  ];
  const shapePairs: Array<[number[], number[]]> = [
    [[4], [4]],
    [[2, 3], [3]],
    [[2, 1], [1, 3]],
    [[3, 1, 2], [4, 1]],
    [[], [2, 2]],
    [[2, 3], []],
    [[0, 3], [3]],
    [[2, 0], [1, 1]],
  ];
  for (const [name, op, f] of binaries) {
    test(`${name} broadcasts like PyTorch`, () => {
      scoped(() => {
        for (const [sa, sb] of shapePairs) {
          const a = mk(sa, 1);
          const b = mk(sb, 2);
          const want = elementwise([a.ref, b.ref], f);
          expectTensor(op(a.t, b.t), { dtype: "float32", ...want }, 1e-5);
        }
      });
    });
  }

  test("unary math matches float64 within float32 rounding", () => {
    scoped(() => {
      const { t, ref } = mk([2, 5]);
      const pos = torch.tensor(new Float32Array(ref.values.map((v) => Math.abs(v) + 0.1)), { shape: [2, 5] });
      const cases: Array<[torch.Tensor, (x: number) => number, number[]]> = [
        [torch.neg(t), (x) => -x, ref.values],
        [t.abs(), Math.abs, ref.values],
        [t.exp(), Math.exp, ref.values],
        [torch.log(pos), Math.log, ref.values.map((v) => Math.abs(v) + 0.1)],
        [pos.sqrt(), Math.sqrt, ref.values.map((v) => f32(Math.abs(v) + 0.1))],
        [t.sin(), Math.sin, ref.values],
        [t.cos(), Math.cos, ref.values],
        [t.tanh(), Math.tanh, ref.values],
        [t.sigmoid(), (x) => 1 / (1 + Math.exp(-x)), ref.values],
        [t.relu(), (x) => Math.max(x, 0), ref.values],
      ];
      for (const [out, f, input] of cases) expectTensor(out, { dtype: "float32", shape: [2, 5], values: input.map(f) }, 2e-6);
    });
  });

  test("pow with tensors and scalars on either side", () => {
    scoped(() => {
      const a = torch.tensor([1, 2, 3, 0.5], { dtype: "float32" });
      expectTensor(a.pow(2), { dtype: "float32", shape: [4], values: [1, 4, 9, 0.25] });
      expectTensor(torch.pow(2, a), { dtype: "float32", shape: [4], values: [2, 4, 8, Math.SQRT2] });
      expectTensor(a.pow(a), { dtype: "float32", shape: [4], values: [1, 4, 27, Math.SQRT1_2] });
      const i = torch.tensor([1, 2, 3], { dtype: "int32" });
      expectTensor(i.pow(3), { dtype: "int32", shape: [3], values: [1, 8, 27] });
      expectTensor(i.pow(0.5), { dtype: "float32", shape: [3], values: [1, Math.SQRT2, Math.sqrt(3)] });
      expect(() => i.pow(-1)).toThrow(torch.DTypeError);
    });
  });

  test("div rounding modes on floats and integers (negative operands)", () => {
    scoped(() => {
      const a = torch.tensor([7, -7, 7, -7, 6], { dtype: "int32" });
      const b = torch.tensor([2, 2, -2, -2, 3], { dtype: "int32" });
      expectTensor(torch.div(a, b), { dtype: "float32", shape: [5], values: [3.5, -3.5, -3.5, 3.5, 2] });
      expectTensor(torch.div(a, b, { roundingMode: "trunc" }), { dtype: "int32", shape: [5], values: [3, -3, -3, 3, 2] });
      expectTensor(torch.div(a, b, { roundingMode: "floor" }), { dtype: "int32", shape: [5], values: [3, -4, -4, 3, 2] });
      const x = torch.tensor([7.5, -7.5, 7.5, -7.5], { dtype: "float32" });
      const y = torch.tensor([2, 2, -2, -2], { dtype: "float32" });
      expectTensor(x.div(y, { roundingMode: "trunc" }), { dtype: "float32", shape: [4], values: [3, -3, -3, 3] });
      expectTensor(x.div(y, { roundingMode: "floor" }), { dtype: "float32", shape: [4], values: [3, -4, -4, 3] });
      expectTensor(x.div(0), { dtype: "float32", shape: [4], values: [Infinity, -Infinity, Infinity, -Infinity] });
    });
  });

  test("comparisons give bool, NaN compares unequal, scalars allowed", () => {
    scoped(() => {
      const a = torch.tensor([1, NaN, 3, -0], { dtype: "float32" });
      const b = torch.tensor([1, NaN, 2, 0], { dtype: "float32" });
      expectTensor(a.eq(b), { dtype: "bool", shape: [4], values: [1, 0, 0, 1] });
      expectTensor(a.ne(b), { dtype: "bool", shape: [4], values: [0, 1, 1, 0] });
      expectTensor(a.lt(2), { dtype: "bool", shape: [4], values: [1, 0, 0, 1] });
      expectTensor(a.le(1), { dtype: "bool", shape: [4], values: [1, 0, 0, 1] });
      expectTensor(torch.gt(a, b), { dtype: "bool", shape: [4], values: [0, 0, 1, 0] });
      expectTensor(torch.ge(a, 3), { dtype: "bool", shape: [4], values: [0, 0, 1, 0] });
      const i = torch.tensor([1, 2, 3], { dtype: "int64" });
      expectTensor(i.lt(2.5), { dtype: "bool", shape: [3], values: [1, 1, 0] });
    });
  });

  test("NaN propagates through maximum/minimum and relu keeps it", () => {
    scoped(() => {
      const a = torch.tensor([NaN, 1, -Infinity], { dtype: "float32" });
      const b = torch.tensor([0, NaN, 5], { dtype: "float32" });
      expectTensor(a.maximum(b), { dtype: "float32", shape: [3], values: [NaN, NaN, 5] });
      expectTensor(a.minimum(b), { dtype: "float32", shape: [3], values: [NaN, NaN, -Infinity] });
      expectTensor(a.relu(), { dtype: "float32", shape: [3], values: [NaN, 1, 0] });
    });
  });

  test("where with broadcasting and scalar branches", () => {
    scoped(() => {
      const c = torch.tensor([[true], [false]]);
      const x = torch.tensor([1, 2, 3], { dtype: "float32" });
      expectTensor(torch.where(c, x, 0), { dtype: "float32", shape: [2, 3], values: [1, 2, 3, 0, 0, 0] });
      expectTensor(x.where(x.gt(1.5), -1), { dtype: "float32", shape: [3], values: [-1, 2, 3] });
      expectTensor(torch.where(c, 1, 2.5), { dtype: "float32", shape: [2, 1], values: [1, 2.5] });
      expect(() => torch.where(x, x, x)).toThrow(/condition must be a bool tensor/);
    });
  });

  test("bool arithmetic follows PyTorch (add is or, mul is and, sub is an error)", () => {
    scoped(() => {
      const a = torch.tensor([true, true, false, false]);
      const b = torch.tensor([true, false, true, false]);
      expectTensor(a.add(b), { dtype: "bool", shape: [4], values: [1, 1, 1, 0] });
      expectTensor(a.mul(b), { dtype: "bool", shape: [4], values: [1, 0, 0, 0] });
      expectTensor(a.add(1), { dtype: "int64", shape: [4], values: [2, 2, 1, 1] });
      expect(() => a.sub(b)).toThrow(torch.DTypeError);
      expect(() => a.neg()).toThrow(torch.DTypeError);
    });
  });

  test("float16 and bfloat16 compute in their own dtype and promote to float32 together", () => {
    scoped(() => {
      const a = torch.tensor([1, 2, 3, 4], { dtype: "bfloat16" });
      const b = torch.tensor([0.5, 0.25, 1, 2], { dtype: "float16" });
      expectTensor(a.add(b), { dtype: "float32", shape: [4], values: [1.5, 2.25, 4, 6] });
      expectTensor(b.sum(), { dtype: "float16", shape: [], values: [3.75] });
      expectTensor(b.mul(3), { dtype: "float16", shape: [4], values: [1.5, 0.75, 3, 6] });
      expectTensor(a.reshape(2, 2).matmul(a.reshape(2, 2)), { dtype: "bfloat16", shape: [2, 2], values: [7, 10, 15, 22] });
    });
  });

  test("0-d tensors and scalars", () => {
    scoped(() => {
      const s = torch.tensor(2.5);
      expect(s.shape).toEqual([]);
      const r = s.mul(s);
      expect(r.item()).toBe(6.25);
      expect(r.shape).toEqual([]);
      r.dispose();
      expectTensor(torch.add(s, torch.tensor([1, 2], { dtype: "float32" })), { dtype: "float32", shape: [2], values: [3.5, 4.5] });
      expectTensor(torch.sub(10, torch.tensor([1, 2], { dtype: "int32" })), { dtype: "int32", shape: [2], values: [9, 8] });
      const big = torch.tensor([1n, 2n]).add(2n ** 40n);
      expect(big.dtype).toBe("int64");
      expect(big.tolist()).toEqual([2 ** 40 + 1, 2 ** 40 + 2]);
      expect(big.tolist({ bigint: true })).toEqual([2n ** 40n + 1n, 2n ** 40n + 2n]);
      big.dispose();
    });
  });
});

describe("eager reductions", () => {
  eagerSuite();

  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const prod = (xs: number[]) => xs.reduce((a, b) => a * b, 1);
  const max = (xs: number[]) => (xs.some(Number.isNaN) ? NaN : Math.max(...xs));
  const min = (xs: number[]) => (xs.some(Number.isNaN) ? NaN : Math.min(...xs));
  const mean = (xs: number[]) => sum(xs) / xs.length;

  test("sum/mean/prod/amax/amin over dims, negative dims, lists, keepdim", () => {
    scoped(() => {
      const { t, ref } = mk([2, 3, 4]);
      const cases: Array<[number | number[] | undefined, number[]]> = [
        [undefined, [0, 1, 2]],
        [1, [1]],
        [-1, [2]],
        [[0, -1], [0, 2]],
        [[], [0, 1, 2]],
      ];
      for (const [dim, dims] of cases) {
        for (const keepdim of [false, true]) {
          const opts = dim === undefined ? { keepdim } : { dim, keepdim };
          const tol = 1e-5;
          expectTensor(t.sum(opts), { dtype: "float32", ...reduceRef(ref, dims, sum, keepdim) }, tol);
          expectTensor(t.mean(opts), { dtype: "float32", ...reduceRef(ref, dims, mean, keepdim) }, tol);
          expectTensor(t.prod(opts), { dtype: "float32", ...reduceRef(ref, dims, prod, keepdim) }, 1e-4);
          expectTensor(t.amax(opts), { dtype: "float32", ...reduceRef(ref, dims, max, keepdim) });
          expectTensor(t.amin(opts), { dtype: "float32", ...reduceRef(ref, dims, min, keepdim) });
        }
      }
    });
  });

  test("integer and bool sums accumulate in int64; mean of integers is an error", () => {
    scoped(() => {
      const i = torch.tensor([[1, 2], [3, 4]], { dtype: "int8" });
      expectTensor(i.sum(), { dtype: "int64", shape: [], values: [10] });
      expectTensor(i.prod({ dim: 0 }), { dtype: "int64", shape: [2], values: [3, 8] });
      expectTensor(torch.tensor([true, true, false]).sum(), { dtype: "int64", shape: [], values: [2] });
      expectTensor(i.sum({ dtype: "float32" }), { dtype: "float32", shape: [], values: [10] });
      expect(() => i.mean()).toThrow(/mean: could not infer the output dtype/);
      expectTensor(i.mean({ dtype: "float64" }), { dtype: "float64", shape: [], values: [2.5] });
      expectTensor(i.amax({ dim: 1 }), { dtype: "int8", shape: [2], values: [2, 4] });
    });
  });

  test("max/min with dim give values and first indices; NaN wins", () => {
    scoped(() => {
      const x = torch.tensor([[1, 7, 7], [NaN, 2, NaN], [-1, -5, -5]], { dtype: "float32" });
      const { values, indices } = x.max({ dim: 1 });
      expectTensor(values, { dtype: "float32", shape: [3], values: [7, NaN, -1] });
      expectTensor(indices, { dtype: "int64", shape: [3], values: [1, 0, 0] });
      const m = torch.min(x, { dim: -1, keepdim: true });
      expectTensor(m.values, { dtype: "float32", shape: [3, 1], values: [1, NaN, -5] });
      expectTensor(m.indices, { dtype: "int64", shape: [3, 1], values: [0, 0, 1] });
      expectTensor(x.max(), { dtype: "float32", shape: [], values: [NaN] });
      expectTensor(x.max(torch.tensor(0, { dtype: "float32" })), { dtype: "float32", shape: [3, 3], values: [1, 7, 7, NaN, 2, NaN, 0, 0, 0] });
    });
  });

  test("argmax/argmin over the flattened tensor or a dim", () => {
    scoped(() => {
      const x = torch.tensor([[3, 9, 2], [9, 0, 0]], { dtype: "int32" });
      expectTensor(x.argmax(), { dtype: "int64", shape: [], values: [1] });
      expectTensor(x.argmin(), { dtype: "int64", shape: [], values: [4] });
      expectTensor(torch.argmax(x, { dim: 0 }), { dtype: "int64", shape: [3], values: [1, 0, 0] });
      expectTensor(torch.argmin(x, { dim: -1, keepdim: true }), { dtype: "int64", shape: [2, 1], values: [2, 1] });
      expectTensor(x.argmax({ keepdim: true }), { dtype: "int64", shape: [1, 1], values: [1] });
    });
  });

  test("empty and 0-d reductions", () => {
    scoped(() => {
      const empty = torch.tensor(new Float32Array(0), { shape: [2, 0] });
      expectTensor(empty.sum(), { dtype: "float32", shape: [], values: [0] });
      expectTensor(empty.sum({ dim: 1 }), { dtype: "float32", shape: [2], values: [0, 0] });
      expectTensor(empty.prod({ dim: 1 }), { dtype: "float32", shape: [2], values: [1, 1] });
      expectTensor(empty.mean({ dim: 1 }), { dtype: "float32", shape: [2], values: [NaN, NaN] });
      expectTensor(empty.sum({ dim: 0 }), { dtype: "float32", shape: [0], values: [] });
      expect(() => empty.amax({ dim: 1 })).toThrow(torch.ShapeError);
      expect(() => empty.argmax()).toThrow(torch.ShapeError);
      const s = torch.tensor(4, { dtype: "float32" });
      expectTensor(s.sum(), { dtype: "float32", shape: [], values: [4] });
      expectTensor(s.sum({ dim: -1 }), { dtype: "float32", shape: [], values: [4] });
      expectTensor(s.amax({ dim: 0, keepdim: true }), { dtype: "float32", shape: [], values: [4] });
      expectTensor(s.argmax({ dim: 0 }), { dtype: "int64", shape: [], values: [0] });
      const mv = s.max({ dim: 0 });
      expectTensor(mv.values, { dtype: "float32", shape: [], values: [4] });
      expectTensor(mv.indices, { dtype: "int64", shape: [], values: [0] });
    });
  });

  test("softmax and logSoftmax along dims, stable for large values", () => {
    scoped(() => {
      const values = [1, 2, 3, 1000, 1001, 1002, -Infinity, 0, -Infinity];
      const x = torch.tensor(new Float32Array(values), { shape: [3, 3] });
      const rowSoftmax = (row: number[]) => {
        const m = Math.max(...row);
        const ex = row.map((v) => Math.exp(v - m));
        const s = ex.reduce((a, b) => a + b, 0);
        return ex.map((v) => v / s);
      };
      const want = [0, 1, 2].flatMap((r) => rowSoftmax(values.slice(3 * r, 3 * r + 3)));
      expectTensor(x.softmax(-1), { dtype: "float32", shape: [3, 3], values: want });
      expectTensor(torch.logSoftmax(x, 1), { dtype: "float32", shape: [3, 3], values: want.map(Math.log) }, 1e-5);
      const col = torch.softmax(torch.tensor([[0, 0], [Math.log(3), 0]], { dtype: "float32" }), 0);
      expectTensor(col, { dtype: "float32", shape: [2, 2], values: [0.25, 0.5, 0.75, 0.5] });
      expect(() => torch.tensor([1, 2]).softmax(0)).toThrow(torch.DTypeError);
      expectTensor(torch.tensor([1, 2]).softmax(0, { dtype: "float64" }), { dtype: "float64", shape: [2], values: rowSoftmax([1, 2]) }, 1e-12);
    });
  });
});

describe("eager shape ops and matmul", () => {
  eagerSuite();

  test("reshape/view with -1, transpose, permute, unsqueeze, squeeze", () => {
    scoped(() => {
      const x = torch.tensor(new Float32Array([0, 1, 2, 3, 4, 5]), { shape: [2, 3] });
      expectTensor(x.reshape(3, -1), { dtype: "float32", shape: [3, 2], values: [0, 1, 2, 3, 4, 5] });
      expectTensor(x.view([-1]), { dtype: "float32", shape: [6], values: [0, 1, 2, 3, 4, 5] });
      expectTensor(x.reshape([2, 3]), { dtype: "float32", shape: [2, 3], values: [0, 1, 2, 3, 4, 5] });
      expectTensor(x.transpose(0, -1), { dtype: "float32", shape: [3, 2], values: [0, 3, 1, 4, 2, 5] });
      const y = x.reshape(1, 2, 3);
      expectTensor(y.permute(2, 0, 1), { dtype: "float32", shape: [3, 1, 2], values: [0, 3, 1, 4, 2, 5] });
      expectTensor(torch.permute(y, [-1, -2, -3]), { dtype: "float32", shape: [3, 2, 1], values: [0, 3, 1, 4, 2, 5] });
      expectTensor(x.unsqueeze(-1), { dtype: "float32", shape: [2, 3, 1], values: [0, 1, 2, 3, 4, 5] });
      expectTensor(x.unsqueeze(0), { dtype: "float32", shape: [1, 2, 3], values: [0, 1, 2, 3, 4, 5] });
      expectTensor(y.squeeze(), { dtype: "float32", shape: [2, 3], values: [0, 1, 2, 3, 4, 5] });
      expectTensor(y.squeeze(1), { dtype: "float32", shape: [1, 2, 3], values: [0, 1, 2, 3, 4, 5] });
      expectTensor(y.squeeze([0, 2]), { dtype: "float32", shape: [2, 3], values: [0, 1, 2, 3, 4, 5] });
      expect(() => x.reshape(4, -1)).toThrow(/shape \[4, -1\] is invalid for input of size 6/);
      expect(() => x.permute(0, 0)).toThrow(torch.ShapeError);
      expect(() => x.transpose(0, 2)).toThrow(/dimension 2 is out of range for a 2-d tensor/);
    });
  });

  test("expand, broadcastTo and cat (with promotion)", () => {
    scoped(() => {
      const x = torch.tensor([[1], [2]], { dtype: "int32" });
      expectTensor(x.expand(2, 3), { dtype: "int32", shape: [2, 3], values: [1, 1, 1, 2, 2, 2] });
      expectTensor(x.expand([2, 2, -1]), { dtype: "int32", shape: [2, 2, 1], values: [1, 2, 1, 2] });
      expectTensor(torch.broadcastTo(x, [1, 2, 2]), { dtype: "int32", shape: [1, 2, 2], values: [1, 1, 2, 2] });
      expect(() => x.expand(3, 1)).toThrow(/only size-1 dims can be expanded/);
      const f = torch.tensor([[0.5, 1.5]], { dtype: "float32" });
      expectTensor(torch.cat([x.expand(2, 2), f], 0), { dtype: "float32", shape: [3, 2], values: [1, 1, 2, 2, 0.5, 1.5] });
      expectTensor(torch.cat([x, x], -1), { dtype: "int32", shape: [2, 2], values: [1, 1, 2, 2] });
      expectTensor(torch.cat([x, torch.tensor([], { dtype: "int32" })]), { dtype: "int32", shape: [2, 1], values: [1, 2] });
      expect(() => torch.cat([x, f], 1)).toThrow(/sizes of tensors must match except in dimension 1/);
    });
  });

  test("matmul covers every PyTorch case against float64 references", () => {
    scoped(() => {
      const cases: Array<[number[], number[], number[]]> = [
        [[3], [3], []],
        [[2, 3], [3, 4], [2, 4]],
        [[3], [3, 4], [4]],
        [[2, 3], [3], [2]],
        [[5, 2, 3], [3], [5, 2]],
        [[3], [5, 3, 4], [5, 4]],
        [[5, 2, 3], [3, 4], [5, 2, 4]],
        [[2, 3], [5, 3, 4], [5, 2, 4]],
        [[2, 1, 2, 3], [5, 3, 4], [2, 5, 2, 4]],
        [[0, 3], [3, 2], [0, 2]],
        [[2, 0], [0, 2], [2, 2]],
      ];
      for (const [sa, sb, so] of cases) {
        const a = mk(sa, 3);
        const b = mk(sb, 4);
        // reference: batch-broadcast by brute force over the output's batch index
        const k = sa.at(-1)!;
        const n = sa.length >= 2 ? sa.at(-2)! : 1;
        const m = sb.length >= 2 ? sb.at(-1)! : 1;
        const batchA = sa.length > 2 ? sa.slice(0, -2) : [];
        const batchB = sb.length > 2 ? sb.slice(0, -2) : [];
        const batch = elementwise([{ shape: batchA, values: [0] }, { shape: batchB, values: [0] }], () => 0).shape;
        const values: number[] = [];
        for (let bi = 0; bi < numel(batch); bi++) {
          const idx = (shape: number[]) => {
            let off = 0;
            let rest = bi;
            const full: number[] = [];
            for (let d = batch.length - 1; d >= 0; d--) {
              full.unshift(rest % batch[d]!);
              rest = Math.floor(rest / batch[d]!);
            }
            const lead = batch.length - shape.length;
            for (let d = 0; d < shape.length; d++) off = off * shape[d]! + (shape[d] === 1 ? 0 : full[lead + d]!);
            return off;
          };
          const am = a.ref.values.slice(idx(batchA) * n * k, (idx(batchA) + 1) * n * k);
          const bm = b.ref.values.slice(idx(batchB) * k * m, (idx(batchB) + 1) * k * m);
          values.push(...mm(am, bm, n, k, m));
        }
        expectTensor(a.t.matmul(b.t), { dtype: "float32", shape: so, values }, 1e-5);
      }
    });
  });
});
