/**
 * @file Tensor basics: `to` (dtype and/or device), `cpu`, `clone`, `detach`, `contiguous`.
 * A dtype change is one `convert` unit on the tensor's device; a device change copies the bytes
 * through the host (every PJRT plugin supports that).
 */
import { fromHost } from "../../creation.js";
import { type DType, dtypes, isDType } from "../../dtype.js";
import { checkDeviceHolds, type DeviceLike, parseDevice } from "../../device.js";
import { resolveDevice } from "../../runtime/clients.js";
import { ArgumentError } from "../../runtime/errors.js";
import { hostBytesSync, Tensor } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import * as e from "../emit.js";
import { checkTensor, run } from "../unit.js";

export interface ToOptions {
  dtype?: DType;
  device?: DeviceLike;
  /** Always return a new tensor, even when nothing changes (PyTorch's copy=True). */
  copy?: boolean;
}

/** What `to(...)` was asked for: a dtype name, a device, another tensor, or an options object. */
export type ToTarget = DType | DeviceLike | Tensor | ToOptions;

function parseTarget(target: ToTarget | undefined, options: ToOptions | undefined): ToOptions {
  if (target === undefined) return { ...options };
  if (target instanceof Tensor) return { ...options, dtype: target.dtype, device: target.device };
  if (typeof target === "string") return isDType(target) ? { ...options, dtype: target } : { ...options, device: target };
  if (typeof target === "object" && target !== null && "type" in target && "index" in target) return { ...options, device: target as DeviceLike };
  if (typeof target === "object" && target !== null && !Array.isArray(target)) {
    for (const k of Object.keys(target)) {
      if (k !== "dtype" && k !== "device" && k !== "copy") throw new ArgumentError(`to: unknown option '${k}' (expected dtype, device, copy)`);
    }
    return { ...(target as ToOptions), ...options };
  }
  throw new ArgumentError(`to: expected a dtype name, a device ("cpu", "tpu:0"), a Tensor or { dtype, device }, got ${String(target)}`);
}

/**
 * `x.to("float64")`, `x.to("tpu")`, `x.to({ dtype, device })`, `x.to(other)`: a tensor with the
 * requested dtype and device. When nothing changes it returns `x` itself, as PyTorch does (unless
 * `copy: true`).
 */
export function to(x: Tensor, target?: ToTarget, options?: ToOptions): Tensor {
  checkTensor("to", x);
  const want = parseTarget(target, options);
  const dtype = want.dtype === undefined ? x.dtype : dtypes[want.dtype]?.name;
  if (dtype === undefined) throw new ArgumentError(`to: unknown dtype '${String(want.dtype)}'`);
  if (want.device !== undefined) checkDeviceHolds("to", dtype, want.device);
  const device = want.device === undefined ? x.device : resolveDevice(parseDevice(want.device)).name;
  if (dtype === x.dtype && device === x.device) return want.copy ? clone(x) : x;
  const converted = dtype === x.dtype ? x : run("to", [x], dtype, ([v]) => e.convert(v as Tracer, dtype));
  if (device === x.device) return converted;
  try {
    return moveTo(converted, device);
  } finally {
    if (converted !== x) converted.dispose();
  }
}

/** A copy of `x` on another device, through the host. */
function moveTo(x: Tensor, device: string): Tensor {
  const bytes = hostBytesSync(x);
  const storage = new dtypes[x.dtype].storage(bytes, 0, bytes.byteLength / dtypes[x.dtype].itemSize);
  return fromHost(storage, x.dtype, x.shape, device);
}

/** `x.to("cpu")`. */
export function cpu(x: Tensor): Tensor {
  return to(x, "cpu");
}

/** A new tensor with the same values (a new buffer). */
export function clone(x: Tensor): Tensor {
  return run("clone", [x], "", ([v]) => v as Tracer);
}

/**
 * A new tensor with the same values, outside autograd. PyTorch's detach shares storage; here every
 * tensor owns its buffer, so it is a copy (see "views are copies" in the README).
 */
export function detach(x: Tensor): Tensor {
  return clone(x);
}

/** Every tensor here is dense and row-major; like `clone`, it returns a new tensor. */
export function contiguous(x: Tensor): Tensor {
  return clone(x);
}
