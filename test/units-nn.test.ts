// Real XLA as the oracle for the StableHLO of torch.nn.functional units (src/ops/nn/): each
// unit runs on XLA's CPU client with our plugin's numbers and compiles ahead of time for TPU with
// libtpu (test/helpers/units.ts).
import * as torch from "../src/index.js";
import { type UnitCase, unitsOnRealXla } from "./helpers/units.js";

const F = torch.nn.functional;
const f32 = (values: number[], shape: number[]) => torch.tensor(new Float32Array(values), { shape });
const bf16 = (values: number[], shape: number[]) => torch.tensor(values, { dtype: "bfloat16", shape });
const i64 = (values: number[], shape = [values.length]) => torch.tensor(values.map(BigInt), { dtype: "int64", shape });
const ramp = (n: number, scale = 0.37) => Array.from({ length: n }, (_, i) => Math.sin(i * 1.7 + 0.3) * scale * 8);
const special = [NaN, Infinity, -Infinity, -0, 0, 1e-8, -50, 50, 3, -3];

const cases: UnitCase[] = [
  ["relu6 int", () => [torch.tensor([-3, 2, 9], { dtype: "int32" })], (x) => F.relu6(x!)],
  ["hardtanh", () => [f32(special, [10])], (x) => F.hardtanh(x!, { minVal: -0.5, maxVal: 2 })],
  ["leakyRelu", () => [f32(special, [10])], (x) => F.leakyRelu(x!, { negativeSlope: 0.2 })],
  ["elu", () => [f32(special, [10])], (x) => F.elu(x!, { alpha: 0.5 })],
  ["selu", () => [f32(special, [10])], (x) => F.selu(x!)],
  ["celu", () => [f32(special, [10])], (x) => F.celu(x!, { alpha: 2 })],
  ["gelu", () => [f32(ramp(12), [3, 4])], (x) => F.gelu(x!)],
  ["gelu tanh bf16", () => [bf16(ramp(8), [8])], (x) => F.gelu(x!, { approximate: "tanh" })],
  ["silu", () => [f32(special, [10])], (x) => F.silu(x!)],
  ["mish", () => [f32(ramp(8), [8])], (x) => F.mish(x!)],
  ["softplus", () => [f32(ramp(8), [8])], (x) => F.softplus(x!, { beta: 2, threshold: 1 })],
  ["softsign", () => [f32(special, [10])], (x) => F.softsign(x!)],
  ["hardswish", () => [f32(ramp(8), [8])], (x) => F.hardswish(x!)],
  ["glu", () => [f32(ramp(12), [3, 4])], (x) => F.glu(x!, { dim: -1 })],
  ["softmax infinite rows", () => [f32([1, Infinity, 2, -Infinity, -Infinity, -Infinity, 1, -Infinity, 2], [3, 3])], (x) => F.softmax(x!, 1)],
  ["logSoftmax bf16 long row", () => [bf16(ramp(1024, 0.05), [2, 512])], (x) => F.logSoftmax(x!, -1)],
  ["layerNorm", () => [f32(ramp(24), [2, 3, 4]), f32(ramp(4, 0.2), [4]), f32(ramp(4, 0.1), [4])], (x, w, b) => F.layerNorm(x!, [4], { weight: w, bias: b })],
  ["rmsNorm bf16", () => [bf16(ramp(12), [3, 4]), bf16(ramp(4, 0.2), [4])], (x, w) => F.rmsNorm(x!, [4], { weight: w })],
  ["groupNorm", () => [f32(ramp(24), [2, 6, 2])], (x) => F.groupNorm(x!, 3)],
  // one unit with three outputs: the running statistics are rebound to outputs 1 and 2
  ["batchNorm training", () => [f32(ramp(12), [4, 3]), f32([0, 1, 2], [3]), f32([1, 2, 3], [3])], (x, m, v) => [F.batchNorm(x!, m!, v!, { training: true, momentum: 0.2 }), m!, v!]],
  ["linear", () => [f32(ramp(6), [2, 3]), f32(ramp(12, 0.3), [4, 3]), f32(ramp(4, 0.1), [4])], (x, w, b) => F.linear(x!, w!, { bias: b })],
  ["linear bf16", () => [bf16(ramp(6), [2, 3]), bf16(ramp(12, 0.3), [4, 3])], (x, w) => F.linear(x!, w!)],
  ["sdpa causal", () => [f32(ramp(48), [2, 3, 8]), f32(ramp(48, 0.2), [2, 3, 8]), f32(ramp(48, 0.5), [2, 3, 8])], (q, k, v) => F.scaledDotProductAttention(q!, k!, v!, { isCausal: true })],
  ["sdpa bool mask", () => [f32(ramp(16), [2, 8]), f32(ramp(24, 0.2), [3, 8]), f32(ramp(12, 0.5), [3, 4]), torch.tensor([true, false, true, false, false, false], { shape: [2, 3] })],
    (q, k, v, m) => F.scaledDotProductAttention(q!, k!, v!, { attnMask: m })],
  // oneHot first reads the range with amin/amax (units of their own): compile those in make()
  ["sdpa gqa", () => [f32(ramp(96), [1, 4, 3, 8]), f32(ramp(80, 0.2), [1, 2, 5, 8]), f32(ramp(80, 0.5), [1, 2, 5, 8])],
    (q, k, v) => F.scaledDotProductAttention(q!, k!, v!, { enableGqa: true })],
  ["oneHot", () => {
    const x = i64([2, 0, 1, 4]);
    torch.amin(x).dispose();
    torch.amax(x).dispose();
    return [x];
  }, (x) => F.oneHot(x!, { numClasses: 5 })],
  ["crossEntropy", () => [f32(ramp(20), [4, 5]), i64([0, 4, -100, 2])], (x, t) => F.crossEntropy(x!, t!, { labelSmoothing: 0.1 })],
  ["crossEntropy probabilities", () => [f32(ramp(12), [2, 3, 2]), f32(ramp(12, 0.05).map(Math.abs), [2, 3, 2])], (x, t) => F.crossEntropy(x!, t!)],
  ["nllLoss weight", () => [f32(ramp(20), [4, 5]), i64([0, 4, 3, 2]), f32([1, 2, 3, 4, 5], [5])], (x, t, w) => F.nllLoss(x!, t!, { weight: w, reduction: "mean" })],
  // two device while loops (alpha and beta recursions) and a batched dot_general into the classes
  ["ctcLoss", () => [F.logSoftmax(f32(ramp(48), [6, 2, 4]), 2), i64([1, 2, 2, 3, 1, 0], [2, 3]), i64([6, 5]), i64([3, 2])], (x, t, il, tl) => F.ctcLoss(x!, t!, il!, tl!)],
  ["gridSample bicubic reflection", () => [f32(ramp(40), [1, 2, 4, 5]), f32(ramp(24, 0.2), [1, 3, 4, 2])], (x, g) => F.gridSample(x!, g!, { mode: "bicubic", paddingMode: "reflection", alignCorners: false })],
  ["smoothL1Loss", () => [f32(ramp(12), [3, 4]), f32(ramp(12, 0.2), [3, 4])], (x, y) => F.smoothL1Loss(x!, y!, { beta: 0.5 })],
  ["huberLoss none", () => [f32(ramp(12), [3, 4]), f32(ramp(12, 0.2), [3, 4])], (x, y) => F.huberLoss(x!, y!, { delta: 0.5, reduction: "none" })],
  ["binaryCrossEntropy", () => [f32([0, 0.2, 0.7, 1], [4]), f32([0, 1, 0.5, 0], [4])], (x, y) => F.binaryCrossEntropy(x!, y!, { reduction: "none" })],
  ["bceWithLogits", () => [f32(ramp(12), [3, 4]), f32(ramp(12, 0.06).map(Math.abs), [3, 4]), f32([1, 2, 0.5, 3], [4])], (x, y, p) => F.binaryCrossEntropyWithLogits(x!, y!, { posWeight: p })],
  ["klDiv batchmean", () => [f32(ramp(12, 0.1).map((v) => -Math.abs(v) - 0.1), [3, 4]), f32([0, 0.1, 0.2, 0.7, 0.25, 0.25, 0.25, 0.25, 1, 0, 0, 0], [3, 4])], (x, y) => F.klDiv(x!, y!, { reduction: "batchmean" })],
  ["cosineSimilarity", () => [f32(ramp(12), [3, 4]), f32(ramp(4, 0.3), [4])], (a, b) => F.cosineSimilarity(a!, b!, { dim: -1 })],
  ["pairwiseDistance p1.5", () => [f32(ramp(12), [3, 4]), f32(ramp(12, 0.3), [3, 4])], (a, b) => F.pairwiseDistance(a!, b!, { p: 1.5, keepdim: true })],
  ["normalize", () => [f32(ramp(12), [3, 4])], (x) => F.normalize(x!, { p: 1, dim: 0 })],
  // one unit: a gather of the rows, and the renormalised weight scattered back (rebound to output 1)
  ["embedding maxNorm", () => [torch.tensor([3, 0, 3, 5, 1, -2], { dtype: "int32", shape: [2, 3] }), f32(ramp(20), [5, 4])],
    (i, w) => [F.embedding(i!, w!, { maxNorm: 2 }), w!]],
];

// XLA's exp/log/tanh/erf approximations differ from ours by a few float32 ulps
unitsOnRealXla("torch.nn.functional", cases, { tol: 1e-5 });
