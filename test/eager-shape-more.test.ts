// The shape ops of src/ops/api/shape_more.ts and the creation ops of creation_ops.ts on the real CPU
// plugin: a few values against hand-computed references, and the typed errors raised before dispatch.
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
      expect(() => torch.zeros([2], { dtype: "float99" as torch.DType })).toThrow(torch.DTypeError);
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

  test("*Like take dtype and device from the tensor unless given", () =>
    scoped(() => {
      const x = torch.tensor([1, 2, 3], { dtype: "int16", device: "cpu:1" });
      const z = torch.zerosLike(x);
      expect(z.device).toBe("cpu:1");
      expectTensor(z, { dtype: "int16", shape: [3], values: [0, 0, 0] });
      expectTensor(torch.onesLike(x, { dtype: "float64" }), { dtype: "float64", shape: [3], values: [1, 1, 1] });
      expectTensor(torch.fullLike(x, 2.9), { dtype: "int16", shape: [3], values: [2, 2, 2] });
      expectTensor(torch.emptyLike(x, { device: "cpu:0" }), { dtype: "int16", shape: [3], values: [0, 0, 0] });
      const y = torch.zeros([2], { device: "cpu:1" });
      expect(y.device).toBe("cpu:1");
    }));
});
