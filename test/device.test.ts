import { afterEach, describe, expect, it } from "vitest";
import { canonicalDevice, parseDevice, registerPlugin } from "../src/device.js";
import { findCpuPlugin, findCudaPlugin, findLibtpu, sitePackagesDirs } from "../src/plugins/discovery.js";
import { libtpuOptions, pluginOptionsToNamedValues } from "../src/plugins/options.js";
import { discoverPlugin, envPluginEntries, pluginEntry, pluginNames, resetRegistrationsForTests } from "../src/plugins/registry.js";
import { scanTpuChips } from "../src/plugins/tpu_chips.js";
import { ArgumentError, DeviceError, PluginError } from "../src/runtime/errors.js";
import { buildDirs } from "../src/runtime/paths.js";
import { fakeHost, pciDevice } from "./helpers/fakeHost.js";

afterEach(() => {
  resetRegistrationsForTests();
  delete process.env.PJRT_NAMES_AND_LIBRARY_PATHS;
});

describe("device strings", () => {
  it.each([
    ["cpu", "cpu", 0],
    ["cpu:1", "cpu", 1],
    ["tpu", "tpu", 0],
    ["tpu:0", "tpu", 0],
    ["cuda:0", "cuda", 0],
    [" cpu:3 ", "cpu", 3],
  ])("%s → %s:%d", (spec, type, index) => {
    expect(parseDevice(spec)).toEqual({ type, index });
  });

  it("defaults to cpu:0 and accepts device objects", () => {
    expect(parseDevice(undefined)).toEqual({ type: "cpu", index: 0 });
    expect(canonicalDevice({ type: "tpu", index: 2 })).toBe("tpu:2");
    expect(canonicalDevice("cpu")).toBe("cpu:0");
  });

  it.each(["", "cpu:", "cpu:-1", "cpu:x", "cpu:1:2", ":0", "c pu", "cpu:1.5"])("rejects %j with DeviceError", (spec) => {
    expect(() => parseDevice(spec)).toThrow(DeviceError);
    expect(() => parseDevice(spec)).toThrow(/invalid device string/);
  });

  it("rejects unknown types, naming the known ones and how to register", () => {
    expect(() => parseDevice("gpu:0")).toThrow(DeviceError);
    expect(() => parseDevice("gpu:0")).toThrow(/unknown device type 'gpu'.*known: cpu, tpu, cuda.*registerPlugin/);
    expect(() => parseDevice(42 as unknown as string)).toThrow(/must be a string/);
  });

  it("knows plugins registered by name and from PJRT_NAMES_AND_LIBRARY_PATHS", () => {
    registerPlugin("myplug", "/opt/myplug.so");
    expect(parseDevice("myplug:2")).toEqual({ type: "myplug", index: 2 });
    process.env.PJRT_NAMES_AND_LIBRARY_PATHS = "envplug:/opt/envplug.so,other:/x/y.so";
    expect(parseDevice("envplug")).toEqual({ type: "envplug", index: 0 });
    expect(pluginNames()).toEqual(["cpu", "tpu", "cuda", "envplug", "other", "myplug"]);
  });
});

describe("registerPlugin", () => {
  it("validates its arguments with clear errors", () => {
    expect(() => registerPlugin("bad name", "/x.so")).toThrow(ArgumentError);
    expect(() => registerPlugin("thing")).toThrow(/path to the plugin's shared library is required/);
    expect(() => registerPlugin("thing", "/x.so", { a: { b: 1 } } as never)).toThrow(/options must be an object/);
  });

  it("infers the kind from the name or the library file", () => {
    registerPlugin("tpu2", "/opt/libtpu.so");
    registerPlugin("cuda", "/opt/xla_cuda_plugin.so", { memory_fraction: 1, preallocate: false });
    expect(pluginEntry("tpu2")?.kind).toBe("tpu");
    expect(pluginEntry("cuda")?.kind).toBe("gpu");
    // memory_fraction is a float option even when the value is a whole number.
    expect(pluginEntry("cuda")?.options).toEqual([
      { name: "memory_fraction", type: "float", value: 1 },
      { name: "preallocate", type: "bool", value: false },
    ]);
  });

  it("keeps discovery but sets options when tpu is registered without a path", () => {
    registerPlugin("tpu", undefined, { max_inflight_computations: 32 });
    expect(pluginEntry("tpu")).toMatchObject({ kind: "tpu", explicitPath: undefined, options: [{ name: "max_inflight_computations", type: "int64", value: 32 }] });
  });
});

describe("plugin options", () => {
  it("accepts libtpu's options with their types", () => {
    expect(
      pluginOptionsToNamedValues("tpu", "tpu", {
        max_inflight_computations: 32,
        ml_framework_name: "torch-pjrt",
        use_global_tpu_system: false,
        premapped_buffer_size: 1n << 32n,
      }),
    ).toEqual([
      { name: "max_inflight_computations", type: "int64", value: 32 },
      { name: "ml_framework_name", type: "string", value: "torch-pjrt" },
      { name: "use_global_tpu_system", type: "bool", value: false },
      { name: "premapped_buffer_size", type: "int64", value: 1n << 32n },
    ]);
    expect(Object.keys(libtpuOptions)).toHaveLength(13);
  });

  it.each(["allocator", "memory_fraction", "preallocate", "visible_devices", "node_id", "num_nodes"])(
    "rejects the GPU option %s for tpu before any native call",
    (name) => {
      const run = () => pluginOptionsToNamedValues("tpu", "tpu", { [name]: 1 });
      expect(run).toThrow(PluginError);
      expect(run).toThrow(new RegExp(`'${name}' is a GPU \\(CUDA plugin\\) option; libtpu rejects it`));
    },
  );

  it("rejects unknown names and wrong types for typed plugins", () => {
    expect(() => pluginOptionsToNamedValues("tpu", "tpu", { bogus: 1 })).toThrow(/unknown option 'bogus' for libtpu/);
    expect(() => pluginOptionsToNamedValues("tpu", "tpu", { max_inflight_computations: "32" })).toThrow(
      /'max_inflight_computations' must be an integer, got "32"/,
    );
    expect(() => pluginOptionsToNamedValues("tpu", "tpu", { max_inflight_computations: 1.5 })).toThrow(PluginError);
    try {
      pluginOptionsToNamedValues("tpu", "tpu", { allocator: "bfc" });
    } catch (error) {
      expect((error as PluginError).reason).toBe("bad-options");
    }
  });

  it("infers types for plugins of unknown kind", () => {
    expect(pluginOptionsToNamedValues("x", "generic", { s: "a", i: 3, f: 0.5, b: true, l: [1, 2], big: 5n })).toEqual([
      { name: "s", type: "string", value: "a" },
      { name: "i", type: "int64", value: 3 },
      { name: "f", type: "float", value: 0.5 },
      { name: "b", type: "bool", value: true },
      { name: "l", type: "int64list", value: [1, 2] },
      { name: "big", type: "int64", value: 5n },
    ]);
  });
});

describe("discovery", () => {
  const venvTpu = "/work/app/.venv/lib/python3.11/site-packages/libtpu/libtpu.so";
  const userTpu = "/home/user/.local/lib/python3.12/site-packages/libtpu/libtpu.so";
  const systemTpu = "/usr/local/lib/python3.10/dist-packages/libtpu/libtpu.so";
  const loaderTpu = "/usr/lib/libtpu.so";

  it("finds libtpu in order: explicit, TPU_LIBRARY_PATH, pip, loader path", () => {
    const files = { "/opt/explicit/libtpu.so": "", "/opt/env/libtpu.so": "", [venvTpu]: "", [userTpu]: "", [systemTpu]: "", [loaderTpu]: "" };
    const env = { TPU_LIBRARY_PATH: "/opt/env/libtpu.so" };
    expect(findLibtpu(fakeHost({ files, env }), "/opt/explicit/libtpu.so")).toMatchObject({ path: "/opt/explicit/libtpu.so", via: "explicit" });
    expect(findLibtpu(fakeHost({ files, env }))).toMatchObject({ path: "/opt/env/libtpu.so", via: "TPU_LIBRARY_PATH" });
    expect(findLibtpu(fakeHost({ files }))).toMatchObject({ path: venvTpu, via: "pip" });
    const { [venvTpu]: _a, ...noVenv } = files;
    expect(findLibtpu(fakeHost({ files: noVenv }))).toMatchObject({ path: userTpu, via: "pip" });
    const { [userTpu]: _b, ...noUser } = noVenv;
    expect(findLibtpu(fakeHost({ files: noUser }))).toMatchObject({ path: systemTpu, via: "pip" });
    const { [systemTpu]: _c, ...noSystem } = noUser;
    expect(findLibtpu(fakeHost({ files: noSystem }))).toMatchObject({ path: loaderTpu, via: "loader path" });
  });

  it("prefers $VIRTUAL_ENV, and LD_LIBRARY_PATH before system folders", () => {
    const active = "/envs/a/lib/python3.11/site-packages/libtpu/libtpu.so";
    const host = fakeHost({ files: { [active]: "", [venvTpu]: "" }, env: { VIRTUAL_ENV: "/envs/a" } });
    expect(findLibtpu(host).path).toBe(active);
    const ld = fakeHost({ files: { "/opt/lib/libtpu.so": "", [loaderTpu]: "" }, env: { LD_LIBRARY_PATH: "/opt/lib" } });
    expect(findLibtpu(ld).path).toBe("/opt/lib/libtpu.so");
  });

  it("skips a TPU_LIBRARY_PATH that does not exist (as JAX does) but not an explicit path", () => {
    const host = fakeHost({ files: { [venvTpu]: "" }, env: { TPU_LIBRARY_PATH: "/nope/libtpu.so" } });
    const found = findLibtpu(host);
    expect(found.path).toBe(venvTpu);
    expect(found.searched[0]).toBe("/nope/libtpu.so (TPU_LIBRARY_PATH; no such file)");
    expect(findLibtpu(host, "/missing/libtpu.so")).toEqual({ path: undefined, via: "explicit", searched: ["/missing/libtpu.so"] });
  });

  it("reports every place it looked when libtpu is missing", () => {
    const found = findLibtpu(fakeHost({ files: { "/work/app/.venv/lib/python3.11/site-packages/numpy/x": "" } }));
    expect(found.path).toBeUndefined();
    expect(found.searched).toContain("/work/app/.venv/lib/python3.11/site-packages/libtpu/libtpu.so");
    expect(found.searched).toContain("/usr/lib/python3/dist-packages/libtpu/libtpu.so");
    expect(found.searched).toContain("/usr/lib/libtpu.so");
  });

  it("lists newer Pythons first in a prefix", () => {
    const host = fakeHost({ files: { "/work/app/.venv/lib/python3.9/x": "", "/work/app/.venv/lib/python3.12/x": "", "/work/app/.venv/lib/python3.11/x": "" } });
    expect(sitePackagesDirs(host).slice(0, 3)).toEqual([
      "/work/app/.venv/lib/python3.12/site-packages",
      "/work/app/.venv/lib/python3.11/site-packages",
      "/work/app/.venv/lib/python3.9/site-packages",
    ]);
  });

  it("finds the bundled CPU plugin in build/Release, or in TORCH_PJRT_BUILD_DIR", () => {
    const host = fakeHost({ files: { "/pkg/build/Release/pjrt_cpu_plugin.so": "" } });
    expect(findCpuPlugin(host, "/pkg")).toEqual({
      path: "/pkg/build/Release/pjrt_cpu_plugin.so",
      via: "build",
      searched: ["/pkg/build/Release/pjrt_cpu_plugin.so"],
    });
    const override = fakeHost({ files: { "/tmp/b/Release/pjrt_cpu_plugin.so": "", "/pkg/build/Release/pjrt_cpu_plugin.so": "" }, env: { TORCH_PJRT_BUILD_DIR: "/tmp/b" } });
    expect(findCpuPlugin(override, "/pkg")).toMatchObject({ path: "/tmp/b/Release/pjrt_cpu_plugin.so", via: "TORCH_PJRT_BUILD_DIR" });
    expect(buildDirs(fakeHost({ env: { TORCH_PJRT_BUILD_DIR: "/tmp/b" } }))).toEqual(["/tmp/b/Release", "/tmp/b"]);
    expect(findCpuPlugin(fakeHost({}), "/pkg").path).toBeUndefined();
  });

  it("finds pip's CUDA plugin", () => {
    const path = "/work/app/.venv/lib/python3.11/site-packages/jax_plugins/xla_cuda12/xla_cuda_plugin.so";
    expect(findCudaPlugin(fakeHost({ files: { [path]: "" } })).path).toBe(path);
  });

  it("reads PJRT_NAMES_AND_LIBRARY_PATHS, including .json configs", () => {
    const host = fakeHost({
      env: { PJRT_NAMES_AND_LIBRARY_PATHS: "a:/opt/a.so, b:/etc/b.json,junk,:x" },
      files: { "/etc/b.json": JSON.stringify({ library_path: "/opt/b.so", create_options: { n: 2 } }), "/opt/a.so": "" },
    });
    const entries = envPluginEntries(host);
    expect([...entries.keys()]).toEqual(["a", "b"]);
    expect(entries.get("a")).toMatchObject({ explicitPath: "/opt/a.so", source: "env", kind: "generic" });
    expect(entries.get("b")).toMatchObject({ explicitPath: "/opt/b.so", options: [{ name: "n", type: "int64", value: 2 }] });
    expect(discoverPlugin(entries.get("a")!, host)).toMatchObject({ path: "/opt/a.so" });
    expect(discoverPlugin(entries.get("b")!, host)).toMatchObject({ path: undefined, searched: ["/opt/b.so"] });
  });

  it("lets a registration override env, and env override builtins", () => {
    process.env.PJRT_NAMES_AND_LIBRARY_PATHS = "cpu:/opt/other-cpu.so";
    expect(pluginEntry("cpu")).toMatchObject({ source: "env", explicitPath: "/opt/other-cpu.so" });
    registerPlugin("cpu", "/opt/mine.so");
    expect(pluginEntry("cpu")).toMatchObject({ source: "registered", explicitPath: "/opt/mine.so" });
  });
});

describe("TPU chip scan", () => {
  it("counts Google (0x1ae0) devices on the PCI bus and names their generation", () => {
    const host = fakeHost({
      files: {
        ...pciDevice("0000:00:04.0", "0x1ae0", "0x0063"),
        ...pciDevice("0000:00:05.0", "0x1ae0", "0x006f"),
        ...pciDevice("0000:00:06.0", "0x1AE0", "0x9999"),
        ...pciDevice("0000:00:01.0", "0x8086", "0x0063"),
      },
    });
    expect(scanTpuChips(host)).toEqual({ count: 3, kinds: ["v5e", "v6e", "unknown 0x9999"] });
  });

  it("finds none on a machine without TPUs", () => {
    expect(scanTpuChips(fakeHost({ files: pciDevice("0000:00:01.0", "0x8086", "0x1234") })).count).toBe(0);
    expect(scanTpuChips(fakeHost({})).count).toBe(0);
  });
});
