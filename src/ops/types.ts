/**
 * @file Value types that ops take and return, shared by every family.
 */
import type { Tensor } from "../tensor.js";

/** A JS number, bigint or boolean where PyTorch takes a Python scalar (integral numbers count as ints). */
export type ScalarArg = number | boolean | bigint;
export type TensorOrScalar = Tensor | ScalarArg;

/** What max/min/sort/topk/… along a dim return: PyTorch's named tuple (values, indices). */
export interface ValuesIndices {
  values: Tensor;
  indices: Tensor;
}

/** What frexp returns: PyTorch's named tuple (mantissa, exponent). */
export interface MantissaExponent {
  mantissa: Tensor;
  exponent: Tensor;
}

/** What aminmax returns: PyTorch's named tuple (min, max). */
export interface MinMax {
  min: Tensor;
  max: Tensor;
}

/** What histogram returns: PyTorch's named tuple (hist, bin_edges). */
export interface Histogram {
  hist: Tensor;
  binEdges: Tensor;
}
