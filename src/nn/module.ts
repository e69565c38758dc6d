/**
 * @file torch.nn.Module and torch.nn.Parameter.
 *
 * A module's parameters are its properties that hold Parameters, its children the properties that
 * hold Modules, and its buffers the properties registered with registerBuffer — in the order they
 * were first assigned, which is PyTorch's registration order, so `stateDict()` keys and
 * `parameters()` order match PyTorch's (`"0.weight"`, `"layers.1.attn.qProj.bias"`). Assigning
 * `this.fc = new Linear(…)` in a constructor is all it takes, as in PyTorch.
 *
 * Call a module with `m.forward(x)` (what you define), or `m.call(x)`, which also runs the forward
 * hooks; both take the same arguments.
 */
import { noGrad } from "../autograd/grad_mode.js";
import { type DType, dtypeNames, dtypes } from "../dtype.js";
import { ArgumentError, DTypeError, ShapeError } from "../runtime/errors.js";
import { convertInPlace, rebind, Tensor } from "../tensor.js";
import { inliner } from "../trace/inline.js";

const parameters = new WeakSet<Tensor>();

/** `torch.nn.Parameter`: a tensor that a Module registers as a parameter. */
export interface Parameter extends Tensor {}
/**
 * `new torch.nn.Parameter(data, requiresGrad = true)` marks `data` itself as a parameter (PyTorch's
 * shares data's storage; here it is the same tensor object) and sets requiresGrad.
 */
export class Parameter {
  constructor(data: Tensor, requiresGrad = true) {
    if (!(data instanceof Tensor)) throw new ArgumentError(`Parameter: data must be a Tensor, got ${typeof data}`);
    if (!data.isLeaf) throw new ArgumentError(`Parameter: data must be a leaf tensor (this one was computed by ${data.gradFn!.name}); pass data.detach()`);
    data.requiresGrad = requiresGrad && dtypes[data.dtype].kind === "float";
    parameters.add(data);
    return data as Parameter;
  }

  static [Symbol.hasInstance](value: unknown): boolean {
    return value instanceof Tensor && parameters.has(value);
  }
}

/** `{ missingKeys, unexpectedKeys }`, as PyTorch's load_state_dict returns. */
export interface LoadResult {
  missingKeys: string[];
  unexpectedKeys: string[];
}

export type ForwardPreHook = (module: Module, args: unknown[]) => unknown[] | void;
export type ForwardHook = (module: Module, args: unknown[], output: unknown) => unknown;

/** A module's own registry, kept off its enumerable properties. */
interface Registry {
  buffers: Map<string, boolean>; // name → persistent
  preHooks: ForwardPreHook[];
  hooks: ForwardHook[];
}
const registries = new WeakMap<Module, Registry>();
function registry(m: Module): Registry {
  let r = registries.get(m);
  if (r === undefined) registries.set(m, (r = { buffers: new Map(), preHooks: [], hooks: [] }));
  return r;
}

const removable = <T>(list: T[], item: T) => ({
  remove: () => {
    const i = list.indexOf(item);
    if (i >= 0) list.splice(i, 1);
  },
});

/** torch.nn.Module: subclass it, assign parameters, buffers and submodules in the constructor, define forward. */
export class Module {
  #training = true;

  /** Training mode (dropout active, batch statistics); `train()` / `eval()` set it for the whole tree. torch.compile guards on it. */
  get training(): boolean {
    inliner()?.readTraining(this, this.#training);
    return this.#training;
  }

  set training(mode: boolean) {
    this.#training = mode;
  }

  /** The computation; subclasses define it. */
  forward(..._args: never[]): unknown {
    throw new ArgumentError(`${this.constructor.name}: Module.forward is not defined; subclasses define forward(...)`);
  }

  /** forward with the forward hooks (PyTorch's `module(x)`). */
  call(...args: unknown[]): unknown {
    const r = registry(this);
    let input = args;
    for (const hook of [...r.preHooks]) input = hook(this, input) ?? input;
    let output = (this.forward as (...a: unknown[]) => unknown)(...input);
    for (const hook of [...r.hooks]) {
      const replaced = hook(this, input, output);
      if (replaced !== undefined) output = replaced;
    }
    return output;
  }

  registerForwardPreHook(hook: ForwardPreHook): { remove(): void } {
    registry(this).preHooks.push(hook);
    return removable(registry(this).preHooks, hook);
  }

  registerForwardHook(hook: ForwardHook): { remove(): void } {
    registry(this).hooks.push(hook);
    return removable(registry(this).hooks, hook);
  }

  /** Adds (or with null, declares) a parameter under `name` (PyTorch's `register_parameter`). */
  registerParameter(name: string, param: Tensor | null): void {
    checkName("registerParameter", this, name);
    if (param !== null && !(param instanceof Parameter)) new Parameter(param);
    (this as unknown as Record<string, unknown>)[name] = param;
  }

  /** Adds a buffer: state that is not a parameter (BatchNorm's running mean); `persistent` ones are in stateDict. */
  registerBuffer(name: string, tensor: Tensor | null, options: { persistent?: boolean } = {}): void {
    checkName("registerBuffer", this, name);
    if (tensor !== null && !(tensor instanceof Tensor)) throw new ArgumentError(`registerBuffer: "${name}" must be a Tensor or null`);
    registry(this).buffers.set(name, options.persistent ?? true);
    (this as unknown as Record<string, unknown>)[name] = tensor;
  }

  /** Adds a child module (PyTorch's `add_module`). */
  addModule(name: string, module: Module | null): void {
    checkName("addModule", this, name);
    (this as unknown as Record<string, unknown>)[name] = module;
  }

  /** [name, child] for each direct child. */
  *namedChildren(): Generator<[string, Module]> {
    for (const [k, v] of Object.entries(this)) if (v instanceof Module) yield [k, v];
  }

  *children(): Generator<Module> {
    for (const [, m] of this.namedChildren()) yield m;
  }

  /** This module and every module below it, with dotted names ("" for this one); each once. */
  *namedModules(prefix = "", seen = new Set<Module>()): Generator<[string, Module]> {
    if (seen.has(this)) return;
    seen.add(this);
    yield [prefix, this];
    for (const [k, m] of this.namedChildren()) yield* m.namedModules(prefix ? `${prefix}.${k}` : k, seen);
  }

  *modules(): Generator<Module> {
    for (const [, m] of this.namedModules()) yield m;
  }

  /** [dotted name, parameter] for every parameter (below this module too unless `recurse` is false); each tensor once. */
  *namedParameters(options: { prefix?: string; recurse?: boolean } = {}): Generator<[string, Parameter]> {
    const seen = new Set<Tensor>();
    for (const [path, m] of options.recurse === false ? [[options.prefix ?? "", this] as [string, Module]] : this.namedModules(options.prefix ?? "")) {
      for (const [k, v] of Object.entries(m)) {
        if (!(v instanceof Parameter) || seen.has(v) || registry(m).buffers.has(k)) continue;
        seen.add(v);
        yield [path ? `${path}.${k}` : k, v as Parameter];
      }
    }
  }

  *parameters(recurse = true): Generator<Parameter> {
    for (const [, p] of this.namedParameters({ recurse })) yield p;
  }

  /** [dotted name, buffer] for every buffer that is set. */
  *namedBuffers(options: { prefix?: string; recurse?: boolean } = {}): Generator<[string, Tensor]> {
    for (const [path, m] of options.recurse === false ? [[options.prefix ?? "", this] as [string, Module]] : this.namedModules(options.prefix ?? "")) {
      for (const name of registry(m).buffers.keys()) {
        const v = (m as unknown as Record<string, unknown>)[name];
        if (v instanceof Tensor) yield [path ? `${path}.${name}` : name, v];
      }
    }
  }

  *buffers(recurse = true): Generator<Tensor> {
    for (const [, b] of this.namedBuffers({ recurse })) yield b;
  }

  /** Sets training mode on this module and every module below it. */
  train(mode = true): this {
    if (typeof mode !== "boolean") throw new ArgumentError(`train: mode must be a bool, got ${typeof mode}`);
    for (const m of this.modules()) m.training = mode;
    return this;
  }

  /** train(false). */
  eval(): this {
    return this.train(false);
  }

  /** Sets requiresGrad on every parameter (freezing with false). */
  requiresGrad_(requiresGrad = true): this {
    for (const p of this.parameters()) p.requiresGrad = requiresGrad;
    return this;
  }

  /** Clears the parameters' gradients: `p.grad = null` (default, which frees them), or zeros in place. */
  zeroGrad(options: { setToNone?: boolean } = {}): void {
    for (const key of Object.keys(options)) if (key !== "setToNone") throw new ArgumentError(`zeroGrad: got an unknown option "${key}"; the only option is "setToNone"`);
    for (const p of this.parameters()) {
      if (options.setToNone ?? true) p.grad = null; // without reading it (torch.compile guards on grads read)
      else if (p.grad !== null) noGrad(() => p.grad!.zero_());
    }
  }

  /** Calls `fn` on every module below this one, then on this one (PyTorch's `apply`, used for initialisation). */
  apply(fn: (m: Module) => void): this {
    for (const child of this.children()) child.apply(fn);
    fn(this);
    return this;
  }

  /**
   * Moves or converts every parameter and buffer in place (`m.to("tpu")`, `m.to("bfloat16")`,
   * `m.to({ device, dtype })`): the tensor objects stay the same (with their gradients converted
   * too), so an optimizer built on them still holds them. A dtype applies to floating tensors only,
   * as in PyTorch. An optimizer's state is not converted: convert before building the optimizer.
   */
  to(target: string | { device?: string; dtype?: DType }): this {
    const { device, dtype } = typeof target === "string" ? (dtypeNames.includes(target as DType) ? { dtype: target as DType, device: undefined } : { device: target, dtype: undefined }) : target;
    if (typeof target === "object" && target !== null) {
      for (const key of Object.keys(target)) if (key !== "device" && key !== "dtype") throw new ArgumentError(`Module.to: got an unknown option "${key}"; the options are device and dtype`);
    }
    if (dtype !== undefined && dtypes[dtype]?.kind !== "float") {
      throw new DTypeError(`Module.to: dtype must be a floating point dtype (parameters and buffers keep their kind), got ${String(dtype)}`);
    }
    const convert = (t: Tensor): void => {
      const floating = dtypes[t.dtype].kind === "float";
      const moved = noGrad(() => t.to({ ...(device === undefined ? {} : { device }), ...(dtype === undefined || !floating ? {} : { dtype }) }));
      noGrad(() => convertInPlace(t, moved, "Module.to"));
    };
    for (const p of this.parameters()) convert(p);
    for (const b of this.buffers()) convert(b);
    return this;
  }

  /** `to("float32")`: floating parameters and buffers as float32, in place. */
  float(): this {
    return this.to("float32");
  }

  /** `to("float64")`. */
  double(): this {
    return this.to("float64");
  }

  /** `to("float16")`. */
  half(): this {
    return this.to("float16");
  }

  /** `to("bfloat16")`. */
  bfloat16(): this {
    return this.to("bfloat16");
  }

  /**
   * Parameters and persistent buffers by PyTorch's keys: dotted paths whose camelCase property names
   * are written in snake_case (`runningMean` → `"running_mean"`, `qProj` → `"q_proj"`; a ModuleDict's or
   * ParameterDict's keys as given), so a state dict is the one PyTorch (and a safetensors checkpoint)
   * has. The tensors themselves, not copies.
   */
  stateDict(options: { prefix?: string } = {}): Record<string, Tensor> {
    for (const key of Object.keys(options)) if (key !== "prefix") throw new ArgumentError(`stateDict: got an unknown option "${key}"; the only option is "prefix"`);
    const out: Record<string, Tensor> = {};
    for (const [path, m] of stateModules(this, "", new Set())) {
      const r = registry(m);
      for (const [k, v] of Object.entries(m)) {
        const persistent = r.buffers.get(k);
        if (v instanceof Tensor && (persistent === true || (persistent === undefined && v instanceof Parameter))) out[`${options.prefix ?? ""}${path}${stateName(m, k)}`] = v;
      }
    }
    return out;
  }

  /**
   * Copies the values of `stateDict` into this module's parameters and buffers (in place; shapes must
   * match, values are converted to each tensor's dtype and device). With `strict` (the default),
   * missing or unexpected keys are an error that lists them.
   */
  loadStateDict(stateDict: Record<string, Tensor>, options: { strict?: boolean } = {}): LoadResult {
    for (const key of Object.keys(options)) if (key !== "strict") throw new ArgumentError(`loadStateDict: got an unknown option "${key}"; the only option is "strict"`);
    const own = this.stateDict();
    const missingKeys = Object.keys(own).filter((k) => !(k in stateDict));
    const unexpectedKeys = Object.keys(stateDict).filter((k) => !(k in own));
    if ((options.strict ?? true) && (missingKeys.length > 0 || unexpectedKeys.length > 0)) {
      throw new ArgumentError(
        `loadStateDict: ${this.constructor.name} ${[missingKeys.length ? `is missing ${missingKeys.map((k) => `"${k}"`).join(", ")}` : "", unexpectedKeys.length ? `got unexpected ${unexpectedKeys.map((k) => `"${k}"`).join(", ")}` : ""].filter(Boolean).join(" and ")}; pass { strict: false } to load the rest`,
      );
    }
    for (const [key, target] of Object.entries(own)) {
      const value = stateDict[key];
      if (value === undefined) continue;
      if (!(value instanceof Tensor)) throw new ArgumentError(`loadStateDict: "${key}" must be a Tensor`);
      if (value.shape.join() !== target.shape.join()) {
        throw new ShapeError(`loadStateDict: size mismatch for "${key}": copying a param with shape [${value.shape.join(", ")}], the shape in the current model is [${target.shape.join(", ")}]`);
      }
      noGrad(() => rebind(target, value.to({ dtype: target.dtype, device: target.device, copy: true })));
    }
    return { missingKeys, unexpectedKeys };
  }

  /** Frees every parameter and buffer (and their grads) now. */
  dispose(): void {
    for (const p of this.parameters()) p.dispose();
    for (const b of this.buffers()) b.dispose();
  }

  /** PyTorch's module printout: `Linear(inFeatures=3, outFeatures=2, bias=true)` and children indented. */
  toString(): string {
    const children = [...this.namedChildren()].map(([k, m]) => `  (${k}): ${String(m).replace(/\n/g, "\n  ")}`);
    const extra = this.extraRepr();
    // an extraRepr of several lines (ParameterList's) is printed one line each, as PyTorch does
    if (extra.includes("\n")) return `${this.constructor.name}(\n${[...extra.split("\n").map((line) => `  ${line}`), ...children].join("\n")}\n)`;
    const head = `${this.constructor.name}(${extra}`;
    return children.length === 0 ? `${head})` : `${head}\n${children.join("\n")}\n)`;
  }

  /** The text inside a module's printout parentheses; layers override it. */
  extraRepr(): string {
    return "";
  }

  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return this.toString();
  }
}

/** Containers whose entries are named by their keys (ModuleDict, ParameterDict): stateDict keeps those names as given. */
const keyed = new WeakSet<Module>();

/** Marks `m` as a container whose property names are its user's keys, written as given in stateDict keys. */
export function keepsKeys(m: Module): void {
  keyed.add(m);
}

/** A property name in PyTorch's spelling: camelCase in snake_case, except a keyed container's keys. */
const stateName = (owner: Module, name: string): string => (keyed.has(owner) ? name : name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));

/** [PyTorch's dotted prefix ("" or "layers.0."), module] for `m` and every module below it, each once. */
function* stateModules(m: Module, prefix: string, seen: Set<Module>): Generator<[string, Module]> {
  if (seen.has(m)) return;
  seen.add(m);
  yield [prefix, m];
  for (const [k, child] of m.namedChildren()) yield* stateModules(child, `${prefix}${stateName(m, k)}.`, seen);
}

function checkName(op: string, m: Module, name: string): void {
  if (typeof name !== "string" || name === "" || name.includes(".")) throw new ArgumentError(`${op}: name must be a non-empty string without ".", got ${JSON.stringify(name)}`);
  if (name in m && !Object.prototype.hasOwnProperty.call(m, name)) throw new ArgumentError(`${op}: "${name}" is already a method or property of ${m.constructor.name}`);
}
