// Test set-up for the runtime: a fake addon with a fake CPU plugin file, or the real build.
import { mkdtempSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { replaceAddonForTests, locateAddon } from "../../src/runtime/addon.js";
import { resetClientsForTests } from "../../src/runtime/clients.js";
import { resetRegistrationsForTests } from "../../src/plugins/registry.js";
import { fakeAddon, type FakeAddon, type FakeOptions } from "./fakeAddon.js";

/** Installs a fake addon and a fake build folder holding an (empty) CPU plugin file. */
export function useFakeRuntime(options: FakeOptions = {}): FakeAddon {
  const dir = mkdtempSync(join(tmpdir(), "torch-pjrt-fake-"));
  writeFileSync(join(dir, "pjrt_cpu_plugin.so"), "");
  process.env.TORCH_PJRT_BUILD_DIR = dir;
  const fake = fakeAddon(options);
  resetClientsForTests();
  resetRegistrationsForTests();
  replaceAddonForTests(fake);
  return fake;
}

export function restoreRealRuntime(buildDir: string | undefined): void {
  replaceAddonForTests(undefined);
  resetClientsForTests();
  resetRegistrationsForTests();
  if (buildDir === undefined) delete process.env.TORCH_PJRT_BUILD_DIR;
  else process.env.TORCH_PJRT_BUILD_DIR = buildDir;
}

/** Why the real addon cannot be used here, or undefined when it can. */
export function realRuntimeMissing(): string | undefined {
  const { path, searched } = locateAddon();
  if (!path) return `native addon not built (looked in ${searched.join(", ")}); run npm run build:native`;
  const plugin = join(path, "..", "pjrt_cpu_plugin.so");
  if (!existsSync(plugin)) return `CPU plugin not built (${plugin})`;
  return undefined;
}
