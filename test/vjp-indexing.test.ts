// The VJP rules of the indexing primitives (src/ops/prims_vjp_indexing.ts) against float64 central
// differences of each primitive's own forward (test/helpers/vjp.ts), on duplicates, clamped and
// skipped out-of-range starts, batching dims and several operands; and, where finite differences
// cannot tell (ties, duplicate replace updates, integer operands), against hand-computed cotangents.
import { describe, expect, it } from "vitest";
import * as torch from "../src/index.js";
import type { GatherParams, Prim, PrimParams, ScatterKind, ScatterParams } from "../src/ops/prims.js";
import { indexingVjps as vjps } from "../src/ops/prims_vjp_indexing.js";
import { runMany } from "../src/ops/unit.js";
import type { VjpRule } from "../src/ops/vjp_types.js";
import { ArgumentError } from "../src/runtime/errors.js";
import { bind, type Tracer } from "../src/trace/tracer.js";
import { realRuntimeMissing } from "./helpers/runtime.js";
import { checkVjp } from "./helpers/vjp.js";

const missing = realRuntimeMissing();
const test = missing ? it.skip : it;
if (missing) it.skip(`skipped: ${missing}`, () => {});

const f64 = (values: number[], shape: number[]) => torch.tensor(new Float64Array(values), { shape, dtype: "float64" });
const i64 = (values: number[], shape: number[]) => torch.tensor(values, { shape, dtype: "int64" });
const i32 = (values: number[], shape: number[]) => torch.tensor(values, { shape, dtype: "int32" });
const start = (v: number) => torch.tensor([v], { shape: [], dtype: "int32" });
/** Distinct, tie-free values: 0.37·k shifted, with alternating signs. */
const distinct = (n: number, shift = 0) => Array.from({ length: n }, (_, k) => (k % 2 ? -1 : 1) * (0.37 * k + 0.11 + shift));

let ruleRuns = 0;

/** Runs `rule` on `inputs` with the given output cotangents (null: zero); null where it returns no cotangent. */
function ruleCts<P extends Prim>(prim: P, rule: VjpRule<P>, inputs: torch.Tensor[], params: PrimParams[P], cts: (torch.Tensor | null)[]): (number[] | null)[] {
  return torch.tidy(() => {
    let gotNull: boolean[] = [];
    const given = cts.filter((c): c is torch.Tensor => c !== null);
    // a fresh key per call, so that the body (which records which cotangents are null) always runs
    const outs = runMany(`vjpIndexingTest.${prim}`, [...inputs, ...given], `${JSON.stringify(params)}|${ruleRuns++}`, (ts) => {
      const ins = ts.slice(0, inputs.length);
      let k = inputs.length;
      const ctTracers = cts.map((c) => (c === null ? null : ts[k++]!));
      const got = rule({ inputs: ins, outputs: bind(prim, ins, params), cts: ctTracers, needed: ins.map(() => true), params });
      gotNull = ins.map((_, i) => got[i] == null);
      return ins.map((x, i): Tracer => got[i] ?? x);
    });
    return outs.map((o, i) => (gotNull[i] ? null : Array.from(o.dataSync() as Float64Array)));
  });
}

describe("gather VJP", () => {
  const rows: GatherParams = { offsetDims: [1], collapsedSliceDims: [0], startIndexMap: [0], indexVectorDim: 1, sliceSizes: [1, 3] };
  const elements: GatherParams = { offsetDims: [], collapsedSliceDims: [0, 1], startIndexMap: [0, 1], indexVectorDim: 2, sliceSizes: [1, 1] };
  const elements1d: GatherParams = { offsetDims: [], collapsedSliceDims: [0], startIndexMap: [0], indexVectorDim: 1, sliceSizes: [1] };

  test("rows with a repeated index accumulate", () => {
    checkVjp("gather", vjps.gather, [f64(distinct(12), [4, 3]), i64([2, 0, 2], [3, 1])], rows);
  });

  test("take_along_dim-style full index vectors, out-of-range ones clamped", () => {
    const idx = i64([0, 0, 2, 3, 5, 1, -4, 3, 1, 1, 1, 1, 0, 9, 2, 2], [2, 4, 2]);
    checkVjp("gather", vjps.gather, [f64(distinct(12), [3, 4]), idx], elements);
  });

  test("overlapping windows whose starts are clamped so they fit", () => {
    const p: GatherParams = { offsetDims: [1, 2], collapsedSliceDims: [], startIndexMap: [0], indexVectorDim: 1, sliceSizes: [3, 2] };
    checkVjp("gather", vjps.gather, [f64(distinct(20), [5, 4]), i64([4, -2, 1], [3, 1])], p);
  });

  test("index_vector_dim first, int32 indices", () => {
    const p: GatherParams = { offsetDims: [], collapsedSliceDims: [0, 1], startIndexMap: [1, 0], indexVectorDim: 0, sliceSizes: [1, 1] };
    checkVjp("gather", vjps.gather, [f64(distinct(12), [4, 3]), i32([0, 2, 2, 1, 7, 1], [2, 3])], p);
  });

  test("batching dims", () => {
    const p: GatherParams = {
      offsetDims: [2], collapsedSliceDims: [1], startIndexMap: [1], indexVectorDim: 2, sliceSizes: [1, 1, 3],
      operandBatchingDims: [0], startIndicesBatchingDims: [0],
    };
    checkVjp("gather", vjps.gather, [f64(distinct(30), [2, 5, 3]), i64([4, 0, 4, 8, 1, 1, -1, 2], [2, 4, 1])], p);
  });

  test("batching dims with the index batch dim last", () => {
    const p: GatherParams = {
      offsetDims: [], collapsedSliceDims: [0], startIndexMap: [0], indexVectorDim: 2, sliceSizes: [1, 1],
      operandBatchingDims: [1], startIndicesBatchingDims: [1],
    };
    checkVjp("gather", vjps.gather, [f64(distinct(6), [3, 2]), i64([2, 0, 2, 2, 1, 0], [3, 2, 1])], p);
  });

  test("a 0-d index (index_vector_dim = rank), clamped; no indices at all", () => {
    const row: GatherParams = { offsetDims: [0], collapsedSliceDims: [0], startIndexMap: [0], indexVectorDim: 0, sliceSizes: [1, 3] };
    checkVjp("gather", vjps.gather, [f64(distinct(6), [2, 3]), i64([5], [])], row);
    checkVjp("gather", vjps.gather, [f64(distinct(6), [2, 3]), i64([], [0, 1])], rows);
  });

  test("the index input, an integer operand and a zero cotangent get none", () => {
    const got = ruleCts("gather", vjps.gather, [f64([1, 2, 3, 4], [4]), i64([3, 3, 0], [3, 1])], elements1d, [f64([1, 10, 100], [3])]);
    expect(got).toEqual([[100, 0, 0, 11], null]);
    expect(ruleCts("gather", vjps.gather, [i32([1, 2, 3, 4], [4]), i64([1], [1, 1])], elements1d, [i32([0], [1])])).toEqual([null, null]);
    expect(ruleCts("gather", vjps.gather, [f64([1, 2, 3, 4], [4]), i64([1], [1, 1])], elements1d, [null])).toEqual([null, null]);
  });
});

const scatterOf = (kind: ScatterKind, over: Partial<ScatterParams> = {}): ScatterParams => ({
  kind, updateWindowDims: [], insertedWindowDims: [0], scatterDimsToOperandDims: [0], indexVectorDim: 1, ...over,
});

describe("scatter VJP", () => {
  // 1 and 3 are hit twice; 7 and -1 are out of range and skipped.
  const idx1d = () => i64([1, 3, 1, 7, -1, 3, 0], [7, 1]);
  // 2-wide windows at (row, col) starts; (3, 2) would reach column 3 of 3 and is skipped whole.
  const windows = scatterOf("add", { updateWindowDims: [1, 2], insertedWindowDims: [], scatterDimsToOperandDims: [0, 1] });
  const windowStarts = () => i64([0, 1, 3, 2, 1, 0, 0, 1], [4, 2]);
  const batched = (kind: ScatterKind) =>
    scatterOf(kind, { insertedWindowDims: [1], scatterDimsToOperandDims: [1], indexVectorDim: 2, inputBatchingDims: [0], scatterIndicesBatchingDims: [0] });
  const batchIdx = () => i64([2, 0, 2, 5, 3, 3], [2, 3, 1]);

  test("add: duplicates and skipped out-of-range updates", () => {
    checkVjp("scatter", vjps.scatter, [f64(distinct(5), [5]), idx1d(), f64(distinct(7, 5), [7])], scatterOf("add"));
  });

  test("add: windows, one skipped whole because it does not fit", () => {
    checkVjp("scatter", vjps.scatter, [f64(distinct(12), [4, 3]), windowStarts(), f64(distinct(8, 1), [4, 1, 2])], windows);
  });

  test("add: batching dims", () => {
    checkVjp("scatter", vjps.scatter, [f64(distinct(8), [2, 4]), batchIdx(), f64(distinct(6, 2), [2, 3])], batched("add"));
  });

  test("replace: distinct targets, out-of-range skipped", () => {
    checkVjp("scatter", vjps.scatter, [f64(distinct(5), [5]), i64([4, 9, 0, -3], [4, 1]), f64(distinct(4, 3), [4])], scatterOf("replace"));
  });

  test("replace: windows and batching dims (distinct targets)", () => {
    const p = { ...windows, kind: "replace" as const };
    checkVjp("scatter", vjps.scatter, [f64(distinct(12), [4, 3]), i64([0, 0, 3, 2, 2, 1], [3, 2]), f64(distinct(6, 1), [3, 1, 2])], p);
    checkVjp("scatter", vjps.scatter, [f64(distinct(8), [2, 4]), i64([2, 0, 7, 1, 3, 0], [2, 3, 1]), f64(distinct(6, 2), [2, 3])], batched("replace"));
  });

  test("replace: every duplicate gets the cotangent of its target, skipped ones get none", () => {
    const got = ruleCts("scatter", vjps.scatter, [f64([0, 0, 0, 0], [4]), i64([1, 1, 3, 4], [4, 1]), f64([5, 6, 7, 8], [4])], scatterOf("replace"),
      [f64([1, 10, 100, 1000], [4])]);
    expect(got).toEqual([[1, 0, 100, 0], null, [10, 10, 1000, 0]]);
  });

  test("mul: duplicates and skipped out-of-range updates", () => {
    checkVjp("scatter", vjps.scatter, [f64(distinct(5), [5]), idx1d(), f64(distinct(7, 0.5), [7])], scatterOf("mul"));
  });

  test("mul: exact with zero updates (one or two at a target) and a zero operand", () => {
    const x = f64([0.5, 0, -1.5, 2, 3], [5]);
    const u = f64([0, 2, 1.5, 0, 0, -3, 0.25], [7]);
    checkVjp("scatter", vjps.scatter, [x, i64([1, 1, 0, 3, 3, 2, 0], [7, 1]), u], scatterOf("mul"));
    checkVjp("scatter", vjps.scatter, [x, i64([1, 2, 3, 4, 3, 2, 0], [7, 1]), u], scatterOf("mul"));
  });

  test("mul: windows and batching dims", () => {
    checkVjp("scatter", vjps.scatter, [f64(distinct(12), [4, 3]), windowStarts(), f64(distinct(8, 1), [4, 1, 2])], { ...windows, kind: "mul" });
    checkVjp("scatter", vjps.scatter, [f64(distinct(8), [2, 4]), batchIdx(), f64(distinct(6, 2), [2, 3])], batched("mul"));
  });

  for (const kind of ["max", "min"] as const) {
    test(`${kind}: no ties, operand and updates winning, duplicates, skipped updates`, () => {
      checkVjp("scatter", vjps.scatter, [f64([0.5, 3, -2, 1.25, -0.75], [5]), idx1d(), f64([4, -1, 2.5, 9, -9, 0.3, -3], [7])], scatterOf(kind));
    });

    test(`${kind}: windows and batching dims`, () => {
      checkVjp("scatter", vjps.scatter, [f64(distinct(12), [4, 3]), windowStarts(), f64(distinct(8, 0.2), [4, 1, 2])], { ...windows, kind });
      checkVjp("scatter", vjps.scatter, [f64(distinct(8), [2, 4]), batchIdx(), f64(distinct(6, 0.2), [2, 3])], batched(kind));
    });
  }

  test("max: ties split the cotangent evenly among the operand and the updates equal to the result", () => {
    // target 0: updates 3, 3 beat x = 1; target 1: x = 5 ties update 5; target 2: x = 2 ties update 2, update 1 loses;
    // target 3 gets nothing; the update sent to 9 is skipped although it equals nothing.
    const x = f64([1, 5, 2, 4], [4]);
    const got = ruleCts("scatter", vjps.scatter, [x, i64([0, 0, 1, 2, 2, 9], [6, 1]), f64([3, 3, 5, 2, 1, 4], [6])], scatterOf("max"),
      [f64([2, 4, 8, 16], [4])]);
    expect(got).toEqual([[0, 2, 4, 16], null, [1, 1, 2, 4, 0, 0]]);
  });

  test("min: a three-way tie", () => {
    const got = ruleCts("scatter", vjps.scatter, [f64([1, 7], [2]), i64([0, 0, 1], [3, 1]), f64([1, 1, 9], [3])], scatterOf("min"), [f64([3, 5], [2])]);
    expect(got).toEqual([[1, 5], null, [1, 1, 0]]);
  });

  test("an integer operand gets none; unsorted update_window_dims are refused", () => {
    expect(ruleCts("scatter", vjps.scatter, [i32([1, 2], [2]), i64([0], [1, 1]), i32([5], [1])], scatterOf("add"), [i32([1, 1], [2])])).toEqual([null, null, null]);
    // updates [2, 2] that are one whole window, its dims listed as [1, 0]; indices [1] hold one index vector
    const p = scatterOf("add", { updateWindowDims: [1, 0], insertedWindowDims: [], scatterDimsToOperandDims: [0], indexVectorDim: 0 });
    expect(() => ruleCts("scatter", vjps.scatter, [f64([1, 2, 3, 4], [2, 2]), i64([0], [1]), f64([1, 2, 3, 4], [2, 2])], p, [f64([1, 1, 1, 1], [2, 2])]))
      .toThrow(ArgumentError);
  });
});

describe("sort VJP", () => {
  test("one operand, ascending and descending, along either dim", () => {
    const x = () => f64([0.5, -1, 2, 3.25, 7, -2, 1e3, -0.125], [2, 4]);
    checkVjp("sort", vjps.sort, [x()], { dim: 1, descending: false });
    checkVjp("sort", vjps.sort, [x()], { dim: 0, descending: true });
  });

  test("several operands sorted by the first; integer operands get none", () => {
    const keys = f64([0.5, -1, 2, 3.25, 7, -2], [3, 2]);
    const values = f64(distinct(6, 4), [3, 2]);
    const ints = i32([1, 2, 3, 4, 5, 6], [3, 2]);
    for (const descending of [false, true]) checkVjp("sort", vjps.sort, [keys, values, ints], { dim: 0, descending });
    const got = ruleCts("sort", vjps.sort, [f64([3, 1, 2], [3]), i32([7, 8, 9], [3])], { dim: 0, descending: false }, [f64([10, 20, 30], [3]), i32([0, 0, 0], [3])]);
    expect(got).toEqual([[30, 10, 20], null]);
  });

  test("integer keys with ties: stable order, float values follow", () => {
    const keys = i32([2, 1, 2, 0, 1, 2], [6]);
    for (const descending of [false, true]) {
      checkVjp("sort", vjps.sort, [keys, f64(distinct(6), [6])], { dim: 0, descending });
    }
    // ascending: positions 3, 1, 4, 0, 2, 5; output j's cotangent j+1 goes back to where element j came from
    const got = ruleCts("sort", vjps.sort, [keys, f64([0, 0, 0, 0, 0, 0], [6])], { dim: 0, descending: false },
      [i32([0, 0, 0, 0, 0, 0], [6]), f64([1, 2, 3, 4, 5, 6], [6])]);
    expect(got).toEqual([null, [4, 2, 5, 1, 3, 6]]);
  });

  test("a cotangent only for the second output", () => {
    const got = ruleCts("sort", vjps.sort, [f64([3, 1, 2], [3]), f64([0, 0, 0], [3])], { dim: 0, descending: true }, [null, f64([10, 20, 30], [3])]);
    expect(got).toEqual([null, [10, 30, 20]]);
  });
});

describe("dynamic_slice VJP", () => {
  test("in range", () => {
    checkVjp("dynamic_slice", vjps.dynamic_slice, [f64(distinct(20), [4, 5]), start(1), start(2)], { sizes: [2, 3] });
  });

  test("starts clamped so the slice fits (too large, negative)", () => {
    checkVjp("dynamic_slice", vjps.dynamic_slice, [f64(distinct(20), [4, 5]), start(3), start(-2)], { sizes: [2, 3] });
    checkVjp("dynamic_slice", vjps.dynamic_slice, [f64(distinct(20), [4, 5]), start(-1), start(9)], { sizes: [4, 2] });
  });

  test("the starts get none", () => {
    const got = ruleCts("dynamic_slice", vjps.dynamic_slice, [f64([1, 2, 3, 4], [4]), start(5)], { sizes: [2] }, [f64([10, 20], [2])]);
    expect(got).toEqual([[0, 0, 10, 20], null]);
  });
});

describe("dynamic_update_slice VJP", () => {
  const none = {} as Record<string, never>;

  test("in range", () => {
    checkVjp("dynamic_update_slice", vjps.dynamic_update_slice, [f64(distinct(20), [4, 5]), f64(distinct(6, 2), [2, 3]), start(1), start(1)], none);
  });

  test("starts clamped so the update fits", () => {
    checkVjp("dynamic_update_slice", vjps.dynamic_update_slice, [f64(distinct(20), [4, 5]), f64(distinct(6, 2), [2, 3]), start(3), start(-4)], none);
    checkVjp("dynamic_update_slice", vjps.dynamic_update_slice, [f64(distinct(20), [4, 5]), f64(distinct(4, 2), [1, 4]), start(-1), start(7)], none);
  });

  test("the starts get none", () => {
    const got = ruleCts("dynamic_update_slice", vjps.dynamic_update_slice, [f64([1, 2, 3, 4], [4]), f64([0, 0], [2]), start(-3)], none,
      [f64([10, 20, 30, 40], [4])]);
    expect(got).toEqual([[0, 0, 30, 40], [10, 20], null]);
  });
});
