/**
 * @file Random ops: rand, randn, randint, randperm, normal, bernoulli, multinomial, the *Like forms
 * and the in-place uniform_/normal_. Each draw takes the next key of its generator (the default
 * one unless `{ generator }`) and runs one unit with that key as an input tensor; the numbers are
 * computed on the device from the key by Threefry (src/random/), so a seed gives the same numbers
 * on every device and matches jax.random (see the README for the exact correspondence).
 */
import { fromHost } from "../../creation.js";
import { type DType, defaultFloatDType, defaultIntDType, dtypeInfo, dtypes, isFloating, promoteTypes } from "../../dtype.js";
import { parseDevice } from "../../device.js";
import { randint as randintBody, standardNormal, uniform } from "../../random/distributions.js";
import { defaultGenerator, Generator } from "../../random/generator.js";
import { bits64 } from "../../random/threefry.js";
import { resolveDevice } from "../../runtime/clients.js";
import { ArgumentError, DTypeError, ShapeError } from "../../runtime/errors.js";
import { Tensor } from "../../tensor.js";
import { dispatch1 } from "../../trace/eager.js";
import { bind1, type Tracer } from "../../trace/tracer.js";
import * as e from "../emit.js";
import { broadcastShapes, fmtShape } from "../dims.js";
import { checkTensor, lift } from "../unit.js";
import { assignInPlace } from "./inplace.js";

type Shape = readonly number[];
type T = Tracer;
type DeviceOpt = string | { type: string; index: number };

export interface RandomOptions {
  generator?: Generator;
  dtype?: DType;
  device?: DeviceOpt;
}

function checkOptions(op: string, options: unknown, allowed: readonly string[]): RandomOptions & Record<string, unknown> {
  if (options === undefined) return {};
  if (typeof options !== "object" || options === null || Array.isArray(options) || options instanceof Tensor) {
    throw new ArgumentError(`${op}: options must be an object, got ${String(options)}`);
  }
  for (const k of Object.keys(options)) {
    if (!allowed.includes(k)) throw new ArgumentError(`${op}: unknown option '${k}' (expected ${allowed.join(", ")})`);
  }
  const o = options as RandomOptions & Record<string, unknown>;
  if (o.generator !== undefined && !(o.generator instanceof Generator)) throw new ArgumentError(`${op}: generator must be a torch.Generator`);
  if (o.dtype !== undefined) dtypeInfo(o.dtype);
  if (o.device !== undefined) parseDevice(o.device);
  return o;
}

const CREATION_KEYS = ["generator", "dtype", "device"] as const;

function isOptions(v: unknown): boolean {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Tensor);
}

function checkShape(op: string, list: readonly unknown[]): number[] {
  for (const d of list) {
    if (typeof d !== "number" || !Number.isInteger(d) || d < 0) throw new ShapeError(`${op}: sizes must be non-negative integers, got [${list.map(String).join(", ")}]`);
  }
  return list as number[];
}

/** rand(2, 3), rand([2, 3]), rand([2, 3], { dtype }). */
function sizeArgs(op: string, args: readonly unknown[]): [number[], RandomOptions] {
  const last = args[args.length - 1];
  const opts = args.length > 0 && isOptions(last) ? last : undefined;
  const rest = opts === undefined ? args : args.slice(0, -1);
  const list = rest.length === 1 && Array.isArray(rest[0]) ? [...(rest[0] as unknown[])] : [...rest];
  return [checkShape(op, list), checkOptions(op, opts, CREATION_KEYS)];
}

function floatDType(op: string, dtype: DType | undefined): DType {
  const d = dtype ?? defaultFloatDType;
  if (!isFloating(d)) throw new DTypeError(`${op}: "${op}" is not implemented for ${d}; random floats need a floating dtype (float32, float64, float16, bfloat16)`);
  return d;
}

/**
 * Runs one random unit: the next key of the generator becomes a uint32[2] input (so the executable
 * is reused for every draw), followed by `inputs`.
 */
export function draw(op: string, statics: string, device: string, generator: Generator | undefined, inputs: readonly Tensor[], body: (key: T, xs: T[]) => T): Tensor {
  const [k0, k1] = (generator ?? defaultGenerator).nextKey();
  const key = fromHost(Uint32Array.of(k0, k1), "uint32", [2], device);
  try {
    return dispatch1(op, statics, [key, ...inputs], ([k, ...xs]) => body(k!, xs), device);
  } finally {
    key.dispose();
  }
}

const deviceName = (device: DeviceOpt | undefined): string => resolveDevice(device).name;

/** Uniform floats in [0, 1). */
export function rand(...args: (number | Shape | RandomOptions)[]): Tensor {
  const [shape, o] = sizeArgs("rand", args);
  const dtype = floatDType("rand", o.dtype);
  return draw("rand", `${dtype}|${shape}`, deviceName(o.device), o.generator, [], (k) => uniform(k, shape, dtype));
}

/** Standard normal floats. */
export function randn(...args: (number | Shape | RandomOptions)[]): Tensor {
  const [shape, o] = sizeArgs("randn", args);
  const dtype = floatDType("randn", o.dtype);
  return draw("randn", `${dtype}|${shape}`, deviceName(o.device), o.generator, [], (k) => standardNormal(k, shape, dtype));
}

function toBigInt(op: string, what: string, v: unknown): bigint {
  if (typeof v === "bigint") return v;
  if (typeof v === "number" && Number.isSafeInteger(v)) return BigInt(v);
  throw new ArgumentError(`${op}: ${what} must be an integer, got ${String(v)}`);
}

function randintTensor(op: string, low: bigint, high: bigint, shape: Shape, o: RandomOptions): Tensor {
  const dtype = o.dtype ?? defaultIntDType;
  const info = dtypes[dtype];
  if (info.kind === "bool") throw new DTypeError(`${op}: "random_from_to" is not implemented for bool`);
  if (low >= high) throw new ArgumentError(`${op}: random_ expects 'from' to be less than 'to', but got from=${low} >= to=${high}`);
  if (info.kind !== "float") {
    const bits = BigInt(info.itemSize * 8);
    const [min, max] = info.kind === "int" ? [-(1n << (bits - 1n)), (1n << (bits - 1n)) - 1n] : [0n, (1n << bits) - 1n];
    if (low < min || high - 1n > max) throw new ArgumentError(`${op}: [${low}, ${high}) does not fit in ${dtype} (values ${min} to ${max})`);
  }
  if (high - low > 1n << 32n && info.itemSize !== 8) throw new ArgumentError(`${op}: a range wider than 2^32 needs a 64-bit dtype`);
  if (high - low > 1n << 63n) throw new ArgumentError(`${op}: the range [${low}, ${high}) is wider than 2^63`);
  const compute: DType = info.kind === "float" ? (info.itemSize === 8 ? "int64" : "int32") : dtype;
  return draw(op, `${dtype}|${shape}|${low}|${high}`, deviceName(o.device), o.generator, [], (k) =>
    e.convert(randintBody(k, shape, low, high, compute), dtype),
  );
}

/**
 * Integers uniform in [low, high): randint(high, size), randint(low, high, size), each with
 * { dtype (int64), device, generator }.
 */
export function randint(...args: (number | bigint | Shape | RandomOptions)[]): Tensor {
  const o = args.length > 0 && isOptions(args[args.length - 1]) ? checkOptions("randint", args[args.length - 1], CREATION_KEYS) : {};
  const rest = isOptions(args[args.length - 1]) ? args.slice(0, -1) : args;
  const size = rest[rest.length - 1];
  const bounds = rest.slice(0, -1);
  if (!Array.isArray(size) || bounds.length < 1 || bounds.length > 2) {
    throw new ArgumentError("randint: expected randint(high, size) or randint(low, high, size) with size an array, e.g. randint(0, 10, [3])");
  }
  const low = bounds.length === 2 ? toBigInt("randint", "low", bounds[0]) : 0n;
  const high = toBigInt("randint", "high", bounds[bounds.length - 1]);
  return randintTensor("randint", low, high, checkShape("randint", size), o);
}

/**
 * A random permutation of 0..n−1 (int64 unless `dtype`): positions 0..n−1 sorted by 64 random bits
 * each. The sort is stable, so the result is a permutation even if two keys tie; with 64-bit keys a
 * tie (which would keep those two in order) has probability about n²/2⁶⁵.
 */
export function randperm(n: number, options?: RandomOptions): Tensor {
  const o = checkOptions("randperm", options, CREATION_KEYS);
  if (!Number.isInteger(n) || n < 0) throw new ArgumentError(`randperm: n must be a non-negative integer, got ${String(n)}`);
  const dtype = o.dtype ?? defaultIntDType;
  const info = dtypes[dtype];
  if (info.kind === "bool") throw new DTypeError("randperm: bool is not a valid dtype");
  const max = info.kind === "float" ? Infinity : 2 ** (info.itemSize * 8 - (info.kind === "int" ? 1 : 0)) - 1;
  if (n - 1 > max) throw new ArgumentError(`randperm: n = ${n} values do not fit in ${dtype} (largest ${max}); use a wider dtype (int64)`);
  return draw("randperm", `${dtype}|${n}`, deviceName(o.device), o.generator, [], (k) => permutationBySort(k, n, dtype));
}

/** The unit body of randperm: 0..n−1 in the order of their random 64-bit keys. */
export function permutationBySort(key: T, n: number, dtype: DType): T {
  const [, positions] = e.sortAlong([bits64(key, [n]), e.iota("int64", [n], 0)], 0, false);
  return e.convert(positions!, dtype);
}

// --- distributions with tensor parameters -----------------------------------------------------------

type Param = number | Tensor;

/**
 * normal(mean, std, size?, options?): mean and std are numbers or tensors (shapes broadcast);
 * with two numbers, `size` gives the shape.
 */
export function normal(mean: Param, std: Param, ...rest: (Shape | RandomOptions)[]): Tensor {
  const size = Array.isArray(rest[0]) ? (rest[0] as Shape) : undefined;
  const o = checkOptions("normal", isOptions(rest[rest.length - 1]) ? rest[rest.length - 1] : undefined, CREATION_KEYS);
  const tensors = [mean, std].filter((p): p is Tensor => p instanceof Tensor);
  for (const p of [mean, std]) if (!(p instanceof Tensor) && typeof p !== "number") throw new ArgumentError(`normal: mean and std must be numbers or Tensors, got ${String(p)}`);
  tensors.forEach((t) => checkTensor("normal", t));
  if (typeof std === "number" && !(std >= 0)) throw new ArgumentError(`normal: expects std >= 0.0, but found std ${std}`);
  if (tensors.length === 0) {
    if (size === undefined) throw new ArgumentError("normal: with a number mean and std, pass the size: normal(0, 1, [2, 3])");
    const shape = checkShape("normal", size);
    const dtype = floatDType("normal", o.dtype);
    const [m, s] = [mean as number, std as number];
    return draw("normal", `${dtype}|${shape}|${m}|${s}`, deviceName(o.device), o.generator, [], (k) =>
      e.add(e.mul(standardNormal(k, shape, dtype), e.full(s, dtype, shape)), e.full(m, dtype, shape)),
    );
  }
  if (size !== undefined) throw new ArgumentError("normal: size is only for number mean and std; the tensor's shape gives the result's shape");
  const dtype = tensors.map((t) => t.dtype).reduce(promoteTypes);
  if (tensors.some((t) => !isFloating(t.dtype))) throw new DTypeError(`normal: mean and std tensors must be floating point, got ${tensors.map((t) => t.dtype).join(" and ")}`);
  const shape = broadcastShapes("normal", ...tensors.map((t) => t.shape));
  const statics = `${dtype}|${typeof mean === "number" ? mean : "T"}|${typeof std === "number" ? std : "T"}`;
  return draw("normal", statics, tensors[0]!.device, o.generator, tensors, (k, xs) => {
    let i = 0;
    const m = typeof mean === "number" ? mean : xs[i++]!;
    const s = typeof std === "number" ? std : xs[i++]!;
    return e.add(e.mul(standardNormal(k, shape, dtype), lift(s, dtype, shape)), lift(m, dtype, shape));
  });
}

/** 1 with probability `input` (or options.p), else 0, in input's dtype. */
export function bernoulli(input: Tensor, options?: { p?: number; generator?: Generator }): Tensor {
  checkTensor("bernoulli", input);
  const o = checkOptions("bernoulli", options, ["p", "generator"]);
  const p = o.p as number | undefined;
  if (p !== undefined && (typeof p !== "number" || !(p >= 0 && p <= 1))) throw new ArgumentError(`bernoulli: expects 0 <= p <= 1, but got p=${String(p)}`);
  if (!isFloating(input.dtype) && p === undefined) throw new DTypeError(`bernoulli: probabilities must be a floating tensor, got ${input.dtype}`);
  const shape = input.shape;
  return draw("bernoulli", `${p ?? "T"}`, input.device, o.generator, [input], (k, [x]) => {
    const compute = isFloating(x!.dtype) ? x!.dtype : defaultFloatDType;
    const prob = p === undefined ? x! : e.full(p, compute, shape);
    const hit = e.compare(uniform(k, shape, compute), prob, "LT");
    return e.convert(hit, x!.dtype);
  });
}

/**
 * Samples category indices (int64) from rows of non-negative weights (1-d [k] or 2-d [n, k]).
 * With replacement: inverse CDF (prefix sums of the weights). Without: Gumbel-top-k, the
 * numSamples largest of log(w) + Gumbel noise.
 */
export function multinomial(input: Tensor, numSamples: number, options?: { replacement?: boolean; generator?: Generator }): Tensor {
  checkTensor("multinomial", input);
  const o = checkOptions("multinomial", options, ["replacement", "generator"]);
  const replacement = Boolean(o.replacement);
  if (input.ndim !== 1 && input.ndim !== 2) throw new ShapeError(`multinomial: prob_dist must be 1 or 2 dim, got ${fmtShape(input.shape)}`);
  if (!isFloating(input.dtype)) throw new DTypeError(`multinomial: only supports floating-point dtypes for input, got ${input.dtype}`);
  if (!Number.isInteger(numSamples) || numSamples <= 0) throw new ArgumentError(`multinomial: cannot sample n_sample <= 0 samples (got ${String(numSamples)})`);
  const k = input.shape[input.ndim - 1]!;
  if (k === 0) throw new ShapeError("multinomial: the number of categories cannot be zero");
  if (!replacement && numSamples > k) {
    throw new ArgumentError(`multinomial: cannot sample n_sample (${numSamples}) > prob_dist.size(-1) (${k}) samples without replacement`);
  }
  const rows = input.ndim === 2 ? input.shape[0]! : 1;
  const outShape = input.ndim === 2 ? [rows, numSamples] : [numSamples];
  return draw("multinomial", `${numSamples}|${replacement}`, input.device, o.generator, [input], (key, [x]) => {
    const dtype = x!.dtype === "float64" ? "float64" : "float32";
    const w = e.reshape(e.convert(x!, dtype), [rows, k]);
    const idx = replacement ? sampleWithReplacement(key, w, numSamples) : sampleWithoutReplacement(key, w, numSamples);
    return e.reshape(idx, outShape);
  });
}

/** [rows, k] weights → [rows, s] int64 indices: the first category whose CDF exceeds u·total. */
export function sampleWithReplacement(key: T, w: T, s: number): T {
  const [rows, k] = w.shape as [number, number];
  const dtype = w.dtype;
  const cdf = prefixSums(w);
  const total = e.reduce("sum", w, [1]); // [rows]
  const u = e.mul(uniform(key, [rows, s], dtype), e.broadcastInDim(total, [rows, s], [0]));
  const below = e.compare(e.broadcastInDim(cdf, [rows, s, k], [0, 2]), e.broadcastInDim(u, [rows, s, k], [0, 1]), "LE");
  const count = e.reduce("sum", e.convert(below, "int64"), [2]);
  return e.min(count, e.full(k - 1, "int64", [rows, s]));
}

/** Inclusive prefix sums along the last dim of [rows, k] in ⌈log2 k⌉ shifted adds (Hillis–Steele). */
function prefixSums(x: T): T {
  const [rows, k] = x.shape as [number, number];
  const zero = e.full(0, x.dtype);
  let sums = x;
  for (let step = 1; step < k; step *= 2) {
    const padded = bind1("pad", [sums, zero], { low: [0, step], high: [0, 0], interior: [0, 0] });
    const shifted = bind1("slice", [padded], { start: [0, 0], limit: [rows, k], strides: [1, 1] });
    sums = e.add(sums, shifted);
  }
  return sums;
}

/**
 * [rows, k] weights → [rows, s] distinct int64 indices: the s largest of log(w) + Gumbel noise
 * (Gumbel-top-k, one sort per row), which is sampling without replacement in weight proportion.
 */
export function sampleWithoutReplacement(key: T, w: T, s: number): T {
  const [rows, k] = w.shape as [number, number];
  const dtype = w.dtype;
  const u = uniform(key, [rows, k], dtype);
  const gumbel = e.neg(e.log(e.neg(e.log(e.sub(e.full(1, dtype, [rows, k]), u)))));
  const scores = e.add(e.log(w), gumbel);
  const [, order] = e.sortAlong([scores, e.iota("int64", [rows, k], 1)], 1, true);
  return e.slice(order!, [0, 0], [rows, s]);
}

// --- *Like and in-place ---------------------------------------------------------------------------

function likeOptions(op: string, x: Tensor, options: unknown): RandomOptions {
  checkTensor(op, x);
  const o = checkOptions(op, options, CREATION_KEYS);
  return { ...o, dtype: o.dtype ?? x.dtype, device: o.device ?? x.device };
}

export function randLike(x: Tensor, options?: RandomOptions): Tensor {
  return rand([...x.shape], likeOptions("randLike", x, options));
}

export function randnLike(x: Tensor, options?: RandomOptions): Tensor {
  return randn([...x.shape], likeOptions("randnLike", x, options));
}

/** randintLike(x, high) or randintLike(x, low, high), with options. */
export function randintLike(x: Tensor, ...args: (number | bigint | RandomOptions)[]): Tensor {
  const opts = isOptions(args[args.length - 1]) ? (args[args.length - 1] as RandomOptions) : undefined;
  const bounds = opts === undefined ? args : args.slice(0, -1);
  if (bounds.length < 1 || bounds.length > 2) throw new ArgumentError("randintLike: expected randintLike(x, high) or randintLike(x, low, high)");
  const low = bounds.length === 2 ? toBigInt("randintLike", "low", bounds[0]) : 0n;
  const high = toBigInt("randintLike", "high", bounds[bounds.length - 1]);
  return randintTensor("randintLike", low, high, x.shape, likeOptions("randintLike", x, opts));
}

/** Two optional numbers, then options: (a?, b?, { generator }?). */
function pairArgs(op: string, args: readonly unknown[], defaults: [number, number]): [number, number, Generator | undefined] {
  const opts = isOptions(args[args.length - 1]) ? args[args.length - 1] : undefined;
  const nums = opts === undefined ? args : args.slice(0, -1);
  const o = checkOptions(op, opts, ["generator"]);
  if (nums.length > 2 || nums.some((v) => typeof v !== "number")) throw new ArgumentError(`${op}: expected up to two numbers and { generator }`);
  return [(nums[0] as number | undefined) ?? defaults[0], (nums[1] as number | undefined) ?? defaults[1], o.generator];
}

/** Fills with uniform values in [from, to): x.uniform_(), x.uniform_(-1, 1, { generator }). */
export function uniform_(self: Tensor, ...args: (number | { generator?: Generator })[]): Tensor {
  checkTensor("uniform_", self, "self");
  const [from, to, generator] = pairArgs("uniform_", args, [0, 1]);
  if (!(from <= to)) throw new ArgumentError(`uniform_: expects 'from' <= 'to', but got from=${from} > to=${to}`);
  const dtype = floatDType("uniform_", self.dtype);
  const shape = self.shape;
  const result = draw("uniform_", `${dtype}|${shape}|${from}|${to}`, self.device, generator, [], (k) => uniform(k, shape, dtype, from, to));
  return assignInPlace("uniform_", self, result);
}

/** Fills with normal values: x.normal_(), x.normal_(mean, std, { generator }). */
export function normal_(self: Tensor, ...args: (number | { generator?: Generator })[]): Tensor {
  checkTensor("normal_", self, "self");
  const [mean, std, generator] = pairArgs("normal_", args, [0, 1]);
  if (!(std >= 0)) throw new ArgumentError(`normal_: expects std >= 0.0, but found std ${std}`);
  const dtype = floatDType("normal_", self.dtype);
  return assignInPlace("normal_", self, normal(mean, std, [...self.shape], { dtype, device: self.device, generator }));
}
