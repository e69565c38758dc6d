/**
 * @file torch.runtime.compile (StableHLO text → Executable on a device) and compileFor (ahead of
 * time for a device topology, no chip needed).
 */
import { z } from "zod";
import { type DType, dtypeFromPjrt } from "../dtype.js";
import { pluginOptionsSchema, pluginOptionsToNamedValues } from "../plugins/options.js";
import { deviceOptionSchema, parseOptions } from "./option_schemas.js";
import { loadPlugin, resolveDevice } from "./clients.js";
import { dumpModule } from "./dump.js";
import { ArgumentError, callNativeAsync } from "./errors.js";
import { Executable } from "./executable.js";
import type { NativeNamedValue } from "./native.js";

const compileOptionsSchema = z.strictObject({ device: deviceOptionSchema.optional() });
export type CompileOptions = z.infer<typeof compileOptionsSchema>;

function checkModule(mlir: unknown, fn: string): string {
  if (typeof mlir !== "string" || mlir.trim() === "") throw new ArgumentError(`${fn}: the module must be non-empty StableHLO text`);
  dumpModule(mlir, "module");
  return mlir;
}

/** Compiles a StableHLO module for one device (default: the default device, torch.setDefaultDevice, "cpu" until set). */
export async function compile(mlir: string, options: CompileOptions = {}): Promise<Executable> {
  const opts = parseOptions(compileOptionsSchema, options, "torch.runtime.compile");
  const module = checkModule(mlir, "torch.runtime.compile");
  const target = resolveDevice(opts.device);
  const id = target.client.devices[target.deviceIndex]!.id;
  const native = await callNativeAsync({ op: "compile", plugin: target.device.type, device: target.name, module }, () =>
    target.client.native.compile(module, { numReplicas: 1, numPartitions: 1, deviceAssignment: [id] }),
  );
  return new Executable(native, target);
}

const compileForOptionsSchema = z.strictObject({
  topology: z.string().min(1),
  /** Topology create options (libtpu: e.g. chips_per_host_bounds). */
  topologyOptions: pluginOptionsSchema.optional(),
  numReplicas: z.number().int().positive().optional(),
  numPartitions: z.number().int().positive().optional(),
});
export type CompileForOptions = z.input<typeof compileForOptionsSchema>;

export interface CompileForResult {
  outputs: Array<{ dtype: DType; shape: number[] }>;
  /** Memory the plugin reports for the program (bytes by kind). */
  memory: Record<string, number>;
  /** The plugin's cost analysis (flops, bytes accessed, …). */
  cost: Record<string, number>;
  fingerprint: string | null;
  /** The serialized executable. */
  serialized: Uint8Array;
}

/** "v5e:1x1" → [1, 1]; undefined when the name has no AxB(xC) part. */
export function topologyBounds(topology: string): number[] | undefined {
  const match = /:(\d+(?:x\d+)*)$/.exec(topology);
  return match ? match[1]!.split("x").map(Number) : undefined;
}

/** Topology options, adding chips_per_host_bounds=[1,1,1] for one-chip topologies (libtpu needs it). */
export function topologyNamedValues(plugin: string, topology: string, options: Record<string, unknown> = {}): NativeNamedValue[] {
  const named = pluginOptionsToNamedValues(plugin, "generic", options);
  const bounds = topologyBounds(topology);
  if (bounds && bounds.every((b) => b === 1) && !named.some((v) => v.name === "chips_per_host_bounds")) {
    named.push({ name: "chips_per_host_bounds", type: "int64list", value: [1, 1, 1] });
  }
  return named;
}

/**
 * Compiles a StableHLO module ahead of time for a plugin's device topology ("tpu", { topology:
 * "v5e:2x2" }) without that hardware, and reports outputs, memory and cost.
 */
export async function compileFor(plugin: string, mlir: string, options: CompileForOptions): Promise<CompileForResult> {
  const opts = parseOptions(compileForOptionsSchema, options, "torch.runtime.compileFor");
  const module = checkModule(mlir, "torch.runtime.compileFor");
  const loaded = loadPlugin(plugin);
  const topologyOptions = topologyNamedValues(plugin, opts.topology, opts.topologyOptions);
  const result = await callNativeAsync({ op: "compileFor", plugin, path: loaded.path, device: `${plugin} (${opts.topology})`, module }, () =>
    loaded.native.compileForTopology(opts.topology, topologyOptions, module, {
      numReplicas: opts.numReplicas ?? 1,
      numPartitions: opts.numPartitions ?? 1,
    }),
  );
  return {
    outputs: result.outputTypes.map((type, i) => ({ dtype: dtypeFromPjrt(type), shape: [...(result.outputDims[i] ?? [])] })),
    memory: result.memory,
    cost: result.cost,
    fingerprint: result.fingerprint,
    serialized: result.serialized,
  };
}
