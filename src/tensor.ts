/**
 * @file Tensor: shape, dtype, device and the device buffer that holds its values.
 * Creation from JS data lives in src/creation.ts; ops come later (src/ops/).
 */
import { type DataArray, type DType, dtypes, isFloating } from "./dtype.js";
import { halfBitsToFloat32 } from "./half.js";
import { formatTensor } from "./format.js";
import { DISPOSED, type Held, keep, PENDING, recount, track, TRACED, untrack } from "./memory.js";
import { flushPending, inliner } from "./trace/inline.js";
import type { GradFn, GradHook } from "./autograd/grad_fn.js";
import type { BackwardOptions } from "./autograd/index.js";
import type { HookHandle } from "./autograd/backward.js";
import { ArgumentError, callNative, callNativeAsync, DeviceError, DisposedError, DTypeError, ShapeError } from "./runtime/errors.js";
import type { BufferHandle, NativeBuffers } from "./runtime/native.js";
import type { TensorMethods } from "./ops/op_types.generated.js";

/** A scalar as `item()` returns it: a number (64-bit ints too, by default), a bigint for 64-bit ints with `{ bigint: true }`, a boolean for bool. */
export type Scalar = number | bigint | boolean;

/** Options of `item()` and `tolist()`. */
export interface ReadOptions {
  /** int64 and uint64 values as bigint (default: numbers, and an error for a value that is not a safe integer). */
  bigint?: boolean;
}

function readOptions(op: string, options: ReadOptions): boolean {
  for (const key of Object.keys(options)) {
    if (key !== "bigint") throw new ArgumentError(`${op}: got an unknown option "${key}"; the only option is "bigint"`);
  }
  if (options.bigint !== undefined && typeof options.bigint !== "boolean") throw new ArgumentError(`${op}: "bigint" must be a bool`);
  return options.bigint === true;
}
/** Nested arrays as `tolist()` returns them. */
export type NestedArray = Scalar | NestedArray[];

const maxSafe = BigInt(Number.MAX_SAFE_INTEGER);

export function numelOf(shape: readonly number[]): number {
  let n = 1;
  for (let i = 0; i < shape.length; i++) n *= shape[i]!;
  return n;
}

/**
 * V8 makes JS arrays of at most 134,217,725 elements (2^27 − 3; measured in Node 20, a filled
 * `new Array(n)`), so tolist() refuses more before reading anything.
 */
export const maxListElements = 134_217_725;

/** ShapeError for a read whose result JS cannot hold; `limit` names the engine's limit. */
function tooBigToRead(op: string, numel: number, dtype: DType, limit: string): ShapeError {
  return new ShapeError(
    `${op}(): a ${dtype} tensor of ${numel.toLocaleString("en-US")} elements is more than ${limit}; ` +
      `read it in slices, e.g. t.narrow(0, start, length).${op === "tolist" ? "tolist" : "data"}()` +
      (op === "tolist" ? ", or as a typed array with await t.data()" : ""),
  );
}

/** The natural TypedArray view of raw host bytes for a dtype (float16/bfloat16 converted to float32). */
export function hostBytesToData<D extends DType>(bytes: ArrayBuffer, dtype: D, op = "data"): DataArray<D> {
  const info = dtypes[dtype];
  const numel = bytes.byteLength / info.itemSize;
  try {
    const storage = new info.storage(bytes, 0, numel);
    if (dtype === "float16" || dtype === "bfloat16") return halfBitsToFloat32(storage as Uint16Array, dtype) as DataArray<D>;
    return storage as DataArray<D>;
  } catch (error) {
    // The engine's typed-array limit (2^32 elements in Node 20).
    if (error instanceof RangeError) throw tooBigToRead(op, numel, dtype, `a JS typed array holds here (${error.message})`);
    throw error;
  }
}

let bufferOfTensor: (t: Tensor) => BufferHandle;
let hostBytesOfTensor: (t: Tensor) => ArrayBuffer;
let adoptBuffer: (target: Tensor, source: Tensor) => void;
let convertBuffer: (target: Tensor, source: Tensor) => void;
let assignTraced: (target: Tensor, source: Tensor) => void;
let bufferState: (t: Tensor) => BufferHandle;
let fillBuffer: (target: Tensor, source: Tensor) => void;
let releaseBuffer: (t: Tensor) => Tensor | undefined;
let setShape: (t: Tensor, shape: readonly number[]) => void;

/** The Tensor methods autograd provides (src/autograd/index.ts installs them). */
export const autogradMethods = {} as {
  backward(t: Tensor, gradient: Tensor | null | BackwardOptions | undefined, options: BackwardOptions | undefined): void;
  registerHook(t: Tensor, fn: GradHook): HookHandle;
  retainGrad(t: Tensor): void;
};

/** Autograd's access to a tensor's history (src/autograd/); not part of the public API. */
export const gradSlot = {} as {
  get(t: Tensor): { gradFn: GradFn | null; outputIndex: number; version: number };
  /** Records that `gradFn`'s output `outputIndex` is `t` (null: `t` becomes a leaf again). */
  setHistory(t: Tensor, gradFn: GradFn | null, outputIndex: number): void;
  /** Sets the grad without the checks of the public setter. */
  setGrad(t: Tensor, grad: Tensor | null): void;
  /** A backward function holds `t`; dispose() waits until it is released. */
  retain(t: Tensor): void;
  release(t: Tensor): void;
};

/** The interned aval id a tensor caches for eager signatures (-1: not interned yet; see trace/avals.ts). */
export const avalSlot = {} as { get(t: Tensor): number; set(t: Tensor, id: number): void };

/** The ops' methods (`x.sum(1)`), declared from the signature table (src/ops/op_types.generated.ts). */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export interface Tensor<D extends DType = DType> extends TensorMethods {}

/** A tensor; `D` is its dtype when known statically (torch.tensor(data, { dtype: "int32" }) → Tensor<"int32">). */
export class Tensor<D extends DType = DType> {
  readonly shape: readonly number[];
  readonly dtype: D;
  /** Canonical device string, "cpu:0". */
  readonly device: string;
  /** The buffer, its addon functions and size: what the GC safety net (memory.ts) frees. */
  readonly #held: Held;
  #aval = -1;
  #requiresGrad = false;
  #grad: Tensor | null = null;
  /** Autograd's record of the op that made this tensor (null for a leaf). */
  #gradFn: GradFn | null = null;
  /** Which of #gradFn's outputs this tensor is. */
  #outputIndex = 0;
  /** Bumped by every in-place write, so backward can tell a saved tensor was overwritten. */
  #version = 0;
  /** How many recorded backward functions hold this tensor; dispose() waits until none does. */
  #savedBy = 0;
  #disposeWhenReleased = false;

  static {
    bufferOfTensor = (t) => t.#live("use");
    hostBytesOfTensor = (t) => t.#hostBytesSync();
    avalSlot.get = (t) => t.#aval;
    avalSlot.set = (t, id) => {
      t.#aval = id;
    };
    gradSlot.get = (t) => ({ gradFn: t.#gradFn, outputIndex: t.#outputIndex, version: t.#version });
    gradSlot.setHistory = (t, gradFn, outputIndex) => {
      const old = t.#gradFn;
      gradFn?.ref();
      t.#gradFn = gradFn;
      t.#outputIndex = outputIndex;
      t.#requiresGrad = gradFn !== null || t.#requiresGrad;
      old?.unref();
    };
    gradSlot.setGrad = (t, grad) => {
      if (t.#held.buffer !== TRACED) inliner()?.gradWritten(t, t.#grad);
      t.#grad = grad;
    };
    gradSlot.retain = (t) => {
      t.#savedBy++;
    };
    gradSlot.release = (t) => {
      if (--t.#savedBy === 0 && t.#disposeWhenReleased) t.dispose();
    };
    // target takes source's buffer and frees its own (if it has one); source ends up disposed
    const moveBuffer = (target: Tensor, source: Tensor): void => {
      const held = target.#held;
      const old = held.buffer;
      const oldBuffers = held.buffers;
      const buffer = source.#live("move");
      source.#held.buffer = DISPOSED;
      untrack(source, source.#held);
      source.#dropGradAndHistory();
      held.buffer = buffer;
      held.buffers = source.#held.buffers;
      if (held.registered) held.buffers.reportToGc(buffer);
      if (old >= 0) oldBuffers.dispose(old);
    };
    adoptBuffer = (target, source) => {
      target.#live("write into");
      target.#version++;
      moveBuffer(target, source);
    };
    bufferState = (t) => t.#held.buffer;
    fillBuffer = moveBuffer;
    releaseBuffer = (t) => {
      if (t.#savedBy > 0) {
        t.#disposeWhenReleased = true;
        keep(t);
        return undefined;
      }
      const keeper = keep(new Tensor(t.#held.buffer, t.#held.buffers, t.device, t.dtype, t.shape));
      t.#dropGradAndHistory();
      t.#held.buffer = DISPOSED;
      untrack(t, t.#held);
      return keeper;
    };
    assignTraced = (target, source) => {
      target.#version++;
      const pending = source.#held.buffer === PENDING;
      source.#held.buffer = DISPOSED;
      if (pending) untrack(source, source.#held);
      source.#dropGradAndHistory();
    };
    setShape = (t, shape) => {
      (t as { shape: readonly number[] }).shape = shape;
      t.#aval = -1;
    };
    convertBuffer = (target, source) => {
      target.#live("convert");
      source.#live("move");
      recount(target.#held, source.#held.device, source.#held.bytes);
      (target as { dtype: DType }).dtype = source.dtype;
      (target as { device: string }).device = source.device;
      target.#aval = -1;
      adoptBuffer(target, source);
    };
  }

  /** Wraps a device buffer (takes ownership). Use torch.tensor() to create tensors from data. `shape` is frozen. */
  constructor(buffer: BufferHandle, buffers: NativeBuffers, device: string, dtype: D, shape: readonly number[]) {
    this.dtype = dtype;
    this.shape = shape;
    this.device = device;
    this.#held = { buffers, buffer, bytes: numelOf(shape) * dtypes[dtype].itemSize, device, registered: false };
    if (buffer !== TRACED) track(this, this.#held);
  }

  get ndim(): number {
    return this.shape.length;
  }

  /** The number of dimensions (PyTorch's `dim()`, the same as `ndim`). */
  dim(): number {
    return this.ndim;
  }

  numel(): number {
    return numelOf(this.shape);
  }

  /** Bytes per element (PyTorch's `element_size()`). */
  elementSize(): number {
    return this.itemsize;
  }

  /** Bytes per element (PyTorch's `itemsize`). */
  get itemsize(): number {
    return dtypes[this.dtype].itemSize;
  }

  /** Bytes of all elements (PyTorch's `nbytes`). */
  get nbytes(): number {
    return this.numel() * this.itemsize;
  }

  /** Whether the dtype is a floating one (float16, bfloat16, float32, float64). */
  isFloatingPoint(): boolean {
    return isFloating(this.dtype);
  }

  /** The number of elements (PyTorch's `nelement()`, the same as `numel()`). */
  nelement(): number {
    return this.numel();
  }

  /** The number of dimensions (PyTorch's `ndimension()`, the same as `dim()`). */
  ndimension(): number {
    return this.ndim;
  }

  /**
   * Always true: every tensor here owns a dense row-major buffer (views are copies), so there is no
   * non-contiguous tensor (PyTorch's transposed views are not).
   */
  isContiguous(): boolean {
    return true;
  }

  /** The row-major strides of the tensor's buffer in elements, or one dim's (views are copies here, so a transposed tensor's are row-major too). */
  stride(): number[];
  stride(dim: number): number;
  stride(dim?: number): number[] | number {
    const strides = this.shape.map((_, i) => numelOf(this.shape.slice(i + 1)));
    if (dim === undefined) return strides;
    return strides[this.#dimIndex("stride", dim)]!;
  }

  /** Always 0: a tensor's elements start its own buffer (views are copies here). */
  storageOffset(): number {
    return 0;
  }

  /** The shape (PyTorch's `size()`), or the size of one dimension (negative counts from the end). */
  size(): readonly number[];
  size(dim: number): number;
  size(dim?: number): readonly number[] | number {
    if (dim === undefined) return this.shape;
    return this.shape[this.#dimIndex("size", dim)]!;
  }

  /** `dim` (negative counts from the end) as an index into the shape, checked. */
  #dimIndex(op: string, dim: number): number {
    const n = this.shape.length;
    if (n === 0) throw new ShapeError(`${op}: dimension ${dim} was given but a 0-d tensor has no dimensions (use ${op}() or shape)`);
    if (!Number.isInteger(dim) || dim < -n || dim >= n) {
      throw new ShapeError(`${op}: dimension ${dim} is out of range for a tensor of shape [${this.shape.join(", ")}] (expected ${-n} … ${n - 1})`);
    }
    return dim < 0 ? dim + n : dim;
  }

  /** Whether autograd records ops on this tensor (PyTorch's `requires_grad`); only a leaf's can be changed. */
  get requiresGrad(): boolean {
    return this.#requiresGrad;
  }

  set requiresGrad(value: boolean) {
    if (typeof value !== "boolean") throw new ArgumentError(`requiresGrad must be a bool, got ${typeof value}`);
    if (value && dtypes[this.dtype].kind !== "float") throw new DTypeError(`requiresGrad: only tensors of floating point dtype can require gradients, got ${this.dtype}`);
    if (!value && this.#gradFn !== null) {
      throw new ArgumentError(
        `requiresGrad: you can only change requiresGrad of leaf tensors; this one was computed by ${this.#gradFn.name}. ` +
          "To use it without gradients, take t.detach()",
      );
    }
    this.#requiresGrad = value;
  }

  /** Sets requiresGrad (default true) and returns this tensor (PyTorch's `requires_grad_()`). */
  requiresGrad_(requiresGrad = true): this {
    this.requiresGrad = requiresGrad;
    return this;
  }

  /** The backward function of the op that computed this tensor; null for a leaf (PyTorch's `grad_fn`). */
  get gradFn(): GradFn | null {
    return this.#gradFn;
  }

  /** True unless autograd recorded the op that made it (PyTorch's `is_leaf`). */
  get isLeaf(): boolean {
    return this.#gradFn === null;
  }

  /**
   * The gradient backward() accumulated here (a leaf's, or a non-leaf's after retainGrad()); null
   * until then. Assigning checks shape, dtype and device and disposes the gradient it replaces
   * (`w.grad = null` frees it); a tensor's dispose() disposes its grad.
   */
  get grad(): Tensor | null {
    if (this.#held.buffer !== TRACED) inliner()?.gradRead(this, this.#grad);
    return this.#grad;
  }

  set grad(value: Tensor | null) {
    if (value !== null) {
      if (!(value instanceof Tensor)) throw new ArgumentError(`grad: assigned a ${typeof value}; expected a Tensor or null`);
      if (value.dtype !== this.dtype || value.device !== this.device || value.shape.length !== this.shape.length || value.shape.some((d, i) => d !== this.shape[i])) {
        throw new ShapeError(
          `grad: assigned a ${value.dtype}[${value.shape.join(", ")}] tensor on ${value.device} to the grad of a ${this.dtype}[${this.shape.join(", ")}] tensor on ${this.device}; they must match`,
        );
      }
    }
    const old = this.#grad;
    if (this.#held.buffer !== TRACED && inliner()?.gradWritten(this, old)) {
      this.#grad = value; // the trace frees the old grad after the run
      return;
    }
    this.#grad = value;
    if (old !== value) old?.dispose();
  }

  /**
   * Computes the gradient of this tensor with respect to the leaves it was computed from and
   * accumulates it into their `.grad` (PyTorch's `backward(gradient, retain_graph, create_graph,
   * inputs)`). `gradient` is required unless this tensor has one element.
   */
  backward(gradient?: Tensor | null | BackwardOptions, options?: BackwardOptions): void {
    autogradMethods.backward(this, gradient, options);
  }

  /** Calls `fn` with this tensor's gradient each time backward computes it; `fn` may return a replacement. */
  registerHook(fn: GradHook): HookHandle {
    return autogradMethods.registerHook(this, fn);
  }

  /** Keeps this non-leaf tensor's gradient in `.grad` after backward (leaves keep theirs anyway). */
  retainGrad(): void {
    autogradMethods.retainGrad(this);
  }

  /** Whether retainGrad() was called on this non-leaf tensor (false for leaves, as in PyTorch). */
  get retainsGrad(): boolean {
    return this.#gradFn !== null && this.#gradFn.retained.get(this.#outputIndex) === this;
  }

  get isDisposed(): boolean {
    return this.#held.buffer === DISPOSED;
  }

  #live(what: string): BufferHandle {
    // while ops are recorded, every use of a buffer here is a host read or a transfer
    inliner()?.hostRead(this, what);
    if (this.#held.buffer === PENDING) flushPending();
    const buffer = this.#held.buffer;
    if (buffer === PENDING) {
      throw new DeviceError(`Tensor: cannot ${what} a ${this.dtype}[${this.shape.join(", ")}] tensor: the fused eager ops that compute it failed to run (their error was thrown where they ran)`);
    }
    if (buffer === TRACED) {
      throw new ArgumentError(
        `Tensor: cannot ${what} a ${this.dtype}[${this.shape.join(", ")}] tensor made while torch.compile traced a function: it has a value only inside that trace. Return it from the function instead of keeping it`,
      );
    }
    if (buffer === DISPOSED) {
      throw new DisposedError(
        `Tensor has been disposed: cannot ${what} a disposed ${this.dtype}[${this.shape.join(", ")}] tensor on ${this.device}`,
      );
    }
    return buffer;
  }

  /**
   * The values, copied to the host (float16/bfloat16 as Float32Array, int64 as BigInt64Array, bool as
   * Uint8Array). Waits for the device to compute them without blocking the event loop; an error raised
   * while computing them (or a tensor they were computed from) rejects the promise and names the op.
   */
  async data(): Promise<DataArray<D>> {
    const buffer = this.#live("read");
    const buffers = this.#held.buffers;
    const bytes = await callNativeAsync({ op: "toHost", device: this.device }, () => buffers.toHost(buffer));
    return hostBytesToData(bytes, this.dtype, "data");
  }

  /** data(), blocking the thread until the device has computed the values and they are on the host. */
  dataSync(): DataArray<D> {
    return hostBytesToData(this.#hostBytesSync(), this.dtype, "dataSync");
  }

  #hostBytesSync(): ArrayBuffer {
    const buffer = this.#live("read");
    return callNative({ op: "toHost", device: this.device }, () => this.#held.buffers.toHostSync(buffer));
  }

  /**
   * The single value of a one-element tensor: a number (an int64/uint64 value too, if it is a safe
   * integer; DTypeError otherwise), a boolean for bool; `{ bigint: true }` gives 64-bit ints as bigint.
   */
  item(options: ReadOptions = {}): Scalar {
    const bigint = readOptions("item", options);
    if (this.numel() !== 1) {
      throw new ShapeError(`item(): a tensor with ${this.numel()} elements (shape [${this.shape.join(", ")}]) cannot be converted to a scalar`);
    }
    return this.#scalars("item", bigint)[0]!;
  }

  /** The values as nested arrays (a scalar for a 0-d tensor), each as `item()` gives it. */
  tolist(options: ReadOptions = {}): NestedArray {
    const flat = this.#scalars("tolist", readOptions("tolist", options));
    const build = (dim: number, offset: number): NestedArray => {
      if (dim === this.shape.length) return flat[offset]!;
      const size = this.shape[dim]!;
      const stride = numelOf(this.shape.slice(dim + 1));
      return Array.from({ length: size }, (_, i) => build(dim + 1, offset + i * stride));
    };
    return build(0, 0);
  }

  #scalars(op: string, bigint: boolean): Scalar[] {
    const numel = this.numel();
    if (numel > maxListElements) throw tooBigToRead(op, numel, this.dtype, `one JS array holds (${maxListElements.toLocaleString("en-US")})`);
    const data = this.dataSync() as ArrayLike<number | bigint>;
    // Filled in place: Array.from grows its array in steps and gives up short of the limit.
    const out = new Array<Scalar>(numel);
    if (this.dtype === "bool") for (let i = 0; i < numel; i++) out[i] = data[i] !== 0;
    else if (!dtypes[this.dtype].bigint || bigint) for (let i = 0; i < numel; i++) out[i] = data[i]!;
    else {
      for (let i = 0; i < numel; i++) {
        const v = data[i]!;
        if (!(v >= -maxSafe && v <= maxSafe)) {
          throw new DTypeError(
            `${op}(): the ${this.dtype} value ${v} (element ${i}) is not a safe integer, so a JS number would round it; call ${op}({ bigint: true }) to get bigints`,
          );
        }
        out[i] = Number(v);
      }
    }
    return out;
  }

  /**
   * Frees the device buffer now, and this tensor's grad. Idempotent. A tensor that a recorded backward
   * function still needs stays alive until backward (or garbage collection of the graph) lets it go.
   */
  dispose(): void {
    const held = this.#held;
    const buffer = held.buffer;
    if (buffer === DISPOSED) return;
    if (buffer >= 0 && inliner() !== undefined) return inliner()!.disposeLater(this);
    if (this.#savedBy > 0) {
      this.#disposeWhenReleased = true;
      keep(this);
      return;
    }
    this.#dropGradAndHistory();
    held.buffer = DISPOSED;
    if (buffer === TRACED) return;
    untrack(this, held);
    if (buffer !== PENDING) held.buffers.dispose(buffer);
  }

  /** Disposes the grad and lets go of the autograd history (part of disposing this tensor). */
  #dropGradAndHistory(): void {
    const grad = this.#grad;
    this.#grad = null;
    grad?.dispose();
    this.#gradFn?.unref();
  }

  [Symbol.dispose](): void {
    this.dispose();
  }

  /** The values as PyTorch prints them: `tensor([[1.0000, 2.0000],\n        [3.0000, 4.0000]])`. */
  toString(): string {
    if (this.#held.buffer === DISPOSED) return `tensor(<disposed>, size=[${this.shape.join(", ")}], dtype=${this.dtype}, device='${this.device}')`;
    return formatTensor(this);
  }

  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return this.toString();
  }
}

/**
 * In-place ops: `target` takes over `source`'s buffer (same shape and dtype) and frees its own;
 * `source` ends up disposed without freeing the buffer. Not part of the public API.
 */
export function rebind(target: Tensor, source: Tensor): void {
  if (target === source) return;
  if (target.dtype !== source.dtype || target.device !== source.device || target.shape.length !== source.shape.length || target.shape.some((d, i) => d !== source.shape[i])) {
    throw new ShapeError(`rebind: ${source.dtype}[${source.shape.join(", ")}] cannot replace the buffer of ${target.dtype}[${target.shape.join(", ")}]`);
  }
  const history = gradSlot.get(source);
  if (history.gradFn !== null && target.isLeaf && target.requiresGrad) {
    throw new ArgumentError(
      `${history.gradFn.name.replace(/Backward$/, "")}: a leaf tensor that requires grad is being used in an in-place operation; ` +
        "update it inside torch.noGrad(() => …) (as optimizers do), or work on t.clone()",
    );
  }
  history.gradFn?.keepOriginal(target);
  // target takes the history before source, which the move disposes, lets go of it
  if (history.gradFn !== null) gradSlot.setHistory(target, history.gradFn, history.outputIndex);
  const tracing = inliner();
  // fused eager records in-place writes of recorded values; a source with a buffer is adopted as in strict mode
  if (tracing !== undefined && (!tracing.fused || bufferState(source) === PENDING)) {
    tracing.assign(target, source);
    assignTraced(target, source);
  } else adoptBuffer(target, source);
}

/**
 * In-place ops that change the shape (t_, transpose_, squeeze_, unsqueeze_; views are copies here):
 * `target` takes `source`'s shape and buffer (same dtype, device and size), with rebind's checks.
 * torch.compile cannot trace them (a traced tensor keeps its shape). Not part of the public API.
 */
export function rebindReshaped(target: Tensor, source: Tensor, op: string): void {
  inliner()?.hostRead(target, `${op} (change a tensor's shape in place; use the out-of-place ${op.slice(0, -1)})`);
  if (target.numel() !== source.numel() || target.dtype !== source.dtype) throw new ShapeError(`${op}: ${source.dtype}[${source.shape.join(", ")}] cannot replace ${target.dtype}[${target.shape.join(", ")}]`);
  // a backward of the op that computed source which reads target gets its values (and shape) from before
  gradSlot.get(source).gradFn?.keepOriginal(target);
  const shape = target.shape;
  setShape(target, source.shape);
  try {
    rebind(target, source);
  } catch (error) {
    setShape(target, shape);
    throw error;
  }
}

/** A tensor that stands for a value of the graph torch.compile is tracing (it has no buffer). Not part of the public API. */
export function tracedTensor(device: string, dtype: DType, shape: readonly number[]): Tensor {
  return new Tensor(TRACED, undefined as unknown as NativeBuffers, device, dtype, Object.freeze([...shape]));
}

/** A tensor fused eager mode recorded: counted and owned like any tensor, its buffer filled when the recording runs. Not part of the public API. */
export function pendingTensor(buffers: NativeBuffers, device: string, dtype: DType, shape: readonly number[]): Tensor {
  return new Tensor(PENDING, buffers, device, dtype, Object.freeze([...shape]));
}

/** Whether `t` waits for fused eager mode's recorded ops. */
export function isPending(t: Tensor): boolean {
  return bufferState(t) === PENDING;
}

/**
 * `target` (pending, or a tensor written in place while recording) takes `source`'s buffer, freeing
 * its own; its version and history stay. `source` ends up disposed. Not part of the public API.
 */
export function fill(target: Tensor, source: Tensor): void {
  fillBuffer(target, source);
}

/**
 * Disposes `t` but hands its buffer to a new tensor (exempt from tidy) that recorded ops still read;
 * undefined when autograd keeps `t` alive anyway. Not part of the public API.
 */
export function disposeKeepingBuffer(t: Tensor): Tensor | undefined {
  return releaseBuffer(t);
}

/** Whether `t` was made by torch.compile's trace. */
export function isTraced(t: Tensor): boolean {
  return !t.isDisposed && bufferState(t) === TRACED;
}

/**
 * `target` becomes `source` converted (another dtype or device, same shape), keeping its identity,
 * requiresGrad and grad (converted too), as PyTorch's Module.to does to parameters and buffers.
 * `source` ends up disposed without freeing its buffer. Not part of the public API.
 */
export function convertInPlace(target: Tensor, source: Tensor, op: string): void {
  if (target === source) return;
  if (inliner() !== undefined) inliner()!.hostRead(target, `${op} (convert in place)`);
  if (target.shape.length !== source.shape.length || target.shape.some((d, i) => d !== source.shape[i])) {
    throw new ShapeError(`${op}: ${source.dtype}[${source.shape.join(", ")}] cannot replace ${target.dtype}[${target.shape.join(", ")}]`);
  }
  if (gradSlot.get(target).gradFn !== null) {
    throw new ArgumentError(`${op}: only leaf tensors can be converted in place, but this ${target.dtype}[${target.shape.join(", ")}] tensor was computed by ${gradSlot.get(target).gradFn!.name}; detach it first`);
  }
  const grad = target.grad;
  const movedGrad = grad === null ? null : grad.to({ dtype: source.dtype, device: source.device });
  gradSlot.setGrad(target, null);
  convertBuffer(target, source);
  if (grad !== null) {
    gradSlot.setGrad(target, movedGrad);
    if (movedGrad !== grad) grad.dispose();
  }
}

/** The buffer handle of a live tensor (DisposedError otherwise). For the runtime, not the public API. */
export function bufferOf(t: Tensor): BufferHandle {
  return bufferOfTensor(t);
}

/** The tensor's raw bytes on the host (no dtype conversion). For the runtime, not the public API. */
export function hostBytesSync(t: Tensor): ArrayBuffer {
  return hostBytesOfTensor(t);
}
