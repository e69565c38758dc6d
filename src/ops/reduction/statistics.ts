/**
 * @file Variance and standard deviation over `dim` (a number or a list, negative allowed; none =
 * all): var, std, varMean, stdMean. Each takes PyTorch's `correction` (keyword-only) or its older
 * `unbiased` overloads (`x.var(1, false, true)`, `x.var({ unbiased: false })`). float16/bfloat16
 * inputs are computed in float32 and rounded once at the end, as PyTorch accumulates them.
 */
import { isFloating } from "../../dtype.js";
import { ArgumentError, DTypeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import { normDims } from "../dims.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import { run, runMany } from "../unit.js";
import { opmath } from "../accumulate.js";
import { countOver, dimKey, keep, keptShape } from "./keep.js";

type Dim = number | readonly number[] | undefined;

/** What the spread of var/std/varMean/stdMean is computed over, from any of the overloads. */
interface Spread {
  input: Tensor;
  dim: Dim;
  correction: number;
  keepdim: boolean;
}

/**
 * Variance (or, with `root`, standard deviation) and mean of `x` over `dim`, two-pass, in the
 * input's dtype with keepdim applied.
 */
function moments(name: string, x: Tracer, a: Spread, root: boolean): { spread: Tracer; mean: Tracer } {
  if (!isFloating(x.dtype)) {
    throw new DTypeError(`${name}: std and var only support floating point dtypes, got ${x.dtype} (convert first, e.g. x.to("float32"))`);
  }
  const dims = normDims(name, a.dim, x.ndim);
  const t = e.convert(x, opmath(x.dtype));
  const n = countOver(x, dims);
  const sum = e.reduce("sum", t, dims);
  const mean = e.div(sum, e.full(n, t.dtype, sum.shape)); // 0/0 = NaN over no elements, as in PyTorch
  const dev = e.sub(t, e.broadcastTo(e.reshape(mean, keptShape(x, dims)), t.shape));
  const squares = e.reduce("sum", e.mul(dev, dev), dims);
  const variance = e.div(squares, e.full(Math.max(0, n - a.correction), t.dtype, squares.shape));
  const out = (r: Tracer): Tracer => e.convert(keep(r, x, dims, a.keepdim), x.dtype);
  return { spread: out(root ? e.sqrt(variance) : variance), mean: out(mean) };
}

function key(name: string, a: Spread): string {
  if (!Number.isFinite(a.correction)) throw new ArgumentError(`${name}: correction must be a finite number, got ${a.correction}`);
  return `${dimKey(a.dim, a.keepdim)}|${a.correction}`;
}

function spread(name: "var" | "std", a: Spread): Tensor {
  return run(name, [a.input], key(name, a), ([x]) => moments(name, x as Tracer, a, name === "std").spread);
}

function spreadMean(name: "varMean" | "stdMean", a: Spread): [Tensor, Tensor] {
  const [s, m] = runMany(name, [a.input], key(name, a), ([x]) => {
    const { spread, mean } = moments(name, x!, a, name === "stdMean");
    return [spread, mean];
  });
  return [s!, m!];
}

/** The `unbiased` overloads as a correction: true is Bessel's correction (1), false none (0). */
const unbiasedDim = (input: Tensor, dim: number | readonly number[] | null, unbiased: boolean, keepdim: boolean): Spread => ({
  input,
  dim: dim ?? undefined,
  correction: unbiased ? 1 : 0,
  keepdim,
});
const unbiasedAll = (input: Tensor, unbiased: boolean): Spread => ({ input, dim: undefined, correction: unbiased ? 1 : 0, keepdim: false });

export const variance = op(
  [
    "var(input: Tensor, dim?: int | int[], *, correction: float = 1, keepdim: bool = false) -> Tensor",
    "var(input: Tensor, dim: int | int[] | None, unbiased: bool = true, keepdim: bool = false) -> Tensor",
    "var(input: Tensor, unbiased: bool) -> Tensor",
  ],
  {
    doc: "Variance over `dim` (all dims by default), divided by N - `correction` (1 by default; `unbiased: false` means 0); floating inputs only.",
    method: true,
  },
  [(a) => spread("var", a), (a) => spread("var", unbiasedDim(a.input, a.dim, a.unbiased, a.keepdim)), (a) => spread("var", unbiasedAll(a.input, a.unbiased))],
);

export const std = op(
  [
    "std(input: Tensor, dim?: int | int[], *, correction: float = 1, keepdim: bool = false) -> Tensor",
    "std(input: Tensor, dim: int | int[] | None, unbiased: bool = true, keepdim: bool = false) -> Tensor",
    "std(input: Tensor, unbiased: bool) -> Tensor",
  ],
  {
    doc: "Standard deviation over `dim` (all dims by default), with N - `correction` in the divisor (1 by default; `unbiased: false` means 0); floating inputs only.",
    method: true,
  },
  [(a) => spread("std", a), (a) => spread("std", unbiasedDim(a.input, a.dim, a.unbiased, a.keepdim)), (a) => spread("std", unbiasedAll(a.input, a.unbiased))],
);

export const varMean = op(
  [
    "varMean(input: Tensor, dim?: int | int[], *, correction: float = 1, keepdim: bool = false) -> (Tensor, Tensor)",
    "varMean(input: Tensor, dim: int | int[] | None, unbiased: bool = true, keepdim: bool = false) -> (Tensor, Tensor)",
    "varMean(input: Tensor, unbiased: bool) -> (Tensor, Tensor)",
  ],
  { doc: "`[variance, mean]` over `dim`, as `var` computes them (PyTorch's tuple as an array)." },
  [(a) => spreadMean("varMean", a), (a) => spreadMean("varMean", unbiasedDim(a.input, a.dim, a.unbiased, a.keepdim)), (a) => spreadMean("varMean", unbiasedAll(a.input, a.unbiased))],
);

export const stdMean = op(
  [
    "stdMean(input: Tensor, dim?: int | int[], *, correction: float = 1, keepdim: bool = false) -> (Tensor, Tensor)",
    "stdMean(input: Tensor, dim: int | int[] | None, unbiased: bool = true, keepdim: bool = false) -> (Tensor, Tensor)",
    "stdMean(input: Tensor, unbiased: bool) -> (Tensor, Tensor)",
  ],
  { doc: "`[standard deviation, mean]` over `dim`, as `std` computes them (PyTorch's tuple as an array)." },
  [(a) => spreadMean("stdMean", a), (a) => spreadMean("stdMean", unbiasedDim(a.input, a.dim, a.unbiased, a.keepdim)), (a) => spreadMean("stdMean", unbiasedAll(a.input, a.unbiased))],
);
