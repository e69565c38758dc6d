/**
 * @file Evenly spaced values: arange, linspace, logspace, each one unit on the device (an iota
 * scaled and shifted).
 */
import { type DType, defaultFloatDType, defaultIntDType, dtypeInfo } from "../../dtype.js";
import type { DeviceLike } from "../../device.js";
import { ArgumentError, DTypeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import { castValue, checkGrad, make, withGrad } from "./common.js";

interface Factory {
  dtype: DType | undefined;
  device: DeviceLike | undefined;
  requiresGrad: boolean;
}

function arangeOf(start: number, end: number, step: number, a: Factory): Tensor {
  const allInt = Number.isInteger(start) && Number.isInteger(end) && Number.isInteger(step);
  const dtype = a.dtype ?? (allInt ? defaultIntDType : defaultFloatDType);
  if (!Number.isFinite(start) || !Number.isFinite(end) || !Number.isFinite(step)) throw new ArgumentError(`arange: start, end and step must be finite, got ${start}, ${end}, ${step}`);
  if (step === 0) throw new ArgumentError(`arange: step must be nonzero, got 0 (start ${start}, end ${end})`);
  if ((step > 0 && end < start) || (step < 0 && end > start)) {
    throw new ArgumentError(`arange: upper bound and lower bound inconsistent with step sign (start ${start}, end ${end}, step ${step}); a step of ${-step} counts from start to end`);
  }
  const n = Math.max(0, Math.ceil((end - start) / step));
  if (dtypeInfo(dtype).kind === "bool") throw new DTypeError("arange: bool is not a supported dtype");
  checkGrad("arange", dtype, a.requiresGrad);
  const t = make("arange", `${dtype}|${start},${end},${step}`, a.device, () => {
    const kind = dtypeInfo(dtype).kind;
    // integer dtypes with integer arguments count exactly; otherwise compute in float (float64 only when asked)
    const work: DType = kind === "float" ? (dtype === "float64" ? "float64" : "float32") : allInt ? dtype : "float32";
    const i = e.iota(work, [n], 0);
    const v = e.add(e.mul(i, e.full(castValue("arange", step, work), work, [n])), e.full(castValue("arange", start, work), work, [n]));
    return e.convert(v, dtype);
  });
  return withGrad(t, a.requiresGrad);
}

export const arange = op(
  [
    "arange(end: float, *, dtype?: dtype, device?: device, requiresGrad: bool = false) -> Tensor",
    "arange(start: float, end: float, step: float = 1, *, dtype?: dtype, device?: device, requiresGrad: bool = false) -> Tensor",
  ],
  { doc: "The values start, start + step, … up to `end` (excluded), from 0 by 1 unless given: int64 when all of them are integers, float32 otherwise, unless `dtype`." },
  [(a) => arangeOf(0, a.end, 1, a), (a) => arangeOf(a.start, a.end, a.step, a)],
);

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

function checkSteps(op: string, steps: number): void {
  if (steps < 0) throw new ArgumentError(`${op}: steps must be a non-negative integer, got ${steps}`);
}

export const linspace = op(
  "linspace(start: float, end: float, steps: int, *, dtype?: dtype, device?: device, requiresGrad: bool = false) -> Tensor",
  { doc: "`steps` evenly spaced values from `start` to `end`, both included; float32 unless `dtype`." },
  ({ start, end, steps, dtype: want, device, requiresGrad }) => {
    checkSteps("linspace", steps);
    const dtype = want ?? defaultFloatDType;
    checkGrad("linspace", dtype, requiresGrad);
    const work: DType = dtype === "float64" ? "float64" : "float32";
    const t = make("linspace", `${dtype}|${start},${end},${steps}`, device, () => (steps === 0 ? e.full(0, dtype, [0]) : e.convert(linspaceBody(start, end, steps, work), dtype)));
    return withGrad(t, requiresGrad);
  },
);

export const logspace = op(
  "logspace(start: float, end: float, steps: int, base: float = 10, *, dtype?: dtype, device?: device, requiresGrad: bool = false) -> Tensor",
  { doc: "`base` to the power of `steps` evenly spaced exponents from `start` to `end`, both included; float32 unless `dtype`." },
  ({ start, end, steps, base, dtype: want, device, requiresGrad }) => {
    checkSteps("logspace", steps);
    const dtype = want ?? defaultFloatDType;
    checkGrad("logspace", dtype, requiresGrad);
    const work: DType = dtype === "float64" ? "float64" : "float32";
    const t = make("logspace", `${dtype}|${start},${end},${steps},${base}`, device, () => {
      if (steps === 0) return e.full(0, dtype, [0]);
      return e.convert(e.pow(e.full(base, work, [steps]), linspaceBody(start, end, steps, work)), dtype);
    });
    return withGrad(t, requiresGrad);
  },
);
