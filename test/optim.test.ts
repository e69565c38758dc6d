// torch.optim against PyTorch (test/fixtures/optim/*.json, from scripts/fixtures/optim.py): ten steps of
// each optimizer and option set give PyTorch's parameters, and each scheduler PyTorch's lr sequence.
// Also: one compiled executable per param-group signature (no recompiles as lr changes), stateDict
// round trips, zeroGrad both ways, errors for bad options, half-precision steps, and no leaked tensors.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as torch from "../src/index.js";
import { dtypeFromPjrt } from "../src/dtype.js";
import { addon } from "../src/runtime/addon.js";
import { onCompile } from "../src/trace/eager.js";
import { fixturesDir } from "./helpers/fixtures.js";
import { oracleAvailable, runOnXla } from "./helpers/oracle.js";

type Tensor = torch.Tensor;
interface Spec {
  dtype: "float32" | "float64";
  shape: number[];
  values: number[];
}
interface OptimizerCase {
  id: string;
  optimizer: "SGD" | "Adam" | "AdamW" | "RMSprop" | "Adagrad";
  options: Record<string, unknown>;
  groups?: ({ params: number[] } & Record<string, unknown>)[];
  params: Spec[];
  grads: (Spec | null)[][];
  schedule?: Record<string, unknown>[][];
  expected: Spec[][];
  state: { state: Record<string, { keys: string[]; step?: number }>; paramGroups: Record<string, unknown>[] };
}
interface SchedulerCase {
  id: string;
  scheduler: string;
  args: unknown[];
  options: Record<string, unknown>;
  groups: Record<string, number>[];
  steps: number;
  metrics?: number[];
  lrs: number[][];
  momenta?: number[][];
}

const load = <T>(name: string): T[] => (JSON.parse(readFileSync(join(fixturesDir, "optim", `${name}.json`), "utf8")) as { cases: T[] }).cases;
const optimizerCases = ["sgd", "adam", "adamw", "rmsprop", "adagrad"].flatMap((n) => load<OptimizerCase>(n));
const schedulerCases = load<SchedulerCase>("lr_scheduler");

const fromSpec = (s: Spec, requiresGrad = false): Tensor =>
  torch.tensor(s.dtype === "float64" ? Float64Array.from(s.values) : Float32Array.from(s.values), { shape: s.shape, requiresGrad });
const values = (t: Tensor): number[] => Array.from(t.dataSync() as Float32Array);

/** |got − want| ≤ rtol·|want| + atol, element by element. */
function expectClose(got: number[], want: number[], rtol: number, atol: number, what: string): void {
  expect(got.length, what).toBe(want.length);
  let worst = 0;
  let at = -1;
  got.forEach((g, i) => {
    const excess = Math.abs(g - want[i]!) - (rtol * Math.abs(want[i]!) + atol);
    if (excess > worst) [worst, at] = [excess, i];
  });
  expect(at, `${what}: element ${at} is ${got[at]}, expected ${want[at]}`).toBe(-1);
}

const tolerance = (dtype: string) => (dtype === "float64" ? { rtol: 1e-12, atol: 1e-14 } : { rtol: 1e-6, atol: 1e-7 });

function makeOptimizer(c: OptimizerCase, params: Tensor[]): torch.optim.Optimizer {
  const Class = torch.optim[c.optimizer] as unknown as new (params: unknown, options: unknown) => torch.optim.Optimizer;
  const given = c.groups?.map(({ params: ids, ...rest }) => ({ params: ids.map((i) => params[i]!), ...rest })) ?? params;
  return new Class(given, c.options);
}

/** Steps `from` … `to − 1` of a case: its schedule, its grads, one step each; checks the parameters after each. */
function runSteps(c: OptimizerCase, opt: torch.optim.Optimizer, params: Tensor[], from: number, to: number): void {
  const { rtol, atol } = tolerance(c.params[0]!.dtype);
  for (let k = from; k < to; k++) {
    c.schedule?.[k]?.forEach((settings, g) => Object.assign(opt.paramGroups[g]!, settings));
    params.forEach((p, i) => {
      const g = c.grads[k]![i];
      p.grad = g === null || g === undefined ? null : fromSpec(g);
    });
    opt.step();
    params.forEach((p, i) => expectClose(values(p), c.expected[k]![i]!.values, rtol, atol, `${c.id}: parameter ${i} after step ${k + 1}`));
  }
}

function disposeStateDict(sd: torch.optim.OptimizerStateDict): void {
  for (const st of Object.values(sd.state)) for (const v of Object.values(st)) if (v instanceof torch.Tensor) v.dispose();
}

let startTensors = 0;
beforeEach(() => {
  startTensors = torch.memory().numTensors;
});
afterEach(() => {
  expect(torch.memory().numTensors, "tensors leaked by the test").toBe(startTensors);
});

describe("optimizers against PyTorch (ten steps, foreach=False)", () => {
  it.each(optimizerCases.map((c) => [c.id, c] as const))("%s", (_, c) => {
    const params = c.params.map((s) => fromSpec(s, true));
    const opt = makeOptimizer(c, params);
    runSteps(c, opt, params, 0, c.expected.length);

    // the state has PyTorch's layout: the same state keys and step per parameter, the same group options
    const sd = opt.stateDict();
    expect(Object.keys(sd.state).sort()).toEqual(Object.keys(c.state.state).sort());
    for (const [id, want] of Object.entries(c.state.state)) {
      const st = sd.state[Number(id)]!;
      expect(Object.keys(st).sort(), `${c.id}: state of parameter ${id}`).toEqual(want.keys);
      if (want.step !== undefined) expect(st.step).toBe(want.step);
    }
    expect(sd.paramGroups).toEqual(c.state.paramGroups);
    disposeStateDict(sd);
    opt.dispose();
    for (const p of params) p.dispose();
  });
});

describe("stateDict round trip", () => {
  const picks = ["sgd/momentum-dampening-wd", "adam/betas-wd-amsgrad", "adamw/missing-grads", "rmsprop/centered-momentum-wd", "adagrad/decay-wd-accumulator-maximize", "adam/float64"];
  it.each(picks)("%s: five steps, save, a new optimizer loads it, five more steps give PyTorch's parameters", (id) => {
    const c = optimizerCases.find((x) => x.id === id)!;
    const params = c.params.map((s) => fromSpec(s, true));
    const first = makeOptimizer(c, params);
    runSteps(c, first, params, 0, 5);
    const sd = first.stateDict();
    first.dispose();
    // a second optimizer with other options: loading restores the saved ones
    const second = makeOptimizer({ ...c, options: { ...c.options, lr: 123 }, groups: c.groups?.map((g) => ({ ...g, lr: 456 })) }, params);
    second.loadStateDict(sd);
    disposeStateDict(sd); // the optimizer holds copies
    runSteps(c, second, params, 5, 10);
    second.dispose();
    for (const p of params) p.dispose();
  });

  it("loads PyTorch's snake_case keys and a step given as a tensor", () => {
    const p = torch.tensor([1, 2, 3], { dtype: "float32", requiresGrad: true });
    const opt = new torch.optim.Adam([p], { lr: 0.1 });
    torch.tidy(() =>
      opt.loadStateDict({
        state: { 0: { step: torch.tensor(4), exp_avg: torch.tensor([0.1, 0.2, 0.3]), exp_avg_sq: torch.tensor([1, 1, 1]) } },
        param_groups: [{ lr: 0.01, betas: [0.8, 0.9], eps: 1e-8, weight_decay: 0, amsgrad: false, maximize: false, foreach: null, capturable: false, differentiable: false, fused: null, decoupled_weight_decay: false, params: [0] }],
      } as unknown as torch.optim.OptimizerStateDict),
    );
    expect(opt.paramGroups[0]!.lr).toBe(0.01);
    expect(opt.paramGroups[0]!.betas).toEqual([0.8, 0.9]);
    expect(opt.state.get(p)!.step).toBe(4);
    expect(values(opt.state.get(p)!.expAvg as Tensor)).toEqual(Array.from(Float32Array.from([0.1, 0.2, 0.3])));
    opt.dispose();
    p.dispose();
  });

  it("rejects a state dict of another shape", () => {
    const [a, b] = [torch.zeros([2], { requiresGrad: true }), torch.zeros([3], { requiresGrad: true })];
    const opt = new torch.optim.SGD([a, b], { lr: 0.1, momentum: 0.9 });
    const other = new torch.optim.SGD([{ params: [a] }, { params: [b] }], { lr: 0.1, momentum: 0.9 });
    expect(() => opt.loadStateDict(other.stateDict())).toThrow(/2 param groups but this optimizer has 1/);
    expect(() => opt.loadStateDict({ state: {}, paramGroups: [{ lr: 0.1, params: [0] }] })).toThrow(/has 1 parameters but this optimizer's has 2/);
    const wrong = torch.zeros([5]);
    expect(() => opt.loadStateDict({ state: { 0: { momentumBuffer: wrong } }, paramGroups: [{ lr: 0.1, params: [0, 1] }] })).toThrow(torch.ShapeError);
    wrong.dispose();
    expect(() => opt.loadStateDict({ state: { 0: { expAvg: 1 } }, paramGroups: [{ lr: 0.1, params: [0, 1] }] })).toThrow(/state "expAvg", which SGD does not keep/);
    for (const t of [a, b]) t.dispose();
  });
});

describe("one executable per param-group signature", () => {
  function countCompiles(run: () => void): number {
    let n = 0;
    const previous = onCompile((op) => {
      if (op.startsWith("optim.")) n++;
    });
    try {
      run();
    } finally {
      onCompile(previous);
    }
    return n;
  }

  it.each([
    ["SGD", (ps: Tensor[]) => new torch.optim.SGD(ps, { lr: 0.1, momentum: 0.9, nesterov: true, weightDecay: 0.01 })],
    ["Adam", (ps: Tensor[]) => new torch.optim.Adam(ps, { lr: 0.1, amsgrad: true })],
    ["AdamW", (ps: Tensor[]) => new torch.optim.AdamW(ps, { lr: 0.1 })],
    ["RMSprop", (ps: Tensor[]) => new torch.optim.RMSprop(ps, { lr: 0.1, momentum: 0.5, centered: true })],
    ["Adagrad", (ps: Tensor[]) => new torch.optim.Adagrad(ps, { lr: 0.1, lrDecay: 0.1 })],
  ] as const)("%s: one compile on the first step, none in nine more as OneCycleLR changes lr (and momentum or beta1)", (name, make) => {
    const shapes = [[7, 13], [13], [2, 3, 5]];
    const params = shapes.map((s) => torch.randn(s).requiresGrad_());
    const opt = make(params);
    const schedule = new torch.optim.lrScheduler.OneCycleLR(opt, 0.5, { totalSteps: 12, cycleMomentum: name !== "Adagrad" });
    const compiles: number[] = [];
    const totals: number[] = [];
    const lrs = new Set<number>();
    for (let k = 0; k < 10; k++) {
      torch.tidy(() => {
        for (const p of params) p.grad = torch.randn(p.shape);
        const before = torch.runtime.stats().compiles;
        compiles.push(countCompiles(() => opt.step()));
        totals.push(torch.runtime.stats().compiles - before);
        lrs.add(opt.paramGroups[0]!.lr);
        schedule.step();
      });
    }
    expect(compiles[0]).toBe(1);
    expect(compiles.slice(1)).toEqual(Array(9).fill(0));
    expect(totals.slice(1), "no compile at all after the first step").toEqual(Array(9).fill(0));
    expect(lrs.size).toBe(10);
    opt.dispose();
    for (const p of params) p.dispose();
  });

  it("updates every parameter of a group in one executable run, each group in its own", () => {
    const params = [torch.randn([4, 4]).requiresGrad_(), torch.randn([9]).requiresGrad_(), torch.randn([3]).requiresGrad_()];
    const opt = new torch.optim.Adam([{ params: params.slice(0, 2), lr: 0.01 }, { params: params.slice(2), lr: 0.1 }]);
    for (const p of params) p.grad = torch.onesLike(p);
    const ops: string[] = [];
    const previous = onCompile((op) => ops.push(op));
    try {
      opt.step();
    } finally {
      onCompile(previous);
    }
    expect(ops.filter((op) => op.startsWith("optim."))).toEqual(["optim.Adam", "optim.Adam"]); // one per group
    const before = torch.runtime.stats();
    opt.step();
    const after = torch.runtime.stats();
    // a later step: two executable runs (one per group, cache hits), nothing else dispatched or compiled
    expect([after.hits - before.hits, after.misses - before.misses, after.compiles - before.compiles]).toEqual([2, 0, 0]);
    opt.dispose();
    for (const p of params) p.dispose();
  });
});

describe("Optimizer behaviour", () => {
  it("skips parameters without a grad, and their state stays as it was", () => {
    const [a, b] = [torch.tensor([1, 2], { dtype: "float32", requiresGrad: true }), torch.tensor([3, 4], { dtype: "float32", requiresGrad: true })];
    const opt = new torch.optim.Adam([a, b], { lr: 0.5 });
    a.grad = torch.tensor([1, 1], { dtype: "float32" });
    opt.step();
    expect(opt.state.has(b)).toBe(false);
    expect(values(b)).toEqual([3, 4]);
    expect(opt.state.get(a)!.step).toBe(1);
    expectClose(values(a), [0.5, 1.5], 1e-6, 0, "a after one Adam step of lr 0.5");
    opt.dispose();
    for (const t of [a, b]) t.dispose();
  });

  it("zeroGrad() sets grads to null and frees them; zeroGrad({ setToNone: false }) zeros them in place", () => {
    const p = torch.tensor([1, 2, 3], { dtype: "float32", requiresGrad: true });
    const opt = new torch.optim.SGD([p], { lr: 0.1 });
    p.grad = torch.onesLike(p);
    const grad = p.grad;
    opt.zeroGrad({ setToNone: false });
    expect(p.grad).toBe(grad);
    expect(values(p.grad!)).toEqual([0, 0, 0]);
    opt.zeroGrad(false);
    expect(p.grad).toBe(grad);
    opt.zeroGrad();
    expect(p.grad).toBeNull();
    expect(grad.isDisposed).toBe(true);
    // a grad of zeros still steps (weight decay moves the parameter), a null grad does not
    const decay = new torch.optim.SGD([p], { lr: 0.1, weightDecay: 1 });
    decay.step();
    expect(values(p)).toEqual([1, 2, 3]);
    p.grad = torch.zeros([3]);
    decay.step();
    expectClose(values(p), [0.9, 1.8, 2.7], 1e-6, 0, "p after a weight-decay step");
    expect(() => opt.zeroGrad({ set_to_none: true } as never)).toThrow(/unknown option "set_to_none"/);
    p.dispose();
  });

  it("step(closure) runs the closure with grad enabled and returns its loss; an async closure gives a promise", async () => {
    const w = torch.tensor([2], { dtype: "float32", requiresGrad: true });
    const opt = new torch.optim.SGD([w], { lr: 0.25 });
    const closure = () =>
      torch.tidy(() => {
        opt.zeroGrad();
        const loss = w.mul(w).sum();
        loss.backward();
        return loss.item() as number;
      });
    const loss = torch.noGrad(() => opt.step(closure));
    expect(loss).toBe(4);
    expect(values(w)).toEqual([1]); // 2 − 0.25·4
    const next = await opt.step(async () => closure());
    expect(next).toBe(1);
    expect(values(w)).toEqual([0.5]);
    w.dispose();
  });

  it("param groups: per-group options over the defaults, mutable lr, addParamGroup, [name, tensor] pairs", () => {
    const [a, b, c] = [torch.zeros([2], { requiresGrad: true }), torch.zeros([2], { requiresGrad: true }), torch.zeros([2], { requiresGrad: true })];
    const opt = new torch.optim.SGD([{ params: [a] }, { params: b, lr: 0.5, nesterov: true, momentum: 0.9 }], 0.1, { momentum: 0.2 });
    expect(opt.defaults).toMatchObject({ lr: 0.1, momentum: 0.2, dampening: 0, weightDecay: 0, nesterov: false, maximize: false });
    expect(opt.paramGroups.map((g) => [g.lr, g.momentum, g.nesterov])).toEqual([[0.1, 0.2, false], [0.5, 0.9, true]]);
    opt.addParamGroup({ params: [c], weightDecay: 0.1 });
    expect(opt.paramGroups[2]).toMatchObject({ lr: 0.1, momentum: 0.2, weightDecay: 0.1 });
    expect(() => opt.addParamGroup({ params: [a] })).toThrow(/already in another param group/);
    const named = new torch.optim.Adam([["fc.weight", a], ["fc.bias", b]] as [string, Tensor][]);
    expect(named.paramGroups[0]!.paramNames).toEqual(["fc.weight", "fc.bias"]);
    expect(named.stateDict().paramGroups[0]!.paramNames).toEqual(["fc.weight", "fc.bias"]);
    for (const t of [a, b, c]) t.dispose();
  });

  it("state survives torch.tidy; dispose() frees it and loadStateDict replaces it", () => {
    const p = torch.randn([5]).requiresGrad_();
    const opt = new torch.optim.RMSprop([p], { momentum: 0.9, centered: true });
    p.grad = torch.onesLike(p);
    const base = torch.memory().numTensors;
    torch.tidy(() => opt.step());
    expect(torch.memory().numTensors).toBe(base + 3); // squareAvg, momentumBuffer, gradAvg
    const sd = opt.stateDict();
    opt.loadStateDict(sd);
    disposeStateDict(sd);
    expect(torch.memory().numTensors).toBe(base + 3);
    opt.dispose();
    expect(opt.state.size).toBe(0);
    expect(torch.memory().numTensors).toBe(base);
    p.dispose();
  });

  it.each(["bfloat16", "float16"] as const)("%s parameters: computed in float32, rounded once to the parameter's dtype", (dtype) => {
    const start = [0.5, -1.25, 2, 0.375, -3];
    const grads = [0.25, -0.5, 1.5, 0.125, -2];
    const run = (d: torch.DType) => {
      const p = torch.tensor(start, { dtype: d, requiresGrad: true });
      const opt = new torch.optim.AdamW([p], { lr: 0.1, amsgrad: true });
      p.grad = torch.tensor(grads, { dtype: d });
      opt.step();
      expect((opt.state.get(p)!.expAvg as Tensor).dtype).toBe(d);
      const out = torch.tidy(() => p.to("float32").to(dtype).to("float32"));
      const result = values(out);
      out.dispose();
      opt.dispose();
      p.dispose();
      return result;
    };
    expect(run(dtype)).toEqual(run("float32"));
  });
});

describe("bad options are ArgumentErrors that name the option and the fix", () => {
  let p: Tensor;
  beforeEach(() => {
    p = torch.zeros([2], { requiresGrad: true });
  });
  afterEach(() => p.dispose());

  it.each([
    ["negative lr", () => new torch.optim.SGD([p], { lr: -0.1 }), /"lr" must be >= 0, got -0.1/],
    ["negative momentum", () => new torch.optim.SGD([p], { momentum: -1 }), /"momentum" must be >= 0/],
    ["nesterov without momentum", () => new torch.optim.SGD([p], { nesterov: true }), /nesterov needs momentum > 0 and dampening 0.*set momentum/],
    ["nesterov with dampening", () => new torch.optim.SGD([p], { nesterov: true, momentum: 0.9, dampening: 0.1 }), /nesterov needs/],
    ["beta1 = 1", () => new torch.optim.Adam([p], { betas: [1, 0.999] }), /"betas" \[0\] is 1; each beta must be in \[0, 1\)/],
    ["beta2 < 0", () => new torch.optim.AdamW([p], { betas: [0.9, -0.1] }), /"betas" \[1\] is -0.1/],
    ["one beta", () => new torch.optim.Adam([p], { betas: [0.9] as never }), /must be two numbers/],
    ["negative eps", () => new torch.optim.Adam([p], { eps: -1 }), /"eps" must be >= 0/],
    ["negative weightDecay", () => new torch.optim.RMSprop([p], { weightDecay: -1 }), /"weightDecay" must be >= 0/],
    ["negative alpha", () => new torch.optim.RMSprop([p], { alpha: -0.5 }), /"alpha" must be >= 0/],
    ["negative lrDecay", () => new torch.optim.Adagrad([p], { lrDecay: -1 }), /"lrDecay" must be >= 0/],
    ["snake_case option", () => new torch.optim.Adam([p], { weight_decay: 0.1 } as never), /unknown option "weight_decay"; did you mean "weightDecay"\? \(options are camelCase\)/],
    ["misspelled option", () => new torch.optim.SGD([p], { momentun: 0.9 } as never), /did you mean "momentum"/],
    ["PyTorch's foreach", () => new torch.optim.Adam([p], { foreach: false } as never), /"foreach" is PyTorch's.*one compiled executable per param group/],
    ["a string lr", () => new torch.optim.SGD([p], { lr: "0.1" } as never), /"lr" must be a float/],
    ["AdamW without decoupling", () => new torch.optim.AdamW([p], { decoupledWeightDecay: false } as never), /always true for AdamW/],
    ["bad group option", () => new torch.optim.SGD([{ params: [p], lr: -1 }]), /param group 0: "lr" must be >= 0/],
    ["unknown group option", () => new torch.optim.SGD([{ params: [p], betas: [0.9, 0.99] }]), /param group 0.*unknown option "betas"/],
    ["empty params", () => new torch.optim.SGD([]), /empty parameter list/],
    ["a bare tensor", () => new torch.optim.SGD(p as never), /iterable of Tensors.*wrap it in an array/],
    ["a non-leaf", () => torch.tidy(() => new torch.optim.SGD([p.mul(2)])), /not a leaf/],
    ["a parameter twice", () => new torch.optim.SGD([p, p]), /appears twice/],
    ["a Set", () => new torch.optim.SGD([{ params: new Set([p]) }]), /not a Set/],
    ["a number", () => new torch.optim.SGD([1] as never), /optimizers optimize Tensors/],
  ])("%s", (_, make, message) => {
    expect(make).toThrow(torch.ArgumentError);
    expect(make).toThrow(message);
  });

  it("an integer parameter is a DTypeError; a bad lr set between steps fails at the step", () => {
    const i = torch.tensor([1, 2]);
    expect(() => new torch.optim.SGD([i])).toThrow(torch.DTypeError);
    i.dispose();
    const opt = new torch.optim.SGD([p], { lr: 0.1 });
    opt.paramGroups[0]!.lr = -1;
    p.grad = torch.ones([2]);
    expect(() => opt.step()).toThrow(/param group 0: "lr" must be >= 0, got -1/);
  });

  it("schedulers check their arguments too", () => {
    const opt = new torch.optim.SGD([p], { lr: 0.1 });
    const s = torch.optim.lrScheduler;
    expect(() => new s.StepLR(opt, 0)).toThrow(/stepSize must be a positive int/);
    expect(() => new s.StepLR(opt, 3, { gama: 0.5 } as never)).toThrow(/unknown option "gama"; did you mean "gamma"/);
    expect(() => new s.OneCycleLR(opt, 0.1)).toThrow(/give totalSteps, or epochs and stepsPerEpoch/);
    expect(() => new s.OneCycleLR(opt, 0.1, { totalSteps: 10, annealStrategy: "cosine" as never })).toThrow(/annealStrategy/);
    expect(() => new s.ReduceLROnPlateau(opt, { factor: 1 })).toThrow(/factor must be < 1/);
    expect(() => new s.LambdaLR(opt, 0.5 as never)).toThrow(/lrLambda must be a function/);
    expect(() => new s.SequentialLR(opt, [new s.ExponentialLR(opt, 0.9)], [3])).toThrow(/one milestone fewer than schedulers/);
    expect(() => new s.StepLR({} as never, 3)).toThrow(/first argument must be an optimizer/);
    const once = new s.OneCycleLR(opt, 0.1, { totalSteps: 2 });
    once.step();
    once.step();
    expect(() => once.step()).toThrow(/tried to step 3 times; the schedule has totalSteps 2/);
  });
});

describe("lrScheduler against PyTorch", () => {
  const lambdas: Record<string, (e: number) => number> = { "0.95**epoch": (e) => 0.95 ** e, "1/(1+epoch)": (e) => 1 / (1 + e) };
  const decode = (v: unknown): unknown => (typeof v === "string" && v in lambdas ? lambdas[v] : Array.isArray(v) ? v.map(decode) : v);

  function build(opt: torch.optim.Optimizer, name: string, args: unknown[], options: Record<string, unknown>): torch.optim.lrScheduler.LRScheduler {
    const Class = (torch.optim.lrScheduler as unknown as Record<string, new (...a: unknown[]) => torch.optim.lrScheduler.LRScheduler>)[name]!;
    let positional = args.map(decode);
    if (name === "SequentialLR") {
      const specs = args[0] as { scheduler: string; args: unknown[]; options: Record<string, unknown> }[];
      positional = [specs.map((s) => build(opt, s.scheduler, s.args, s.options)), args[1]];
    }
    return new Class(opt, ...positional, options);
  }

  function setup(c: SchedulerCase) {
    const params = c.groups.map(() => torch.zeros([2], { requiresGrad: true }));
    const opt = new torch.optim.SGD(
      c.groups.map((g, i) => ({ params: [params[i]!], ...g })),
      { lr: 0.1 },
    );
    return { params, opt, scheduler: build(opt, c.scheduler, c.args, c.options) };
  }

  function advance(c: SchedulerCase, opt: torch.optim.Optimizer, scheduler: torch.optim.lrScheduler.LRScheduler, from: number, to: number): void {
    for (let k = from; k < to; k++) {
      opt.step();
      if (c.metrics) (scheduler as torch.optim.lrScheduler.ReduceLROnPlateau).step(c.metrics[k]!);
      else scheduler.step();
      expectClose(scheduler.getLastLr(), c.lrs[k + 1]!, 1e-12, 1e-18, `${c.id}: lr after step ${k + 1}`);
      if (c.momenta) expectClose(opt.paramGroups.map((g) => g.momentum as number), c.momenta[k + 1]!, 1e-12, 1e-18, `${c.id}: momentum after step ${k + 1}`);
    }
  }

  it.each(schedulerCases.map((c) => [c.id, c] as const))("%s", (_, c) => {
    const { params, opt, scheduler } = setup(c);
    expectClose(scheduler.getLastLr(), c.lrs[0]!, 1e-12, 1e-18, `${c.id}: lr after construction`);
    expect(opt.paramGroups.map((g) => g.lr)).toEqual(scheduler.getLastLr());
    advance(c, opt, scheduler, 0, c.steps);
    for (const p of params) p.dispose();
  });

  it("ReduceLROnPlateau's initial best (Infinity) survives JSON, which writes null", () => {
    const p = torch.zeros([1], { requiresGrad: true });
    const opt = new torch.optim.SGD([p], { lr: 1 });
    const s = new torch.optim.lrScheduler.ReduceLROnPlateau(opt, "max", { patience: 0 });
    s.loadStateDict(JSON.parse(JSON.stringify(s.stateDict())) as Record<string, unknown>);
    expect(s.best).toBe(-Infinity);
    s.step(1);
    s.step(0.5);
    expect(s.getLastLr()).toEqual([0.1]);
    expect(() => s.loadStateDict({ bestt: 1 })).toThrow(/unknown key "bestt"/);
    p.dispose();
  });

  it.each(schedulerCases.filter((c) => c.steps > 6).map((c) => [c.id, c] as const))("%s: stateDict round trip half way", (_, c) => {
    const first = setup(c);
    advance(c, first.opt, first.scheduler, 0, 5);
    const saved = { opt: first.opt.stateDict(), scheduler: JSON.stringify(first.scheduler.stateDict()) }; // plain data
    const second = setup(c);
    second.opt.loadStateDict(saved.opt);
    second.scheduler.loadStateDict(JSON.parse(saved.scheduler) as Record<string, unknown>);
    advance(c, second.opt, second.scheduler, 5, c.steps);
    for (const p of [...first.params, ...second.params]) p.dispose();
  });
});

// Real XLA (jaxlib's CPU client) compiles every optimizer's step module and gives our plugin's numbers
// on the same inputs (a group of float32, bfloat16 and float64 parameters: two scalar tables).
describe("optimizer steps on real XLA", () => {
  const avail = oracleAvailable();
  if (!avail.ok) {
    it.skip(`skipped: ${avail.reason}`, () => {});
    return;
  }
  const makers: [string, (ps: Tensor[]) => torch.optim.Optimizer][] = [
    ["SGD", (ps) => new torch.optim.SGD(ps, { lr: 0.1, momentum: 0.9, nesterov: true, weightDecay: 0.01, maximize: true })],
    ["Adam", (ps) => new torch.optim.Adam(ps, { amsgrad: true, weightDecay: 0.1 })],
    ["AdamW", (ps) => new torch.optim.AdamW(ps, { betas: [0.3, 0.9] })],
    ["RMSprop", (ps) => new torch.optim.RMSprop(ps, { momentum: 0.5, centered: true, weightDecay: 0.1 })],
    ["Adagrad", (ps) => new torch.optim.Adagrad(ps, { lrDecay: 0.1, weightDecay: 0.1 })],
  ];

  it("every step module compiles on XLA, and XLA's outputs are our plugin's", async () => {
    const modules: { name: string; mlir: string; inputs: { dtype: torch.DType; shape: number[]; values: number[] }[] }[] = [];
    for (const [name, make] of makers) {
      const params = [torch.randn([3, 4]), torch.randn([5], { dtype: "bfloat16" }), torch.randn([2], { dtype: "float64" })].map((p) => p.requiresGrad_());
      const opt = make(params);
      for (const p of params) p.grad = torch.randn(p.shape, { dtype: p.dtype });
      let mlir = "";
      let types: { dtype: torch.DType; shape: number[] }[] = [];
      const previous = onCompile((op, graph) => {
        if (op !== `optim.${name}`) return;
        mlir = addon().printGraph(graph);
        types = graph.inputs.map((t) => ({ dtype: dtypeFromPjrt(t.type), shape: t.dims }));
      });
      try {
        opt.step();
      } finally {
        onCompile(previous);
      }
      expect(mlir, `${name}: the step compiled`).not.toBe("");
      // positive inputs (second moments are never negative) in [0.1, 1], exactly representable in their dtype
      const inputs = types.map((t, i) => {
        const spread = Array.from({ length: t.shape.reduce((a, b) => a * b, 1) }, (_, j) => 0.1 + (((i * 7 + j * 13) % 37) / 37) * 0.9);
        return { ...t, values: torch.tidy(() => values(torch.tensor(spread, { dtype: t.dtype }).to("float64"))) };
      });
      modules.push({ name, mlir, inputs });
      opt.dispose();
      for (const p of params) p.dispose();
    }
    const xla = await runOnXla(modules);
    for (const m of modules) {
      const result = xla.get(m.name);
      if (!result?.ok) throw new Error(`${m.name}: XLA failed: ${JSON.stringify(result)}`);
      const exe = await torch.runtime.compile(m.mlir);
      torch.tidy(() => {
        const outs = exe.runSync(m.inputs.map((t) => torch.tensor(t.values, { dtype: t.dtype, shape: t.shape })));
        expect(outs.length).toBe(result.outputs.length);
        outs.forEach((o, k) => {
          const want = result.outputs[k]!;
          // float32 results that differ in their last bit (XLA's order of rounding) may round to
          // neighbouring bfloat16 values: one bfloat16 step there
          const rtol = o.dtype === "float64" ? 1e-14 : o.dtype === "bfloat16" ? 2 ** -7 : 1e-6;
          expectClose(values(o.to("float64")), want.values.map(Number), rtol, 0, `${m.name}: output ${k} (${o.dtype})`);
        });
      });
      exe.dispose();
    }
  }, 300_000);
});
