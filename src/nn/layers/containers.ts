/**
 * @file Sequential, ModuleList and ModuleDict. Their children are named "0", "1", … (or by key), as
 * in PyTorch, so their stateDict keys match ("0.weight").
 */
import { ArgumentError } from "../../runtime/errors.js";
import { Module } from "../module.js";

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
