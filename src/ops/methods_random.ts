/**
 * @file Random Tensor methods: `x.uniform_()`, `x.normal_()` (in place), `p.bernoulli()`,
 * `w.multinomial(n)`, with declaration merging for their types. Imported once by src/index.ts.
 */
import type { DType } from "../dtype.js";
import type { Generator } from "../random/generator.js";
import { Tensor } from "../tensor.js";
import { attachMethods, type MethodTable } from "./attach.js";
import * as ops from "./api/random.js";

type GenOpt = { generator?: Generator };

declare module "../tensor.js" {
  interface Tensor<D extends DType = DType> {
    uniform_(...args: (number | GenOpt)[]): this;
    normal_(...args: (number | GenOpt)[]): this;
    bernoulli(options?: { p?: number; generator?: Generator }): Tensor<D>;
    multinomial(numSamples: number, options?: { replacement?: boolean; generator?: Generator }): Tensor<"int64">;
  }
}

const methods: MethodTable = { uniform_: ops.uniform_, normal_: ops.normal_, bernoulli: ops.bernoulli, multinomial: ops.multinomial };

attachMethods(methods);
