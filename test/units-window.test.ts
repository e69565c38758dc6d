// Real XLA as the oracle for the StableHLO of the window ops: reduce_window (cumulative ops, pools),
// convolution (conv, transposed conv, unfold) and select_and_scatter (a max-pool gradient unit). Each
// unit runs on XLA's CPU client with our plugin's numbers and compiles ahead of time for TPU with libtpu.
import * as torch from "../src/index.js";
import { run } from "../src/ops/unit.js";
import * as e from "../src/ops/emit.js";
import type { Tracer } from "../src/trace/tracer.js";
import { type UnitCase, unitsOnRealXla } from "./helpers/units.js";

const F = torch.nn.functional;
const ramp = (shape: number[], scale = 1): torch.Tensor => {
  const n = shape.reduce((a, b) => a * b, 1);
  return torch.tensor(Float32Array.from({ length: n }, (_, i) => Math.sin(i * 1.3) * scale), { shape });
};

/** The max-pool gradient as one select_and_scatter unit (2x2 windows, stride 2, padding 1 on the right). */
function maxPoolGrad(x: torch.Tensor, g: torch.Tensor): torch.Tensor {
  return run("maxPoolGrad", [x, g], "", ([xt, gt]) => {
    const t = xt as Tracer;
    return e.selectAndScatter(t, gt as Tracer, e.full(0, t.dtype), {
      window: [1, 1, 2, 2], strides: [1, 1, 2, 2], padding: [[0, 0], [0, 0], [0, 1], [0, 1]], select: "GE",
    });
  });
}

/** A reduce_window sum with base and window dilation and uneven padding (no API op uses them yet). */
function dilatedWindowSum(x: torch.Tensor): torch.Tensor {
  return run("dilatedWindowSum", [x], "", ([xt]) =>
    e.reduceWindow("sum", xt as Tracer, { window: [2, 3], strides: [2, 1], baseDilation: [2, 1], windowDilation: [1, 2], padding: [[1, 0], [0, 2]] }),
  );
}

const cases: UnitCase[] = [
  ["reduce_window dilations", () => [ramp([5, 6])], (x) => dilatedWindowSum(x!)],
  ["cumsum f32", () => [ramp([3, 5])], (a) => a!.cumsum(1)],
  ["cumsum int8 → int64", () => [torch.tensor([[1, -2, 3], [4, 5, -6]], { dtype: "int8" })], (a) => a!.cumsum(0)],
  ["cumprod", () => [ramp([2, 4], 2)], (a) => a!.cumprod(-1)],
  ["cummax ties and NaN", () => [torch.tensor(new Float32Array([1, 3, 3, NaN, 2, NaN, 0]), { shape: [7] })], (a) => {
    const r = a!.cummax(0);
    return [r.values, r.indices];
  }],
  ["cummin int32", () => [torch.tensor([[4, 2, 2, 5], [1, 1, 0, 3]], { dtype: "int32" })], (a) => {
    const r = a!.cummin(1);
    return [r.values, r.indices];
  }],
  ["logcumsumexp", () => [torch.tensor(new Float32Array([0, 1, -Infinity, 100, -100, 2]), { shape: [6] })], (a) => a!.logcumsumexp(0)],
  ["conv1d groups dilation", () => [ramp([1, 4, 9]), ramp([4, 2, 3], 0.5)], (x, w) => F.conv1d(x!, w!, { stride: 2, padding: 1, dilation: 2, groups: 2 })],
  ["conv2d bias same", () => [ramp([2, 3, 6, 5]), ramp([4, 3, 3, 2], 0.5), ramp([4])], (x, w, b) => F.conv2d(x!, w!, { bias: b!, padding: "same" })],
  ["conv3d stride", () => [ramp([1, 2, 4, 4, 4]), ramp([3, 2, 2, 2, 2])], (x, w) => F.conv3d(x!, w!, { stride: 2 })],
  ["convTranspose2d", () => [ramp([1, 2, 3, 3]), ramp([2, 2, 2, 3])], (x, w) => F.convTranspose2d(x!, w!, { stride: [2, 1], padding: [0, 1], outputPadding: [1, 0], dilation: [1, 2] })],
  ["maxPool2d ceil", () => [ramp([1, 2, 7, 7])], (x) => F.maxPool2d(x!, 3, { stride: 2, padding: 1, ceilMode: true })],
  ["maxPool1d indices", () => [ramp([1, 2, 8])], (x) => F.maxPool1d(x!, 2, { returnIndices: true })],
  ["avgPool2d no pad count", () => [ramp([1, 2, 7, 7])], (x) => F.avgPool2d(x!, 3, { stride: 2, padding: 1, countIncludePad: false, ceilMode: true })],
  ["adaptiveAvgPool2d", () => [ramp([2, 3, 7, 5])], (x) => F.adaptiveAvgPool2d(x!, [3, 2])],
  ["pad reflect 2d", () => [ramp([1, 2, 4, 5])], (x) => F.pad(x!, [1, 2, 2, 0], { mode: "reflect" })],
  ["pad constant negative", () => [ramp([2, 5])], (x) => F.pad(x!, [-1, 2], { value: 1.5 })],
  ["interpolate bilinear", () => [ramp([1, 2, 3, 4])], (x) => F.interpolate(x!, { size: [5, 7], mode: "bilinear", alignCorners: false })],
  ["unfold", () => [ramp([1, 2, 5, 5])], (x) => F.unfold(x!, 3, { stride: 2, padding: 1 })],
  ["select_and_scatter max-pool grad", () => [ramp([1, 2, 5, 5]), ramp([1, 2, 3, 3])], (x, g) => maxPoolGrad(x!, g!)],
];

unitsOnRealXla("window ops", cases, { tol: 1e-5 });
