// The window ops' argument checking (typed errors that name the op, the shapes and the fix, thrown
// before any native call) and a few values computed here in float64 that the fixtures do not cover.
import { describe, expect, it } from "vitest";
import * as torch from "../src/index.js";

const F = torch.nn.functional;
const f32 = (values: number[], shape: number[]) => torch.tensor(new Float32Array(values), { shape });

describe("window ops: errors", () => {
  it("conv checks channels, dims, dtypes and padding", () => {
    torch.tidy(() => {
      const x = torch.zeros([1, 3, 5, 5]);
      expect(() => F.conv2d(x, torch.zeros([2, 2, 3, 3]))).toThrow(torch.ShapeError);
      expect(() => F.conv2d(x, torch.zeros([2, 2, 3, 3]))).toThrow(/expects input \[1, 3, 5, 5\] to have 2 channels, but got 3/);
      expect(() => F.conv2d(torch.zeros([5, 5]), torch.zeros([2, 3, 3, 3]))).toThrow(/expected a 3-d \(unbatched\) or 4-d \(batched\) input/);
      expect(() => F.conv2d(x, torch.zeros([2, 3, 3, 3], { dtype: "float64" }))).toThrow(torch.DTypeError);
      expect(() => F.conv2d(torch.zeros([1, 3, 5, 5], { dtype: "int32" }), torch.zeros([2, 3, 3, 3], { dtype: "int32" }))).toThrow(/needs a floating dtype/);
      expect(() => F.conv2d(x, torch.zeros([2, 3, 3, 3]), { padding: "same", stride: 2 })).toThrow(torch.ArgumentError);
      expect(() => F.conv2d(x, torch.zeros([2, 3, 7, 7]))).toThrow(/larger than the padded input/);
      expect(() => F.conv2d(x, torch.zeros([2, 3, 3, 3]), { stride: 0 })).toThrow(/stride must be an integer >= 1/);
      expect(() => F.conv1d(torch.zeros([1, 4, 5]), torch.zeros([3, 2, 3]), { groups: 2 })).toThrow(/divisible by groups=2/);
      expect(() => F.conv2d(x, torch.zeros([2, 3, 3, 3]), { bias: torch.zeros([3]) })).toThrow(/bias must have shape \[2\]/);
    });
  });

  it("pools, pad, interpolate and the cumulative ops check their arguments", () => {
    torch.tidy(() => {
      const x = torch.zeros([1, 2, 6]);
      expect(() => F.maxPool1d(x, 2, { padding: 2 })).toThrow(/at most half of the kernel size/);
      expect(() => F.avgPool1d(x, 7)).toThrow(torch.ShapeError);
      expect(() => F.pad(x, [1])).toThrow(/even-length/);
      expect(() => F.pad(x, [6, 0], { mode: "reflect" })).toThrow(/must be at most 5/);
      expect(() => F.pad(x, [1, 1], { mode: "wrap" as never })).toThrow(/pad\(input, pad, mode = "constant", value\?\): "mode" must be .*"circular", got string "wrap"/);
      expect(() => F.interpolate(x, {})).toThrow(/exactly one of size and scaleFactor/);
      expect(() => F.interpolate(x, { size: 4, mode: "bilinear" })).toThrow(/bilinear mode needs a 4-d input/);
      expect(() => F.interpolate(x, { size: 4, alignCorners: true })).toThrow(/alignCorners only applies to .* not nearest/);
      expect(() => F.interpolate(x, { size: 4, recomputeScaleFactor: true })).toThrow(/recomputeScaleFactor is not meaningful with an explicit size/);
      expect(() => F.interpolate(x, { size: [4, 4] })).toThrow(/size \[4,4\] has 2 entries but input \[1, 2, 6\] has 1 spatial dims/);
      expect(() => F.interpolate(x, { size: 4, mode: "linear", antialias: true })).toThrow(/antialias applies to bilinear, bicubic and lanczos modes on 4-d input/);
      expect(() => F.interpolate(torch.zeros([1, 2, 3, 3]), { size: 4, mode: "lanczos" })).toThrow(/lanczos mode requires antialias = true/);
      expect(() => F.interpolate(x, { scaleFactor: 0.1 })).toThrow(/sizes must be greater than 0/);
      expect(() => F.interpolate(torch.zeros([1, 2, 6], { dtype: "uint8" }), { size: 4, mode: "linear" })).toThrow(torch.DTypeError);
      expect(() => torch.cumsum(x, 3)).toThrow(torch.ShapeError);
      expect(() => torch.logcumsumexp(torch.zeros([3], { dtype: "int32" }), 0)).toThrow(torch.DTypeError);
    });
  });
});

describe("window ops: values", () => {
  it("cumsum of a long row matches a float64 running sum", () => {
    torch.tidy(() => {
      const n = 300;
      const v = Array.from({ length: n }, (_, i) => Math.cos(i * 0.37) * 3);
      const got = torch.tensor(new Float64Array(v)).cumsum(0).dataSync() as Float64Array;
      let acc = 0;
      v.forEach((x, i) => {
        acc += x;
        expect(Math.abs(got[i]! - acc)).toBeLessThan(1e-12 * n);
      });
    });
  });

  it("logcumsumexp is stable across large gaps and -inf", () => {
    torch.tidy(() => {
      const got = Array.from(torch.tensor(new Float64Array([-1000, 0, -Infinity, 1000])).logcumsumexp(0).dataSync() as Float64Array);
      expect(got[0]).toBe(-1000);
      expect(got[1]).toBeCloseTo(Math.log1p(Math.exp(-1000)), 12);
      expect(got[2]).toBeCloseTo(got[1]!, 12);
      expect(got[3]).toBe(1000);
    });
  });

  it("pad keeps constant values apart in its cache key (±Infinity, NaN)", () => {
    torch.tidy(() => {
      const x = f32([1], [1]);
      const read = (v: number) => Array.from(F.pad(x, [1, 0], { value: v }).dataSync() as Float32Array)[0];
      expect(read(Infinity)).toBe(Infinity);
      expect(read(-Infinity)).toBe(-Infinity);
      expect(read(NaN)).toBeNaN();
    });
  });

  it("maxPool2d with returnIndices gives flat plane positions; avgPool divisorOverride divides by it", () => {
    torch.tidy(() => {
      const x = f32([1, 9, 2, 3, 4, 5, 6, 7, 8, 0, 11, 10, 12, 13, 15, 14], [1, 1, 4, 4]);
      const [v, i] = F.maxPool2d(x, 2, { returnIndices: true });
      expect(Array.from(v.dataSync() as Float32Array)).toEqual([9, 7, 13, 15]);
      expect(Array.from(i.dataSync() as BigInt64Array, Number)).toEqual([1, 7, 13, 14]);
      const a = F.avgPool2d(x, 2, { divisorOverride: 3 });
      expect(Array.from(a.dataSync() as Float32Array)).toEqual([(1 + 9 + 4 + 5) / 3, (2 + 3 + 6 + 7) / 3, (8 + 0 + 12 + 13) / 3, (11 + 10 + 15 + 14) / 3].map(Math.fround));
    });
  });
});
