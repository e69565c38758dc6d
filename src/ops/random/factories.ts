/**
 * @file Random tensors of a given size: rand, randn, randint, randperm and the *Like forms. Each
 * draw takes the next key of its generator (the default one unless `generator`) and runs one unit
 * with that key as an input tensor; the numbers are computed on the device from the key by
 * Threefry (src/random/), so a seed gives the same numbers on every device and matches jax.random
 * (see the README for the exact correspondence).
 */
import { type DType, defaultIntDType, dtypes } from "../../dtype.js";
import type { DeviceLike } from "../../device.js";
import { randint as randintBody, standardNormal, uniform } from "../../random/distributions.js";
import type { Generator } from "../../random/generator.js";
import { bits64 } from "../../random/threefry.js";
import { ArgumentError, DTypeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import { checkGrad, withGrad } from "../creation/common.js";
import { checkTensorSize } from "../dims.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import { checkShape, deviceName, draw, floatDType } from "./draw.js";

type Shape = readonly number[];

function uniformTensor(op: string, shape: Shape, dtype: DType | undefined, device: DeviceLike | undefined, generator: Generator | undefined, requiresGrad: boolean): Tensor {
  const d = floatDType(op, dtype);
  checkTensorSize(op, shape, d);
  return withGrad(draw("rand", `${d}|${shape}`, deviceName(device), generator, [], (k) => uniform(k, shape, d)), requiresGrad);
}

function normalTensor(op: string, shape: Shape, dtype: DType | undefined, device: DeviceLike | undefined, generator: Generator | undefined, requiresGrad: boolean): Tensor {
  const d = floatDType(op, dtype);
  checkTensorSize(op, shape, d);
  return withGrad(draw("randn", `${d}|${shape}`, deviceName(device), generator, [], (k) => standardNormal(k, shape, d)), requiresGrad);
}

export const rand = op(
  "rand(...size: int, *, generator?: Generator, dtype?: dtype, device?: device, requiresGrad: bool = false) -> Tensor",
  { doc: "Uniform floats in [0, 1) of shape `size` (`rand(2, 3)` or `rand([2, 3])`)." },
  ({ size, generator, dtype, device, requiresGrad }) => uniformTensor("rand", checkShape("rand", size), dtype, device, generator, requiresGrad),
);

export const randn = op(
  "randn(...size: int, *, generator?: Generator, dtype?: dtype, device?: device, requiresGrad: bool = false) -> Tensor",
  { doc: "Standard normal floats of shape `size` (`randn(2, 3)` or `randn([2, 3])`)." },
  ({ size, generator, dtype, device, requiresGrad }) => normalTensor("randn", checkShape("randn", size), dtype, device, generator, requiresGrad),
);

interface IntOptions {
  generator: Generator | undefined;
  dtype: DType | undefined;
  device: DeviceLike | undefined;
  requiresGrad: boolean;
}

function randintTensor(op: string, low: number, high: number, shape: Shape, o: IntOptions): Tensor {
  const dtype = o.dtype ?? defaultIntDType;
  const [lo, hi] = [BigInt(low), BigInt(high)];
  const info = dtypes[dtype];
  if (info.kind === "bool") throw new DTypeError(`${op}: "random_from_to" is not implemented for bool`);
  if (lo >= hi) throw new ArgumentError(`${op}: random_ expects 'from' to be less than 'to', but got from=${lo} >= to=${hi}`);
  if (info.kind !== "float") {
    const bits = BigInt(info.itemSize * 8);
    const [min, max] = info.kind === "int" ? [-(1n << (bits - 1n)), (1n << (bits - 1n)) - 1n] : [0n, (1n << bits) - 1n];
    if (lo < min || hi - 1n > max) throw new ArgumentError(`${op}: [${lo}, ${hi}) does not fit in ${dtype} (values ${min} to ${max})`);
  }
  if (hi - lo > 1n << 32n && info.itemSize !== 8) throw new ArgumentError(`${op}: a range wider than 2^32 needs a 64-bit dtype`);
  checkTensorSize(op, shape, dtype);
  checkGrad(op, dtype, o.requiresGrad);
  const compute: DType = info.kind === "float" ? (info.itemSize === 8 ? "int64" : "int32") : dtype;
  return withGrad(draw(op, `${dtype}|${shape}|${lo}|${hi}`, deviceName(o.device), o.generator, [], (k) => e.convert(randintBody(k, shape, lo, hi, compute), dtype)), o.requiresGrad);
}

const randintDoc = "Integers uniform in [low, high) (low = 0 unless given) of shape `size`, int64 unless `dtype`.";

export const randint = op(
  [
    "randint(high: int, size: int[], *, generator?: Generator, dtype?: dtype, device?: device, requiresGrad: bool = false) -> Tensor",
    "randint(low: int, high: int, size: int[], *, generator?: Generator, dtype?: dtype, device?: device, requiresGrad: bool = false) -> Tensor",
  ],
  { doc: randintDoc },
  [
    ({ high, size, ...o }) => randintTensor("randint", 0, high, checkShape("randint", size), o),
    ({ low, high, size, ...o }) => randintTensor("randint", low, high, checkShape("randint", size), o),
  ],
);

export const randperm = op(
  "randperm(n: int, *, generator?: Generator, dtype?: dtype, device?: device, requiresGrad: bool = false) -> Tensor",
  {
    doc: "A random permutation of 0..n−1 (int64 unless `dtype`): positions sorted by 64 random bits each (a stable sort, so always a permutation; a tie, probability about n²/2⁶⁵, keeps two in order).",
  },
  ({ n, generator, dtype: given, device, requiresGrad }) => {
    if (n < 0) throw new ArgumentError(`randperm: n must be a non-negative integer, got ${n}`);
    const dtype = given ?? defaultIntDType;
    const info = dtypes[dtype];
    if (info.kind === "bool") throw new DTypeError("randperm: bool is not a valid dtype");
    const max = info.kind === "float" ? Infinity : 2 ** (info.itemSize * 8 - (info.kind === "int" ? 1 : 0)) - 1;
    if (n - 1 > max) throw new ArgumentError(`randperm: n = ${n} values do not fit in ${dtype} (largest ${max}); use a wider dtype (int64)`);
    checkTensorSize("randperm", [n], dtype);
    checkGrad("randperm", dtype, requiresGrad);
    return withGrad(draw("randperm", `${dtype}|${n}`, deviceName(device), generator, [], (k) => permutationBySort(k, n, dtype)), requiresGrad);
  },
);

/** The unit body of randperm: 0..n−1 in the order of their random 64-bit keys. */
export function permutationBySort(key: Tracer, n: number, dtype: DType): Tracer {
  const [, positions] = e.sortAlong([bits64(key, [n]), e.iota("int64", [n], 0)], 0, false);
  return e.convert(positions!, dtype);
}

// --- *Like ----------------------------------------------------------------------------------------

export const randLike = op(
  "randLike(input: Tensor, *, generator?: Generator, dtype?: dtype, device?: device, requiresGrad: bool = false) -> Tensor",
  { doc: "rand with the shape of `input`, and its dtype and device unless given." },
  ({ input, generator, dtype, device, requiresGrad }) => uniformTensor("randLike", input.shape, dtype ?? input.dtype, device ?? input.device, generator, requiresGrad),
);

export const randnLike = op(
  "randnLike(input: Tensor, *, generator?: Generator, dtype?: dtype, device?: device, requiresGrad: bool = false) -> Tensor",
  { doc: "randn with the shape of `input`, and its dtype and device unless given." },
  ({ input, generator, dtype, device, requiresGrad }) => normalTensor("randnLike", input.shape, dtype ?? input.dtype, device ?? input.device, generator, requiresGrad),
);

const like = (input: Tensor, o: IntOptions): IntOptions => ({ ...o, dtype: o.dtype ?? input.dtype, device: o.device ?? input.device });

export const randintLike = op(
  [
    "randintLike(input: Tensor, high: int, *, generator?: Generator, dtype?: dtype, device?: device, requiresGrad: bool = false) -> Tensor",
    "randintLike(input: Tensor, low: int, high: int, *, generator?: Generator, dtype?: dtype, device?: device, requiresGrad: bool = false) -> Tensor",
  ],
  { doc: "randint with the shape of `input`, and its dtype and device unless given: integers uniform in [low, high) (low = 0 unless given)." },
  [
    ({ input, high, ...o }) => randintTensor("randintLike", 0, high, input.shape, like(input, o)),
    ({ input, low, high, ...o }) => randintTensor("randintLike", low, high, input.shape, like(input, o)),
  ],
);
