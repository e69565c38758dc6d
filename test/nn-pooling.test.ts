/**
 * @file The pooling, unpooling, fold and EmbeddingBag modules against PyTorch
 * (test/fixtures/nn/pooling.json, written by scripts/fixtures/nn_pooling.py): outputs, parameter
 * gradients and input gradients for PyTorch's weights; then what the fixture cannot show
 * (EmbeddingBag's maxNorm, option checking).
 */
import { describe, expect, it } from "vitest";
import * as torch from "../src/index.js";
import { moduleFixtureSuite, readModuleFixtures } from "./helpers/module_fixtures.js";
import { expectNoLeaks } from "./helpers/nn.js";

const nn = torch.nn;
const F = torch.nn.functional;

const values = (t: torch.Tensor): number[] => Array.from(t.dataSync() as ArrayLike<number>, Number);

expectNoLeaks();

moduleFixtureSuite("pooling, unpooling, fold and EmbeddingBag modules with PyTorch's weights give PyTorch's outputs and gradients", readModuleFixtures("pooling.json").layers);

describe("EmbeddingBag", () => {
  it("decreasing offsets are an ArgumentError in every mode (PyTorch's CPU kernel reads past a bag's end there)", () => {
    torch.tidy(() => {
      const weight = torch.ones([4, 2]);
      const ids = torch.tensor([0, 1, 2, 3], { dtype: "int64" });
      const offsets = torch.tensor([0, 3, 1], { dtype: "int64" });
      for (const mode of ["sum", "mean", "max"] as const) {
        expect(() => F.embeddingBag(ids, weight, { offsets, mode })).toThrow(torch.ArgumentError);
        expect(() => F.embeddingBag(ids, weight, { offsets, mode })).toThrow(/offsets/);
      }
    });
  });

  it("maxNorm renormalises the looked-up rows of weight in place, then reduces them", () => {
    const bag = new nn.EmbeddingBag(5, 3, { mode: "sum", maxNorm: 1 });
    try {
      torch.tidy(() => {
        const ids = torch.tensor([0, 2, 2, 4], { dtype: "int64" });
        const offsets = torch.tensor([0, 1], { dtype: "int64" });
        const before = values(bag.weight);
        const out = values(bag.call(ids, offsets) as torch.Tensor);
        const after = values(bag.weight);
        for (let r = 0; r < 5; r++) {
          const row = after.slice(3 * r, 3 * r + 3);
          const norm = Math.hypot(...row);
          if ([0, 2, 4].includes(r)) expect(norm).toBeLessThan(1 + 1e-5);
          else expect(row).toEqual(before.slice(3 * r, 3 * r + 3)); // rows not looked up stay
        }
        const plain = values(F.embeddingBag(ids, bag.weight, { offsets, mode: "sum" }));
        out.forEach((v, i) => expect(v).toBeCloseTo(plain[i]!, 5));
      });
    } finally {
      bag.dispose();
    }
  });

  it("forward takes (input, offsets, perSampleWeights) positionally and by name in a trailing options object", () => {
    const bag = new nn.EmbeddingBag(5, 3, { mode: "sum" });
    try {
      torch.tidy(() => {
        const ids = torch.tensor([0, 2, 2, 4], { dtype: "int64" });
        const offsets = torch.tensor([0, 1], { dtype: "int64" });
        const perSampleWeights = torch.tensor([0.5, -1, 2, 3]);
        const want = values(F.embeddingBag(ids, bag.weight, { offsets, mode: "sum", perSampleWeights }));
        for (const out of [
          bag.call(ids, offsets, perSampleWeights), bag.call(ids, offsets, { perSampleWeights }), bag.call(ids, { offsets, perSampleWeights }),
        ] as torch.Tensor[]) {
          expect(values(out)).toEqual(want);
        }
        const plain = values(F.embeddingBag(ids, bag.weight, { offsets, mode: "sum" }));
        expect(values(bag.call(ids, offsets, null) as torch.Tensor)).toEqual(plain);
        expect(values(bag.call(ids.view([2, 2]), null, null) as torch.Tensor)).toEqual(values(F.embeddingBag(ids.view([2, 2]), bag.weight, { mode: "sum" })));
        expect(() => bag.call(ids, offsets, { weights: perSampleWeights })).toThrow(torch.ArgumentError);
        expect(() => bag.call(ids, offsets, perSampleWeights, perSampleWeights)).toThrow(torch.ArgumentError);
      });
    } finally {
      bag.dispose();
    }
  });

  it("starts normal(0, 1) with the paddingIdx row zero, keeps PyTorch's key, checks its options", () => {
    const bag = new nn.EmbeddingBag(4, 2, { paddingIdx: -1 });
    try {
      expect(Object.keys(bag.stateDict())).toEqual(["weight"]);
      expect(values(bag.weight).slice(6)).toEqual([0, 0]);
      expect(() => new nn.EmbeddingBag(4, 2, { paddingIdx: 4 })).toThrow(torch.ArgumentError);
      expect(() => new nn.EmbeddingBag(4, 2, { padding: 1 } as never)).toThrow(torch.ArgumentError);
    } finally {
      bag.dispose();
    }
  });
});

describe("pooling modules", () => {
  it("check their options and print them", () => {
    expect(() => new nn.LPPool2d(2, 2, { padding: 1 } as never)).toThrow(torch.ArgumentError);
    expect(() => new nn.MaxUnpool2d(2, { dilation: 1 } as never)).toThrow(torch.ArgumentError);
    expect(() => new nn.Fold([4, 4], 2, { groups: 1 } as never)).toThrow(torch.ArgumentError);
    expect(new nn.LPPool2d(2, [2, 3], { stride: 1 }).extraRepr()).toBe("normType=2, kernelSize=[2, 3], stride=1");
    expect(new nn.Fold([4, 5], 2).extraRepr()).toBe("outputSize=[4, 5], kernelSize=2");
    expect(new nn.MaxUnpool3d(2).extraRepr()).toBe("kernelSize=2");
  });

  it("MaxUnpool2d undoes MaxPool2d's selection (returnIndices: true): the maxima at their places, zeros elsewhere", () => {
    torch.tidy(() => {
      const x = torch.tensor([[[[1, 5, 2, 0], [3, 4, 8, 6], [7, 0, 1, 2], [9, 3, 4, 5]]]], { dtype: "float32" });
      const [pooled, indices] = new nn.MaxPool2d(2, { returnIndices: true }).forward(x);
      const back = new nn.MaxUnpool2d(2).call(pooled, indices) as torch.Tensor;
      expect(values(back)).toEqual([0, 5, 0, 0, 0, 0, 8, 0, 0, 0, 0, 0, 9, 0, 0, 5]);
      const [maxima, where] = new nn.AdaptiveMaxPool2d(1, { returnIndices: true }).forward(x);
      expect([values(maxima), values(where)]).toEqual([[9], [12]]);
      expect(values(new nn.MaxPool2d(2).forward(x))).toEqual([5, 8, 9, 5]);
    });
  });
});
