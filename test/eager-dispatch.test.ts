// Eager dispatch: PyTorch's type promotion (as a table), the executable cache and its stats,
// errors before any native work, mixed devices, and disposed inputs.
import { describe, expect, it } from "vitest";
import * as torch from "../src/index.js";
import { promoteTypes, resultType, type PromotionOperand } from "../src/dtype.js";
import { addon } from "../src/runtime/addon.js";
import * as e from "../src/ops/emit.js";
import type { Tensor } from "../src/tensor.js";
import { dispatch } from "../src/trace/eager.js";
import { eagerSuite, missing, scoped } from "./eager/helpers.js";

const test = missing ? it.skip : it;
if (missing) it.skip(`skipped: ${missing}`, () => {});

// PyTorch 2.x facts (torch.result_type / the dtype of a + b). "t" = a tensor with dims, "0d" = a
// zero-dim tensor, a bare value = a Python scalar.
const promotion: Array<[string, PromotionOperand, PromotionOperand, torch.DType]> = [
  ["int32 t + float16 t", { dtype: "int32", ndim: 1 }, { dtype: "float16", ndim: 1 }, "float16"],
  ["int64 t + 2.5", { dtype: "int64", ndim: 1 }, 2.5, "float32"],
  ["int32 t + 5", { dtype: "int32", ndim: 1 }, 5, "int32"],
  ["uint8 t + 5", { dtype: "uint8", ndim: 1 }, 5, "uint8"],
  ["float16 t + 2.5", { dtype: "float16", ndim: 1 }, 2.5, "float16"],
  ["bool t + bool t", { dtype: "bool", ndim: 1 }, { dtype: "bool", ndim: 1 }, "bool"],
  ["bool t + true", { dtype: "bool", ndim: 1 }, true, "bool"],
  ["bool t + 1", { dtype: "bool", ndim: 1 }, 1, "int64"],
  ["bool t + 1.5", { dtype: "bool", ndim: 1 }, 1.5, "float32"],
  ["int8 t + true", { dtype: "int8", ndim: 1 }, true, "int8"],
  ["uint8 t + int8 t", { dtype: "uint8", ndim: 1 }, { dtype: "int8", ndim: 1 }, "int16"],
  ["uint8 t + int32 t", { dtype: "uint8", ndim: 1 }, { dtype: "int32", ndim: 1 }, "int32"],
  ["float16 t + bfloat16 t", { dtype: "float16", ndim: 1 }, { dtype: "bfloat16", ndim: 1 }, "float32"],
  ["float32 t + float64 t", { dtype: "float32", ndim: 1 }, { dtype: "float64", ndim: 1 }, "float64"],
  ["int64 t + float16 t", { dtype: "int64", ndim: 1 }, { dtype: "float16", ndim: 1 }, "float16"],
  ["int32 t + float64 0d", { dtype: "int32", ndim: 1 }, { dtype: "float64", ndim: 0 }, "float64"],
  ["float32 t + float64 0d", { dtype: "float32", ndim: 1 }, { dtype: "float64", ndim: 0 }, "float32"],
  ["int8 t + int64 0d", { dtype: "int8", ndim: 1 }, { dtype: "int64", ndim: 0 }, "int8"],
  ["int32 0d + int64 0d", { dtype: "int32", ndim: 0 }, { dtype: "int64", ndim: 0 }, "int64"],
  ["int32 0d + 2.5", { dtype: "int32", ndim: 0 }, 2.5, "float32"],
  ["float64 0d + 2.5", { dtype: "float64", ndim: 0 }, 2.5, "float64"],
  ["bool 0d + int16 t", { dtype: "bool", ndim: 0 }, { dtype: "int16", ndim: 1 }, "int16"],
];

describe("type promotion", () => {
  it.each(promotion)("%s → %s", (_, a, b, want) => {
    expect(resultType(a, b)).toBe(want);
    expect(resultType(b, a)).toBe(want);
  });

  it("promoteTypes is symmetric and rejects shell unsigned types with signed ones", () => {
    const names = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64"] as const;
    for (const a of names) for (const b of names) expect(promoteTypes(a, b)).toBe(promoteTypes(b, a));
    expect(() => promoteTypes("uint16", "int32")).toThrow(torch.DTypeError);
    expect(promoteTypes("uint32", "bool")).toBe("uint32");
  });
});

describe("eager dispatch", () => {
  eagerSuite();

  test("the dtypes of real ops follow the promotion table", () => {
    scoped(() => {
      const t = (dtype: torch.DType, ndim = 1) => torch.tensor(ndim === 0 ? 1 : [1, 0], { dtype });
      expect(torch.add(t("int32"), t("float16")).dtype).toBe("float16");
      expect(torch.add(t("int64"), 2.5).dtype).toBe("float32");
      expect(torch.mul(t("int32"), 5).dtype).toBe("int32");
      expect(torch.add(t("bool"), t("bool")).dtype).toBe("bool");
      expect(torch.add(t("int32"), t("float64", 0)).dtype).toBe("float64");
      expect(torch.div(t("int64"), t("int64")).dtype).toBe("float32");
      expect(torch.div(t("int64"), 2, { roundingMode: "floor" }).dtype).toBe("int64");
      expect(torch.exp(t("int32")).dtype).toBe("float32");
      expect(torch.eq(t("uint8"), t("int8")).dtype).toBe("bool");
      expect(torch.add(t("int64"), 2.5).tolist()).toEqual([3.5, 2.5]);
    });
  });

  test("a repeated signature is a cache hit; a new shape, dtype or static arg is a miss", () => {
    scoped(() => {
      torch.runtime.resetStats();
      const a = torch.tensor([1, 2, 3, 4], { dtype: "float32" });
      const b = torch.tensor([10, 20, 30, 40], { dtype: "float32" });
      torch.add(a, b);
      let s = torch.runtime.stats();
      const compiles = s.compiles;
      torch.add(a, b);
      torch.add(b, a);
      s = torch.runtime.stats();
      expect(s.hits).toBeGreaterThanOrEqual(2);
      expect(s.compiles).toBe(compiles);
      const before = torch.runtime.stats();
      torch.add(a, b, { alpha: 2 }); // static arg
      torch.add(a, 3); // scalar
      torch.add(a, 3); // hit
      torch.add(a.reshape(2, 2), b.reshape(2, 2)); // reshape twice (miss + hit), then a new shape
      const after = torch.runtime.stats();
      expect(after.misses - before.misses).toBe(4);
      expect(after.hits - before.hits).toBe(2);
      expect(after.compileTimeMs).toBeGreaterThan(0);
      expect(after.size).toBeGreaterThan(0);
      expect(after.size).toBeLessThanOrEqual(after.capacity);
    });
  });

  test("signatures that share a prefix (same op, fewer inputs) are distinct entries; outputs reuse their signature", () => {
    scoped(() => {
      torch.runtime.clearCache();
      torch.runtime.resetStats();
      const a = torch.tensor([1, 2], { dtype: "float32" });
      expect(torch.cat([a]).tolist()).toEqual([1, 2]); // miss
      expect(torch.cat([a, a]).tolist()).toEqual([1, 2, 1, 2]); // miss: one more input
      expect(torch.cat([a, a, a]).shape).toEqual([6]); // miss
      expect(torch.cat([a]).tolist()).toEqual([1, 2]); // hit
      const c = torch.add(a, a); // miss
      expect(torch.add(c, c).tolist()).toEqual([4, 8]); // an output's signature is known without interning: hit
      expect(torch.add(a, torch.tensor([1, 2], { dtype: "int32" })).dtype).toBe("float32"); // miss: other dtype
      const s = torch.runtime.stats();
      expect([s.misses, s.hits, s.size]).toEqual([5, 2, 5]);
      torch.runtime.clearCache();
      torch.cat([a]); // miss again after clearing
      expect(torch.runtime.stats().misses).toBe(6);
    });
  });

  test("the cache is a bounded LRU that frees what it evicts", () => {
    scoped(() => {
      torch.runtime.clearCache();
      const liveBefore = addon().liveCounts().executables;
      torch.runtime.setCacheCapacity(2);
      try {
        const a = torch.tensor([1, 2], { dtype: "float32" });
        const before = torch.runtime.stats();
        torch.add(a, 1);
        torch.add(a, 2);
        torch.add(a, 1); // hit: now most recent
        torch.add(a, 3); // evicts "+ 2"
        torch.add(a, 1); // still cached
        const s = torch.runtime.stats();
        expect(s.size).toBe(2);
        expect(s.evictions - before.evictions).toBe(1);
        expect(s.hits - before.hits).toBe(2);
        expect(addon().liveCounts().executables).toBe(liveBefore + 2);
      } finally {
        torch.runtime.setCacheCapacity(512);
      }
      torch.runtime.clearCache();
      expect(addon().liveCounts().executables).toBe(liveBefore);
      expect(() => torch.runtime.setCacheCapacity(0)).toThrow(torch.ArgumentError);
    });
  });

  test("an op's last signature is found again after its executable was evicted and recompiled", () => {
    scoped(() => {
      torch.runtime.clearCache();
      torch.runtime.setCacheCapacity(1);
      try {
        const a = torch.tensor([1, 2], { dtype: "float32" });
        const b = torch.tensor([[1, 2, 3]], { dtype: "float32" });
        const before = torch.runtime.stats();
        const sums: number[][] = [];
        sums.push(torch.add(a, 1).tolist() as number[]); // miss
        sums.push(torch.add(a, 1).tolist() as number[]); // hit
        torch.mul(a, 2); // evicts add
        sums.push(torch.add(a, 1).tolist() as number[]); // miss: compiled again
        sums.push(torch.add(a, 1).tolist() as number[]); // hit, not another miss
        torch.add(b, 1); // another signature of add: evicts the first
        sums.push(torch.add(a, 1).tolist() as number[]); // miss
        const s = torch.runtime.stats();
        expect(s.misses - before.misses).toBe(5);
        expect(s.hits - before.hits).toBe(2);
        for (const sum of sums) expect(sum).toEqual([2, 3]);
      } finally {
        torch.runtime.setCacheCapacity(512);
      }
      torch.runtime.clearCache();
    });
  });

  test("a unit's intermediates never reach JS: one output buffer per call", () => {
    scoped(() => {
      const x = torch.tensor([[1, 2, 3], [4, 5, 6]], { dtype: "float32" });
      x.softmax(-1).dispose(); // compile
      const buffers = addon().liveCounts().buffers;
      const tensors = torch.memory().numTensors;
      const y = x.softmax(-1);
      expect(addon().liveCounts().buffers).toBe(buffers + 1);
      expect(torch.memory().numTensors).toBe(tensors + 1);
      y.dispose();
    });
  });

  test("errors name the op, shapes and fix, and come before any compile", () => {
    scoped(() => {
      const a = torch.tensor(new Float32Array(6), { shape: [2, 3] });
      const b = torch.tensor(new Float32Array(20), { shape: [4, 5] });
      const before = torch.runtime.stats();
      const live = addon().liveCounts().executables;
      expect(() => torch.matmul(a, b)).toThrow(new torch.ShapeError("matmul: shapes [2, 3] and [4, 5] cannot be multiplied (3 != 4)"));
      expect(() => torch.add(a, torch.tensor([1, 2, 3, 4], { dtype: "float32" }))).toThrow(
        /add: shapes \[2, 3\] and \[4\] cannot be broadcast together \(dimension -1: 3 vs 4\)/,
      );
      expect(() => a.sum({ dim: 2 })).toThrow(/sum: dimension 2 is out of range for a 2-d tensor \(expected a dim in \[-2, 1\]\)/);
      expect(() => a.sum({ dim: [1, -1] })).toThrow(/dim 1 appears more than once/);
      expect(() => a.matmul(torch.tensor([1, 2, 3], { dtype: "int32" }))).toThrow(torch.DTypeError);
      expect(() => torch.matmul(torch.tensor(1.5), a)).toThrow(/at least 1 dimension/);
      expect(() => torch.add(1, 2)).toThrow(torch.ArgumentError);
      expect(() => torch.add(a, [1, 2, 3] as never)).toThrow(/add\(input, other, \*, alpha = 1\): "other" must be a Tensor or number, bigint or boolean, got \[number 1, number 2, number 3\]/);
      expect(() => torch.div(a, a, { roundingMode: "round" as never })).toThrow(torch.ArgumentError);
      const after = torch.runtime.stats();
      expect(after.compiles).toBe(before.compiles);
      expect(addon().liveCounts().executables).toBe(live);
    });
  });

  test("mixing devices is a DeviceError; units run on their inputs' device", () => {
    scoped(() => {
      const a = torch.tensor([1, 2], { dtype: "float32" });
      const b = torch.tensor([3, 4], { dtype: "float32", device: "cpu:1" });
      expect(() => torch.add(a, b)).toThrow(torch.DeviceError);
      expect(() => torch.add(a, b)).toThrow(/add: expected all tensors on the same device, but input 1 is on cpu:1 and input 0 is on cpu:0/);
      // an op never run before: refused before anything is traced or compiled
      const compiles = torch.runtime.stats().compiles;
      expect(() => torch.logaddexp(a, b)).toThrow(/logaddexp: expected all tensors on the same device, but input 1 is on cpu:1/);
      expect(torch.runtime.stats().compiles).toBe(compiles);
      const c = b.mul(b);
      expect(c.device).toBe("cpu:1");
      expect(c.tolist()).toEqual([9, 16]);
    });
  });

  test("a disposed input is a DisposedError", () => {
    scoped(() => {
      const a = torch.tensor([1, 2], { dtype: "float32" });
      a.dispose();
      expect(() => a.add(1)).toThrow(torch.DisposedError);
      expect(() => torch.cat([a])).toThrow(torch.DisposedError);
    });
  });

  test("identity units (a reshape to the same shape) still return a new tensor", () => {
    scoped(() => {
      const a = torch.tensor([1, 2, 3], { dtype: "float32" });
      const b = a.reshape(3);
      expect(b).not.toBe(a);
      a.dispose();
      expect(b.tolist()).toEqual([1, 2, 3]);
    });
  });

  test("a unit whose outputs are one value (repeated nodes merged) returns separate tensors", () => {
    scoped(() => {
      const a = torch.tensor([0, 1, 2], { dtype: "float32" });
      const [p, q] = dispatch("twoExps", "", [a], ([x]) => [e.exp(x!), e.exp(x!)]) as Tensor[];
      expect(p).not.toBe(q);
      p!.dispose();
      expect(Array.from(q!.dataSync() as Float32Array)).toEqual([0, 1, 2].map((v) => Math.fround(Math.exp(v))));
    });
  });
});
