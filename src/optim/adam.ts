/**
 * @file torch.optim.Adam and torch.optim.AdamW (Adam with decoupled weight decay), with amsgrad and
 * maximize, as PyTorch's single-tensor implementation computes them: the bias corrections in
 * double precision on the host from the parameter's step count, the moments in the tensor's type.
 */
import * as e from "../ops/emit.js";
import { defineOptions, nonNegative, type Options } from "./options.js";
import { type Algorithm, Optimizer, type ParamGroup, type ParamsInput, type ParamState } from "./optimizer.js";
import { addcdiv, addcmul, addScaled, lerp, type ParamResult, type ParamUpdate } from "./update.js";

export interface AdamOptions {
  lr?: number;
  betas?: readonly [number, number];
  eps?: number;
  weightDecay?: number;
  amsgrad?: boolean;
  maximize?: boolean;
  /** AdamW's weight decay (PyTorch's Adam(decoupled_weight_decay=True)). */
  decoupledWeightDecay?: boolean;
}

export type AdamWOptions = Omit<AdamOptions, "decoupledWeightDecay">;

export interface AdamGroup extends ParamGroup {
  betas: [number, number];
  eps: number;
  weightDecay: number;
  amsgrad: boolean;
  maximize: boolean;
  decoupledWeightDecay: boolean;
}

const betaCheck = (v: readonly number[]): string | undefined => {
  if (v.length !== 2) return `must be two numbers [beta1, beta2], got ${v.length}`;
  const bad = v.findIndex((b) => !(b >= 0 && b < 1));
  return bad < 0 ? undefined : `[${bad}] is ${v[bad]}; each beta must be in [0, 1) (PyTorch's default is [0.9, 0.999])`;
};

const table = (weightDecay: number, decoupled: boolean) => ({
  lr: { type: "float", default: 1e-3, check: nonNegative },
  betas: { type: "float[]", default: [0.9, 0.999], check: betaCheck },
  eps: { type: "float", default: 1e-8, check: nonNegative },
  weightDecay: { type: "float", default: weightDecay, check: nonNegative },
  amsgrad: { type: "bool", default: false },
  maximize: { type: "bool", default: false, keywordOnly: true },
  decoupledWeightDecay: { type: "bool", default: decoupled, keywordOnly: true, ...(decoupled ? { check: (v: boolean) => (v ? undefined : "is always true for AdamW; use Adam for coupled weight decay") } : {}) },
}) as const;

const algorithm = (options: Options) => ({
  options,
  scalarNames: ["beta1Weight", "beta2", "oneMinusBeta2", "negStepSize", "biasCorrection2Sqrt", "eps", "weightDecay", "decay"],
  stateKeys: ["expAvg", "expAvgSq", "maxExpAvgSq"],
  countsSteps: true,
});

const adam = algorithm(defineOptions("Adam", table(0, false)));
const adamw = algorithm(defineOptions("AdamW", table(1e-2, true)));

/** `new torch.optim.Adam(params, { lr: 1e-3, betas: [0.9, 0.999] })` (PyTorch's torch.optim.Adam). */
export class Adam extends Optimizer<AdamGroup> {
  constructor(params: ParamsInput, options?: AdamOptions);
  constructor(params: ParamsInput, lr: number, options?: Omit<AdamOptions, "lr">);
  constructor(params: ParamsInput, ...args: unknown[]) {
    super((new.target as unknown as { algorithm: Algorithm }).algorithm, params, args);
  }

  /** Adam's options and numbers; AdamW's for AdamW (and subclasses). */
  protected static readonly algorithm: Algorithm = adam;

  protected initialState(g: AdamGroup): Record<string, number> {
    return g.amsgrad ? { expAvg: 0, expAvgSq: 0, maxExpAvgSq: 0 } : { expAvg: 0, expAvgSq: 0 };
  }

  protected flags(g: AdamGroup): Record<string, boolean> {
    return {
      amsgrad: g.amsgrad,
      maximize: g.maximize,
      weightDecay: g.weightDecay !== 0,
      decoupled: g.decoupledWeightDecay,
      smallBeta1Weight: Math.abs(1 - g.betas[0]) < 0.5,
    };
  }

  protected scalars(g: AdamGroup, state: ParamState): Record<string, number> {
    const [beta1, beta2] = g.betas;
    const step = state.step as number;
    const biasCorrection1 = 1 - beta1 ** step;
    const biasCorrection2 = 1 - beta2 ** step;
    return {
      beta1Weight: 1 - beta1,
      beta2,
      oneMinusBeta2: 1 - beta2,
      negStepSize: -(g.lr / biasCorrection1),
      biasCorrection2Sqrt: biasCorrection2 ** 0.5,
      eps: g.eps,
      weightDecay: g.weightDecay,
      decay: 1 - g.lr * g.weightDecay,
    };
  }

  protected update(f: Record<string, boolean>, { param, grad, state, scalar }: ParamUpdate): ParamResult {
    let g = f.maximize ? e.neg(grad) : grad;
    let p = param;
    if (f.weightDecay) {
      if (f.decoupled) p = e.mul(p, scalar("decay"));
      else g = addScaled(g, p, scalar("weightDecay"));
    }
    const expAvg = lerp(state.expAvg!, g, scalar("beta1Weight"), f.smallBeta1Weight!);
    const expAvgSq = addcmul(e.mul(state.expAvgSq!, scalar("beta2")), g, g, scalar("oneMinusBeta2"));
    const out: ParamResult = { param: p, state: { expAvg, expAvgSq } };
    let second = expAvgSq;
    if (f.amsgrad) second = out.state.maxExpAvgSq = e.max(state.maxExpAvgSq!, expAvgSq);
    const denom = e.add(e.div(e.sqrt(second), scalar("biasCorrection2Sqrt")), scalar("eps"));
    out.param = addcdiv(p, expAvg, denom, scalar("negStepSize"));
    return out;
  }
}

/** `new torch.optim.AdamW(params, { lr: 1e-3, weightDecay: 1e-2 })` (PyTorch's torch.optim.AdamW). */
export class AdamW extends Adam {
  protected static override readonly algorithm: Algorithm = adamw;

  constructor(params: ParamsInput, options?: AdamWOptions);
  constructor(params: ParamsInput, lr: number, options?: Omit<AdamWOptions, "lr">);
  constructor(params: ParamsInput, ...args: unknown[]) {
    super(params, ...(args as [number]));
  }
}
