/**
 * @file An optimizer's options, declared once as a table: the constructor's signature (PyTorch's
 * order, camelCase, `new SGD(params, 0.1, { momentum: 0.9 })` or `new SGD(params, { lr: 0.1 })`),
 * the defaults, the signature a param group's options are bound with, and the value checks.
 */
import { ArgumentError } from "../runtime/errors.js";
import { bindOne, describeValue } from "../ops/signature/bind.js";
import { parseSignature, type Signature } from "../ops/signature/parse.js";

export type OptionValue = number | boolean | readonly number[];

export interface OptionSpec {
  type: "float" | "bool" | "float[]";
  default: OptionValue;
  /** Why `v` is not allowed, with the fix; undefined when it is. */
  check?: (v: never) => string | undefined;
  /** Only by name (after PyTorch's `*`). */
  keywordOnly?: boolean;
}

export type OptionTable = Readonly<Record<string, OptionSpec>>;

/** PyTorch options that have no counterpart here, and what to do instead. */
const notHere: Readonly<Record<string, string>> = {
  foreach: "every step already runs as one compiled executable per param group; leave it out",
  fused: "every step already runs as one compiled executable per param group; leave it out",
  capturable: "steps are compiled with their per-step scalars as inputs already; leave it out",
  differentiable: "optimizer steps are not differentiable here; leave it out",
};

export const nonNegative = (v: number): string | undefined => (v >= 0 ? undefined : `must be >= 0, got ${v}`);

export interface Options {
  readonly name: string;
  readonly table: OptionTable;
  readonly defaults: Readonly<Record<string, OptionValue>>;
  /** The constructor's signature (defaults shown). */
  readonly signature: Signature;
  /** The same parameters, all optional without defaults: a param group's own options. */
  readonly groupSignature: Signature;
  /** Checks across options (SGD's nesterov needs momentum); a message, or undefined. */
  readonly crossCheck: (o: Record<string, unknown>) => string | undefined;
}

export function defineOptions(name: string, table: OptionTable, crossCheck: Options["crossCheck"] = () => undefined): Options {
  const params = (withDefaults: boolean) => {
    const parts: string[] = [];
    let starred = false;
    for (const [key, spec] of Object.entries(table)) {
      if (spec.keywordOnly && !starred) {
        parts.push("*");
        starred = true;
      }
      const shown = withDefaults && spec.type !== "float[]" ? `${key}: ${spec.type} = ${String(spec.default)}` : `${key}?: ${spec.type}`;
      parts.push(shown);
    }
    return parts.join(", ");
  };
  const defaults = Object.fromEntries(Object.entries(table).map(([k, s]) => [k, s.default]));
  return {
    name,
    table,
    defaults,
    signature: parseSignature(`${name}(${params(true)}) -> void`),
    groupSignature: parseSignature(`${name}(${params(false)}) -> void`),
    crossCheck,
  };
}

function rejectNotHere(shownAs: string, options: Record<string, unknown> | undefined): void {
  for (const key of Object.keys(options ?? {})) {
    const why = notHere[key];
    if (why !== undefined) throw new ArgumentError(`${shownAs}: the option "${key}" is PyTorch's and not one here: ${why}`);
  }
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v) && (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null);

/** The constructor's options after `params`: positional values and a trailing options object, bound, defaulted and checked. */
export function bindConstructor(o: Options, args: readonly unknown[]): Record<string, OptionValue> {
  const shownAs = `optim.${o.name}`;
  const last = args.at(-1);
  rejectNotHere(shownAs, isPlainObject(last) ? last : undefined);
  const values = bindOne(o.signature, args, shownAs);
  const out: Record<string, OptionValue> = {};
  o.signature.params.forEach((p, i) => {
    out[p.name] = (values[i] ?? o.defaults[p.name]) as OptionValue;
  });
  checkOptions(o, out, shownAs);
  return out;
}

/** A param group's own options (everything but params and paramNames), bound and checked; the optimizer's defaults fill the rest. */
export function bindGroup(o: Options, group: Record<string, unknown>, defaults: Readonly<Record<string, OptionValue>>, shownAs: string): Record<string, OptionValue> {
  const own: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(group)) if (k !== "params" && k !== "paramNames") own[k] = v;
  rejectNotHere(shownAs, own);
  const values = bindOne(o.groupSignature, [own], shownAs);
  const out: Record<string, OptionValue> = {};
  o.groupSignature.params.forEach((p, i) => {
    const v = values[i] ?? defaults[p.name];
    out[p.name] = Array.isArray(v) ? [...(v as number[])] : (v as OptionValue);
  });
  checkOptions(o, out, shownAs);
  return out;
}

/** ArgumentError naming the option, its value and the fix, unless every option of `values` is allowed. */
export function checkOptions(o: Options, values: Record<string, unknown>, shownAs: string): void {
  for (const [key, spec] of Object.entries(o.table)) {
    const v = values[key];
    const typeOk =
      spec.type === "bool" ? typeof v === "boolean" : spec.type === "float" ? typeof v === "number" && !Number.isNaN(v) : Array.isArray(v) && v.every((x) => typeof x === "number");
    if (!typeOk) throw new ArgumentError(`${shownAs}: "${key}" must be ${spec.type === "bool" ? "a bool" : spec.type === "float" ? "a number" : "an array of numbers"}, got ${describeValue(v)}`);
    const problem = spec.check?.(v as never);
    if (problem !== undefined) throw new ArgumentError(`${shownAs}: "${key}" ${problem}`);
  }
  const problem = o.crossCheck(values);
  if (problem !== undefined) throw new ArgumentError(`${shownAs}: ${problem}`);
}
