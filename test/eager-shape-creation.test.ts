// The shape ops of src/ops/shape/ and the creation ops of src/ops/creation/ on the real CPU plugin: a
// few values against hand-computed references, both of PyTorch's spellings of a call (positional and
// options), and the typed errors raised before dispatch.
import { describe, expect, it } from "vitest";
import * as torch from "../src/index.js";
import { eagerSuite, expectTensor, missing, scoped } from "./eager/helpers.js";

const test = missing ? it.skip : it;
if (missing) it.skip(`skipped: ${missing}`, () => {});

const iota = (n: number): number[] => Array.from({ length: n }, (_, i) => i);
const f = (shape: number[]): torch.Tensor => torch.tensor(new Float32Array(iota(shape.reduce((p, d) => p * d, 1))), { shape });

describe("eager shape ops (more)", () => {
  eagerSuite();

  test("flatten, unflatten, t, mT", () =>
    scoped(() => {
      const x = f([2, 3, 4]);
      expectTensor(torch.flatten(x, { startDim: 1 }), { dtype: "float32", shape: [2, 12], values: iota(24) });
      expectTensor(x.unflatten(-1, [2, -1]), { dtype: "float32", shape: [2, 3, 2, 2], values: iota(24) });
      expectTensor(torch.t(f([2, 3])), { dtype: "float32", shape: [3, 2], values: [0, 3, 1, 4, 2, 5] });
      expectTensor(f([1, 2, 3]).mT, { dtype: "float32", shape: [1, 3, 2], values: [0, 3, 1, 4, 2, 5] });
      expect(() => torch.t(x)).toThrow(torch.ShapeError);
      expect(() => torch.flatten(x, { startDim: 2, endDim: 1 })).toThrow(torch.ShapeError);
    }));

  test("stack, hstack, vstack promote and join", () =>
    scoped(() => {
      const a = torch.tensor([1, 2], { dtype: "int32" });
      const b = torch.tensor([0.5, 1.5]);
      expectTensor(torch.stack([a, b], 1), { dtype: "float32", shape: [2, 2], values: [1, 0.5, 2, 1.5] });
      expectTensor(torch.hstack([a, a]), { dtype: "int32", shape: [4], values: [1, 2, 1, 2] });
      expectTensor(torch.vstack([a, a]), { dtype: "int32", shape: [2, 2], values: [1, 2, 1, 2] });
      expect(() => torch.stack([a, torch.tensor([1, 2, 3])])).toThrow(/equal size/);
    }));

  test("split, chunk, unbind, narrow", () =>
    scoped(() => {
      const x = f([5]);
      const parts = torch.split(x, 2);
      expect(parts.map((p) => [...p.shape])).toEqual([[2], [2], [1]]);
      expectTensor(parts[2]!, { dtype: "float32", shape: [1], values: [4] });
      expect(torch.chunk(x, 2).map((p) => p.shape[0])).toEqual([3, 2]);
      const rows = f([2, 3]).unbind({ dim: 1 });
      expectTensor(rows[1]!, { dtype: "float32", shape: [2], values: [1, 4] });
      expectTensor(torch.narrow(x, 0, -3, 2), { dtype: "float32", shape: [2], values: [2, 3] });
      expect(() => torch.split(x, [1, 3])).toThrow(/sum exactly to 5/);
      expect(() => torch.narrow(x, 0, 4, 2)).toThrow(torch.ShapeError);
    }));

  test("flip, roll, repeat, tile, movedim", () =>
    scoped(() => {
      const x = f([2, 3]);
      expectTensor(torch.flip(x, [0, 1]), { dtype: "float32", shape: [2, 3], values: [5, 4, 3, 2, 1, 0] });
      expectTensor(torch.roll(x, 1), { dtype: "float32", shape: [2, 3], values: [5, 0, 1, 2, 3, 4] });
      expectTensor(torch.roll(x, -1, { dims: 1 }), { dtype: "float32", shape: [2, 3], values: [1, 2, 0, 4, 5, 3] });
      expectTensor(torch.tensor([1, 2]).repeat(2, 2), { dtype: "int64", shape: [2, 4], values: [1, 2, 1, 2, 1, 2, 1, 2] });
      expectTensor(torch.tile(torch.tensor([1, 2]), [3]), { dtype: "int64", shape: [6], values: [1, 2, 1, 2, 1, 2] });
      expectTensor(torch.movedim(x, 0, 1), { dtype: "float32", shape: [3, 2], values: [0, 3, 1, 4, 2, 5] });
      expect(() => x.repeat(2)).toThrow(torch.ShapeError);
    }));

  test("tril, triu, diagonal, diag", () =>
    scoped(() => {
      const x = f([3, 3]);
      expectTensor(torch.tril(x), { dtype: "float32", shape: [3, 3], values: [0, 0, 0, 3, 4, 0, 6, 7, 8] });
      expectTensor(x.triu({ diagonal: 1 }), { dtype: "float32", shape: [3, 3], values: [0, 1, 2, 0, 0, 5, 0, 0, 0] });
      expectTensor(torch.diagonal(x), { dtype: "float32", shape: [3], values: [0, 4, 8] });
      expectTensor(torch.diagonal(x, { offset: -1 }), { dtype: "float32", shape: [2], values: [3, 7] });
      expectTensor(torch.diag(torch.tensor([1, 2]), { diagonal: 1 }), { dtype: "int64", shape: [3, 3], values: [0, 1, 0, 0, 0, 2, 0, 0, 0] });
      expect(() => torch.tril(torch.tensor([1, 2]))).toThrow(/at least 2 dimensions/);
    }));

  test("meshgrid and broadcastTensors", () =>
    scoped(() => {
      const [gx, gy] = torch.meshgrid(torch.tensor([1, 2]), torch.tensor([3, 4, 5]), { indexing: "xy" });
      expectTensor(gx!, { dtype: "int64", shape: [3, 2], values: [1, 2, 1, 2, 1, 2] });
      expectTensor(gy!, { dtype: "int64", shape: [3, 2], values: [3, 3, 4, 4, 5, 5] });
      const [p, q] = torch.broadcastTensors(torch.tensor([[1], [2]]), torch.tensor([7, 8]));
      expectTensor(p!, { dtype: "int64", shape: [2, 2], values: [1, 1, 2, 2] });
      expectTensor(q!, { dtype: "int64", shape: [2, 2], values: [7, 8, 7, 8] });
      expect(() => torch.meshgrid(torch.tensor([1]), torch.tensor([1.5]))).toThrow(torch.DTypeError);
    }));
});

describe("shape ops take PyTorch's positional arguments and the options object alike", () => {
  eagerSuite();

  test("cat and stack: dim positionally or as an option; a misspelled option shows the signature", () =>
    scoped(() => {
      const a = f([2, 2]);
      const b = f([2, 1]);
      for (const c of [torch.cat([a, b], 1), torch.cat([a, b], { dim: 1 }), torch.cat({ tensors: [a, b], dim: -1 })]) {
        expectTensor(c, { dtype: "float32", shape: [2, 3], values: [0, 1, 0, 2, 3, 1] });
      }
      for (const s of [torch.stack([a, a], 2), torch.stack([a, a], { dim: 2 })]) {
        expectTensor(s, { dtype: "float32", shape: [2, 2, 2], values: [0, 0, 1, 1, 2, 2, 3, 3] });
      }
      expect(() => torch.cat([a, b], { dims: 1 } as never)).toThrow(torch.ArgumentError);
      expect(() => torch.cat([a, b], { dims: 1 } as never)).toThrow('cat(tensors, dim = 0): got an unknown option "dims"; did you mean "dim"?');
      const untyped = torch.cat as (...args: unknown[]) => unknown;
      expect(() => untyped([a, b], 1, { dim: 1 })).toThrow('got "dim" both as an argument and as an option');
    }));

  test("varargs or one list: reshape, view, permute, expand, repeat, tile, flip", () =>
    scoped(() => {
      const x = f([2, 3]);
      for (const r of [x.reshape(3, 2), x.reshape([3, 2]), torch.reshape(x, [3, 2]), x.reshape({ shape: [3, 2] }), x.view(3, -1), x.view({ size: [3, 2] })]) {
        expectTensor(r, { dtype: "float32", shape: [3, 2], values: iota(6) });
      }
      for (const p of [x.permute(1, 0), x.permute([1, 0]), torch.permute(x, { dims: [1, 0] })]) {
        expectTensor(p, { dtype: "float32", shape: [3, 2], values: [0, 3, 1, 4, 2, 5] });
      }
      const col = f([2, 1]);
      for (const e of [col.expand(2, 2), col.expand([-1, 2]), col.expand({ size: [2, 2] })]) {
        expectTensor(e, { dtype: "float32", shape: [2, 2], values: [0, 0, 1, 1] });
      }
      for (const r of [col.repeat(1, 2), col.repeat([1, 2]), col.repeat({ repeats: [1, 2] })]) {
        expectTensor(r, { dtype: "float32", shape: [2, 2], values: [0, 0, 1, 1] });
      }
      for (const t of [x.tile(2), x.tile([1, 2]), torch.tile(x, [2]), torch.tile(x, { dims: [2] })]) {
        expectTensor(t, { dtype: "float32", shape: [2, 6], values: [0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5] });
      }
      for (const r of [x.flip(0, 1), x.flip([0, 1]), torch.flip(x, { dims: [0, 1] })]) {
        expectTensor(r, { dtype: "float32", shape: [2, 3], values: [5, 4, 3, 2, 1, 0] });
      }
    }));

  test("flatten, split, chunk, unbind, roll, tril, triu, diagonal, diag, movedim positionally", () =>
    scoped(() => {
      const x = f([2, 3, 2]);
      expectTensor(x.flatten(1), { dtype: "float32", shape: [2, 6], values: iota(12) });
      expectTensor(torch.flatten(x, 0, 1), { dtype: "float32", shape: [6, 2], values: iota(12) });
      expect(x.split(2, 1).map((p) => [...p.shape])).toEqual([[2, 2, 2], [2, 1, 2]]);
      expect(torch.split(x, [1, 2], { dim: 1 }).map((p) => [...p.shape])).toEqual([[2, 1, 2], [2, 2, 2]]);
      expect(x.chunk(2, -1).map((p) => [...p.shape])).toEqual([[2, 3, 1], [2, 3, 1]]);
      expectTensor(x.unbind(2)[1]!, { dtype: "float32", shape: [2, 3], values: [1, 3, 5, 7, 9, 11] });
      const m = f([3, 3]);
      expectTensor(torch.roll(m, 1, 0), { dtype: "float32", shape: [3, 3], values: [6, 7, 8, 0, 1, 2, 3, 4, 5] });
      expectTensor(m.roll([1, -1], [0, 1]), { dtype: "float32", shape: [3, 3], values: [7, 8, 6, 1, 2, 0, 4, 5, 3] });
      expectTensor(torch.triu(m, 1), { dtype: "float32", shape: [3, 3], values: [0, 1, 2, 0, 0, 5, 0, 0, 0] });
      expectTensor(m.tril(-1), { dtype: "float32", shape: [3, 3], values: [0, 0, 0, 3, 0, 0, 6, 7, 0] });
      expectTensor(m.diagonal(1), { dtype: "float32", shape: [2], values: [1, 5] });
      expectTensor(torch.diagonal(x, 0, 0, 2), { dtype: "float32", shape: [3, 2], values: [0, 7, 2, 9, 4, 11] });
      expectTensor(torch.diag(m, -1), { dtype: "float32", shape: [2], values: [3, 7] });
      expectTensor(x.movedim({ source: 2, destination: 0 }), { dtype: "float32", shape: [2, 2, 3], values: [0, 2, 4, 6, 8, 10, 1, 3, 5, 7, 9, 11] });
    }));

  test("meshgrid, broadcastTensors and broadcastShapes: varargs or one list", () =>
    scoped(() => {
      const a = torch.tensor([1, 2]);
      const b = torch.tensor([3, 4, 5]);
      for (const [gx] of [torch.meshgrid(a, b), torch.meshgrid([a, b]), torch.meshgrid([a, b], { indexing: "ij" })]) {
        expectTensor(gx!, { dtype: "int64", shape: [2, 3], values: [1, 1, 1, 2, 2, 2] });
      }
      expect(() => torch.meshgrid(a, b, { indexing: "yx" } as never)).toThrow(/"indexing" must be a "ij" or "xy", got string "yx"/);
      for (const [, q] of [torch.broadcastTensors(a.reshape(2, 1), b), torch.broadcastTensors([a.reshape(2, 1), b])]) {
        expectTensor(q!, { dtype: "int64", shape: [2, 3], values: [3, 4, 5, 3, 4, 5] });
      }
      expect(torch.broadcastShapes([2, 1], [3])).toEqual([2, 3]);
      expect(torch.broadcastShapes([[2, 1], [3]])).toEqual([2, 3]);
      expect(torch.broadcastShapes([5, 1, 4])).toEqual([5, 1, 4]);
      expect(torch.broadcastShapes({ shapes: [[1], [2, 1]] })).toEqual([2, 1]);
      expect(() => torch.broadcastShapes([2], [3])).toThrow(torch.ShapeError);
    }));
});

describe("eager creation ops", () => {
  eagerSuite();

  test("zeros, ones, full, empty with dtype defaults", () =>
    scoped(() => {
      expectTensor(torch.zeros(2, 2), { dtype: "float32", shape: [2, 2], values: [0, 0, 0, 0] });
      expectTensor(torch.ones([3], { dtype: "int8" }), { dtype: "int8", shape: [3], values: [1, 1, 1] });
      expectTensor(torch.full([2], 7), { dtype: "int64", shape: [2], values: [7, 7] });
      expectTensor(torch.full([2], -2.5, { dtype: "int32" }), { dtype: "int32", shape: [2], values: [-2, -2] });
      expectTensor(torch.empty([2]), { dtype: "float32", shape: [2], values: [0, 0] });
      expect(() => torch.full([2], 300, { dtype: "uint8" })).toThrow(torch.TorchError);
      expect(() => torch.zeros([-1])).toThrow(torch.ShapeError);
      expect(() => torch.zeros([2], { dtype: "float99" as torch.DType })).toThrow(torch.ArgumentError);
      expect(() => torch.zeros([2], { dtype: "float99" as torch.DType })).toThrow(/zeros\(\.\.\.size, \*, dtype\?, device\?, requiresGrad = false\): "dtype" must be a dtype, got string "float99"/);
    }));

  test("arange, linspace, logspace, eye", () =>
    scoped(() => {
      expectTensor(torch.arange(5), { dtype: "int64", shape: [5], values: [0, 1, 2, 3, 4] });
      expectTensor(torch.arange(1, 2, 0.25), { dtype: "float32", shape: [4], values: [1, 1.25, 1.5, 1.75] });
      expectTensor(torch.linspace(0, 1, 5), { dtype: "float32", shape: [5], values: [0, 0.25, 0.5, 0.75, 1] });
      expectTensor(torch.logspace(0, 3, 4, { base: 2 }), { dtype: "float32", shape: [4], values: [1, 2, 4, 8] }, 1e-5);
      expectTensor(torch.eye(2, 3), { dtype: "float32", shape: [2, 3], values: [1, 0, 0, 0, 1, 0] });
      expect(() => torch.arange(0, 10, -1)).toThrow(/inconsistent with step sign/);
      expect(() => torch.arange(0, 1, 0)).toThrow(torch.TorchError);
    }));

  test("sizes as varargs or one list; dtype, device and requiresGrad are keyword-only", () =>
    scoped(() => {
      for (const z of [torch.zeros(2, 3), torch.zeros([2, 3]), torch.zeros({ size: [2, 3] }), torch.zeros(2, 3, { dtype: "float32" })]) {
        expectTensor(z, { dtype: "float32", shape: [2, 3], values: [0, 0, 0, 0, 0, 0] });
      }
      expectTensor(torch.ones(2, { dtype: "int32" }), { dtype: "int32", shape: [2], values: [1, 1] });
      expectTensor(torch.zeros([]), { dtype: "float32", shape: [], values: [0] });
      for (const e of [torch.empty(2, 2, { dtype: "int16" }), torch.empty({ size: [2, 2], dtype: "int16" })]) {
        expectTensor(e, { dtype: "int16", shape: [2, 2], values: [0, 0, 0, 0] });
      }
      expectTensor(torch.full({ size: [2], fillValue: 1.5 }), { dtype: "float32", shape: [2], values: [1.5, 1.5] });
      expectTensor(torch.arange({ end: 3 }), { dtype: "int64", shape: [3], values: [0, 1, 2] });
      expectTensor(torch.arange(1, { end: 4, step: 2 }), { dtype: "int64", shape: [2], values: [1, 3] });
      expectTensor(torch.arange({ start: 1, end: 2, step: 0.5, dtype: "float64" }), { dtype: "float64", shape: [2], values: [1, 1.5] });
      expectTensor(torch.eye(2, { m: 3, dtype: "int32" }), { dtype: "int32", shape: [2, 3], values: [1, 0, 0, 0, 1, 0] });
      expectTensor(torch.logspace(0, 2, 3, 2), { dtype: "float32", shape: [3], values: [1, 2, 4] }, 1e-6);
      const g = torch.zeros(2, { requiresGrad: true });
      expect(g.requiresGrad).toBe(true);
      expect(torch.ones(2).requiresGrad).toBe(false);
      expect(torch.arange(0, 1, 0.5, { requiresGrad: true }).requiresGrad).toBe(true);
      expect(torch.tensor([1.5], { requiresGrad: true }).requiresGrad).toBe(true);
      expect(() => torch.zeros(2, { dtype: "int32", requiresGrad: true })).toThrow(torch.DTypeError);
      expect(() => torch.arange(3, { requiresGrad: true })).toThrow(/only tensors of floating point dtype can require gradients, got int64/);
      expect(() => torch.zeros(2, "int32" as never)).toThrow(/"size" must be a list of int/);
      expect(() => torch.full([2], 1, "int32" as never)).toThrow(/takes at most 2 positional arguments, got 3 \(the parameters after \* go in the options object\)/);
      expect(() => torch.zeros()).toThrow('zeros(...size, *, dtype?, device?, requiresGrad = false): missing the required argument "size"');
    }));

  test("*Like take dtype and device from the tensor unless given", () =>
    scoped(() => {
      const x = torch.tensor([1, 2, 3], { dtype: "int16", device: "cpu:1" });
      const z = torch.zerosLike(x);
      expect(z.device).toBe("cpu:1");
      expectTensor(z, { dtype: "int16", shape: [3], values: [0, 0, 0] });
      expectTensor(torch.onesLike(x, { dtype: "float64" }), { dtype: "float64", shape: [3], values: [1, 1, 1] });
      expectTensor(torch.fullLike(x, 2.9), { dtype: "int16", shape: [3], values: [2, 2, 2] });
      expectTensor(torch.emptyLike(x, { device: "cpu:0" }), { dtype: "int16", shape: [3], values: [0, 0, 0] });
      expectTensor(torch.emptyLike(x, { dtype: "uint8" }), { dtype: "uint8", shape: [3], values: [0, 0, 0] });
      expect(torch.onesLike(x, { dtype: "float32", requiresGrad: true }).requiresGrad).toBe(true);
      const y = torch.zeros([2], { device: "cpu:1" });
      expect(y.device).toBe("cpu:1");
    }));
});
