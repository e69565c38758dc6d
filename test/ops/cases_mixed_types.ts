// dot_general and convolution whose types differ, as quantized models and JAX's preferred_element_type
// write them: i8 x i8 -> i32 (no wrap at 8 bits), bf16 x bf16 -> f32, a result narrower than the
// operands (rounded once), and dot_general operands of two element types (f32 x bf16, i8 x f32), which
// XLA computes in the most precise of the three types.

import type { OpCase } from "./cases.js";
import { type DType, type Scalar, fromBig, intMax, intMin, isFloat, numElements } from "./dtypes.js";
import { buildModule, typeStr, type TType } from "./mlir.js";
import * as R from "./ref.js";
import type { TensorVal } from "./ref.js";
import { rng } from "./rng.js";

const T = (dtype: DType, shape: number[]): TType => ({ dtype, shape });

/** Random values of d: the whole range for integers, quarter steps in [-4, 4] for floats (so that every
 *  product and sum here is exact in f32 and any summation order gives the same result). */
function random(d: DType, shape: number[], seed: string): TensorVal {
  const r = rng(seed);
  const n = numElements(shape);
  const values: Scalar[] = Array.from({ length: n }, () => {
    if (isFloat(d)) return Math.round(r() * 32 - 16) / 4;
    const lo = intMin(d);
    const span = Number(intMax(d) - lo) + 1;
    return fromBig(d, lo + BigInt(Math.floor(r() * span)));
  });
  return { dtype: d, shape, values };
}

const NHWC: R.ConvDims = { inBatch: 0, inFeature: 3, inSpatial: [1, 2], kernelIn: 2, kernelOut: 3, kernelSpatial: [0, 1], outBatch: 0, outFeature: 3, outSpatial: [1, 2] };
const NCW: R.ConvDims = { inBatch: 0, inFeature: 1, inSpatial: [2], kernelIn: 1, kernelOut: 0, kernelSpatial: [2], outBatch: 0, outFeature: 1, outSpatial: [2] };

function convAttrs(numbers: string, w: R.ConvWindow): string {
  const pads = w.padLow.map((l, i) => `[${l}, ${w.padHigh[i]}]`).join(", ");
  return [
    `batch_group_count = 1 : i64`,
    `dimension_numbers = #stablehlo.conv<${numbers}>`,
    `feature_group_count = 1 : i64`,
    `lhs_dilation = array<i64: ${w.lhsDilation.join(", ")}>`,
    `padding = dense<[${pads}]> : tensor<${w.padLow.length}x2xi64>`,
    `rhs_dilation = array<i64: ${w.rhsDilation.join(", ")}>`,
    `window_strides = array<i64: ${w.strides.join(", ")}>`,
  ].join(", ");
}

export function mixedTypeCases(): OpCase[] {
  const cases: OpCase[] = [];
  // convolution: NHWC 2-d (stride 2, padding) and NCW 1-d (dilations), one module per type pair
  const conv2d: R.ConvWindow = { strides: [2, 1], padLow: [1, 0], padHigh: [1, 1], lhsDilation: [1, 1], rhsDilation: [1, 1] };
  const conv1d: R.ConvWindow = { strides: [1], padLow: [2], padHigh: [0], lhsDilation: [2], rhsDilation: [2] };
  for (const [a, out] of [
    ["int8", "int32"],
    ["uint8", "int32"],
    ["int16", "int64"],
    ["bfloat16", "float32"],
    ["float16", "float32"],
    ["float32", "bfloat16"],
    ["int8", "float32"],
  ] as [DType, DType][]) {
    const name = `convolution.mixed.${a}.${out}`;
    const x2 = random(a, [2, 5, 4, 3], `${name}.x2`);
    const k2 = random(a, [3, 2, 3, 4], `${name}.k2`);
    const x1 = random(a, [1, 2, 6], `${name}.x1`);
    const k1 = random(a, [3, 2, 2], `${name}.k1`);
    const want = [R.convolution(x2, k2, NHWC, conv2d, out), R.convolution(x1, k1, NCW, conv1d, out)];
    const mlir = buildModule([T(a, x2.shape), T(a, k2.shape), T(a, x1.shape), T(a, k1.shape)], (b, [p, q, s, t]) => [
      b.op1("stablehlo.convolution", [p!, q!], T(out, want[0]!.shape), convAttrs("[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]", conv2d)),
      b.op1("stablehlo.convolution", [s!, t!], T(out, want[1]!.shape), convAttrs("[b, f, 0]x[o, i, 0]->[b, f, 0]", conv1d)),
    ]);
    const no64 = out === "int64" ? { tpuMayReject: "libtpu 0.0.42.1 cannot rewrite a 64-bit integer convolution for TPU" } : {};
    cases.push({ name, op: "convolution", form: "generic", mlir, inputs: [x2, k2, x1, k1], expected: want, ...no64 });
  }
  // dot_general: matmul and batched matmul per type triple (lhs, rhs, result)
  const dn = { lb: [], rb: [], lc: [1], rc: [0] };
  const bdn = { lb: [0], rb: [0], lc: [2], rc: [1] };
  const dotAttr = (d: R.DotDims) =>
    `dot_dimension_numbers = #stablehlo.dot<${d.lb.length ? `lhs_batching_dimensions = [${d.lb}], rhs_batching_dimensions = [${d.rb}], ` : ""}lhs_contracting_dimensions = [${d.lc}], rhs_contracting_dimensions = [${d.rc}]>`;
  for (const [l, r, out] of [
    ["int8", "int8", "int32"],
    ["uint8", "uint8", "int32"],
    ["int8", "uint8", "int32"],
    ["bfloat16", "bfloat16", "float32"],
    ["float32", "bfloat16", "float32"],
    ["int8", "float32", "float32"],
    ["float32", "float32", "bfloat16"],
  ] as [DType, DType, DType][]) {
    const name = `dot_general.mixed.${l}.${r}.${out}`;
    const a = random(l, [3, 8], `${name}.a`);
    const bm = random(r, [8, 2], `${name}.b`);
    const ba = random(l, [2, 3, 5], `${name}.ba`);
    const bb = random(r, [2, 5, 4], `${name}.bb`);
    const want = [R.dotGeneral(a, bm, dn, out), R.dotGeneral(ba, bb, bdn, out)].map((o) => ({ dtype: out, shape: o.shape, values: o.values }));
    const mlir = buildModule([T(l, a.shape), T(r, bm.shape), T(l, ba.shape), T(r, bb.shape)], (b, [p, q, s, t]) => [
      b.op1("stablehlo.dot_general", [p!, q!], T(out, want[0]!.shape), dotAttr(dn)),
      b.op1("stablehlo.dot_general", [s!, t!], T(out, want[1]!.shape), dotAttr(bdn)),
    ]);
    cases.push({ name, op: "dot_general", form: "generic", mlir, inputs: [a, bm, ba, bb], expected: want });
  }
  // the pretty forms JAX prints for an int8 matmul and convolution with preferred_element_type=int32
  {
    const a = random("int8", [4, 16], "pretty.mixed.a");
    const bm = random("int8", [16, 3], "pretty.mixed.b");
    const x = random("int8", [1, 4, 4, 2], "pretty.mixed.x");
    const k = random("int8", [2, 2, 2, 3], "pretty.mixed.k");
    const window: R.ConvWindow = { strides: [1, 1], padLow: [0, 0], padHigh: [0, 0], lhsDilation: [1, 1], rhsDilation: [1, 1] };
    const want = [R.dotGeneral(a, bm, dn, "int32"), R.convolution(x, k, NHWC, window, "int32")].map((o) => ({ dtype: "int32" as DType, shape: o.shape, values: o.values }));
    const t = (v: TensorVal) => typeStr(v);
    const o = want.map((w) => typeStr(w));
    const mlir = [
      `module @jit_quantized attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {`,
      `  func.func public @main(%arg0: ${t(a)}, %arg1: ${t(bm)}, %arg2: ${t(x)}, %arg3: ${t(k)}) -> (${o[0]}, ${o[1]}) {`,
      `    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (${t(a)}, ${t(bm)}) -> ${o[0]}`,
      `    %1 = stablehlo.convolution(%arg2, %arg3) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (${t(x)}, ${t(k)}) -> ${o[1]}`,
      `    return %0, %1 : ${o[0]}, ${o[1]}`,
      `  }`,
      `}`,
      ``,
    ].join("\n");
    cases.push({ name: "pretty.mixed.int8.int32", op: "dot_general", form: "pretty", mlir, inputs: [a, bm, x, k], expected: want });
  }
  return cases;
}
