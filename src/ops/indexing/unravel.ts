/**
 * @file torch.unravelIndex: flat indices into coordinates of a shape (row-major), one int64 tensor
 * per dim, in one unit. Like PyTorch, indices outside the shape wrap (each coordinate is taken
 * modulo its size, as Python's floor modulo: −1 is the last element).
 */
import { dtypes } from "../../dtype.js";
import { ArgumentError, DTypeError } from "../../runtime/errors.js";
import type { Tracer } from "../../trace/tracer.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import { runMany } from "../unit.js";

export const unravelIndex = op(
  "unravelIndex(indices: Tensor, shape: int | int[]) -> Tensor[]",
  { doc: "The coordinates in a tensor of `shape` of each flat (row-major) index: one int64 tensor per dim of shape, each of indices' shape. Indices outside the shape wrap, as in PyTorch." },
  ({ indices, shape }) => {
    const op = "unravelIndex";
    const kind = dtypes[indices.dtype].kind;
    if (kind !== "int" && kind !== "uint") throw new DTypeError(`${op}: expected 'indices' to be an integer tensor, got ${indices.dtype}`);
    const sizes = typeof shape === "number" ? [shape] : [...shape];
    if (sizes.some((s) => s < 0)) throw new ArgumentError(`${op}: 'shape' cannot have negative values, got [${sizes.join(", ")}]`);
    if (sizes.some((s) => s === 0)) throw new ArgumentError(`${op}: 'shape' cannot have a size 0 (no index lies in an empty tensor), got [${sizes.join(", ")}]`);
    if (sizes.length === 0) return [];
    return runMany(op, [indices], sizes.join(","), ([x]) => {
      let rest = e.convert(x!, "int64");
      const c = (v: number): Tracer => e.full(v, "int64", rest.shape);
      const coords: Tracer[] = [];
      for (let d = sizes.length - 1; d >= 0; d--) {
        const size = c(sizes[d]!);
        const mod = e.rem(e.add(e.rem(rest, size), size), size);
        coords.unshift(mod);
        rest = e.div(e.sub(rest, mod), size);
      }
      return coords;
    });
  },
);
