/**
 * @file Tensor methods for the indexing ops (declaration merging, as in methods.ts). Imported once by
 * src/index.ts.
 */
import type { DType } from "../dtype.js";
import type { Tensor } from "../tensor.js";
import { attachMethods, type MethodTable } from "./attach.js";
import type { ScalarArg } from "./types.js";
import * as ix from "./api/indexing.js";
import * as call from "./api/indexing_call.js";
import * as host from "./api/indexing_host.js";
import type { ValuesIndices } from "./types.js";

declare module "../tensor.js" {
  interface Tensor<D extends DType = DType> {
    indexSelect(dim: number, index: Tensor): Tensor;
    gather(dim: number, index: Tensor): Tensor;
    scatter(dim: number, index: Tensor, src: Tensor | ScalarArg, options?: ix.ScatterOptions): Tensor;
    scatterAdd(dim: number, index: Tensor, src: Tensor): Tensor;
    scatterReduce(dim: number, index: Tensor, src: Tensor, reduce: ix.ScatterReduction, options?: { includeSelf?: boolean }): Tensor;
    takeAlongDim(indices: Tensor, options?: { dim?: number | null }): Tensor;
    sort(options?: ix.SortOptions): ValuesIndices;
    argsort(options?: ix.SortOptions): Tensor;
    topk(k: number, options?: ix.TopkOptions): ValuesIndices;
    nonzero(options?: { asTuple?: boolean }): Tensor | Tensor[];
    maskedSelect(mask: Tensor): Tensor;
    unique(options?: host.UniqueOptions): Tensor | Tensor[];
    /** PyTorch's t[...items] (a copy). */
    index(...items: call.IndexItem[]): Tensor;
    /** PyTorch's t[items] = value, in place; returns this. */
    setIndex(items: call.IndexItem | readonly call.IndexItem[], value: Tensor | ScalarArg): Tensor;
    indexPut(indices: readonly (Tensor | null)[], values: Tensor | ScalarArg, options?: { accumulate?: boolean }): Tensor;
    indexPut_(indices: readonly (Tensor | null)[], values: Tensor | ScalarArg, options?: { accumulate?: boolean }): Tensor;
  }
}

const methods: MethodTable = {
  indexSelect: ix.indexSelect, gather: ix.gather, scatter: ix.scatter, scatterAdd: ix.scatterAdd,
  scatterReduce: ix.scatterReduce, takeAlongDim: ix.takeAlongDim, sort: ix.sort,
  argsort: ix.argsort, topk: ix.topk, nonzero: host.nonzero, maskedSelect: host.maskedSelect, unique: host.unique,
  index: call.index, setIndex: call.setIndex, indexPut: call.indexPut, indexPut_: call.indexPut_,
};

attachMethods(methods);
