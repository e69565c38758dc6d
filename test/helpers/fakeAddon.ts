// An in-memory stand-in for the native addon (same contract as src/runtime/native.ts), so the
// TypeScript runtime (tensors, lifetimes, executables, error mapping) is tested without a build.
// Buffers keep a copy of the host bytes; an executable returns copies of its inputs.
import type {
  NativeAddon,
  NativeAotResult,
  NativeBufferInfo,
  NativeBuffers,
  NativeClient,
  NativeCompileOptions,
  NativeDeviceInfo,
  NativeExecutable,
  NativeNamedValue,
  NativePlugin,
} from "../../src/runtime/native.js";

const itemSizes: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 2, 8: 4, 9: 8, 10: 2, 11: 4, 12: 8, 13: 2 };

export function nativeError(message: string, nativeCode: number, nativeCall: string): Error {
  return Object.assign(new Error(message), { nativeCode, nativeCall });
}

export interface FakeOptions {
  numDevices?: number;
  /** Makes createClient of the plugin at `path` fail with the returned error. */
  createClientError?: (path: string) => Error | undefined;
  /** Makes compile fail with this error. */
  compileError?: Error;
}

export interface FakeAddon extends NativeAddon {
  readonly loadedPaths: string[];
  readonly createOptions: NativeNamedValue[][];
}

export function fakeAddon(options: FakeOptions = {}): FakeAddon {
  const counts = { buffers: 0, executables: 0, clients: 0, externalBytes: 0, gcReportedBytes: 0 };
  const loadedPaths: string[] = [];
  const createOptions: NativeNamedValue[][] = [];

  // Handles index `buffers`; a disposed one is null, and handles are never reused.
  const buffers: ({ bytes: Uint8Array; info: NativeBufferInfo; reported?: boolean } | null)[] = [];
  const makeBuffer = (bytes: Uint8Array, type: number, dims: number[], deviceIndex: number): number => {
    counts.buffers += 1;
    counts.externalBytes += bytes.byteLength;
    buffers.push({ bytes, info: { type, dims: [...dims], byteSize: bytes.byteLength, onDeviceSize: bytes.byteLength, deviceIndex } });
    return buffers.length - 1;
  };
  const live = (handle: number, call: string) => {
    const buffer = buffers[handle];
    if (!buffer) throw nativeError("Buffer has been disposed", 1002, call);
    return buffer;
  };
  const bufferFunctions: NativeBuffers = {
    info: (h) => ({ ...live(h, "buffers.info").info }),
    toHost: async (h) => live(h, "buffers.toHost").bytes.slice().buffer,
    toHostSync: (h) => live(h, "buffers.toHostSync").bytes.slice().buffer,
    reportToGc(h) {
      const buffer = buffers[h];
      if (!buffer || buffer.reported) return;
      buffer.reported = true;
      counts.gcReportedBytes += buffer.bytes.byteLength;
    },
    dispose(h) {
      const buffer = buffers[h];
      if (!buffer) return;
      counts.buffers -= 1;
      counts.externalBytes -= buffer.bytes.byteLength;
      if (buffer.reported) counts.gcReportedBytes -= buffer.bytes.byteLength;
      buffers[h] = null;
    },
  };

  const makeExecutable = (): NativeExecutable => {
    counts.executables += 1;
    let disposed = false;
    return {
      numOutputs: 1,
      outputTypes: [11],
      outputDims: [[]],
      fingerprint: "fake",
      run(args) {
        if (disposed) throw nativeError("executable was disposed", 1002, "PJRT_LoadedExecutable_Execute");
        return args.map((h) => {
          const { bytes, info } = live(h, "Executable.run");
          return makeBuffer(bytes.slice(), info.type, info.dims, info.deviceIndex);
        });
      },
      runWith(args) {
        return this.run(args);
      },
      call(...args) {
        const outputs = this.run(args);
        return outputs.length === 1 ? outputs[0]! : outputs;
      },
      serialize() {
        return new TextEncoder().encode("fake");
      },
      dispose() {
        if (!disposed) counts.executables -= 1;
        disposed = true;
      },
    };
  };

  const makeClient = (): NativeClient => {
    counts.clients += 1;
    const devices: NativeDeviceInfo[] = Array.from({ length: options.numDevices ?? 1 }, (_, i) => ({
      index: i,
      id: i,
      processIndex: 0,
      localHardwareId: i,
      addressable: true,
      kind: "fake",
      debugString: `FakeDevice(${i})`,
      toString: `FakeDevice(id=${i})`,
      attributes: [],
    }));
    const compile = (mlir: string, _options: NativeCompileOptions): NativeExecutable => {
      if (options.compileError) throw options.compileError;
      return makeExecutable();
    };
    return {
      platformName: "fake",
      platformVersion: "0.0",
      processIndex: 0,
      devices: () => devices,
      memoryStats: () => null,
      synchronize: () => {},
      bufferFromHost(data, type, dims, _strides, deviceIndex) {
        const size = itemSizes[type];
        if (size === undefined) throw nativeError(`unsupported type ${type}`, 1002, "bufferFromHost");
        const count = dims.reduce((a, b) => a * b, 1);
        if (data.byteLength !== count * size) {
          throw nativeError(`expected ${count * size} bytes, got ${data.byteLength}`, 1002, "bufferFromHost");
        }
        const copy = new Uint8Array(data.byteLength);
        copy.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
        return makeBuffer(copy, type, dims, deviceIndex);
      },
      compile: async (mlir, o) => compile(mlir, o),
      compileSync: compile,
      compileGraph: async (graph, o) => compile(JSON.stringify(graph), o),
      compileGraphSync: (graph, o) => compile(JSON.stringify(graph), o),
      deserializeAndLoad: (_bytes, o) => compile("", o),
      close() {
        counts.clients -= 1;
      },
    };
  };

  const plugins = new Map<string, NativePlugin>();
  return {
    loadedPaths,
    createOptions,
    buildInfo: () => ({ napiVersion: 8, pjrtApiMajor: 0, pjrtApiMinor: 0, compiler: "fake" }),
    liveCounts: () => ({ ...counts }),
    buffers: bufferFunctions,
    printGraph: (graph) => JSON.stringify(graph),
    loadPlugin(path) {
      let plugin = plugins.get(path);
      if (plugin) return plugin;
      loadedPaths.push(path);
      plugin = {
        path,
        apiMajor: 0,
        apiMinor: 99,
        numSlots: 0,
        attributes: () => [{ name: "stablehlo_current_version", type: "int64list", value: [1, 2, 3] }],
        createClient(named) {
          createOptions.push(named);
          const error = options.createClientError?.(path);
          if (error) throw error;
          return makeClient();
        },
        compileForTopology: async (): Promise<NativeAotResult> => ({
          outputTypes: [11],
          outputDims: [[2]],
          memory: {},
          cost: {},
          fingerprint: null,
          serialized: new Uint8Array(),
        }),
        setFlushDenormal: () => undefined,
      };
      plugins.set(path, plugin);
      return plugin;
    },
  };
}
