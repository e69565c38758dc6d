/**
 * @file How float work is accumulated, the one rule every reduction, scan, norm and loss follows:
 * float16 and bfloat16 compute in float32 and round once at the end, as PyTorch accumulates them (its
 * "opmath" type). The rule is written into the program (convert, compute, convert back), so every
 * backend that runs the program accumulates the same way.
 */
import { type DType, opmath } from "../dtype.js";
import type { Tracer } from "../trace/tracer.js";
import * as e from "./emit.js";

export { opmath };

/** `body` run on `x` converted to its opmath dtype, the result rounded once to `to` (x's dtype unless given). */
export const inOpmath = (x: Tracer, body: (wide: Tracer) => Tracer, to: DType = x.dtype): Tracer => e.convert(body(e.convert(x, opmath(x.dtype))), to);
