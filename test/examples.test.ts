// The training example as a user runs it (the built package, `node examples/train-char-model.mjs`):
// its torch.compile'd training step gives the same per-step losses as the same step run eagerly,
// and the compiled step compiles ahead of time for TPU topologies through libtpu (no TPU here), with
// libtpu's output types equal to ours, the parameters and AdamW state donated, and a flop count
// near the 6·parameters·tokens of a transformer training step.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadTorch } from "./ops/harness.js";

const example = "examples/train-char-model.mjs";
const built = existsSync("dist/index.js") ? undefined : "dist/index.js is missing (npm run build)";
if (built) console.warn(`[examples.test] SKIPPED: ${built}`);

const run = (args: string[]): string => execFileSync(process.execPath, [example, ...args], { encoding: "utf8", env: { ...process.env, ALLOW_MULTIPLE_LIBTPU_LOAD: "1" } });

describe.skipIf(built !== undefined)("the training example", () => {
  it("trains with a compiled step along the eager losses (float32 rounding)", () => {
    const dir = mkdtempSync(join(tmpdir(), "char-model-"));
    try {
      run(["10", join(dir, "compiled")]);
      run(["10", join(dir, "eager"), "--eager"]);
      const compiled = JSON.parse(readFileSync(join(dir, "compiled", "losses.json"), "utf8")) as number[];
      const eager = JSON.parse(readFileSync(join(dir, "eager", "losses.json"), "utf8")) as number[];
      expect(compiled).toHaveLength(10);
      for (const [i, loss] of compiled.entries()) expect(Math.abs(loss - eager[i]!), `step ${i + 1}`).toBeLessThan(1e-5 * eager[i]!);
      expect(compiled.at(-1)!).toBeLessThan(compiled[0]! - 1); // it learns: 4.65 → below 3.6 in 10 steps
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

const loaded = await loadTorch();
const tpu = loaded.ok ? loaded.torch.runtime.plugins().find((p: { name: string }) => p.name === "tpu") : undefined;
const noTpu = built ?? (loaded.ok ? (tpu?.found ? undefined : "libtpu not found (install it: npm run setup:oracles, or set TPJRT_LIBTPU_PATH)") : loaded.reason);
if (noTpu) console.warn(`[examples.test] AOT SKIPPED: ${noTpu}`);

describe.skipIf(noTpu !== undefined)("the training example ahead of time for TPU", () => {
  it("compiles its whole training step for v5e:2x2 and v6e:2x2", () => {
    const lines = run(["--aot", "v5e:2x2,v6e:2x2"]).trim().split("\n").filter((l) => l.startsWith("{"));
    expect(lines.map((l) => JSON.parse(l).topology)).toEqual(["v5e:2x2", "v6e:2x2"]);
    for (const line of lines) {
      const r = JSON.parse(line);
      expect(r.outputs, r.topology).toEqual(r.lowered); // the loss, then the updated parameters and AdamW state
      expect(r.outputs).toHaveLength(1 + 3 * 40); // 40 parameter tensors, each with exp_avg and exp_avg_sq
      // every parameter, exp_avg and exp_avg_sq (float32) is updated in its own buffer (TPU layouts pad small arrays)
      expect(r.memory.alias_size_in_bytes).toBeGreaterThanOrEqual(3 * 4 * r.numParams);
      expect(r.memory.alias_size_in_bytes).toBeLessThan(1.02 * 3 * 4 * r.numParams);
      const estimate = 6 * r.numParams * r.tokens;
      expect(r.cost.flops / estimate).toBeGreaterThan(1);
      expect(r.cost.flops / estimate).toBeLessThan(1.5);
    }
  });
});
