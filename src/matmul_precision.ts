/**
 * @file torch.setFloat32MatmulPrecision / getFloat32MatmulPrecision, and the StableHLO precision each
 * product (dot_general, convolution) is lowered with. XLA computes a float32 product as TF32 on
 * NVIDIA GPUs and as one bfloat16 pass on TPUs unless the program asks for more; PyTorch's default is
 * full float32. The setting is part of every executable's cache key (src/trace/cache.ts).
 */
import type { DType } from "./dtype.js";
import { ArgumentError } from "./runtime/errors.js";

export type Float32MatmulPrecision = "highest" | "high" | "medium";
/** StableHLO's operand precision: DEFAULT is one bfloat16 pass on TPUs (TF32 on GPUs), HIGH three, HIGHEST six (float32). */
export type Precision = "DEFAULT" | "HIGH" | "HIGHEST";

const stablehlo: Record<Float32MatmulPrecision, Precision> = { highest: "HIGHEST", high: "HIGH", medium: "DEFAULT" };
let current: Float32MatmulPrecision = "highest";

/**
 * How float32 matrix products and convolutions are computed on accelerators, as in PyTorch:
 * "highest" (default) in float32, "high" as three bfloat16 passes (TF32 on GPUs), "medium" as one
 * bfloat16 pass. Ops traced afterwards compile anew; the CPU plugin always computes in float32.
 */
export function setFloat32MatmulPrecision(precision: Float32MatmulPrecision): void {
  if (!Object.hasOwn(stablehlo, precision as string)) {
    throw new ArgumentError(`setFloat32MatmulPrecision: precision must be "highest", "high" or "medium", got ${JSON.stringify(precision)}`);
  }
  current = precision;
}

/** The current float32 matmul precision: "highest" (the default), "high" or "medium". */
export function getFloat32MatmulPrecision(): Float32MatmulPrecision {
  return current;
}

/**
 * The precision a product of `dtype` operands is lowered with: float32 follows the setting (or is
 * HIGHEST when `exact`, for products PyTorch does not compute as a matmul); float16 is always
 * HIGHEST, since libtpu otherwise rounds its operands to bfloat16. Other dtypes need none: bfloat16
 * is exact in one pass, and no plugin lowers float64 or integers through bfloat16.
 */
export function productPrecision(dtype: DType, exact = false): Precision | undefined {
  if (dtype === "float32") return exact ? "HIGHEST" : stablehlo[current];
  return dtype === "float16" ? "HIGHEST" : undefined;
}
