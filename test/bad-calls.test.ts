// What users see for bad calls: one table of calls, each with the error class it must throw (exactly
// that class, not a parent) and the words its message must contain. Then the cases a table row cannot
// hold: the CPU plugin's device count before and after its client exists, a failed plugin registered
// again, the typed-array read limit, the native plugin's own option limits, and libtpu's stderr.

import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as torch from "../src/index.js";
import { findCpuPlugin, findLibtpu } from "../src/plugins/discovery.js";
import { realHost } from "../src/plugins/host.js";
import { envPluginEntries } from "../src/plugins/registry.js";
import { cpuOptionRanges } from "../src/plugins/options.js";
import { scanTpuChips } from "../src/plugins/tpu_chips.js";
import { addon } from "../src/runtime/addon.js";
import { hostBytesToData, maxListElements } from "../src/tensor.js";
import { fakeHost } from "./helpers/fakeHost.js";
import { realRuntimeMissing } from "./helpers/runtime.js";

const missing = realRuntimeMissing();
if (missing) console.warn(`[bad-calls.test] SKIPPED: ${missing}`);

type ErrorClass = new (...args: never[]) => Error;

/** The error `call` throws (fails the test if it returns). */
function thrown(call: () => unknown): Error {
  try {
    call();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the call to throw, but it returned");
}

function expectError(call: () => unknown, cls: ErrorClass, words: readonly string[]): Error {
  const error = thrown(call);
  expect(error.constructor, `${error.name}: ${error.message}`).toBe(cls);
  for (const word of words) expect(error.message).toContain(word);
  return error;
}

const liveBuffers = (): number => addon().liveCounts().buffers;

describe.skipIf(!!missing)("bad calls", () => {
  // These two run first, before anything has made the CPU plugin's client.
  it("cpu:1 with one CPU device: the DeviceError says how to get more, and registering more still works", () => {
    const clients = addon().liveCounts().clients;
    const missingDevice = expectError(() => torch.zeros([2], { device: "cpu:1" }), torch.DeviceError, [
      "device cpu:1 does not exist; 'cpu' has 1 device (cpu:0)",
      'torch.registerPlugin("cpu", undefined, { device_count: 2 }) before the first use of a cpu device',
      "PJRT_NAMES_AND_LIBRARY_PATHS",
    ]);
    expect(missingDevice.message).not.toContain("used one already");
    // The client made to count the devices was closed again, so the plugin is not in use yet.
    expect(addon().liveCounts().clients).toBe(clients);
    torch.registerPlugin("cpu", undefined, { device_count: 2 });
    const t = torch.zeros([2], { device: "cpu:1" });
    expect(t.device).toBe("cpu:1");
    expect(t.tolist()).toEqual([0, 0]);
    t.dispose();
    expect(torch.runtime.devices("cpu").map((d) => d.device)).toEqual(["cpu:0", "cpu:1"]);
    // Now it is.
    const inUse = expectError(() => torch.registerPlugin("cpu", undefined, { device_count: 4 }), torch.PluginError, [
      "plugin 'cpu' is already in use",
      "at the first use of a 'cpu' device",
      "at the start of the program",
    ]);
    expect((inUse as torch.PluginError).reason).toBe("in-use");
  });

  it("a plugin whose client failed is not in use: registering it again with a working path retries", () => {
    torch.registerPlugin("mine", "/nowhere/libmine.so");
    expectError(() => torch.zeros([1], { device: "mine" }), torch.PluginError, ["PJRT plugin 'mine' was not found", "/nowhere/libmine.so"]);
    // The failure is remembered while the registration stays…
    expectError(() => torch.zeros([1], { device: "mine" }), torch.PluginError, ["was not found"]);
    // …and forgotten when it changes: our CPU plugin under another name.
    torch.registerPlugin("mine", findCpuPlugin(realHost).path!);
    const t = torch.ones([2], { device: "mine:0" });
    expect(t.device).toBe("mine:0");
    expect(t.tolist()).toEqual([1, 1]);
    t.dispose();
  });

  describe("the table", () => {
    let x: torch.Tensor; // float32 [3]
    let i: torch.Tensor; // int64 [2]
    let f: torch.Tensor; // float32 [2], used as an index
    let logp: torch.Tensor; // float32 [2, 3]
    let big: torch.Tensor; // bool, one element more than a JS array holds
    let huge: torch.Tensor; // int64 [1], 2^60
    let small: torch.Tensor; // int8 [2]
    beforeAll(() => {
      x = torch.tensor([1, 2, 3], { dtype: "float32" });
      i = torch.tensor([0, 1]);
      f = torch.tensor([0, 1], { dtype: "float32" });
      logp = torch.zeros([2, 3]);
      big = torch.zeros([maxListElements + 1], { dtype: "bool" });
      huge = torch.tensor([2n ** 60n]);
      small = torch.zeros([2], { dtype: "int8" });
    });
    afterAll(() => {
      for (const t of [x, i, f, logp, big, huge, small]) t.dispose();
    });

    const rows: Array<[string, () => unknown, ErrorClass, string[]]> = [
      // Plugin options, checked when they are given.
      ["registerPlugin('cpu', undefined, { device_count: -1 })", () => torch.registerPlugin("cpu", undefined, { device_count: -1 }), torch.PluginError, ["option 'device_count' must be from 1 to 64", "got -1"]],
      ["registerPlugin('cpu', undefined, { device_count: 1e6 })", () => torch.registerPlugin("cpu", undefined, { device_count: 1e6 }), torch.PluginError, ["option 'device_count' must be from 1 to 64", "got 1000000"]],
      ["registerPlugin('cpu', undefined, { device_count: 65n })", () => torch.registerPlugin("cpu", undefined, { device_count: 65n }), torch.PluginError, ["must be from 1 to 64", "got 65n"]],
      ["registerPlugin('cpu', undefined, { device_count: 2.5 })", () => torch.registerPlugin("cpu", undefined, { device_count: 2.5 }), torch.PluginError, ["option 'device_count' must be an integer, got 2.5"]],
      ["registerPlugin('cpu', undefined, { device_count: '2' })", () => torch.registerPlugin("cpu", undefined, { device_count: "2" }), torch.PluginError, ["option 'device_count' must be an integer, got \"2\""]],
      ["registerPlugin('cpu', undefined, { num_threads: 0 })", () => torch.registerPlugin("cpu", undefined, { num_threads: 0 }), torch.PluginError, ["option 'num_threads' must be from 1 to 1024", "got 0"]],
      ["registerPlugin('cpu', undefined, { bogus: 1 })", () => torch.registerPlugin("cpu", undefined, { bogus: 1 }), torch.PluginError, ["unknown option 'bogus' for the CPU plugin", "accepted: device_count, num_threads"]],
      ["registerPlugin('cpu', undefined, { deviceCount: 2 })", () => torch.registerPlugin("cpu", undefined, { deviceCount: 2 }), torch.PluginError, ["unknown option 'deviceCount'", "did you mean 'device_count'?", "snake_case"]],
      ["registerPlugin('tpu', null, { max_inflight_computation: 4 })", () => torch.registerPlugin("tpu", null, { max_inflight_computation: 4 }), torch.PluginError, ["unknown option 'max_inflight_computation' for libtpu", "did you mean 'max_inflight_computations'?"]],
      ["registerPlugin('tpu', null, { memory_fraction: 0.5 })", () => torch.registerPlugin("tpu", null, { memory_fraction: 0.5 }), torch.PluginError, ["'memory_fraction' is a GPU (CUDA plugin) option; libtpu rejects it"]],
      ["registerPlugin('cuda', undefined, { memory_fraction: 'x' })", () => torch.registerPlugin("cuda", undefined, { memory_fraction: "x" }), torch.PluginError, ["option 'memory_fraction' must be a number, got \"x\""]],
      ["registerPlugin('my plugin', '/p.so')", () => torch.registerPlugin("my plugin", "/p.so"), torch.ArgumentError, ["a plugin name is letters, digits and _"]],
      // Devices.
      ["x.to('cpu:5') with 2 CPU devices", () => x.to("cpu:5"), torch.DeviceError, ["device cpu:5 does not exist; 'cpu' has 2 devices (cpu:0 … cpu:1)", "{ device_count: 6 }", "this process has used one already"]],
      ["x.to('cpu:64')", () => x.to("cpu:64"), torch.DeviceError, ["device cpu:64 does not exist", "at most 64"]],
      ["torch.ones([1], { device: 'gpu' })", () => torch.ones([1], { device: "gpu" }), torch.DeviceError, ["unknown device type 'gpu'", "known: cpu, tpu, cuda", "torch.registerPlugin(\"gpu\""]],
      ["torch.ones([1], { device: 'cpu:-1' })", () => torch.ones([1], { device: "cpu:-1" }), torch.DeviceError, ["invalid device string 'cpu:-1'"]],
      // to(word): neither a dtype nor a device.
      ["x.to('float128')", () => x.to("float128" as never), torch.ArgumentError, ['to: "float128" is not a dtype (float32, float64,', "nor a device (cpu, tpu, cuda", 'did you mean "float32"?']],
      ["x.to('flaot16')", () => x.to("flaot16" as never), torch.ArgumentError, ['did you mean "float16"?']],
      ["x.to('gpu')", () => x.to("gpu" as never), torch.ArgumentError, ['to: "gpu" is not a dtype', 'torch.registerPlugin("gpu", "/path/to/plugin.so") makes a PJRT plugin a device']],
      // The binder's own.
      ["torch.zeros(['2', 3])", () => torch.zeros(["2", 3] as never), torch.ArgumentError, ['"size" must be a list of int, got [string "2", number 3]']],
      ["torch.zeros([2n ** 60n])", () => torch.zeros([2n ** 60n] as never), torch.ArgumentError, ["got [bigint 1152921504606846976n]", "safe integer"]],
      ["x.reshape(['3'])", () => x.reshape(["3"] as never), torch.ArgumentError, ['Tensor.reshape(...shape): "shape" must be a list of int, got [string "3"]']],
      ["torch.softmax(x)", () => (torch.softmax as (...a: unknown[]) => unknown)(x), torch.ArgumentError, ['softmax(input, dim, *, dtype?): missing the required argument "dim"']],
      ["x.sum({ dims: 0 })", () => x.sum({ dims: 0 } as never), torch.ArgumentError, ['got an unknown option "dims"; did you mean "dim"?']],
      ["x.sum({ keep_dim: true })", () => x.sum({ keep_dim: true } as never), torch.ArgumentError, ['unknown option "keep_dim"', '"keepdim"']],
      ["x.sum(0, true, 'float32', 4)", () => (x.sum as (...a: unknown[]) => unknown)(0, true, "float32", 4), torch.ArgumentError, ["takes at most 2 positional arguments, got 4"]],
      ["x.add('a')", () => x.add("a" as never), torch.ArgumentError, ['"other" must be a Tensor or number, bigint or boolean, got string "a"']],
      ["torch.add([1, 2], x)", () => torch.add([1, 2] as never, x), torch.ArgumentError, ["wrap it with torch.tensor"]],
      // Ranges.
      ["torch.arange(0, 10, 0)", () => torch.arange(0, 10, 0), torch.ArgumentError, ["arange: step must be nonzero"]],
      ["torch.arange(0, 10, -1)", () => torch.arange(0, 10, -1), torch.ArgumentError, ["arange: upper bound and lower bound inconsistent with step sign", "a step of 1"]],
      ["torch.arange(0, Infinity)", () => torch.arange(0, Infinity), torch.ArgumentError, ["arange: start, end and step must be finite"]],
      // Fill values a dtype cannot hold (PyTorch: "value cannot be converted to type int8 without overflow").
      ["torch.full([2], 300, { dtype: 'int8' })", () => torch.full([2], 300, { dtype: "int8" }), torch.DTypeError, ["full: value 300 cannot be converted to type int8 without overflow", "-128 to 127"]],
      ["int8 x.fill_(300)", () => small.fill_(300), torch.DTypeError, ["fill_: value 300 cannot be converted to type int8"]],
      ["torch.full([2], NaN, { dtype: 'int32' })", () => torch.full([2], NaN, { dtype: "int32" }), torch.DTypeError, ["full: value NaN cannot be converted to type int32"]],
      // Index tensors must be integers (PyTorch: "index must be int64", "tensors used as indices must be long, int, byte or bool").
      ["torch.gather(x, 0, float index)", () => torch.gather(x, 0, f), torch.DTypeError, ["gather: index must be an integer tensor", "got float32"]],
      ["torch.scatter(x, 0, float index, src)", () => torch.scatter(x, 0, f, x), torch.DTypeError, ["scatter: index must be an integer tensor", "got float32"]],
      ["torch.scatterAdd(x, 0, float index, src)", () => torch.scatterAdd(x, 0, f, x), torch.DTypeError, ["scatterAdd: index must be an integer tensor", "got float32"]],
      ["torch.scatterReduce(x, 0, float index, src, 'sum')", () => torch.scatterReduce(x, 0, f, x, "sum"), torch.DTypeError, ["scatterReduce: index must be an integer tensor", "got float32"]],
      ["torch.indexSelect(x, 0, float index)", () => torch.indexSelect(x, 0, f), torch.DTypeError, ["indexSelect: index must be an integer tensor", "got float32"]],
      ["torch.takeAlongDim(x, float indices, 0)", () => torch.takeAlongDim(x, f, 0), torch.DTypeError, ["takeAlongDim: indices must be an integer tensor", "got float32"]],
      ["x.index(float index)", () => x.index(f), torch.DTypeError, ["index: index tensors must be integer or bool, got float32"]],
      ["torch.indexPut(x, [float index], 1)", () => torch.indexPut(x, [f], 1), torch.DTypeError, ["indexPut: index tensors must be integer or bool, got float32"]],
      ["F.embedding(float input, weight)", () => torch.nn.functional.embedding(f, logp), torch.DTypeError, ["embedding: input must be an integer tensor", "got float32"]],
      ["torch.searchsorted(x, x, { sorter: float })", () => torch.searchsorted(x, x, { sorter: x }), torch.DTypeError, ["searchsorted: sorter must be an integer tensor", "got float32"]],
      ["torch.setIndex(x, [float index], 1)", () => torch.setIndex(x, [f], 1), torch.DTypeError, ["setIndex: index tensors must be integer or bool, got float32"]],
      ["F.oneHot(float)", () => torch.nn.functional.oneHot(f), torch.DTypeError, ["oneHot: is only applicable to int64 (class index) tensors, got float32"]],
      ["torch.maskedFill(x, float mask, 0)", () => torch.maskedFill(x, x, 0), torch.DTypeError, ["maskedFill: expected a bool mask, got float32", '.to("bool")']],
      ["F.nllLoss(logp, float target)", () => torch.nn.functional.nllLoss(logp, f), torch.DTypeError, ["nllLoss: class-index target must be int64, got float32"]],
      // ctcLoss: logp is unbatched [T = 2, C = 3], i concatenated targets of length 2.
      ["F.ctcLoss(logp, i, [2], [2], { zeroInfinty: true })", () => torch.nn.functional.ctcLoss(logp, i, [2], [2], { zeroInfinty: true } as never), torch.ArgumentError, ['unknown option "zeroInfinty"', '"zeroInfinity"']],
      ["F.ctcLoss(logp, i, [3], [2])", () => torch.nn.functional.ctcLoss(logp, i, [3], [2]), torch.ArgumentError, ["ctcLoss: inputLengths must be integers in [0, 2], got 3"]],
      ["F.ctcLoss(logp, i, [2], [2], { blank: 3 })", () => torch.nn.functional.ctcLoss(logp, i, [2], [2], { blank: 3 }), torch.ArgumentError, ["ctcLoss: blank must be in label range [0, 3), got 3"]],
      ["F.ctcLoss(1-d x, i, [2], [2])", () => torch.nn.functional.ctcLoss(x, i, [2], [2]), torch.ShapeError, ["ctcLoss: logProbs must be [T, N, C] (or unbatched [T, C]), got shape [3]"]],
      ["F.ctcLoss(logp, i, [2], [3])", () => torch.nn.functional.ctcLoss(logp, i, [2], [3]), torch.ShapeError, ["ctcLoss: 1-d (concatenated) targets must hold Σ targetLengths = 3 labels, got [2]"]],
      ["F.ctcLoss(logp, i, float lengths, [2])", () => torch.nn.functional.ctcLoss(logp, i, f, [2]), torch.DTypeError, ["ctcLoss: inputLengths must be an integer tensor (int64) or an array of ints, got float32"]],
      // Losses, modules and Tensor methods added beside PyTorch's.
      ["F.multilabelMarginLoss(logp, float target)", () => torch.nn.functional.multilabelMarginLoss(logp, logp), torch.DTypeError, ["multilabelMarginLoss: target must be int64 class indices, got float32"]],
      ["F.multilabelMarginLoss(logp, i)", () => torch.nn.functional.multilabelMarginLoss(logp, i), torch.ShapeError, ["multilabelMarginLoss: inconsistent target size [2] for input of size [2, 3]"]],
      ["F.tripletMarginWithDistanceLoss(x, x, x, { margin: -1 })", () => torch.nn.functional.tripletMarginWithDistanceLoss(x, x, x, { margin: -1 }), torch.ArgumentError, ["tripletMarginWithDistanceLoss: margin must be greater than 0, got -1"]],
      ["F.tripletMarginWithDistanceLoss(x, x, logp)", () => torch.nn.functional.tripletMarginWithDistanceLoss(x, x, logp), torch.ShapeError, ["same number of dimensions", "anchor 1D, positive 1D, and negative 2D"]],
      ["new nn.ZeroPad2d([1, 2, 3])", () => new torch.nn.ZeroPad2d([1, 2, 3]), torch.ArgumentError, ["ZeroPad2d: padding must be an int or a list of 4 ints, got [1,2,3]"]],
      ["new nn.ConstantPad1d(1)", () => new torch.nn.ConstantPad1d(1), torch.ArgumentError, ["ConstantPad1d: value is a required number"]],
      ["new nn.CircularPad2d(1).forward(x)", () => new torch.nn.CircularPad2d(1).forward(x), torch.ShapeError, ["CircularPad2d: expected 3D or 4D input (got 1D input)"]],
      ["new nn.Softmax2d().forward(x)", () => new torch.nn.Softmax2d().forward(x), torch.ShapeError, ["Softmax2d: expected input to be 3D or 4D, got 1D instead"]],
      ["new nn.ParameterList().get(0)", () => new torch.nn.ParameterList().get(0), torch.ArgumentError, ["ParameterList: index 0 is out of range for a list of 0"]],
      ["new nn.ParameterDict().pop('w')", () => new torch.nn.ParameterDict().pop("w"), torch.ArgumentError, ['ParameterDict.pop: no parameter under "w"']],
      ["x.unfold(0, 4, 1)", () => x.unfold(0, 4, 1), torch.ShapeError, ["Tensor.unfold: maximum size for tensor at dimension 0 is 3 but size is 4"]],
      ["x.unfold(0, 2)", () => (x.unfold as (...a: unknown[]) => unknown)(0, 2), torch.ArgumentError, ['missing the required argument "step"']],
      ["x.sumToSize(2)", () => x.sumToSize(2), torch.ShapeError, ["sumToSize: size [2] is not expandable to size [3]"]],
      ["x.cumsum_(0, { dtype: 'float64' })", () => x.cumsum_(0, { dtype: "float64" }), torch.DTypeError, ["cumsum_: bad in-place call", "must match"]],
      ["x.fillDiagonal_(1)", () => x.fillDiagonal_(1), torch.ShapeError, ["fillDiagonal_: dimensions must larger than 1"]],
      ["x.t_({ wrap: true })", () => (x.t_ as (...a: unknown[]) => unknown)({ wrap: true }), torch.ArgumentError, ['unknown option "wrap"']],
      ["i.exponential_()", () => i.exponential_(), torch.DTypeError, ["exponential_: the exponential distribution is a continuous probability distribution", "got int64"]],
      ["x.geometric_(0)", () => x.geometric_(0), torch.ArgumentError, ["geometric_: expects p to be in (0, 1), but got p=0"]],
      ["small.random_(0, 300)", () => small.random_(0, 300), torch.ArgumentError, ["random_: [0, 300) is out of bounds for int8"]],
      ["x.bernoulli_(2)", () => x.bernoulli_(2), torch.ArgumentError, ["bernoulli_: expects p to be in [0, 1], but got p=2"]],
      // torch.linalg's factorisations and solvers (logp is float32 [2, 3]).
      ["torch.linalg.cholesky(logp, { Upper: true })", () => torch.linalg.cholesky(logp, { Upper: true } as never), torch.ArgumentError, ['unknown option "Upper"', '"upper"']],
      ["torch.linalg.solveTriangular(logp, logp, { lower: true })", () => torch.linalg.solveTriangular(logp, logp, { lower: true } as never), torch.ArgumentError, ['unknown option "lower"']],
      ["torch.linalg.solveTriangular(logp, logp)", () => (torch.linalg.solveTriangular as (...a: unknown[]) => unknown)(logp, logp), torch.ArgumentError, ['missing the required argument "upper"']],
      ["torch.linalg.luSolve(logp, i, logp, { adjoin: true })", () => torch.linalg.luSolve(logp, i, logp, { adjoin: true } as never), torch.ArgumentError, ['unknown option "adjoin"', '"adjoint"']],
      ["torch.linalg.inv(logp)", () => torch.linalg.inv(logp), torch.ShapeError, ["linalg.inv: A must be batches of square matrices, but they are 2 by 3 matrices"]],
      ["torch.linalg.det(x)", () => torch.linalg.det(x), torch.ShapeError, ["linalg.det: The input tensor A must have at least 2 dimensions, got shape [3]"]],
      ["torch.linalg.solve(logp, x)", () => torch.linalg.solve(logp, x), torch.ShapeError, ["linalg.solve: A must be batches of square matrices"]],
      ["torch.linalg.luFactor(int64 i)", () => torch.linalg.luFactor(i), torch.ShapeError, ["linalg.luFactor: The input tensor A must have at least 2 dimensions"]],
      [
        "torch.linalg.cholesky(int64 matrix)",
        () => {
          const a = torch.ones([2, 2], { dtype: "int64" });
          try {
            return torch.linalg.cholesky(a);
          } finally {
            a.dispose();
          }
        },
        torch.DTypeError,
        ["linalg.cholesky: Expected a float32 or float64 tensor, got int64", 'A.to("float32")'],
      ],
      [
        "torch.linalg.cholesky(not positive-definite)",
        () => {
          const a = torch.tensor([[1, 2], [2, 1]], { dtype: "float32" });
          try {
            return torch.linalg.cholesky(a);
          } finally {
            a.dispose();
          }
        },
        torch.linalg.LinAlgError,
        ["linalg.cholesky: The factorization could not be completed because the input is not positive-definite (the leading minor of order 2 is not positive-definite)"],
      ],
      [
        "torch.linalg.inv(singular batch element 1)",
        () => {
          const a = torch.tensor([[[1, 0], [0, 1]], [[0, 0], [0, 0]]], { dtype: "float32" });
          try {
            return torch.linalg.inv(a);
          } finally {
            a.dispose();
          }
        },
        torch.linalg.LinAlgError,
        ["linalg.inv: (Batch element 1): The diagonal element 1 is zero, the inversion could not be completed because the input matrix is singular."],
      ],
      ["x.index(0.5)", () => x.index(0.5), torch.ArgumentError, ["index: index 0.5 is not an integer"]],
      ["x.index(3)", () => x.index(3), torch.ShapeError, ["index: index 3 is out of bounds for dimension 0 with size 3"]],
      // Reading values back.
      ["x.item()", () => x.item(), torch.ShapeError, ["item(): a tensor with 3 elements (shape [3]) cannot be converted to a scalar"]],
      ["int64 2^60 .tolist()", () => huge.tolist(), torch.DTypeError, ["the int64 value 1152921504606846976 (element 0) is not a safe integer", "tolist({ bigint: true })"]],
      ["x.tolist({ bigInt: true })", () => x.tolist({ bigInt: true } as never), torch.ArgumentError, ['tolist: got an unknown option "bigInt"']],
      [
        "tolist() of 134,217,726 elements",
        () => big.tolist(),
        torch.ShapeError,
        ["tolist(): a bool tensor of 134,217,726 elements is more than one JS array holds (134,217,725)", "t.narrow(0, start, length).tolist()", "await t.data()"],
      ],
      [
        "a disposed tensor's tolist()",
        () => {
          const t = torch.ones([2]);
          t.dispose();
          return t.tolist();
        },
        torch.DisposedError,
        ["cannot read a disposed float32[2] tensor on cpu:0"],
      ],
      // torch.* forms with torch's own signatures (src/ops/nn/torch_forms.ts) and the other torch.* functions
      ["torch.dropout(x, 0.5)", () => (torch.dropout as (...a: unknown[]) => unknown)(x, 0.5), torch.ArgumentError, ['torch.dropout(input, p, train): missing the required argument "train"']],
      ["torch.dropout(x, 0.5, true, { training: true })", () => (torch.dropout as (...a: unknown[]) => unknown)(x, 0.5, true, { training: true }), torch.ArgumentError, ['unknown option "training"']],
      ["torch.hingeEmbeddingLoss(x, x, 1, 3)", () => torch.hingeEmbeddingLoss(x, x, 1, 3), torch.ArgumentError, ["torch.hingeEmbeddingLoss: reduction must be 0 (none), 1 (mean) or 2 (sum), got 3"]],
      ["torch.klDiv(x, x, { reduction: 'mean' })", () => torch.klDiv(x, x, { reduction: "mean" } as never), torch.ArgumentError, ['torch.klDiv(input, target, reduction = 0, *, logTarget = false): "reduction" must be an int, got string "mean"']],
      ["torch.batchNorm(x, null, null, null, null, true)", () => (torch.batchNorm as (...a: unknown[]) => unknown)(x, null, null, null, null, true), torch.ArgumentError, ['missing the required argument "momentum"']],
      ["torch.maxPool2d(logp, 2, { returnIndices: true })", () => torch.maxPool2d(logp, 2, { returnIndices: true } as never), torch.ArgumentError, ['unknown option "returnIndices"']],
      ["torch.hannWindow(2.5)", () => torch.hannWindow(2.5), torch.ArgumentError, ['"windowLength" must be an int, got number 2.5']],
      ["torch.kaiserWindow(5, { bet: 3 })", () => torch.kaiserWindow(5, { bet: 3 } as never), torch.ArgumentError, ['unknown option "bet"; did you mean "beta"?']],
      ["torch.hammingWindow(4, { dtype: 'int32' })", () => torch.hammingWindow(4, { dtype: "int32" }), torch.DTypeError, ["hammingWindow: expects a floating point dtype, got int32"]],
      ["torch.unravelIndex(f, [2])", () => torch.unravelIndex(f, [2]), torch.DTypeError, ["unravelIndex: expected 'indices' to be an integer tensor, got float32"]],
      ["torch.trapezoid(x, x, { dx: 1 })", () => torch.trapezoid(x, x, { dx: 1 } as never), torch.ArgumentError, ["trapezoid"]],
      ["torch.gradient(x, { spacing: [1, 2] })", () => torch.gradient(x, { spacing: [1, 2] }), torch.ArgumentError, ["gradient: expected spacing to be unspecified, a scalar, or a list of length 1 (one per dim), but got a list of length 2"]],
      ["torch.gradient(x, { edgeOrder: 3 })", () => torch.gradient(x, { edgeOrder: 3 }), torch.ArgumentError, ["gradient: only supports edgeOrder 1 and 2, got 3"]],
      ["torch.isin(x, 'a')", () => torch.isin(x, "a" as never), torch.ArgumentError, ['"testElements" must be a Tensor or number, bigint or boolean, got string "a"']],
      ["torch.canCast('float32', 'float128')", () => torch.canCast("float32", "float128" as never), torch.ArgumentError, ['"to" must be a dtype, got string "float128"']],
      ["torch.asarray([1, 2], { copy: false })", () => torch.asarray([1, 2], { copy: false }), torch.ArgumentError, ["asarray: can't alias JS data into a tensor (copy: false)"]],
      ["torch.asarray(x, { dtype: 'int32', copy: false })", () => torch.asarray(x, { dtype: "int32", copy: false }), torch.ArgumentError, ["asarray: can't alias a float32 tensor on cpu:0 into int32"]],
      ["torch.chainMatmul()", () => torch.chainMatmul(), torch.ArgumentError, ['chainMatmul(...matrices): missing the required argument "matrices"']],
      ["torch.chainMatmul([])", () => torch.chainMatmul([]), torch.ArgumentError, ["chainMatmul: expected one or more matrices"]],
      ["torch.scalarTensor([1])", () => torch.scalarTensor([1] as never), torch.ArgumentError, ['"s" must be a number, bigint or boolean']],
      ["torch.isNonzero(x)", () => torch.isNonzero(x), torch.ShapeError, ["isNonzero: Boolean value of Tensor with more than one value (shape [3]) is ambiguous"]],
      ["torch.frobeniusNorm(x)", () => (torch.frobeniusNorm as (...a: unknown[]) => unknown)(x), torch.ArgumentError, ['missing the required argument "dim"']],
    ];

    it.each(rows)("%s", (_label, call, cls, words) => {
      const before = liveBuffers();
      expectError(call, cls, words);
      expect(liveBuffers(), "the failed call left a buffer alive").toBe(before);
    });
  });

  it("data()/dataSync() beyond the engine's typed-array limit: a ShapeError naming the size, not a RangeError", () => {
    // 2^32 + 1 bytes of bool: more elements than Node 20's typed arrays hold. The zeroed pages are never
    // touched, so this costs address space, not memory; a tensor that size would need 4 GiB on the device.
    const bytes = new ArrayBuffer(2 ** 32 + 1);
    expectError(() => hostBytesToData(bytes, "bool", "dataSync"), torch.ShapeError, [
      "dataSync(): a bool tensor of 4,294,967,297 elements is more than a JS typed array holds here",
      "t.narrow(0, start, length).data()",
    ]);
  });

  it("the CPU plugin's option limits are the native plugin's own (it checks them again when the client is made)", () => {
    const plugin = addon().loadPlugin(findCpuPlugin(realHost).path!);
    const create = (name: string, value: number) => plugin.createClient([{ name, type: "int64", value }]);
    const { device_count: devices, num_threads: threads } = cpuOptionRanges;
    const client = create("device_count", devices!.max);
    expect(client.devices()).toHaveLength(devices!.max);
    client.close();
    expect(() => create("device_count", devices!.max + 1)).toThrow(`option device_count must be between 1 and ${devices!.max}, got ${devices!.max + 1}`);
    expect(() => create("device_count", devices!.min - 1)).toThrow(`must be between 1 and ${devices!.max}`);
    expect(() => create("num_threads", threads!.max + 1)).toThrow(`option num_threads must be between 1 and ${threads!.max}, got ${threads!.max + 1}`);
    expect(() => create("num_threads", threads!.min - 1)).toThrow(`must be between 1 and ${threads!.max}`);
  });

  it("PJRT_NAMES_AND_LIBRARY_PATHS config files are checked the same way when they are read", () => {
    const host = fakeHost({
      env: { PJRT_NAMES_AND_LIBRARY_PATHS: "cpu:/etc/cpu.json" },
      files: { "/etc/cpu.json": JSON.stringify({ library_path: "/opt/pjrt_cpu_plugin.so", create_options: { device_count: 0 } }) },
    });
    expectError(() => envPluginEntries(host), torch.PluginError, ["plugin 'cpu': option 'device_count' must be from 1 to 64", "got 0"]);
  });
});

// libtpu prints "WARNING: could not determine TPU accelerator type…" to stderr on a machine without
// TPU metadata, whatever TF_CPP_MIN_LOG_LEVEL, TPU_STDERR_LOG_LEVEL or TPU_MIN_LOG_LEVEL say; we set
// TPU_HOST_BOUNDS (one host) when no chip is found. A child process loads it so its stderr can be read.
const root = fileURLToPath(new URL("..", import.meta.url));
const libtpu = findLibtpu(realHost).path;
const libtpuSkip = missing ?? (!libtpu ? "libtpu not installed (npm run setup:oracles)" : scanTpuChips(realHost).count > 0 ? "this machine has TPU chips" : undefined);

describe.skipIf(!!libtpuSkip)("libtpu's console output", () => {
  let dir: string;
  let script: string;
  beforeAll(async () => {
    const { buildSync } = await import("esbuild");
    dir = mkdtempSync(join(tmpdir(), "torch-pjrt-libtpu-"));
    const entry = join(dir, "entry.ts");
    writeFileSync(
      entry,
      `import * as torch from ${JSON.stringify(join(root, "src/index.ts"))};
const mlir = "func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\\n %0 = stablehlo.add %a, %a : tensor<4xf32>\\n return %0 : tensor<4xf32>\\n}";
const tpu = torch.runtime.plugins().find((p) => p.name === "tpu");
let refused = "";
try { torch.tensor([1], { device: "tpu" }); } catch (e) { refused = e.name; }
const aot = await torch.runtime.compileFor("tpu", mlir, { topology: "v5e:2x2" });
console.log(JSON.stringify({ status: tpu.status, refused, outputs: aot.outputs, hostBounds: process.env.TPU_HOST_BOUNDS }));
`,
    );
    script = join(dir, "child.mjs");
    buildSync({ entryPoints: [entry], bundle: true, platform: "node", format: "esm", outfile: script, logLevel: "error" });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const runChild = (env: Record<string, string>) => {
    const childEnv: Record<string, string | undefined> = { ...process.env, ...env };
    for (const name of ["TPU_HOST_BOUNDS", "TPU_ACCELERATOR_TYPE"]) if (!(name in env)) delete childEnv[name];
    return spawnSync(process.execPath, [script], { cwd: root, env: childEnv, encoding: "utf8", timeout: 240_000 });
  };

  it("loading libtpu, creating its client and compiling for a TPU print nothing to stderr", () => {
    const r = runChild({});
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ status: "no-device", refused: "PluginError", outputs: [{ dtype: "float32", shape: [4] }], hostBounds: "1,1,1" });
    expect(r.stderr).toBe("");
  });

  it("a TPU_HOST_BOUNDS the user set wins (and an empty one lets libtpu's warning through: the check above can fail)", () => {
    const r = runChild({ TPU_HOST_BOUNDS: "" });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).hostBounds).toBe("");
    expect(r.stderr).toContain("could not determine TPU accelerator type");
  });
});
