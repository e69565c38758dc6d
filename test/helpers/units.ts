// Real XLA as the oracle for the StableHLO our eager units print. `unitsOnRealXla(title, cases)`
// runs each case's op once on our CPU plugin (it must compile exactly one unit), sends that unit's
// module and inputs to XLA's CPU client (jaxlib) and expects XLA's numbers to equal ours; then it
// compiles every module ahead of time for a TPU topology with libtpu (no chip needed) and expects
// the output types we inferred. Each op family has a small test file that calls this with its cases.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as torch from "../../src/index.js";
import { dtypes } from "../../src/dtype.js";
import { addon } from "../../src/runtime/addon.js";
import { onCompile } from "../../src/trace/eager.js";
import { missing } from "../eager/helpers.js";
import { type OracleCase, type OracleResult, oracleAvailable, runOnXla } from "./oracle.js";

export type UnitFn = (...xs: torch.Tensor[]) => torch.Tensor | torch.Tensor[];
/** [name, make the inputs, the op under test (one eager unit)]. */
export type UnitCase = [name: string, make: () => torch.Tensor[], fn: UnitFn];
export interface UnitOptions {
  /** Relative tolerance for float outputs (XLA's transcendental approximations differ from ours). */
  tol?: number;
}

const TOPOLOGY = "v5e:2x2";

interface Captured {
  mlir: string;
  inputs: OracleCase["inputs"];
  outputs: Array<{ dtype: string; shape: number[]; values: number[] }>;
}

function capture(cases: readonly UnitCase[]): Map<string, Captured> {
  const ours = new Map<string, Captured>();
  torch.runtime.clearCache();
  for (const [name, make, fn] of cases) {
    const graphs: string[] = [];
    const previous = onCompile((_, graph) => graphs.push(addon().printGraph(graph)));
    try {
      torch.tidy(() => {
        const inputs = make();
        // read before the op: in-place ops (and batchNorm's running statistics) rebind their inputs
        const inputValues = inputs.map((t) => ({ dtype: t.dtype, shape: [...t.shape], values: Array.from(t.dataSync() as ArrayLike<number | bigint>) as never }));
        const before = graphs.length;
        const out = fn(...inputs);
        const outs = Array.isArray(out) ? out : [out];
        if (graphs.length - before !== 1) throw new Error(`case ${name} compiled ${graphs.length - before} units; each case must be one unit`);
        ours.set(name, {
          mlir: graphs[graphs.length - 1]!,
          inputs: inputValues,
          outputs: outs.map((t) => ({ dtype: t.dtype, shape: [...t.shape], values: Array.from(t.dataSync() as ArrayLike<number | bigint>, Number) })),
        });
      });
    } finally {
      onCompile(previous);
    }
  }
  return ours;
}

function compare(name: string, c: Captured, r: OracleResult | undefined, tol: number): void {
  expect(r, name).toBeDefined();
  if (!r!.ok) throw new Error(`${name}: XLA ${r!.stage} failed: ${r!.error}\n${c.mlir}`);
  expect(r!.outputs.length, name).toBe(c.outputs.length);
  r!.outputs.forEach((o, k) => {
    const mine = c.outputs[k]!;
    expect([...o.shape], `${name} output ${k} shape`).toEqual(mine.shape);
    const theirs = Array.from(o.values as ArrayLike<number | bigint>, Number);
    const t = dtypes[mine.dtype as torch.DType].kind === "float" ? tol : 0;
    theirs.forEach((v, i) => {
      const m = mine.values[i]!;
      if (Number.isNaN(m)) expect(v, `${name}[${k}][${i}]`).toBeNaN();
      else if (!Number.isFinite(m)) expect(v, `${name}[${k}][${i}]`).toBe(m);
      else expect(Math.abs(v - m), `${name}[${k}][${i}] XLA ${v} vs ours ${m}`).toBeLessThanOrEqual(t * Math.max(1, Math.abs(m)));
    });
  });
}

function libtpuMissing(): string | undefined {
  const tpu = torch.runtime.plugins().find((p) => p.name === "tpu");
  return tpu?.found ? undefined : "libtpu not found (install it with .venv/bin/pip install libtpu==0.0.42.1 or set TPU_LIBRARY_PATH)";
}

/** Registers the real-XLA and libtpu checks for `cases` under `title`. */
export function unitsOnRealXla(title: string, cases: readonly UnitCase[], options: UnitOptions = {}): void {
  const avail = missing ? { ok: false as const, reason: missing } : oracleAvailable();
  const noTpu = missing ?? libtpuMissing();
  describe(`${title}: eager units on real XLA`, () => {
    let ours = new Map<string, Captured>();
    let xla = new Map<string, OracleResult>();
    beforeAll(async () => {
      if (missing) return;
      ours = capture(cases);
      if (avail.ok) xla = await runOnXla([...ours].map(([name, c]) => ({ name, mlir: c.mlir, inputs: c.inputs })));
    }, 600_000);
    afterAll(() => torch.runtime.clearCache());

    if (!avail.ok) it.skip(`XLA CPU skipped: ${avail.reason}`, () => {});
    else {
      it(`${cases.length} units compile on XLA CPU and match our plugin`, () => {
        for (const [name, c] of ours) compare(name, c, xla.get(name), options.tol ?? 1e-6);
        expect(ours.size).toBe(cases.length);
      });
    }
    if (noTpu) it.skip(`libtpu AOT skipped: ${noTpu}`, () => {});
    else {
      it(`${cases.length} units compile ahead of time for TPU ${TOPOLOGY} with libtpu`, async () => {
        const failures: string[] = [];
        for (const [name, c] of ours) {
          if (c.inputs.some((t) => t.dtype === "float64") || c.outputs.some((t) => t.dtype === "float64")) continue; // no f64 on TPU
          try {
            const r = await torch.runtime.compileFor("tpu", c.mlir, { topology: TOPOLOGY });
            const got = r.outputs.map((o) => `${o.dtype}[${o.shape.join(",")}]`).join(" ");
            const want = c.outputs.map((o) => `${o.dtype}[${o.shape.join(",")}]`).join(" ");
            if (got !== want) failures.push(`${name}: libtpu outputs ${got}, ours ${want}`);
          } catch (e) {
            failures.push(`${name}: ${(e as Error).constructor.name} ${String((e as Error).message).split("\n")[0]}`);
          }
        }
        expect(failures).toEqual([]);
      }, 600_000);
    }
  });
}
