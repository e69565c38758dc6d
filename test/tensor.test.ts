import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as torch from "../src/index.js";
import { addon } from "../src/runtime/addon.js";
import { realRuntimeMissing, restoreRealRuntime, useFakeRuntime } from "./helpers/runtime.js";

// The same suite runs on the fake addon (TypeScript logic) and, when it is built, on the real addon
// with our CPU plugin (values through PJRT).
const missing = realRuntimeMissing();
const backends = [
  { name: "fake addon", fake: true, skip: undefined },
  { name: "real cpu plugin", fake: false, skip: missing },
];

const roundTrips: Array<{ dtype: torch.DType; input: unknown; expected: ArrayLike<number | bigint>; ctor: unknown }> = [
  { dtype: "float32", input: [1.5, -2.25, 3e38, 1e-45], expected: Float32Array.of(1.5, -2.25, 3e38, 1e-45), ctor: Float32Array },
  { dtype: "float64", input: [Math.PI, -1e300, 5e-324], expected: [Math.PI, -1e300, 5e-324], ctor: Float64Array },
  { dtype: "float16", input: [1, -2.5, 65504, 0.1], expected: [1, -2.5, 65504, 0.0999755859375], ctor: Float32Array },
  { dtype: "bfloat16", input: [1, -2.5, Math.PI, 1e30], expected: [1, -2.5, 3.140625, 1.0002555517425873e30], ctor: Float32Array },
  { dtype: "int8", input: [-128, 127, 0, -1.9], expected: [-128, 127, 0, -1], ctor: Int8Array },
  { dtype: "int16", input: [-32768, 32767, 7], expected: [-32768, 32767, 7], ctor: Int16Array },
  { dtype: "int32", input: [-(2 ** 31), 2 ** 31 - 1, 1.9, -1.9], expected: [-(2 ** 31), 2 ** 31 - 1, 1, -1], ctor: Int32Array },
  { dtype: "int64", input: [-(2n ** 63n), 2n ** 63n - 1n, 42, -7], expected: [-(2n ** 63n), 2n ** 63n - 1n, 42n, -7n], ctor: BigInt64Array },
  { dtype: "uint8", input: [0, 255, -255, -1], expected: [0, 255, 1, 255], ctor: Uint8Array }, // negative whole numbers wrap, as in PyTorch
  { dtype: "uint16", input: [0, 65535, 12345], expected: [0, 65535, 12345], ctor: Uint16Array },
  { dtype: "uint32", input: [0, 2 ** 32 - 1, 3], expected: [0, 2 ** 32 - 1, 3], ctor: Uint32Array },
  { dtype: "uint64", input: [0n, 2n ** 64n - 1n, 9], expected: [0n, 2n ** 64n - 1n, 9n], ctor: BigUint64Array },
  { dtype: "bool", input: [true, false, 2, 0, NaN, -0, 0.5], expected: [1, 0, 1, 0, 1, 0, 1], ctor: Uint8Array },
];

describe.each(backends)("tensors on the $name", ({ fake, skip }) => {
  let savedBuildDir: string | undefined;
  beforeAll(() => {
    savedBuildDir = process.env.TORCH_PJRT_BUILD_DIR;
    if (fake) useFakeRuntime();
  });
  afterAll(() => {
    if (fake) restoreRealRuntime(savedBuildDir);
  });
  const test = skip ? it.skip : it;
  if (skip) it.skip(`skipped: ${skip}`, () => {});

  test.each(roundTrips)("round-trips $dtype values", async ({ dtype, input, expected, ctor }) => {
    const t = torch.tensor(input as number[], { dtype });
    expect(t.dtype).toBe(dtype);
    expect(t.shape).toEqual([expected.length]);
    expect(t.device).toBe("cpu:0");
    const data = await t.data();
    expect(data).toBeInstanceOf(ctor);
    expect(Array.from(data as ArrayLike<number | bigint>)).toEqual(Array.from(expected));
    expect(Array.from(t.dataSync() as ArrayLike<number | bigint>)).toEqual(Array.from(expected));
    t.dispose();
  });

  test("infers dtypes like PyTorch", () => {
    const cases: Array<[unknown, torch.DType, number[]]> = [
      [1.5, "float32", []],
      [3, "int64", []],
      [true, "bool", []],
      [5n, "int64", []],
      [[[1, 2], [3, 4]], "int64", [2, 2]],
      [[1, 2.5], "float32", [2]],
      [[true, 2], "int64", [2]],
      [[true, 2.5], "float32", [2]],
      [[NaN], "float32", [1]],
      [[], "float32", [0]],
      [[[], []], "float32", [2, 0]],
      [new Float64Array(3), "float64", [3]],
      [new Int16Array(2), "int16", [2]],
      [new BigUint64Array(1), "uint64", [1]],
      [new Uint8ClampedArray(4), "uint8", [4]],
    ];
    for (const [data, dtype, shape] of cases) {
      const t = torch.tensor(data as number[]);
      expect([t.dtype, t.shape], JSON.stringify(data, (_k, v: unknown) => (typeof v === "bigint" ? String(v) : v))).toEqual([dtype, shape]);
      t.dispose();
    }
  });

  test("takes raw float16/bfloat16 bits as a Uint16Array and converts other TypedArrays", () => {
    const half = torch.tensor(Uint16Array.of(0x3c00, 0xc000, 0x7c00), { dtype: "float16" });
    expect(Array.from(half.dataSync())).toEqual([1, -2, Infinity]);
    const bf = torch.tensor(Uint16Array.of(0x4049, 0x3f80), { dtype: "bfloat16" });
    expect(Array.from(bf.dataSync())).toEqual([3.140625, 1]);
    const converted = torch.tensor(Float32Array.of(1.5, -2.7), { dtype: "int32" });
    expect(Array.from(converted.dataSync())).toEqual([1, -2]);
    // no range check for a TypedArray: it wraps like a cast, as PyTorch converts a NumPy array
    const wrapped = torch.tensor(Float64Array.of(300, -129.5), { dtype: "int8" });
    expect(Array.from(wrapped.dataSync())).toEqual([44, 127]);
    wrapped.dispose();
    const fromBig = torch.tensor(BigInt64Array.of(3n, -4n), { dtype: "float64" });
    expect(Array.from(fromBig.dataSync())).toEqual([3, -4]);
    const sub = torch.tensor(new Float32Array([9, 8, 7, 6]).subarray(1, 3));
    expect(Array.from(sub.dataSync() as Float32Array)).toEqual([8, 7]);
    for (const t of [half, bf, converted, fromBig, sub]) t.dispose();
  });

  test("reshapes with { shape } and reads back nested lists and items", () => {
    const t = torch.tensor(Int32Array.of(1, 2, 3, 4, 5, 6), { shape: [2, 3] });
    expect(t.shape).toEqual([2, 3]);
    expect(t.ndim).toBe(2);
    expect(t.numel()).toBe(6);
    expect(t.size()).toEqual([2, 3]);
    expect([t.size(0), t.size(1), t.size(-1), t.size(-2)]).toEqual([2, 3, 3, 2]);
    expect(() => t.size(2)).toThrow(/dimension 2 is out of range for a tensor of shape \[2, 3\] \(expected -2 … 1\)/);
    expect(() => t.size(-3)).toThrow(torch.ShapeError);
    expect(t.tolist()).toEqual([[1, 2, 3], [4, 5, 6]]);
    const s = torch.tensor(true);
    expect(s.size()).toEqual([]);
    expect(() => s.size(0)).toThrow(/0-d tensor has no dimensions/);
    expect(s.item()).toBe(true);
    expect(s.tolist()).toBe(true);
    const b = torch.tensor(2n ** 40n);
    expect(b.item()).toBe(2 ** 40); // int64 reads as a JS number while it is a safe integer
    expect(b.item({ bigint: true })).toBe(2n ** 40n);
    const long = torch.tensor([1, 2], { dtype: torch.float64 });
    expect([long.dtype, torch.float64]).toEqual(["float64", "float64"]);
    long.dispose();
    const small = torch.tensor([[1, -2]]);
    expect(JSON.stringify(small.tolist())).toBe("[[1,-2]]");
    small.dispose();
    const huge = torch.tensor([1n, 2n ** 53n + 1n, -(2n ** 53n)]);
    expect(huge.tolist({ bigint: true })).toEqual([1n, 2n ** 53n + 1n, -(2n ** 53n)]);
    expect(() => huge.tolist()).toThrow(torch.DTypeError);
    expect(() => huge.tolist()).toThrow("tolist(): the int64 value 9007199254740993 (element 1) is not a safe integer, so a JS number would round it; call tolist({ bigint: true }) to get bigints");
    expect(() => b.item({ big: true } as never)).toThrow(/item: got an unknown option "big"/);
    const u64 = torch.tensor([2n ** 64n - 1n], { dtype: "uint64" });
    expect(u64.item({ bigint: true })).toBe(2n ** 64n - 1n);
    expect(() => u64.item()).toThrow(/uint64 value 18446744073709551615/);
    u64.dispose();
    huge.dispose();
    expect(() => t.item()).toThrow(torch.ShapeError);
    expect(String(t)).toMatch(/^tensor\(\[\[1, 2, 3\],\n {8}\[4, 5, 6\]\], dtype=torch\.int32\)$/); // PyTorch's repr (test/eager-tensor-basics.test.ts)
    for (const x of [t, s, b]) x.dispose();
  });

  test("rejects bad data and options before any native call", () => {
    const before = addon().liveCounts().buffers;
    const bad: Array<[() => unknown, unknown, RegExp]> = [
      [() => torch.tensor([[1, 2], [3]]), torch.ShapeError, /ragged nested array: data\[1\] has shape \[1\] but data\[0\] has shape \[2\]/],
      [() => torch.tensor([[1], 2] as never), torch.ShapeError, /ragged/],
      [() => torch.tensor([1, 2, 3], { shape: [2, 2] }), torch.ShapeError, /shape \[2, 2\] has 4 elements but the data has 3/],
      [() => torch.tensor([1], { dtype: "float" as never }), torch.ArgumentError, /"dtype" must be a dtype, got string "float"/],
      [() => torch.tensor([1], { device: "gpu:0" }), torch.DeviceError, /unknown device type 'gpu'/],
      [() => torch.tensor([1], { device: "cpu:x" }), torch.DeviceError, /invalid device string/],
      [() => torch.tensor([1], { device: "cpu:7" }), torch.DeviceError, /device cpu:7 does not exist; 'cpu' has \d device/],
      [() => torch.tensor([1, "a"] as never), torch.ArgumentError, /data\[1\] is string/],
      [() => torch.tensor([NaN], { dtype: "int32" }), torch.DTypeError, /data\[0\] = NaN cannot be converted to int32 without overflow/],
      // values an integer dtype cannot hold, as PyTorch checks them ("value cannot be converted to type int8 without overflow")
      [() => torch.tensor([[1, 2], [3, 300]], { dtype: "int8" }), torch.DTypeError,
        /^torch\.tensor: data\[1\]\[1\] = 300 cannot be converted to int8 without overflow \(int8 holds -128 to 127\); pass a dtype that holds it$/],
      [() => torch.tensor(2 ** 70, { dtype: "int64" }), torch.DTypeError, /data = 1\.1805916207174113e\+21 cannot be converted to int64 without overflow/],
      [() => torch.tensor([2n ** 63n]), torch.DTypeError, /data\[0\] = 9223372036854775808 cannot be converted to int64 without overflow \(int64 holds -9223372036854775808 to 9223372036854775807\)/],
      [() => torch.tensor([0, 127.5], { dtype: "int8" }), torch.DTypeError, /data\[1\] = 127\.5 cannot be converted to int8 without overflow \(int8 holds -128 to 127; a fraction must fit before it is truncated\)/],
      [() => torch.tensor([-256], { dtype: "uint8" }), torch.DTypeError, /uint8 holds 0 to 255; whole numbers down to -255 wrap around/],
      [() => torch.tensor([2 ** 32], { dtype: "uint32" }), torch.DTypeError, /data\[0\] = 4294967296 cannot be converted to uint32/],
      [() => torch.tensor([1], { dtyp: "int32" } as never), torch.ArgumentError, /tensor\(data, \*, dtype\?, device\?, requiresGrad = false, shape\?\): got an unknown option "dtyp"; did you mean "dtype"\?/],
      [() => torch.tensor([1], { shape: [-1] }), torch.ShapeError, /shape \[-1\] has a negative size/],
      [() => torch.tensor([1], { shape: [1.5] }), torch.ArgumentError, /"shape" must be an int\[\], got \[number 1.5\]/],
      [() => torch.tensor([1, 2], { requiresGrad: true }), torch.DTypeError, /only tensors of floating point dtype can require gradients, got int64/],
      [() => torch.tensor(new DataView(new ArrayBuffer(4))), torch.ArgumentError, /DataView/],
    ];
    for (const [fn, type, message] of bad) {
      expect(fn).toThrow(type as never);
      expect(fn).toThrow(message);
    }
    expect(addon().liveCounts().buffers).toBe(before);
  });

  test("dispose is idempotent, Symbol.dispose works, and use after dispose is a clear error", async () => {
    const before = torch.memory().numTensors;
    const t = torch.tensor([1, 2, 3], { dtype: "float32" });
    expect(torch.memory().numTensors).toBe(before + 1);
    t.dispose();
    t.dispose();
    expect(t.isDisposed).toBe(true);
    expect(torch.memory().numTensors).toBe(before);
    expect(() => t.dataSync()).toThrow(torch.DisposedError);
    expect(() => t.dataSync()).toThrow(/Tensor has been disposed: cannot read a disposed float32\[3\] tensor on cpu:0/);
    await expect(t.data()).rejects.toThrow(torch.DisposedError);
    expect(String(t)).toContain("disposed");
    {
      using u = torch.tensor([4]);
      expect(u.item()).toBe(4);
      expect(torch.memory().numTensors).toBe(before + 1);
    }
    expect(torch.memory().numTensors).toBe(before);
  });

  test("memory() counts tensors and bytes per device", () => {
    const base = torch.memory();
    const a = torch.tensor(new Float32Array(10));
    const b = torch.tensor([1, 2], { dtype: "bfloat16" });
    const m = torch.memory();
    expect(m.numTensors - base.numTensors).toBe(2);
    expect(m.numBytes - base.numBytes).toBe(44);
    expect(m.devices["cpu:0"]!.numBytes - (base.devices["cpu:0"]?.numBytes ?? 0)).toBe(44);
    a.dispose();
    b.dispose();
    expect(torch.memory()).toEqual(base);
  });

  test("tidy disposes what it created except what it returns", () => {
    const base = torch.memory().numTensors;
    const outer = torch.tensor([1]);
    let inner!: torch.Tensor;
    const kept = torch.tidy(() => {
      inner = torch.tensor([2]);
      const ret = torch.tensor([3]);
      const nested = torch.tidy(() => ({ x: [torch.tensor([4])], y: torch.tensor([5]) }));
      expect(torch.memory().numTensors).toBe(base + 5);
      nested.y.dispose();
      torch.keep(torch.tensor([6])).dispose();
      return { ret, list: nested.x, n: 1 };
    });
    expect(inner.isDisposed).toBe(true);
    expect(outer.isDisposed).toBe(false);
    expect(kept.ret.isDisposed).toBe(false);
    expect(kept.list[0]!.isDisposed).toBe(false);
    expect(torch.memory().numTensors).toBe(base + 3);
    for (const t of [outer, kept.ret, kept.list[0]!]) t.dispose();
    expect(torch.memory().numTensors).toBe(base);

    expect(() =>
      torch.tidy(() => {
        torch.tensor([1]);
        throw new Error("inside");
      }),
    ).toThrow("inside");
    expect(torch.memory().numTensors).toBe(base);
    // async fns are supported: see test/eager-tensor-basics.test.ts
    expect(torch.memory().numTensors).toBe(base);
  });
});
