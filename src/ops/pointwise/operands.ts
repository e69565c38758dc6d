/**
 * @file What the pointwise ops share: operands promoted and broadcast together, constants shaped
 * like a tracer, and the compute dtype of float16/bfloat16 math.
 */
import { type DType, defaultFloatDType, dtypes, isFloating } from "../../dtype.js";
import { bind1, type Tracer } from "../../trace/tracer.js";
import { broadcastShapes } from "../dims.js";
import * as e from "../emit.js";
import { isScalar, lift, type Operand } from "../unit.js";

export type T = Tracer;

export const shapeOf = (v: Operand): readonly number[] => (isScalar(v) ? [] : v.shape);

/** Both operands promoted to `dtype` and broadcast to their common shape. */
export function prepare(op: string, a: Operand, b: Operand, dtype: DType): [T, T] {
  const shape = broadcastShapes(op, shapeOf(a), shapeOf(b));
  return [lift(a, dtype, shape), lift(b, dtype, shape)];
}

/** The constant `v` in x's dtype and shape. */
export const c = (x: T, v: number | bigint | boolean): T => e.full(v, x.dtype, x.shape);

export const kind = (d: DType) => dtypes[d].kind;

/** A float op's result dtype: a float keeps its own, integers and bool give float32 (PyTorch's default). */
export const floatDType = (d: DType): DType => (isFloating(d) ? d : defaultFloatDType);

/** float16/bfloat16 compute in float32 (as PyTorch's CPU kernels do), then round back. */
export const computeDType = (d: DType): DType => (d === "float16" || d === "bfloat16" ? "float32" : d);

export const isNanT = (x: T): T => e.compare(x, x, "NE");

/** The params of a primitive that takes none. */
export const none = {} as Record<string, never>;

const intOfWidth: Record<number, DType> = { 2: "int16", 4: "int32", 8: "int64" };

/** A float tracer's bits as the signed integer of its width (no gradient passes through). */
export const bitsOf = (x: T): T => bind1("bitcast_convert", [x], { dtype: intOfWidth[dtypes[x.dtype].itemSize]! });

/** The float of `dtype` whose bits these are (the inverse of bitsOf). */
export const fromBits = (bits: T, dtype: DType): T => bind1("bitcast_convert", [bits], { dtype });
