/**
 * @file The safetensors layout, with no I/O and no tensors: the dtype table, the header parser that
 * checks every number before anything is allocated for it, and the header writer.
 *
 * A file is an 8-byte little-endian header length N, N bytes of UTF-8 JSON (padded with spaces), then
 * the data section. The JSON maps each tensor name to `{ dtype, shape, data_offsets: [begin, end] }`
 * (offsets into the data section) plus an optional `__metadata__` of strings. The tensors must cover
 * the data section exactly: no overlaps, no holes, nothing after the last one.
 */
import type { DType } from "../dtype.js";
import { DTypeError, TorchError } from "../runtime/errors.js";

/** A file that is not a well-formed safetensors file: truncated, malformed header, bad offsets. */
export class SafetensorsError extends TorchError {
  override name = "SafetensorsError";
}

/** The reference implementation's limit: a longer header is treated as an attack, not parsed. */
export const MAX_HEADER_BYTES = 100_000_000;

interface FileDType {
  readonly code: string;
  readonly bits: number;
  readonly dtype?: DType;
}

/**
 * Every dtype the format names, in the reference writer's order: it lays tensors out from the last
 * row to the first, so item sizes never grow and each tensor stays aligned to its own item size.
 */
const fileDTypes: readonly FileDType[] = [
  { code: "BOOL", bits: 8, dtype: "bool" },
  { code: "F4", bits: 4 },
  { code: "F6_E2M3", bits: 6 },
  { code: "F6_E3M2", bits: 6 },
  { code: "U8", bits: 8, dtype: "uint8" },
  { code: "I8", bits: 8, dtype: "int8" },
  { code: "F8_E5M2", bits: 8 },
  { code: "F8_E4M3", bits: 8 },
  { code: "F8_E8M0", bits: 8 },
  { code: "F8_E4M3FNUZ", bits: 8 },
  { code: "F8_E5M2FNUZ", bits: 8 },
  { code: "I16", bits: 16, dtype: "int16" },
  { code: "U16", bits: 16, dtype: "uint16" },
  { code: "F16", bits: 16, dtype: "float16" },
  { code: "BF16", bits: 16, dtype: "bfloat16" },
  { code: "I32", bits: 32, dtype: "int32" },
  { code: "U32", bits: 32, dtype: "uint32" },
  { code: "F32", bits: 32, dtype: "float32" },
  { code: "C64", bits: 64 },
  { code: "F64", bits: 64, dtype: "float64" },
  { code: "I64", bits: 64, dtype: "int64" },
  { code: "U64", bits: 64, dtype: "uint64" },
];

const byCode = new Map(fileDTypes.map((d) => [d.code, d]));
const byDType = new Map(fileDTypes.flatMap((d, rank) => (d.dtype ? [[d.dtype, { ...d, rank }] as const] : [])));
const supportedCodes = fileDTypes.filter((d) => d.dtype).map((d) => d.code);

/** The file's code for a library dtype ("bfloat16" → "BF16"). */
export function fileCodeOf(dtype: DType): string {
  return byDType.get(dtype)!.code;
}

/** Sort key of the reference writer: larger item sizes (later rows) first. */
export function writeRank(dtype: DType): number {
  return byDType.get(dtype)!.rank;
}

/** The library dtype of a tensor's file code; a DTypeError for a format dtype the library lacks. */
export function libraryDType(source: string, entry: TensorEntry): DType {
  const dtype = byCode.get(entry.dtype)?.dtype;
  if (dtype === undefined) {
    throw new DTypeError(
      `${source}: tensor "${entry.name}" is ${entry.dtype}, a safetensors dtype torch-pjrt does not have ` +
        `(it reads ${supportedCodes.join(", ")}); convert it before saving, e.g. in Python t.to(torch.bfloat16)`,
    );
  }
  return dtype;
}

export interface TensorEntry {
  readonly name: string;
  /** The file's dtype code ("F32", "BF16", …). */
  readonly dtype: string;
  readonly shape: readonly number[];
  /** Byte range in the data section. */
  readonly begin: number;
  readonly end: number;
}

export interface Header {
  readonly metadata: Record<string, string> | null;
  /** In the header's order. */
  readonly entries: readonly TensorEntry[];
  /** Where the data section starts in the file (8 + header length). */
  readonly dataStart: number;
}

const fail = (source: string, what: string, fix: string): SafetensorsError => new SafetensorsError(`${source}: ${what}; ${fix}`);
const NOT_SAFETENSORS = "the file is not a safetensors file, or is damaged";
const TRUNCATED = "the file is truncated: download or save it again";

/** The header length from the first 8 bytes, checked against the file size and the limit. */
export function headerLength(source: string, fileSize: number, first8: Uint8Array): number {
  if (fileSize < 8 || first8.byteLength < 8) {
    throw fail(source, `${fileSize} bytes is too short for a safetensors file, which starts with an 8-byte header length`, `${NOT_SAFETENSORS} (or ${TRUNCATED})`);
  }
  const n = new DataView(first8.buffer, first8.byteOffset, 8).getBigUint64(0, true);
  if (n > BigInt(MAX_HEADER_BYTES)) {
    throw fail(source, `the header length is ${n} bytes, more than the format's limit of ${MAX_HEADER_BYTES}`, NOT_SAFETENSORS);
  }
  if (n > BigInt(fileSize - 8)) {
    throw fail(source, `the header length is ${n} bytes but the file has only ${fileSize - 8} bytes after the length`, `${TRUNCATED} (or ${NOT_SAFETENSORS})`);
  }
  return Number(n);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isSize = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;

function parseMetadata(source: string, value: unknown): Record<string, string> | null {
  if (value === null) return null;
  if (!isObject(value)) throw fail(source, `"__metadata__" is ${JSON.stringify(value)}, not an object`, "it must map strings to strings");
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== "string") throw fail(source, `"__metadata__" entry "${k}" is ${JSON.stringify(v)}, not a string`, "metadata must map strings to strings");
  }
  return value as Record<string, string>;
}

function parseEntry(source: string, name: string, value: unknown): TensorEntry {
  const bad = (what: string) => fail(source, `tensor "${name}" ${what}`, `each tensor needs { "dtype": "F32", "shape": [2, 3], "data_offsets": [begin, end] }`);
  if (!isObject(value)) throw bad(`is ${JSON.stringify(value)}, not an object`);
  const { dtype, shape, data_offsets: offsets } = value;
  if (typeof dtype !== "string") throw bad(dtype === undefined ? "has no dtype" : `has dtype ${JSON.stringify(dtype)}, not a string`);
  if (!Array.isArray(shape)) throw bad(shape === undefined ? "has no shape" : `has shape ${JSON.stringify(shape)}, not an array`);
  if (!Array.isArray(offsets)) throw bad(offsets === undefined ? "has no data_offsets" : `has data_offsets ${JSON.stringify(offsets)}, not an array`);
  const file = byCode.get(dtype);
  if (file === undefined) {
    throw fail(source, `tensor "${name}" has dtype "${dtype}", which is not a safetensors dtype`, `the format's dtypes are ${fileDTypes.map((d) => d.code).join(", ")}`);
  }
  if (!shape.every(isSize)) throw bad(`has shape ${JSON.stringify(shape)}; sizes must be non-negative integers`);
  if (offsets.length !== 2 || !offsets.every(isSize) || offsets[0] > offsets[1]) {
    throw bad(`has data_offsets ${JSON.stringify(offsets)}; they must be two non-negative integers [begin, end] with begin <= end`);
  }
  let numel = 1;
  for (const d of shape as number[]) {
    numel *= d;
    if (!Number.isSafeInteger(numel)) throw bad(`has shape ${JSON.stringify(shape)}, too many elements to address`);
  }
  const bytes = (numel * file.bits) / 8;
  const [begin, end] = offsets as [number, number];
  if (end - begin !== bytes) {
    throw fail(source, `tensor "${name}" is ${dtype}[${shape.join(", ")}], ${bytes} bytes, but its data_offsets [${begin}, ${end}] span ${end - begin}`, NOT_SAFETENSORS);
  }
  return { name, dtype, shape: shape as number[], begin, end };
}

/** Every tensor inside the data section, and the data section covered exactly once. */
function checkLayout(source: string, entries: TensorEntry[], dataLength: number): void {
  const last = entries.reduce<TensorEntry | undefined>((a, e) => (a === undefined || e.end > a.end ? e : a), undefined);
  if (last !== undefined && last.end > dataLength) {
    throw fail(source, `tensor "${last.name}" ends at byte ${last.end} of the data section, but the file holds only ${dataLength} bytes of data`, TRUNCATED);
  }
  const sorted = [...entries].sort((a, b) => a.begin - b.begin || a.end - b.end);
  let covered = 0;
  let previous: TensorEntry | undefined;
  for (const e of sorted) {
    if (e.begin < covered) throw fail(source, `tensors "${previous!.name}" and "${e.name}" overlap (bytes ${e.begin} to ${Math.min(e.end, covered)})`, NOT_SAFETENSORS);
    if (e.begin > covered) throw fail(source, `bytes ${covered} to ${e.begin} of the data section belong to no tensor`, `${NOT_SAFETENSORS}: the format requires the tensors to cover the data section exactly`);
    covered = e.end;
    previous = e;
  }
  if (covered < dataLength) {
    throw fail(source, `the tensors end at byte ${covered} of the data section but the file has ${dataLength - covered} more bytes`, `${NOT_SAFETENSORS}: the format requires the tensors to cover the data section exactly`);
  }
}

/** Parses and checks the JSON header (the `n` bytes after the length) of a file of `fileSize` bytes. */
export function parseHeader(source: string, fileSize: number, json: Uint8Array): Header {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(json);
  } catch {
    throw fail(source, "the header is not valid UTF-8", NOT_SAFETENSORS);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw fail(source, `the header is not valid JSON (${(error as Error).message})`, NOT_SAFETENSORS);
  }
  if (!isObject(parsed)) throw fail(source, `the header is JSON ${Array.isArray(parsed) ? "array" : String(parsed)}, not an object`, NOT_SAFETENSORS);
  let metadata: Record<string, string> | null = null;
  const entries: TensorEntry[] = [];
  for (const [name, value] of Object.entries(parsed)) {
    if (name === "__metadata__") metadata = parseMetadata(source, value);
    else entries.push(parseEntry(source, name, value));
  }
  const dataStart = 8 + json.byteLength;
  checkLayout(source, entries, fileSize - dataStart);
  return { metadata, entries, dataStart };
}

/** The reference writer's name order: UTF-8 bytes, not UTF-16 code units. */
const utf8 = new TextEncoder();
function compareNames(a: string, b: string): number {
  return Buffer.compare(utf8.encode(a), utf8.encode(b));
}

export interface Planned<T> {
  readonly name: string;
  readonly item: T;
  readonly dtype: DType;
  readonly shape: readonly number[];
  readonly bytes: number;
}

/**
 * The header (length prefix, JSON, space padding to a multiple of 8) and the order to write the data
 * in: by dtype as the reference writer orders it, then by name, so our files equal its files byte for
 * byte. Keys are written in that order by hand: a JS object would move integer-like names first.
 */
export function layout<T>(items: Planned<T>[], metadata: Record<string, string> | undefined): { header: Uint8Array; order: Planned<T>[]; dataBytes: number } {
  const order = [...items].sort((a, b) => writeRank(b.dtype) - writeRank(a.dtype) || compareNames(a.name, b.name));
  const fields: string[] = [];
  if (metadata !== undefined) {
    const pairs = Object.entries(metadata).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`);
    fields.push(`"__metadata__":{${pairs.join(",")}}`);
  }
  let offset = 0;
  for (const p of order) {
    fields.push(`${JSON.stringify(p.name)}:{"dtype":"${fileCodeOf(p.dtype)}","shape":[${p.shape.join(",")}],"data_offsets":[${offset},${offset + p.bytes}]}`);
    offset += p.bytes;
  }
  const json = utf8.encode(`{${fields.join(",")}}`);
  const padded = Math.ceil(json.byteLength / 8) * 8;
  const header = new Uint8Array(8 + padded).fill(0x20, 8 + json.byteLength);
  new DataView(header.buffer).setBigUint64(0, BigInt(padded), true);
  header.set(json, 8);
  return { header, order, dataBytes: offset };
}
