// Fused eager mode: ops recorded and run together when a value is needed. References: the same code
// in strict mode (one op, one executable) and float64 arithmetic in JS. Also checked: one compile for
// a loop of identical steps, errors thrown by the op that causes them, the flush triggers, memory
// (tensors and native buffers return to where they started) and torch.compile inside fused mode.
// The wider suites (autograd, nn, optim, training runs) also pass with env TORCH_PJRT_EAGER=fused.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import * as torch from "../src/index.js";
import { addon } from "../src/runtime/addon.js";
import { expectNoLeaks } from "./helpers/nn.js";

const nn = torch.nn;

expectNoLeaks();
afterEach(() => torch.setEagerMode("strict"));

/** A small regression trained for `steps` SGD steps: the losses and the final weight. */
function train(mode: torch.EagerMode, steps = 5): { losses: number[]; weight: number[] } {
  torch.setEagerMode(mode);
  torch.manualSeed(1);
  const first = new nn.Linear(4, 8);
  const m = new nn.Sequential(first, new nn.Tanh(), new nn.Linear(8, 1));
  const opt = new torch.optim.SGD([...m.parameters()], { lr: 0.1, momentum: 0.9 });
  try {
    const [x, y] = torch.tidy(() => {
      const inputs = torch.linspace(-1, 1, 32).reshape([8, 4]);
      return [inputs, inputs.sum(1, true).sin()];
    });
    const losses: number[] = [];
    for (let i = 0; i < steps; i++) {
      losses.push(
        torch.tidy(() => {
          opt.zeroGrad();
          const loss = nn.functional.mseLoss(m.call(x) as torch.Tensor, y);
          loss.backward();
          opt.step();
          return loss.item() as number;
        }),
      );
    }
    x.dispose();
    y.dispose();
    return { losses, weight: [...(first.weight.dataSync() as Float32Array)] };
  } finally {
    opt.dispose();
    m.dispose();
    torch.setEagerMode("strict");
  }
}

describe("fused eager mode", () => {
  it("trains as strict mode does (losses and weights to float32 rounding)", () => {
    const strict = train("strict");
    const fused = train("fused");
    fused.losses.forEach((l, i) => expect(Math.abs(l - strict.losses[i]!), `step ${i}`).toBeLessThan(1e-6 * (1 + strict.losses[i]!)));
    fused.weight.forEach((w, i) => expect(Math.abs(w - strict.weight[i]!)).toBeLessThan(1e-6));
    expect(fused.losses.at(-1)!).toBeLessThan(fused.losses[0]!);
  });

  it("compiles a loop of identical steps once, running each step as one executable", () => {
    train("fused", 1); // compiles the step's graphs
    const before = torch.runtime.stats();
    train("fused", 6);
    const after = torch.runtime.stats();
    expect(after.compiles - before.compiles, "compiles in steps 2..6").toBe(0);
    const strictBefore = torch.runtime.stats();
    train("strict", 6);
    const strictRuns = torch.runtime.stats().hits - strictBefore.hits;
    const fusedRuns = after.hits - before.hits;
    expect(fusedRuns * 5, `fused runs ${fusedRuns}, strict runs ${strictRuns}`).toBeLessThan(strictRuns);
  });

  it("gives float64 values, in-place writes included, and reads them where they are needed", () => {
    torch.setEagerMode("fused");
    expect(torch.getEagerMode()).toBe("fused");
    torch.tidy(() => {
      const x = torch.tensor([0.5, -1.25, 2], { dtype: "float64" });
      const y = x.mul(3).exp();
      x.add_(1);
      const z = y.add(x).sum();
      const want = [0.5, -1.25, 2].reduce((s, v) => s + Math.exp(3 * v) + (v + 1), 0);
      expect(z.item()).toBeCloseTo(want, 12);
      expect(x.tolist()).toEqual([1.5, -0.25, 3]);
    });
  });

  it("throws a shape error at the op that causes it, and what was recorded before still runs", () => {
    torch.setEagerMode("fused");
    torch.tidy(() => {
      const a = torch.ones([2, 3]).mul(2);
      expect(() => a.add(torch.ones([4]))).toThrow(torch.ShapeError);
      expect(() => torch.zeros([2], { dtype: "float64", device: "tpu" })).toThrow(torch.DTypeError);
      expect(a.sum().item()).toBe(12);
    });
  });

  it("runs what it recorded when the graph reaches its node limit", () => {
    torch.setEagerMode("fused", { graphLimit: 8 });
    torch.tidy(() => {
      const before = torch.runtime.stats();
      let x = torch.ones([3], { dtype: "float64" });
      for (let i = 0; i < 40; i++) x = x.mul(1.5);
      const runs = torch.runtime.stats().hits + torch.runtime.stats().misses - before.hits - before.misses;
      expect(runs, "graphs run before any read").toBeGreaterThanOrEqual(4);
      expect(x.tolist()).toEqual([1.5 ** 40, 1.5 ** 40, 1.5 ** 40]);
    });
  });

  it("frees everything: tensors and native buffers return to where they started", () => {
    const buffers = addon().liveCounts().buffers;
    torch.setEagerMode("fused");
    for (let i = 0; i < 3; i++) {
      torch.tidy(() => {
        const a = torch.randn([16, 16]);
        const b = a.matmul(a).relu();
        a.dispose(); // an input of the recorded graph, disposed before it runs
        return b.sum().item();
      });
    }
    torch.setEagerMode("strict");
    expect(addon().liveCounts().buffers).toBe(buffers);
  });

  it("runs torch.compile'd functions on recorded tensors", () => {
    torch.setEagerMode("fused");
    const f = torch.compile((x: torch.Tensor) => x.square().sum());
    torch.tidy(() => {
      const x = torch.tensor([1, 2, 3], { dtype: "float64" }).add(1);
      expect(f(x).item()).toBe(29);
      expect(f(x).item()).toBe(29);
      expect(f.stats()).toMatchObject({ compiles: 1, hits: 1 });
    });
  });

  it("checks its arguments", () => {
    expect(() => torch.setEagerMode("lazy" as never)).toThrow(/mode must be "strict" or "fused", got "lazy"/);
    expect(() => torch.setEagerMode("fused", { limit: 3 } as never)).toThrow(/unknown option "limit"/);
    expect(() => torch.setEagerMode("fused", { graphLimit: 0 })).toThrow(/graphLimit must be a positive integer/);
    expect(() => torch.setEagerMode("strict", { graphLimit: 10 })).toThrow(/applies to "fused" mode only/);
    expect(torch.getEagerMode()).toBe("strict");
  });

  it.skipIf(!existsSync("dist/index.js"))("is chosen by env TORCH_PJRT_EAGER, which must name a mode", () => {
    const run = (value: string) =>
      execFileSync(process.execPath, ["--input-type=module", "-e", 'import * as torch from "./dist/index.js"; console.log(torch.getEagerMode())'], {
        encoding: "utf8",
        env: { ...process.env, TORCH_PJRT_EAGER: value },
        stdio: ["ignore", "pipe", "pipe"],
      }).trim();
    expect(run("fused")).toBe("fused");
    expect(run("strict")).toBe("strict");
    expect(() => run("lazy")).toThrow(/TORCH_PJRT_EAGER must be "strict" or "fused", got "lazy"/);
  });
});
