// torch.setFlushDenormal on the CPU plugin: subnormal results and operands kept by default (IEEE, the
// reference is float64 arithmetic rounded to float32), flushed to zero when on, on the JavaScript
// thread (small programs), on the pool's workers (a product of 2^20 elements) and in compiled
// functions; JavaScript's own arithmetic keeps its subnormals either way.
import { afterEach, describe, expect, it } from "vitest";
import * as torch from "../src/index.js";
import { eagerSuite, missing } from "./eager/helpers.js";

const test = missing ? it.skip : it;
if (missing) it.skip(`skipped: ${missing}`, () => {});

const f32 = (values: number[]) => torch.tensor(Float32Array.from(values));
const f64 = (values: number[]) => torch.tensor(Float64Array.from(values));
const list = (t: torch.Tensor) => Array.from(t.dataSync() as Float32Array | Float64Array);
const canFlush = process.arch === "x64";

describe("setFlushDenormal", () => {
  eagerSuite();
  afterEach(() => {
    if (!missing) torch.setFlushDenormal(false);
  });

  // float32 products whose exact value is subnormal, and a subnormal operand added to 0
  const products = () =>
    torch.tidy(() => {
      const a = f32([1e-20, 3e-20, 2]);
      return [list(a.mul(a)), list(f32([1e-40, -2e-39]).add(0)), list(f64([1e-310]).mul(1))];
    });
  const ieee = () => {
    const a = [1e-20, 3e-20, 2].map(Math.fround);
    return [a.map((v) => Math.fround(v * v)), [1e-40, -2e-39].map(Math.fround), [1e-310]];
  };

  test("is off by default: subnormal float32 and float64 results and operands are kept", () => {
    const [squares, sums, doubles] = products();
    const [wantSquares, wantSums, wantDoubles] = ieee();
    expect(squares).toEqual(wantSquares);
    expect(wantSquares[0]).toBeGreaterThan(0); // the reference itself is subnormal, not 0
    expect(sums).toEqual(wantSums);
    expect(doubles).toEqual(wantDoubles);
  });

  test("on, results and operands that would be subnormal are zero; off again, they are kept", () => {
    expect(torch.setFlushDenormal(true)).toBe(canFlush);
    if (!canFlush) return;
    const [squares, sums, doubles] = products();
    expect(squares).toEqual([0, 0, 4]);
    expect(sums.map(Math.abs)).toEqual([0, 0]);
    expect(doubles).toEqual([0]);
    // JavaScript's arithmetic on this thread keeps IEEE subnormals (the plugin restores the mode it found)
    const tiny = new Float64Array([Number.MIN_VALUE, 3])[0]!;
    expect(tiny * new Float64Array([3])[0]!).toBe(3 * Number.MIN_VALUE);
    expect(torch.setFlushDenormal(false)).toBe(true);
    expect(products()).toEqual(ieee());
  });

  test("on the pool's workers and in a compiled function", () => {
    const n = 1 << 20;
    const square = torch.compile(function square(x: torch.Tensor) {
      return x.mul(x).add(0);
    });
    const run = () =>
      torch.tidy(() => {
        const x = torch.full([n], 1e-20);
        const eager = x.mul(x).dataSync();
        const compiled = square(x).dataSync();
        return [eager[0]!, eager[n - 1]!, compiled[0]!, compiled[n - 1]!];
      });
    const subnormal = Math.fround(Math.fround(1e-20) * Math.fround(1e-20));
    expect(run()).toEqual([subnormal, subnormal, subnormal, subnormal]);
    if (!torch.setFlushDenormal(true)) return;
    expect(run()).toEqual([0, 0, 0, 0]);
  });

  test("takes a boolean", () => {
    expect(() => torch.setFlushDenormal("yes" as never)).toThrow(torch.ArgumentError);
    expect(() => torch.setFlushDenormal(1 as never)).toThrow(/setFlushDenormal: mode must be true or false, got 1/);
  });
});
