import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Native addon suites run in child processes (a crash or a libtpu load stays in one fork).
    pool: "forks",
    // Leak tests call global.gc() to exercise the FinalizationRegistry safety net.
    execArgv: ["--expose-gc"],
    // Loading libtpu (≈690 MB) and compiling many modules with it takes minutes on a busy machine.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    setupFiles: ["test/helpers/setup.ts"],
    globalSetup: ["test/helpers/global_setup.ts"],
  },
});
