// Median latency of one cache-hit execute of a 4-element f32 add through torch.runtime: the program
// is compiled once, then each sample is exe.runSync([a, b]) plus disposing its output (the inputs stay
// on the device). Also times the async exe.run for comparison. Usage: node benchmarks/runtime-add.mjs
import * as torch from "../dist/index.js";

const samples = Number(process.env.SAMPLES ?? 10_000);
const exe = await torch.runtime.compile(`func.func public @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %a, %b : tensor<4xf32>
  return %0 : tensor<4xf32>
}`);
const a = torch.tensor([1, 2, 3, 4], { dtype: "float32" });
const b = torch.tensor([10, 20, 30, 40], { dtype: "float32" });

function median(values) {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.floor(sorted.length / 2)];
}

async function measure(label, once) {
  for (let i = 0; i < 1000; i++) await once(); // warm-up
  const times = new Array(samples);
  for (let i = 0; i < samples; i++) {
    const start = process.hrtime.bigint();
    await once();
    times[i] = Number(process.hrtime.bigint() - start) / 1000;
  }
  console.log(`${label}: median ${median(times).toFixed(2)} µs over ${samples} calls`);
}

await measure("exe.runSync([a, b]) + dispose", () => exe.runSync([a, b])[0].dispose());
await measure("await exe.run([a, b]) + dispose", async () => (await exe.run([a, b]))[0].dispose());
const [check] = exe.runSync([a, b]);
console.log(`result ${Array.from(check.dataSync())} (expected 11,22,33,44)`);
for (const t of [a, b, check]) t.dispose();
exe.dispose();
