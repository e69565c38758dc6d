// Real XLA (jaxlib 0.10.2's CPU client, driven by scripts/xla_oracle.py) as the oracle for the op
// table: every module must compile and run on XLA, XLA's numbers must match the table's float64
// reference, and our CPU plugin must give XLA's numbers (same tolerances).

import { beforeAll, describe, expect, it } from "vitest";

import { type OracleResult, oracleAvailable, runOnXla } from "./helpers/oracle.js";
import { OP_CASES } from "./ops/cases.js";
import { loadTorch, runCase, type Torch } from "./ops/harness.js";
import { compareTensors, type TensorVal } from "./ops/ref.js";

const avail = oracleAvailable();
if (!avail.ok) console.warn(`[xla.test] SKIPPED: ${avail.reason}`);

describe.skipIf(!avail.ok)(`op table on real XLA (jaxlib ${avail.ok ? avail.jaxlib : "?"} CPU)`, () => {
  let xla: Map<string, OracleResult>;
  let torch: Torch | undefined;
  let torchWhyNot = "";

  beforeAll(async () => {
    const t0 = Date.now();
    xla = await runOnXla(OP_CASES.map((c) => ({ name: c.name, mlir: c.mlir, inputs: c.inputs })));
    console.log(`[xla.test] ${OP_CASES.length} modules compiled and run on XLA in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    const l = await loadTorch();
    if (l.ok) torch = l.torch;
    else {
      torchWhyNot = l.reason;
      console.warn(`[xla.test] plugin-vs-XLA comparisons SKIPPED: ${l.reason}`);
    }
  }, 900_000);

  const xlaOutputs = (name: string): TensorVal[] => {
    const r = xla.get(name);
    if (!r) throw new Error(`no XLA result for ${name}`);
    if (!r.ok) throw new Error(`XLA failed at ${r.stage}: ${r.error}`);
    return r.outputs;
  };

  describe("XLA matches the float64 reference", () => {
    for (const c of OP_CASES) {
      it(c.name, () => {
        const outs = xlaOutputs(c.name);
        expect(outs.length, "number of outputs").toBe(c.expected.length);
        const errs = c.expected.flatMap((e, i) => compareTensors(e, outs[i]!, `output ${i}`));
        expect(errs, `${c.name}\n${c.mlir}`).toEqual([]);
      });
    }
  });

  describe("our CPU plugin matches XLA", () => {
    for (const c of OP_CASES) {
      it(c.name, async (ctx) => {
        if (!torch) {
          ctx.skip(torchWhyNot);
          return;
        }
        const want = xlaOutputs(c.name);
        const got = await runCase(torch, c, "cpu");
        expect(got.length, "number of outputs").toBe(want.length);
        // XLA's values, with the case's tolerances
        const errs = c.expected.flatMap((e, i) =>
          compareTensors({ ...want[i]!, tol: e.tol, tolAbs: e.tolAbs }, got[i]!, `output ${i}`),
        );
        expect(errs, c.name).toEqual([]);
      });
    }
  });
});
