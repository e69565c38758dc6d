// Shared set-up for the eager suites: the real addon (skip when unbuilt), two CPU devices, a leak
// check after every test, and float64 reference helpers.
import { afterEach, beforeAll, beforeEach, expect } from "vitest";
import * as torch from "../../src/index.js";
import { addon } from "../../src/runtime/addon.js";
import { realRuntimeMissing } from "../helpers/runtime.js";

export const missing = realRuntimeMissing();

/** Installs the hooks; call once at the top of a describe. */
export function eagerSuite(): void {
  beforeAll(() => {
    if (missing) return;
    // Two devices on the CPU plugin, to test mixing them (must happen before the client exists).
    try {
      torch.registerPlugin("cpu", undefined, { device_count: 2 });
    } catch {
      // already registered by another suite in this process
    }
    torch.tensor([0]).dispose(); // the client is not a leak
  });
  let start: { memory: torch.MemoryInfo; buffers: number };
  beforeEach(() => {
    if (missing) return;
    start = { memory: torch.memory(), buffers: addon().liveCounts().buffers };
  });
  afterEach(() => {
    if (missing) return;
    expect(torch.memory()).toEqual(start.memory);
    expect(addon().liveCounts().buffers).toBe(start.buffers);
  });
}

export type Nested = number | boolean | Nested[];

/** Values of a tensor as plain numbers (bigints and bools converted), and its shape. */
export function valuesOf(t: torch.Tensor): number[] {
  return Array.from(t.dataSync() as ArrayLike<number | bigint>, Number);
}

/** Row-major flat array of a nested list. */
export function flat(x: Nested): number[] {
  return Array.isArray(x) ? x.flatMap(flat) : [Number(x)];
}

/** Checks dtype, shape and values (relative/absolute tolerance; NaN equals NaN), then disposes. */
export function expectTensor(t: torch.Tensor, expected: { dtype: torch.DType; shape: number[]; values: number[] }, tol = 1e-6): void {
  try {
    expect(t.dtype).toBe(expected.dtype);
    expect([...t.shape]).toEqual(expected.shape);
    const got = valuesOf(t);
    expect(got.length).toBe(expected.values.length);
    got.forEach((v, i) => {
      const want = expected.values[i]!;
      if (Number.isNaN(want)) expect(v, `element ${i}`).toBeNaN();
      else if (!Number.isFinite(want)) expect(v, `element ${i}`).toBe(want);
      else expect(Math.abs(v - want), `element ${i}: ${v} vs ${want}`).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(want)));
    });
  } finally {
    t.dispose();
  }
}

/** Runs fn inside torch.tidy so that inputs made in it are freed after the test body. */
export function scoped(fn: () => void): void {
  torch.tidy(() => {
    fn();
  });
}
