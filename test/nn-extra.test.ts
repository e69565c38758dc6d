// The padding modules, Softmax2d, MultiLabelMarginLoss, TripletMarginWithDistanceLoss (and their F
// forms), ParameterList and ParameterDict against PyTorch (test/fixtures/nn/extra.json, written by
// scripts/fixtures/nn_extra.py): outputs and gradients, state-dict keys, printouts, errors, leaks.
import { describe, expect, it } from "vitest";
import * as torch from "../src/index.js";
import { makeInput, type TensorSpec } from "./helpers/fixtures.js";
import { moduleFixtureSuite, readModuleFixtures } from "./helpers/module_fixtures.js";
import { expectClose, expectNoLeaks } from "./helpers/nn.js";

const nn = torch.nn;
const F = torch.nn.functional;

interface FunctionalCase {
  name: string;
  fn: "multilabel_margin_loss" | "triplet_margin_with_distance_loss" | "fractional_max_pool2d" | "fractional_max_pool3d";
  inputs: TensorSpec[];
  grads: boolean[];
  kwargs: {
    distanceFunction?: "l1" | "cosine"; reduction?: "mean" | "sum" | "none"; margin?: number; swap?: boolean;
    kernelSize?: number | number[]; outputSize?: number | number[]; returnIndices?: true;
  };
  output: TensorSpec;
  indices?: TensorSpec;
  cotangent: TensorSpec;
  inputGrads: (TensorSpec | null)[];
}
const doc = readModuleFixtures<{
  functional: FunctionalCase[];
  containers: { stateKeys: string[]; parameterNames: string[]; dictKeys: string[]; repr: Record<string, string> };
}>("extra.json");

/** The distance functions of the fixtures, written with our ops. */
const distances = {
  l1: (a: torch.Tensor, b: torch.Tensor) => a.sub(b).abs().sum(-1),
  cosine: (a: torch.Tensor, b: torch.Tensor) => F.cosineSimilarity(a, b, -1).neg().add(1),
};

expectNoLeaks();

moduleFixtureSuite("padding modules, Softmax2d and the losses with PyTorch's inputs give PyTorch's outputs and gradients", doc.layers);

describe("F.multilabelMarginLoss and F.tripletMarginWithDistanceLoss", () => {
  for (const c of doc.functional) {
    it(`${c.fn}: ${c.name}`, async () => {
      await torch.tidy(async () => {
        const inputs = c.inputs.map((s, i) => (c.grads[i] ? makeInput(torch, s, "cpu").requiresGrad_() : makeInput(torch, s, "cpu")));
        const { distanceFunction, kernelSize, outputSize, returnIndices: _, ...rest } = c.kwargs;
        let out: torch.Tensor;
        if (c.fn === "multilabel_margin_loss") out = F.multilabelMarginLoss(inputs[0]!, inputs[1]!, rest);
        else if (c.fn === "triplet_margin_with_distance_loss") {
          out = F.tripletMarginWithDistanceLoss(inputs[0]!, inputs[1]!, inputs[2]!, { ...rest, ...(distanceFunction ? { distanceFunction: distances[distanceFunction] } : {}) });
        } else {
          const pool = c.fn === "fractional_max_pool2d" ? F.fractionalMaxPool2d : F.fractionalMaxPool3d;
          const [values, indices] = pool(inputs[0]!, kernelSize!, { outputSize, returnIndices: true, randomSamples: inputs[1]! });
          await expectClose(indices, c.indices!, "indices", 0);
          out = values;
        }
        await expectClose(out, c.output, "output", 2e-5);
        out.backward(makeInput(torch, c.cotangent, "cpu"));
        for (let i = 0; i < inputs.length; i++) if (c.inputGrads[i]) await expectClose(inputs[i]!.grad, c.inputGrads[i]!, `gradient of input ${i}`, 2e-5);
      });
    });
  }

  it("reject bad calls", () => {
    torch.tidy(() => {
      const x = torch.zeros([2, 3]);
      expect(() => F.multilabelMarginLoss(x, torch.zeros([2, 3]))).toThrow(torch.DTypeError);
      expect(() => F.multilabelMarginLoss(x, torch.zeros([2, 3], { dtype: "int32" }))).toThrow(/target must be int64/);
      expect(() => F.multilabelMarginLoss(x, torch.zeros([3], { dtype: "int64" }))).toThrow(/inconsistent target size \[3\] for input of size \[2, 3\]/);
      expect(() => F.multilabelMarginLoss(torch.zeros([2, 3, 4]), torch.zeros([2, 3, 4], { dtype: "int64" }))).toThrow(/non-empty vector or matrix/);
      expect(() => F.multilabelMarginLoss(x, torch.zeros([2, 3], { dtype: "int64" }), { reduction: "avg" } as never)).toThrow(torch.ArgumentError);
      expect(() => F.tripletMarginWithDistanceLoss(x, x, x, { margin: 0 })).toThrow(/margin must be greater than 0, got 0/);
      expect(() => F.tripletMarginWithDistanceLoss(x, x, torch.zeros([3]))).toThrow(/same number of dimensions, but got: anchor 2D, positive 2D, and negative 1D/);
      expect(() => F.tripletMarginWithDistanceLoss(x, x, x, { distanceFunction: (() => 3) as never })).toThrow(/distanceFunction\(anchor, positive\) must return a Tensor/);
      expect(() => F.tripletMarginWithDistanceLoss(x, x, x, { distanceFunction: "l2" as never })).toThrow(/distanceFunction/);
      expect(() => F.tripletMarginWithDistanceLoss(x, x, x, { distance_function: distances.l1 } as never)).toThrow(/unknown option/);
    });
  });

  it("TripletMarginWithDistanceLoss takes a function or a module, holds a PairwiseDistance child by default and checks its options", async () => {
    const byDefault = new nn.TripletMarginWithDistanceLoss();
    expect(byDefault.distanceFunction).toBeInstanceOf(nn.PairwiseDistance);
    expect(String(byDefault)).toBe("TripletMarginWithDistanceLoss(\n  (distanceFunction): PairwiseDistance(p=2, eps=0.000001, keepdim=false)\n)");
    expect(byDefault.stateDict()).toEqual({});
    const c = doc.functional.find((f) => f.fn === "triplet_margin_with_distance_loss" && f.kwargs.distanceFunction === "l1")!;
    await torch.tidy(async () => {
      const [a, p, n] = c.inputs.map((s) => makeInput(torch, s, "cpu"));
      await expectClose(new nn.TripletMarginWithDistanceLoss({ distanceFunction: distances.l1 }).call(a, p, n), c.output, "function", 2e-5);
      await expectClose(new nn.TripletMarginWithDistanceLoss({ distanceFunction: new nn.PairwiseDistance(1, 0) }).call(a, p, n), c.output, "module", 2e-5);
    });
    expect(() => new nn.TripletMarginWithDistanceLoss({ margin: -1 })).toThrow(/margin must be greater than 0/);
    expect(() => new nn.TripletMarginWithDistanceLoss({ distanceFunction: 3 as never })).toThrow(/a function or a Module/);
    expect(() => new nn.TripletMarginWithDistanceLoss({ distance_function: distances.l1 } as never)).toThrow(/unknown option "distance_function"/);
    expect(String(new nn.MultiLabelMarginLoss())).toBe("MultiLabelMarginLoss()");
  });
});

describe("fractional max pooling", () => {
  it("without samples draws them from the generator: repeatable under manualSeed, windows that cover the input", () => {
    torch.tidy(() => {
      const x = torch.arange(2 * 3 * 9 * 11, { dtype: "float32" }).reshape(2, 3, 9, 11);
      torch.manualSeed(4);
      const [a, ia] = F.fractionalMaxPool2d(x, 2, { outputSize: [4, 5], returnIndices: true });
      torch.manualSeed(4);
      const b = new nn.FractionalMaxPool2d(2, [4, 5]).call(x) as torch.Tensor;
      expect(a.shape).toEqual([2, 3, 4, 5]);
      expect(Array.from(a.dataSync() as Float32Array)).toEqual(Array.from(b.dataSync() as Float32Array));
      // x increases along rows and columns, so each maximum is its window's bottom-right element,
      // and the last window ends at the last row and column
      const idx = Array.from(ia.dataSync() as BigInt64Array, Number);
      const plane = idx.slice(0, 20);
      expect(plane.at(-1)).toBe(9 * 11 - 1);
      expect(plane.every((v, i) => i === 0 || v > plane[i - 1]! || i % 5 === 0)).toBe(true);
      expect(Array.from(a.dataSync() as Float32Array).slice(0, 20)).toEqual(plane);
      const c = F.fractionalMaxPool3d(torch.randn([1, 2, 6, 6, 6]), [2, 2, 2], { outputRatio: 0.5 });
      expect(c.shape).toEqual([1, 2, 3, 3, 3]);
    });
  });

  it("checks its arguments, and prints", () => {
    torch.tidy(() => {
      const x = torch.zeros([1, 2, 5, 5]);
      expect(() => F.fractionalMaxPool2d(x, 2)).toThrow(/give exactly one of outputSize and outputRatio, got neither/);
      expect(() => F.fractionalMaxPool2d(x, 2, { outputSize: 3, outputRatio: 0.5 })).toThrow(/got both/);
      expect(() => F.fractionalMaxPool2d(x, 2, { outputRatio: 1.5 })).toThrow(/outputRatio must be in \(0, 1\)/);
      expect(() => F.fractionalMaxPool2d(x, 3, { outputSize: [4, 3] })).toThrow(/pool size 3 too large relative to input size 5/);
      expect(() => F.fractionalMaxPool3d(torch.zeros([1, 1, 5, 5, 5]), 2, { outputSize: 4 })).toThrow(/must be less than the input/);
      expect(() => F.fractionalMaxPool2d(x, 2, { outputSize: 3, randomSamples: torch.zeros([1, 2, 2], { dtype: "float64" }) })).toThrow(/randomSamples must have the input's dtype float32/);
      expect(() => F.fractionalMaxPool2d(x, 2, { outputSize: 3, randomSamples: torch.zeros([1, 3, 2]) })).toThrow(/randomSamples must be \[N, C, 2\]/);
      expect(() => F.fractionalMaxPool2d(torch.zeros([2, 5, 5], { dtype: "int32" }), 2, { outputSize: 3 })).toThrow(torch.DTypeError);
      expect(() => F.fractionalMaxPool2d(torch.zeros([5, 5]), 2, { outputSize: 3 })).toThrow(/expected a 3-d or 4-d input/);
    });
    expect(() => new nn.FractionalMaxPool2d(2)).toThrow(/FractionalMaxPool2d: requires specifying either an outputSize or an outputRatio/);
    expect(() => new nn.FractionalMaxPool3d(2, { outputSize: 3, outputRatio: 0.5 })).toThrow(/only one of outputSize and outputRatio/);
    expect(() => new nn.FractionalMaxPool2d(2, { outputRatio: 1.5 })).toThrow(/outputRatio must be between 0 and 1/);
    expect(String(new nn.FractionalMaxPool2d(3, { outputRatio: [0.5, 0.5], returnIndices: true }))).toBe("FractionalMaxPool2d(kernelSize=3, outputRatio=[0.5,0.5], returnIndices=true)");
    const m = new nn.FractionalMaxPool2d(2, 3);
    expect(Object.keys(m.stateDict())).toEqual([]);
  });
});

describe("padding modules and Softmax2d", () => {
  it("print as PyTorch's (lists for tuples) and keep padding as 2·dims ints", () => {
    const { repr } = doc.containers;
    const asList = (s: string) => s.replace(/\(\(/g, "([").replace(/\)\)/g, "])").replace(/=\(([^)]*)\)/g, "=[$1]");
    expect(String(new nn.ZeroPad2d(2))).toBe(asList(repr.zeroPad2d!));
    expect(String(new nn.ConstantPad1d([1, 2], 3.5))).toBe(asList(repr.constantPad1d!));
    expect(String(new nn.CircularPad2d([1, 0, 2, 1]))).toBe(asList(repr.circularPad2d!));
    expect(new nn.ReflectionPad3d(1).padding).toEqual([1, 1, 1, 1, 1, 1]);
    expect(new nn.ZeroPad1d({ padding: [2, 0] }).value).toBe(0);
    expect(String(new nn.Softmax2d())).toBe("Softmax2d()");
  });

  it("reject bad arguments and inputs", () => {
    expect(() => new nn.ZeroPad2d([1, 2])).toThrow(/ZeroPad2d: padding must be an int or a list of 4 ints, got \[1,2\]/);
    expect(() => new nn.ReflectionPad1d(1.5)).toThrow(/padding must be an int or a list of 2 ints/);
    expect(() => new nn.ConstantPad2d(1)).toThrow(/ConstantPad2d: value is a required number/);
    expect(() => new (nn.ReplicationPad1d as unknown as new () => unknown)()).toThrow(/padding is required/);
    expect(() => new nn.ZeroPad1d(1, { value: 2 } as never)).toThrow(/takes at most 1 positional|unknown option "value"/);
    expect(() => new (nn.ConstantPad1d as unknown as new (...a: unknown[]) => unknown)(1, 2, { mode: "reflect" })).toThrow(/unknown option "mode"/);
    torch.tidy(() => {
      expect(() => new nn.CircularPad1d(1).forward(torch.zeros([2, 3, 4, 5]))).toThrow(/CircularPad1d: expected 2D or 3D input \(got 4D input\)/);
      expect(() => new nn.ReflectionPad2d(1).forward(torch.zeros([3, 3]))).toThrow(torch.ShapeError);
      expect(() => new nn.ReflectionPad1d(3).forward(torch.zeros([1, 2, 3]))).toThrow(/reflect padding \(3, 3\) must be at most 2/);
      expect(() => new nn.Softmax2d().forward(torch.zeros([2, 3]))).toThrow(/Softmax2d: expected input to be 3D or 4D, got 2D instead/);
    });
  });
});

describe("ParameterList and ParameterDict", () => {
  class Holder extends nn.Module {
    lin = new nn.Linear(2, 2);
    plist = new nn.ParameterList([torch.ones([2]), torch.ones([3, 2])]);
    pdict = new nn.ParameterDict({ b2: torch.ones([2]), W: torch.ones([1]) });
    constructor() {
      super();
      this.pdict.set("alpha", torch.ones([4]));
    }
  }

  it("register their parameters with the owner under PyTorch's names and keys", () => {
    const h = new Holder();
    try {
      expect(Object.keys(h.stateDict())).toEqual(doc.containers.stateKeys);
      expect([...h.namedParameters()].map(([n]) => n)).toEqual(doc.containers.parameterNames);
      expect(h.pdict.keys()).toEqual(doc.containers.dictKeys);
      expect([...h.parameters()].every((p) => p.requiresGrad)).toBe(true);
      expect(h.plist.get(-1).shape).toEqual([3, 2]);
      expect(h.plist[0]).toBe(h.plist.get(0));
      expect(h.pdict.get("W")!.shape).toEqual([1]);
      expect(h.pdict.get("nope")).toBeUndefined();
      expect(h.pdict.get("nope", null)).toBeNull();
      // loadStateDict writes into the same tensors
      const before = h.plist.get(1);
      const state = Object.fromEntries(Object.entries(h.stateDict()).map(([k, v]) => [k, torch.fullLike(v, 2)]));
      h.loadStateDict(state);
      for (const t of Object.values(state)) t.dispose();
      expect(h.plist.get(1)).toBe(before);
      expect(Array.from(h.pdict.get("W")!.dataSync() as Float32Array)).toEqual([2]);
      // to() converts them in place
      h.to("float64");
      expect(h.plist.get(0).dtype).toBe("float64");
      expect(h.pdict.get("alpha")!.dtype).toBe("float64");
      expect(h.plist.get(1)).toBe(before);
    } finally {
      h.dispose();
    }
  });

  it("a ModuleDict's keys are state-dict keys as given, as PyTorch's (property names are snake_cased)", () => {
    const d = new nn.ModuleDict({ myBlock: new nn.Linear(2, 2) });
    const owner = new (class extends nn.Module {
      blockDict = d;
    })();
    try {
      expect(Object.keys(owner.stateDict())).toEqual(["block_dict.myBlock.weight", "block_dict.myBlock.bias"]);
      expect([...owner.namedParameters()].map(([n]) => n)).toEqual(["blockDict.myBlock.weight", "blockDict.myBlock.bias"]);
    } finally {
      owner.dispose();
    }
  });

  it("an optimizer built on the owner's parameters updates the list's and the dict's", () => {
    const h = new (class extends nn.Module {
      plist = new nn.ParameterList([torch.ones([2])]);
      pdict = new nn.ParameterDict({ w: torch.full([3], 2, { dtype: "float32" }) });
    })();
    try {
      const opt = new torch.optim.SGD(h.parameters(), { lr: 0.5 });
      torch.tidy(() => h.plist.get(0).mul(3).sum().add(h.pdict.get("w")!.sum()).backward());
      opt.step();
      expect(Array.from(h.plist.get(0).dataSync() as Float32Array)).toEqual([-0.5, -0.5]);
      expect(Array.from(h.pdict.get("w")!.dataSync() as Float32Array)).toEqual([1.5, 1.5, 1.5]);
      h.zeroGrad();
    } finally {
      h.dispose();
    }
  });

  it("ParameterList: append, extend, set, iteration, printout", () => torch.tidy(() => {
    const list = new nn.ParameterList();
    try {
      expect(String(list)).toBe(doc.containers.repr.empty);
      const a = torch.zeros([2, 3]);
      expect(list.append(a)).toBe(list);
      expect(a).toBeInstanceOf(nn.Parameter);
      expect(a.requiresGrad).toBe(true);
      const fixed = new nn.Parameter(torch.zeros([4]), false);
      list.extend([fixed]);
      expect(fixed.requiresGrad).toBe(false); // a Parameter is kept as it is
      expect(list.length).toBe(2);
      expect([...list]).toEqual([a, fixed]);
      expect(String(list).replace(/float32/g, "torch.float32")).toBe(doc.containers.repr.list2);
      const one = new nn.ParameterList([torch.zeros([2, 3])]);
      expect(String(one).replace(/float32/g, "torch.float32")).toBe(doc.containers.repr.list1);
      one.dispose();
      const b = torch.ones([5]);
      list.set(-1, b);
      expect(list.get(1)).toBe(b);
      fixed.dispose();
      expect([...list.parameters()]).toEqual([a, b]);
      expect(() => list.get(2)).toThrow(/index 2 is out of range for a list of 2/);
      expect(() => list.set(-3, torch.ones([1]))).toThrow(/index -3 is out of range/);
      expect(() => list.extend(torch.ones([2]) as never)).toThrow(/ParameterList.extend should be called with an iterable, but got Tensor/);
      expect(() => list.append(3 as never)).toThrow(/item 2 must be a Tensor/);
      expect(list.length).toBe(2);
      expect(() => list.forward()).toThrow(/should not be called/);
    } finally {
      list.dispose();
    }
  }));

  it("ParameterDict: update orders, pop, popitem, setdefault, delete, clear, copy", () => torch.tidy(() => {
    const t = (n: number) => torch.zeros([n]);
    const sorted = new nn.ParameterDict({ b: t(1), a: t(2) });
    const ordered = new nn.ParameterDict(new Map([["b", t(1)], ["a", t(2)]]));
    const pairs = new nn.ParameterDict([["b", t(1)], ["a", t(2)]]);
    try {
      expect(sorted.keys()).toEqual(["a", "b"]); // a plain object, as PyTorch's dict: sorted
      expect(ordered.keys()).toEqual(["b", "a"]);
      expect(pairs.keys()).toEqual(["b", "a"]);
      expect([...pairs]).toEqual(["b", "a"]);
      expect(pairs.values().map((p) => p.shape[0])).toEqual([1, 2]);
      expect(pairs.items().map(([k, p]) => `${k}${p.shape[0]}`)).toEqual(["b1", "a2"]);
      const z = pairs.setdefault("z", t(3));
      expect(pairs.setdefault("z", t(9))).toBe(z);
      expect(pairs.has("z")).toBe(true);
      expect(pairs.length).toBe(3);
      const copy = pairs.copy();
      expect(copy.get("z")).toBe(z);
      const [key, last] = pairs.popitem();
      expect(key).toBe("z");
      expect(last).toBe(z);
      expect([...pairs.parameters()].length).toBe(2);
      const a = pairs.pop("a");
      expect(pairs.keys()).toEqual(["b"]);
      expect(Object.keys(pairs.stateDict())).toEqual(["b"]);
      a.dispose();
      expect(() => pairs.pop("a")).toThrow(/no parameter under "a"/);
      expect(pairs.delete("b")).toBe(true);
      expect(pairs.delete("b")).toBe(false);
      expect(() => pairs.popitem()).toThrow(/dictionary is empty/);
      sorted.update(ordered);
      expect(sorted.keys()).toEqual(["a", "b"]);
      expect(sorted.get("b")).toBe(ordered.get("b"));
      expect(() => pairs.set("keys", t(1))).toThrow(/"keys" is already a method or property of ParameterDict/);
      expect(() => pairs.set("a.b", t(1))).toThrow(/without "."/);
      expect(() => pairs.update(3 as never)).toThrow(/ParameterDict.update should be called with an object/);
      expect(() => pairs.update([["a"]] as never)).toThrow(/element #0 must be a \[key, tensor\] pair/);
      expect(() => pairs.set("x", "w" as never)).toThrow(/must be a Tensor/);
      expect(String(copy)).toBe("ParameterDict(\n    (b): Parameter containing: [float32 of size 1]\n    (a): Parameter containing: [float32 of size 2]\n    (z): Parameter containing: [float32 of size 3]\n)");
      copy.clear();
      expect(copy.length).toBe(0);
      z.dispose();
    } finally {
      for (const d of [sorted, ordered, pairs]) d.dispose();
    }
  }));
});

describe("Module.to after a parameter was the first tensor an op was traced on", () => {
  it("leaves that op's recorded graph alone: a later backward through it works", () => {
    // the unit graph of neg on float32[7, 13] is traced with the weight as its input; converting the
    // weight in place to float64 must not change the graph's input (it was the tensor itself)
    const m = new nn.Linear(13, 7);
    try {
      torch.tidy(() => {
        m.weight.neg();
      });
      m.to("float64");
      torch.tidy(() => {
        const q = torch.ones([7, 13], { requiresGrad: true });
        q.neg().sum().backward();
        expect(Array.from(q.grad!.dataSync() as Float32Array).every((v) => v === -1)).toBe(true);
      });
    } finally {
      m.dispose();
    }
  });
});
