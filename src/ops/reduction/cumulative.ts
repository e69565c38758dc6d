/**
 * @file Cumulative ops along one dim: cumsum, cumprod, cummax, cummin, logcumsumexp. Each is one
 * reduce_window whose window covers the whole dim, padded on the low side so that output i sees
 * inputs 0..i (the CPU plugin runs such a window as a scan, in time linear in the dim's length).
 * float16/bfloat16 accumulate in float32 and round once.
 */
import { type DType, defaultIntDType, isFloating } from "../../dtype.js";
import { DTypeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import { normDim } from "../dims.js";
import { inOpmath } from "../accumulate.js";
import * as e from "../emit.js";
import type { WindowParams } from "../prims_window.js";
import { op } from "../signature/op.js";
import type { ValuesIndices } from "../types.js";
import { run, runMany } from "../unit.js";

/** The prefix window along `dim` of `x` (output i sees inputs 0..i). */
export function prefix(x: Tracer, dim: number): WindowParams {
  const n = x.shape[dim]!;
  return e.windowOf(x, {
    window: x.shape.map((d, i) => (i === dim ? n : 1)),
    padding: x.shape.map((_, i) => (i === dim ? [Math.max(n - 1, 0), 0] as const : [0, 0] as const)),
  });
}

/** Runs `body` on `x` seen as at least 1-d (a 0-d input is treated as one element). */
function along(name: string, x: Tracer, dim: number, body: (x: Tracer, dim: number) => Tracer): Tracer {
  const d = normDim(name, dim, x.ndim);
  if (x.numel() === 0) return x; // nothing to accumulate (the caller's converts still apply)
  if (x.ndim > 0) return body(x, d);
  return e.reshape(body(e.reshape(x, [1]), 0), []);
}

function accumulated(name: "cumsum" | "cumprod", input: Tensor, dim: number, dtype: DType | undefined): Tensor {
  return run(name, [input], `${dim}|${dtype ?? ""}`, ([x]) => {
    const t = x as Tracer;
    const to = dtype ?? (isFloating(t.dtype) ? t.dtype : defaultIntDType);
    return along(name, e.convert(t, to), dim, (v, d) => inOpmath(v, (w) => e.reduceWindow(name === "cumsum" ? "sum" : "prod", w, prefix(w, d))));
  });
}

export const cumsum = op(
  "cumsum(input: Tensor, dim: int, *, dtype?: dtype) -> Tensor",
  { doc: "Cumulative sum along `dim`; integer and bool inputs accumulate in int64, or in `dtype` (the input is converted to it first).", method: true },
  ({ input, dim, dtype }) => accumulated("cumsum", input, dim, dtype),
);

export const cumprod = op(
  "cumprod(input: Tensor, dim: int, *, dtype?: dtype) -> Tensor",
  { doc: "Cumulative product along `dim`; integer and bool inputs accumulate in int64, or in `dtype` (the input is converted to it first).", method: true },
  ({ input, dim, dtype }) => accumulated("cumprod", input, dim, dtype),
);

export const logcumsumexp = op(
  "logcumsumexp(input: Tensor, dim: int) -> Tensor",
  { doc: "log(cumsum(exp(x))) along `dim`, computed stably; floating inputs only.", method: true },
  ({ input, dim }) => {
    if (!isFloating(input.dtype)) throw new DTypeError(`logcumsumexp: ${input.dtype} input is not supported; it needs a floating dtype (convert with .to("float32"))`);
    return run("logcumsumexp", [input], `${dim}`, ([x]) =>
      along("logcumsumexp", x as Tracer, dim, (v, d) => inOpmath(v, (w) => e.reduceWindowLogAddExp(w, prefix(w, d)))),
    );
  },
);

function extreme(name: "cummax" | "cummin", input: Tensor, dim: number): ValuesIndices {
  const [values, indices] = runMany(name, [input], `${dim}`, ([x]) => {
    const t = x!;
    const d = normDim(name, dim, t.ndim);
    if (t.numel() === 0) return [t, e.full(0, "int64", t.shape)];
    const v = t.ndim === 0 ? e.reshape(t, [1]) : t;
    const dd = t.ndim === 0 ? 0 : d;
    const [rv, ri] = e.reduceWindowArg(name === "cummax" ? "cumargmax" : "cumargmin", v, e.iota("int64", v.shape, dd), prefix(v, dd));
    return t.ndim === 0 ? [e.reshape(rv, []), e.reshape(ri, [])] : [rv, ri];
  });
  return { values: values!, indices: indices! };
}

export const cummax = op(
  "cummax(input: Tensor, dim: int) -> ValuesIndices",
  { doc: "The running maximum along `dim` and the index where it was reached, as `{ values, indices }` (the latest index among ties; NaN wins).", method: true },
  ({ input, dim }) => extreme("cummax", input, dim),
);

export const cummin = op(
  "cummin(input: Tensor, dim: int) -> ValuesIndices",
  { doc: "The running minimum along `dim` and the index where it was reached, as `{ values, indices }` (the latest index among ties; NaN wins).", method: true },
  ({ input, dim }) => extreme("cummin", input, dim),
);
