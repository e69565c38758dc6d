/**
 * @file What the factories share: one device-side unit with no inputs, a JS scalar cast to a dtype
 * as PyTorch casts it, the dtype a fill value implies, and `requiresGrad` (recorded on the result;
 * autograd comes later).
 */
import { type DType, defaultFloatDType, defaultIntDType, dtypeInfo, isFloating } from "../../dtype.js";
import { canonicalDevice, type DeviceLike } from "../../device.js";
import { DTypeError, ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import { dispatch1 } from "../../trace/eager.js";
import type { Tracer } from "../../trace/tracer.js";
import { checkTensorSize, fmtShape } from "../dims.js";
import * as e from "../emit.js";
import type { ScalarArg } from "../types.js";

/** The options every factory takes (PyTorch's keyword-only dtype, device and requires_grad). */
export interface CreationOptions {
  dtype?: DType;
  device?: DeviceLike;
  requiresGrad?: boolean;
}
export interface LogspaceOptions extends CreationOptions {
  base?: number;
}

/** DTypeError, as PyTorch's, for requiresGrad on a dtype that cannot have gradients; checked before anything is made. */
export function checkGrad(op: string, dtype: DType, requiresGrad: boolean): void {
  if (requiresGrad && !isFloating(dtype)) {
    throw new DTypeError(`${op}: only tensors of floating point dtype can require gradients, got ${dtype}`);
  }
}

/** `t` with requiresGrad recorded. */
export function withGrad(t: Tensor, requiresGrad: boolean): Tensor {
  if (requiresGrad) t.requiresGrad = true;
  return t;
}

/** ShapeError for a negative size. */
export function checkSizes(op: string, size: readonly number[]): void {
  for (const d of size) if (d < 0) throw new ShapeError(`${op}: sizes must be non-negative integers, got ${fmtShape(size)}`);
}

/** One unit with no inputs on `device` (its canonical name; the device itself is opened when the unit compiles, after its dtype checks). */
export function make(op: string, statics: string, device: DeviceLike | undefined, body: () => Tracer): Tensor {
  return dispatch1(op, statics, [], () => body(), canonicalDevice(device));
}

const INT_RANGE: Record<string, [number, number]> = {
  int8: [-128, 127], int16: [-32768, 32767], int32: [-2147483648, 2147483647], uint8: [0, 255],
  uint16: [0, 65535], uint32: [0, 4294967295],
};

/** A JS scalar as a constant value of `dtype` (PyTorch's cast: floats truncate toward zero for ints). */
export function castValue(op: string, value: ScalarArg, dtype: DType): number | bigint | boolean {
  const kind = dtypeInfo(dtype).kind;
  if (kind === "bool") return typeof value === "bigint" ? value !== 0n : Boolean(value) && !Number.isNaN(value);
  if (kind === "float") return typeof value === "boolean" ? (value ? 1 : 0) : Number(value);
  let v: number | bigint;
  if (typeof value === "boolean") v = value ? 1 : 0;
  else if (typeof value === "bigint") v = value;
  else {
    if (!Number.isFinite(value)) throw new DTypeError(`${op}: value ${value} cannot be converted to type ${dtype} without overflow`);
    v = Math.trunc(value);
  }
  const range = INT_RANGE[dtype];
  if (range && (Number(v) < range[0] || Number(v) > range[1])) {
    throw new DTypeError(`${op}: value ${String(value)} cannot be converted to type ${dtype} without overflow (its range is ${range[0]} to ${range[1]})`);
  }
  if (dtypeInfo(dtype).bigint) return BigInt(v);
  return Number(v);
}

/** The dtype PyTorch gives a fill value: bool, int64 for integers, float32 otherwise. */
export function scalarDType(value: ScalarArg): DType {
  if (typeof value === "boolean") return "bool";
  if (typeof value === "bigint" || Number.isInteger(value)) return defaultIntDType;
  return defaultFloatDType;
}

/** A tensor of `shape` filled with `value` cast to `dtype`, made on the device. */
export function filled(op: string, shape: readonly number[], value: ScalarArg, dtype: DType, device: DeviceLike | undefined, requiresGrad: boolean): Tensor {
  checkSizes(op, shape);
  checkTensorSize(op, shape, dtype);
  checkGrad(op, dtype, requiresGrad);
  const v = castValue(op, value, dtype);
  const t = make(op, `${dtype}|${shape.join(",")}|${typeof v === "number" && Object.is(v, -0) ? "-0" : String(v)}`, device, () => e.full(v, dtype, shape));
  return withGrad(t, requiresGrad);
}
