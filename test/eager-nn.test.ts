// torch.nn.functional on the real CPU plugin (src/ops/nn/): float64 references for what the
// PyTorch fixtures do not cover (batchNorm's running-statistics update, option combinations of
// crossEntropy, fully masked attention rows, oneHot's inferred class count) and the typed errors
// thrown before any native call. Values for the common cases come from test/conformance.test.ts.
import { describe, expect, it } from "vitest";
import * as torch from "../src/index.js";
import { eagerSuite, expectTensor, missing, scoped, valuesOf } from "./eager/helpers.js";
import { data } from "./eager/ref.js";

const F = torch.nn.functional;
const test = missing ? it.skip : it;
if (missing) it.skip(`skipped: ${missing}`, () => {});

const f64 = (values: number[], shape: number[]) => torch.tensor(values, { dtype: "float64", shape });
const i64 = (values: number[], shape = [values.length]) => torch.tensor(values.map(BigInt), { dtype: "int64", shape });
const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);

/** log-softmax of each row of a [rows, C] row-major array, in float64. */
function logSoftmaxRows(x: number[], classes: number): number[] {
  const out: number[] = [];
  for (let r = 0; r < x.length / classes; r++) {
    const row = x.slice(r * classes, (r + 1) * classes);
    const m = Math.max(...row);
    const lse = m + Math.log(sum(row.map((v) => Math.exp(v - m))));
    out.push(...row.map((v) => v - lse));
  }
  return out;
}

describe("torch.nn.functional (eager)", () => {
  eagerSuite();

  test("is reachable as torch.nn.functional and shares the torch.* functions", () => {
    expect(F.relu).toBe(torch.relu);
    expect(F.softmax).toBe(torch.softmax);
    expect(typeof F.crossEntropy).toBe("function");
  });

  test("batchNorm in training mode normalises with batch statistics and updates the running ones in place", () =>
    scoped(() => {
      const [n, ch, l] = [4, 3, 2];
      const xs = data(n * ch * l, 3);
      const x = f64(xs, [n, ch, l]);
      const rm = f64([0.5, -1, 2], [ch]);
      const rv = f64([1, 2, 0.5], [ch]);
      const w = f64([1.5, -0.5, 2], [ch]);
      const b = f64([0.1, 0.2, -0.3], [ch]);
      const momentum = 0.2;
      const eps = 1e-5;
      const out = F.batchNorm(x, rm, rv, { weight: w, bias: b, training: true, momentum, eps });
      const at = (i: number, c: number, k: number) => xs[(i * ch + c) * l + k]!;
      const means: number[] = [];
      const vars: number[] = [];
      for (let c = 0; c < ch; c++) {
        const vals: number[] = [];
        for (let i = 0; i < n; i++) for (let k = 0; k < l; k++) vals.push(at(i, c, k));
        const m = sum(vals) / vals.length;
        means.push(m);
        vars.push(sum(vals.map((v) => (v - m) ** 2)) / vals.length);
      }
      const want: number[] = [];
      const wv = [1.5, -0.5, 2];
      const bv = [0.1, 0.2, -0.3];
      for (let i = 0; i < n; i++) for (let c = 0; c < ch; c++) for (let k = 0; k < l; k++) {
        want.push(((at(i, c, k) - means[c]!) / Math.sqrt(vars[c]! + eps)) * wv[c]! + bv[c]!);
      }
      expectTensor(out, { dtype: "float64", shape: [n, ch, l], values: want }, 1e-12);
      const count = n * l;
      expectTensor(rm, { dtype: "float64", shape: [ch], values: [0.5, -1, 2].map((r, c) => (1 - momentum) * r + momentum * means[c]!) }, 1e-12);
      expectTensor(rv, { dtype: "float64", shape: [ch], values: [1, 2, 0.5].map((r, c) => (1 - momentum) * r + momentum * vars[c]! * (count / (count - 1))) }, 1e-12);
      expect(rm.isDisposed).toBe(true); // expectTensor disposed it: the rebound buffer was a live, owned tensor
    }));

  test("half-precision average pools and einsum sums accumulate in float32 and round once (float64 references)", () =>
    scoped(() => {
      const n = 1024;
      const raw = Float32Array.from({ length: n }, (_, i) => 0.3 + 0.06 * ((i * 37) % 101) / 100);
      const x = torch.tensor(raw, { dtype: "bfloat16", shape: [1, 1, n] });
      const stored = Array.from(x.dataSync() as Float32Array); // the values as bfloat16 holds them
      const mean = stored.reduce((s, v) => s + v, 0) / n;
      const bf16Ulp = 2 ** (Math.floor(Math.log2(mean)) - 7);
      for (const y of [F.avgPool1d(x, n), F.adaptiveAvgPool1d(x, 1), F.adaptiveAvgPool2d(x.reshape(1, 1, 32, 32), 1)]) {
        expect(y.dtype).toBe("bfloat16");
        expect(Math.abs(valuesOf(y)[0]! - mean)).toBeLessThanOrEqual(bf16Ulp); // half accumulation gives 0.5
      }
      const ones = torch.ones([n], { dtype: "bfloat16" });
      expectTensor(torch.einsum("i->", ones), { dtype: "bfloat16", shape: [], values: [n] }, 0); // half accumulation stops at 256
    }));

  test("batchNorm in evaluation mode uses the running statistics and leaves them unchanged", () =>
    scoped(() => {
      const x = f64([1, 2, 3, 4], [2, 2]);
      const rm = f64([1, -1], [2]);
      const rv = f64([4, 0.25], [2]);
      expectTensor(F.batchNorm(x, rm, rv, { eps: 0 }), { dtype: "float64", shape: [2, 2], values: [0, 6, 1, 10] }, 1e-12);
      expect(valuesOf(rm)).toEqual([1, -1]);
      expect(valuesOf(rv)).toEqual([4, 0.25]);
    }));

  test("crossEntropy with K-dim input, weights, ignoreIndex and labelSmoothing together matches a float64 reference", () =>
    scoped(() => {
      // input [N=2, C=3, d=2], target [2, 2] with one ignored element
      const [n, classes, d] = [2, 3, 2];
      const xs = data(n * classes * d, 7);
      const targets = [0, 2, -1, 1];
      const weights = [0.5, 2, 1.5];
      const eps = 0.2;
      // rows of class scores per (i, k)
      const rows: number[] = [];
      for (let i = 0; i < n; i++) for (let k = 0; k < d; k++) for (let c = 0; c < classes; c++) rows.push(xs[(i * classes + c) * d + k]!);
      const logp = logSoftmaxRows(rows, classes);
      let nll = 0;
      let smooth = 0;
      let wsum = 0;
      targets.forEach((t, e) => {
        if (t === -1) return;
        const lp = logp.slice(e * classes, (e + 1) * classes);
        nll += -weights[t]! * lp[t]!;
        smooth += -sum(lp.map((v, c) => v * weights[c]!));
        wsum += weights[t]!;
      });
      const want = (1 - eps) * (nll / wsum) + (smooth / wsum) * (eps / classes);
      const out = F.crossEntropy(f64(xs, [n, classes, d]), i64(targets, [n, d]), { weight: f64(weights, [classes]), ignoreIndex: -1, labelSmoothing: eps });
      expectTensor(out, { dtype: "float64", shape: [], values: [want] }, 1e-12);
    }));

  test("crossEntropy with class probabilities, weights and labelSmoothing (reduction none)", () =>
    scoped(() => {
      const xs = data(6, 2);
      const probs = [0.2, 0.3, 0.5, 1, 0, 0];
      const weights = [1, 2, 3];
      const eps = 0.1;
      const logp = logSoftmaxRows(xs, 3);
      const want = [0, 1].map((r) => -sum([0, 1, 2].map((c) => logp[r * 3 + c]! * weights[c]! * (probs[r * 3 + c]! * (1 - eps) + eps / 3))));
      const out = F.crossEntropy(f64(xs, [2, 3]), f64(probs, [2, 3]), { weight: f64(weights, [3]), labelSmoothing: eps, reduction: "none" });
      expectTensor(out, { dtype: "float64", shape: [2], values: want }, 1e-12);
    }));

  test("nllLoss: a 1-d input with a 0-d target, and a mean over only ignored targets is NaN as in PyTorch", () =>
    scoped(() => {
      const lp = f64([-1, -2, -3], [3]);
      expectTensor(F.nllLoss(lp, torch.tensor(2n, { dtype: "int64" })), { dtype: "float64", shape: [], values: [3] }, 0);
      expectTensor(F.nllLoss(f64([-1, -2, -3, -4], [2, 2]), i64([-100, -100])), { dtype: "float64", shape: [], values: [NaN] }, 0);
      expectTensor(F.nllLoss(f64([-1, -2, -3, -4], [2, 2]), i64([1, -100]), { reduction: "none" }), { dtype: "float64", shape: [2], values: [2, 0] }, 0);
    }));

  test("oneHot infers the class count from the largest value and rejects negative values", () =>
    scoped(() => {
      expectTensor(F.oneHot(i64([2, 0])), { dtype: "int64", shape: [2, 3], values: [0, 0, 1, 1, 0, 0] }, 0);
      expect(() => F.oneHot(i64([1, -1]))).toThrow(torch.ArgumentError);
      expect(() => F.oneHot(i64([1, 3]), { numClasses: 3 })).toThrow(/smaller than numClasses \(3\), got 3/);
      expectTensor(F.oneHot(i64([]), { numClasses: 2 }), { dtype: "int64", shape: [0, 2], values: [] }, 0);
      expect(() => F.oneHot(i64([]))).toThrow(/empty/);
      expect(() => F.oneHot(torch.tensor([1, 2], { dtype: "int32" }))).toThrow(torch.DTypeError);
    }));

  test("scaledDotProductAttention: a fully masked row gives zeros, masks broadcast over batch dims", () =>
    scoped(() => {
      const q = f64([1, 0, 0, 1], [1, 2, 2]);
      const k = f64([1, 0, 0, 1], [1, 2, 2]);
      const v = f64([1, 2, 3, 4], [1, 2, 2]);
      const mask = torch.tensor([true, false, false, false], { shape: [2, 2] });
      // row 0 attends only to key 0 → value 0; row 1 attends to nothing → zeros
      expectTensor(F.scaledDotProductAttention(q, k, v, { attnMask: mask }), { dtype: "float64", shape: [1, 2, 2], values: [1, 2, 0, 0] }, 1e-12);
      // no mask, scale 1: softmax([1, 0]) and softmax([0, 1])
      const a = Math.E / (Math.E + 1);
      const want = [a * 1 + (1 - a) * 3, a * 2 + (1 - a) * 4, (1 - a) * 1 + a * 3, (1 - a) * 2 + a * 4];
      expectTensor(F.scaledDotProductAttention(q, k, v, { scale: 1 }), { dtype: "float64", shape: [1, 2, 2], values: want }, 1e-12);
    }));

  test("causal scaledDotProductAttention over long sequences (run in blocks of query rows) equals a float64 reference", () =>
    scoped(() => {
      // query row i sees keys 0 … i; rows at or past S see every key
      const reference = (q: number[], k: number[], v: number[], heads: number, l: number, s: number, d: number): number[] => {
        const out: number[] = [];
        for (let h = 0; h < heads; h++)
          for (let i = 0; i < l; i++) {
            const seen = Math.min(i + 1, s);
            const scores = Array.from({ length: seen }, (_, j) => sum(Array.from({ length: d }, (_, c) => q[(h * l + i) * d + c]! * k[(h * s + j) * d + c]!)) / Math.sqrt(d));
            const top = Math.max(...scores);
            const w = scores.map((x) => Math.exp(x - top));
            const total = sum(w);
            for (let c = 0; c < d; c++) out.push(sum(w.map((x, j) => x * v[(h * s + j) * d + c]!)) / total);
          }
        return out;
      };
      for (const [l, s] of [[130, 130], [200, 70], [140, 260]] as const) {
        const [heads, d] = [2, 4];
        const qv = data(heads * l * d, 1), kv = data(heads * s * d, 2), vv = data(heads * s * d, 3);
        const got = F.scaledDotProductAttention(f64(qv, [heads, l, d]), f64(kv, [heads, s, d]), f64(vv, [heads, s, d]), { isCausal: true });
        expectTensor(got, { dtype: "float64", shape: [heads, l, d], values: reference(qv, kv, vv, heads, l, s, d) }, 1e-12);
      }
      // [B, H, L, d], then the heads merged as a transformer merges them (the blocks are joined as [B, L, H, d])
      const [b, heads, l, d] = [2, 3, 130, 4];
      const qv = data(b * heads * l * d, 4), kv = data(b * heads * l * d, 5), vv = data(b * heads * l * d, 6);
      const want = reference(qv, kv, vv, b * heads, l, l, d);
      const got = F.scaledDotProductAttention(f64(qv, [b, heads, l, d]), f64(kv, [b, heads, l, d]), f64(vv, [b, heads, l, d]), { isCausal: true });
      const mergedHeads = got.transpose(1, 2).reshape(b, l, heads * d);
      expectTensor(got, { dtype: "float64", shape: [b, heads, l, d], values: want }, 1e-12);
      const merged: number[] = [];
      for (let bi = 0; bi < b; bi++)
        for (let i = 0; i < l; i++)
          for (let h = 0; h < heads; h++) for (let c = 0; c < d; c++) merged.push(want[((bi * heads + h) * l + i) * d + c]!);
      expectTensor(mergedHeads, { dtype: "float64", shape: [b, l, heads * d], values: merged }, 1e-12);
    }));

  test("scaledDotProductAttention with enableGqa equals attention with each key/value head repeated", () =>
    scoped(() => {
      // 4 query heads share 2 key/value heads: query heads 0, 1 use kv head 0; 2, 3 use kv head 1
      const [hq, hk, l, s, d] = [4, 2, 3, 5, 4];
      const qv = data(hq * l * d, 1);
      const kv = data(hk * s * d, 2);
      const vv = data(hk * s * d, 3);
      const repeat = (xs: number[]) => Array.from({ length: hq }, (_, h) => xs.slice(Math.floor(h / 2) * s * d, (Math.floor(h / 2) + 1) * s * d)).flat();
      const want = valuesOf(F.scaledDotProductAttention(f64(qv, [hq, l, d]), f64(repeat(kv), [hq, s, d]), f64(repeat(vv), [hq, s, d]), { isCausal: true }));
      const got = F.scaledDotProductAttention(f64(qv, [1, hq, l, d]), f64(kv, [1, hk, s, d]), f64(vv, [1, hk, s, d]), { isCausal: true, enableGqa: true });
      expectTensor(got, { dtype: "float64", shape: [1, hq, l, d], values: want }, 1e-12);
      expect(() => F.scaledDotProductAttention(f64(qv, [hq, l, d]), f64(data(3 * s * d), [3, s, d]), f64(data(3 * s * d), [3, s, d]), { enableGqa: true })).toThrow(/multiple/);
    }));

  test("scaledDotProductAttention with dropoutP drops attention weights with dropout's mask from the same generator state", () =>
    scoped(() => {
      const [l, s, d] = [6, 7, 4];
      const q = f64(data(2 * l * d, 4), [2, l, d]);
      const k = f64(data(2 * s * d, 5), [2, s, d]);
      const v = f64(data(2 * s * d, 6), [2, s, d]);
      const got = F.scaledDotProductAttention(q, k, v, { dropoutP: 0.4, generator: new torch.Generator({ seed: 11 }) });
      const weights = torch.softmax(torch.matmul(q, k.transpose(-2, -1)).mul(1 / Math.sqrt(d)), -1);
      const dropped = F.dropout(weights, { p: 0.4, generator: new torch.Generator({ seed: 11 }) });
      const zeros = valuesOf(dropped).filter((x) => x === 0).length;
      expect(zeros).toBeGreaterThan(0.2 * 2 * l * s);
      expect(zeros).toBeLessThan(0.6 * 2 * l * s);
      expectTensor(got, { dtype: "float64", shape: [2, l, d], values: valuesOf(torch.matmul(dropped, v)) }, 1e-12);
      expectTensor(F.scaledDotProductAttention(q, k, v, { dropoutP: 1 }), { dtype: "float64", shape: [2, l, d], values: new Array(2 * l * d).fill(0) }, 0);
      expect(() => F.scaledDotProductAttention(q, k, v, { dropoutP: 1.5 })).toThrow(torch.ArgumentError);
    }));

  test("pairwiseDistance and normalize with p = Infinity, and cosineSimilarity of zero vectors", () =>
    scoped(() => {
      const a = f64([1, -4, 2, 0, 0, 0], [2, 3]);
      const b = f64([0, 0, 0, 0, 0, 0], [2, 3]);
      expectTensor(F.pairwiseDistance(a, b, { p: Infinity, eps: 0 }), { dtype: "float64", shape: [2], values: [4, 0] }, 0);
      expectTensor(F.normalize(a, { p: Infinity }), { dtype: "float64", shape: [2, 3], values: [0.25, -1, 0.5, 0, 0, 0] }, 1e-15);
      expectTensor(F.cosineSimilarity(a, b), { dtype: "float64", shape: [2], values: [0, 0] }, 0);
    }));

  test("PyTorch's calling convention: positional in PyTorch's order or by name in one options object, keyword-only after *", () =>
    scoped(() => {
      const x = f64(data(8, 5), [2, 4]);
      const same = (a: torch.Tensor, b: torch.Tensor) => expectTensor(a, { dtype: b.dtype, shape: [...b.shape], values: valuesOf(b) }, 0);
      same(F.softmax(x, -1), F.softmax(x, { dim: -1 }));
      same(x.logSoftmax(0, { dtype: "float32" }), torch.logSoftmax(x, { dim: 0, dtype: "float32" }));
      same(F.leakyRelu(x, 0.2), F.leakyRelu(x, { negativeSlope: 0.2 }));
      same(F.hardtanh(x, -0.5, 0.5), F.hardtanh(x, { minVal: -0.5, maxVal: 0.5 }));
      same(F.softplus(x, 2, 1), F.softplus(x, { beta: 2, threshold: 1 }));
      const w = f64([1, 2, 3, 4], [4]);
      const b = f64([0, 0.5, 0, -0.5], [4]);
      same(F.layerNorm(x, [4], w, b, 1e-3), F.layerNorm(x, [4], { weight: w, bias: b, eps: 1e-3 }));
      same(F.normalize(x, 1, 0), F.normalize(x, { p: 1, dim: 0 }));
      same(F.cosineSimilarity(x, w, -1, 1e-6), F.cosineSimilarity(x, w, { dim: -1, eps: 1e-6 }));
      // crossEntropy's ignoreIndex, reduction, labelSmoothing follow PyTorch's deprecated size_average/reduce: keyword-only here
      const t = i64([3, 0]);
      const cw = f64([1, 2, 1, 0.5], [4]);
      same(F.crossEntropy(x, t, cw, { reduction: "sum", labelSmoothing: 0.1 }), F.crossEntropy(x, t, { weight: cw, reduction: "sum", labelSmoothing: 0.1 }));
      expect(() => (F.crossEntropy as (...a: unknown[]) => unknown)(x, t, cw, -100)).toThrow(/at most 3 positional arguments.*after \*/);
      same(F.huberLoss(x, x.mul(0.5), "sum", 0.5), F.huberLoss(x, x.mul(0.5), { reduction: "sum", delta: 0.5 }));
      // conv2d(input, weight, bias, stride, padding, dilation, groups) and maxPool2d's returnIndices picking the result
      const img = f64(data(2 * 5 * 5, 3), [1, 2, 5, 5]);
      const k = f64(data(3 * 2 * 3 * 3, 4), [3, 2, 3, 3]);
      same(F.conv2d(img, k, null, 1, "same", 1, 1), F.conv2d(img, k, { padding: "same" }));
      const [v, i] = F.maxPool2d(img, 2, null, 0, 1, false, true);
      const o = F.maxPool2d(img, 2, { returnIndices: true });
      same(v, o[0]);
      same(i, o[1]);
      same(F.maxPool2d(img, 2), o[0]);
      same(F.pad(x, [1, 2], "replicate"), F.pad(x, [1, 2], { mode: "replicate" }));
      same(F.oneHot(t, 5), F.oneHot(t, { numClasses: 5 }));
      // keyword-only (gelu's approximate, sdpa's scale) and what we do not support (inplace) are errors
      expect(() => (F.gelu as (...a: unknown[]) => unknown)(x, "tanh")).toThrow(/gelu\(input, \*, approximate = "none"\): takes at most 1 positional argument/);
      expect(() => F.leakyRelu(x, { inplace: true } as never)).toThrow(torch.ArgumentError);
      expect(() => F.softmax(x, { dims: -1 } as never)).toThrow(/softmax\(input, dim, \*, dtype\?\): got an unknown option "dims"; did you mean "dim"\?/);
      expect(() => F.dropout(x, { p: 0.2, training: false, generatr: null } as never)).toThrow(torch.ArgumentError);
    }));

  test("typed errors name the op, the shapes and the fix, before any native call", () =>
    scoped(() => {
      const x = torch.zeros([2, 4]);
      const ints = torch.tensor([1, 2], { dtype: "int32" });
      expect(() => F.layerNorm(x, [3])).toThrow(/layerNorm: given normalizedShape=\[3\].*\[2, 4\]/);
      expect(() => F.layerNorm(x, [4], { weight: torch.zeros([3]) })).toThrow(torch.ShapeError);
      expect(() => F.groupNorm(torch.zeros([2, 4, 3]), 3)).toThrow(/divisible by numGroups/);
      expect(() => F.glu(torch.zeros([3, 3]))).toThrow(torch.ShapeError);
      expect(() => F.leakyRelu(ints)).toThrow(torch.DTypeError);
      expect(() => F.hardtanh(x, { minVal: 2, maxVal: 1 })).toThrow(torch.ArgumentError);
      expect(() => F.gelu(x, { approximate: "erf" as never })).toThrow(torch.ArgumentError);
      expect(() => F.linear(x, torch.zeros([3, 5]))).toThrow(/linear: input \[2, 4\] and weight \[3, 5\]/);
      expect(() => F.mseLoss(x, x, { reduction: "avg" as never })).toThrow(torch.ArgumentError);
      expect(() => F.crossEntropy(x, torch.tensor([0, 1], { dtype: "int32" }))).toThrow(/int64/);
      expect(() => F.crossEntropy(x, i64([0, 1, 2]))).toThrow(torch.ShapeError);
      expect(() => F.crossEntropy(x, i64([0, 1]), { labelSmoothing: 1.5 })).toThrow(torch.ArgumentError);
      expect(() => F.binaryCrossEntropy(x, torch.zeros([4]))).toThrow(/target size \[4\]/);
      expect(() => F.batchNorm(x, null, null)).toThrow(/evaluation mode/);
      expect(() => F.batchNorm(torch.zeros([1, 2]), null, null, { training: true })).toThrow(/more than 1 value per channel/);
      const q = torch.zeros([2, 3, 4]);
      expect(() => F.scaledDotProductAttention(q, q, q, { isCausal: true, attnMask: torch.zeros([3, 3]) })).toThrow(torch.ArgumentError);
      expect(() => F.scaledDotProductAttention(q, torch.zeros([2, 3, 5]), q)).toThrow(torch.ShapeError);
      expect(() => F.klDiv(x, x, { reduction: "max" as never })).toThrow(torch.ArgumentError);
    }));
});

describe("torch.nn.functional.embedding (eager)", () => {
  eagerSuite();

  /** The rows of a row-major [rows, dim] table at each index, clamped into range as ours are. */
  const lookUp = (table: number[], dim: number, idx: number[]): number[] => {
    const rows = table.length / dim;
    return idx.flatMap((i) => {
      const r = Math.min(Math.max(i, 0), rows - 1);
      return table.slice(r * dim, (r + 1) * dim);
    });
  };
  const table = data(5 * 3, 9).map((v) => v * 4);

  test("looks up rows for any integer index dtype and shape; out-of-range indices clamp", () =>
    scoped(() => {
      const w = f64(table, [5, 3]);
      const idx = [4, 0, 2, 2, 1, 3];
      for (const dtype of ["int8", "uint8", "int16", "int32", "int64", "uint32"] as const) {
        const i = torch.tensor(idx, { dtype, shape: [2, 1, 3] });
        expectTensor(F.embedding(i, w), { dtype: "float64", shape: [2, 1, 3, 3], values: lookUp(table, 3, idx) }, 0);
      }
      expectTensor(F.embedding(i64([3], []), w), { dtype: "float64", shape: [3], values: lookUp(table, 3, [3]) }, 0);
      expectTensor(F.embedding(i64([], [0, 2]), w), { dtype: "float64", shape: [0, 2, 3], values: [] }, 0);
      expectTensor(F.embedding(i64([-1, 7, 5]), w), { dtype: "float64", shape: [3, 3], values: lookUp(table, 3, [-1, 7, 5]) }, 0);
      const ints = torch.tensor([10, 20, 30, 40], { dtype: "int32", shape: [2, 2] });
      expectTensor(F.embedding(i64([1, 1, 0]), ints), { dtype: "int32", shape: [3, 2], values: [30, 40, 30, 40, 10, 20] }, 0);
      // gradient-only options leave the values alone
      const opts = { paddingIdx: -1, scaleGradByFreq: true, sparse: true };
      expectTensor(F.embedding(i64(idx), w, opts), { dtype: "float64", shape: [6, 3], values: lookUp(table, 3, idx) }, 0);
    }));

  test("maxNorm renormalises the looked-up rows of weight in place (each row once), in normType's norm", () =>
    scoped(() => {
      for (const [maxNorm, p] of [[1.5, 2], [2, 1], [0.5, Infinity]] as const) {
        const w = f64(table, [5, 3]);
        const alias = w;
        const idx = [3, 1, 3, 0, 1, 3];
        const want = [...table];
        for (const r of new Set(idx)) {
          const row = table.slice(3 * r, 3 * r + 3).map(Math.abs);
          const norm = p === Infinity ? Math.max(...row) : p === 1 ? sum(row) : Math.sqrt(sum(row.map((v) => v * v)));
          if (norm > maxNorm) for (let j = 0; j < 3; j++) want[3 * r + j] = table[3 * r + j]! * (maxNorm / (norm + 1e-7));
        }
        expect(want).not.toEqual(table); // some row is long enough to be scaled
        const out = F.embedding(i64(idx, [2, 3]), w, { maxNorm, normType: p });
        expectTensor(out, { dtype: "float64", shape: [2, 3, 3], values: lookUp(want, 3, idx) }, 1e-12);
        expect(alias.isDisposed).toBe(false);
        valuesOf(alias).forEach((v, k) => expect(Math.abs(v - want[k]!), `weight element ${k}`).toBeLessThanOrEqual(1e-12));
      }
      // float16: the scale 1/5 is rounded to float16 (0.199951171875) before it multiplies, as in PyTorch
      // (whose result is [0.599609375, 0.7998046875], where 3 · 0.2 would round to 0.60009765625)
      const h = torch.tensor([3, 4, 0.5, 0.5], { dtype: "float16", shape: [2, 2] });
      const halfRows = [0.599609375, 0.7998046875, 0.5, 0.5];
      expectTensor(F.embedding(i64([0, 1]), h, { maxNorm: 1 }), { dtype: "float16", shape: [2, 2], values: halfRows }, 0);
      expectTensor(h, { dtype: "float16", shape: [2, 2], values: halfRows }, 0);
    }));

  test("typed errors for bad weights, indices and options", () =>
    scoped(() => {
      const w = torch.zeros([4, 2]);
      const idx = i64([0, 1]);
      expect(() => F.embedding(idx, torch.zeros([4]))).toThrow(/'weight' must be 2-D/);
      expect(() => F.embedding(torch.zeros([2]), w)).toThrow(torch.DTypeError);
      expect(() => F.embedding(idx, w, { paddingIdx: 4 })).toThrow(/paddingIdx must be an integer within num_embeddings/);
      expect(() => F.embedding(idx, w, { paddingIdx: -5 })).toThrow(torch.ArgumentError);
      expect(() => F.embedding(idx, torch.zeros([4, 2], { dtype: "int32" }), { maxNorm: 1 })).toThrow(/maxNorm needs a floating weight/);
      expect(() => F.embedding(idx, w, { maxNorm: "1" as never })).toThrow(torch.ArgumentError);
      expect(() => F.embedding(idx, w, { max_norm: 1 } as never)).toThrow(/embedding\(input, weight, paddingIdx\?, maxNorm\?, .*unknown option "max_norm"; did you mean "maxNorm"/);
      expect(() => F.embedding(idx, torch.zeros([0, 2]))).toThrow(/empty weight/);
      expect(() => F.embedding([0, 1] as never, w)).toThrow(torch.ArgumentError);
    }));
});
