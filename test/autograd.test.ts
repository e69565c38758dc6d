// Autograd's behaviour against hand-derived gradients and float64 finite differences: backward and
// accumulation, autograd.grad, grad modes, retainGraph/createGraph (second order), in-place rules
// and version checks, hooks, retainGrad, errors, and that tensors are freed. The per-op gradients
// are checked against PyTorch's in test/conformance.test.ts ("gradients against PyTorch's").
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as torch from "../src/index.js";

const f64 = (values: number[], shape?: number[]) => torch.tensor(Float64Array.from(values), { shape: shape ?? [values.length], requiresGrad: true });
const list = (t: torch.Tensor | null) => Array.from(t!.dataSync() as Float64Array);
const close = (got: number[], want: number[], tol = 1e-9) => {
  expect(got.length).toBe(want.length);
  got.forEach((g, i) => expect(Math.abs(g - want[i]!), `element ${i}: ${g} vs ${want[i]}`).toBeLessThanOrEqual(tol * (1 + Math.abs(want[i]!))));
};

let before = 0;
beforeEach(() => {
  before = torch.memory().numTensors;
});

describe("backward", () => {
  it("accumulates d(sum(x·w))/dx = w into .grad, and again on a second graph", () => {
    torch.tidy(() => {
      const x = f64([1, 2, 3]);
      const w = f64([0.5, -1, 4]);
      const y = x.mul(w).sum();
      expect(y.requiresGrad).toBe(true);
      expect(y.isLeaf).toBe(false);
      expect(y.gradFn?.name).toBe("SumBackward");
      expect(x.isLeaf && x.gradFn === null).toBe(true);
      y.backward();
      close(list(x.grad), [0.5, -1, 4]);
      close(list(w.grad), [1, 2, 3]);
      const g = x.grad;
      x.mul(w).sum().backward();
      expect(x.grad).toBe(g); // accumulated in place: the same tensor object
      close(list(x.grad), [1, -2, 8]);
    });
  });

  it("matches float64 central differences on a composite function", () => {
    const xs = [0.3, -1.2, 0.8, 2.0, -0.4, 0.1];
    const ws = [0.2, -0.7, 1.1, 0.5, -0.3, 0.9];
    const f = (x: torch.Tensor, w: torch.Tensor) =>
      x.reshape([2, 3]).matmul(w.reshape([3, 2])).tanh().logSoftmax(1).mul(torch.tensor(Float64Array.from([1, -2, 0.5, 3]), { shape: [2, 2] })).sum().add(x.exp().mean());
    torch.tidy(() => {
      const x = f64(xs);
      const w = f64(ws);
      f(x, w).backward();
      const numeric = (which: 0 | 1) =>
        (which === 0 ? xs : ws).map((_, i) => {
          const at = (d: number) =>
            torch.noGrad(() => {
              const a = (which === 0 ? xs : ws).slice();
              a[i]! += d;
              const [xv, wv] = which === 0 ? [a, ws] : [xs, a];
              return f(torch.tensor(Float64Array.from(xv)), torch.tensor(Float64Array.from(wv))).item() as number;
            });
          return (at(1e-6) - at(-1e-6)) / 2e-6;
        });
      close(list(x.grad), numeric(0), 1e-7);
      close(list(w.grad), numeric(1), 1e-7);
    });
  });

  it("takes the gradient of a non-scalar output, and refuses to invent one", () => {
    torch.tidy(() => {
      const x = f64([1, 2]);
      const y = x.mul(x);
      expect(() => y.backward()).toThrow(/implicitly only for one-element outputs; tensor 0 is float64\[2\]/);
      y.backward(torch.tensor(Float64Array.from([1, 10])));
      close(list(x.grad), [2, 40]);
      expect(() => x.mul(2).backward(torch.tensor(Float64Array.from([1, 2, 3])))).toThrow(/gradient 0 is float64\[3\] on cpu:0; it must match its tensor, float64\[2\]/);
    });
  });

  it("says what to do when nothing requires grad", () => {
    torch.tidy(() => {
      const x = torch.tensor(Float64Array.from([1, 2]));
      expect(() => x.sum().backward()).toThrow(/does not require grad and does not have a gradFn/);
    });
  });

  it("frees the saved tensors: a second backward needs retainGraph", () => {
    torch.tidy(() => {
      const x = f64([1, 2]);
      const y = x.exp().sum();
      y.backward({ retainGraph: true });
      y.backward();
      close(list(x.grad), [2 * Math.E, 2 * Math.exp(2)]);
      expect(() => y.backward()).toThrow(/backward through the graph a second time/);
    });
  });

  it("backward({ inputs }) fills only those tensors' .grad", () => {
    torch.tidy(() => {
      const x = f64([1]);
      const w = f64([3]);
      x.mul(w).sum().backward({ inputs: [w] });
      expect(x.grad).toBeNull();
      close(list(w.grad), [1]);
    });
  });

  it("rejects unknown options", () => {
    torch.tidy(() => {
      const x = f64([1]);
      expect(() => x.sum().backward({ retain_graph: true } as never)).toThrow(/unknown option "retain_graph"; the options are retainGraph, createGraph, inputs/);
    });
  });
});

describe("autograd.grad", () => {
  it("softmax, logSoftmax, logsumexp and attention: the shift-free gradients, with no backward through the row maximum", () => {
    // ties at the maximum, where a gradient through the max would be split between them
    const xs = [2, 2, 0.5, -1];
    const gs = [0.3, -0.7, 1.1, 0.2];
    const e = xs.map(Math.exp);
    const total = e.reduce((a, b) => a + b, 0);
    const y = e.map((v) => v / total);
    const gy = gs.reduce((a, g, i) => a + g * y[i]!, 0);
    const gSum = gs.reduce((a, b) => a + b, 0);
    const cases: [string, (t: torch.Tensor) => torch.Tensor, number[]][] = [
      ["softmax", (t) => torch.softmax(t, -1), y.map((v, i) => v * (gs[i]! - gy))],
      ["logSoftmax", (t) => torch.logSoftmax(t, -1), gs.map((g, i) => g - y[i]! * gSum)],
      ["logsumexp", (t) => torch.logsumexp(t, -1).expand([4]), y.map((v) => v * gSum)],
    ];
    for (const [name, fn, want] of cases) {
      torch.tidy(() => {
        const x = f64(xs);
        const weights = torch.tensor(Float64Array.from(gs));
        const [g] = torch.autograd.grad(fn(x).mul(weights).sum(), x);
        close(list(g!), want, 1e-15);
        const gradOf = torch.compile((t: torch.Tensor) => torch.autograd.grad(fn(t).mul(weights).sum(), t)[0]!);
        // the maximum's backward compares every element with it (EQ) to find the ties
        expect(gradOf.lower(f64(xs)).text, name).not.toContain("comparison_direction EQ");
      });
    }
    // attention's softmax too (its values against PyTorch: the gradcheck fixtures); its own EQ
    // compares each row's total with 0, once per row, where the maximum's backward compares every score
    torch.tidy(() => {
      const attend = (t: torch.Tensor) => torch.nn.functional.scaledDotProductAttention(t.reshape(1, 4, 1), t.reshape(1, 4, 1), t.reshape(1, 4, 1)).sum();
      const gradOf = torch.compile((t: torch.Tensor) => torch.autograd.grad(attend(t), t)[0]!);
      expect(gradOf.lower(f64(xs)).text).not.toMatch(/comparison_direction EQ>\} : \(tensor<1x4x4xf64>/);
    });
  });

  it("returns gradients without touching .grad", () => {
    torch.tidy(() => {
      const x = f64([0.5, 1.5]);
      const [g] = torch.autograd.grad(x.sin().sum(), x);
      close(list(g!), [Math.cos(0.5), Math.cos(1.5)]);
      expect(x.grad).toBeNull();
    });
  });

  it("gives the gradient of a non-leaf input", () => {
    torch.tidy(() => {
      const x = f64([2]);
      const h = x.mul(3);
      const [g] = torch.autograd.grad(h.mul(h).sum(), h);
      close(list(g!), [12]);
    });
  });

  it("unused inputs: an error, null with allowUnused, zeros with materializeGrads", () => {
    torch.tidy(() => {
      const x = f64([1]);
      const u = f64([1, 2]);
      expect(() => torch.autograd.grad(x.mul(2).sum(), [x, u])).toThrow(/inputs\[1\] was not used to compute the outputs; pass \{ allowUnused: true \}/);
      expect(torch.autograd.grad(x.mul(2).sum(), [x, u], { allowUnused: true })[1]).toBeNull();
      close(list(torch.autograd.grad(x.mul(2).sum(), [x, u], { materializeGrads: true })[1]!), [0, 0]);
      const plain = torch.tensor(Float64Array.from([1]));
      expect(() => torch.autograd.grad(x.sum(), plain)).toThrow(/inputs\[0\] does not require grad/);
    });
  });

  it("createGraph gives differentiable gradients: d²(x³)/dx² = 6x, and a gradient penalty", () => {
    torch.tidy(() => {
      const x = f64([1, -2]);
      const [dx] = torch.autograd.grad(x.pow(3).sum(), x, { createGraph: true });
      close(list(dx!), [3, 12]);
      expect(dx!.requiresGrad).toBe(true);
      const [ddx] = torch.autograd.grad(dx!.sum(), x);
      close(list(ddx!), [6, -12]);

      // penalty = |d(w·x²)/dx|² = Σ (2 w x)²; d penalty / dw = 8 w x²
      const w = f64([0.5, 3]);
      const [gx] = torch.autograd.grad(w.mul(x.pow(2)).sum(), x, { createGraph: true });
      gx!.pow(2).sum().backward();
      close(list(w.grad), [8 * 0.5 * 1, 8 * 3 * 4]);
    });
  });
});

describe("grad mode", () => {
  it("noGrad records nothing; enableGrad inside it does; setGradEnabled switches", () => {
    torch.tidy(() => {
      const x = f64([1]);
      const y = torch.noGrad(() => x.mul(2));
      expect(y.requiresGrad).toBe(false);
      expect(y.gradFn).toBeNull();
      const z = torch.noGrad(() => torch.enableGrad(() => x.mul(2)));
      expect(z.gradFn?.name).toBe("MulBackward");
      expect(torch.inferenceMode(() => x.exp()).requiresGrad).toBe(false);
      torch.setGradEnabled(false);
      try {
        expect(torch.isGradEnabled()).toBe(false);
        expect(x.mul(3).requiresGrad).toBe(false);
      } finally {
        torch.setGradEnabled(true);
      }
      expect(x.mul(3).requiresGrad).toBe(true);
    });
  });

  it("an async noGrad keeps the mode until its promise settles", async () => {
    const x = f64([1]);
    const y = await torch.noGrad(async () => {
      await new Promise((r) => setTimeout(r, 1));
      return x.mul(2);
    });
    expect(y.requiresGrad).toBe(false);
    expect(torch.isGradEnabled()).toBe(true);
    x.dispose();
    y.dispose();
  });

  it("detach leaves autograd; requiresGrad can only be switched off on leaves", () => {
    torch.tidy(() => {
      const x = f64([1]);
      const y = x.mul(2);
      const d = y.detach();
      expect(d.requiresGrad || d.gradFn !== null).toBe(false);
      expect(() => {
        y.requiresGrad = false;
      }).toThrow(/only change requiresGrad of leaf tensors; this one was computed by MulBackward/);
      expect(() => torch.tensor([1, 2]).requiresGrad_()).toThrow(/only tensors of floating point dtype can require gradients, got int64/);
    });
  });
});

describe("in-place ops", () => {
  it("on a leaf that requires grad is an error; inside noGrad it is how parameters are updated", () => {
    torch.tidy(() => {
      const w = f64([1, 2]);
      expect(() => w.add_(1)).toThrow(/a leaf tensor that requires grad is being used in an in-place operation/);
      torch.noGrad(() => w.sub_(0.5));
      close(list(w), [0.5, 1.5]);
      expect(w.isLeaf && w.requiresGrad).toBe(true);
    });
  });

  it("on a non-leaf is recorded: the gradient flows through it", () => {
    torch.tidy(() => {
      const x = f64([1, 2]);
      const y = x.mul(2);
      y.mul_(x); // y = 2x²
      expect(y.gradFn?.name).toBe("MulBackward");
      y.sum().backward();
      close(list(x.grad), [4, 8]);
    });
  });

  it("an in-place op whose backward reads the old values keeps them until the graph goes, with or without a backward", () => {
    // the old values of a (kept for SinBackward and for both inputs of MulBackward) are freed with the graph (afterEach counts)
    torch.tidy(() => {
      const x = f64([0.5, 1]);
      const a = x.mul(2);
      a.sin_();
      const b = x.mul(3);
      b.mul_(b);
      close(list(a), [Math.sin(1), Math.sin(2)]);
      close(list(b), [2.25, 9]);
    });
    torch.tidy(() => {
      const x = f64([0.5, 1]);
      const a = x.mul(2);
      const c = a.exp();
      a.sin_();
      expect(() => c.sum().backward()).toThrow(/ExpBackward: one of the tensors needed for gradient computation has been modified by an in-place operation/);
      a.sum().backward(); // d sin(2x)/dx = 2 cos(2x)
      close(list(x.grad), [2 * Math.cos(1), 2 * Math.cos(2)]);
    });
  });

  it("overwriting a tensor that backward needs is an error at backward, never a wrong gradient", () => {
    torch.tidy(() => {
      const x = f64([1, 2]);
      const a = x.mul(2);
      const b = a.exp(); // exp's backward reads a
      torch.noGrad(() => a.add_(1));
      expect(() => b.sum().backward()).toThrow(/modified by an in-place operation: input 0, a float64\[2\] tensor, is at version 1; expected version 0/);
    });
  });
});

describe("hooks and retainGrad", () => {
  it("a hook sees the gradient and may replace it; remove() unregisters it", () => {
    torch.tidy(() => {
      const x = f64([1, 2]);
      const seen: number[][] = [];
      const handle = x.registerHook((g) => {
        seen.push(list(g));
        return g.mul(10);
      });
      x.mul(3).sum().backward();
      expect(seen).toEqual([[3, 3]]);
      close(list(x.grad), [30, 30]);
      handle.remove();
      x.grad = null;
      x.mul(3).sum().backward();
      close(list(x.grad), [3, 3]);
    });
  });

  it("a hook on a non-leaf changes what flows on; retainGrad keeps a non-leaf's gradient", () => {
    torch.tidy(() => {
      const x = f64([1, 2]);
      const h = x.mul(2);
      h.retainGrad();
      h.registerHook((g) => g.mul(-1));
      h.mul(h).sum().backward();
      close(list(h.grad), [-4, -8]); // the hooked gradient, as PyTorch's retain_grad sees it
      close(list(x.grad), [-8, -16]);
    });
  });
});

describe("memory", () => {
  it("a training-style step in tidy returns every tensor but the gradients", () => {
    const w = f64([0.1, -0.2, 0.3, 0.4], [2, 2]);
    const start = torch.memory().numTensors;
    for (let step = 0; step < 3; step++) {
      torch.tidy(() => {
        const x = torch.tensor(Float64Array.from([1, 2, 3, 4]), { shape: [2, 2] });
        const loss = x.matmul(w).relu().pow(2).mean();
        loss.backward();
        torch.noGrad(() => w.sub_(w.grad!.mul(0.1)));
        w.grad = null;
      });
    }
    expect(torch.memory().numTensors).toBe(start);
    w.dispose();
  });

  it("tidy keeps what backward still needs until backward lets it go", () => {
    const x = f64([1, 2]);
    const start = torch.memory().numTensors;
    const y = torch.tidy(() => x.mul(2).exp().sum()); // exp's input, x·2, is saved
    expect(torch.memory().numTensors).toBe(start + 2);
    y.backward();
    close(list(x.grad), [2 * Math.exp(2), 2 * Math.exp(4)]);
    expect(torch.memory().numTensors).toBe(start + 2); // y and x.grad
    y.dispose();
    x.dispose(); // and its grad
    expect(torch.memory().numTensors).toBe(start - 1);
  });
});


describe("torch.func", () => {
  it("grad, valueAndGrad, argnums and hasAux; grad of grad is the second derivative", () => {
    torch.tidy(() => {
      const x = torch.tensor(Float64Array.from([0.7]));
      const y = torch.tensor(Float64Array.from([-1.3]));
      const f = (a: torch.Tensor, b: torch.Tensor) => a.sin().mul(b).sum();
      close(list(torch.func.grad(f)(x, y) as torch.Tensor), [Math.cos(0.7) * -1.3]);
      const [gx, gy] = torch.func.grad(f, { argnums: [0, 1] })(x, y) as torch.Tensor[];
      close(list(gx!), [Math.cos(0.7) * -1.3]);
      close(list(gy!), [Math.sin(0.7)]);
      const [value, g] = torch.func.valueAndGrad(f, { argnums: 1 })(x, y) as [torch.Tensor, torch.Tensor];
      close(list(value), [Math.sin(0.7) * -1.3]);
      close(list(g), [Math.sin(0.7)]);
      const [ga, aux] = torch.func.grad((a: torch.Tensor) => [a.exp().sum(), "aux"], { hasAux: true })(x) as [torch.Tensor, string];
      close(list(ga), [Math.exp(0.7)]);
      expect(aux).toBe("aux");
      const d1 = torch.func.grad((a: torch.Tensor) => a.pow(4).sum());
      const d2 = torch.func.grad((a: torch.Tensor) => (d1(a) as torch.Tensor).sum());
      close(list(d2(x) as torch.Tensor), [12 * 0.49]);
      expect(x.requiresGrad).toBe(false); // the arguments are left alone
      expect(() => torch.func.grad(f, { argnum: 1 } as never)).toThrow(/unknown option "argnum"/);
      expect(() => torch.func.grad((a: torch.Tensor) => a.mul(2))(torch.tensor(Float64Array.from([1, 2])))).toThrow(/one-element tensor, got float64\[2\]/);
    });
  });

  it("vjp gives the gradient for any cotangent, as often as asked", () => {
    torch.tidy(() => {
      const x = torch.tensor(Float64Array.from([1, 2]));
      const [out, vjpFn] = torch.func.vjp((a: torch.Tensor) => a.mul(a), x);
      close(list(out as torch.Tensor), [1, 4]);
      close(list(vjpFn(torch.tensor(Float64Array.from([1, 1])))[0]!), [2, 4]);
      close(list(vjpFn(torch.tensor(Float64Array.from([3, -1])))[0]!), [6, -4]);
    });
  });
});

describe("second order: Hessian-vector products against central differences of gradients (float64)", () => {
  const F = torch.nn.functional;
  const cases: [string, number[], (x: torch.Tensor) => torch.Tensor][] = [
    ["tanh · exp", [6], (x) => x.tanh().mul(x.exp()).sum()],
    ["softmax", [2, 3], (x) => F.softmax(x, 1).mul(torch.tensor(Float64Array.from([1, -2, 3, 0.5, 1, -1]), { shape: [2, 3] })).sum()],
    ["logSoftmax + crossEntropy", [2, 3], (x) => F.crossEntropy(x, torch.tensor([2, 0]))],
    ["matmul with itself", [3, 3], (x) => x.matmul(x).pow(2).sum()],
    ["layerNorm", [2, 4], (x) => F.layerNorm(x, [4]).mul(x).sum()],
    ["gelu", [5], (x) => F.gelu(x).pow(2).sum()],
    ["conv1d", [1, 2, 5], (x) => F.conv1d(x, x.narrow(2, 0, 3).reshape([2, 1, 3]).mul(0.5), { groups: 2 }).pow(2).sum()],
    ["maxPool1d of a square", [1, 1, 6], (x) => F.maxPool1d(x.pow(2), 2).sum()],
    ["logsumexp and cumsum", [2, 3], (x) => x.logsumexp(1).sum().add(x.cumsum(1).pow(3).sum())],
  ];
  for (const [name, shape, f] of cases) {
    it(name, () => {
      torch.tidy(() => {
        const n = shape.reduce((a, b) => a * b, 1);
        const base = Array.from({ length: n }, (_, i) => Math.sin(1.3 * i + 0.4) * 0.9);
        const v = Array.from({ length: n }, (_, i) => Math.cos(0.7 * i));
        const gradAt = (xs: number[]) => {
          const x = torch.tensor(Float64Array.from(xs), { shape, requiresGrad: true });
          return list(torch.autograd.grad(f(x), x)[0]!);
        };
        const x = torch.tensor(Float64Array.from(base), { shape, requiresGrad: true });
        const [g] = torch.autograd.grad(f(x), x, { createGraph: true });
        const [hv] = torch.autograd.grad(g!.mul(torch.tensor(Float64Array.from(v), { shape })).sum(), x);
        const h = 1e-5;
        const plus = gradAt(base.map((b, i) => b + h * v[i]!));
        const minus = gradAt(base.map((b, i) => b - h * v[i]!));
        close(list(hv!), plus.map((p, i) => (p - minus[i]!) / (2 * h)), 1e-6);
      });
    });
  }
});

describe("igamma / igammac gradients (PyTorch's formula; its values, float64)", () => {
  it("gives x ±e^−x·x^(a−1)/Γ(a), and a none (null or zeros)", () => {
    torch.tidy(() => {
      const want = [0.3032653298563167, 0.09730434665928296, 0.0024036692578521374, 0.053990966513188056];
      for (const [fn, sign] of [[torch.igamma, 1], [torch.igammac, -1]] as const) {
        const a = f64([2, 1.5, 1e4, 0.5]);
        const x = f64([0.5, 3, 1.01e4, 2]);
        const [ga, gx] = torch.autograd.grad([fn(a, x).sum()], [a, x], { allowUnused: true });
        if (ga !== null) close(list(ga), [0, 0, 0, 0]);
        close(list(gx!), want.map((v) => sign * v), 1e-12);
      }
    });
  });
});

describe("zeta's gradient (none for input, as in PyTorch)", () => {
  it("throws ArgumentError when input needs a gradient, and gives other's when input is detached", () => {
    torch.tidy(() => {
      const x = f64([2, 3.5, 1.5]);
      const q = f64([1, 0.5, 2.25]);
      const y = torch.special.zeta(x, q).sum(); // the forward runs; backward throws, as PyTorch's does
      expect(() => y.backward()).toThrow(torch.ArgumentError);
      expect(() => y.backward()).toThrow(/zeta: no gradient with respect to input .*detach it/);
      const compiled = torch.compile((a: torch.Tensor, b: torch.Tensor) => torch.special.zeta(a, b).sum());
      const z = compiled(x, q);
      expect(() => z.backward()).toThrow(/zeta: no gradient with respect to input/);
      torch.special.zeta(x.detach(), q).sum().backward();
      // torch.special.zeta(x, q).sum().backward() with x = [2, 3.5, 1.5] detached, q = [1, 0.5, 2.25] (float64)
      close(list(q.grad), [-2.404113806319188, -79.8370970114494, -0.41252782868660953], 1e-12);
    });
  });

  it("gives other's gradient through torch.cond and torch.whileLoop when input needs none", () => {
    torch.tidy(() => {
      const x = torch.tensor(Float64Array.from([2, 3.5]));
      const q = f64([1, 0.5]);
      const zeta = (a: torch.Tensor, b: torch.Tensor) => torch.special.zeta(a, b);
      const branch = torch.compile((p: torch.Tensor, a: torch.Tensor, b: torch.Tensor) => (torch.cond(p, zeta, (_a: torch.Tensor, b2: torch.Tensor) => b2, [a, b]) as torch.Tensor).sum());
      branch(torch.tensor(true), x, q).backward();
      // torch.special.zeta(x, q).sum().backward() with x = [2, 3.5], q = [1, 0.5] (float64)
      close(list(q.grad), [-2.404113806319188, -79.8370970114494], 1e-12);
      q.grad = null;
      const looped = torch.compile((a: torch.Tensor, b: torch.Tensor) => {
        const [, , , acc] = torch.whileLoop((i) => i.lt(3), (i, a2, b2, s) => [i.add(1), a2, b2.add(1), s.add(zeta(a2, b2))], [torch.tensor(0), a, b, torch.zerosLike(b)]);
        return acc!.sum();
      });
      looped(x, q).backward();
      // the sum over k = 0, 1, 2 of torch.special.zeta(x, q + k), backward, same x and q
      close(list(q.grad), [-2.962341418957565, -80.5548805852041], 1e-12);
    });
  });
});

afterEach(() => {
  expect(torch.memory().numTensors, "tensors left alive").toBe(before);
});
