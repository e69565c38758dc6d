// Bad programs and bad calls give typed errors with useful messages, never a crash: after each one a
// valid program still compiles and runs with the right values. Every "invalid module" below is also
// sent to real XLA (when the venv is there), which must reject it too — so each really is invalid.

import { afterEach, beforeAll, describe, expect, it } from "vitest";

import { type OracleResult, oracleAvailable, runOnXla } from "./helpers/oracle.js";
import { loadTorch, makeTensor, readTensor } from "./ops/harness.js";
import { buildModule, singleOp, type TType } from "./ops/mlir.js";

const f32 = (shape: number[]): TType => ({ dtype: "float32", shape });
const VALID = singleOp("stablehlo.add", [f32([4]), f32([4])], f32([4]));

interface BadModule {
  name: string;
  mlir: string;
  /** the message must match this (names the problem) */
  mentions: RegExp;
  /** rejected before any native call (an ArgumentError) is also fine */
  argumentErrorOk?: boolean;
}

const truncated = VALID.slice(0, Math.floor(VALID.length * 0.6));
const BAD_MODULES: BadModule[] = [
  { name: "empty text", mlir: "", mentions: /./, argumentErrorOk: true },
  { name: "only whitespace", mlir: " \n\t ", mentions: /./, argumentErrorOk: true },
  { name: "garbage text", mlir: "this is not MLIR at all }{ %%% \u0000", mentions: /./ },
  { name: "truncated module", mlir: truncated, mentions: /./ },
  { name: "unbalanced braces", mlir: VALID.replace('"func.return"', "{ \"func.return\""), mentions: /./ },
  {
    name: "operand types differ (add 4xf32 + 3xf32)",
    mlir: buildModule([f32([4]), f32([3])], (b, [x, y]) => [b.op1("stablehlo.add", [x!, y!], f32([4]))]),
    mentions: /add|type|shape/i,
  },
  {
    name: "element types differ (add f32 + i32)",
    mlir: buildModule([f32([4]), { dtype: "int32", shape: [4] }], (b, [x, y]) => [b.op1("stablehlo.add", [x!, y!], f32([4]))]),
    mentions: /add|type/i,
  },
  {
    name: "unknown op",
    mlir: buildModule([f32([4])], (b, [x]) => [b.op1("stablehlo.frobnicate", [x!], f32([4]))]),
    mentions: /frobnicate/,
  },
  {
    name: "no main function",
    mlir: VALID.replace('sym_name = "main"', 'sym_name = "not_main"'),
    mentions: /main/,
  },
  {
    name: "result type contradicts function_type",
    mlir: VALID.replace("-> tensor<4xf32>, sym_name", "-> tensor<4xi32>, sym_name"),
    mentions: /type|return|result/i,
  },
  {
    name: "use of an undefined value",
    mlir: buildModule([f32([4])], (b, [x]) => [b.op1("stablehlo.add", [x!, { name: "%nope", type: f32([4]) }], f32([4]))]),
    mentions: /nope|undefined|undeclared|use/i,
  },
  {
    name: "transpose with an invalid permutation",
    mlir: buildModule([f32([2, 3])], (b, [x]) => [b.op1("stablehlo.transpose", [x!], f32([3, 2]), "permutation = array<i64: 0, 0>")]),
    mentions: /transpose|permutation/i,
  },
  {
    name: "broadcast_in_dim dimension out of range",
    mlir: buildModule([f32([3])], (b, [x]) => [b.op1("stablehlo.broadcast_in_dim", [x!], f32([2, 3]), "broadcast_dimensions = array<i64: 5>")]),
    mentions: /broadcast/i,
  },
  {
    name: "old dense<> dimension list",
    mlir: buildModule([f32([3])], (b, [x]) => [b.op1("stablehlo.broadcast_in_dim", [x!], f32([2, 3]), "broadcast_dimensions = dense<1> : tensor<1xi64>")]),
    mentions: /broadcast_dimensions|array|attribute/i,
  },
  {
    name: "slice past the end",
    mlir: buildModule([f32([4])], (b, [x]) => [
      b.op1("stablehlo.slice", [x!], f32([3]), "start_indices = array<i64: 2>, limit_indices = array<i64: 5>, strides = array<i64: 1>"),
    ]),
    mentions: /slice|limit/i,
  },
  {
    name: "dot_general contracting sizes differ",
    mlir: buildModule([f32([2, 3]), f32([4, 5])], (b, [x, y]) => [
      b.op1("stablehlo.dot_general", [x!, y!], f32([2, 5]), "dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>"),
    ]),
    mentions: /dot|contracting|dimension/i,
  },
  {
    name: "reshape changes the element count",
    mlir: buildModule([f32([2, 3])], (b, [x]) => [b.op1("stablehlo.reshape", [x!], f32([7]))]),
    mentions: /reshape|element|count|size/i,
  },
  {
    name: "reduce body with the wrong arity",
    mlir: buildModule([f32([2, 3]), f32([])], (b, [x, z]) => [
      b.op1("stablehlo.reduce", [x!, z!], f32([2]), "dimensions = array<i64: 1>", [
        b.region([f32([]), f32([]), f32([])], (rb, [p, q]) => [rb.op1("stablehlo.add", [p!, q!], f32([]))]),
      ]),
    ]),
    mentions: /reduce|argument|block|region/i,
  },
  {
    name: "compare with a bad direction",
    mlir: buildModule([f32([4]), f32([4])], (b, [x, y]) => [
      b.op1("stablehlo.compare", [x!, y!], { dtype: "bool", shape: [4] }, "comparison_direction = #stablehlo<comparison_direction SIDEWAYS>"),
    ]),
    mentions: /compare|comparison|SIDEWAYS/i,
  },
  // What the StableHLO spec (and its parser) rules out, in modules that are otherwise what JAX writes
  ...specBadModules(),
];

/** A pretty-form module whose main takes `args` and returns `result` computed by `body` (which defines %r). */
function pretty(args: string, body: string, result: string): string {
  return `func.func public @main(${args}) -> ${result} {\n  ${body}\n  return %r : ${result}\n}\n`;
}

function specBadModules(): BadModule[] {
  const gather = (dims: string) =>
    pretty(
      "%a: tensor<3x4xf32>, %i: tensor<1xi32>",
      `%r = "stablehlo.gather"(%a, %i) <{dimension_numbers = #stablehlo.gather<${dims}>, slice_sizes = array<i64: 1, 4>}> : (tensor<3x4xf32>, tensor<1xi32>) -> tensor<4xf32>`,
      "tensor<4xf32>",
    );
  return [
    {
      name: "dense<nan> for an integer constant",
      mlir: pretty("", "%r = stablehlo.constant dense<nan> : tensor<2xi32>", "tensor<2xi32>"),
      mentions: /nan.*i32|i32.*nan/,
    },
    {
      name: "an i32 attribute out of range",
      mlir: pretty("%a: tensor<4xf32>", '%r = "stablehlo.reduce_precision"(%a) {exponent_bits = 4294967296 : i32, mantissa_bits = 2 : i32} : (tensor<4xf32>) -> tensor<4xf32>', "tensor<4xf32>"),
      mentions: /4294967296.*out of range|out of range.*i32/,
    },
    { name: "gather index_vector_dim written as a list", mlir: gather("offset_dims = [0], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = [0]"), mentions: /index_vector_dim must be an integer/ },
    { name: "gather offset_dims written as an integer", mlir: gather("offset_dims = 0, collapsed_slice_dims = [0], start_index_map = [0]"), mentions: /offset_dims must be a list/ },
    { name: "gather dimension numbers with an unknown field", mlir: gather("offset_dims = [0], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dims = 0"), mentions: /no field index_vector_dims/ },
    { name: "gather dimension numbers with a field twice", mlir: gather("offset_dims = [0], collapsed_slice_dims = [0], start_index_map = [0], start_index_map = [0]"), mentions: /start_index_map twice/ },
    {
      name: "convolution of two element types",
      mlir: pretty(
        "%a: tensor<1x4x4x2xi8>, %b: tensor<3x3x2x3xui8>",
        "%r = stablehlo.convolution(%a, %b) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x2xi8>, tensor<3x3x2x3xui8>) -> tensor<1x2x2x3xi32>",
        "tensor<1x2x2x3xi32>",
      ),
      mentions: /one element type/,
    },
    { name: "chlo.square of integers", mlir: pretty("%a: tensor<4xi32>", "%r = chlo.square %a : tensor<4xi32> -> tensor<4xi32>", "tensor<4xi32>"), mentions: /chlo.square.*floating-point/ },
    {
      name: "reduce_precision with no exponent bits",
      mlir: pretty("%a: tensor<4xf32>", '%r = "stablehlo.reduce_precision"(%a) {exponent_bits = 0 : i32, mantissa_bits = 2 : i32} : (tensor<4xf32>) -> tensor<4xf32>', "tensor<4xf32>"),
      mentions: /exponent_bits must be at least 1/,
    },
    {
      name: "top_k with k past the last dimension",
      mlir: "func.func public @main(%a: tensor<2x5xf32>) -> (tensor<2x6xf32>, tensor<2x6xi32>) {\n  %r:2 = chlo.top_k(%a, k = 6) : tensor<2x5xf32> -> (tensor<2x6xf32>, tensor<2x6xi32>)\n  return %r#0, %r#1 : tensor<2x6xf32>, tensor<2x6xi32>\n}\n",
      mentions: /k = 6 must be in \[0, 5\]/,
    },
    {
      name: "triangular_solve with a non-square a",
      mlir: pretty(
        "%a: tensor<3x4xf32>, %b: tensor<3x2xf32>",
        '%r = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false} : (tensor<3x4xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>',
        "tensor<3x2xf32>",
      ),
      mentions: /square matrices/,
    },
    {
      name: "cholesky of a non-square a",
      mlir: pretty("%a: tensor<3x4xf32>", "%r = stablehlo.cholesky %a, lower = true : tensor<3x4xf32>", "tensor<3x4xf32>"),
      mentions: /square matrices/,
    },
    {
      name: "if on a pred that is not tensor<i1>",
      mlir: pretty(
        "%p: tensor<f32>, %a: tensor<2xf32>",
        '%r = "stablehlo.if"(%p) ({\n    "stablehlo.return"(%a) : (tensor<2xf32>) -> ()\n  }, {\n    "stablehlo.return"(%a) : (tensor<2xf32>) -> ()\n  }) : (tensor<f32>) -> tensor<2xf32>',
        "tensor<2xf32>",
      ),
      mentions: /tensor<i1>/,
    },
    {
      name: "batch_norm_inference with feature_index out of range",
      mlir: pretty(
        "%x: tensor<2x3xf32>, %c: tensor<3xf32>",
        '%r = "stablehlo.batch_norm_inference"(%x, %c, %c, %c, %c) {epsilon = 0.001 : f32, feature_index = 2 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>',
        "tensor<2x3xf32>",
      ),
      mentions: /feature_index = 2 is out of range/,
    },
    {
      name: "get_dimension_size of a dimension the operand lacks",
      mlir: pretty("%a: tensor<2x3xf32>", "%r = stablehlo.get_dimension_size %a, dim = 2 : (tensor<2x3xf32>) -> tensor<i32>", "tensor<i32>"),
      mentions: /dimension = 2 is out of range/,
    },
    {
      name: "a custom call to a target nobody registered",
      mlir: pretty("%a: tensor<4xf32>", "%r = stablehlo.custom_call @no_such_target(%a) : (tensor<4xf32>) -> tensor<4xf32>", "tensor<4xf32>"),
      mentions: /custom call @no_such_target/,
    },
    {
      name: "an f6E2M3FN value (XLA CPU cannot compile the 6-bit floats)",
      mlir: pretty("%a: tensor<4xf32>", "%q = stablehlo.convert %a : (tensor<4xf32>) -> tensor<4xf6E2M3FN>\n  %r = stablehlo.convert %q : (tensor<4xf6E2M3FN>) -> tensor<4xf32>", "tensor<4xf32>"),
      mentions: /f6E2M3FN is not supported/,
    },
    {
      name: "popcnt of an f8E4M3FN value",
      mlir: pretty("%a: tensor<4xf32>", "%q = stablehlo.convert %a : (tensor<4xf32>) -> tensor<4xf8E4M3FN>\n  %p = stablehlo.popcnt %q : tensor<4xf8E4M3FN>\n  %r = stablehlo.convert %p : (tensor<4xf8E4M3FN>) -> tensor<4xf32>", "tensor<4xf32>"),
      mentions: /popcnt.*f8E4M3FN.*integer/,
    },
    {
      name: "add of i4 and i8",
      mlir: pretty("%a: tensor<4xi8>", "%q = stablehlo.convert %a : (tensor<4xi8>) -> tensor<4xi4>\n  %s = \"stablehlo.add\"(%q, %a) : (tensor<4xi4>, tensor<4xi8>) -> tensor<4xi4>\n  %r = stablehlo.convert %s : (tensor<4xi4>) -> tensor<4xi8>", "tensor<4xi8>"),
      mentions: /add.*tensor<4xi4> and tensor<4xi8> differ/,
    },
    {
      name: "chlo.broadcast_add of shapes that do not broadcast",
      mlir: pretty("%a: tensor<2x3xf32>, %b: tensor<2xf32>", "%r = chlo.broadcast_add %a, %b : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>", "tensor<2x3xf32>"),
      mentions: /does not broadcast/,
    },
  ];
}

const avail = oracleAvailable();
if (!avail.ok) console.warn(`[malformed.test] XLA cross-check SKIPPED: ${avail.reason}`);

describe.skipIf(!avail.ok)("every bad module is rejected by real XLA too", () => {
  let xla: Map<string, OracleResult>;
  beforeAll(async () => {
    xla = await runOnXla([
      { name: "valid", mlir: VALID, inputs: [{ dtype: "float32", shape: [4], values: [1, 2, 3, 4] }, { dtype: "float32", shape: [4], values: [10, 20, 30, 40] }] },
      ...BAD_MODULES.map((m) => ({ name: m.name, mlir: m.mlir, inputs: [] })),
    ]);
  }, 300_000);
  it("the valid module runs on XLA", () => {
    const r = xla.get("valid")!;
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.outputs[0]!.values).toEqual([11, 22, 33, 44]);
  });
  for (const m of BAD_MODULES) {
    it(m.name, () => {
      const r = xla.get(m.name)!;
      expect(r.ok, `XLA accepted the module meant to be invalid:\n${m.mlir}`).toBe(false);
      if (!r.ok) expect(r.stage).toBe("compile");
    });
  }
});

const loaded = await loadTorch();
if (!loaded.ok) console.warn(`[malformed.test] runtime checks SKIPPED: ${loaded.reason}`);

describe.skipIf(!loaded.ok)("malformed programs and bad calls on our runtime", () => {
  const torch = loaded.ok ? loaded.torch : undefined;
  let before = 0;

  /** A valid program still compiles and gives the right numbers (the process and plugin live on). */
  async function stillWorks() {
    const a = torch.tensor(new Float32Array([1, 2, 3, 4]), { dtype: "float32" });
    const b = torch.tensor(new Float32Array([10, 20, 30, 40]), { dtype: "float32" });
    const exe = await torch.runtime.compile(VALID, { device: "cpu" });
    const [c] = await exe.run([a, b]);
    expect(Array.from(await c.data())).toEqual([11, 22, 33, 44]);
    for (const t of [a, b, c]) t.dispose();
    exe.dispose();
  }

  async function errorOf(p: Promise<unknown> | (() => unknown)): Promise<any> {
    try {
      await (typeof p === "function" ? p() : p);
    } catch (e) {
      return e;
    }
    throw new Error("expected an error, got success");
  }

  beforeAll(async () => {
    await stillWorks(); // warm: the plugin is loaded before counting tensors
  });
  afterEach(async () => {
    await stillWorks();
    expect(torch.memory().numTensors, "live tensors").toBe(before);
  });

  it("starts from a known tensor count", () => {
    before = torch.memory().numTensors;
    expect(before).toBeGreaterThanOrEqual(0);
  });

  for (const m of BAD_MODULES) {
    it(`compile: ${m.name} → CompileError`, async () => {
      before = torch.memory().numTensors;
      const e = await errorOf(torch.runtime.compile(m.mlir, { device: "cpu" }));
      if (!(m.argumentErrorOk && e instanceof torch.ArgumentError)) expect(e, String(e?.stack ?? e)).toBeInstanceOf(torch.CompileError);
      expect(e).toBeInstanceOf(torch.TorchError);
      expect(typeof e.message).toBe("string");
      expect(e.message.length).toBeGreaterThan(10);
      expect(e.message).toMatch(m.mentions);
      if (process.env.TORCH_PJRT_SHOW_ERRORS) console.log(`[malformed] ${m.name}: ${e.constructor.name}: ${e.message}`);
    });
  }

  it("wrong number of arguments at run → typed error naming the counts", async () => {
    before = torch.memory().numTensors;
    const exe = await torch.runtime.compile(VALID, { device: "cpu" });
    const a = makeTensor(torch, { dtype: "float32", shape: [4], values: [1, 2, 3, 4] }, "cpu");
    try {
      const e = await errorOf(exe.run([a]));
      expect(e).toBeInstanceOf(torch.TorchError);
      expect(e.message).toMatch(/2/);
      expect(e.message).toMatch(/1/);
      if (e instanceof torch.DeviceRuntimeError) expect(typeof e.code).toBe("number");
      const e3 = await errorOf(exe.run([a, a, a]));
      expect(e3).toBeInstanceOf(torch.TorchError);
    } finally {
      a.dispose();
      exe.dispose();
    }
  });

  it("wrong shape at run → ShapeError (or a typed runtime error) naming the shapes", async () => {
    before = torch.memory().numTensors;
    const exe = await torch.runtime.compile(VALID, { device: "cpu" });
    const a = makeTensor(torch, { dtype: "float32", shape: [4], values: [1, 2, 3, 4] }, "cpu");
    const b = makeTensor(torch, { dtype: "float32", shape: [2, 2], values: [1, 2, 3, 4] }, "cpu");
    try {
      const e = await errorOf(exe.run([a, b]));
      expect(e).toBeInstanceOf(torch.TorchError);
      expect(e instanceof torch.ShapeError || e instanceof torch.DeviceRuntimeError, e.constructor.name).toBe(true);
      expect(e.message).toMatch(/2, ?2|2x2/);
    } finally {
      a.dispose();
      b.dispose();
      exe.dispose();
    }
  });

  it("wrong dtype at run → DTypeError (or a typed runtime error) naming the dtypes", async () => {
    before = torch.memory().numTensors;
    const exe = await torch.runtime.compile(VALID, { device: "cpu" });
    const a = makeTensor(torch, { dtype: "float32", shape: [4], values: [1, 2, 3, 4] }, "cpu");
    const b = makeTensor(torch, { dtype: "int32", shape: [4], values: [1, 2, 3, 4] }, "cpu");
    try {
      const e = await errorOf(exe.run([a, b]));
      expect(e).toBeInstanceOf(torch.TorchError);
      expect(e instanceof torch.DTypeError || e instanceof torch.DeviceRuntimeError, e.constructor.name).toBe(true);
      expect(e.message).toMatch(/int32|i32|s32/i);
    } finally {
      a.dispose();
      b.dispose();
      exe.dispose();
    }
  });

  it("a disposed input → typed error that says it was disposed", async () => {
    before = torch.memory().numTensors;
    const exe = await torch.runtime.compile(VALID, { device: "cpu" });
    const a = makeTensor(torch, { dtype: "float32", shape: [4], values: [1, 2, 3, 4] }, "cpu");
    const b = makeTensor(torch, { dtype: "float32", shape: [4], values: [1, 2, 3, 4] }, "cpu");
    b.dispose();
    try {
      const e = await errorOf(exe.run([a, b]));
      expect(e).toBeInstanceOf(torch.TorchError);
      expect(e.message).toMatch(/dispos/i);
      const e2 = await errorOf(() => b.dataSync());
      expect(e2).toBeInstanceOf(torch.TorchError);
      expect(e2.message).toMatch(/dispos/i);
    } finally {
      a.dispose();
      exe.dispose();
    }
  });

  it("running a disposed executable → typed error", async () => {
    before = torch.memory().numTensors;
    const exe = await torch.runtime.compile(VALID, { device: "cpu" });
    exe.dispose();
    const a = makeTensor(torch, { dtype: "float32", shape: [4], values: [1, 2, 3, 4] }, "cpu");
    try {
      const e = await errorOf(exe.run([a, a]));
      expect(e).toBeInstanceOf(torch.TorchError);
      expect(e.message).toMatch(/dispos/i);
    } finally {
      a.dispose();
    }
  });

  it("many failures in a row leave the runtime usable and leak nothing", async () => {
    before = torch.memory().numTensors;
    for (let i = 0; i < 25; i++) {
      const pool = BAD_MODULES.filter((b) => !b.argumentErrorOk && !b.name.startsWith("old dense"));
      const m = pool[i % pool.length]!;
      const e = await errorOf(torch.runtime.compile(m.mlir, { device: "cpu" }));
      expect(e).toBeInstanceOf(torch.TorchError);
    }
    const x = makeTensor(torch, { dtype: "float32", shape: [4], values: [0.5, -1, 2, 8] }, "cpu");
    const exe = await torch.runtime.compile(VALID, { device: "cpu" });
    const [y] = await exe.run([x, x]);
    expect((await readTensor(y)).values).toEqual([1, -2, 4, 16]);
    for (const t of [x, y]) t.dispose();
    exe.dispose();
  });
});
