// Random numbers (src/random/, src/ops/random/, src/ops/nn/dropout.ts). Oracles: jax.random for the
// bits, uniforms and randint, bit for bit (test/fixtures/random/jax.json, written by
// scripts/fixtures/random_jax.py); float64 statistics for the distributions; determinism and
// independence for the generator state.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as torch from "../src/index.js";
import { dropout } from "../src/ops/nn/dropout.js";
import { draw } from "../src/ops/random/draw.js";
import { bits32, bits64, foldIn, seedKey, splitKey } from "../src/random/threefry.js";
import { eagerSuite, missing, valuesOf } from "./eager/helpers.js";
import { fixturesDir } from "./helpers/fixtures.js";

const test = missing ? it.skip : it;
if (missing) it.skip(`skipped: ${missing}`, () => {});

interface JaxCase {
  kind: "key" | "bits32" | "bits64" | "uniform" | "randint" | "split";
  seed: string;
  counter: number;
  shape: number[];
  dtype: torch.DType;
  values: (number | string)[];
  low?: number | string;
  high?: number | string;
}
const jax = JSON.parse(readFileSync(join(fixturesDir, "random", "jax.json"), "utf8")) as { jax: string; cases: JaxCase[] };
const label = (c: JaxCase): string => `${c.kind} ${c.dtype}[${c.shape}] seed ${c.seed} draw ${c.counter}${c.low !== undefined ? ` [${c.low}, ${c.high})` : ""}`;

/** A generator positioned so that its next draw uses fold_in(PRNGKey(seed), counter). */
const generatorAt = (c: JaxCase): torch.Generator => new torch.Generator().setState({ seed: BigInt(c.seed), counter: c.counter });

/** The values as numbers; disposes the tensor. */
function take(t: torch.Tensor): number[] {
  try {
    return valuesOf(t);
  } finally {
    t.dispose();
  }
}

function values(t: torch.Tensor): (number | bigint)[] {
  try {
    return Array.from(t.dataSync() as ArrayLike<number | bigint>);
  } finally {
    t.dispose();
  }
}

describe(`random numbers match jax.random ${jax.jax} bit for bit`, () => {
  eagerSuite();

  test("host keys: PRNGKey, fold_in and split", () => {
    for (const c of jax.cases.filter((x) => x.kind === "key")) {
      expect(foldIn(seedKey(BigInt(c.seed)), c.counter), label(c)).toEqual(c.values);
    }
    for (const c of jax.cases.filter((x) => x.kind === "split")) {
      const key = seedKey(BigInt(c.seed));
      expect([0, 1, 2].flatMap((i) => splitKey(key, i)), label(c)).toEqual(c.values);
    }
  });

  test("raw 32- and 64-bit draws from the device", () => {
    const cases = jax.cases.filter((x) => x.kind === "bits32" || x.kind === "bits64");
    expect(cases.length).toBeGreaterThan(10);
    for (const c of cases) {
      const body = c.kind === "bits32" ? bits32 : bits64;
      const got = values(draw("test_bits", `${c.kind}|${c.shape}`, "cpu:0", generatorAt(c), [], (k) => body(k, c.shape)));
      expect(got.map(String), label(c)).toEqual(c.values.map(String));
    }
  });

  test("rand and uniform_ (float32, float64, float16, bfloat16, a [low, high) range)", () => {
    const cases = jax.cases.filter((x) => x.kind === "uniform");
    for (const c of cases) {
      let t: torch.Tensor;
      if (c.low === undefined) t = torch.rand(c.shape, { dtype: c.dtype, generator: generatorAt(c) });
      else t = torch.zeros(c.shape, { dtype: c.dtype }).uniform_(Number(c.low), Number(c.high), { generator: generatorAt(c) });
      expect(t.dtype).toBe(c.dtype);
      expect([...t.shape]).toEqual(c.shape);
      if (c.low === undefined) expect(values(t), label(c)).toEqual(c.values);
      else {
        // u·(high − low) + low: XLA fuses it into one FMA, we round twice; 1 ulp apart at most.
        const got = values(t) as number[];
        got.forEach((v, i) => expect(Math.abs(v - Number(c.values[i])), label(c)).toBeLessThanOrEqual(2 ** -23 * Math.max(1, Math.abs(v))));
      }
    }
  });

  test("randint (int32 ranges and an int64 range wider than 2^32)", () => {
    for (const c of jax.cases.filter((x) => x.kind === "randint")) {
      const t = torch.randint(Number(c.low!), Number(c.high!), c.shape, { dtype: c.dtype, generator: generatorAt(c) });
      expect(t.dtype).toBe(c.dtype);
      expect(values(t).map(String), label(c)).toEqual(c.values.map(String));
    }
  });
});

/** Mean and variance in float64. */
function moments(xs: readonly number[]): { mean: number; variance: number } {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  return { mean, variance: xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1) };
}

/** Pearson's chi-square statistic of counts against equal expected counts. */
function chiSquare(counts: readonly number[]): number {
  const n = counts.reduce((a, b) => a + b, 0);
  const expected = n / counts.length;
  return counts.reduce((a, c) => a + (c - expected) ** 2 / expected, 0);
}

const N = 100_000;

describe("distributions (statistics of 1e5 samples, float64 reference)", () => {
  eagerSuite();

  test("rand is uniform on [0, 1): mean 1/2, variance 1/12, never 1", () => {
    torch.manualSeed(1);
    for (const dtype of ["float32", "float64", "float16", "bfloat16"] as const) {
      const xs = take(torch.tidy(() => torch.rand([N], { dtype }).to("float64")));
      const { mean, variance } = moments(xs);
      // 5 standard errors: sd(mean) = sqrt(1/12/N) ≈ 9e-4; 16-bit floats quantize the values.
      expect(Math.abs(mean - 0.5), dtype).toBeLessThan(5 * Math.sqrt(1 / 12 / N) + (dtype === "bfloat16" ? 4e-3 : 0));
      expect(Math.abs(variance - 1 / 12), dtype).toBeLessThan(2e-3);
      expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
      expect(Math.max(...xs)).toBeLessThan(1);
    }
  });

  test("randn and normal: mean, variance, and the tails of a standard normal", () => {
    torch.manualSeed(2);
    for (const dtype of ["float32", "float64"] as const) {
      const xs = take(torch.tidy(() => torch.randn([N], { dtype }).to("float64")));
      const { mean, variance } = moments(xs);
      expect(Math.abs(mean), dtype).toBeLessThan(5 / Math.sqrt(N));
      expect(Math.abs(variance - 1), dtype).toBeLessThan(0.02);
      const beyond2 = xs.filter((x) => Math.abs(x) > 2).length / N; // 0.0455 for N(0, 1)
      expect(Math.abs(beyond2 - 0.0455), dtype).toBeLessThan(0.004);
    }
    const ys = take(torch.tidy(() => torch.normal(3, 0.5, [N]).to("float64")));
    const m = moments(ys);
    expect(Math.abs(m.mean - 3)).toBeLessThan(5 * 0.5 / Math.sqrt(N));
    expect(Math.abs(m.variance - 0.25)).toBeLessThan(0.01);
  });

  test("normal with tensor mean and std broadcasts them element by element", () => {
    torch.manualSeed(3);
    const out = torch.tidy(() => {
      const mean = torch.tensor([-10, 0, 10], { dtype: "float64" }).reshape(1, 3).expand(N / 4, 3);
      const std = torch.tensor([1, 0, 2], { dtype: "float64" });
      return torch.normal(mean, std);
    });
    expect(out.dtype).toBe("float64");
    expect([...out.shape]).toEqual([N / 4, 3]);
    const v = valuesOf(out);
    out.dispose();
    const col = (j: number) => v.filter((_, i) => i % 3 === j);
    expect(Math.abs(moments(col(0)).mean + 10)).toBeLessThan(0.05);
    expect(col(1).every((x) => x === 0)).toBe(true);
    expect(Math.abs(moments(col(2)).variance - 4)).toBeLessThan(0.15);
  });

  test("randint: chi-square of 1e5 draws over 10 values", () => {
    torch.manualSeed(4);
    const xs = take(torch.randint(-3, 7, [N], { generator: new torch.Generator({ seed: 9 }) }));
    const counts = new Array<number>(10).fill(0);
    for (const x of xs) counts[x + 3]!++;
    // 9 degrees of freedom: P(χ² > 27.88) = 0.001
    expect(chiSquare(counts)).toBeLessThan(27.88);
    expect(Math.min(...xs)).toBe(-3);
    expect(Math.max(...xs)).toBe(6);
  });

  test("bernoulli: frequency of ones follows p", () => {
    torch.manualSeed(5);
    const p = torch.tensor(new Float32Array([0, 0.2, 0.9, 1]), { shape: [1, 4] });
    const draws = torch.tidy(() => torch.bernoulli(p.expand(N / 4, 4)));
    p.dispose();
    expect(draws.dtype).toBe("float32");
    const v = valuesOf(draws);
    draws.dispose();
    const freq = [0, 1, 2, 3].map((j) => v.filter((_, i) => i % 4 === j).reduce((a, b) => a + b, 0) / (N / 4));
    expect(freq[0]).toBe(0);
    expect(freq[3]).toBe(1);
    expect(Math.abs(freq[1]! - 0.2)).toBeLessThan(5 * Math.sqrt(0.2 * 0.8 / (N / 4)));
    expect(Math.abs(freq[2]! - 0.9)).toBeLessThan(5 * Math.sqrt(0.9 * 0.1 / (N / 4)));
    const half = torch.tidy(() => torch.zeros([N]).bernoulli({ p: 0.5 }));
    expect(Math.abs(valuesOf(half).reduce((a, b) => a + b, 0) / N - 0.5)).toBeLessThan(0.01);
    half.dispose();
  });

  test("multinomial with replacement: category frequencies follow the weights", () => {
    torch.manualSeed(6);
    const w = torch.tensor([1, 0, 3, 6], { dtype: "float32" });
    const idx = w.multinomial(N, { replacement: true });
    w.dispose();
    expect(idx.dtype).toBe("int64");
    const counts = [0, 0, 0, 0];
    for (const i of valuesOf(idx)) counts[i]!++;
    idx.dispose();
    expect(counts[1]).toBe(0);
    [0.1, 0, 0.3, 0.6].forEach((p, j) => expect(Math.abs(counts[j]! / N - p)).toBeLessThan(5 * Math.sqrt(p * (1 - p) / N) + 1e-9));
  });

  test("multinomial over many categories (prefix sums over 37 weights)", () => {
    torch.manualSeed(11);
    const k = 37;
    const weights = Array.from({ length: k }, (_, i) => (i % 5 === 0 ? 0 : i + 1));
    const total = weights.reduce((a, b) => a + b, 0);
    const w = torch.tensor(weights, { dtype: "float64" });
    const idx = torch.multinomial(w, N, { replacement: true });
    w.dispose();
    const counts = new Array<number>(k).fill(0);
    for (const i of take(idx)) counts[i]!++;
    weights.forEach((wt, j) => {
      const p = wt / total;
      expect(Math.abs(counts[j]! / N - p), `category ${j}`).toBeLessThanOrEqual(5 * Math.sqrt(p * (1 - p) / N));
    });
  });

  test("multinomial without replacement: distinct indices, first pick follows the weights", () => {
    torch.manualSeed(7);
    const rows = 20_000;
    const w = torch.tidy(() => torch.tensor([[1, 2, 0, 7]], { dtype: "float32" }).expand(rows, 4));
    const idx = torch.multinomial(w, 3);
    w.dispose();
    expect([...idx.shape]).toEqual([rows, 3]);
    const v = valuesOf(idx);
    idx.dispose();
    const first = [0, 0, 0, 0];
    for (let r = 0; r < rows; r++) {
      const picks = v.slice(3 * r, 3 * r + 3);
      expect(new Set(picks).size).toBe(3);
      expect(picks).not.toContain(2); // weight 0 is never drawn while others remain
      first[picks[0]!]!++;
    }
    [0.1, 0.2, 0, 0.7].forEach((p, j) => expect(Math.abs(first[j]! / rows - p)).toBeLessThan(5 * Math.sqrt(p * (1 - p) / rows) + 1e-9));
  });

  test("randperm is a permutation, and each position is uniform", () => {
    torch.manualSeed(8);
    const n = 5;
    const counts = Array.from({ length: n }, () => new Array<number>(n).fill(0));
    for (let trial = 0; trial < 400; trial++) {
      const p = take(torch.tidy(() => torch.randperm(n)));
      expect([...p].sort()).toEqual([0, 1, 2, 3, 4]);
      p.forEach((v, i) => counts[i]![v]!++);
    }
    // position 0: 4 degrees of freedom, P(χ² > 18.47) = 0.001
    expect(chiSquare(counts[0]!)).toBeLessThan(18.47);
    const big = torch.randperm(1000, { dtype: "int32" });
    expect(big.dtype).toBe("int32");
    expect(valuesOf(big).sort((a, b) => a - b)).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    big.dispose();
    const empty = torch.randperm(0);
    expect([...empty.shape]).toEqual([0]);
    empty.dispose();
  });

  test("randperm(100000) is a permutation (one sort of 64-bit keys), and two draws differ", () => {
    torch.manualSeed(12);
    const n = 100_000;
    const draws = [torch.randperm(n), torch.randperm(n, { dtype: "int32" })].map(take);
    for (const p of draws) {
      expect(p.length).toBe(n);
      const seen = new Uint8Array(n);
      for (const v of p) if (Number.isInteger(v) && v >= 0 && v < n) seen[v] = 1;
      expect(seen.reduce((a, b) => a + b, 0)).toBe(n); // n distinct values in [0, n)
    }
    // a uniform permutation has about one fixed point, and two independent ones agree in about one place
    const fixed = draws[0]!.filter((v, i) => v === i).length;
    const same = draws[0]!.filter((v, i) => v === draws[1]![i]).length;
    expect(fixed).toBeLessThan(10);
    expect(same).toBeLessThan(10);
  });
});

describe("generator state", () => {
  eagerSuite();

  test("one seed gives the same numbers on every device", () => {
    for (const op of [torch.rand, torch.randn] as const) {
      const a = take(op([3, 4], { generator: new torch.Generator({ seed: 77 }), device: "cpu:0" }));
      const b = op([3, 4], { generator: new torch.Generator({ seed: 77 }), device: "cpu:1" });
      expect(b.device).toBe("cpu:1");
      expect(take(b)).toEqual(a);
    }
  });

  test("empty and 0-d draws", () => {
    const shapes = [[0], [2, 0], []];
    for (const shape of shapes) {
      for (const t of [torch.rand(shape), torch.randn(shape, { dtype: "float64" }), torch.randint(0, 3, shape)]) {
        expect([...t.shape]).toEqual(shape);
        expect(take(t).length).toBe(shape.reduce((a, b) => a * b, 1));
      }
    }
  });

  test("manualSeed makes draws reproducible; each draw takes a new counter", () => {
    torch.manualSeed(123);
    const a = values(torch.rand(8));
    const b = values(torch.rand(8));
    expect(a).not.toEqual(b);
    torch.manualSeed(123);
    expect(values(torch.rand(8))).toEqual(a);
    expect(values(torch.rand(8))).toEqual(b);
    expect(torch.initialSeed()).toBe(123n);
  });

  test("generators are independent of each other and of the default generator", () => {
    const g1 = new torch.Generator().manualSeed(5);
    const g2 = new torch.Generator().manualSeed(5);
    torch.manualSeed(5);
    const d = values(torch.randn(6));
    const x1 = values(torch.randn(6, { generator: g1 }));
    values(torch.rand(3)); // draws on the default generator do not move g1 or g2
    const x2 = values(torch.randn(6, { generator: g2 }));
    expect(x1).toEqual(x2);
    expect(x1).toEqual(d);
    expect(values(torch.randn(6, { generator: g1 }))).not.toEqual(x1);
    expect(g1.initialSeed()).toBe(5n);
    expect(g1.getState()).toEqual({ seed: 5n, counter: 2 });
  });

  test("seed() picks a fresh seed; getState/setState replay a stream", () => {
    const g = new torch.Generator();
    expect(g.initialSeed()).toBe(67280421310721n); // PyTorch's default seed
    const s = g.seed();
    expect(g.initialSeed()).toBe(s);
    const state = g.getState();
    const a = values(torch.rand(4, { generator: g }));
    g.setState(state);
    expect(values(torch.rand(4, { generator: g }))).toEqual(a);
  });

  test("*Like forms take the input's shape, dtype and device", () => {
    const x = torch.zeros([2, 3], { dtype: "float64", device: "cpu:1" });
    for (const t of [torch.randLike(x), torch.randnLike(x)]) {
      expect([t.dtype, [...t.shape], t.device]).toEqual(["float64", [2, 3], "cpu:1"]);
      t.dispose();
    }
    const i = torch.randintLike(x, 5, 9, { dtype: "int32" });
    expect([i.dtype, i.device]).toEqual(["int32", "cpu:1"]);
    expect(valuesOf(i).every((v) => v >= 5 && v < 9)).toBe(true);
    i.dispose();
    const before = x.shape;
    const n = x.normal_(10, 0.001);
    expect(n).toBe(x);
    expect(x.shape).toBe(before);
    expect(valuesOf(x).every((v) => Math.abs(v - 10) < 0.01)).toBe(true);
    x.dispose();
  });
});

describe("PyTorch's calling convention: positional arguments or one options object", () => {
  eagerSuite();

  /** The values of every call, each drawn with a fresh generator of the same seed: equal if the calls are the same. */
  const same = (...calls: ((g: torch.Generator) => torch.Tensor)[]): (number | bigint)[] => {
    const [first, ...rest] = calls.map((call) => values(call(new torch.Generator({ seed: 21 }))));
    for (const v of rest) expect(v).toEqual(first);
    return first!;
  };

  test("requiresGrad, as PyTorch's factories take it: a leaf that requires grad with the same values, and a DTypeError for integer dtypes", () => {
    const leaf = (t: torch.Tensor) => [t.requiresGrad, t.gradFn === null];
    const x = torch.ones([3], { dtype: "float64" });
    for (const [name, make] of [
      ["rand", (generator: torch.Generator, requiresGrad: boolean) => torch.rand([2, 3], { generator, requiresGrad })],
      ["randn", (generator: torch.Generator, requiresGrad: boolean) => torch.randn(2, 3, { generator, requiresGrad })],
      ["randLike", (generator: torch.Generator, requiresGrad: boolean) => torch.randLike(x, { generator, requiresGrad })],
      ["randnLike", (generator: torch.Generator, requiresGrad: boolean) => torch.randnLike(x, { generator, requiresGrad })],
      ["randint", (generator: torch.Generator, requiresGrad: boolean) => torch.randint(0, 9, [4], { generator, dtype: "float32", requiresGrad })],
      ["randintLike", (generator: torch.Generator, requiresGrad: boolean) => torch.randintLike(x, 9, { generator, requiresGrad })],
      ["randperm", (generator: torch.Generator, requiresGrad: boolean) => torch.randperm(5, { generator, dtype: "float32", requiresGrad })],
      ["normal", (generator: torch.Generator, requiresGrad: boolean) => torch.normal(2, 3, [4], { generator, requiresGrad })],
    ] as const) {
      const [plain, tracked] = [false, true].map((requiresGrad) => make(new torch.Generator({ seed: 5 }), requiresGrad));
      expect(leaf(plain!), name).toEqual([false, true]);
      expect(leaf(tracked!), name).toEqual([true, true]);
      torch.tidy(() => tracked!.mul(2).sum().backward());
      const grad = values(tracked!.grad!);
      expect(values(tracked!), name).toEqual(values(plain!));
      expect(grad, name).toEqual(grad.map(() => 2));
    }
    x.dispose();
    expect(() => torch.randint(0, 9, [4], { requiresGrad: true })).toThrow(/randint: only tensors of floating point dtype can require gradients, got int64/);
    expect(() => torch.randperm(4, { requiresGrad: true })).toThrow(torch.DTypeError);
  });

  test("rand, randn, randint, randperm", () => {
    const u = same(
      (generator) => torch.rand(2, 3, { generator }),
      (generator) => torch.rand([2, 3], { generator }),
      (generator) => torch.rand({ size: [2, 3], generator }),
    );
    expect(u.length).toBe(6);
    expect(u.every((v) => Number(v) >= 0 && Number(v) < 1)).toBe(true);
    expect(same((generator) => torch.randn(4, { generator, dtype: "float64" }), (generator) => torch.randn({ size: [4], dtype: "float64", generator })).length).toBe(4);
    const r = same(
      (generator) => torch.randint(10, [5], { generator }),
      (generator) => torch.randint(0, 10, [5], { generator }),
      (generator) => torch.randint({ high: 10, size: [5], generator }),
      (generator) => torch.randint(0, { high: 10, size: [5], generator }),
      (generator) => torch.randint({ low: 0, high: 10, size: [5], generator }),
    );
    expect(r.every((v) => Number(v) >= 0 && Number(v) < 10)).toBe(true);
    const shifted = values(torch.randint(-3, 7, [5], { generator: new torch.Generator({ seed: 21 }), dtype: "int32" }));
    expect(shifted.every((v) => Number(v) >= -3 && Number(v) < 7)).toBe(true);
    const p = same((generator) => torch.randperm(6, { generator }), (generator) => torch.randperm({ n: 6, generator, dtype: "int64" }));
    expect(p.map(Number).sort()).toEqual([0, 1, 2, 3, 4, 5]);
  });

  test("normal (all four overloads), bernoulli, multinomial", () => {
    const mean = torch.tensor([0, 100, -100], { dtype: "float64" });
    const std = torch.tensor([1, 0, 2], { dtype: "float64" });
    // A required Tensor may be an option too (torch.normal({ mean, std })), though the declared types leave that form out.
    const untyped = torch.normal as (...args: unknown[]) => torch.Tensor;
    const a = same(
      (generator) => torch.normal(mean, std, { generator }),
      (generator) => untyped({ mean, std, generator }),
    );
    expect(a[1]).toBe(100);
    const b = same(
      (generator) => torch.normal(mean, 0, { generator }),
      (generator) => torch.normal(mean, { std: 0, generator }),
    );
    expect(b).toEqual([0, 100, -100]);
    expect(same((generator) => torch.normal(mean, { generator }), (generator) => torch.normal(mean, 1, { generator }))).not.toEqual(b);
    const c = same((generator) => torch.normal(5, std, { generator }), (generator) => untyped(5, { std, generator }));
    expect(c[1]).toBe(5);
    const d = same(
      (generator) => torch.normal(3, 0, [2, 2], { generator }),
      (generator) => torch.normal(3, 0, { size: [2, 2], generator }),
      (generator) => torch.normal({ mean: 3, std: 0, size: [2, 2], generator }),
    );
    expect(d).toEqual([3, 3, 3, 3]);
    const probs = torch.tensor([0, 1, 0.5, 0.5]);
    const e = same(
      (generator) => torch.bernoulli(probs, { generator }),
      (generator) => probs.bernoulli({ generator }),
    );
    expect(e.slice(0, 2)).toEqual([0, 1]);
    const f = same(
      (generator) => torch.bernoulli(probs, 1, { generator }),
      (generator) => torch.bernoulli(probs, { p: 1, generator }),
      (generator) => probs.bernoulli(1, { generator }),
    );
    expect(f).toEqual([1, 1, 1, 1]);
    const w = torch.tensor([0, 1, 0, 3], { dtype: "float32" });
    const g = same(
      (generator) => torch.multinomial(w, 5, true, { generator }),
      (generator) => torch.multinomial(w, { numSamples: 5, replacement: true, generator }),
      (generator) => w.multinomial(5, true, { generator }),
      (generator) => w.multinomial(5, { replacement: true, generator }),
    );
    expect(g.every((i) => i === 1n || i === 3n)).toBe(true);
    const h = same((generator) => torch.multinomial(w, 2, { generator }), (generator) => w.multinomial({ numSamples: 2, generator }));
    expect(h.map(Number).sort()).toEqual([1, 3]);
    for (const t of [mean, std, probs, w]) t.dispose();
  });

  test("the *Like forms and the in-place fills", () => {
    const x = torch.zeros([2, 2], { dtype: "float64" });
    same((generator) => torch.randLike(x, { generator }), (generator) => torch.randLike(x, { generator, dtype: "float64" }));
    same((generator) => torch.randnLike(x, { generator }), (generator) => torch.randnLike(x, { generator, device: x.device }));
    const i = same(
      (generator) => torch.randintLike(x, 4, { generator }),
      (generator) => torch.randintLike(x, { high: 4, generator }),
      (generator) => torch.randintLike(x, 0, 4, { generator }),
      (generator) => torch.randintLike(x, { low: 0, high: 4, generator }),
    );
    expect(i.every((v) => Number(v) >= 0 && Number(v) < 4)).toBe(true);
    const fill = (call: (t: torch.Tensor, g: torch.Generator) => torch.Tensor) => (g: torch.Generator) => {
      const t = torch.zeros([3], { dtype: "float64" });
      expect(call(t, g)).toBe(t);
      return t;
    };
    const u = same(
      fill((t, generator) => t.uniform_(2, 3, { generator })),
      fill((t, generator) => t.uniform_(2, { to: 3, generator })),
      fill((t, generator) => t.uniform_({ from: 2, to: 3, generator })),
    );
    expect(u.every((v) => Number(v) >= 2 && Number(v) < 3)).toBe(true);
    const n = same(
      fill((t, generator) => t.normal_(7, 0, { generator })),
      fill((t, generator) => t.normal_({ mean: 7, std: 0, generator })),
    );
    expect(n).toEqual([7, 7, 7]);
    same(fill((t, generator) => t.normal_({ generator })), fill((t, generator) => t.normal_(0, 1, { generator })));
    x.dispose();
  });
});

describe("dropout", () => {
  eagerSuite();

  test("zeroes about p of the elements and scales the rest by 1/(1-p)", () => {
    const x = torch.full([N], 2, { dtype: "float32" });
    const y = dropout(x, { p: 0.25, generator: new torch.Generator({ seed: 1 }) });
    const v = valuesOf(y);
    const kept = v.filter((t) => t !== 0);
    expect(kept.every((t) => Math.abs(t - 2 / 0.75) < 1e-6)).toBe(true);
    expect(Math.abs(kept.length / N - 0.75)).toBeLessThan(5 * Math.sqrt(0.25 * 0.75 / N));
    const again = dropout(x, { p: 0.25, generator: new torch.Generator({ seed: 1 }) });
    expect(valuesOf(again)).toEqual(v);
    for (const t of [y, again]) t.dispose();
    const evalCopy = torch.nn.functional.dropout(x, { p: 0.25, training: false });
    expect(evalCopy).not.toBe(x);
    expect(valuesOf(evalCopy).every((t) => t === 2)).toBe(true);
    evalCopy.dispose();
    const all = dropout(x, { p: 1 });
    expect(valuesOf(all).every((t) => t === 0)).toBe(true);
    all.dispose();
    x.dispose();
  });
});

describe("random op errors", () => {
  eagerSuite();

  test("bad arguments throw typed errors before any draw", () => {
    const g = new torch.Generator({ seed: 1 });
    const f = torch.zeros(3);
    const i = torch.zeros(3, { dtype: "int32" });
    const bad: Array<[() => unknown, new (...a: never[]) => Error, RegExp]> = [
      [() => torch.rand(2, { dtype: "int32", generator: g }), torch.DTypeError, /rand.*not implemented for int32/],
      [() => torch.randn([-1]), torch.ShapeError, /non-negative integers/],
      [() => torch.randint(5, 5, [2]), torch.ArgumentError, /expects 'from' to be less than 'to'/],
      [() => torch.randint(0, 300, [2], { dtype: "uint8" }), torch.ArgumentError, /does not fit in uint8/],
      [() => torch.randint(5, 3 as never), torch.ArgumentError, /randint\(high, size, [\s\S]*randint\(low, high, size, /],
      [() => torch.randperm(257, { dtype: "uint8" }), torch.ArgumentError, /do not fit in uint8/],
      [() => torch.randperm(3, { dtype: "bool" }), torch.DTypeError, /bool/],
      [() => torch.normal(0, -1, [2]), torch.ArgumentError, /std >= 0/],
      [() => torch.normal(0, 1 as never), torch.ArgumentError, /no signature fits[\s\S]*normal\(mean: float, std: float, size: int\[\], \*, generator\?: torch.Generator, dtype\?: dtype, device\?: device, requiresGrad: bool = false\): missing the required argument "size"/],
      [() => torch.bernoulli(i), torch.DTypeError, /floating/],
      [() => torch.bernoulli(f, { p: 2 }), torch.ArgumentError, /0 <= p <= 1/],
      [() => torch.multinomial(f, 4), torch.ArgumentError, /without replacement/],
      [() => torch.multinomial(f, 0), torch.ArgumentError, /n_sample <= 0/],
      [() => i.uniform_(), torch.DTypeError, /uniform_/],
      [() => f.uniform_(2, 1), torch.ArgumentError, /'from' <= 'to'/],
      [() => dropout(f, { p: 1.5 }), torch.ArgumentError, /between 0 and 1/],
      [() => torch.rand(2, { generator: {} as never }), torch.ArgumentError, /torch.Generator/],
      [() => torch.rand(2, { seed: 1 } as never), torch.ArgumentError, /rand\(\.\.\.size, \*, generator\?, dtype\?, device\?, requiresGrad = false\): got an unknown option "seed"/],
      [() => torch.multinomial(f, 2, { replacment: true } as never), torch.ArgumentError, /unknown option "replacment"; did you mean "replacement"\?/],
      [() => f.uniform_({ low: 0 } as never), torch.ArgumentError, /Tensor\.uniform_\(from = 0, to = 1, \*, generator\?\): got an unknown option "low"/],
    ];
    for (const [fn, type, message] of bad) {
      let error: unknown;
      try {
        fn();
      } catch (err) {
        error = err;
      }
      expect(error, String(fn)).toBeInstanceOf(type);
      expect((error as Error).message).toMatch(message);
    }
    expect(g.getState().counter).toBe(0);
    for (const t of [f, i]) t.dispose();
  });
});
