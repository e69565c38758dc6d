// Deterministic inputs both sides can rebuild: value i of stream `seed` is a fixed function of
// integers only, so the PyTorch peer (benchmarks/suite/peer.py, same formula) starts from the same
// numbers and the runner can compare results across processes.
export function detValues(n, seed, scale = 1) {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = ((((i * 7919 + seed * 104729) % 10007) / 10007) - 0.5) * scale;
  return out;
}

/** The middle value; the mean of the two middle ones for an even count (as Python's statistics.median). */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** timeIt's default minimum time per measurement; the runner lowers it when it measures several rounds. */
export const timing = { minMs: 1000 };

/** Runs `once` after `warmup` calls until `minReps` samples and `minMs` elapsed (or `maxMs`); median ms. */
export function timeIt(once, { warmup = 1, minReps = 5, minMs = timing.minMs, maxMs = 20000 } = {}) {
  for (let i = 0; i < warmup; i++) once();
  const times = [];
  const start = performance.now();
  while (times.length < minReps || performance.now() - start < minMs) {
    const t0 = performance.now();
    once();
    times.push(performance.now() - t0);
    if (performance.now() - start > maxMs) break;
  }
  return { ms: median(times), reps: times.length };
}
