// nn.functional.ctcLoss beyond the fixtures (test/fixtures/functional.json holds PyTorch's values and
// gradients): PyTorch's gradient wrt logProbs is exp(logProbs) − posterior, which is the calculus of
// ctcLoss(logSoftmax(z)) wrt z, so that composition is checked against float64 central differences;
// the eager result against torch.compile's; and a sample's loss against a brute-force sum over every
// alignment.
import { describe, expect, it } from "vitest";
import * as torch from "../src/index.js";
import { expectNoLeaks } from "./helpers/nn.js";

const F = torch.nn.functional;
const values = (t: torch.Tensor): number[] => Array.from(t.dataSync() as ArrayLike<number>, Number);

expectNoLeaks();

/** A seeded float64 array in [−2, 2). */
function seeded(n: number, seed: number): Float64Array {
  let s = seed >>> 0;
  return Float64Array.from({ length: n }, () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return (s / 2 ** 32) * 4 - 2;
  });
}

const [T, N, C] = [6, 2, 4];
const targets = [[1, 2, 2], [3, 1, 0]];
const inputLengths = [6, 5];
const targetLengths = [3, 2];

/** Σ w · ctcLoss(logSoftmax(z)) with reduction none. */
function objective(z: Float64Array, w: readonly number[]): number {
  return torch.tidy(() => {
    const loss = F.ctcLoss(F.logSoftmax(torch.tensor(z, { shape: [T, N, C] }), 2), torch.tensor(targets), inputLengths, targetLengths, { reduction: "none" });
    return values(loss).reduce((sum, v, i) => sum + v * w[i]!, 0);
  });
}

describe("ctcLoss", () => {
  it("the gradient through logSoftmax equals float64 central differences", () => {
    const z = seeded(T * N * C, 7);
    const w = [0.7, -1.3];
    const grad = torch.tidy(() => {
      const x = torch.tensor(z, { shape: [T, N, C], requiresGrad: true });
      const loss = F.ctcLoss(F.logSoftmax(x, 2), torch.tensor(targets), inputLengths, targetLengths, { reduction: "none" });
      const [g] = torch.autograd.grad([loss], [x], { gradOutputs: [torch.tensor(Float64Array.from(w))] });
      return values(g!);
    });
    const h = 1e-6;
    for (let j = 0; j < z.length; j++) {
      const up = Float64Array.from(z);
      const down = Float64Array.from(z);
      up[j]! += h;
      down[j]! -= h;
      const numeric = (objective(up, w) - objective(down, w)) / (2 * h);
      expect(Math.abs(numeric - grad[j]!), `element ${j}: autograd ${grad[j]} vs ${numeric}`).toBeLessThan(1e-7);
    }
    // past an input's length (sample 1 at t = 5) the gradient is zero
    for (let c = 0; c < C; c++) expect(grad[(5 * N + 1) * C + c]).toBe(0);
  });

  it("equals the log of the sum over every alignment (brute force, float64)", () => {
    const z = seeded(T * C, 11);
    const lp = torch.tidy(() => values(F.logSoftmax(torch.tensor(z, { shape: [T, C] }), 1)));
    const label = [2, 2, 1];
    // every path of T symbols that collapses (merge repeats, drop blanks) to label
    let total = 0;
    for (let code = 0; code < C ** T; code++) {
      const path = Array.from({ length: T }, (_, t) => Math.floor(code / C ** t) % C);
      const collapsed = path.filter((k, t) => k !== 0 && (t === 0 || k !== path[t - 1]));
      if (collapsed.length === label.length && collapsed.every((k, i) => k === label[i])) total += Math.exp(path.reduce((s, k, t) => s + lp[t * C + k]!, 0));
    }
    const loss = torch.tidy(() => F.ctcLoss(torch.tensor(Float64Array.from(lp), { shape: [T, C] }), torch.tensor(label), [T], [3], { reduction: "sum" }).item() as number);
    expect(Math.abs(loss + Math.log(total))).toBeLessThan(1e-12);
  });

  it("gives the same loss and gradient under torch.compile", () => {
    const z = seeded(T * N * C, 3);
    const eager = torch.tidy(() => {
      const x = torch.tensor(z, { shape: [T, N, C], requiresGrad: true });
      const loss = F.ctcLoss(F.logSoftmax(x, 2), torch.tensor(targets), inputLengths, targetLengths);
      loss.backward();
      return [loss.item() as number, ...values(x.grad!)];
    });
    const step = torch.compile((x: torch.Tensor, t: torch.Tensor) => {
      const loss = F.ctcLoss(F.logSoftmax(x, 2), t, inputLengths, targetLengths);
      loss.backward();
      return loss;
    });
    const compiled = torch.tidy(() => {
      const x = torch.tensor(z, { shape: [T, N, C], requiresGrad: true });
      const loss = step(x, torch.tensor(targets));
      return [loss.item() as number, ...values(x.grad!)];
    });
    compiled.forEach((v, i) => expect(Math.abs(v - eager[i]!)).toBeLessThan(1e-12));
  });
});
