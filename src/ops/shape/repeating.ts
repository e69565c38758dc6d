/**
 * @file Tiling a tensor: Tensor.repeat and tile.
 */
import { ShapeError } from "../../runtime/errors.js";
import type { Tracer } from "../../trace/tracer.js";
import { fmtShape } from "../dims.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import { unary } from "./common.js";

function checkSizes(op: string, sizes: readonly number[]): void {
  if (sizes.some((d) => d < 0)) throw new ShapeError(`${op}: sizes must be non-negative, got ${fmtShape(sizes)}`);
}

function repeatBody(op: string, x: Tracer, reps: readonly number[]): Tracer {
  if (reps.length < x.ndim) {
    throw new ShapeError(`${op}: the number of repeats (${reps.length}) can not be smaller than the number of dims (${x.ndim}) of shape ${fmtShape(x.shape)}`);
  }
  const shape = [...new Array<number>(reps.length - x.ndim).fill(1), ...x.shape];
  const wide: number[] = [];
  shape.forEach((s, i) => wide.push(reps[i]!, s));
  const b = e.broadcastInDim(e.reshape(x, shape), wide, shape.map((_, i) => 2 * i + 1));
  return e.reshape(b, shape.map((s, i) => s * reps[i]!));
}

export const repeat = op(
  "repeat(input: Tensor, ...repeats: int) -> Tensor",
  { doc: "The tensor tiled `repeats[i]` times along each dim (`x.repeat(2, 3)` or a list); at least one repeat per dim, extra ones add leading dims.", method: true },
  ({ input, repeats }) => {
    checkSizes("repeat", repeats);
    return unary("repeat", input, repeats.join(","), (x) => repeatBody("repeat", x, repeats));
  },
);

export const tile = op(
  "tile(input: Tensor, ...dims: int) -> Tensor",
  { doc: "Like repeat, but fewer `dims` than the tensor has are padded with leading 1s (`x.tile(2, 2)` or a list).", method: true },
  ({ input, dims }) => {
    checkSizes("tile", dims);
    return unary("tile", input, dims.join(","), (x) => {
      const full = [...new Array<number>(Math.max(0, x.ndim - dims.length)).fill(1), ...dims];
      return repeatBody("tile", x, full);
    });
  },
);
