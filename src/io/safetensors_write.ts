/**
 * @file Writing safetensors: the record checked, laid out as the reference writer lays it out
 * (./safetensors_format.ts), and each tensor's raw bytes copied from its device.
 */
import { closeSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { dtypes } from "../dtype.js";
import { ArgumentError, DisposedError } from "../runtime/errors.js";
import { hostBytesSync, Tensor } from "../tensor.js";
import { layout, type Planned, SafetensorsError } from "./safetensors_format.js";
import { checkKeys, isObject } from "./safetensors_read.js";

export interface SaveOptions {
  /** Free-form string → string pairs, written as the header's `__metadata__`. */
  metadata?: Record<string, string>;
}

function checkMetadata(op: string, options: SaveOptions | undefined): Record<string, string> | undefined {
  checkKeys(op, options, ["metadata"]);
  const metadata = options?.metadata;
  if (metadata === undefined) return undefined;
  if (!isObject(metadata)) throw new ArgumentError(`${op}: metadata must be an object of strings, got ${Array.isArray(metadata) ? "an array" : String(metadata)}`);
  for (const [k, v] of Object.entries(metadata)) {
    if (typeof v !== "string") {
      throw new ArgumentError(`${op}: metadata "${k}" is ${v === null ? "null" : typeof v}; safetensors metadata maps strings to strings, so pass String(value) or JSON.stringify(value)`);
    }
  }
  return metadata;
}

/** The header and write order of a record, every tensor checked before anything is read. */
export function planSave(op: string, record: Record<string, Tensor>, options: SaveOptions | undefined) {
  const metadata = checkMetadata(op, options);
  if (!isObject(record)) throw new ArgumentError(`${op}: expected a record of tensors ({ name: Tensor }), got ${Array.isArray(record) ? "an array" : String(record)}`);
  const items: Planned<Tensor>[] = Object.entries(record).map(([name, t]) => {
    if (name === "__metadata__") throw new ArgumentError(`${op}: "__metadata__" cannot name a tensor (the format keeps it for metadata); pass { metadata } instead`);
    if (!(t instanceof Tensor)) throw new ArgumentError(`${op}: "${name}" is ${t === null ? "null" : typeof t}, not a Tensor`);
    if (t.isDisposed) throw new DisposedError(`${op}: tensor "${name}" has been disposed`);
    return { name, item: t, dtype: t.dtype, shape: t.shape, bytes: t.numel() * dtypes[t.dtype].itemSize };
  });
  return { ...layout(items, metadata), items };
}

/** A tensor's bytes as the file stores them (float16/bfloat16 as their raw words). */
function rawBytes(p: Planned<Tensor>): Uint8Array {
  const bytes = new Uint8Array(hostBytesSync(p.item));
  if (bytes.byteLength !== p.bytes) throw new SafetensorsError(`tensor "${p.name}": the device returned ${bytes.byteLength} bytes for ${p.dtype}[${p.shape.join(", ")}], expected ${p.bytes}`);
  return bytes;
}

/** A safetensors file as bytes (PyTorch: `safetensors.torch.save(tensors, metadata)`). */
export function save(record: Record<string, Tensor>, options?: SaveOptions): Uint8Array {
  const { header: head, order, dataBytes } = planSave("safetensors.save", record, options);
  const out = new Uint8Array(head.byteLength + dataBytes);
  out.set(head);
  let at = head.byteLength;
  for (const p of order) {
    out.set(rawBytes(p), at);
    at += p.bytes;
  }
  return out;
}

function writeAll(fd: number, bytes: Uint8Array): void {
  for (let done = 0; done < bytes.byteLength; ) done += writeSync(fd, bytes, done, bytes.byteLength - done);
}

/**
 * Writes a safetensors file (PyTorch: `safetensors.torch.save_file(tensors, path, metadata)`) one
 * tensor at a time, to a temporary file renamed to `path` once complete.
 */
export function saveFile(record: Record<string, Tensor>, path: string, options?: SaveOptions): void {
  const { header: head, order } = planSave("safetensors.saveFile", record, options);
  if (typeof path !== "string") throw new ArgumentError(`safetensors.saveFile: expected a file path (a string), got ${typeof path}`);
  const temporary = `${path}.${process.pid}.tmp`;
  let fd: number | undefined = openSync(temporary, "w");
  try {
    writeAll(fd, head);
    for (const p of order) writeAll(fd, rawBytes(p));
    closeSync(fd);
    fd = undefined;
    renameSync(temporary, path);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    rmSync(temporary, { force: true });
    throw error;
  }
}
