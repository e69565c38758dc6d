/**
 * @file Sequential, ModuleList and ModuleDict, ParameterList and ParameterDict. Their entries are
 * named "0", "1", … (or by key, as given), as in PyTorch, so their stateDict keys match ("0.weight",
 * "params.0", "scales.W").
 */
import { ArgumentError } from "../../runtime/errors.js";
import { Tensor } from "../../tensor.js";
import { keepsKeys, Module, Parameter } from "../module.js";

function checkModule(container: string, m: unknown, at: string | number): Module {
  if (!(m instanceof Module)) throw new ArgumentError(`${container}: item ${String(at)} is not a Module`);
  return m;
}

/** Modules applied in order: the output of each is the input of the next. */
export class Sequential extends Module {
  [index: number]: Module;
  #length = 0;

  constructor(...modules: Module[]) {
    super();
    for (const m of modules) this.append(m);
  }

  append(m: Module): this {
    this.addModule(String(this.#length), checkModule("Sequential", m, this.#length));
    this.#length++;
    return this;
  }

  get length(): number {
    return this.#length;
  }

  override forward(x: unknown): unknown {
    let h = x;
    for (const m of this.children()) h = m.call(h);
    return h;
  }

  [Symbol.iterator](): IterableIterator<Module> {
    return this.children();
  }
}

/** A list of modules whose parameters belong to the owner (PyTorch's ModuleList). */
export class ModuleList extends Module {
  [index: number]: Module;
  #length = 0;

  constructor(modules: Iterable<Module> = []) {
    super();
    for (const m of modules) this.append(m);
  }

  append(m: Module): this {
    this.addModule(String(this.#length), checkModule("ModuleList", m, this.#length));
    this.#length++;
    return this;
  }

  get length(): number {
    return this.#length;
  }

  [Symbol.iterator](): IterableIterator<Module> {
    return this.children();
  }
}

/** Modules by name (PyTorch's ModuleDict); `get(name)` and iteration in insertion order. */
export class ModuleDict extends Module {
  constructor(modules: Record<string, Module> = {}) {
    super();
    keepsKeys(this);
    for (const [k, m] of Object.entries(modules)) this.addModule(k, checkModule("ModuleDict", m, k));
  }

  get(name: string): Module | undefined {
    const m = (this as unknown as Record<string, unknown>)[name];
    return m instanceof Module ? m : undefined;
  }

  set(name: string, m: Module): void {
    this.addModule(name, checkModule("ModuleDict", m, name));
  }

  keys(): string[] {
    return [...this.namedChildren()].map(([k]) => k);
  }
}

/** `value` as a Parameter: a tensor that is not one yet becomes one (requiring grad), as PyTorch wraps it. */
function asParameter(container: string, value: unknown, at: string | number): Parameter {
  if (!(value instanceof Tensor)) throw new ArgumentError(`${container}: item ${String(at)} must be a Tensor (it becomes a Parameter), got ${value === null ? "null" : typeof value}`);
  return value instanceof Parameter ? value : new Parameter(value);
}

/** PyTorch's line for a parameter in a ParameterList's or ParameterDict's printout. */
const parameterLine = (key: string, p: Tensor): string =>
  `  (${key}): Parameter containing: [${p.dtype} of size ${p.shape.join("x")}${p.device === "cpu:0" ? "" : ` (${p.device})`}]`;

/** Parameters in a list, registered with the owner as "0", "1", … (PyTorch's ParameterList); `list[i]` or `get(i)` reads one. */
export class ParameterList extends Module {
  readonly [index: number]: Parameter; // set(i, t) replaces one
  #length = 0;

  /** Tensors that are not Parameters become Parameters (requiring grad). */
  constructor(values: Iterable<Tensor> = []) {
    super();
    this.extend(values);
  }

  #index(idx: number): number {
    if (!Number.isInteger(idx) || idx < -this.#length || idx >= this.#length) throw new ArgumentError(`ParameterList: index ${String(idx)} is out of range for a list of ${this.#length}`);
    return idx < 0 ? idx + this.#length : idx;
  }

  /** The parameter at `idx` (negative counts from the end). */
  get(idx: number): Parameter {
    return this[this.#index(idx)]!;
  }

  /** Replaces the parameter at `idx` (negative counts from the end). */
  set(idx: number, value: Tensor): void {
    const i = this.#index(idx);
    this.registerParameter(String(i), asParameter("ParameterList", value, i));
  }

  append(value: Tensor): this {
    this.registerParameter(String(this.#length), asParameter("ParameterList", value, this.#length));
    this.#length++;
    return this;
  }

  extend(values: Iterable<Tensor>): this {
    if (values instanceof Tensor || typeof (values as Partial<Iterable<Tensor>> | null)?.[Symbol.iterator] !== "function") {
      throw new ArgumentError(`ParameterList.extend should be called with an iterable, but got ${values instanceof Tensor ? "Tensor" : values === null ? "null" : typeof values}`);
    }
    for (const v of values) this.append(v);
    return this;
  }

  get length(): number {
    return this.#length;
  }

  *[Symbol.iterator](): IterableIterator<Parameter> {
    for (let i = 0; i < this.#length; i++) yield this[i]!;
  }

  override forward(): never {
    throw new ArgumentError("ParameterList should not be called");
  }

  override extraRepr(): string {
    return [...this].map((p, i) => parameterLine(String(i), p)).join("\n");
  }
}

type ParameterEntries = Record<string, Tensor> | Map<string, Tensor> | ParameterDict | Iterable<readonly [string, Tensor]>;

/**
 * Parameters by key (PyTorch's ParameterDict), registered with the owner under their keys as given
 * ("scales.W"); insertion order, except that a plain object's entries are added in sorted key order,
 * as PyTorch adds a dict's. `get`, `set`, `has`, `delete`, `pop`, `popitem`, `setdefault`, `update`,
 * `clear`, `copy`, `keys`, `values`, `items`, `length`, and iteration over the keys.
 */
export class ParameterDict extends Module {
  #keys: string[] = [];

  constructor(parameters: ParameterEntries = {}) {
    super();
    keepsKeys(this);
    this.update(parameters);
  }

  /** The parameter under `key`, or `fallback` (undefined) when there is none. */
  get(key: string): Parameter | undefined;
  get<D>(key: string, fallback: D): Parameter | D;
  get<D>(key: string, fallback?: D): Parameter | D | undefined {
    return this.has(key) ? ((this as unknown as Record<string, Parameter>)[key]!) : fallback;
  }

  /** Adds or replaces the parameter under `key` (a tensor that is not a Parameter becomes one). */
  set(key: string, value: Tensor): void {
    if (typeof key !== "string") throw new ArgumentError(`ParameterDict: keys must be strings, got ${typeof key}`);
    const p = asParameter("ParameterDict", value, JSON.stringify(key));
    this.registerParameter(key, p);
    if (!this.#keys.includes(key)) this.#keys.push(key);
  }

  has(key: string): boolean {
    return this.#keys.includes(key);
  }

  /** Removes `key`'s parameter; whether there was one. */
  delete(key: string): boolean {
    const i = this.#keys.indexOf(key);
    if (i < 0) return false;
    this.#keys.splice(i, 1);
    delete (this as unknown as Record<string, unknown>)[key];
    return true;
  }

  /** Removes and returns `key`'s parameter. */
  pop(key: string): Parameter {
    const p = this.get(key);
    if (p === undefined) throw new ArgumentError(`ParameterDict.pop: no parameter under ${JSON.stringify(key)}; the keys are ${JSON.stringify(this.#keys)}`);
    this.delete(key);
    return p;
  }

  /** Removes and returns the last [key, parameter] added. */
  popitem(): [string, Parameter] {
    const key = this.#keys.at(-1);
    if (key === undefined) throw new ArgumentError("ParameterDict.popitem(): dictionary is empty");
    return [key, this.pop(key)];
  }

  /** `key`'s parameter; when there is none, adds `fallback` under `key` first. */
  setdefault(key: string, fallback: Tensor): Parameter {
    if (!this.has(key)) this.set(key, fallback);
    return this.get(key)!;
  }

  /**
   * Adds or replaces entries: from a Map, a ParameterDict or [key, tensor] pairs in their order,
   * from a plain object in sorted key order (PyTorch's update of a dict).
   */
  update(parameters: ParameterEntries): void {
    if (parameters instanceof Tensor || parameters === null || typeof parameters !== "object") {
      throw new ArgumentError(`ParameterDict.update should be called with an object, a Map or an iterable of [key, tensor] pairs, but got ${parameters instanceof Tensor ? "Tensor" : parameters === null ? "null" : typeof parameters}`);
    }
    let entries: [string, Tensor][];
    if (parameters instanceof ParameterDict) entries = parameters.items();
    else if (Symbol.iterator in parameters) {
      entries = [...(parameters as Iterable<readonly [string, Tensor]>)].map((pair, i) => {
        if (!Array.isArray(pair) || pair.length !== 2) throw new ArgumentError(`ParameterDict update sequence element #${i} must be a [key, tensor] pair, got ${JSON.stringify(Array.isArray(pair) ? `an array of ${(pair as unknown[]).length}` : typeof pair)}`);
        return [pair[0], pair[1]];
      });
    } else entries = Object.entries(parameters).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (const [k, v] of entries) this.set(k, v);
  }

  /** Removes every entry. */
  clear(): void {
    for (const key of [...this.#keys]) this.delete(key);
  }

  /** A new ParameterDict holding the same parameters. */
  copy(): ParameterDict {
    return new ParameterDict(new Map(this.items()));
  }

  keys(): string[] {
    return [...this.#keys];
  }

  values(): Parameter[] {
    return this.#keys.map((k) => this.get(k)!);
  }

  items(): [string, Parameter][] {
    return this.#keys.map((k) => [k, this.get(k)!]);
  }

  get length(): number {
    return this.#keys.length;
  }

  [Symbol.iterator](): IterableIterator<string> {
    return this.keys()[Symbol.iterator]();
  }

  override forward(): never {
    throw new ArgumentError("ParameterDict should not be called");
  }

  override extraRepr(): string {
    return this.items().map(([k, p]) => parameterLine(k, p)).join("\n");
  }
}
