/**
 * @file PyTorch's control-flow operators, `torch.cond` and `torch.whileLoop` (torch.cond,
 * torch._higher_order_ops.while_loop). Eagerly they branch and loop on the host. Inside a
 * torch.compile trace each region (branch, loop cond, loop body) is traced into a graph of its own
 * (src/compile/region_trace.ts) and the op becomes one `case` or `while` node, so a data-dependent
 * choice or trip count is decided on the device without a graph break or a recompile.
 */
import { nextGradFnSequence, unreachedBy } from "../autograd/grad_fn.js";
import { isGradEnabled, noGrad } from "../autograd/grad_mode.js";
import { dtypes } from "../dtype.js";
import * as e from "../ops/emit.js";
import { ArgumentError, ShapeError } from "../runtime/errors.js";
import { Tensor } from "../tensor.js";
import { dispatch } from "../trace/eager.js";
import { setInliner, tracing, type TraceInliner } from "../trace/inline.js";
import { bind, type Tracer } from "../trace/tracer.js";
import { RegionTrace } from "./region_trace.js";

type Outputs = Tensor | Tensor[];

const fmt = (t: Tensor): string => `${t.dtype}[${t.shape.join(", ")}]`;
const sameAval = (a: Tensor, b: Tensor): boolean => a.dtype === b.dtype && a.shape.length === b.shape.length && a.shape.every((d, i) => d === b.shape[i]);

/** Unique statics for each traced op: its regions are not part of the unit key. */
let traced = 0;

/**
 * `trueFn(...operands)` when `pred` is true, else `falseFn(...operands)`. `pred` is a boolean, a
 * number, or a one-element tensor of any dtype (true when nonzero, as `bool(tensor)` in PyTorch).
 * Both branches return a tensor or an array of tensors with the same shapes and dtypes. Inside
 * torch.compile a tensor `pred` is read on the device: both branches are traced and one runs, and a
 * gradient goes through the branch taken (the case primitive's VJP, src/ops/prims_vjp_control.ts).
 */
export function cond(pred: boolean | number | Tensor, trueFn: (...operands: any[]) => Outputs, falseFn: (...operands: any[]) => Outputs, operands: readonly unknown[] = []): Outputs {
  const op = "torch.cond";
  if (typeof trueFn !== "function" || typeof falseFn !== "function") throw new ArgumentError(`${op}: trueFn and falseFn must be functions`);
  if (!Array.isArray(operands)) throw new ArgumentError(`${op}: operands must be an array, got ${typeof operands}`);
  if (!(pred instanceof Tensor)) {
    if (typeof pred !== "boolean" && typeof pred !== "number") throw new ArgumentError(`${op}: pred must be a boolean, a number or a one-element tensor, got ${typeof pred}`);
    return checkedOutputs(op, "the branch", pred ? trueFn(...operands) : falseFn(...operands));
  }
  if (pred.numel() !== 1) throw new ShapeError(`${op}: pred must be a boolean or a one-element tensor, got ${fmt(pred)}`);
  const trace = tracing();
  if (trace === undefined) {
    const v = pred.item();
    const since = nextGradFnSequence();
    const out = checkedOutputs(op, "the branch", v !== false && v !== 0 && v !== 0n ? trueFn(...operands) : falseFn(...operands));
    return withZeroGradients(op, operands, out, since);
  }
  return tracedCond(trace, pred, trueFn, falseFn, operands);
}

/**
 * An eager `cond` on a tensor predicate gives zeros, not null, to the floating operands that require
 * grad and that the branch taken ignores, as PyTorch's does (and as a traced cond does): `out` comes
 * back through one identity unit that also takes those operands, so its backward gives them zeros.
 */
function withZeroGradients(op: string, operands: readonly unknown[], out: Outputs, since: number): Outputs {
  if (!isGradEnabled()) return out;
  const wanting = operands.filter((x): x is Tensor => x instanceof Tensor).filter((x) => x.requiresGrad && dtypes[x.dtype].kind === "float");
  const outs = out instanceof Tensor ? [out] : out;
  const ignored = unreachedBy(outs, wanting, since);
  if (ignored.length === 0) return out;
  const passed = dispatch(op, `${outs.length}`, [...outs, ...ignored], (xs) => xs.slice(0, outs.length), outs[0]?.device ?? ignored[0]!.device);
  return out instanceof Tensor ? (passed as Tensor[])[0]! : (passed as Tensor[]);
}

/**
 * Runs `bodyFn` while `condFn` returns true, starting from `carriedInputs`: `condFn(...carried)`
 * returns a bool scalar tensor (or a boolean); `bodyFn(...carried)` returns the next carried tensors,
 * as many as `carriedInputs` with the same shapes and dtypes. Returns the last carried tensors.
 * Inside torch.compile it is one loop on the device; the trip count may depend on the data, and its
 * gradient recomputes the iterations from checkpoints (docs/compile.md gives the cost).
 */
export function whileLoop(condFn: (...carried: Tensor[]) => Tensor | boolean, bodyFn: (...carried: Tensor[]) => Outputs, carriedInputs: readonly Tensor[]): Tensor[] {
  const op = "torch.whileLoop";
  if (typeof condFn !== "function" || typeof bodyFn !== "function") throw new ArgumentError(`${op}: condFn and bodyFn must be functions`);
  if (!Array.isArray(carriedInputs)) throw new ArgumentError(`${op}: carriedInputs must be an array of tensors, got ${typeof carriedInputs}`);
  if (carriedInputs.length === 0) throw new ArgumentError(`${op}: carriedInputs must hold at least one tensor`);
  carriedInputs.forEach((t, i) => {
    if (!(t instanceof Tensor)) throw new ArgumentError(`${op}: carriedInputs[${i}] must be a tensor, got ${typeof t}`);
  });
  const trace = tracing();
  if (trace !== undefined) return tracedWhile(trace, condFn, bodyFn, carriedInputs);
  let carried = [...carriedInputs];
  while (loopPredicate(op, condFn(...carried))) carried = checkCarried(op, carriedInputs, bodyFn(...carried));
  return carried;
}

function loopPredicate(op: string, p: Tensor | boolean): boolean {
  if (typeof p === "boolean") return p;
  if (!(p instanceof Tensor) || p.dtype !== "bool" || p.shape.length !== 0) {
    throw new ArgumentError(`${op}: condFn must return a bool scalar tensor or a boolean, got ${p instanceof Tensor ? fmt(p) : typeof p}`);
  }
  return p.item() === true;
}

/** The body's outputs as an array, each matching the carried input at its index. */
function checkCarried(op: string, carried: readonly Tensor[], out: Outputs): Tensor[] {
  const outs = checkedOutputs(op, "bodyFn", out, true) as Tensor[];
  if (outs.length !== carried.length) throw new ArgumentError(`${op}: bodyFn returned ${outs.length} tensors, expected ${carried.length} (one per carried input)`);
  outs.forEach((t, i) => {
    if (!sameAval(t, carried[i]!)) throw new ShapeError(`${op}: bodyFn's output ${i} is ${fmt(t)} but carried input ${i} is ${fmt(carried[i]!)}; each iteration must keep every carried tensor's shape and dtype`);
  });
  return outs;
}

/** `out` when it is a tensor or an array of tensors (as an array when `asArray`). */
function checkedOutputs(op: string, what: string, out: unknown, asArray = false): Outputs {
  const list = out instanceof Tensor ? [out] : out;
  if (!Array.isArray(list) || list.some((t) => !(t instanceof Tensor))) throw new ArgumentError(`${op}: ${what} must return a tensor or an array of tensors`);
  return asArray || !(out instanceof Tensor) ? (list as Tensor[]) : out;
}

/** Runs `fn` as a region of `parent`'s trace; returns the region and what `fn` returned. */
function inRegion<R>(parent: TraceInliner, what: string, fn: (region: RegionTrace) => R): [RegionTrace, R] {
  const region = new RegionTrace(parent, what);
  const previous = setInliner(region);
  try {
    return [region, noGrad(() => fn(region))];
  } finally {
    setInliner(previous);
  }
}

function tracedCond(parent: TraceInliner, pred: Tensor, trueFn: (...xs: any[]) => Outputs, falseFn: (...xs: any[]) => Outputs, operands: readonly unknown[]): Outputs {
  const op = "torch.cond";
  const [onTrue, trueOut] = inRegion(parent, `${op}'s trueFn`, () => checkedOutputs(op, "trueFn", trueFn(...operands)));
  const [onFalse, falseOut] = inRegion(parent, `${op}'s falseFn`, () => checkedOutputs(op, "falseFn", falseFn(...operands)));
  const trues = trueOut instanceof Tensor ? [trueOut] : trueOut;
  const falses = falseOut instanceof Tensor ? [falseOut] : falseOut;
  const list = (ts: Tensor[]) => `(${ts.map(fmt).join(", ")})`;
  if (trueOut instanceof Tensor !== falseOut instanceof Tensor || trues.length !== falses.length || trues.some((t, i) => !sameAval(t, falses[i]!))) {
    throw new ShapeError(`${op}: both branches must return the same tensors (shapes and dtypes): trueFn returns ${list(trues)}, falseFn returns ${list(falses)}`);
  }
  const captured = [...new Set([...onTrue.captured(), ...onFalse.captured()])];
  const branches = [onFalse.graphOf(captured, falses), onTrue.graphOf(captured, trues)]; // index 0 is false
  const outs = dispatch(op, `cond#${traced++}`, [pred, ...captured], ([p, ...xs]) => bind("case", [branchIndex(p!), ...xs], { branches }), pred.device);
  const result = outs instanceof Tensor ? [outs] : outs;
  return trueOut instanceof Tensor ? result[0]! : result;
}

/** 1 where the one-element `pred` is nonzero, else 0, as an int32 scalar. */
function branchIndex(pred: Tracer): Tracer {
  const p = pred.shape.length === 0 ? pred : e.reshape(pred, []);
  const truth = p.dtype === "bool" ? p : e.compare(p, e.full(0, p.dtype, []), "NE");
  return e.convert(truth, "int32");
}

function tracedWhile(parent: TraceInliner, condFn: (...xs: Tensor[]) => Tensor | boolean, bodyFn: (...xs: Tensor[]) => Outputs, carriedInputs: readonly Tensor[]): Tensor[] {
  const op = "torch.whileLoop";
  const device = carriedInputs[0]!.device;
  const parametersOf = (region: RegionTrace) => carriedInputs.map((t) => region.parameter(t.dtype, t.shape, device));
  let condParams: Tensor[] = [];
  const [onCond, p] = inRegion(parent, `${op}'s condFn`, (region) => condFn(...(condParams = parametersOf(region))));
  if (!(p instanceof Tensor) || p.dtype !== "bool" || p.shape.length !== 0) {
    throw new ArgumentError(`${op}: condFn must return a bool scalar tensor inside torch.compile, got ${p instanceof Tensor ? fmt(p) : typeof p}`);
  }
  let bodyParams: Tensor[] = [];
  const [onBody, next] = inRegion(parent, `${op}'s bodyFn`, (region) => checkCarried(op, carriedInputs, bodyFn(...(bodyParams = parametersOf(region)))));
  const captured = [...new Set([...onCond.captured(), ...onBody.captured()])];
  const condGraph = onCond.graphOf([...condParams, ...captured], [p]);
  const bodyGraph = onBody.graphOf([...bodyParams, ...captured], next, captured);
  const n = carriedInputs.length;
  const outs = dispatch(op, `while#${traced++}`, [...carriedInputs, ...captured], (state) => bind("while", state, { cond: condGraph, body: bodyGraph }).slice(0, n), device);
  return outs instanceof Tensor ? [outs] : outs;
}
