// The op table on our runtime: every case compiles with torch.runtime.compile, runs with exe.run on
// every device the machine has, and must give the table's float64-reference values; no tensor leaks.

import { describe, expect, it } from "vitest";

import { OP_CASES, REQUIRED_OPS } from "./ops/cases.js";
import { ALL, type DType, FLOATS, INTS, NUMERIC, SINTS, bf16Bits, bf16FromBits, decode, encode, f16Bits, f16FromBits, roundBF16, roundF16 } from "./ops/dtypes.js";
import { deviceNames, loadTorch, runCase } from "./ops/harness.js";
import { bigToFloat, compareTensors, convertScalar } from "./ops/ref.js";

// Which dtypes the StableHLO spec allows each op on (among the 13 we support).
const FLOAT_ONLY = ["atan2", "exponential", "exponential_minus_one", "log", "log_plus_one", "logistic", "tanh", "sqrt", "rsqrt", "cbrt", "sine", "cosine", "tan", "floor", "ceil", "round_nearest_even", "round_nearest_afz", "is_finite"];
const REQUIRED_DTYPES: Record<string, DType[]> = {
  ...Object.fromEntries(FLOAT_ONLY.map((op) => [op, FLOATS])),
  ...Object.fromEntries(["subtract", "divide", "remainder", "power", "negate", "iota"].map((op) => [op, NUMERIC])),
  ...Object.fromEntries(["add", "multiply", "maximum", "minimum", "clamp", "dot_general"].map((op) => [op, ALL])),
  abs: [...FLOATS, ...SINTS],
  sign: [...FLOATS, ...SINTS],
  ...Object.fromEntries(["and", "or", "xor", "not"].map((op) => [op, [...INTS, "bool" as DType]])),
  ...Object.fromEntries(["shift_left", "shift_right_arithmetic", "shift_right_logical"].map((op) => [op, INTS])),
  ...Object.fromEntries(
    ["constant", "convert", "compare", "select", "broadcast_in_dim", "reshape", "transpose", "slice", "dynamic_slice", "dynamic_update_slice", "concatenate", "pad", "reverse", "reduce"].map((op) => [op, ALL]),
  ),
  bitcast_convert: ALL.filter((d) => d !== "bool"),
};

/** dtypes exercised by each op, from the modules' text and the cases' tensors */
function coverage(): Map<string, Set<DType>> {
  const cov = new Map<string, Set<DType>>();
  for (const c of OP_CASES) {
    const dts = new Set<DType>([...c.inputs, ...c.expected].map((t) => t.dtype));
    for (const m of c.mlir.matchAll(/"?stablehlo\.([a-z_0-9]+)"?/g)) {
      const op = m[1]!;
      if (!cov.has(op)) cov.set(op, new Set());
      for (const d of dts) cov.get(op)!.add(d);
    }
  }
  return cov;
}

describe("op table", () => {
  it("covers every op the CPU plugin supports on every dtype the spec allows", () => {
    const cov = coverage();
    const missing: string[] = [];
    for (const op of REQUIRED_OPS) {
      const want = REQUIRED_DTYPES[op];
      expect(want, `REQUIRED_DTYPES has no entry for ${op}`).toBeDefined();
      for (const d of want!) if (!cov.get(op)?.has(d)) missing.push(`${op} on ${d}`);
    }
    expect(missing).toEqual([]);
  });

  it("has unique names, some pretty-form modules, and expected values for every output", () => {
    const names = new Set(OP_CASES.map((c) => c.name));
    expect(names.size).toBe(OP_CASES.length);
    expect(OP_CASES.filter((c) => c.form === "pretty").length).toBeGreaterThanOrEqual(10);
    for (const c of OP_CASES) {
      expect(c.expected.length, c.name).toBeGreaterThan(0);
      if (c.form === "generic") expect(c.mlir.startsWith('"builtin.module"()'), c.name).toBe(true);
      expect(c.mlir, c.name).not.toMatch(/dense<[^>]*> : tensor<\d+xi64>\s*[,}]\s*(broadcast|dimensions|permutation)/);
    }
  });

  it("includes the special values the plugin must get right", () => {
    const floatVals = OP_CASES.flatMap((c) => c.inputs.filter((t) => FLOATS.includes(t.dtype)).flatMap((t) => t.values as number[]));
    expect(floatVals.some(Number.isNaN)).toBe(true);
    expect(floatVals.includes(Infinity) && floatVals.includes(-Infinity)).toBe(true);
    expect(floatVals.some((v) => Object.is(v, -0))).toBe(true);
    const i32 = OP_CASES.flatMap((c) => c.inputs.filter((t) => t.dtype === "int32").flatMap((t) => t.values));
    expect(i32).toContain(-2147483648);
    const i64 = OP_CASES.flatMap((c) => c.inputs.filter((t) => t.dtype === "int64").flatMap((t) => t.values));
    expect(i64).toContain(-(2n ** 63n));
  });
});

describe("reference helpers (the oracle's own arithmetic)", () => {
  it("rounds to float16 / bfloat16 to nearest even, with overflow and subnormals", () => {
    expect(roundF16(1 + 2 ** -11)).toBe(1); // tie → even
    expect(roundF16(1 + 3 * 2 ** -11)).toBe(1 + 2 ** -9); // tie → even (up)
    expect(roundF16(65504)).toBe(65504);
    expect(roundF16(65519)).toBe(65504);
    expect(roundF16(65520)).toBe(Infinity); // rounds past max
    expect(roundF16(2 ** -24)).toBe(2 ** -24); // smallest subnormal
    expect(roundF16(2 ** -26)).toBe(0);
    expect(Object.is(roundF16(-(2 ** -26)), -0)).toBe(true);
    expect(roundBF16(1 + 2 ** -8)).toBe(1);
    expect(roundBF16(1 + 3 * 2 ** -8)).toBe(1 + 2 ** -6);
    expect(roundBF16(3.4e38)).toBe(Infinity);
    expect(roundBF16(Math.PI)).toBe(3.140625);
  });
  it("encodes half-precision bit patterns", () => {
    expect(f16Bits(1)).toBe(0x3c00);
    expect(f16Bits(-2)).toBe(0xc000);
    expect(f16Bits(65504)).toBe(0x7bff);
    expect(f16Bits(2 ** -24)).toBe(0x0001);
    expect(f16Bits(-0)).toBe(0x8000);
    expect(f16FromBits(0x7c00)).toBe(Infinity);
    expect(bf16Bits(1)).toBe(0x3f80);
    expect(bf16FromBits(0xc049)).toBe(-3.140625);
    expect(Array.from(encode("int16", [-2, 258]))).toEqual([0xfe, 0xff, 0x02, 0x01]);
    expect(decode("uint64", encode("uint64", [2n ** 64n - 1n]))).toEqual([2n ** 64n - 1n]);
  });
  it("converts with one rounding, saturation and wrap-around", () => {
    expect(bigToFloat("float32", 2n ** 24n + 1n)).toBe(2 ** 24); // tie → even
    expect(bigToFloat("float32", 2n ** 24n + 3n)).toBe(2 ** 24 + 4);
    expect(bigToFloat("float16", 65535n)).toBe(Infinity);
    expect(bigToFloat("float64", 2n ** 63n - 1n)).toBe(2 ** 63);
    expect(convertScalar("float32", "int8", 300.5)).toBe(127);
    expect(convertScalar("float32", "uint8", -3)).toBe(0);
    expect(convertScalar("float32", "int32", NaN)).toBe(0);
    expect(convertScalar("int32", "int8", 300)).toBe(44);
    expect(convertScalar("float64", "bool", NaN)).toBe(1);
    expect(convertScalar("int64", "uint64", -1n)).toBe(2n ** 64n - 1n);
  });
  it("comparison flags wrong values, shapes, NaN and signed zeros, and honours tolerances", () => {
    const want = { dtype: "float32" as DType, shape: [3], values: [1, -0, NaN] };
    expect(compareTensors(want, { dtype: "float32", shape: [3], values: [1, -0, NaN] })).toEqual([]);
    expect(compareTensors(want, { dtype: "float32", shape: [3], values: [1, 0, NaN] }).length).toBe(1);
    expect(compareTensors(want, { dtype: "float32", shape: [3], values: [1, -0, 0] }).length).toBe(1);
    expect(compareTensors(want, { dtype: "float32", shape: [3], values: [1 + 2 ** -23, -0, NaN] }).length).toBe(1);
    expect(compareTensors({ ...want, tol: { ulp: 1 } }, { dtype: "float32", shape: [3], values: [1 + 2 ** -23, 0, NaN] })).toEqual([]);
    expect(compareTensors(want, { dtype: "float32", shape: [1, 3], values: [1, -0, NaN] }).length).toBe(1);
    expect(compareTensors(want, { dtype: "float64", shape: [3], values: [1, -0, NaN] }).length).toBe(1);
    expect(compareTensors({ dtype: "int64", shape: [1], values: [-(2n ** 63n)] }, { dtype: "int64", shape: [1], values: [2n ** 63n - 1n] }).length).toBe(1);
  });
});

const loaded = await loadTorch();
if (!loaded.ok) console.warn(`[ops.test] plugin runs SKIPPED: ${loaded.reason}`);

describe.skipIf(!loaded.ok)("op table on our runtime", () => {
  const torch = loaded.ok ? loaded.torch : undefined;
  const devices = torch ? deviceNames(torch) : [];

  it("has at least one device", () => {
    expect(devices.length).toBeGreaterThan(0);
  });

  for (const device of devices) {
    describe(device, () => {
      for (const c of OP_CASES) {
        it(c.name, async () => {
          const before = torch.memory().numTensors;
          const got = await runCase(torch, c, device);
          expect(got.length, "number of outputs").toBe(c.expected.length);
          const errs = c.expected.flatMap((e, i) => compareTensors(e, got[i]!, `output ${i}`));
          expect(errs, `${c.name} on ${device}\n${c.mlir}`).toEqual([]);
          expect(torch.memory().numTensors, "live tensors after the case").toBe(before);
        });
      }
    });
  }
});
