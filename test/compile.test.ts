// torch.compile: whole functions traced into one graph and run as one executable. References:
// float64 arithmetic in JS, PyTorch's layer fixtures (test/fixtures/nn/modules.json: outputs and
// gradients of compiled modules) and PyTorch's 20-step loss curve of a character model trained by a
// compiled step (forward, backward and update in one executable).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import * as torch from "../src/index.js";
import { resolveDevice } from "../src/runtime/clients.js";
import { fixturesDir, makeInput, type TensorSpec } from "./helpers/fixtures.js";
import { CharModel, expectClose, expectNoLeaks, pytorchName, stateOf } from "./helpers/nn.js";

const nn = torch.nn;

expectNoLeaks();

const f64 = (rows: number[][]) => torch.tensor(rows, { dtype: "float64" });

describe("compiled functions", () => {
  it("give the function's values, compile once per signature and say why they recompile", () => {
    const f = torch.compile(function scaledExpSum(x: torch.Tensor, y: torch.Tensor, scale: number) {
      return x.mul(y).exp().sum(1).mul(scale);
    });
    const xs = [[1, 2, 3], [4, 5, 6]];
    const ys = [[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]];
    const want = (scale: number, rows = xs) => rows.map((r, i) => r.reduce((acc, v, j) => acc + Math.exp(v * ys[i % 2]![j]!), 0) * scale);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    process.env.TORCH_PJRT_LOGS = "recompiles";
    try {
      torch.tidy(() => {
        const x = f64(xs);
        const y = f64(ys);
        for (const [i, v] of (f(x, y, 2).tolist() as number[]).entries()) expect(v).toBeCloseTo(want(2)[i]!, 12);
        for (const [i, v] of (f(x, y, 2).tolist() as number[]).entries()) expect(v).toBeCloseTo(want(2)[i]!, 12);
        expect(f.stats()).toMatchObject({ calls: 2, hits: 1, compiles: 1, eagerCalls: 0 });
        for (const [i, v] of (f(x, y, 3).tolist() as number[]).entries()) expect(v).toBeCloseTo(want(3)[i]!, 12);
        const x4 = f64([...xs, ...xs]);
        const y4 = f64([...ys, ...ys]);
        for (const [i, v] of (f(x4, y4, 3).tolist() as number[]).entries()) expect(v).toBeCloseTo(want(3, [...xs, ...xs])[i]!, 12);
        expect(f.stats().recompileReasons).toEqual(["input 2 2 → 3", "input 0 shape [2, 3] → [4, 3]"]);
        expect(warn).toHaveBeenCalledWith("torch.compile: recompiling `scaledExpSum`: input 0 shape [2, 3] → [4, 3]");
        expect(f(x, y, 2).tolist()).toEqual(f(x, y, 2).tolist()); // the first signature is still cached
        expect(f.stats().compiles).toBe(3);
      });
    } finally {
      delete process.env.TORCH_PJRT_LOGS;
      warn.mockRestore();
    }
  });

  it("read the tensors they close over at every call, and write back what they change in place", () => {
    const w = torch.tensor([1, 2, 3], { dtype: "float64" });
    const count = torch.zeros([], { dtype: "float64" });
    const f = torch.compile((x: torch.Tensor) => {
      count.add_(1);
      return x.mul(w).sum();
    });
    try {
      torch.tidy(() => {
        const x = torch.tensor([1, 1, 1], { dtype: "float64" });
        expect(f(x).item()).toBe(6);
        torch.noGrad(() => w.copy_(torch.tensor([10, 20, 30], { dtype: "float64" })));
        expect(f(x).item()).toBe(60);
        expect(count.item()).toBe(2);
        expect(f.stats()).toMatchObject({ compiles: 1, hits: 1 });
        w.dispose();
        expect(() => f(x)).toThrow(/disposed/);
        expect(f.stats().recompileReasons).toEqual(["a tensor it reads (float64[3]) was disposed"]);
      });
    } finally {
      w.dispose();
      count.dispose();
    }
  });

  it("return nested results, inputs as themselves, and plain values", () => {
    const f = torch.compile((a: torch.Tensor, b: torch.Tensor) => ({ sum: a.add(b), pair: [a, a.neg()], label: "ab", n: 3 }));
    torch.tidy(() => {
      const a = torch.tensor([1, 2]);
      const b = torch.tensor([10, 20]);
      for (let i = 0; i < 2; i++) {
        const r = f(a, b);
        expect(r.sum.tolist()).toEqual([11, 22]);
        expect(r.pair[0]).toBe(a);
        expect(r.pair[1]!.tolist()).toEqual([-1, -2]);
        expect(r.label).toBe("ab");
        expect(r.n).toBe(3);
      }
    });
  });

  it("return a clone of an input as a new tensor: disposing it leaves the input alive, and it carries the clone's gradient", () => {
    const f = torch.compile((a: torch.Tensor) => [a.clone(), a.detach(), a.clone().mul(2)]);
    torch.tidy(() => {
      const a = torch.tensor([1.5, -2], { dtype: "float64", requiresGrad: true });
      for (let i = 0; i < 2; i++) {
        const [copy, detached, twice] = f(a) as torch.Tensor[];
        expect(copy).not.toBe(a);
        expect(copy!.tolist()).toEqual([1.5, -2]);
        expect(detached!.requiresGrad).toBe(false);
        copy!.mul(torch.tensor([3, 5], { dtype: "float64" })).sum().add(twice!.sum()).backward();
        copy!.dispose();
        expect(a.isDisposed).toBe(false);
        expect(a.grad!.tolist()).toEqual(i === 0 ? [5, 7] : [10, 14]);
      }
      // an argument changed in place and returned is the argument itself, as in PyTorch
      const bump = torch.compile((v: torch.Tensor) => v.add_(1));
      const b = torch.tensor([1.5, -2], { dtype: "float64" });
      expect(bump(b)).toBe(b);
      expect(bump(b)).toBe(b);
      expect(b.tolist()).toEqual([3.5, 0]);
    });
  });

  it("return the old value of a tensor the function changes in place (its buffer is then not donated)", () => {
    torch.tidy(() => {
      const before = torch.compile((v: torch.Tensor) => {
        const old = v.clone();
        v.add_(1);
        return old;
      });
      const x = torch.tensor([1, 2, 3]);
      for (let i = 0; i < 3; i++) {
        expect(before(x).tolist()).toEqual([1 + i, 2 + i, 3 + i]);
        expect(x.tolist()).toEqual([2 + i, 3 + i, 4 + i]);
      }
      const p = torch.tensor([1, -2]);
      const doubled = torch.compile(() => {
        const old = p.clone();
        p.mul_(2);
        return [old, p];
      });
      for (let i = 1; i <= 3; i++) {
        const [old, now] = doubled() as torch.Tensor[];
        expect(old!.tolist()).toEqual([2 ** (i - 1), -(2 ** i)]);
        expect(now).toBe(p);
        expect(p.tolist()).toEqual([2 ** i, -(2 ** (i + 1))]);
      }
    });
  });

  it("draw fresh random numbers at every call, the draws eager code would make", () => {
    const f = torch.compile((x: torch.Tensor) => nn.functional.dropout(x, { p: 0.5, training: true }));
    torch.tidy(() => {
      const x = torch.ones([64]);
      torch.manualSeed(7);
      const compiled = [f(x).tolist(), f(x).tolist()];
      torch.manualSeed(7);
      const eager = [nn.functional.dropout(x, { p: 0.5, training: true }).tolist(), nn.functional.dropout(x, { p: 0.5, training: true }).tolist()];
      expect(compiled).toEqual(eager);
      expect(compiled[0]).not.toEqual(compiled[1]);
      expect(new Set(compiled[0] as number[])).toEqual(new Set([0, 2]));
    });
  });

  it("run a signature eagerly after a host read, once warned; with fullgraph it is an error naming the line", () => {
    const warn = vi.spyOn(process, "emitWarning").mockImplementation(() => {});
    try {
      torch.tidy(() => {
        const clipped = torch.compile(function clipped(x: torch.Tensor) {
          return (x.max().item() as number) > 1 ? x.div(x.max()) : x;
        });
        const x = torch.tensor([1, 4], { dtype: "float32" });
        expect(clipped(x).tolist()).toEqual([0.25, 1]);
        expect(clipped(x).tolist()).toEqual([0.25, 1]);
        expect(clipped.stats()).toMatchObject({ compiles: 0, eagerCalls: 2 });
        expect(clipped.stats().graphBreaks[0]).toMatch(/`clipped` cannot be traced into one graph: it tried to read a tensor's values on the host \(item\(\), .*\) \(on a tensor of float32\[\]\) at .*compile\.test\.ts:\d+:\d+/);
        expect(warn).toHaveBeenCalledTimes(1);
        const strict = torch.compile((y: torch.Tensor) => y.sum().item(), { fullgraph: true });
        expect(() => strict(x)).toThrow(torch.GraphBreakError);
        expect(() => strict(x)).toThrow(/compile\.test\.ts:\d+/);
      });
    } finally {
      warn.mockRestore();
    }
  });

  it("check their options and arguments", () => {
    expect(() => torch.compile((x: torch.Tensor) => x, { fullGraph: true } as never)).toThrow(/unknown option "fullGraph"; the options are fullgraph, dynamic, mode, disable/);
    expect(() => torch.compile((x: torch.Tensor) => x, { dynamic: true })).toThrow(/dynamic shapes are not supported/);
    expect(() => torch.compile((x: torch.Tensor) => x, { mode: "fast" } as never)).toThrow(/mode must be one of default/);
    expect(() => torch.compile(3 as never)).toThrow(/expected a function or an nn.Module, got number/);
    const asyncFn = torch.compile(async (x: torch.Tensor) => x.add(1));
    torch.tidy(() => expect(() => asyncFn(torch.ones([1]))).toThrow(/returned a Promise; compile a synchronous function/));
    expect(() => (torch.compiler.config.cacheSizeLimit = 0)).toThrow(/positive integer/);
  });

  it("with { disable: true } run fn as is and count its calls, nothing else", () => {
    const body = (x: torch.Tensor, k: number) => x.mul(k).add(1);
    const off = torch.compile(body, { disable: true });
    const on = torch.compile(body);
    const zero = { calls: 0, hits: 0, compiles: 0, compileMs: 0, eagerCalls: 0, recompileReasons: [], graphBreaks: [], diskHits: 0 };
    torch.compiler.reset();
    torch.tidy(() => {
      expect(off(torch.tensor([1, 2]), 3).tolist()).toEqual([4, 7]);
      expect(off(torch.tensor([5]), 2).tolist()).toEqual([11]);
      expect(off(torch.tensor([1, 2]), 3).tolist()).toEqual([4, 7]);
    });
    expect(off.stats()).toEqual({ ...zero, calls: 3 });
    expect(torch.compiler.stats()).toEqual({ calls: 3, hits: 0, compiles: 0, compileMs: 0, eagerCalls: 0, diskHits: 0 });
    const snapshot = off.stats();
    snapshot.calls = 100;
    expect(off.stats().calls).toBe(3);
    // the enabled function counts its calls the same way, beside its compiles and hits
    torch.tidy(() => {
      for (let i = 0; i < 2; i++) expect(on(torch.tensor([1, 2]), 3).tolist()).toEqual([4, 7]);
    });
    expect(on.stats()).toMatchObject({ calls: 2, compiles: 1, hits: 1 });
    expect(Object.keys(on.stats()).sort()).toEqual(Object.keys(off.stats()).sort());
    expect(torch.compiler.stats()).toMatchObject({ calls: 5, compiles: 1, hits: 1, eagerCalls: 0 });
    torch.compiler.reset();
    expect(off.stats().calls).toBe(3); // reset forgets executables and the global counters, as for an enabled function
  });

    it("fall back to eager past the cache size limit, and forget everything on reset", () => {
    const warn = vi.spyOn(process, "emitWarning").mockImplementation(() => {});
    const limit = torch.compiler.config.cacheSizeLimit;
    torch.compiler.config.cacheSizeLimit = 2;
    try {
      const f = torch.compile((x: torch.Tensor, k: number) => x.add(k));
      torch.tidy(() => {
        const x = torch.zeros([2]);
        for (let k = 0; k < 4; k++) expect(f(x, k).tolist()).toEqual([k, k]);
        expect(f.stats()).toMatchObject({ compiles: 2, eagerCalls: 2 });
        expect(warn.mock.calls[0]![0]).toMatch(/reached the cache size limit \(2 signatures/);
        torch.compiler.reset();
        expect(f(x, 0).tolist()).toEqual([0, 0]);
        expect(f.stats().compiles).toBe(3);
        expect(torch.compiler.stats()).toMatchObject({ calls: 1, compiles: 1 });
      });
    } finally {
      torch.compiler.config.cacheSizeLimit = limit;
      warn.mockRestore();
    }
  });
});

const doc = JSON.parse(readFileSync(join(fixturesDir, "nn", "modules.json"), "utf8")) as {
  layers: { name: string; spec: { module: string; args?: unknown[]; options?: Record<string, unknown>; call?: unknown; children?: unknown; eval?: boolean }; state: Record<string, TensorSpec>; inputs: TensorSpec[]; target?: TensorSpec; output: TensorSpec; cotangent: TensorSpec; paramGrads: Record<string, TensorSpec> }[];
  training: { vocab: number; dim: number; hidden: number; lr: number; state: Record<string, TensorSpec>; batches: TensorSpec[]; losses: number[]; final: Record<string, TensorSpec> };
};

describe("compiled modules against PyTorch", () => {
  const simple = doc.layers.filter((c) => !c.spec.call && !c.spec.children && !c.target);
  it("has layer cases to run", () => expect(simple.length).toBeGreaterThan(15));
  for (const c of simple) {
    it(`${c.spec.module}: ${c.name}: compiled forward, backward outside it`, async () => {
      const ctor = (nn as unknown as Record<string, new (...a: unknown[]) => torch.nn.Module>)[c.spec.module]!;
      const m = torch.compile(new ctor(...(c.spec.args ?? []), ...(c.spec.options ? [c.spec.options] : [])));
      if (c.spec.eval) m.eval();
      try {
        await torch.tidy(async () => {
          m.loadStateDict(stateOf(c.state));
          const inputs = c.inputs.map((s) => {
            const t = makeInput(torch, s, "cpu");
            return t.dtype === "float32" ? t.requiresGrad_() : t;
          });
          const out = m.call(...inputs) as torch.Tensor;
          await expectClose(out, c.output, "output");
          out.backward(makeInput(torch, c.cotangent, "cpu"));
          for (const [name, p] of m.namedParameters()) {
            const want = c.paramGrads[pytorchName(name)];
            if (want !== undefined) await expectClose(p.grad, want, `gradient of ${name}`);
          }
          m.zeroGrad();
        });
      } finally {
        m.dispose();
      }
    });
  }
});

describe("a backward outside a compiled function", () => {
  // f(x, w, u) = Σ detach(x)·x + noGrad(2x)·w: ∂/∂x = x (not 2x: detach's factor carries no gradient),
  // ∂/∂w = 2x, and u, which f does not use, gets no gradient at all (PyTorch's None)
  const f = (x: torch.Tensor, w: torch.Tensor, _u: torch.Tensor) => {
    const twice = torch.noGrad(() => x.mul(2));
    return x.detach().mul(x).add(twice.mul(w)).sum();
  };
  const xs = [1.5, -2, 3.25];
  const ws = [0.5, 4, -1];

  it("differentiates what autograd recorded: detach() and noGrad carry no gradient, an unused input's grad stays null", () =>
    torch.tidy(() => {
      for (const run of [f, torch.compile(f, { fullgraph: true })]) {
        const x = torch.tensor(xs, { dtype: "float64", requiresGrad: true });
        const w = torch.tensor(ws, { dtype: "float64", requiresGrad: true });
        const u = torch.tensor([7], { dtype: "float64", requiresGrad: true });
        const y = run(x, w, u);
        expect(y.item()).toBeCloseTo(xs.reduce((a, v, i) => a + v * v + 2 * v * ws[i]!, 0), 12);
        y.backward();
        expect(x.grad!.tolist()).toEqual(xs);
        expect(w.grad!.tolist()).toEqual(xs.map((v) => 2 * v));
        expect(u.grad).toBeNull();
      }
    }));

  it("gives zeros, as eager and PyTorch 2.13 do, to inputs that reach the result only through an op whose gradient is zero by convention (floor division)", () =>
    torch.tidy(() => {
      // PyTorch: torch.div(x, y, rounding_mode="floor").sum().backward() leaves zeros on x and y
      const g = (x: torch.Tensor, y: torch.Tensor) => torch.div(x, y, { roundingMode: "floor" }).sum();
      for (const run of [g, torch.compile(g, { fullgraph: true })]) {
        const x = torch.tensor(xs, { dtype: "float64", requiresGrad: true });
        const y = torch.tensor(ws, { dtype: "float64", requiresGrad: true });
        const r = run(x, y);
        expect(r.item()).toBe(xs.reduce((a, v, i) => a + Math.floor(v / ws[i]!), 0));
        r.backward();
        expect(x.grad?.tolist()).toEqual([0, 0, 0]);
        expect(y.grad?.tolist()).toEqual([0, 0, 0]);
      }
    }));

  it("returns a result returned twice as the same tensor twice, both carrying its gradient", () =>
    torch.tidy(() => {
      const pair = torch.compile((x: torch.Tensor, w: torch.Tensor) => {
        const y = x.mul(w);
        return [y, y];
      });
      const x = torch.tensor(xs, { dtype: "float64", requiresGrad: true });
      const w = torch.tensor(ws, { dtype: "float64", requiresGrad: true });
      const [a, b] = pair(x, w);
      expect(a).toBe(b);
      a!.sum().add(b!.mul(3).sum()).backward();
      expect(x.grad!.tolist()).toEqual(ws.map((v) => 4 * v));
      expect(w.grad!.tolist()).toEqual(xs.map((v) => 4 * v));
    }));

  it("gives a result made under noGrad no history, and an unused parameter no update from AdamW's weight decay", () =>
    torch.tidy(() => {
      const detached = torch.compile((x: torch.Tensor) => x.mul(3).detach());
      const x = torch.tensor(xs, { dtype: "float64", requiresGrad: true });
      const r = detached(x);
      expect(r.requiresGrad).toBe(false);
      expect(r.gradFn).toBeNull();
      expect(r.tolist()).toEqual(xs.map((v) => 3 * v));
      // a module with a layer its forward skips: PyTorch's optimizers pass over parameters whose grad is None
      const weights = () => {
        torch.manualSeed(3);
        return { used: new nn.Linear(3, 2), unused: new nn.Linear(3, 2) };
      };
      const after = (compiled: boolean) => {
        const { used, unused } = weights();
        const forward = (t: torch.Tensor) => (used.call(t) as torch.Tensor).pow(2).sum();
        const run = compiled ? torch.compile(forward) : forward;
        const opt = new torch.optim.AdamW([...used.parameters(), ...unused.parameters()], { lr: 0.1, weightDecay: 0.5 });
        run(torch.tensor([xs])).backward();
        expect(unused.weight.grad).toBeNull();
        opt.step();
        const values = [used.weight, unused.weight].map((p) => p.tolist());
        opt.dispose();
        used.dispose();
        unused.dispose();
        return values;
      };
      const initial = weights();
      const unusedBefore = initial.unused.weight.tolist();
      initial.used.dispose();
      initial.unused.dispose();
      const [eagerUsed, eagerUnused] = after(false);
      const [compiledUsed, compiledUnused] = after(true);
      expect(eagerUnused).toEqual(unusedBefore);
      expect(compiledUnused).toEqual(unusedBefore);
      expect(compiledUsed).toEqual(eagerUsed);
    }));
});

describe("a compiled training step", () => {
  it("forward, backward and SGD in one executable follow PyTorch's 20-step loss curve (1e-4)", async () => {
    const t = doc.training;
    const model = new CharModel(t.vocab, t.dim, t.hidden);
    const opt = new torch.optim.SGD([...model.parameters()], { lr: t.lr });
    try {
      torch.tidy(() => model.loadStateDict(stateOf(t.state)));
      const step = torch.compile(function step(batch: torch.Tensor) {
        const [n, l] = batch.shape as [number, number];
        const logits = model.forward(batch.narrow(1, 0, l - 1));
        const loss = nn.functional.crossEntropy(logits.reshape([-1, t.vocab]), batch.narrow(1, 1, l - 1).reshape([n * (l - 1)]));
        opt.zeroGrad();
        loss.backward();
        opt.step();
        return loss;
      });
      const losses: number[] = [];
      const memory: number[] = [];
      for (const b of t.batches) {
        torch.tidy(() => {
          losses.push(step(makeInput(torch, b, "cpu")).item() as number);
        });
        memory.push(torch.memory().numTensors);
      }
      losses.forEach((l, i) => expect(Math.abs(l - t.losses[i]!), `step ${i}: ${l} vs PyTorch ${t.losses[i]}`).toBeLessThan(1e-4));
      const state = model.stateDict();
      for (const [k, s] of Object.entries(t.final)) await expectClose(state[k], s, `final ${k}`, 1e-4);
      expect(step.stats(), JSON.stringify(step.stats().recompileReasons)).toMatchObject({ calls: 20, compiles: 1, hits: 19 });
      expect(new Set(memory).size, "no tensors pile up from step to step").toBe(1);
    } finally {
      opt.dispose();
      model.dispose();
    }
  });

  it("keeps BatchNorm's running statistics and Adam's state in step with eager training", () => {
    const build = () => {
      torch.manualSeed(3);
      const m = new nn.Sequential(new nn.Linear(4, 8), new nn.BatchNorm1d(8), new nn.ReLU(), new nn.Linear(8, 1));
      return { m, opt: new torch.optim.Adam([...m.parameters()], { lr: 0.01 }) };
    };
    const eager = build();
    const compiled = build();
    try {
      const stepOf = ({ m, opt }: ReturnType<typeof build>) => (x: torch.Tensor, y: torch.Tensor) => {
        opt.zeroGrad();
        const loss = nn.functional.mseLoss(m.call(x) as torch.Tensor, y);
        loss.backward();
        opt.step();
        return loss;
      };
      const step = torch.compile(stepOf(compiled));
      const eagerStep = stepOf(eager);
      for (let i = 0; i < 5; i++) {
        torch.tidy(() => {
          const x = torch.randn([16, 4], { generator: new torch.Generator({ seed: i }) });
          const y = x.sum(1, true).sin();
          expect(step(x, y).item()).toBeCloseTo(eagerStep(x, y).item() as number, 5);
        });
      }
      const a = compiled.m.stateDict();
      const b = eager.m.stateDict();
      for (const k of Object.keys(b)) expect(torch.tidy(() => a[k]!.sub(b[k]!).abs().max().item()), k).toBeLessThan(1e-5);
      expect(compiled.opt.state.get(compiled.m.parameters().next().value!)!.step).toBe(5);
    } finally {
      for (const side of [eager, compiled]) {
        side.opt.dispose();
        side.m.dispose();
      }
    }
  });

  it("updates parameters in their own buffers (donation): fewer allocations per step, the same values", () => {
    const client = resolveDevice("cpu").client.native;
    const run = (donate: boolean) => {
      torch.compiler.config.donateBuffers = donate;
      torch.manualSeed(5);
      const m = new nn.Linear(256, 256);
      const opt = new torch.optim.SGD([...m.parameters()], { lr: 0.1, momentum: 0.9 });
      try {
        const step = torch.compile((x: torch.Tensor) => {
          opt.zeroGrad();
          const loss = (m.call(x) as torch.Tensor).square().mean();
          loss.backward();
          opt.step();
          return loss;
        });
        const x = torch.ones([8, 256]);
        const lossOf = () => torch.tidy(() => step(x).item());
        const losses = [lossOf(), lossOf()];
        torch.runtime.synchronize();
        const before = client.memoryStats(0)!.numAllocs!;
        losses.push(lossOf());
        torch.runtime.synchronize();
        const allocs = client.memoryStats(0)!.numAllocs! - before;
        x.dispose();
        return { losses, allocs, weight: m.weight.dataSync() };
      } finally {
        opt.dispose();
        m.dispose();
        torch.compiler.config.donateBuffers = true;
      }
    };
    const donated = run(true);
    const copied = run(false);
    expect(donated.losses).toEqual(copied.losses);
    expect(donated.weight).toEqual(copied.weight);
    // weight, bias and their two momentum buffers are rewritten in place: at least 4 fewer allocations
    expect(donated.allocs).toBeLessThanOrEqual(copied.allocs - 4);
  });

  it("lower() gives the step's StableHLO without running it or changing any state", () => {
    torch.manualSeed(9);
    const linear = new nn.Linear(3, 4);
    const m = new nn.Sequential(linear, new nn.Dropout(0.5));
    const opt = new torch.optim.Adam([...m.parameters()], { lr: 0.1 });
    try {
      const step = torch.compile(function dropStep(x: torch.Tensor) {
        opt.zeroGrad();
        const loss = (m.call(x) as torch.Tensor).sum();
        loss.backward();
        opt.step();
        return loss;
      });
      const weight = linear.weight.tolist();
      const lowered = torch.tidy(() => step.lower(torch.ones([2, 3])));
      // the generator drew nothing: its next numbers are those right after building the model
      const next = torch.tidy(() => torch.rand([4]).tolist());
      torch.manualSeed(9);
      new nn.Linear(3, 4).dispose();
      expect(torch.tidy(() => torch.rand([4]).tolist())).toEqual(next);
      expect(linear.weight.tolist()).toEqual(weight);
      expect(linear.weight.grad).toBeNull();
      expect(opt.state.size).toBe(0);
      expect(step.stats().calls).toBe(0);
      expect(lowered.inputs[0]).toEqual({ dtype: "float32", shape: [2, 3] });
      // the loss; each parameter and its two moments, written back; the two grads
      expect(lowered.outputs.map((o) => o.shape)).toEqual([[], [4, 3], [4, 3], [4, 3], [4], [4], [4], [4, 3], [4]]);
      expect(lowered.text).toMatch(/"func.func"\(\)[^]*sym_name = "main"/);
      expect(lowered.text.match(/tf\.aliasing_output/g)?.length).toBe(6); // the 2 parameters and their 4 moments are updated in place
    } finally {
      opt.dispose();
      m.dispose();
    }
  });

  it("recompiles when a module switches to eval, naming it", () => {
    const m = new nn.Sequential(new nn.Linear(2, 2), new nn.Dropout(0.5));
    try {
      const f = torch.compile((x: torch.Tensor) => m.call(x) as torch.Tensor);
      torch.tidy(() => {
        const x = torch.ones([3, 2]);
        f(x);
        m.eval();
        const y = f(x);
        expect(y.tolist()).toEqual(torch.noGrad(() => m.forward(x) as torch.Tensor).tolist());
        expect(f.stats().recompileReasons).toEqual(["Dropout.training true → false"]);
      });
    } finally {
      m.dispose();
    }
  });
});
