/**
 * @file Eager dispatch: every API op is one unit. Its signature (op, static args, input avals,
 * device) finds a cached executable, or the unit is traced into a Graph of primitives once, lowered
 * and compiled by the addon. A hit costs the signature string and one native run.
 */
import { checkDeviceHolds } from "../device.js";
import { resolveDevice } from "../runtime/clients.js";
import { addon } from "../runtime/addon.js";
import { DeviceError, isNativeError, mapNativeError } from "../runtime/errors.js";
import type { NativeBuffer, NativeGraph } from "../runtime/native.js";
import { bufferOf, Tensor } from "../tensor.js";
import { type CacheEntry, insert, lookup } from "./cache.js";
import { toNative } from "./graph.js";
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

/** Signature of a unit; `static` must encode every static argument the body reads. */
function signature(op: string, statics: string, inputs: readonly Tensor[], device: string): string {
  let key = op + "|" + statics + "|" + device;
  for (let i = 0; i < inputs.length; i++) {
    const t = inputs[i]!;
    if (t.device !== device) {
      throw new DeviceError(
        `${op}: expected all tensors on the same device, but input ${i} is on ${t.device} and input 0 is on ${device}; move them with .to(device)`,
      );
    }
    key += "|" + t.dtype;
    const shape = t.shape;
    for (let d = 0; d < shape.length; d++) key += "," + shape[d];
  }
  return key;
}

function compileUnit(op: string, inputs: readonly Tensor[], device: string, body: UnitBody): CacheEntry {
  const { graph, single } = trace(inputs, body); // shape and dtype errors are thrown here
  for (const o of graph.outputs) checkDeviceHolds(op, graph.avals[o]!.dtype, device);
  const wire = toNative(graph);
  const target = resolveDevice(device);
  listener?.(op, wire, target.name);
  const id = target.client.devices[target.deviceIndex]!.id;
  const context = { op: "compile", plugin: target.device.type, device: target.name };
  try {
    const native = target.client.native.compileGraphSync(wire, { numReplicas: 1, numPartitions: 1, deviceAssignment: [id] });
    const outputs = graph.outputs.map((o) => {
      const { dtype, shape } = graph.avals[o]!;
      return { dtype, shape: Object.freeze([...shape]) };
    });
    return { native, device: target.name, outputs, single };
  } catch (error) {
    if (!isNativeError(error)) throw error;
    let module: string | undefined;
    try {
      module = addon().printGraph(wire);
    } catch {
      // the graph itself was rejected; the native message says why
    }
    throw mapNativeError(error, module === undefined ? { ...context, op: `compile ${op}` } : { ...context, module });
  }
}

/** Runs one unit on tensors: a cached executable, or trace + compile first. */
export function dispatch(op: string, statics: string, inputs: readonly Tensor[], body: UnitBody, device?: string): Tensor | Tensor[] {
  const on = device ?? inputs[0]?.device;
  if (on === undefined) throw new DeviceError(`${op}: no input tensor and no device given`);
  const key = signature(op, statics, inputs, on);
  let entry = lookup(key);
  if (entry === undefined) {
    const start = performance.now();
    entry = compileUnit(op, inputs, on, body);
    insert(key, entry, performance.now() - start);
  }
  const buffers: NativeBuffer[] = new Array(inputs.length);
  for (let i = 0; i < inputs.length; i++) buffers[i] = bufferOf(inputs[i]!);
  const native = entry.native;
  let outputs: NativeBuffer[];
  try {
    outputs = native.run(buffers);
  } catch (error) {
    throw mapNativeError(error, { op, device: entry.device });
  }
  const avals = entry.outputs;
  if (entry.single) return new Tensor(outputs[0]!, entry.device, avals[0]!.dtype, avals[0]!.shape);
  return outputs.map((b, k) => new Tensor(b, entry.device, avals[k]!.dtype, avals[k]!.shape));
}

/** dispatch for units that return one tensor. */
export function dispatch1(op: string, statics: string, inputs: readonly Tensor[], body: (inputs: Tracer[]) => Tracer, device?: string): Tensor {
  return dispatch(op, statics, inputs, body, device) as Tensor;
}
