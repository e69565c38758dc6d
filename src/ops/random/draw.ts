/**
 * @file What every random op shares (here and in nn's dropout and attention): draw() runs one unit
 * with the next key of a generator as its first input, and the checks of sizes and float dtypes.
 */
import { fromHost } from "../../creation.js";
import { type DType, defaultFloatDType, isFloating } from "../../dtype.js";
import type { DeviceLike } from "../../device.js";
import { defaultGenerator, type Generator } from "../../random/generator.js";
import { resolveDevice } from "../../runtime/clients.js";
import { DTypeError, ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import { dispatch1 } from "../../trace/eager.js";
import { tracing } from "../../trace/inline.js";
import type { Tracer } from "../../trace/tracer.js";

/**
 * Runs one random unit: the next key of the generator (the default one unless given) becomes a
 * uint32[2] input (so the executable is reused for every draw), followed by `inputs`. Inside
 * torch.compile's trace the key is an input that each call of the compiled function draws anew.
 */
export function draw(op: string, statics: string, device: string, generator: Generator | undefined, inputs: readonly Tensor[], body: (key: Tracer, xs: Tracer[]) => Tracer): Tensor {
  const gen = generator ?? defaultGenerator;
  const trace = tracing();
  let key: Tensor;
  if (trace === undefined) key = fromHost(Uint32Array.from(gen.nextKey()), "uint32", [2], device);
  else {
    // the state before each read, for undoing the read of an abandoned trace
    let before = gen.getState();
    const read = (): Uint32Array => {
      before = gen.getState();
      return Uint32Array.from(gen.nextKey());
    };
    key = trace.hostInput(read, () => gen.setState(before), "uint32", [2], device);
  }
  try {
    return dispatch1(op, statics, [key, ...inputs], ([k, ...xs]) => body(k!, xs), device);
  } finally {
    key.dispose();
  }
}

/** The device's canonical name (the default device when none is given). */
export const deviceName = (device: DeviceLike | undefined): string => resolveDevice(device).name;

/** Sizes must be non-negative (the binder has checked they are integers). */
export function checkShape(op: string, size: readonly number[]): readonly number[] {
  if (size.some((d) => d < 0)) throw new ShapeError(`${op}: sizes must be non-negative integers, got [${size.join(", ")}]`);
  return size;
}

/** `dtype` (the default float dtype when none is given), which must be floating. */
export function floatDType(op: string, dtype: DType | undefined): DType {
  const d = dtype ?? defaultFloatDType;
  if (!isFloating(d)) throw new DTypeError(`${op}: "${op}" is not implemented for ${d}; random floats need a floating dtype (float32, float64, float16, bfloat16)`);
  return d;
}
