// Single ops on the CPU plugin against PyTorch eager (2 threads each), the ops a model's data
// movement, losses, sampling and mixed precision lean on. Each of ours runs as a compiled function of
// that one op (one executable), with its result read back once to check its shape. Rounds alternate
// ours and PyTorch's peer (benchmarks/suite/ops_peer.py) case by case; the table gives the medians
// over rounds and the median of the per-round ratios (> 1: we are faster).
//   node benchmarks/ops.mjs [rounds=3]
import { spawn } from "node:child_process";
import { dirname, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import * as torch from "../dist/index.js";
import { median, timeIt } from "./suite/data.mjs";
import { ensurePeer, peerEnv, pythonPath } from "./suite/python.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const rounds = Number(process.argv[2] ?? 3);
process.env.TORCH_PJRT_CPU_THREADS ??= "2";
const F = torch.nn.functional;

const x = torch.randn([1024, 1024]);
const img = torch.randn([8, 32, 64, 64]);
const rows = torch.randint(0, 1024, [4096]);
const cols = torch.randint(0, 1024, [1024, 1024]);
const src = torch.randn([4096, 256]);
const positive = torch.rand([1 << 20]).add(0.1);

/** name → [the op as a function of its inputs, the inputs, the result's shape]. */
const cases = {
  half: [(v) => v.half(), [x], [1024, 1024]],
  bfloat16: [(v) => v.bfloat16(), [x], [1024, 1024]],
  log: [(v) => v.log(), [positive], [1 << 20]],
  log1p: [(v) => v.log1p(), [positive], [1 << 20]],
  sqrt: [(v) => v.sqrt(), [positive], [1 << 20]],
  "logSoftmax dim 0": [(v) => v.logSoftmax(0), [x], [1024, 1024]],
  "cumsum dim 1": [(v) => v.cumsum(1), [x], [1024, 1024]],
  "topk 8 dim 1": [(v) => v.topk(8, 1).values, [x], [1024, 8]],
  "sort dim 1": [(v) => v.sort(1).values, [x], [1024, 1024]],
  "indexAdd rows": [(i, s) => torch.zeros([4096, 256]).indexAdd(0, i, s), [rows, src], [4096, 256]],
  "gather dim 1": [(v, i) => v.gather(1, i), [x, cols], [1024, 1024]],
  "scatterAdd dim 1": [(v, i) => torch.zeros([1024, 1024]).scatterAdd(1, i, v), [x, cols], [1024, 1024]],
  "avgPool2d 2": [(v) => F.avgPool2d(v, 2), [img], [8, 32, 32, 32]],
  "maxPool2d 2": [(v) => F.maxPool2d(v, 2), [img], [8, 32, 32, 32]],
  pad: [(v) => F.pad(v, [0, 512]), [x], [1024, 1536]],
  "sum dim 0": [(v) => v.sum(0), [x], [1024]],
};

function ours(name) {
  const [fn, inputs, shape] = cases[name];
  const compiled = torch.compile(fn);
  const first = compiled(...inputs);
  if (first.shape.join() !== shape.join()) throw new Error(`${name}: shape [${first.shape}], expected [${shape}]`);
  first.dispose();
  return timeIt(() => {
    compiled(...inputs).dispose();
    torch.runtime.synchronize();
  }, { minMs: 400 }).ms;
}

async function startPeer() {
  const python = pythonPath(root);
  const missing = ensurePeer(python);
  if (missing) return { error: missing };
  const child = spawn(python, [resolve(root, "benchmarks/suite/ops_peer.py")], { env: peerEnv(2), stdio: ["pipe", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async () => JSON.parse((await lines.next()).value);
  const versions = await next();
  return {
    versions,
    ask: async (name) => {
      child.stdin.write(`${JSON.stringify({ case: name, minMs: 400 })}\n`);
      return (await next()).ms;
    },
    close: () => child.stdin.end(),
  };
}

const peer = await startPeer();
if (peer.error) console.log(`PyTorch not measured: ${peer.error}`);
const results = Object.fromEntries(Object.keys(cases).map((name) => [name, { ours: [], peer: [] }]));
for (let r = 1; r <= rounds; r++) {
  process.stdout.write(`round ${r}/${rounds} `);
  for (const name of Object.keys(cases)) {
    results[name].ours.push(ours(name));
    if (!peer.error) results[name].peer.push(await peer.ask(name));
    process.stdout.write(".");
  }
  process.stdout.write("\n");
}
peer.close?.();

const fmt = (ms) => (ms >= 10 ? ms.toFixed(1) : ms.toPrecision(3));
console.log(`\n${rounds} rounds; PyTorch ${peer.versions?.torch ?? "—"} eager, ${peer.versions?.threads ?? "—"} threads; ours: one compiled op, 2 threads.\n`);
console.log("| op | torch-pjrt ms | PyTorch ms | ours vs PyTorch |");
console.log("|---|---|---|---|");
for (const [name, { ours: o, peer: p }] of Object.entries(results)) {
  const ratios = p.map((ms, i) => ms / o[i]);
  const ratio = ratios.length ? `${median(ratios).toFixed(2)}× (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})` : "—";
  console.log(`| ${name} | ${fmt(median(o))} | ${p.length ? fmt(median(p)) : "—"} | ${ratio} |`);
}
for (const t of [x, img, rows, cols, src, positive]) t.dispose();
