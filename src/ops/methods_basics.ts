/**
 * @file Tensor basics as methods: `x.to(...)`, `x.cpu()`, `x.clone()`, `x.detach()`,
 * `x.contiguous()`, with declaration merging for their types. Imported once by src/index.ts.
 */
import type { DType } from "../dtype.js";
import { Tensor } from "../tensor.js";
import { attachMethods, type MethodTable } from "./attach.js";
import * as ops from "./api/conversion.js";
import type { ToOptions, ToTarget } from "./api/conversion.js";

declare module "../tensor.js" {
  interface Tensor<D extends DType = DType> {
    to<T extends DType>(dtype: T, options?: ToOptions): Tensor<T>;
    to(target: ToTarget, options?: ToOptions): Tensor;
    cpu(): Tensor<D>;
    clone(): Tensor<D>;
    detach(): Tensor<D>;
    contiguous(): Tensor<D>;
  }
}

const methods: MethodTable = { to: ops.to, cpu: ops.cpu, clone: ops.clone, detach: ops.detach, contiguous: ops.contiguous };

attachMethods(methods);
