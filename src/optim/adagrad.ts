/**
 * @file torch.optim.Adagrad: with learning-rate decay, weight decay, an initial accumulator value
 * and maximize, as PyTorch's single-tensor implementation computes it. As in PyTorch, every
 * parameter's state (its step count and sum of squared gradients) exists from the start.
 */
import * as e from "../ops/emit.js";
import { keep } from "../memory.js";
import { fullLike } from "../ops/creation/filled.js";
import { defineOptions, nonNegative } from "./options.js";
import { Optimizer, type ParamGroup, type ParamGroupInput, type ParamsInput, type ParamState } from "./optimizer.js";
import { addcdiv, addScaled, type ParamResult, type ParamUpdate } from "./update.js";
import { noGrad } from "../autograd/grad_mode.js";

export interface AdagradOptions {
  lr?: number;
  lrDecay?: number;
  weightDecay?: number;
  initialAccumulatorValue?: number;
  eps?: number;
  maximize?: boolean;
}

export interface AdagradGroup extends ParamGroup {
  lrDecay: number;
  weightDecay: number;
  initialAccumulatorValue: number;
  eps: number;
  maximize: boolean;
}

const options = defineOptions("Adagrad", {
  lr: { type: "float", default: 1e-2, check: nonNegative },
  lrDecay: { type: "float", default: 0, check: nonNegative },
  weightDecay: { type: "float", default: 0, check: nonNegative },
  initialAccumulatorValue: { type: "float", default: 0, check: nonNegative },
  eps: { type: "float", default: 1e-10, check: nonNegative },
  maximize: { type: "bool", default: false, keywordOnly: true },
});

const algorithm = { options, scalarNames: ["negClr", "weightDecay", "eps"], stateKeys: ["sum"], countsSteps: true };

/** `new torch.optim.Adagrad(params, { lr: 1e-2 })` (PyTorch's torch.optim.Adagrad). */
export class Adagrad extends Optimizer<AdagradGroup> {
  constructor(params: ParamsInput, options?: AdagradOptions);
  constructor(params: ParamsInput, lr: number, options?: Omit<AdagradOptions, "lr">);
  constructor(params: ParamsInput, ...args: unknown[]) {
    super(algorithm, params, args);
  }

  override addParamGroup(group: ParamGroupInput): void {
    super.addParamGroup(group);
    const added = this.paramGroups.at(-1)!;
    noGrad(() => {
      for (const p of added.params) this.state.set(p, { step: 0, sum: keep(fullLike(p, added.initialAccumulatorValue)) });
    });
  }

  protected initialState(g: AdagradGroup): Record<string, number> {
    return { sum: g.initialAccumulatorValue };
  }

  protected flags(g: AdagradGroup): Record<string, boolean> {
    return { maximize: g.maximize, weightDecay: g.weightDecay !== 0 };
  }

  protected scalars(g: AdagradGroup, state: ParamState): Record<string, number> {
    const step = state.step as number;
    return { negClr: -(g.lr / (1 + (step - 1) * g.lrDecay)), weightDecay: g.weightDecay, eps: g.eps };
  }

  protected update(f: Record<string, boolean>, { param, grad, state, scalar }: ParamUpdate): ParamResult {
    let g = f.maximize ? e.neg(grad) : grad;
    if (f.weightDecay) g = addScaled(g, param, scalar("weightDecay"));
    const sum = e.add(state.sum!, e.mul(g, g));
    const std = e.add(e.sqrt(sum), scalar("eps"));
    return { param: addcdiv(param, g, std, scalar("negClr")), state: { sum } };
  }
}
