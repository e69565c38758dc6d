/**
 * @file Plugin create options: a typed table per plugin kind, checked with zod before any native
 * call and turned into the addon's named values.
 */
import { z } from "zod";
import { PluginError } from "../runtime/errors.js";
import type { NativeNamedValue } from "../runtime/native.js";
import { closestName } from "../suggest.js";

export type PluginKind = "cpu" | "tpu" | "gpu" | "generic";
type OptionType = NativeNamedValue["type"];

/** Options of our CPU plugin (native/cpu/pjrt/client.cc reads them). */
export const cpuOptions: Readonly<Record<string, OptionType>> = {
  device_count: "int64",
  num_threads: "int64",
};

/**
 * The CPU plugin's integer ranges, the limits native/cpu/pjrt checks again when the client is made
 * (kMaxDevices, kMaxThreads; test/bad-calls.test.ts holds the two to each other). Checked here so a
 * bad value fails in registerPlugin, not at the first use of a device.
 */
export const cpuOptionRanges: Readonly<Record<string, { min: number; max: number; why: string }>> = {
  device_count: { min: 1, max: 64, why: "its devices share this machine's CPUs" },
  num_threads: { min: 1, max: 1024, why: "the thread pool's size" },
};

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
  cpu: cpuOptions,
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

const typeWords: Record<OptionType, string> = {
  string: "a string",
  int64: "an integer",
  int64list: "a list of integers",
  float: "a number",
  bool: "a boolean",
};

/** A value as the user wrote it: bigints keep their n, strings their quotes. */
const shown = (value: unknown): string =>
  typeof value === "bigint" ? `${value}n` : Array.isArray(value) ? `[${value.map(shown).join(", ")}]` : JSON.stringify(value) ?? String(value);

/** "; did you mean 'x'?" for a camelCase or misspelled option name. */
function suggestion(name: string, known: readonly string[]): string {
  const snake = name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  if (snake !== name && known.includes(snake)) return `; did you mean '${snake}'? (plugin options keep the plugin's snake_case names)`;
  const best = closestName(name, known);
  return best === undefined ? "" : `; did you mean '${best}'?`;
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
 * Checks `options` for a plugin of `kind` and returns them as named values. Unknown names for our
 * CPU plugin, libtpu or the CUDA plugin, GPU options sent to libtpu, wrongly typed values and CPU
 * plugin values out of range are PluginErrors.
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
        const names = Object.keys(table);
        fail(
          gpuOnly
            ? `'${name}' is a GPU (CUDA plugin) option; libtpu rejects it. libtpu accepts: ${names.join(", ")}`
            : `unknown option '${name}' for ${kindLabel[kind]}${suggestion(name, names)}; accepted: ${names.join(", ")}`,
        );
      }
      type = known!;
      const check = valueSchemas[type].safeParse(value);
      if (!check.success) fail(`option '${name}' must be ${typeWords[type]}, got ${shown(value)}`);
      const range = kind === "cpu" ? cpuOptionRanges[name] : undefined;
      const n = value as number | bigint;
      if (range && !(n >= range.min && n <= range.max)) {
        fail(`option '${name}' must be from ${range.min} to ${range.max} (${kindLabel[kind]}'s limit: ${range.why}), got ${shown(value)}`);
      }
    } else {
      type = inferType(value);
    }
    out.push(toNamedValue(name, type, value));
  }
  return out;
}
