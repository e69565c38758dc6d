/**
 * @file Rounding, elementwise: floor, ceil, trunc (and its alias fix), frac and round (half to even,
 * optionally to a number of decimals). Results keep the input's dtype; integer inputs are returned
 * as they are.
 */
import { DTypeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import { run } from "../unit.js";
import { c, computeDType, kind, type T } from "./operands.js";

/** fn in the input's float dtype (float16/bfloat16 in float32); integers pass through (or are an error), bool is an error. */
function sameUnary(name: string, a: Tensor, fn: (x: T) => T, ints: "identity" | "error" = "identity"): Tensor {
  return run(name, [a], "", ([x]) => {
    const t = x as T;
    const k = kind(t.dtype);
    if (k === "bool") throw new DTypeError(`${name}: not implemented for bool tensors`);
    if (k !== "float") {
      if (ints === "error") throw new DTypeError(`${name}: not implemented for integer tensors (${t.dtype}); use a float tensor`);
      return t;
    }
    return e.convert(fn(e.convert(t, computeDType(t.dtype))), t.dtype);
  });
}

const truncT = (x: T): T => e.select(e.compare(x, c(x, 0), "LT"), e.ceil(x), e.floor(x));
const fracT = (x: T): T => e.sub(x, truncT(x));

export const floor = op("floor(input: Tensor) -> Tensor", { doc: "The largest integer ≤ input, in the input's dtype (integers unchanged).", method: true }, ({ input }) =>
  sameUnary("floor", input, e.floor),
);

export const ceil = op("ceil(input: Tensor) -> Tensor", { doc: "The smallest integer ≥ input, in the input's dtype (integers unchanged).", method: true }, ({ input }) =>
  sameUnary("ceil", input, e.ceil),
);

export const trunc = op("trunc(input: Tensor) -> Tensor", { doc: "input rounded toward zero, in the input's dtype (integers unchanged).", method: true }, ({ input }) =>
  sameUnary("trunc", input, truncT),
);

export const fix = op("fix(input: Tensor) -> Tensor", { doc: "Alias of trunc: input rounded toward zero, in the input's dtype (integers unchanged).", method: true }, ({ input }) =>
  sameUnary("fix", input, truncT),
);

export const frac = op("frac(input: Tensor) -> Tensor", { doc: "input − trunc(input), with the sign of input (float tensors only).", method: true }, ({ input }) =>
  sameUnary("frac", input, fracT, "error"),
);

export const round = op(
  "round(input: Tensor, *, decimals: int = 0) -> Tensor",
  { doc: "Rounds half to even; with decimals, to that many decimal places (negative: tens, hundreds, …). Integer inputs are unchanged (decimals is then an error).", method: true },
  ({ input, decimals }) =>
    run("round", [input], String(decimals), ([x]) => {
      const t = x as T;
      const k = kind(t.dtype);
      if (k === "bool") throw new DTypeError("round: not implemented for bool tensors");
      if (k !== "float") {
        if (decimals !== 0) throw new DTypeError(`round: decimals is not supported for integer tensors (${t.dtype})`);
        return t;
      }
      const v = e.convert(t, computeDType(t.dtype));
      let r: T;
      if (decimals === 0) r = e.roundEven(v);
      else if (decimals > 0) {
        const s = c(v, 10 ** decimals);
        r = e.div(e.roundEven(e.mul(v, s)), s);
      } else {
        const s = c(v, 10 ** -decimals);
        r = e.mul(e.roundEven(e.div(v, s)), s);
      }
      return e.convert(r, t.dtype);
    }),
);
