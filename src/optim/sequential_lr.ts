/**
 * @file torch.optim.lrScheduler.SequentialLR: one schedule after another, switching at milestones
 * (a warmup, then a decay). At a milestone the next schedule starts from its closed form at epoch 0,
 * as PyTorch's does.
 */
import { ArgumentError } from "../runtime/errors.js";
import { describeValue } from "../ops/signature/bind.js";
import { bindArgs, bisectRight, LRScheduler } from "./lr_scheduler.js";
import type { Optimizer } from "./optimizer.js";
import { ReduceLROnPlateau } from "./reduce_lr_on_plateau.js";

/** PyTorch's SequentialLR(optimizer, schedulers, milestones). */
export class SequentialLR extends LRScheduler {
  schedulers: LRScheduler[];
  milestones: number[];

  constructor(optimizer: Optimizer, schedulers: readonly LRScheduler[], milestones: readonly number[], options?: { lastEpoch?: number });
  constructor(optimizer: Optimizer, schedulers: readonly LRScheduler[], ...args: unknown[]) {
    super("SequentialLR", optimizer);
    const where = "optim.lrScheduler.SequentialLR";
    if (!Array.isArray(schedulers) || schedulers.length === 0) throw new ArgumentError(`${where}: expects a non-empty array of schedulers, got ${describeValue(schedulers)}`);
    schedulers.forEach((s: unknown, i) => {
      if (s instanceof ReduceLROnPlateau) throw new ArgumentError(`${where}: scheduler ${i} is a ReduceLROnPlateau, which needs a metric at each step; it cannot be sequenced`);
      if (!(s instanceof LRScheduler)) throw new ArgumentError(`${where}: scheduler ${i} is ${describeValue(s)}, not a scheduler`);
      if (s.optimizer !== optimizer) throw new ArgumentError(`${where}: scheduler ${i} (${s.constructor.name}) belongs to another optimizer; every scheduler must drive this one`);
    });
    const a = bindArgs("SequentialLR(milestones: int[], lastEpoch: int = -1) -> void", args);
    const milestones = a.milestones as number[];
    if (milestones.length !== schedulers.length - 1) {
      throw new ArgumentError(`${where}: expects one milestone fewer than schedulers, got ${schedulers.length} schedulers and ${milestones.length} milestones`);
    }
    this.schedulers = [...schedulers];
    this.milestones = [...milestones];
    this.lastEpoch = (a.lastEpoch as number) + 1;
    // Constructing the schedulers stepped them once each: undo that, and start the first one again.
    for (const group of this.groups) group.lr = group.initialLr as number;
    undo(this.schedulers);
    const first = this.schedulers[bisectRight(this.milestones, 0)]!;
    first.initialStep();
    this.lastLr = first.getLastLr();
  }

  protected getLr(): number[] {
    return this.groups.map((g) => g.lr);
  }

  override step(): void {
    this.lastEpoch++;
    const i = bisectRight(this.milestones, this.lastEpoch);
    const scheduler = this.schedulers[i]!;
    if (i > 0 && this.milestones[i - 1] === this.lastEpoch) scheduler.updateLr(0);
    else scheduler.step();
    this.lastLr = scheduler.getLastLr();
  }

  protected override unsaved(): readonly string[] {
    return ["optimizer", "schedulers"];
  }

  /** Its own state, with each scheduler's stateDict under `schedulers`. */
  override stateDict(): Record<string, unknown> {
    return { ...super.stateDict(), schedulers: this.schedulers.map((s) => s.stateDict()) };
  }

  override loadStateDict(state: Record<string, unknown>): void {
    const { schedulers, ...own } = state;
    if (!Array.isArray(schedulers) || schedulers.length !== this.schedulers.length) {
      throw new ArgumentError(`SequentialLR.loadStateDict: expected "schedulers" with ${this.schedulers.length} scheduler states, got ${describeValue(schedulers)}`);
    }
    super.loadStateDict(own);
    schedulers.forEach((s, i) => this.schedulers[i]!.loadStateDict(s as Record<string, unknown>));
  }
}

function undo(schedulers: readonly LRScheduler[]): void {
  for (const s of schedulers) {
    if (s instanceof SequentialLR) undo(s.schedulers);
    else s.lastEpoch--;
  }
}
