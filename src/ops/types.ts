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

/** What linalg.choleskyEx returns: PyTorch's named tuple (L, info). */
export interface LInfo {
  L: Tensor;
  info: Tensor;
}

/** What linalg.luFactor returns: PyTorch's named tuple (LU, pivots). */
export interface LUPivots {
  LU: Tensor;
  pivots: Tensor;
}

/** What linalg.lu returns: PyTorch's named tuple (P, L, U). */
export interface PLU {
  P: Tensor;
  L: Tensor;
  U: Tensor;
}

/** What linalg.slogdet and slogdet return: PyTorch's named tuple (sign, logabsdet). */
export interface SignLogabsdet {
  sign: Tensor;
  logabsdet: Tensor;
}

/** What linalg.luFactorEx returns: PyTorch's named tuple (LU, pivots, info). */
export interface LUPivotsInfo {
  LU: Tensor;
  pivots: Tensor;
  info: Tensor;
}

/** What linalg.invEx returns: PyTorch's named tuple (inverse, info). */
export interface InverseInfo {
  inverse: Tensor;
  info: Tensor;
}

/** What linalg.solveEx returns: PyTorch's named tuple (result, info). */
export interface ResultInfo {
  result: Tensor;
  info: Tensor;
}

/** What triangularSolve returns: PyTorch's named tuple (solution, cloned_coefficient). */
export interface SolutionCoefficient {
  solution: Tensor;
  clonedCoefficient: Tensor;
}
