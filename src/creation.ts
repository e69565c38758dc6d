/**
 * @file torch.tensor's data conversion: JS data → host storage → device buffer. Every check on the
 * data happens here, before any native call. The op itself (its signature and options) is
 * src/ops/creation/tensor.ts.
 */
import { type DType, defaultFloatDType, defaultIntDType, dtypeOfTypedArray, dtypes, type StorageArray } from "./dtype.js";
import { checkDeviceHolds, type DeviceLike, parseDevice } from "./device.js";
import { toBFloat16Bits, toFloat16Bits } from "./half.js";
import { resolveDevice } from "./runtime/clients.js";
import { ArgumentError, callNative, DTypeError, ShapeError } from "./runtime/errors.js";
import { numelOf, Tensor } from "./tensor.js";
import { tracing } from "./trace/inline.js";

type Leaf = number | boolean | bigint;
/** What torch.tensor accepts: a scalar, nested arrays of scalars, or a TypedArray. */
export type TensorData = Leaf | NestedData | ArrayBufferView;
export interface NestedData extends ReadonlyArray<Leaf | NestedData> {}

/** The options of torch.tensor. */
export type TensorOptions = { dtype?: DType; device?: DeviceLike; requiresGrad?: boolean; shape?: readonly number[] };

type Category = 0 | 1 | 2; // bool < int < float, PyTorch's inference order

interface Flattened {
  shape: number[];
  values: Leaf[];
  category: Category;
}

function describePath(path: readonly number[]): string {
  return `data${path.map((i) => `[${i}]`).join("")}`;
}

/** The index path of flat (row-major) element `i` of `shape`. */
function unravel(i: number, shape: readonly number[]): number[] {
  const path = new Array<number>(shape.length);
  for (let d = shape.length - 1; d >= 0; d--) {
    path[d] = i % shape[d]!;
    i = Math.floor(i / shape[d]!);
  }
  return path;
}

/** Shape, flat values and the widest category of nested arrays; ShapeError for ragged input. */
function flatten(data: Leaf | NestedData): Flattened {
  const values: Leaf[] = [];
  let category: Category = 0;
  let sawAny = false;
  const visit = (node: Leaf | NestedData, path: number[]): number[] => {
    if (Array.isArray(node)) {
      const items = node as ReadonlyArray<Leaf | NestedData>;
      let first: number[] | undefined;
      for (let i = 0; i < items.length; i++) {
        path.push(i);
        const shape = visit(items[i]!, path);
        path.pop();
        if (first === undefined) first = shape;
        else if (shape.length !== first.length || shape.some((d, k) => d !== first![k])) {
          throw new ShapeError(
            `ragged nested array: ${describePath([...path, i])} has shape [${shape.join(", ")}] but ${describePath([...path, 0])} has shape [${first.join(", ")}]; every row must have the same length`,
          );
        }
      }
      return [items.length, ...(first ?? [])];
    }
    switch (typeof node) {
      case "boolean":
        break;
      case "bigint":
        category = Math.max(category, 1) as Category;
        break;
      case "number":
        category = Math.max(category, Number.isInteger(node) ? 1 : 2) as Category;
        break;
      default:
        if (ArrayBuffer.isView(node)) {
          throw new ArgumentError(`a TypedArray can only be the whole data of torch.tensor (found one at ${describePath(path)}); pass { shape } to give it a shape`);
        }
        throw new ArgumentError(`torch.tensor: ${describePath(path)} is ${node === null ? "null" : typeof node}; expected a number, boolean, bigint or array`);
    }
    sawAny = true;
    values.push(node as Leaf);
    return [];
  };
  const shape = visit(data, []);
  // An empty list has the default float dtype in PyTorch; so has anything without leaves.
  return { shape, values, category: sawAny ? category : 2 };
}

const inferred = (category: Category): DType => (category === 0 ? "bool" : category === 1 ? defaultIntDType : defaultFloatDType);

/** The smallest and largest value of an integer dtype. */
function integerRange(dtype: DType): [bigint, bigint] {
  const info = dtypes[dtype];
  const bits = BigInt(info.itemSize * 8);
  return info.kind === "int" ? [-(1n << (bits - 1n)), (1n << (bits - 1n)) - 1n] : [0n, (1n << bits) - 1n];
}

/**
 * Whether torch.tensor may store `v` in an integer dtype holding [lo, hi], as PyTorch checks its data:
 * a whole number must lie in the range (for unsigned dtypes negative ones down to −hi wrap around), any
 * other number must lie in it before it is truncated toward zero (NaN and ±inf never do).
 */
function fits(v: Leaf, [lo, hi]: [bigint, bigint]): boolean {
  if (typeof v === "boolean") return true;
  if (typeof v === "number" && !Number.isInteger(v)) return v >= Number(lo) && v <= Number(hi);
  const n = BigInt(v);
  return n <= hi && (n >= lo || (lo === 0n && -n <= hi));
}

/**
 * Writes JS values into new host storage for `dtype`, converting as PyTorch's torch.tensor does.
 * Given `where` (how to name element i), a value an integer dtype cannot hold is a DTypeError, as in
 * PyTorch; without it, values wrap around (a TypedArray's, as PyTorch converts a NumPy array's).
 */
export function toStorage(values: ArrayLike<Leaf>, dtype: DType, where?: (i: number) => string): StorageArray {
  const info = dtypes[dtype];
  const out = new info.storage(values.length);
  const n = values.length;
  const num = (v: Leaf): number => (typeof v === "number" ? v : Number(v));
  if (dtype === "float16" || dtype === "bfloat16") {
    const convert = dtype === "float16" ? toFloat16Bits : toBFloat16Bits;
    for (let i = 0; i < n; i++) out[i] = convert(num(values[i]!));
  } else if (info.kind === "float") {
    for (let i = 0; i < n; i++) out[i] = num(values[i]!);
  } else if (dtype === "bool") {
    // PyTorch: any nonzero value is true, NaN included (which JS truthiness would call false).
    for (let i = 0; i < n; i++) {
      const v = values[i]!;
      out[i] = (typeof v === "number" ? Number(v !== 0) : Number(Boolean(v))) as never;
    }
  } else {
    const bits = info.itemSize * 8;
    const signed = info.kind === "int";
    const range = integerRange(dtype);
    for (let i = 0; i < n; i++) {
      const v = values[i]!;
      if (where !== undefined && !fits(v, range)) {
        const note = typeof v === "number" && Number.isFinite(v) && !Number.isInteger(v)
          ? "; a fraction must fit before it is truncated"
          : range[0] === 0n ? `; whole numbers down to -${range[1]} wrap around` : "";
        throw new DTypeError(
          `torch.tensor: ${where(i)} = ${v} cannot be converted to ${dtype} without overflow (${dtype} holds ${range[0]} to ${range[1]}${note}); pass a dtype that holds it`,
        );
      }
      let big: bigint;
      if (typeof v === "bigint") big = v;
      else if (typeof v === "boolean") big = v ? 1n : 0n;
      else {
        if (!Number.isFinite(v)) throw new DTypeError(`cannot convert ${v} to ${dtype} (element ${i}); only finite numbers convert to integer dtypes`);
        big = BigInt(Math.trunc(v));
      }
      const wrapped = signed ? BigInt.asIntN(bits, big) : BigInt.asUintN(bits, big);
      out[i] = (info.bigint ? wrapped : Number(wrapped)) as never;
    }
  }
  return out;
}

/** Host storage for a TypedArray input (no copy when the dtype already matches; the addon copies). */
function typedArrayStorage(array: ArrayBufferView, dtype: DType): ArrayBufferView {
  const own = dtypeOfTypedArray(array);
  if (own === undefined) {
    throw new ArgumentError(`torch.tensor: unsupported ${array.constructor.name}; pass a numeric TypedArray`);
  }
  const bytesView = (ctor: typeof Uint8Array | typeof Uint16Array): ArrayBufferView =>
    new ctor(array.buffer as ArrayBuffer, array.byteOffset, array.byteLength / ctor.BYTES_PER_ELEMENT);
  if (own === dtype) {
    if (array instanceof Uint8ClampedArray) return bytesView(Uint8Array);
    if (own === "float16") return bytesView(Uint16Array); // a native Float16Array holds the bits we need
    return array;
  }
  // Raw float16/bfloat16 bits may be handed over as a Uint16Array.
  if ((dtype === "float16" || dtype === "bfloat16") && array instanceof Uint16Array) return array;
  return toStorage(array as unknown as ArrayLike<Leaf>, dtype);
}

/**
 * A tensor from a scalar, nested arrays, or a TypedArray. The dtype is inferred as PyTorch does (any
 * non-integer number → float32, integers → int64, booleans → bool, a TypedArray → its own dtype)
 * unless given; `shape` reshapes the data (same number of elements); `check` sees the dtype before
 * anything is uploaded.
 */
export function tensorFromData(
  data: TensorData,
  requested: DType | undefined,
  device: DeviceLike | undefined,
  reshape: readonly number[] | undefined,
  check?: (dtype: DType) => void,
): Tensor {
  parseDevice(device); // a bad device fails here, before any data work or native call
  if (reshape !== undefined && reshape.some((d) => d < 0)) throw new ShapeError(`torch.tensor: shape [${reshape.join(", ")}] has a negative size`);
  let storage: ArrayBufferView;
  let shape: number[];
  let dtype: DType;
  if (ArrayBuffer.isView(data) && !(data instanceof DataView)) {
    const own = dtypeOfTypedArray(data);
    dtype = requested ?? own ?? defaultFloatDType;
    check?.(dtype);
    storage = typedArrayStorage(data, dtype);
    shape = [(data as unknown as ArrayLike<unknown>).length];
  } else if (ArrayBuffer.isView(data)) {
    throw new ArgumentError("torch.tensor: a DataView has no element type; pass a TypedArray");
  } else {
    const flat = flatten(data as Leaf | NestedData);
    dtype = requested ?? inferred(flat.category);
    check?.(dtype);
    storage = toStorage(flat.values, dtype, (i) => describePath(unravel(i, flat.shape)));
    shape = flat.shape;
  }
  if (reshape !== undefined) {
    const n = numelOf(shape);
    if (numelOf(reshape) !== n) {
      throw new ShapeError(`torch.tensor: shape [${reshape.join(", ")}] has ${numelOf(reshape)} elements but the data has ${n}`);
    }
    shape = [...reshape];
  }
  return fromHost(storage, dtype, shape, device);
}

/** Copies host storage (already in `dtype`'s layout) to a device and wraps it as a Tensor. */
export function fromHost(storage: ArrayBufferView, dtype: DType, shape: readonly number[], device?: DeviceLike): Tensor {
  checkDeviceHolds("tensor", dtype, device);
  const target = resolveDevice(device);
  const trace = tracing();
  if (trace !== undefined) return trace.constant(storage, dtype, shape, target.name);
  const client = target.client.native;
  const buffer = callNative({ op: "bufferFromHost", device: target.name }, () =>
    client.bufferFromHost(storage, dtypes[dtype].pjrt, [...shape], null, target.deviceIndex),
  );
  return new Tensor(buffer, target.client.buffers, target.name, dtype, Object.freeze([...shape]));
}
