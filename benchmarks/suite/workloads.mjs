// The workloads of the benchmark suite, written with torch-pjrt's public API. Each returns its
// measurement and a result that the runner compares with the PyTorch peer's (same inputs from
// data.mjs) before it trusts the timing. benchmarks/suite/peer.py holds the same workloads in PyTorch.
import { detValues, median, timeIt } from "./data.mjs";

const close = (a, b, rel) => Math.abs(a - b) <= rel * Math.max(1, Math.abs(b));

// Ops return once their work is enqueued on the device; a timed region ends with the device done, as
// PyTorch's CUDA benchmarks call torch.cuda.synchronize().
const synchronized = (torch, fn) => () => {
  const result = fn();
  torch.runtime.synchronize();
  return result;
};

export const MATMUL_SIZES = [256, 1024, 4096];

function matrix(torch, n, seed) {
  return torch.tensor(detValues(n * n, seed), { shape: [n, n], dtype: "float32" });
}

/** W1: C = A·B for n×n float32; GFLOP/s. A few entries are checked against float64 first. */
export function matmul(torch, n) {
  const a = matrix(torch, n, 1);
  const b = matrix(torch, n, 2);
  const av = detValues(n * n, 1);
  const bv = detValues(n * n, 2);
  const c = torch.matmul(a, b);
  const cv = c.dataSync();
  for (let k = 0; k < 16; k++) {
    const i = (k * 131) % n;
    const j = (k * 197 + 7) % n;
    let want = 0;
    for (let p = 0; p < n; p++) want += av[i * n + p] * bv[p * n + j];
    if (!close(cv[i * n + j], want, 1e-3)) throw new Error(`matmul ${n}: C[${i}][${j}] = ${cv[i * n + j]}, float64 says ${want}`);
  }
  c.dispose();
  // The check above compiled the unit; the 4096³ one is timed once (about a second).
  const t = timeIt(synchronized(torch, () => torch.matmul(a, b).dispose()), n >= 4096 ? { warmup: 0, minReps: 1, minMs: 0 } : {});
  a.dispose();
  b.dispose();
  return { value: (2 * n ** 3) / (t.ms * 1e6), unit: "GFLOP/s", reps: t.reps, higherIsBetter: true };
}

/**
 * W2: median µs of a cache-hit eager add of two 4-element tensors, read back once at the end: the
 * dispatch latency (the add is enqueued; the device runs it meanwhile), as PyTorch's CUDA eager ops
 * are timed. W2b below includes the device's work.
 */
export function eagerAdd(torch) {
  const a = torch.tensor([1, 2, 3, 4], { dtype: "float32" });
  const b = torch.tensor([10, 20, 30, 40], { dtype: "float32" });
  for (let i = 0; i < 2000; i++) torch.add(a, b).dispose();
  const times = new Array(10_000);
  let last;
  for (let i = 0; i < times.length; i++) {
    const t0 = process.hrtime.bigint();
    last?.dispose();
    last = torch.add(a, b);
    times[i] = Number(process.hrtime.bigint() - t0) / 1000;
  }
  const values = Array.from(last.dataSync());
  if (values.join(",") !== "11,22,33,44") throw new Error(`eager add gave ${values}`);
  last.dispose();
  a.dispose();
  b.dispose();
  return { value: median(times), unit: "µs", reps: times.length, higherIsBetter: false };
}

/**
 * W2b: the same add as throughput: 10,000 back-to-back adds (each result disposed) timed as one
 * loop, µs per add; the median of 7 loops. Unlike W2's per-call median it includes the periodic
 * costs (collection, finalization, allocation) a real loop pays.
 */
export function eagerAddLoop(torch) {
  const a = torch.tensor([1, 2, 3, 4], { dtype: "float32" });
  const b = torch.tensor([10, 20, 30, 40], { dtype: "float32" });
  for (let i = 0; i < 2000; i++) torch.add(a, b).dispose();
  const n = 10_000;
  const perAdd = [];
  for (let loop = 0; loop < 7; loop++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) torch.add(a, b).dispose();
    torch.runtime.synchronize();
    perAdd.push(Number(process.hrtime.bigint() - t0) / 1000 / n);
  }
  const check = torch.add(a, b);
  const values = Array.from(check.dataSync());
  if (values.join(",") !== "11,22,33,44") throw new Error(`eager add gave ${values}`);
  check.dispose();
  a.dispose();
  b.dispose();
  return { value: median(perAdd), unit: "µs", reps: 7 * n, higherIsBetter: false };
}

/**
 * W3: tanh(x*1.5+0.5) * sigmoid(x) - x/3 on 1M elements; ms per evaluation. `how`: "eager" (one
 * executable per op), "compiled" (torch.compile: one executable; `firstMs` is its first call) or
 * "fused" (fused eager mode).
 */
export function elementwiseChain(torch, how = "eager") {
  const n = 1 << 20;
  const xv = detValues(n, 3, 8);
  const x = torch.tensor(xv, { shape: [n], dtype: "float32" });
  const body = (v) => v.mul(1.5).add(0.5).tanh().mul(v.sigmoid()).sub(v.div(3));
  const compiled = how === "compiled" ? torch.compile(body) : undefined;
  const chain = () => (compiled ? compiled(x) : torch.tidy(() => body(x)));
  if (how === "fused") torch.setEagerMode("fused");
  try {
    const result = measureChain(torch, xv, chain);
    return how === "eager" ? { ...result, firstMs: undefined } : result;
  } finally {
    torch.setEagerMode("strict");
    x.dispose();
  }
}

function measureChain(torch, xv, chain) {
  const n = xv.length;
  const start = performance.now();
  const y = chain();
  const yv = y.dataSync();
  for (let i = 0; i < n; i += 997) {
    const v = xv[i];
    const want = Math.tanh(v * 1.5 + 0.5) * (1 / (1 + Math.exp(-v))) - v / 3;
    if (!close(yv[i], want, 1e-5)) throw new Error(`chain[${i}] = ${yv[i]}, float64 says ${want}`);
  }
  const firstMs = performance.now() - start;
  y.dispose();
  // fused eager runs nothing for a result disposed unread: synchronize while it is alive
  const t = timeIt(() => {
    const out = chain();
    torch.runtime.synchronize();
    out.dispose();
  });
  return { value: t.ms, unit: "ms", reps: t.reps, higherIsBetter: false, firstMs };
}

function linear(torch, x, w, b) {
  const F = torch.nn?.functional;
  return F?.linear ? F.linear(x, w, { bias: b }) : torch.add(torch.matmul(x, torch.t(w)), b);
}

function crossEntropy(torch, logits, labels) {
  const F = torch.nn?.functional;
  if (F?.crossEntropy) return F.crossEntropy(logits, labels);
  const classes = logits.shape[1];
  const oneHot = torch.eq(torch.unsqueeze(labels, 1), torch.arange(classes));
  return torch.neg(torch.sum(torch.mul(torch.logSoftmax(logits, 1), oneHot))).div(logits.shape[0]);
}

/** Weights [out, in] and bias [out] as in nn.Linear, from the shared deterministic formula. */
function linearParams(torch, inF, outF, seed) {
  const scale = 2 / Math.sqrt(inF);
  return {
    w: torch.tensor(detValues(outF * inF, seed, scale), { shape: [outF, inF], dtype: "float32" }),
    b: torch.tensor(detValues(outF, seed + 1, 0.1), { shape: [outF], dtype: "float32" }),
  };
}

/**
 * W4's training setup: an MLP 784-512-512-10, a batch of 128, and `step()`: forward, softmax
 * cross-entropy, backward, and an SGD update (lr 0.01) in place; it returns the loss (the rest of the
 * step's tensors are disposed). `probe(phase)`, when given, is called inside the step after the
 * forward, the backward and the update (benchmarks/peak-memory.mjs reads torch.memory() there).
 */
export function mlpTraining(torch) {
  const x = torch.tensor(detValues(128 * 784, 5), { shape: [128, 784], dtype: "float32" });
  const labels = torch.tensor(Array.from({ length: 128 }, (_, i) => (i * 7) % 10), { dtype: "int64" });
  const layers = [linearParams(torch, 784, 512, 10), linearParams(torch, 512, 512, 20), linearParams(torch, 512, 10, 30)];
  const params = layers.flatMap((p) => [p.w, p.b]);
  for (const p of params) p.requiresGrad_();
  const step = (probe) =>
    torch.tidy(() => {
      let h = x;
      layers.forEach((p, i) => {
        h = linear(torch, h, p.w, p.b);
        if (i < layers.length - 1) h = torch.relu(h);
      });
      const loss = crossEntropy(torch, h, labels);
      probe?.("forward");
      loss.backward();
      probe?.("backward");
      torch.noGrad(() => {
        for (const p of params) p.sub_(p.grad.mul(0.01));
      });
      probe?.("update");
      for (const p of params) p.grad = null;
      return loss;
    });
  const dispose = () => {
    for (const t of [...params, x, labels]) t.dispose();
  };
  return { params, step, dispose, optimizerStatePerParam: 0 };
}

/** W4: a training step of mlpTraining's MLP; steps/s. `check` is the first step's loss. */
export function mlpTrainStep(torch) {
  const { step, dispose } = mlpTraining(torch);
  const loss = step();
  const check = loss.item();
  loss.dispose();
  const t = timeIt(synchronized(torch, () => step().dispose()));
  dispose();
  return { value: 1000 / t.ms, unit: "steps/s", reps: t.reps, higherIsBetter: true, check };
}

const D = 256, HEADS = 4, LAYERS = 4, HIDDEN = 1024, SEQ = 128, BATCH = 8;

function layerNorm(torch, x) {
  const F = torch.nn?.functional;
  if (F?.layerNorm) return F.layerNorm(x, [D]);
  const mean = x.mean({ dim: -1, keepdim: true });
  const centred = x.sub(mean);
  const variance = centred.mul(centred).mean({ dim: -1, keepdim: true });
  return centred.div(variance.add(1e-5).sqrt());
}

function attention(torch, q, k, v, mask) {
  const F = torch.nn?.functional;
  if (F?.scaledDotProductAttention) return F.scaledDotProductAttention(q, k, v, { isCausal: true });
  const scores = torch.matmul(q, k.transpose(-2, -1)).div(Math.sqrt(D / HEADS));
  return torch.matmul(torch.softmax(torch.where(mask, scores, -Infinity), -1), v);
}

function gelu(torch, x) {
  const F = torch.nn?.functional;
  return F?.gelu ? F.gelu(x) : x.mul(0.5).mul(torch.erf(x.div(Math.SQRT2)).add(1));
}

/** W5's model: its parameters and the forward (the last layer's hidden states). */
function transformerModel(torch) {
  const x = torch.tensor(detValues(BATCH * SEQ * D, 40), { shape: [BATCH, SEQ, D], dtype: "float32" });
  const layers = Array.from({ length: LAYERS }, (_, l) => ({
    qkv: linearParams(torch, D, 3 * D, 100 + 10 * l),
    out: linearParams(torch, D, D, 102 + 10 * l),
    up: linearParams(torch, D, HIDDEN, 104 + 10 * l),
    down: linearParams(torch, HIDDEN, D, 106 + 10 * l),
  }));
  const params = layers.flatMap((p) => Object.values(p).flatMap((lin) => [lin.w, lin.b]));
  const mask = torch.tril(torch.ones([SEQ, SEQ], { dtype: "bool" }));
  const heads = (t) => t.reshape(BATCH, SEQ, HEADS, D / HEADS).transpose(1, 2);
  const forward = () => {
    let h = x;
    for (const p of layers) {
      const qkv = linear(torch, layerNorm(torch, h), p.qkv.w, p.qkv.b);
      const [q, k, v] = torch.split(qkv, D, { dim: -1 }).map(heads);
      const a = attention(torch, q, k, v, mask).transpose(1, 2).reshape(BATCH, SEQ, D);
      h = h.add(linear(torch, a, p.out.w, p.out.b));
      h = h.add(linear(torch, gelu(torch, linear(torch, layerNorm(torch, h), p.up.w, p.up.b)), p.down.w, p.down.b));
    }
    return h;
  };
  const dispose = () => {
    for (const t of [...params, x, mask]) t.dispose();
  };
  return { params, forward, dispose };
}

/** W5: decoder-only transformer forward (pre-LN, causal); ms per forward. `how` as in W3. */
export function transformerForward(torch, how = "eager") {
  const model = transformerModel(torch);
  const compiled = how === "compiled" ? torch.compile(function forward() { return model.forward().sum(); }) : undefined;
  const forward = () => (compiled ? compiled() : torch.tidy(() => model.forward().sum()));
  if (how === "fused") torch.setEagerMode("fused");
  try {
    const start = performance.now();
    const out = forward();
    const check = out.item();
    const firstMs = performance.now() - start;
    out.dispose();
    const t = timeIt(() => {
      const y = forward();
      torch.runtime.synchronize();
      y.dispose();
    });
    return { value: t.ms, unit: "ms", reps: t.reps, higherIsBetter: false, check, firstMs: how === "eager" ? undefined : firstMs };
  } finally {
    torch.setEagerMode("strict");
    model.dispose();
  }
}

/**
 * W7's training setup: W5's model, its AdamW (lr 1e-3) and `step()`: forward, the mean square of the
 * output as the loss, backward, AdamW; it returns the loss. `probe` as in mlpTraining.
 */
export function transformerTraining(torch) {
  const model = transformerModel(torch);
  for (const p of model.params) p.requiresGrad_();
  const optimizer = new torch.optim.AdamW(model.params, { lr: 1e-3 });
  const step = (probe) =>
    torch.tidy(() => {
      const loss = model.forward().pow(2).mean();
      probe?.("forward");
      optimizer.zeroGrad();
      loss.backward();
      probe?.("backward");
      optimizer.step();
      probe?.("update");
      return loss;
    });
  const dispose = () => {
    optimizer.dispose();
    model.dispose();
  };
  // AdamW keeps two moments of each parameter's shape (and a step count).
  return { params: model.params, step, dispose, optimizerStatePerParam: 2 };
}

/** W7: a training step of transformerTraining's model; steps/s. `check` is the first step's loss. */
export function transformerTrainStep(torch) {
  const { step, dispose } = transformerTraining(torch);
  const loss = step();
  const check = loss.item();
  loss.dispose();
  const t = timeIt(synchronized(torch, () => step().dispose()));
  dispose();
  return { value: 1000 / t.ms, unit: "steps/s", reps: t.reps, higherIsBetter: true, check };
}

/**
 * A training step compiled by torch.compile (forward, backward and update as one executable):
 * steps/s; `check` is the first step's loss and `firstMs` that call's time (trace, compile, run).
 */
function compiledStep(torch, setup) {
  const { step, dispose } = setup(torch);
  const compiled = torch.compile(() => step());
  const start = performance.now();
  const loss = compiled();
  const check = loss.item();
  const firstMs = performance.now() - start;
  loss.dispose();
  const t = timeIt(synchronized(torch, () => compiled().dispose()));
  dispose();
  return { value: 1000 / t.ms, unit: "steps/s", reps: t.reps, higherIsBetter: true, check, firstMs };
}

/** W4c: W4's step under torch.compile. */
export const mlpTrainStepCompiled = (torch) => compiledStep(torch, mlpTraining);

/** W7c: W7's step under torch.compile. */
export const transformerTrainStepCompiled = (torch) => compiledStep(torch, transformerTraining);

/** W7cd: W7c with subnormals flushed to zero (torch.setFlushDenormal(true); the peer sets PyTorch's). */
export function transformerTrainStepCompiledFlushed(torch) {
  torch.setFlushDenormal(true);
  try {
    return compiledStep(torch, transformerTraining);
  } finally {
    torch.setFlushDenormal(false);
  }
}

/** W6: sum over the last axis of a 4096×4096 float32 tensor; GB/s read. */
export function rowSum(torch) {
  const n = 4096;
  const xv = detValues(n * n, 50);
  const x = torch.tensor(xv, { shape: [n, n], dtype: "float32" });
  const s = x.sum({ dim: -1 });
  const sv = s.dataSync();
  for (const i of [0, 1, 2047, 4095]) {
    let want = 0;
    for (let j = 0; j < n; j++) want += xv[i * n + j];
    if (!close(sv[i], want, 1e-3)) throw new Error(`row sum ${i} = ${sv[i]}, float64 says ${want}`);
  }
  s.dispose();
  const t = timeIt(synchronized(torch, () => x.sum({ dim: -1 }).dispose()));
  x.dispose();
  return { value: (n * n * 4) / (t.ms * 1e6), unit: "GB/s", reps: t.reps, higherIsBetter: true };
}

let firstCalls = 0;

/** First call of a new eager unit (trace + lower + compile + run): softmax on shapes not seen before
 * (each call of this function uses its own column count); median ms. */
export function firstCall(torch) {
  const cols = 33 + firstCalls++;
  const times = [];
  for (let rows = 5; rows < 26; rows++) {
    const x = torch.tensor(detValues(rows * cols, rows), { shape: [rows, cols], dtype: "float32" });
    const t0 = performance.now();
    const y = torch.softmax(x, -1);
    torch.runtime.synchronize();
    times.push(performance.now() - t0);
    y.dispose();
    x.dispose();
  }
  return { value: median(times), unit: "ms", reps: times.length, higherIsBetter: false };
}

/**
 * Median ms of `once` (sync or async) over `reps` calls after one warm-up. The loop yields to the event
 * loop between calls, outside the timing, so Node frees the arrays earlier reads returned.
 */
async function timeYielding(once, reps) {
  await once();
  const times = [];
  for (let i = 0; i < reps; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    const t0 = performance.now();
    await once();
    times.push(performance.now() - t0);
  }
  return { ms: median(times), reps };
}

/**
 * H1: torch.tensor of a 64 MB Float32Array, then await data(): GB/s copied (the upload and the read
 * each copy 64 MB), median of 15.
 */
export async function hostRoundTrip(torch) {
  const n = 16 << 20;
  const xv = detValues(n, 60);
  const once = async () => {
    const t = torch.tensor(xv);
    const back = await t.data();
    t.dispose();
    return back;
  };
  const back = await once();
  for (const i of [0, 1, n >> 1, n - 1]) if (back[i] !== xv[i]) throw new Error(`read back ${back[i]} at ${i}, wrote ${xv[i]}`);
  const t = await timeYielding(once, 15);
  return { value: (2 * n * 4) / (t.ms * 1e6), unit: "GB/s", reps: t.reps, higherIsBetter: true };
}

/** H2: dataSync() of a 4 MB result computed before the timing: GB/s, median of 50. */
export async function readBack(torch) {
  const n = 1 << 20;
  const xv = detValues(n, 61);
  const x = torch.tensor(xv);
  const y = x.mul(2);
  torch.runtime.synchronize();
  const values = y.dataSync();
  for (const i of [0, 1, n - 1]) if (values[i] !== 2 * xv[i]) throw new Error(`read ${values[i]} at ${i}, want ${2 * xv[i]}`);
  const t = await timeYielding(() => y.dataSync(), 50);
  x.dispose();
  y.dispose();
  return { value: (n * 4) / (t.ms * 1e6), unit: "GB/s", reps: t.reps, higherIsBetter: true };
}
