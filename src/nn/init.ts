/**
 * @file torch.nn.init: in-place initialisation of parameters (outside autograd), with PyTorch's
 * formulas for fans and gains, drawing from torch-pjrt's generators. orthogonal_ draws normals on
 * the tensor's device and does its QR decomposition on the host in float64 (init is rare and small
 * next to training); eye_ and dirac_ write exact values.
 */
import { noGrad } from "../autograd/grad_mode.js";
import { tidy } from "../memory.js";
import { eye } from "../ops/creation/eye.js";
import { empty } from "../ops/creation/filled.js";
import { tensor } from "../ops/creation/tensor.js";
import type { Generator } from "../random/generator.js";
import { bindNamed } from "../ops/signature/bind.js";
import { ArgumentError, ShapeError } from "../runtime/errors.js";
import type { Tensor } from "../tensor.js";

type Nonlinearity = "linear" | "conv1d" | "conv2d" | "conv3d" | "sigmoid" | "tanh" | "relu" | "leaky_relu" | "selu";

/** PyTorch's recommended gain for a nonlinearity (`calculate_gain`). */
export function calculateGain(nonlinearity: Nonlinearity, param?: number): number {
  switch (nonlinearity) {
    case "linear": case "conv1d": case "conv2d": case "conv3d": case "sigmoid": return 1;
    case "tanh": return 5 / 3;
    case "relu": return Math.SQRT2;
    case "leaky_relu": return Math.sqrt(2 / (1 + (param ?? 0.01) ** 2));
    case "selu": return 3 / 4;
    default: throw new ArgumentError(`calculateGain: unsupported nonlinearity "${String(nonlinearity)}"`);
  }
}

/** [fanIn, fanOut] of a weight [out, in, ...kernel]. */
export function fans(t: Tensor, op = "init"): [number, number] {
  if (t.ndim < 2) throw new ShapeError(`${op}: fan in and fan out cannot be computed for a tensor with fewer than 2 dimensions, got [${t.shape.join(", ")}]`);
  const receptive = t.shape.slice(2).reduce((a, b) => a * b, 1);
  return [t.shape[1]! * receptive, t.shape[0]! * receptive];
}

type Options = { generator?: Generator };

/** Binds an init function's arguments (PyTorch's order, or by name in one options object) against `signature`. */
const bind = (signature: string, args: readonly unknown[]) => bindNamed(signature, args, "nn.init.") as { tensor: Tensor } & Record<string, any>;
const drawOptions = (generator: Generator | undefined): Options => (generator ? { generator } : {});

/** U(a, b). `uniform_(t, a, b, { generator })` or `uniform_(t, { a, b, generator })`. */
export function uniform_(t: Tensor, a?: number | (Options & { a?: number; b?: number }), b?: number, options?: Options): Tensor;
export function uniform_(...args: unknown[]): Tensor {
  const { tensor, a, b, generator } = bind("uniform_(tensor: Tensor, a: float = 0, b: float = 1, *, generator?: Generator) -> Tensor", args);
  return noGrad(() => tensor.uniform_(a, b, drawOptions(generator)));
}

/** N(mean, std²). `normal_(t, mean, std, { generator })` or `normal_(t, { mean, std, generator })`. */
export function normal_(t: Tensor, mean?: number | (Options & { mean?: number; std?: number }), std?: number, options?: Options): Tensor;
export function normal_(...args: unknown[]): Tensor {
  const { tensor, mean, std, generator } = bind("normal_(tensor: Tensor, mean: float = 0, std: float = 1, *, generator?: Generator) -> Tensor", args);
  return noGrad(() => tensor.normal_(mean, std, drawOptions(generator)));
}

/** Every element `val`. */
export function constant_(t: Tensor, val: number | { val: number }): Tensor;
export function constant_(...args: unknown[]): Tensor {
  const { tensor, val } = bind("constant_(tensor: Tensor, val: float) -> Tensor", args);
  return noGrad(() => tensor.fill_(val));
}

export const zeros_ = (t: Tensor): Tensor => noGrad(() => t.zero_());
export const ones_ = (t: Tensor): Tensor => noGrad(() => t.fill_(1));

/** Glorot uniform: U(−a, a) with a = gain·√(6 / (fanIn + fanOut)). */
export function xavierUniform_(t: Tensor, gain?: number | (Options & { gain?: number }), options?: Options): Tensor;
export function xavierUniform_(...args: unknown[]): Tensor {
  const { tensor, gain, generator } = bind("xavierUniform_(tensor: Tensor, gain: float = 1, *, generator?: Generator) -> Tensor", args);
  const [fanIn, fanOut] = fans(tensor, "xavierUniform_");
  const a = gain * Math.sqrt(6 / (fanIn + fanOut));
  return uniform_(tensor, -a, a, drawOptions(generator));
}

/** Glorot normal: N(0, gain²·2 / (fanIn + fanOut)). */
export function xavierNormal_(t: Tensor, gain?: number | (Options & { gain?: number }), options?: Options): Tensor;
export function xavierNormal_(...args: unknown[]): Tensor {
  const { tensor, gain, generator } = bind("xavierNormal_(tensor: Tensor, gain: float = 1, *, generator?: Generator) -> Tensor", args);
  const [fanIn, fanOut] = fans(tensor, "xavierNormal_");
  return normal_(tensor, 0, gain * Math.sqrt(2 / (fanIn + fanOut)), drawOptions(generator));
}

/** PyTorch's spelling of the fan modes, and ours. */
type FanMode = "fan_in" | "fan_out" | "fanIn" | "fanOut";
interface KaimingOptions extends Options {
  a?: number;
  mode?: FanMode;
  nonlinearity?: Nonlinearity;
}
const kaimingSignature = (name: string) =>
  `${name}(tensor: Tensor, a: float = 0, mode: "fan_in" | "fan_out" | "fanIn" | "fanOut" = "fan_in", nonlinearity: str = "leaky_relu", *, generator?: Generator) -> Tensor`;

function kaimingStd(t: Tensor, op: string, a: number, mode: FanMode, nonlinearity: Nonlinearity): number {
  const [fanIn, fanOut] = fans(t, op);
  return calculateGain(nonlinearity, a) / Math.sqrt(mode === "fan_in" || mode === "fanIn" ? fanIn : fanOut);
}

/** He uniform: U(−b, b) with b = gain·√(3 / fan) (`a` is leaky_relu's slope). */
export function kaimingUniform_(t: Tensor, a?: number | KaimingOptions, mode?: FanMode, nonlinearity?: Nonlinearity, options?: Options): Tensor;
export function kaimingUniform_(...args: unknown[]): Tensor {
  const { tensor, a, mode, nonlinearity, generator } = bind(kaimingSignature("kaimingUniform_"), args);
  const bound = Math.sqrt(3) * kaimingStd(tensor, "kaimingUniform_", a, mode, nonlinearity);
  return uniform_(tensor, -bound, bound, drawOptions(generator));
}

/** He normal: N(0, gain² / fan). */
export function kaimingNormal_(t: Tensor, a?: number | KaimingOptions, mode?: FanMode, nonlinearity?: Nonlinearity, options?: Options): Tensor;
export function kaimingNormal_(...args: unknown[]): Tensor {
  const { tensor, a, mode, nonlinearity, generator } = bind(kaimingSignature("kaimingNormal_"), args);
  return normal_(tensor, 0, kaimingStd(tensor, "kaimingNormal_", a, mode, nonlinearity), drawOptions(generator));
}

/** Writes row-major float64 `values` into `t` (converted to its dtype on the host, then copied in place). */
function writeHost(t: Tensor, values: Float64Array): Tensor {
  const src = tensor(values, { dtype: t.dtype, device: t.device, shape: [...t.shape] });
  try {
    return t.copy_(src);
  } finally {
    src.dispose();
  }
}

/** The identity matrix (ones on the diagonal of a 2-d tensor, zeros elsewhere), as PyTorch's eye_. */
export function eye_(t: Tensor): Tensor {
  if (t.ndim !== 2) throw new ShapeError(`eye_: only tensors with 2 dimensions are supported, got [${t.shape.join(", ")}]`);
  return noGrad(() => {
    const id = eye(t.shape[0]!, t.shape[1]!, { dtype: t.dtype, device: t.device });
    try {
      return t.copy_(id);
    } finally {
      id.dispose();
    }
  });
}

/**
 * The Dirac delta for a convolution weight [out, in, ...kernel] (3-d, 4-d or 5-d): 1 at the kernel's
 * centre where output channel (within its group) equals input channel, 0 elsewhere, so the convolution
 * passes its input through (as many channels as fit, per group).
 */
export function dirac_(t: Tensor, groups?: number | { groups?: number }): Tensor;
export function dirac_(...args: unknown[]): Tensor {
  const { tensor: t, groups } = bind("dirac_(tensor: Tensor, groups: int = 1) -> Tensor", args);
  if (t.ndim < 3 || t.ndim > 5) throw new ShapeError(`dirac_: only tensors with 3, 4, or 5 dimensions are supported, got [${t.shape.join(", ")}]`);
  if (!Number.isInteger(groups) || groups < 1 || t.shape[0]! % groups !== 0) throw new ArgumentError(`dirac_: dim 0 (${t.shape[0]}) must be divisible by groups (${String(groups)})`);
  const perGroup = t.shape[0]! / groups;
  const kernel = t.shape.slice(2);
  const strides = t.shape.map((_, i) => t.shape.slice(i + 1).reduce((a, b) => a * b, 1));
  const centre = kernel.reduce((at, k, i) => at + Math.floor(k / 2) * strides[i + 2]!, 0);
  const values = new Float64Array(t.numel());
  for (let g = 0; g < groups; g++) {
    for (let d = 0; d < Math.min(perGroup, t.shape[1]!); d++) values[(g * perGroup + d) * strides[0]! + d * strides[1]! + centre] = 1;
  }
  return noGrad(() => writeHost(t, values));
}

interface TruncNormalOptions extends Options {
  mean?: number;
  std?: number;
  /** The lower cutoff (default −2). */
  a?: number;
  /** The upper cutoff (default 2). */
  b?: number;
}

/** erf in float64: its Maclaurin series for |x| < 3, else 1 − erfc by erfc's continued fraction. */
function erf64(x: number): number {
  const ax = Math.abs(x);
  if (ax < 3) {
    let term = x;
    let sum = x;
    for (let n = 1; n < 100 && Math.abs(term) > 1e-17 * Math.abs(sum); n++) {
      term *= (-x * x) / n;
      sum += term / (2 * n + 1);
    }
    return (2 / Math.sqrt(Math.PI)) * sum;
  }
  if (!Number.isFinite(ax)) return Math.sign(x);
  let f = ax;
  for (let k = 60; k >= 1; k--) f = ax + k / 2 / f;
  return Math.sign(x) * (1 - Math.exp(-ax * ax) / (Math.sqrt(Math.PI) * f));
}

/** The standard normal's CDF. */
const normalCdf = (x: number): number => (1 + erf64(x / Math.SQRT2)) / 2;

/**
 * Values from N(mean, std²) truncated to [a, b] (PyTorch's trunc_normal_): uniform draws in
 * [2Φ(α) − 1, 2Φ(β) − 1] mapped through erfinv (the inverse CDF), scaled by std·√2, shifted by mean
 * and clamped to [a, b]. `truncNormal_(t, mean, std, a, b, { generator })` or `truncNormal_(t, { mean, std, a, b, generator })`.
 */
export function truncNormal_(t: Tensor, mean?: number | TruncNormalOptions, std?: number, a?: number, b?: number, options?: Options): Tensor;
export function truncNormal_(...args: unknown[]): Tensor {
  const { tensor: t, mean: m, std: s, a: lo, b: hi, generator } = bind("truncNormal_(tensor: Tensor, mean: float = 0, std: float = 1, a: float = -2, b: float = 2, *, generator?: Generator) -> Tensor", args);
  for (const [name, v] of [["mean", m], ["std", s], ["a", lo], ["b", hi]] as const) {
    if (Number.isNaN(v)) throw new ArgumentError(`truncNormal_: ${name} must be a number, got NaN`);
  }
  if (!(s > 0) || !Number.isFinite(s)) throw new ArgumentError(`truncNormal_: std must be positive and finite, got ${s}`);
  if (!(lo < hi)) throw new ArgumentError(`truncNormal_: the cutoffs must satisfy a < b, got a = ${lo} and b = ${hi}`);
  const l = normalCdf((lo - m) / s);
  const u = normalCdf((hi - m) / s);
  return noGrad(() => {
    tidy(() => {
      t.uniform_(2 * l - 1, 2 * u - 1, drawOptions(generator));
      t.copy_(t.erfinv().mul(s * Math.SQRT2).add(m).clamp(lo, hi));
    });
    return t;
  });
}

/** Householder QR of a row-major m×n matrix (m ≥ n), in float64: [Q (m×n, orthonormal columns), diag(R)]. */
function householderQr(a: Float64Array, m: number, n: number): [Float64Array, Float64Array] {
  const r = Float64Array.from(a);
  const vs: Float64Array[] = [];
  const diag = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const v = new Float64Array(m - k);
    let norm = 0;
    for (let i = k; i < m; i++) norm += r[i * n + k]! ** 2;
    norm = Math.sqrt(norm);
    const x0 = r[k * n + k]!;
    const alpha = x0 >= 0 ? -norm : norm;
    diag[k] = norm === 0 ? 0 : alpha;
    for (let i = k; i < m; i++) v[i - k] = r[i * n + k]!;
    v[0] = v[0]! - alpha;
    let vnorm = 0;
    for (const x of v) vnorm += x * x;
    vnorm = Math.sqrt(vnorm);
    if (norm === 0 || vnorm === 0) {
      vs.push(new Float64Array(m - k)); // nothing to reflect: H = I
      continue;
    }
    for (let i = 0; i < v.length; i++) v[i] = v[i]! / vnorm;
    vs.push(v);
    for (let j = k; j < n; j++) {
      let dot = 0;
      for (let i = k; i < m; i++) dot += v[i - k]! * r[i * n + j]!;
      for (let i = k; i < m; i++) r[i * n + j] = r[i * n + j]! - 2 * v[i - k]! * dot;
    }
  }
  // Q = H₀ H₁ … Hₙ₋₁ applied to the first n columns of the identity
  const q = new Float64Array(m * n);
  for (let j = 0; j < n; j++) q[j * n + j] = 1;
  for (let k = n - 1; k >= 0; k--) {
    const v = vs[k]!;
    for (let j = 0; j < n; j++) {
      let dot = 0;
      for (let i = k; i < m; i++) dot += v[i - k]! * q[i * n + j]!;
      for (let i = k; i < m; i++) q[i * n + j] = q[i * n + j]! - 2 * v[i - k]! * dot;
    }
  }
  return [q, diag];
}

/**
 * A (semi-)orthogonal matrix times `gain` (PyTorch's orthogonal_): t viewed as rows × cols (rows =
 * its first dim), filled from N(0, 1) draws, decomposed Q·R (of the transpose when rows < cols), Q's
 * columns multiplied by the signs of R's diagonal (so the result does not depend on the QR
 * algorithm's sign choices), transposed back. Rows are orthonormal when rows ≤ cols, columns when rows ≥ cols.
 */
export function orthogonal_(t: Tensor, gain?: number | (Options & { gain?: number }), options?: Options): Tensor;
export function orthogonal_(...args: unknown[]): Tensor {
  const { tensor: t, gain, generator } = bind("orthogonal_(tensor: Tensor, gain: float = 1, *, generator?: Generator) -> Tensor", args);
  if (t.ndim < 2) throw new ShapeError(`orthogonal_: only tensors with 2 or more dimensions are supported, got [${t.shape.join(", ")}]`);
  if (Number.isNaN(gain)) throw new ArgumentError("orthogonal_: gain must be a number, got NaN");
  if (t.numel() === 0) return t;
  const rows = t.shape[0]!;
  const cols = t.numel() / rows;
  const draws = noGrad(() => empty([rows, cols], { device: t.device }).normal_(0, 1, drawOptions(generator)));
  let flat: Float64Array;
  try {
    flat = Float64Array.from(draws.dataSync() as Float32Array);
  } finally {
    draws.dispose();
  }
  const wide = rows < cols;
  const [m, n] = wide ? [cols, rows] : [rows, cols];
  const a = wide ? new Float64Array(m * n) : flat;
  if (wide) for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) a[j * n + i] = flat[i * cols + j]!;
  const [q, d] = householderQr(a, m, n);
  const out = new Float64Array(rows * cols);
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < n; j++) {
      const v = q[i * n + j]! * Math.sign(d[j]!) * gain;
      if (wide) out[j * cols + i] = v;
      else out[i * cols + j] = v;
    }
  }
  return noGrad(() => writeHost(t, out));
}
