/**
 * @file Tensor methods for the reductions of reduction_more.ts and the products of linalg_more.ts
 * (declaration merging, as in methods.ts). Imported once by src/index.ts.
 */
import type { DType } from "../dtype.js";
import { attachMethods, type MethodTable } from "./attach.js";
import * as linalg from "./api/linalg_more.js";
import type { AddmmOptions } from "./api/linalg_more.js";
import * as red from "./api/reduction_more.js";
import type { NormOptions, VarOptions } from "./api/reduction_more.js";
type ReduceOptions = { dim?: number | readonly number[]; keepdim?: boolean };

declare module "../tensor.js" {
  interface Tensor<D extends DType = DType> {
    all(options?: ReduceOptions): Tensor;
    any(options?: ReduceOptions): Tensor;
    var(options?: VarOptions): Tensor;
    std(options?: VarOptions): Tensor;
    logsumexp(dim: number | readonly number[], options?: { keepdim?: boolean }): Tensor;
    norm(options?: NormOptions): Tensor;
    countNonzero(options?: { dim?: number | readonly number[] }): Tensor;
    mm(mat2: Tensor): Tensor;
    bmm(mat2: Tensor): Tensor;
    mv(vec: Tensor): Tensor;
    dot(other: Tensor): Tensor;
    outer(vec2: Tensor): Tensor;
    addmm(mat1: Tensor, mat2: Tensor, options?: AddmmOptions): Tensor;
    baddbmm(batch1: Tensor, batch2: Tensor, options?: AddmmOptions): Tensor;
    cross(other: Tensor, options?: { dim?: number }): Tensor;
  }
}

const methods: MethodTable = {
  all: red.all, any: red.any, var: red.variance, std: red.std, logsumexp: red.logsumexp, norm: red.norm,
  countNonzero: red.countNonzero, mm: linalg.mm, bmm: linalg.bmm, mv: linalg.mv, dot: linalg.dot, outer: linalg.outer,
  addmm: linalg.addmm, baddbmm: linalg.baddbmm, cross: linalg.cross,
};

attachMethods(methods);
