// `npm run bench`: the benchmark suite of issue 4. Measures torch-pjrt's workloads
// (benchmarks/suite/workloads.mjs) against PyTorch CPU and the machine's limits, served one
// measurement at a time by benchmarks/suite/peer.py, prints one table and writes benchmarks/RESULTS.md.
// The machine's speed drifts by the minute, so the run is interleaved: in each round, each workload
// is measured ours, then PyTorch, then its machine limit, back to back. Per workload the table gives
// the medians over rounds and the median (and range) of the per-round ratios, against PyTorch and
// against the machine limit (also given as its best round).
// Env: BENCH_ROUNDS (default 5; with more than one, each measurement runs ≥ 600 ms instead of 1 s),
// BENCH_THREADS (default 2), BENCH_MATMUL (sizes, default "256,1024,4096"),
// BENCH_PYTHON (default .venv/bin/python; PyTorch is installed into it with pip when missing),
// BENCH_ONLY (workloads to measure, e.g. "W4,W5"; default all; RESULTS.md is then left as it is),
// BENCH_NO_WRITE=1 (print only).
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { dirname, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import * as torch from "../dist/index.js";
import { median, timing } from "./suite/data.mjs";
import { ensurePeer, peerEnv, pythonPath } from "./suite/python.mjs";
import * as w from "./suite/workloads.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const threads = Number(process.env.BENCH_THREADS ?? 2);
// Our CPU plugin sizes its thread pool from this when its client is created (on first use, below).
process.env.TORCH_PJRT_CPU_THREADS ??= String(threads);
const sizes = (process.env.BENCH_MATMUL ?? w.MATMUL_SIZES.join(",")).split(",").map(Number);
const python = pythonPath(root);
if (rounds > 1) timing.minMs = 600;

/**
 * Starts peer.py with `unset` removed from its environment; returns its versions line and
 * `ask(request)`, which resolves to its answer line.
 */
async function startPeer(unset = []) {
  const absent = (error) => ({ error, ask: async () => ({}), close() {} });
  const missing = ensurePeer(python);
  if (missing) return absent(missing);
  const env = peerEnv(threads, unset);
  const config = JSON.stringify({ threads, minMs: timing.minMs });
  const child = spawn(python, [resolve(root, "benchmarks/suite/peer.py"), config], { env, stdio: ["pipe", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  child.stdin.on("error", () => {}); // a peer that died answers through `next` below
  const next = async () => {
    const { value, done } = await lines.next();
    return done ? { error: "peer.py exited (its error is above)" } : JSON.parse(value);
  };
  const hello = await next();
  if (hello.error) return absent(hello.error);
  const ask = (request) => (child.stdin.write(`${JSON.stringify(request)}\n`), next());
  return { ...hello, ask, close: () => child.stdin.end() };
}

async function tryOurs(fn) {
  try {
    return await fn();
  } catch (e) {
    return { error: e.message };
  }
}

const only = process.env.BENCH_ONLY?.split(",").map((name) => name.trim());
const allRows = [
  ...sizes.map((n) => ({ label: `W1 matmul ${n}³ f32`, ours: () => w.matmul(torch, n), peer: { workload: "W1", n }, limit: { limit: "sgemm", n } })),
  { label: "W2 eager add, 4 elements, cache hit", ours: () => w.eagerAdd(torch), peer: { workload: "W2" } },
  { label: "W2b eager add, 4 elements, back-to-back loop (mean)", ours: () => w.eagerAddLoop(torch), peer: { workload: "W2b" } },
  { label: "W3 tanh(x*1.5+0.5)*sigmoid(x)-x/3, 1M, eager", ours: () => w.elementwiseChain(torch), peer: { workload: "W3" } },
  { label: "W3c W3 under torch.compile (PyTorch: eager)", ours: () => w.elementwiseChain(torch, "compiled"), peer: { workload: "W3" } },
  { label: "W3f W3 in fused eager mode (PyTorch: eager)", ours: () => w.elementwiseChain(torch, "fused"), peer: { workload: "W3" } },
  { label: "W4 MLP 784-512-512-10 b128, training step (forward, CE loss, backward, SGD)", ours: () => w.mlpTrainStep(torch), peer: { workload: "W4" } },
  { label: "W5 transformer fwd d256 h4 L4 s128 b8", ours: () => w.transformerForward(torch), peer: { workload: "W5" } },
  { label: "W5c W5 under torch.compile (PyTorch: eager)", ours: () => w.transformerForward(torch, "compiled"), peer: { workload: "W5" } },
  { label: "W5f W5 in fused eager mode (PyTorch: eager)", ours: () => w.transformerForward(torch, "fused"), peer: { workload: "W5" } },
  { label: "W7 transformer training step (W5's model, AdamW)", ours: () => w.transformerTrainStep(torch), peer: { workload: "W7" } },
  { label: "W4c W4's step under torch.compile (PyTorch: torch.compile, inductor)", ours: () => w.mlpTrainStepCompiled(torch), peer: { workload: "W4c" } },
  { label: "W7c W7's step under torch.compile (PyTorch: torch.compile, inductor)", ours: () => w.transformerTrainStepCompiled(torch), peer: { workload: "W7c" } },
  { label: "W7cd W7c with subnormals flushed (torch.setFlushDenormal(true); PyTorch: set_flush_denormal(True))", ours: () => w.transformerTrainStepCompiledFlushed(torch), peer: { workload: "W7c", flushDenormal: true } },
  { label: "W6 sum over last axis, 4096² f32", ours: () => w.rowSum(torch), peer: { workload: "W6" }, limit: { limit: "copy" } },
  { label: "H1 torch.tensor(64 MB) + await data()", ours: () => w.hostRoundTrip(torch), peer: { workload: "H1" }, limit: { limit: "memcpy" } },
  { label: "H2 dataSync() of a 4 MB result", ours: () => w.readBack(torch), peer: { workload: "H2" }, limit: { limit: "memcpy" } },
  { label: "first call of a new eager unit (softmax)", ours: () => w.firstCall(torch) },
];
const rows = only ? allRows.filter((row) => only.some((name) => row.label.startsWith(`${name} `))) : allRows;

/** > 1 means we are faster. */
const ratioOf = (o, p) => (o.higherIsBetter ? o.value / p.value : p.value / o.value);
const fmt = (v) => (v === undefined ? "—" : v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toPrecision(3));

const peer = await startPeer();
if (peer.error) console.log(`PyTorch not measured: ${peer.error}`);
// The machine limits run in a process of their own without the settings this machine gives OpenBLAS
// (OPENBLAS_CORETYPE=Haswell halves numpy's sgemm on AVX-512), so OpenBLAS picks its kernel itself.
const openblasOverrides = ["OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"];
const limitPeer = rows.some((row) => row.limit) ? await startPeer(openblasOverrides) : { ask: async () => ({}), close() {} };
const gemmIsa = torch.runtime.plugins().find((p) => p.name === "cpu")?.attributes.gemm_isa ?? "unknown";
for (let r = 1; r <= rounds; r++) {
  for (const row of rows) {
    process.stdout.write(`round ${r}/${rounds}, ${row.label}: `);
    const o = await tryOurs(row.ours);
    const p = row.peer ? await peer.ask(row.peer) : {};
    const l = row.limit ? await limitPeer.ask(row.limit) : {};
    // W4, W5 and W7 return a result to compare with PyTorch's: a timing of a wrong result is not kept.
    if (o.check !== undefined && p.check !== undefined && Math.abs(o.check - p.check) > 1e-3 * Math.max(1, Math.abs(p.check))) {
      o.error = `result ${o.check} differs from PyTorch's ${p.check}`;
    }
    (row.runs ??= []).push({ o, p, l });
    const said = [o.error ? `failed: ${o.error}` : `ours ${fmt(o.value)} ${o.unit}`];
    if (row.peer) said.push(`PyTorch ${p.error ?? fmt(p.value)}`);
    if (row.limit) said.push(`limit ${l.error ?? fmt(l.value)}`);
    if (o.firstMs !== undefined) said.push(`first call ours ${o.firstMs.toFixed(0)} ms, PyTorch ${p.firstMs === undefined ? "—" : p.firstMs.toFixed(0)} ms`);
    console.log(said.join(", ") + (!o.error && p.value !== undefined ? ` → ${ratioOf(o, p).toFixed(2)}×` : ""));
  }
}
peer.close();
limitPeer.close();

/** "median× (min–max)" of per-round ratios, or "—" when there are none. */
function medianRatio(ratios) {
  if (!ratios.length) return "—";
  const range = ratios.length > 1 ? ` (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})` : "";
  return `${median(ratios).toFixed(2)}×${range}`;
}

/** Medians over the rounds that measured a value (undefined if none did). */
function medianOf(values) {
  const measured = values.filter((v) => v !== undefined);
  return measured.length ? median(measured) : undefined;
}

const table = [
  "| workload | unit | torch-pjrt | PyTorch | ours vs PyTorch | ours vs machine limit |",
  "|---|---|---|---|---|---|",
];
for (const { label, runs } of rows) {
  const failed = runs.find((run) => run.o.error);
  const pt = medianOf(runs.map((run) => run.p.value));
  if (failed) {
    table.push(`| ${label} | | not measured: ${failed.o.error} | ${fmt(pt)} | | |`);
    continue;
  }
  const mine = medianOf(runs.map((run) => run.o.value));
  const ratio = medianRatio(runs.filter((run) => run.p.value !== undefined).map((run) => ratioOf(run.o, run.p)));
  const limits = runs.map((run) => run.l.value).filter((v) => v !== undefined);
  const limit = limits.length ? Math.max(...limits) : undefined;
  const perRound = medianRatio(runs.filter((run) => run.l.value !== undefined).map((run) => ratioOf(run.o, run.l)));
  const pct = limit ? `${perRound} per round; ${((100 * mine) / limit).toFixed(1)}% of the best, ${fmt(limit)} ${runs.find((run) => run.l.unit).l.unit}` : "";
  table.push(`| ${label} | ${runs[0].o.unit} | ${fmt(mine)} | ${fmt(pt)} | ${ratio} | ${pct} |`);
}
const cpu = os.cpus()[0]?.model ?? "unknown CPU";
const header = [
  `Run ${new Date().toISOString().slice(0, 16)}Z on ${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB,`,
  `load average ${os.loadavg()[0].toFixed(1)}; Node ${process.version}; PyTorch ${peer.torch ?? `not measured (${peer.error})`};`,
  `numpy ${peer.numpy ?? "—"}; ${threads} threads for the peers, ${process.env.TORCH_PJRT_CPU_THREADS} for torch-pjrt's CPU plugin (GEMM: ${gemmIsa}).`,
  `Machine limits in a process of their own with ${openblasOverrides.join(" and ")} unset: OpenBLAS chose ${limitPeer.openblas ?? limitPeer.error ?? "—"}` +
    ` (${openblasOverrides.map((name) => `${name}=${process.env[name] ?? "unset"}`).join(", ")} here; the PyTorch peer's numpy ran ${peer.openblas ?? "—"}).`,
  `${rounds} round${rounds > 1 ? "s" : ""}, each workload measured ours then PyTorch (then its machine limit) back to back;`,
  `ours and PyTorch are medians over the rounds, ratio = median of per-round ratios (range in brackets),`,
  `ours vs machine limit: the median of per-round ratios, and our median as a share of the limit's best round.`,
  `Each measurement: median after warm-up over ≥ 5 reps and ≥ ${timing.minMs} ms (4096³ matmul: 1 rep).`,
  `"ours vs PyTorch" > 1 means we are faster. Results checked before timing.`,
].join("\n");
console.log(`\n${header}\n\n${table.join("\n")}`);

// RESULTS.md keeps whole runs only.
if (process.env.BENCH_NO_WRITE !== "1" && !only) {
  const path = resolve(root, "benchmarks/RESULTS.md");
  const old = existsSync(path) ? readFileSync(path, "utf8") : "# Benchmark results\n";
  const marker = "## Suite (npm run bench)";
  const start = old.indexOf(marker);
  const before = start < 0 ? `${old.trimEnd()}\n\n` : old.slice(0, start);
  const next = start < 0 ? -1 : old.indexOf("\n## ", start + marker.length);
  const after = next < 0 ? "" : old.slice(next);
  writeFileSync(path, `${before}${marker}\n\n${header}\n\n${table.join("\n")}\n${after}`);
  console.log(`\nwrote ${path}`);
}
