// Buffer donation end to end on the real addon and our CPU plugin: a NativeGraph's `aliases` print as
// main's `tf.aliasing_output` (which real XLA accepts, when the .venv oracle is there), runs donate the
// aliased input unless told not to, the donated handle stays valid with its buffer deleted, and the
// native memory accounting counts the donated bytes once. Also: serialized executables load and run.

import { beforeAll, describe, expect, it } from "vitest";

import * as torch from "../src/index.js";
import { addon } from "../src/runtime/addon.js";
import { resetClientsForTests, resolveDevice } from "../src/runtime/clients.js";
import { callNative, callNativeAsync } from "../src/runtime/errors.js";
import type { BufferHandle, NativeClient, NativeCompileOptions, NativeGraph } from "../src/runtime/native.js";
import { Graph, toNative } from "../src/trace/graph.js";
import { oracleAvailable, runOnXla } from "./helpers/oracle.js";
import { realRuntimeMissing } from "./helpers/runtime.js";

const F32 = 11;
const I32 = 4;
const options: NativeCompileOptions = { numReplicas: 1, numPartitions: 1 };
const f32 = (dims: number[]) => ({ type: F32, dims });

/** out0 = in0 + in1 (may take in0's buffer), out1 = in0 * in1. */
function sumAndProduct(n: number, aliases = [{ output: 0, input: 0 }]): NativeGraph {
  const graph: NativeGraph = {
    inputs: [f32([n]), f32([n])],
    nodes: [
      { op: "add", operands: [0, 1], results: [f32([n])] },
      { op: "multiply", operands: [0, 1], results: [f32([n])] },
    ],
    outputs: [2, 3],
  };
  if (aliases.length > 0) graph.aliases = aliases;
  return graph;
}

// float32 values; their float64 sums and products rounded once to float32 are what IEEE float32 gives.
const av = [1.5, -2.25, 3e5, 0.1, -7].map(Math.fround);
const bv = [0.25, 4, -1e-3, 0.2, 7].map(Math.fround);
const wantSum = av.map((a, i) => Math.fround(a + bv[i]!));
const wantProduct = av.map((a, i) => Math.fround(a * bv[i]!));

const missing = realRuntimeMissing();
const oracle = oracleAvailable();

describe.skipIf(missing !== undefined)(`buffer donation${missing ? ` (skipped: ${missing})` : ""}`, () => {
  let client: NativeClient;
  beforeAll(() => {
    resetClientsForTests();
    client = resolveDevice("cpu").client.native;
  });

  const { buffers } = addon();
  const upload = (values: number[]): BufferHandle =>
    client.bufferFromHost(new Float32Array(values), F32, [values.length], null, 0);
  const read = (h: BufferHandle): number[] => Array.from(new Float32Array(buffers.toHostSync(h)));
  const stats = () => {
    const s = client.memoryStats(0)!;
    const live = addon().liveCounts();
    return { bytesInUse: s.bytesInUse, numAllocs: s.numAllocs!, buffers: live.buffers, executables: live.executables, externalBytes: live.externalBytes };
  };

  it("prints a graph's aliases as tf.aliasing_output on main's arguments", () => {
    const text = addon().printGraph(sumAndProduct(5));
    expect(text).toContain("tf.aliasing_output = 0 : i32");
    expect(text).toContain("{arg_attrs = [{tf.aliasing_output = 0 : i32}, {}], function_type = ");
    expect(addon().printGraph(sumAndProduct(5, [{ output: 1, input: 1 }]))).toContain("arg_attrs = [{}, {tf.aliasing_output = 1 : i32}]");
    expect(addon().printGraph(sumAndProduct(5, []))).not.toContain("arg_attrs");

    // The tracer's Graph carries its aliases to the wire form, also through pruned().
    const g = new Graph();
    const aval = { shape: [5], dtype: "float32" } as const;
    const [x, y] = [g.addInput(aval), g.addInput(aval)];
    const [s] = g.addNode("add", {}, [x!, y!], [aval]);
    g.addNode("mul", {}, [x!, y!], [aval]); // unused: pruned away
    g.outputs = [s!];
    g.aliases = [{ output: 0, input: 1 }];
    const pruned = g.pruned();
    expect(pruned.nodes.length).toBe(1);
    expect(toNative(pruned).aliases).toEqual([{ output: 0, input: 1 }]);
    expect(addon().printGraph(toNative(pruned))).toContain("arg_attrs = [{}, {tf.aliasing_output = 0 : i32}]");
    g.aliases = [];
    expect(toNative(g).aliases).toBeUndefined();
  });

  it("rejects bad aliases with a typed error naming both sides", () => {
    const compile = (graph: NativeGraph) => () => callNative({ op: "compileGraph" }, () => client.compileGraphSync(graph, options));
    const mixed: NativeGraph = {
      inputs: [f32([5]), { type: I32, dims: [5] }],
      nodes: [{ op: "negate", operands: [0], results: [f32([5])] }],
      outputs: [2],
      aliases: [{ output: 0, input: 1 }],
    };
    expect(compile(mixed)).toThrow(torch.ArgumentError);
    expect(compile(mixed)).toThrow("output 0 is tensor<5xf32> but input 1 is tensor<5xi32>");
    expect(compile(sumAndProduct(5, [{ output: 2, input: 0 }]))).toThrow("alias 0 (output 2, input 0): the graph has 2 outputs");
    expect(compile(sumAndProduct(5, [{ output: 0, input: 0 }, { output: 1, input: 0 }]))).toThrow(
      "input 0 is already reused by alias 0",
    );
    expect(compile({ ...sumAndProduct(5), aliases: [{ output: 0.5, input: 0 }] })).toThrow(torch.ArgumentError);
    expect(compile({ ...sumAndProduct(5), aliases: "0" as never })).toThrow(/graph\.aliases must be an array/);
    // Text whose alias names a result main does not have: the plugin's compile fails, as XLA's does.
    const bad = addon().printGraph(sumAndProduct(5)).replace("tf.aliasing_output = 0", "tf.aliasing_output = 2");
    const error = (() => {
      try {
        callNative({ op: "compile", module: bad }, () => client.compileSync(bad, options));
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(torch.CompileError);
    expect((error as Error).message).toContain("tf.aliasing_output is 2 but main has 2 results");
  });

  it.skipIf(!oracle.ok)(`real XLA accepts the aliased module and rejects the bad alias${oracle.ok ? "" : ` (skipped: ${oracle.ok ? "" : oracle.reason})`}`, async () => {
    const text = addon().printGraph(sumAndProduct(5));
    const bad = text.replace("tf.aliasing_output = 0", "tf.aliasing_output = 2");
    const inputs = [
      { dtype: "float32" as const, shape: [5], values: av },
      { dtype: "float32" as const, shape: [5], values: bv },
    ];
    const results = await runOnXla([
      { name: "aliased", mlir: text, inputs },
      { name: "bad", mlir: bad, inputs },
    ]);
    const ok = results.get("aliased")!;
    if (!ok.ok) throw new Error(`XLA failed at ${ok.stage}: ${ok.error}`);
    expect(ok.outputs.map((o) => o.values)).toEqual([wantSum, wantProduct]);
    expect(results.get("bad")).toMatchObject({ ok: false, stage: "compile" });
  }, 120_000);

  it("runs donate the aliased input: the output takes its bytes, its handle stays with a deleted buffer", async () => {
    const start = stats();
    const exe = client.compileGraphSync(sumAndProduct(5), options);
    const a = upload(av);
    const b = upload(bv);
    const uploaded = stats();
    expect(uploaded.bytesInUse).toBe(start.bytesInUse + 40);
    const [sum, product] = exe.run([a, b]);
    expect(read(sum!)).toEqual(wantSum);
    expect(read(product!)).toEqual(wantProduct);
    expect(buffers.info(a).deleted).toBe(true);
    expect(buffers.info(b).deleted).toBeUndefined();
    expect(read(b)).toEqual(bv);
    // Only the product is new memory: the sum lives in a's, which is counted once.
    const after = stats();
    expect(after.bytesInUse).toBe(uploaded.bytesInUse + 20);
    expect(after.numAllocs).toBe(uploaded.numAllocs + 1);
    expect(after.externalBytes).toBe(uploaded.externalBytes + 20);
    expect(after.buffers).toBe(uploaded.buffers + 2);

    // Reading the donated buffer is a typed error; disposing it frees nothing more.
    const readA = () => callNative({ op: "toHost", device: "cpu:0" }, () => buffers.toHostSync(a));
    expect(readA).toThrow(torch.DeviceRuntimeError);
    expect(readA).toThrow(/has been deleted or donated/);
    await expect(callNativeAsync({ op: "toHost" }, () => buffers.toHost(a))).rejects.toThrow(/deleted or donated/);
    expect(() => callNative({ op: "run" }, () => exe.run([a, b]))).toThrow(/argument 0 has been deleted or donated/);
    buffers.dispose(a);
    buffers.dispose(a);
    expect(stats()).toMatchObject({ bytesInUse: after.bytesInUse, externalBytes: after.externalBytes });

    // call() donates too.
    const c = exe.call(sum!, b) as BufferHandle[];
    expect(buffers.info(sum!).deleted).toBe(true);
    expect(read(c[0]!)).toEqual(wantSum.map((s, i) => Math.fround(s + bv[i]!)));
    for (const h of [b, sum!, product!, ...c]) buffers.dispose(h);
    exe.dispose();
    expect(stats()).toEqual({ ...start, numAllocs: stats().numAllocs });
  });

  it("runWith nonDonatable copies instead, leaving the input intact", () => {
    const start = stats();
    const exe = client.compileGraphSync(sumAndProduct(5), options);
    const a = upload(av);
    const b = upload(bv);
    const uploaded = stats();
    const outs = exe.runWith([a, b], { nonDonatable: [0] });
    expect(buffers.info(a).deleted).toBeUndefined();
    expect(read(a)).toEqual(av);
    expect(read(outs[0]!)).toEqual(wantSum);
    expect(read(outs[1]!)).toEqual(wantProduct);
    expect(stats()).toMatchObject({
      bytesInUse: uploaded.bytesInUse + 40,
      numAllocs: uploaded.numAllocs + 2,
      externalBytes: uploaded.externalBytes + 40,
    });
    // An empty options object donates as run() does.
    const donated = exe.runWith([a, b], {});
    expect(buffers.info(a).deleted).toBe(true);
    expect(read(donated[0]!)).toEqual(wantSum);

    const bad = (opts: unknown) => () => callNative({ op: "run" }, () => exe.runWith([outs[0]!, b], opts as { nonDonatable?: number[] }));
    expect(bad({ nonDonatable: [2] })).toThrow(torch.ArgumentError);
    expect(bad({ nonDonatable: [2] })).toThrow(/options.nonDonatable names argument 2 but there are 2 args/);
    expect(bad({ nonDonatable: [-1] })).toThrow(torch.ArgumentError);
    expect(bad({ nonDonatable: "0" })).toThrow(torch.ArgumentError);
    expect(bad(null)).toThrow(/options must be an object/);
    expect(buffers.info(outs[0]!).deleted).toBeUndefined(); // nothing ran
    for (const h of [a, b, ...outs, ...donated]) buffers.dispose(h);
    exe.dispose();
    expect(stats()).toEqual({ ...start, numAllocs: stats().numAllocs });
  });

  it("a buffer passed twice, or one a host read still waits for, is copied rather than donated", async () => {
    const start = stats();
    const exe = client.compileGraphSync(sumAndProduct(5), options);
    const x = upload(av);
    const twice = exe.run([x, x]);
    expect(buffers.info(x).deleted).toBeUndefined();
    expect(read(x)).toEqual(av);
    expect(read(twice[0]!)).toEqual(av.map((v) => Math.fround(v + v)));
    expect(read(twice[1]!)).toEqual(av.map((v) => Math.fround(v * v)));

    const b = upload(bv);
    const pending = buffers.toHost(x);
    const outs = exe.run([x, b]);
    expect(buffers.info(x).deleted).toBeUndefined();
    expect(Array.from(new Float32Array(await pending))).toEqual(av);
    expect(read(outs[0]!)).toEqual(wantSum);
    // Once the read is done, the same run donates.
    const later = exe.run([x, b]);
    expect(buffers.info(x).deleted).toBe(true);
    expect(read(later[0]!)).toEqual(wantSum);
    for (const h of [x, b, ...twice, ...outs, ...later]) buffers.dispose(h);
    exe.dispose();
    expect(stats()).toEqual({ ...start, numAllocs: stats().numAllocs });
  });

  it("an executable without aliases never donates", () => {
    const start = stats();
    const exe = client.compileGraphSync(sumAndProduct(5, []), options);
    const a = upload(av);
    const b = upload(bv);
    const outs = exe.run([a, b]);
    expect(buffers.info(a).deleted).toBeUndefined();
    expect(read(a)).toEqual(av);
    expect(read(outs[0]!)).toEqual(wantSum);
    for (const h of [a, b, ...outs]) buffers.dispose(h);
    exe.dispose();
    expect(stats()).toEqual({ ...start, numAllocs: stats().numAllocs });
  });

  describe("serialized executables", () => {
    it("load again and run as the original does, keeping their aliases", () => {
      const start = stats();
      const exe = client.compileGraphSync(sumAndProduct(5), options);
      const bytes = exe.serialize();
      expect(bytes).toBeInstanceOf(Uint8Array);
      expect(bytes.byteLength).toBeGreaterThan(0);
      const loaded = client.deserializeAndLoad(bytes, options);
      expect(loaded.numOutputs).toBe(exe.numOutputs);
      expect(loaded.outputTypes).toEqual(exe.outputTypes);
      expect(loaded.outputDims).toEqual([[5], [5]]);
      expect(loaded.fingerprint).toBe(exe.fingerprint);
      expect(loaded.fingerprint).not.toBeNull();
      const a = upload(av);
      const b = upload(bv);
      const original = exe.runWith([a, b], { nonDonatable: [0] });
      const again = loaded.runWith([a, b], { nonDonatable: [0] });
      expect(read(again[0]!)).toEqual(read(original[0]!));
      expect(read(again[1]!)).toEqual(read(original[1]!));
      expect(read(again[0]!)).toEqual(wantSum);
      const called = loaded.call(a, b) as BufferHandle[];
      expect(buffers.info(a).deleted).toBe(true);
      expect(read(called[1]!)).toEqual(wantProduct);
      for (const h of [a, b, ...original, ...again, ...called]) buffers.dispose(h);
      loaded.dispose();
      exe.dispose();
      expect(() => callNative({ op: "serialize" }, () => exe.serialize())).toThrow(torch.ArgumentError);
      expect(stats()).toEqual({ ...start, numAllocs: stats().numAllocs });
    });

    it("bad bytes are typed errors, not crashes", () => {
      const start = stats();
      const exe = client.compileGraphSync(sumAndProduct(5), options);
      const bytes = exe.serialize();
      const load = (b: unknown) => () => callNative({ op: "deserialize" }, () => client.deserializeAndLoad(b as Uint8Array, options));
      for (const b of [new Uint8Array(0), new TextEncoder().encode("not an executable"), bytes.subarray(0, 40)]) {
        expect(load(b)).toThrow(torch.DeviceRuntimeError);
        expect(load(b)).toThrow(/was not made by the torch-pjrt cpu plugin/);
      }
      const garbled = bytes.slice();
      garbled.fill(0x7b, garbled.byteLength - 30); // the module text's end: it no longer parses
      expect(load(garbled)).toThrow(torch.DeviceRuntimeError);
      expect(load("bytes")).toThrow(torch.ArgumentError);
      exe.dispose();
      expect(stats()).toEqual({ ...start, numAllocs: stats().numAllocs });
    });
  });
});
