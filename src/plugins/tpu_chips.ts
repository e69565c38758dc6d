/**
 * @file Counts Google TPU chips on the PCI bus, as JAX does before it pays for loading libtpu.
 */
import { join } from "node:path";
import type { Host } from "./host.js";

export const googlePciVendor = "0x1ae0";

/** PCI device ids of TPU generations (JAX hardware_utils). */
export const tpuPciDevices: Readonly<Record<string, string>> = {
  "0x0027": "v3",
  "0x0056": "v4 (plc)",
  "0x005e": "v4",
  "0x0062": "v5p",
  "0x0063": "v5e",
  "0x006f": "v6e",
  "0x0076": "tpu7x",
  "0x0083": "tpu8i",
  "0x007c": "tpu8t",
};

export interface TpuChips {
  count: number;
  /** Generation of each chip found ("v5e", …; "unknown 0x…" for ids not in the table). */
  kinds: string[];
}

export const pciDevicesDir = "/sys/bus/pci/devices";

export function scanTpuChips(host: Host): TpuChips {
  const kinds: string[] = [];
  for (const entry of host.readdir(pciDevicesDir)) {
    const vendor = host.readFile(join(pciDevicesDir, entry, "vendor"))?.trim().toLowerCase();
    if (vendor !== googlePciVendor) continue;
    const device = host.readFile(join(pciDevicesDir, entry, "device"))?.trim().toLowerCase() ?? "";
    kinds.push(tpuPciDevices[device] ?? `unknown ${device || "device"}`);
  }
  return { count: kinds.length, kinds };
}
