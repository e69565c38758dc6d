// torch.setFloat32MatmulPrecision and how products are lowered: every float32 dot_general and
// convolution carries the setting's precision (float16 ones always HIGHEST), float16/bfloat16 products
// accumulate in float32 and round once, the setting is part of the executable cache key, and real
// XLA and libtpu accept the modules (libtpu compiles a different program for each precision).
import { afterEach, describe, expect, it } from "vitest";
import * as torch from "../src/index.js";
import { type Aval, prims } from "../src/ops/prims.js";
import { addon } from "../src/runtime/addon.js";
import { onCompile } from "../src/trace/eager.js";
import { eagerSuite, missing } from "./eager/helpers.js";
import { type UnitCase, unitsOnRealXla } from "./helpers/units.js";

const F = torch.nn.functional;
const PRECISIONS = [["highest", "HIGHEST"], ["high", "HIGH"], ["medium", "DEFAULT"]] as const;
const config = (p: string) => `precision_config = [#stablehlo<precision ${p}>, #stablehlo<precision ${p}>]`;

/** The modules of the units `fn` compiles (the cache is cleared first, so every unit compiles). */
function modules(fn: () => unknown): string[] {
  torch.runtime.clearCache();
  const out: string[] = [];
  const previous = onCompile((_, graph) => out.push(addon().printGraph(graph)));
  try {
    torch.tidy(() => void fn());
  } finally {
    onCompile(previous);
  }
  return out;
}

/** The dot_general and convolution lines of the modules `fn` compiles. */
const products = (fn: () => unknown): string[] =>
  modules(fn).flatMap((m) => m.split("\n").filter((l) => /stablehlo\.(dot_general|convolution)"/.test(l)));

function under<T>(precision: torch.Float32MatmulPrecision, fn: () => T): T {
  const previous = torch.getFloat32MatmulPrecision();
  torch.setFloat32MatmulPrecision(precision);
  try {
    return fn();
  } finally {
    torch.setFloat32MatmulPrecision(previous);
  }
}

const ramp = (n: number, scale = 1) => Array.from({ length: n }, (_, i) => Math.sin(i * 1.3 + 0.2) * scale);
const t = (shape: number[], dtype: torch.DType = "float32", scale = 1) =>
  torch.tensor(ramp(shape.reduce((a, b) => a * b, 1), scale), { shape, dtype });
const ones = (shape: number[], dtype: torch.DType) => torch.ones(shape, { dtype });

describe("torch.setFloat32MatmulPrecision", () => {
  afterEach(() => torch.setFloat32MatmulPrecision("highest"));

  it('defaults to "highest", takes PyTorch\'s three choices and rejects others naming them', () => {
    expect(torch.getFloat32MatmulPrecision()).toBe("highest");
    for (const [p] of PRECISIONS) {
      torch.setFloat32MatmulPrecision(p);
      expect(torch.getFloat32MatmulPrecision()).toBe(p);
    }
    for (const bad of ["max", "HIGHEST", "", 1, undefined, "toString"]) {
      expect(() => torch.setFloat32MatmulPrecision(bad as never)).toThrow(torch.ArgumentError);
    }
    expect(() => torch.setFloat32MatmulPrecision("max" as never)).toThrow(
      'setFloat32MatmulPrecision: precision must be "highest", "high" or "medium", got "max"',
    );
    expect(torch.getFloat32MatmulPrecision()).toBe("medium"); // a rejected value changes nothing
  });

  it("the dot_general and convolution rows print the precision and a wider result type", () => {
    const f16 = (...shape: number[]): Aval => ({ shape, dtype: "float16" });
    const dims = { lhsBatch: [], rhsBatch: [], lhsContract: [1], rhsContract: [0] };
    expect(prims.dot_general.infer([f16(2, 3), f16(3, 4)], { ...dims, dtype: "float32" })).toEqual([{ shape: [2, 4], dtype: "float32" }]);
    expect(prims.dot_general.infer([f16(2, 3), f16(3, 4)], dims)).toEqual([f16(2, 4)]);
    expect(prims.dot_general.lower({ ...dims, precision: "HIGH" }).attrs).toContainEqual({
      name: "precision_config",
      text: "[#stablehlo<precision HIGH>, #stablehlo<precision HIGH>]",
    });
    expect(prims.dot_general.lower(dims).attrs!.map((a) => a.name)).toEqual(["dot_dimension_numbers"]);
    const conv = { strides: [1], padding: [[0, 0]] as const, lhsDilation: [1], rhsDilation: [1], featureGroups: 1, batchGroups: 1 };
    const x: Aval = { shape: [1, 2, 3], dtype: "float32" };
    expect(prims.convolution.lower({ ...conv, precision: "HIGHEST" }, [x]).attrs).toContainEqual({
      name: "precision_config",
      text: "[#stablehlo<precision HIGHEST>, #stablehlo<precision HIGHEST>]",
    });
    expect(prims.convolution.lower(conv, [x]).attrs!.some((a) => a.name === "precision_config")).toBe(false);
  });
});

describe.skipIf(!!missing)("products as lowered", () => {
  eagerSuite();
  afterEach(() => torch.setFloat32MatmulPrecision("highest"));

  it("float32 matmul, linear and convolutions carry the setting's precision", () => {
    for (const [setting, stablehlo] of PRECISIONS) {
      const lines = under(setting, () =>
        products(() => {
          const [a, b] = [t([4, 3]), t([3, 5])];
          a.matmul(b);
          torch.bmm(t([2, 4, 3]), t([2, 3, 5]));
          torch.einsum("ij,jk->ik", a, b);
          F.linear(a, t([5, 3]), t([5]));
          F.conv2d(t([1, 2, 5, 5]), t([3, 2, 3, 3]));
          F.convTranspose1d(t([1, 2, 5]), t([2, 3, 3]));
        }),
      );
      expect(lines.length, setting).toBe(6);
      for (const line of lines) expect(line, setting).toContain(config(stablehlo));
    }
  });

  it("float16 products are HIGHEST whatever the setting; bfloat16, float64 and integer ones carry none", () => {
    const lines = under("medium", () =>
      products(() => {
        t([4, 3], "float16").matmul(t([3, 5], "float16"));
        F.conv1d(t([1, 2, 5], "float16"), t([3, 2, 3], "float16"));
        t([4, 3], "bfloat16").matmul(t([3, 5], "bfloat16"));
        t([4, 3], "float64").matmul(t([3, 5], "float64"));
        torch.tensor([[1, 2]], { dtype: "int32" }).matmul(torch.tensor([[3], [4]], { dtype: "int32" }));
      }),
    );
    expect(lines).toHaveLength(5);
    const [f16dot, f16conv, bf16, f64, i32] = lines as [string, string, string, string, string];
    expect(f16dot).toContain(config("HIGHEST"));
    expect(f16conv).toContain(config("HIGHEST"));
    for (const line of [bf16, f64, i32]) expect(line).not.toContain("precision_config");
  });

  it("float16 and bfloat16 products have a float32 result, rounded once by a convert", () => {
    const [dot] = modules(() => t([4, 3], "bfloat16").matmul(t([3, 5], "bfloat16")));
    expect(dot).toMatch(/"stablehlo\.dot_general".* : \(tensor<4x3xbf16>, tensor<3x5xbf16>\) -> tensor<4x5xf32>/);
    expect(dot).toMatch(/"stablehlo\.convert".* : \(tensor<4x5xf32>\) -> tensor<4x5xbf16>/);
    // the CPU plugin's convolution has one element type throughout: the operands are converted
    const [conv] = modules(() => F.conv1d(t([1, 2, 5], "float16"), t([3, 2, 3], "float16")));
    expect(conv).toMatch(/"stablehlo\.convolution".* : \(tensor<1x2x5xf32>, tensor<3x2x3xf32>\) -> tensor<1x3x3xf32>/);
    expect(conv).toMatch(/"stablehlo\.convert".* : \(tensor<1x3x3xf32>\) -> tensor<1x3x3xf16>/);
    // linear adds its bias to the float32 product before rounding
    const [linear] = modules(() => F.linear(t([2, 3], "float16"), t([4, 3], "float16"), t([4], "float16")));
    expect(linear).toMatch(/"stablehlo\.add".* : \(tensor<2x4xf32>, tensor<2x4xf32>\) -> tensor<2x4xf32>/);
    const [int8] = modules(() => torch.tensor([[100, 100]], { dtype: "int8" }).matmul(torch.tensor([[100], [100]], { dtype: "int8" })));
    expect(int8).toMatch(/-> tensor<1x1xi8>/);
    expect(int8).not.toContain("convert");
  });

  it("products that PyTorch does not compute as matmuls stay HIGHEST under medium", () => {
    const lines = under("medium", () =>
      products(() => {
        F.adaptiveAvgPool2d(t([1, 2, 7, 5]), [3, 2]);
        F.interpolate(t([1, 2, 4, 4]), { size: [6, 6], mode: "bilinear" });
        F.unfold(t([1, 2, 4, 4]), 2);
      }),
    );
    expect(lines.length).toBeGreaterThanOrEqual(5); // two per separable map, one for unfold
    for (const line of lines) expect(line).toContain(config("HIGHEST"));
  });

  it("half products accumulate in float32 and round once: sums of 4096 ones are 4096, not where half sums stall", () => {
    // A float16 running sum stops at 2048 (2048 + 1 rounds back), a bfloat16 one at 256.
    torch.tidy(() => {
      for (const dtype of ["float16", "bfloat16"] as const) {
        expect(torch.matmul(ones([1, 4096], dtype), ones([4096, 1], dtype)).tolist(), dtype).toEqual([[4096]]);
        expect(torch.bmm(ones([2, 1, 4096], dtype), ones([2, 4096, 1], dtype)).tolist(), dtype).toEqual([[[4096]], [[4096]]]);
        expect(torch.dot(ones([4096], dtype), ones([4096], dtype)).item(), dtype).toBe(4096);
        expect(F.conv1d(ones([1, 4096, 1], dtype), ones([1, 4096, 1], dtype)).tolist(), dtype).toEqual([[[4096]]]);
        expect(F.linear(ones([1, 4096], dtype), ones([1, 4096], dtype)).tolist(), dtype).toEqual([[4096]]);
      }
      // addmm rounds once: 1 + 2049 is 2050 in float16, where the product alone rounds to 2048
      const one = (...shape: number[]) => ones(shape, "float16");
      expect(torch.addmm(one(1, 1), one(1, 2049), one(2049, 1)).item()).toBe(2050);
      expect(torch.baddbmm(one(1, 1, 1), one(1, 1, 2049), one(1, 2049, 1), { beta: 0.5, alpha: 2 }).item()).toBe(4100);
    });
  });

  it("the setting is part of the cache key: changing it recompiles, changing it back reuses", () => {
    torch.tidy(() => {
      const [a, b] = [t([4, 3]), t([3, 5])];
      torch.runtime.clearCache();
      const compiles = () => torch.runtime.stats().compiles;
      const start = compiles();
      const expected = a.matmul(b).tolist();
      a.matmul(b);
      expect(compiles() - start).toBe(1);
      // one more executable per setting (the CPU plugin computes in float32 under all three)
      for (const [setting] of PRECISIONS) under(setting, () => expect(a.matmul(b).tolist()).toEqual(expected));
      expect(compiles() - start).toBe(3);
      for (const [setting] of PRECISIONS) under(setting, () => a.matmul(b));
      expect(compiles() - start).toBe(3);
    });
  });
});

// Real XLA runs the modules with our plugin's numbers; libtpu compiles them ahead of time.
const cases: UnitCase[] = [
  ["matmul float32 256", () => [t([256, 256]), t([256, 256], "float32", 0.5)], (a, b) => a!.matmul(b!)],
  ["matmul float32 medium", () => [t([16, 32]), t([32, 8])], (a, b) => under("medium", () => a!.matmul(b!))],
  ["matmul float16 ones", () => [ones([1, 4096], "float16"), ones([4096, 1], "float16")], (a, b) => a!.matmul(b!)],
  ["matmul bfloat16 ones", () => [ones([1, 4096], "bfloat16"), ones([4096, 1], "bfloat16")], (a, b) => a!.matmul(b!)],
  ["bmm float16", () => [t([2, 3, 64], "float16"), t([2, 64, 4], "float16")], (a, b) => torch.bmm(a!, b!)],
  ["conv1d float16 ones", () => [ones([1, 4096, 1], "float16"), ones([1, 4096, 1], "float16")], (x, w) => F.conv1d(x!, w!)],
  ["conv2d float32 high", () => [t([1, 3, 6, 6]), t([4, 3, 3, 3])], (x, w) => under("high", () => F.conv2d(x!, w!))],
  ["linear float16 bias", () => [t([3, 64], "float16"), t([5, 64], "float16"), t([5], "float16")], (x, w, b) => F.linear(x!, w!, b)],
  ["adaptiveAvgPool2d", () => [t([2, 3, 7, 5])], (x) => F.adaptiveAvgPool2d(x!, [3, 2])],
  ["addmm float16 round once", () => [ones([1, 1], "float16"), ones([1, 2049], "float16"), ones([2049, 1], "float16")], (i, a, b) => torch.addmm(i!, a!, b!)],
];
unitsOnRealXla("products", cases, { tol: 1e-5 });

describe.skipIf(!!missing)("libtpu reads the precision", () => {
  const tpu = missing ? undefined : torch.runtime.plugins().find((p) => p.name === "tpu");
  const compile = (mlir: string) => torch.runtime.compileFor("tpu", mlir, { topology: "v5e:2x2" });
  const strip = (mlir: string) => mlir.replace(/, precision_config = \[[^\]]*\]/g, "");

  it.skipIf(!tpu?.found)("a float32 matmul compiles to a different program under each setting; DEFAULT is libtpu's default", async () => {
    const [a, b] = [t([256, 256]), t([256, 256])];
    const printed = Object.fromEntries(PRECISIONS.map(([s]) => [s, under(s, () => modules(() => a.matmul(b)))[0]!]));
    a.dispose();
    b.dispose();
    const [highest, high, medium, plain] = await Promise.all([printed.highest!, printed.high!, printed.medium!, strip(printed.medium!)].map(compile));
    // one bfloat16 pass, three, six: the programs grow (74,969, 114,488 and 153,921 bytes with libtpu 0.0.42.1)
    expect(high!.serialized.length).toBeGreaterThan(medium!.serialized.length * 1.2);
    expect(highest!.serialized.length).toBeGreaterThan(high!.serialized.length * 1.2);
    expect(new Set([highest!.fingerprint, high!.fingerprint, medium!.fingerprint]).size).toBe(3);
    expect(medium!.fingerprint).toBe(plain!.fingerprint);
  });

  it.skipIf(!tpu?.found)("a float16 matmul without HIGHEST would be one bfloat16 pass on a TPU", async () => {
    const [a, b] = [t([256, 256], "float16"), t([256, 256], "float16")];
    const [printed] = under("medium", () => modules(() => a.matmul(b)));
    a.dispose();
    b.dispose();
    expect(printed).toContain(config("HIGHEST"));
    const [ours, plain] = await Promise.all([compile(printed!), compile(strip(printed!))]);
    expect(ours.fingerprint).not.toBe(plain.fingerprint);
    expect(ours.serialized.length).toBeGreaterThan(plain.serialized.length * 1.2);
  });
});
