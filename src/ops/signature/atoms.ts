/**
 * @file The types a signature may name (`int`, `Tensor`, `dtype`, `"mean"`, …): for each, how the
 * binder checks a value at run time (and normalizes it: a bigint `int` becomes a number), and how
 * the generated TypeScript declarations spell it. Types are written in signatures as unions of
 * these (`int | int[]`); `X[]` is a list of X, `"word"` the string itself.
 */
import { isDType } from "../../dtype.js";
import { Generator } from "../../random/generator.js";
import { Tensor } from "../../tensor.js";
import { Slice } from "../slice.js";

/** What `accept` returns for a value that is not of the type. */
export const rejected: unique symbol = Symbol("rejected");

export interface Atom {
  /** The TypeScript spelling in generated declarations. */
  readonly ts: string;
  /** How error messages name the type. */
  readonly describe: string;
  /** The value as the op's body receives it, or `rejected`. */
  accept(v: unknown): unknown;
  /** Values may be (or contain) tensors, which the binder checks are not disposed. */
  readonly holdsTensor?: boolean;
}

const safeNumber = (v: bigint): number | typeof rejected => (v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : rejected);

const isTensor = (v: unknown): boolean => v instanceof Tensor;

/** Plain objects such as `{ type: "tpu", index: 0 }`; the binder reads a trailing plain object as options, so only keyword-only parameters may accept them. */
const isDeviceObject = (v: unknown): boolean =>
  typeof v === "object" && v !== null && typeof (v as { type?: unknown }).type === "string" && Number.isInteger((v as { index?: unknown }).index);

export const atoms = {
  Tensor: { ts: "Tensor", describe: "Tensor", holdsTensor: true, accept: (v: unknown) => (isTensor(v) ? v : rejected) },
  int: {
    ts: "number",
    describe: "int",
    accept: (v: unknown) => (typeof v === "number" ? (Number.isInteger(v) ? v : rejected) : typeof v === "bigint" ? safeNumber(v) : rejected),
  },
  float: { ts: "number", describe: "float", accept: (v: unknown) => (typeof v === "number" ? v : typeof v === "bigint" ? Number(v) : rejected) },
  bool: { ts: "boolean", describe: "bool", accept: (v: unknown) => (typeof v === "boolean" ? v : rejected) },
  Scalar: {
    ts: "ScalarArg",
    describe: "number, bigint or boolean",
    accept: (v: unknown) => (typeof v === "number" || typeof v === "bigint" || typeof v === "boolean" ? v : rejected),
  },
  str: { ts: "string", describe: "string", accept: (v: unknown) => (typeof v === "string" ? v : rejected) },
  dtype: { ts: "DType", describe: "dtype", accept: (v: unknown) => (typeof v === "string" && isDType(v) ? v : rejected) },
  device: { ts: "DeviceLike", describe: "device", accept: (v: unknown) => (typeof v === "string" || isDeviceObject(v) ? v : rejected) },
  Generator: { ts: "Generator", describe: "torch.Generator", accept: (v: unknown) => (v instanceof Generator ? v : rejected) },
  None: { ts: "null", describe: "null", accept: (v: unknown) => (v === null ? v : rejected) },
  /** The bool `true` or `false` itself: a flag that picks an overload with another result (max_pool2d's return_indices). */
  true: { ts: "true", describe: "true", accept: (v: unknown) => (v === true ? v : rejected) },
  false: { ts: "false", describe: "false", accept: (v: unknown) => (v === false ? v : rejected) },
  /** An item of `t.index(...)`: an int, a slice (torch.slice or "1:4"), null (new axis), "..." or an index tensor. */
  IndexItem: {
    ts: "IndexItem",
    describe: "index (int, slice, string, null or Tensor)",
    holdsTensor: true,
    accept: (v: unknown) =>
      typeof v === "number" || typeof v === "string" || v === null || v instanceof Slice || isTensor(v) ? v : typeof v === "bigint" ? safeNumber(v) : rejected,
  },
  /** An element of PyTorch's `Tensor?[]` (index_put's indices): a Tensor, or null (the whole dim). */
  OptionalTensor: { ts: "Tensor | null", describe: "(Tensor or null)", holdsTensor: true, accept: (v: unknown) => (v === null || isTensor(v) ? v : rejected) },
  /** What torch.tensor takes: numbers, booleans, bigints, nested arrays of them, or a TypedArray. */
  TensorData: {
    ts: "TensorData",
    describe: "number, boolean, bigint, nested array or TypedArray",
    accept: (v: unknown) =>
      typeof v === "number" || typeof v === "boolean" || typeof v === "bigint" || Array.isArray(v) || ArrayBuffer.isView(v) ? v : rejected,
  },
  // Result types (only after `->`).
  ValuesIndices: { ts: "ValuesIndices", describe: "{ values, indices }", accept: () => rejected },
  MantissaExponent: { ts: "MantissaExponent", describe: "{ mantissa, exponent }", accept: () => rejected },
  MinMax: { ts: "MinMax", describe: "{ min, max }", accept: () => rejected },
  Histogram: { ts: "Histogram", describe: "{ hist, binEdges }", accept: () => rejected },
  LInfo: { ts: "LInfo", describe: "{ L, info }", accept: () => rejected },
  LUPivots: { ts: "LUPivots", describe: "{ LU, pivots }", accept: () => rejected },
  PLU: { ts: "PLU", describe: "{ P, L, U }", accept: () => rejected },
  SignLogabsdet: { ts: "SignLogabsdet", describe: "{ sign, logabsdet }", accept: () => rejected },
  LUPivotsInfo: { ts: "LUPivotsInfo", describe: "{ LU, pivots, info }", accept: () => rejected },
  InverseInfo: { ts: "InverseInfo", describe: "{ inverse, info }", accept: () => rejected },
  ResultInfo: { ts: "ResultInfo", describe: "{ result, info }", accept: () => rejected },
  SolutionCoefficient: { ts: "SolutionCoefficient", describe: "{ solution, clonedCoefficient }", accept: () => rejected },
  /** A distance between two tensors (tripletMarginWithDistanceLoss's distanceFunction). */
  DistanceFunction: { ts: "((x1: Tensor, x2: Tensor) => Tensor)", describe: "function (x1, x2) => Tensor", accept: (v: unknown) => (typeof v === "function" ? v : rejected) },
  Slice: { ts: "Slice", describe: "torch.slice", accept: (v: unknown) => (v instanceof Slice ? v : rejected) },
  void: { ts: "void", describe: "nothing", accept: () => rejected },
} as const satisfies Record<string, Atom>;

export type AtomName = keyof typeof atoms;

/** Where the generated declarations import each non-builtin TypeScript type from (relative to src/ops/). */
export const atomImports: Readonly<Record<string, string>> = {
  Tensor: "../tensor.js",
  ScalarArg: "./types.js",
  DType: "../dtype.js",
  DeviceLike: "../device.js",
  Generator: "../random/generator.js",
  IndexItem: "./slice.js",
  Slice: "./slice.js",
  TensorData: "../creation.js",
  ValuesIndices: "./types.js",
  MantissaExponent: "./types.js",
  MinMax: "./types.js",
  Histogram: "./types.js",
  LInfo: "./types.js",
  LUPivots: "./types.js",
  PLU: "./types.js",
  SignLogabsdet: "./types.js",
  LUPivotsInfo: "./types.js",
  InverseInfo: "./types.js",
  ResultInfo: "./types.js",
  SolutionCoefficient: "./types.js",
};

export function isAtomName(name: string): name is AtomName {
  return Object.hasOwn(atoms, name);
}
