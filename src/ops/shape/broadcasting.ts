/**
 * @file Broadcasting: expand/expandAs/broadcastTo (size-1 dims stretched), broadcastTensors and
 * broadcastShapes (PyTorch's rules for several), and meshgrid (coordinate grids from 1-d tensors).
 */
import { ArgumentError, DTypeError, ShapeError } from "../../runtime/errors.js";
import { broadcastShapes as broadcastShapesOf, fmtShape } from "../dims.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import { runMany } from "../unit.js";
import { unary } from "./common.js";

type Shape = readonly number[];

function expandShape(op: string, from: Shape, sizes: Shape): number[] {
  if (sizes.length < from.length) {
    throw new ShapeError(`${op}: the number of sizes (${sizes.length}) must be at least the number of dims (${from.length}) of shape ${fmtShape(from)}`);
  }
  const offset = sizes.length - from.length;
  return sizes.map((s, i) => {
    const own = i < offset ? undefined : from[i - offset]!;
    if (s === -1) {
      if (own === undefined) throw new ShapeError(`${op}: -1 is not allowed for a new leading dimension (sizes ${fmtShape(sizes)})`);
      return own;
    }
    if (s < 0) throw new ShapeError(`${op}: invalid size ${s} in ${fmtShape(sizes)}`);
    if (own !== undefined && own !== 1 && own !== s) {
      throw new ShapeError(`${op}: the expanded size ${s} must match the existing size ${own} at dimension ${i} (shape ${fmtShape(from)} to ${fmtShape(sizes)}); only size-1 dims can be expanded`);
    }
    return s;
  });
}

export const expand = op(
  "expand(input: Tensor, ...size: int) -> Tensor",
  { doc: "Broadcasts size-1 dims (and new leading dims) to `size` (`x.expand(3, -1)` or a list); -1 keeps a dim. A copy here, not a view.", method: true },
  ({ input, size }) => unary("expand", input, size.join(","), (x) => e.broadcastTo(x, expandShape("expand", x.shape, size))),
);

export const broadcastTo = op(
  "broadcastTo(input: Tensor, size: int[]) -> Tensor",
  { doc: "expand to the shape `size` (-1 keeps a dim).", method: true },
  ({ input, size }) => unary("broadcastTo", input, size.join(","), (x) => e.broadcastTo(x, expandShape("broadcastTo", x.shape, size))),
);

export const expandAs = op(
  "expandAs(input: Tensor, other: Tensor) -> Tensor",
  { doc: "expand to `other`'s shape.", method: true },
  ({ input, other }) => {
    const shape = other.shape;
    return unary("expandAs", input, shape.join(","), (x) => {
      const target = broadcastShapesOf("expandAs", x.shape, shape);
      if (target.length !== shape.length || target.some((d, i) => d !== shape[i])) {
        throw new ShapeError(`expandAs: shape ${fmtShape(x.shape)} cannot be expanded to ${fmtShape(shape)}`);
      }
      return e.broadcastTo(x, shape);
    });
  },
);

export const broadcastTensors = op(
  "broadcastTensors(...tensors: Tensor) -> Tensor[]",
  { doc: "The tensors broadcast to their common shape (`broadcastTensors(a, b)` or a list)." },
  ({ tensors }) => {
    if (tensors.length === 0) throw new ArgumentError("broadcastTensors: expected a non-empty list of tensors");
    const shape = broadcastShapesOf("broadcastTensors", ...tensors.map((x) => x.shape));
    return runMany("broadcastTensors", tensors, "", (xs) => xs.map((x) => e.broadcastTo(x, shape)));
  },
);

export const broadcastShapes = op(
  "broadcastShapes(...shapes: int[]) -> int[]",
  { doc: "The shape the given shapes broadcast to (`broadcastShapes([2, 1], [3])`), without making tensors; each shape is a list (PyTorch also takes a bare int)." },
  ({ shapes }) => broadcastShapesOf("broadcastShapes", ...shapes),
);

export const meshgrid = op(
  'meshgrid(...tensors: Tensor, *, indexing: "ij" | "xy" = "ij") -> Tensor[]',
  { doc: 'Coordinate grids from 0-d or 1-d tensors of one dtype: "ij" indexing (the default) gives shape [n0, n1, …], "xy" swaps the first two.' },
  ({ tensors, indexing }) => {
    if (tensors.length === 0) throw new ArgumentError("meshgrid: expected a non-empty list of tensors");
    const dtype = tensors[0]!.dtype;
    if (tensors.some((x) => x.dtype !== dtype)) throw new DTypeError(`meshgrid: expects all tensors to have the same dtype, got ${tensors.map((x) => x.dtype).join(", ")}`);
    tensors.forEach((x, i) => {
      if (x.shape.length > 1) throw new ShapeError(`meshgrid: expects 0-d or 1-d tensors, got shape ${fmtShape(x.shape)} at entry ${i}`);
    });
    return runMany("meshgrid", tensors, indexing, (xs) => {
      const sizes = xs.map((x) => (x.ndim === 0 ? 1 : x.shape[0]!));
      const order = sizes.map((_, i) => i);
      if (indexing === "xy" && order.length >= 2) [order[0], order[1]] = [order[1]!, order[0]!];
      const shape = order.map((i) => sizes[i]!);
      return xs.map((x, i) => e.broadcastInDim(e.reshape(x, [sizes[i]!]), shape, [order.indexOf(i)]));
    });
  },
);
