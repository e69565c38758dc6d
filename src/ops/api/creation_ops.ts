/**
 * @file Creation ops (zeros … logspace, eye, *Like): each runs as one unit on the device (a constant,
 * iota or broadcast); no host array is uploaded. `empty` is zero-filled (there is no uninitialized memory).
 */
import { type DType, defaultFloatDType, defaultIntDType, dtypeInfo } from "../../dtype.js";
import { canonicalDevice, parseDevice } from "../../device.js";
import { ArgumentError, DTypeError, ShapeError, TorchError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import { dispatch1 } from "../../trace/eager.js";
import type { Tracer } from "../../trace/tracer.js";
import * as e from "../emit.js";
import { fmtShape } from "../dims.js";
import { type ScalarArg } from "../types.js";
import { checkTensor, isScalar } from "../unit.js";

type Shape = readonly number[];
type DeviceOpt = string | { type: string; index: number };
export interface CreationOptions { dtype?: DType; device?: DeviceOpt }
export interface LogspaceOptions extends CreationOptions { base?: number }

const OPTION_KEYS = new Set(["dtype", "device", "base"]);

function checkOptions(op: string, opts: unknown, allowed: readonly string[] = ["dtype", "device"]): CreationOptions & { base?: number } {
  if (opts === undefined) return {};
  if (typeof opts !== "object" || opts === null || Array.isArray(opts)) throw new ArgumentError(`${op}: options must be an object, got ${String(opts)}`);
  for (const k of Object.keys(opts)) {
    if (!allowed.includes(k) || !OPTION_KEYS.has(k)) throw new ArgumentError(`${op}: unknown option '${k}' (expected ${allowed.join(", ")})`);
  }
  const o = opts as CreationOptions & { base?: number };
  if (o.dtype !== undefined) dtypeInfo(o.dtype);
  if (o.device !== undefined) parseDevice(o.device);
  return o;
}

function isOptions(v: unknown): boolean {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** zeros(2, 3), zeros([2, 3]), zeros([2, 3], { dtype }). */
function sizeArgs(op: string, args: readonly unknown[]): [number[], unknown] {
  const opts = args.length > 0 && isOptions(args[args.length - 1]) ? args[args.length - 1] : undefined;
  const rest = opts === undefined ? args : args.slice(0, -1);
  const list = rest.length === 1 && Array.isArray(rest[0]) ? [...(rest[0] as unknown[])] : [...rest];
  for (const d of list) {
    if (typeof d !== "number" || !Number.isInteger(d) || d < 0) throw new ShapeError(`${op}: sizes must be non-negative integers, got [${list.map(String).join(", ")}]`);
  }
  return [list as number[], opts];
}

/** The canonical device name; the device itself is opened when the unit compiles (after its dtype checks). */
function deviceName(device: DeviceOpt | undefined): string {
  return canonicalDevice(device);
}

function make(op: string, statics: string, device: DeviceOpt | undefined, body: () => Tracer): Tensor {
  return dispatch1(op, statics, [], () => body(), deviceName(device));
}

const INT_RANGE: Record<string, [number, number]> = {
  int8: [-128, 127], int16: [-32768, 32767], int32: [-2147483648, 2147483647], uint8: [0, 255],
  uint16: [0, 65535], uint32: [0, 4294967295],
};

/** A JS scalar as a constant value of `dtype` (PyTorch's cast: floats truncate toward zero for ints). */
function castValue(op: string, value: ScalarArg, dtype: DType): number | bigint | boolean {
  const kind = dtypeInfo(dtype).kind;
  if (kind === "bool") return typeof value === "bigint" ? value !== 0n : Boolean(value) && !Number.isNaN(value);
  if (kind === "float") return typeof value === "boolean" ? (value ? 1 : 0) : Number(value);
  let v: number | bigint;
  if (typeof value === "boolean") v = value ? 1 : 0;
  else if (typeof value === "bigint") v = value;
  else {
    if (!Number.isFinite(value)) throw new TorchError(`${op}: value ${value} cannot be converted to type ${dtype} without overflow`);
    v = Math.trunc(value);
  }
  const range = INT_RANGE[dtype];
  if (range && (Number(v) < range[0] || Number(v) > range[1])) {
    throw new TorchError(`${op}: value ${String(value)} cannot be converted to type ${dtype} without overflow`);
  }
  if (dtypeInfo(dtype).bigint) return BigInt(v);
  return Number(v);
}

function scalarDType(value: ScalarArg): DType {
  if (typeof value === "boolean") return "bool";
  if (typeof value === "bigint" || Number.isInteger(value)) return defaultIntDType;
  return defaultFloatDType;
}

function filled(op: string, shape: Shape, value: ScalarArg, dtype: DType, device: DeviceOpt | undefined): Tensor {
  const v = castValue(op, value, dtype);
  return make(op, `${dtype}|${shape.join(",")}|${typeof v === "number" && Object.is(v, -0) ? "-0" : String(v)}`, device, () => e.full(v, dtype, shape));
}

/** A tensor of zeros (float32 unless `dtype`). */
export function zeros(...args: (number | Shape | CreationOptions)[]): Tensor {
  const [shape, o] = sizeArgs("zeros", args);
  const opts = checkOptions("zeros", o);
  return filled("zeros", shape, 0, opts.dtype ?? defaultFloatDType, opts.device);
}

/** A tensor of ones. */
export function ones(...args: (number | Shape | CreationOptions)[]): Tensor {
  const [shape, o] = sizeArgs("ones", args);
  const opts = checkOptions("ones", o);
  return filled("ones", shape, 1, opts.dtype ?? defaultFloatDType, opts.device);
}

/** torch.empty: zero-filled here (the result is always initialized). */
export function empty(...args: (number | Shape | CreationOptions)[]): Tensor {
  const [shape, o] = sizeArgs("empty", args);
  const opts = checkOptions("empty", o);
  return filled("empty", shape, 0, opts.dtype ?? defaultFloatDType, opts.device);
}

/** A tensor filled with `value`; the dtype is inferred from the value (bool, int64, float32) unless given. */
export function full(size: Shape, value: ScalarArg, options?: CreationOptions): Tensor {
  const [shape] = sizeArgs("full", [size]);
  if (!isScalar(value)) throw new ArgumentError(`full: fill value must be a number, bigint or boolean, got ${String(value)}`);
  const opts = checkOptions("full", options);
  return filled("full", shape, value, opts.dtype ?? scalarDType(value), opts.device);
}

function likeOpts(op: string, a: Tensor, options: unknown): { dtype: DType; device: DeviceOpt; shape: Shape } {
  checkTensor(op, a);
  const opts = checkOptions(op, options);
  return { dtype: opts.dtype ?? a.dtype, device: opts.device ?? a.device, shape: a.shape };
}

export function zerosLike(a: Tensor, options?: CreationOptions): Tensor {
  const o = likeOpts("zerosLike", a, options);
  return filled("zerosLike", o.shape, 0, o.dtype, o.device);
}

export function onesLike(a: Tensor, options?: CreationOptions): Tensor {
  const o = likeOpts("onesLike", a, options);
  return filled("onesLike", o.shape, 1, o.dtype, o.device);
}

/** Zero-filled, like empty. */
export function emptyLike(a: Tensor, options?: CreationOptions): Tensor {
  const o = likeOpts("emptyLike", a, options);
  return filled("emptyLike", o.shape, 0, o.dtype, o.device);
}

export function fullLike(a: Tensor, value: ScalarArg, options?: CreationOptions): Tensor {
  if (!isScalar(value)) throw new ArgumentError(`fullLike: fill value must be a number, bigint or boolean, got ${String(value)}`);
  const o = likeOpts("fullLike", a, options);
  return filled("fullLike", o.shape, value, o.dtype, o.device);
}

function num(op: string, what: string, v: unknown): number {
  if (typeof v === "bigint") return Number(v);
  if (typeof v !== "number") throw new ArgumentError(`${op}: ${what} must be a number, got ${String(v)}`);
  return v;
}

/** arange(end), arange(start, end), arange(start, end, step), each with optional { dtype, device }. */
export function arange(...args: (number | bigint | CreationOptions)[]): Tensor {
  const o = args.length > 0 && isOptions(args[args.length - 1]) ? args[args.length - 1] : undefined;
  const nums = (o === undefined ? args : args.slice(0, -1)) as (number | bigint)[];
  if (nums.length < 1 || nums.length > 3) throw new ArgumentError(`arange: expected 1 to 3 numbers (end | start, end | start, end, step), got ${nums.length}`);
  const opts = checkOptions("arange", o);
  const [start, end, step] = nums.length === 1 ? [0, num("arange", "end", nums[0]), 1] : [num("arange", "start", nums[0]), num("arange", "end", nums[1]), nums.length === 3 ? num("arange", "step", nums[2]) : 1];
  const allInt = nums.every((v) => typeof v === "bigint" || Number.isInteger(v));
  const dtype = opts.dtype ?? (allInt ? defaultIntDType : defaultFloatDType);
  if (!Number.isFinite(start) || !Number.isFinite(end) || !Number.isFinite(step)) throw new TorchError(`arange: start, end and step must be finite, got ${start}, ${end}, ${step}`);
  if (step === 0) throw new TorchError("arange: step must be nonzero");
  if ((step > 0 && end < start) || (step < 0 && end > start)) {
    throw new TorchError(`arange: upper bound and lower bound inconsistent with step sign (start ${start}, end ${end}, step ${step})`);
  }
  const n = Math.max(0, Math.ceil((end - start) / step));
  if (dtypeInfo(dtype).kind === "bool") throw new DTypeError("arange: bool is not a supported dtype");
  return make("arange", `${dtype}|${start},${end},${step}`, opts.device, () => {
    const kind = dtypeInfo(dtype).kind;
    // integer dtypes with integer arguments count exactly; otherwise compute in float (float64 only when asked)
    const work: DType = kind === "float" ? (dtype === "float64" ? "float64" : "float32") : allInt ? dtype : "float32";
    const i = e.iota(work, [n], 0);
    const v = e.add(e.mul(i, e.full(castValue("arange", step, work), work, [n])), e.full(castValue("arange", start, work), work, [n]));
    return e.convert(v, dtype);
  });
}

function linspaceBody(start: number, end: number, steps: number, work: DType): Tracer {
  if (steps === 1) return e.full(start, work, [1]);
  const step = (end - start) / (steps - 1);
  const i = e.iota(work, [steps], 0);
  const c = (v: number): Tracer => e.full(v, work, [steps]);
  // symmetric, as PyTorch: the first half counts up from start, the second half down from end
  const up = e.add(c(start), e.mul(i, c(step)));
  const down = e.sub(c(end), e.mul(e.sub(c(steps - 1), i), c(step)));
  const half = e.compare(i, c(Math.floor(steps / 2)), "LT");
  return e.select(half, up, down);
}

function checkSteps(op: string, steps: unknown): number {
  if (typeof steps !== "number" || !Number.isInteger(steps) || steps < 0) throw new ArgumentError(`${op}: steps must be a non-negative integer, got ${String(steps)}`);
  return steps;
}

/** `steps` evenly spaced values from start to end inclusive. */
export function linspace(start: number, end: number, steps: number, options?: CreationOptions): Tensor {
  const opts = checkOptions("linspace", options);
  const s = num("linspace", "start", start);
  const t = num("linspace", "end", end);
  const n = checkSteps("linspace", steps);
  const dtype = opts.dtype ?? defaultFloatDType;
  const work: DType = dtype === "float64" ? "float64" : "float32";
  return make("linspace", `${dtype}|${s},${t},${n}`, opts.device, () => (n === 0 ? e.full(0, dtype, [0]) : e.convert(linspaceBody(s, t, n, work), dtype)));
}

/** base ** linspace(start, end, steps). */
export function logspace(start: number, end: number, steps: number, options?: LogspaceOptions): Tensor {
  const opts = checkOptions("logspace", options, ["dtype", "device", "base"]);
  const s = num("logspace", "start", start);
  const t = num("logspace", "end", end);
  const n = checkSteps("logspace", steps);
  const base = num("logspace", "base", opts.base ?? 10);
  const dtype = opts.dtype ?? defaultFloatDType;
  const work: DType = dtype === "float64" ? "float64" : "float32";
  return make("logspace", `${dtype}|${s},${t},${n},${base}`, opts.device, () => {
    if (n === 0) return e.full(0, dtype, [0]);
    return e.convert(e.pow(e.full(base, work, [n]), linspaceBody(s, t, n, work)), dtype);
  });
}

/** An n×m identity matrix (m defaults to n). */
export function eye(n: number, ...rest: (number | CreationOptions | undefined)[]): Tensor {
  const o = rest.length > 0 && isOptions(rest[rest.length - 1]) ? rest[rest.length - 1] : undefined;
  const m = typeof rest[0] === "number" ? rest[0] : n;
  for (const v of [n, m]) {
    if (typeof v !== "number" || !Number.isInteger(v) || v < 0) throw new ShapeError(`eye: n and m must be non-negative integers, got ${fmtShape([n, m as number])}`);
  }
  const opts = checkOptions("eye", o);
  const dtype = opts.dtype ?? defaultFloatDType;
  return make("eye", `${dtype}|${n},${m}`, opts.device, () => {
    const mask = e.compare(e.iota("int32", [n, m], 0), e.iota("int32", [n, m], 1), "EQ");
    return dtype === "bool" ? mask : e.select(mask, e.full(castValue("eye", 1, dtype), dtype, [n, m]), e.full(castValue("eye", 0, dtype), dtype, [n, m]));
  });
}
