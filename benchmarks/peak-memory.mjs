// `node benchmarks/peak-memory.mjs`: peak resident memory of the training steps W4 (MLP, SGD) and W7
// (W5's transformer, AdamW) against PyTorch's, for issue 16's target "peak memory of a step ≤ 1.2×
// PyTorch's". Each measurement runs in a fresh process of its own (ours: this file with --child;
// PyTorch: benchmarks/suite/peer.py asked {"peak": …}), built from the suite's workloads
// (mlpTraining / transformerTraining in benchmarks/suite/workloads.mjs, w4_training / w7_training in
// peer.py), so no other workload's memory or allocator state is in it. In each process, with resident
// memory (VmRSS) read after a full collection at each point: the runtime is started (one small matmul;
// "start"); the model, optimizer and inputs are built ("built"); 3 warm-up steps run (compile caches,
// optimizer state, kept grads, allocator pools and our plugin's block cache now exist); the kernel's
// high-water mark is reset (5 written to /proc/self/clear_refs, Linux ≥ 4.0) and VmRSS read ("base");
// then `steps` steps run, each waited for (ours: torch.runtime.synchronize() and a turn of the event
// loop; PyTorch CPU is synchronous), and VmHWM read. Reported, medians over rounds and the median of
// the per-round ratios:
// - step peak: VmHWM of the measured steps − base, what a step adds to what the process already holds;
// - training peak: the highest VmHWM (warm-up or measured steps) − built, everything training adds to
//   the model (grads, optimizer state, activations, temporaries, what the allocators keep), which the
//   step peak does not see once a warmed allocator holds it;
// - the bytes of parameters + grads + optimizer state, computed from the shapes, for scale;
// - ours: the most torch.memory().numBytes (live tensors) read inside a step after the forward, the
//   backward and the update (the step's tidy holds its tensors until it ends), and V8's heap growth.
// Rounds measure each workload ours then PyTorch, back to back.
// Env: BENCH_ROUNDS (default 3), BENCH_THREADS (default 2), BENCH_ONLY (default "W4,W7"),
// BENCH_PYTHON (default .venv/bin/python), PEAK_STEPS (steps measured; default 50 for W4, 10 for W7).
// Linux only (/proc).
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import v8 from "node:v8";
import { median } from "./suite/data.mjs";
import { ensurePeer, peerEnv, pythonPath } from "./suite/python.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const threads = Number(process.env.BENCH_THREADS ?? 2);
const WARMUP = 3;
const WORKLOADS = {
  W4: { label: "W4 MLP 784-512-512-10 b128 training step (SGD)", setup: "mlpTraining", steps: 50 },
  W7: { label: "W7 transformer d256 h4 L4 s128 b8 training step (AdamW)", setup: "transformerTraining", steps: 10 },
};

/** VmRSS and VmHWM of this process, KiB. */
function memoryKb() {
  const status = readFileSync("/proc/self/status", "utf8");
  const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, "m").exec(status)[1]);
  return { rss: field("VmRSS"), hwm: field("VmHWM") };
}

/** Two full collections with a turn of the event loop between (finalizers run in it). */
async function collect() {
  for (let i = 0; i < 2; i++) {
    global.gc();
    await new Promise((done) => setImmediate(done));
  }
}

/** Physical bytes of V8's heap spaces. */
const v8HeapBytes = () => v8.getHeapSpaceStatistics().reduce((sum, space) => sum + space.physical_space_size, 0);

/** One measurement of ours, in this process (started with --expose-gc); prints one JSON line. */
async function child(name, steps) {
  process.env.TORCH_PJRT_CPU_THREADS ??= String(threads);
  const torch = await import("../dist/index.js");
  const w = await import("./suite/workloads.mjs");
  torch.tidy(() => torch.matmul(torch.ones([64, 64]), torch.ones([64, 64]))).dispose(); // the runtime up
  torch.runtime.synchronize();
  await collect();
  const start = memoryKb().rss;
  const training = w[WORKLOADS[name].setup](torch);
  await collect();
  const built = memoryKb().rss;
  let check;
  for (let i = 0; i < WARMUP; i++) {
    const loss = training.step();
    if (i === 0) check = loss.item();
    loss.dispose();
    torch.runtime.synchronize();
  }
  await collect();
  const warmPeak = memoryKb().hwm;
  writeFileSync("/proc/self/clear_refs", "5"); // VmHWM := VmRSS
  const base = memoryKb().rss;
  const v8Base = v8HeapBytes();
  const liveBase = torch.memory();
  let live = { numBytes: 0 };
  const probe = () => {
    const now = torch.memory();
    if (now.numBytes > live.numBytes) live = now;
  };
  for (let i = 0; i < steps; i++) {
    training.step(probe).dispose();
    torch.runtime.synchronize();
    await new Promise((done) => setImmediate(done)); // a training loop's await between steps
  }
  const { rss: end, hwm: peak } = memoryKb();
  const v8Growth = v8HeapBytes() - v8Base;
  const paramBytes = training.params.reduce((sum, p) => sum + p.numel() * 4, 0);
  training.dispose();
  console.log(
    JSON.stringify({
      startKb: start,
      builtKb: built,
      warmPeakKb: warmPeak,
      baseKb: base,
      peakKb: peak,
      endKb: end,
      steps,
      check,
      paramBytes,
      // grads (kept between steps by W7's zeroGrad-before-backward, made and dropped within W4's step)
      // and the optimizer's state, computed from the shapes
      gradBytes: paramBytes,
      optimizerBytes: training.optimizerStatePerParam * paramBytes,
      v8GrowthBytes: v8Growth,
      liveBaseBytes: liveBase.numBytes,
      liveBaseTensors: liveBase.numTensors,
      livePeakBytes: live.numBytes,
      livePeakTensors: live.numTensors,
    }),
  );
}

/** The last line of `run`'s stdout as JSON, or { error }. */
function lastJson(run, who) {
  const lines = (run.stdout ?? "").trim().split("\n");
  try {
    if (run.status !== 0) throw new Error(`exit ${run.status}: ${(run.stderr ?? "").trim().split("\n").slice(-3).join(" | ")}`);
    return JSON.parse(lines.at(-1));
  } catch (e) {
    return { error: `${who}: ${e.message}` };
  }
}

async function main() {
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const names = (process.env.BENCH_ONLY ?? "W4,W7").split(",").map((n) => n.trim()).filter((n) => n in WORKLOADS);
  const python = pythonPath(root);
  const missing = ensurePeer(python);
  if (missing) console.log(`PyTorch not measured: ${missing}`);
  const here = fileURLToPath(import.meta.url);
  const mb = (kb) => (kb * 1024) / 1e6;
  const fmt = (v) => (v === undefined ? "—" : v.toFixed(1));
  // KiB: the highest RSS during the measured steps above the base; the highest during the warm-up and
  // the steps above the RSS with the model, optimizer and inputs built (before the first step).
  const stepPeak = (x) => x.peakKb - x.baseKb;
  const trainingPeak = (x) => Math.max(x.peakKb, x.warmPeakKb) - x.builtKb;
  const runs = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = 1; r <= rounds; r++) {
    for (const name of names) {
      const steps = Number(process.env.PEAK_STEPS ?? WORKLOADS[name].steps);
      const o = lastJson(spawnSync(process.execPath, ["--expose-gc", here, "--child", name, String(steps)], { encoding: "utf8", env: { ...process.env, TORCH_PJRT_CPU_THREADS: String(threads) } }), "ours");
      let p = { error: missing };
      if (!missing) {
        const config = JSON.stringify({ threads });
        const run = spawnSync(python, [resolve(root, "benchmarks/suite/peer.py"), config], {
          encoding: "utf8",
          env: peerEnv(threads),
          input: `${JSON.stringify({ peak: name, steps, warmup: WARMUP })}\n`,
        });
        p = lastJson(run, "PyTorch");
      }
      if (!o.error && !p.error && Math.abs(o.check - p.check) > 1e-3 * Math.max(1, Math.abs(p.check))) {
        o.error = `first loss ${o.check} differs from PyTorch's ${p.check}`;
      }
      runs[name].push({ o, p });
      const said = (x) =>
        x.error
          ? x.error
          : `step peak ${fmt(mb(stepPeak(x)))} MB, training peak ${fmt(mb(trainingPeak(x)))} MB (start ${fmt(mb(x.startKb))}, base ${fmt(mb(x.baseKb))}, peak ${fmt(mb(Math.max(x.peakKb, x.warmPeakKb)))})`;
      const ratios = !o.error && !p.error ? ` → ${(stepPeak(o) / stepPeak(p)).toFixed(2)}×, ${(trainingPeak(o) / trainingPeak(p)).toFixed(2)}×` : "";
      const extra = o.error ? "" : `; ours: V8 heap +${fmt(o.v8GrowthBytes / 1e6)} MB, live tensors ${fmt(o.liveBaseBytes / 1e6)} → ${fmt(o.livePeakBytes / 1e6)} MB`;
      console.log(`round ${r}/${rounds}, ${name}, ${steps} steps: ours ${said(o)}; PyTorch ${said(p)}${ratios}${extra}`);
    }
  }
  const table = [
    "| workload | params + grads + optimizer state | step peak above base: ours | PyTorch | ours / PyTorch | training peak above the built model: ours | PyTorch | ours / PyTorch | process peak RSS: ours | PyTorch | ours: live tensors, base → most in a step |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  const range = (xs) => (xs.length > 1 ? ` (${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)})` : "");
  for (const name of names) {
    const ok = runs[name].filter(({ o, p }) => !o.error && !p.error);
    const failed = runs[name].find(({ o, p }) => o.error || p.error);
    if (!ok.length) {
      table.push(`| ${WORKLOADS[name].label} | not measured: ${failed.o.error ?? failed.p.error} ||||||||||`);
      continue;
    }
    const { o } = ok[0];
    const held = (o.paramBytes + o.gradBytes + o.optimizerBytes) / 1e6;
    const side = (who, f) => `${fmt(mb(median(ok.map((run) => f(run[who])))))} MB`;
    const cols = [stepPeak, trainingPeak].flatMap((f) => {
      const ratios = ok.map((run) => f(run.o) / f(run.p));
      return [side("o", f), side("p", f), `${median(ratios).toFixed(2)}×${range(ratios)}`];
    });
    const processPeak = (x) => Math.max(x.peakKb, x.warmPeakKb);
    const live = `${fmt(median(ok.map((run) => run.o.liveBaseBytes)) / 1e6)} → ${fmt(median(ok.map((run) => run.o.livePeakBytes)) / 1e6)} MB (${o.liveBaseTensors} → ${o.livePeakTensors} tensors)`;
    table.push(`| ${WORKLOADS[name].label}, ${o.steps} steps | ${fmt(held)} MB | ${cols.join(" | ")} | ${side("o", processPeak)} | ${side("p", processPeak)} | ${live} |`);
  }
  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  console.log(
    `\n${new Date().toISOString().slice(0, 16)}Z, ${os.cpus().length} × ${cpu}, load average ${os.loadavg()[0].toFixed(1)}; ` +
      `${threads} threads each side; ${rounds} round${rounds > 1 ? "s" : ""}, each a fresh process per side; medians, ratio = median of per-round ratios (range).\n` +
      `MB = 10⁶ bytes of resident memory (VmRSS / VmHWM); ${WARMUP} warm-up steps before the base; step peak = VmHWM of the measured steps − VmRSS at the base;\n` +
      `training peak = the highest VmHWM (warm-up or measured steps) − VmRSS with the model, optimizer and inputs built; process peak = that VmHWM.\n\n${table.join("\n")}`,
  );
}

if (process.argv[2] === "--child") await child(process.argv[3], Number(process.argv[4]));
else await main();
