// Tensor basics on the real CPU plugin: printing against PyTorch's repr strings
// (test/fixtures/printing/repr.json, written by scripts/fixtures/printing.py), to/cpu/clone/detach/
// contiguous, in-place ops rebinding their tensor, and async tidy scopes.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import * as torch from "../src/index.js";
import { pyExp, pyFixed } from "../src/format.js";
import { addon } from "../src/runtime/addon.js";
import { eagerSuite, missing, valuesOf } from "./eager/helpers.js";
import { fixturesDir } from "./helpers/fixtures.js";

const test = missing ? it.skip : it;
if (missing) it.skip(`skipped: ${missing}`, () => {});

interface ReprCase {
  name: string;
  dtype: torch.DType;
  shape: number[];
  values: (number | string | boolean)[];
  device: string | null;
  requiresGrad: boolean;
  expected: string;
}
const repr = JSON.parse(readFileSync(join(fixturesDir, "printing", "repr.json"), "utf8")) as { torch: string; cases: ReprCase[] };

const special = (v: number | string | boolean): number | bigint | boolean =>
  v === "nan" ? NaN : v === "inf" ? Infinity : v === "-inf" ? -Infinity : typeof v === "string" ? BigInt(v) : v;

/** The fixture's tensor; cases printed by PyTorch on "tpu:0" are made on "cpu:1" (same length, so the same wrapping). */
function makeCase(c: ReprCase): { t: torch.Tensor; expected: string } {
  const device = c.device === null ? "cpu:0" : "cpu:1";
  const t = torch.tensor(c.values.map(special) as never, { dtype: c.dtype, shape: c.shape, device });
  t.requiresGrad = c.requiresGrad;
  return { t, expected: c.device === null ? c.expected : c.expected.replace(`device='${c.device}'`, "device='cpu:1'") };
}

describe(`printing matches PyTorch ${repr.torch}`, () => {
  eagerSuite();

  test(`${repr.cases.length} repr strings: notation, widths, wrapping, summaries, suffixes`, () => {
    expect(repr.cases.length).toBeGreaterThan(40);
    for (const c of repr.cases) {
      const { t, expected } = makeCase(c);
      try {
        expect(String(t), c.name).toBe(expected);
        expect(inspect(t), c.name).toBe(expected);
      } finally {
        t.dispose();
      }
    }
  });

  test("Python's fixed and exponent formatting: exact decimals, ties to even", () => {
    // Python: f"{x:.4f}", f"{x:.4e}" (these doubles are exact binary fractions, so the ties are real)
    expect(pyFixed(1.03125, 4)).toBe("1.0312");
    expect(pyFixed(1.09375, 4)).toBe("1.0938");
    expect(pyFixed(-0.5, 0)).toBe("-0");
    expect(pyFixed(2.5, 0)).toBe("2");
    expect(pyFixed(0.1, 20)).toBe("0.10000000000000000555");
    expect(pyExp(123456, 4)).toBe("1.2346e+05");
    expect(pyExp(1.03125e-7 * 2 ** 0, 2)).toBe("1.03e-07");
    expect(pyExp(99999.5, 4)).toBe("1.0000e+05");
    expect(pyExp(0, 4)).toBe("0.0000e+00");
    expect(pyExp(-0, 4)).toBe("-0.0000e+00");
    expect(pyExp(5e-324, 3)).toBe("4.941e-324");
  });

  test("a disposed tensor prints its aval instead of reading", () => {
    const t = torch.tensor([1, 2], { dtype: "int32" });
    t.dispose();
    expect(String(t)).toBe("tensor(<disposed>, size=[2], dtype=int32, device='cpu:0')");
  });
});

describe("to, cpu, clone, detach, contiguous", () => {
  eagerSuite();

  test("to(dtype) converts on the device; nothing to change returns the tensor itself", () => {
    const x = torch.tensor([1.75, -2.5, 300], { dtype: "float32" });
    expect(x.to("float32")).toBe(x);
    expect(x.to({ dtype: "float32", device: "cpu:0" })).toBe(x);
    const copy = x.to("float32", { copy: true });
    expect(copy).not.toBe(x);
    copy.dispose();
    const i = x.to("int32");
    expect(i.dtype).toBe("int32");
    expect(valuesOf(i)).toEqual([1, -2, 300]);
    const back = i.to(x); // another tensor's dtype and device
    expect([back.dtype, valuesOf(back)]).toEqual(["float32", [1, -2, 300]]);
    for (const t of [x, i, back]) t.dispose();
  });

  test("to(device) and cpu() copy between devices; dtype and device together", () => {
    const x = torch.tensor([[1, 2], [3, 4]], { dtype: "int16" });
    const y = x.to("cpu:1");
    expect([y.device, y.dtype, [...y.shape], valuesOf(y)]).toEqual(["cpu:1", "int16", [2, 2], [1, 2, 3, 4]]);
    const z = x.to({ device: { type: "cpu", index: 1 }, dtype: "float64" });
    expect([z.device, z.dtype, valuesOf(z)]).toEqual(["cpu:1", "float64", [1, 2, 3, 4]]);
    const home = z.cpu();
    expect([home.device, home.dtype]).toEqual(["cpu:0", "float64"]);
    expect(x.cpu()).toBe(x);
    for (const t of [x, y, z, home]) t.dispose();
  });

  test("to's three forms (dtype, device and dtype, other), positionally or as options", () => {
    const x = torch.tensor([1.5, -2], { dtype: "float32" });
    const made: torch.Tensor[] = [];
    const check = (t: torch.Tensor, device: string, dtype: string, values: number[]) => {
      made.push(t);
      expect([t.device, t.dtype, valuesOf(t)]).toEqual([device, dtype, values]);
    };
    check(x.to("float64", false, true), "cpu:0", "float64", [1.5, -2]);
    check(x.to("int32", { nonBlocking: true }), "cpu:0", "int32", [1, -2]);
    check(x.to("cpu:1", "float64"), "cpu:1", "float64", [1.5, -2]);
    check(x.to({ device: "cpu:1" }), "cpu:1", "float32", [1.5, -2]);
    check(x.to(null, "int16"), "cpu:0", "int16", [1, -2]);
    const other = torch.tensor([0], { dtype: "bfloat16", device: "cpu:1" });
    check(x.to(other, { copy: true }), "cpu:1", "bfloat16", [1.5, -2]);
    const same = x.to(x, true, true); // nonBlocking, copy
    expect(same).not.toBe(x);
    check(same, "cpu:0", "float32", [1.5, -2]);
    expect(x.to(null)).toBe(x);
    expect(x.to({ dtype: "float32", copy: false })).toBe(x);
    expect(() => x.to("float32", { nonBlocking: true, cpy: true } as never)).toThrow(torch.ArgumentError);
    for (const t of [x, other, ...made]) t.dispose();
  });

  test("clone, detach and contiguous return new tensors with the same values", () => {
    const x = torch.tensor([0.5, -1], { dtype: "bfloat16" });
    for (const t of [x.clone(), x.detach(), x.contiguous(), torch.clone(x), torch.detach(x)]) {
      expect(t).not.toBe(x);
      expect([t.dtype, valuesOf(t)]).toEqual(["bfloat16", [0.5, -1]]);
      t.dispose();
    }
    expect(x.requiresGrad).toBe(false);
    x.dispose();
  });

  test("dtype shortcuts return the tensor itself when nothing changes, as PyTorch's (x.float() is x)", () => {
    const x = torch.tensor([1.5, -2], { dtype: "float32" });
    const n = torch.tensor([3], { dtype: "int64" });
    expect(x.float()).toBe(x);
    expect(n.long()).toBe(n);
    expect(x.typeAs(x)).toBe(x);
    const d = x.double();
    const back = d.float();
    expect(back).not.toBe(x);
    expect([back.dtype, valuesOf(back)]).toEqual(["float32", [1.5, -2]]);
    for (const t of [x, n, d, back]) t.dispose();
  });

  test("dim, elementSize, itemsize, nbytes and isFloatingPoint, as PyTorch's", () => {
    // PyTorch: torch.zeros(2, 3, dtype=...).element_size() is 4, 2, 2, 8, 1 for float32, float16, bfloat16, int64, bool
    for (const [dtype, size, floating] of [["float32", 4, true], ["float16", 2, true], ["bfloat16", 2, true], ["int64", 8, false], ["bool", 1, false]] as const) {
      const t = torch.zeros([2, 3], { dtype });
      expect([t.dim(), t.elementSize(), t.itemsize, t.nbytes, t.isFloatingPoint()], dtype).toEqual([2, size, size, 6 * size, floating]);
      t.dispose();
    }
    const s = torch.tensor(1);
    expect([s.dim(), s.nbytes]).toEqual([0, 8]);
    s.dispose();
  });

  test("new* take this tensor's dtype and device unless given, and requiresGrad", () => {
    const x = torch.tensor([1], { dtype: "float64", device: "cpu:1" });
    const made = [x.newZeros(2, 3), x.newOnes([2]), x.newEmpty(4), x.newFull([2], 7), x.newTensor([1, 2]), x.newZeros([1], { dtype: "int32", device: "cpu:0" })];
    expect(made.map((t) => [t.dtype, t.device, [...t.shape]])).toEqual([
      ["float64", "cpu:1", [2, 3]],
      ["float64", "cpu:1", [2]],
      ["float64", "cpu:1", [4]],
      ["float64", "cpu:1", [2]],
      ["float64", "cpu:1", [2]],
      ["int32", "cpu:0", [1]],
    ]);
    expect(made.map(valuesOf).slice(0, 5)).toEqual([[0, 0, 0, 0, 0, 0], [1, 1], [0, 0, 0, 0], [7, 7], [1, 2]]);
    const leaf = x.newOnes([2], { requiresGrad: true });
    expect([leaf.requiresGrad, leaf.gradFn]).toEqual([true, null]);
    expect(() => x.newZeros([2], { dtype: "int64", requiresGrad: true })).toThrow(torch.DTypeError);
    for (const t of [x, leaf, ...made]) t.dispose();
  });

  test("bad targets are typed errors", () => {
    const x = torch.tensor([1]);
    expect(() => x.to("gpu" as never)).toThrow(torch.ArgumentError); // neither a dtype nor a device
    expect(() => x.to("cpu:9")).toThrow(/does not exist/);
    expect(() => x.to({ dtpe: "int32" } as never)).toThrow(torch.ArgumentError);
    expect(() => x.to(5 as never)).toThrow(torch.ArgumentError);
    expect(() => x.to(5 as never)).toThrow(/Tensor\.to: no signature fits the arguments \(number 5\); expected one of:\n  Tensor\.to\(dtype, nonBlocking = false, copy = false\)/);
    x.dispose();
    expect(() => x.to("int32")).toThrow(torch.DisposedError);
  });
});

describe("in-place ops rebind their tensor", () => {
  eagerSuite();

  test("the old buffer is freed and every reference sees the new values", () => {
    const x = torch.tensor([1, 2, 3], { dtype: "float32" });
    const alias = x;
    const buffers = addon().liveCounts().buffers;
    const r = x.add_(10).mul_(2).sub_(1, { alpha: 4 }).div_(2);
    expect(r).toBe(x);
    expect(valuesOf(alias)).toEqual([9, 10, 11]); // ((x + 10) * 2 - 4) / 2
    expect(addon().liveCounts().buffers).toBe(buffers);
    expect(torch.memory().numTensors).toBeGreaterThan(0);
    x.pow_(2).neg_().abs_().sqrt_();
    expect(valuesOf(x)).toEqual([9, 10, 11]);
    x.log_().exp_();
    valuesOf(x).forEach((v, i) => expect(Math.abs(v - [9, 10, 11][i]!)).toBeLessThan(1e-5));
    x.fill_(-2).relu_();
    expect(valuesOf(x)).toEqual([0, 0, 0]);
    x.fill_(0).sigmoid_();
    expect(valuesOf(x)).toEqual([0.5, 0.5, 0.5]);
    x.fill_(100).tanh_().clamp_({ max: 0.25 });
    expect(valuesOf(x)).toEqual([0.25, 0.25, 0.25]);
    x.dispose();
  });

  test("dtype stays self's: int += int64 tensor wraps into int8, int += 1.5 is a DTypeError", () => {
    const x = torch.tensor([100, -100], { dtype: "int8" });
    const big = torch.tensor([100, -100]); // int64
    x.add_(big);
    expect([x.dtype, valuesOf(x)]).toEqual(["int8", [-56, 56]]);
    expect(() => x.add_(1.5)).toThrow(torch.DTypeError);
    expect(() => x.add_(1.5)).toThrow(/result type Float \(float32\) can't be cast to the desired output type Char \(int8\)/);
    expect(() => x.exp_()).toThrow(torch.DTypeError);
    const mask = torch.tensor([true, false]);
    expect(() => mask.add_(1)).toThrow(/can't be cast/);
    expect([x.dtype, valuesOf(x)]).toEqual(["int8", [-56, 56]]); // unchanged by the failed ops
    for (const t of [x, big, mask]) t.dispose();
  });

  test("an in-place op cannot broadcast self to a larger shape", () => {
    const x = torch.tensor([1, 2, 3], { dtype: "float32" });
    const m = torch.ones([2, 3]);
    expect(() => x.mul_(m)).toThrow(torch.ShapeError);
    expect(() => x.mul_(m)).toThrow(/output with shape \[3\] doesn't match the broadcast shape \[2, 3\]/);
    for (const t of [x, m]) t.dispose();
  });

  test("copy_ broadcasts and converts src, across devices; fill_ takes a 0-d tensor; zero_", () => {
    const x = torch.zeros([2, 3], { dtype: "int32" });
    const src = torch.tensor([1.9, -2.9, 3], { device: "cpu:1" });
    x.copy_(src);
    expect([x.device, x.dtype, valuesOf(x)]).toEqual(["cpu:0", "int32", [1, -2, 3, 1, -2, 3]]);
    const v = torch.tensor(7, { dtype: "int64" });
    x.fill_(v);
    expect(valuesOf(x)).toEqual([7, 7, 7, 7, 7, 7]);
    x.zero_();
    expect(valuesOf(x)).toEqual([0, 0, 0, 0, 0, 0]);
    const wide = torch.zeros([4]);
    expect(() => x.copy_(wide)).toThrow(torch.ShapeError);
    expect(() => x.fill_(src)).toThrow(/0-dimension/);
    for (const t of [x, src, v, wide]) t.dispose();
  });

  test("maskedFill broadcasts the mask; maskedFill_ keeps self's dtype; a non-bool mask is an error", () => {
    const x = torch.tensor([[1, 2, 3], [4, 5, 6]], { dtype: "int32" });
    const mask = torch.tensor([true, false, true]);
    const y = x.maskedFill(mask, -1.7);
    expect([y.dtype, valuesOf(y)]).toEqual(["int32", [-1, 2, -1, -1, 5, -1]]);
    const nine = torch.tensor(9.9);
    const y2 = torch.maskedFill(x, mask, nine); // a float value tensor truncates into int, as in PyTorch
    expect(valuesOf(y2)).toEqual([9, 2, 9, 9, 5, 9]);
    x.maskedFill_(mask, 0);
    expect(valuesOf(x)).toEqual([0, 2, 0, 0, 5, 0]);
    const intMask = torch.tensor([1, 0, 1]);
    expect(() => x.maskedFill(intMask, 0)).toThrow(torch.DTypeError);
    for (const t of [x, mask, y, y2, intMask, nine]) t.dispose();
  });

  test("views are copies: writing into a reshaped tensor leaves its base unchanged", () => {
    const base = torch.tensor([1, 2, 3, 4], { dtype: "float32" });
    const view = base.reshape(2, 2);
    view.add_(100);
    expect(valuesOf(base)).toEqual([1, 2, 3, 4]);
    expect(valuesOf(view)).toEqual([101, 102, 103, 104]);
    for (const t of [base, view]) t.dispose();
  });

  test("an in-place op inside tidy keeps the tensor's scope", () => {
    const kept = torch.tidy(() => {
      const t = torch.zeros([2]);
      t.add_(3);
      return t;
    });
    expect(valuesOf(kept)).toEqual([3, 3]);
    kept.dispose();
    const outer = torch.zeros([2]);
    torch.tidy(() => {
      outer.add_(1); // outer's new buffer still belongs to outer, not to this scope
    });
    expect(outer.isDisposed).toBe(false);
    expect(valuesOf(outer)).toEqual([1, 1]);
    outer.dispose();
  });
});

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 1));

describe("async tidy", () => {
  eagerSuite();

  test("tensors made across awaits are freed, except what the promise resolves to", async () => {
    const start = torch.memory().numTensors;
    let temp: torch.Tensor | undefined;
    const result = await torch.tidy(async () => {
      temp = torch.ones([3]);
      await tick();
      const y = temp.mul(2);
      await tick();
      return { y, also: [torch.zeros([1])] };
    });
    expect(temp!.isDisposed).toBe(true);
    expect(valuesOf(result.y)).toEqual([2, 2, 2]);
    expect(torch.memory().numTensors).toBe(start + 2);
    result.y.dispose();
    result.also[0]!.dispose();
  });

  test("interleaved tidies each free only their own tensors", async () => {
    const gate = () => {
      let open!: () => void;
      const promise = new Promise<void>((resolve) => (open = resolve));
      return { promise, open };
    };
    const gates = { a: gate(), b: gate() };
    const first: Record<string, torch.Tensor> = {};
    const run = (name: "a" | "b") =>
      torch.tidy(async () => {
        first[name] = torch.zeros([1]);
        await gates[name].promise;
        return torch.ones([1]);
      });
    const pa = run("a");
    const pb = run("b"); // both pending, their continuations interleave on the event loop
    const outside = torch.ones([1]); // made while both are pending: belongs to neither
    gates.a.open();
    const a = await pa;
    expect([first.a!.isDisposed, first.b!.isDisposed]).toEqual([true, false]);
    gates.b.open();
    const b = await pb;
    expect(first.b!.isDisposed).toBe(true);
    expect([a.isDisposed, b.isDisposed, outside.isDisposed]).toEqual([false, false, false]);
    for (const t of [a, b, outside]) t.dispose();
  });

  test("a rejected async tidy frees everything and rethrows; a sync tidy nested in it returns to it", async () => {
    let inner: torch.Tensor | undefined;
    let temp: torch.Tensor | undefined;
    await expect(
      torch.tidy(async () => {
        temp = torch.ones([2]);
        await tick();
        inner = torch.tidy(() => torch.zeros([2]));
        expect(inner.isDisposed).toBe(false);
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect([temp!.isDisposed, inner!.isDisposed]).toEqual([true, true]);
  });

  test("work left running after an async tidy ends belongs to the caller's scope", async () => {
    let late: Promise<torch.Tensor> | undefined;
    const result = await torch.tidy(async () => {
      late = (async () => {
        await tick();
        await tick();
        return torch.ones([1]);
      })();
      return 1;
    });
    expect(result).toBe(1);
    const t = await late!;
    expect(t.isDisposed).toBe(false);
    t.dispose();
  });
});

describe("a dtype the device cannot hold", () => {
  test("float64 on a TPU is a DTypeError before anything reaches the plugin (creation, to, on-device creation)", () => {
    const before = torch.runtime.stats().compiles;
    expect(() => torch.tensor([1.5, 2], { dtype: "float64", device: "tpu" })).toThrow(torch.DTypeError);
    expect(() => torch.tensor([1.5, 2], { dtype: "float64", device: "tpu:0" })).toThrow(/tpu:0 cannot hold float64 tensors; use float32/);
    expect(() => torch.zeros([2], { dtype: "float64", device: "tpu" })).toThrow(torch.DTypeError);
    const x = torch.tensor([1.5, 2], { dtype: "float64" });
    expect(() => x.to("tpu")).toThrow(torch.DTypeError);
    x.dispose();
    expect(torch.runtime.stats().compiles).toBe(before);
  });
});
