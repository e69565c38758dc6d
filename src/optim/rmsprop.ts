/**
 * @file torch.optim.RMSprop: with momentum, centered (normalized by the variance estimate), weight
 * decay and maximize, as PyTorch's single-tensor implementation computes it.
 */
import * as e from "../ops/emit.js";
import { defineOptions, nonNegative } from "./options.js";
import { Optimizer, type ParamGroup, type ParamsInput } from "./optimizer.js";
import { addcdiv, addcmul, addScaled, lerp, type ParamResult, type ParamUpdate } from "./update.js";

export interface RMSpropOptions {
  lr?: number;
  alpha?: number;
  eps?: number;
  weightDecay?: number;
  momentum?: number;
  centered?: boolean;
  maximize?: boolean;
}

export interface RMSpropGroup extends ParamGroup {
  alpha: number;
  eps: number;
  weightDecay: number;
  momentum: number;
  centered: boolean;
  maximize: boolean;
}

const options = defineOptions("RMSprop", {
  lr: { type: "float", default: 1e-2, check: nonNegative },
  alpha: { type: "float", default: 0.99, check: nonNegative },
  eps: { type: "float", default: 1e-8, check: nonNegative },
  weightDecay: { type: "float", default: 0, check: nonNegative },
  momentum: { type: "float", default: 0, check: nonNegative },
  centered: { type: "bool", default: false },
  maximize: { type: "bool", default: false },
});

const algorithm = {
  options,
  scalarNames: ["negLr", "alpha", "oneMinusAlpha", "eps", "weightDecay", "momentum"],
  stateKeys: ["squareAvg", "momentumBuffer", "gradAvg"],
  countsSteps: true,
};

/** `new torch.optim.RMSprop(params, { lr: 1e-2, alpha: 0.99 })` (PyTorch's torch.optim.RMSprop). */
export class RMSprop extends Optimizer<RMSpropGroup> {
  constructor(params: ParamsInput, options?: RMSpropOptions);
  constructor(params: ParamsInput, lr: number, options?: Omit<RMSpropOptions, "lr">);
  constructor(params: ParamsInput, ...args: unknown[]) {
    super(algorithm, params, args);
  }

  protected initialState(g: RMSpropGroup): Record<string, number> {
    return { squareAvg: 0, ...(g.momentum > 0 ? { momentumBuffer: 0 } : {}), ...(g.centered ? { gradAvg: 0 } : {}) };
  }

  protected flags(g: RMSpropGroup): Record<string, boolean> {
    return { momentum: g.momentum > 0, centered: g.centered, maximize: g.maximize, weightDecay: g.weightDecay !== 0, smallAlphaWeight: Math.abs(1 - g.alpha) < 0.5 };
  }

  protected scalars(g: RMSpropGroup): Record<string, number> {
    return { negLr: -g.lr, alpha: g.alpha, oneMinusAlpha: 1 - g.alpha, eps: g.eps, weightDecay: g.weightDecay, momentum: g.momentum };
  }

  protected update(f: Record<string, boolean>, { param, grad, state, scalar }: ParamUpdate): ParamResult {
    let g = f.maximize ? e.neg(grad) : grad;
    if (f.weightDecay) g = addScaled(g, param, scalar("weightDecay"));
    const squareAvg = addcmul(e.mul(state.squareAvg!, scalar("alpha")), g, g, scalar("oneMinusAlpha"));
    const out: ParamResult = { param, state: { squareAvg } };
    let avg: ReturnType<typeof e.sqrt>;
    if (f.centered) {
      const gradAvg = (out.state.gradAvg = lerp(state.gradAvg!, g, scalar("oneMinusAlpha"), f.smallAlphaWeight!));
      avg = e.sqrt(e.sub(squareAvg, e.mul(gradAvg, gradAvg)));
    } else {
      avg = e.sqrt(squareAvg);
    }
    avg = e.add(avg, scalar("eps"));
    if (f.momentum) {
      const buf = (out.state.momentumBuffer = e.add(e.mul(state.momentumBuffer!, scalar("momentum")), e.div(g, avg)));
      out.param = addScaled(param, buf, scalar("negLr"));
    } else {
      out.param = addcdiv(param, g, avg, scalar("negLr"));
    }
    return out;
  }
}
