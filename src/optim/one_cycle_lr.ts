/**
 * @file torch.optim.lrScheduler.OneCycleLR: lr rises from maxLr/divFactor to maxLr and anneals to
 * a minimum far below (two phases, or three with threePhase), while momentum (SGD's momentum, or
 * Adam's beta1) cycles the other way. PyTorch's arithmetic, step by step.
 */
import { ArgumentError } from "../runtime/errors.js";
import { bindArgs, LRScheduler } from "./lr_scheduler.js";
import type { Optimizer, ParamGroup } from "./optimizer.js";

export interface OneCycleLROptions {
  totalSteps?: number;
  epochs?: number;
  stepsPerEpoch?: number;
  pctStart?: number;
  annealStrategy?: "cos" | "linear";
  cycleMomentum?: boolean;
  baseMomentum?: number | readonly number[];
  maxMomentum?: number | readonly number[];
  divFactor?: number;
  finalDivFactor?: number;
  threePhase?: boolean;
  lastEpoch?: number;
}

interface Phase {
  endStep: number;
  startLr: string;
  endLr: string;
  startMomentum: string;
  endMomentum: string;
}

const signature =
  "OneCycleLR(maxLr: float | float[], totalSteps?: int, epochs?: int, stepsPerEpoch?: int, pctStart: float = 0.3, " +
  'annealStrategy: "cos" | "linear" = "cos", cycleMomentum: bool = true, baseMomentum: float | float[] = 0.85, maxMomentum: float | float[] = 0.95, ' +
  "divFactor: float = 25, finalDivFactor: float = 10000, threePhase: bool = false, lastEpoch: int = -1) -> void";

/** One value per param group from a number or an array of them. */
function perGroup(name: string, value: number | readonly number[], groups: number): number[] {
  if (typeof value === "number") return Array.from({ length: groups }, () => value);
  if (value.length !== groups) throw new ArgumentError(`optim.lrScheduler.OneCycleLR: ${name} has ${value.length} values but the optimizer has ${groups} param groups`);
  return [...value];
}

const positiveInt = (name: string, v: unknown): number => {
  if (typeof v !== "number" || !Number.isInteger(v) || v <= 0) throw new ArgumentError(`optim.lrScheduler.OneCycleLR: ${name} must be a positive int, got ${String(v)}`);
  return v;
};

/** PyTorch's OneCycleLR (max_lr, total_steps, …, in camelCase). */
export class OneCycleLR extends LRScheduler {
  totalSteps: number;
  annealStrategy: "cos" | "linear";
  cycleMomentum: boolean;
  /** Cycles Adam's beta1 rather than SGD's momentum. */
  useBeta1: boolean;
  phases: Phase[];

  constructor(optimizer: Optimizer, maxLr: number | readonly number[], options?: OneCycleLROptions);
  constructor(optimizer: Optimizer, options: OneCycleLROptions & { maxLr: number | readonly number[] });
  constructor(optimizer: Optimizer, ...args: unknown[]) {
    super("OneCycleLR", optimizer);
    const a = bindArgs(signature, args) as Required<OneCycleLROptions> & { maxLr: number | number[] };
    if (a.totalSteps !== undefined) this.totalSteps = positiveInt("totalSteps", a.totalSteps);
    else if (a.epochs !== undefined && a.stepsPerEpoch !== undefined) this.totalSteps = positiveInt("epochs", a.epochs) * positiveInt("stepsPerEpoch", a.stepsPerEpoch);
    else throw new ArgumentError("optim.lrScheduler.OneCycleLR: give totalSteps, or epochs and stepsPerEpoch");
    if (!(a.pctStart >= 0 && a.pctStart <= 1)) throw new ArgumentError(`optim.lrScheduler.OneCycleLR: pctStart must be in [0, 1], got ${a.pctStart}`);
    const n = this.totalSteps;
    const up = a.pctStart * n - 1;
    this.phases = a.threePhase
      ? [
          { endStep: up, startLr: "initialLr", endLr: "maxLr", startMomentum: "maxMomentum", endMomentum: "baseMomentum" },
          { endStep: 2 * a.pctStart * n - 2, startLr: "maxLr", endLr: "initialLr", startMomentum: "baseMomentum", endMomentum: "maxMomentum" },
          { endStep: n - 1, startLr: "initialLr", endLr: "minLr", startMomentum: "maxMomentum", endMomentum: "maxMomentum" },
        ]
      : [
          { endStep: up, startLr: "initialLr", endLr: "maxLr", startMomentum: "maxMomentum", endMomentum: "baseMomentum" },
          { endStep: n - 1, startLr: "maxLr", endLr: "minLr", startMomentum: "baseMomentum", endMomentum: "maxMomentum" },
        ];
    this.annealStrategy = a.annealStrategy;
    const groups = this.groups;
    const maxLrs = perGroup("maxLr", a.maxLr, groups.length);
    if (a.lastEpoch === -1) {
      groups.forEach((g, i) => {
        const initialLr = maxLrs[i]! / a.divFactor;
        g.initialLr = initialLr;
        g.maxLr = maxLrs[i]!;
        g.minLr = initialLr / a.finalDivFactor;
      });
    }
    this.cycleMomentum = a.cycleMomentum;
    this.useBeta1 = "betas" in optimizer.defaults;
    if (this.cycleMomentum) {
      if (!("momentum" in optimizer.defaults) && !this.useBeta1) {
        throw new ArgumentError("optim.lrScheduler.OneCycleLR: cycleMomentum needs an optimizer with momentum or betas (SGD, RMSprop, Adam…); pass cycleMomentum: false");
      }
      const maxMomenta = perGroup("maxMomentum", a.maxMomentum, groups.length);
      const baseMomenta = perGroup("baseMomentum", a.baseMomentum, groups.length);
      if (a.lastEpoch === -1) {
        groups.forEach((g, i) => {
          this.#setMomentum(g, maxMomenta[i]!);
          g.maxMomentum = maxMomenta[i]!;
          g.baseMomentum = baseMomenta[i]!;
        });
      }
    }
    this.start(a.lastEpoch);
  }

  #anneal(start: number, end: number, pct: number): number {
    if (this.annealStrategy === "cos") return end + ((start - end) / 2) * (Math.cos(Math.PI * pct) + 1);
    return (end - start) * pct + start;
  }

  #setMomentum(g: ParamGroup, m: number): void {
    if (this.useBeta1) g.betas = [m, ...(g.betas as number[]).slice(1)];
    else g.momentum = m;
  }

  protected getLr(): number[] {
    const step = this.lastEpoch;
    if (step > this.totalSteps) {
      throw new ArgumentError(`optim.lrScheduler.OneCycleLR: tried to step ${step} times; the schedule has totalSteps ${this.totalSteps}`);
    }
    return this.groups.map((g) => {
      let start = 0;
      for (const [i, phase] of this.phases.entries()) {
        if (step <= phase.endStep || i === this.phases.length - 1) {
          const pct = (step - start) / (phase.endStep - start);
          if (this.cycleMomentum) this.#setMomentum(g, this.#anneal(g[phase.startMomentum] as number, g[phase.endMomentum] as number, pct));
          return this.#anneal(g[phase.startLr] as number, g[phase.endLr] as number, pct);
        }
        start = phase.endStep;
      }
      throw new Error("unreachable: the last phase always matches");
    });
  }
}
