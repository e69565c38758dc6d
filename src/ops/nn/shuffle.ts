/**
 * @file Rearrangements of channels: pixelShuffle ([*, C·r², H, W] → [*, C, H·r, W·r]), its inverse
 * pixelUnshuffle, and channelShuffle (channels regrouped group-major to group-minor). Any dtype.
 */
import { ArgumentError, ShapeError } from "../../runtime/errors.js";
import * as e from "../emit.js";
import { fmtShape } from "../dims.js";
import { op } from "../signature/op.js";
import { run } from "../unit.js";
import type { T } from "./emitters.js";

/** x reshaped to `split`, its dims permuted by `perm`, reshaped to `shape`. */
const regroup = (x: T, split: readonly number[], perm: readonly number[], shape: readonly number[]): T =>
  e.reshape(e.transpose(e.reshape(x, split), perm), shape);

function checkFactor(op: string, factor: number, what: string): void {
  if (!(factor > 0)) throw new ArgumentError(`${op}: expects a positive ${what}, but got ${factor}`);
}

function checkRank(op: string, shape: readonly number[]): void {
  if (shape.length < 3) throw new ShapeError(`${op}: expects input to have at least 3 dimensions [*, C, H, W], but got input of shape ${fmtShape(shape)}`);
}

export const pixelShuffle = op(
  "pixelShuffle(input: Tensor, upscaleFactor: int) -> Tensor",
  { doc: "[*, C·r², H, W] → [*, C, H·r, W·r] with r = upscaleFactor: each group of r² channels becomes an r × r block of pixels." },
  ({ input, upscaleFactor: r }) => {
    const op = "pixelShuffle";
    checkRank(op, input.shape);
    checkFactor(op, r, "upscaleFactor");
    const [c, h, w] = input.shape.slice(-3) as [number, number, number];
    if (c % (r * r) !== 0) throw new ShapeError(`${op}: expects the channel dimension to be divisible by upscaleFactor² (${r * r}), but input.size(-3)=${c} (input shape ${fmtShape(input.shape)})`);
    const batch = input.shape.slice(0, -3);
    const b = batch.length;
    return run(op, [input], String(r), ([x]) =>
      regroup(x as T, [...batch, c / (r * r), r, r, h, w], [...batch.keys(), b, b + 3, b + 1, b + 4, b + 2], [...batch, c / (r * r), h * r, w * r]),
    );
  },
);

export const pixelUnshuffle = op(
  "pixelUnshuffle(input: Tensor, downscaleFactor: int) -> Tensor",
  { doc: "[*, C, H·r, W·r] → [*, C·r², H, W] with r = downscaleFactor, the inverse of pixelShuffle." },
  ({ input, downscaleFactor: r }) => {
    const op = "pixelUnshuffle";
    checkRank(op, input.shape);
    checkFactor(op, r, "downscaleFactor");
    const [c, h, w] = input.shape.slice(-3) as [number, number, number];
    if (h % r !== 0) throw new ShapeError(`${op}: expects height to be divisible by downscaleFactor, but input.size(-2)=${h} is not divisible by ${r}`);
    if (w % r !== 0) throw new ShapeError(`${op}: expects width to be divisible by downscaleFactor, but input.size(-1)=${w} is not divisible by ${r}`);
    const batch = input.shape.slice(0, -3);
    const b = batch.length;
    return run(op, [input], String(r), ([x]) =>
      regroup(x as T, [...batch, c, h / r, r, w / r, r], [...batch.keys(), b, b + 2, b + 4, b + 1, b + 3], [...batch, c * r * r, h / r, w / r]),
    );
  },
);

export const channelShuffle = op(
  "channelShuffle(input: Tensor, groups: int) -> Tensor",
  { doc: "[N, C, *]: the channels, seen as [groups, C / groups], transposed to [C / groups, groups] (ShuffleNet's shuffle)." },
  ({ input, groups }) => {
    const op = "channelShuffle";
    if (input.ndim < 3) throw new ShapeError(`${op}: expects input with > 2 dims [N, C, *], but got input of shape ${fmtShape(input.shape)}`);
    if (!(groups > 0)) throw new ArgumentError(`${op}: the number of groups to divide channels in must be positive, got ${groups}`);
    const [n, c] = input.shape as [number, number];
    if (c % groups !== 0) throw new ShapeError(`${op}: the number of channels must be divisible by groups; got ${c} channels and ${groups} groups`);
    const rest = input.shape.slice(2);
    return run(op, [input], String(groups), ([x]) =>
      regroup(x as T, [n, groups, c / groups, ...rest], [0, 2, 1, ...rest.map((_, i) => i + 3)], input.shape),
    );
  },
);
