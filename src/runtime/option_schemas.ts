/**
 * @file zod schemas for the options of the runtime functions (torch.runtime.compile, plugins, …); ops
 * take theirs through their signature (src/ops/signature/).
 */
import { z } from "zod";
import { ArgumentError } from "./errors.js";

/** A device as options accept it: "cpu:1" or { type: "cpu", index: 1 }. */
export const deviceOptionSchema = z.union([z.string(), z.object({ type: z.string(), index: z.number().int().nonnegative() })]);

/** Checks an options object with zod; a failure is an ArgumentError that names the function. */
export function parseOptions<S extends z.ZodType>(schema: S, value: unknown, fn: string): z.infer<S> {
  const parsed = schema.safeParse(value ?? {});
  if (!parsed.success) throw new ArgumentError(`${fn}: bad options: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}
