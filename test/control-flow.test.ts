// torch.cond and torch.whileLoop: eager branching and looping on the host, one `case` / `while`
// node inside torch.compile (one compile for every branch and trip count), real XLA agreeing with
// our CPU plugin on the emitted StableHLO, and clear errors for what is not supported.
import { afterEach, describe, expect, it } from "vitest";

import * as torch from "../src/index.js";
import type { Tensor } from "../src/index.js";
import { oracleAvailable, runOnXla } from "./helpers/oracle.js";

const oracle = oracleAvailable();
const skipReason = oracle.ok ? "" : ` (skipped: ${oracle.reason})`;

const values = (t: Tensor): number[] => Array.from(t.dataSync() as ArrayLike<number>, Number);
const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

/** Steps of the Collatz map from n down to 1, in float64 JS arithmetic. */
function collatzSteps(n: number): number {
  let steps = 0;
  for (; n !== 1; steps++) n = n % 2 === 0 ? n / 2 : 3 * n + 1;
  return steps;
}

// One step of the Collatz map with a nested torch.cond: n / 2 when n is even, else 3n + 1.
const collatz = (n0: Tensor): Tensor[] =>
  torch.whileLoop(
    (n: Tensor) => n.ne(1),
    (n: Tensor, steps: Tensor) => [torch.cond(n.remainder(2).eq(0), (m: Tensor) => m.floorDivide(2), (m: Tensor) => m.mul(3).add(1), [n]) as Tensor, steps.add(1)],
    [n0, torch.tensor(0, { dtype: "int64" })],
  );

afterEach(() => torch.setEagerMode("strict"));

describe("torch.cond eagerly", () => {
  it("runs the branch pred picks, for booleans, numbers and one-element tensors of any dtype", () => {
    const x = torch.tensor([1.5, -2, 3]);
    const twice = (a: Tensor) => a.mul(2);
    const minusOne = (a: Tensor) => a.sub(1);
    expect(values(torch.cond(true, twice, minusOne, [x]) as Tensor)).toEqual([3, -4, 6]);
    expect(values(torch.cond(0, twice, minusOne, [x]) as Tensor)).toEqual([0.5, -3, 2]);
    expect(values(torch.cond(x.sum().gt(0), twice, minusOne, [x]) as Tensor)).toEqual([3, -4, 6]);
    expect(values(torch.cond(torch.tensor([[0.0]]), twice, minusOne, [x]) as Tensor)).toEqual([0.5, -3, 2]);
    expect(values(torch.cond(torch.tensor([7], { dtype: "int32" }), twice, minusOne, [x]) as Tensor)).toEqual([3, -4, 6]);
    expect(values(torch.cond(torch.tensor(Number.NaN), twice, minusOne, [x]) as Tensor)).toEqual([3, -4, 6]); // bool(nan) is True
  });

  it("returns arrays as the branch returns them, and runs only one branch", () => {
    let falseRan = false;
    const out = torch.cond(
      torch.tensor(true),
      (a: Tensor, b: Tensor) => [a.add(b), a.mul(b)],
      () => {
        falseRan = true;
        return [];
      },
      [torch.tensor([1, 2]), torch.tensor([3, 4])],
    ) as Tensor[];
    expect(out.map(values)).toEqual([
      [4, 6],
      [3, 8],
    ]);
    expect(falseRan).toBe(false);
  });

  it("differentiates the branch that ran", () => {
    const x = torch.tensor([0.5, -1.25, 2], { requiresGrad: true });
    const y = torch.cond(x.sum().gt(0), (a: Tensor) => a.mul(a).sum(), (a: Tensor) => a.sum(), [x]) as Tensor;
    y.backward();
    expect(values(x.grad!)).toEqual([1, -2.5, 4]);
  });

  it("rejects a pred of several elements and branches that return non-tensors", () => {
    expect(() => torch.cond(torch.tensor([1, 0]), (a: Tensor) => a, (a: Tensor) => a, [torch.tensor(1)])).toThrow(torch.ShapeError);
    expect(() => torch.cond(torch.tensor([1, 0]), (a: Tensor) => a, (a: Tensor) => a, [])).toThrow(/one-element tensor, got int64\[2\]/);
    expect(() => torch.cond(true, () => 3 as never, () => 3 as never)).toThrow(torch.ArgumentError);
    expect(() => torch.cond("yes" as never, () => torch.tensor(1), () => torch.tensor(1))).toThrow(/pred must be a boolean/);
  });

  it("works in fused eager mode", () => {
    torch.setEagerMode("fused");
    const x = torch.tensor([1, -5, 2]);
    expect(values(torch.cond(x.sum().gt(0), (a: Tensor) => a.mul(2), (a: Tensor) => a.neg(), [x]) as Tensor)).toEqual([-1, 5, -2]);
    expect(collatz(torch.tensor(6, { dtype: "int64" })).map(values)).toEqual([[1], [collatzSteps(6)]].map((v) => v));
  });
});

describe("torch.whileLoop eagerly", () => {
  it("loops on the host until condFn is false", () => {
    for (const n of [1, 6, 27]) {
      const [end, steps] = collatz(torch.tensor(n, { dtype: "int64" }));
      expect(values(end!)).toEqual([1]);
      expect(values(steps!)).toEqual([collatzSteps(n)]);
    }
    const [x] = torch.whileLoop((v: Tensor) => v.sum().lt(100), (v: Tensor) => [v.mul(2)], [torch.tensor([1, 2])]);
    expect(values(x!)).toEqual([64, 128]);
    expect(torch.whileLoop(() => false, (v: Tensor) => [v], [torch.tensor([3])]).map(values)).toEqual([[3]]);
  });

  it("checks what bodyFn returns and what condFn returns, naming the index and both types", () => {
    const start = [torch.tensor([1, 2]), torch.tensor(0)];
    const once = (_: Tensor, i: Tensor) => i.lt(1);
    expect(() => torch.whileLoop(once, (v: Tensor, i: Tensor) => [v.reshape([2, 1]), i.add(1)], start)).toThrow(
      "torch.whileLoop: bodyFn's output 0 is int64[2, 1] but carried input 0 is int64[2]",
    );
    expect(() => torch.whileLoop(once, (v: Tensor, i: Tensor) => [v, i.mul(0.5)], start)).toThrow(/output 1 is float32\[\] but carried input 1 is int64\[\]/);
    expect(() => torch.whileLoop(once, (v: Tensor) => [v], start)).toThrow(/returned 1 tensors, expected 2/);
    expect(() => torch.whileLoop((v: Tensor) => v.gt(0), (v: Tensor) => [v], start)).toThrow(/condFn must return a bool scalar tensor or a boolean, got bool\[2\]/);
    expect(() => torch.whileLoop(once, (v: Tensor) => [v], [])).toThrow(torch.ArgumentError);
  });
});

describe("torch.cond inside torch.compile", () => {
  const pick = (x: Tensor) => torch.cond(x.sum().gt(0), (a: Tensor) => a.mul(2), (a: Tensor) => a.sub(1), [x]) as Tensor;

  it("decides a data-dependent pred on the device: both signs, one compile, no graph break", () => {
    const f = torch.compile(pick, { fullgraph: true });
    for (const xs of [[1.5, 2, -0.5], [-1, -2, 0.25], [0, 0, 0], [3, -3, 1e-3]]) {
      const want = sum(xs) > 0 ? xs.map((v) => v * 2) : xs.map((v) => v - 1);
      const got = values(f(torch.tensor(xs, { dtype: "float32" })));
      got.forEach((v, i) => expect(v).toBeCloseTo(want[i]!, 5));
    }
    expect(f.stats().compiles).toBe(1);
    expect(f.stats().graphBreaks).toEqual([]);
    expect(f.lower(torch.tensor([1, 2, 3])).text).toContain('"stablehlo.case"');
  });

  it("takes a float pred (nonzero is true), several outputs and a module parameter it closes over", () => {
    const lin = new torch.nn.Linear(2, 2);
    torch.noGrad(() => {
      lin.weight.copy_(torch.tensor([[1, 2], [3, 4]]));
      lin.bias!.copy_(torch.tensor([0.5, -0.5]));
    });
    const f = torch.compile(
      (x: Tensor, s: Tensor) => torch.cond(s, (a: Tensor) => [lin.forward(a) as Tensor, a.sum()], (a: Tensor) => [a.neg(), a.sum().mul(10)], [x]) as Tensor[],
      { fullgraph: true },
    );
    const x = [1, -1];
    const [onTrue, total] = f(torch.tensor(x, { dtype: "float32" }), torch.tensor(0.25));
    expect(values(onTrue!)).toEqual([1 - 2 + 0.5, 3 - 4 - 0.5]);
    expect(values(total!)).toEqual([0]);
    const [onFalse, total10] = f(torch.tensor([2, 3], { dtype: "float32" }), torch.tensor(0, { dtype: "float32" }));
    expect(values(onFalse!)).toEqual([-2, -3]);
    expect(values(total10!)).toEqual([50]);
    // The parameter is read at each call, not baked in.
    torch.noGrad(() => lin.bias!.copy_(torch.tensor([1, 1])));
    expect(values(f(torch.tensor(x, { dtype: "float32" }), torch.tensor(1, { dtype: "float32" }))[0]!)).toEqual([1 - 2 + 1, 3 - 4 + 1]);
    expect(f.stats().compiles).toBe(1);
    // The parameters require grad: the forward runs, a backward through the case is refused.
    expect(() => f(torch.tensor(x, { dtype: "float32" }), torch.tensor(1, { dtype: "float32" }))[0]!.sum().backward()).toThrow(torch.NotSupportedError);
    expect(lin.weight.grad).toBeNull();
  });

  it("names both branches' outputs when they differ", () => {
    const bad = torch.compile((x: Tensor) => torch.cond(x.sum().gt(0), (a: Tensor) => a.sum(), (a: Tensor) => a, [x]), { fullgraph: true });
    expect(() => bad(torch.tensor([1, 2]))).toThrow("torch.cond: both branches must return the same tensors (shapes and dtypes): trueFn returns (int64[]), falseFn returns (int64[2])");
    const dtypes = torch.compile((x: Tensor) => torch.cond(x.sum().gt(0), (a: Tensor) => a.mul(1.5), (a: Tensor) => a, [x]), { fullgraph: true });
    expect(() => dtypes(torch.tensor([1, 2]))).toThrow(torch.ShapeError);
    const count = torch.compile((x: Tensor) => torch.cond(x.sum().gt(0), (a: Tensor) => [a, a], (a: Tensor) => [a], [x]), { fullgraph: true });
    expect(() => count(torch.tensor([1, 2]))).toThrow(/trueFn returns \(int64\[2\], int64\[2\]\), falseFn returns \(int64\[2\]\)/);
  });

  it("refuses a gradient through a traced cond with a typed error, never a wrong gradient", () => {
    const x = torch.tensor([0.5, 2], { requiresGrad: true });
    const f = torch.compile((a: Tensor) => {
      const y = torch.cond(a.sum().gt(0), (b: Tensor) => b.mul(b).sum(), (b: Tensor) => b.sum(), [a]) as Tensor;
      y.backward();
      return y;
    });
    expect(() => f(x)).toThrow(torch.NotSupportedError);
    expect(() => f(x)).toThrow(/gradients through torch.cond inside torch.compile are not supported yet/);
    expect(x.grad).toBeNull();
  });
});

describe("torch.whileLoop inside torch.compile", () => {
  it("runs a data-dependent trip count on the device with one compile (Collatz, with a nested cond)", () => {
    const f = torch.compile(collatz, { fullgraph: true });
    for (const n of [6, 7, 27, 1]) {
      const [end, steps] = f(torch.tensor(n, { dtype: "int64" }));
      expect(values(end!)).toEqual([1]);
      expect(values(steps!)).toEqual([collatzSteps(n)]);
    }
    expect(f.stats().compiles).toBe(1);
    const text = f.lower(torch.tensor(6, { dtype: "int64" })).text;
    expect(text).toContain('"stablehlo.while"');
    expect(text).toContain('"stablehlo.case"');
  });

  it("doubles until a threshold read from a closure, carrying it through the loop", () => {
    const limit = torch.tensor(100);
    const f = torch.compile((x: Tensor) => torch.whileLoop((v: Tensor, k: Tensor) => v.sum().lt(limit), (v: Tensor, k: Tensor) => [v.mul(2), k.add(1)], [x, torch.tensor(0)]), { fullgraph: true });
    for (const xs of [[1, 2], [0.5, 0.25], [200, 1]]) {
      let v = [...xs];
      let k = 0;
      while (sum(v) < 100) (v = v.map((a) => a * 2)), k++;
      const [gotV, gotK] = f(torch.tensor(xs, { dtype: "float32" }));
      expect(values(gotV!)).toEqual(v);
      expect(values(gotK!)).toEqual([k]);
    }
    torch.noGrad(() => limit.fill_(10));
    expect(values(f(torch.tensor([1, 2], { dtype: "float32" }))[1]!)).toEqual([2]);
    expect(f.stats().compiles).toBe(1);
  });

  it("checks the body's outputs and has no gradient", () => {
    const bad = torch.compile((x: Tensor) => torch.whileLoop((v: Tensor) => v.sum().lt(10), (v: Tensor) => [v.sum()], [x]), { fullgraph: true });
    expect(() => bad(torch.tensor([1, 2]))).toThrow("torch.whileLoop: bodyFn's output 0 is int64[] but carried input 0 is int64[2]");
    const x = torch.tensor([1.5, 2], { requiresGrad: true });
    const g = torch.compile((a: Tensor) => {
      const [y] = torch.whileLoop((v: Tensor) => v.sum().lt(10), (v: Tensor) => [v.mul(2)], [a]);
      y!.sum().backward();
      return y!;
    });
    expect(() => g(x)).toThrow(torch.NotSupportedError);
    expect(() => g(x)).toThrow(/a loop has no gradient/);
  });
});

describe("real XLA runs the emitted case and while", () => {
  it.skipIf(!oracle.ok)(`agrees with our CPU plugin${skipReason}`, async () => {
    const pick = torch.compile((x: Tensor) => torch.cond(x.sum().gt(0), (a: Tensor) => a.mul(2), (a: Tensor) => a.sub(1), [x]) as Tensor, { fullgraph: true });
    const loop = torch.compile(collatz, { fullgraph: true });
    const pickText = pick.lower(torch.tensor([1, 2, 3])).text;
    const loopText = loop.lower(torch.tensor(6, { dtype: "int64" })).text;
    const cases = [
      { name: "case+", mlir: pickText, inputs: [{ dtype: "float32" as const, shape: [3], values: [1.5, -2, 3] }], want: values(pick(torch.tensor([1.5, -2, 3]))) },
      { name: "case-", mlir: pickText, inputs: [{ dtype: "float32" as const, shape: [3], values: [-1.5, -2, 3] }], want: values(pick(torch.tensor([-1.5, -2, 3]))) },
      ...[27, 6].map((n) => ({ name: `while${n}`, mlir: loopText, inputs: [{ dtype: "int64" as const, shape: [], values: [BigInt(n)] }], want: [1, collatzSteps(n)] })),
    ];
    // The float32 function is traced for float32 inputs (the text above is for the int64 example).
    cases[0]!.mlir = cases[1]!.mlir = pick.lower(torch.tensor([1.5, -2, 3])).text;
    const results = await runOnXla(cases.map(({ name, mlir, inputs }) => ({ name, mlir, inputs })));
    for (const c of cases) {
      const r = results.get(c.name)!;
      if (!r.ok) throw new Error(`XLA failed on ${c.name} at ${r.stage}: ${r.error}`);
      expect(r.outputs.flatMap((o) => o.values.map(Number))).toEqual(c.want);
    }
  }, 120_000);
});
