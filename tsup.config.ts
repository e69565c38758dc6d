import { defineConfig } from "tsup";

// One entry, ESM (.js) + CJS (.cjs) + types (.d.ts / .d.cts), for Node 20 (ecosystem.md §1.6).
export default defineConfig({
  entry: ["src/index.ts"],
  format: ["esm", "cjs"],
  dts: true,
  target: "node20",
  platform: "node",
  // No source maps: dist/ is readable as built (not minified), and the package ships without them.
  sourcemap: false,
  // No `clean`: test/cli.test.ts rebuilds a stale dist without types, and must not delete them.
  // import.meta.url (used to find the package root and load the addon) in the CJS build too.
  shims: true,
  // tsup's dts step builds with its own settings; tsconfig's noEmit must not stop it.
  tsconfig: "tsconfig.json",
});
