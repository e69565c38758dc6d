// Runs StableHLO modules on real XLA (jaxlib's CPU client) through scripts/xla_oracle.py.
// One python process per batch: jax's import is slow, so callers send every case at once.

import { spawn, spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { decode, encode, type DType, type Scalar } from "../ops/dtypes.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const script = resolve(root, "scripts/xla_oracle.py");

export interface OracleTensor {
  dtype: DType;
  shape: number[];
  values: Scalar[];
}
export interface OracleCase {
  name: string;
  mlir: string;
  inputs: OracleTensor[];
}
export type OracleResult =
  | { name: string; ok: true; outputs: OracleTensor[]; seconds: number }
  | { name: string; ok: false; stage: string; error: string };

/** The python interpreter to use: env TORCH_PJRT_PYTHON, else the repo's .venv. */
export function pythonPath(): string {
  return process.env.TORCH_PJRT_PYTHON ?? resolve(root, ".venv/bin/python");
}

let probed: { ok: true; jaxlib: string } | { ok: false; reason: string } | undefined;

/** Whether jaxlib's CPU client is usable; when not, `reason` says why (for a printed skip). */
export function oracleAvailable(): { ok: true; jaxlib: string } | { ok: false; reason: string } {
  if (probed) return probed;
  const py = pythonPath();
  if (!existsSync(py)) {
    probed = {
      ok: false,
      reason: `no python at ${py} (create the venv: python3 -m venv .venv && .venv/bin/pip install jax==0.10.2 jaxlib==0.10.2 libtpu==0.0.42.1 numpy, or set TORCH_PJRT_PYTHON)`,
    };
    return probed;
  }
  const r = spawnSync(py, [script, "--probe"], { encoding: "utf8", timeout: 120_000 });
  if (r.status !== 0) {
    const why = (r.stderr || r.error?.message || "").trim().split("\n").slice(-3).join(" | ");
    probed = { ok: false, reason: `${py} cannot use jaxlib's CPU client: ${why}` };
    return probed;
  }
  const info = JSON.parse(r.stdout.trim().split("\n").pop()!) as { jaxlib: string };
  probed = { ok: true, jaxlib: info.jaxlib };
  return probed;
}

/** Compiles and runs every case on XLA CPU in one python process. */
export async function runOnXla(cases: OracleCase[], timeoutMs = 600_000): Promise<Map<string, OracleResult>> {
  const batch = {
    cases: cases.map((c) => ({
      name: c.name,
      mlir: c.mlir,
      inputs: c.inputs.map((t) => ({
        dtype: t.dtype,
        shape: t.shape,
        data: Buffer.from(encode(t.dtype, t.values)).toString("base64"),
      })),
    })),
  };
  // TORCH_PJRT_ORACLE_DUMP=<file>: also write the batch there (rerun by hand: python scripts/xla_oracle.py < file)
  if (process.env.TORCH_PJRT_ORACLE_DUMP) writeFileSync(process.env.TORCH_PJRT_ORACLE_DUMP, JSON.stringify(batch));
  const py = pythonPath();
  const stdout = await new Promise<string>((resolveP, reject) => {
    const child = spawn(py, [script], { stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`xla_oracle.py took longer than ${timeoutMs} ms`));
    }, timeoutMs);
    child.stdout.on("data", (d: Buffer) => out.push(d));
    child.stderr.on("data", (d: Buffer) => err.push(d));
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code !== 0) {
        reject(new Error(`xla_oracle.py exited with ${code}: ${Buffer.concat(err).toString().slice(-2000)}`));
      } else resolveP(Buffer.concat(out).toString("utf8"));
    });
    child.stdin.end(JSON.stringify(batch));
  });
  const parsed = JSON.parse(stdout) as {
    results: Array<
      | { name: string; ok: true; outputs: { dtype: DType; shape: number[]; data: string }[]; seconds: number }
      | { name: string; ok: false; stage: string; error: string }
    >;
  };
  const map = new Map<string, OracleResult>();
  for (const r of parsed.results) {
    if (r.ok) {
      map.set(r.name, {
        name: r.name,
        ok: true,
        seconds: r.seconds,
        outputs: r.outputs.map((o) => ({
          dtype: o.dtype,
          shape: o.shape,
          values: decode(o.dtype, new Uint8Array(Buffer.from(o.data, "base64"))),
        })),
      });
    } else map.set(r.name, r);
  }
  return map;
}
