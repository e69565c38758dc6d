/**
 * @file torch.linalg.vander: the Vandermonde matrix with increasing powers x^0, x^1, …, x^(N−1)
 * (torch.vander's columns run the other way).
 */
import { isFloating } from "../../dtype.js";
import { ArgumentError, DTypeError } from "../../runtime/errors.js";
import type { Tracer } from "../../trace/tracer.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import { run } from "../unit.js";

export const vander = op(
  "linalg.vander(x: Tensor, *, N?: int) -> Tensor",
  {
    doc: "The Vandermonde matrices of the vectors in the last dim of x (a 0-d x is one element): shape [..., n, N] with columns x^0, x^1, …, x^(N−1); N defaults to n and must be at least 2. float32/float64 or integer inputs (integers give int64).",
  },
  ({ x, N }) => {
    if (x.dtype === "bool" || x.dtype === "float16" || x.dtype === "bfloat16") {
      throw new DTypeError(`linalg.vander: supports float32, float64 and integer inputs, got ${x.dtype} (convert first, e.g. x.to("float32"))`);
    }
    const cols = N ?? (x.ndim === 0 ? 1 : x.shape[x.ndim - 1]!);
    if (cols < 2) throw new ArgumentError(`linalg.vander: N must be at least 2, got ${cols}`);
    return run("linalg.vander", [x], String(cols), ([x0]) => {
      const t = x0 as Tracer;
      const v = e.convert(t.ndim === 0 ? e.reshape(t, [1]) : t, isFloating(t.dtype) ? t.dtype : "int64");
      const column = [...v.shape, 1];
      // each power the previous one times x, so that the gradient at x = 0 is exact
      const powers = [e.full(1, v.dtype, column), e.reshape(v, column)];
      while (powers.length < cols) powers.push(e.mul(powers[powers.length - 1]!, powers[1]!));
      return e.concatenate(powers, v.ndim);
    });
  },
);
