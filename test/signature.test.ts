/**
 * @file The signature parser and the one binder (src/ops/signature/): PyTorch's calling convention
 * (positional in order, a trailing options object by camelCase name, keyword-only after `*`),
 * defaults, None, varargs, overloads, and the errors a wrong call gets.
 */
import { describe, expect, it } from "vitest";
import * as torch from "../src/index.js";
import { bindCall, tryBind } from "../src/ops/signature/bind.js";
import { opTable } from "../src/ops/signature/op.js";
import { parseSignature, SignatureSyntaxError } from "../src/ops/signature/parse.js";
import { callStyles } from "./helpers/call_styles.js";
import { realRuntimeMissing } from "./helpers/runtime.js";

const sum = parseSignature("sum(input: Tensor, dim?: int | int[], keepdim: bool = false, *, dtype?: dtype) -> Tensor");
const zeros = parseSignature("zeros(...size: int, *, dtype?: dtype) -> Tensor");
const fake = Object.create(torch.Tensor.prototype) as torch.Tensor; // a Tensor for type checks only (never read)
Object.defineProperties(fake, { isDisposed: { value: false }, dtype: { value: "float32" }, shape: { value: [2] } });

const bound = (sig: typeof sum, ...args: unknown[]): unknown => tryBind(sig, args);

describe("parsing", () => {
  it("reads names, order, defaults, optional and keyword-only parameters", () => {
    expect(sum.name).toBe("sum");
    expect(sum.params.map((p) => [p.name, p.optional, p.keywordOnly, p.defaultValue])).toEqual([
      ["input", false, false, undefined],
      ["dim", true, false, undefined],
      ["keepdim", true, false, false],
      ["dtype", true, true, undefined],
    ]);
    expect(sum.display).toBe("sum(input, dim?, keepdim = false, *, dtype?)");
    expect(sum.typedDisplay).toBe("sum(input: Tensor, dim?: int or int[], keepdim: bool = false, *, dtype?: dtype)");
    expect(parseSignature('f(x: Tensor, mode: "a" | "b" = "a", eps: float = 1e-5, lo: float = -inf) -> (Tensor, Tensor)').display).toBe(
      'f(x, mode = "a", eps = 1e-5, lo = -inf)',
    );
  });

  it("rejects malformed signatures when the op is defined", () => {
    for (const [text, message] of [
      ["f(x: Tensor) Tensor", /expected name\(params\) -> type/],
      ["f(x: Tensr) -> Tensor", /unknown type "Tensr"/],
      ["f(x: int = true) -> Tensor", /the default true of "x" does not have the type int/],
      ["f(x?: int = 1) -> Tensor", /both \? and a default/],
      ["f(x: int = 1, y: int) -> Tensor", /the required "y" follows an optional parameter/],
      ["f(x: int, x: int) -> Tensor", /"x" appears twice/],
      ["f(...x: int, y: int) -> Tensor", /only keyword-only parameters may follow \.\.\.x/],
    ] as const) {
      expect(() => parseSignature(text)).toThrow(SignatureSyntaxError);
      expect(() => parseSignature(text)).toThrow(message);
    }
  });
});

describe("binding", () => {
  it("takes arguments positionally in order, or by name in a trailing options object", () => {
    const all = { input: fake, dim: 1, keepdim: true, dtype: "float64" };
    expect(bound(sum, fake, 1, true, { dtype: "float64" })).toEqual(all);
    expect(bound(sum, fake, { dim: 1, keepdim: true, dtype: "float64" })).toEqual(all);
    expect(bound(sum, fake, 1, { keepdim: true, dtype: "float64" })).toEqual(all);
    expect(bound(sum, { input: fake, dim: 1, keepdim: true, dtype: "float64" })).toEqual(all);
    expect(bound(sum, fake)).toEqual({ input: fake, dim: undefined, keepdim: false, dtype: undefined });
  });

  it("reads null (PyTorch's None) and undefined as not given", () => {
    expect(bound(sum, fake, null, true)).toEqual({ input: fake, dim: undefined, keepdim: true, dtype: undefined });
    expect(bound(sum, fake, { dim: undefined, keepdim: null })).toEqual({ input: fake, dim: undefined, keepdim: false, dtype: undefined });
  });

  it("says what is wrong, naming the parameter and the value", () => {
    expect(bound(sum, fake, 1, true, "float64")).toBe("takes at most 3 positional arguments, got 4 (the parameters after * go in the options object)");
    expect(bound(sum, fake, { dims: 1 })).toBe('got an unknown option "dims"; did you mean "dim"?');
    expect(bound(sum, fake, { keep_dim: true })).toBe('got an unknown option "keep_dim"; did you mean "keepdim"?');
    expect(bound(sum, fake, { frobnicate: true })).toBe('got an unknown option "frobnicate"; the options are "input", "dim", "keepdim", "dtype"');
    expect(bound(sum, fake, 1, { dim: 0 })).toBe('got "dim" both as an argument and as an option');
    expect(bound(sum, fake, 1.5)).toBe('"dim" must be an int or int[], got number 1.5');
    expect(bound(sum, fake, [0, "1"])).toBe('"dim" must be an int or int[], got [number 0, string "1"]');
    expect(bound(sum, fake, 0, 1)).toBe('"keepdim" must be a bool, got number 1');
    expect(bound(sum, fake, { dtype: "float33" })).toBe('"dtype" must be a dtype, got string "float33"');
    expect(bound(sum)).toBe('missing the required argument "input"');
    expect(bound(sum, [1, 2])).toBe('"input" must be a Tensor, got [number 1, number 2] (wrap it with torch.tensor)');
  });

  it("turns 64-bit ints given as bigint into numbers, and refuses unsafe ones", () => {
    expect(bound(sum, fake, 1n)).toMatchObject({ dim: 1 });
    expect(bound(sum, fake, [0n, -1n])).toMatchObject({ dim: [0, -1] });
    expect(bound(sum, fake, 2n ** 60n)).toMatch(/"dim" must be an int or int\[\], got bigint/);
  });

  it("gathers varargs, or takes them as one list (x.reshape(2, 3) and x.reshape([2, 3]))", () => {
    expect(bound(zeros, 2, 3)).toEqual({ size: [2, 3], dtype: undefined });
    expect(bound(zeros, [2, 3], { dtype: "int32" })).toEqual({ size: [2, 3], dtype: "int32" });
    expect(bound(zeros, { size: [2], dtype: "int32" })).toEqual({ size: [2], dtype: "int32" });
    expect(bound(zeros, [])).toEqual({ size: [], dtype: undefined });
    expect(bound(zeros, 2, "3")).toBe('"size" must be a list of int, got [number 2, string "3"]');
    const shapes = parseSignature("broadcastShapes(...shapes: int[]) -> int[]");
    expect(bound(shapes, [2, 3])).toEqual({ shapes: [[2, 3]] });
    expect(bound(shapes, [2, 3], [3])).toEqual({ shapes: [[2, 3], [3]] });
    expect(bound(shapes, [[2, 3], [3]])).toEqual({ shapes: [[2, 3], [3]] });
    // Index items never come as one list: t.index([0, 1]) is not t[0, 1] (PyTorch's t[[0, 1]] is advanced indexing).
    const index = parseSignature("index(input: Tensor, ...indices: IndexItem) -> Tensor");
    expect(bound(index, fake, 0, 1)).toEqual({ input: fake, indices: [0, 1] });
    expect(bound(index, fake, [0, 1])).toMatch(/"indices" must be a list of index/);
  });

  it("tries overloads in order and lists them all when none fits", () => {
    const max = ["max(input: Tensor) -> Tensor", "max(input: Tensor, dim: int, keepdim: bool = false) -> ValuesIndices", "max(input: Tensor, other: Tensor) -> Tensor"].map(
      parseSignature,
    );
    expect(bindCall(max, [fake], "max").index).toBe(0);
    expect(bindCall(max, [fake, 1], "max").index).toBe(1);
    expect(bindCall(max, [fake, { dim: 1, keepdim: true }], "max").index).toBe(1);
    expect(bindCall(max, [fake, fake], "max").index).toBe(2);
    expect(() => bindCall(max, [fake, "x"], "max")).toThrow(torch.ArgumentError);
    expect(() => bindCall(max, [fake, "x"], "max")).toThrow(
      [
        "max: no signature fits the arguments (a float32[2] Tensor, string \"x\"); expected one of:",
        "  max(input): takes at most 1 positional argument, got 2",
        "  max(input, dim, keepdim = false): \"dim\" must be an int, got string \"x\"",
        "  max(input, other): \"other\" must be a Tensor, got string \"x\"",
      ].join("\n"),
    );
  });
});

describe("the same call spelled both ways (the conformance suite runs every fixture case in each)", () => {
  it("moves arguments between positions and the options object as the signature allows", () => {
    expect(callStyles([sum], [fake, { dim: 1, dtype: "float64" }])).toEqual([
      { style: "positional", args: [fake, 1, { dtype: "float64" }] },
      { style: "options", args: [fake, { dim: 1, dtype: "float64" }] },
    ]);
    expect(callStyles([sum], [fake, { keepdim: true }])).toEqual([
      { style: "positional", args: [fake, null, true] },
      { style: "options", args: [fake, { keepdim: true }] },
    ]);
  });
});

describe.skipIf(realRuntimeMissing() !== undefined)("ops and methods through the binder", () => {
  it("every op has a doc and a signature whose defaults type-check, and methods exist on Tensor", () => {
    expect(opTable().length).toBeGreaterThan(8);
    for (const entry of opTable()) {
      expect(entry.doc.trim().length, entry.name).toBeGreaterThan(10);
      if (entry.method && !entry.method.property) expect(typeof (torch.Tensor.prototype as unknown as Record<string, unknown>)[entry.name], entry.name).toBe("function");
    }
  });

  it("a wrong call is an ArgumentError showing the signature, thrown before any native work", () => {
    const x = torch.tensor([[1, 2], [3, 4]], { dtype: "float32" });
    const before = torch.memory().numTensors;
    expect(() => x.sum({ dims: 1 } as never)).toThrow('Tensor.sum(dim?, keepdim = false, *, dtype?): got an unknown option "dims"; did you mean "dim"?');
    expect(() => torch.sum(x, 1, true, "float64" as never)).toThrow("sum(input, dim?, keepdim = false, *, dtype?): takes at most 3 positional arguments, got 4");
    expect(torch.memory().numTensors).toBe(before);
    const y = x.sum(0);
    expect(y.tolist()).toEqual([4, 6]);
    y.dispose();
    x.dispose();
    expect(() => x.sum()).toThrow(torch.DisposedError);
    expect(() => x.sum()).toThrow("Tensor.sum: the tensor has been disposed (float32[2, 2] on cpu:0)");
    expect(() => torch.sum(x)).toThrow('sum: "input" has been disposed (float32[2, 2] on cpu:0)');
  });
});
