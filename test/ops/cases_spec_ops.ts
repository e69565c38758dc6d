// The spec's ops that the CPU plugin runs as others or as kernels of their own, with float64
// references: cholesky, if, optimization_barrier, composite, dot, get_dimension_size, the dynamic-shape
// forms with static result types, batch_norm_inference / _training / _grad, and the collectives and
// process ids of a one-process program.

import type { OpCase } from "./cases.js";
import { type DType, type Scalar, roundFloat } from "./dtypes.js";
import { arr, buildModule, denseLiteral, typeStr, type TType } from "./mlir.js";
import type { Expected, TensorVal } from "./ref.js";
import { rng } from "./rng.js";

const T = (dtype: DType, shape: number[]): TType => ({ dtype, shape });
const tv = (dtype: DType, shape: number[], values: Scalar[]): TensorVal => ({ dtype, shape, values });
const FLOAT_PAIR: DType[] = ["float32", "float64"];
const tolOf = (d: DType, ulp = 64) => (d === "float32" ? { ulp, abs: 1e-5 } : { ulp, abs: 1e-12 });

function randoms(name: string, d: DType, n: number, lo = -1, hi = 1): number[] {
  const r = rng(name);
  return Array.from({ length: n }, () => roundFloat(d, lo + (hi - lo) * r()));
}

/** Batches of n×n symmetric positive definite matrices: M·Mᵀ + n·I, rounded to d. */
function spdMatrices(d: DType, batches: number, n: number): number[] {
  const m = randoms(`spd.${d}.${n}`, d, batches * n * n);
  const out: number[] = [];
  for (let b = 0; b < batches; b++)
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) {
        let s = i === j ? n : 0;
        for (let k = 0; k < n; k++) s += m[b * n * n + i * n + k]! * m[b * n * n + j * n + k]!;
        out.push(roundFloat(d, s));
      }
  return out;
}

/** L (lower) or U = Lᵀ with the other triangle zero, in float64, from a's lower or upper triangle. */
function cholesky(a: number[], n: number, lower: boolean, d: DType): number[] {
  const out: number[] = [];
  for (let b = 0; b < a.length / (n * n); b++) {
    const at = (i: number, j: number) => a[b * n * n + (lower ? i * n + j : j * n + i)]!;
    const l = Array.from({ length: n }, () => new Array<number>(n).fill(0));
    for (let i = 0; i < n; i++)
      for (let j = 0; j <= i; j++) {
        let s = at(i, j);
        for (let k = 0; k < j; k++) s -= l[i]![k]! * l[j]![k]!;
        l[i]![j] = i === j ? Math.sqrt(s) : s / l[j]![j]!;
      }
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) out.push(roundFloat(d, lower ? l[i]![j]! : l[j]![i]!));
  }
  return out;
}

function choleskyCases(): OpCase[] {
  const cases: OpCase[] = [];
  for (const d of FLOAT_PAIR) {
    const n = 5;
    const a = tv(d, [3, n, n], spdMatrices(d, 3, n));
    const t = T(d, a.shape);
    const want: Expected[] = [true, false].map((lower) => ({ dtype: d, shape: a.shape, values: cholesky(a.values as number[], n, lower, d), tol: tolOf(d) }));
    const mlir = buildModule([t], (b, [x]) => [true, false].map((lower) => b.op1("stablehlo.cholesky", [x!], t, `lower = ${lower}`)));
    cases.push({ name: `cholesky.${d}`, op: "cholesky", form: "generic", mlir, inputs: [a], expected: want });
  }
  const d: DType = "float32";
  const a = tv(d, [4, 4], spdMatrices(d, 1, 4));
  const t = typeStr(T(d, [4, 4]));
  const mlir = [
    `module @jit_f {`,
    `  func.func public @main(%arg0: ${t}) -> ${t} {`,
    `    %0 = stablehlo.cholesky %arg0, lower = true : ${t}`,
    `    return %0 : ${t}`,
    `  }`,
    `}`,
    ``,
  ].join("\n");
  cases.push({ name: "pretty.cholesky.float32", op: "cholesky", form: "pretty", mlir, inputs: [a], expected: [{ dtype: d, shape: [4, 4], values: cholesky(a.values as number[], 4, true, d), tol: tolOf(d) }] });
  return cases;
}

/** `if`: the true branch adds the operands, the false branch multiplies them. */
function ifCases(): OpCase[] {
  const d: DType = "float32";
  const x = tv(d, [6], randoms("if.x", d, 6, -4, 4));
  const y = tv(d, [6], randoms("if.y", d, 6, -4, 4));
  const t = T(d, [6]);
  return [true, false].map((pred) => {
    const mlir = buildModule([T("bool", []), t, t], (b, [p, u, v]) => {
      const branch = (name: string) => b.region([], (rb) => [rb.op1(name, [u!, v!], t)]);
      return [b.op1("stablehlo.if", [p!], t, "", [branch("stablehlo.add"), branch("stablehlo.multiply")])];
    });
    const values = x.values.map((a, i) => roundFloat(d, pred ? (a as number) + (y.values[i] as number) : (a as number) * (y.values[i] as number)));
    return { name: `if.${pred}`, op: "if", form: "generic", mlir, inputs: [tv("bool", [], [pred ? 1 : 0]), x, y], expected: [{ dtype: d, shape: [6], values }] };
  });
}

/** optimization_barrier (generic and pretty) and a composite that calls its decomposition. */
function identityCases(): OpCase[] {
  const x = tv("float32", [2, 3], randoms("barrier.x", "float32", 6));
  const k = tv("int32", [4], [7, -2, 0, 2147483647]);
  const tx = T("float32", [2, 3]);
  const tk = T("int32", [4]);
  const same = (v: TensorVal): Expected => ({ ...v });
  const generic = buildModule([tx, tk], (b, [u, v]) => b.op("stablehlo.optimization_barrier", [u!, v!], [tx, tk]));
  const [sx, sk] = [typeStr(tx), typeStr(tk)];
  const pretty = [
    `module @jit_f {`,
    `  func.func public @main(%arg0: ${sx}, %arg1: ${sk}) -> (${sx}, ${sk}) {`,
    `    %0:2 = stablehlo.optimization_barrier %arg0, %arg1 : ${sx}, ${sk}`,
    `    return %0#0, %0#1 : ${sx}, ${sk}`,
    `  }`,
    `}`,
    ``,
  ].join("\n");
  const composite = [
    `module @jit_f {`,
    `  func.func public @main(%arg0: ${sx}) -> ${sx} {`,
    `    %0 = stablehlo.composite "my.double" %arg0 {composite_attributes = {factor = 2 : i32}, decomposition = @my.double.impl, version = 1 : i32} : (${sx}) -> ${sx}`,
    `    return %0 : ${sx}`,
    `  }`,
    `  func.func private @my.double.impl(%arg0: ${sx}) -> ${sx} {`,
    `    %0 = stablehlo.add %arg0, %arg0 : ${sx}`,
    `    return %0 : ${sx}`,
    `  }`,
    `}`,
    ``,
  ].join("\n");
  const doubled: Expected = { dtype: "float32", shape: [2, 3], values: x.values.map((v) => roundFloat("float32", 2 * (v as number))) };
  return [
    { name: "optimization_barrier", op: "optimization_barrier", form: "generic", mlir: generic, inputs: [x, k], expected: [same(x), same(k)] },
    { name: "pretty.optimization_barrier", op: "optimization_barrier", form: "pretty", mlir: pretty, inputs: [x, k], expected: [same(x), same(k)] },
    { name: "pretty.composite", op: "composite", form: "pretty", mlir: composite, inputs: [x], expected: [doubled] },
  ];
}

function matmul(a: number[], b: number[], m: number, k: number, n: number, d: DType): number[] {
  const out: number[] = [];
  for (let i = 0; i < m; i++)
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let q = 0; q < k; q++) s += a[i * k + q]! * b[q * n + j]!;
      out.push(roundFloat(d, s));
    }
  return out;
}

/** dot: vector·vector, matrix·vector, matrix·matrix; get_dimension_size; the dynamic forms. */
function shapeCases(): OpCase[] {
  const d: DType = "float32";
  const a = tv(d, [3, 4], randoms("dot.a", d, 12));
  const v = tv(d, [4], randoms("dot.v", d, 4));
  const b = tv(d, [4, 2], randoms("dot.b", d, 8));
  const tol = tolOf(d, 16);
  const dots = buildModule([T(d, [3, 4]), T(d, [4]), T(d, [4, 2])], (bb, [x, y, z]) => [
    bb.op1("stablehlo.dot", [y!, y!], T(d, [])),
    bb.op1("stablehlo.dot", [x!, y!], T(d, [3]), "precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision HIGHEST>]"),
    bb.op1("stablehlo.dot", [x!, z!], T(d, [3, 2])),
  ]);
  const vv = v.values as number[];
  const dotWant: Expected[] = [
    { dtype: d, shape: [], values: matmul(vv, vv, 1, 4, 1, d), tol },
    { dtype: d, shape: [3], values: matmul(a.values as number[], vv, 3, 4, 1, d), tol },
    { dtype: d, shape: [3, 2], values: matmul(a.values as number[], b.values as number[], 3, 4, 2, d), tol },
  ];
  const sizes = buildModule([T(d, [3, 4])], (bb, [x]) => [0, 1].map((k) => bb.op1("stablehlo.get_dimension_size", [x!], T("int32", []), `dimension = ${k} : i64`)));
  const dynamic = buildModule([T(d, [4]), T("int64", [1]), T("int64", [2])], (bb, [x, s1, s2]) => [
    bb.op1("stablehlo.dynamic_iota", [s1!], T("int32", [5]), "iota_dimension = 0 : i64"),
    bb.op1("stablehlo.dynamic_broadcast_in_dim", [x!, s2!], T(d, [3, 4]), `broadcast_dimensions = ${arr([1])}`),
    bb.op1("stablehlo.dynamic_reshape", [x!, s2!], T(d, [2, 2])),
  ]);
  return [
    { name: "dot.float32", op: "dot", form: "generic", mlir: dots, inputs: [a, v, b], expected: dotWant },
    { name: "get_dimension_size", op: "get_dimension_size", form: "generic", mlir: sizes, inputs: [a], expected: [tv("int32", [], [3]), tv("int32", [], [4])] },
    {
      name: "dynamic_iota_broadcast_reshape",
      op: "dynamic_reshape",
      form: "generic",
      mlir: dynamic,
      inputs: [v, tv("int64", [1], [5n]), tv("int64", [2], [3n, 4n])],
      expected: [tv("int32", [5], [0, 1, 2, 3, 4]), tv(d, [3, 4], [...vv, ...vv, ...vv]), tv(d, [2, 2], vv)],
    },
  ];
}

interface NormShape {
  shape: number[];
  feature: number;
}

/** Per-feature statistics of x (row-major `shape`): the elements of each feature, in order. */
function byFeature(x: number[], { shape, feature }: NormShape): number[][] {
  const groups: number[][] = Array.from({ length: shape[feature]! }, () => []);
  const inner = shape.slice(feature + 1).reduce((p, q) => p * q, 1);
  x.forEach((v, i) => groups[Math.floor(i / inner) % shape[feature]!]!.push(v));
  return groups;
}

const featureOf = (i: number, { shape, feature }: NormShape) => Math.floor(i / shape.slice(feature + 1).reduce((p, q) => p * q, 1)) % shape[feature]!;
const meanOf = (v: number[]) => v.reduce((p, q) => p + q, 0) / v.length;

function batchNormCases(): OpCase[] {
  const cases: OpCase[] = [];
  const eps = Math.fround(0.001); // epsilon is an f32 attribute
  for (const d of FLOAT_PAIR) {
    const ns: NormShape = { shape: [2, 3, 4], feature: 1 };
    const c = 3;
    const x = randoms(`bn.x.${d}`, d, 24, -3, 3);
    const dy = randoms(`bn.dy.${d}`, d, 24, -1, 1);
    const scale = randoms(`bn.scale.${d}`, d, c, 0.5, 2);
    const offset = randoms(`bn.offset.${d}`, d, c, -1, 1);
    const mean = randoms(`bn.mean.${d}`, d, c, -0.5, 0.5);
    const variance = randoms(`bn.var.${d}`, d, c, 0.5, 2);
    const tx = T(d, ns.shape);
    const tc = T(d, [c]);
    const attrs = `epsilon = 0.001 : f32, feature_index = ${ns.feature} : i64`;
    const tol = tolOf(d, 256);
    const round = (v: number[]) => v.map((q) => roundFloat(d, q));
    const norm = (m: number[], v: number[]) => x.map((q, i) => {
      const f = featureOf(i, ns);
      return ((q - m[f]!) / Math.sqrt(v[f]! + eps)) * scale[f]! + offset[f]!;
    });

    const inference = buildModule([tx, tc, tc, tc, tc], (b, args) => [b.op1("stablehlo.batch_norm_inference", args, tx, attrs)]);
    cases.push({
      name: `batch_norm_inference.${d}`,
      op: "batch_norm_inference",
      form: "generic",
      mlir: inference,
      inputs: [tv(d, ns.shape, x), tv(d, [c], scale), tv(d, [c], offset), tv(d, [c], mean), tv(d, [c], variance)],
      expected: [{ dtype: d, shape: ns.shape, values: round(norm(mean, variance)), tol }],
    });

    const groups = byFeature(x, ns);
    const batchMean = groups.map(meanOf);
    const batchVar = groups.map((g, f) => meanOf(g.map((q) => (q - batchMean[f]!) ** 2)));
    const training = buildModule([tx, tc, tc], (b, args) => b.op("stablehlo.batch_norm_training", args, [tx, tc, tc], attrs));
    cases.push({
      name: `batch_norm_training.${d}`,
      op: "batch_norm_training",
      form: "generic",
      mlir: training,
      inputs: [tv(d, ns.shape, x), tv(d, [c], scale), tv(d, [c], offset)],
      expected: [
        { dtype: d, shape: ns.shape, values: round(norm(batchMean, batchVar)), tol },
        { dtype: d, shape: [c], values: round(batchMean), tol },
        { dtype: d, shape: [c], values: round(batchVar), tol },
      ],
    });

    const xhat = x.map((q, i) => (q - mean[featureOf(i, ns)]!) / Math.sqrt(variance[featureOf(i, ns)]! + eps));
    const dOffset = byFeature(dy, ns).map((g) => g.reduce((p, q) => p + q, 0));
    const dScale = byFeature(dy.map((g, i) => g * xhat[i]!), ns).map((g) => g.reduce((p, q) => p + q, 0));
    const count = x.length / c;
    const dx = dy.map((g, i) => {
      const f = featureOf(i, ns);
      return (scale[f]! / Math.sqrt(variance[f]! + eps)) * (g - dOffset[f]! / count - (xhat[i]! * dScale[f]!) / count);
    });
    const grad = buildModule([tx, tc, tc, tc, tx], (b, args) => b.op("stablehlo.batch_norm_grad", args, [tx, tc, tc], attrs));
    cases.push({
      name: `batch_norm_grad.${d}`,
      op: "batch_norm_grad",
      form: "generic",
      mlir: grad,
      inputs: [tv(d, ns.shape, x), tv(d, [c], scale), tv(d, [c], mean), tv(d, [c], variance), tv(d, ns.shape, dy)],
      expected: [
        { dtype: d, shape: ns.shape, values: round(dx), tol },
        { dtype: d, shape: [c], values: round(dScale), tol },
        { dtype: d, shape: [c], values: round(dOffset), tol },
      ],
    });
  }
  return cases;
}

/** A one-process program: its process ids are 0 and every collective returns its operand. */
function collectiveCases(): OpCase[] {
  const d: DType = "float32";
  const x = tv(d, [2, 3], randoms("collective.x", d, 6));
  const t = T(d, [2, 3]);
  const groups = `replica_groups = ${denseLiteral(T("int64", [1, 1]), [0n])}`;
  const mlir = buildModule([t], (b, [u]) => [
    b.op1("stablehlo.replica_id", [], T("uint32", [])),
    b.op1("stablehlo.partition_id", [], T("uint32", [])),
    b.op1("stablehlo.all_reduce", [u!], t, groups, [b.region([T(d, []), T(d, [])], (rb, [p, q]) => [rb.op1("stablehlo.add", [p!, q!], T(d, []))])]),
    b.op1("stablehlo.all_gather", [u!], t, `all_gather_dim = 1 : i64, ${groups}`),
    b.op1("stablehlo.reduce_scatter", [u!], t, `scatter_dimension = 0 : i64, ${groups}`, [
      b.region([T(d, []), T(d, [])], (rb, [p, q]) => [rb.op1("stablehlo.add", [p!, q!], T(d, []))]),
    ]),
    b.op1("stablehlo.all_to_all", [u!], t, `split_dimension = 0 : i64, concat_dimension = 1 : i64, split_count = 1 : i64, ${groups}`),
    b.op1("stablehlo.collective_permute", [u!], t, `source_target_pairs = ${denseLiteral(T("int64", [1, 2]), [0n, 0n])}`),
  ]);
  return [
    {
      name: "collectives.one_process",
      op: "all_reduce",
      form: "generic",
      mlir,
      inputs: [x],
      expected: [tv("uint32", [], [0]), tv("uint32", [], [0]), x, x, x, x, x],
    },
  ];
}

/**
 * A module written as JAX exports print them: location aliases and `loc(…)` after every op, also after
 * the regions of a while and of a multi-operand reduce; a sort comparator that uses a constant of the
 * enclosing function; a Shardy mesh and sharding constraint, and a @Sharding custom call.
 */
function jaxExportCase(): OpCase {
  const d: DType = "float32";
  const x = [0.5, -2, 3.25, -0.75, 1.5, -1, 2.5, 0.25, -3, 1.75];
  const t = "tensor<2x5xf32>";
  const mlir = [
    `#loc = loc(unknown)`,
    `#loc1 = loc("x")`,
    `module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {`,
    `  sdy.mesh @mesh = <[]> {stablehlo.mesh = {axes = []}} loc(#loc)`,
    `  func.func public @main(%arg0: ${t} loc("x")) -> (${t}, tensor<2xi32>, ${t}, tensor<f32>) {`,
    `    %c = stablehlo.constant dense<0> : tensor<i32> loc(#loc)`,
    `    %c_1 = stablehlo.constant dense<1> : tensor<i32> loc(#loc)`,
    `    %c_3 = stablehlo.constant dense<3> : tensor<i32> loc(#loc)`,
    `    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32> loc(#loc)`,
    `    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32> loc(#loc)`,
    `    %cst_2 = stablehlo.constant dense<2.000000e+00> : tensor<f32> loc(#loc)`,
    `    %0 = "stablehlo.sort"(%arg0) <{dimension = 1 : i64, is_stable = true}> ({`,
    `    ^bb0(%a: tensor<f32> loc("sort"(#loc1)), %b: tensor<f32> loc("sort"(#loc1))):`,
    `      %ma = stablehlo.maximum %a, %cst_0 : tensor<f32> loc(#loc)`,
    `      %mb = stablehlo.maximum %b, %cst_0 : tensor<f32> loc(#loc)`,
    `      %lt = stablehlo.compare LT, %ma, %mb, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1> loc(#loc)`,
    `      stablehlo.return %lt : tensor<i1> loc(#loc)`,
    `    }) : (${t}) -> ${t} loc(#loc)`,
    `    %1 = stablehlo.iota dim = 1 : tensor<2x5xi32> loc(#loc)`,
    `    %2:2 = stablehlo.reduce(%arg0 init: %cst), (%1 init: %c) across dimensions = [1] : (${t}, tensor<2x5xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>)`,
    `     reducer(%p: tensor<f32> loc(#loc), %q: tensor<f32> loc(#loc)) (%pi: tensor<i32> loc(#loc), %qi: tensor<i32> loc(#loc))  {`,
    `      %g = stablehlo.compare GT, %p, %q, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1> loc(#loc)`,
    `      %v = stablehlo.select %g, %p, %q : tensor<i1>, tensor<f32> loc(#loc)`,
    `      %i = stablehlo.select %g, %pi, %qi : tensor<i1>, tensor<i32> loc(#loc)`,
    `      stablehlo.return %v, %i : tensor<f32>, tensor<i32> loc(#loc)`,
    `    } loc(#loc)`,
    `    %3 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> ${t} loc(#loc)`,
    `    %4 = stablehlo.multiply %arg0, %3 : ${t} loc(#loc)`,
    `    %5 = sdy.sharding_constraint %4 <@mesh, [{}, {}]> : ${t} loc(#loc)`,
    `    %6 = stablehlo.custom_call @Sharding(%5) {mhlo.sharding = "{replicated}"} : (${t}) -> ${t} loc(#loc)`,
    `    %7:2 = stablehlo.while(%iterArg = %c, %iterArg_0 = %cst_0) : tensor<i32>, tensor<f32>`,
    `    cond {`,
    `      %8 = stablehlo.compare LT, %iterArg, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1> loc(#loc)`,
    `      stablehlo.return %8 : tensor<i1> loc(#loc)`,
    `    } do {`,
    `      %8 = stablehlo.add %iterArg, %c_1 : tensor<i32> loc(#loc)`,
    `      %9 = stablehlo.multiply %iterArg_0, %cst_2 : tensor<f32> loc(#loc)`,
    `      %10 = stablehlo.convert %c_1 : (tensor<i32>) -> tensor<f32> loc(#loc)`,
    `      %11 = stablehlo.add %9, %10 : tensor<f32> loc(#loc)`,
    `      stablehlo.return %8, %11 : tensor<i32>, tensor<f32> loc(#loc)`,
    `    } loc(#loc)`,
    `    return %0, %2#1, %6, %7#1 : ${t}, tensor<2xi32>, ${t}, tensor<f32> loc(#loc)`,
    `  } loc(#loc)`,
    `} loc(#loc)`,
    `#loc2 = loc("f"(#loc1))`,
    ``,
  ].join("\n");
  const rows = [x.slice(0, 5), x.slice(5)];
  const key = (v: number) => Math.max(v, 0);
  const sorted = rows.flatMap((r) => r.map((v, i) => [v, i] as const).sort((a, b) => key(a[0]) - key(b[0]) || a[1] - b[1]).map(([v]) => v));
  const argmax = rows.map((r) => r.indexOf(Math.max(...r)));
  return {
    name: "pretty.jax_export_forms",
    op: "sort",
    form: "pretty",
    mlir,
    inputs: [tv(d, [2, 5], x)],
    expected: [tv(d, [2, 5], sorted), tv("int32", [2], argmax), tv(d, [2, 5], x.map((v) => 2 * v)), tv(d, [], [7])],
  };
}

export function specOpCases(): OpCase[] {
  return [...choleskyCases(), ...ifCases(), ...identityCases(), ...shapeCases(), ...batchNormCases(), ...collectiveCases(), jaxExportCase()];
}
