/**
 * @file The one binder: turns a call (positional arguments in the signature's order, then at most
 * one trailing options object with camelCase names) into the named arguments an op's body
 * receives, with defaults filled in and every value checked against its type.
 */
import { ArgumentError, DisposedError } from "../../runtime/errors.js";
import { closestName } from "../../suggest.js";
import { Tensor } from "../../tensor.js";
import { rejected } from "./atoms.js";
import { type Param, parseSignature, type Signature } from "./parse.js";

export type Bound = Record<string, unknown>;

/** A plain object (`{ dim: 1 }`) is the options object; arrays, tensors and class instances are arguments. */
export function isOptionsObject(v: unknown): v is Record<string, unknown> {
  // a tensor first: the engine answers instanceof inline, but getPrototypeOf of one with a call into its runtime
  if (typeof v !== "object" || v === null || v instanceof Tensor || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** A value as error messages show it. */
export function describeValue(v: unknown): string {
  if (v === null) return "null";
  if (v === undefined) return "undefined";
  if (v instanceof Tensor) return v.isDisposed ? "a disposed Tensor" : `a ${v.dtype}[${v.shape.join(", ")}] Tensor`;
  if (Array.isArray(v)) return v.length <= 4 ? `[${v.map(describeValue).join(", ")}]` : `an array of ${v.length}`;
  if (typeof v === "string") return `string ${JSON.stringify(v)}`;
  if (typeof v === "bigint") return `bigint ${v}n`;
  if (typeof v === "object") return (v as object).constructor?.name ?? "an object";
  return `${typeof v} ${String(v)}`;
}

const camel = (s: string): string => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

function unknownOption(sig: Signature, key: string): string {
  const names = sig.params.map((p) => p.name);
  const asCamel = camel(key);
  let hint = "";
  if (asCamel !== key && names.includes(asCamel)) {
    hint = `; did you mean "${asCamel}"? (options are camelCase)`;
  } else {
    const best = closestName(key, names);
    if (best !== undefined) hint = `; did you mean "${best}"?`;
    else hint = names.length ? `; the options are ${names.map((n) => `"${n}"`).join(", ")}` : "; it takes no options";
  }
  return `got an unknown option "${key}"${hint}`;
}

/** A variadic parameter's list, each item checked. */
function acceptList(p: Param, v: unknown): unknown {
  if (!Array.isArray(v)) return rejected;
  let out: unknown[] | undefined;
  for (let i = 0; i < v.length; i++) {
    const x = p.type.accept(v[i]);
    if (x === rejected) return rejected;
    if (x !== v[i]) (out ??= v.slice())[i] = x;
  }
  return out ?? v;
}

/** "a bool", "an int or int[]", "a list of int". */
const typeName = (p: Param): string => {
  const text = p.variadic ? `list of ${p.type.text}` : p.type.text;
  return `${/^[aeiou]/.test(text) ? "an" : "a"} ${text}`;
};

/** The arguments in the signature's order, defaults filled in and checked, or why the call does not fit. */
function bindValues(sig: Signature, args: readonly unknown[]): unknown[] | string {
  let n = args.length;
  let options: Record<string, unknown> | undefined;
  if (n > 0 && isOptionsObject(args[n - 1])) options = args[--n] as Record<string, unknown>;
  const params = sig.params;
  const values = new Array<unknown>(params.length);
  const positional = sig.positional;
  for (let i = 0; i < n; i++) {
    const p = positional[i];
    if (p === undefined) {
      const takes = positional.length === 0 ? "no positional arguments" : `at most ${positional.length} positional argument${positional.length === 1 ? "" : "s"}`;
      return `takes ${takes}, got ${n}${params.some((q) => q.keywordOnly) ? " (the parameters after * go in the options object)" : ""}`;
    }
    if (p.variadic) {
      values[i] = n - i === 1 && p.takesOneList && Array.isArray(args[i]) ? args[i] : args.slice(i, n);
      break;
    }
    values[i] = args[i];
  }
  if (options !== undefined) {
    for (const key in options) {
      const i = sig.indexOf.get(key);
      if (i === undefined) return unknownOption(sig, key);
      if (values[i] !== undefined) return `got "${key}" both as an argument and as an option`;
      values[i] = options[key];
    }
  }
  for (let i = 0; i < params.length; i++) {
    const p = params[i]!;
    const v = values[i];
    if (v === undefined || (v === null && !p.type.acceptsNull)) {
      if (!p.optional) return v === null ? `"${p.name}" must be ${typeName(p)}, got null` : `missing the required argument "${p.name}"`;
      values[i] = p.defaultValue;
      continue;
    }
    let x = p.variadic ? acceptList(p, v) : p.type.accept(v);
    // One array for a variadic parameter is either the whole list or one item of it (broadcastShapes([2, 3])).
    if (x === rejected && p.takesOneList && Array.isArray(v) && v === args[i]) x = acceptList(p, [v]);
    if (x === rejected) {
      // A bigint an int-typed parameter refuses is one a JS number cannot hold exactly.
      const bigintHint = (Array.isArray(v) ? v : [v]).some((x) => typeof x === "bigint") && /\bint\b/.test(typeName(p)) ? " (an int must be a safe integer, within ±(2^53 − 1))" : "";
      const hint = Array.isArray(v) && p.type.holdsTensor && !p.variadic && p.type.accept([]) === rejected ? " (wrap it with torch.tensor)" : bigintHint;
      return `"${p.name}" must be ${typeName(p)}, got ${describeValue(v)}${hint}`;
    }
    values[i] = x;
  }
  return values;
}

/** The named arguments, or why the call does not fit the signature. */
export function tryBind(sig: Signature, args: readonly unknown[]): Bound | string {
  const values = bindValues(sig, args);
  return typeof values === "string" ? values : sig.build(values);
}

/** Throws DisposedError if an argument is (or holds) a disposed tensor. */
function checkLive(sig: Signature, values: readonly unknown[]): void {
  for (const i of sig.tensorParams) {
    const v = values[i];
    if (v instanceof Tensor) {
      if (v.isDisposed) throw disposed(sig, sig.params[i]!, v);
    } else if (Array.isArray(v)) {
      for (const t of v) if (t instanceof Tensor && t.isDisposed) throw disposed(sig, sig.params[i]!, t);
    }
  }
}

function disposed(sig: Signature, p: Param, t: Tensor): DisposedError {
  return new DisposedError(`${sig.name}: "${p.name}" has been disposed (${t.dtype}[${t.shape.join(", ")}] on ${t.device})`);
}

/** Binds a call to the op's one signature (the values in parameter order); ArgumentError showing the signature if it does not fit. */
export function bindOne(sig: Signature, args: readonly unknown[], shownAs: string): unknown[] {
  const values = bindValues(sig, args);
  if (typeof values === "string") throw new ArgumentError(`${shownAs}${sig.display.slice(sig.name.length)}: ${values}`);
  checkLive(sig, values);
  return values;
}

/**
 * Binds a call of a function outside the op table (an lr scheduler's constructor, an nn.init function)
 * against its signature text: the named arguments, or an ArgumentError that shows `namespace` + the signature.
 */
export function bindNamed(signature: string, args: readonly unknown[], namespace: string): Record<string, unknown> {
  let sig = parsed.get(signature);
  if (sig === undefined) parsed.set(signature, (sig = parseSignature(signature)));
  return sig.build(bindOne(sig, args, `${namespace}${sig.name}`));
}
const parsed = new Map<string, Signature>();

/** Binds a call to one of `sigs` (tried in order, as PyTorch's overloads are); ArgumentError showing the signatures if none fits. */
export function bindCall(sigs: readonly Signature[], args: readonly unknown[], shownAs: string): { index: number; values: unknown[] } {
  if (sigs.length === 1) return { index: 0, values: bindOne(sigs[0]!, args, shownAs) };
  const reasons: string[] = [];
  for (let index = 0; index < sigs.length; index++) {
    const sig = sigs[index]!;
    const values = bindValues(sig, args);
    if (typeof values !== "string") {
      checkLive(sig, values);
      return { index, values };
    }
    reasons.push(values);
  }
  // Overloads that differ only in their types are shown with them.
  const shown = sigs.map((s) => s.display);
  const typed = new Set(shown).size < shown.length;
  const lines = sigs.map((s, i) => `  ${shownAs}${(typed ? s.typedDisplay : s.display).slice(s.name.length)}: ${reasons[i]}`);
  throw new ArgumentError(`${shownAs}: no signature fits the arguments (${args.map(describeValue).join(", ")}); expected one of:\n${lines.join("\n")}`);
}
