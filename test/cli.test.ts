import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { findLibtpu } from "../src/plugins/discovery.js";
import { realHost } from "../src/plugins/host.js";
import { scanTpuChips } from "../src/plugins/tpu_chips.js";
import { packageRoot } from "../src/runtime/paths.js";
import { realRuntimeMissing } from "./helpers/runtime.js";

const root = packageRoot();
const cli = join(root, "bin", "torch-pjrt.cjs");
const dist = join(root, "dist", "index.cjs");

function newestSource(dir: string): number {
  let newest = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = statSync(path);
    newest = Math.max(newest, stat.isDirectory() ? newestSource(path) : stat.mtimeMs);
  }
  return newest;
}

function run(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [cli, ...args], { cwd: root, encoding: "utf8", timeout: 120_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("torch-pjrt CLI", () => {
  beforeAll(() => {
    // The CLI loads dist/index.cjs; build it (without types, ~1 s) when it is missing or stale.
    if (!existsSync(dist) || statSync(dist).mtimeMs < newestSource(join(root, "src"))) {
      execFileSync(process.execPath, [join(root, "node_modules", "tsup", "dist", "cli-default.js"), "--no-dts", "--silent"], { cwd: root, stdio: "pipe" });
    }
  });

  it("prints usage for help and rejects unknown commands", () => {
    expect(run("help").stdout).toMatch(/usage: torch-pjrt <command>[\s\S]*info[\s\S]*rebuild/);
    const bad = run("frobnicate");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/unknown command 'frobnicate'/);
  });

  it("info lists every plugin, where it was found, and why unusable ones are", () => {
    const { code, stdout } = run("info");
    expect(code).toBe(0);
    expect(stdout).toMatch(/^torch-pjrt \d+\.\d+\.\d+ on node v\d+/);
    expect(stdout).toMatch(/^ {2}cpu /m);
    expect(stdout).toMatch(/^ {2}tpu /m);
    expect(stdout).toMatch(/^ {2}cuda +not-found +not found$/m);
    expect(stdout).toMatch(/pip install jax-cuda12-pjrt/);
    const libtpu = findLibtpu(realHost).path;
    if (libtpu) expect(stdout).toContain(`${libtpu} (pip)`);
    const missing = realRuntimeMissing();
    if (missing) {
      expect(stdout).toMatch(/npm run build:native/);
      expect(stdout).toMatch(/devices:\n {2}none usable/);
    } else {
      expect(stdout).toMatch(/^ {2}cpu +ready +\S+pjrt_cpu_plugin\.so \((build|TORCH_PJRT_BUILD_DIR)\)$/m);
      expect(stdout).toMatch(/PJRT API \d+\.\d+/);
      expect(stdout).toMatch(/^ {2}cpu:0 /m);
      if (libtpu && scanTpuChips(realHost).count === 0) {
        expect(stdout).toMatch(/^ {2}tpu +no-device /m);
        expect(stdout).toMatch(/why not usable: libtpu loaded but this machine has no TPU/);
        expect(stdout).toMatch(/StableHLO \d+\.\d+\.\d+/);
      }
    }
  });

  it("info --json gives the same facts as data", () => {
    const { code, stdout } = run("info", "--json", "--no-load");
    expect(code).toBe(0);
    const parsed = JSON.parse(stdout) as { plugins: Array<{ name: string; found: boolean; searched: string[] }> };
    expect(parsed.plugins.map((p) => p.name)).toEqual(["cpu", "tpu", "cuda"]);
    expect(parsed.plugins.find((p) => p.name === "tpu")!.found).toBe(findLibtpu(realHost).path !== undefined);
  });
});
