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

/** The folder of binaries shipped in the npm package for this platform (scripts/prepack.cjs fills it). */
export function prebuildDir(packageDir: string = packageRoot()): string {
  return join(packageDir, "prebuilds", `${process.platform}-${process.arch}`);
}

/**
 * Folders that may hold the addon and the bundled CPU plugin, in order: a local build (a developer's,
 * or the install script's source build when the prebuilt binaries did not fit), then the prebuilt
 * binaries. Env TORCH_PJRT_BUILD_DIR (a cmake-js --out folder, or its Release/ folder) replaces both.
 */
export function buildDirs(host: Host, packageDir: string = packageRoot()): string[] {
  const override = host.env.TORCH_PJRT_BUILD_DIR;
  if (override) return [join(resolve(override), "Release"), resolve(override)];
  return [join(packageDir, "build", "Release"), prebuildDir(packageDir)];
}

/** The first `dir/fileName` that exists, whether it is a prebuilt one, and every path tried. */
export function findInBuildDirs(
  host: Host,
  fileName: string,
  packageDir: string = packageRoot(),
): { path?: string; prebuilt?: boolean; searched: string[] } {
  const searched: string[] = [];
  for (const dir of buildDirs(host, packageDir)) {
    const path = join(dir, fileName);
    searched.push(path);
    if (host.isFile(path)) return { path, prebuilt: !host.env.TORCH_PJRT_BUILD_DIR && dir === prebuildDir(packageDir), searched };
  }
  return { searched };
}
