/**
 * @file torch.optim.Optimizer: param groups with per-group options, per-parameter state, `step()`,
 * `zeroGrad()`, `stateDict()` / `loadStateDict()` in PyTorch's layout, `addParamGroup()`.
 *
 * A subclass declares its options, the state each parameter needs, the per-step numbers it reads
 * and the traced update of one parameter; the base class runs a group's update as one executable
 * (update.ts). The optimizer owns its state tensors: `loadStateDict` replaces (and frees) them,
 * `dispose()` frees them all, and they survive any `torch.tidy` the step runs in.
 */
import { enableGrad, noGrad } from "../autograd/grad_mode.js";
import { dtypes } from "../dtype.js";
import { keep } from "../memory.js";
import { fullLike, zerosLike } from "../ops/creation/filled.js";
import { describeValue } from "../ops/signature/bind.js";
import { ArgumentError, DTypeError, ShapeError } from "../runtime/errors.js";
import { Tensor } from "../tensor.js";
import { bindConstructor, bindGroup, checkOptions, type Options, type OptionValue } from "./options.js";
import { untraced } from "../trace/inline.js";
import { type HostScalars, type ParamResult, type ParamUpdate, runGroupStep, type StepEntry } from "./update.js";

/** A param group: its parameters and its options (lr and the rest, mutable: schedulers set them). */
export interface ParamGroup {
  params: Tensor[];
  lr: number;
  /** The names given with the parameters (`optimizer(model.namedParameters())`). */
  paramNames?: string[];
  [option: string]: unknown;
}

/** A group as given to the constructor or addParamGroup: `params` and any options it overrides. */
export interface ParamGroupInput {
  params: Tensor | Iterable<Tensor> | Iterable<readonly [string, Tensor]>;
  [option: string]: unknown;
}

/** Tensors, `[name, tensor]` pairs (as `namedParameters()` yields), or param groups. */
export type ParamsInput = Iterable<Tensor> | Iterable<readonly [string, Tensor]> | Iterable<ParamGroupInput>;

/** A parameter's state: tensors shaped like it (its moments, buffers…) and `step`, a count. */
export type ParamState = Record<string, Tensor | number>;

/** A parameter's host-side step state (see #hostStep). */
interface HostStep {
  param: Tensor;
  state: ParamState;
  /** The state tensors made at this step. */
  created: ReadonlySet<string>;
  /** The parameter had no state before this step. */
  fresh: boolean;
}

/** PyTorch's `state_dict()` layout, parameters numbered in group order. */
export interface OptimizerStateDict {
  state: Record<number, ParamState>;
  paramGroups: (Record<string, unknown> & { params: number[] })[];
}

/** What a subclass declares about itself. */
export interface Algorithm {
  readonly options: Options;
  /** The per-step numbers each parameter's update reads. */
  readonly scalarNames: readonly string[];
  /** Every state tensor it may keep (for loadStateDict). */
  readonly stateKeys: readonly string[];
  /** Whether its state counts steps (`state.step`). */
  readonly countsSteps: boolean;
}

/** Group keys that learning-rate schedulers add (PyTorch's initial_lr, max_lr, …). */
const schedulerKeys = new Set(["initialLr", "maxLr", "minLr", "maxMomentum", "baseMomentum"]);
/** PyTorch's group keys with no counterpart here; loadStateDict drops them. */
const pytorchOnlyKeys = new Set(["foreach", "fused", "capturable", "differentiable"]);

const camel = (s: string): string => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v) && (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null);

const isIterable = (v: unknown): v is Iterable<unknown> => v != null && typeof (v as { [Symbol.iterator]?: unknown })[Symbol.iterator] === "function";

export abstract class Optimizer<G extends ParamGroup = ParamGroup> {
  /** The constructor's options: what a group does not set itself. */
  readonly defaults: Readonly<Record<string, OptionValue>>;
  readonly paramGroups: G[] = [];
  /** Each parameter's state, once it has any (after its first step; Adagrad's from the start). */
  readonly state = new Map<Tensor, ParamState>();
  readonly #algorithm: Algorithm;

  protected constructor(algorithm: Algorithm, params: ParamsInput, args: readonly unknown[]) {
    this.#algorithm = algorithm;
    this.defaults = Object.freeze(bindConstructor(algorithm.options, args));
    for (const group of groupsOf(this.#name, params)) this.addParamGroup(group);
  }

  get #name(): string {
    return `optim.${this.#algorithm.options.name}`;
  }

  // --- what a subclass defines -------------------------------------------------------------------

  /** The state tensors a parameter of `group` needs, each with its initial value. */
  protected abstract initialState(group: G): Record<string, number>;
  /** What changes the traced program (nesterov, amsgrad, …): the executable's static arguments. */
  protected abstract flags(group: G): Record<string, boolean>;
  /** The per-step numbers of one parameter (after its step count advanced); `created` names the state made this step. */
  protected abstract scalars(group: G, state: ParamState, created: ReadonlySet<string>): Record<string, number>;
  /** The update of one parameter, traced once per signature. */
  protected abstract update(flags: Record<string, boolean>, u: ParamUpdate): ParamResult;

  // --- the public API ----------------------------------------------------------------------------

  /**
   * One optimization step over every parameter that has a grad (the others are skipped). `closure`
   * (optional) re-evaluates the loss with grad enabled and its result is returned; an async closure
   * makes step return a promise.
   */
  step(): undefined;
  step<T>(closure: () => T): T;
  step<T>(closure?: () => T): T | undefined {
    if (closure === undefined) {
      this.#stepAll();
      return undefined;
    }
    if (typeof closure !== "function") throw new ArgumentError(`${this.#name}.step(closure): closure must be a function, got ${describeValue(closure)}`);
    const loss = enableGrad(closure);
    if (typeof (loss as { then?: unknown } | null)?.then === "function") {
      return Promise.resolve(loss).then((value) => {
        this.#stepAll();
        return value;
      }) as T;
    }
    this.#stepAll();
    return loss;
  }

  /**
   * Resets the gradients of every parameter: `setToNone` (default) sets `p.grad = null`, which frees
   * it; otherwise each grad is zeroed in place (PyTorch's `zero_grad(set_to_none)`).
   */
  zeroGrad(options: boolean | { setToNone?: boolean } = {}): void {
    const setToNone = typeof options === "boolean" ? options : readSetToNone(this.#name, options);
    for (const group of this.paramGroups) {
      for (const p of group.params) {
        // setting null does not read the grad (so torch.compile does not guard on whether there was one)
        if (setToNone) {
          p.grad = null;
          continue;
        }
        const grad = p.grad;
        if (grad === null) continue;
        if (grad.isLeaf) noGrad(() => grad.zero_());
        else p.grad = noGrad(() => zerosLike(grad)); // a grad with history (createGraph) is replaced by a detached one
      }
    }
  }

  /** Adds a param group (fine-tuning: unfreezing layers), with its own options over the defaults. */
  addParamGroup(group: ParamGroupInput): void {
    const where = `${this.#name} param group ${this.paramGroups.length}`;
    if (!isPlainObject(group)) throw new ArgumentError(`${where}: a param group must be an object { params, ...options }, got ${describeValue(group)}`);
    const { params, names } = paramsOf(where, group.params);
    const taken = new Set(this.paramGroups.flatMap((g) => g.params));
    params.forEach((p, i) => {
      if (taken.has(p)) throw new ArgumentError(`${where}: parameter ${i} is already in another param group; each parameter may be in one group only`);
      if (params.indexOf(p) !== i) throw new ArgumentError(`${where}: parameter ${i} appears twice in the group; list each parameter once`);
    });
    if (this.paramGroups.length > 0 && (names !== undefined) !== (this.paramGroups[0]!.paramNames !== undefined)) {
      throw new ArgumentError(`${where}: all param groups must be given with names ([name, tensor] pairs) or all without`);
    }
    const extras = Object.fromEntries(Object.entries(group).filter(([k]) => schedulerKeys.has(k)));
    const own = Object.fromEntries(Object.entries(group).filter(([k]) => !schedulerKeys.has(k)));
    const options = bindGroup(this.#algorithm.options, own, this.defaults, where);
    const built = { params, ...options, ...extras, ...(names === undefined ? {} : { paramNames: names }) } as unknown as G;
    this.paramGroups.push(built);
  }

  /**
   * The state in PyTorch's layout: `{ state: { 0: { step, expAvg, … }, … }, paramGroups: [{ lr, …,
   * params: [0, 1] }] }`, parameters numbered in group order. Its tensors are copies that the caller
   * owns (dispose them, or call stateDict inside torch.tidy).
   */
  stateDict(): OptimizerStateDict {
    const index = new Map<Tensor, number>();
    const paramGroups = this.paramGroups.map((g) => {
      const packed: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(g)) if (k !== "params") packed[k] = Array.isArray(v) ? [...v] : v;
      const ids = g.params.map((p) => {
        if (!index.has(p)) index.set(p, index.size);
        return index.get(p)!;
      });
      return { ...packed, params: ids };
    });
    const state: Record<number, ParamState> = {};
    noGrad(() => {
      for (const [p, st] of this.state) {
        const i = index.get(p);
        if (i !== undefined) state[i] = Object.fromEntries(Object.entries(st).map(([k, v]) => [k, v instanceof Tensor ? v.clone() : v]));
      }
    });
    return { state, paramGroups };
  }

  /**
   * Loads a state from stateDict() (or PyTorch's, with snake_case keys): the groups' options and a
   * copy of every state tensor (cast to its parameter's dtype and device). The current state is
   * freed; the dict stays the caller's. Parameters are matched by position, as in PyTorch.
   */
  loadStateDict(dict: OptimizerStateDict): void {
    const where = `${this.#name}.loadStateDict`;
    const saved = (dict as { paramGroups?: unknown; param_groups?: unknown })?.paramGroups ?? (dict as { param_groups?: unknown })?.param_groups;
    if (!isPlainObject(dict) || !isPlainObject(dict.state) || !Array.isArray(saved)) {
      throw new ArgumentError(`${where}: expected { state, paramGroups } as stateDict() returns, got ${describeValue(dict)}`);
    }
    if (saved.length !== this.paramGroups.length) {
      throw new ArgumentError(`${where}: the state dict has ${saved.length} param groups but this optimizer has ${this.paramGroups.length}`);
    }
    const byId = new Map<number, Tensor>();
    saved.forEach((g, i) => {
      const mine = this.paramGroups[i]!.params;
      if (!isPlainObject(g) || !Array.isArray(g.params) || g.params.length !== mine.length) {
        throw new ArgumentError(`${where}: param group ${i} of the state dict has ${Array.isArray(g?.params) ? g.params.length : "no"} parameters but this optimizer's has ${mine.length}`);
      }
      g.params.forEach((id, j) => byId.set(id, mine[j]!));
    });
    const groups = saved.map((g, i) => this.#loadGroup(g, i, where));
    const state = noGrad(() => this.#loadState(dict.state, byId, where));
    this.#disposeState();
    for (const [p, st] of state) this.state.set(p, st);
    this.paramGroups.splice(0, this.paramGroups.length, ...groups);
  }

  /** Frees every state tensor (the optimizer starts afresh if stepped again). */
  dispose(): void {
    this.#disposeState();
  }

  [Symbol.dispose](): void {
    this.dispose();
  }

  // --- internals ---------------------------------------------------------------------------------

  #stepAll(): void {
    noGrad(() => this.paramGroups.forEach((group, i) => this.#stepGroup(group, i)));
  }

  #stepGroup(group: G, index: number): void {
    const algorithm = this.#algorithm;
    checkOptions(algorithm.options, group, `${this.#name} param group ${index}`);
    const init = this.initialState(group);
    const keys = Object.keys(init);
    const byDevice = new Map<string, { entries: StepEntry[]; hosts: HostStep[] }>();
    for (const p of group.params) {
      const grad = p.grad;
      if (grad === null) continue;
      let st = this.state.get(p);
      const fresh = st === undefined;
      if (st === undefined) {
        st = {};
        if (keys.length > 0 || algorithm.countsSteps) this.state.set(p, st); // SGD without momentum keeps none
      }
      const created = new Set<string>();
      for (const key of keys) {
        if (st[key] instanceof Tensor) continue;
        // eager even inside torch.compile's trace: the state outlives the call
        st[key] = untraced(() => keep(init[key] === 0 ? zerosLike(p) : fullLike(p, init[key]!)));
        created.add(key);
      }
      const entry: StepEntry = { param: p, grad, state: keys.map((k) => st[k] as Tensor) };
      const list = byDevice.get(p.device) ?? { entries: [], hosts: [] };
      byDevice.set(p.device, list);
      list.entries.push(entry);
      list.hosts.push({ param: p, state: st, created, fresh });
    }
    if (byDevice.size === 0) return;
    const flags = this.flags(group);
    const step = { op: this.#name, statics: JSON.stringify(flags), stateKeys: keys, scalarNames: algorithm.scalarNames, update: (u: ParamUpdate) => this.update(flags, u) };
    for (const { entries, hosts } of byDevice.values()) runGroupStep(step, entries, this.#hostStep(group, hosts));
  }

  /**
   * The host side of a step, which a compiled function that steps replays at every call: count the
   * step and compute each parameter's per-step numbers; `undo` takes one back (an abandoned trace).
   */
  #hostStep(group: G, hosts: readonly HostStep[]): HostScalars {
    const algorithm = this.#algorithm;
    let first = true;
    return {
      read: () => {
        const rows = hosts.map(({ state, created }) => {
          if (algorithm.countsSteps) state.step = ((state.step as number | undefined) ?? 0) + 1;
          const named = this.scalars(group, state, first ? created : new Set());
          return algorithm.scalarNames.map((n) => named[n]!);
        });
        first = false;
        return rows;
      },
      undo: () => {
        for (const { param, state, created, fresh } of hosts) {
          if (algorithm.countsSteps) state.step = (state.step as number) - 1;
          for (const key of created) {
            (state[key] as Tensor).dispose();
            delete state[key];
          }
          if (fresh) this.state.delete(param);
        }
      },
    };
  }

  #loadGroup(g: Record<string, unknown>, i: number, where: string): G {
    const own: Record<string, unknown> = {};
    const extras: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(g)) {
      const k = camel(key);
      if (k === "params" || pytorchOnlyKeys.has(k)) continue;
      if (schedulerKeys.has(k)) extras[k] = v;
      else if (k !== "paramNames") own[k] = Array.isArray(v) ? [...(v as number[])] : v;
    }
    const options = bindGroup(this.#algorithm.options, own, this.defaults, `${where}: param group ${i}`);
    const mine = this.paramGroups[i]!;
    const names = Array.isArray(g.paramNames) ? [...(g.paramNames as string[])] : Array.isArray(g.param_names) ? [...(g.param_names as string[])] : mine.paramNames;
    return { params: mine.params, ...options, ...extras, ...(names === undefined ? {} : { paramNames: names }) } as unknown as G;
  }

  #loadState(saved: Record<string, unknown>, byId: ReadonlyMap<number, Tensor>, where: string): Map<Tensor, ParamState> {
    const out = new Map<Tensor, ParamState>();
    const known = new Set(this.#algorithm.stateKeys);
    try {
      for (const [id, entry] of Object.entries(saved)) {
        const p = byId.get(Number(id));
        if (p === undefined) throw new ArgumentError(`${where}: the state dict has state for parameter ${id}, which none of its param groups lists`);
        if (!isPlainObject(entry)) throw new ArgumentError(`${where}: the state of parameter ${id} must be an object, got ${describeValue(entry)}`);
        const st: ParamState = {};
        out.set(p, st);
        for (const [key, v] of Object.entries(entry)) {
          const k = camel(key);
          if (v === null || v === undefined) continue;
          if (k === "step") st.step = stepValue(v, `${where}: parameter ${id}'s step`);
          else if (!known.has(k)) throw new ArgumentError(`${where}: parameter ${id} has state "${key}", which ${this.#algorithm.options.name} does not keep (it keeps ${[...known, "step"].join(", ")})`);
          else st[k] = keep(stateTensor(v, p, `${where}: parameter ${id}'s ${k}`));
        }
      }
    } catch (error) {
      for (const st of out.values()) for (const v of Object.values(st)) if (v instanceof Tensor) v.dispose();
      throw error;
    }
    return out;
  }

  #disposeState(): void {
    for (const st of this.state.values()) for (const v of Object.values(st)) if (v instanceof Tensor) v.dispose();
    this.state.clear();
  }
}

function readSetToNone(name: string, options: unknown): boolean {
  if (!isPlainObject(options)) throw new ArgumentError(`${name}.zeroGrad: expected { setToNone } or a bool, got ${describeValue(options)}`);
  for (const key of Object.keys(options)) {
    if (key !== "setToNone") throw new ArgumentError(`${name}.zeroGrad: unknown option "${key}"; the one option is "setToNone"`);
  }
  const v = options.setToNone ?? true;
  if (typeof v !== "boolean") throw new ArgumentError(`${name}.zeroGrad: "setToNone" must be a bool, got ${describeValue(v)}`);
  return v;
}

function stepValue(v: unknown, what: string): number {
  const n = v instanceof Tensor ? (v.numel() === 1 ? Number(v.item()) : NaN) : v;
  if (typeof n !== "number" || !Number.isFinite(n) || n < 0) throw new ArgumentError(`${what} must be a count >= 0 (a number or a one-element tensor), got ${describeValue(v)}`);
  return n;
}

function stateTensor(v: unknown, p: Tensor, what: string): Tensor {
  if (!(v instanceof Tensor)) throw new ArgumentError(`${what} must be a Tensor, got ${describeValue(v)}`);
  if (v.shape.length !== p.shape.length || v.shape.some((d, i) => d !== p.shape[i])) {
    throw new ShapeError(`${what} has shape [${v.shape.join(", ")}] but its parameter has shape [${p.shape.join(", ")}]`);
  }
  return v.to({ device: p.device, dtype: p.dtype, copy: true });
}

/** The param groups of the constructor's `params`: one group of tensors, or the groups given. */
function groupsOf(name: string, params: ParamsInput): ParamGroupInput[] {
  if (params instanceof Tensor || !isIterable(params) || typeof params === "string") {
    throw new ArgumentError(`${name}: params must be an iterable of Tensors or of param groups ({ params, ...options }), got ${describeValue(params)}${params instanceof Tensor ? "; wrap it in an array" : ""}`);
  }
  const list = [...params];
  if (list.length === 0) throw new ArgumentError(`${name}: got an empty parameter list; give it the tensors to optimize (model.parameters())`);
  if (list.every(isPlainObject)) return list as ParamGroupInput[];
  if (list.some(isPlainObject)) throw new ArgumentError(`${name}: params mixes param groups ({ params, … }) with tensors; give one or the other`);
  return [{ params: list as Iterable<Tensor> }];
}

/** A group's parameters (and their names, when given as [name, tensor] pairs), checked. */
function paramsOf(where: string, given: unknown): { params: Tensor[]; names: string[] | undefined } {
  if (given instanceof Tensor) given = [given];
  if (given instanceof Set) throw new ArgumentError(`${where}: params must be an ordered collection (an array), not a Set, so that parameters keep their order across runs`);
  if (!isIterable(given) || typeof given === "string") throw new ArgumentError(`${where}: params must be a Tensor or an iterable of Tensors, got ${describeValue(given)}`);
  const params: Tensor[] = [];
  const names: string[] = [];
  for (const item of given) {
    const named = Array.isArray(item) && item.length === 2 && typeof item[0] === "string";
    const candidate: unknown = named ? item[1] : item;
    if (named) names.push(item[0] as string);
    if (!(candidate instanceof Tensor)) throw new ArgumentError(`${where}: optimizers optimize Tensors, but parameter ${params.length} is ${describeValue(candidate)}`);
    const p: Tensor = candidate;
    if (!p.isLeaf) throw new ArgumentError(`${where}: parameter ${params.length} is not a leaf (it was computed by ${p.gradFn!.name}); optimize the leaf tensors it came from`);
    if (dtypes[p.dtype].kind !== "float") throw new DTypeError(`${where}: parameter ${params.length} is ${p.dtype}; optimizers update floating-point tensors`);
    params.push(p);
  }
  if (names.length !== 0 && names.length !== params.length) throw new ArgumentError(`${where}: give every parameter with a name ([name, tensor]) or none`);
  return { params, names: names.length === 0 ? undefined : names };
}
