/**
 * @file Grad mode: whether ops record what autograd needs. `noGrad(fn)`, `enableGrad(fn)`,
 * `inferenceMode(fn)` and `setGradEnabled(flag)`, as in PyTorch (context managers become functions
 * that run `fn`; an async `fn` keeps the mode until its promise settles).
 */
import { ArgumentError } from "../runtime/errors.js";

let enabled = true;

/** Whether ops on tensors that require grad record their backward (PyTorch's `torch.is_grad_enabled()`). */
export function isGradEnabled(): boolean {
  return enabled;
}

/** Turns recording on or off from here on (PyTorch's `torch.set_grad_enabled(mode)`). */
export function setGradEnabled(mode: boolean): void {
  if (typeof mode !== "boolean") throw new ArgumentError(`setGradEnabled: mode must be a bool, got ${typeof mode}`);
  enabled = mode;
}

function withMode<T>(op: string, mode: boolean, fn: () => T): T {
  if (typeof fn !== "function") throw new ArgumentError(`${op}(fn): fn must be a function`);
  const previous = enabled;
  enabled = mode;
  let result: T;
  try {
    result = fn();
  } catch (error) {
    enabled = previous;
    throw error;
  }
  if (typeof (result as { then?: unknown } | null)?.then !== "function") {
    enabled = previous;
    return result;
  }
  return Promise.resolve(result).finally(() => {
    enabled = previous;
  }) as T;
}

/** Runs `fn` with recording off: results do not require grad (PyTorch's `with torch.no_grad():`). */
export function noGrad<T>(fn: () => T): T {
  return withMode("noGrad", false, fn);
}

/** Runs `fn` with recording on, inside noGrad too (PyTorch's `with torch.enable_grad():`). */
export function enableGrad<T>(fn: () => T): T {
  return withMode("enableGrad", true, fn);
}

/**
 * Runs `fn` with recording off (PyTorch's `with torch.inference_mode():`). Here it is noGrad: every
 * tensor owns its buffer, so there is no view or version bookkeeping for it to skip.
 */
export function inferenceMode<T>(fn: () => T): T {
  return withMode("inferenceMode", false, fn);
}
