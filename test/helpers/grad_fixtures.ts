/**
 * @file The gradients in the conformance fixtures (PyTorch's vector-Jacobian products, `grad` of a
 * case): run the case with its float32/float64 inputs requiring grad, take torch.autograd.grad of its
 * float outputs with the fixture's cotangents, and compare with PyTorch's gradient of each input.
 */
import type * as TorchModule from "../../src/index.js";
import { callArgs, compareTensor, type FixtureCase, makeInput, resolveFunction, type TensorSpec } from "./fixtures.js";

type Torch = typeof TorchModule;
type AnyTensor = TorchModule.Tensor;

const differentiable = (dtype: string): boolean => dtype === "float32" || dtype === "float64";

/** The result's tensors in PyTorch's order (a tensor; a list; a named tuple's fields in the fixture's order). */
export function outputsOf(torch: Torch, c: FixtureCase, result: unknown): AnyTensor[] {
  if (result instanceof torch.Tensor) return [result];
  if (Array.isArray(result)) return result as AnyTensor[];
  const e = c.expected;
  if ("fields" in e && result !== null && typeof result === "object") return Object.keys(e.fields).map((k) => (result as Record<string, AnyTensor>)[k]!);
  return [];
}

/** Gradient tolerances: the forward's, widened (a gradient is a longer computation than its value). */
function tolerances(c: FixtureCase, dtype: string): [number, number] {
  const wide = dtype === "float64" ? 1e-9 : 2e-5;
  return [Math.max((c.rtol ?? 0) * 4, wide), Math.max((c.atol ?? 0) * 4, wide)];
}

/** Calls a case's op (function or method) on `inputs`. */
export function callCase(torch: Torch, c: FixtureCase, inputs: readonly AnyTensor[], device: string): unknown {
  const args = callArgs(c, inputs, device);
  const fn = resolveFunction(torch, c.name);
  return fn !== undefined ? fn(...args) : ((args[0] as Record<string, (...a: unknown[]) => unknown>)[c.method!]!)(...args.slice(1));
}

/** Runs a case's gradient check on `device`; returns the first mismatch, or undefined. */
export async function runGradCase(torch: Torch, c: FixtureCase, device: string): Promise<string | undefined> {
  const spec = c.grad!;
  const inputs: AnyTensor[] = [];
  const made: AnyTensor[] = [];
  try {
    for (const s of c.inputs) {
      const t = makeInput(torch, s, device);
      inputs.push(differentiable(s.dtype) ? t.requiresGrad_() : t);
    }
    const all = outputsOf(torch, c, callCase(torch, c, inputs, device));
    made.push(...all);
    const outs = all.filter((o) => differentiable(o.dtype) && o.requiresGrad);
    if (outs.length !== spec.cotangents.length) {
      return `${outs.length} outputs require grad (${all.map((o) => `${o.dtype}${o.requiresGrad ? "" : " without grad"}`).join(", ")}), PyTorch has ${spec.cotangents.length}`;
    }
    const cts = spec.cotangents.map((s) => makeInput(torch, s, device));
    made.push(...cts);
    const wrt = inputs.filter((t) => t.requiresGrad);
    const grads = torch.autograd.grad(outs, wrt, { gradOutputs: cts, allowUnused: true });
    made.push(...grads.filter((g): g is AnyTensor => g !== null));
    let k = 0;
    for (let i = 0; i < inputs.length; i++) {
      if (!inputs[i]!.requiresGrad) continue;
      const got = grads[k++] ?? null;
      const want: TensorSpec | null = spec.inputs[i] ?? null;
      if (want === null) {
        if (got === null) continue;
        const magnitude = got.abs();
        const largest = magnitude.max();
        made.push(magnitude, largest);
        if ((await largest.data())[0] !== 0) return `gradient of input ${i}: PyTorch has none (unused), we give nonzero values`;
        continue;
      }
      if (got === null) return `gradient of input ${i}: we give none, PyTorch has one`;
      const [rtol, atol] = tolerances(c, want.dtype);
      const m = await compareTensor(torch, got, want, rtol, atol, `gradient of input ${i}`, device);
      if (m) return m;
    }
    return undefined;
  } finally {
    for (const t of made) t.dispose();
    for (const t of inputs) t.dispose();
  }
}
