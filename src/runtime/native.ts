// The shape of the native addon's exports, mirrored exactly (native/addon/*.cc implements it).
// This is the only TypeScript file that knows the addon exists; src/runtime/addon.ts loads it.
//
// Conventions:
// - Element types are PJRT_Buffer_Type codes (see src/dtype.ts), never names.
// - A native failure throws a plain Error carrying `nativeCode` (the PJRT_Error_Code, or 1001 for a
//   plugin load/version problem, 1002 for a bad argument caught in C++) and `nativeCall` (the PJRT
//   function or runtime step that failed). src/runtime/errors.ts turns it into a typed error.
// - Promise-returning methods run on a worker thread and never block the event loop.
// - Device work is asynchronous: run/call return output handles as soon as the run is enqueued on the
//   device's queue; a read waits for it, and an error during the run rejects (or throws from) the read
//   of any output, and of anything computed from one.

export type NativeNamedValue =
  | { name: string; type: "string"; value: string }
  | { name: string; type: "int64"; value: number | bigint }
  | { name: string; type: "int64list"; value: Array<number | bigint> }
  | { name: string; type: "float"; value: number }
  | { name: string; type: "bool"; value: boolean };

export interface NativeDeviceInfo {
  index: number; // position among the client's addressable devices
  id: number;
  processIndex: number;
  localHardwareId: number;
  addressable: boolean;
  kind: string;
  debugString: string;
  toString: string;
  attributes: NativeNamedValue[];
}

export interface NativeMemoryStats {
  bytesInUse: number;
  peakBytesInUse?: number;
  numAllocs?: number;
  largestAllocSize?: number;
  bytesLimit?: number;
}

export interface NativeCompileOptions {
  numReplicas: number;
  numPartitions: number;
  deviceAssignment?: number[]; // device ids, replica-major
  /** Names the executable's runs (PJRT call_location): an error during a run says "running <label> on …". */
  label?: string;
}

export interface NativeAotResult {
  outputTypes: number[];
  outputDims: number[][];
  memory: Record<string, number>;
  cost: Record<string, number>;
  fingerprint: string | null;
  serialized: Uint8Array;
}

/** A tensor type on the graph wire: PJRT_Buffer_Type code and dimensions. */
export interface NativeTensorType {
  type: number;
  dims: number[];
}

/**
 * A node attribute; exactly one value field. `int` → `5 : i64`, `ints` → `array<i64: …>`, `enum` →
 * `#stablehlo<NAME VALUE>`, `dot` → `#stablehlo.dot<…>` from [lhs batch, rhs batch, lhs contracting,
 * rhs contracting], `dense` → the node's first result type filled from one element (a splat) or all.
 */
export type NativeAttr =
  | { name: string; int: number }
  | { name: string; ints: number[] }
  | { name: string; enum: string }
  | { name: string; dot: [number[], number[], number[], number[]] }
  | { name: string; dense: Uint8Array }
  /** A value already spelled in MLIR (`#stablehlo.gather<…>`, `true`), printed as is. */
  | { name: string; text: string };

/**
 * One StableHLO op. `op` is its name without the dialect ("add", "dot_general"); operands are value
 * ids (graph inputs are 0..n-1, then every node's results in order). `body` names the fixed region
 * of a reduce: "add" | "max" | "min" | "mul" | "and" | "or" (one input, one init value) or
 * "argmax" | "argmin" (values and indices, then their two init values); of a scatter: "replace" or
 * one of the combiners above; of a sort: "sort_ascending" | "sort_descending" (by the first operand,
 * NaN largest).
 */
export interface NativeNode {
  op: string;
  operands: number[];
  results: NativeTensorType[];
  attrs?: NativeAttr[];
  body?: string;
  /**
   * Control flow's regions, each a graph of its own. "case": one per branch, operand 0 the i32 index,
   * and each branch's inputs are operands 1.. (read from above). "while": cond (one i1 output) then
   * body; their inputs are the loop's block arguments, one per operand.
   */
  regions?: NativeGraph[];
}

/**
 * Output `output` (a position in NativeGraph.outputs) may reuse the memory of input `input`, which
 * must have its dtype and shape: printed as main's argument attribute `tf.aliasing_output`, as JAX
 * prints a donated argument. A run then donates that input's buffer (see NativeExecutable.runWith).
 */
export interface NativeAlias {
  output: number;
  input: number;
}

/** A fully typed graph, lowered by the addon (native/lower) to a StableHLO module in generic form. */
export interface NativeGraph {
  inputs: NativeTensorType[];
  nodes: NativeNode[];
  outputs: number[];
  /** Each input at most once, each output at most once; a bad alias is a usage error naming both. */
  aliases?: NativeAlias[];
}

/**
 * A device buffer: a small integer naming a slot of the addon's buffer table (a stale handle is an
 * error, never another buffer). Nothing frees a handle but `buffers.dispose`; Tensors do that.
 */
export type BufferHandle = number;

export interface NativeBufferInfo {
  type: number;
  dims: number[];
  byteSize: number; // dense host size
  onDeviceSize: number;
  deviceIndex: number;
  /** Present (true) once the buffer was donated to a run: reading it is an error, disposing it is not. */
  deleted?: true;
}

/** What JS does with a buffer handle besides running it. */
export interface NativeBuffers {
  info(buffer: BufferHandle): NativeBufferInfo;
  /** Waits (holding no thread) for the run that defines the buffer, then copies on a worker. */
  toHost(buffer: BufferHandle): Promise<ArrayBuffer>;
  /** Blocks until the buffer is defined and copied. */
  toHostSync(buffer: BufferHandle): ArrayBuffer;
  /** Counts the buffer's host bytes in V8's garbage-collection pressure, once (its owner is left to the GC). */
  reportToGc(buffer: BufferHandle): void;
  dispose(buffer: BufferHandle): void; // frees device memory now; a handle already disposed is ignored
}

export interface NativeExecutable {
  readonly numOutputs: number;
  readonly outputTypes: number[];
  readonly outputDims: number[][];
  readonly fingerprint: string | null;
  /**
   * Enqueues the run; outputs become ready later. An argument the program aliases to an output (a
   * graph's `aliases`, `tf.aliasing_output` in MLIR) is donated, as PJRT does: the output takes its
   * memory, and its handle stays valid but its buffer is deleted (`buffers.info(h).deleted`; reading it
   * is an error, disposing it frees nothing more). An argument is copied instead, and stays intact, when
   * it is passed at another position too or a host read (`buffers.toHost`) still waits for it.
   */
  run(args: BufferHandle[]): BufferHandle[];
  /**
   * run() with options: `nonDonatable` lists argument positions that must not be donated (PJRT's
   * non_donatable_input_indices); each must be < args.length.
   */
  runWith(args: BufferHandle[], options: { nonDonatable?: number[] }): BufferHandle[];
  /** run() with the handles as arguments; the one output bare (an array when numOutputs is not 1). */
  call(...args: BufferHandle[]): BufferHandle | BufferHandle[];
  /**
   * The plugin's serialized executable (PJRT_Executable_Serialize), for NativeClient.deserializeAndLoad
   * with the same plugin and version; an error naming the plugin where it cannot serialize.
   */
  serialize(): Uint8Array;
  dispose(): void;
}

export interface NativeClient {
  readonly platformName: string;
  readonly platformVersion: string;
  readonly processIndex: number;
  devices(): NativeDeviceInfo[];
  memoryStats(deviceIndex: number): NativeMemoryStats | null;
  // `data` is copied before this returns; byteStrides null = dense row-major.
  bufferFromHost(
    data: ArrayBufferView,
    type: number,
    dims: number[],
    byteStrides: number[] | null,
    deviceIndex: number,
  ): BufferHandle;
  compile(mlir: string, options: NativeCompileOptions): Promise<NativeExecutable>;
  compileSync(mlir: string, options: NativeCompileOptions): NativeExecutable;
  compileGraph(graph: NativeGraph, options: NativeCompileOptions): Promise<NativeExecutable>;
  compileGraphSync(graph: NativeGraph, options: NativeCompileOptions): NativeExecutable;
  /**
   * Loads NativeExecutable.serialize()'s bytes (PJRT_Executable_DeserializeAndLoad) with `options` as
   * compile would use them; bytes the plugin did not make are an error, never a crash.
   */
  deserializeAndLoad(bytes: Uint8Array, options: NativeCompileOptions): NativeExecutable;
  /** Blocks until the runs enqueued on the device so far have finished (their failures are not reported). */
  synchronize(deviceIndex: number): void;
  close(): void; // after every buffer and executable of this client is disposed
}

export interface NativePlugin {
  readonly path: string;
  readonly apiMajor: number;
  readonly apiMinor: number;
  readonly numSlots: number;
  attributes(): NativeNamedValue[];
  createClient(options: NativeNamedValue[]): NativeClient;
  compileForTopology(
    topology: string,
    topologyOptions: NativeNamedValue[],
    mlir: string,
    options: NativeCompileOptions,
  ): Promise<NativeAotResult>;
  /** torch.setFlushDenormal: whether the plugin's CPU can flush subnormals; undefined where the plugin has no such call. */
  setFlushDenormal(mode: boolean): boolean | undefined;
}

export interface NativeLiveCounts {
  buffers: number;
  executables: number;
  clients: number;
  externalBytes: number; // host bytes of live buffers (host-resident plugins)
  gcReportedBytes: number; // those of them reported to V8 (NativeBuffers.reportToGc)
}

export interface NativeAddon {
  buildInfo(): { napiVersion: number; pjrtApiMajor: number; pjrtApiMinor: number; compiler: string };
  loadPlugin(path: string): NativePlugin; // cached per path
  liveCounts(): NativeLiveCounts;
  printGraph(graph: NativeGraph): string; // the module compileGraph compiles
  readonly buffers: NativeBuffers;
}

export interface NativeErrorFields {
  nativeCode: number;
  nativeCall: string;
}
