/**
 * @file diff: the n-th forward difference along a dim, after joining `prepend` and `append` to it.
 */
import { ArgumentError, ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import { normDim } from "../dims.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import { promote, run } from "../unit.js";
import { sliceDim } from "./common.js";

export const diff = op(
  "diff(input: Tensor, n: int = 1, dim: int = -1, prepend?: Tensor, append?: Tensor) -> Tensor",
  {
    doc: "The n-th forward difference along `dim` (x[i+1] − x[i], n times; `!=` for bool), after joining `prepend` before and `append` after the input along `dim`; each step is one shorter.",
    method: true,
  },
  ({ input, n, dim, prepend, append }) => {
    if (!Number.isInteger(n) || n < 0) throw new ArgumentError(`diff: n must be a non-negative integer, got ${n}`);
    if (input.ndim === 0) throw new ShapeError("diff: expects the input to be at least one-dimensional");
    const parts = [prepend, input, append].filter((t): t is Tensor => t !== undefined);
    return run("diff", parts, `${n}|${dim}|${prepend ? 1 : 0}${append ? 1 : 0}`, (xs) => {
      const joined = xs as Tracer[];
      const d = normDim("diff", dim, input.ndim);
      for (const t of joined) {
        if (t.ndim !== input.ndim || t.shape.some((s, i) => i !== d && s !== input.shape[i])) {
          throw new ShapeError(`diff: prepend and append must have the input's shape [${input.shape.join(", ")}] except along dim ${d}, got [${t.shape.join(", ")}]`);
        }
      }
      const dtype = promote(...joined);
      let v = joined.length === 1 ? joined[0]! : e.concatenate(joined.map((t) => e.convert(t, dtype)), d);
      for (let i = 0; i < n && v.shape[d]! > 0; i++) {
        const len = v.shape[d]!;
        const [later, earlier] = [sliceDim(v, d, 1, len), sliceDim(v, d, 0, len - 1)];
        v = dtype === "bool" ? e.compare(later, earlier, "NE") : e.sub(later, earlier);
      }
      return v;
    });
  },
);
