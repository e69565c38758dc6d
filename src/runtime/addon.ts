/**
 * @file Loads the native addon (build/Release/torch_pjrt.node, or prebuilds/, or env
 * TORCH_PJRT_BUILD_DIR) once, with a clear error that says how to build it.
 */
import { createRequire } from "node:module";
import { realHost } from "../plugins/host.js";
import { AddonError } from "./errors.js";
import type { NativeAddon } from "./native.js";
import { addonFileName, findInBuildDirs } from "./paths.js";

let loaded: { addon: NativeAddon; path: string } | undefined;
let replacement: NativeAddon | undefined;

/** Where the addon would be loaded from, and every path tried. */
export function locateAddon(): { path?: string; searched: string[] } {
  return findInBuildDirs(realHost, addonFileName);
}

/** The addon; loads it on first use. */
export function addon(): NativeAddon {
  if (replacement) return replacement;
  if (loaded) return loaded.addon;
  const { path, searched } = locateAddon();
  if (!path) {
    throw new AddonError(
      `the torch-pjrt native addon is not built (looked for ${searched.join(", ")}). ` +
        `Build it with \`npx torch-pjrt rebuild\` (\`npm run build:native\` in a clone), which needs cmake and a C++20 compiler; ` +
        `or point env TORCH_PJRT_BUILD_DIR at a cmake-js build folder.`,
    );
  }
  const require = createRequire(import.meta.url);
  try {
    loaded = { addon: require(path) as NativeAddon, path };
  } catch (error) {
    throw new AddonError(
      `could not load the native addon ${path}: ${(error as Error).message}. ` +
        `Rebuild it for this Node version with \`npx torch-pjrt rebuild\` (\`npm run build:native\` in a clone).`,
    );
  }
  return loaded.addon;
}

/** The path of the loaded addon, if it has been loaded. */
export function loadedAddonPath(): string | undefined {
  return replacement ? "(test double)" : loaded?.path;
}

/** Tests only: use `fake` instead of the real addon (undefined restores it). */
export function replaceAddonForTests(fake: NativeAddon | undefined): void {
  replacement = fake;
}

/** How the loaded addon was built: N-API version, PJRT API version of our header, build tool. */
export function buildInfo(): ReturnType<NativeAddon["buildInfo"]> & { addonPath: string | undefined } {
  return { ...addon().buildInfo(), addonPath: loadedAddonPath() };
}
