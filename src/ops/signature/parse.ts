/**
 * @file Signatures in PyTorch's notation, parsed once when an op is defined:
 *
 *   sum(input: Tensor, dim?: int | int[], keepdim: bool = false, *, dtype?: dtype) -> Tensor
 *
 * An op of a namespace other than torch's own has its name qualified (`linalg.norm(…)`, which is
 * torch.linalg.norm), so that it may share its bare name with another op (torch.norm); a torch.*
 * form whose signature differs from torch.nn.functional's op of the same name is qualified with
 * `torch.` (`torch.dropout(input, p, train)` beside F's `dropout(input, p = 0.5, training = true, …)`).
 * Parameters before `*` may be given positionally (in this order) or by name in the trailing
 * options object; those after `*` by name only. `name?` may be omitted (the body gets undefined;
 * null, PyTorch's None, means the same), `= value` gives a default (true, false, null, a number,
 * inf, -inf, nan or a "string"), `...name: T` takes the rest of the positional arguments, or one
 * list of them (`x.reshape(2, 3)` or `x.reshape([2, 3])`). Types are unions of the names in atoms.ts.
 */
import { type Atom, atoms, isAtomName, rejected } from "./atoms.js";

export interface TypeSpec {
  readonly text: string;
  readonly ts: string;
  /** The value as the body receives it, or `rejected`. */
  accept(v: unknown): unknown;
  readonly acceptsNull: boolean;
  /** Values may be (or contain) tensors. */
  readonly holdsTensor: boolean;
}

export interface Param {
  readonly name: string;
  readonly type: TypeSpec;
  /** May be left out (`name?`, or it has a default). */
  readonly optional: boolean;
  readonly hasDefault: boolean;
  readonly defaultValue: unknown;
  readonly defaultText: string | undefined;
  readonly keywordOnly: boolean;
  readonly variadic: boolean;
  /**
   * A variadic parameter may also be given one list of its items (`x.reshape([2, 3])`), as
   * PyTorch allows for int lists and tensor lists; not for index items, where `t.index([0, 1])`
   * would silently mean `t[0, 1]` instead of PyTorch's `t[[0, 1]]`.
   */
  readonly takesOneList: boolean;
}

export interface Signature {
  /** The name as written: `sum`, or `linalg.norm` for an op of a namespace. */
  readonly name: string;
  readonly text: string;
  readonly params: readonly Param[];
  /** The parameters that may be given positionally, in order. */
  readonly positional: readonly Param[];
  readonly byName: ReadonlyMap<string, Param>;
  /** Each parameter's position in `params`. */
  readonly indexOf: ReadonlyMap<string, number>;
  /** The named arguments from the values in parameter order (an object of one fixed shape per signature). */
  readonly build: (values: readonly unknown[]) => Record<string, unknown>;
  /** The result type(s): one type, or several for `-> (Tensor, Tensor)`. */
  readonly returns: readonly TypeSpec[];
  readonly returnsTuple: boolean;
  /** How errors and docs show it: `sum(input, dim?, keepdim = false, *, dtype?)`. */
  readonly display: string;
  /** The same with types: `sum(input: Tensor, dim?: int or int[], …)`. */
  readonly typedDisplay: string;
  /** The positions of the parameters whose values may be (or hold) tensors. */
  readonly tensorParams: readonly number[];
}

export class SignatureSyntaxError extends Error {
  override name = "SignatureSyntaxError";
}

const identifier = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** An op's name without its namespace: `linalg.norm` → `norm`. */
export const bareName = (name: string): string => name.slice(name.lastIndexOf(".") + 1);

/** An op's namespace (`linalg` for `linalg.norm`), or undefined for a torch.* op. */
export const namespaceOf = (name: string): string | undefined => (name.includes(".") ? name.slice(0, name.lastIndexOf(".")) : undefined);

function atomOf(text: string, sig: string): Atom {
  if (text.endsWith("[]")) {
    const element = atomOf(text.slice(0, -2), sig);
    return {
      ts: `readonly ${element.ts.includes(" ") ? `(${element.ts})` : element.ts}[]`,
      describe: `${element.describe}[]`,
      holdsTensor: element.holdsTensor === true,
      accept: (v) => {
        if (!Array.isArray(v)) return rejected;
        let out: unknown[] | undefined;
        for (let i = 0; i < v.length; i++) {
          const x = element.accept(v[i]);
          if (x === rejected) return rejected;
          if (x !== v[i]) (out ??= v.slice())[i] = x;
        }
        return out ?? v;
      },
    };
  }
  const literal = /^"([^"]*)"$/.exec(text);
  if (literal) {
    const word = literal[1]!;
    return { ts: JSON.stringify(word), describe: JSON.stringify(word), accept: (v) => (v === word ? v : rejected) };
  }
  if (!isAtomName(text)) throw new SignatureSyntaxError(`${sig}: unknown type "${text}" (known: ${Object.keys(atoms).join(", ")}, X[], "word")`);
  return atoms[text];
}

export function parseType(text: string, sig = text): TypeSpec {
  const alternatives = text.split("|").map((t) => atomOf(t.trim(), sig));
  const [first, second] = alternatives;
  const accept =
    alternatives.length === 1
      ? first!.accept
      : alternatives.length === 2 // the common case (Tensor | Scalar, int | int[]), without a loop
        ? (v: unknown): unknown => {
            const x = first!.accept(v);
            return x !== rejected ? x : second!.accept(v);
          }
        : (v: unknown): unknown => {
            for (const a of alternatives) {
              const x = a.accept(v);
              if (x !== rejected) return x;
            }
            return rejected;
          };
  return {
    text: alternatives.map((a) => a.describe).join(" or "),
    ts: alternatives.map((a) => a.ts).join(" | "),
    accept,
    acceptsNull: alternatives.some((a) => a === atoms.None),
    holdsTensor: alternatives.some((a) => a.holdsTensor === true),
  };
}

function parseDefault(text: string, sig: string): unknown {
  switch (text) {
    case "true":
      return true;
    case "false":
      return false;
    case "null":
      return null;
    case "inf":
      return Infinity;
    case "-inf":
      return -Infinity;
    case "nan":
      return NaN;
  }
  if (/^"[^"]*"$/.test(text)) return text.slice(1, -1);
  const n = Number(text);
  if (text.trim() !== "" && !Number.isNaN(n)) return n;
  throw new SignatureSyntaxError(`${sig}: cannot read the default value ${text}`);
}

function parseParam(text: string, keywordOnly: boolean, sig: string): Param {
  const m = /^(\.\.\.)?([A-Za-z_][A-Za-z0-9_]*)(\?)?: ([^=]+?)(?: = (.+))?$/.exec(text);
  if (!m) throw new SignatureSyntaxError(`${sig}: cannot read the parameter "${text}" (expected name: type, name?: type, name: type = default or ...name: type)`);
  const [, dots, name, question, typeText, defaultText] = m;
  const type = parseType(typeText!, sig);
  const hasDefault = defaultText !== undefined;
  const defaultValue = hasDefault ? parseDefault(defaultText, sig) : undefined;
  if (hasDefault && question) throw new SignatureSyntaxError(`${sig}: "${name}" has both ? and a default`);
  if (hasDefault && !(defaultValue === null ? type.acceptsNull : type.accept(defaultValue) !== rejected)) {
    throw new SignatureSyntaxError(`${sig}: the default ${defaultText} of "${name}" does not have the type ${type.text}`);
  }
  return {
    name: name!,
    type,
    optional: question !== undefined || hasDefault,
    hasDefault,
    defaultValue,
    defaultText,
    keywordOnly,
    variadic: dots !== undefined,
    takesOneList: dots !== undefined && typeText!.split("|").every((t) => /^(int|float|Tensor)(\[\])?$/.test(t.trim())),
  };
}

function displayParam(p: Param): string {
  return `${p.variadic ? "..." : ""}${p.name}${p.hasDefault ? ` = ${p.defaultText}` : p.optional ? "?" : ""}`;
}

/** `name(a, b?, *, c = 1)`: the compact form errors and docs show (with `typed`, each parameter's type too). */
export function displayOf(name: string, params: readonly Param[], typed = false): string {
  const parts: string[] = [];
  let starred = false;
  for (const p of params) {
    if (p.keywordOnly && !starred) {
      parts.push("*");
      starred = true;
    }
    parts.push(typed ? `${displayParam(p).replace(/^([.\w]+)(\?)?/, `$1$2: ${p.type.text}`)}` : displayParam(p));
  }
  return `${name}(${parts.join(", ")})`;
}

/**
 * `(v) => ({ input: v[0], dim: v[1] })` for these names (name i from v[from[i]]): every call of an
 * op then builds an object of one shape, which the engine reads fastest (the binder's hot path).
 */
export function objectBuilder(names: readonly string[], from: readonly number[] = names.map((_, i) => i)): (values: readonly unknown[]) => Record<string, unknown> {
  if (!names.every((name) => identifier.test(name))) throw new SignatureSyntaxError(`bad parameter names ${names.join(", ")}`);
  const fields = names.map((name, i) => `${name}: v[${from[i]}]`).join(", ");
  return new Function("v", `return { ${fields} };`) as (values: readonly unknown[]) => Record<string, unknown>;
}

export function makeSignature(name: string, text: string, params: readonly Param[], returns: readonly TypeSpec[], returnsTuple: boolean): Signature {
  return {
    name,
    text,
    params,
    positional: params.filter((p) => !p.keywordOnly),
    byName: new Map(params.map((p) => [p.name, p])),
    indexOf: new Map(params.map((p, i) => [p.name, i])),
    build: objectBuilder(params.map((p) => p.name)),
    returns,
    returnsTuple,
    display: displayOf(name, params),
    typedDisplay: displayOf(name, params, true),
    tensorParams: params.flatMap((p, i) => (p.type.holdsTensor ? [i] : [])),
  };
}

export function parseSignature(text: string): Signature {
  const m = /^((?:[A-Za-z_][A-Za-z0-9_]*\.)*[A-Za-z_][A-Za-z0-9_]*)\((.*)\) -> (.+)$/.exec(text);
  if (!m) throw new SignatureSyntaxError(`cannot read the signature "${text}" (expected name(params) -> type or namespace.name(params) -> type)`);
  const [, name, paramText, returnText] = m;
  const params: Param[] = [];
  let keywordOnly = false;
  for (const part of paramText!.trim() === "" ? [] : paramText!.split(",").map((p) => p.trim())) {
    if (part === "*") {
      if (keywordOnly) throw new SignatureSyntaxError(`${text}: more than one *`);
      keywordOnly = true;
      continue;
    }
    const p = parseParam(part, keywordOnly, text);
    if (params.some((q) => q.name === p.name)) throw new SignatureSyntaxError(`${text}: "${p.name}" appears twice`);
    const last = params.at(-1);
    if (last?.variadic && !p.keywordOnly) throw new SignatureSyntaxError(`${text}: only keyword-only parameters may follow ...${last.name}`);
    if (!p.keywordOnly && !p.optional && last !== undefined && !last.keywordOnly && last.optional) {
      throw new SignatureSyntaxError(`${text}: the required "${p.name}" follows an optional parameter`);
    }
    if (!identifier.test(p.name)) throw new SignatureSyntaxError(`${text}: bad name "${p.name}"`);
    params.push(p);
  }
  const tuple = /^\((.*)\)$/.exec(returnText!);
  const returns = (tuple ? tuple[1]!.split(",") : [returnText!]).map((t) => parseType(t.trim(), text));
  return makeSignature(name!, text, params, returns, tuple !== null);
}
