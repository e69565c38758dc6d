/**
 * @file The tape: when an eager unit runs on tensors that require grad, a GradFn records it (the
 * unit's cached entry, which holds its traced graph; the inputs its backward needs; where each
 * input's gradient goes). A GradFn's backward is itself a unit: the VJP of the unit's graph, traced
 * and compiled once per signature and cached like any eager unit (DESIGN §7).
 */
import { dtypes } from "../dtype.js";
import * as e from "../ops/emit.js";
import { ArgumentError } from "../runtime/errors.js";
import { gradSlot, type Tensor } from "../tensor.js";
import type { UnitInfo } from "../trace/cache.js";
import { dispatch } from "../trace/eager.js";
import { tracing } from "../trace/inline.js";
import { trace, type Tracer } from "../trace/tracer.js";
import { graphVjp, inputsReachingOutputs, outputsReachedFrom } from "./graph_vjp.js";
import { isGradEnabled, noGrad } from "./grad_mode.js";

/** Where an input's gradient goes: the output of another GradFn, or a leaf's `.grad`. */
export type Edge = { readonly gradFn: GradFn; readonly outputIndex: number } | { readonly leaf: Tensor };

export type GradHook = (grad: Tensor) => Tensor | void;

let sequence = 0;

/** The sequence number the next GradFn gets: every GradFn recorded after this call has one at least as large. */
export const nextGradFnSequence = (): number => sequence;

const unitIds = new WeakMap<UnitInfo, number>();
let nextUnitId = 0;
/** A number that names one eager unit signature. */
function unitId(entry: UnitInfo): number {
  let id = unitIds.get(entry);
  if (id === undefined) unitIds.set(entry, (id = nextUnitId++));
  return id;
}

/** `gelu` → `GeluBackward`, `nn.functional.conv2d` → `Conv2dBackward`. */
const backwardName = (op: string): string => {
  const last = op.slice(op.lastIndexOf(".") + 1);
  return `${last.charAt(0).toUpperCase()}${last.slice(1)}Backward`;
};

const isFloat = (t: { dtype: keyof typeof dtypes }): boolean => dtypes[t.dtype].kind === "float";

/** The backward function of one recorded op (PyTorch's `grad_fn`). */
export class GradFn {
  /** `"MulBackward"`, `"SoftmaxBackward"`: the op's name and "Backward". */
  readonly name: string;
  /** Per input: where its gradient goes, or null when it needs none. */
  readonly nextFunctions: readonly (Edge | null)[];
  /** Creation order: a GradFn runs after every GradFn created later that uses its outputs. */
  readonly sequence = sequence++;
  /** Hooks on this function's outputs' gradients (from registerHook on a non-leaf), and outputs that keep their grad. */
  readonly hooks = new Map<number, GradHook[]>();
  readonly retained = new Map<number, Tensor>();

  readonly #op: string;
  readonly #statics: string;
  readonly #entry: UnitInfo;
  readonly #wrt: readonly boolean[];
  /** Whether it holds its saved tensors (one recorded inside torch.compile's trace holds none: its graph is thrown away). */
  readonly #holds = tracing() === undefined;
  /** The inputs the backward reads (by input index), with their versions when recorded; null once released. */
  #saved: Map<number, { tensor: Tensor; version: number }> | null;

  constructor(op: string, statics: string, entry: UnitInfo, inputs: readonly Tensor[], wrt: readonly boolean[], needed: readonly number[]) {
    this.name = backwardName(op);
    this.#op = op;
    this.#statics = statics;
    this.#entry = entry;
    this.#wrt = wrt;
    this.nextFunctions = inputs.map((t, i) => {
      if (!wrt[i]) return null;
      const { gradFn, outputIndex } = gradSlot.get(t);
      gradFn?.ref();
      return gradFn === null ? { leaf: t } : { gradFn, outputIndex };
    });
    this.#saved = new Map(needed.map((i) => {
      const t = inputs[i]!;
      if (this.#holds) gradSlot.retain(t);
      return [i, { tensor: t, version: gradSlot.get(t).version }];
    }));
  }

  get numOutputs(): number {
    return this.#entry.outputs.length;
  }

  /** The aval of output k (a cotangent of it has this shape and dtype). */
  output(k: number): { readonly dtype: keyof typeof dtypes; readonly shape: readonly number[] } {
    return this.#entry.outputs[k]!;
  }

  /**
   * Runs the backward unit: one gradient per input (null where `nextFunctions` is null), from one
   * cotangent per output (null: zero; at least one given).
   */
  apply(cts: readonly (Tensor | null)[]): (Tensor | null)[] {
    const saved = this.#saved;
    if (saved === null) {
      throw new ArgumentError(
        `${this.name}: trying to backward through the graph a second time (or to read tensors saved for backward after they were freed). ` +
          "The tensors a graph saves are freed when backward() or autograd.grad() finishes; pass { retainGraph: true } to the first call to backward twice",
      );
    }
    for (const [i, { tensor, version }] of saved) {
      const now = gradSlot.get(tensor).version;
      if (now !== version) {
        throw new ArgumentError(
          `${this.name}: one of the tensors needed for gradient computation has been modified by an in-place operation: input ${i}, ` +
            `a ${tensor.dtype}[${tensor.shape.join(", ")}] tensor, is at version ${now}; expected version ${version}. ` +
            "Use an out-of-place op (x = x.add(y) instead of x.add_(y)), or clone the tensor before changing it",
        );
      }
    }
    const given = cts.map((c) => c !== null);
    const savedIndices = [...saved.keys()];
    const inputs = [...savedIndices.map((i) => saved.get(i)!.tensor), ...cts.filter((c): c is Tensor => c !== null)];
    const avals = this.#entry.graph.inputs;
    // the forward's signature (its entry) fixes the shapes of the inputs the backward does not read
    const key = `${this.#statics}|vjp ${unitId(this.#entry)} ${this.#wrt.map(Number).join("")} ${given.map(Number).join("")}`;
    const body = (tracers: Tracer[]): Tracer[] => {
      const primals = avals.map((a, i) => {
        const k = savedIndices.indexOf(i);
        return k >= 0 ? tracers[k]! : e.full(0, a.dtype, a.shape); // an input the backward does not read
      });
      let next = savedIndices.length;
      const ctTracers = given.map((g) => (g ? tracers[next++]! : null));
      const grads = graphVjp(this.#entry.graph, primals, ctTracers, this.#wrt);
      return avals.flatMap((a, i) => (this.#wrt[i] ? [grads[i] ?? e.full(0, a.dtype, a.shape)] : []));
    };
    const out = dispatch(`${this.#op}Backward`, key, inputs, body, this.#entry.device);
    const grads = Array.isArray(out) ? out : [out];
    let k = 0;
    return this.#wrt.map((w) => (w ? grads[k++]! : null));
  }

  /**
   * Called before `t` is overwritten by this function's own in-place op (`y.mul_(x)`): if the
   * backward reads `t`, it gets a copy of the values from before.
   */
  keepOriginal(t: Tensor): void {
    const saved = this.#saved;
    if (saved === null) return;
    for (const [i, entry] of saved) {
      if (entry.tensor !== t) continue;
      const copy = noGrad(() => t.clone());
      if (this.#holds) gradSlot.retain(copy);
      saved.set(i, { tensor: copy, version: gradSlot.get(copy).version });
      copy.dispose(); // only this function holds it now: freed when released
      if (this.#holds) gradSlot.release(t);
    }
  }

  /** Tensors and functions that may still backward through this one. */
  #refs = 0;

  ref(): void {
    this.#refs++;
  }

  /** When nothing can reach this function any more, its saved tensors and its hold on earlier functions go. */
  unref(): void {
    if (--this.#refs > 0) return;
    this.release();
    for (const edge of this.nextFunctions) if (edge !== null && "gradFn" in edge) edge.gradFn.unref();
  }

  /** Lets go of the saved tensors (after a backward without retainGraph). */
  release(): void {
    if (this.#saved === null) return;
    const saved = this.#saved;
    // a function that saved nothing can run again, as in PyTorch
    if (saved.size === 0) return;
    this.#saved = null;
    if (this.#holds) for (const { tensor } of saved.values()) gradSlot.release(tensor);
  }
}

/**
 * Which inputs a unit's backward reads when `wrt` inputs need gradients (every float output given a
 * cotangent): traced once per unit signature and input mask, then cached on the unit's entry.
 */
function neededInputs(entry: UnitInfo, wrt: readonly boolean[]): readonly number[] {
  const key = wrt.map(Number).join("");
  const plans = (entry.vjpPlans ??= new Map());
  let needed = plans.get(key);
  if (needed !== undefined) return needed;
  const primals = entry.graph.inputs;
  const outs = entry.outputs.filter(isFloat);
  try {
    const { graph } = trace([...primals, ...outs], (tracers) => {
      let k = primals.length;
      const cts = entry.outputs.map((o) => (isFloat(o) ? tracers[k++]! : null));
      const grads = graphVjp(entry.graph, tracers.slice(0, primals.length), cts, wrt);
      return primals.flatMap((a, i) => (wrt[i] ? [grads[i] ?? e.full(0, a.dtype, a.shape)] : []));
    });
    const used = new Set<number>([...graph.outputs, ...graph.nodes.flatMap((n) => n.inputs)]);
    needed = primals.map((_, i) => i).filter((i) => used.has(i));
  } catch (err) {
    // a rule refusing a needed gradient (zeta's input): PyTorch raises at backward, so keep every input and let backward throw
    if (!(err instanceof ArgumentError)) throw err;
    needed = primals.map((_, i) => i);
  }
  plans.set(key, needed);
  return needed;
}

/**
 * Records a unit that just ran (called by eager dispatch when an input requires grad). For a compiled
 * function's whole graph (`wholeFunction`), an input that no output depends on gets no gradient
 * (its grad stays null, as in PyTorch): a parameter the function does not use, or one it reads only
 * under noGrad or through detach().
 */
export function recordUnit(op: string, statics: string, entry: UnitInfo, inputs: readonly Tensor[], outputs: readonly Tensor[], wholeFunction = false): void {
  if (!isGradEnabled()) return;
  let wrt = inputs.map((t) => t.requiresGrad);
  // a whole function's outputs carry a gradient only where one reaches them (not a detached result)
  let carries: readonly boolean[] = outputs.map(isFloat);
  if (wholeFunction) {
    const reaching = (entry.reaching ??= inputsReachingOutputs(entry.graph));
    wrt = wrt.map((w, i) => w && reaching[i]!);
    if (!wrt.some((w) => w)) return;
    const key = wrt.map(Number).join("");
    const reached = (entry.reached ??= new Map());
    if (!reached.has(key)) reached.set(key, outputsReachedFrom(entry.graph, wrt));
    carries = reached.get(key)!;
  }
  if (!carries.some((c) => c)) return;
  const fn = new GradFn(op, statics, entry, inputs, wrt, neededInputs(entry, wrt));
  outputs.forEach((t, k) => {
    if (carries[k]) gradSlot.setHistory(t, fn, k);
  });
}

/**
 * Of `candidates`, those whose gradient the recorded history of `outputs` does not reach, looking only
 * at GradFns recorded since `since` (a nextGradFnSequence()), so the walk covers one region of work.
 */
export function unreachedBy(outputs: readonly Tensor[], candidates: readonly Tensor[], since: number): Tensor[] {
  const leaves = new Set<Tensor>(outputs);
  const slots = new Set<string>();
  const seen = new Set<GradFn>();
  const slotKey = (fn: GradFn, k: number) => `${fn.sequence}:${k}`;
  const stack: GradFn[] = [];
  for (const t of outputs) {
    const { gradFn, outputIndex } = gradSlot.get(t);
    if (gradFn !== null) slots.add(slotKey(gradFn, outputIndex)), stack.push(gradFn);
  }
  while (stack.length > 0) {
    const fn = stack.pop()!;
    if (fn.sequence < since || seen.has(fn)) continue;
    seen.add(fn);
    for (const edge of fn.nextFunctions) {
      if (edge === null) continue;
      if ("leaf" in edge) leaves.add(edge.leaf);
      else slots.add(slotKey(edge.gradFn, edge.outputIndex)), stack.push(edge.gradFn);
    }
  }
  return candidates.filter((t) => {
    const { gradFn, outputIndex } = gradSlot.get(t);
    return gradFn === null ? !leaves.has(t) : !slots.has(slotKey(gradFn, outputIndex));
  });
}
