/**
 * @file torch.compile and torch.compiler. `compile(fn)` returns a function with fn's signature that
 * traces fn once per call signature into one graph (forward, backward and optimizer step alike),
 * compiles it as one executable and runs that on later calls whose guards hold;
 * `compile(module)` compiles the module's forward in place and returns the module.
 */
import { Module } from "../nn/module.js";
import { ArgumentError } from "../runtime/errors.js";
import { strictly } from "../trace/fused.js";
import { tracing } from "../trace/inline.js";
import { clearUnits } from "./function_trace.js";
import { CompiledFunction, type CompiledStats, type CompileOptions } from "./compiled_function.js";
import type { Lowered } from "./lowered.js";
import { compilerConfig, globalStats, stats } from "./stats.js";

export type { CompiledStats, CompileOptions } from "./compiled_function.js";
export type { CompilerStats } from "./stats.js";
export type { Lowered } from "./lowered.js";

/** A compiled function: fn's signature, plus its counters and its lowering for given arguments. */
export type Compiled<F extends (...args: never[]) => unknown> = F & {
  stats(): CompiledStats;
  /** Traces fn on these arguments (running nothing) into the graph it would compile: StableHLO text and compileFor a topology. */
  lower(...args: Parameters<F>): Lowered;
};

const known = ["fullgraph", "dynamic", "mode", "disable"];
const modes = ["default", "reduce-overhead", "max-autotune", "max-autotune-no-cudagraphs"];

function checkOptions(options: CompileOptions): void {
  if (options === null || typeof options !== "object") throw new ArgumentError(`torch.compile: options must be an object, got ${String(options)}`);
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) throw new ArgumentError(`torch.compile: got an unknown option "${key}"; the options are ${known.join(", ")}`);
  }
  if (options.dynamic === true) {
    throw new ArgumentError("torch.compile: dynamic shapes are not supported (dynamic: true); each input shape compiles its own executable (leave dynamic unset or false)");
  }
  if (options.mode !== undefined && !modes.includes(options.mode)) throw new ArgumentError(`torch.compile: mode must be one of ${modes.join(", ")}, got ${String(options.mode)}`);
  for (const key of ["fullgraph", "disable", "dynamic"] as const) {
    if (options[key] !== undefined && typeof options[key] !== "boolean") throw new ArgumentError(`torch.compile: ${key} must be a boolean, got ${String(options[key])}`);
  }
}

export function compile<M extends Module>(module: M, options?: CompileOptions): M;
export function compile<F extends (...args: never[]) => unknown>(fn: F, options?: CompileOptions): Compiled<F>;
export function compile(target: Module | ((...args: never[]) => unknown), options: CompileOptions = {}): unknown {
  checkOptions(options);
  if (target instanceof Module) {
    const forward = target.forward.bind(target) as (...args: never[]) => unknown;
    Object.defineProperty(forward, "name", { value: `${target.constructor.name}.forward` });
    target.forward = compile(forward, options) as never;
    return target;
  }
  if (typeof target !== "function") throw new ArgumentError(`torch.compile: expected a function or an nn.Module, got ${target === null ? "null" : typeof target}`);
  const state = new CompiledFunction(target, target.name || "fn", options);
  const lower = (...args: unknown[]): Lowered => state.lower(args);
  const run = options.disable ? (args: unknown[]) => state.callDisabled(args) : (args: unknown[]) => strictly(() => state.call(args));
  // inside another compiled function's trace, a compiled function is traced into that graph
  const compiled = (...args: unknown[]): unknown => (tracing() !== undefined ? target(...(args as never[])) : run(args));
  Object.defineProperty(compiled, "name", { value: target.name });
  return Object.assign(compiled, { stats: () => state.stats(), lower });
}

/** torch.compiler: stats of every compiled function, reset, config. */
export const compiler = {
  stats,
  /** Forgets every compiled function's traces and executables (they trace again at their next call). */
  reset(): void {
    compilerConfig.generation++;
    clearUnits();
    Object.assign(globalStats, { calls: 0, hits: 0, compiles: 0, compileMs: 0, eagerCalls: 0, diskHits: 0 });
  },
  config: compilerConfig,
};
