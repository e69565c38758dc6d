// Programs written elsewhere: StableHLO modules exported by jax.export (test/fixtures/jax/exports.json,
// written by scripts/fixtures/jax_exports.py) run through torch.runtime.compile on the CPU plugin and
// give the values jax.jit computed on JAX's CPU backend; those JAX lowers to what the plugin does not
// run (LAPACK custom calls, complex numbers) are a CompileError that says what. No tensor leaks.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as torch from "../src/index.js";
import { missing, valuesOf } from "./eager/helpers.js";
import { fixturesDir } from "./helpers/fixtures.js";

interface Values {
  dtype: torch.DType;
  shape: number[];
  /** NaN and ±inf written as "NaN", "Infinity", "-Infinity" */
  values: (number | string)[];
}
interface ExportCase {
  name: string;
  mlir: string;
  inputs: Values[];
  outputs?: Values[];
  rtol?: number;
  atol?: number;
  error?: string;
}
const fixture = JSON.parse(readFileSync(join(fixturesDir, "jax", "exports.json"), "utf8")) as { jax: string; cases: ExportCase[] };

const test = missing ? it.skip : it;
if (missing) it.skip(`skipped: ${missing}`, () => {});

/** Index and values of the first element of `got` farther than max(atol, rtol·|want|) from `want`. */
function firstMiss(got: number[], want: (number | string)[], rtol: number, atol: number): string | undefined {
  for (let i = 0; i < want.length; i++) {
    const w = Number(want[i]);
    const g = got[i]!;
    if (Number.isNaN(w) ? Number.isNaN(g) : g === w || Math.abs(g - w) <= Math.max(atol, rtol * Math.abs(w))) continue;
    return `element ${i}: ${g}, JAX ${w}`;
  }
  return undefined;
}

describe(`jax.export modules (JAX ${fixture.jax}) on the CPU plugin`, () => {
  for (const c of fixture.cases) {
    test(c.name, async () => {
      const start = torch.memory().numTensors;
      if (c.error !== undefined) {
        const failure = await torch.runtime.compile(c.mlir).then(
          (exe) => {
            exe.dispose();
            return undefined;
          },
          (e: unknown) => e,
        );
        expect(failure).toBeInstanceOf(torch.CompileError);
        expect(String((failure as Error).message)).toContain(c.error);
        return;
      }
      const exe = await torch.runtime.compile(c.mlir);
      const inputs = c.inputs.map((v) => torch.tensor(v.values.map(Number), { dtype: v.dtype, shape: v.shape }));
      try {
        const outputs = await exe.run(inputs);
        expect(outputs.length).toBe(c.outputs!.length);
        outputs.forEach((t, k) => {
          const want = c.outputs![k]!;
          expect(`${t.dtype}[${t.shape}]`, `output ${k}`).toBe(`${want.dtype}[${want.shape}]`);
          expect(firstMiss(valuesOf(t), want.values, c.rtol ?? 0, c.atol ?? 0), `output ${k}`).toBeUndefined();
          t.dispose();
        });
      } finally {
        for (const t of inputs) t.dispose();
        exe.dispose();
      }
      expect(torch.memory().numTensors).toBe(start);
    });
  }
});
