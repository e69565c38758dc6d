// Training runs end to end against PyTorch (test/fixtures/nn/training.json, written by
// scripts/fixtures/nn_training.py): from PyTorch's initial weights (loadStateDict), the same 20
// batches give PyTorch's loss at every step (within 1e-4) and PyTorch's final weights (within 1e-4
// relative to each tensor's scale):
//   - an MLP (Linear → ReLU → Linear → ReLU → Linear), CrossEntropyLoss, Adam with clipGradNorm_;
//   - a causal Transformer (token and position Embeddings, a TransformerEncoder of two
//     TransformerEncoderLayers and a final LayerNorm, a Linear head), next-token cross-entropy,
//     AdamW, pre-norm with LinearLR and post-norm with CosineAnnealingLR.
// Set TRAINING_REPORT=1 to print the largest differences observed.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as torch from "../src/index.js";
import { fixturesDir, makeInput, type TensorSpec } from "./helpers/fixtures.js";

const nn = torch.nn;
type State = Record<string, TensorSpec>;
interface MlpRun {
  sizes: [number, number, number];
  lr: number;
  maxNorm: number;
  state: State;
  inputs: TensorSpec[];
  targets: TensorSpec[];
  losses: number[];
  gradNorms: number[];
  final: State;
}
interface TransformerRun {
  normFirst: boolean;
  schedule: "LinearLR" | "CosineAnnealingLR";
  vocab: number;
  context: number;
  dModel: number;
  nhead: number;
  dimFeedforward: number;
  lr: number;
  weightDecay: number;
  state: State;
  batches: TensorSpec[];
  losses: number[];
  lrs: number[];
  final: State;
}
const doc = JSON.parse(readFileSync(join(fixturesDir, "nn", "training.json"), "utf8")) as { mlp: MlpRun; transformers: TransformerRun[] };

const LOSS_TOL = 1e-4;
const WEIGHT_RTOL = 1e-4;
const report = (line: string): void => {
  if (process.env.TRAINING_REPORT) console.log(line);
};

const input = (s: TensorSpec): torch.Tensor => makeInput(torch, s, "cpu");
const stateOf = (specs: State): Record<string, torch.Tensor> => Object.fromEntries(Object.entries(specs).map(([k, s]) => [k, input(s)]));

/** Loads PyTorch's initial state (same keys, same order). */
function loadPyTorchState(model: torch.nn.Module, state: State): void {
  expect(Object.keys(model.stateDict())).toEqual(Object.keys(state));
  torch.tidy(() => {
    const { missingKeys, unexpectedKeys } = model.loadStateDict(stateOf(state));
    expect([missingKeys, unexpectedKeys]).toEqual([[], []]);
  });
}

/** Every step's loss within LOSS_TOL of PyTorch's; returns the largest difference. */
function expectLossCurve(losses: number[], want: number[]): number {
  expect(losses.length).toBe(want.length);
  let worst = 0;
  losses.forEach((l, i) => {
    const d = Math.abs(l - want[i]!);
    worst = Math.max(worst, d);
    expect(d, `step ${i}: loss ${l}, PyTorch ${want[i]}`).toBeLessThan(LOSS_TOL);
  });
  expect(losses.at(-1)!, "the loss falls").toBeLessThan(losses[0]! - 0.3);
  return worst;
}

/**
 * The key-projection bias (in_proj_bias[E:2E]) of an attention layer: adding a vector to every key
 * adds q·b to every score of a query's row, which softmax cancels, so its gradient is 0 in exact
 * arithmetic and float32 rounding noise (~1e-9) in practice, in PyTorch as here. Adam divides that
 * noise by its own root mean square, so the slice random-walks by up to lr a step; PyTorch's own
 * final values change by ~6e-4 between its SDPA backends (default vs math), the rest by 3e-8. It
 * has no effect on the outputs, so it is left out of the final comparison.
 */
const noiseDriven = (key: string, n: number): [number, number] | null => (key.endsWith("self_attn.in_proj_bias") ? [n / 3, (2 * n) / 3] : null);

/**
 * Each final tensor against PyTorch's: the largest |ours − PyTorch's| within WEIGHT_RTOL times the
 * tensor's largest magnitude. Returns the largest such relative and absolute differences, and the
 * largest difference on the key biases left out.
 */
async function expectFinalState(model: torch.nn.Module, want: State): Promise<{ rel: number; abs: number; where: string; keyBias: number }> {
  const state = model.stateDict();
  const worst = { rel: 0, abs: 0, where: "", keyBias: 0 };
  for (const [k, s] of Object.entries(want)) {
    const t = state[k]!;
    expect(t.shape, k).toEqual(s.shape);
    const got = (await t.data()) as Float32Array;
    const ref = s.values.map((v) => Math.fround(v as number));
    const skip = noiseDriven(k, ref.length);
    const compared = (i: number): boolean => skip === null || i < skip[0] || i >= skip[1];
    let abs = 0;
    let scale = 0;
    for (let i = 0; i < ref.length; i++) {
      const d = Math.abs(got[i]! - ref[i]!);
      if (compared(i)) {
        abs = Math.max(abs, d);
        scale = Math.max(scale, Math.abs(ref[i]!));
      } else worst.keyBias = Math.max(worst.keyBias, d);
    }
    const rel = abs / scale;
    if (rel > worst.rel) Object.assign(worst, { rel, where: k });
    worst.abs = Math.max(worst.abs, abs);
    expect(rel, `final ${k}: largest difference ${abs} on values up to ${scale}`).toBeLessThan(WEIGHT_RTOL);
  }
  return worst;
}

class TinyTransformer extends nn.Module {
  tok: torch.nn.Embedding;
  pos: torch.nn.Embedding;
  encoder: torch.nn.TransformerEncoder;
  head: torch.nn.Linear;
  constructor(r: TransformerRun) {
    super();
    this.tok = new nn.Embedding(r.vocab, r.dModel);
    this.pos = new nn.Embedding(r.context, r.dModel);
    const layer = new nn.TransformerEncoderLayer(r.dModel, r.nhead, { dimFeedforward: r.dimFeedforward, dropout: 0, batchFirst: true, normFirst: r.normFirst });
    this.encoder = new nn.TransformerEncoder(layer, 2, { norm: new nn.LayerNorm(r.dModel) });
    layer.dispose(); // the encoder holds copies
    this.head = new nn.Linear(r.dModel, r.vocab);
  }
  override forward(idx: torch.Tensor): torch.Tensor {
    const l = idx.shape[1]!;
    const h = this.tok.forward(idx).add(this.pos.forward(torch.arange(l)));
    const mask = torch.ones([l, l], { dtype: "bool" }).triu(1); // true: the future, not allowed
    return this.head.forward(this.encoder.forward(h, { mask }));
  }
}

let before = 0;
beforeEach(() => {
  before = torch.memory().numTensors;
});
afterEach(() => {
  expect(torch.memory().numTensors, "tensors left alive").toBe(before);
});

describe("training runs from PyTorch's weights follow PyTorch's loss curve and end at its weights", () => {
  it("MLP, CrossEntropyLoss, Adam with clipGradNorm_: 20 steps", async () => {
    const r = doc.mlp;
    const [nIn, hidden, nOut] = r.sizes;
    const model = new nn.Sequential(new nn.Linear(nIn, hidden), new nn.ReLU(), new nn.Linear(hidden, hidden), new nn.ReLU(), new nn.Linear(hidden, nOut));
    const opt = new torch.optim.Adam(model.parameters(), { lr: r.lr });
    const lossFn = new nn.CrossEntropyLoss();
    try {
      loadPyTorchState(model, r.state);
      const losses: number[] = [];
      const norms: number[] = [];
      for (let i = 0; i < r.inputs.length; i++) {
        torch.tidy(() => {
          opt.zeroGrad();
          const loss = lossFn.call(model.call(input(r.inputs[i]!)), input(r.targets[i]!)) as torch.Tensor;
          loss.backward();
          norms.push(nn.utils.clipGradNorm_(model.parameters(), r.maxNorm).item() as number);
          opt.step();
          losses.push(loss.item() as number);
        });
      }
      // the clipping is exercised: some steps are clipped, some not, as in PyTorch
      norms.forEach((n, i) => expect(Math.abs(n - r.gradNorms[i]!), `step ${i}: gradient norm ${n}, PyTorch ${r.gradNorms[i]}`).toBeLessThan(1e-4 * Math.max(1, r.gradNorms[i]!)));
      expect(r.gradNorms.some((n) => n > r.maxNorm) && r.gradNorms.some((n) => n < r.maxNorm)).toBe(true);
      const lossDiff = expectLossCurve(losses, r.losses);
      const w = await expectFinalState(model, r.final);
      report(`MLP/Adam: max loss difference ${lossDiff.toExponential(2)}; final weights: max relative ${w.rel.toExponential(2)} (${w.where}), max absolute ${w.abs.toExponential(2)}`);
    } finally {
      model.zeroGrad();
      opt.dispose();
      model.dispose();
    }
  });

  for (const r of doc.transformers) {
    it(`Transformer (${r.normFirst ? "pre-norm" : "post-norm"}, causal), AdamW with ${r.schedule}: 20 steps`, async () => {
      const model = new TinyTransformer(r);
      const opt = new torch.optim.AdamW(model.parameters(), { lr: r.lr, weightDecay: r.weightDecay });
      const schedule = r.schedule === "LinearLR"
        ? new torch.optim.lrScheduler.LinearLR(opt, { startFactor: 0.2, totalIters: 10 })
        : new torch.optim.lrScheduler.CosineAnnealingLR(opt, 20, { etaMin: 1e-4 });
      try {
        loadPyTorchState(model, r.state);
        const losses: number[] = [];
        for (const [i, b] of r.batches.entries()) {
          torch.tidy(() => {
            const batch = input(b);
            const [n, l] = batch.shape as [number, number];
            const x = batch.narrow(1, 0, l - 1);
            const y = batch.narrow(1, 1, l - 1);
            opt.zeroGrad();
            const loss = nn.functional.crossEntropy(model.forward(x).reshape([-1, r.vocab]), y.reshape([n * (l - 1)]));
            loss.backward();
            expect(opt.paramGroups[0]!.lr, `step ${i}: lr`).toBeCloseTo(r.lrs[i]!, 12);
            opt.step();
            schedule.step();
            losses.push(loss.item() as number);
          });
        }
        const lossDiff = expectLossCurve(losses, r.losses);
        const w = await expectFinalState(model, r.final);
        report(`Transformer ${r.normFirst ? "pre-norm" : "post-norm"}/AdamW/${r.schedule}: max loss difference ${lossDiff.toExponential(2)}; final weights: max relative ${w.rel.toExponential(2)} (${w.where}), max absolute ${w.abs.toExponential(2)}; key biases (not compared) ${w.keyBias.toExponential(2)}`);
      } finally {
        model.zeroGrad();
        opt.dispose();
        model.dispose();
      }
    });
  }
});
