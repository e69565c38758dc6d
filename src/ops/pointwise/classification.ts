/**
 * @file Classifying elements: isnan, isinf, isposinf, isneginf, isfinite, isreal and signbit (bool
 * results; integer and bool inputs are never NaN or infinite), and nanToNum, which replaces NaN and
 * the infinities.
 */
import { isFloating } from "../../dtype.js";
import { finfo } from "../../dtype_info.js";
import type { Tensor } from "../../tensor.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import { run } from "../unit.js";
import { bitsOf, c, isNanT, kind, type T } from "./operands.js";

/** `float` of a float tensor; for other dtypes, `other` everywhere. */
function classify(name: string, a: Tensor, float: (x: T) => T, other: boolean): Tensor {
  return run(name, [a], "", ([x]) => {
    const t = x as T;
    return isFloating(t.dtype) ? float(t) : e.full(other, "bool", t.shape);
  });
}

const isInfT = (x: T): T => e.compare(e.abs(x), c(x, Infinity), "EQ");

export const isnan = op("isnan(input: Tensor) -> Tensor", { doc: "Whether each element is NaN (bool).", method: true }, ({ input }) =>
  classify("isnan", input, isNanT, false),
);

export const isinf = op("isinf(input: Tensor) -> Tensor", { doc: "Whether each element is +inf or −inf (bool).", method: true }, ({ input }) =>
  classify("isinf", input, isInfT, false),
);

export const isposinf = op("isposinf(input: Tensor) -> Tensor", { doc: "Whether each element is +inf (bool).", method: true }, ({ input }) =>
  classify("isposinf", input, (x) => e.compare(x, c(x, Infinity), "EQ"), false),
);

export const isneginf = op("isneginf(input: Tensor) -> Tensor", { doc: "Whether each element is −inf (bool).", method: true }, ({ input }) =>
  classify("isneginf", input, (x) => e.compare(x, c(x, -Infinity), "EQ"), false),
);

export const isreal = op(
  "isreal(input: Tensor) -> Tensor",
  { doc: "Whether each element is real-valued (bool): always true, as every dtype here is real.", method: true },
  ({ input }) => run("isreal", [input], "", ([x]) => e.full(true, "bool", (x as T).shape)),
);

export const isfinite = op("isfinite(input: Tensor) -> Tensor", { doc: "Whether each element is finite: not NaN and not ±inf (bool).", method: true }, ({ input }) =>
  classify("isfinite", input, e.isFinite, true),
);

export const signbit = op(
  "signbit(input: Tensor) -> Tensor",
  { doc: "Whether each element's sign bit is set (bool): true for negative numbers and −0.", method: true },
  ({ input }) =>
    run("signbit", [input], "", ([x]) => {
      const t = x as T;
      const k = kind(t.dtype);
      if (k === "float") {
        const bits = bitsOf(t);
        return e.compare(bits, c(bits, 0), "LT");
      }
      if (k === "int") return e.compare(t, c(t, 0), "LT");
      return e.full(false, "bool", t.shape);
    }),
);

export const nanToNum = op(
  "nanToNum(input: Tensor, nan: float = 0, posinf?: float, neginf?: float) -> Tensor",
  { doc: "NaN replaced by `nan`, +inf by `posinf` (default: the dtype's largest finite value) and −inf by `neginf` (default: its lowest); integer tensors are unchanged.", method: true },
  ({ input, nan, posinf, neginf }) => {
    const pos = posinf ?? null;
    const negInf = neginf ?? null;
    return run("nanToNum", [input], `${nan},${pos},${negInf}`, ([x]) => {
      const t = x as T;
      if (!isFloating(t.dtype)) return t;
      const big = finfo(t.dtype).max;
      const v = e.select(isNanT(t), c(t, nan), t);
      const p = e.select(e.compare(t, c(t, Infinity), "EQ"), c(t, pos ?? big), v);
      return e.select(e.compare(t, c(t, -Infinity), "EQ"), c(t, negInf ?? -big), p);
    });
  },
);
