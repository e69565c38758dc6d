// The in-place forms added beside PyTorch's (t_, transpose_, squeeze_, unsqueeze_, cumsum_, erf_, …;
// their values are conformance cases in test/fixtures/shape.json): the same tensor comes back, with
// the new shape where the op changes it; autograd's rules for in-place writes; torch.compile's
// refusal to trace a shape change. The random in-place fills (random_, exponential_, geometric_,
// logNormal_, cauchy_, bernoulli_) against their distributions' moments in float64, and repeated
// under manualSeed and a Generator. And the Tensor methods nelement, ndimension, isSigned,
// isComplex, isContiguous, stride, storageOffset and retainsGrad.
import { describe, expect, it } from "vitest";
import * as torch from "../src/index.js";
import { eagerSuite, missing, valuesOf } from "./eager/helpers.js";

const test = missing ? it.skip : it;
if (missing) it.skip(`skipped: ${missing}`, () => {});

describe("in-place forms return the tensor itself", () => {
  eagerSuite();

  test("shape-changing ones give it the new shape and values; the others keep its shape", () => {
    torch.tidy(() => {
      const x = torch.arange(6, { dtype: "float32" }).reshape(2, 3);
      expect(x.t_()).toBe(x);
      expect(x.shape).toEqual([3, 2]);
      expect(valuesOf(x)).toEqual([0, 3, 1, 4, 2, 5]);
      expect(x.unsqueeze_(0)).toBe(x);
      expect(x.shape).toEqual([1, 3, 2]);
      expect(x.transpose_(0, 2).shape).toEqual([2, 3, 1]);
      expect(x.swapaxes_(0, 1).shape).toEqual([3, 2, 1]);
      expect(x.swapdims_(0, 1).shape).toEqual([2, 3, 1]);
      expect(x.squeeze_()).toBe(x);
      expect(x.shape).toEqual([2, 3]);
      expect(valuesOf(x)).toEqual([0, 1, 2, 3, 4, 5]);
      // the tensor works as any of its shape afterwards
      expect(valuesOf(x.sum(1))).toEqual([3, 12]);
      expect(x.tril_()).toBe(x);
      expect(valuesOf(x)).toEqual([0, 0, 0, 3, 4, 0]);
      expect(x.cumsum_(1)).toBe(x);
      expect(valuesOf(x)).toEqual([0, 0, 0, 3, 7, 7]);
      expect(x.fillDiagonal_(-1)).toBe(x);
      expect(valuesOf(x)).toEqual([-1, 0, 0, 3, -1, 7]);
      const i = torch.tensor([[1, 2], [3, 4]], { dtype: "int32" });
      expect(i.cumprod_(0).dtype).toBe("int32");
      expect(valuesOf(i)).toEqual([1, 2, 3, 8]);
    });
  });

  test("on a leaf that requires grad they are errors that leave it as it was; on a non-leaf the gradient flows through", () => {
    torch.tidy(() => {
      const w = torch.ones([2, 3], { requiresGrad: true });
      expect(() => w.t_()).toThrow(/a leaf tensor that requires grad is being used in an in-place operation/);
      expect(w.shape).toEqual([2, 3]);
      expect(() => w.unsqueeze_(0)).toThrow(torch.ArgumentError);
      expect(() => w.erf_()).toThrow(/leaf tensor that requires grad/);
      torch.noGrad(() => w.t_()); // as optimizers write parameters
      expect(w.shape).toEqual([3, 2]);
      expect(w.requiresGrad).toBe(true);

      const x = torch.tensor([[1, 2, 3], [4, 5, 6]], { dtype: "float32", requiresGrad: true });
      const y = x.mul(2);
      y.t_().unsqueeze_(0); // [1, 3, 2]
      const weights = torch.tensor([[[1, 10], [100, 1000], [1e4, 1e5]]]);
      y.mul(weights).sum().backward();
      expect(valuesOf(x.grad!)).toEqual([2, 200, 2e4, 20, 2000, 2e5]);
    });
  });

  test("an in-place write to a tensor that backward needs is caught by its version", () => {
    torch.tidy(() => {
      const x = torch.tensor([0.5, 1, 1.5], { requiresGrad: true });
      const a = x.mul(1);
      const b = a.sin(); // saves a
      a.unsqueeze_(1);
      expect(() => b.sum().backward()).toThrow(/has been modified by an in-place operation: input 0, a float32\[3, 1\] tensor, is at version 1; expected version 0/);
    });
  });

  test("torch.compile cannot trace a shape change in place: a graph break (fullgraph: an error that says to use the out-of-place op)", () => {
    const f = torch.compile((x: torch.Tensor) => x.clone().t_());
    const strict = torch.compile((x: torch.Tensor) => x.clone().t_(), { fullgraph: true });
    torch.tidy(() => {
      const x = torch.tensor([[1, 2, 3], [4, 5, 6]]);
      const y = f(x);
      expect(y.shape).toEqual([3, 2]);
      expect(valuesOf(y)).toEqual([1, 4, 2, 5, 3, 6]);
      expect(() => strict(x)).toThrow(/t_ \(change a tensor's shape in place; use the out-of-place t\)/);
    });
  });

  test("in fused eager mode too (the recorded ops run first)", () => {
    torch.setEagerMode("fused");
    try {
      torch.tidy(() => {
        const x = torch.tensor([[1, 2, 3], [4, 5, 6]]).mul(2);
        const y = x.t_().add(1).unsqueeze_(0);
        expect(y.shape).toEqual([1, 3, 2]);
        expect(x.shape).toEqual([3, 2]);
        expect(valuesOf(y)).toEqual([3, 9, 5, 11, 7, 13]);
        expect(valuesOf(x.squeeze_().cumsum_(0))).toEqual([2, 8, 6, 18, 12, 30]);
      });
    } finally {
      torch.setEagerMode("strict");
    }
  });

  test("bad calls", () => {
    torch.tidy(() => {
      const x = torch.ones([2, 3]);
      expect(() => x.cumsum_(1, { dtype: "float64" })).toThrow(/cumsum_: bad in-place call: the tensor is float32 and dtype is float64/);
      expect(() => torch.ones([3], { dtype: "int64" }).logit_()).toThrow(torch.DTypeError);
      expect(() => x.fillDiagonal_(1, { wrapped: true } as never)).toThrow(/unknown option "wrapped"/);
      expect(() => torch.ones([2, 3, 4]).fillDiagonal_(1)).toThrow(/all dimensions of input must be of equal length/);
      expect(() => torch.ones([2, 2], { dtype: "int8" }).fillDiagonal_(300)).toThrow(/fillDiagonal_: value 300 cannot be converted to type int8/);
      expect(() => x.squeeze_(5)).toThrow(torch.ShapeError);
      expect(x.shape).toEqual([2, 3]);
      expect(() => x.renorm_(2, 0, -1)).toThrow(torch.ArgumentError);
    });
  });
});

describe("random in-place fills", () => {
  eagerSuite();

  const n = 20000;
  /** Mean and variance in float64 of a fill of n float64 values drawn with seed 7. */
  function moments(fill: (t: torch.Tensor) => torch.Tensor, dtype: torch.DType = "float64"): { mean: number; variance: number; values: number[] } {
    torch.manualSeed(7);
    const t = torch.zeros([n], { dtype });
    try {
      expect(fill(t)).toBe(t);
      const values = valuesOf(t);
      const mean = values.reduce((a, b) => a + b, 0) / n;
      const variance = values.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1);
      return { mean, variance, values };
    } finally {
      t.dispose();
    }
  }
  // the standard error of a mean of n draws is σ/√n; 5 of them is a tolerance a correct sampler
  // misses with probability below 1e-6, while a wrong parameter moves the mean by far more
  const within = (got: number, want: number, sd: number): void => expect(Math.abs(got - want)).toBeLessThan((5 * sd) / Math.sqrt(n));

  test("exponential_(lambd): mean 1/λ, variance 1/λ², all ≥ 0", () => {
    const { mean, variance, values } = moments((t) => t.exponential_(2.5));
    within(mean, 0.4, 0.4);
    // the sample variance's standard error is about σ²·√((κ − 1)/n) with kurtosis κ = 9
    expect(Math.abs(variance - 0.16)).toBeLessThan(5 * 0.16 * Math.sqrt(8 / n));
    expect(Math.min(...values)).toBeGreaterThanOrEqual(0);
  });

  test("geometric_(p): integers ≥ 1, mean 1/p, variance (1 − p)/p², into float and int tensors", () => {
    const { mean, variance, values } = moments((t) => t.geometric_(0.3));
    const sd = Math.sqrt(0.7) / 0.3;
    within(mean, 1 / 0.3, sd);
    expect(Math.abs(variance - 0.7 / 0.09)).toBeLessThan(0.1 * (0.7 / 0.09));
    expect(values.every((v) => Number.isInteger(v) && v >= 1)).toBe(true);
    // P(X = 1) = p
    within(values.filter((v) => v === 1).length / n, 0.3, Math.sqrt(0.3 * 0.7));
    const ints = moments((t) => t.geometric_(0.5), "int32");
    within(ints.mean, 2, Math.sqrt(2));
  });

  test("logNormal_(mean, std): log of the values is N(mean, std²)", () => {
    const { values } = moments((t) => t.logNormal_(0.5, 0.75));
    const logs = values.map(Math.log);
    const mean = logs.reduce((a, b) => a + b, 0) / n;
    const variance = logs.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1);
    within(mean, 0.5, 0.75);
    expect(Math.abs(variance - 0.5625)).toBeLessThan(5 * 0.5625 * Math.sqrt(2 / n));
    const defaults = moments((t) => t.logNormal_()).values.map(Math.log); // mean 1, std 2
    within(defaults.reduce((a, b) => a + b, 0) / n, 1, 2);
  });

  test("cauchy_(median, sigma): quartiles at median ∓ sigma", () => {
    const { values } = moments((t) => t.cauchy_(1, 2));
    const sorted = [...values].sort((a, b) => a - b);
    // a sample quantile's standard error is √(q(1 − q)/n) / density at it: 1/(4πσ·√n)·√3·… < 0.05 here
    expect(Math.abs(sorted[Math.floor(n / 4)]! - -1)).toBeLessThan(0.12);
    expect(Math.abs(sorted[Math.floor(n / 2)]! - 1)).toBeLessThan(0.1);
    expect(Math.abs(sorted[Math.floor((3 * n) / 4)]! - 3)).toBeLessThan(0.12);
  });

  test("random_: integers uniform in [from, to), [0, to), and a dtype's whole range", () => {
    const { mean, values } = moments((t) => t.random_(-3, 5));
    expect(new Set(values)).toEqual(new Set([-3, -2, -1, 0, 1, 2, 3, 4]));
    within(mean, 0.5, Math.sqrt((64 - 1) / 12));
    const to = moments((t) => t.random_(4), "int32");
    expect(new Set(to.values)).toEqual(new Set([0, 1, 2, 3]));
    const named = moments((t) => t.random_({ from: 10, to: 12 }), "int64");
    expect(new Set(named.values)).toEqual(new Set([10, 11]));
    const bytes = moments((t) => t.random_(), "uint8"); // [0, 255]
    within(bytes.mean, 127.5, Math.sqrt((256 ** 2 - 1) / 12));
    expect(Math.max(...bytes.values)).toBe(255);
    const bools = moments((t) => t.random_(), "bool");
    within(bools.mean, 0.5, 0.5);
    const floats = moments((t) => t.random_(), "float32"); // [0, 2^24]
    expect(floats.values.every((v) => Number.isInteger(v) && v >= 0 && v <= 2 ** 24)).toBe(true);
    within(floats.mean, 2 ** 23, 2 ** 24 / Math.sqrt(12));
  });

  test("bernoulli_(p): a number or a tensor of probabilities, into any dtype", () => {
    const { mean, values } = moments((t) => t.bernoulli_(0.2));
    expect(values.every((v) => v === 0 || v === 1)).toBe(true);
    within(mean, 0.2, Math.sqrt(0.16));
    within(moments((t) => t.bernoulli_(), "bool").mean, 0.5, 0.5);
    torch.tidy(() => {
      torch.manualSeed(3);
      const p = torch.tensor([0, 1, 0.5]);
      const t = torch.zeros([n / 4, 3], { dtype: "int32" });
      t.bernoulli_(p);
      const v = valuesOf(t);
      const columns = [0, 1, 2].map((c) => v.filter((_, i) => i % 3 === c).reduce((a, b) => a + b, 0) / (n / 4));
      expect(columns[0]).toBe(0);
      expect(columns[1]).toBe(1);
      expect(Math.abs(columns[2]! - 0.5)).toBeLessThan((5 * 0.5) / Math.sqrt(n / 4));
    });
  });

  test("a seed or a Generator repeats them; the next draw differs", () => {
    const fills: ((t: torch.Tensor, generator?: torch.Generator) => torch.Tensor)[] = [
      (t, generator) => t.exponential_(1, { generator }),
      (t, generator) => t.geometric_(0.4, { generator }),
      (t, generator) => t.logNormal_(0, 1, { generator }),
      (t, generator) => t.cauchy_({ generator }),
      (t, generator) => t.random_(0, 100, { generator }),
      (t, generator) => t.bernoulli_(0.5, { generator }),
    ];
    for (const fill of fills) {
      const run = (seed: number, twice = false): number[] => {
        torch.manualSeed(seed);
        const t = torch.zeros([64]);
        try {
          fill(t);
          if (twice) fill(t);
          return valuesOf(t);
        } finally {
          t.dispose();
        }
      };
      expect(run(11)).toEqual(run(11));
      expect(run(11)).not.toEqual(run(11, true));
      const withGenerator = (): number[] => {
        const t = torch.zeros([64]);
        try {
          return valuesOf(fill(t, new torch.Generator().manualSeed(5)));
        } finally {
          t.dispose();
        }
      };
      expect(withGenerator()).toEqual(withGenerator());
    }
  });

  test("bad calls", () => {
    torch.tidy(() => {
      const x = torch.zeros([3]);
      const i = torch.zeros([3], { dtype: "int64" });
      expect(() => x.exponential_(0)).toThrow(/exponential_: expects lambda > 0.0, but found lambda=0/);
      expect(() => i.exponential_()).toThrow(torch.DTypeError);
      expect(() => x.geometric_(1)).toThrow(/geometric_: expects p to be in \(0, 1\), but got p=1/);
      expect(() => (x.geometric_ as (...a: unknown[]) => unknown)()).toThrow(/missing the required argument "p"/);
      expect(() => x.logNormal_(1, 0)).toThrow(/logNormal_: expects std > 0.0, but found std=0/);
      expect(() => i.logNormal_()).toThrow(/continuous probability distribution/);
      expect(() => x.cauchy_(0, -1)).toThrow(/cauchy_: expects sigma > 0.0, but found sigma=-1/);
      expect(() => i.cauchy_()).toThrow(torch.DTypeError);
      expect(() => x.random_(5, 2)).toThrow(/random_ expects 'from' to be less than 'to', but got from=5 >= to=2/);
      expect(() => torch.zeros([2], { dtype: "int8" }).random_(0, 300)).toThrow(/\[0, 300\) is out of bounds for int8/);
      expect(() => x.random_(0, 2 ** 25)).toThrow(/out of bounds for float32/);
      expect(() => x.bernoulli_(1.5)).toThrow(/bernoulli_: expects p to be in \[0, 1\], but got p=1.5/);
      expect(() => x.bernoulli_(torch.ones([2]))).toThrow(torch.ShapeError);
      expect(() => x.bernoulli_(torch.ones([3], { dtype: "int32" }))).toThrow(/p must be a floating tensor/);
      expect(() => x.exponential_(1, { lambda: 2 } as never)).toThrow(/unknown option "lambda"/);
      const w = torch.zeros([3], { requiresGrad: true });
      expect(() => w.exponential_()).not.toThrow(); // a fill has no history to record: it writes the leaf, as uniform_ does
    });
  });
});

describe("Tensor methods", () => {
  eagerSuite();

  test("nelement, ndimension, isSigned, isComplex, isContiguous, stride, storageOffset", () => {
    torch.tidy(() => {
      const x = torch.zeros([2, 3, 4]);
      expect(x.nelement()).toBe(24);
      expect(x.ndimension()).toBe(3);
      expect(x.isSigned()).toBe(true);
      expect(torch.zeros([1], { dtype: "int8" }).isSigned()).toBe(true);
      expect(torch.zeros([1], { dtype: "uint8" }).isSigned()).toBe(false);
      expect(torch.zeros([1], { dtype: "bool" }).isSigned()).toBe(false);
      expect(x.isComplex()).toBe(false);
      expect(x.stride()).toEqual([12, 4, 1]);
      expect(x.stride(-2)).toBe(4);
      expect(() => x.stride(3)).toThrow(/stride: dimension 3 is out of range/);
      expect(torch.zeros([]).stride()).toEqual([]);
      expect(() => torch.zeros([]).stride(0)).toThrow(torch.ShapeError);
      // views are copies: a transposed tensor is a new row-major one
      const t = x.transpose(0, 2);
      expect(t.stride()).toEqual([6, 2, 1]);
      expect(t.isContiguous()).toBe(true);
      expect(t.storageOffset()).toBe(0);
    });
  });

  test("retainsGrad: false for leaves, true after retainGrad on a non-leaf", () => {
    torch.tidy(() => {
      const x = torch.ones([2], { requiresGrad: true });
      const y = x.mul(2);
      expect(x.retainsGrad).toBe(false);
      expect(y.retainsGrad).toBe(false);
      y.retainGrad();
      expect(y.retainsGrad).toBe(true);
      x.retainGrad();
      expect(x.retainsGrad).toBe(false);
    });
  });
});
