/**
 * @file op(): an API op defined in one place from its PyTorch signature(s), its doc and its body.
 * The function it returns binds every call with the one binder (bind.ts); `method` also makes it a
 * Tensor method (`x.sum(1)` is `torch.sum(x, 1)`). Every op lands in one table, from which the
 * TypeScript declarations (src/ops/op_types.generated.ts) and docs/api.md are generated. The table
 * is keyed by the signature's name, namespace included: `linalg.norm(…)` (torch.linalg.norm) and
 * `norm(…)` (torch.norm) are two ops.
 */
import { DisposedError } from "../../runtime/errors.js";
import { Tensor } from "../../tensor.js";
import type { OpBodies, OpTypes } from "../op_types.generated.js";
import { bindCall, bindOne, type Bound } from "./bind.js";
import { makeSignature, namespaceOf, objectBuilder, parseSignature, type Signature } from "./parse.js";

export interface OpOptions {
  /** What the op does, in a sentence or two (shown in editors and docs/api.md). */
  readonly doc: string;
  /** Also a Tensor method; a string names the parameter the tensor binds to (default: the first). */
  readonly method?: boolean | string;
  /** A Tensor property (`x.mT`) rather than a method; the op's only argument is the tensor. */
  readonly property?: boolean;
}

export interface MethodEntry {
  /** The parameter `this` binds to. */
  readonly self: string;
  /** The op's signatures without `self` (those that have it). */
  readonly signatures: readonly Signature[];
  readonly property: boolean;
}

export interface OpEntry {
  /** The signature's name: `sum`, or `linalg.norm` for an op of a namespace. */
  readonly name: string;
  readonly signatures: readonly Signature[];
  readonly doc: string;
  readonly method: MethodEntry | undefined;
  readonly fn: (...args: unknown[]) => unknown;
}

const table: OpEntry[] = [];
const byFunction = new WeakMap<object, OpEntry>();

/** Every op defined so far, in definition order. */
export function opTable(): readonly OpEntry[] {
  return table;
}

/** The op a function (torch.sum, F.softmax) belongs to. */
export function opOf(fn: unknown): OpEntry | undefined {
  return typeof fn === "function" ? byFunction.get(fn) : undefined;
}

type NameOf<S extends string> = S extends `${infer N}(${string}` ? N : never;
type Body<S> = S extends keyof OpBodies ? (args: OpBodies[S]["args"]) => OpBodies[S]["returns"] : never;
type Fn<N> = N extends keyof OpTypes ? OpTypes[N] : never;

/**
 * Defines an op. Its types come from src/ops/op_types.generated.ts: after adding or changing a
 * signature, regenerate it with `npm run generate` (the signature is a type error until then).
 */
export function op<const S extends keyof OpBodies & string>(signature: S, options: OpOptions, body: Body<S>): Fn<NameOf<S>>;
/** Defines an op with several signatures (PyTorch's overloads), tried in order; one body each. */
export function op<const S extends readonly (keyof OpBodies & string)[]>(
  signatures: S,
  options: OpOptions,
  bodies: { [I in keyof S]: Body<S[I]> },
): Fn<NameOf<S[0]>>;
export function op(texts: string | readonly string[], options: OpOptions, bodies: unknown): unknown {
  const list = typeof texts === "string" ? [texts] : texts;
  const fns = (typeof texts === "string" ? [bodies] : bodies) as readonly ((args: Bound) => unknown)[];
  const signatures = list.map(parseSignature);
  const name = signatures[0]!.name;
  if (signatures.some((s) => s.name !== name)) throw new Error(`op ${name}: every signature must have the name ${name}`);
  if (fns.length !== signatures.length) throw new Error(`op ${name}: ${signatures.length} signatures but ${fns.length} bodies`);
  if (table.some((e) => e.name === name)) throw new Error(`op ${name} is defined twice`);
  const only = signatures[0]!;
  const fn =
    signatures.length === 1
      ? (...args: unknown[]): unknown => fns[0]!(only.build(bindOne(only, args, name)))
      : (...args: unknown[]): unknown => {
          const { index, values } = bindCall(signatures, args, name);
          return fns[index]!(signatures[index]!.build(values));
        };
  Object.defineProperty(fn, "name", { value: name });
  const method = options.method || options.property ? attachMethod(name, signatures, fns, options) : undefined;
  const entry: OpEntry = { name, signatures, doc: options.doc, method, fn };
  table.push(entry);
  byFunction.set(fn, entry);
  return fn;
}

function attachMethod(name: string, signatures: readonly Signature[], fns: readonly ((args: Bound) => unknown)[], options: OpOptions): MethodEntry {
  if (namespaceOf(name) !== undefined) throw new Error(`op ${name}: an op of a namespace cannot be a Tensor method (PyTorch's Tensor methods are torch.* ops)`);
  const self = typeof options.method === "string" ? options.method : signatures[0]!.params[0]?.name;
  const owners: number[] = [];
  const methodSignatures: Signature[] = [];
  /** Per method signature: the body's arguments from the bound values with the tensor appended last. */
  const builders: ((values: readonly unknown[]) => Bound)[] = [];
  signatures.forEach((s, i) => {
    const p = s.byName.get(self ?? "");
    if (p === undefined || !p.type.holdsTensor) return;
    owners.push(i);
    const rest = s.params.filter((q) => q !== p);
    methodSignatures.push(makeSignature(s.name, s.text, rest, s.returns, s.returnsTuple));
    builders.push(objectBuilder(s.params.map((q) => q.name), s.params.map((q) => (q === p ? rest.length : rest.indexOf(q)))));
  });
  if (self === undefined || owners.length === 0) throw new Error(`op ${name}: no signature has a Tensor parameter "${self}" for the method to bind`);
  const shownAs = `Tensor.${name}`;
  const live = (t: Tensor): Tensor => {
    if (t.isDisposed) throw new DisposedError(`${shownAs}: the tensor has been disposed (${t.dtype}[${t.shape.join(", ")}] on ${t.device})`);
    return t;
  };
  if (options.property) {
    if (methodSignatures.length !== 1 || methodSignatures[0]!.params.length !== 0) throw new Error(`op ${name}: a property takes only the tensor`);
    Object.defineProperty(Tensor.prototype, name, {
      get(this: Tensor) {
        return fns[owners[0]!]!({ [self]: live(this) });
      },
      configurable: true,
    });
  } else {
    const only = methodSignatures.length === 1 ? methodSignatures[0]! : undefined;
    const body = fns[owners[0]!]!;
    const build = builders[0]!;
    Object.defineProperty(Tensor.prototype, name, {
      value:
        only !== undefined
          ? function (this: Tensor, ...args: unknown[]): unknown {
              const values = bindOne(only, args, shownAs);
              values.push(live(this));
              return body(build(values));
            }
          : function (this: Tensor, ...args: unknown[]): unknown {
              const { index, values } = bindCall(methodSignatures, args, shownAs);
              values.push(live(this));
              return fns[owners[index]!]!(builders[index]!(values));
            },
      writable: true,
      configurable: true,
    });
  }
  return { self, signatures: methodSignatures, property: options.property === true };
}
