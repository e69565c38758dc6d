/**
 * @file Cumulative ops along one dim: cumsum, cumprod, cummax, cummin, logcumsumexp. Each is one
 * reduce_window whose window covers the whole dim, padded on the low side so that output i sees
 * inputs 0..i (the CPU plugin runs such a window as a scan, in time linear in the dim's length).
 */
import { type DType, defaultIntDType, dtypeInfo, isFloating } from "../../dtype.js";
import { DTypeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import * as e from "../emit.js";
import type { WindowParams } from "../prims_window.js";
import { normDim } from "../dims.js";
import { checkTensor, run, runMany } from "../unit.js";
import type { ValuesIndices } from "../types.js";

export interface CumulativeOptions {
  /** Convert the input to this dtype first (and return it). */
  dtype?: DType;
}

/** The prefix window along `dim` of `x`. */
function prefix(x: Tracer, dim: number): WindowParams {
  const n = x.shape[dim]!;
  return e.windowOf(x, {
    window: x.shape.map((d, i) => (i === dim ? n : 1)),
    padding: x.shape.map((_, i) => (i === dim ? [Math.max(n - 1, 0), 0] as const : [0, 0] as const)),
  });
}

/** Runs `body` on `x` seen as at least 1-d (a 0-d input is treated as one element). */
function along(op: string, x: Tracer, dim: number, body: (x: Tracer, dim: number) => Tracer): Tracer {
  const d = normDim(op, dim, x.ndim);
  if (x.numel() === 0) return x; // nothing to accumulate (the caller's converts still apply)
  if (x.ndim > 0) return body(x, d);
  return e.reshape(body(e.reshape(x, [1]), 0), []);
}

/** Half types accumulate in float32 and round once. */
const widen = (x: Tracer): Tracer => (x.dtype === "float16" || x.dtype === "bfloat16" ? e.convert(x, "float32") : x);

function accumulated(op: "cumsum" | "cumprod", kind: "sum" | "prod") {
  return (a: Tensor, dim: number, options: CumulativeOptions = {}): Tensor => {
    checkTensor(op, a);
    return run(op, [a], `${dim}|${options.dtype ?? ""}`, ([x]) => {
      const t = x as Tracer;
      const dtype = options.dtype !== undefined ? dtypeInfo(options.dtype).name : isFloating(t.dtype) ? t.dtype : defaultIntDType;
      return along(op, e.convert(t, dtype), dim, (v, d) => e.convert(e.reduceWindow(kind, widen(v), prefix(v, d)), dtype));
    });
  };
}

/** Cumulative sum along `dim`; integer and bool inputs accumulate in int64. */
export const cumsum = accumulated("cumsum", "sum");
/** Cumulative product along `dim`; integer and bool inputs accumulate in int64. */
export const cumprod = accumulated("cumprod", "prod");

/** log(cumsum(exp(x))) along `dim`, computed stably; floating inputs only. */
export function logcumsumexp(a: Tensor, dim: number): Tensor {
  checkTensor("logcumsumexp", a);
  if (!isFloating(a.dtype)) throw new DTypeError(`logcumsumexp: ${a.dtype} input is not supported; it needs a floating dtype (convert with .to("float32"))`);
  return run("logcumsumexp", [a], `${dim}`, ([x]) =>
    along("logcumsumexp", x as Tracer, dim, (v, d) => e.convert(e.reduceWindowLogAddExp(widen(v), prefix(v, d)), v.dtype)),
  );
}

function extreme(op: "cummax" | "cummin") {
  return (a: Tensor, dim: number): ValuesIndices => {
    checkTensor(op, a);
    const [values, indices] = runMany(op, [a], `${dim}`, ([x]) => {
      const t = x!;
      const d = normDim(op, dim, t.ndim);
      if (t.numel() === 0) return [t, e.full(0, "int64", t.shape)];
      const v = t.ndim === 0 ? e.reshape(t, [1]) : t;
      const dd = t.ndim === 0 ? 0 : d;
      const [rv, ri] = e.reduceWindowArg(op === "cummax" ? "cumargmax" : "cumargmin", v, e.iota("int64", v.shape, dd), prefix(v, dd));
      return t.ndim === 0 ? [e.reshape(rv, []), e.reshape(ri, [])] : [rv, ri];
    });
    return { values: values!, indices: indices! };
  };
}

/** Running maximum along `dim` and the index where it was reached (the latest among ties; NaN wins). */
export const cummax = extreme("cummax");
/** Running minimum along `dim` and its index (the latest among ties; NaN wins). */
export const cummin = extreme("cummin");
