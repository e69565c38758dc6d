// Our float GEMM against MKL's sgemm (PyTorch's) in the same process, in alternating rounds
// (benchmarks/native/gemm_peer.cc): a ratio free of the drift between processes that the suite's W1
// rows carry. Needs the native tests' build (npm run test:native) and PyTorch in the venv.
// Usage: node benchmarks/gemm-peer.mjs [rounds]   (BENCH_THREADS: threads for both, default 2)
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ensurePeer, peerEnv, pythonPath } from "./suite/python.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const binary = resolve(root, "build", "gemm_peer");
if (!existsSync(binary)) throw new Error(`no ${binary}: build the native tests first (npm run test:native)`);
const python = pythonPath(root);
const missing = ensurePeer(python);
if (missing) throw new Error(missing);
const where = spawnSync(python, ["-c", "import torch, os; print(os.path.join(os.path.dirname(torch.__file__), 'lib', 'libtorch_cpu.so'))"], { encoding: "utf8" });
if (where.status !== 0) throw new Error(`could not find libtorch_cpu.so: ${where.stderr}`);
const threads = Number(process.env.BENCH_THREADS ?? 2);
const rounds = process.argv[2] ?? "5";
const run = spawnSync(binary, [where.stdout.trim(), String(threads), rounds], { env: peerEnv(threads), stdio: "inherit" });
process.exit(run.status ?? 1);
