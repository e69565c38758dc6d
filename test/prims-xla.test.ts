// Real XLA as the oracle for the StableHLO our eager units print: every module compiles on XLA's
// CPU client (jaxlib) and gives our CPU plugin's numbers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as torch from "../src/index.js";
import { addon } from "../src/runtime/addon.js";
import { onCompile } from "../src/trace/eager.js";
import { type OracleCase, type OracleResult, oracleAvailable, runOnXla } from "./helpers/oracle.js";
import { missing } from "./eager/helpers.js";
import { dtypes } from "../src/dtype.js";

const avail = missing ? { ok: false as const, reason: missing } : oracleAvailable();
const test = avail.ok ? it : it.skip;
if (!avail.ok) it.skip(`skipped: ${avail.reason}`, () => {});

type Fn = (...xs: torch.Tensor[]) => torch.Tensor | torch.Tensor[];
const f32 = (values: number[], shape: number[]) => torch.tensor(new Float32Array(values), { shape });
const cases: Array<[string, () => torch.Tensor[], Fn]> = [
  ["add broadcast", () => [f32([1, 2, 3, 4, 5, 6], [2, 3]), f32([10, 20, 30], [3])], (a, b) => torch.add(a!, b!, { alpha: 2 })],
  ["int promotion", () => [torch.tensor([1, -2, 3], { dtype: "int32" })], (a) => torch.mul(a!, 2.5)],
  ["div floor int", () => [torch.tensor([7, -7, 6], { dtype: "int64" }), torch.tensor([2, 2, -4], { dtype: "int64" })], (a, b) => torch.div(a!, b!, { roundingMode: "floor" })],
  ["div trunc float", () => [f32([7.5, -7.5], [2]), f32([2, 2], [2])], (a, b) => torch.div(a!, b!, { roundingMode: "trunc" })],
  ["where bool const", () => [torch.tensor([true, false, true]), f32([1, 2, 3], [3])], (c, x) => torch.where(c!, x!, 0)],
  ["lt", () => [f32([1, NaN, 3], [3]), f32([1, 2, NaN], [3])], (a, b) => torch.lt(a!, b!)],
  ["ne", () => [f32([1, NaN, 3], [3]), f32([1, 2, NaN], [3])], (a, b) => torch.ne(a!, b!)],
  ["exp", () => [f32([0.5, -1, 2], [3])], (a) => a!.exp()],
  ["tanh", () => [f32([0.5, -1, 2], [3])], (a) => a!.tanh()],
  ["sigmoid", () => [f32([0.5, -1, 2], [3])], (a) => a!.sigmoid()],
  ["relu", () => [f32([0.5, -1, 2], [3])], (a) => a!.relu()],
  ["sqrt int", () => [torch.tensor([1, 4, 2], { dtype: "int32" })], (a) => a!.sqrt()],
  ["sum keepdim", () => [f32([1, 2, 3, 4, 5, 6], [2, 3])], (a) => a!.sum({ dim: -1, keepdim: true })],
  ["int sum", () => [torch.tensor([[1, 2], [3, 4]], { dtype: "int8" })], (a) => a!.sum({ dim: 0 })],
  ["mean", () => [f32([1, 2, 3, 4, 5, 6], [2, 3])], (a) => a!.mean({ dim: [0, 1] })],
  ["amax nan", () => [f32([1, NaN, 3, 4], [2, 2])], (a) => a!.amax({ dim: 1 })],
  ["max dim", () => [f32([1, 7, 7, NaN, 2, NaN], [2, 3])], (a) => {
    const r = a!.max({ dim: 1 });
    return [r.values, r.indices];
  }],
  ["argmin int", () => [torch.tensor([[3, 1, 1], [0, 5, 0]], { dtype: "int32" })], (a) => a!.argmin({ dim: 1 })],
  ["prod", () => [f32([1, 2, 3, 4], [4])], (a) => a!.prod()],
  ["softmax", () => [f32([1, 2, 3, 1000, 1001, -Infinity], [2, 3])], (a) => a!.softmax(-1)],
  ["logSoftmax", () => [f32([1, 2, 3, 4], [2, 2])], (a) => a!.logSoftmax(0)],
  ["matmul batched", () => [f32([1, 2, 3, 4, 5, 6], [1, 2, 3]), f32([1, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3], [2, 3, 2])], (a, b) => a!.matmul(b!)],
  ["matmul vec", () => [f32([1, 2, 3], [3]), f32([1, 2, 3, 4, 5, 6], [3, 2])], (a, b) => a!.matmul(b!)],
  ["transpose", () => [f32([1, 2, 3, 4, 5, 6], [2, 3])], (a) => a!.transpose(0, 1)],
  ["reshape", () => [f32([1, 2, 3, 4, 5, 6], [2, 3])], (a) => a!.reshape(-1)],
  ["expand", () => [f32([1, 2, 3, 4, 5, 6], [2, 1, 3])], (a) => a!.expand(2, 2, 3)],
  ["cat", () => [torch.tensor([[1, 2]], { dtype: "int32" }), f32([0.5, 1.5], [1, 2])], (a, b) => torch.cat([a!, b!], 0)],
  ["pow", () => [f32([1, 2, 3], [3])], (a) => torch.pow(2, a!)],
];

describe("eager units on real XLA", () => {
  const ours = new Map<string, { mlir: string; inputs: OracleCase["inputs"]; outputs: Array<{ dtype: string; shape: number[]; values: number[] }> }>();
  let xla: Map<string, OracleResult>;

  beforeAll(async () => {
    if (!avail.ok) return;
    torch.runtime.clearCache();
    for (const [name, make, fn] of cases) {
      const graphs: string[] = [];
      const previous = onCompile((_, graph) => graphs.push(addon().printGraph(graph)));
      try {
        torch.tidy(() => {
          const inputs = make();
          const out = fn(...inputs);
          const outs = Array.isArray(out) ? out : [out];
          if (graphs.length !== 1) throw new Error(`case ${name} compiled ${graphs.length} units; each case must be one unit`);
          ours.set(name, {
            mlir: graphs[0]!,
            inputs: inputs.map((t) => ({ dtype: t.dtype, shape: [...t.shape], values: Array.from(t.dataSync() as ArrayLike<number | bigint>) as never })),
            outputs: outs.map((t) => ({ dtype: t.dtype, shape: [...t.shape], values: Array.from(t.dataSync() as ArrayLike<number | bigint>, Number) })),
          });
        });
      } finally {
        onCompile(previous);
      }
    }
    xla = await runOnXla([...ours].map(([name, c]) => ({ name, mlir: c.mlir, inputs: c.inputs })));
  });

  afterAll(() => torch.runtime.clearCache());

  test("every unit's module compiles on XLA CPU and matches our plugin", () => {
    let compared = 0;
    for (const [name, c] of ours) {
      const r = xla.get(name);
      expect(r, name).toBeDefined();
      if (!r!.ok) throw new Error(`${name}: XLA ${r!.stage} failed: ${r!.error}\n${c.mlir}`);
      expect(r!.outputs.length, name).toBe(c.outputs.length);
      r!.outputs.forEach((o, k) => {
        const mine = c.outputs[k]!;
        expect([...o.shape], `${name} output ${k} shape`).toEqual(mine.shape);
        const theirs = Array.from(o.values as ArrayLike<number | bigint>, Number);
        const tol = dtypes[mine.dtype as torch.DType].kind === "float" ? 1e-6 : 0;
        theirs.forEach((v, i) => {
          const m = mine.values[i]!;
          if (Number.isNaN(m)) expect(v, `${name}[${k}][${i}]`).toBeNaN();
          else if (!Number.isFinite(m)) expect(v, `${name}[${k}][${i}]`).toBe(m);
          else expect(Math.abs(v - m), `${name}[${k}][${i}] XLA ${v} vs ours ${m}`).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(m)));
        });
      });
      compared++;
    }
    expect(compared).toBe(cases.length);
  });
});
