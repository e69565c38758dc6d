/**
 * @file torch.runtime.synchronize: waits for the work enqueued on a device, like torch.cuda.synchronize.
 */
import type { DeviceLike } from "../device.js";
import { pluginNames } from "../plugins/registry.js";
import { type ClientEntry, existingClient, resolveDevice } from "./clients.js";
import { callNative } from "./errors.js";
import { flushPending } from "../trace/inline.js";

function synchronizeDevice(client: ClientEntry, deviceIndex: number, name: string): void {
  callNative({ op: "synchronize", plugin: client.name, device: name }, () => client.native.synchronize(deviceIndex));
}

/**
 * Blocks until every op and `exe.run()` enqueued on `device` (default: on every device in use) before
 * the call has finished running (fused eager mode first runs what it recorded). Errors of that work are not thrown here: they surface when a tensor
 * it computed is read.
 */
export function synchronize(device?: DeviceLike): void {
  flushPending();
  if (device !== undefined) {
    const target = resolveDevice(device);
    synchronizeDevice(target.client, target.deviceIndex, target.name);
    return;
  }
  for (const name of pluginNames()) {
    const client = existingClient(name);
    if (client === undefined || client instanceof Error) continue;
    client.devices.forEach((_, i) => synchronizeDevice(client, i, `${name}:${i}`));
  }
}
