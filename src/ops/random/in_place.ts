/**
 * @file The in-place random fills, Tensor methods only: x.uniform_() and x.normal_().
 */
import { uniform } from "../../random/distributions.js";
import { ArgumentError } from "../../runtime/errors.js";
import { assignInPlace } from "../pointwise/in_place.js";
import { op } from "../signature/op.js";
import { draw, floatDType } from "./draw.js";
import { normalFloats } from "./sampling.js";

export const uniform_ = op(
  "uniform_(input: Tensor, from: float = 0, to: float = 1, *, generator?: Generator) -> Tensor",
  { doc: "Fills the tensor in place with uniform values in [from, to) (a floating tensor); returns it.", method: true },
  ({ input, from, to, generator }) => {
    if (!(from <= to)) throw new ArgumentError(`uniform_: expects 'from' <= 'to', but got from=${from} > to=${to}`);
    const dtype = floatDType("uniform_", input.dtype);
    const shape = input.shape;
    const result = draw("uniform_", `${dtype}|${shape}|${from}|${to}`, input.device, generator, [], (k) => uniform(k, shape, dtype, from, to));
    return assignInPlace("uniform_", input, result);
  },
);

export const normal_ = op(
  "normal_(input: Tensor, mean: float = 0, std: float = 1, *, generator?: Generator) -> Tensor",
  { doc: "Fills the tensor in place with normal values of the given mean and std (a floating tensor); returns it.", method: true },
  ({ input, mean, std, generator }) => {
    if (!(std >= 0)) throw new ArgumentError(`normal_: expects std >= 0.0, but found std ${std}`);
    const dtype = floatDType("normal_", input.dtype);
    return assignInPlace("normal_", input, normalFloats(mean, std, input.shape, dtype, input.device, generator));
  },
);
