/**
 * @file The backward engine: from root tensors and their cotangents, runs every recorded GradFn the
 * roots depend on, newest first (a GradFn runs once all the later ones that use its outputs have
 * given their cotangents), and delivers each leaf's gradient: accumulated into `.grad` (backward) or
 * returned (autograd.grad). Tensor hooks, retainGrad and PyTorch's errors live here too.
 */
import { keep } from "../memory.js";
import { ArgumentError, ShapeError } from "../runtime/errors.js";
import { gradSlot, rebind, Tensor } from "../tensor.js";
import { type GradFn, type GradHook } from "./grad_fn.js";
import { enableGrad, noGrad } from "./grad_mode.js";

/** Hooks on leaves' gradients (a non-leaf's hooks live on its GradFn). */
const leafHooks = new WeakMap<Tensor, GradHook[]>();

export interface HookHandle {
  /** Unregisters the hook. */
  remove(): void;
}

/** PyTorch's `register_hook`: `fn` sees this tensor's gradient each time backward computes it and may return a replacement. */
export function registerHook(t: Tensor, fn: GradHook): HookHandle {
  if (typeof fn !== "function") throw new ArgumentError("registerHook(fn): fn must be a function");
  if (!t.requiresGrad) throw new ArgumentError("registerHook: cannot register a hook on a tensor that doesn't require gradient");
  const { gradFn, outputIndex } = gradSlot.get(t);
  let list: GradHook[];
  if (gradFn === null) {
    list = leafHooks.get(t) ?? [];
    leafHooks.set(t, list);
  } else {
    list = gradFn.hooks.get(outputIndex) ?? [];
    gradFn.hooks.set(outputIndex, list);
  }
  list.push(fn);
  return {
    remove: () => {
      const i = list.indexOf(fn);
      if (i >= 0) list.splice(i, 1);
    },
  };
}

/** PyTorch's `retain_grad`: a non-leaf keeps its gradient in `.grad` after backward (a leaf does anyway). */
export function retainGrad(t: Tensor): void {
  if (!t.requiresGrad) throw new ArgumentError("retainGrad: can't retain the grad of a tensor that has requiresGrad false");
  const { gradFn, outputIndex } = gradSlot.get(t);
  gradFn?.retained.set(outputIndex, t);
}

/** The gradient after the hooks (a hook may return a replacement; the one it replaces is disposed if ours). */
function runHooks(hooks: readonly GradHook[] | undefined, grad: Tensor, owned: Set<Tensor>): Tensor {
  let g = grad;
  for (const hook of hooks ?? []) {
    const replaced = hook(g);
    if (replaced === undefined || replaced === g) continue;
    if (!(replaced instanceof Tensor) || replaced.shape.join() !== g.shape.join() || replaced.dtype !== g.dtype) {
      throw new ShapeError(`registerHook: a hook must return undefined or a tensor like its gradient (${g.dtype}[${g.shape.join(", ")}])`);
    }
    if (owned.delete(g)) g.dispose();
    g = replaced;
  }
  return g;
}

interface Run {
  readonly retainGraph: boolean;
  readonly createGraph: boolean;
  /** autograd.grad: the tensors whose gradients are returned (nothing is accumulated into .grad). */
  readonly capture?: ReadonlySet<Tensor>;
  /** backward({ inputs }): the only tensors that get .grad. */
  readonly only?: ReadonlySet<Tensor>;
}

/** Gradients by tensor, for autograd.grad. */
type Captured = Map<Tensor, Tensor>;

function sum(a: Tensor, b: Tensor, owned: Set<Tensor>): Tensor {
  const s = a.add(b);
  for (const t of [a, b]) if (owned.delete(t)) t.dispose();
  owned.add(s);
  return s;
}

/** Hands `g` (owned or not) to `t`: captured for autograd.grad, or accumulated into `t.grad`. */
function deliver(t: Tensor, g: Tensor, run: Run, owned: Set<Tensor>, captured: Captured): void {
  if (run.capture !== undefined) {
    if (!run.capture.has(t)) return;
    const earlier = captured.get(t);
    const value = earlier === undefined ? g : sum(earlier, g, owned);
    owned.delete(value);
    captured.set(t, value);
    return;
  }
  if (run.only !== undefined && !run.only.has(t)) return;
  const existing = t.grad;
  if (existing === null) {
    // .grad owns its tensor: one we did not make (a user's cotangent, a hook's result) is copied
    gradSlot.setGrad(t, keep(owned.delete(g) ? g : g.clone()));
  } else if (run.createGraph) {
    gradSlot.setGrad(t, keep(existing.add(g)));
  } else {
    rebind(existing, existing.add(g));
  }
}

/** A tensor to differentiate, its cotangent, and whether the engine may dispose the cotangent. */
export type Root = readonly [tensor: Tensor, cotangent: Tensor, owned: boolean];

/** Runs backward from `roots`. Returns the captured gradients for autograd.grad. */
export function execute(roots: readonly Root[], run: Run): Captured {
  return (run.createGraph ? enableGrad : noGrad)(() => {
    const owned = new Set<Tensor>();
    const captured: Captured = new Map();
    const pending = new Map<GradFn, (Tensor | null)[]>();
    const add = (fn: GradFn, k: number, g: Tensor): void => {
      let cts = pending.get(fn);
      if (cts === undefined) pending.set(fn, (cts = Array.from({ length: fn.numOutputs }, () => null)));
      const earlier = cts[k];
      cts[k] = earlier === null || earlier === undefined ? g : sum(earlier, g, owned);
    };
    // non-leaf tensors whose gradient autograd.grad returns, by where it arrives
    const capturedAt = new Map<GradFn, Map<number, Tensor>>();
    for (const t of run.capture ?? []) {
      const { gradFn, outputIndex } = gradSlot.get(t);
      if (gradFn === null) continue;
      const at = capturedAt.get(gradFn) ?? new Map<number, Tensor>();
      capturedAt.set(gradFn, at.set(outputIndex, t));
    }
    const order: GradFn[] = [];
    const seen = new Set<GradFn>();
    const visit = (fn: GradFn): void => {
      const stack = [fn];
      while (stack.length > 0) {
        const f = stack.pop()!;
        if (seen.has(f)) continue;
        seen.add(f);
        order.push(f);
        for (const edge of f.nextFunctions) if (edge !== null && "gradFn" in edge) stack.push(edge.gradFn);
      }
    };
    for (const [t, ct, isOwned] of roots) {
      if (isOwned) owned.add(ct);
      const { gradFn, outputIndex } = gradSlot.get(t);
      if (gradFn === null) {
        deliver(t, runHooks(leafHooks.get(t), ct, owned), run, owned, captured);
        continue;
      }
      add(gradFn, outputIndex, ct);
      visit(gradFn);
    }
    order.sort((a, b) => b.sequence - a.sequence);
    try {
      for (const fn of order) {
        const cts = pending.get(fn);
        pending.delete(fn);
        if (cts !== undefined) runOne(fn, cts, run, owned, captured, capturedAt.get(fn), add);
        if (!run.retainGraph) fn.release();
      }
    } finally {
      for (const t of owned) t.dispose();
    }
    return captured;
  });
}

function runOne(
  fn: GradFn, cts: (Tensor | null)[], run: Run, owned: Set<Tensor>, captured: Captured,
  capturedHere: Map<number, Tensor> | undefined, add: (fn: GradFn, k: number, g: Tensor) => void,
): void {
  for (let k = 0; k < cts.length; k++) {
    const ct = cts[k];
    if (ct === null || ct === undefined) continue;
    const hooked = runHooks(fn.hooks.get(k), ct, owned);
    cts[k] = hooked;
    const retained = fn.retained.get(k);
    if (retained !== undefined && run.capture === undefined) deliver(retained, hooked, { ...run, only: undefined }, new Set(), captured);
    const target = capturedHere?.get(k);
    if (target !== undefined) {
      owned.delete(hooked);
      captured.set(target, hooked);
    }
  }
  if (cts.every((c) => c === null || c === undefined)) return;
  const grads = fn.apply(cts.map((c) => c ?? null));
  for (const c of cts) if (c && owned.delete(c)) c.dispose();
  grads.forEach((g, i) => {
    if (g === null) return;
    owned.add(g);
    const edge = fn.nextFunctions[i];
    if (edge === null || edge === undefined) return;
    if ("leaf" in edge) deliver(edge.leaf, runHooks(leafHooks.get(edge.leaf), g, owned), run, owned, captured);
    else add(edge.gradFn, edge.outputIndex, g);
  });
}
