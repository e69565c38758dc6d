// A fake machine for discovery tests: a set of files (path → text) and an environment.
import { posix } from "node:path";
import type { Host } from "../../src/plugins/host.js";

export function fakeHost(options: {
  files?: Record<string, string>;
  env?: Record<string, string | undefined>;
  cwd?: string;
  home?: string;
}): Host {
  const files = new Map(Object.entries(options.files ?? {}));
  return {
    env: options.env ?? {},
    cwd: () => options.cwd ?? "/work/app",
    homedir: () => options.home ?? "/home/user",
    isFile: (path) => files.has(path),
    readFile: (path) => files.get(path),
    readdir(dir) {
      const prefix = dir.endsWith("/") ? dir : `${dir}/`;
      const names = new Set<string>();
      for (const path of files.keys()) {
        if (path.startsWith(prefix)) names.add(path.slice(prefix.length).split("/")[0]!);
      }
      return [...names].sort();
    },
  };
}

/** Files that make a PCI device with this vendor and device id. */
export function pciDevice(slot: string, vendor: string, device: string): Record<string, string> {
  const dir = posix.join("/sys/bus/pci/devices", slot);
  return { [`${dir}/vendor`]: `${vendor}\n`, [`${dir}/device`]: `${device}\n` };
}
