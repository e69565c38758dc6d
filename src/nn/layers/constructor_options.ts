/**
 * @file A module constructor's arguments given PyTorch's way: positionally in PyTorch's order, and
 * by name in one trailing options object.
 */
import { ArgumentError } from "../../runtime/errors.js";
import { Tensor } from "../../tensor.js";
import { layerOptions } from "./options.js";

/**
 * A module constructor's (or forward's) arguments: PyTorch's positional parameters in order
 * (`positional`), then optionally one options object (not a tensor) with any of `known` by name;
 * unknown options are an error.
 */
export function constructorOptions<O extends object>(name: string, args: readonly unknown[], positional: readonly (keyof O & string)[], known: readonly (keyof O & string)[] = positional): Partial<O> {
  const list = [...args];
  const last = list.at(-1);
  const named = last !== null && typeof last === "object" && !Array.isArray(last) && !(last instanceof Tensor) ? (list.pop() as O) : undefined;
  if (list.length > positional.length) throw new ArgumentError(`${name}: takes at most ${positional.length} positional arguments (${positional.join(", ")}), got ${list.length}`);
  const given = Object.fromEntries(list.map((v, i) => [positional[i]!, v]).filter(([, v]) => v !== undefined));
  return layerOptions<O>(name, { ...given, ...named } as O, known);
}
