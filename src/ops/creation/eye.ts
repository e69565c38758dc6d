/**
 * @file eye: the identity matrix (or an n × m one), one unit on the device.
 */
import { type DType, defaultFloatDType } from "../../dtype.js";
import { ShapeError } from "../../runtime/errors.js";
import type { Tracer } from "../../trace/tracer.js";
import { checkTensorSize, fmtShape } from "../dims.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import { castValue, checkGrad, make, withGrad } from "./common.js";

/** The unit body of eye: ones where the row and column positions match (compared in int64 past 2^31). */
export function eyeBody(n: number, m: number, dtype: DType): Tracer {
  const index = Math.max(n, m) > 2 ** 31 ? "int64" : "int32";
  const mask = e.compare(e.iota(index, [n, m], 0), e.iota(index, [n, m], 1), "EQ");
  return dtype === "bool" ? mask : e.select(mask, e.full(castValue("eye", 1, dtype), dtype, [n, m]), e.full(castValue("eye", 0, dtype), dtype, [n, m]));
}

export const eye = op(
  "eye(n: int, m?: int, *, dtype?: dtype, device?: device, requiresGrad: bool = false) -> Tensor",
  { doc: "An `n` × `m` matrix (square unless `m`) with ones on the diagonal and zeros elsewhere; float32 unless `dtype`." },
  ({ n, m: given, dtype: want, device, requiresGrad }) => {
    const m = given ?? n;
    if (n < 0 || m < 0) throw new ShapeError(`eye: n and m must be non-negative integers, got ${fmtShape([n, m])}`);
    const dtype = want ?? defaultFloatDType;
    checkTensorSize("eye", [n, m], dtype);
    checkGrad("eye", dtype, requiresGrad);
    const t = make("eye", `${dtype}|${n},${m}`, device, () => eyeBody(n, m, dtype));
    return withGrad(t, requiresGrad);
  },
);
