// The primitive table: every row has a shape rule and a lowering onto an op our CPU plugin runs;
// shape rules; the Graph wire form; and the module the addon prints for it.
import { describe, expect, it } from "vitest";
import { type Aval, type Prim, prims } from "../src/ops/prims.js";
import * as e from "../src/ops/emit.js";
import { toNative } from "../src/trace/graph.js";
import { trace } from "../src/trace/tracer.js";
import { addon } from "../src/runtime/addon.js";
import { missing } from "./eager/helpers.js";
import { resolveDevice } from "../src/runtime/clients.js";
import * as torch from "../src/index.js";
import { bufferOf, Tensor } from "../src/tensor.js";

// The ops the CPU plugin runs (README), by StableHLO name.
const pluginOps = new Set(
  ("constant iota convert bitcast_convert add subtract multiply divide remainder power maximum minimum atan2 and or xor not " +
    "shift_left shift_right_arithmetic shift_right_logical negate abs sign exponential exponential_minus_one log log_plus_one " +
    "logistic tanh sqrt rsqrt cbrt sine cosine tan floor ceil round_nearest_even round_nearest_afz is_finite compare select " +
    "clamp broadcast_in_dim reshape transpose slice dynamic_slice dynamic_update_slice concatenate pad reverse dot_general reduce " +
    "gather scatter sort reduce_window convolution select_and_scatter triangular_solve case while chlo.erf chlo.lgamma chlo.digamma chlo.polygamma chlo.zeta").split(" "),
);

const f32 = (...shape: number[]): Aval => ({ shape, dtype: "float32" });
const infer = (p: Prim, ins: Aval[], params: object): Aval[] =>
  (prims[p] as unknown as { infer: (i: Aval[], p: object) => Aval[] }).infer(ins, params);

describe("the primitive table", () => {
  it("every primitive lowers to one op the CPU plugin runs", () => {
    const rows = Object.entries(prims);
    expect(rows.length).toBeGreaterThanOrEqual(60);
    for (const [name, def] of rows) {
      expect(typeof def.infer, name).toBe("function");
      const params = { dims: [0], dim: 0, direction: "EQ", dtype: "float32", shape: [1], perm: [0], start: [0], limit: [1], strides: [1], sizes: [1], low: [0], high: [0], interior: [0], lhsBatch: [], rhsBatch: [], lhsContract: [], rhsContract: [], value: 0, offsetDims: [], collapsedSliceDims: [0], startIndexMap: [0], indexVectorDim: 1, sliceSizes: [1], updateWindowDims: [], insertedWindowDims: [0], scatterDimsToOperandDims: [0], kind: "add", descending: false,
        window: [1], padding: [[0, 0]], baseDilation: [1], windowDilation: [1], lhsDilation: [1], rhsDilation: [1], featureGroups: 1, batchGroups: 1, select: "GE" };
      const lowered = (def.lower as (p: object, ins: Aval[]) => { op: string })(params, [f32(1)]);
      expect(pluginOps.has(lowered.op), `${name} → ${lowered.op}`).toBe(true);
    }
  });

  it("shape rules compute output avals and reject mismatches", () => {
    expect(infer("add", [f32(2, 3), f32(2, 3)], {})).toEqual([f32(2, 3)]);
    expect(() => infer("add", [f32(2, 3), f32(3)], {})).toThrow(/inputs must match exactly/);
    expect(() => infer("exp", [{ shape: [2], dtype: "int32" }], {})).toThrow(/int32 is not a valid input/);
    expect(infer("compare", [f32(4), f32(4)], { direction: "LT" })).toEqual([{ shape: [4], dtype: "bool" }]);
    expect(infer("transpose", [f32(2, 3, 4)], { perm: [2, 0, 1] })).toEqual([f32(4, 2, 3)]);
    expect(infer("broadcast_in_dim", [f32(3, 1)], { shape: [2, 3, 5], dims: [1, 2] })).toEqual([f32(2, 3, 5)]);
    expect(() => infer("broadcast_in_dim", [f32(3)], { shape: [4], dims: [0] })).toThrow(/cannot broadcast/);
    expect(infer("reduce_sum", [f32(2, 3, 4), f32()], { dims: [0, 2] })).toEqual([f32(3)]);
    expect(infer("dot_general", [f32(5, 2, 3), f32(5, 3, 4)], { lhsBatch: [0], rhsBatch: [0], lhsContract: [2], rhsContract: [1] })).toEqual([f32(5, 2, 4)]);
    expect(infer("slice", [f32(10)], { start: [1], limit: [8], strides: [3] })).toEqual([f32(3)]);
    expect(infer("pad", [f32(3)], { low: [1], high: [2], interior: [1] })).toEqual([f32(8)]);
    expect(infer("concatenate", [f32(2, 3), f32(4, 3)], { dim: 0 })).toEqual([f32(6, 3)]);
    const win = { window: [2, 3], strides: [1, 2], padding: [[1, 0], [0, 1]], baseDilation: [1, 1], windowDilation: [1, 1] };
    expect(infer("reduce_window_max", [f32(4, 5), f32()], win)).toEqual([f32(4, 2)]);
    expect(() => infer("reduce_window_sum", [f32(4, 5), f32()], { ...win, window: [2] })).toThrow(/window needs 2 entries/);
    const conv = { strides: [2], padding: [[1, 1]], lhsDilation: [1], rhsDilation: [2], featureGroups: 2, batchGroups: 1 };
    expect(infer("convolution", [f32(1, 4, 9), f32(6, 2, 3)], conv)).toEqual([f32(1, 6, 4)]);
    expect(() => infer("convolution", [f32(1, 4, 9), f32(6, 4, 3)], conv)).toThrow(/do not fit feature_group_count 2/);
    expect(infer("argmax", [f32(2, 3), { shape: [2, 3], dtype: "int64" }, f32(), { shape: [], dtype: "int64" }], { dim: 1 })).toEqual([
      f32(2),
      { shape: [2], dtype: "int64" },
    ]);
  });

  it("gather, scatter and sort shape rules check dimension numbers", () => {
    const i64 = (...shape: number[]): Aval => ({ shape, dtype: "int64" });
    const rows = { offsetDims: [1], collapsedSliceDims: [0], startIndexMap: [0], indexVectorDim: 1, sliceSizes: [1, 4] };
    expect(infer("gather", [f32(3, 4), i64(5, 1)], rows)).toEqual([f32(5, 4)]);
    expect(infer("gather", [f32(3, 4), i64(5, 1)], { ...rows, offsetDims: [0] })).toEqual([f32(4, 5)]);
    expect(() => infer("gather", [f32(3, 4), i64(5, 1)], { ...rows, sliceSizes: [2, 4] })).toThrow(/slice sizes \[2, 4\]/);
    expect(() => infer("gather", [f32(3, 4), i64(5, 2)], rows)).toThrow(/index vectors need 1 components/);
    expect(() => infer("gather", [f32(3, 4), f32(5, 1)], rows)).toThrow(/indices must be integers/);
    const scatterRows = { kind: "add", updateWindowDims: [1], insertedWindowDims: [0], scatterDimsToOperandDims: [0], indexVectorDim: 1 };
    expect(infer("scatter", [f32(3, 4), i64(5, 1), f32(5, 4)], scatterRows)).toEqual([f32(3, 4)]);
    expect(infer("scatter", [f32(3, 4), i64(5, 1), f32(5, 2)], scatterRows)).toEqual([f32(3, 4)]);
    expect(() => infer("scatter", [f32(3, 4), i64(5, 1), f32(4, 4)], scatterRows)).toThrow(/do not fit/);
    expect(() => infer("scatter", [f32(3, 4), i64(5, 1), i64(5, 4)], scatterRows)).toThrow(/must have the dtype/);
    expect(infer("sort", [f32(2, 3), i64(2, 3)], { dim: 1, descending: false })).toEqual([f32(2, 3), i64(2, 3)]);
    expect(() => infer("sort", [f32(2, 3), i64(3, 2)], { dim: 0, descending: false })).toThrow(/one shape/);
    expect(() => infer("sort", [f32(2, 3)], { dim: 2, descending: false })).toThrow(/bad dimension list/);
  });

  it("a traced graph has inputs, nodes with params and avals, and outputs", () => {
    const { graph, single } = trace([f32(2, 3), f32(3)], ([a, b]) => e.add(a!, e.broadcastTo(b!, [2, 3])));
    expect(single).toBe(true);
    expect(graph.inputs).toEqual([f32(2, 3), f32(3)]);
    expect(graph.nodes.map((n) => n.prim)).toEqual(["broadcast_in_dim", "add"]);
    expect(graph.nodes[0]!.params).toEqual({ shape: [2, 3], dims: [1] });
    expect(graph.outputs).toEqual([3]);
    expect(toNative(graph)).toEqual({
      inputs: [{ type: 11, dims: [2, 3] }, { type: 11, dims: [3] }],
      nodes: [
        { op: "broadcast_in_dim", operands: [1], results: [{ type: 11, dims: [2, 3] }], attrs: [{ name: "broadcast_dimensions", ints: [1] }] },
        { op: "add", operands: [0, 2], results: [{ type: 11, dims: [2, 3] }] },
      ],
      outputs: [3],
    });
  });

  it("a node that repeats an earlier one (primitive, params, inputs) is recorded once", () => {
    const { graph } = trace([f32(3, 3), f32(3, 3)], ([a, b]) => {
      const twice = e.add(e.exp(a!), e.exp(a!)); // one exp, added to itself
      return [twice, e.exp(b!), e.transpose(a!, [1, 0]), e.transpose(a!, [1, 0]), e.transpose(e.transpose(a!, [1, 0]), [1, 0])];
    });
    expect(graph.nodes.map((n) => n.prim)).toEqual(["exp", "add", "exp", "transpose", "transpose"]);
    expect(graph.nodes[1]!.inputs).toEqual([2, 2]);
    expect(graph.outputs).toEqual([3, 4, 5, 5, 6]);
  });

  (missing ? it.skip : it)("the addon prints the graph as a generic-form module with array<i64> lists", () => {
    const { graph } = trace([f32(2, 3)], ([a]) => e.reduce("max", e.transpose(a!, [1, 0]), [1]));
    const text = addon().printGraph(toNative(graph));
    expect(text).toContain('"builtin.module"() ({');
    expect(text).toContain('%0 = "stablehlo.transpose"(%arg0) {permutation = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>');
    expect(text).toContain('%1 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>');
    expect(text).toContain('"stablehlo.maximum"');
    expect(text).toContain("{dimensions = array<i64: 1>} : (tensor<3x2xf32>, tensor<f32>) -> tensor<3xf32>");
    expect(text).toContain('sym_name = "main", sym_visibility = "public"');
    expect(text).toContain("{mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32}");
    expect(() => addon().printGraph({ inputs: [], nodes: [], outputs: [0] })).toThrow(/output %0 is not defined/);
    expect(() => addon().printGraph({ inputs: [{ type: 11, dims: [2] }], nodes: [{ op: "negate", operands: [0], results: [{ type: 11, dims: [2] }], attrs: [{ name: "x" } as never] }], outputs: [1] })).toThrow(
      /needs one of int, ints, enum, dot, dense/,
    );
  });

  (missing ? it.skip : it)("client.compileGraph compiles off the JS thread and runs like the eager unit", async () => {
    const { graph } = trace([f32(3), f32(3)], ([a, b]) => e.mul(a!, e.add(a!, b!)));
    const target = resolveDevice("cpu");
    const exe = await target.client.native.compileGraph(toNative(graph), { numReplicas: 1, numPartitions: 1 });
    const a = torch.tensor([1, 2, 3], { dtype: "float32" });
    const b = torch.tensor([1, 1, 1], { dtype: "float32" });
    const [out] = exe.run([bufferOf(a), bufferOf(b)]).map((buf) => new Tensor(buf, target.client.buffers, target.name, "float32", [3]));
    expect(out!.tolist()).toEqual([2, 6, 12]);
    for (const t of [a, b, out!]) t.dispose();
    exe.dispose();
    await expect(target.client.native.compileGraph({ inputs: [], nodes: [], outputs: [] }, { numReplicas: 1, numPartitions: 1 })).rejects.toThrow(
      /graph has no outputs/,
    );
  });
});
