// More torch.nn against PyTorch (test/fixtures/nn/more.json, written by scripts/fixtures/nn_more.py):
// TransformerDecoderLayer, TransformerDecoder, Transformer, Bilinear, the distance modules and the
// margin / NLL / soft-margin losses, each with PyTorch's weights (through loadStateDict) giving
// PyTorch's output, parameter gradients and input gradients. Then torch.nn.init's eye_, dirac_,
// truncNormal_ (moments against the truncated normal's, in float64) and orthogonal_ (W·Wᵀ = gain²·I),
// the functional forms, errors, and that nothing leaks.
import { describe, expect, it } from "vitest";
import * as torch from "../src/index.js";
import type { TensorSpec } from "./helpers/fixtures.js";
import { moduleFixtureSuite, readModuleFixtures } from "./helpers/module_fixtures.js";
import { expectClose, expectNoLeaks } from "./helpers/nn.js";

const nn = torch.nn;
const F = torch.nn.functional;

const doc = readModuleFixtures<{ squareSubsequentMask: TensorSpec }>("more.json");

/** Float64 values of a tensor. */
const values = (t: torch.Tensor): number[] => Array.from(t.dataSync() as ArrayLike<number>, Number);

expectNoLeaks();

moduleFixtureSuite("layers and losses with PyTorch's weights give PyTorch's outputs and gradients", doc.layers);

describe("transformer decoder", () => {
  it("generateSquareSubsequentMask is PyTorch's (−∞ above the diagonal, 0 elsewhere)", async () => {
    const mask = nn.Transformer.generateSquareSubsequentMask(4);
    try {
      await expectClose(mask, doc.squareSubsequentMask, "mask", 0);
      expect(() => nn.Transformer.generateSquareSubsequentMask(-1)).toThrow(torch.ArgumentError);
    } finally {
      mask.dispose();
    }
  });

  it("TransformerDecoder copies its layer: the same as applying the layer twice; tgtIsCausal is the causal mask", () => {
    const layer = new nn.TransformerDecoderLayer(8, 2, { dimFeedforward: 16, dropout: 0, batchFirst: true });
    const decoder = new nn.TransformerDecoder(layer, 2);
    try {
      expect(Object.keys(decoder.stateDict())).toHaveLength(2 * Object.keys(layer.stateDict()).length);
      expect(Object.keys(layer.stateDict())).toEqual([
        "self_attn.in_proj_weight", "self_attn.in_proj_bias", "self_attn.out_proj.weight", "self_attn.out_proj.bias",
        "multihead_attn.in_proj_weight", "multihead_attn.in_proj_bias", "multihead_attn.out_proj.weight", "multihead_attn.out_proj.bias",
        "linear1.weight", "linear1.bias", "linear2.weight", "linear2.bias",
        "norm1.weight", "norm1.bias", "norm2.weight", "norm2.bias", "norm3.weight", "norm3.bias",
      ]);
      torch.tidy(() => {
        const tgt = torch.randn([2, 5, 8]);
        const memory = torch.randn([2, 3, 8]);
        const causal = torch.ones([5, 5], { dtype: "bool" }).triu(1);
        const twice = values(layer.forward(layer.forward(tgt, memory, { tgtMask: causal }), memory, { tgtMask: causal }));
        const got = values(decoder.forward(tgt, memory, { tgtIsCausal: true }));
        got.forEach((v, i) => expect(Math.abs(v - twice[i]!)).toBeLessThan(1e-5));
        // the causal mask matters: without it the first position sees the future
        const open = values(layer.forward(tgt, memory));
        const masked = values(layer.forward(tgt, memory, { tgtIsCausal: true }));
        expect(open.some((v, i) => Math.abs(v - masked[i]!) > 1e-4)).toBe(true);
      });
    } finally {
      layer.dispose();
      decoder.dispose();
    }
  });

  it("Transformer: positional (dModel, nhead, options), PyTorch's keys, xavier-uniform matrices, a custom decoder", () => {
    const t = new nn.Transformer(8, 2, { numEncoderLayers: 1, numDecoderLayers: 2, dimFeedforward: 12, dropout: 0 });
    try {
      const keys = Object.keys(t.stateDict());
      expect(keys[0]).toBe("encoder.layers.0.self_attn.in_proj_weight");
      expect(keys).toContain("encoder.norm.weight");
      expect(keys).toContain("decoder.layers.1.multihead_attn.out_proj.bias");
      expect(keys.at(-1)).toBe("decoder.norm.bias");
      const w = values(t.stateDict()["decoder.layers.0.linear1.weight"]!);
      const bound = Math.sqrt(6 / (8 + 12));
      expect(Math.max(...w.map(Math.abs))).toBeLessThanOrEqual(bound);
      expect(Math.max(...w.map(Math.abs))).toBeGreaterThan(0.5 * bound);
      expect(values(t.stateDict()["decoder.layers.0.linear1.bias"]!).every((v) => Math.abs(v) <= 1 / Math.sqrt(8))).toBe(true);
      torch.tidy(() => {
        const out = t.forward(torch.randn([5, 2, 8]), torch.randn([4, 2, 8]), { tgtMask: nn.Transformer.generateSquareSubsequentMask(4) });
        expect(out.shape).toEqual([4, 2, 8]);
        expect(() => t.forward(torch.randn([5, 2, 8]), torch.randn([4, 3, 8]))).toThrow(/the batch number of src and tgt must be equal/);
        expect(() => t.forward(torch.randn([5, 2, 6]), torch.randn([4, 2, 6]))).toThrow(/the feature number of src and tgt must be equal to dModel/);
        expect(() => t.forward(torch.randn([5, 2, 8]), torch.randn([4, 2, 8]), { tgt_mask: null } as never)).toThrow(/unknown option "tgt_mask"/);
      });
    } finally {
      t.dispose();
    }
    const one = new nn.TransformerDecoderLayer(8, 2, { dimFeedforward: 12 });
    const custom = new nn.TransformerDecoder(one, 0);
    one.dispose();
    const t2 = new nn.Transformer({ dModel: 8, nhead: 2, numEncoderLayers: 1, customDecoder: custom, dropout: 0 });
    try {
      expect(t2.decoder).toBe(custom);
      torch.tidy(() => {
        const src = torch.randn([3, 1, 8]);
        const tgt = torch.randn([2, 1, 8]);
        expect(values(t2.forward(src, tgt))).toEqual(values(tgt)); // a decoder of 0 layers and no norm passes tgt through
      });
    } finally {
      t2.dispose();
    }
  });

  it("rejects bad options and arguments", () => {
    expect(() => new nn.TransformerDecoderLayer(8, 2, { dim_feedforward: 4 } as never)).toThrow(/unknown option "dim_feedforward"/);
    expect(() => new nn.TransformerDecoderLayer(8, 3)).toThrow(/divisible by numHeads/);
    expect(() => new nn.TransformerDecoderLayer(8, 2, { activation: "tanh" as never })).toThrow(/activation should be "relu", "gelu" or a function/);
    const layer = new nn.TransformerDecoderLayer(8, 2, { dimFeedforward: 4 });
    try {
      expect(() => new nn.TransformerDecoder(layer, -1)).toThrow(/numLayers must be a non-negative integer/);
      const linear = new nn.Linear(2, 2);
      expect(() => new nn.TransformerDecoder(linear as never, 1)).toThrow(/must be a TransformerDecoderLayer/);
      linear.dispose();
      torch.tidy(() => {
        expect(() => layer.forward(torch.zeros([3, 2, 8]), torch.zeros([4, 2, 8]), { mask: null } as never)).toThrow(/unknown option "mask"/);
        expect(() => layer.forward(torch.zeros([3, 2, 6]), torch.zeros([4, 2, 8]))).toThrow(torch.ShapeError);
      });
      expect(() => new nn.Transformer(8, 2, { dModel: 16 })).toThrow(/dModel given twice/);
    } finally {
      layer.dispose();
    }
  });
});

describe("Bilinear", () => {
  it("starts uniform in ±1/√in1, prints, and checks shapes", () => {
    const b = new nn.Bilinear(25, 3, 40);
    try {
      expect(b.weight.shape).toEqual([40, 25, 3]);
      const w = values(b.weight);
      expect(Math.max(...w.map(Math.abs))).toBeLessThanOrEqual(1 / 5);
      expect(Math.max(...w.map(Math.abs))).toBeGreaterThan(0.9 / 5);
      expect(Math.max(...values(b.bias!).map(Math.abs))).toBeLessThanOrEqual(1 / 5);
      expect(String(b)).toBe("Bilinear(in1Features=25, in2Features=3, outFeatures=40, bias=true)");
      torch.tidy(() => {
        expect(b.forward(torch.zeros([2, 25]), torch.zeros([2, 3])).shape).toEqual([2, 40]);
        expect(() => b.forward(torch.zeros([2, 25]), torch.zeros([3, 3]))).toThrow(/same sizes except in the last/);
        expect(() => b.forward(torch.zeros([2, 24]), torch.zeros([2, 3]))).toThrow(/weight must be \[out, 24, 3\]/);
        // F.bilinear agrees with an einsum
        const x1 = torch.randn([4, 25]);
        const x2 = torch.randn([4, 3]);
        const want = values(torch.einsum("ni,oij,nj->no", x1, b.weight, x2).add(b.bias!));
        values(F.bilinear(x1, x2, b.weight, b.bias)).forEach((v, i) => expect(v).toBeCloseTo(want[i]!, 4));
      });
      expect(() => new nn.Bilinear(2, 2, 2, { baias: true } as never)).toThrow(/unknown option "baias"/);
    } finally {
      b.dispose();
    }
  });
});

describe("functional losses", () => {
  it("take PyTorch's positional arguments and options alike, and match their modules", () => {
    torch.tidy(() => {
      const a = torch.randn([6]);
      const b = torch.randn([6]);
      const y = torch.tensor([1, -1, 1, 1, -1, -1], { dtype: "float32" });
      const same = (p: torch.Tensor, q: torch.Tensor) => expect(values(p)).toEqual(values(q));
      same(F.marginRankingLoss(a, b, y, 0.3, { reduction: "sum" }), F.marginRankingLoss(a, b, y, { margin: 0.3, reduction: "sum" }));
      same(F.marginRankingLoss(a, b, y, 0.3), new nn.MarginRankingLoss({ margin: 0.3 }).forward(a, b, y));
      same(F.hingeEmbeddingLoss(a, y, 0.5), F.hingeEmbeddingLoss(a, y, { margin: 0.5 }));
      same(F.poissonNllLoss(a, b.abs(), false, true, { eps: 1e-3 }), F.poissonNllLoss(a, b.abs(), { logInput: false, full: true, eps: 1e-3 }));
      same(F.tripletMarginLoss(a.reshape([2, 3]), b.reshape([2, 3]), a.reshape([2, 3]).mul(2), 0.5, 1, 1e-6, true), new nn.TripletMarginLoss({ margin: 0.5, p: 1, swap: true }).forward(a.reshape([2, 3]), b.reshape([2, 3]), a.reshape([2, 3]).mul(2)));
      same(F.multiMarginLoss(a.reshape([2, 3]), torch.tensor([0n, 2n]), 2, 0.5), F.multiMarginLoss(a.reshape([2, 3]), torch.tensor([0n, 2n]), { p: 2, margin: 0.5 }));
      // a float var is a constant variance (clamped at eps)
      const g = F.gaussianNllLoss(a, b, 0.25, true, 1e-6, "sum");
      const d = values(a.sub(b));
      const want = d.reduce((s, x) => s + 0.5 * (Math.log(0.25) + (x * x) / 0.25) + 0.5 * Math.log(2 * Math.PI), 0);
      expect(g.item()).toBeCloseTo(want, 3);
      same(F.gaussianNllLoss(a, b, 1e-9, { eps: 0.5 }), F.gaussianNllLoss(a, b, torch.fullLike(a, 0.5)));
      // integer ±1 targets are converted, as PyTorch promotes them
      same(F.softMarginLoss(a, y.to("int64")), F.softMarginLoss(a, y));
    });
  });

  it("rejects bad inputs with typed errors", () => {
    torch.tidy(() => {
      const x = torch.randn([4, 5]);
      expect(() => F.multiMarginLoss(x, torch.tensor([0n, 1n, 2n, 3n]), 3)).toThrow(/only p == 1 and p == 2 are supported/);
      expect(() => F.multiMarginLoss(x, torch.tensor([0, 1, 2, 3], { dtype: "int32" }))).toThrow(torch.DTypeError);
      expect(() => F.multiMarginLoss(x, torch.tensor([0n, 1n]))).toThrow(torch.ShapeError);
      expect(() => F.gaussianNllLoss(x, x, torch.ones([3]))).toThrow(/var is of incorrect size/);
      expect(() => F.gaussianNllLoss(x, x, -1)).toThrow(/negative/);
      expect(() => F.gaussianNllLoss(x, x, torch.ones([4, 5]), { reduction: "avg" as never })).toThrow(torch.ArgumentError);
      expect(() => F.cosineEmbeddingLoss(x, x, torch.ones([3]))).toThrow(torch.ShapeError);
      expect(() => F.tripletMarginLoss(x, x, x, 0)).toThrow(/margin must be greater than 0/);
      expect(() => F.tripletMarginLoss(x, x, x.reshape([20]))).toThrow(torch.ShapeError);
      expect(() => F.marginRankingLoss(x, x.to("float64"), x)).toThrow(torch.DTypeError);
      expect(() => F.multilabelSoftMarginLoss(x, torch.ones([4, 4]))).toThrow(/must be the same as input size/);
      expect(() => F.softMarginLoss(torch.ones([2], { dtype: "int64" }), torch.ones([2]))).toThrow(torch.DTypeError);
      expect(() => new nn.MultiMarginLoss({ margins: 1 } as never)).toThrow(/unknown option "margins"/);
    });
  });

  it("loss weights are buffers (PyTorch's state-dict keys) and the distance modules take PyTorch's positional arguments", () => {
    const bce = new nn.BCEWithLogitsLoss({ posWeight: torch.ones([3]) });
    const cos = new nn.CosineSimilarity(0, 1e-3);
    const dist = new nn.PairwiseDistance(1, { keepdim: true });
    try {
      expect(Object.keys(bce.stateDict())).toEqual(["pos_weight"]);
      expect([cos.dim, cos.eps]).toEqual([0, 1e-3]);
      expect([dist.norm, dist.eps, dist.keepdim]).toEqual([1, 1e-6, true]);
      expect(() => new nn.PairwiseDistance(1, { p: 2 } as never)).toThrow(/p given positionally and as an option/);
      expect(() => new nn.CosineSimilarity({ dims: 1 } as never)).toThrow(/unknown option "dims"/);
    } finally {
      bce.dispose();
    }
  });
});

// --- init ---------------------------------------------------------------------------------------

/** erf in float64 (Abramowitz–Stegun would be too coarse here): series, or the continued fraction for erfc. */
function erf(x: number): number {
  if (Math.abs(x) < 3) {
    let term = x;
    let sum = x;
    for (let n = 1; n < 200; n++) {
      term *= (-x * x) / n;
      sum += term / (2 * n + 1);
    }
    return (2 / Math.sqrt(Math.PI)) * sum;
  }
  let f = Math.abs(x);
  for (let k = 80; k >= 1; k--) f = Math.abs(x) + k / 2 / f;
  return Math.sign(x) * (1 - Math.exp(-x * x) / (Math.sqrt(Math.PI) * f));
}
const phi = (x: number) => Math.exp(-x * x / 2) / Math.sqrt(2 * Math.PI);
const Phi = (x: number) => (1 + erf(x / Math.SQRT2)) / 2;

/** The truncated normal's mean and standard deviation. */
function truncatedMoments(mean: number, std: number, a: number, b: number): [number, number] {
  const al = (a - mean) / std;
  const be = (b - mean) / std;
  const z = Phi(be) - Phi(al);
  const m = (phi(al) - phi(be)) / z;
  const v = 1 + (al * phi(al) - be * phi(be)) / z - m * m;
  return [mean + std * m, std * Math.sqrt(v)];
}

function moments(xs: number[]): [number, number] {
  const m = xs.reduce((s, x) => s + x, 0) / xs.length;
  return [m, Math.sqrt(xs.reduce((s, x) => s + (x - m) ** 2, 0) / xs.length)];
}

/** max |G − gain²·I| for the smaller Gram matrix of t viewed as rows × cols, in float64. */
function gramError(t: torch.Tensor, gain: number): number {
  const rows = t.shape[0]!;
  const cols = t.numel() / rows;
  const w = values(t);
  const byRows = rows <= cols;
  const k = byRows ? rows : cols;
  const at = (i: number, j: number) => w[i * cols + j]!;
  let worst = 0;
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      let s = 0;
      if (byRows) for (let c = 0; c < cols; c++) s += at(i, c) * at(j, c);
      else for (let r = 0; r < rows; r++) s += at(r, i) * at(r, j);
      worst = Math.max(worst, Math.abs(s - (i === j ? gain * gain : 0)));
    }
  }
  return worst;
}

describe("nn.init", () => {
  it("takes PyTorch's calling convention: values after the tensor positionally or by name, mode as PyTorch spells it", () => {
    torch.tidy(() => {
      const drawn = (fill: (t: torch.Tensor, generator: torch.Generator) => torch.Tensor) => values(fill(torch.empty([4, 6], { dtype: "float64" }), new torch.Generator().manualSeed(3)));
      const same = (...fills: ((t: torch.Tensor, generator: torch.Generator) => torch.Tensor)[]) => {
        const [first, ...rest] = fills.map(drawn);
        for (const v of rest) expect(v).toEqual(first);
        return first!;
      };
      const normal = same((t, generator) => nn.init.normal_(t, 0, 0.02, { generator }), (t, generator) => nn.init.normal_(t, { std: 0.02, generator }));
      expect(normal.every((v) => Math.abs(v) < 0.2) && new Set(normal).size === normal.length).toBe(true);
      const uniform = same((t, generator) => nn.init.uniform_(t, -0.5, 0.25, { generator }), (t, generator) => nn.init.uniform_(t, { a: -0.5, b: 0.25, generator }));
      expect(uniform.every((v) => v >= -0.5 && v < 0.25)).toBe(true);
      // fan_out = 4 for a [4, 6] weight: kaiming_uniform_ bound = gain·√(3 / fan) with gain = √2 (relu)
      const kaiming = same(
        (t, generator) => nn.init.kaimingUniform_(t, 0, "fan_out", "relu", { generator }),
        (t, generator) => nn.init.kaimingUniform_(t, { mode: "fan_out", nonlinearity: "relu", generator }),
        (t, generator) => nn.init.kaimingUniform_(t, { mode: "fanOut", nonlinearity: "relu", generator }),
      );
      expect(Math.max(...kaiming.map(Math.abs))).toBeLessThanOrEqual(Math.SQRT2 * Math.sqrt(3 / 4));
      expect(Math.max(...kaiming.map(Math.abs))).toBeGreaterThan(0.8 * Math.SQRT2 * Math.sqrt(3 / 4));
      same((t, generator) => nn.init.xavierNormal_(t, 2, { generator }), (t, generator) => nn.init.xavierNormal_(t, { gain: 2, generator }));
      expect(values(nn.init.constant_(torch.empty([2]), { val: 1.5 }))).toEqual([1.5, 1.5]);
      expect(() => nn.init.normal_(torch.empty([2]), { sd: 1 } as never)).toThrow(/nn\.init\.normal_\(tensor, mean = 0, std = 1, \*, generator\?\): got an unknown option "sd"/);
      expect(() => nn.init.kaimingNormal_(torch.empty([2, 2]), { mode: "fan_up" as never })).toThrow(torch.ArgumentError);
    });
  });

  it("truncNormal_: samples in [a, b] with the truncated normal's mean and std", () => {
    torch.tidy(() => {
      const n = 100_000;
      for (const [mean, std, a, b] of [[0, 1, -2, 2], [1, 2, 0, 5], [0, 1, 0.5, 3], [-3, 0.5, -3.2, -1]] as const) {
        const t = nn.init.truncNormal_(torch.empty([n]), mean, std, a, b);
        const xs = values(t);
        expect(Math.min(...xs)).toBeGreaterThanOrEqual(a);
        expect(Math.max(...xs)).toBeLessThanOrEqual(b);
        const [m, s] = moments(xs);
        const [wantM, wantS] = truncatedMoments(mean, std, a, b);
        const what = `mean ${mean}, std ${std}, [${a}, ${b}]`;
        expect(Math.abs(m - wantM), `${what}: mean ${m} vs ${wantM}`).toBeLessThan(5 * wantS / Math.sqrt(n));
        expect(Math.abs(s - wantS), `${what}: std ${s} vs ${wantS}`).toBeLessThan(5 * wantS / Math.sqrt(n) + 1e-3);
      }
      // the options form, a generator (same seed, same values), float64 and a 2-d parameter
      const g1 = new torch.Generator().manualSeed(7);
      const g2 = new torch.Generator().manualSeed(7);
      const p = new nn.Parameter(torch.empty([30, 20], { dtype: "float64" }));
      const out = nn.init.truncNormal_(p, { std: 0.02, a: -0.04, b: 0.04, generator: g1 });
      expect(out).toBe(p);
      expect(p.isLeaf && p.requiresGrad).toBe(true);
      expect(values(p).every((v) => Math.abs(v) <= 0.04)).toBe(true);
      expect(values(nn.init.truncNormal_(torch.empty([30, 20], { dtype: "float64" }), 0, 0.02, -0.04, 0.04, { generator: g2 }))).toEqual(values(p));
      expect(() => nn.init.truncNormal_(p, 0, 1, 2, 1)).toThrow(/a < b/);
      expect(() => nn.init.truncNormal_(p, { sd: 1 } as never)).toThrow(/unknown option "sd"/);
      expect(() => nn.init.truncNormal_(p, 0, -1)).toThrow(torch.ArgumentError);
    });
  });

  it("orthogonal_: W·Wᵀ = gain²·I (or WᵀW for tall W) for square, tall, wide and conv-shaped weights", () => {
    torch.tidy(() => {
      for (const [shape, gain] of [[[6, 6], 1], [[10, 4], 1], [[4, 10], 2], [[8, 3, 3, 3], Math.SQRT2], [[1, 5], 1], [[5, 1], 0.5]] as const) {
        const t = nn.init.orthogonal_(torch.empty([...shape]), gain);
        expect(gramError(t, gain), `[${shape.join(", ")}], gain ${gain}`).toBeLessThan(1e-5 * Math.max(1, gain * gain));
      }
      const exact = nn.init.orthogonal_(torch.empty([5, 7], { dtype: "float64" }), 3);
      expect(gramError(exact, 3)).toBeLessThan(1e-12);
      const g1 = new torch.Generator().manualSeed(3);
      const g2 = new torch.Generator().manualSeed(3);
      expect(values(nn.init.orthogonal_(torch.empty([4, 4]), 1, { generator: g1 }))).toEqual(values(nn.init.orthogonal_(torch.empty([4, 4]), 1, { generator: g2 })));
      expect(() => nn.init.orthogonal_(torch.empty([4]))).toThrow(torch.ShapeError);
      expect(nn.init.orthogonal_(torch.empty([0, 3])).shape).toEqual([0, 3]);
    });
  });

  it("eye_ and dirac_ write exact values; dirac_ makes a convolution the identity", () => {
    torch.tidy(() => {
      expect(nn.init.eye_(torch.empty([2, 3])).tolist()).toEqual([[1, 0, 0], [0, 1, 0]]);
      expect(nn.init.eye_(torch.empty([3, 2], { dtype: "bfloat16" })).tolist()).toEqual([[1, 0], [0, 1], [0, 0]]);
      expect(() => nn.init.eye_(torch.empty([2, 2, 2]))).toThrow(/only tensors with 2 dimensions/);
      const w = nn.init.dirac_(torch.empty([3, 3, 5]));
      const x = torch.randn([2, 3, 7]);
      expect(values(F.conv1d(x, w, null, 1, 2))).toEqual(values(x));
      const grouped = nn.init.dirac_(torch.empty([4, 2, 3]), 2);
      expect(grouped.tolist()).toEqual([
        [[0, 1, 0], [0, 0, 0]], [[0, 0, 0], [0, 1, 0]],
        [[0, 1, 0], [0, 0, 0]], [[0, 0, 0], [0, 1, 0]],
      ]);
      expect(nn.init.dirac_(torch.empty([2, 3, 2, 2])).sum().item()).toBe(2);
      expect(() => nn.init.dirac_(torch.empty([3, 3]))).toThrow(torch.ShapeError);
      expect(() => nn.init.dirac_(torch.empty([3, 3, 3]), 2)).toThrow(/divisible by groups/);
    });
  });
});

describe("random activations and dropouts", () => {
  /** Values of a float tensor, per channel of [N, C, *] (or [C, *] with batched false). */
  const channels = (t: torch.Tensor, batched = true): number[][] => {
    const v = values(t);
    const count = batched ? t.shape[0]! * t.shape[1]! : t.shape[0]!;
    const size = v.length / count;
    return Array.from({ length: count }, (_, i) => v.slice(i * size, (i + 1) * size));
  };

  it("dropout1d/2d/3d zero whole channels with probability p and scale the rest by 1/(1 − p)", () => {
    torch.manualSeed(11);
    torch.tidy(() => {
      const p = 0.3;
      const cases: [torch.Tensor, boolean][] = [
        [F.dropout1d(torch.ones([40, 50, 3]), p), true],
        [F.dropout1d(torch.ones([2000, 3]), p), false],
        [F.dropout2d(torch.ones([40, 50, 2, 2]), p), true],
        [F.dropout2d(torch.ones([40, 50, 3]), p), true], // 3-d: [N, C, L], as in PyTorch
        [F.dropout3d(torch.ones([8, 250, 2, 1, 2]), p), true],
        [F.dropout3d(torch.ones([2000, 1, 2, 2]), p), false],
      ];
      for (const [out, batched] of cases) {
        const chans = channels(out, batched);
        const dropped = chans.filter((c) => c.every((v) => v === 0)).length;
        const kept = chans.filter((c) => c.every((v) => Math.abs(v - 1 / (1 - p)) < 1e-6)).length;
        expect(dropped + kept).toBe(chans.length);
        expect(Math.abs(dropped / chans.length - p)).toBeLessThan(0.05);
      }
      const x = torch.randn([2, 3, 4]);
      expect(values(F.dropout2d(x, 0.5, false))).toEqual(values(x));
      expect(values(F.dropout1d(x, { p: 1 })).every((v) => v === 0)).toBe(true);
    });
  });

  it("alphaDropout keeps a standard normal input's mean and variance; featureAlphaDropout drops whole channels to one value", () => {
    torch.manualSeed(12);
    torch.tidy(() => {
      const p = 0.2;
      const out = values(F.alphaDropout(torch.randn([40000]), p, true));
      const mean = out.reduce((s, v) => s + v, 0) / out.length;
      const variance = out.reduce((s, v) => s + (v - mean) ** 2, 0) / out.length;
      expect(Math.abs(mean)).toBeLessThan(0.03);
      expect(Math.abs(variance - 1)).toBeLessThan(0.05);
      const alpha = 1.7580993408473766;
      const a = 1 / Math.sqrt((alpha * alpha * p + 1) * (1 - p));
      const x = torch.randn([30, 40, 3]);
      const chans = channels(F.featureAlphaDropout(x, p, true));
      const inputs = channels(x);
      const dropped = chans.filter((c) => c.every((v) => Math.abs(v - alpha * a * (p - 1)) < 1e-5)).length;
      const kept = chans.filter((c, i) => c.every((v, j) => Math.abs(v - (a * inputs[i]![j]! + alpha * a * p)) < 1e-5)).length;
      expect(dropped + kept).toBe(chans.length);
      expect(Math.abs(dropped / chans.length - p)).toBeLessThan(0.06);
      expect(values(F.alphaDropout(x))).toEqual(values(x)); // training defaults to false, as in PyTorch
      expect(() => F.featureAlphaDropout(torch.ones([4]), 0.5, true)).toThrow(torch.ShapeError);
    });
  });

  it("the same seed draws the same mask; inplace rebinds the input", () => {
    torch.tidy(() => {
      const x = torch.randn([4, 6, 5]);
      torch.manualSeed(5);
      const first = values(F.dropout2d(x));
      torch.manualSeed(5);
      expect(values(F.dropout2d(x))).toEqual(first);
      const y = x.clone();
      expect(F.dropout2d(y, 0.5, true, true)).toBe(y);
      const z = torch.tensor([-1, 0.5, 2]);
      expect(F.threshold(z, 1, -5, true)).toBe(z);
      expect(z.tolist()).toEqual([-5, -5, 2]);
    });
  });

  it("rrelu: slopes drawn in [lower, upper] per negative element while training (its gradient), leakyRelu with their mean in eval", () => {
    torch.manualSeed(13);
    torch.tidy(() => {
      const x = torch.cat([torch.rand([500]).add(0.1), torch.rand([500]).add(0.1).neg()]).requiresGrad_();
      const out = F.rrelu(x, 0.1, 0.4, true);
      out.sum().backward();
      const xs = values(x);
      const ys = values(out);
      const slopes = ys.map((y, i) => y / xs[i]!);
      expect(slopes.slice(0, 500).every((s) => s === 1)).toBe(true);
      const negative = slopes.slice(500);
      expect(negative.every((s) => s >= 0.1 - 1e-6 && s <= 0.4 + 1e-6)).toBe(true);
      expect(Math.abs(negative.reduce((s, v) => s + v, 0) / 500 - 0.25)).toBeLessThan(0.02);
      values(x.grad!).forEach((g, i) => expect(Math.abs(g - slopes[i]!)).toBeLessThan(1e-5));
      expect(values(F.rrelu(x.detach(), 0.1, 0.4))).toEqual(values(F.leakyRelu(x.detach(), 0.25)));
    });
  });

  it("gumbelSoftmax: rows on the simplex; hard gives the one-hot of the soft sample's argmax with its gradient; samples follow softmax(logits)", () => {
    torch.tidy(() => {
      const logits = torch.randn([5, 4]).requiresGrad_();
      torch.manualSeed(21);
      const soft = F.gumbelSoftmax(logits, { tau: 0.5 });
      torch.manualSeed(21);
      const hard = F.gumbelSoftmax(logits, 0.5, true);
      const s = soft.tolist() as number[][];
      const h = hard.tolist() as number[][];
      s.forEach((row, i) => {
        expect(Math.abs(row.reduce((a, b) => a + b, 0) - 1)).toBeLessThan(1e-5);
        expect(row.every((v) => v >= 0 && v <= 1)).toBe(true);
        const best = row.indexOf(Math.max(...row));
        h[i]!.forEach((v, j) => expect(Math.abs(v - (j === best ? 1 : 0))).toBeLessThan(1e-6));
      });
      const w = torch.randn([5, 4]);
      const [gSoft] = torch.autograd.grad([soft.mul(w).sum()], [logits]);
      const [gHard] = torch.autograd.grad([hard.mul(w).sum()], [logits]);
      values(gHard!).forEach((g, i) => expect(Math.abs(g - values(gSoft!)[i]!)).toBeLessThan(1e-6));
      const probs = [0.5, 0.3, 0.2];
      const many = F.gumbelSoftmax(torch.tensor(probs).log().expand([4000, 3]), { hard: true, dim: 1 });
      const freq = values(many.mean(0));
      freq.forEach((f, j) => expect(Math.abs(f - probs[j]!)).toBeLessThan(0.03));
      expect(() => F.gumbelSoftmax(torch.tensor([1, 2]))).toThrow(torch.DTypeError);
      expect(F.gumbelSoftmax(torch.randn([3, 0])).shape).toEqual([3, 0]);
    });
  });

  it("the modules: dropouts and RReLU follow train/eval; constructors take PyTorch's positional arguments or names and reject bad ones", () => {
    const drop = new nn.Dropout2d(0.4);
    const alpha = new nn.AlphaDropout({ p: 0.2 });
    const rrelu = new nn.RReLU(0.1, 0.2);
    const prelu = new nn.PReLU({ numParameters: 2, init: 0.1 });
    try {
      torch.manualSeed(3);
      torch.tidy(() => {
        const x = torch.ones([20, 10, 2, 2]);
        const chans = channels(drop.forward(x));
        expect(chans.some((c) => c.every((v) => v === 0))).toBe(true);
        expect(chans.every((c) => c.every((v) => v === 0) || c.every((v) => Math.abs(v - 1 / 0.6) < 1e-6))).toBe(true);
        drop.eval();
        alpha.eval();
        rrelu.eval();
        expect(values(drop.forward(x))).toEqual(values(x));
        expect(values(alpha.forward(x))).toEqual(values(x));
        expect(values(rrelu.forward(torch.tensor([-2, 3], { dtype: "float32" })))).toEqual([-2 * 0.15, 3].map(Math.fround));
        expect(values(prelu.weight)).toEqual([0.1, 0.1].map(Math.fround));
        expect(prelu.weight.dtype).toBe("float32");
      });
      expect(alpha.p).toBe(0.2);
      expect(String(drop)).toContain("p=0.4");
    } finally {
      [drop, alpha, rrelu, prelu].forEach((m) => m.dispose());
    }
    expect(() => new nn.Dropout1d(1.5)).toThrow(/between 0 and 1/);
    expect(() => new nn.PReLU({ numParameter: 2 } as never)).toThrow(/unknown option "numParameter"/);
    expect(() => new nn.Threshold(0.5)).toThrow(/threshold and value are required/);
    const norm = new nn.InstanceNorm1d(3, { affine: true });
    try {
      torch.tidy(() => {
        expect(() => norm.forward(torch.randn([2, 4, 5]))).toThrow(torch.ShapeError);
        expect(() => norm.forward(torch.randn([2, 3, 4, 5]))).toThrow(/expected a 2-d or 3-d input/);
      });
      expect(Object.keys(norm.stateDict())).toEqual(["weight", "bias"]);
    } finally {
      norm.dispose();
    }
  });
});
