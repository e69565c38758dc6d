// Median latency of a cache-hit eager torch.add of two 4-element float32 tensors: the first call
// traces and compiles the unit, every later call is a signature lookup and one native run. Each
// sample is torch.add(a, b) plus disposing its output. Compare with benchmarks/runtime-add.mjs (the
// same add as a precompiled executable). Usage: npm run build:ts && node benchmarks/eager-add.mjs
import * as torch from "../dist/index.js";

const samples = Number(process.env.SAMPLES ?? 20_000);
const a = torch.tensor([1, 2, 3, 4], { dtype: "float32" });
const b = torch.tensor([10, 20, 30, 40], { dtype: "float32" });

function median(values) {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.floor(sorted.length / 2)];
}

function measure(label, once) {
  for (let i = 0; i < 2000; i++) once(); // warm-up (the first call compiles)
  const times = new Array(samples);
  for (let i = 0; i < samples; i++) {
    const start = process.hrtime.bigint();
    once();
    times[i] = Number(process.hrtime.bigint() - start) / 1000;
  }
  console.log(`${label}: median ${median(times).toFixed(2)} µs over ${samples} calls`);
}

const check = torch.add(a, b);
if (String(check.tolist()) !== "11,22,33,44") throw new Error(`wrong sum ${check.tolist()}`);
check.dispose();
measure("torch.add(a, b) + dispose (cache hit)", () => torch.add(a, b).dispose());
measure("a.add(b) + dispose (cache hit)", () => a.add(b).dispose());
console.log(torch.runtime.stats());
a.dispose();
b.dispose();
