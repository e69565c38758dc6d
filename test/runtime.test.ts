import { readFileSync } from "node:fs";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as torch from "../src/index.js";
import { addon } from "../src/runtime/addon.js";
import { topologyBounds, topologyNamedValues } from "../src/runtime/compile.js";
import { resetClientsForTests, resolveDevice } from "../src/runtime/clients.js";
import { addonFileName, cpuPluginFileName, packageRoot } from "../src/runtime/paths.js";
import { scanTpuChips } from "../src/plugins/tpu_chips.js";
import { realHost } from "../src/plugins/host.js";
import { findLibtpu } from "../src/plugins/discovery.js";
import { nativeError, type FakeAddon } from "./helpers/fakeAddon.js";
import { realRuntimeMissing, restoreRealRuntime, useFakeRuntime } from "./helpers/runtime.js";

const addMlir = `module @add {
  func.func public @main(%a: tensor<3xf32>, %b: tensor<3xf32>) -> (tensor<3xf32>) {
    %0 = "stablehlo.add"(%a, %b) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    return %0 : tensor<3xf32>
  }
}
`;

describe("build outputs", () => {
  it("file names match native/build.json", () => {
    const manifest = JSON.parse(readFileSync(`${packageRoot()}/native/build.json`, "utf8")) as {
      targets: { addon: { name: string }; cpuPlugin: { name: string } };
    };
    expect(addonFileName).toBe(`${manifest.targets.addon.name}.node`);
    expect(cpuPluginFileName).toBe(`${manifest.targets.cpuPlugin.name}.so`);
  });
});

describe("compileFor topology options", () => {
  it("adds chips_per_host_bounds=[1,1,1] for one-chip topologies only", () => {
    expect(topologyBounds("v5e:2x2")).toEqual([2, 2]);
    expect(topologyBounds("v4:2x2x1")).toEqual([2, 2, 1]);
    expect(topologyBounds("v5e")).toBeUndefined();
    expect(topologyNamedValues("tpu", "v5e:1x1")).toEqual([{ name: "chips_per_host_bounds", type: "int64list", value: [1, 1, 1] }]);
    expect(topologyNamedValues("tpu", "v5e:2x2")).toEqual([]);
    expect(topologyNamedValues("tpu", "v5e:1x1", { chips_per_host_bounds: [1, 1, 2] })).toEqual([
      { name: "chips_per_host_bounds", type: "int64list", value: [1, 1, 2] },
    ]);
  });
});

describe("runtime on the fake addon", () => {
  let fake: FakeAddon;
  let saved: string | undefined;
  const noTpu = nativeError("TPU initialization failed: No jellyfish device found.", 5, "PJRT_Client_Create");
  beforeAll(() => {
    saved = process.env.TORCH_PJRT_BUILD_DIR;
  });
  beforeEach(() => {
    fake = useFakeRuntime({ numDevices: 2, createClientError: (path) => (path.endsWith("libtpu.so") ? noTpu : undefined) });
  });
  afterAll(() => restoreRealRuntime(saved));

  it("lists devices with canonical names", () => {
    const devices = torch.runtime.devices("cpu");
    expect(devices.map((d) => d.device)).toEqual(["cpu:0", "cpu:1"]);
    expect(devices[1]).toMatchObject({ type: "cpu", index: 1, id: 1, platform: "fake", description: "FakeDevice(1)" });
    expect(torch.runtime.devices().map((d) => d.device)).toEqual(["cpu:0", "cpu:1"]);
    expect(() => torch.runtime.devices("nope")).toThrow(torch.DeviceError);
  });

  it("creates one client per plugin, lazily", () => {
    expect(fake.liveCounts().clients).toBe(0);
    torch.tensor([1]).dispose();
    torch.tensor([1], { device: "cpu:1" }).dispose();
    torch.runtime.devices("cpu");
    expect(fake.liveCounts().clients).toBe(1);
  });

  it("compiles and runs executables, with outputs as tensors", async () => {
    const exe = await torch.runtime.compile(addMlir, { device: "cpu:1" });
    expect(exe.device).toBe("cpu:1");
    expect(exe.outputs).toEqual([{ dtype: "float32", shape: [] }]);
    const x = torch.tensor([1, 2], { dtype: "float32", device: "cpu:1" });
    const [y] = await exe.run([x]);
    expect(y!.device).toBe("cpu:1");
    expect(Array.from((await y!.data()) as Float32Array)).toEqual([1, 2]);
    const [z] = exe.runSync([x]);
    expect(Array.from(z!.dataSync() as Float32Array)).toEqual([1, 2]);
    const other = torch.tensor([1], { dtype: "float32" });
    await expect(exe.run([other])).rejects.toThrow(/inputs\[0\] is on cpu:0 but the executable was compiled for cpu:1/);
    x.dispose();
    await expect(exe.run([x])).rejects.toThrow(torch.DisposedError);
    exe.dispose();
    exe.dispose();
    expect(() => exe.runSync([])).toThrow(/Executable has been disposed/);
    for (const t of [y!, z!, other]) t.dispose();
    expect(fake.liveCounts()).toMatchObject({ buffers: 0, executables: 0 });
  });

  it("checks compile arguments in TypeScript", async () => {
    await expect(torch.runtime.compile("")).rejects.toThrow(torch.ArgumentError);
    await expect(torch.runtime.compile(addMlir, { devize: "cpu" } as never)).rejects.toThrow(/bad options/);
    await expect(torch.runtime.compile(addMlir, { device: "cpu:9" })).rejects.toThrow(torch.DeviceError);
    await expect(torch.runtime.compileFor("tpu", addMlir, {} as never)).rejects.toThrow(/topology/);
  });

  it("maps a failed compile to CompileError carrying the module", async () => {
    fake = useFakeRuntime({ compileError: nativeError("parse error at line 1", 3, "PJRT_Client_Compile") });
    const error = await torch.runtime.compile("garbage").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(torch.CompileError);
    expect(error).toMatchObject({ module: "garbage", pluginMessage: "parse error at line 1", device: "cpu:0", codeName: "INVALID_ARGUMENT" });
  });

  it("reports libtpu without a chip as 'libtpu loaded but this machine has no TPU'", () => {
    if (!findLibtpu(realHost).path) return expect(torch.runtime.plugins({ load: false }).find((p) => p.name === "tpu")?.status).toBe("not-found");
    expect(scanTpuChips(realHost).count).toBe(0); // this suite assumes a machine without TPUs
    expect(() => torch.tensor([1], { device: "tpu" })).toThrow(torch.PluginError);
    expect(() => torch.tensor([1], { device: "tpu" })).toThrow(/^libtpu loaded but this machine has no TPU \(libtpu at .*libtpu\.so said: TPU initialization failed: No jellyfish device found\.\)/);
    expect(process.env.TPU_SKIP_MDS_QUERY).toBe("1");
    expect(process.env.ALLOW_MULTIPLE_LIBTPU_LOAD).toBe("1");
    const tpu = torch.runtime.plugins().find((p) => p.name === "tpu")!;
    expect(tpu).toMatchObject({ found: true, status: "no-device", tpuChips: 0, apiVersion: { major: 0, minor: 99 }, stablehloVersion: "1.2.3" });
    expect(tpu.error).toMatch(/libtpu loaded but this machine has no TPU/);
    expect(torch.runtime.devices().every((d) => d.type === "cpu")).toBe(true);
  });

  it("rejects GPU options for tpu before loading anything", () => {
    expect(() => torch.registerPlugin("tpu", null, { allocator: "bfc" })).toThrow(/'allocator' is a GPU \(CUDA plugin\) option; libtpu rejects it/);
    expect(fake.loadedPaths).toEqual([]);
  });

  it("passes registered options to the client and freezes the registration once used", () => {
    torch.registerPlugin("cpu", `${process.env.TORCH_PJRT_BUILD_DIR}/pjrt_cpu_plugin.so`, { device_count: 4 });
    torch.tensor([1]).dispose();
    expect(fake.createOptions.at(-1)).toEqual([{ name: "device_count", type: "int64", value: 4 }]);
    expect(() => torch.registerPlugin("cpu", "/x.so")).toThrow(/already in use/);
  });

  it("says what to install when a plugin is missing", () => {
    torch.registerPlugin("mine", "/nowhere/libmine.so");
    const error = (() => {
      try {
        torch.tensor([1], { device: "mine" });
      } catch (e) {
        return e as torch.PluginError;
      }
    })()!;
    expect(error).toBeInstanceOf(torch.PluginError);
    expect(error).toMatchObject({ plugin: "mine", reason: "not-found", searched: ["/nowhere/libmine.so"] });
    const cuda = torch.runtime.plugins({ load: false }).find((p) => p.name === "cuda")!;
    expect(cuda.found).toBe(false);
    expect(cuda.error).toMatch(/pip install jax-cuda12-pjrt/);
    const cpu = torch.runtime.plugins().find((p) => p.name === "cpu")!;
    expect(cpu).toMatchObject({ status: "ready", platform: "fake", numDevices: 2, via: "TORCH_PJRT_BUILD_DIR" });
  });

  it("compileFor returns outputs with dtypes and shapes", async () => {
    if (!findLibtpu(realHost).path) return;
    const result = await torch.runtime.compileFor("tpu", addMlir, { topology: "v5e:1x1" });
    expect(result.outputs).toEqual([{ dtype: "float32", shape: [2] }]);
  });
});

const missing = realRuntimeMissing();
describe.skipIf(missing !== undefined)(`runtime on the real addon${missing ? ` (skipped: ${missing})` : ""}`, () => {
  beforeAll(() => resetClientsForTests());

  it("lists cpu devices and plugin facts", () => {
    const devices = torch.runtime.devices("cpu");
    expect(devices.length).toBeGreaterThanOrEqual(1);
    expect(devices[0]!.device).toBe("cpu:0");
    const cpu = torch.runtime.plugins().find((p) => p.name === "cpu")!;
    expect(cpu.status).toBe("ready");
    expect(cpu.apiVersion!.major).toBe(0);
  });

  it("compiles and runs a StableHLO add on cpu", async () => {
    const before = addon().liveCounts();
    const exe = await torch.runtime.compile(addMlir, { device: "cpu" });
    expect(exe.outputs).toEqual([{ dtype: "float32", shape: [3] }]);
    const a = torch.tensor([1, 2, 3], { dtype: "float32" });
    const b = torch.tensor([10, 20, 30.5], { dtype: "float32" });
    const [c] = await exe.run([a, b]);
    expect(Array.from((await c!.data()) as Float32Array)).toEqual([11, 22, 33.5]);
    const [d] = exe.runSync([c!, c!]);
    expect(Array.from(d!.dataSync() as Float32Array)).toEqual([22, 44, 67]);
    for (const t of [a, b, c!, d!]) t.dispose();
    exe.dispose();
    expect(addon().liveCounts()).toMatchObject({ buffers: before.buffers, executables: before.executables });
  });

  it("names buffers by handles that go stale when disposed, even once their slot holds a new buffer", () => {
    const { buffers } = addon();
    const client = resolveDevice("cpu").client.native;
    const before = addon().liveCounts().buffers;
    const exe = client.compileSync(addMlir, { numReplicas: 1, numPartitions: 1 });
    const a = client.bufferFromHost(new Float32Array([1, 2, 3]), 11, [3], null, 0);
    const first = exe.call(a, a) as number;
    expect(Array.from(new Float32Array(buffers.toHostSync(first)))).toEqual([2, 4, 6]);
    buffers.dispose(first);
    buffers.dispose(first); // a second dispose is ignored
    const second = exe.call(a, a) as number; // takes the freed slot
    expect(second).not.toBe(first);
    expect(() => buffers.toHostSync(first)).toThrow(/^Buffer has been disposed$/);
    expect(() => exe.call(a, first)).toThrow(/^Buffer has been disposed$/);
    expect(() => exe.call(a, 0.5)).toThrow(TypeError);
    expect(buffers.info(second)).toEqual({ type: 11, dims: [3], byteSize: 12, onDeviceSize: 12, deviceIndex: 0 });
    for (const h of [a, second]) buffers.dispose(h);
    exe.dispose();
    expect(addon().liveCounts().buffers).toBe(before);
  });

  it("turns a bad module into CompileError", async () => {
    const error = await torch.runtime.compile("module { this is not stablehlo }").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(torch.CompileError);
    expect((error as torch.CompileError).module).toContain("not stablehlo");
  });

  const libtpu = findLibtpu(realHost).path;
  const noChip = scanTpuChips(realHost).count === 0;
  it.skipIf(!libtpu || !noChip)("loads libtpu and gets its own 'no TPU' error back", () => {
    expect(() => torch.runtime.devices("tpu")).toThrow(/^libtpu loaded but this machine has no TPU \(libtpu at .* said: .*\)/);
    const tpu = torch.runtime.plugins().find((p) => p.name === "tpu")!;
    expect(tpu).toMatchObject({ found: true, path: libtpu, status: "no-device" });
    expect(tpu.stablehloVersion).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it.skipIf(!libtpu)("compiles ahead of time for a TPU topology without a chip", async () => {
    const result = await torch.runtime.compileFor("tpu", addMlir, { topology: "v5e:1x1" });
    expect(result.outputs).toEqual([{ dtype: "float32", shape: [3] }]);
    expect(result.serialized.byteLength).toBeGreaterThan(0);
  });
});
