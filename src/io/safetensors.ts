/**
 * @file `torch.safetensors`: tensors to and from safetensors files and buffers (docs/safetensors.md).
 * The layout and its checks are ./safetensors_format.ts, reading is ./safetensors_read.ts, the
 * sharded form (`model.safetensors.index.json`) is ./safetensors_sharded.ts.
 */
import { open } from "node:fs/promises";
import { ArgumentError } from "../runtime/errors.js";
import type { Tensor } from "../tensor.js";
import { type Header, headerLength, parseHeader } from "./safetensors_format.js";
import {
  asyncReader,
  bytesSource,
  disposeAll,
  loadAll,
  type LoadOptions,
  loadOptions,
  makeTensor,
  plan,
  progress,
  readHeader,
  setEntry,
  withFile,
} from "./safetensors_read.js";

export { SafetensorsError } from "./safetensors_format.js";
export type { LoadOptions, LoadProgress } from "./safetensors_read.js";
export { loadSharded, saveSharded, type SaveShardedOptions } from "./safetensors_sharded.js";
export { save, saveFile, type SaveOptions } from "./safetensors_write.js";

/** What `header()` tells of one tensor without loading it. */
export interface TensorInfo {
  /** The file's dtype code: "F32", "BF16", "F8_E4M3", … */
  dtype: string;
  shape: number[];
  /** Byte range in the data section. */
  dataOffsets: [number, number];
}

/** The tensors of a safetensors file (PyTorch: `safetensors.torch.load_file(path, device)`). */
export function loadFile(path: string, options?: LoadOptions): Record<string, Tensor> {
  const checked = loadOptions("safetensors.loadFile", options);
  return withFile("safetensors.loadFile", path, (source) => loadAll(source, checked));
}

/** loadFile, reading the file without blocking the event loop. */
export async function loadFileAsync(path: string, options?: LoadOptions): Promise<Record<string, Tensor>> {
  const checked = loadOptions("safetensors.loadFileAsync", options);
  if (typeof path !== "string") throw new ArgumentError(`safetensors.loadFileAsync: expected a file path (a string), got ${typeof path}`);
  const file = await open(path, "r");
  try {
    const size = (await file.stat()).size;
    const read = asyncReader(path, file, size);
    const n = headerLength(path, size, await read(0, Math.min(8, size)));
    const p = plan(path, parseHeader(path, size, await read(8, n)));
    const report = progress(p.bytes, checked.onProgress);
    const out: Record<string, Tensor> = {};
    try {
      for (const { entry, dtype } of p.items) {
        const bytes = await read(p.header.dataStart + entry.begin, entry.end - entry.begin);
        setEntry(out, entry.name, makeTensor(entry, dtype, bytes, checked));
        report(entry);
      }
    } catch (error) {
      disposeAll(out);
      throw error;
    }
    return out;
  } finally {
    await file.close();
  }
}

/** The tensors of a safetensors file held in memory (PyTorch: `safetensors.torch.load(data)`). */
export function load(bytes: Uint8Array, options?: LoadOptions): Record<string, Tensor> {
  const checked = loadOptions("safetensors.load", options);
  return loadAll(bytesSource("safetensors.load", bytes), checked);
}

function headerOf(op: string, pathOrBytes: string | Uint8Array): Header {
  return typeof pathOrBytes === "string" ? withFile(op, pathOrBytes, readHeader) : readHeader(bytesSource(op, pathOrBytes));
}

/** The header's `__metadata__` (null when it has none), without reading any tensor. */
export function metadata(pathOrBytes: string | Uint8Array): Record<string, string> | null {
  const h = headerOf("safetensors.metadata", pathOrBytes);
  return h.metadata === null ? null : { ...h.metadata };
}

/** The metadata and each tensor's file dtype, shape and byte range, without reading any tensor. */
export function header(pathOrBytes: string | Uint8Array): { metadata: Record<string, string> | null; tensors: Record<string, TensorInfo> } {
  const h = headerOf("safetensors.header", pathOrBytes);
  const tensors: Record<string, TensorInfo> = {};
  for (const e of h.entries) setEntry(tensors, e.name, { dtype: e.dtype, shape: [...e.shape], dataOffsets: [e.begin, e.end] });
  return { metadata: h.metadata === null ? null : { ...h.metadata }, tensors };
}
