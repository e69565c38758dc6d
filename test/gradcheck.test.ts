// A numerical gradient check in float64 of every differentiable op of the fixtures: for one case of
// each op (its float64 case, or its float32 case run in float64), autograd's vector-Jacobian product
// with the fixture's cotangents must equal central finite differences of Σ cotangent·output, element
// by element. Points where the one-sided differences disagree (a kink: relu at 0, a max tie, a floor
// step) are skipped and counted; every op must have smooth points checked.
import { afterAll, describe, expect, it } from "vitest";
import * as torch from "../src/index.js";
import { type FixtureCase, hasMethod, hostData, loadFamilies, makeInput, resolveFunction, type TensorSpec } from "./helpers/fixtures.js";
import { callCase, outputsOf } from "./helpers/grad_fixtures.js";

const floating = (d: string): boolean => d === "float32" || d === "float64";
const finite = (s: TensorSpec): boolean => !floating(s.dtype) || (s.values as unknown[]).every((v) => typeof v === "number" && Number.isFinite(v));
const asFloat64 = (s: TensorSpec): TensorSpec => (s.dtype === "float32" ? { ...s, dtype: "float64" } : s);

/**
 * Ops whose PyTorch gradient is by design not the derivative of their value (docs/autograd.md):
 * ctc_loss's is exp(logProbs) − posterior, the gradient through the logSoftmax it assumes
 * (test/ctc-loss.test.ts checks that composition against finite differences). The Cholesky ops read
 * one triangle of their input but PyTorch's gradients treat it as a symmetric matrix (cholesky's is
 * symmetrized) or the factor as a full matrix in A = L Lᵀ (choleskySolve, choleskyInverse).
 * linalg.lu's P is a float output without a gradient, so the cotangents here do not line up with its outputs.
 */
const notTheDerivative = new Set(["nn.functional.ctc_loss", "linalg.cholesky", "linalg.cholesky_ex", "cholesky", "cholesky_solve", "cholesky_inverse", "linalg.lu"]);
/** Embedding's padding row gets no gradient and scaleGradByFreq divides by counts: PyTorch's rules, not derivatives. */
const ruledGradient = (c: FixtureCase): boolean => /^(nn\.functional\.)?embedding\/(padding|scale-grad)/.test(c.id);

/** One case per op: a float64 one when the fixtures have it, else a float32 one (run in float64); finite inputs only. */
function casesByOp(): FixtureCase[] {
  const byOp = new Map<string, FixtureCase>();
  for (const fam of loadFamilies()) {
    for (const c of fam.cases) {
      if (c.grad === undefined || !c.inputs.every(finite) || /special|inf|nan/i.test(c.id) || notTheDerivative.has(c.op) || ruledGradient(c)) continue;
      if (resolveFunction(torch, c.name) === undefined && !(c.method && hasMethod(torch, c.method))) continue;
      if (c.kwargs !== undefined && JSON.stringify(c.kwargs).includes("float32")) continue; // a dtype option pins float32
      const f64 = c.inputs.some((s) => s.dtype === "float64");
      const had = byOp.get(c.op);
      if (had === undefined || (f64 && !had.inputs.some((s) => s.dtype === "float64"))) byOp.set(c.op, c);
    }
  }
  return [...byOp.values()];
}

const values = (t: torch.Tensor): number[] => Array.from(t.dataSync() as ArrayLike<number>, Number);

/** Σ cotangent·output for the given float64 inputs (outside autograd), or undefined if the op fails. */
function objective(c: FixtureCase, specs: TensorSpec[], data: number[][], cts: number[][]): number {
  return torch.tidy(() => {
    const inputs = specs.map((s, i) => (floating(s.dtype) ? torch.tensor(Float64Array.from(data[i]!), { shape: s.shape }) : makeInput(torch, s, "cpu")));
    const outs = torch.noGrad(() => outputsOf(torch, c, callCase(torch, c, inputs, "cpu"))).filter((o) => floating(o.dtype));
    let sum = 0;
    outs.forEach((o, k) => values(o).forEach((v, j) => (sum += v * (cts[k]?.[j] ?? 0))));
    return sum;
  });
}

const totals = { checked: 0, kinks: 0, onlyKinks: [] as string[] };

describe("gradients against float64 finite differences", () => {
  const cases = casesByOp();
  afterAll(() => {
    console.log(`finite differences: ${totals.checked} elements checked, ${totals.kinks} at kinks skipped; ops with no smooth point: ${totals.onlyKinks.join(", ") || "none"}`);
  });
  it("covers the differentiable ops of the fixtures", () => expect(cases.length).toBeGreaterThan(150));
  for (const c of cases) {
    it(`${c.op} (${c.id})`, () => {
      const specs = c.inputs.map(asFloat64);
      const data = specs.map((s) => (floating(s.dtype) ? Array.from(hostData(s) as Float64Array) : []));
      const cts = c.grad!.cotangents.map((s) => Array.from(hostData(asFloat64(s)) as unknown as ArrayLike<number>, Number));
      const f = (d: number[][]) => objective(c, specs, d, cts);
      const base = f(data);
      if (f(data) !== base) return; // random ops: a second evaluation differs
      const analytic = torch.tidy(() => {
        const inputs = specs.map((s, i) => (floating(s.dtype) ? torch.tensor(Float64Array.from(data[i]!), { shape: s.shape, requiresGrad: true }) : makeInput(torch, s, "cpu")));
        const outs = outputsOf(torch, c, callCase(torch, c, inputs, "cpu")).filter((o) => floating(o.dtype) && o.requiresGrad);
        const wrt = inputs.filter((t) => t.requiresGrad);
        const gradOutputs = outs.map((o, k) => torch.tensor(Float64Array.from(cts[k]!), { shape: o.shape }));
        const grads = torch.autograd.grad(outs, wrt, { gradOutputs, allowUnused: true });
        return grads.map((g, k) => (g === null ? new Array<number>(wrt[k]!.numel()).fill(0) : values(g)));
      });
      let checked = 0;
      let kinks = 0;
      let w = 0;
      specs.forEach((s, i) => {
        if (!floating(s.dtype)) return;
        const grad = analytic[w++]!;
        const n = data[i]!.length;
        const picks = n <= 12 ? [...Array(n).keys()] : Array.from({ length: 12 }, (_, k) => Math.floor((k * n) / 12));
        for (const j of picks) {
          const x = data[i]![j]!;
          const h = 1e-6 * Math.max(1, Math.abs(x));
          const at = (v: number) => f(data.map((d, k) => (k === i ? d.map((y, m) => (m === j ? v : y)) : d)));
          const up = at(x + h);
          const down = at(x - h);
          const right = (up - base) / h;
          const left = (base - down) / h;
          const scale = Math.max(1, Math.abs(right), Math.abs(left));
          if (!Number.isFinite(up) || !Number.isFinite(down) || Math.abs(right - left) > 1e-3 * scale) {
            kinks++;
            continue;
          }
          const numeric = (up - down) / (2 * h);
          const tol = 1e-5 * Math.max(1, Math.abs(grad[j]!)) + (1e-9 * Math.abs(base)) / h;
          expect(Math.abs(numeric - grad[j]!), `input ${i} element ${j}: autograd ${grad[j]} vs finite differences ${numeric}`).toBeLessThanOrEqual(tol);
          checked++;
        }
      });
      expect(checked + kinks).toBeGreaterThan(0);
      totals.checked += checked;
      totals.kinks += kinks;
      if (checked === 0) totals.onlyKinks.push(c.op);
    });
  }
});
