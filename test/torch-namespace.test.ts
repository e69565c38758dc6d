// The torch.* functions beyond the PyTorch fixtures (creation, pointwise, reduction and shape
// families hold their values): the dtype rules that return a dtype (the fixture format has no
// dtype results; the expected dtypes below are PyTorch 2.13's own, printed by torch.promote_types
// and torch.result_type), isTensor, aliases that must give exactly what the op they stand for
// gives, the torch.* forms of nn.functional ops against those ops, and which calls return the
// tensor itself (asTensor, asarray).
import { describe, expect, it } from "vitest";
import * as torch from "../src/index.js";
import { eagerSuite, missing, scoped, valuesOf } from "./eager/helpers.js";

const test = missing ? it.skip : it;
if (missing) it.skip(`skipped: ${missing}`, () => {});

const F = torch.nn.functional;
const order = ["float32", "float64", "float16", "bfloat16", "int8", "int16", "int32", "int64", "uint8", "bool"] as const;

/** torch.promote_types(row, column) in PyTorch 2.13, columns in `order`. */
const promoted: Record<(typeof order)[number], string> = {
  float32: "float32 float64 float32 float32 float32 float32 float32 float32 float32 float32",
  float64: "float64 float64 float64 float64 float64 float64 float64 float64 float64 float64",
  float16: "float32 float64 float16 float32 float16 float16 float16 float16 float16 float16",
  bfloat16: "float32 float64 float32 bfloat16 bfloat16 bfloat16 bfloat16 bfloat16 bfloat16 bfloat16",
  int8: "float32 float64 float16 bfloat16 int8 int16 int32 int64 int16 int8",
  int16: "float32 float64 float16 bfloat16 int16 int16 int32 int64 int16 int16",
  int32: "float32 float64 float16 bfloat16 int32 int32 int32 int64 int32 int32",
  int64: "float32 float64 float16 bfloat16 int64 int64 int64 int64 int64 int64",
  uint8: "float32 float64 float16 bfloat16 int16 int16 int32 int64 uint8 uint8",
  bool: "float32 float64 float16 bfloat16 int8 int16 int32 int64 uint8 bool",
};

const same = (a: torch.Tensor, b: torch.Tensor): void => {
  expect(a.dtype).toBe(b.dtype);
  expect(a.shape).toEqual(b.shape);
  expect(valuesOf(a)).toEqual(valuesOf(b));
};

describe("torch namespace", () => {
  eagerSuite();

  it("promoteTypes gives PyTorch's table", () => {
    for (const a of order) {
      expect(order.map((b) => torch.promoteTypes(a, b)).join(" "), a).toBe(promoted[a]);
    }
  });

  test("resultType: dimensioned tensors decide within a category, 0-d tensors and numbers lift it (PyTorch's answers)", () => {
    scoped(() => {
      const t = (v: number[] | number, dtype: torch.DType) => torch.tensor(v, { dtype });
      expect(torch.resultType(t([1], "int32"), 2.5)).toBe("float32");
      expect(torch.resultType(t([1], "int32"), 5)).toBe("int32");
      expect(torch.resultType(t([1], "float16"), 2.5)).toBe("float16");
      expect(torch.resultType(t(1, "float64"), t([1], "int32"))).toBe("float64");
      expect(torch.resultType(t([1], "bool"), 3)).toBe("int64");
      expect(torch.resultType(t(1, "int64"), t([1], "float16"))).toBe("float16");
      expect(torch.resultType(t([1], "uint8"), t([1], "int8"))).toBe("int16");
      expect(torch.resultType(t([1], "int64"), true)).toBe("int64");
      expect(torch.resultType(2, t([1], "bfloat16"))).toBe("bfloat16");
    });
  });

  test("isTensor, and the Tensor methods of the predicates", () => {
    scoped(() => {
      const x = torch.tensor([1, 2], { dtype: "uint8" });
      expect(torch.isTensor(x)).toBe(true);
      expect(torch.isTensor([1, 2])).toBe(false);
      expect(torch.isTensor(null)).toBe(false);
      expect(x.isSigned()).toBe(false);
      expect(x.isComplex()).toBe(false);
      expect(x.isSameSize(torch.zeros([2]))).toBe(true);
      expect(torch.tensor([0.5]).isNonzero()).toBe(true);
    });
  });

  test("aliases give what the op they stand for gives", () => {
    scoped(() => {
      const a = torch.tensor([[1.5, 2], [3, 4]]);
      const b = torch.tensor([[5, 6]], { dtype: "int32" });
      same(torch.concat([a, b]), torch.cat([a, b]));
      same(torch.concatenate([a, b], { axis: 0 }), torch.cat([a, b], 0));
      same(torch.concat([a, a], 1), torch.cat([a, a], 1));
      const y = torch.tensor([[1, 4, 9, 16], [2, 3, 5, 7]]);
      same(torch.trapz(y), torch.trapezoid(y));
      same(torch.trapz(y, { dx: 0.5, dim: 0 }), torch.trapezoid(y, { dx: 0.5, dim: 0 }));
      same(torch.rsub(a, 2), torch.sub(2, a));
      // the same op objects as nn.functional's where torch's signature is F's
      for (const name of ["conv1d", "conv2d", "conv3d", "convTranspose1d", "convTranspose2d", "convTranspose3d", "celu", "selu", "bilinear", "rmsNorm", "pairwiseDistance", "cosineSimilarity", "adaptiveAvgPool1d", "avgPool1d", "pixelShuffle"] as const) {
        expect(torch[name], name).toBe(F[name]);
      }
    });
  });

  test("the torch.* forms of nn.functional ops compute what F's do", () => {
    scoped(() => {
      const x = torch.tensor([[[0.5, -1, 2, 0], [1, 3, -2, 0.25]], [[2, 2, -1, 1], [0, -0.5, 1.5, 4]]]);
      same(torch.dropout(x, 0.3, false), F.dropout(x, 0.3, false));
      same(torch.layerNorm(x, [4]), F.layerNorm(x, [4]));
      same(torch.groupNorm(x, 1, null, null, 1e-3, false), F.groupNorm(x, 1, null, null, 1e-3));
      same(torch.threshold(x, 0.5, -9), F.threshold(x, 0.5, -9));
      same(torch.maxPool1d(x, 2, []), F.maxPool1d(x, 2));
      same(torch.constantPadNd(x, [1, 1], 7), F.pad(x, [1, 1], "constant", 7));
      const [v, i] = torch.adaptiveMaxPool1d(x, 2);
      const [fv, fi] = F.adaptiveMaxPool1d(x, 2, true);
      same(v!, fv!);
      same(i!, fi!);
      const w = torch.tensor([[1, 2], [3, 4], [5, 6]]);
      const ids = torch.tensor([2, 0, 2]);
      same(torch.embedding(w, ids), F.embedding(ids, w));
      const t = torch.tensor([1, -1]);
      const p = torch.tensor([[0.5, 1], [2, 0.25]]);
      const q = torch.tensor([[1, 1], [1, 3]], { dtype: "float32" });
      same(torch.hingeEmbeddingLoss(p, t, 1, 2), F.hingeEmbeddingLoss(p, t, 1, { reduction: "sum" }));
      same(torch.klDiv(p, q, 1), F.klDiv(p, q));
      // batch_norm in training updates the running statistics in place, as F's does
      const [m1, v1, m2, v2] = [torch.zeros([2]), torch.ones([2]), torch.zeros([2]), torch.ones([2])];
      same(torch.batchNorm(x, null, null, m1, v1, true, 0.2, 1e-5, false), F.batchNorm(x, m2, v2, null, null, true, 0.2, 1e-5));
      same(m1, m2);
      same(v1, v2);
    });
  });

  test("asTensor and asarray return the tensor itself when nothing changes, and copy or convert otherwise", () => {
    scoped(() => {
      const x = torch.tensor([1, 2, 3], { dtype: "int32" });
      expect(torch.asTensor(x)).toBe(x);
      expect(torch.asTensor(x, { dtype: "int32", device: "cpu" })).toBe(x);
      expect(torch.asarray(x)).toBe(x);
      const copied = torch.asarray(x, { copy: true });
      expect(copied).not.toBe(x);
      same(copied, x);
      const converted = torch.asTensor(x, { dtype: "float32" });
      expect(converted.dtype).toBe("float32");
      expect(valuesOf(converted)).toEqual([1, 2, 3]);
      expect(() => torch.asarray(x, { dtype: "float32", copy: false })).toThrow(torch.ArgumentError);
      expect(torch.asarray([1.5, 2], { requiresGrad: true }).requiresGrad).toBe(true);
    });
  });

  test("windows: hammingWindow's alpha and beta by name, requiresGrad on the result", () => {
    scoped(() => {
      same(torch.hammingWindow(6, { alpha: 0.5, beta: 0.5 }), torch.hannWindow(6));
      const w = torch.kaiserWindow(5, { requiresGrad: true, dtype: "float64" });
      expect(w.requiresGrad).toBe(true);
      expect(w.dtype).toBe("float64");
    });
  });
});
