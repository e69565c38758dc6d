/**
 * @file torch.optim.lrScheduler.ReduceLROnPlateau: lr times factor when a metric has stopped
 * improving for patience epochs (then a cooldown), never below minLr.
 */
import { ArgumentError } from "../runtime/errors.js";
import { describeValue } from "../ops/signature/bind.js";
import { Tensor } from "../tensor.js";
import { bindArgs, LRScheduler } from "./lr_scheduler.js";
import type { Optimizer } from "./optimizer.js";

export interface ReduceLROnPlateauOptions {
  mode?: "min" | "max";
  factor?: number;
  patience?: number;
  threshold?: number;
  thresholdMode?: "rel" | "abs";
  cooldown?: number;
  minLr?: number | readonly number[];
  eps?: number;
}

const signature =
  'ReduceLROnPlateau(mode: "min" | "max" = "min", factor: float = 0.1, patience: int = 10, threshold: float = 0.0001, ' +
  'thresholdMode: "rel" | "abs" = "rel", cooldown: int = 0, minLr: float | float[] = 0, eps: float = 1e-8) -> void';

/** PyTorch's ReduceLROnPlateau; step(metric) after each validation. */
export class ReduceLROnPlateau extends LRScheduler {
  mode: "min" | "max";
  factor: number;
  patience: number;
  threshold: number;
  thresholdMode: "rel" | "abs";
  cooldown: number;
  minLrs: number[];
  /** minLr when one number was given (it then follows added param groups). */
  defaultMinLr: number | null;
  eps: number;
  best: number;
  numBadEpochs = 0;
  cooldownCounter = 0;

  constructor(optimizer: Optimizer, options?: ReduceLROnPlateauOptions);
  constructor(optimizer: Optimizer, mode: "min" | "max", options?: Omit<ReduceLROnPlateauOptions, "mode">);
  constructor(optimizer: Optimizer, ...args: unknown[]) {
    super("ReduceLROnPlateau", optimizer);
    const a = bindArgs(signature, args) as Required<ReduceLROnPlateauOptions>;
    if (a.factor >= 1) throw new ArgumentError(`optim.lrScheduler.ReduceLROnPlateau: factor must be < 1 (it multiplies lr), got ${a.factor}`);
    this.mode = a.mode;
    this.factor = a.factor;
    this.patience = a.patience;
    this.threshold = a.threshold;
    this.thresholdMode = a.thresholdMode;
    this.cooldown = a.cooldown;
    this.eps = a.eps;
    const n = this.groups.length;
    if (typeof a.minLr === "number") {
      this.defaultMinLr = a.minLr;
      this.minLrs = Array.from({ length: n }, () => a.minLr as number);
    } else {
      if (a.minLr.length !== n) throw new ArgumentError(`optim.lrScheduler.ReduceLROnPlateau: minLr has ${a.minLr.length} values but the optimizer has ${n} param groups`);
      this.defaultMinLr = null;
      this.minLrs = [...a.minLr];
    }
    this.lastEpoch = 0;
    this.lastLr = this.groups.map((g) => g.lr);
    this.best = this.#worst();
  }

  #worst(): number {
    return this.mode === "min" ? Infinity : -Infinity;
  }

  #isBetter(a: number, best: number): boolean {
    if (this.mode === "min") return this.thresholdMode === "rel" ? a < best * (1 - this.threshold) : a < best - this.threshold;
    return this.thresholdMode === "rel" ? a > best * (this.threshold + 1) : a > best + this.threshold;
  }

  protected getLr(): number[] {
    return this.groups.map((g) => g.lr);
  }

  /** Records this epoch's metric (a number or a one-element tensor) and lowers lr after patience epochs without improvement. */
  override step(metrics?: number | Tensor): void {
    const current = metrics instanceof Tensor ? Number(metrics.item()) : metrics;
    if (typeof current !== "number") throw new ArgumentError(`ReduceLROnPlateau.step(metrics): metrics must be a number or a one-element tensor, got ${describeValue(metrics)}`);
    this.lastEpoch++;
    if (this.#isBetter(current, this.best)) {
      this.best = current;
      this.numBadEpochs = 0;
    } else {
      this.numBadEpochs++;
    }
    if (this.cooldownCounter > 0) {
      this.cooldownCounter--;
      this.numBadEpochs = 0;
    }
    if (this.numBadEpochs > this.patience) {
      this.#reduceLr();
      this.cooldownCounter = this.cooldown;
      this.numBadEpochs = 0;
    }
    this.lastLr = this.groups.map((g) => g.lr);
  }

  /** Restores a state from stateDict(); a `best` of null (JSON's spelling of ±Infinity) is the mode's worst. */
  override loadStateDict(state: Record<string, unknown>): void {
    super.loadStateDict(state);
    if (this.best === null) this.best = this.#worst();
  }

  #reduceLr(): void {
    if (this.minLrs.length !== this.groups.length) {
      if (this.defaultMinLr === null) {
        throw new ArgumentError(
          `ReduceLROnPlateau: the optimizer has ${this.groups.length} param groups but minLr has ${this.minLrs.length} values (a group was added); set scheduler.minLrs to one per group`,
        );
      }
      this.minLrs = this.groups.map(() => this.defaultMinLr as number);
    }
    this.groups.forEach((g, i) => {
      const next = Math.max(g.lr * this.factor, this.minLrs[i]!);
      if (g.lr - next > this.eps) g.lr = next;
    });
  }
}
