// gather and scatter as StableHLO's printer writes them: it leaves out every dimension-numbers field at
// its default, so index_vector_dim = 0 (the index vectors lie along the first dimension of the indices,
// as in JAX's x[i] for a scalar i) appears only as its absence. References: ref.ts's gather/scatter.

import type { OpCase } from "./cases.js";
import { type DType, type Scalar, fromBig, isFloat, toBig } from "./dtypes.js";
import { buildModule, typeStr, type TType } from "./mlir.js";
import * as R from "./ref.js";
import type { TensorVal } from "./ref.js";
import { rng } from "./rng.js";

const T = (dtype: DType, shape: number[]): TType => ({ dtype, shape });
const tv = (dtype: DType, shape: number[], values: Scalar[]): TensorVal => ({ dtype, shape, values });
const list = (xs: number[]) => `[${xs.join(", ")}]`;

function values(d: DType, n: number, seed: string): Scalar[] {
  const r = rng(seed);
  return Array.from({ length: n }, () =>
    d === "bool" ? (r() < 0.5 ? 1 : 0) : isFloat(d) ? Math.round(r() * 32 - 16) / 2 : fromBig(d, BigInt(Math.floor(r() * 200) - 100)),
  );
}

/** `#stablehlo.gather<…>` with only the fields given (as the printer writes it). */
function gatherAttrs(fields: Record<string, number[]>, sizes: number[]): string {
  const f = Object.entries(fields).map(([k, v]) => `${k} = ${list(v)}`);
  return `dimension_numbers = #stablehlo.gather<${f.join(", ")}>, indices_are_sorted = false, slice_sizes = array<i64: ${sizes.join(", ")}>`;
}
function scatterAttrs(fields: Record<string, number[]>): string {
  const f = Object.entries(fields).map(([k, v]) => `${k} = ${list(v)}`);
  return `indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<${f.join(", ")}>, unique_indices = false`;
}
const noBatching = { operandBatchingDims: [], startIndicesBatchingDims: [], indexVectorDim: 0 };

export function gatherScatterCases(): OpCase[] {
  const cases: OpCase[] = [];
  for (const d of ["float32", "float64", "bfloat16", "int8", "uint64", "bool"] as DType[]) {
    const x = tv(d, [3, 4], values(d, 12, `gather.default_ivd.${d}`));
    // x[i] for a scalar i (indices [1]), clamped into range, and three (row, column) starts of 1x2
    // windows as the columns of [2, 3] indices.
    const row = tv("int32", [1], [d === "int8" ? 7 : 1]);
    const starts = tv("int64", [2, 3], [0, 2, -4, 1, 3, 2]);
    const rowDims: R.GatherDims = { ...noBatching, offsetDims: [0], collapsedSliceDims: [0], startIndexMap: [0], sliceSizes: [1, 4] };
    const winDims: R.GatherDims = { ...noBatching, offsetDims: [1], collapsedSliceDims: [0], startIndexMap: [0, 1], sliceSizes: [1, 2] };
    const want = [R.gather(x, row, rowDims), R.gather(x, starts, winDims)];
    const mlir = buildModule([T(d, [3, 4]), T("int32", [1]), T("int64", [2, 3])], (b, [xv, rv, sv]) => [
      b.op1("stablehlo.gather", [xv!, rv!], T(d, want[0]!.shape), gatherAttrs({ offset_dims: [0], collapsed_slice_dims: [0], start_index_map: [0] }, [1, 4])),
      b.op1("stablehlo.gather", [xv!, sv!], T(d, want[1]!.shape), gatherAttrs({ offset_dims: [1], collapsed_slice_dims: [0], start_index_map: [0, 1] }, [1, 2])),
    ]);
    cases.push({ name: `gather.default_index_vector_dim.${d}`, op: "gather", form: "generic", mlir, inputs: [x, row, starts], expected: want });
  }
  for (const d of ["float32", "int32", "uint8", "float16", "bool"] as DType[]) {
    // x.at[i].set(u) for a scalar i, and an add of three rows (one twice, one out of range: skipped)
    // through [1, 3] indices.
    const x = tv(d, [3, 4], values(d, 12, `scatter.default_ivd.${d}`));
    const i = tv("int32", [1], [2]);
    const u = tv(d, [4], values(d, 4, `scatter.default_ivd.u.${d}`));
    const rows = tv("int32", [1, 3], [0, 3, 0]);
    const us = tv(d, [3, 4], values(d, 12, `scatter.default_ivd.us.${d}`));
    const add = (a: Scalar, c: Scalar): Scalar =>
      d === "bool" ? Number(a) | Number(c) : isFloat(d) ? (a as number) + (c as number) : fromBig(d, toBig(a) + toBig(c));
    const setDims = { ...noBatching, updateWindowDims: [0], insertedWindowDims: [0], inputBatchingDims: [], scatterIndicesBatchingDims: [], scatterDimsToOperandDims: [0] };
    const addDims = { ...setDims, updateWindowDims: [1] };
    const want = [R.scatter(x, i, u, setDims, (_a, c) => c), R.scatter(x, rows, us, addDims, add)];
    const s = T(d, []);
    const mlir = buildModule([T(d, [3, 4]), T("int32", [1]), T(d, [4]), T("int32", [1, 3]), T(d, [3, 4])], (b, [xv, iv, uv, rv, usv]) => [
      b.op1("stablehlo.scatter", [xv!, iv!, uv!], T(d, [3, 4]), scatterAttrs({ update_window_dims: [0], inserted_window_dims: [0], scatter_dims_to_operand_dims: [0] }), [
        b.region([s, s], (_rb, [, nu]) => [nu!]),
      ]),
      b.op1("stablehlo.scatter", [xv!, rv!, usv!], T(d, [3, 4]), scatterAttrs({ update_window_dims: [1], inserted_window_dims: [0], scatter_dims_to_operand_dims: [0] }), [
        b.region([s, s], (rb, [old, nu]) => [rb.op1("stablehlo.add", [old!, nu!], s)]),
      ]),
    ]);
    cases.push({
      name: `scatter.default_index_vector_dim.${d}`,
      op: "scatter",
      form: "generic",
      mlir,
      inputs: [x, i, u, rows, us],
      expected: want.map((v) => ({ dtype: d, shape: [3, 4], values: v })),
    });
  }
  // The same x[i] in the pretty module JAX prints (generic gather inside), with typeStr for the types.
  {
    const d: DType = "float32";
    const x = tv(d, [3, 4], values(d, 12, "pretty.gather.default_ivd"));
    const i = tv("int32", [1], [2]);
    const want = R.gather(x, i, { ...noBatching, offsetDims: [0], collapsedSliceDims: [0], startIndexMap: [0], sliceSizes: [1, 4] });
    const mlir = [
      `module @jit_take attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {`,
      `  func.func public @main(%arg0: ${typeStr(T(d, [3, 4]))}, %arg1: tensor<1xi32>) -> (tensor<4xf32> {jax.result_info = "result"}) {`,
      `    %0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [0], start_index_map = [0]>, indices_are_sorted = true, slice_sizes = array<i64: 1, 4>}> : (tensor<3x4xf32>, tensor<1xi32>) -> tensor<4xf32>`,
      `    return %0 : tensor<4xf32>`,
      `  }`,
      `}`,
      ``,
    ].join("\n");
    cases.push({ name: "pretty.gather.default_index_vector_dim.float32", op: "gather", form: "pretty", mlir, inputs: [x, i], expected: [want] });
  }
  return cases;
}
