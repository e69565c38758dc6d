// torch.nn modules against PyTorch (test/fixtures/nn/modules.json, written by
// scripts/fixtures/nn_modules.py): each layer with PyTorch's weights (through loadStateDict) gives
// PyTorch's output and gradients, and a small character model trained 20 SGD steps from PyTorch's
// initial weights follows PyTorch's loss curve. Then the Module API itself: registration order and
// names, stateDict/loadStateDict, train/eval, hooks, zeroGrad, init, printing, errors, memory.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as torch from "../src/index.js";
import { fixturesDir, makeInput, type TensorSpec } from "./helpers/fixtures.js";
import { CharModel, expectClose, expectNoLeaks, pytorchName, stateOf } from "./helpers/nn.js";

const nn = torch.nn;
type Spec = { module: string; args?: unknown[]; options?: Record<string, unknown>; children?: Spec[]; eval?: boolean; call?: { attnMask?: "causal"; needWeights?: false; weights?: true } };
interface LayerCase {
  name: string;
  spec: Spec;
  state: Record<string, TensorSpec>;
  inputs: TensorSpec[];
  target?: TensorSpec;
  output: TensorSpec;
  cotangent: TensorSpec;
  paramGrads: Record<string, TensorSpec>;
  inputGrads: (TensorSpec | null)[];
  /** The state after the forward (BatchNorm's running statistics). */
  stateAfter?: Record<string, TensorSpec>;
}
const doc = JSON.parse(readFileSync(join(fixturesDir, "nn", "modules.json"), "utf8")) as {
  layers: LayerCase[];
  training: { vocab: number; dim: number; hidden: number; lr: number; state: Record<string, TensorSpec>; batches: TensorSpec[]; losses: number[]; final: Record<string, TensorSpec> };
};

function build(spec: Spec): torch.nn.Module {
  const ctor = (nn as unknown as Record<string, new (...a: unknown[]) => torch.nn.Module>)[spec.module]!;
  const m = spec.children ? new ctor(...spec.children.map(build)) : new ctor(...(spec.args ?? []), ...(spec.options ? [spec.options] : []));
  if (spec.eval) m.eval();
  return m;
}

/** Self-attention with a causal mask, or cross-attention returning output and averaged weights flattened together. */
function callAttention(m: torch.nn.MultiheadAttention, how: NonNullable<Spec["call"]>, inputs: torch.Tensor[]): torch.Tensor {
  const [q, kv] = inputs as [torch.Tensor, torch.Tensor | undefined];
  if (how.weights) {
    const [out, w] = m.forward(q, kv!, kv!);
    return torch.cat([out.flatten(), w!.flatten()]);
  }
  const l = q.shape[1]!;
  const mask = torch.ones([l, l], { dtype: "bool" }).triu(1);
  return m.forward(q, q, q, { attnMask: mask, needWeights: false })[0];
}

expectNoLeaks();

describe("layers with PyTorch's weights give PyTorch's outputs and gradients", () => {
  for (const c of doc.layers) {
    it(`${c.spec.module}: ${c.name}`, async () => {
      const m = build(c.spec);
      try {
        expect(Object.keys(m.stateDict())).toEqual(Object.keys(c.state));
        await torch.tidy(async () => {
          m.loadStateDict(stateOf(c.state));
          const inputs = c.inputs.map((s) => {
            const t = makeInput(torch, s, "cpu");
            return t.dtype === "float32" ? t.requiresGrad_() : t;
          });
          const out = c.spec.call ? callAttention(m as torch.nn.MultiheadAttention, c.spec.call, inputs) : ((c.target ? m.call(inputs[0], makeInput(torch, c.target, "cpu")) : m.call(...inputs)) as torch.Tensor);
          await expectClose(out, c.output, "output");
          out.backward(makeInput(torch, c.cotangent, "cpu"));
          for (const [name, p] of m.namedParameters()) {
            const want = c.paramGrads[pytorchName(name)];
            if (want === undefined) expect(p.grad, `${name} has no gradient in PyTorch`).toBeNull();
            else await expectClose(p.grad, want, `gradient of ${name}`);
          }
          for (let i = 0; i < inputs.length; i++) {
            const want = c.inputGrads[i];
            if (want) await expectClose(inputs[i]!.grad, want, `gradient of input ${i}`);
          }
          for (const [k, want] of Object.entries(c.stateAfter ?? {})) await expectClose(m.stateDict()[k], want, `${k} after the forward`);
          m.zeroGrad();
        });
      } finally {
        m.dispose();
      }
    });
  }
});

describe("training", () => {
  it("a character model trained 20 SGD steps from PyTorch's weights follows PyTorch's loss curve (1e-4)", async () => {
    const t = doc.training;
    const model = new CharModel(t.vocab, t.dim, t.hidden);
    try {
      torch.tidy(() => model.loadStateDict(stateOf(t.state)));
      const losses: number[] = [];
      for (const b of t.batches) {
        torch.tidy(() => {
          const batch = makeInput(torch, b, "cpu");
          const [n, l] = batch.shape as [number, number];
          const x = batch.narrow(1, 0, l - 1);
          const y = batch.narrow(1, 1, l - 1);
          const loss = nn.functional.crossEntropy((model.forward(x)).reshape([-1, t.vocab]), y.reshape([n * (l - 1)]));
          model.zeroGrad();
          loss.backward();
          torch.noGrad(() => {
            for (const p of model.parameters()) p.sub_(p.grad!.mul(t.lr));
          });
          losses.push(loss.item() as number);
        });
      }
      losses.forEach((l, i) => expect(Math.abs(l - t.losses[i]!), `step ${i}: ${l} vs PyTorch ${t.losses[i]}`).toBeLessThan(1e-4));
      expect(losses.at(-1)!).toBeLessThan(losses[0]!);
      const state = model.stateDict();
      for (const [k, s] of Object.entries(t.final)) await expectClose(state[k], s, `final ${k}`, 1e-4);
      model.zeroGrad();
    } finally {
      model.dispose();
    }
  });
});

describe("nn.utils", () => {
  it("clipGradNorm_ scales gradients to the norm and returns the norm before (float64 reference)", () => {
    torch.tidy(() => {
      const a = torch.tensor(Float64Array.from([3, 0]), { requiresGrad: true });
      const b = torch.tensor(Float64Array.from([0, 4, 0]), { requiresGrad: true });
      a.grad = torch.tensor(Float64Array.from([3, 0]));
      b.grad = torch.tensor(Float64Array.from([0, 4, 0]));
      const total = nn.utils.clipGradNorm_([a, b], 1);
      expect(total.item()).toBeCloseTo(5, 12);
      const scale = 1 / (5 + 1e-6);
      (a.grad!.tolist() as number[]).forEach((v, i) => expect(v).toBeCloseTo([3, 0][i]! * scale, 12));
      (b.grad!.tolist() as number[]).forEach((v, i) => expect(v).toBeCloseTo([0, 4, 0][i]! * scale, 12));
      expect(nn.utils.clipGradNorm_([a, b], 10, Infinity).item()).toBeCloseTo(4 * scale, 12); // no clipping below maxNorm
      nn.utils.clipGradValue_([a, b], 0.5);
      expect(b.grad!.tolist()).toEqual([0, 0.5, 0]);
    });
  });

  it("parametersToVector and vectorToParameters are inverses", () => {
    const m = new nn.Linear(3, 2);
    try {
      torch.tidy(() => {
        const v = nn.utils.parametersToVector(m.parameters());
        expect(v.shape).toEqual([8]);
        nn.utils.vectorToParameters(torch.arange(8, { dtype: "float32" }), m.parameters());
        expect(m.weight.tolist()).toEqual([[0, 1, 2], [3, 4, 5]]);
        expect(m.bias!.tolist()).toEqual([6, 7]);
        expect(() => nn.utils.vectorToParameters(torch.zeros([7]), m.parameters())).toThrow(/expected a vector of 8 elements, got \[7\]/);
      });
    } finally {
      m.dispose();
    }
  });
});

class Block extends nn.Module {
  attn: torch.nn.Linear;
  norm: torch.nn.LayerNorm;
  constructor() {
    super();
    this.attn = new nn.Linear(4, 4);
    this.norm = new nn.LayerNorm(4);
    this.registerBuffer("steps", torch.zeros([1]));
    this.registerBuffer("cache", torch.zeros([2]), { persistent: false });
  }
  override forward(x: torch.Tensor): torch.Tensor {
    return this.norm.forward(this.attn.forward(x));
  }
}

class Net extends nn.Module {
  layers = new nn.ModuleList([new Block(), new Block()]);
  head = new nn.Linear(4, 2, false);
}

describe("Module", () => {
  it("names parameters and buffers as PyTorch does, in registration order", () => {
    const net = new Net();
    try {
      expect([...net.namedParameters()].map(([k]) => k)).toEqual([
        "layers.0.attn.weight", "layers.0.attn.bias", "layers.0.norm.weight", "layers.0.norm.bias",
        "layers.1.attn.weight", "layers.1.attn.bias", "layers.1.norm.weight", "layers.1.norm.bias", "head.weight",
      ]);
      expect([...net.namedBuffers()].map(([k]) => k)).toEqual(["layers.0.steps", "layers.0.cache", "layers.1.steps", "layers.1.cache"]);
      // PyTorch's order (checked with torch 2.13): a module's own tensors, then its children's
      expect(Object.keys(net.stateDict())).toEqual([
        "layers.0.steps", "layers.0.attn.weight", "layers.0.attn.bias", "layers.0.norm.weight", "layers.0.norm.bias",
        "layers.1.steps", "layers.1.attn.weight", "layers.1.attn.bias", "layers.1.norm.weight", "layers.1.norm.bias", "head.weight",
      ]);
      expect([...net.namedModules()].map(([k]) => k)).toEqual(["", "layers", "layers.0", "layers.0.attn", "layers.0.norm", "layers.1", "layers.1.attn", "layers.1.norm", "head"]);
      expect(net.head.weight instanceof nn.Parameter).toBe(true);
      expect(net.head.weight.requiresGrad).toBe(true);
      const plain = torch.zeros([1]);
      expect(plain instanceof nn.Parameter).toBe(false);
      plain.dispose();
    } finally {
      net.dispose();
    }
  });

  it("loadStateDict copies in place, reports missing and unexpected keys, and checks shapes", () => {
    const a = new nn.Linear(3, 2);
    const b = new nn.Linear(3, 2);
    const w = b.weight;
    try {
      torch.tidy(() => {
        b.loadStateDict(a.stateDict());
        expect(b.weight).toBe(w); // the same tensor object, new values
        expect(b.weight.tolist()).toEqual(a.weight.tolist());
        expect(() => b.loadStateDict({ weight: a.weight })).toThrow(/Linear is missing "bias"; pass \{ strict: false \}/);
        expect(b.loadStateDict({ weight: a.weight, extra: a.bias! }, { strict: false })).toEqual({ missingKeys: ["bias"], unexpectedKeys: ["extra"] });
        expect(() => b.loadStateDict({ weight: torch.zeros([2, 4]), bias: torch.zeros([2]) })).toThrow(/size mismatch for "weight": copying a param with shape \[2, 4\], the shape in the current model is \[2, 3\]/);
      });
    } finally {
      a.dispose();
      b.dispose();
    }
  });

  it("train/eval reach every module; dropout follows them", () => {
    const m = new nn.Sequential(new nn.Linear(3, 3), new nn.Dropout(0.5));
    try {
      m.eval();
      expect([...m.modules()].every((x) => !x.training)).toBe(true);
      torch.tidy(() => {
        const x = torch.ones([2, 3]);
        expect((m.call(x) as torch.Tensor).tolist()).toEqual((m[0]!.call(x) as torch.Tensor).tolist());
      });
      m.train();
      expect([...m.modules()].every((x) => x.training)).toBe(true);
    } finally {
      m.dispose();
    }
  });

  it("call runs forward hooks; forward does not", () => {
    const m = new nn.Linear(2, 2);
    try {
      torch.tidy(() => {
        const seen: string[] = [];
        const pre = m.registerForwardPreHook((_m, args) => {
          seen.push("pre");
          return [(args[0] as torch.Tensor).mul(0)];
        });
        m.registerForwardHook((_m, _args, out) => {
          seen.push("post");
          return (out as torch.Tensor).add(1);
        });
        const out = m.call(torch.ones([1, 2])) as torch.Tensor;
        expect(seen).toEqual(["pre", "post"]);
        const bias = m.bias!.tolist() as number[];
        (out.tolist() as number[][])[0]!.forEach((v, i) => expect(v).toBeCloseTo(bias[i]! + 1, 6));
        pre.remove();
        m.forward(torch.ones([1, 2]));
        expect(seen).toEqual(["pre", "post"]);
      });
    } finally {
      m.dispose();
    }
  });

  it("to(dtype) converts parameters, buffers and gradients in place, keeping their identity", () => {
    const m = new nn.Sequential(new nn.Linear(3, 2), new nn.BatchNorm1d(2));
    try {
      const lin = m[0] as torch.nn.Linear;
      const weight = lin.weight;
      const w32 = weight.tolist() as number[][];
      const b32 = lin.bias!.tolist() as number[];
      torch.tidy(() => (m.call(torch.ones([4, 3])) as torch.Tensor).sum().backward());
      const bn = m[1] as InstanceType<typeof torch.nn.BatchNorm1d>;
      expect(bn.runningMean!.gradFn, "running statistics are outside autograd, as in PyTorch").toBeNull();
      expect(bn.runningMean!.requiresGrad).toBe(false);
      const bytesBefore = torch.memory().numBytes;
      m.to("float64");
      expect(lin.weight).toBe(weight);
      expect(weight.dtype).toBe("float64");
      expect(weight.requiresGrad).toBe(true);
      expect(weight.grad!.dtype).toBe("float64");
      expect(weight.tolist()).toEqual(w32);
      expect(bn.runningMean!.dtype).toBe("float64");
      expect(bn.numBatchesTracked!.dtype).toBe("int64");
      // every float32 tensor (weight, bias, their grads, BatchNorm's weight, bias, stats and grads) doubled
      expect(torch.memory().numBytes - bytesBefore).toBe(4 * (6 + 2 + 6 + 2 + 6 * 2));
      m.eval();
      const x = [0.5, -1.25, 2];
      const y = torch.tidy(() => (lin.call(torch.tensor([x], { dtype: "float64" })) as torch.Tensor).tolist()) as number[][];
      const want = w32.map((row, i) => row.reduce((acc, w, j) => acc + w * x[j]!, b32[i]!));
      for (const [i, v] of want.entries()) expect(Math.abs(y[0]![i]! - v)).toBeLessThan(1e-12);
      expect(() => m.to("int32")).toThrow(/Module.to: dtype must be a floating point dtype/);
      expect(() => m.to({ dtype: "float32", copy: true } as never)).toThrow(/unknown option "copy"/);
      // PyTorch's shortcuts: half(), bfloat16(), float(), double(); integer buffers keep their dtype
      for (const [convert, dtype] of [[() => m.half(), "float16"], [() => m.bfloat16(), "bfloat16"], [() => m.float(), "float32"], [() => m.double(), "float64"]] as const) {
        expect(convert()).toBe(m);
        expect([lin.weight, weight.dtype, bn.runningVar!.dtype, bn.numBatchesTracked!.dtype]).toEqual([weight, dtype, dtype, "int64"]);
      }
    } finally {
      m.dispose();
    }
  });

  it("BatchNorm with momentum null keeps a cumulative average of the batch statistics (float64 reference); eps null is an error", () => {
    const batches = [[[1], [2], [6]], [[-3], [0], [0.5], [4.5]]];
    // the mean and the unbiased variance of each batch, averaged (factor 1/1, then 1/2)
    const mean = (b: number[][]): number => b.reduce((a, [v]) => a + v!, 0) / b.length;
    const unbiased = (b: number[][]): number => b.reduce((a, [v]) => a + (v! - mean(b)) ** 2, 0) / (b.length - 1);
    const want = [(mean(batches[0]!) + mean(batches[1]!)) / 2, (unbiased(batches[0]!) + unbiased(batches[1]!)) / 2];
    for (const bn of [new nn.BatchNorm1d(1, { momentum: null, dtype: "float64" }), new nn.BatchNorm1d(1, 1e-5, null, { dtype: "float64" })]) {
      try {
        for (const b of batches) torch.tidy(() => void bn.call(torch.tensor(b, { dtype: "float64" })));
        const got = [bn.runningMean!.item() as number, bn.runningVar!.item() as number];
        got.forEach((v, i) => expect(Math.abs(v - want[i]!)).toBeLessThan(1e-12));
        expect(bn.numBatchesTracked!.item()).toBe(2);
      } finally {
        bn.dispose();
      }
    }
    expect(() => new nn.BatchNorm1d(1, null)).toThrow(torch.ArgumentError);
  });

  it("zeroGrad frees gradients or zeroes them; requiresGrad_ freezes", () => {
    const m = new nn.Linear(2, 1);
    try {
      torch.tidy(() => {
        (m.call(torch.ones([3, 2])) as torch.Tensor).sum().backward();
        const g = m.weight.grad!;
        m.zeroGrad({ setToNone: false });
        expect(m.weight.grad).toBe(g);
        expect(g.tolist()).toEqual([[0, 0]]);
        m.zeroGrad();
        expect(m.weight.grad).toBeNull();
        m.requiresGrad_(false);
        expect((m.call(torch.ones([1, 2])) as torch.Tensor).requiresGrad).toBe(false);
        expect(() => m.zeroGrad({ set_to_none: true } as never)).toThrow(/unknown option "set_to_none"/);
      });
    } finally {
      m.dispose();
    }
  });

  it("initialises as PyTorch: Linear in ±1/√in, Embedding N(0, 1) with a zero padding row, norms 1 and 0", () => {
    const lin = new nn.Linear(400, 50);
    const emb = new nn.Embedding(1000, 20, { paddingIdx: 3 });
    const ln = new nn.LayerNorm(7);
    try {
      torch.tidy(() => {
        const w = Array.from(lin.weight.dataSync() as Float32Array);
        const bound = 1 / Math.sqrt(400);
        expect(Math.max(...w.map(Math.abs))).toBeLessThanOrEqual(bound);
        expect(Math.max(...w.map(Math.abs))).toBeGreaterThan(0.95 * bound);
        const e = Array.from(emb.weight.dataSync() as Float32Array);
        const mean = e.reduce((a, b) => a + b, 0) / e.length;
        const std = Math.sqrt(e.reduce((a, b) => a + (b - mean) ** 2, 0) / e.length);
        expect(Math.abs(mean)).toBeLessThan(0.05);
        expect(Math.abs(std - 1)).toBeLessThan(0.05);
        expect(emb.weight.index(3).tolist()).toEqual(new Array(20).fill(0));
        expect(ln.weight!.tolist()).toEqual(new Array(7).fill(1));
        expect(ln.bias!.tolist()).toEqual(new Array(7).fill(0));
        const x = torch.empty([300, 200]);
        nn.init.xavierUniform_(x);
        const xs = Array.from(x.dataSync() as Float32Array);
        expect(Math.max(...xs.map(Math.abs))).toBeLessThanOrEqual(Math.sqrt(6 / 500));
      });
    } finally {
      lin.dispose();
      emb.dispose();
      ln.dispose();
    }
  });

  it("TransformerEncoder copies its layer: PyTorch's keys, and the same as applying the layer twice", () => {
    const layer = new nn.TransformerEncoderLayer(8, 2, { dimFeedforward: 16, dropout: 0, batchFirst: true });
    const encoder = new nn.TransformerEncoder(layer, 2);
    try {
      expect(Object.keys(encoder.stateDict()).slice(0, 4)).toEqual(["layers.0.self_attn.in_proj_weight", "layers.0.self_attn.in_proj_bias", "layers.0.self_attn.out_proj.weight", "layers.0.self_attn.out_proj.bias"]);
      expect(Object.keys(encoder.stateDict())).toHaveLength(2 * Object.keys(layer.stateDict()).length);
      torch.tidy(() => {
        const x = torch.randn([2, 5, 8]);
        const twice = layer.forward(layer.forward(x));
        const got = encoder.forward(x);
        const a = got.dataSync() as Float32Array;
        const b = twice.dataSync() as Float32Array;
        a.forEach((v, i) => expect(Math.abs(v - b[i]!)).toBeLessThan(1e-5));
      });
    } finally {
      layer.dispose();
      encoder.dispose();
    }
  });

  it("prints like PyTorch, and rejects unknown options", () => {
    const m = new nn.Sequential(new nn.Linear(3, 2), new nn.ReLU(), new nn.LeakyReLU(0.2));
    try {
      expect(String(m)).toBe("Sequential(\n  (0): Linear(inFeatures=3, outFeatures=2, bias=true)\n  (1): ReLU()\n  (2): LeakyReLU(negativeSlope=0.2)\n)");
      expect(() => new nn.Linear(3, 2, { baias: false } as never)).toThrow(/Linear: got an unknown option "baias"; the options are bias, device, dtype/);
      expect(() => new nn.CrossEntropyLoss({ label_smoothing: 0.1 } as never)).toThrow(/unknown option "label_smoothing"/);
    } finally {
      m.dispose();
    }
  });
});
