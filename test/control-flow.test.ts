// torch.cond and torch.whileLoop: eager branching and looping on the host, one `case` / `while`
// node inside torch.compile (one compile for every branch and trip count), real XLA agreeing with
// our CPU plugin on the emitted StableHLO, and clear errors for what is not supported.
import { afterEach, describe, expect, it } from "vitest";

import * as torch from "../src/index.js";
import type { Tensor } from "../src/index.js";
import { addon } from "../src/runtime/addon.js";
import { oracleAvailable, runOnXla } from "./helpers/oracle.js";

const oracle = oracleAvailable();
const skipReason = oracle.ok ? "" : ` (skipped: ${oracle.reason})`;

const values = (t: Tensor): number[] => Array.from(t.dataSync() as ArrayLike<number>, Number);
const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);
/** After one `round` (which compiles: cached executables are not leaks), three more leave live tensors and native objects as they were. */
function expectNoLeaks(round: () => void): void {
  round();
  torch.runtime.synchronize();
  const start = { memory: torch.memory(), native: addon().liveCounts() };
  for (let i = 0; i < 3; i++) round();
  torch.runtime.synchronize();
  expect(torch.memory()).toEqual(start.memory);
  expect(addon().liveCounts()).toEqual(start.native);
}

/** `loss` compiled alone (backward outside it) and with its backward inside one compiled step. */
function compiledForwardAndStep(loss: (x: Tensor, y: Tensor) => Tensor) {
  const forward = torch.compile(loss, { fullgraph: true });
  const step = torch.compile(
    (x: Tensor, y: Tensor) => {
      const value = loss(x, y);
      value.backward();
      return value;
    },
    { fullgraph: true },
  );
  return { forward, step };
}

const close = (got: readonly number[], want: readonly number[], tol: number, what: string): void => {
  expect(got.length, what).toBe(want.length);
  got.forEach((g, i) => expect(Math.abs(g - want[i]!), `${what}[${i}]: ${g} vs ${want[i]}`).toBeLessThanOrEqual(tol));
};

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

  it("gives zeros to the operands the branch taken ignores when pred is a tensor, as PyTorch 2.13; none when pred is a boolean", () => {
    // PyTorch: torch.cond(torch.tensor(True), lambda a, b: a.sin(), lambda a, b: b.cos(), (x, y)) leaves
    // y.grad zeros; with pred True (a Python bool) it calls the branch and y.grad stays None; an output
    // that ignores every operand still requires grad; integer operands get nothing.
    const xs = [0.25, -1.5, 2];
    for (const pred of [torch.tensor(true), torch.tensor(1.5), true] as const) {
      torch.tidy(() => {
        const x = torch.tensor(xs, { dtype: "float64", requiresGrad: true });
        const y = torch.tensor([3, 4, 5], { dtype: "float64", requiresGrad: true });
        const n = torch.tensor([1, 2, 3]);
        const [sin, constant] = torch.cond(pred, (a: Tensor, _b: Tensor, k: Tensor) => [a.sin().mul(k), k.to("float64")], (_a: Tensor, b: Tensor, k: Tensor) => [b.cos(), k.to("float64")], [x, y, n]) as Tensor[];
        expect([sin!.requiresGrad, constant!.requiresGrad]).toEqual([true, pred !== true]);
        sin!.sum().backward();
        close(values(x.grad!), xs.map((v, i) => Math.cos(v) * (i + 1)), 1e-15, "x.grad");
        if (pred === true) expect(y.grad).toBeNull();
        else expect(values(y.grad!)).toEqual([0, 0, 0]);
      });
    }
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
    // The parameters require grad: a backward outside the compiled function reaches them through the case.
    f(torch.tensor(x, { dtype: "float32" }), torch.tensor(1, { dtype: "float32" }))[0]!.sum().backward();
    expect(values(lin.weight.grad!)).toEqual([1, -1, 1, -1]);
    expect(values(lin.bias!.grad!)).toEqual([1, 1]);
  });

  it("names both branches' outputs when they differ", () => {
    const bad = torch.compile((x: Tensor) => torch.cond(x.sum().gt(0), (a: Tensor) => a.sum(), (a: Tensor) => a, [x]), { fullgraph: true });
    expect(() => bad(torch.tensor([1, 2]))).toThrow("torch.cond: both branches must return the same tensors (shapes and dtypes): trueFn returns (int64[]), falseFn returns (int64[2])");
    const dtypes = torch.compile((x: Tensor) => torch.cond(x.sum().gt(0), (a: Tensor) => a.mul(1.5), (a: Tensor) => a, [x]), { fullgraph: true });
    expect(() => dtypes(torch.tensor([1, 2]))).toThrow(torch.ShapeError);
    const count = torch.compile((x: Tensor) => torch.cond(x.sum().gt(0), (a: Tensor) => [a, a], (a: Tensor) => [a], [x]), { fullgraph: true });
    expect(() => count(torch.tensor([1, 2]))).toThrow(/trueFn returns \(int64\[2\], int64\[2\]\), falseFn returns \(int64\[2\]\)/);
  });
});

describe("gradients through torch.cond inside torch.compile", () => {
  const f64 = (xs: readonly number[]): Tensor => torch.tensor([...xs], { dtype: "float64" });

  /** Central finite differences of `loss()` with respect to every element of `t` (float64, changed in place and put back). */
  function finiteDiff(loss: () => number, t: Tensor, h = 1e-6): number[] {
    const base = values(t);
    const set = (vs: number[]) => torch.tidy(() => torch.noGrad(() => void t.copy_(f64(vs).reshape(t.shape))));
    const grads = base.map((v, j) => {
      const at = (d: number): number => {
        set(base.map((b, k) => (k === j ? v + d : b)));
        return loss();
      };
      return (at(h) - at(-h)) / (2 * h);
    });
    set(base);
    return grads;
  }

  // The true branch reads the Linear's parameters and ignores y; the false branch reads y and ignores the Linear.
  torch.manualSeed(11);
  const lin = new torch.nn.Linear(3, 2, { dtype: "float64" });
  const fn = (x: Tensor, y: Tensor): Tensor =>
    torch.cond(
      x.sum().gt(0),
      (a: Tensor, _b: Tensor) => (lin.forward(a) as Tensor).tanh().sum().add(a.mul(a).sum()),
      (a: Tensor, b: Tensor) => a.sum().mul(b.exp().sum()),
      [x, y],
    ) as Tensor;
  const ys = [0.5, -0.25, 0.1, 0.8];
  const branches = [
    { name: "true branch", xs: [0.3, -0.7, 1.1], ignored: ["y"] },
    { name: "false branch", xs: [-0.4, 0.2, -0.9], ignored: ["weight", "bias"] },
  ];
  type Grads = Record<"x" | "y" | "weight" | "bias", number[] | null>;

  /** The gradients `run` leaves on x, y and the Linear's parameters, all starting with none. */
  function gradsOf(run: (x: Tensor, y: Tensor) => void, xs: readonly number[]): Grads {
    lin.zeroGrad();
    return torch.tidy(() => {
      const x = f64(xs).requiresGrad_();
      const y = f64(ys).requiresGrad_();
      run(x, y);
      const of = (t: Tensor) => (t.grad === null ? null : values(t.grad));
      const grads = { x: of(x), y: of(y), weight: of(lin.weight), bias: of(lin.bias!) };
      lin.zeroGrad();
      return grads;
    });
  }


  it("equal the eager cond's and float64 finite differences, backward inside and outside the compiled function, one compile for both branches", () => {
    const { forward, step } = compiledForwardAndStep(fn);
    for (const { name, xs, ignored } of branches) {
      const eager = gradsOf((x, y) => fn(x, y).backward(), xs);
      const outside = gradsOf((x, y) => forward(x, y).backward(), xs);
      const inside = gradsOf((x, y) => void step(x, y), xs);
      const numeric = torch.tidy(() => {
        const x = f64(xs);
        const y = f64(ys);
        const loss = () => torch.tidy(() => torch.noGrad(() => fn(x, y).item() as number));
        return { x: finiteDiff(loss, x), y: finiteDiff(loss, y), weight: finiteDiff(loss, lin.weight), bias: finiteDiff(loss, lin.bias!) };
      });
      for (const key of ["x", "y", "weight", "bias"] as const) {
        for (const [how, got] of [["outside", outside[key]], ["inside", inside[key]]] as const) {
          const what = `${name}, backward ${how}: grad of ${key}`;
          expect(got, what).not.toBeNull();
          close(got!, numeric[key], 1e-7, `${what} vs finite differences`);
          // PyTorch 2.13's torch.cond gives zeros to an operand or closed-over parameter the branch taken
          // ignores. Eagerly an ignored operand gets zeros too, but the other branch never runs, so the
          // parameters only it closes over are not seen and get no gradient.
          if (ignored.includes(key)) {
            expect(eager[key], what).toEqual(key === "y" ? got!.map(() => 0) : null);
            expect(got, what).toEqual(got!.map(() => 0));
          } else {
            close(got!, eager[key]!, 1e-12, `${what} vs eager`);
          }
        }
      }
    }
    expect(forward.stats().compiles).toBe(1);
    expect(step.stats().compiles).toBe(1);
  });

  it("give no gradient to the pred or an integer operand, take outputs without a cotangent, and go through a nested cond", () => {
    const g = (x: Tensor, n: Tensor, s: Tensor): Tensor[] =>
      torch.cond(
        s,
        (a: Tensor, k: Tensor) => [a.mul(k), torch.cond(a.sum().gt(0), (b: Tensor) => b.sin(), (b: Tensor) => b.cos(), [a]) as Tensor],
        (a: Tensor, k: Tensor) => [a.add(k), a.exp()],
        [x, n],
      ) as Tensor[];
    const compiled = torch.compile(g, { fullgraph: true });
    const n = torch.tensor(3, { dtype: "int64" });
    for (const [xs, sv] of [[[0.5, 1.5], 1], [[-0.5, -1.5], 2], [[0.25, -1], 0]] as const) {
      for (const out of [0, 1]) {
        const grads = [g, compiled].map((run) =>
          torch.tidy(() => {
            const x = f64(xs).requiresGrad_();
            const s = torch.tensor(sv, { dtype: "float64", requiresGrad: true });
            run(x, n, s)[out]!.sum().backward(); // the other output gets no cotangent
            // a compiled forward is one unit for autograd: an input it does not differentiate gets zeros (null eagerly)
            expect(s.grad === null ? [] : values(s.grad).filter((v) => v !== 0)).toEqual([]);
            return values(x.grad!);
          }),
        );
        const want = sv === 0 ? xs.map((v) => (out === 0 ? 1 : Math.exp(v))) : xs.map((v) => (out === 0 ? 3 : sum([...xs]) > 0 ? Math.cos(v) : -Math.sin(v)));
        close(grads[0]!, want, 1e-12, `eager, s = ${sv}, output ${out}`);
        close(grads[1]!, want, 1e-12, `compiled, s = ${sv}, output ${out}`);
      }
    }
    expect(compiled.stats().compiles).toBe(1);
  });

  it("train: a compiled step with a cond follows the eager step's losses and parameters", () => {
    const build = () => {
      torch.manualSeed(5);
      const a = new torch.nn.Linear(3, 1, { dtype: "float64" });
      const b = new torch.nn.Linear(3, 1, { dtype: "float64" });
      const opt = new torch.optim.SGD([...a.parameters(), ...b.parameters()], { lr: 0.1 });
      const step = (x: Tensor, target: Tensor): Tensor => {
        opt.zeroGrad();
        const out = torch.cond(x.sum().gt(0), (v: Tensor) => (a.forward(v) as Tensor).tanh(), (v: Tensor) => (b.forward(v) as Tensor).mul(2), [x]) as Tensor;
        const loss = out.sub(target).pow(2).mean();
        loss.backward();
        opt.step();
        return loss;
      };
      return { modules: [a, b], opt, step };
    };
    const eager = build();
    const compiled = build();
    const step = torch.compile(compiled.step, { fullgraph: true });
    const batch = (i: number) => f64(Array.from({ length: 12 }, (_, k) => Math.sin(i * 7 + k) + (i % 2 === 0 ? 0.5 : -0.5))).reshape([4, 3]);
    const target = (i: number) => f64([0.1 * i, -0.2, 0.3, 0.05 * i]).reshape([4, 1]);
    const memory: number[] = [];
    try {
      for (let i = 0; i < 8; i++) {
        const [want, got] = torch.tidy(() => [eager.step(batch(i), target(i)).item() as number, step(batch(i), target(i)).item() as number]);
        expect(Math.abs(got - want), `step ${i}: ${got} vs eager ${want}`).toBeLessThan(1e-12);
        memory.push(torch.memory().numTensors);
      }
      eager.modules.forEach((m, j) => {
        const e = m.stateDict();
        const c = compiled.modules[j]!.stateDict();
        for (const k of Object.keys(e)) close(values(c[k]!), values(e[k]!), 1e-12, `module ${j} ${k}`);
      });
      expect(step.stats()).toMatchObject({ calls: 8, compiles: 1 });
      expect(new Set(memory).size, "no tensors pile up from step to step").toBe(1);
    } finally {
      for (const { modules, opt } of [eager, compiled]) {
        opt.dispose();
        for (const m of modules) m.dispose();
      }
    }
  });

  it("leave no tensors, buffers or executables behind", () => {
    const { forward, step } = compiledForwardAndStep(fn);
    const round = () => {
      for (const { xs } of branches) {
        gradsOf((x, y) => forward(x, y).backward(), xs);
        gradsOf((x, y) => void step(x, y), xs);
      }
    };
    expectNoLeaks(round);
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

  it("checks the body's outputs", () => {
    const bad = torch.compile((x: Tensor) => torch.whileLoop((v: Tensor) => v.sum().lt(10), (v: Tensor) => [v.sum()], [x]), { fullgraph: true });
    expect(() => bad(torch.tensor([1, 2]))).toThrow("torch.whileLoop: bodyFn's output 0 is int64[] but carried input 0 is int64[2]");
  });
});

describe("gradients through torch.whileLoop inside torch.compile", () => {
  const f64 = (xs: readonly number[]): Tensor => torch.tensor([...xs], { dtype: "float64" });
  // n steps of v ← v + sin(v)·w/20, n an int64 input read only on the device; w is closed over
  const w = f64([0.8, -1.3, 0.6]).requiresGrad_();
  const run = (x: Tensor, n: Tensor): Tensor => {
    const [v] = torch.whileLoop((_v: Tensor, k: Tensor) => k.lt(n), (v: Tensor, k: Tensor) => [v.add(v.sin().mul(w).mul(0.05)), k.add(1)], [x, torch.zerosLike(n)]);
    return v!.mul(v!).sum();
  };
  const xs = [0.3, -0.9, 1.7];

  /** Gradients of x and w in float64 JS arithmetic, by the chain rule along the n iterations. */
  function reference(n: number): { x: number[]; w: number[] } {
    const states = [xs];
    for (let i = 0; i < n; i++) states.push(states[i]!.map((v, j) => v + Math.sin(v) * w0[j]! * 0.05));
    let ct = states[n]!.map((v) => 2 * v);
    const gw = xs.map(() => 0);
    for (let i = n - 1; i >= 0; i--) {
      states[i]!.forEach((v, j) => (gw[j]! += ct[j]! * Math.sin(v) * 0.05));
      ct = states[i]!.map((v, j) => ct[j]! * (1 + Math.cos(v) * w0[j]! * 0.05));
    }
    return { x: ct, w: gw };
  }
  const w0 = values(w);

  it("equal the chain rule's and the eager loop's, backward inside and outside the compiled function, one compile for every trip count", () => {
    const { forward, step } = compiledForwardAndStep(run);
    for (const n of [0, 1, 3, 6, 131]) {
      // 131 trips: 44 checkpointed segments of 3, the last one 2 long
      const want = reference(n);
      for (const [how, go] of [
        ["eager", (x: Tensor, k: Tensor) => run(x, k).backward()],
        ["backward outside", (x: Tensor, k: Tensor) => forward(x, k).backward()],
        ["backward inside", (x: Tensor, k: Tensor) => void step(x, k)],
      ] as const) {
        torch.tidy(() => {
          const x = f64(xs).requiresGrad_();
          go(x, torch.tensor(n));
          close(values(x.grad!), want.x, 1e-13, `${how}, n = ${n}: grad of x`);
          // no iteration ran, so eagerly w was never used; the compiled loop gives it zeros, as a cond
          // gives an ignored operand. (PyTorch 2.13's while_loop gets a zero trip count wrong: it
          // differentiates one iteration anyway.)
          if (how === "eager" && n === 0) expect(w.grad).toBeNull();
          else close(values(w.grad!), want.w, 1e-13, `${how}, n = ${n}: grad of w`);
          w.grad = null;
        });
      }
    }
    expect(forward.stats().compiles).toBe(1);
    expect(step.stats().compiles).toBe(1);
  });

  it("go through a trip count that depends on the float values (doubling until the sum reaches 10): 2^k", () => {
    const f = torch.compile((x: Tensor) => {
      const [y, k] = torch.whileLoop((v: Tensor) => v.sum().lt(10), (v: Tensor, k: Tensor) => [v.mul(2), k.add(1)], [x, torch.tensor(0)]);
      y!.mul(f64([1, 3])).sum().backward();
      return k!;
    });
    for (const start of [[1.5, 2], [0.25, 0.5], [20, 1]]) {
      const x = f64(start).requiresGrad_();
      const k = values(f(x))[0]!;
      expect(k).toBe(Math.max(0, Math.ceil(Math.log2(10 / sum(start)))));
      expect(values(x.grad!)).toEqual([2 ** k, 3 * 2 ** k]);
    }
    expect(f.stats().compiles).toBe(1);
  });

  it("leave no tensors, buffers or executables behind", () => {
    const forward = torch.compile(run, { fullgraph: true });
    const round = () => torch.tidy(() => {
      forward(f64(xs).requiresGrad_(), torch.tensor(3)).backward();
      w.grad = null;
    });
    expectNoLeaks(round);
  });
});

describe("real XLA runs the emitted case and while", () => {
  /** Runs each case's module on real XLA and checks its outputs against `want` (to 5 decimals). */
  async function expectXlaClose(cases: { name: string; mlir: string; inputs: Parameters<typeof runOnXla>[0][number]["inputs"]; want: number[] }[]): Promise<void> {
    const results = await runOnXla(cases.map(({ name, mlir, inputs }) => ({ name, mlir, inputs })));
    for (const c of cases) {
      const r = results.get(c.name)!;
      if (!r.ok) throw new Error(`XLA failed on ${c.name} at ${r.stage}: ${r.error}`);
      const got = r.outputs.flatMap((o) => o.values.map(Number));
      expect(got.length).toBe(c.want.length);
      got.forEach((v, i) => expect(v).toBeCloseTo(c.want[i]!, 5));
    }
  }

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

  it.skipIf(!oracle.ok)(`agrees on a while loop's gradient (loops that count and recompute)${skipReason}`, async () => {
    const w = torch.tensor([0.8, -1.3, 0.6], { requiresGrad: true });
    const step = torch.compile((x: Tensor, n: Tensor) => {
      const [v] = torch.whileLoop((_v: Tensor, k: Tensor) => k.lt(n), (v: Tensor, k: Tensor) => [v.sin().mul(w).add(v.mul(0.5)), k.add(1)], [x, torch.zerosLike(n)]);
      const loss = v!.mul(v!).sum();
      loss.backward();
      return loss;
    });
    const xs = [0.3, -0.9, 1.7];
    const mlir = step.lower(torch.tensor(xs, { requiresGrad: true }), torch.tensor(2)).text;
    const cases = [0, 2, 5].map((n) => {
      const x = torch.tensor(xs, { requiresGrad: true });
      const loss = values(step(x, torch.tensor(n)));
      const want = [...loss, ...values(x.grad!), ...values(w.grad!)];
      w.grad = null;
      const inputs = [
        { dtype: "float32" as const, shape: [3], values: xs },
        { dtype: "int64" as const, shape: [], values: [BigInt(n)] },
        { dtype: "float32" as const, shape: [3], values: values(w) },
      ];
      return { name: `while-grad${n}`, mlir, inputs, want };
    });
    await expectXlaClose(cases);
  }, 120_000);

  const libtpu = torch.runtime.plugins().find((p) => p.name === "tpu")?.found === true;
  it.skipIf(!libtpu)(`libtpu compiles a training step through a cond and a while loop for v5e:2x2${libtpu ? "" : " (skipped: libtpu not found; pip install libtpu==0.0.42.1 in .venv)"}`, async () => {
    const w = torch.tensor([0.8, -1.3, 0.6], { requiresGrad: true });
    const step = torch.compile((x: Tensor, n: Tensor) => {
      const [v] = torch.whileLoop((_v: Tensor, k: Tensor) => k.lt(n), (v: Tensor, k: Tensor) => [torch.cond(v.sum().gt(0), (a: Tensor) => a.sin().mul(w), (a: Tensor) => a.cos(), [v]) as Tensor, k.add(1)], [x, torch.zerosLike(n)]);
      const loss = v!.mul(v!).sum();
      loss.backward();
      return loss;
    });
    const lowered = step.lower(torch.tensor([0.3, -0.9, 1.7], { requiresGrad: true }), torch.tensor(2));
    const { outputs, memory } = await lowered.compileFor("tpu", { topology: "v5e:2x2" });
    expect(outputs.map((o) => `${o.dtype}[${o.shape.join(",")}]`)).toEqual(["float32[]", "float32[3]", "float32[3]"]); // loss, x.grad, w.grad
    expect(memory.argument_size_in_bytes).toBeGreaterThan(0);
  }, 120_000);

  it.skipIf(!oracle.ok)(`agrees on a case's gradient (a case of the branches' VJPs)${skipReason}`, async () => {
    const step = torch.compile((x: Tensor) => {
      const loss = torch.cond(x.sum().gt(0), (a: Tensor) => a.sin().mul(a).sum(), (a: Tensor) => a.exp().sum(), [x]) as Tensor;
      loss.backward();
      return loss;
    });
    const inputs = [[0.5, 2, -1], [-0.5, -2, 1]];
    const mlir = step.lower(torch.tensor(inputs[0]!, { requiresGrad: true })).text;
    const cases = inputs.map((xs, i) => {
      const x = torch.tensor(xs, { requiresGrad: true });
      const loss = values(step(x));
      return { name: `grad${i}`, mlir, inputs: [{ dtype: "float32" as const, shape: [3], values: xs }], want: [...loss, ...values(x.grad!)] };
    });
    await expectXlaClose(cases);
  }, 120_000);
});
