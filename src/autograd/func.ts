/**
 * @file `torch.func`: gradients of functions of tensors (PyTorch's torch.func / functorch names):
 * `grad(f)`, `valueAndGrad(f)`, `vjp(f, ...primals)`. Built on the tape: each call runs `f` on copies
 * of the differentiated arguments that are linked to the originals, so the results compose
 * (`grad(grad(f))`) and work inside torch.noGrad too.
 */
import { tidy } from "../memory.js";
import { ArgumentError, ShapeError } from "../runtime/errors.js";
import { Tensor } from "../tensor.js";
import { enableGrad, isGradEnabled } from "./grad_mode.js";
import { grad as autogradGrad } from "./index.js";

/** Options of `torch.func.grad` and `valueAndGrad`. */
export interface FuncGradOptions {
  /** Which positional arguments to differentiate (default 0); a list gives a list of gradients. */
  argnums?: number | readonly number[];
  /** `f` returns `[output, aux]`; aux is passed through untouched. */
  hasAux?: boolean;
}

type Fn = (...args: never[]) => unknown;

function checkFn(op: string, f: unknown, options: FuncGradOptions | undefined): asserts f is Fn {
  if (typeof f !== "function") throw new ArgumentError(`${op}: expected a function, got ${typeof f}`);
  for (const key of Object.keys(options ?? {})) {
    if (key !== "argnums" && key !== "hasAux") throw new ArgumentError(`${op}: got an unknown option "${key}"; the options are argnums, hasAux`);
  }
}

function parseOptions(op: string, options: FuncGradOptions | undefined, arity: number): { argnums: number[]; many: boolean; hasAux: boolean } {
  const given = options?.argnums ?? 0;
  const many = Array.isArray(given);
  const argnums = many ? [...(given as readonly number[])] : [given as number];
  for (const a of argnums) {
    if (!Number.isInteger(a) || a < -arity || a >= arity) throw new ArgumentError(`${op}: argnums ${a} is out of range for ${arity} arguments`);
  }
  return { argnums: argnums.map((a) => (a < 0 ? a + arity : a)), many, hasAux: options?.hasAux ?? false };
}

/**
 * The differentiated arguments as new tensors that require grad: a copy recorded from the original
 * when that one requires grad (so an outer grad sees through), a fresh leaf otherwise.
 */
function linkedCopies(op: string, args: unknown[], argnums: readonly number[]): Tensor[] {
  return argnums.map((i) => {
    const a = args[i];
    if (!(a instanceof Tensor)) throw new ArgumentError(`${op}: argument ${i} is differentiated (argnums) but is not a Tensor`);
    const copy = a.requiresGrad ? a.clone() : a.detach().requiresGrad_();
    args[i] = copy;
    return copy;
  });
}

function splitAux(op: string, out: unknown, hasAux: boolean): [Tensor, unknown] {
  const [value, aux] = hasAux ? (Array.isArray(out) && out.length === 2 ? (out as [unknown, unknown]) : [undefined, undefined]) : [out, undefined];
  if (hasAux && !Array.isArray(out)) throw new ArgumentError(`${op}: with hasAux, f must return [output, aux]`);
  if (!(value instanceof Tensor)) throw new ArgumentError(`${op}: f must return a Tensor${hasAux ? " as the first of [output, aux]" : ""}`);
  if (value.numel() !== 1) throw new ShapeError(`${op}: f must return a one-element tensor, got ${value.dtype}[${value.shape.join(", ")}]; use torch.func.vjp for other outputs`);
  return [value, aux];
}

/** Runs f and returns its value, the gradients (one, or a list for a list of argnums) and aux. */
function evaluate(op: string, f: Fn, args: unknown[], options: FuncGradOptions | undefined): [Tensor, Tensor | Tensor[], unknown] {
  const { argnums, many, hasAux } = parseOptions(op, options, args.length);
  const outer = isGradEnabled();
  // the copies of the arguments go at the end (backward keeps what it still needs)
  return tidy(() => enableGrad(() => {
    const inputs = linkedCopies(op, args, argnums);
    const [value, aux] = splitAux(op, f(...(args as never[])), hasAux);
    // gradients stay differentiable when the call itself is recorded (an outer grad, or arguments that require grad)
    const grads = autogradGrad(value, inputs, { createGraph: outer && args.some((a) => a instanceof Tensor && a.requiresGrad), allowUnused: true, materializeGrads: true });
    return [value, many ? (grads as Tensor[]) : grads[0]!, aux] as [Tensor, Tensor | Tensor[], unknown];
  }));
}

/** `torch.func.grad(f, { argnums, hasAux })`: a function returning the gradient of `f` (a one-element output). */
export function grad(f: Fn, options?: FuncGradOptions): (...args: unknown[]) => unknown {
  checkFn("func.grad", f, options);
  return (...args) => {
    const [value, grads, aux] = evaluate("func.grad", f, args, options);
    value.dispose();
    return options?.hasAux ? [grads, aux] : grads;
  };
}

/** `torch.func.valueAndGrad` (functorch's `grad_and_value`, value first as in JAX): `[value, gradient]`. */
export function valueAndGrad(f: Fn, options?: FuncGradOptions): (...args: unknown[]) => unknown {
  checkFn("func.valueAndGrad", f, options);
  return (...args) => {
    const [value, grads, aux] = evaluate("func.valueAndGrad", f, args, options);
    return options?.hasAux ? [[value, aux], grads] : [value, grads];
  };
}

/**
 * `torch.func.vjp(f, ...primals)`: `[output, vjpFn]`; `vjpFn(cotangent)` gives the gradient of every
 * primal (a list), and may be called more than once.
 */
export function vjp(f: Fn, ...primals: Tensor[]): [unknown, (cotangent: Tensor | readonly Tensor[]) => Tensor[]] {
  checkFn("func.vjp", f, undefined);
  const args: unknown[] = [...primals];
  return tidy(() => enableGrad(() => {
    const inputs = linkedCopies("func.vjp", args, primals.map((_, i) => i));
    const out = f(...(args as never[]));
    const outs = out instanceof Tensor ? [out] : Array.isArray(out) && out.every((o) => o instanceof Tensor) ? (out as Tensor[]) : undefined;
    if (outs === undefined) throw new ArgumentError("func.vjp: f must return a Tensor or an array of Tensors");
    const vjpFn = (cotangent: Tensor | readonly Tensor[]): Tensor[] =>
      autogradGrad(outs, inputs, { gradOutputs: cotangent as Tensor | Tensor[], retainGraph: true, allowUnused: true, materializeGrads: true }) as Tensor[];
    return [out, vjpFn] as [unknown, (cotangent: Tensor | readonly Tensor[]) => Tensor[]];
  }));
}
