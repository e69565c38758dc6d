/**
 * @file THE primitive table: one row per primitive, each with its shape/dtype rule (`infer`) and its
 * lowering to one StableHLO op (`lower`: op name, attributes, fixed reduce body). A primitive
 * without either is a compile error. Primitives take exactly matching shapes and dtypes; PyTorch's
 * broadcasting and promotion happen in the API ops (src/ops/api) that emit them.
 */
import { toStorage } from "../creation.js";
import { type DType, type DTypeKind, dtypes } from "../dtype.js";
import { DTypeError, ShapeError } from "../runtime/errors.js";
import type { NativeAttr } from "../runtime/native.js";
import { type WindowPrimParams, windowPrims } from "./prims_window.js";

export interface Aval {
  readonly shape: readonly number[];
  readonly dtype: DType;
}

export type CompareDirection = "EQ" | "NE" | "LT" | "LE" | "GT" | "GE";
type Dims = readonly number[];
type None = Record<string, never>;
type ScalarValue = number | bigint | boolean;

/** The static parameters of each primitive. */
export interface PrimParams extends WindowPrimParams {
  add: None; sub: None; mul: None; div: None; rem: None; pow: None; max: None; min: None; atan2: None;
  and: None; or: None; xor: None; shl: None; shr_arith: None; shr_logical: None;
  not: None; neg: None; abs: None; sign: None; exp: None; expm1: None; log: None; log1p: None;
  logistic: None; tanh: None; sqrt: None; rsqrt: None; cbrt: None; sin: None; cos: None; tan: None;
  floor: None; ceil: None; round_even: None; round_afz: None; is_finite: None;
  compare: { direction: CompareDirection };
  select: None;
  clamp: None;
  convert: { dtype: DType };
  bitcast_convert: { dtype: DType };
  /** One value repeated (a splat) or every element, in row-major order. */
  constant: { value: ScalarValue | readonly ScalarValue[]; dtype: DType; shape: Dims };
  iota: { dtype: DType; shape: Dims; dim: number };
  broadcast_in_dim: { shape: Dims; dims: Dims };
  reshape: { shape: Dims };
  transpose: { perm: Dims };
  slice: { start: Dims; limit: Dims; strides: Dims };
  dynamic_slice: { sizes: Dims };
  dynamic_update_slice: None;
  concatenate: { dim: number };
  pad: { low: Dims; high: Dims; interior: Dims };
  reverse: { dims: Dims };
  dot_general: { lhsBatch: Dims; rhsBatch: Dims; lhsContract: Dims; rhsContract: Dims };
  reduce_sum: { dims: Dims }; reduce_max: { dims: Dims }; reduce_min: { dims: Dims };
  reduce_prod: { dims: Dims }; reduce_and: { dims: Dims }; reduce_or: { dims: Dims };
  /** Inputs: values, indices, value init, index init; outputs: values and indices. */
  argmax: { dim: number }; argmin: { dim: number };
}

export type Prim = keyof PrimParams;

export interface Lowering {
  op: string;
  attrs?: NativeAttr[];
  body?: string;
}

export interface PrimDef<P extends Prim> {
  /** Number of inputs; null for variadic. */
  readonly arity: number | null;
  readonly infer: (inputs: readonly Aval[], params: PrimParams[P]) => Aval[];
  readonly lower: (params: PrimParams[P], inputs: readonly Aval[]) => Lowering;
}

// --- checks (these guard the API ops; users see the API ops' own errors first) ---------------------

const fmt = (a: Aval): string => `${a.dtype}[${a.shape.join(", ")}]`;
const sameShape = (a: Dims, b: Dims): boolean => a.length === b.length && a.every((d, i) => d === b[i]);

type Accepts = "any" | "numeric" | "signed" | "float" | "integer" | "logical";
const accepted: Record<Accepts, readonly DTypeKind[]> = {
  any: ["bool", "int", "uint", "float"],
  numeric: ["int", "uint", "float"],
  signed: ["int", "float"],
  float: ["float"],
  integer: ["int", "uint"],
  logical: ["bool", "int", "uint"],
};

function check(prim: string, inputs: readonly Aval[], accepts: Accepts): void {
  for (const a of inputs) {
    if (!accepted[accepts].includes(dtypes[a.dtype].kind)) throw new DTypeError(`${prim}: ${a.dtype} is not a valid input (${accepts} dtypes only)`);
  }
  for (const a of inputs.slice(1)) {
    if (a.dtype !== inputs[0]!.dtype || !sameShape(a.shape, inputs[0]!.shape)) {
      throw new ShapeError(`${prim}: inputs must match exactly, got ${inputs.map(fmt).join(" and ")}`);
    }
  }
}

function checkAxes(prim: string, axes: Dims, rank: number): void {
  const seen = new Set<number>();
  for (const d of axes) {
    if (!Number.isInteger(d) || d < 0 || d >= rank || seen.has(d)) throw new ShapeError(`${prim}: bad dimension list [${axes.join(", ")}] for rank ${rank}`);
    seen.add(d);
  }
}

const ints = (name: string, list: Dims): NativeAttr => ({ name, ints: [...list] });
const int = (name: string, value: number): NativeAttr => ({ name, int: value });

// --- families ---------------------------------------------------------------------------------------

function unary<P extends Prim>(op: string, accepts: Accepts): PrimDef<P> {
  return { arity: 1, infer: (ins) => (check(op, ins, accepts), [ins[0]!]), lower: () => ({ op }) };
}

function binary<P extends Prim>(op: string, accepts: Accepts): PrimDef<P> {
  return { arity: 2, infer: (ins) => (check(op, ins, accepts), [ins[0]!]), lower: () => ({ op }) };
}

function reduce<P extends "reduce_sum" | "reduce_max" | "reduce_min" | "reduce_prod" | "reduce_and" | "reduce_or">(
  body: string,
  accepts: Accepts,
): PrimDef<P> {
  return {
    arity: 2, // operand and init value
    infer: ([x, init], { dims }) => {
      check(`reduce_${body}`, [x!], accepts);
      if (init!.dtype !== x!.dtype || init!.shape.length !== 0) throw new ShapeError(`reduce_${body}: init must be a 0-d ${x!.dtype}`);
      checkAxes(`reduce_${body}`, dims, x!.shape.length);
      return [{ shape: x!.shape.filter((_, i) => !dims.includes(i)), dtype: x!.dtype }];
    },
    lower: ({ dims }) => ({ op: "reduce", body, attrs: [ints("dimensions", dims)] }),
  };
}

function argReduce<P extends "argmax" | "argmin">(body: P): PrimDef<P> {
  return {
    arity: 4,
    infer: ([x, idx], { dim }) => {
      checkAxes(body, [dim], x!.shape.length);
      if (!sameShape(x!.shape, idx!.shape)) throw new ShapeError(`${body}: indices ${fmt(idx!)} must have the shape of ${fmt(x!)}`);
      const shape = x!.shape.filter((_, i) => i !== dim);
      return [{ shape, dtype: x!.dtype }, { shape, dtype: idx!.dtype }];
    },
    lower: ({ dim }) => ({ op: "reduce", body, attrs: [ints("dimensions", [dim])] }),
  };
}

function constantBytes({ value, dtype }: PrimParams["constant"]): Uint8Array {
  const storage = toStorage(Array.isArray(value) ? value : [value as ScalarValue], dtype);
  return new Uint8Array(storage.buffer, storage.byteOffset, storage.byteLength);
}

// --- the table --------------------------------------------------------------------------------------

export const prims = {
  add: binary("add", "any"),
  sub: binary("subtract", "numeric"),
  mul: binary("multiply", "any"),
  div: binary("divide", "numeric"),
  rem: binary("remainder", "numeric"),
  pow: binary("power", "numeric"),
  max: binary("maximum", "any"),
  min: binary("minimum", "any"),
  atan2: binary("atan2", "float"),
  and: binary("and", "logical"),
  or: binary("or", "logical"),
  xor: binary("xor", "logical"),
  shl: binary("shift_left", "integer"),
  shr_arith: binary("shift_right_arithmetic", "integer"),
  shr_logical: binary("shift_right_logical", "integer"),
  not: unary("not", "logical"),
  neg: unary("negate", "numeric"),
  abs: unary("abs", "signed"),
  sign: unary("sign", "signed"),
  exp: unary("exponential", "float"),
  expm1: unary("exponential_minus_one", "float"),
  log: unary("log", "float"),
  log1p: unary("log_plus_one", "float"),
  logistic: unary("logistic", "float"),
  tanh: unary("tanh", "float"),
  sqrt: unary("sqrt", "float"),
  rsqrt: unary("rsqrt", "float"),
  cbrt: unary("cbrt", "float"),
  sin: unary("sine", "float"),
  cos: unary("cosine", "float"),
  tan: unary("tan", "float"),
  floor: unary("floor", "float"),
  ceil: unary("ceil", "float"),
  round_even: unary("round_nearest_even", "float"),
  round_afz: unary("round_nearest_afz", "float"),
  is_finite: {
    arity: 1,
    infer: (ins) => (check("is_finite", ins, "float"), [{ shape: ins[0]!.shape, dtype: "bool" }]),
    lower: () => ({ op: "is_finite" }),
  },
  compare: {
    arity: 2,
    infer: (ins) => (check("compare", ins, "any"), [{ shape: ins[0]!.shape, dtype: "bool" }]),
    lower: ({ direction }) => ({ op: "compare", attrs: [{ name: "comparison_direction", enum: direction }] }),
  },
  select: {
    arity: 3,
    infer: ([p, a, b]) => {
      check("select", [a!, b!], "any");
      if (p!.dtype !== "bool" || !sameShape(p!.shape, a!.shape)) throw new ShapeError(`select: predicate ${fmt(p!)} must be bool of shape [${a!.shape.join(", ")}]`);
      return [a!];
    },
    lower: () => ({ op: "select" }),
  },
  clamp: {
    arity: 3,
    infer: ([lo, x, hi]) => (check("clamp", [x!, lo!, hi!], "numeric"), [x!]),
    lower: () => ({ op: "clamp" }),
  },
  convert: { arity: 1, infer: ([x], { dtype }) => [{ shape: x!.shape, dtype }], lower: () => ({ op: "convert" }) },
  bitcast_convert: {
    arity: 1,
    infer: ([x], { dtype }) => {
      if (dtypes[dtype].itemSize !== dtypes[x!.dtype].itemSize) throw new DTypeError(`bitcast_convert: ${x!.dtype} and ${dtype} differ in width`);
      return [{ shape: x!.shape, dtype }];
    },
    lower: () => ({ op: "bitcast_convert" }),
  },
  constant: {
    arity: 0,
    infer: (_, { shape, dtype }) => [{ shape, dtype }],
    lower: (p) => ({ op: "constant", attrs: [{ name: "value", dense: constantBytes(p) }] }),
  },
  iota: {
    arity: 0,
    infer: (_, { shape, dtype, dim }) => (checkAxes("iota", [dim], shape.length), [{ shape, dtype }]),
    lower: ({ dim }) => ({ op: "iota", attrs: [int("iota_dimension", dim)] }),
  },
  broadcast_in_dim: {
    arity: 1,
    infer: ([x], { shape, dims }) => {
      if (dims.length !== x!.shape.length || dims.some((d, i) => d >= shape.length || (x!.shape[i] !== 1 && x!.shape[i] !== shape[d]))) {
        throw new ShapeError(`broadcast_in_dim: cannot broadcast ${fmt(x!)} to [${shape.join(", ")}] along [${dims.join(", ")}]`);
      }
      return [{ shape, dtype: x!.dtype }];
    },
    lower: ({ dims }) => ({ op: "broadcast_in_dim", attrs: [ints("broadcast_dimensions", dims)] }),
  },
  reshape: {
    arity: 1,
    infer: ([x], { shape }) => {
      if (shape.reduce((a, b) => a * b, 1) !== x!.shape.reduce((a, b) => a * b, 1)) throw new ShapeError(`reshape: ${fmt(x!)} cannot become [${shape.join(", ")}]`);
      return [{ shape, dtype: x!.dtype }];
    },
    lower: () => ({ op: "reshape" }),
  },
  transpose: {
    arity: 1,
    infer: ([x], { perm }) => {
      checkAxes("transpose", perm, x!.shape.length);
      if (perm.length !== x!.shape.length) throw new ShapeError(`transpose: permutation [${perm.join(", ")}] for ${fmt(x!)}`);
      return [{ shape: perm.map((p) => x!.shape[p]!), dtype: x!.dtype }];
    },
    lower: ({ perm }) => ({ op: "transpose", attrs: [ints("permutation", perm)] }),
  },
  slice: {
    arity: 1,
    infer: ([x], { start, limit, strides }) => [
      { shape: start.map((s, i) => Math.max(0, Math.ceil((limit[i]! - s) / strides[i]!))), dtype: x!.dtype },
    ],
    lower: ({ start, limit, strides }) => ({
      op: "slice",
      attrs: [ints("start_indices", start), ints("limit_indices", limit), ints("strides", strides)],
    }),
  },
  dynamic_slice: {
    arity: null, // operand, then one 0-d start index per dimension
    infer: ([x], { sizes }) => [{ shape: sizes, dtype: x!.dtype }],
    lower: ({ sizes }) => ({ op: "dynamic_slice", attrs: [ints("slice_sizes", sizes)] }),
  },
  dynamic_update_slice: {
    arity: null, // operand, update, then one 0-d start index per dimension
    infer: ([x]) => [x!],
    lower: () => ({ op: "dynamic_update_slice" }),
  },
  concatenate: {
    arity: null,
    infer: (ins, { dim }) => {
      const first = ins[0]!;
      const shape = [...first.shape];
      shape[dim] = ins.reduce((n, a) => n + a.shape[dim]!, 0);
      return [{ shape, dtype: first.dtype }];
    },
    lower: ({ dim }) => ({ op: "concatenate", attrs: [int("dimension", dim)] }),
  },
  pad: {
    arity: 2, // operand, 0-d padding value
    infer: ([x], { low, high, interior }) => [
      { shape: x!.shape.map((d, i) => low[i]! + high[i]! + d + Math.max(0, d - 1) * interior[i]!), dtype: x!.dtype },
    ],
    lower: ({ low, high, interior }) => ({
      op: "pad",
      attrs: [ints("edge_padding_low", low), ints("edge_padding_high", high), ints("interior_padding", interior)],
    }),
  },
  reverse: {
    arity: 1,
    infer: ([x], { dims }) => (checkAxes("reverse", dims, x!.shape.length), [x!]),
    lower: ({ dims }) => ({ op: "reverse", attrs: [ints("dimensions", dims)] }),
  },
  dot_general: {
    arity: 2,
    infer: ([a, b], { lhsBatch, rhsBatch, lhsContract, rhsContract }) => {
      if (a!.dtype !== b!.dtype) throw new DTypeError(`dot_general: ${fmt(a!)} and ${fmt(b!)} differ in dtype`);
      const bad = (l: Dims, r: Dims) => l.length !== r.length || l.some((d, i) => a!.shape[d] !== b!.shape[r[i]!]);
      if (bad(lhsBatch, rhsBatch) || bad(lhsContract, rhsContract)) throw new ShapeError(`dot_general: ${fmt(a!)} and ${fmt(b!)} do not match on the given dimensions`);
      const free = (x: Aval, batch: Dims, contract: Dims) => x.shape.filter((_, i) => !batch.includes(i) && !contract.includes(i));
      const shape = [...lhsBatch.map((d) => a!.shape[d]!), ...free(a!, lhsBatch, lhsContract), ...free(b!, rhsBatch, rhsContract)];
      return [{ shape, dtype: a!.dtype }];
    },
    lower: ({ lhsBatch, rhsBatch, lhsContract, rhsContract }) => ({
      op: "dot_general",
      attrs: [{ name: "dot_dimension_numbers", dot: [[...lhsBatch], [...rhsBatch], [...lhsContract], [...rhsContract]] }],
    }),
  },
  reduce_sum: reduce("add", "any"),
  reduce_max: reduce("max", "any"),
  reduce_min: reduce("min", "any"),
  reduce_prod: reduce("mul", "any"),
  reduce_and: reduce("and", "logical"),
  reduce_or: reduce("or", "logical"),
  argmax: argReduce("argmax"),
  argmin: argReduce("argmin"),
  ...windowPrims,
} satisfies { [P in Prim]: PrimDef<P> };
