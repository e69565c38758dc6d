// Device work runs off the JavaScript thread: eager ops and exe.run() enqueue on the device's queue,
// reads wait for the work without blocking the event loop, errors surface at the next read.
// Timing is the feature here, so some tests measure the event loop; each compares it with the work's
// own duration, so a slow or loaded machine stretches both sides alike.
import { afterAll, describe, expect, it } from "vitest";
import * as torch from "../src/index.js";
import { addon } from "../src/runtime/addon.js";
import { resolveDevice } from "../src/runtime/clients.js";
import { DeviceError, DeviceRuntimeError } from "../src/runtime/errors.js";
import { realRuntimeMissing } from "./helpers/runtime.js";

const missing = realRuntimeMissing();

/** Watches the event loop with a 1 ms interval while `work` runs: the longest gap between ticks. */
async function watchEventLoop<T>(work: () => Promise<T>): Promise<{ result: T; ms: number; maxGap: number; ticks: number }> {
  let last = performance.now();
  let maxGap = 0;
  let ticks = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    maxGap = Math.max(maxGap, now - last);
    last = now;
    ticks++;
  }, 1);
  const start = performance.now();
  last = start;
  try {
    const result = await work();
    const ms = performance.now() - start;
    maxGap = Math.max(maxGap, performance.now() - last);
    return { result, ms, maxGap, ticks };
  } finally {
    clearInterval(timer);
  }
}

/** Deterministic matrix entries in [-0.5, 0.5). */
const entry = (i: number, seed: number): number => (((i * 7919 + seed * 104729) % 1000) / 1000) - 0.5;

// Sums 0 + 1 + … + (n − 1) in a while loop the interpreter runs one iteration at a time.
const loopModule = `func.func public @main(%n: tensor<i64>) -> tensor<i64> {
  %zero = stablehlo.constant dense<0> : tensor<i64>
  %one = stablehlo.constant dense<1> : tensor<i64>
  %r:2 = stablehlo.while(%i = %zero, %s = %zero) : tensor<i64>, tensor<i64>
  cond {
    %lt = stablehlo.compare LT, %i, %n : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %s2 = stablehlo.add %s, %i : tensor<i64>
    %i2 = stablehlo.add %i, %one : tensor<i64>
    stablehlo.return %i2, %s2 : tensor<i64>, tensor<i64>
  }
  return %r#1 : tensor<i64>
}`;
const loopSum = (n: number): bigint => (BigInt(n) * BigInt(n - 1)) / 2n;

describe.skipIf(missing !== undefined)(`device work off the JS thread${missing ? ` (skipped: ${missing})` : ""}`, () => {
  afterAll(() => torch.runtime.synchronize());

  it("an eager 4096³ matmul and await data() leave the event loop running", async () => {
    const n = 4096;
    const av = Float32Array.from({ length: n * n }, (_, i) => entry(i, 1));
    const bv = Float32Array.from({ length: n * n }, (_, i) => entry(i, 2));
    const a = torch.tensor(av, { shape: [n, n] });
    const b = torch.tensor(bv, { shape: [n, n] });
    const { result: c, ms, maxGap, ticks } = await watchEventLoop(async () => {
      const product = torch.matmul(a, b);
      return { product, values: await product.data() };
    });
    for (const [i, j] of [[0, 0], [17, 4095], [2048, 1], [4095, 3000]] as const) {
      let want = 0;
      for (let p = 0; p < n; p++) want += av[i * n + p]! * bv[p * n + j]!;
      expect(c.values[i * n + j]).toBeCloseTo(want, 2);
    }
    // Blocking would leave one gap as long as the whole matmul (about a second); the issue's target
    // is no gap over 20 ms. A loaded 2-core box delays timers by scheduling alone, so the bound is
    // 20 ms or a tenth of the work, whichever is larger, and the timer must have kept firing.
    expect(maxGap, `longest event-loop gap ${maxGap.toFixed(1)} ms in ${ms.toFixed(0)} ms of work`).toBeLessThan(Math.max(20, ms / 10));
    expect(ticks, `${ticks} ticks in ${ms.toFixed(0)} ms`).toBeGreaterThan(ms / 20);
    for (const t of [a, b, c.product]) t.dispose();
  });

  it("exe.run() of a long program returns at once and its read waits without freezing", async () => {
    const exe = await torch.runtime.compile(loopModule);
    const count = torch.tensor(300_000, { dtype: "int64" });
    const { result, ms, maxGap } = await watchEventLoop(async () => {
      const t0 = performance.now();
      const [sum] = await exe.run([count]);
      const enqueued = performance.now() - t0;
      return { sum: sum!, enqueued, value: (await sum!.data())[0] };
    });
    expect(result.value).toBe(loopSum(300_000));
    expect(result.enqueued, `run() took ${result.enqueued.toFixed(1)} of ${ms.toFixed(0)} ms`).toBeLessThan(ms / 4);
    expect(maxGap, `longest event-loop gap ${maxGap.toFixed(1)} ms in ${ms.toFixed(0)} ms of work`).toBeLessThan(Math.max(20, ms / 10));
    result.sum.dispose();
    count.dispose();
    exe.dispose();
  });

  it("torch.runtime.synchronize() blocks until the enqueued work has run", async () => {
    const exe = await torch.runtime.compile(loopModule);
    const count = torch.tensor(300_000, { dtype: "int64" });
    // How long the loop takes here, read back the usual way.
    let t0 = performance.now();
    const [first] = exe.runSync([count]);
    expect(first!.item()).toBe(Number(loopSum(300_000)));
    const loopMs = performance.now() - t0;
    first!.dispose();

    t0 = performance.now();
    const [second] = exe.runSync([count]);
    const enqueueMs = performance.now() - t0;
    torch.runtime.synchronize("cpu:0");
    const syncMs = performance.now() - t0;
    t0 = performance.now();
    expect(second!.item()).toBe(Number(loopSum(300_000)));
    const readMs = performance.now() - t0;
    const timings = `loop ${loopMs.toFixed(1)} ms, enqueue ${enqueueMs.toFixed(1)}, synchronize ${syncMs.toFixed(1)}, read after ${readMs.toFixed(1)}`;
    expect(enqueueMs, timings).toBeLessThan(loopMs / 4);
    expect(syncMs, timings).toBeGreaterThan(loopMs / 2);
    expect(readMs, timings).toBeLessThan(loopMs / 4);
    second!.dispose();

    torch.runtime.synchronize(); // every device in use; nothing is queued now
    expect(() => torch.runtime.synchronize("cpu:7")).toThrow(DeviceError);
    count.dispose();
    exe.dispose();
  });

  it("an error while running surfaces at the next read of the tensor and of what was computed from it, naming the op", async () => {
    const one = torch.ones([1]);
    // 2^46 floats: a shape any tensor may have, 256 TiB that no process can map; the op returns at once.
    const huge = one.expand([2 ** 46]);
    const derived = huge.add(1);
    const named = /running expand on cpu:0 failed: .*stablehlo\.broadcast_in_dim: out of memory: could not allocate 256\.0 TiB/;
    const failure = await huge.data().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(torch.OutOfMemoryError);
    expect(failure).toBeInstanceOf(DeviceRuntimeError);
    expect((failure as DeviceRuntimeError).codeName).toBe("RESOURCE_EXHAUSTED");
    expect((failure as Error).message).toMatch(named);
    expect(() => derived.dataSync()).toThrow(named);
    await expect(derived.sum().data()).rejects.toThrow(named);
    // The failure stays with those tensors: new work on the device is unaffected.
    const fine = one.add(2);
    expect((await fine.data())[0]).toBe(3);
    for (const t of [one, huge, derived, fine]) t.dispose();
  });

  it("5,000 reads awaited while the device thread computes their tensors resolve with the right values", async () => {
    // Each read is registered before its tensor is defined, so the device thread wakes the JS thread
    // for it; a wake-up that touched the read after the JS thread had settled it crashed the process.
    const exe = await torch.runtime.compile(`func.func public @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
      %0 = stablehlo.add %a, %b : tensor<4xf32>
      %1 = stablehlo.multiply %0, %b : tensor<4xf32>
      return %0, %1 : tensor<4xf32>, tensor<4xf32>
    }`);
    const b = torch.tensor(new Float32Array([10, 20, 30, 40]));
    for (let i = 0; i < 5000; i++) {
      const a = torch.tensor(new Float32Array([1, 2, 3, i]));
      const [sum, product] = await exe.run([a, b]);
      const [s, p] = [await sum!.data(), await product!.data()];
      if (s[3] !== i + 40 || p[3] !== (i + 40) * 40) expect([s[3], p[3]], `read ${i}`).toEqual([i + 40, (i + 40) * 40]);
      for (const t of [a, sum!, product!]) t.dispose();
    }
    b.dispose();
    exe.dispose();
  });

  it("tensors disposed while their work is queued free everything once it has run", async () => {
    const x = torch.tensor(Float32Array.from({ length: 1 << 16 }, (_, i) => i % 7));
    x.mul(2).add(x).dispose(); // compiles both units: cached executables are not leaks
    torch.runtime.synchronize();
    const { client, deviceIndex } = resolveDevice("cpu:0");
    const start = { memory: torch.memory(), native: addon().liveCounts(), device: client.native.memoryStats(deviceIndex)!.bytesInUse };
    let y = x.mul(2);
    for (let i = 0; i < 2000; i++) {
      const next = y.add(x); // y is disposed right after its last use is enqueued
      y.dispose();
      y = next;
    }
    // y = 2x + 2000x; every entry of x is a small integer, so float32 holds it exactly.
    const values = await y.data();
    for (const i of [0, 1, 6, 65535]) expect(values[i]).toBe((i % 7) * 2002);
    y.dispose();
    torch.runtime.synchronize();
    expect(torch.memory()).toEqual(start.memory);
    expect(addon().liveCounts()).toEqual(start.native);
    expect(client.native.memoryStats(deviceIndex)!.bytesInUse).toBe(start.device);
    x.dispose();
  });
});
