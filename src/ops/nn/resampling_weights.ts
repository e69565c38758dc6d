/**
 * @file The per-dim weights of nn.functional.interpolate, with PyTorch's CPU index rules: each mode maps
 * output j of a dim to input taps and weights, an [in, out] matrix (for the nearest modes, one source
 * index per output). `round` is the rounding of the kernel's arithmetic (Math.fround where PyTorch
 * computes in float32).
 */

/** How one dim is resized; `scaleFactor` is the user's factor when PyTorch hands it to its kernel. */
export interface Axis {
  size: number;
  out: number;
  scaleFactor: number | undefined;
  alignCorners: boolean;
  round: (v: number) => number;
}

/** Output to input coordinate ratio (PyTorch's area_pixel_compute_scale). */
function ratio({ size, out, scaleFactor, alignCorners, round }: Axis): number {
  if (alignCorners) return out > 1 ? round((size - 1) / (out - 1)) : 0;
  return scaleFactor !== undefined && scaleFactor > 0 ? round(1 / scaleFactor) : round(size / out);
}

/**
 * The source index of each output: `nearest` floors j·scale, `nearest-exact` (j + 0.5)·scale, in float32.
 * PyTorch's 2-d nearest kernel (`planar`) copies a dim kept at its size and halves indices for a doubled one,
 * whatever the scale factor.
 */
export function nearestIndices(exact: boolean, planar: boolean, a: Axis): number[] {
  const { size, out } = a;
  if (planar && !exact && (out === size || out === 2 * size)) return Array.from({ length: out }, (_, j) => (out === size ? j : j >> 1));
  const f = Math.fround;
  const scale = ratio({ ...a, alignCorners: false, round: f });
  return Array.from({ length: out }, (_, j) => Math.min(Math.floor(f((exact ? j + 0.5 : j) * scale)), size - 1));
}

const identity = (n: number): number[] => Array.from({ length: n * n }, (_, k) => (k % (n + 1) === 0 ? 1 : 0));

/** Two taps: floor(src) and the next one (the last input repeats), src clamped at 0; same sizes copy. */
export function linearWeights(a: Axis): number[] {
  const { size, out, alignCorners, round } = a;
  if (!alignCorners && out === size) return identity(size);
  const scale = ratio(a);
  const m = new Array<number>(size * out).fill(0);
  for (let j = 0; j < out; j++) {
    const src = alignCorners ? round(scale * j) : Math.max(round(scale * (j + 0.5) - 0.5), 0);
    const i0 = Math.min(Math.floor(src), size - 1);
    const t = Math.min(Math.max(round(src - i0), 0), 1);
    m[i0 * out + j] += round(1 - t);
    m[(i0 < size - 1 ? i0 + 1 : i0) * out + j] += t;
  }
  return m;
}

const A = -0.75; // PyTorch's cubic convolution constant
const nearCubic = (x: number): number => ((A + 2) * x - (A + 3)) * x * x + 1; // |x| <= 1
const farCubic = (x: number): number => ((A * x - 5 * A) * x + 8 * A) * x - 4 * A; // 1 < |x| < 2

/** Four taps around floor(src) (src not clamped), indices clamped to the border. */
export function cubicWeights(a: Axis): number[] {
  const { size, out, alignCorners, round } = a;
  const scale = ratio(a);
  const m = new Array<number>(size * out).fill(0);
  for (let j = 0; j < out; j++) {
    const src = alignCorners ? round(scale * j) : round(scale * (j + 0.5) - 0.5);
    const i0 = Math.floor(src);
    const t = round(src - i0);
    [farCubic(t + 1), nearCubic(t), nearCubic(1 - t), farCubic(2 - t)].forEach((w, k) => {
      m[Math.min(Math.max(i0 - 1 + k, 0), size - 1) * out + j] += round(w);
    });
  }
  return m;
}

/** Adaptive average pooling: output j averages inputs [floor(j·in/out), ceil((j+1)·in/out)). */
export function areaWeights({ size, out }: Axis): number[] {
  const m = new Array<number>(size * out).fill(0);
  for (let j = 0; j < out; j++) {
    const start = Math.floor((j * size) / out);
    const end = Math.ceil(((j + 1) * size) / out);
    for (let i = start; i < end; i++) m[i * out + j] = 1 / (end - start);
  }
  return m;
}

const sinc = (x: number): number => (x === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x));
/** The antialiasing filters (Pillow's, as PyTorch uses them) and their support in input pixels at scale 1. */
const FILTERS = {
  bilinear: { support: 1, at: (x: number) => Math.max(0, 1 - Math.abs(x)) },
  bicubic: {
    support: 2,
    at: (x: number) => {
      const ax = Math.abs(x);
      const a = -0.5;
      return ax < 1 ? ((a + 2) * ax - (a + 3)) * ax * ax + 1 : ax < 2 ? (((ax - 5) * ax + 8) * ax - 4) * a : 0;
    },
  },
  lanczos: { support: 3, at: (x: number) => (Math.abs(x) < 3 ? sinc(x) * sinc(x / 3) : 0) },
} as const;

/**
 * Antialiased weights: the filter stretched by the downscaling ratio (so every input pixel counts),
 * over the taps whose centres fall within its support, normalised to sum to 1; same sizes copy.
 */
export function antialiasWeights(mode: keyof typeof FILTERS, a: Axis): number[] {
  const { size, out } = a;
  if (out === size) return identity(size);
  const scale = ratio(a);
  const { support, at } = FILTERS[mode];
  const reach = scale >= 1 ? support * scale : support;
  const stretch = scale >= 1 ? 1 / scale : 1;
  const m = new Array<number>(size * out).fill(0);
  for (let j = 0; j < out; j++) {
    const center = scale * (j + 0.5);
    const lo = Math.max(Math.trunc(center - reach + 0.5), 0);
    const hi = Math.min(Math.trunc(center + reach + 0.5), size);
    const w = Array.from({ length: Math.max(hi - lo, 0) }, (_, k) => at((lo + k - center + 0.5) * stretch));
    const total = w.reduce((s, v) => s + v, 0);
    w.forEach((v, k) => (m[(lo + k) * out + j] = total !== 0 ? v / total : v));
  }
  return m;
}
