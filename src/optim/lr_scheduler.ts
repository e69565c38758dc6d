/**
 * @file torch.optim.lrScheduler's base class and the schedules of one formula: StepLR, MultiStepLR,
 * ExponentialLR, CosineAnnealingLR, LambdaLR, LinearLR. Each computes lr as PyTorch does: step()
 * uses its recursive (chainable) form, from the groups' current lr; `step(epoch)` and SequentialLR's
 * milestones use the closed form where PyTorch has one.
 *
 * A scheduler sets `group.lr` on its optimizer's param groups. The optimizer passes lr to its
 * compiled step as an input, so a schedule never recompiles the step.
 */
import { ArgumentError } from "../runtime/errors.js";
import { bindNamed, describeValue } from "../ops/signature/bind.js";
import { Optimizer, type ParamGroup } from "./optimizer.js";

/** Binds a constructor's arguments after the optimizer against `signature` (PyTorch's order, camelCase options). */
export const bindArgs = (signature: string, args: readonly unknown[]): Record<string, unknown> => bindNamed(signature, args, "optim.lrScheduler.");

export function checkOptimizer(name: string, optimizer: unknown): Optimizer {
  if (!(optimizer instanceof Optimizer)) throw new ArgumentError(`optim.lrScheduler.${name}: the first argument must be an optimizer, got ${describeValue(optimizer)}`);
  return optimizer;
}

/** Python's bisect_right: the index after every element of `sorted` that is <= x. */
export function bisectRight(sorted: readonly number[], x: number): number {
  let i = 0;
  while (i < sorted.length && sorted[i]! <= x) i++;
  return i;
}

const clone = <T>(v: T): T => structuredClone(v);

/** PyTorch's LRScheduler. Subclasses set their fields, then call start(lastEpoch) (PyTorch's __init__ tail). */
export abstract class LRScheduler {
  readonly optimizer: Optimizer;
  /** Each group's initial lr (`initialLr`, set when the schedule starts). */
  baseLrs: number[] = [];
  /** Epochs (scheduler steps) done; -1 before the first. */
  lastEpoch = -1;
  /** How many times step() ran (PyTorch's `_step_count`). */
  stepCount = 0;
  /** The lrs after the last step (getLastLr()). */
  lastLr: number[] = [];
  /** While the constructor's own step runs (PyTorch's `_is_initial`). */
  #initial = false;

  protected constructor(name: string, optimizer: unknown) {
    this.optimizer = checkOptimizer(name, optimizer);
  }

  protected get groups(): ParamGroup[] {
    return this.optimizer.paramGroups;
  }

  protected get isInitial(): boolean {
    return this.#initial;
  }

  protected start(lastEpoch: number): void {
    this.groups.forEach((group, i) => {
      if (lastEpoch === -1) group.initialLr ??= group.lr;
      else if (group.initialLr === undefined) {
        throw new ArgumentError(
          `${this.constructor.name}: lastEpoch ${lastEpoch} resumes a schedule, but param group ${i} has no initialLr; load the optimizer's state dict first, or start with lastEpoch -1`,
        );
      }
    });
    this.baseLrs = this.groups.map((g) => g.initialLr as number);
    this.lastEpoch = lastEpoch;
    this.initialStep();
  }

  /** The construction step (PyTorch's `_initial_step`); SequentialLR runs it again. @internal */
  initialStep(): void {
    this.stepCount = 0;
    this.#initial = true;
    try {
      this.step();
    } finally {
      this.#initial = false;
    }
  }

  /** The lrs the last step set, one per param group (a copy). */
  getLastLr(): number[] {
    return [...this.lastLr];
  }

  /** The next lrs from the current ones (PyTorch's chainable get_lr); step() calls it. */
  protected abstract getLr(): number[];

  /** The lrs at lastEpoch from the base lrs, for schedules that have one (PyTorch's _get_closed_form_lr). */
  protected closedFormLr(): number[] | undefined {
    return undefined;
  }

  /**
   * Advances the schedule one epoch and sets each group's lr. Call it after optimizer.step().
   * `epoch` (deprecated in PyTorch) jumps to that epoch with the closed form where there is one.
   */
  step(epoch?: number): void {
    this.stepCount++;
    this.updateLr(epoch);
  }

  /** Sets the groups' lr for the next epoch, or for `epoch` (PyTorch's `_update_lr`). @internal */
  updateLr(epoch?: number): void {
    let values: number[];
    if (epoch === undefined) {
      this.lastEpoch++;
      values = this.getLr();
    } else {
      if (!Number.isInteger(epoch)) throw new ArgumentError(`${this.constructor.name}.step(epoch): epoch must be an int, got ${describeValue(epoch)}`);
      this.lastEpoch = epoch;
      values = this.closedFormLr() ?? this.getLr();
    }
    this.groups.forEach((group, i) => {
      group.lr = values[i]!;
    });
    this.lastLr = this.groups.map((g) => g.lr);
  }

  /** Fields that are not part of the state (the optimizer, functions). */
  protected unsaved(): readonly string[] {
    return ["optimizer"];
  }

  /** The schedule's state (every field but the optimizer), as plain data. */
  stateDict(): Record<string, unknown> {
    const skip = this.unsaved();
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(this)) if (!skip.includes(k)) out[k] = clone(v);
    return out;
  }

  /** Restores a state from stateDict(). */
  loadStateDict(state: Record<string, unknown>): void {
    const own = new Set(Object.keys(this.stateDict()));
    for (const key of Object.keys(state)) {
      if (!own.has(key)) throw new ArgumentError(`${this.constructor.name}.loadStateDict: unknown key "${key}" (this scheduler's state has ${[...own].join(", ")})`);
    }
    for (const [k, v] of Object.entries(state)) (this as Record<string, unknown>)[k] = clone(v);
  }
}

/** Decays lr by gamma every stepSize epochs (PyTorch's StepLR). */
export class StepLR extends LRScheduler {
  stepSize: number;
  gamma: number;

  constructor(optimizer: Optimizer, stepSize: number, options?: { gamma?: number; lastEpoch?: number });
  constructor(optimizer: Optimizer, options: { stepSize: number; gamma?: number; lastEpoch?: number });
  constructor(optimizer: Optimizer, ...args: unknown[]) {
    super("StepLR", optimizer);
    const a = bindArgs("StepLR(stepSize: int, gamma: float = 0.1, lastEpoch: int = -1) -> void", args);
    if ((a.stepSize as number) <= 0) throw new ArgumentError(`optim.lrScheduler.StepLR: stepSize must be a positive int, got ${String(a.stepSize)}`);
    this.stepSize = a.stepSize as number;
    this.gamma = a.gamma as number;
    this.start(a.lastEpoch as number);
  }

  protected getLr(): number[] {
    if (this.lastEpoch === 0 || this.lastEpoch % this.stepSize !== 0) return this.groups.map((g) => g.lr);
    return this.groups.map((g) => g.lr * this.gamma);
  }

  protected override closedFormLr(): number[] {
    return this.baseLrs.map((base) => base * this.gamma ** Math.floor(this.lastEpoch / this.stepSize));
  }
}

/** Decays lr by gamma at each milestone, by gamma^k at a milestone listed k times (PyTorch's MultiStepLR). */
export class MultiStepLR extends LRScheduler {
  milestones: number[];
  gamma: number;

  constructor(optimizer: Optimizer, milestones: readonly number[], options?: { gamma?: number; lastEpoch?: number });
  constructor(optimizer: Optimizer, options: { milestones: readonly number[]; gamma?: number; lastEpoch?: number });
  constructor(optimizer: Optimizer, ...args: unknown[]) {
    super("MultiStepLR", optimizer);
    const a = bindArgs("MultiStepLR(milestones: int[], gamma: float = 0.1, lastEpoch: int = -1) -> void", args);
    this.milestones = [...(a.milestones as number[])].sort((x, y) => x - y);
    this.gamma = a.gamma as number;
    this.start(a.lastEpoch as number);
  }

  protected getLr(): number[] {
    const times = this.milestones.filter((m) => m === this.lastEpoch).length;
    if (times === 0) return this.groups.map((g) => g.lr);
    return this.groups.map((g) => g.lr * this.gamma ** times);
  }

  protected override closedFormLr(): number[] {
    return this.baseLrs.map((base) => base * this.gamma ** bisectRight(this.milestones, this.lastEpoch));
  }
}

/** Decays lr by gamma every epoch (PyTorch's ExponentialLR). */
export class ExponentialLR extends LRScheduler {
  gamma: number;

  constructor(optimizer: Optimizer, gamma: number, options?: { lastEpoch?: number });
  constructor(optimizer: Optimizer, options: { gamma: number; lastEpoch?: number });
  constructor(optimizer: Optimizer, ...args: unknown[]) {
    super("ExponentialLR", optimizer);
    const a = bindArgs("ExponentialLR(gamma: float, lastEpoch: int = -1) -> void", args);
    this.gamma = a.gamma as number;
    this.start(a.lastEpoch as number);
  }

  protected getLr(): number[] {
    if (this.isInitial) return this.groups.map((g) => g.lr);
    return this.groups.map((g) => g.lr * this.gamma);
  }

  protected override closedFormLr(): number[] {
    return this.baseLrs.map((base) => base * this.gamma ** this.lastEpoch);
  }
}

/** Cosine annealing from the base lr to etaMin over tMax epochs, and back (PyTorch's CosineAnnealingLR; T_max, eta_min). */
export class CosineAnnealingLR extends LRScheduler {
  tMax: number;
  etaMin: number;

  constructor(optimizer: Optimizer, tMax: number, options?: { etaMin?: number; lastEpoch?: number });
  constructor(optimizer: Optimizer, options: { tMax: number; etaMin?: number; lastEpoch?: number });
  constructor(optimizer: Optimizer, ...args: unknown[]) {
    super("CosineAnnealingLR", optimizer);
    const a = bindArgs("CosineAnnealingLR(tMax: int, etaMin: float = 0, lastEpoch: int = -1) -> void", args);
    if ((a.tMax as number) <= 0) throw new ArgumentError(`optim.lrScheduler.CosineAnnealingLR: tMax must be a positive int, got ${String(a.tMax)}`);
    this.tMax = a.tMax as number;
    this.etaMin = a.etaMin as number;
    this.start(a.lastEpoch as number);
  }

  protected getLr(): number[] {
    const { tMax, etaMin, lastEpoch: e } = this;
    if (this.isInitial) return this.groups.map((g) => g.lr);
    if (this.stepCount === 1 && e > 0) return this.baseLrs.map((base) => etaMin + ((base - etaMin) * (1 + Math.cos((e * Math.PI) / tMax))) / 2);
    if ((e - 1 - tMax) % (2 * tMax) === 0) {
      return this.groups.map((g, i) => g.lr + ((this.baseLrs[i]! - etaMin) * (1 - Math.cos(Math.PI / tMax))) / 2);
    }
    return this.groups.map((g) => ((1 + Math.cos((Math.PI * e) / tMax)) / (1 + Math.cos((Math.PI * (e - 1)) / tMax))) * (g.lr - etaMin) + etaMin);
  }

  protected override closedFormLr(): number[] {
    return this.baseLrs.map((base) => this.etaMin + ((base - this.etaMin) * (1 + Math.cos((Math.PI * this.lastEpoch) / this.tMax))) / 2);
  }
}

export type LrLambda = (epoch: number) => number;

/** lr = base lr × lrLambda(epoch), one function for every group or one per group (PyTorch's LambdaLR). */
export class LambdaLR extends LRScheduler {
  lrLambdas: LrLambda[];

  constructor(optimizer: Optimizer, lrLambda: LrLambda | readonly LrLambda[], options?: { lastEpoch?: number });
  constructor(optimizer: Optimizer, lrLambda: LrLambda | readonly LrLambda[], ...args: unknown[]) {
    super("LambdaLR", optimizer);
    const n = this.groups.length;
    const lambdas = typeof lrLambda === "function" ? Array.from({ length: n }, () => lrLambda) : Array.isArray(lrLambda) ? [...(lrLambda as LrLambda[])] : [];
    if (lambdas.length !== n || !lambdas.every((f) => typeof f === "function")) {
      throw new ArgumentError(`optim.lrScheduler.LambdaLR: lrLambda must be a function or an array of ${n} functions (one per param group), got ${describeValue(lrLambda)}`);
    }
    this.lrLambdas = lambdas;
    const a = bindArgs("LambdaLR(lastEpoch: int = -1) -> void", args);
    this.start(a.lastEpoch as number);
  }

  protected getLr(): number[] {
    return this.baseLrs.map((base, i) => base * this.lrLambdas[i]!(this.lastEpoch));
  }

  /** The functions are not state (PyTorch saves none of plain functions either). */
  protected override unsaved(): readonly string[] {
    return ["optimizer", "lrLambdas"];
  }
}

/** lr scaled by a factor going linearly from startFactor to endFactor over totalIters epochs (PyTorch's LinearLR). */
export class LinearLR extends LRScheduler {
  startFactor: number;
  endFactor: number;
  totalIters: number;

  constructor(optimizer: Optimizer, options?: { startFactor?: number; endFactor?: number; totalIters?: number; lastEpoch?: number });
  constructor(optimizer: Optimizer, startFactor: number, options?: { endFactor?: number; totalIters?: number; lastEpoch?: number });
  constructor(optimizer: Optimizer, ...args: unknown[]) {
    super("LinearLR", optimizer);
    const a = bindArgs("LinearLR(startFactor: float = 0.3333333333333333, endFactor: float = 1, totalIters: int = 5, lastEpoch: int = -1) -> void", args);
    const [start, end] = [a.startFactor as number, a.endFactor as number];
    if (!(start > 0 && start <= 1)) throw new ArgumentError(`optim.lrScheduler.LinearLR: startFactor must be in (0, 1], got ${start}`);
    if (!(end >= 0 && end <= 1)) throw new ArgumentError(`optim.lrScheduler.LinearLR: endFactor must be in [0, 1], got ${end}`);
    this.startFactor = start;
    this.endFactor = end;
    this.totalIters = a.totalIters as number;
    this.start(a.lastEpoch as number);
  }

  protected getLr(): number[] {
    const { startFactor: s, endFactor: f, totalIters: n, lastEpoch: e } = this;
    if (e === 0) return this.groups.map((g) => g.lr * s);
    if (this.isInitial || e > n) return this.groups.map((g) => g.lr);
    return this.groups.map((g) => g.lr * (1 + (f - s) / (n * s + (e - 1) * (f - s))));
  }

  protected override closedFormLr(): number[] {
    const { startFactor: s, endFactor: f, totalIters: n, lastEpoch: e } = this;
    return this.baseLrs.map((base) => base * (s + ((f - s) * Math.min(n, e)) / n));
  }
}
