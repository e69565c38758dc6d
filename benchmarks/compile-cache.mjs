// torch.compile's persistent cache: the first compiled call of the W4 and W7 training steps in a
// process whose cache is cold, then in a second process that finds the executables on disk, and with
// the cache off. Each runs in its own process sharing one temporary TORCH_PJRT_CACHE_DIR.
//   node benchmarks/compile-cache.mjs [rounds=3]
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { median } from "./suite/data.mjs";

const workloads = ["W4", "W7"];

if (process.argv[2] === "--child") {
  const torch = await import("../dist/index.js");
  const { mlpTraining, transformerTraining } = await import("./suite/workloads.mjs");
  const setups = { W4: mlpTraining, W7: transformerTraining };
  const report = {};
  for (const name of workloads) {
    const { step, dispose } = setups[name](torch);
    const compiled = torch.compile(() => step());
    const start = performance.now();
    const loss = compiled();
    const value = loss.item();
    report[name] = { firstMs: performance.now() - start, loss: value, ...compiled.stats() };
    loss.dispose();
    dispose();
  }
  console.log(JSON.stringify(report));
} else {
  const rounds = Number(process.argv[2] ?? 3);
  const self = fileURLToPath(import.meta.url);
  const run = (env) => JSON.parse(execFileSync(process.execPath, [self, "--child"], { encoding: "utf8", env: { ...process.env, ...env } }));
  const times = { off: {}, cold: {}, warm: {} };
  for (const name of workloads) for (const k of Object.keys(times)) times[k][name] = [];
  for (let r = 0; r < rounds; r++) {
    const dir = mkdtempSync(join(tmpdir(), "torch-pjrt-bench-cache-"));
    try {
      const off = run({ TORCH_PJRT_CACHE_DIR: "" });
      const cold = run({ TORCH_PJRT_CACHE_DIR: dir });
      const warm = run({ TORCH_PJRT_CACHE_DIR: dir });
      for (const name of workloads) {
        if (cold[name].diskHits !== 0 || warm[name].diskHits !== 1) throw new Error(`${name}: expected a cold then a warm cache, got diskHits ${cold[name].diskHits}, ${warm[name].diskHits}`);
        if (warm[name].loss !== cold[name].loss || off[name].loss !== cold[name].loss) throw new Error(`${name}: losses differ: ${off[name].loss}, ${cold[name].loss}, ${warm[name].loss}`);
        times.off[name].push(off[name].firstMs);
        times.cold[name].push(cold[name].firstMs);
        times.warm[name].push(warm[name].firstMs);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const show = (xs) => `${median(xs).toFixed(0)} ms [${xs.map((x) => x.toFixed(0)).join(", ")}]`;
  for (const name of workloads) {
    console.log(
      `${name} first compiled call: cache off ${show(times.off[name])}, cold cache ${show(times.cold[name])}, warm cache (second process) ${show(times.warm[name])}` +
        ` → ${(median(times.cold[name]) / median(times.warm[name])).toFixed(2)}× (cold / warm)`,
    );
  }
}
