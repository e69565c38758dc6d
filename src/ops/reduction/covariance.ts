/**
 * @file The covariance and correlation matrices of variables observed together: cov (with
 * frequency and importance weights) and corrcoef. The input holds one variable per row and one
 * observation per column (a 1-d input is one variable). float16/bfloat16 inputs are computed in
 * float32 and rounded once at the end.
 */
import { defaultFloatDType, dtypes, isFloating, resultType } from "../../dtype.js";
import { DTypeError, ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import { fmtShape } from "../dims.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import { runMany } from "../unit.js";
import { opmath } from "../accumulate.js";

/** The result dtype of cov/corrcoef: the input's promoted with the importance weights', at least floating. */
function covDType(input: Tensor, aweights: Tensor | undefined): ReturnType<typeof resultType> {
  const promoted = aweights === undefined ? input.dtype : resultType({ dtype: input.dtype, ndim: 1 }, { dtype: aweights.dtype, ndim: 1 });
  return isFloating(promoted) ? promoted : defaultFloatDType;
}

/** PyTorch's checks of one weights tensor against `n` observations; its values are read on the host and returned. */
function checkWeights(name: string, which: "fweights" | "aweights", w: Tensor, n: number): number[] {
  if (w.ndim > 1) throw new ShapeError(`${name}: ${which} must have one or fewer dimensions, got ${fmtShape(w.shape)}`);
  const kind = dtypes[w.dtype].kind;
  if (which === "fweights" && kind !== "int" && kind !== "uint") throw new DTypeError(`${name}: fweights must have an integer dtype, got ${w.dtype}`);
  if (which === "aweights" && kind !== "float") throw new DTypeError(`${name}: aweights must have a floating point dtype, got ${w.dtype}`);
  if (w.numel() !== n) throw new ShapeError(`${name}: ${which} must have one value per observation (${n}, the input's last dim), got ${w.numel()}`);
  const values = Array.from(w.dataSync() as ArrayLike<number | bigint>, Number);
  for (const v of values) {
    if (v < 0) throw new ShapeError(`${name}: ${which} cannot be negative, got ${v}`);
  }
  return values;
}

/**
 * The covariance matrix of `x` ([variables, observations], in a float dtype) with the optional
 * weights (each [observations], float, same dtype; `w` their product), squeezed as PyTorch's.
 */
function covariance(x: Tracer, w: Tracer | undefined, aweights: Tracer | undefined, correction: number): Tracer {
  const [vars, n] = x.shape as [number, number];
  const scalar = (v: number): Tracer => e.full(v, x.dtype);
  const weighted = (t: Tracer): Tracer => (w === undefined ? t : e.mul(t, e.broadcastInDim(w, t.shape, [1])));
  const total = w === undefined ? scalar(n) : e.reduce("sum", w, [0]);
  const mean = e.div(e.reduce("sum", weighted(x), [1]), e.broadcastInDim(total, [vars], []));
  const centered = e.sub(x, e.broadcastInDim(mean, x.shape, [0]));
  const products = e.dotGeneral(centered, weighted(centered), [], [], [1], [1]);
  let factor = e.sub(total, scalar(correction));
  if (w !== undefined && aweights !== undefined && correction !== 0) {
    factor = e.sub(total, e.div(e.mul(scalar(correction), e.reduce("sum", e.mul(w, aweights), [0])), total));
  }
  factor = e.max(factor, scalar(0)); // no degrees of freedom left: inf or NaN, as PyTorch's
  const c = e.div(products, e.broadcastInDim(factor, products.shape, []));
  return e.reshape(c, c.shape.filter((s) => s !== 1));
}

interface CovArgs {
  input: Tensor;
  correction: number;
  fweights: Tensor | undefined;
  aweights: Tensor | undefined;
}

/** Runs cov (or corrcoef, which scales it) of a checked input; `post` turns the covariance into the result. */
function covUnit(name: string, { input, correction, fweights, aweights }: CovArgs, post: (c: Tracer) => Tracer): Tensor {
  if (input.ndim > 2) throw new ShapeError(`${name}: the input must have two or fewer dimensions (variables × observations), got ${fmtShape(input.shape)}`);
  if (input.dtype === "bool") throw new DTypeError(`${name}: bool inputs are not supported; convert to a number dtype first`);
  const n = input.ndim === 2 ? input.shape[1]! : input.numel();
  const vars = input.ndim === 2 ? input.shape[0]! : 1;
  const weightValues = [
    ...(fweights === undefined ? [] : [checkWeights(name, "fweights", fweights, n)]),
    ...(aweights === undefined ? [] : [checkWeights(name, "aweights", aweights, n)]),
  ];
  if (weightValues.length > 0) {
    const products = weightValues.reduce((a, b) => a.map((v, i) => v * b[i]!));
    if (products.reduce((a, v) => a + v, 0) === 0) throw new ShapeError(`${name}: the weights sum to zero, so the covariance cannot be normalized`);
  }
  const dtype = covDType(input, aweights);
  const wide = opmath(dtype);
  const inputs = [input, ...(fweights === undefined ? [] : [fweights]), ...(aweights === undefined ? [] : [aweights])];
  const statics = `${correction}|${fweights !== undefined}|${aweights !== undefined}`;
  return runMany(name, inputs, statics, ([x, ...ws]) => {
    const xs = e.convert(e.reshape(x!, [vars, n]), wide);
    const weights = ws.map((t) => e.convert(e.reshape(t, [n]), wide));
    const w = weights.length === 0 ? undefined : weights.reduce((a, b) => e.mul(a, b));
    const a = aweights === undefined ? undefined : weights.at(-1);
    return [e.convert(post(covariance(xs, w, a, correction)), dtype)];
  })[0]!;
}

export const cov = op(
  "cov(input: Tensor, *, correction: int = 1, fweights?: Tensor, aweights?: Tensor) -> Tensor",
  {
    doc: "The covariance matrix of the variables in the rows of `input` (observations in the columns; a 1-d input is one variable, giving a 0-d result), with integer frequency weights `fweights` and float importance weights `aweights` per observation (read on the host to check they are not negative); `correction` 1 is Bessel's, 0 the population covariance.",
    method: true,
  },
  (args) => covUnit("cov", args, (c) => c),
);

export const corrcoef = op(
  "corrcoef(input: Tensor) -> Tensor",
  { doc: "The Pearson correlation coefficients of the variables in the rows of `input` (observations in the columns), clipped to [-1, 1]; NaN for a variable without variance.", method: true },
  ({ input }) =>
    covUnit("corrcoef", { input, correction: 1, fweights: undefined, aweights: undefined }, (c) => {
      if (c.ndim === 0) return e.div(c, c);
      const diagonal = e.compare(e.iota("int64", c.shape, 0), e.iota("int64", c.shape, 1), "EQ");
      const deviations = e.sqrt(e.reduce("sum", e.select(diagonal, c, e.full(0, c.dtype, c.shape)), [1]));
      const scaled = e.div(e.div(c, e.broadcastInDim(deviations, c.shape, [0])), e.broadcastInDim(deviations, c.shape, [1]));
      return e.clamp(e.full(-1, c.dtype, c.shape), scaled, e.full(1, c.dtype, c.shape));
    }),
);
