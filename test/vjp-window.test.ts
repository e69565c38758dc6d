// The VJP rules of the window primitives (src/ops/prims_vjp_window.ts) against float64 central
// differences of each primitive's own forward (test/helpers/vjp.ts), over window geometries with
// strides, uneven and negative padding, base and window dilation, windows hanging over the end and
// windows of padding only; where finite differences cannot tell (ties, −∞), against hand-computed
// cotangents; and the rules' units on real XLA and libtpu.
import { describe, expect, it } from "vitest";
import * as torch from "../src/index.js";
import * as e from "../src/ops/emit.js";
import type { Prim, PrimParams } from "../src/ops/prims.js";
import type { ConvParams, WindowParams, WindowPrimParams } from "../src/ops/prims_window.js";
import { windowVjps as vjps } from "../src/ops/prims_vjp_window.js";
import { runMany } from "../src/ops/unit.js";
import type { VjpRule } from "../src/ops/vjp_types.js";
import { ArgumentError } from "../src/runtime/errors.js";
import { bind, type Tracer } from "../src/trace/tracer.js";
import { realRuntimeMissing } from "./helpers/runtime.js";
import { type UnitCase, unitsOnRealXla } from "./helpers/units.js";
import { checkVjp } from "./helpers/vjp.js";

const missing = realRuntimeMissing();
const test = missing ? it.skip : it;
if (missing) it.skip(`skipped: ${missing}`, () => {});

const numel = (shape: number[]) => shape.reduce((a, b) => a * b, 1);
const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
const tensor = (values: number[], shape: number[], dtype: "float64" | "float32" = "float64") =>
  torch.tensor(dtype === "float64" ? new Float64Array(values) : new Float32Array(values), { shape, dtype });
/** A permutation of evenly spaced values in [-2, 2): no ties, neighbours at least 4/n apart. */
function distinct(shape: number[], dtype: "float64" | "float32" = "float64"): torch.Tensor {
  const n = numel(shape);
  const step = [7, 11, 13, 17].find((s) => gcd(s, n) === 1)!;
  return tensor(Array.from({ length: n }, (_, i) => (((i * step + 3) % n) / n) * 4 - 2), shape, dtype);
}
/** Smooth values in [0.5, 1.5] (products stay near 1). */
const near1 = (shape: number[]) => tensor(Array.from({ length: numel(shape) }, (_, i) => 1 + 0.5 * Math.sin(1.3 * i + 0.4)), shape);
const scalar = (v: number, dtype: "float64" | "float32" = "float64") => tensor([v], [], dtype);
const int64 = (values: number[] | bigint[], shape: number[]) => torch.tensor(values, { shape, dtype: "int64" });

/** Window params for `rank` dims; size 1, stride 1, no padding or dilation unless given. */
function win(rank: number, over: Partial<WindowParams>): WindowParams {
  const ones = Array.from({ length: rank }, () => 1);
  return {
    window: over.window ?? ones, strides: over.strides ?? ones, baseDilation: over.baseDilation ?? ones,
    windowDilation: over.windowDilation ?? ones, padding: over.padding ?? ones.map(() => [0, 0] as const),
  };
}
/** A cumulative window along the last of `shape`'s dims (cumsum and its kin). */
const prefix = (shape: number[]): WindowParams => {
  const n = shape.at(-1)!;
  return win(shape.length, { window: shape.map((d, i) => (i === shape.length - 1 ? n : 1)), padding: shape.map((_, i) => (i === shape.length - 1 ? [n - 1, 0] : [0, 0])) });
};

let ruleRuns = 0;

/** The rule's cotangents for `inputs` given the output cotangents (null: zero); null where the rule gives none. */
function ruleCts<P extends Prim>(prim: P, rule: VjpRule<P>, inputs: torch.Tensor[], params: PrimParams[P], cts: (torch.Tensor | null)[]): (number[] | null)[] {
  return torch.tidy(() => {
    let gotNull: boolean[] = [];
    const given = cts.filter((c): c is torch.Tensor => c !== null);
    // a fresh key per call, so that the body (which records which cotangents are null) always runs
    const outs = runMany(`vjpWindowTest.${prim}`, [...inputs, ...given], `${JSON.stringify(params)}|${ruleRuns++}`, (ts) => {
      const ins = ts.slice(0, inputs.length);
      let k = inputs.length;
      const got = rule({ inputs: ins, outputs: bind(prim, ins, params), cts: cts.map((c) => (c === null ? null : ts[k++]!)), needed: ins.map(() => true), params });
      gotNull = ins.map((_, i) => got[i] == null);
      return ins.map((x, i): Tracer => got[i] ?? x);
    });
    return outs.map((o, i) => (gotNull[i] ? null : Array.from(o.dataSync() as Float64Array)));
  });
}

// --- geometries shared by the reduce_window rules -------------------------------------------------

const geometries: [string, number[], WindowParams][] = [
  ["1-d stride 2, uneven padding, the last window hangs over the end", [7], win(1, { window: [3], strides: [2], padding: [[1, 2]] })],
  ["2-d base and window dilation, uneven padding", [4, 5], win(2, { window: [2, 3], strides: [2, 1], baseDilation: [2, 1], windowDilation: [1, 2], padding: [[1, 0], [0, 2]] })],
  ["2-d strides that skip elements", [5, 4], win(2, { window: [2, 2], strides: [3, 3] })],
  ["cumulative along the last dim", [2, 5], prefix([2, 5])],
  ["negative padding crops", [8], win(1, { window: [2], padding: [[-1, -2]] })],
  ["windows of padding and of dilation holes only", [3], win(1, { window: [1], strides: [1], baseDilation: [2], padding: [[2, 3]] })],
  ["padding wider than the window, stride 2", [4], win(1, { window: [2], strides: [2], padding: [[3, 3]] })],
  ["3-d with stride, dilation and padding", [3, 2, 4], win(3, { window: [2, 1, 2], strides: [1, 2, 2], windowDilation: [2, 1, 1], padding: [[0, 1], [1, 0], [1, 1]] })],
];

/**
 * The init of max-like windows in numeric checks: an element always beats it, and windows of
 * padding only stay finite (±∞ would make the finite differences NaN; the hand-computed cases use ±∞).
 */
const far = 100;

describe("reduce_window_sum VJP", () => {
  for (const [name, shape, p] of geometries) {
    test(name, () => checkVjp("reduce_window_sum", vjps.reduce_window_sum, [distinct(shape), scalar(0)], p, { wrt: [0] }));
  }

  test("an integer operand and the init get no cotangent", () => {
    const x = torch.tensor([1, 2, 3], { dtype: "int32" });
    const [dx, dinit] = ruleCts("reduce_window_sum", vjps.reduce_window_sum, [x, torch.tensor(0, { dtype: "int32" })], win(1, { window: [2] }), [torch.tensor([1, 1], { dtype: "int32" })]);
    expect([dx, dinit]).toEqual([null, null]);
  });
});

describe("reduce_window_max/min VJP", () => {
  for (const [name, shape, p] of geometries) {
    test(`max: ${name}`, () => checkVjp("reduce_window_max", vjps.reduce_window_max, [distinct(shape), scalar(-far)], p, { wrt: [0] }));
    test(`min: ${name}`, () => checkVjp("reduce_window_min", vjps.reduce_window_min, [distinct(shape), scalar(far)], p, { wrt: [0] }));
  }

  test("ties: the first maximum of each window gets it", () => {
    const [dx] = ruleCts("reduce_window_max", vjps.reduce_window_max, [tensor([1, 3, 3, 2, 3], [5]), scalar(-Infinity)], win(1, { window: [3] }), [tensor([1, 10, 100], [3])]);
    expect(dx).toEqual([0, 11, 100, 0, 0]);
  });

  test("ties: the first minimum of each window gets it, across 2-d windows", () => {
    const x = tensor([5, 1, 1, 1, 1, 4], [2, 3]);
    const [dx] = ruleCts("reduce_window_min", vjps.reduce_window_min, [x, scalar(Infinity)], win(2, { window: [2, 2] }), [tensor([1, 10], [1, 2])]);
    expect(dx).toEqual([0, 11, 0, 0, 0, 0]);
  });

  test("an element of −∞ wins over padding and holes of −∞; windows of padding pass nothing", () => {
    // padded and dilated: [pad, pad, x0, hole, x1, pad]
    const p = win(1, { window: [2], baseDilation: [2], padding: [[2, 1]] });
    const [dx] = ruleCts("reduce_window_max", vjps.reduce_window_max, [tensor([-Infinity, -Infinity], [2]), scalar(-Infinity)], p, [tensor([1, 2, 4, 8, 16], [5])]);
    expect(dx).toEqual([6, 24]);
  });

  test("a NaN is the maximum", () => {
    const [dx] = ruleCts("reduce_window_max", vjps.reduce_window_max, [tensor([1, NaN, 5, 2], [4]), scalar(-Infinity)], win(1, { window: [2] }), [tensor([1, 10, 100], [3])]);
    expect(dx).toEqual([0, 11, 100, 0]);
  });

  test("where the init wins, no element gets the cotangent", () => {
    const [dx] = ruleCts("reduce_window_max", vjps.reduce_window_max, [tensor([-1, 2, -3], [3]), scalar(0)], win(1, { window: [1] }), [tensor([1, 10, 100], [3])]);
    expect(dx).toEqual([0, 10, 0]);
  });
});

describe("reduce_window_prod VJP", () => {
  for (const [name, shape, p] of geometries) {
    test(name, () => checkVjp("reduce_window_prod", vjps.reduce_window_prod, [near1(shape), scalar(1)], p, { wrt: [0] }));
  }

  test("cumprod with one zero and then two zeros is exact", () => {
    const x = tensor([1.5, 0, 2, -0.5, 0, 3], [6]);
    checkVjp("reduce_window_prod", vjps.reduce_window_prod, [x, scalar(1)], prefix([6]), { wrt: [0] });
  });

  test("overlapping 2-d windows holding no, one and two zeros", () => {
    const x = tensor([1.5, 0, 2, 0.5, -1, 3, 0, 1.2, 0.8, 1.1, 2, 0], [3, 4]);
    checkVjp("reduce_window_prod", vjps.reduce_window_prod, [x, scalar(1)], win(2, { window: [2, 2], padding: [[0, 1], [1, 0]] }), { wrt: [0] });
    const [dx] = ruleCts("reduce_window_prod", vjps.reduce_window_prod, [tensor([0, 0, 2], [3]), scalar(1)], win(1, { window: [2] }), [tensor([1, 10], [2])]);
    expect(dx).toEqual([0, 20, 0]); // window [0, 0]: both get 0; window [0, 2]: the zero gets 10·2
  });
});

describe("reduce_window_logaddexp VJP", () => {
  for (const [name, shape, p] of geometries) {
    test(name, () => checkVjp("reduce_window_logaddexp", vjps.reduce_window_logaddexp, [distinct(shape), scalar(-far)], p, { wrt: [0] }));
  }

  test("large inputs stay finite (logcumsumexp of values near 1000)", () => {
    const x = tensor([1000, 1001.5, 999, 1002, 998.5], [5]);
    checkVjp("reduce_window_logaddexp", vjps.reduce_window_logaddexp, [x, scalar(-Infinity)], prefix([5]), { wrt: [0], h: 1e-4, tol: 1e-5 });
  });

  test("−∞ elements get zero, and windows of −∞ only pass nothing", () => {
    const x = tensor([-Infinity, -Infinity, 0, Math.log(3)], [4]);
    const [dx] = ruleCts("reduce_window_logaddexp", vjps.reduce_window_logaddexp, [x, scalar(-Infinity)], win(1, { window: [2] }), [tensor([5, 4, -8], [3])]);
    // windows: [−∞, −∞] (−∞), [−∞, 0] (0), [0, log 3] (log 4)
    expect(dx!.map((v) => +v.toFixed(12))).toEqual([0, 0, 4 - 8 / 4, (-8 * 3) / 4]);
  });
});

describe("reduce_window arg reductions VJP", () => {
  const flatIndices = (shape: number[]) => int64(Array.from({ length: numel(shape) }, (_, i) => i), shape);
  const kinds = [
    ["reduce_window_argmax", -far, 1n << 62n],
    ["reduce_window_argmin", far, 1n << 62n],
    ["reduce_window_cumargmax", -far, -1n],
    ["reduce_window_cumargmin", far, -1n],
  ] as const;
  for (const [prim, init, indexInit] of kinds) {
    for (const [name, shape, p] of geometries) {
      test(`${prim}: ${name}`, () => {
        const inputs = [distinct(shape), flatIndices(shape), scalar(init), int64([indexInit], [])];
        checkVjp(prim, vjps[prim] as VjpRule<typeof prim>, inputs, p, { wrt: [0] });
      });
    }
  }

  test("cummax ties go to the last maximum; indices and inits get no cotangent", () => {
    const inputs = [tensor([1, 3, 3, 2], [4]), flatIndices([4]), scalar(-Infinity), int64([-1n], [])];
    const cts = ruleCts("reduce_window_cumargmax", vjps.reduce_window_cumargmax, inputs, prefix([4]), [tensor([1, 2, 4, 8], [4]), null]);
    expect(cts).toEqual([[1, 2, 12, 0], null, null, null]);
  });

  test("max-pool indices: ties go to the first maximum", () => {
    const inputs = [tensor([2, 2, 1, 7, 7, 7], [2, 3]), flatIndices([2, 3]), scalar(-Infinity), int64([1n << 62n], [])];
    const [dx] = ruleCts("reduce_window_argmax", vjps.reduce_window_argmax, inputs, win(2, { window: [1, 2], padding: [[0, 0], [0, 1]] }), [tensor([1, 2, 4, 8, 16, 32], [2, 3]), null]);
    expect(dx).toEqual([1, 2, 4, 8, 16, 32]);
  });
});

describe("select_and_scatter VJP", () => {
  type Sas = WindowPrimParams["select_and_scatter"];
  const cases: [string, number[], Sas][] = [
    ["max-pool grad: 2x2 windows, stride 2, padding on the right", [3, 5], { window: [2, 2], strides: [2, 2], padding: [[0, 1], [0, 1]], select: "GE" }],
    ["overlapping min windows, uneven padding", [7], { window: [3], strides: [2], padding: [[2, 1]], select: "LE" }],
    ["windows of padding only", [3], { window: [1], strides: [1], padding: [[1, 2]], select: "GE" }],
    ["3-d overlapping windows", [2, 3, 3], { window: [1, 2, 2], strides: [1, 1, 2], padding: [[0, 0], [0, 1], [1, 0]], select: "GE" }],
  ];
  const windows = (shape: number[], p: Sas) =>
    shape.map((n, d) => Math.floor((n + p.padding[d]![0] + p.padding[d]![1] - p.window[d]!) / p.strides[d]!) + 1);
  for (const [name, shape, p] of cases) {
    test(name, () => {
      const source = windows(shape, p);
      // the operand (piecewise constant) numerically gets zero, the init the sum of the cotangent
      checkVjp("select_and_scatter", vjps.select_and_scatter, [distinct(shape), near1(source), scalar(0.5)], p);
    });
  }

  test("ties: each window reads the cotangent at its first maximum", () => {
    const inputs = [tensor([1, 3, 3, 2, 3], [5]), tensor([1, 1, 1], [3]), scalar(0)];
    const cts = ruleCts("select_and_scatter", vjps.select_and_scatter, inputs, { window: [3], strides: [1], padding: [[0, 0]], select: "GE" }, [tensor([1, 2, 4, 8, 16], [5])]);
    expect(cts).toEqual([null, [2, 2, 4], [31]]);
  });
});

describe("convolution VJP", () => {
  const conv = (over: Partial<ConvParams> & { padding: ConvParams["padding"] }): ConvParams => {
    const ones = over.padding.map(() => 1);
    return { strides: ones, lhsDilation: ones, rhsDilation: ones, featureGroups: 1, batchGroups: 1, ...over };
  };
  const cases: [string, number[], number[], ConvParams][] = [
    ["1-d stride 2, uneven padding", [2, 2, 7], [3, 2, 3], conv({ strides: [2], padding: [[1, 2]] })],
    ["1-d 2 feature groups, rhs dilation 2", [1, 4, 9], [4, 2, 3], conv({ strides: [2], padding: [[1, 1]], rhsDilation: [2], featureGroups: 2 })],
    ["2-d strides and rhs dilation", [1, 2, 5, 4], [2, 2, 3, 2], conv({ strides: [2, 1], padding: [[1, 0], [0, 1]], rhsDilation: [1, 2] })],
    ["2-d depthwise (4 feature groups), stride 2 leaves the last row unused", [1, 4, 5, 5], [4, 1, 2, 2], conv({ strides: [2, 2], padding: [[0, 0], [0, 0]], featureGroups: 4 })],
    ["2-d 2 feature groups with strides and padding", [2, 4, 4, 3], [2, 2, 2, 2], conv({ strides: [2, 1], padding: [[1, 0], [0, 1]], featureGroups: 2 })],
    ["2-d lhs dilation (a transposed convolution)", [1, 2, 3, 3], [2, 2, 2, 2], conv({ lhsDilation: [2, 2], padding: [[1, 1], [1, 0]] })],
    ["2-d lhs dilation with stride and rhs dilation", [1, 1, 4, 3], [2, 1, 2, 2], conv({ lhsDilation: [2, 3], strides: [2, 1], rhsDilation: [1, 2], padding: [[1, 2], [2, 0]] })],
    ["3-d stride and padding", [1, 2, 3, 3, 3], [2, 2, 2, 2, 2], conv({ strides: [2, 1, 2], padding: [[1, 1], [0, 1], [1, 0]] })],
    ["1-d negative padding", [1, 1, 8], [1, 1, 2], conv({ padding: [[-1, -2]] })],
    ["1x1 kernel with padding 2 (padding wider than the kernel)", [1, 2, 3], [3, 2, 1], conv({ padding: [[2, 2]] })],
    ["1x1 kernel, stride 2 leaves the last column unused", [2, 3, 4], [2, 3, 1], conv({ strides: [2], padding: [[0, 0]] })],
    ["1-d 2 batch groups", [4, 2, 5], [4, 2, 3], conv({ padding: [[1, 0]], strides: [2], batchGroups: 2 })],
    ["2-d 2 batch groups with dilation", [2, 1, 4, 3], [2, 1, 2, 2], conv({ padding: [[0, 1], [1, 0]], rhsDilation: [2, 1], batchGroups: 2 })],
  ];
  for (const [name, lhs, rhs, p] of cases) {
    test(name, () => checkVjp("convolution", vjps.convolution, [distinct(lhs), distinct(rhs)], p));
  }

  test("the forward's precision is kept", () => {
    checkVjp("convolution", vjps.convolution, [distinct([1, 2, 5]), distinct([2, 2, 2])], conv({ padding: [[1, 1]], precision: "HIGHEST" }));
  });

  test("feature and batch groups together are not supported", () => {
    const p = conv({ padding: [[0, 0]], featureGroups: 2, batchGroups: 2 });
    expect(() => ruleCts("convolution", vjps.convolution, [distinct([2, 4, 3]), distinct([4, 2, 1])], p, [distinct([1, 4, 3])])).toThrow(
      new ArgumentError("the gradient of a convolution with both feature_group_count 2 and batch_group_count 2 above 1 is not supported"),
    );
  });
});

// --- the rules' units on real XLA (CPU) and libtpu (ahead of time) -----------------------------------

/** One unit: the rule's cotangents of the inputs in `wrt` for the all-ones output cotangent. */
function vjpUnit<P extends Prim>(prim: P, rule: VjpRule<P>, params: PrimParams[P], wrt: number[]) {
  return (...inputs: torch.Tensor[]): torch.Tensor[] =>
    runMany(`vjpWindowXla.${prim}`, inputs, JSON.stringify(params, (_, v) => (typeof v === "bigint" ? `${v}n` : v)), (ins) => {
      const outs = bind(prim, ins, params);
      const cts = outs.map((o) => (o.dtype === "float32" ? e.full(1, o.dtype, o.shape) : null));
      const got = rule({ inputs: ins, outputs: outs, cts, needed: ins.map((_, i) => wrt.includes(i)), params });
      return wrt.map((i) => got[i]!);
    });
}

const f32 = (shape: number[]) => distinct(shape, "float32");
const xlaCases: UnitCase[] = [
  ["sum transpose: dilations, uneven padding", () => [f32([4, 5]), scalar(0, "float32")], vjpUnit("reduce_window_sum", vjps.reduce_window_sum, geometries[1]![2], [0])],
  ["sum transpose: negative padding and padding-only windows", () => [f32([3]), scalar(0, "float32")], vjpUnit("reduce_window_sum", vjps.reduce_window_sum, geometries[5]![2], [0])],
  ["max-pool gradient (scatter-add)", () => [f32([3, 5]), scalar(-Infinity, "float32")], vjpUnit("reduce_window_max", vjps.reduce_window_max, win(2, { window: [2, 2], strides: [2, 2], padding: [[0, 1], [1, 1]] }), [0])],
  ["cummin gradient", () => [f32([2, 5]), int64(Array.from({ length: 10 }, (_, i) => i % 5), [2, 5]), scalar(Infinity, "float32"), int64([-1n], [])], vjpUnit("reduce_window_cumargmin", vjps.reduce_window_cumargmin, prefix([2, 5]), [0])],
  ["cumprod gradient with zeros", () => [tensor([1.5, 0, 2, -0.5, 0, 3], [6], "float32"), scalar(1, "float32")], vjpUnit("reduce_window_prod", vjps.reduce_window_prod, prefix([6]), [0])],
  ["logcumsumexp gradient", () => [f32([2, 4]), scalar(-Infinity, "float32")], vjpUnit("reduce_window_logaddexp", vjps.reduce_window_logaddexp, prefix([2, 4]), [0])],
  ["select_and_scatter gradient (gather)", () => [f32([3, 5]), f32([2, 3]), scalar(0, "float32")], vjpUnit("select_and_scatter", vjps.select_and_scatter, { window: [2, 2], strides: [2, 2], padding: [[0, 1], [0, 1]], select: "GE" }, [1, 2])],
  ...(
    [
      ["strided grouped conv", [2, 4, 7, 5], [4, 2, 3, 2], { strides: [2, 2], padding: [[1, 2], [0, 1]], lhsDilation: [1, 1], rhsDilation: [1, 2], featureGroups: 2, batchGroups: 1 }],
      ["transposed conv", [1, 2, 3, 3], [2, 2, 2, 2], { strides: [1, 1], padding: [[1, 1], [1, 0]], lhsDilation: [2, 2], rhsDilation: [1, 1], featureGroups: 1, batchGroups: 1 }],
      ["conv with cropping padding", [1, 2, 3], [3, 2, 1], { strides: [1], padding: [[2, 2]], lhsDilation: [1], rhsDilation: [1], featureGroups: 1, batchGroups: 1 }],
      ["batch-grouped conv", [4, 2, 5], [4, 2, 3], { strides: [2], padding: [[1, 0]], lhsDilation: [1], rhsDilation: [1], featureGroups: 1, batchGroups: 2 }],
    ] as [string, number[], number[], ConvParams][]
  ).map(([name, lhs, rhs, p]): UnitCase => [`convolution gradient: ${name}`, () => [f32(lhs), f32(rhs)], vjpUnit("convolution", vjps.convolution, p, [0, 1])]),
];

unitsOnRealXla("window VJP rules", xlaCases, { tol: 1e-5 });
