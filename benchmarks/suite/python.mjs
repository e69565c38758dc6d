// The Python side of the benchmarks: which interpreter runs benchmarks/suite/peer.py, PyTorch and
// numpy in it, and the environment the peer runs with (the suite's thread count for every library).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";

/** BENCH_PYTHON, else the project's .venv. */
export const pythonPath = (root) => process.env.BENCH_PYTHON ?? resolve(root, ".venv/bin/python");

/** undefined when `python` has torch and numpy (installing them with pip if missing), else why not. */
export function ensurePeer(python) {
  if (!existsSync(python)) return `no python at ${python} (run npm run setup:oracles, or set BENCH_PYTHON)`;
  const has = (mod) => spawnSync(python, ["-c", `import ${mod}`]).status === 0;
  if (has("torch") && has("numpy")) return undefined;
  console.log("installing PyTorch 2.13 and numpy into the venv for the comparison …");
  const pip = spawnSync(python, ["-m", "pip", "install", "--retries", "0", "--timeout", "5", "torch==2.13.0", "numpy"], { stdio: "inherit" });
  return pip.status === 0 ? undefined : "pip could not install torch==2.13.0 (no package index reachable?)";
}

/** The peer's environment: this one with `threads` threads for OpenMP, OpenBLAS and MKL, less `unset`. */
export function peerEnv(threads, unset = []) {
  const env = { ...process.env, OMP_NUM_THREADS: String(threads), OPENBLAS_NUM_THREADS: String(threads), MKL_NUM_THREADS: String(threads) };
  for (const name of unset) delete env[name];
  return env;
}
