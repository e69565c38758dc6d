#!/usr/bin/env node
// npm's install step: build the native addon and the bundled CPU PJRT plugin from source with
// cmake-js (headers come from the node-api-headers package, so no download is needed).
// TORCH_PJRT_SKIP_BUILD=1 skips it (e.g. when a build directory is supplied another way).
"use strict";
const { spawnSync } = require("node:child_process");
const path = require("node:path");

if (process.env.TORCH_PJRT_SKIP_BUILD === "1") {
  console.log("torch-pjrt: TORCH_PJRT_SKIP_BUILD=1, not building the native addon");
  process.exit(0);
}
const root = path.resolve(__dirname, "..");
const cmakeJs = require.resolve("cmake-js/bin/cmake-js", { paths: [root] });
const result = spawnSync(process.execPath, [cmakeJs, "compile", "--out", "build"], { cwd: root, stdio: "inherit" });
if (result.status !== 0) {
  console.error(
    "torch-pjrt: building the native addon failed. It needs cmake >= 3.19 and a C++20 compiler (g++ >= 10).\n" +
      "Install them (Debian/Ubuntu: apt-get install cmake g++) and run `npx torch-pjrt rebuild`.",
  );
  process.exit(result.status ?? 1);
}
