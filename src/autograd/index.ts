/**
 * @file The public autograd API: `t.backward()`, `torch.autograd.backward` / `grad`, hooks, and the
 * grad-mode functions. Installs the tape recorder into eager dispatch.
 */
import { onesLike, zerosLike } from "../ops/creation/filled.js";
import { ArgumentError, ShapeError } from "../runtime/errors.js";
import { autogradMethods, Tensor } from "../tensor.js";
import { setRecorder } from "../trace/eager.js";
import { execute, type Root, registerHook, retainGrad } from "./backward.js";
import { recordUnit } from "./grad_fn.js";

export { GradFn, type Edge, type GradHook } from "./grad_fn.js";
export type { HookHandle } from "./backward.js";
export { enableGrad, inferenceMode, isGradEnabled, noGrad, setGradEnabled } from "./grad_mode.js";

setRecorder(recordUnit);

/** Options of `t.backward()` and `torch.autograd.backward()`. */
export interface BackwardOptions {
  /** Keep what the graph saved so that it can be differentiated again (default: createGraph). */
  retainGraph?: boolean;
  /** Record the backward itself, so that gradients can be differentiated (second order). */
  createGraph?: boolean;
  /** Accumulate only into these tensors' `.grad` (default: every leaf). */
  inputs?: Tensor | readonly Tensor[];
}

/** Options of `torch.autograd.grad()`. */
export interface GradOptions {
  /** The cotangent of each output (required for outputs with more than one element). */
  gradOutputs?: Tensor | readonly (Tensor | null)[] | null;
  retainGraph?: boolean;
  createGraph?: boolean;
  /** Return null for an input the outputs do not depend on instead of throwing. */
  allowUnused?: boolean;
  /** Return zeros instead of null for unused inputs. */
  materializeGrads?: boolean;
}

function checkOptions(op: string, options: object | undefined, allowed: readonly string[]): void {
  if (options === undefined) return;
  if (options === null || typeof options !== "object" || options instanceof Tensor || Array.isArray(options)) {
    throw new ArgumentError(`${op}: options must be an object with ${allowed.join(", ")}`);
  }
  for (const [key, value] of Object.entries(options)) {
    if (!allowed.includes(key)) throw new ArgumentError(`${op}: got an unknown option "${key}"; the options are ${allowed.join(", ")}`);
    if (key !== "inputs" && key !== "gradOutputs" && value !== undefined && typeof value !== "boolean") {
      throw new ArgumentError(`${op}: option "${key}" must be a bool, got ${typeof value}`);
    }
  }
}

const asList = <T>(v: T | readonly T[]): T[] => (Array.isArray(v) ? [...(v as readonly T[])] : [v as T]);

function checkTensors(op: string, what: string, list: readonly unknown[]): Tensor[] {
  return list.map((t, i) => {
    if (!(t instanceof Tensor)) throw new ArgumentError(`${op}: ${what}[${i}] must be a Tensor, got ${t === null ? "null" : typeof t}`);
    return t;
  });
}

/** Each output with its cotangent: the given one (checked), or ones for a one-element output. */
function rootsOf(op: string, outputs: readonly Tensor[], grads: readonly (Tensor | null | undefined)[]): Root[] {
  if (grads.length > 0 && grads.length !== outputs.length) {
    throw new ArgumentError(`${op}: got ${grads.length} gradients for ${outputs.length} tensors; give one per tensor`);
  }
  return outputs.map((t, i): Root => {
    if (!t.requiresGrad) {
      throw new ArgumentError(
        `${op}: element ${i} of tensors does not require grad and does not have a gradFn; nothing recorded it. ` +
          "Set requiresGrad on the leaves to differentiate (torch.tensor(x, { requiresGrad: true }) or w.requiresGrad_()), outside torch.noGrad",
      );
    }
    const g = grads[i];
    if (g === null || g === undefined) {
      if (t.numel() !== 1) {
        throw new ShapeError(`${op}: a gradient can be created implicitly only for one-element outputs; tensor ${i} is ${t.dtype}[${t.shape.join(", ")}], so pass its gradient`);
      }
      return [t, onesLike(t), true];
    }
    if (!(g instanceof Tensor)) throw new ArgumentError(`${op}: gradient ${i} must be a Tensor or null`);
    if (g.shape.join() !== t.shape.join() || g.dtype !== t.dtype || g.device !== t.device) {
      throw new ShapeError(`${op}: gradient ${i} is ${g.dtype}[${g.shape.join(", ")}] on ${g.device}; it must match its tensor, ${t.dtype}[${t.shape.join(", ")}] on ${t.device}`);
    }
    return [t, g, false];
  });
}

/**
 * Accumulates into the leaves' `.grad` the gradient of `tensors` weighted by `gradTensors`
 * (PyTorch's `torch.autograd.backward`).
 */
export function backward(tensors: Tensor | readonly Tensor[], gradTensors?: Tensor | readonly (Tensor | null)[] | null, options?: BackwardOptions): void {
  checkOptions("backward", options, ["retainGraph", "createGraph", "inputs"]);
  const roots = checkTensors("backward", "tensors", asList(tensors));
  const grads = gradTensors === undefined || gradTensors === null ? [] : asList(gradTensors);
  const createGraph = options?.createGraph ?? false;
  const only = options?.inputs === undefined ? undefined : checkTensors("backward", "inputs", asList(options.inputs));
  if (only?.length === 0) throw new ArgumentError("backward: inputs must not be empty");
  execute(rootsOf("backward", roots, grads), { retainGraph: options?.retainGraph ?? createGraph, createGraph, only: only && new Set(only) });
}

/**
 * The gradients of `outputs` with respect to `inputs`, returned instead of accumulated into `.grad`
 * (PyTorch's `torch.autograd.grad`); null for an unused input when `allowUnused`.
 */
export function grad(outputs: Tensor | readonly Tensor[], inputs: Tensor | readonly Tensor[], options?: GradOptions): (Tensor | null)[] {
  checkOptions("grad", options, ["gradOutputs", "retainGraph", "createGraph", "allowUnused", "materializeGrads"]);
  const outs = checkTensors("grad", "outputs", asList(outputs));
  const ins = checkTensors("grad", "inputs", asList(inputs));
  ins.forEach((t, i) => {
    if (!t.requiresGrad) throw new ArgumentError(`grad: inputs[${i}] does not require grad, so it has no gradient; set requiresGrad on it before computing the outputs`);
  });
  const given = options?.gradOutputs;
  const grads = given === undefined || given === null ? [] : asList(given);
  const createGraph = options?.createGraph ?? false;
  const captured = execute(rootsOf("grad", outs, grads), { retainGraph: options?.retainGraph ?? createGraph, createGraph, capture: new Set(ins) });
  return ins.map((t, i) => {
    const g = captured.get(t);
    if (g !== undefined) return g;
    if (options?.materializeGrads) return zerosLike(t);
    if (!options?.allowUnused) {
      throw new ArgumentError(`grad: inputs[${i}] was not used to compute the outputs; pass { allowUnused: true } to get null for it`);
    }
    return null;
  });
}

autogradMethods.backward = (t, gradient, options) => {
  if (gradient !== undefined && gradient !== null && !(gradient instanceof Tensor)) {
    if (options !== undefined) throw new ArgumentError("backward: pass the options once, after the gradient");
    backward(t, undefined, gradient);
  } else {
    backward(t, gradient ?? undefined, options);
  }
};
autogradMethods.registerHook = registerHook;
autogradMethods.retainGrad = retainGrad;

/** `torch.autograd`. */
export const autograd = { backward, grad };

export * as func from "./func.js";
export type { FuncGradOptions } from "./func.js";
