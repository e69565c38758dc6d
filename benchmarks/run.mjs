// `npm run bench`: the benchmark suite of issue 4. Measures torch-pjrt's workloads
// (benchmarks/suite/workloads.mjs), then in the same run PyTorch CPU and the machine's limits
// (benchmarks/suite/peer.py), prints one table and writes benchmarks/RESULTS.md.
// Env: BENCH_THREADS (default 2), BENCH_MATMUL (sizes, default "256,1024,4096"),
// BENCH_PYTHON (default .venv/bin/python; PyTorch is installed into it with pip when missing),
// BENCH_NO_WRITE=1 (print only).
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as torch from "../dist/index.js";
import * as w from "./suite/workloads.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const threads = Number(process.env.BENCH_THREADS ?? 2);
// Our CPU plugin sizes its thread pool from this when its client is created (on first use, below).
process.env.TORCH_PJRT_CPU_THREADS ??= String(threads);
const sizes = (process.env.BENCH_MATMUL ?? w.MATMUL_SIZES.join(",")).split(",").map(Number);
const python = process.env.BENCH_PYTHON ?? resolve(root, ".venv/bin/python");

function ensurePeer() {
  if (!existsSync(python)) return `no python at ${python} (run npm run setup:oracles, or set BENCH_PYTHON)`;
  const has = (mod) => spawnSync(python, ["-c", `import ${mod}`]).status === 0;
  if (has("torch") && has("numpy")) return undefined;
  console.log("installing PyTorch 2.13 and numpy into the venv for the comparison …");
  const pip = spawnSync(python, ["-m", "pip", "install", "--retries", "0", "--timeout", "5", "torch==2.13.0", "numpy"], { stdio: "inherit" });
  return pip.status === 0 ? undefined : "pip could not install torch==2.13.0 (no package index reachable?)";
}

function runPeer() {
  const env = { ...process.env, OMP_NUM_THREADS: String(threads), OPENBLAS_NUM_THREADS: String(threads), MKL_NUM_THREADS: String(threads) };
  const r = spawnSync(python, [resolve(root, "benchmarks/suite/peer.py"), JSON.stringify({ threads, matmulSizes: sizes })], {
    env,
    encoding: "utf8",
    maxBuffer: 1 << 24,
  });
  if (r.status !== 0) throw new Error(`peer.py failed: ${r.stderr.split("\n").slice(-5).join("\n")}`);
  return JSON.parse(r.stdout.trim().split("\n").pop());
}

function measure(label, fn) {
  process.stdout.write(`ours: ${label} … `);
  try {
    const r = fn();
    console.log(`${r.value.toPrecision(4)} ${r.unit}`);
    return r;
  } catch (e) {
    console.log(`failed: ${e.message}`);
    return { error: e.message };
  }
}

const ours = {};
for (const n of sizes) ours[`W1-${n}`] = measure(`matmul ${n}³`, () => w.matmul(torch, n));
ours.W2 = measure("eager add", () => w.eagerAdd(torch));
ours.W3 = measure("elementwise chain 1M", () => w.elementwiseChain(torch));
ours.W4 = measure("MLP forward", () => w.mlpForward(torch));
ours.W5 = measure("transformer forward", () => w.transformerForward(torch));
ours.W6 = measure("row sum 4096²", () => w.rowSum(torch));
ours.first = measure("first call of a new unit", () => w.firstCall(torch));

const peerMissing = ensurePeer();
let peer = { limits: {}, torch: { error: peerMissing } };
if (!peerMissing) {
  console.log("measuring PyTorch and the machine's limits …");
  peer = runPeer();
}
const pt = peer.torch ?? {};
for (const k of ["W4", "W5"]) {
  const mine = ours[k]?.check, theirs = pt[k]?.check;
  if (mine !== undefined && theirs !== undefined && Math.abs(mine - theirs) > 1e-3 * Math.max(1, Math.abs(theirs))) {
    ours[k] = { error: `result ${mine} differs from PyTorch's ${theirs}` };
  }
}

const rows = [
  ...sizes.map((n) => [`W1 matmul ${n}³ f32`, `W1-${n}`, `sgemm${n}`]),
  ["W2 eager add, 4 elements, cache hit", "W2"],
  ["W3 tanh(x*1.5+0.5)*sigmoid(x)-x/3, 1M, eager", "W3"],
  ["W4 MLP 784-512-512-10 b128, forward + CE loss", "W4"],
  ["W5 transformer fwd d256 h4 L4 s128 b8", "W5"],
  ["W6 sum over last axis, 4096² f32", "W6", "copy"],
  ["first call of a new eager unit (softmax)", "first"],
];
const fmt = (v) => (v === undefined ? "—" : v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toPrecision(3));
const table = [
  "| workload | unit | torch-pjrt | PyTorch | ours vs PyTorch | % of machine limit |",
  "|---|---|---|---|---|---|",
];
for (const [label, key, limitKey] of rows) {
  const o = ours[key];
  const p = pt[key];
  if (o?.error) {
    table.push(`| ${label} | | not measured: ${o.error} | ${fmt(p?.value)} | | |`);
    continue;
  }
  const ratio = p?.value === undefined ? "—" : `${(o.higherIsBetter ? o.value / p.value : p.value / o.value).toFixed(2)}×`;
  const limit = peer.limits?.[limitKey];
  const pct = limit ? `${((100 * o.value) / limit.value).toFixed(1)}% of ${fmt(limit.value)} ${limit.unit}` : "";
  table.push(`| ${label} | ${o.unit} | ${fmt(o.value)} | ${fmt(p?.value)} | ${ratio} | ${pct} |`);
}
const cpu = os.cpus()[0]?.model ?? "unknown CPU";
const header = [
  `Run ${new Date().toISOString().slice(0, 16)}Z on ${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB,`,
  `load average ${os.loadavg()[0].toFixed(1)}; Node ${process.version}; PyTorch ${pt.version ?? `not measured (${pt.error})`};`,
  `numpy ${peer.numpy ?? "—"}; ${threads} threads for the peers, ${process.env.TORCH_PJRT_CPU_THREADS} for torch-pjrt's CPU plugin.`,
  `"ours vs PyTorch" > 1 means we are faster. Medians after warm-up; results checked before timing.`,
].join("\n");
console.log(`\n${header}\n\n${table.join("\n")}`);

if (process.env.BENCH_NO_WRITE !== "1") {
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
