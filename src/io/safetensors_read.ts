/**
 * @file Reading safetensors: sources (a file read by positioned reads, or a caller's buffer), the load
 * plan (the header checked and every dtype resolved before any tensor data is read), and the tensor
 * made from one entry's bytes. Each range is read into a buffer of its own size, handed to the device
 * and dropped, so a checkpoint is never held in memory twice.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { type DeviceLike, parseDevice, unsupportedDTypes } from "../device.js";
import { type DType, dtypeNames, dtypes, isDType, isFloating } from "../dtype.js";
import { tensor } from "../ops/creation/tensor.js";
import { ArgumentError, DTypeError } from "../runtime/errors.js";
import { closestName } from "../suggest.js";
import type { Tensor } from "../tensor.js";
import { type Header, headerLength, libraryDType, parseHeader, SafetensorsError, type TensorEntry } from "./safetensors_format.js";

export interface LoadProgress {
  /** Bytes of tensor data loaded so far (all files of a sharded checkpoint together). */
  loadedBytes: number;
  totalBytes: number;
  /** The name of the tensor just loaded. */
  tensor: string;
}

export interface LoadOptions {
  /** Where the tensors go (default "cpu"). */
  device?: DeviceLike;
  /** Converts the floating-point tensors to this floating dtype; integer and bool tensors stay as they are. */
  dtype?: DType;
  /** Called after each tensor is on the device. */
  onProgress?: (progress: LoadProgress) => void;
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export function checkKeys(op: string, options: unknown, known: readonly string[]): void {
  if (options === undefined) return;
  if (!isObject(options)) throw new ArgumentError(`${op}: options must be an object ({ ${known.join(", ")} }), got ${Array.isArray(options) ? "an array" : String(options)}`);
  for (const key of Object.keys(options)) {
    if (known.includes(key)) continue;
    const near = closestName(key, known);
    throw new ArgumentError(`${op}: got an unknown option "${key}"${near ? `; did you mean "${near}"?` : `; the options are ${known.join(", ")}`}`);
  }
}

/** Load options, checked before any file is opened. */
export function loadOptions(op: string, options: LoadOptions | undefined): LoadOptions {
  checkKeys(op, options, ["device", "dtype", "onProgress"]);
  const { device, dtype, onProgress } = options ?? {};
  parseDevice(device);
  if (dtype !== undefined && !isDType(dtype)) {
    const near = closestName(String(dtype), dtypeNames);
    throw new DTypeError(`${op}: unknown dtype "${String(dtype)}"${near ? `; did you mean "${near}"?` : `; expected one of ${dtypeNames.join(", ")}`}`);
  }
  if (dtype !== undefined && !isFloating(dtype)) {
    throw new ArgumentError(`${op}: { dtype: "${dtype}" } is not a floating dtype; the option converts a checkpoint's floating-point tensors (as Module.to(dtype) does) and leaves integer and bool tensors as they are`);
  }
  if (onProgress !== undefined && typeof onProgress !== "function") throw new ArgumentError(`${op}: onProgress must be a function, got ${typeof onProgress}`);
  return { device: device ?? "cpu", dtype, onProgress }; // safetensors' load_file: "cpu" unless told, whatever the default device
}

/** A safetensors file or buffer, read synchronously. */
export interface Source {
  readonly name: string;
  readonly size: number;
  /** Exactly `length` bytes at `offset`: memory of their own, or a view of the caller's buffer. */
  read(offset: number, length: number): Uint8Array;
}

/** Node reads at most 2 GiB − 1 bytes in one call. */
const CHUNK = 1 << 30;

function shortRead(path: string, at: number, size: number): SafetensorsError {
  return new SafetensorsError(`${path}: the file ended at byte ${at} while it was being read (it was ${size} bytes when opened); something else is writing or truncating it`);
}

/** Runs `fn` on a file opened for positioned reads, closing it after. */
export function withFile<T>(op: string, path: string, fn: (source: Source) => T): T {
  if (typeof path !== "string") throw new ArgumentError(`${op}: expected a file path (a string), got ${typeof path}`);
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    const read = (offset: number, length: number): Uint8Array => {
      const out = new Uint8Array(length);
      for (let done = 0; done < length; ) {
        const n = readSync(fd, out, done, Math.min(length - done, CHUNK), offset + done);
        if (n === 0) throw shortRead(path, offset + done, size);
        done += n;
      }
      return out;
    };
    return fn({ name: path, size, read });
  } finally {
    closeSync(fd);
  }
}

/** An async positioned reader over an open file. */
export function asyncReader(path: string, file: FileHandle, size: number): (offset: number, length: number) => Promise<Uint8Array> {
  return async (offset, length) => {
    const out = new Uint8Array(length);
    for (let done = 0; done < length; ) {
      const { bytesRead } = await file.read(out, done, Math.min(length - done, CHUNK), offset + done);
      if (bytesRead === 0) throw shortRead(path, offset + done, size);
      done += bytesRead;
    }
    return out;
  };
}

export function bytesSource(op: string, bytes: Uint8Array): Source {
  if (!(bytes instanceof Uint8Array)) throw new ArgumentError(`${op}: expected a Uint8Array (or Buffer) holding a safetensors file, got ${bytes === null ? "null" : typeof bytes}`);
  return { name: `${op}(bytes)`, size: bytes.byteLength, read: (offset, length) => bytes.subarray(offset, offset + length) };
}

export function readHeader(source: Source): Header {
  const n = headerLength(source.name, source.size, source.read(0, Math.min(8, source.size)));
  return parseHeader(source.name, source.size, source.read(8, n));
}

/** Sets `record[name]` as an own property, even when the name is "__proto__". */
export function setEntry<T>(record: Record<string, T>, name: string, value: T): void {
  Object.defineProperty(record, name, { value, enumerable: true, writable: true, configurable: true });
}

export function disposeAll(record: Record<string, Tensor>): void {
  for (const t of Object.values(record)) t.dispose();
}

export interface Plan {
  readonly header: Header;
  /** The entries to load, in file order, each with its library dtype. */
  readonly items: readonly { entry: TensorEntry; dtype: DType }[];
  readonly bytes: number;
}

/** The entries of a checked header to load (those in `only`, if given), every dtype resolved. */
export function plan(name: string, header: Header, only?: ReadonlySet<string>): Plan {
  const entries = header.entries.filter((e) => only === undefined || only.has(e.name)).sort((a, b) => a.begin - b.begin);
  const items = entries.map((entry) => ({ entry, dtype: libraryDType(name, entry) }));
  return { header, items, bytes: items.reduce((sum, { entry }) => sum + entry.end - entry.begin, 0) };
}

/** The tensor of one entry's bytes, on the device and in the dtype the options ask for. */
export function makeTensor(entry: TensorEntry, dtype: DType, bytes: Uint8Array, options: LoadOptions): Tensor {
  const info = dtypes[dtype];
  // A view of a caller's buffer may start where its element type cannot.
  const aligned = bytes.byteOffset % info.itemSize === 0 ? bytes : new Uint8Array(bytes);
  // float16/bfloat16 stay raw 16-bit words: torch.tensor uploads a Uint16Array of them as it is.
  const words = new info.storage(aligned.buffer, aligned.byteOffset, aligned.byteLength / info.itemSize);
  const want = options.dtype !== undefined && isFloating(dtype) ? options.dtype : dtype;
  if (want === dtype) return tensor(words, { dtype, device: options.device, shape: entry.shape });
  // A device that cannot hold the file's dtype (a TPU, float64) gets the tensor converted on the CPU.
  const staged = unsupportedDTypes[parseDevice(options.device).type]?.includes(dtype) ? "cpu" : options.device;
  const t = tensor(words, { dtype, device: staged, shape: entry.shape });
  try {
    return t.to({ dtype: want, device: options.device });
  } finally {
    t.dispose();
  }
}

/** Counts loaded bytes (across files) and reports each tensor. */
export function progress(totalBytes: number, onProgress: LoadOptions["onProgress"]): (entry: TensorEntry) => void {
  let loadedBytes = 0;
  return (entry) => {
    loadedBytes += entry.end - entry.begin;
    onProgress?.({ loadedBytes, totalBytes, tensor: entry.name });
  };
}

/** Loads a plan's tensors from `source` into `out`; on failure the caller disposes `out`. */
export function loadPlan(source: Source, p: Plan, options: LoadOptions, report: (entry: TensorEntry) => void, out: Record<string, Tensor>): void {
  for (const { entry, dtype } of p.items) {
    const bytes = source.read(p.header.dataStart + entry.begin, entry.end - entry.begin);
    setEntry(out, entry.name, makeTensor(entry, dtype, bytes, options));
    report(entry);
  }
}

/** All tensors of a source; nothing is left on the device when it fails. */
export function loadAll(source: Source, options: LoadOptions): Record<string, Tensor> {
  const p = plan(source.name, readHeader(source));
  const out: Record<string, Tensor> = {};
  try {
    loadPlan(source, p, options, progress(p.bytes, options.onProgress), out);
  } catch (error) {
    disposeAll(out);
    throw error;
  }
  return out;
}
