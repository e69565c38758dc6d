/**
 * @file Reordering elements along dims: flip (reversed), roll (rotated) and rot90 (a quarter turn of a plane).
 */
import { ShapeError } from "../../runtime/errors.js";
import { bind1, type Tracer } from "../../trace/tracer.js";
import { fmtShape, normDim, normDims } from "../dims.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import { sliceDim, unary } from "./common.js";

export const flip = op(
  "flip(input: Tensor, ...dims: int) -> Tensor",
  { doc: "The elements in reverse order along `dims` (`x.flip(0, 1)` or a list; torch.flip here also takes one int).", method: true },
  ({ input, dims }) =>
    unary("flip", input, dims.join(","), (x) => {
      const ds = normDims("flip", dims, x.ndim);
      if (x.ndim === 0 || ds.length === 0) return x;
      return bind1("reverse", [x], { dims: ds });
    }),
);

function rollDim(x: Tracer, d: number, shift: number): Tracer {
  const n = x.shape[d]!;
  if (n === 0) return x;
  const k = ((shift % n) + n) % n;
  if (k === 0) return x;
  return e.concatenate([sliceDim(x, d, n - k, n), sliceDim(x, d, 0, n - k)], d);
}

export const roll = op(
  "roll(input: Tensor, shifts: int | int[], dims?: int | int[]) -> Tensor",
  { doc: "Rotates the elements by `shifts` along `dims` (one shift per dim); without dims, of the flattened tensor, keeping its shape.", method: true },
  ({ input, shifts, dims }) => {
    const sh = typeof shifts === "number" ? [shifts] : shifts;
    const ds = dims === undefined ? undefined : typeof dims === "number" ? [dims] : dims;
    return unary("roll", input, `${sh.join(",")}|${ds?.join(",") ?? "flat"}`, (x) => {
      if (ds === undefined) {
        if (sh.length !== 1) throw new ShapeError(`roll: shifts ${fmtShape(sh)} need dims when there is more than one`);
        return e.reshape(rollDim(e.reshape(x, [x.shape.reduce((p, d) => p * d, 1)]), 0, sh[0]!), x.shape);
      }
      if (ds.length !== sh.length) throw new ShapeError(`roll: shifts and dims must align, got ${sh.length} shifts and ${ds.length} dims`);
      let y = x;
      ds.forEach((dd, i) => {
        y = rollDim(y, normDim("roll", dd, x.ndim), sh[i]!);
      });
      return y;
    });
  },
);

export const fliplr = op(
  "fliplr(input: Tensor) -> Tensor",
  { doc: "Each row in reverse order (flip along dim 1); at least 2-d.", method: true },
  ({ input }) => {
    if (input.ndim < 2) throw new ShapeError(`fliplr: the input must be at least 2-d, got shape ${fmtShape(input.shape)}`);
    return flip(input, 1);
  },
);

export const flipud = op(
  "flipud(input: Tensor) -> Tensor",
  { doc: "The rows in reverse order (flip along dim 0); at least 1-d.", method: true },
  ({ input }) => {
    if (input.ndim < 1) throw new ShapeError(`flipud: the input must be at least 1-d, got shape ${fmtShape(input.shape)}`);
    return flip(input, 0);
  },
);

export const rot90 = op(
  "rot90(input: Tensor, k: int = 1, dims?: int[]) -> Tensor",
  { doc: "Rotates the plane of `dims` ([0, 1] by default) by 90° `k` times, from the first dim towards the second (k may be negative).", method: true },
  ({ input, k, dims = [0, 1] }) =>
    unary("rot90", input, `${k}|${dims.join(",")}`, (x) => {
      if (dims.length !== 2) throw new ShapeError(`rot90: expected exactly 2 rotation dims, got dims = ${fmtShape(dims)}`);
      if (x.ndim < 2) throw new ShapeError(`rot90: expected a tensor with at least 2 dims, got shape ${fmtShape(x.shape)}`);
      const [d0, d1] = [normDim("rot90", dims[0]!, x.ndim), normDim("rot90", dims[1]!, x.ndim)];
      if (d0 === d1) throw new ShapeError(`rot90: expected the rotation dims to be different, got ${fmtShape(dims)}`);
      const swap = x.shape.map((_, i) => (i === d0 ? d1 : i === d1 ? d0 : i));
      switch (((k % 4) + 4) % 4) {
        case 1:
          return e.transpose(bind1("reverse", [x], { dims: [d1] }), swap);
        case 2:
          return bind1("reverse", [x], { dims: [d0, d1].sort((a, b) => a - b) });
        case 3:
          return e.transpose(bind1("reverse", [x], { dims: [d0] }), swap);
        default:
          return x;
      }
    }),
);
