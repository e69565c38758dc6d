/**
 * @file The options of a layer's constructor: unknown keys are an error that lists the known ones,
 * and `device`/`dtype` become the factory options of its parameters.
 */
import type { DType } from "../../dtype.js";
import { ArgumentError } from "../../runtime/errors.js";

/** Where and how a layer's parameters are made. */
export interface FactoryOptions {
  device?: string;
  dtype?: DType;
}

/** `options` (an object or undefined) after checking its keys against `known`. */
export function layerOptions<T extends object>(layer: string, options: T | undefined, known: readonly (keyof T & string)[]): Partial<T> {
  if (options === undefined) return {};
  if (options === null || typeof options !== "object" || Array.isArray(options)) throw new ArgumentError(`${layer}: options must be an object with ${known.join(", ")}`);
  for (const key of Object.keys(options)) {
    if (!known.includes(key as keyof T & string)) throw new ArgumentError(`${layer}: got an unknown option "${key}"; the options are ${known.join(", ")}`);
  }
  return options;
}

/** The factory part of a layer's options. */
export const factory = (o: FactoryOptions): FactoryOptions => ({ ...(o.device === undefined ? {} : { device: o.device }), ...(o.dtype === undefined ? {} : { dtype: o.dtype }) });
