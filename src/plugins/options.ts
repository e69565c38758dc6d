/**
 * @file Plugin create options: a typed table per plugin kind, checked with zod before any native
 * call and turned into the addon's named values.
 */
import { z } from "zod";
import { PluginError } from "../runtime/errors.js";
import type { NativeNamedValue } from "../runtime/native.js";

export type PluginKind = "cpu" | "tpu" | "gpu" | "generic";
type OptionType = NativeNamedValue["type"];

/** Options libtpu 0.0.42.1 accepts (probed; pjrt-facts §5.1). Anything else it rejects. */
export const libtpuOptions: Readonly<Record<string, OptionType>> = {
  max_inflight_computations: "int64",
  ml_framework_name: "string",
  ml_framework_version: "string",
  pinned_host_allocation_mode: "string",
  premapped_buffer_size: "int64",
  maximum_premapped_buffer_size_for_transfers_in_bytes: "int64",
  num_premapped_partitions: "int64",
  use_global_tpu_system: "bool",
  tpu_allow_async_allocations: "bool",
  executable_compatibility_check_on_deserialization: "bool",
  throttle_low_priority_host_transfers: "bool",
  skip_megascale_pjrt_client: "bool",
  use_tf_pjrt_client: "int64",
};

/** Options XLA's CUDA plugin accepts (pjrt_c_api_gpu_internal.cc; pjrt-facts §5.2). */
export const gpuOptions: Readonly<Record<string, OptionType>> = {
  platform_name: "string",
  allocator: "string",
  memory_fraction: "float",
  preallocate: "bool",
  collective_memory_size: "int64",
  visible_devices: "int64list",
  node_id: "int64",
  num_nodes: "int64",
  should_stage_host_to_device_transfers: "bool",
  abort_collectives_on_failure: "bool",
  use_tfrt_gpu_client: "bool",
  enable_mock_nccl: "bool",
  mock_gpu_topology: "string",
  partition_index: "int64",
};

const int64 = z.union([z.number().int(), z.bigint()]);
const valueSchemas: Record<OptionType, z.ZodType> = {
  string: z.string(),
  int64,
  int64list: z.array(int64),
  float: z.number(),
  bool: z.boolean(),
};

/** What a plugin of unknown kind may be given; each value's type is inferred from its JS type. */
const genericValue = z.union([z.string(), z.boolean(), z.number(), z.bigint(), z.array(int64)]);
export type PluginOptionValue = z.infer<typeof genericValue>;
export type PluginOptions = Record<string, PluginOptionValue>;
export const pluginOptionsSchema = z.record(z.string(), genericValue);

const typedTables: Partial<Record<PluginKind, Readonly<Record<string, OptionType>>>> = {
  tpu: libtpuOptions,
  gpu: gpuOptions,
};

const kindLabel: Record<PluginKind, string> = { cpu: "the CPU plugin", tpu: "libtpu", gpu: "the CUDA plugin", generic: "this plugin" };

function inferType(value: PluginOptionValue): OptionType {
  if (typeof value === "string") return "string";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "bigint") return "int64";
  if (Array.isArray(value)) return "int64list";
  return Number.isInteger(value) ? "int64" : "float";
}

function toNamedValue(name: string, type: OptionType, value: PluginOptionValue): NativeNamedValue {
  switch (type) {
    case "string":
      return { name, type, value: value as string };
    case "int64":
      return { name, type, value: value as number | bigint };
    case "int64list":
      return { name, type, value: value as Array<number | bigint> };
    case "float":
      return { name, type, value: value as number };
    case "bool":
      return { name, type, value: value as boolean };
  }
}

/**
 * Checks `options` for a plugin of `kind` and returns them as named values. Unknown names for libtpu
 * or the CUDA plugin, GPU options sent to libtpu, and wrongly typed values are PluginErrors.
 */
export function pluginOptionsToNamedValues(plugin: string, kind: PluginKind, options: unknown): NativeNamedValue[] {
  const fail = (message: string): never => {
    throw new PluginError(`plugin '${plugin}': ${message}`, { plugin, reason: "bad-options" });
  };
  const parsed = pluginOptionsSchema.safeParse(options ?? {});
  if (!parsed.success) {
    return fail(`options must be an object of string, boolean, number, bigint or integer-list values (${z.prettifyError(parsed.error)})`);
  }
  const table = typedTables[kind];
  const out: NativeNamedValue[] = [];
  for (const [name, value] of Object.entries(parsed.data)) {
    let type: OptionType;
    if (table) {
      const known = table[name];
      if (!known) {
        const gpuOnly = kind === "tpu" && gpuOptions[name] !== undefined;
        fail(
          gpuOnly
            ? `'${name}' is a GPU (CUDA plugin) option; libtpu rejects it. libtpu accepts: ${Object.keys(libtpuOptions).join(", ")}`
            : `unknown option '${name}' for ${kindLabel[kind]}; accepted: ${Object.keys(table).join(", ")}`,
        );
      }
      type = known!;
      const check = valueSchemas[type].safeParse(value);
      if (!check.success) fail(`option '${name}' must be ${type === "int64list" ? "a list of integers" : `a ${type}`}, got ${JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? `${v}n` : v))}`);
    } else {
      type = inferType(value);
    }
    out.push(toNamedValue(name, type, value));
  }
  return out;
}
