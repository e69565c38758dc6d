/**
 * @file The plugin registry: which names are devices ("cpu", "tpu", "cuda", registered ones, those
 * in env PJRT_NAMES_AND_LIBRARY_PATHS) and where each one's library is.
 */
import { basename } from "node:path";
import { z } from "zod";
import { ArgumentError, PluginError } from "../runtime/errors.js";
import type { NativeNamedValue } from "../runtime/native.js";
import { type Discovery, findCpuPlugin, findCudaPlugin, findLibtpu } from "./discovery.js";
import { type Host, realHost } from "./host.js";
import { type PluginKind, type PluginOptions, pluginOptionsSchema, pluginOptionsToNamedValues } from "./options.js";

export type PluginSource = "bundled" | "builtin" | "registered" | "env";

export interface PluginEntry {
  readonly name: string;
  readonly kind: PluginKind;
  readonly source: PluginSource;
  /** A path given by registerPlugin or the env variable; builtins find theirs by discovery. */
  readonly explicitPath: string | undefined;
  readonly options: readonly NativeNamedValue[];
}

/** Plugins known without any registration, in the order `devices()` lists them. */
export const builtinPluginNames = ["cpu", "tpu", "cuda"] as const;

export const pluginNamePattern = /^[A-Za-z_][A-Za-z0-9_]*$/;

const registered = new Map<string, PluginEntry>();
const inUse = new Set<string>();

export function inferPluginKind(name: string, path?: string): PluginKind {
  if (name === "cpu") return "cpu";
  if (name === "tpu") return "tpu";
  if (name === "cuda" || name === "gpu" || name === "rocm") return "gpu";
  const file = path ? basename(path) : "";
  if (file.startsWith("libtpu")) return "tpu";
  if (file.startsWith("xla_cuda_plugin") || file.startsWith("xla_rocm_plugin")) return "gpu";
  return "generic";
}

function builtinEntry(name: string): PluginEntry | undefined {
  if (!(builtinPluginNames as readonly string[]).includes(name)) return undefined;
  return { name, kind: inferPluginKind(name), source: name === "cpu" ? "bundled" : "builtin", explicitPath: undefined, options: [] };
}

const jsonConfigSchema = z.object({ library_path: z.string(), create_options: pluginOptionsSchema.optional() });

/** Entries of env PJRT_NAMES_AND_LIBRARY_PATHS (`name:path,…`; a path ending in .json is a config file). */
export function envPluginEntries(host: Host = realHost): Map<string, PluginEntry> {
  const out = new Map<string, PluginEntry>();
  const value = host.env.PJRT_NAMES_AND_LIBRARY_PATHS;
  if (!value) return out;
  for (const item of value.split(",")) {
    const colon = item.indexOf(":");
    if (colon <= 0) continue;
    const name = item.slice(0, colon).trim();
    let path = item.slice(colon + 1).trim();
    if (!pluginNamePattern.test(name) || !path) continue;
    let options: NativeNamedValue[] = [];
    const kind = () => inferPluginKind(name, path);
    if (path.endsWith(".json")) {
      const text = host.readFile(path);
      const config = text === undefined ? undefined : jsonConfigSchema.safeParse(safeJson(text));
      if (!config?.success) {
        throw new PluginError(
          `PJRT_NAMES_AND_LIBRARY_PATHS names ${path} for plugin '${name}', but it is not a readable JSON file with "library_path"`,
          { plugin: name, reason: "not-found", path, searched: [path] },
        );
      }
      path = config.data.library_path;
      options = pluginOptionsToNamedValues(name, kind(), config.data.create_options ?? {});
    }
    out.set(name, { name, kind: kind(), source: "env", explicitPath: path, options });
  }
  return out;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The entry for a plugin name: registered, then env, then builtin; undefined if unknown. */
export function pluginEntry(name: string, host: Host = realHost): PluginEntry | undefined {
  return registered.get(name) ?? envPluginEntries(host).get(name) ?? builtinEntry(name);
}

/** Every known plugin name: builtins first, then env ones, then registered ones. */
export function pluginNames(host: Host = realHost): string[] {
  return [...new Set<string>([...builtinPluginNames, ...envPluginEntries(host).keys(), ...registered.keys()])];
}

/** Where the plugin's library is. */
export function discoverPlugin(entry: PluginEntry, host: Host = realHost): Discovery {
  switch (entry.kind === "tpu" ? "tpu" : entry.name) {
    case "tpu":
      return findLibtpu(host, entry.explicitPath);
    case "cpu":
      if (entry.explicitPath === undefined) return findCpuPlugin(host);
      break;
    case "cuda":
      return findCudaPlugin(host, entry.explicitPath);
  }
  const path = entry.explicitPath!;
  return { path: host.isFile(path) ? path : undefined, via: entry.source, searched: [path] };
}

const registrationListeners: Array<(name: string) => void> = [];

/** Calls `listener` after every registerPlugin (the client registry forgets a remembered failure). */
export function onRegister(listener: (name: string) => void): void {
  registrationListeners.push(listener);
}

const registerArgs = z.tuple([
  z.string().regex(pluginNamePattern, "a plugin name is letters, digits and _ (it becomes a device type)"),
  z.string().min(1).optional().nullable(),
  z.unknown(), // checked per plugin kind by pluginOptionsToNamedValues, with clearer messages
]);

/**
 * Registers (or re-registers) a PJRT plugin under `name`, so "name" and "name:N" become devices.
 * `path` may be omitted for "tpu" and "cuda" to keep discovery and only set options. Options are
 * the plugin's create options, checked against the plugin kind's known options.
 */
export function registerPlugin(name: string, path?: string | null, options?: PluginOptions): void {
  const parsed = registerArgs.safeParse([name, path, options]);
  if (!parsed.success) {
    throw new ArgumentError(`registerPlugin(name, path, options): ${z.prettifyError(parsed.error)}`);
  }
  const explicitPath = parsed.data[1] ?? undefined;
  if (explicitPath === undefined && !builtinEntry(name)) {
    throw new ArgumentError(`registerPlugin('${name}'): a path to the plugin's shared library is required`);
  }
  const kind = inferPluginKind(name, explicitPath);
  const named = pluginOptionsToNamedValues(name, kind, parsed.data[2] ?? {});
  if (inUse.has(name)) {
    throw new PluginError(
      `plugin '${name}' is already in use: its client was made, with the options it had then, at the first use of a '${name}' device ` +
        `(or by torch.runtime.devices() or plugins()); call torch.registerPlugin("${name}", …) before that, e.g. at the start of the program`,
      { plugin: name, reason: "in-use" },
    );
  }
  registered.set(name, { name, kind, source: "registered", explicitPath, options: named });
  for (const listener of registrationListeners) listener(name);
}

/** Called by the client registry once a plugin has a client (its registration is then fixed), and when it closes one. */
export function markPluginInUse(name: string, used = true): void {
  if (used) inUse.add(name);
  else inUse.delete(name);
}

/** Test helper: forgets registrations (not clients). */
export function resetRegistrationsForTests(): void {
  registered.clear();
  inUse.clear();
}
