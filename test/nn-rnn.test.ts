// Recurrent layers against PyTorch (test/fixtures/nn/rnn.json, written by scripts/fixtures/nn_rnn.py):
// RNN, LSTM, GRU and their cells with PyTorch's weights (through loadStateDict) give PyTorch's
// outputs, final states and gradients of parameters, inputs and initial states. Then what the fixture
// cannot show: stateDict names, default initialisation, dropout between layers, printing, errors,
// and that no tensor is left alive.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as torch from "../src/index.js";
import { fixturesDir, makeInput, type TensorSpec } from "./helpers/fixtures.js";
import { expectClose, expectNoLeaks, stateOf } from "./helpers/nn.js";

const nn = torch.nn;
type Spec = { module: "RNN" | "LSTM" | "GRU" | "RNNCell" | "LSTMCell" | "GRUCell"; args: number[]; options?: Record<string, unknown> };
interface RnnCase {
  name: string;
  spec: Spec;
  state: Record<string, TensorSpec>;
  /** The input, then h0 (and c0) when given. */
  inputs: TensorSpec[];
  hx: "none" | "tensor" | "pair";
  /** output, h_n (, c_n) for the layers; h' (, c') for the cells. */
  outputs: TensorSpec[];
  cotangents: TensorSpec[];
  paramGrads: Record<string, TensorSpec>;
  inputGrads: TensorSpec[];
}
const doc = JSON.parse(readFileSync(join(fixturesDir, "nn", "rnn.json"), "utf8")) as { cases: RnnCase[]; reprs: Record<string, string> };

function build(spec: Spec): torch.nn.Module {
  const ctor = (nn as unknown as Record<string, new (...a: unknown[]) => torch.nn.Module>)[spec.module]!;
  return new ctor(...spec.args, ...(spec.options ? [spec.options] : []));
}

/** The tensors of a layer's or cell's result, flattened in PyTorch's order. */
function flat(v: unknown): torch.Tensor[] {
  return v instanceof torch.Tensor ? [v] : (v as unknown[]).flatMap(flat);
}

expectNoLeaks();

describe("recurrent layers with PyTorch's weights give PyTorch's outputs, states and gradients", () => {
  for (const c of doc.cases) {
    it(`${c.spec.module}: ${c.name}`, async () => {
      const m = build(c.spec);
      try {
        expect(Object.keys(m.stateDict())).toEqual(Object.keys(c.state));
        await torch.tidy(async () => {
          m.loadStateDict(stateOf(c.state));
          const [x, ...states] = c.inputs.map((s) => makeInput(torch, s, "cpu").requiresGrad_());
          const hx = c.hx === "none" ? undefined : c.hx === "pair" ? states : states[0];
          const outs = flat(hx === undefined ? m.call(x) : m.call(x, hx));
          expect(outs.length).toBe(c.outputs.length);
          for (let i = 0; i < outs.length; i++) await expectClose(outs[i], c.outputs[i]!, `output ${i}`);
          const loss = outs.map((o, i) => o.mul(makeInput(torch, c.cotangents[i]!, "cpu")).sum()).reduce((a, b) => a.add(b));
          loss.backward();
          for (const [name, p] of m.namedParameters()) {
            const want = c.paramGrads[name];
            if (want === undefined) expect(p.grad, `${name} has no gradient in PyTorch`).toBeNull();
            else await expectClose(p.grad, want, `gradient of ${name}`);
          }
          const leaves = [x!, ...states];
          for (let i = 0; i < leaves.length; i++) await expectClose(leaves[i]!.grad, c.inputGrads[i]!, `gradient of input ${i}`);
          m.zeroGrad();
        });
      } finally {
        m.dispose();
      }
    });
  }
});

describe("recurrent layers: the rest of PyTorch's behaviour", () => {
  it("names parameters as PyTorch does, in PyTorch's order", () => {
    const m = new nn.LSTM(3, 4, { numLayers: 2, bidirectional: true, projSize: 2 });
    const g = new nn.GRU(3, 4, 2, { bias: false });
    const cell = new nn.LSTMCell(3, 4);
    try {
      const keys = (l: number, r: string, proj: boolean, bias = true) => [`weight_ih_l${l}${r}`, `weight_hh_l${l}${r}`, ...(bias ? [`bias_ih_l${l}${r}`, `bias_hh_l${l}${r}`] : []), ...(proj ? [`weight_hr_l${l}${r}`] : [])];
      expect(Object.keys(m.stateDict())).toEqual([...keys(0, "", true), ...keys(0, "_reverse", true), ...keys(1, "", true), ...keys(1, "_reverse", true)]);
      expect(m.stateDict().weight_ih_l1!.shape).toEqual([16, 4]); // 2 directions × projSize 2
      expect(m.stateDict().weight_hh_l0!.shape).toEqual([16, 2]);
      expect(m.stateDict().weight_hr_l0_reverse!.shape).toEqual([2, 4]);
      expect(m.allWeights.map((ws) => ws.length)).toEqual([5, 5, 5, 5]);
      expect(m.allWeights[1]![0]).toBe(m.stateDict().weight_ih_l0_reverse);
      expect(Object.keys(g.stateDict())).toEqual([...keys(0, "", false, false), ...keys(1, "", false, false)]);
      expect(g.numLayers).toBe(2);
      expect(Object.keys(cell.stateDict())).toEqual(["weight_ih", "weight_hh", "bias_ih", "bias_hh"]);
      expect(cell.stateDict().weight_ih!.shape).toEqual([16, 3]);
    } finally {
      m.dispose();
      g.dispose();
      cell.dispose();
    }
  });

  it("starts every parameter uniform in ±1/√hiddenSize", async () => {
    const layers = [new nn.LSTM(5, 16, { numLayers: 2 }), new nn.GRU(5, 16, { bidirectional: true }), new nn.RNN(5, 16), new nn.GRUCell(5, 16), new nn.LSTMCell(5, 16, { dtype: "float64" })];
    try {
      for (const m of layers) {
        for (const [name, p] of m.namedParameters()) {
          const v = Array.from(await p.data() as Float32Array);
          const max = Math.max(...v.map(Math.abs));
          expect(max, `${m.constructor.name}.${name}`).toBeLessThanOrEqual(0.25);
          expect(max, `${m.constructor.name}.${name} spreads over the range`).toBeGreaterThan(0.2);
          expect(Math.abs(v.reduce((a, b) => a + b, 0) / v.length), `${m.constructor.name}.${name} mean`).toBeLessThan(0.06);
        }
      }
      expect(layers[4]!.stateDict().weight_ih!.dtype).toBe("float64");
    } finally {
      for (const m of layers) m.dispose();
    }
  });

  it("shapes: unbatched input, batchFirst, projSize, and third-argument numLayers", () => {
    const m = new nn.LSTM(3, 5, 2, { batchFirst: true, projSize: 2, bidirectional: true });
    const r = new nn.RNN(3, 5, { numLayers: 3 });
    try {
      torch.tidy(() => {
        const [y, [h, c]] = m.forward(torch.randn([4, 7, 3]));
        expect([y.shape, h.shape, c.shape]).toEqual([[4, 7, 4], [4, 4, 2], [4, 4, 5]]);
        const [y1, [h1, c1]] = m.forward(torch.randn([7, 3]));
        expect([y1.shape, h1.shape, c1.shape]).toEqual([[7, 4], [4, 2], [4, 5]]);
        const [y2, h2] = r.forward(torch.randn([6, 2, 3]), torch.zeros([3, 2, 5]));
        expect([y2.shape, h2.shape]).toEqual([[6, 2, 5], [3, 2, 5]]);
        // the last step's output is the last layer's final state
        expect(y2.narrow(0, 5, 1).sub(h2.narrow(0, 2, 1)).abs().max().item()).toBe(0);
      });
    } finally {
      m.dispose();
      r.dispose();
    }
  });

  it("applies dropout between layers in training mode only", async () => {
    torch.manualSeed(0);
    const m = new nn.GRU(3, 4, { numLayers: 2, dropout: 1 });
    const top = new nn.GRU(4, 4);
    const plain = new nn.GRU(3, 4, { numLayers: 2 });
    try {
      await torch.tidy(async () => {
        const sd = m.stateDict();
        top.loadStateDict({ weight_ih_l0: sd.weight_ih_l1!, weight_hh_l0: sd.weight_hh_l1!, bias_ih_l0: sd.bias_ih_l1!, bias_hh_l0: sd.bias_hh_l1! });
        plain.loadStateDict(sd);
        const x = torch.randn([5, 2, 3]);
        // p = 1 zeroes the first layer's output: the second layer runs on zeros
        const [yTrain] = m.forward(x);
        const [yTop] = top.forward(torch.zeros([5, 2, 4]));
        expect(await yTrain.sub(yTop).abs().max().item()).toBeLessThan(1e-6);
        m.eval();
        const [yEval] = m.forward(x);
        const [yPlain] = plain.forward(x);
        expect(await yEval.sub(yPlain).abs().max().item()).toBe(0);
        expect(await yEval.sub(yTop).abs().max().item()).toBeGreaterThan(1e-3);
      });
    } finally {
      m.dispose();
      top.dispose();
      plain.dispose();
    }
  });

  it("runs under torch.compile with the same numbers as eager", async () => {
    const m = new nn.LSTM(4, 6, { numLayers: 2, bidirectional: true });
    try {
      await torch.tidy(async () => {
        const x = torch.randn([5, 3, 4]);
        const [y, [h, c]] = torch.noGrad(() => m.forward(x));
        const compiled = torch.compile(m);
        const [yc, [hc, cc]] = torch.noGrad(() => compiled.forward(x));
        for (const [a, b] of [[y, yc], [h, hc], [c, cc]] as const) expect(await a.sub(b).abs().max().item()).toBeLessThan(1e-6);
      });
    } finally {
      m.dispose();
    }
  });

  it("prints as PyTorch does, with camelCase names", () => {
    const layers = [
      new nn.LSTM(4, 6, { numLayers: 2, batchFirst: true, bidirectional: true, projSize: 3, dropout: 0.5 }),
      new nn.RNN(4, 6, { nonlinearity: "relu", bias: false }),
      new nn.GRUCell(4, 6, false),
      new nn.GRU(4, 6),
    ];
    try {
      // PyTorch: LSTM(4, 6, proj_size=3, num_layers=2, batch_first=True, dropout=0.5, bidirectional=True)
      expect(doc.reprs.LSTM).toBe("LSTM(4, 6, proj_size=3, num_layers=2, batch_first=True, dropout=0.5, bidirectional=True)");
      expect(layers.map(String)).toEqual([
        "LSTM(4, 6, projSize=3, numLayers=2, batchFirst=true, dropout=0.5, bidirectional=true)",
        "RNN(4, 6, bias=false, nonlinearity=relu)",
        "GRUCell(4, 6, bias=false)",
        "GRU(4, 6)",
      ]);
    } finally {
      for (const m of layers) m.dispose();
    }
  });

  it("rejects bad inputs and options with typed errors that say what to do", () => {
    const lstm = new nn.LSTM(3, 4, { numLayers: 2 });
    const gru = new nn.GRU(3, 4, { batchFirst: true });
    const cell = new nn.LSTMCell(3, 4);
    try {
      torch.tidy(() => {
        expect(() => lstm.forward(torch.zeros([5, 2, 7]))).toThrow(torch.ShapeError);
        expect(() => lstm.forward(torch.zeros([5, 2, 7]))).toThrow(/LSTM: input \[5, 2, 7\] has 7 features in its last dim, but the layer was built with inputSize 3/);
        expect(() => lstm.forward(torch.zeros([5]))).toThrow(/LSTM: expected a 3-d input \[seq, batch, inputSize\] or a 2-d unbatched input \[seq, inputSize\], got \[5\]/);
        expect(() => lstm.forward(torch.zeros([5, 2, 3]), [torch.zeros([1, 2, 4]), torch.zeros([2, 2, 4])])).toThrow(/LSTM: expected h_0 of shape \[2, 2, 4\] \[numLayers·directions, batch, hiddenSize\], got \[1, 2, 4\]/);
        expect(() => lstm.forward(torch.zeros([5, 2, 3]), [torch.zeros([2, 2, 4]), torch.zeros([2, 4])])).toThrow(/expected c_0 of shape \[2, 2, 4\]/);
        expect(() => lstm.forward(torch.zeros([5, 3]), [torch.zeros([2, 1, 4]), torch.zeros([2, 1, 4])])).toThrow(/expected h_0 of shape \[2, 4\] \[numLayers·directions, hiddenSize\] for an unbatched input/);
        expect(() => lstm.forward(torch.zeros([5, 2, 3]), torch.zeros([2, 2, 4]) as never)).toThrow(/LSTM: hx must be a pair \[h_0, c_0\] of tensors, got a tensor \[2, 2, 4\]/);
        expect(() => lstm.forward(torch.zeros([5, 2, 3], { dtype: "float64" }))).toThrow(torch.DTypeError);
        expect(() => gru.forward(torch.zeros([2, 0, 3]))).toThrow(/GRU: the input \[2, 0, 3\] has an empty sequence/);
        expect(() => gru.forward(torch.zeros([2, 5, 3]), torch.zeros([1, 5, 4]))).toThrow(/GRU: expected h_0 of shape \[1, 2, 4\]/);
        expect(() => cell.forward(torch.zeros([2, 3]), [torch.zeros([3, 4]), torch.zeros([2, 4])])).toThrow(/LSTMCell: expected h of shape \[2, 4\] \[batch, hiddenSize\], got \[3, 4\]/);
        expect(() => cell.forward(torch.zeros([2, 5]))).toThrow(/LSTMCell: input \[2, 5\] has 5 features in its last dim, but the cell was built with inputSize 3/);
        expect(() => cell.forward(torch.zeros([1, 2, 3]))).toThrow(torch.ShapeError);
      });
      expect(() => new nn.LSTM(3, 4, { numLayer: 2 } as never)).toThrow(torch.ArgumentError);
      expect(() => new nn.LSTM(3, 4, { numLayer: 2 } as never)).toThrow(/LSTM: got an unknown option "numLayer"; the options are numLayers, bias, batchFirst, dropout, bidirectional, device, dtype, projSize/);
      expect(() => new nn.GRU(3, 4, { projSize: 2 } as never)).toThrow(/GRU: got an unknown option "projSize"/);
      expect(() => new nn.RNN(3, 4, { nonlinearity: "gelu" as never })).toThrow(/RNN: unknown nonlinearity "gelu"; use "tanh" or "relu"/);
      expect(() => new nn.RNNCell(3, 4, { nonlinearity: "sigmoid" as never })).toThrow(/RNNCell: unknown nonlinearity/);
      expect(() => new nn.LSTM(3, 4, { projSize: 4 })).toThrow(/LSTM: projSize \(4\) must be smaller than hiddenSize \(4\)/);
      expect(() => new nn.GRU(3, 4, { dropout: 1.5 })).toThrow(/GRU: dropout must be a number in \[0, 1\]/);
      expect(() => new nn.GRU(3, 0)).toThrow(/GRU: hiddenSize must be an integer ≥ 1, got 0/);
      expect(() => new nn.RNN(3, 4, 0)).toThrow(/RNN: numLayers must be an integer ≥ 1, got 0/);
      expect(() => new nn.RNN(3, 4, 2, { numLayers: 3 })).toThrow(/RNN: numLayers is given twice/);
      expect(() => new nn.GRUCell(3, 4, { batchFirst: true } as never)).toThrow(/GRUCell: got an unknown option "batchFirst"; the options are bias, device, dtype/);
    } finally {
      lstm.dispose();
      gru.dispose();
      cell.dispose();
    }
  });

  it("trains: a few SGD steps of an LSTM lower the loss", () => {
    torch.manualSeed(0);
    const m = new nn.LSTM(2, 8, { batchFirst: true });
    const head = new nn.Linear(8, 1);
    try {
      const x = torch.randn([4, 6, 2]);
      const target = torch.tidy(() => x.sum(1).sum(1, { keepdim: true })); // [4, 1]
      const losses: number[] = [];
      try {
      for (let i = 0; i < 15; i++) {
        torch.tidy(() => {
          const [y, [h]] = m.forward(x);
          expect(y.shape).toEqual([4, 6, 8]);
          const loss = nn.functional.mseLoss(head.forward(h.squeeze(0)), target);
          m.zeroGrad();
          head.zeroGrad();
          loss.backward();
          torch.noGrad(() => {
            for (const p of [...m.parameters(), ...head.parameters()]) p.sub_(p.grad!.mul(0.1));
          });
          losses.push(loss.item() as number);
        });
      }
      } finally {
        x.dispose();
        target.dispose();
      }
      expect(losses[losses.length - 1]!).toBeLessThan(losses[0]! * 0.8);
    } finally {
      m.zeroGrad();
      head.zeroGrad();
      m.dispose();
      head.dispose();
    }
  });
});
