/**
 * @file Writes src/ops/op_types.generated.ts from the signature table: each op's call forms
 * (OpTypes), what each signature's body receives (OpBodies) and the Tensor methods
 * (TensorMethods), with the op's doc on every form. OpTypes is keyed by the signature's name,
 * namespace included (`sum`, `"linalg.norm"`), as op() looks its type up. Run by
 * test/generated.test.ts (`npm run generate` rewrites the file).
 */
import { atomImports } from "../../src/ops/signature/atoms.js";
import type { OpEntry } from "../../src/ops/signature/op.js";
import type { Param, Signature } from "../../src/ops/signature/parse.js";

const key = (name: string): string => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name));
/** A positional parameter's name in a declaration: a reserved word (gaussianNllLoss's `var`) gets a trailing underscore. */
const reserved = new Set(["var", "let", "const", "function", "class", "default", "delete", "in", "new", "this", "typeof", "void", "with", "yield", "enum"]);
const paramName = (name: string): string => (reserved.has(name) ? `${name}_` : name);

/** The type of a parameter as an argument: optional ones accept null (PyTorch's None). */
function argType(p: Param): string {
  const base = p.variadic ? `readonly ${wrap(p.type.ts)}[]` : p.type.ts;
  return p.optional && !p.type.acceptsNull && !p.hasDefault ? `${base} | null` : base;
}

const wrap = (ts: string): string => (ts.includes(" ") ? `(${ts})` : ts);

function optionsType(params: readonly Param[]): string {
  return `{ ${params.map((p) => `${key(p.name)}${p.optional ? "?" : ""}: ${argType(p)}`).join("; ")} }`;
}

/** Results are mutable arrays, as today's ops return them. */
export function returnType(sig: Signature): string {
  const types = sig.returns.map((r) => r.ts.replace(/readonly /g, ""));
  return sig.returnsTuple ? `[${types.join(", ")}]` : types[0]!;
}

/** Every way to call `params`: the first k positionally, the rest (and the keyword-only ones) in the options object. */
export function callForms(params: readonly Param[]): string[] {
  const positional = params.filter((p) => !p.keywordOnly);
  const keywordOnly = params.filter((p) => p.keywordOnly);
  const forms: string[] = [];
  for (let k = 0; k <= positional.length; k++) {
    const given = positional.slice(0, k);
    const rest = [...positional.slice(k), ...keywordOnly];
    // The binder takes a required tensor by name too (torch.sum({ input: x })), but no one writes that.
    if (rest.some((p) => !p.optional && p.type.ts === "Tensor")) continue;
    const variadic = given.at(-1)?.variadic === true ? given.at(-1)! : undefined;
    const head = (variadic ? given.slice(0, -1) : given).map((p) => `${paramName(p.name)}: ${argType(p)}`);
    const options = rest.length === 0 ? [] : [`options${rest.every((p) => p.optional) ? "?" : ""}: ${optionsType(rest)}`];
    if (variadic !== undefined) {
      const element = wrap(variadic.type.ts);
      forms.push(`(${[...head, `...${variadic.name}: ${element}[]`].join(", ")})`);
      if (rest.length > 0) forms.push(`(${[...head, `...args: [...${variadic.name}: ${element}[], options: ${optionsType(rest)}]`].join(", ")})`);
      forms.push(`(${[...head, `${key(variadic.name)}: readonly ${element}[]`, ...options].join(", ")})`);
    } else {
      forms.push(`(${[...head, ...options].join(", ")})`);
    }
  }
  return forms;
}

function bodyArgs(sig: Signature): string {
  const fields = sig.params.map((p) => {
    const base = p.variadic ? `readonly ${wrap(p.type.ts)}[]` : p.type.ts;
    const absent = p.optional && !p.hasDefault ? " | undefined" : p.hasDefault && p.defaultValue === null && !p.type.acceptsNull ? " | null" : "";
    return `${key(p.name)}: ${base}${absent}`;
  });
  return `{ ${fields.join("; ")} }`;
}

const docComment = (doc: string, indent: string): string => {
  const lines = doc.trim().split("\n");
  return lines.length === 1 ? `${indent}/** ${lines[0]} */\n` : `${indent}/**\n${lines.map((l) => `${indent} * ${l}`.trimEnd()).join("\n")}\n${indent} */\n`;
};

export function opTypesSource(table: readonly OpEntry[]): string {
  const ops = [...table].sort((a, b) => a.name.localeCompare(b.name));
  const used = new Set<string>();
  const note = (ts: string): string => {
    for (const word of ts.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []) if (atomImports[word] !== undefined) used.add(word);
    return ts;
  };
  let types = "";
  let bodies = "";
  let methods = "";
  for (const entry of ops) {
    types += docComment(entry.doc, "  ") + `  ${key(entry.name)}: {\n`;
    for (const sig of entry.signatures) {
      bodies += `  ${JSON.stringify(sig.text)}: { args: ${note(bodyArgs(sig))}; returns: ${note(returnType(sig))} };\n`;
      for (const form of callForms(sig.params)) types += docComment(entry.doc, "    ") + `    ${note(form)}: ${returnType(sig)};\n`;
    }
    types += "  };\n";
    const method = entry.method;
    if (method === undefined) continue;
    if (method.property) {
      methods += docComment(entry.doc, "  ") + `  readonly ${key(entry.name)}: ${note(returnType(method.signatures[0]!))};\n`;
      continue;
    }
    for (const sig of method.signatures) {
      for (const form of callForms(sig.params)) methods += docComment(entry.doc, "  ") + `  ${key(entry.name)}${note(form)}: ${returnType(sig)};\n`;
    }
  }
  const byModule = new Map<string, string[]>();
  for (const name of [...used].sort()) byModule.set(atomImports[name]!, [...(byModule.get(atomImports[name]!) ?? []), name]);
  const imports = [...byModule].sort(([a], [b]) => a.localeCompare(b)).map(([from, names]) => `import type { ${names.join(", ")} } from "${from}";`);
  return `/**
 * @file GENERATED by test/generated.test.ts from the signature table (src/ops/signature/); do not
 * edit. \`npm run generate\` rewrites it after a signature changes.
 */
${imports.join("\n")}

/** The call forms of every op (torch.*, torch.nn.functional.*). */
export interface OpTypes {
${types}}

/** What the body of each signature receives (defaults filled in) and returns. */
export interface OpBodies {
${bodies}}

/** Tensor methods and properties (\`x.sum(1)\` is \`torch.sum(x, 1)\`). */
export interface TensorMethods {
${methods}}
`;
}
