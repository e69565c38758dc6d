/**
 * @file torch.runtime.devices() and torch.runtime.plugins(): what is installed and usable here.
 */
import { z } from "zod";
import { realHost } from "../plugins/host.js";
import { discoverPlugin, type PluginSource, pluginNames } from "../plugins/registry.js";
import type { PluginKind } from "../plugins/options.js";
import { scanTpuChips } from "../plugins/tpu_chips.js";
import { parseOptions } from "./option_schemas.js";
import { type ClientEntry, getClient, knownEntry, loadPlugin, notFound } from "./clients.js";
import { DeviceError, noTpuMessage, PluginError } from "./errors.js";
import type { NativeNamedValue } from "./native.js";

export type AttributeValue = string | number | bigint | boolean | Array<number | bigint>;

export interface DeviceInfo {
  /** Canonical device string, "cpu:0". */
  device: string;
  type: string;
  index: number;
  id: number;
  kind: string;
  platform: string;
  platformVersion: string;
  processIndex: number;
  localHardwareId: number;
  addressable: boolean;
  description: string;
  attributes: Record<string, AttributeValue>;
}

export type PluginStatus =
  | "ready" // a client exists or was created
  | "loaded" // the library loaded; no client was tried
  | "not-found"
  | "no-device" // e.g. libtpu without a TPU chip
  | "error";

export interface PluginInfo {
  name: string;
  kind: PluginKind;
  source: PluginSource;
  found: boolean;
  path: string | null;
  /** How the path was found ("pip", "TPU_LIBRARY_PATH", "build", …). */
  via: string;
  searched: string[];
  status: PluginStatus;
  /** Why the plugin is not usable (status "not-found", "no-device", "error"). */
  error: string | null;
  apiVersion: { major: number; minor: number } | null;
  attributes: Record<string, AttributeValue>;
  /** From the plugin's stablehlo_current_version attribute, "1.20.0". */
  stablehloVersion: string | null;
  platform: string | null;
  platformVersion: string | null;
  numDevices: number | null;
  /** TPU chips on the PCI bus (libtpu only). */
  tpuChips: number | null;
}

export function attributesToObject(values: readonly NativeNamedValue[]): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  for (const v of values) out[v.name] = v.value;
  return out;
}

function versionString(value: AttributeValue | undefined): string | null {
  return Array.isArray(value) ? value.join(".") : value === undefined ? null : String(value);
}

function deviceInfos(client: ClientEntry): DeviceInfo[] {
  return client.devices.map((d) => ({
    device: `${client.name}:${d.index}`,
    type: client.name,
    index: d.index,
    id: d.id,
    kind: d.kind,
    platform: client.native.platformName,
    platformVersion: client.native.platformVersion,
    processIndex: d.processIndex,
    localHardwareId: d.localHardwareId,
    addressable: d.addressable,
    description: d.debugString,
    attributes: attributesToObject(d.attributes),
  }));
}

/**
 * Devices of one plugin (creating its client; errors if it is unusable), or of every usable
 * plugin when `type` is omitted (unusable ones are skipped; plugins() says why).
 */
export function devices(type?: string): DeviceInfo[] {
  if (type !== undefined) {
    if (typeof type !== "string") throw new DeviceError("torch.runtime.devices(type): type must be a plugin name such as \"cpu\" or \"tpu\"");
    knownEntry(type);
    return deviceInfos(getClient(type));
  }
  const out: DeviceInfo[] = [];
  for (const name of pluginNames()) {
    const entry = knownEntry(name);
    if (!discoverPlugin(entry, realHost).path) continue;
    // Without a chip libtpu has no devices; don't pay for loading 690 MB to learn that.
    if (entry.kind === "tpu" && scanTpuChips(realHost).count === 0) continue;
    try {
      out.push(...deviceInfos(getClient(name)));
    } catch (error) {
      if (!(error instanceof PluginError)) throw error;
    }
  }
  return out;
}

const pluginsOptionsSchema = z.strictObject({
  /** Load each found library to read its API version and attributes (default true). */
  load: z.boolean().optional(),
});

/** Every known plugin: where it is, whether it loads, and why not. */
export function plugins(options: { load?: boolean } = {}): PluginInfo[] {
  const { load = true } = parseOptions(pluginsOptionsSchema, options, "torch.runtime.plugins");
  return pluginNames().map((name) => describePlugin(name, load));
}

function describePlugin(name: string, load: boolean): PluginInfo {
  const entry = knownEntry(name);
  const found = discoverPlugin(entry, realHost);
  const info: PluginInfo = {
    name,
    kind: entry.kind,
    source: entry.source,
    found: found.path !== undefined,
    path: found.path ?? null,
    via: found.via,
    searched: found.searched,
    status: found.path ? "loaded" : "not-found",
    error: null,
    apiVersion: null,
    attributes: {},
    stablehloVersion: null,
    platform: null,
    platformVersion: null,
    numDevices: null,
    tpuChips: null,
  };
  if (!found.path) {
    info.error = notFound(entry, found).message;
    return info;
  }
  if (!load) return info;
  try {
    const plugin = loadPlugin(name);
    info.apiVersion = { major: plugin.native.apiMajor, minor: plugin.native.apiMinor };
    info.attributes = attributesToObject(plugin.native.attributes());
    info.stablehloVersion = versionString(info.attributes.stablehlo_current_version);
    if (plugin.tpuChips) info.tpuChips = plugin.tpuChips.count;
    if (plugin.tpuChips?.count === 0) {
      info.status = "no-device";
      info.error = `${noTpuMessage} (no Google TPU chip on the PCI bus); compileFor("${name}", …) still works`;
      return info;
    }
    const client = getClient(name);
    info.status = "ready";
    info.platform = client.native.platformName;
    info.platformVersion = client.native.platformVersion;
    info.numDevices = client.devices.length;
  } catch (error) {
    info.status = error instanceof PluginError && error.reason === "no-device" ? "no-device" : "error";
    info.error = (error as Error).message;
  }
  return info;
}
