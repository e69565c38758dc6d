/**
 * @file The same call spelled the two ways PyTorch's calling convention allows: every argument
 * that can be positional given positionally (`x.sum(1, true)`), and every argument after the
 * leading tensors given by name in the options object (`x.sum({ dim: 1, keepdim: true })`). The
 * conformance suite runs each PyTorch fixture case in both spellings, read off the op's signature.
 */
import { isOptionsObject, tryBind } from "../../src/ops/signature/bind.js";
import type { Param, Signature } from "../../src/ops/signature/parse.js";

/** The arguments of the call by parameter name, as written (no defaults). */
function given(sig: Signature, args: readonly unknown[]): Map<string, unknown> {
  let n = args.length;
  const out = new Map<string, unknown>();
  const options = n > 0 && isOptionsObject(args[n - 1]) ? (args[--n] as Record<string, unknown>) : undefined;
  for (let i = 0; i < n; i++) {
    const p = sig.positional[i]!;
    if (p.variadic) {
      out.set(p.name, n - i === 1 && p.takesOneList && Array.isArray(args[i]) ? args[i] : args.slice(i, n));
      break;
    }
    out.set(p.name, args[i]);
  }
  for (const [k, v] of Object.entries(options ?? {})) out.set(k, v);
  return out;
}

const leadingTensor = (p: Param): boolean => !p.optional && p.type.ts === "Tensor";

function positionalStyle(sig: Signature, named: Map<string, unknown>): unknown[] {
  let last = sig.positional.length - 1;
  while (last >= 0 && !named.has(sig.positional[last]!.name)) last--;
  const out = sig.positional.slice(0, last + 1).map((p) => (named.has(p.name) ? named.get(p.name) : p.hasDefault ? p.defaultValue : null));
  const rest = sig.params.filter((p) => p.keywordOnly && named.has(p.name));
  if (rest.length > 0) out.push(Object.fromEntries(rest.map((p) => [p.name, named.get(p.name)])));
  return out;
}

function optionsStyle(sig: Signature, named: Map<string, unknown>): unknown[] {
  const out: unknown[] = [];
  let i = 0;
  for (; i < sig.positional.length && leadingTensor(sig.positional[i]!) && named.has(sig.positional[i]!.name); i++) out.push(named.get(sig.positional[i]!.name));
  const lead = new Set(sig.positional.slice(0, i).map((p) => p.name));
  const rest = [...named].filter(([k]) => !lead.has(k));
  if (rest.length > 0) out.push(Object.fromEntries(rest));
  return out;
}

/** The call's positional and options spellings (for the signature the call binds to), or [] if it binds to none. */
export function callStyles(signatures: readonly Signature[], args: readonly unknown[]): { style: "positional" | "options"; args: unknown[] }[] {
  const sig = signatures.find((s) => typeof tryBind(s, args) !== "string");
  if (sig === undefined) return [];
  const named = given(sig, args);
  return [
    { style: "positional", args: positionalStyle(sig, named) },
    { style: "options", args: optionsStyle(sig, named) },
  ];
}
