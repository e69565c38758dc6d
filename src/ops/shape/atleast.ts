/**
 * @file atleast1d, atleast2d, atleast3d: tensors given at least 1, 2 or 3 dims by adding size-1 dims
 * (numpy's placement: a vector becomes a row, [1, n], or [1, n, 1]; a matrix [m, n, 1]).
 */
import type { Tensor } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import { runMany } from "../unit.js";
import { unary } from "./common.js";

/** The shape `shape` takes with at least `n` (1, 2 or 3) dims. */
export function atLeastShape(shape: readonly number[], n: 1 | 2 | 3): readonly number[] {
  if (shape.length >= n) return shape;
  if (shape.length === 0) return new Array<number>(n).fill(1);
  if (shape.length === 1) return n === 2 ? [1, shape[0]!] : [1, shape[0]!, 1];
  return [...shape, 1];
}

/** `x` reshaped to at least `n` dims. */
export const atLeast = (x: Tracer, n: 1 | 2 | 3): Tracer => (x.ndim >= n ? x : e.reshape(x, atLeastShape(x.shape, n)));

function one(name: string, input: Tensor, n: 1 | 2 | 3): Tensor {
  return unary(name, input, "", (x) => atLeast(x, n));
}

function many(name: string, tensors: readonly Tensor[], n: 1 | 2 | 3): Tensor[] {
  // keyed apart from `one`'s unit: a list of one tensor is another program's result
  return tensors.length === 0 ? [] : runMany(name, tensors, "list", (xs) => xs.map((x) => atLeast(x, n)));
}

export const atleast1d = op(
  ["atleast1d(input: Tensor) -> Tensor", "atleast1d(...tensors: Tensor) -> Tensor[]"],
  { doc: "PyTorch's atleast_1d: a 0-d tensor as a 1-element vector, others as they are. One tensor gives one tensor; several (or a list) give a list." },
  [({ input }) => one("atleast1d", input, 1), ({ tensors }) => many("atleast1d", tensors, 1)],
);

export const atleast2d = op(
  ["atleast2d(input: Tensor) -> Tensor", "atleast2d(...tensors: Tensor) -> Tensor[]"],
  { doc: "PyTorch's atleast_2d: a 0-d tensor as [1, 1], a vector as a row [1, n], others as they are. One tensor gives one tensor; several (or a list) give a list." },
  [({ input }) => one("atleast2d", input, 2), ({ tensors }) => many("atleast2d", tensors, 2)],
);

export const atleast3d = op(
  ["atleast3d(input: Tensor) -> Tensor", "atleast3d(...tensors: Tensor) -> Tensor[]"],
  { doc: "PyTorch's atleast_3d: a 0-d tensor as [1, 1, 1], a vector [n] as [1, n, 1], a matrix [m, n] as [m, n, 1], others as they are. One tensor gives one tensor; several (or a list) give a list." },
  [({ input }) => one("atleast3d", input, 3), ({ tensors }) => many("atleast3d", tensors, 3)],
);
