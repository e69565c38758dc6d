/**
 * @file eye: the identity matrix (or an n × m one), one unit on the device.
 */
import { defaultFloatDType } from "../../dtype.js";
import { ShapeError } from "../../runtime/errors.js";
import { fmtShape } from "../dims.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import { castValue, checkGrad, make, withGrad } from "./common.js";

export const eye = op(
  "eye(n: int, m?: int, *, dtype?: dtype, device?: device, requiresGrad: bool = false) -> Tensor",
  { doc: "An `n` × `m` matrix (square unless `m`) with ones on the diagonal and zeros elsewhere; float32 unless `dtype`." },
  ({ n, m: given, dtype: want, device, requiresGrad }) => {
    const m = given ?? n;
    if (n < 0 || m < 0) throw new ShapeError(`eye: n and m must be non-negative integers, got ${fmtShape([n, m])}`);
    const dtype = want ?? defaultFloatDType;
    checkGrad("eye", dtype, requiresGrad);
    const t = make("eye", `${dtype}|${n},${m}`, device, () => {
      const mask = e.compare(e.iota("int32", [n, m], 0), e.iota("int32", [n, m], 1), "EQ");
      return dtype === "bool" ? mask : e.select(mask, e.full(castValue("eye", 1, dtype), dtype, [n, m]), e.full(castValue("eye", 0, dtype), dtype, [n, m]));
    });
    return withGrad(t, requiresGrad);
  },
);
