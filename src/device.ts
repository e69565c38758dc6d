/**
 * @file Device strings ("cpu", "cpu:1", "tpu", "tpu:0", "cuda:0", any registered plugin name) and
 * the entry points of plugin registration; discovery itself lives in src/plugins/.
 */
import type { DType } from "./dtype.js";
import { DeviceError, DTypeError } from "./runtime/errors.js";
import { type Host, realHost } from "./plugins/host.js";
import { pluginEntry, pluginNames } from "./plugins/registry.js";

export { registerPlugin } from "./plugins/registry.js";

/** A parsed device: the plugin name and the index among that plugin's addressable devices. */
export interface Device {
  readonly type: string;
  readonly index: number;
}

/** What a device can be given as. */
export type DeviceLike = string | Device;

/** Where tensors made without a `device` go: torch.setDefaultDevice's choice, the first CPU device until then. */
let defaultDevice: Device = { type: "cpu", index: 0 };

/**
 * torch.set_default_device: the device of tensors made without a `device` (`torch.tensor`, `zeros`,
 * `rand`, new modules' parameters, `torch.runtime.compile`); `null` goes back to "cpu". Checked now:
 * the type must be a known plugin, the index must exist when a tensor is made.
 */
export function setDefaultDevice(device: DeviceLike | null): void {
  defaultDevice = device === null ? { type: "cpu", index: 0 } : parseDevice(device);
}

/** torch.get_default_device: the canonical string of the default device, "cpu:0" unless setDefaultDevice changed it. */
export function getDefaultDevice(): string {
  return formatDevice(defaultDevice);
}

/** Dtypes a kind of device cannot hold: TPUs have no float64. */
export const unsupportedDTypes: Readonly<Record<string, readonly DType[]>> = { tpu: ["float64"] };

/** DTypeError when `device` cannot hold `dtype`; checked before anything is sent to the device. */
export function checkDeviceHolds(op: string, dtype: DType, device: DeviceLike | undefined): void {
  const { type } = parseDevice(device);
  if (unsupportedDTypes[type]?.includes(dtype)) {
    throw new DTypeError(`${op}: ${formatDevice(parseDevice(device))} cannot hold ${dtype} tensors; use float32 (e.g. t.to("float32") before moving the tensor there)`);
  }
}

const devicePattern = /^([A-Za-z_][A-Za-z0-9_]*)(?::(\d+))?$/;

const example = `e.g. "cpu", "cpu:1", "tpu", "tpu:0"`;

/** Parses and checks a device string (undefined: the default device); the type must be a known plugin. Index range is checked on use. */
export function parseDevice(spec: DeviceLike | undefined, host: Host = realHost): Device {
  if (spec === undefined) return defaultDevice;
  if (typeof spec === "object" && spec !== null && typeof spec.type === "string" && Number.isInteger(spec.index)) {
    return parseDevice(`${spec.type}:${spec.index}`, host);
  }
  if (typeof spec !== "string") {
    throw new DeviceError(`a device must be a string (${example}), got ${typeof spec}`);
  }
  const match = devicePattern.exec(spec.trim());
  if (!match) {
    throw new DeviceError(`invalid device string '${spec}'; expected <type> or <type>:<index>, ${example}`);
  }
  const type = match[1]!;
  const index = match[2] === undefined ? 0 : Number(match[2]);
  if (!Number.isSafeInteger(index)) throw new DeviceError(`device index in '${spec}' is too large`);
  if (!pluginEntry(type, host)) {
    throw new DeviceError(
      `unknown device type '${type}' in '${spec}'; known: ${pluginNames(host).join(", ")}. ` +
        `Register another PJRT plugin with torch.registerPlugin("${type}", "/path/to/plugin.so") ` +
        `or env PJRT_NAMES_AND_LIBRARY_PATHS=${type}:/path/to/plugin.so`,
    );
  }
  return { type, index };
}

/** The canonical spelling, always with an index: "cpu:0". */
export function formatDevice(device: Device): string {
  return `${device.type}:${device.index}`;
}

/** parseDevice, then formatDevice. */
export function canonicalDevice(spec: DeviceLike | undefined, host?: Host): string {
  return formatDevice(parseDevice(spec, host));
}
