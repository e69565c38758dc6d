/**
 * @file torch.optim.SGD: stochastic gradient descent with momentum, dampening, Nesterov momentum,
 * weight decay and maximize, as PyTorch's single-tensor implementation computes it.
 */
import * as e from "../ops/emit.js";
import { defineOptions, nonNegative } from "./options.js";
import { Optimizer, type ParamGroup, type ParamsInput, type ParamState } from "./optimizer.js";
import { addScaled, type ParamResult, type ParamUpdate } from "./update.js";

export interface SGDOptions {
  lr?: number;
  momentum?: number;
  dampening?: number;
  weightDecay?: number;
  nesterov?: boolean;
  maximize?: boolean;
}

export interface SGDGroup extends ParamGroup {
  momentum: number;
  dampening: number;
  weightDecay: number;
  nesterov: boolean;
  maximize: boolean;
}

const options = defineOptions(
  "SGD",
  {
    lr: { type: "float", default: 1e-3, check: nonNegative },
    momentum: { type: "float", default: 0, check: nonNegative },
    dampening: { type: "float", default: 0 },
    weightDecay: { type: "float", default: 0, check: nonNegative },
    nesterov: { type: "bool", default: false },
    maximize: { type: "bool", default: false, keywordOnly: true },
  },
  (o) =>
    o.nesterov === true && ((o.momentum as number) <= 0 || o.dampening !== 0)
      ? `nesterov needs momentum > 0 and dampening 0 (got momentum ${String(o.momentum)}, dampening ${String(o.dampening)}); set momentum (e.g. 0.9) and dampening 0, or nesterov false`
      : undefined,
);

const algorithm = { options, scalarNames: ["negLr", "weightDecay", "momentum", "oneMinusDampening", "fresh"], stateKeys: ["momentumBuffer"], countsSteps: false };

/** `new torch.optim.SGD(params, { lr: 0.1, momentum: 0.9 })` (PyTorch's torch.optim.SGD). */
export class SGD extends Optimizer<SGDGroup> {
  constructor(params: ParamsInput, options?: SGDOptions);
  constructor(params: ParamsInput, lr: number, options?: Omit<SGDOptions, "lr">);
  constructor(params: ParamsInput, ...args: unknown[]) {
    super(algorithm, params, args);
  }

  protected initialState(g: SGDGroup): Record<string, number> {
    return g.momentum !== 0 ? { momentumBuffer: 0 } : {};
  }

  protected flags(g: SGDGroup): Record<string, boolean> {
    return { momentum: g.momentum !== 0, nesterov: g.nesterov, maximize: g.maximize, weightDecay: g.weightDecay !== 0 };
  }

  protected scalars(g: SGDGroup, _state: ParamState, created: ReadonlySet<string>): Record<string, number> {
    // A new buffer starts as the gradient itself (PyTorch clones it), not as a decayed zero.
    return { negLr: -g.lr, weightDecay: g.weightDecay, momentum: g.momentum, oneMinusDampening: 1 - g.dampening, fresh: created.has("momentumBuffer") ? 1 : 0 };
  }

  protected update(f: Record<string, boolean>, { param, grad, state, scalar }: ParamUpdate): ParamResult {
    let g = f.maximize ? e.neg(grad) : grad;
    if (f.weightDecay) g = addScaled(g, param, scalar("weightDecay"));
    const out: ParamResult = { param, state: {} };
    if (f.momentum) {
      const momentum = scalar("momentum");
      const decayed = addScaled(e.mul(state.momentumBuffer!, momentum), g, scalar("oneMinusDampening"));
      const fresh = e.compare(scalar("fresh"), e.full(0.5, g.dtype, g.shape), "GT");
      const buf = e.select(fresh, g, decayed);
      out.state.momentumBuffer = buf;
      g = f.nesterov ? addScaled(g, buf, momentum) : buf;
    }
    out.param = addScaled(param, g, scalar("negLr"));
    return out;
  }
}
