/**
 * @file Tensor methods for the cumulative ops (declaration merging, as in methods.ts). Imported once
 * by src/index.ts.
 */
import type { DType } from "../dtype.js";
import * as cum from "./api/cumulative.js";
import type { ValuesIndices } from "./types.js";
import { attachMethods, type MethodTable } from "./attach.js";

declare module "../tensor.js" {
  interface Tensor<D extends DType = DType> {
    cumsum(dim: number, options?: cum.CumulativeOptions): Tensor;
    cumprod(dim: number, options?: cum.CumulativeOptions): Tensor;
    cummax(dim: number): ValuesIndices;
    cummin(dim: number): ValuesIndices;
    logcumsumexp(dim: number): Tensor;
  }
}

const methods: MethodTable = {
  cumsum: cum.cumsum, cumprod: cum.cumprod, cummax: cum.cummax, cummin: cum.cummin, logcumsumexp: cum.logcumsumexp,
};
attachMethods(methods);
