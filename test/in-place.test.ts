// In-place ops check their result's dtype and shape before running anything: a result that cannot be
// cast back to self's dtype, or that broadcasts self to a larger shape, is a typed error with no
// program dispatched (the executable cache counts a hit or a miss for every dispatch).
import { describe, expect, it } from "vitest";
import * as torch from "../src/index.js";
import { eagerSuite, missing, valuesOf } from "./eager/helpers.js";

const test = missing ? it.skip : it;
if (missing) it.skip(`skipped: ${missing}`, () => {});

const dispatches = (): number => {
  const s = torch.runtime.stats();
  return s.hits + s.misses;
};

describe("in-place ops reject bad input before any program runs", () => {
  eagerSuite();

  const cases: [string, () => torch.Tensor, (x: torch.Tensor, other: torch.Tensor) => unknown, typeof torch.DTypeError | typeof torch.ShapeError, RegExp][] = [
    ["lgamma_ on int64", () => torch.tensor([1, 2, 3]), (x) => x.lgamma_(), torch.DTypeError, /lgamma_: result type Float \(float32\) can't be cast to the desired output type Long \(int64\)/],
    ["sin_ on int32", () => torch.tensor([1, 2, 3], { dtype: "int32" }), (x) => x.sin_(), torch.DTypeError, /sin_: result type Float \(float32\) can't be cast to the desired output type Int \(int32\)/],
    ["exp_ on bool", () => torch.tensor([true, false, true]), (x) => x.exp_(), torch.DTypeError, /exp_: result type Float \(float32\) can't be cast/],
    ["add_ of a float scalar to int32", () => torch.tensor([1, 2, 3], { dtype: "int32" }), (x) => x.add_(1.5), torch.DTypeError, /add_: result type Float \(float32\) can't be cast/],
    ["gt_ that would grow self", () => torch.tensor([1, 2, 3], { dtype: "float32" }), (x, other) => x.gt_(other), torch.ShapeError, /gt_: output with shape \[3\] doesn't match the broadcast shape \[2, 3\]/],
    ["igamma_ that would grow self", () => torch.tensor([1, 2, 3], { dtype: "float32" }), (x, other) => x.igamma_(other), torch.ShapeError, /igamma_: output with shape \[3\] doesn't match the broadcast shape \[2, 3\]/],
    ["atan2_ on int64", () => torch.tensor([1, 2, 3]), (x) => x.atan2_(x), torch.DTypeError, /atan2_: result type Float/],
  ];

  for (const [name, make, call, error, message] of cases) {
    test(name, () => {
      const x = make();
      const other = torch.tensor([1, 2, 3, 4, 5, 6], { shape: [2, 3], dtype: "float32" });
      const values = valuesOf(x);
      const before = dispatches();
      expect(() => call(x, other)).toThrow(error);
      expect(() => call(x, other)).toThrow(message);
      expect(dispatches()).toBe(before);
      expect(valuesOf(x)).toEqual(values);
      x.dispose();
      other.dispose();
    });
  }

  test("maskedFill_ with a mask that would grow self", () => {
    const x = torch.tensor([1, 2, 3], { dtype: "float32" });
    const mask = torch.tensor([true, false, true, false, true, false], { shape: [2, 3] });
    const before = dispatches();
    expect(() => x.maskedFill_(mask, 0)).toThrow(torch.ShapeError);
    expect(() => x.maskedFill_(mask, 0)).toThrow(/maskedFill_: output with shape \[3\] doesn't match the broadcast shape \[2, 3\]/);
    expect(dispatches()).toBe(before);
    x.dispose();
    mask.dispose();
  });

  test("maskedScatter_ with a mask that would grow self", () => {
    const x = torch.tensor([1, 2, 3], { dtype: "float32" });
    const mask = torch.tensor([true, false, true, false, true, false], { shape: [2, 3] });
    const source = torch.tensor([9, 9, 9, 9, 9, 9], { dtype: "float32" });
    const before = dispatches();
    expect(() => x.maskedScatter_(mask, source)).toThrow(torch.ShapeError);
    expect(() => x.maskedScatter_(mask, source)).toThrow(/maskedScatter_: output with shape \[3\] doesn't match the broadcast shape \[2, 3\]/);
    expect(dispatches()).toBe(before);
    for (const t of [x, mask, source]) t.dispose();
  });
});
