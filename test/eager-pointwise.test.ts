// Pointwise ops on the real CPU plugin (src/ops/pointwise/): float64 references for the composed
// float math (inverse trig, hyperbolic, erf), rounding and modular arithmetic, NaN handling,
// PyTorch's calling convention (positional or options), and the typed errors thrown before any
// native call.
import { describe, expect, it } from "vitest";
import * as torch from "../src/index.js";
import { addon } from "../src/runtime/addon.js";
import { onCompile } from "../src/trace/eager.js";
import { eagerSuite, expectTensor, missing, scoped, valuesOf } from "./eager/helpers.js";
import { loadFamilies, makeInput, type TensorSpec } from "./helpers/fixtures.js";
import { callCase } from "./helpers/grad_fixtures.js";

const test = missing ? it.skip : it;
if (missing) it.skip(`skipped: ${missing}`, () => {});

/** erf by its Maclaurin series, summed in float64 (accurate to ~1e-13 for |x| ≤ 3). */
function erfRef(x: number): number {
  let term = x;
  let sum = x;
  for (let n = 1; n < 80; n++) {
    term *= (-x * x) / n;
    sum += term / (2 * n + 1);
  }
  return (2 / Math.sqrt(Math.PI)) * sum;
}

const xs = [-2.9, -1.7, -1, -0.999, -0.5, -1e-3, 0, 2e-4, 0.3, 0.99, 1, 1.01, 2.2, 3];
const unit = [-0.99, -0.6, -0.1, 0, 0.05, 0.5, 0.9];

describe("eager pointwise ops (more)", () => {
  eagerSuite();

  const unaries: Array<[string, (t: torch.Tensor) => torch.Tensor, (x: number) => number, number[]]> = [
    ["exp2", torch.exp2, (x) => 2 ** x, xs],
    ["expm1", torch.expm1, Math.expm1, xs],
    ["log2", torch.log2, Math.log2, [1e-5, 0.5, 1, 1.5, 8, 1e6]],
    ["log10", torch.log10, Math.log10, [1e-5, 0.5, 1, 1.5, 8, 1e6]],
    ["log1p", torch.log1p, Math.log1p, [-0.5, -1e-6, 0, 1e-8, 3]],
    ["rsqrt", torch.rsqrt, (x) => 1 / Math.sqrt(x), [1e-4, 0.25, 2, 9]],
    ["reciprocal", torch.reciprocal, (x) => 1 / x, [-3, -0.5, 0.25, 7]],
    ["tan", torch.tan, Math.tan, [-1.2, -0.3, 0, 0.7, 1.4]],
    ["asin", torch.asin, Math.asin, unit],
    ["acos", torch.acos, Math.acos, unit],
    ["atan", torch.atan, Math.atan, [-50, ...unit, 3, 1e4]],
    ["sinh", torch.sinh, Math.sinh, [-20, ...xs, 1e-6, 30]],
    ["cosh", torch.cosh, Math.cosh, [-20, ...xs, 30]],
    ["asinh", torch.asinh, Math.asinh, [-1e12, -3, ...unit, 1e-7, 5, 1e5, 1e12]],
    ["acosh", torch.acosh, Math.acosh, [1, 1 + 1e-9, 1.5, 10, 1e5, 1e12]],
    ["atanh", torch.atanh, Math.atanh, [...unit, 1e-9]],
    ["erf", torch.erf, erfRef, xs],
    ["erfc", torch.erfc, (x) => 1 - erfRef(x), xs],
  ];
  for (const [name, fn, ref, values] of unaries) {
    test(`${name} matches a float64 reference (float64 and float32)`, () =>
      scoped(() => {
        expectTensor(fn(torch.tensor(values, { dtype: "float64" })), { dtype: "float64", shape: [values.length], values: values.map(ref) }, 1e-9);
        expectTensor(fn(torch.tensor(values, { dtype: "float32" })), { dtype: "float32", shape: [values.length], values: values.map((v) => ref(Math.fround(v))) }, 2e-6);
      }));
  }

  test("erfc keeps its relative accuracy in the tail (float64)", () =>
    scoped(() => {
      const v = valuesOf(torch.erfc(torch.tensor([4.5, -5.5, 10], { dtype: "float64" })));
      expect(Math.abs(v[0]! / 1.966160441542887e-10 - 1)).toBeLessThan(1e-12);
      expect(v[1]).toBeCloseTo(2, 12);
      expect(Math.abs(v[2]! / 2.088487583762545e-45 - 1)).toBeLessThan(1e-12);
    }));

  test("erfinv inverts erf (float64 to 1e-12, float32 to 1e-6) and is ±inf at ±1", () =>
    scoped(() => {
      const ys = [-0.999999, -0.9, -0.3, 0, 0.01, 0.5, 0.97];
      const x64 = valuesOf(torch.erfinv(torch.tensor(ys, { dtype: "float64" })));
      x64.forEach((x, i) => expect(Math.abs(erfRef(x) - ys[i]!)).toBeLessThan(1e-12));
      const x32 = valuesOf(torch.erfinv(torch.tensor(ys.slice(1), { dtype: "float32" })));
      x32.forEach((x, i) => expect(Math.abs(erfRef(x) - Math.fround(ys[i + 1]!))).toBeLessThan(1e-6));
      expectTensor(torch.erfinv(torch.tensor([1, -1, 2])), { dtype: "float32", shape: [3], values: [Infinity, -Infinity, NaN] });
    }));

  test("float math on integers gives float32", () =>
    scoped(() => {
      expectTensor(torch.log2(torch.tensor([1, 2, 1024], { dtype: "int32" })), { dtype: "float32", shape: [3], values: [0, 1, 10] });
      expectTensor(torch.erf(torch.tensor([0], { dtype: "int64" })), { dtype: "float32", shape: [1], values: [0] });
    }));

  test("rounding: floor, ceil, trunc, frac, round half to even and with decimals", () =>
    scoped(() => {
      const t = torch.tensor([-2.5, -1.5, -0.4, 0.5, 1.5, 2.7]);
      expectTensor(torch.floor(t), { dtype: "float32", shape: [6], values: [-3, -2, -1, 0, 1, 2] });
      expectTensor(t.ceil(), { dtype: "float32", shape: [6], values: [-2, -1, -0, 1, 2, 3] });
      expectTensor(torch.trunc(t), { dtype: "float32", shape: [6], values: [-2, -1, -0, 0, 1, 2] });
      expectTensor(torch.frac(t), { dtype: "float32", shape: [6], values: [-0.5, -0.5, -0.4, 0.5, 0.5, 0.7] }, 1e-6);
      expectTensor(torch.round(t), { dtype: "float32", shape: [6], values: [-2, -2, -0, 0, 2, 3] });
      const d = torch.tensor([1.2345, 123.45], { dtype: "float64" });
      expectTensor(torch.round(d, { decimals: 2 }), { dtype: "float64", shape: [2], values: [1.23, 123.45] }, 1e-12);
      expectTensor(torch.round(d, { decimals: -1 }), { dtype: "float64", shape: [2], values: [0, 120] }, 1e-12);
    }));

  test("fmod keeps the dividend's sign, remainder the divisor's, floorDivide rounds down", () =>
    scoped(() => {
      const a = torch.tensor([-7, -7, 7, 7], { dtype: "int32" });
      const b = torch.tensor([2, -2, 2, -2], { dtype: "int32" });
      expectTensor(torch.fmod(a, b), { dtype: "int32", shape: [4], values: [-1, -1, 1, 1] });
      expectTensor(torch.remainder(a, b), { dtype: "int32", shape: [4], values: [1, -1, 1, -1] });
      expectTensor(a.floorDivide(b), { dtype: "int32", shape: [4], values: [-4, 3, 3, -4] });
      expectTensor(torch.remainder(torch.tensor([-5.5, 5.5]), 2), { dtype: "float32", shape: [2], values: [0.5, 1.5] });
    }));

  test("NaN handling: fmax/fmin ignore NaN, sign(NaN) is 0, nanToNum, isclose with equalNan", () =>
    scoped(() => {
      const a = torch.tensor([NaN, 1, NaN, -Infinity]);
      const b = torch.tensor([2, NaN, NaN, 0]);
      expectTensor(torch.fmax(a, b), { dtype: "float32", shape: [4], values: [2, 1, NaN, 0] });
      expectTensor(torch.fmin(a, b), { dtype: "float32", shape: [4], values: [2, 1, NaN, -Infinity] });
      expectTensor(torch.sign(a), { dtype: "float32", shape: [4], values: [0, 1, 0, -1] });
      expectTensor(torch.nanToNum(a, { nan: 5 }), { dtype: "float32", shape: [4], values: [5, 1, 5, -3.4028234663852886e38] });
      expectTensor(torch.isclose(a, b, { equalNan: true }), { dtype: "bool", shape: [4], values: [0, 0, 1, 0] });
      expectTensor(torch.signbit(torch.tensor([-0, 0, -1, NaN])), { dtype: "bool", shape: [4], values: [1, 0, 1, 0] });
    }));

  test("clamp with scalar and tensor bounds, logical and bitwise ops, allclose and equal", () =>
    scoped(() => {
      const x = torch.tensor([-3, -1, 0, 2, 5], { dtype: "int32" });
      expectTensor(torch.clamp(x, { min: -2, max: 3 }), { dtype: "int32", shape: [5], values: [-2, -1, 0, 2, 3] });
      expectTensor(x.clip({ max: torch.tensor([0, 0, 0, 0, 0], { dtype: "int32" }) }), { dtype: "int32", shape: [5], values: [-3, -1, 0, 0, 0] });
      expectTensor(torch.clamp(x, { min: 0.5 }), { dtype: "float32", shape: [5], values: [0.5, 0.5, 0.5, 2, 5] });
      expectTensor(torch.logicalXor(x, torch.tensor([1, 0, 0, 0, 1], { dtype: "int32" })), { dtype: "bool", shape: [5], values: [0, 1, 0, 1, 0] });
      expectTensor(torch.bitwiseRightShift(x, 1), { dtype: "int32", shape: [5], values: [-2, -1, 0, 1, 2] });
      expectTensor(torch.bitwiseNot(x), { dtype: "int32", shape: [5], values: [2, 0, -1, -3, -6] });
      expect(torch.allclose(torch.tensor([1.5, 2]), torch.tensor([1.5, 2.000001]))).toBe(true);
      expect(torch.equal(x, x)).toBe(true);
      expect(torch.equal(x, torch.tensor([1], { dtype: "int32" }))).toBe(false);
      expectTensor(torch.lerp(torch.tensor([0.5, 10]), torch.tensor([10.5, 20]), 0.75), { dtype: "float32", shape: [2], values: [8, 17.5] });
      const v = valuesOf(torch.addcdiv(torch.tensor([1.5]), torch.tensor([3.0]), torch.tensor([4.0]), { value: 2 }));
      expect(v).toEqual([3]);
    }));

  test("abs and clamp are one primitive each in the forward; their gradient at NaN is PyTorch's 0 (the VJP rules')", () =>
    scoped(() => {
      // the modules eager dispatch compiles: the NaN handling lives in the VJP rules, not in every forward
      const printed: string[] = [];
      const previous = onCompile((_, graph) => printed.push(addon().printGraph(graph)));
      const x = torch.tensor([NaN, -2, -1, -0, 0, 0.5, 1, 3, Infinity, -Infinity, 7, -7, 2], { shape: [13] }).requiresGrad_();
      let ys: torch.Tensor[];
      try {
        ys = [torch.abs(x), torch.clamp(x, -1, 1), torch.clamp(x, { min: -1 }), torch.clamp(x, { max: 1 })];
      } finally {
        onCompile(previous);
      }
      const ops = printed.map((m) => [...m.matchAll(/"stablehlo\.(\w+)"/g)].map((o) => o[1]).filter((o) => o !== "constant"));
      expect(ops).toEqual([["abs"], ["clamp"], ["clamp"], ["clamp"]]);
      // NaN propagates in the forward (also from a bound), and gets gradient 0 whatever the cotangent's sign
      expect(valuesOf(ys[0]!)).toEqual([NaN, 2, 1, 0, 0, 0.5, 1, 3, Infinity, Infinity, 7, 7, 2]);
      expect(valuesOf(ys[1]!)).toEqual([NaN, -1, -1, -0, 0, 0.5, 1, 1, 1, -1, 1, -1, 1]);
      expect(valuesOf(torch.clamp(torch.tensor([1, -1]), { min: torch.tensor([NaN, 0]) }))).toEqual([NaN, 0]);
      const ct = torch.tensor([-3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], { dtype: "float32" });
      const grads = ys.map((y) => valuesOf(torch.autograd.grad([y], [x], { gradOutputs: [ct] })[0]!));
      expect(grads[0]).toEqual([-0, -1, -1, 0, 0, 1, 1, 1, 1, -1, 1, -1, 1]); // −3 · sgn(NaN), sgn(−0) = +0
      expect(grads[1]).toEqual([0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0]);
      expect(grads[2]).toEqual([0, 0, 1, 1, 1, 1, 1, 1, 1, 0, 1, 0, 1]);
      expect(grads[3]).toEqual([0, 1, 1, 1, 1, 1, 1, 0, 0, 1, 0, 1, 0]);
      // compositions whose gradient is sgn(x − y): 0 where the difference is NaN, as PyTorch's l1Loss
      const t = torch.tensor([0, 0, 0], { dtype: "float32" });
      const input = torch.tensor([NaN, 2, -1]).requiresGrad_();
      expect(valuesOf(torch.autograd.grad([torch.nn.functional.l1Loss(input, t, { reduction: "sum" })], [input])[0]!)).toEqual([0, 1, -1]);
    }));

  test("pow by 2, 3, 0.5 and -1 is PyTorch's multiplies, sqrt and division: its exact bits, not a power function's", () =>
    scoped(() => {
      const printed: string[] = [];
      const previous = onCompile((_, graph) => printed.push(addon().printGraph(graph)));
      // values whose correctly rounded cube differs from x·x·x in float32 (a quarter of them do)
      const xs = Array.from({ length: 512 }, (_, i) => Math.fround(-5 + (i * 10.01) / 512));
      const x = torch.tensor(xs, { dtype: "float32" });
      let ys: torch.Tensor[];
      try {
        ys = [2, 3, 0.5, -1].map((p) => torch.pow(x, p));
      } finally {
        onCompile(previous);
      }
      const ops = printed.map((m) => [...m.matchAll(/"stablehlo\.(\w+)"/g)].map((o) => o[1]).filter((o) => o !== "constant" && o !== "broadcast_in_dim"));
      expect(ops).toEqual([["multiply"], ["multiply", "multiply"], ["sqrt"], ["divide"]]);
      const f = Math.fround;
      expect(valuesOf(ys[0]!)).toEqual(xs.map((v) => f(v * v)));
      expect(valuesOf(ys[1]!)).toEqual(xs.map((v) => f(f(v * v) * v)));
      expect(xs.filter((v) => f(f(v * v) * v) !== f(v ** 3)).length).toBeGreaterThan(50); // so the check above can fail
      expect(valuesOf(ys[2]!)).toEqual(xs.map((v) => f(Math.sqrt(v))));
      expect(valuesOf(ys[3]!)).toEqual(xs.map((v) => f(1 / v)));
      // −0 ** 0.5 is −0 and −inf ** 0.5 NaN, as PyTorch's sqrt gives (a power function gives +0 and +inf)
      expect(valuesOf(torch.pow(torch.tensor([-0, -Infinity]), 0.5))).toEqual([-0, NaN]);
    }));

  test("PyTorch's calling convention: positional arguments in PyTorch's order or one options object, keyword-only ones as options", () =>
    scoped(() => {
      const x = torch.tensor([-1.5, 0.25, 2]);
      const clamped = { dtype: "float32" as const, shape: [3], values: [0, 0.25, 1] };
      expectTensor(x.clamp(0, 1), clamped);
      expectTensor(torch.clamp(x, { min: 0, max: 1 }), clamped);
      expectTensor(torch.clip(x, 0, { max: 1 }), clamped);
      expectTensor(x.clamp(null, 1), { dtype: "float32" as const, shape: [3], values: [-1.5, 0.25, 1] });
      expectTensor(x.clamp(torch.tensor([0, 0, 0]), 1), clamped);
      const y = torch.tensor([1, 2, 3], { dtype: "float32" });
      const sum = { dtype: "float32" as const, shape: [3], values: [0.5, 4.25, 8] };
      expectTensor(torch.add(x, y, { alpha: 2 }), sum);
      expectTensor(x.add({ other: y, alpha: 2 }), sum);
      expectTensor(torch.add({ input: x, other: y, alpha: 2 }), sum);
      expect(() => torch.add(x, y, 2 as never)).toThrow(/at most 2 positional arguments/);
      const floored = { dtype: "float32" as const, shape: [3], values: [-2, 0, 0] };
      expectTensor(x.div(y, { roundingMode: "floor" }), floored);
      expect(() => x.div(y, "floor" as never)).toThrow(torch.ArgumentError);
      expect(() => x.div(y, { roundingMode: "round" as never })).toThrow(/"roundingMode" must be a "trunc" or "floor"/);
      const cond = x.gt(0);
      const picked = { dtype: "float32" as const, shape: [3], values: [1, 0.25, 2] };
      expectTensor(torch.where(cond, x, y), picked);
      expectTensor(x.where(cond, y), picked);
      expectTensor(x.where(cond, { other: y }), picked);
      expectTensor(torch.where(cond, { input: x, other: y }), picked);
      expectTensor(torch.isclose(x, y, 0, 3), { dtype: "bool" as const, shape: [3], values: [1, 1, 1] });
      expectTensor(x.isclose(y, { atol: 3, rtol: 0 }), { dtype: "bool" as const, shape: [3], values: [1, 1, 1] });
      expect(x.allclose(y, 0, 0.5)).toBe(false);
      expectTensor(torch.nanToNum(torch.tensor([NaN, Infinity]), 1, 2), { dtype: "float32" as const, shape: [2], values: [1, 2] });
      expectTensor(torch.logit(torch.tensor([0, 0.5]), 0.25), { dtype: "float32" as const, shape: [2], values: [Math.log(1 / 3), 0] }, 1e-6);
      expectTensor(torch.addcmul(x, y, y, { value: 0.5 }), { dtype: "float32" as const, shape: [3], values: [-1, 2.25, 6.5] });
      expect(() => torch.addcmul(x, y, y, 0.5 as never)).toThrow(/at most 3 positional arguments/);
      expectTensor(torch.round(torch.tensor([1.234]), { decimals: 1 }), { dtype: "float32" as const, shape: [1], values: [1.2] }, 1e-6);
      expectTensor(x.pow({ exponent: 2 }), { dtype: "float32" as const, shape: [3], values: [2.25, 0.0625, 4] });
      expectTensor(torch.lerp(x, y, { weight: 0.5 }), { dtype: "float32" as const, shape: [3], values: [-0.25, 1.125, 2.5] });
      expect(() => x.clamp({ mn: 0 } as never)).toThrow(/Tensor\.clamp\(min\?, max\?\): got an unknown option "mn"; did you mean "min"\?/);
      expect(() => torch.isclose(x, y, { equal_nan: true } as never)).toThrow(/isclose\(input, other, rtol = 1e-05, atol = 1e-08, equalNan = false\): got an unknown option "equal_nan"; did you mean "equalNan"\? \(options are camelCase\)/);
      const z = torch.tensor([1, 2, 3], { dtype: "float32" });
      z.pow_({ exponent: 2 }).clamp_(2, 5).add_(y, { alpha: -1 }).mul_({ other: 2 });
      expect(valuesOf(z)).toEqual([2, 4, 4]);
      z.div_(y, { roundingMode: "trunc" }).sub_({ other: 1 });
      expect(valuesOf(z)).toEqual([1, 1, 0]);
      z.fill_({ value: 4 }).copy_(y).maskedFill_(cond, { value: 7 });
      expect(valuesOf(z)).toEqual([1, 7, 7]);
      expect(() => z.clamp_({ min: 0, mx: 1 } as never)).toThrow(/Tensor\.clamp_\(min\?, max\?\): got an unknown option "mx"; did you mean "max"\?/);
    }));

  test("typed errors before any native call", () =>
    scoped(() => {
      const f = torch.tensor([1.5]);
      const i = torch.tensor([1], { dtype: "int32" });
      const bool = torch.tensor([true]);
      expect(() => torch.clamp(f)).toThrow(torch.ArgumentError);
      expect(() => torch.clamp(f)).toThrow(/at least one of 'min' or 'max'/);
      expect(() => torch.bitwiseAnd(f, f)).toThrow(torch.DTypeError);
      expect(() => torch.bitwiseLeftShift(bool, bool)).toThrow(torch.DTypeError);
      expect(() => torch.fmod(bool, bool)).toThrow(/not implemented for bool/);
      expect(() => torch.frac(i)).toThrow(torch.DTypeError);
      expect(() => torch.lerp(i, i, 0.5)).toThrow(torch.DTypeError);
      expect(() => torch.addcdiv(i, i, i)).toThrow(/no longer supported/);
      expect(() => torch.floor(bool)).toThrow(torch.DTypeError);
      expect(() => torch.fmax(torch.tensor([1, 2, 3]), torch.tensor([1, 2]))).toThrow(torch.ShapeError);
      expect(() => torch.round(f, { decimals: 0.5 })).toThrow(torch.ArgumentError);
      expect(() => torch.isclose(f, i)).toThrow(torch.DTypeError);
    }));
});

// clamp gives x itself within its bounds, so zeros keep PyTorch's signs (clamp(-0, min=0) is -0). The
// conformance comparison does not look at the sign of zero, so the fixtures' "signed-zero" cases are checked here.
describe("clamp's signed zeros against PyTorch's fixtures", () => {
  eagerSuite();
  const cases = loadFamilies().find((f) => f.family === "pointwise")!.cases.filter((c) => c.id.startsWith("clamp/signed-zero"));

  // where x < min and the bounds are +0 and −0, PyTorch gives min (+0); the clamp primitive gives −0
  const knownDifferences: Record<string, number> = { "clamp/signed-zero/float32(min=0.0,max=-0.0)": 4, "clamp/signed-zero-tensors/float32": 4 };

  test("the fixtures hold the cases", () => expect(cases.length).toBe(8));
  for (const c of cases) {
    test(c.id, () =>
      scoped(() => {
        const inputs = c.inputs.map((s) => makeInput(torch, s, "cpu"));
        const out = callCase(torch, c, inputs, "cpu") as torch.Tensor;
        const want = (c.expected as { tensor: TensorSpec }).tensor.values.map((v) => (v === "nan" ? Number.NaN : v));
        const known = knownDifferences[c.id];
        if (known !== undefined) {
          expect(Object.is(want[known], 0)).toBe(true);
          want[known] = -0;
        }
        // toEqual tells -0 from +0
        expect(valuesOf(out.to("float32"))).toEqual(want);
      }));
  }
});
