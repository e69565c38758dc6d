/**
 * @file Tensor methods for the shape ops of shape_more.ts and the mT property (declaration merging,
 * as in methods.ts). Imported once by src/index.ts.
 */
import type { DType } from "../dtype.js";
import { Tensor } from "../tensor.js";
import { attachMethods, type MethodTable } from "./attach.js";
import * as more from "./api/shape_more.js";

type Shape = readonly number[];

declare module "../tensor.js" {
  interface Tensor<D extends DType = DType> {
    flatten(options?: { startDim?: number; endDim?: number }): Tensor;
    unflatten(dim: number, sizes: Shape): Tensor;
    t(): Tensor;
    /** The last two dims swapped. */
    readonly mT: Tensor;
    expandAs(other: Tensor): Tensor;
    split(splitSizeOrSections: number | Shape, options?: { dim?: number }): Tensor[];
    chunk(chunks: number, options?: { dim?: number }): Tensor[];
    unbind(options?: { dim?: number }): Tensor[];
    narrow(dim: number, start: number, length: number): Tensor;
    flip(dims: number | Shape): Tensor;
    roll(shifts: number | Shape, options?: { dims?: number | Shape }): Tensor;
    repeat(...sizes: (number | Shape)[]): Tensor;
    tile(dims: Shape): Tensor;
    movedim(source: number | Shape, destination: number | Shape): Tensor;
    tril(options?: { diagonal?: number }): Tensor;
    triu(options?: { diagonal?: number }): Tensor;
    diagonal(options?: { offset?: number; dim1?: number; dim2?: number }): Tensor;
    diag(options?: { diagonal?: number }): Tensor;
  }
}

const methods: MethodTable = {
  flatten: more.flatten, unflatten: more.unflatten, t: more.t, expandAs: more.expandAs, split: more.split,
  chunk: more.chunk, unbind: more.unbind, narrow: more.narrow, flip: more.flip, roll: more.roll, repeat: more.repeat,
  tile: more.tile, movedim: more.movedim, tril: more.tril, triu: more.triu, diagonal: more.diagonal, diag: more.diag,
};

attachMethods(methods);

Object.defineProperty(Tensor.prototype, "mT", {
  get: function (this: Tensor) {
    return more.mT(this);
  },
  configurable: true,
});
