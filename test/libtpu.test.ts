// libtpu through our runtime, on a machine without a TPU chip: the plugin loads, reports its
// StableHLO version, refuses to make TPU tensors with libtpu's own "no TPU" error inside a
// PluginError, and compiles every op-table module ahead of time for a v5e:2x2 topology.

import { describe, expect, it } from "vitest";

import { OP_CASES, type OpCase } from "./ops/cases.js";
import { loadTorch } from "./ops/harness.js";

const TOPOLOGY = "v5e:2x2";
const CONCURRENCY = Number(process.env.TORCH_PJRT_AOT_CONCURRENCY ?? 2);

const loaded = await loadTorch();
const torch = loaded.ok ? loaded.torch : undefined;

/** The tpu entry of torch.runtime.plugins(), whatever container shape the API returns. */
function tpuPlugin(): any {
  const ps = torch.runtime.plugins();
  if (Array.isArray(ps)) return ps.find((p: any) => p.name === "tpu");
  if (ps instanceof Map) return ps.get("tpu");
  return ps?.tpu;
}
const isFound = (p: any) => !!p && (p.found ?? p.available ?? p.loaded ?? Boolean(p.path));

let skipReason = "";
if (!loaded.ok) skipReason = loaded.reason;
else if (!isFound(tpuPlugin()))
  skipReason = `libtpu not found (torch.runtime.plugins() tpu entry: ${JSON.stringify(tpuPlugin() ?? null)}); install it with .venv/bin/pip install libtpu==0.0.42.1 or set TPU_LIBRARY_PATH`;
if (skipReason) console.warn(`[libtpu.test] SKIPPED: ${skipReason}`);

/** Attributes as a name → value map (accepts an array of {name, value} or a plain object). */
function attributesOf(p: any): Record<string, unknown> {
  const a = p.attributes ?? torch.runtime.pluginAttributes?.("tpu");
  const raw = typeof a === "function" ? a.call(p) : a;
  if (Array.isArray(raw)) return Object.fromEntries(raw.map((x: any) => [x.name, x.value]));
  return raw ?? {};
}

// TPUs have no f64 hardware: XLA:TPU emulates it (every f64 module of the table compiles with
// libtpu 0.0.42.1), so an f64 module may compile or be rejected with a clear CompileError; which one
// is logged. Cases marked `tpuMayReject` (64-bit integer dot_general, pred clamp) are valid StableHLO
// that libtpu 0.0.42.1 does not implement: a CompileError is accepted for those too, and logged.
const usesF64 = (c: OpCase) => [...c.inputs, ...c.expected].some((t) => t.dtype === "float64");
const mayReject = (c: OpCase) => usesF64(c) || c.tpuMayReject !== undefined;

describe.skipIf(!!skipReason)(`libtpu (AOT for ${TOPOLOGY}, no TPU chip needed)`, () => {
  it("loads through our runtime and reports stablehlo_current_version [1, 17, 0]", () => {
    const p = tpuPlugin();
    const attrs = attributesOf(p);
    const v = attrs.stablehlo_current_version as ArrayLike<number | bigint> | undefined;
    expect(v, `attributes: ${JSON.stringify(Object.keys(attrs))}`).toBeDefined();
    expect(Array.from(v!, Number)).toEqual([1, 17, 0]);
  });

  it("a TPU tensor without a TPU chip → PluginError saying there is no TPU, carrying libtpu's NOT_FOUND", () => {
    let err: any;
    try {
      const t = torch.tensor(new Float32Array([1, 2, 3]), { dtype: "float32", device: "tpu" });
      t.dispose();
    } catch (e) {
      err = e;
    }
    expect(err, "creating a tpu tensor should fail on a machine with no TPU").toBeDefined();
    expect(err).toBeInstanceOf(torch.PluginError);
    expect(err).toBeInstanceOf(torch.TorchError);
    expect(err.message).toMatch(/no TPU/i);
    expect(err.message).toMatch(/No jellyfish device found/);
    // and the CPU is unaffected
    const c = torch.tensor(new Float32Array([1, 2, 3]), { dtype: "float32" });
    expect(Array.from(c.dataSync())).toEqual([1, 2, 3]);
    c.dispose();
  });

  it(`compiles every op-table module ahead of time for ${TOPOLOGY} with the expected output types`, async () => {
    const t0 = Date.now();
    const failures: string[] = [];
    const wideOutcomes: { ok: string[]; rejected: string[] } = { ok: [], rejected: [] };
    const times: number[] = [];
    const slow: [number, string][] = [];
    let next = 0;
    const worker = async () => {
      while (next < OP_CASES.length) {
        const c = OP_CASES[next++]!;
        const t1 = Date.now();
        try {
          const r = await torch.runtime.compileFor("tpu", c.mlir, { topology: TOPOLOGY });
          times.push(Date.now() - t1);
          slow.push([Date.now() - t1, c.name]);
          const got = r.outputs.map((o: any) => `${o.dtype}[${Array.from(o.shape).join(",")}]`);
          const want = c.expected.map((e) => `${e.dtype}[${e.shape.join(",")}]`);
          if (JSON.stringify(got) !== JSON.stringify(want)) failures.push(`${c.name}: outputs ${got.join(" ")}, expected ${want.join(" ")}`);
          else if (!(r.serialized instanceof Uint8Array) || r.serialized.length === 0) failures.push(`${c.name}: empty serialized executable`);
          else if (mayReject(c)) wideOutcomes.ok.push(c.name);
        } catch (e: any) {
          if (mayReject(c) && e instanceof torch.CompileError && e.message.length > 10) wideOutcomes.rejected.push(`${c.name}: ${e.message.split("\n")[0]}`);
          else failures.push(`${c.name}: ${e?.constructor?.name} ${String(e?.message ?? e).split("\n")[0]}`);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const secs = (Date.now() - t0) / 1000;
    times.sort((a, b) => a - b);
    console.log(
      `[libtpu.test] ${OP_CASES.length} modules AOT-compiled for ${TOPOLOGY} in ${secs.toFixed(1)} s ` +
        `(concurrency ${CONCURRENCY}; per module median ${times[times.length >> 1] ?? "?"} ms, max ${times[times.length - 1] ?? "?"} ms)`,
    );
    slow.sort((a, b) => b[0] - a[0]);
    console.log(`[libtpu.test] slowest: ${slow.slice(0, 4).map(([ms, n]) => `${n} ${ms} ms`).join(", ")}`);
    console.log(`[libtpu.test] f64 or tpuMayReject modules: ${wideOutcomes.ok.length} compiled, ${wideOutcomes.rejected.length} rejected with a CompileError`);
    const rejectedF64 = wideOutcomes.rejected.filter((r) => r.includes("float64"));
    if (wideOutcomes.rejected.length) console.log(`[libtpu.test] rejected:\n  ${wideOutcomes.rejected.map((r) => r.slice(0, 240)).join("\n  ")}`);
    console.log(`[libtpu.test] f64 modules rejected: ${rejectedF64.length}`);
    expect(failures).toEqual([]);
  }, 1_200_000);
});
