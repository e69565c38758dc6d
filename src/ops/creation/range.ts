/**
 * @file torch.range, deprecated in PyTorch for arange: start, start + step, … up to end included,
 * in the default float dtype whatever the arguments are.
 */
import { type DType, defaultFloatDType, dtypeInfo } from "../../dtype.js";
import { ArgumentError, DTypeError } from "../../runtime/errors.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import { castValue, checkGrad, make, withGrad } from "./common.js";

export const range = op(
  "range(start: Scalar, end: Scalar, step: Scalar = 1, *, dtype?: dtype, device?: device, requiresGrad: bool = false) -> Tensor",
  { doc: "Deprecated in PyTorch for arange: start, start + step, … up to `end` included (floor((end − start) / step) + 1 values), float32 unless `dtype` even for integer arguments." },
  ({ start: a, end: b, step: s, dtype: want, device, requiresGrad }) => {
    const [start, end, step] = [Number(a), Number(b), Number(s)];
    const dtype: DType = want ?? defaultFloatDType;
    if (![start, end, step].every(Number.isFinite)) throw new ArgumentError(`range: start, end and step must be finite, got ${start}, ${end}, ${step}`);
    if (step === 0) throw new ArgumentError(`range: step must be nonzero, got 0 (start ${start}, end ${end})`);
    if ((step > 0 && end < start) || (step < 0 && end > start)) {
      throw new ArgumentError(`range: upper bound and lower bound inconsistent with step sign (start ${start}, end ${end}, step ${step})`);
    }
    const kind = dtypeInfo(dtype).kind;
    if (kind === "bool") throw new DTypeError("range: bool is not a supported dtype");
    checkGrad("range", dtype, requiresGrad);
    const n = Math.floor((end - start) / step) + 1;
    const allInt = Number.isInteger(start) && Number.isInteger(step);
    // integer dtypes with integer arguments count exactly; otherwise compute in float (float64 only when asked)
    const work: DType = kind === "float" ? (dtype === "float64" ? "float64" : "float32") : allInt ? dtype : "float32";
    const t = make("range", `${dtype}|${start},${end},${step}`, device, () => {
      const i = e.iota(work, [n], 0);
      return e.convert(e.add(e.mul(i, e.full(castValue("range", step, work), work, [n])), e.full(castValue("range", start, work), work, [n])), dtype);
    });
    return withGrad(t, requiresGrad);
  },
);
