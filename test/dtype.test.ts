import { describe, expect, it } from "vitest";
import { dtypeFromPjrt, dtypeInfo, dtypeNames, dtypes, dtypeOfTypedArray } from "../src/dtype.js";
import { fromBFloat16Bits, fromFloat16Bits, halfBitsToFloat32, float32ToHalfBits, toBFloat16Bits, toFloat16Bits } from "../src/half.js";
import { DTypeError } from "../src/runtime/errors.js";

// Independent facts: PJRT_Buffer_Type values (pjrt_c_api.h) and StableHLO element type spellings.
const expected: Record<string, [itemSize: number, stablehlo: string, pjrt: number]> = {
  bool: [1, "i1", 1],
  int8: [1, "i8", 2],
  int16: [2, "i16", 3],
  int32: [4, "i32", 4],
  int64: [8, "i64", 5],
  uint8: [1, "ui8", 6],
  uint16: [2, "ui16", 7],
  uint32: [4, "ui32", 8],
  uint64: [8, "ui64", 9],
  float16: [2, "f16", 10],
  float32: [4, "f32", 11],
  float64: [8, "f64", 12],
  bfloat16: [2, "bf16", 13],
};

describe("dtype table", () => {
  it("has exactly the 13 dtypes", () => {
    expect([...dtypeNames].sort()).toEqual(Object.keys(expected).sort());
  });

  it.each(Object.entries(expected))("%s: item size, StableHLO spelling, PJRT code", (name, [size, hlo, pjrt]) => {
    const info = dtypeInfo(name);
    expect(info.itemSize).toBe(size);
    expect(info.stablehlo).toBe(hlo);
    expect(info.pjrt).toBe(pjrt);
    expect(dtypeFromPjrt(pjrt)).toBe(name);
    expect(new info.storage(3).byteLength).toBe(3 * size);
  });

  it("stores 64-bit integers as bigint", () => {
    expect(dtypes.int64.storage).toBe(BigInt64Array);
    expect(dtypes.uint64.storage).toBe(BigUint64Array);
    expect(dtypes.int64.bigint && dtypes.uint64.bigint && !dtypes.int32.bigint).toBe(true);
  });

  it("rejects unknown names and codes with DTypeError", () => {
    expect(() => dtypeInfo("float")).toThrow(DTypeError);
    expect(() => dtypeInfo("float")).toThrow(/unknown dtype 'float'.*float32/);
    expect(() => dtypeFromPjrt(14)).toThrow(DTypeError); // C64
    expect(() => dtypeInfo("toString")).toThrow(DTypeError);
  });

  it("maps TypedArrays to their dtype", () => {
    expect(dtypeOfTypedArray(new Float32Array(1))).toBe("float32");
    expect(dtypeOfTypedArray(new Float64Array(1))).toBe("float64");
    expect(dtypeOfTypedArray(new Int8Array(1))).toBe("int8");
    expect(dtypeOfTypedArray(new Int16Array(1))).toBe("int16");
    expect(dtypeOfTypedArray(new Int32Array(1))).toBe("int32");
    expect(dtypeOfTypedArray(new BigInt64Array(1))).toBe("int64");
    expect(dtypeOfTypedArray(new Uint8Array(1))).toBe("uint8");
    expect(dtypeOfTypedArray(new Uint8ClampedArray(1))).toBe("uint8");
    expect(dtypeOfTypedArray(new Uint16Array(1))).toBe("uint16");
    expect(dtypeOfTypedArray(new Uint32Array(1))).toBe("uint32");
    expect(dtypeOfTypedArray(new BigUint64Array(1))).toBe("uint64");
    expect(dtypeOfTypedArray(new DataView(new ArrayBuffer(1)))).toBeUndefined();
  });
});

// Bit patterns from IEEE 754 binary16 and bfloat16 tables (numpy/ml_dtypes give the same).
const float16Cases: Array<[number, number]> = [
  [0, 0x0000],
  [-0, 0x8000],
  [1, 0x3c00],
  [-2, 0xc000],
  [0.5, 0x3800],
  [65504, 0x7bff], // largest finite
  [65520, 0x7c00], // halfway to 65536 rounds to even = infinity
  [65519, 0x7bff],
  [2 ** -14, 0x0400], // smallest normal
  [2 ** -24, 0x0001], // smallest subnormal
  [2 ** -25, 0x0000], // halfway to the smallest subnormal: ties to even (0)
  [3 * 2 ** -25, 0x0002], // 1.5 ulp: ties to even (2)
  [0.1, 0x2e66],
  [1 / 3, 0x3555],
  [Math.PI, 0x4248],
  [1 + 2 ** -11, 0x3c00], // tie, even stays
  [1 + 3 * 2 ** -11, 0x3c02], // tie, odd rounds up
  [Infinity, 0x7c00],
  [-Infinity, 0xfc00],
  [1e-10, 0x0000],
];

const bfloat16Cases: Array<[number, number]> = [
  [0, 0x0000],
  [-0, 0x8000],
  [1, 0x3f80],
  [-2, 0xc000],
  [Math.PI, 0x4049],
  [0.1, 0x3dcd],
  [1 / 3, 0x3eab],
  [1 + 2 ** -8, 0x3f80], // tie, even stays
  [1 + 3 * 2 ** -8, 0x3f82], // tie, odd rounds up
  [3.4028234663852886e38, 0x7f80], // float32 max rounds to infinity
  [Infinity, 0x7f80],
  [-Infinity, 0xff80],
  [65504, 0x4780],
];

describe("float16 / bfloat16 conversion", () => {
  it.each(float16Cases)("float16(%d) = %i", (value, bits) => {
    expect(toFloat16Bits(value)).toBe(bits);
  });

  it.each(bfloat16Cases)("bfloat16(%d) = %i", (value, bits) => {
    expect(toBFloat16Bits(value)).toBe(bits);
  });

  it("NaN stays NaN (quiet) with its sign", () => {
    expect(toFloat16Bits(NaN) & 0x7c00).toBe(0x7c00);
    expect(toFloat16Bits(NaN) & 0x3ff).not.toBe(0);
    expect(toBFloat16Bits(NaN)).toBe(0x7fc0);
    expect(Number.isNaN(fromFloat16Bits(0x7e00))).toBe(true);
    expect(Number.isNaN(fromBFloat16Bits(0xffc1))).toBe(true);
  });

  it("decodes known patterns", () => {
    expect(fromFloat16Bits(0x3c00)).toBe(1);
    expect(fromFloat16Bits(0x7bff)).toBe(65504);
    expect(fromFloat16Bits(0x0001)).toBe(2 ** -24);
    expect(fromFloat16Bits(0x8000)).toBe(-0);
    expect(fromFloat16Bits(0xfc00)).toBe(-Infinity);
    expect(fromBFloat16Bits(0x4049)).toBe(3.140625);
    expect(fromBFloat16Bits(0x3f80)).toBe(1);
  });

  it("round-trips every float16 and bfloat16 bit pattern that is not NaN", () => {
    const all = new Uint16Array(65536).map((_, i) => i);
    for (const format of ["float16", "bfloat16"] as const) {
      const values = halfBitsToFloat32(all, format);
      const back = float32ToHalfBits(values, format);
      for (let i = 0; i < 65536; i++) {
        if (Number.isNaN(values[i])) continue;
        if (back[i] !== i) throw new Error(`${format} 0x${i.toString(16)} → ${values[i]} → 0x${back[i]!.toString(16)}`);
      }
    }
  });

  it("goes through float32 first, as PyTorch does", () => {
    // 1 + 2^-11 + 2^-40 is above the float16 tie, but rounds to the tie in float32 first.
    expect(toFloat16Bits(1 + 2 ** -11 + 2 ** -40)).toBe(0x3c00);
  });
});

describe("dtype constants (torch.float32, torch.long, …)", () => {
  it("each is its dtype's name, PyTorch's aliases included, and every dtype has one", async () => {
    const torch = await import("../src/index.js");
    const aliases = { float: "float32", double: "float64", half: "float16", short: "int16", int: "int32", long: "int64" };
    for (const name of torch.dtypeNames) expect((torch as unknown as Record<string, unknown>)[name]).toBe(name);
    for (const [alias, name] of Object.entries(aliases)) expect((torch as unknown as Record<string, unknown>)[alias]).toBe(name);
  });
});

describe("torch.finfo and torch.iinfo", () => {
  it("give PyTorch 2.13's limits", async () => {
    const torch = await import("../src/index.js");
    // torch.finfo(d): bits, eps, max, tiny, resolution (min is -max, smallest_normal is tiny)
    const floats = {
      float16: [16, 0.0009765625, 65504, 6.103515625e-5, 0.001],
      bfloat16: [16, 0.0078125, 3.3895313892515355e38, 1.1754943508222875e-38, 0.01],
      float32: [32, 1.1920928955078125e-7, 3.4028234663852886e38, 1.1754943508222875e-38, 1e-6],
      float64: [64, 2.220446049250313e-16, 1.7976931348623157e308, 2.2250738585072014e-308, 1e-15],
    } as const;
    for (const [dtype, [bits, eps, max, tiny, resolution]] of Object.entries(floats)) {
      const f = torch.finfo(dtype as keyof typeof floats);
      expect(f, dtype).toEqual({ dtype, bits, eps, max, min: -max, tiny, smallestNormal: tiny, resolution });
    }
    expect(torch.finfo().dtype).toBe("float32");
    const ints = {
      int8: [8, -128, 127], int16: [16, -32768, 32767], int32: [32, -2147483648, 2147483647],
      int64: [64, -9223372036854775808n, 9223372036854775807n], uint8: [8, 0, 255], uint16: [16, 0, 65535],
      uint32: [32, 0, 4294967295], uint64: [64, 0n, 18446744073709551615n],
    } as const;
    for (const [dtype, [bits, min, max]] of Object.entries(ints)) expect(torch.iinfo(dtype as keyof typeof ints), dtype).toEqual({ dtype, bits, min, max });
    expect(() => torch.finfo("int32")).toThrow(/torch.finfo: int32 is not a floating dtype .* use torch.iinfo/);
    expect(() => torch.iinfo("float32")).toThrow(torch.ArgumentError);
    expect(() => torch.iinfo("bool")).toThrow(torch.ArgumentError);
  });
});
