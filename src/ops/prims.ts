/**
 * @file THE primitive table: one row per primitive, each with its shape/dtype rule (`infer`) and its
 * lowering to one StableHLO op (`lower`: op name, attributes, fixed reduce body). A primitive
 * without either is a compile error. Primitives take exactly matching shapes and dtypes; PyTorch's
 * broadcasting and promotion happen in the API ops (src/ops/api) that emit them.
 */
import { toStorage } from "../creation.js";
import { type DType, type DTypeKind, dtypes } from "../dtype.js";
import { DTypeError, ShapeError } from "../runtime/errors.js";
import type { Precision } from "../matmul_precision.js";
import type { NativeAttr } from "../runtime/native.js";
import { type ControlPrimParams, controlPrims } from "./prims_control.js";
import { precisionConfig, type WindowPrimParams, windowPrims } from "./prims_window.js";
import type { Graph } from "../trace/graph.js";

export interface Aval {
  readonly shape: readonly number[];
  readonly dtype: DType;
}

export type CompareDirection = "EQ" | "NE" | "LT" | "LE" | "GT" | "GE";
type Dims = readonly number[];
type None = Record<string, never>;
type ScalarValue = number | bigint | boolean;

/** The static parameters of each primitive. */
export interface PrimParams extends WindowPrimParams, ControlPrimParams {
  add: None; sub: None; mul: None; div: None; rem: None; pow: None; max: None; min: None; atan2: None;
  and: None; or: None; xor: None; shl: None; shr_arith: None; shr_logical: None;
  not: None; neg: None; abs: None; sign: None; exp: None; expm1: None; log: None; log1p: None;
  logistic: None; tanh: None; erf: None; lgamma: None; digamma: None; polygamma: None; zeta: None; sqrt: None; rsqrt: None; cbrt: None; sin: None; cos: None; tan: None;
  floor: None; ceil: None; round_even: None; round_afz: None; is_finite: None;
  compare: { direction: CompareDirection };
  select: None;
  clamp: None;
  convert: { dtype: DType };
  /** zeroGradient: half of emit.stopGradient (see inputsReachingOutputs). */
  bitcast_convert: { dtype: DType; zeroGradient?: boolean };
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
  /** `dtype`: the result's element type when wider than the operands' (float16 × float16 → float32). */
  dot_general: { lhsBatch: Dims; rhsBatch: Dims; lhsContract: Dims; rhsContract: Dims; dtype?: DType; precision?: Precision };
  reduce_sum: { dims: Dims };
  /** nanSplit: the gradient is PyTorch's max()/min() over all elements (split among NaNs when the result is NaN), not amax's; the lowering ignores it. */
  reduce_max: { dims: Dims; nanSplit?: boolean }; reduce_min: { dims: Dims; nanSplit?: boolean };
  reduce_prod: { dims: Dims }; reduce_and: { dims: Dims }; reduce_or: { dims: Dims };
  /** Inputs: values, indices, value init, index init; outputs: values and indices. */
  argmax: { dim: number }; argmin: { dim: number };
  gather: GatherParams;
  /** Inputs: operand, indices, updates. */
  scatter: ScatterParams;
  /** Sorts every operand by the first along `dim` (stable; NaN last ascending, first descending). */
  sort: { dim: number; descending: boolean };
  /** Inputs a, b: x with op(a) x = b (left) or x op(a) = b, op(a) = aᵀ when transposeA; only a's `lower` (else upper) triangle is read, its diagonal as ones when unitDiagonal. */
  triangular_solve: { left: boolean; lower: boolean; unitDiagonal: boolean; transposeA: boolean };
}

/** StableHLO gather's dimension numbers (batching dims optional) and slice sizes. */
export interface GatherParams {
  offsetDims: Dims; collapsedSliceDims: Dims; startIndexMap: Dims; indexVectorDim: number; sliceSizes: Dims;
  operandBatchingDims?: Dims; startIndicesBatchingDims?: Dims;
}
/** How scatter combines an update with the value it lands on. */
export type ScatterKind = "replace" | "add" | "mul" | "max" | "min";
export interface ScatterParams {
  kind: ScatterKind;
  updateWindowDims: Dims; insertedWindowDims: Dims; scatterDimsToOperandDims: Dims; indexVectorDim: number;
  inputBatchingDims?: Dims; scatterIndicesBatchingDims?: Dims;
}

export type Prim = keyof PrimParams;

export interface Lowering {
  op: string;
  attrs?: NativeAttr[];
  body?: string;
  /** Sub-graphs printed as the op's regions (control flow; see NativeNode.regions). */
  regions?: readonly Graph[];
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

// --- gather / scatter --------------------------------------------------------------------------------

/** `#stablehlo.<kind><field = [..], …, index_vector_dim = n>` with empty lists left out. */
function dimensionNumbers(kind: string, lists: [string, Dims | undefined][], indexVectorDim: number): string {
  const fields = lists.filter(([, v]) => v && v.length > 0).map(([k, v]) => `${k} = [${v!.join(", ")}]`);
  return `#stablehlo.${kind}<${[...fields, `index_vector_dim = ${indexVectorDim}`].join(", ")}>`;
}

/**
 * The index rules gather and scatter share (in gather's names); returns the batch sizes (the index
 * shape without index_vector_dim) and the operand dims that stay in the windows.
 */
function indexRules(prim: string, operand: Aval, indices: Aval, collapsed: Dims, batching: Dims, indicesBatching: Dims, startMap: Dims, ivd: number) {
  const rank = operand.shape.length;
  const bad = (why: string): never => {
    throw new ShapeError(`${prim}: ${why} (operand ${fmt(operand)}, indices ${fmt(indices)})`);
  };
  if (dtypes[indices.dtype].kind !== "int" && dtypes[indices.dtype].kind !== "uint") throw new DTypeError(`${prim}: indices must be integers, got ${fmt(indices)}`);
  if (!Number.isInteger(ivd) || ivd < 0 || ivd > indices.shape.length) bad(`index_vector_dim ${ivd} out of range`);
  if (startMap.length !== (ivd < indices.shape.length ? indices.shape[ivd] : 1)) bad(`index vectors need ${startMap.length} components`);
  checkAxes(prim, [...collapsed, ...batching], rank);
  checkAxes(prim, [...startMap, ...batching], rank);
  checkAxes(prim, indicesBatching, indices.shape.length);
  if (indicesBatching.includes(ivd) || batching.length !== indicesBatching.length || batching.some((d, i) => operand.shape[d] !== indices.shape[indicesBatching[i]!])) {
    bad("batching dims do not match");
  }
  const batch = indices.shape.filter((_, d) => d !== ivd);
  const window = operand.shape.map((_, d) => d).filter((d) => !collapsed.includes(d) && !batching.includes(d));
  return { batch, window };
}

/** Places `batch` sizes at the dims not in `at` and `offsets` at `at` (sorted). */
function interleave(at: Dims, offsets: Dims, batch: Dims, prim: string): number[] {
  const rank = at.length + batch.length;
  checkAxes(prim, at, rank);
  let b = 0;
  let o = 0;
  return Array.from({ length: rank }, (_, d) => (at.includes(d) ? offsets[o++]! : batch[b++]!));
}

const gatherDef: PrimDef<"gather"> = {
  arity: 2,
  infer: ([x, idx], p) => {
    const { batch, window } = indexRules("gather", x!, idx!, p.collapsedSliceDims, p.operandBatchingDims ?? [], p.startIndicesBatchingDims ?? [], p.startIndexMap, p.indexVectorDim);
    const sizes = p.sliceSizes;
    if (sizes.length !== x!.shape.length || sizes.some((s, d) => s < 0 || s > x!.shape[d]!) || window.length !== p.offsetDims.length ||
        [...p.collapsedSliceDims, ...(p.operandBatchingDims ?? [])].some((d) => sizes[d] !== 1)) {
      throw new ShapeError(`gather: slice sizes [${sizes.join(", ")}] and offset dims [${p.offsetDims.join(", ")}] do not fit ${fmt(x!)}`);
    }
    return [{ shape: interleave([...p.offsetDims].sort((a, b) => a - b), window.map((d) => sizes[d]!), batch, "gather"), dtype: x!.dtype }];
  },
  lower: (p) => ({
    op: "gather",
    attrs: [
      { name: "dimension_numbers", text: dimensionNumbers("gather", [["offset_dims", p.offsetDims], ["collapsed_slice_dims", p.collapsedSliceDims],
        ["operand_batching_dims", p.operandBatchingDims], ["start_indices_batching_dims", p.startIndicesBatchingDims], ["start_index_map", p.startIndexMap]], p.indexVectorDim) },
      { name: "indices_are_sorted", text: "false" },
      ints("slice_sizes", p.sliceSizes),
    ],
  }),
};

const scatterDef: PrimDef<"scatter"> = {
  arity: 3,
  infer: ([x, idx, upd], p) => {
    const { batch, window } = indexRules("scatter", x!, idx!, p.insertedWindowDims, p.inputBatchingDims ?? [], p.scatterIndicesBatchingDims ?? [], p.scatterDimsToOperandDims, p.indexVectorDim);
    if (upd!.dtype !== x!.dtype) throw new DTypeError(`scatter: updates ${fmt(upd!)} must have the dtype of ${fmt(x!)}`);
    const fits = window.length === p.updateWindowDims.length && upd!.shape.length === batch.length + window.length &&
      upd!.shape.every((s, d) => {
        const k = p.updateWindowDims.indexOf(d);
        return k >= 0 ? s <= x!.shape[window[k]!]! : s === batch[d - p.updateWindowDims.filter((w) => w < d).length];
      });
    if (!fits) throw new ShapeError(`scatter: updates ${fmt(upd!)} do not fit ${fmt(x!)} and indices ${fmt(idx!)}`);
    if ((p.kind === "add" || p.kind === "mul") && x!.dtype === "bool") throw new DTypeError(`scatter: '${p.kind}' is not defined for bool`);
    return [x!];
  },
  lower: (p) => ({
    op: "scatter",
    body: p.kind,
    attrs: [
      { name: "indices_are_sorted", text: "false" },
      { name: "scatter_dimension_numbers", text: dimensionNumbers("scatter", [["update_window_dims", p.updateWindowDims], ["inserted_window_dims", p.insertedWindowDims],
        ["input_batching_dims", p.inputBatchingDims], ["scatter_indices_batching_dims", p.scatterIndicesBatchingDims], ["scatter_dims_to_operand_dims", p.scatterDimsToOperandDims]], p.indexVectorDim) },
      { name: "unique_indices", text: "false" },
    ],
  }),
};

const sortDef: PrimDef<"sort"> = {
  arity: null,
  infer: (ins, { dim }) => {
    if (ins.length === 0) throw new ShapeError("sort: needs at least one operand");
    checkAxes("sort", [dim], ins[0]!.shape.length);
    if (ins.some((a) => !sameShape(a.shape, ins[0]!.shape))) throw new ShapeError(`sort: operands must share one shape, got ${ins.map(fmt).join(" and ")}`);
    return [...ins];
  },
  lower: ({ dim, descending }) => ({
    op: "sort",
    body: descending ? "sort_descending" : "sort_ascending",
    attrs: [int("dimension", dim), { name: "is_stable", text: "true" }],
  }),
};

const triangularSolveDef: PrimDef<"triangular_solve"> = {
  arity: 2,
  infer: ([a, b], { left }) => {
    check("triangular_solve", [a!], "float");
    if (b!.dtype !== a!.dtype) throw new DTypeError(`triangular_solve: ${fmt(a!)} and ${fmt(b!)} differ in dtype`);
    const rank = a!.shape.length;
    const m = a!.shape[rank - 1];
    const fits = rank >= 2 && b!.shape.length === rank && a!.shape[rank - 2] === m && b!.shape[left ? rank - 2 : rank - 1] === m &&
      a!.shape.slice(0, -2).every((d, i) => d === b!.shape[i]);
    if (!fits) throw new ShapeError(`triangular_solve: ${fmt(a!)} must be square matrices matching the ${left ? "rows" : "columns"} and batch of ${fmt(b!)}`);
    return [b!];
  },
  lower: ({ left, lower, unitDiagonal, transposeA }) => ({
    op: "triangular_solve",
    attrs: [
      { name: "left_side", text: String(left) },
      { name: "lower", text: String(lower) },
      { name: "transpose_a", text: `#stablehlo<transpose ${transposeA ? "TRANSPOSE" : "NO_TRANSPOSE"}>` },
      { name: "unit_diagonal", text: String(unitDiagonal) },
    ],
  }),
};

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
  erf: unary("chlo.erf", "float"), // CHLO, which every XLA-based plugin legalises; StableHLO has no erf
  lgamma: unary("chlo.lgamma", "float"), // log |Γ(x)|, CHLO as erf
  digamma: unary("chlo.digamma", "float"),
  polygamma: binary("chlo.polygamma", "float"), // inputs: the order n (whole, as a float), x
  zeta: binary("chlo.zeta", "float"), // Hurwitz ζ(x, q)
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
    infer: ([a, b], { lhsBatch, rhsBatch, lhsContract, rhsContract, dtype }) => {
      if (a!.dtype !== b!.dtype) throw new DTypeError(`dot_general: ${fmt(a!)} and ${fmt(b!)} differ in dtype`);
      const bad = (l: Dims, r: Dims) => l.length !== r.length || l.some((d, i) => a!.shape[d] !== b!.shape[r[i]!]);
      if (bad(lhsBatch, rhsBatch) || bad(lhsContract, rhsContract)) throw new ShapeError(`dot_general: ${fmt(a!)} and ${fmt(b!)} do not match on the given dimensions`);
      const free = (x: Aval, batch: Dims, contract: Dims) => x.shape.filter((_, i) => !batch.includes(i) && !contract.includes(i));
      const shape = [...lhsBatch.map((d) => a!.shape[d]!), ...free(a!, lhsBatch, lhsContract), ...free(b!, rhsBatch, rhsContract)];
      return [{ shape, dtype: dtype ?? a!.dtype }];
    },
    lower: ({ lhsBatch, rhsBatch, lhsContract, rhsContract, precision }) => ({
      op: "dot_general",
      attrs: [{ name: "dot_dimension_numbers", dot: [[...lhsBatch], [...rhsBatch], [...lhsContract], [...rhsContract]] }, ...precisionConfig(precision)],
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
  gather: gatherDef,
  scatter: scatterDef,
  sort: sortDef,
  triangular_solve: triangularSolveDef,
  ...windowPrims,
  ...controlPrims,
} satisfies { [P in Prim]: PrimDef<P> };
