/**
 * @file One loaded plugin per library and one client per plugin name, created lazily; resolving a
 * device string to a client and a device index.
 */
import { type Device, type DeviceLike, formatDevice, parseDevice } from "../device.js";
import { realHost } from "../plugins/host.js";
import { type Discovery, libtpuFileName } from "../plugins/discovery.js";
import { cpuOptionRanges } from "../plugins/options.js";
import { discoverPlugin, markPluginInUse, onRegister, type PluginEntry, pluginEntry, pluginNames } from "../plugins/registry.js";
import { scanTpuChips, type TpuChips } from "../plugins/tpu_chips.js";
import { addon } from "./addon.js";
import { callNative, DeviceError, PluginError } from "./errors.js";
import type { NativeBuffers, NativeClient, NativeDeviceInfo, NativePlugin } from "./native.js";

export interface LoadedPlugin {
  readonly name: string;
  readonly entry: PluginEntry;
  readonly path: string;
  readonly via: string;
  readonly native: NativePlugin;
  /** The PCI scan (libtpu only). */
  readonly tpuChips: TpuChips | undefined;
}

export interface ClientEntry {
  readonly name: string;
  readonly plugin: LoadedPlugin;
  readonly native: NativeClient;
  readonly devices: readonly NativeDeviceInfo[];
  /** The buffer functions of the addon that made the client: its buffer handles belong to them. */
  readonly buffers: NativeBuffers;
}

const installHints: Record<string, string> = {
  cpu: "Build the bundled CPU plugin with `npm run build:native` (or `npx torch-pjrt rebuild`), or point env TORCH_PJRT_BUILD_DIR at a cmake-js build folder.",
  tpu: "Install libtpu with `pip install libtpu` (in ./.venv, $VIRTUAL_ENV or ~/.local), or set env TPU_LIBRARY_PATH=/path/to/libtpu.so, or call torch.registerPlugin(\"tpu\", \"/path/to/libtpu.so\").",
  cuda: "Install XLA's CUDA plugin with `pip install jax-cuda12-pjrt` (or jax-cuda13-pjrt), or call torch.registerPlugin(\"cuda\", \"/path/to/xla_cuda_plugin.so\").",
};

export function notFound(entry: PluginEntry, found: Discovery): PluginError {
  const hint =
    installHints[entry.kind === "tpu" ? "tpu" : entry.name] ??
    `Check the path given to torch.registerPlugin("${entry.name}", …) or env PJRT_NAMES_AND_LIBRARY_PATHS.`;
  const what = entry.kind === "tpu" ? "libtpu" : entry.name === "cpu" ? "the bundled CPU PJRT plugin" : `PJRT plugin '${entry.name}'`;
  return new PluginError(`${what} was not found (looked in: ${found.searched.join(", ") || "nowhere"}). ${hint}`, {
    plugin: entry.name,
    reason: "not-found",
    searched: found.searched,
  });
}

export function knownEntry(name: string): PluginEntry {
  const entry = pluginEntry(name);
  if (!entry) throw new DeviceError(`unknown plugin '${name}'; known: ${pluginNames().join(", ")}`);
  return entry;
}

const ignoreSignal = (): void => {};

/** libtpu needs these before it is loaded on a machine without chips (JAX sets the same). */
function prepareLibtpu(): TpuChips {
  // libtpu arms per-thread SIGPROF timers and, at exit, puts back the SIGPROF action it found; if
  // that was the default (terminate), a last timer tick kills the process ("Profiling timer
  // expired", exit 155). With a handler installed first, the one it puts back is harmless.
  if (!process.listeners("SIGPROF").includes(ignoreSignal)) process.on("SIGPROF", ignoreSignal);
  const chips = scanTpuChips(realHost);
  if (chips.count === 0) {
    process.env.ALLOW_MULTIPLE_LIBTPU_LOAD ??= "1";
    process.env.TPU_SKIP_MDS_QUERY ??= "1";
    // Without a TPU VM's metadata libtpu logs an INVALID_ARGUMENT about worker hostnames; name this host.
    process.env.TPU_WORKER_HOSTNAMES ??= "localhost";
    // ... and prints "WARNING: could not determine TPU accelerator type" to stderr, whatever the log
    // level variables say, unless it knows the host bounds: one host. (Ahead-of-time compiles name
    // their own topology; this one does not change them.)
    process.env.TPU_HOST_BOUNDS ??= "1,1,1";
  }
  return chips;
}

const loadedPlugins = new Map<string, LoadedPlugin>();

/** torch.setFlushDenormal's choice, given to every plugin loaded (now and later) that takes it. */
let flushDenormal = false;

/** Sets it in the loaded plugins and the CPU plugin; whether one of them can flush (see src/flush_denormal.ts). */
export function applyFlushDenormal(mode: boolean): boolean {
  flushDenormal = mode;
  loadPlugin("cpu");
  let supported = false;
  for (const plugin of loadedPlugins.values()) if (plugin.native.setFlushDenormal(mode) === true) supported = true;
  return supported;
}

/** Loads the plugin's library (no client). Throws PluginError when it is missing or fails to load. */
export function loadPlugin(name: string): LoadedPlugin {
  const entry = knownEntry(name);
  const found = discoverPlugin(entry);
  if (!found.path) {
    // Last resort for libtpu, as JAX does: let the dynamic loader search for plain "libtpu.so".
    if (entry.kind !== "tpu" || entry.explicitPath !== undefined) throw notFound(entry, found);
    found.path = libtpuFileName;
    found.via = "dlopen search";
    found.searched.push(`${libtpuFileName} (dynamic loader search)`);
  }
  const key = `${name}\0${found.path}`;
  const cached = loadedPlugins.get(key);
  // The library stays loaded; the entry (its options) is the current registration's.
  if (cached) return cached.entry === entry ? cached : { ...cached, entry };
  const tpuChips = entry.kind === "tpu" ? prepareLibtpu() : undefined;
  const path = found.path;
  let native: NativePlugin;
  try {
    native = callNative({ op: "loadPlugin", plugin: name, path }, () => addon().loadPlugin(path));
  } catch (error) {
    if (found.via === "dlopen search" && error instanceof PluginError) throw notFound(entry, found);
    throw error;
  }
  const plugin: LoadedPlugin = { name, entry, path, via: found.via, native, tpuChips };
  if (flushDenormal) native.setFlushDenormal(true);
  loadedPlugins.set(key, plugin);
  return plugin;
}

const clients = new Map<string, ClientEntry | Error>();

/** The plugin's client, created on first use; a failure is remembered and thrown again. */
export function getClient(name: string): ClientEntry {
  const cached = clients.get(name);
  if (cached instanceof Error) throw cached;
  if (cached) return cached;
  try {
    const plugin = loadPlugin(name);
    const context = {
      op: "createClient",
      plugin: name,
      path: plugin.path,
      noTpuChip: plugin.tpuChips !== undefined && plugin.tpuChips.count === 0,
      kind: plugin.entry.kind,
    };
    const native = callNative(context, () => plugin.native.createClient([...plugin.entry.options]));
    markPluginInUse(name);
    const devices = callNative({ ...context, op: "devices" }, () => native.devices());
    const entry: ClientEntry = { name, plugin, native, devices, buffers: addon().buffers };
    clients.set(name, entry);
    return entry;
  } catch (error) {
    if (error instanceof PluginError) clients.set(name, error);
    throw error;
  }
}

// A failure is remembered until the plugin is registered again (with another path or options).
onRegister((name) => {
  if (clients.get(name) instanceof Error) clients.delete(name);
});

/** The client if one exists already (never creates one). */
export function existingClient(name: string): ClientEntry | Error | undefined {
  return clients.get(name);
}

export interface ResolvedDevice {
  readonly device: Device;
  /** Canonical string, "cpu:0". */
  readonly name: string;
  readonly client: ClientEntry;
  readonly deviceIndex: number;
}

/**
 * One string object per device name: tensors and cache entries then compare and look up devices by
 * identity (eager dispatch does both on every op) instead of by their characters.
 */
const deviceNames = new Map<string, string>();
function internName(name: string): string {
  const known = deviceNames.get(name);
  if (known !== undefined) return known;
  deviceNames.set(name, name);
  return name;
}

function noSuchDevice(device: Device, count: number, clientMade: boolean): DeviceError {
  const listed = count === 0 ? "" : count === 1 ? ` (${device.type}:0)` : ` (${device.type}:0 … ${device.type}:${count - 1})`;
  const max = cpuOptionRanges.device_count!.max;
  let fix = "";
  if (device.type === "cpu") {
    fix = `. The CPU plugin makes as many devices as its device_count option says (default 1, at most ${max})`;
    if (device.index < max) {
      fix +=
        `: call torch.registerPlugin("cpu", undefined, { device_count: ${device.index + 1} }) before the first use of a cpu device` +
        (clientMade ? " (this process has used one already, so do it at the start of the program)" : "") +
        `, or give create_options in a PJRT_NAMES_AND_LIBRARY_PATHS config file`;
    }
  }
  return new DeviceError(`device ${formatDevice(device)} does not exist; '${device.type}' has ${count} device${count === 1 ? "" : "s"}${listed}${fix}`);
}

/** Parses a device string and finds its client and device, with a DeviceError for a bad index. */
export function resolveDevice(spec: DeviceLike | undefined): ResolvedDevice {
  const device = parseDevice(spec);
  const fresh = !clients.has(device.type);
  const client = getClient(device.type);
  if (device.index >= client.devices.length) {
    // A CPU client made only to find this out is closed again (nothing uses it yet, and making one is
    // cheap), so registering the plugin with more devices still works.
    const reopen = fresh && client.plugin.entry.kind === "cpu";
    if (reopen) {
      client.native.close();
      clients.delete(device.type);
      markPluginInUse(device.type, false);
    }
    throw noSuchDevice(device, client.devices.length, !reopen);
  }
  return { device, name: internName(formatDevice(device)), client, deviceIndex: device.index };
}

/** Tests only: forgets loaded plugins and clients (without closing them). */
export function resetClientsForTests(): void {
  loadedPlugins.clear();
  clients.clear();
}
