/**
 * @file Where the package lives and where its native build outputs are looked for.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Host } from "../plugins/host.js";

/** Target names from native/build.json (test/runtime.test.ts checks they match). */
export const addonFileName = "torch_pjrt.node";
export const cpuPluginFileName = "pjrt_cpu_plugin.so";

let root: string | undefined;

/** The folder holding torch-pjrt's package.json (found by walking up from this module). */
export function packageRoot(): string {
  if (root !== undefined) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, "utf8")) as { name?: string }).name === "torch-pjrt") {
          return (root = dir);
        }
      } catch {
        // not ours; keep walking
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return (root = process.cwd());
    dir = parent;
  }
}

/**
 * Folders that may hold the addon and the bundled CPU plugin, in order. Env TORCH_PJRT_BUILD_DIR
 * (a cmake-js --out folder, or its Release/ folder) replaces the defaults.
 */
export function buildDirs(host: Host, packageDir: string = packageRoot()): string[] {
  const override = host.env.TORCH_PJRT_BUILD_DIR;
  if (override) return [join(resolve(override), "Release"), resolve(override)];
  return [join(packageDir, "build", "Release"), join(packageDir, "prebuilds", `${process.platform}-${process.arch}`)];
}

/** The first `dir/fileName` that exists, and every path tried. */
export function findInBuildDirs(host: Host, fileName: string, packageDir?: string): { path?: string; searched: string[] } {
  const searched: string[] = [];
  for (const dir of buildDirs(host, packageDir)) {
    const path = join(dir, fileName);
    searched.push(path);
    if (host.isFile(path)) return { path, searched };
  }
  return { searched };
}
