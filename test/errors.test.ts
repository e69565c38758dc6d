import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import * as torch from "../src/index.js";
import {
  ArgumentError,
  callNative,
  CompileError,
  DeviceRuntimeError,
  errorCodeName,
  mapNativeError,
  PluginError,
  TorchError,
} from "../src/runtime/errors.js";
import { nativeError } from "./helpers/fakeAddon.js";

afterEach(() => {
  delete process.env.TORCH_PJRT_DUMP_DIR;
});

describe("error classes", () => {
  it("are exported, named, and share TorchError", () => {
    for (const E of [torch.ShapeError, torch.DTypeError, torch.DeviceError, torch.PluginError, torch.CompileError, torch.DeviceRuntimeError, torch.OutOfMemoryError, torch.DisposedError, torch.ArgumentError, torch.AddonError]) {
      expect(E.prototype).toBeInstanceOf(TorchError);
      expect(E.prototype).toBeInstanceOf(Error);
    }
    const e = new torch.ShapeError("x");
    expect(e.name).toBe("ShapeError");
    expect(String(e)).toBe("ShapeError: x");
  });

  it("name PJRT codes", () => {
    expect(errorCodeName(3)).toBe("INVALID_ARGUMENT");
    expect(errorCodeName(5)).toBe("NOT_FOUND");
    expect(errorCodeName(13)).toBe("INTERNAL");
    expect(errorCodeName(1001)).toBe("PLUGIN_LOAD_ERROR");
    expect(errorCodeName(77)).toBe("CODE_77");
  });
});

describe("mapNativeError", () => {
  it("leaves errors that did not come from the addon alone", () => {
    const plain = new TypeError("x");
    expect(mapNativeError(plain, { op: "run" })).toBe(plain);
  });

  it("maps a plugin load failure (1001) to PluginError load-failed", () => {
    const e = mapNativeError(nativeError("dlopen: cannot open shared object file", 1001, "dlopen"), {
      op: "loadPlugin",
      plugin: "cuda",
      path: "/x.so",
    }) as PluginError;
    expect(e).toBeInstanceOf(PluginError);
    expect(e).toMatchObject({ plugin: "cuda", reason: "load-failed", path: "/x.so", nativeCode: 1001, nativeCall: "dlopen" });
    expect(e.message).toMatch(/could not load PJRT plugin 'cuda' from \/x\.so: dlopen: cannot open/);
  });

  it("maps libtpu's no-chip client error to 'libtpu loaded but this machine has no TPU'", () => {
    const native = nativeError("TPU initialization failed: No jellyfish device found.", 5, "PJRT_Client_Create");
    const e = mapNativeError(native, { op: "createClient", plugin: "tpu", path: "/v/libtpu.so", noTpuChip: true }) as PluginError;
    expect(e).toBeInstanceOf(PluginError);
    expect(e.reason).toBe("no-device");
    expect(e.message).toMatch(/^libtpu loaded but this machine has no TPU \(libtpu at \/v\/libtpu\.so said: TPU initialization failed: No jellyfish device found\.\)/);
    // The message alone identifies it too (older libtpu: "No ba16c7433 device found.").
    const old = mapNativeError(nativeError("No ba16c7433 device found.", 5, "PJRT_Client_Create"), { op: "createClient", plugin: "tpu" });
    expect((old as PluginError).reason).toBe("no-device");
  });

  it("says 'no device' for another plugin without its hardware, not 'no TPU' (XLA's CUDA plugin without a GPU)", () => {
    const native = nativeError("INTERNAL: no supported devices found for platform CUDA", 13, "PJRT_Client_Create");
    const e = mapNativeError(native, { op: "createClient", plugin: "cuda", path: "/p/xla_cuda_plugin.so", kind: "cuda" }) as PluginError;
    expect(e.reason).toBe("no-device");
    expect(e.message).toBe("plugin 'cuda' loaded but found no device on this machine (/p/xla_cuda_plugin.so said: INTERNAL: no supported devices found for platform CUDA). Use device \"cpu\".");
    expect(e.message).not.toMatch(/TPU/);
  });

  it("maps 'TPU already in use' to PluginError busy with the fix", () => {
    const native = nativeError("The TPU is already in use by process with pid 12. Not attempting to load libtpu.so in this process.", 10, "PJRT_Client_Create");
    const e = mapNativeError(native, { op: "createClient", plugin: "tpu" }) as PluginError;
    expect(e.reason).toBe("busy");
    expect(e.message).toMatch(/libtpu_lockfile/);
  });

  it("maps other client failures to PluginError client-failed with the code name", () => {
    const native = nativeError("Unexpected option name passed to PJRT_Client_Create: allocator", 3, "PJRT_Client_Create");
    const e = mapNativeError(native, { op: "createClient", plugin: "tpu" }) as PluginError;
    expect(e.reason).toBe("client-failed");
    expect(e.message).toMatch(/INVALID_ARGUMENT in PJRT_Client_Create/);
  });

  it("maps compile failures to CompileError with the module, and dumps it when asked", () => {
    const module = "func.func @main() { bad }";
    const native = nativeError("error: expected operation name", 3, "PJRT_Client_Compile");
    const e = mapNativeError(native, { op: "compile", plugin: "cpu", device: "cpu:0", module }) as CompileError;
    expect(e).toBeInstanceOf(CompileError);
    expect(e).toMatchObject({ device: "cpu:0", pluginMessage: "error: expected operation name", module, code: 3, codeName: "INVALID_ARGUMENT" });
    expect(e.dumpPath).toBeUndefined();
    expect(e.message).toMatch(/cpu:0 could not compile the StableHLO module: error: expected operation name .*TORCH_PJRT_DUMP_DIR/);

    const dir = mkdtempSync(join(tmpdir(), "dump-"));
    process.env.TORCH_PJRT_DUMP_DIR = dir;
    const dumped = mapNativeError(native, { op: "compile", plugin: "cpu", device: "cpu:0", module }) as CompileError;
    expect(dumped.dumpPath).toMatch(new RegExp(`^${dir}/failed-[0-9a-f]{16}\\.mlir$`));
    expect(readFileSync(dumped.dumpPath!, "utf8")).toBe(module);
    expect(dumped.message).toContain(dumped.dumpPath!);
  });

  it("maps run-time failures to DeviceRuntimeError with the PJRT code name", () => {
    const native = nativeError("buffer was donated", 9, "PJRT_Client_BufferFromHostBuffer");
    const e = mapNativeError(native, { op: "bufferFromHost", device: "tpu:0" }) as DeviceRuntimeError;
    expect(e).toBeInstanceOf(DeviceRuntimeError);
    expect(e).not.toBeInstanceOf(torch.OutOfMemoryError);
    expect(e).toMatchObject({ code: 9, codeName: "FAILED_PRECONDITION", call: "PJRT_Client_BufferFromHostBuffer" });
    expect(e.message).toBe("bufferFromHost on tpu:0 failed: buffer was donated (FAILED_PRECONDITION in PJRT_Client_BufferFromHostBuffer)");
  });

  it("maps RESOURCE_EXHAUSTED at run time to OutOfMemoryError, a DeviceRuntimeError, with what to do", () => {
    const native = nativeError("out of memory allocating 4GB", 8, "PJRT_Client_BufferFromHostBuffer");
    const e = mapNativeError(native, { op: "bufferFromHost", device: "tpu:0" }) as DeviceRuntimeError;
    expect(e).toBeInstanceOf(torch.OutOfMemoryError);
    expect(e).toBeInstanceOf(DeviceRuntimeError);
    expect(e).toMatchObject({ name: "OutOfMemoryError", code: 8, codeName: "RESOURCE_EXHAUSTED", call: "PJRT_Client_BufferFromHostBuffer" });
    expect(e.message).toBe(
      "bufferFromHost on tpu:0 failed: out of memory allocating 4GB (RESOURCE_EXHAUSTED in PJRT_Client_BufferFromHostBuffer); dispose tensors no longer needed, or use smaller shapes",
    );
  });

  it("maps the addon's own argument check (1002) to ArgumentError", () => {
    const e = mapNativeError(nativeError("expected 3 arguments, got 2", 1002, "execute"), { op: "run" });
    expect(e).toBeInstanceOf(ArgumentError);
  });

  it("callNative rethrows mapped errors", () => {
    expect(() =>
      callNative({ op: "toHost", device: "cpu:0" }, () => {
        throw nativeError("boom", 13, "PJRT_Buffer_ToHostBuffer");
      }),
    ).toThrow(DeviceRuntimeError);
    expect(callNative({ op: "x" }, () => 7)).toBe(7);
  });
});
