/**
 * @file Eager dispatch: every API op is one unit. Its signature (op, static args, input avals,
 * device) finds a cached executable, or the unit is traced into a Graph of primitives once, lowered
 * and compiled by the addon. A hit costs the signature string and one native run.
 */
import { checkDeviceHolds } from "../device.js";
import { type ResolvedDevice, resolveDevice } from "../runtime/clients.js";
import { addon } from "../runtime/addon.js";
import { DeviceError, isNativeError, mapNativeError } from "../runtime/errors.js";
import type { BufferHandle, NativeCompileOptions, NativeExecutable, NativeGraph } from "../runtime/native.js";
import { avalSlot, bufferOf, Tensor } from "../tensor.js";
import { avalOf, internAval } from "./avals.js";
import { type CacheEntry, type CacheNode, cacheRoot, insert, lookup, step, stepOrCreate, type UnitInfo } from "./cache.js";
import { inliner } from "./inline.js";
import { type Graph, toNative } from "./graph.js";
import { trace, type Tracer } from "./tracer.js";

export type UnitBody = (inputs: Tracer[]) => Tracer | readonly Tracer[];

/** Sees every graph eager dispatch compiles (debugging, dumps, the real-XLA tests). */
export type CompileListener = (op: string, graph: NativeGraph, device: string) => void;
let listener: CompileListener | undefined;

/** Installs (or with undefined removes) the compile listener; returns the previous one. */
export function onCompile(fn: CompileListener | undefined): CompileListener | undefined {
  const previous = listener;
  listener = fn;
  return previous;
}

/**
 * The cache node of a unit's signature: the float32 matmul precision (the root), op, static
 * arguments (`statics` must encode every one the body reads), device, then each input's interned
 * aval. `create` makes missing nodes (on a miss). An op's node remembers the rest of the signature it
 * was last called with: most calls repeat it, and comparing costs less than walking the Maps.
 */
function signature(op: string, statics: string, inputs: readonly Tensor[], device: string, create: boolean): CacheNode | undefined {
  const opNode = create ? stepOrCreate(cacheRoot(), op) : step(cacheRoot(), op);
  const last = opNode?.last;
  let repeated = last !== undefined && last.leaf.entry !== undefined && last.statics === statics && last.device === device && last.avals.length === inputs.length;
  for (let i = 0; i < inputs.length; i++) {
    const t = inputs[i]!;
    if (t.device !== device) throw differentDevices(op, i, t.device, device);
    if (repeated && last!.avals[i] !== avalOf(t)) repeated = false;
  }
  if (opNode === undefined) return undefined;
  if (repeated) return last!.leaf;
  let node: CacheNode | undefined = create ? stepOrCreate(opNode, statics) : step(opNode, statics);
  node = create ? stepOrCreate(node!, device) : step(node, device);
  const avals = inputs.map(avalOf);
  for (let i = 0; i < avals.length; i++) node = create ? stepOrCreate(node!, avals[i]) : step(node, avals[i]);
  if (node?.entry !== undefined || create) opNode.last = { statics, device, avals, leaf: node! };
  return node;
}

const differentDevices = (op: string, i: number, on: string, device: string): DeviceError =>
  new DeviceError(`${op}: expected all tensors on the same device, but input ${i} is on ${on} and input 0 is on ${device}; move them with .to(device)`);

function compileUnit(op: string, inputs: readonly Tensor[], device: string, body: UnitBody): CacheEntry {
  const { graph, single } = trace(inputs, body); // shape and dtype errors are thrown here
  return compileGraph(op, graph, single, device);
}

/** A traced graph about to be compiled for a device: its wire form, the device's client and the compile options. */
export interface CompileJob {
  readonly op: string;
  readonly graph: Graph;
  readonly single: boolean;
  readonly wire: NativeGraph;
  readonly target: ResolvedDevice;
  readonly options: NativeCompileOptions;
}

/** Lowers and compiles a traced graph for `device` (an eager unit, or a compiled function's whole graph). */
export function compileGraph(op: string, graph: Graph, single: boolean, device: string): CacheEntry {
  const job = prepareCompile(op, graph, single, device);
  return entryOf(job, compileJob(job));
}

/** Checks that the device holds every output dtype and lowers the graph; compiles nothing. */
export function prepareCompile(op: string, graph: Graph, single: boolean, device: string): CompileJob {
  for (const o of graph.outputs) checkDeviceHolds(op, graph.avals[o]!.dtype, device);
  const wire = toNative(graph);
  const target = resolveDevice(device);
  listener?.(op, wire, target.name);
  const id = target.client.devices[target.deviceIndex]!.id;
  return { op, graph, single, wire, target, options: { numReplicas: 1, numPartitions: 1, deviceAssignment: [id], label: op } };
}

/**
 * The job's executable, compiled by its plugin (from `moduleText`, the printed graph, when the caller
 * has it already); a plugin's rejection is a typed error showing the module.
 */
export function compileJob({ op, wire, target, options }: CompileJob, moduleText?: string): NativeExecutable {
  try {
    const client = target.client.native;
    return moduleText === undefined ? client.compileGraphSync(wire, options) : client.compileSync(moduleText, options);
  } catch (error) {
    if (!isNativeError(error)) throw error;
    const context = { op: "compile", plugin: target.device.type, device: target.name };
    let module = moduleText;
    try {
      module ??= addon().printGraph(wire);
    } catch {
      // the graph itself was rejected; the native message says why
    }
    throw mapNativeError(error, module === undefined ? { ...context, op: `compile ${op}` } : { ...context, module });
  }
}

/** The cache entry of the job's executable, compiled now or loaded from elsewhere (the persistent cache). */
export function entryOf({ graph, single, target }: CompileJob, native: NativeExecutable): CacheEntry {
  const outputs = graph.outputs.map((o) => {
    const { dtype, shape } = graph.avals[o]!;
    return { dtype, shape: Object.freeze([...shape]) };
  });
  const outputAvals = outputs.map((o) => internAval(o.dtype, o.shape));
  return { native, buffers: target.client.buffers, device: target.name, outputs, outputAvals, single, graph };
}

/** Runs a compiled graph on tensors (all on its device) and wraps its outputs. */
export function runEntry(op: string, entry: CacheEntry, inputs: readonly Tensor[]): Tensor[] {
  let out: BufferHandle | BufferHandle[];
  try {
    out = entry.native.call(...inputs.map(bufferOf));
  } catch (error) {
    throw mapNativeError(error, { op, device: entry.device });
  }
  return (typeof out === "number" ? [out] : out).map((b, k) => wrapOutput(entry, b, k));
}

/** Sees every unit that ran on an input that requires grad (autograd's tape, src/autograd/grad_fn.ts), and compiled functions. */
export type UnitRecorder = (op: string, statics: string, entry: UnitInfo, inputs: readonly Tensor[], outputs: readonly Tensor[], wholeFunction?: boolean) => void;
let recorder: UnitRecorder | undefined;

/** Installs the autograd recorder. */
export function setRecorder(fn: UnitRecorder): void {
  recorder = fn;
}

/** Records a unit that ran outside dispatch (a compiled function) when an input requires grad. */
export function recordRun(op: string, unit: UnitInfo, inputs: readonly Tensor[], outputs: readonly Tensor[]): void {
  if (recorder !== undefined && requiresGrad(inputs)) recorder(op, "", unit, inputs, outputs, true);
}

function requiresGrad(inputs: readonly Tensor[]): boolean {
  for (let i = 0; i < inputs.length; i++) if (inputs[i]!.requiresGrad) return true;
  return false;
}

/** Runs one unit on tensors: a cached executable, or trace + compile first (or, inside torch.compile's trace, inlines it). */
export function dispatch(op: string, statics: string, inputs: readonly Tensor[], body: UnitBody, device?: string): Tensor | Tensor[] {
  const on = device ?? inputs[0]?.device;
  if (on === undefined) throw new DeviceError(`${op}: no input tensor and no device given`);
  const tracing = inliner();
  if (tracing !== undefined) {
    for (let i = 0; i < inputs.length; i++) if (inputs[i]!.device !== on) throw differentDevices(op, i, inputs[i]!.device, on);
    const { unit, outputs } = tracing.inline(op, statics, inputs, body, on);
    if (recorder !== undefined && requiresGrad(inputs)) recorder(op, statics, unit, inputs, outputs);
    return unit.single ? outputs[0]! : outputs;
  }
  let entry = lookup(signature(op, statics, inputs, on, false));
  if (entry === undefined) {
    const start = performance.now();
    entry = compileUnit(op, inputs, on, body);
    insert(signature(op, statics, inputs, on, true)!, entry, performance.now() - start);
  }
  const native = entry.native;
  let out: BufferHandle | BufferHandle[];
  try {
    // one native crossing; the common arities skip building an argument array
    const n = inputs.length;
    if (n === 1) out = native.call(bufferOf(inputs[0]!));
    else if (n === 2) out = native.call(bufferOf(inputs[0]!), bufferOf(inputs[1]!));
    else if (n === 3) out = native.call(bufferOf(inputs[0]!), bufferOf(inputs[1]!), bufferOf(inputs[2]!));
    else out = native.call(...inputs.map(bufferOf));
  } catch (error) {
    throw mapNativeError(error, { op, device: entry.device });
  }
  if (typeof out === "number") {
    const t = wrapOutput(entry, out, 0);
    if (recorder !== undefined && requiresGrad(inputs)) recorder(op, statics, entry, inputs, [t]);
    return entry.single ? t : [t];
  }
  const outputs = out.map((b, k) => wrapOutput(entry, b, k));
  if (recorder !== undefined && requiresGrad(inputs)) recorder(op, statics, entry, inputs, outputs);
  return outputs;
}

function wrapOutput(entry: CacheEntry, buffer: BufferHandle, k: number): Tensor {
  const aval = entry.outputs[k]!;
  const t = new Tensor(buffer, entry.buffers, entry.device, aval.dtype, aval.shape);
  avalSlot.set(t, entry.outputAvals[k]!);
  return t;
}

/** dispatch for units that return one tensor. */
export function dispatch1(op: string, statics: string, inputs: readonly Tensor[], body: (inputs: Tracer[]) => Tracer, device?: string): Tensor {
  return dispatch(op, statics, inputs, body, device) as Tensor;
}
