/**
 * @file Sharded checkpoints as Hugging Face writes them: shard files next to
 * `model.safetensors.index.json`, whose `weight_map` names the shard of each tensor.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { ArgumentError } from "../runtime/errors.js";
import type { Tensor } from "../tensor.js";
import { SafetensorsError } from "./safetensors_format.js";
import {
  checkKeys,
  disposeAll,
  isObject,
  loadAll,
  type LoadOptions,
  loadOptions,
  loadPlan,
  plan,
  type Plan,
  progress,
  readHeader,
  setEntry,
  type Source,
  withFile,
} from "./safetensors_read.js";
import { planSave, saveFile } from "./safetensors_write.js";

const INDEX = "model.safetensors.index.json";
const SINGLE = "model.safetensors";

/** The index file of a folder, or a single-file checkpoint when there is no index. */
function locate(op: string, path: string): { index: string } | { file: string } {
  if (typeof path !== "string") throw new ArgumentError(`${op}: expected a folder or file path (a string), got ${typeof path}`);
  if (!statSync(path).isDirectory()) return path.endsWith(".json") ? { index: path } : { file: path };
  if (existsSync(join(path, INDEX))) return { index: join(path, INDEX) };
  const names = readdirSync(path);
  const indexes = names.filter((n) => n.endsWith(".safetensors.index.json"));
  if (indexes.length === 1) return { index: join(path, indexes[0]!) };
  if (indexes.length === 0 && names.includes(SINGLE)) return { file: join(path, SINGLE) };
  throw new ArgumentError(
    `${op}: ${path} has ${indexes.length === 0 ? `neither ${INDEX} nor ${SINGLE}` : `several index files (${indexes.join(", ")})`}; pass the path of the index or file to load`,
  );
}

/** The weight map of an index: tensor name → shard path inside the index's folder. */
function readIndex(path: string): Map<string, string[]> {
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new SafetensorsError(`${path}: not a valid JSON index (${(error as Error).message})`);
  }
  const map = isObject(doc) ? doc.weight_map : undefined;
  if (!isObject(map)) throw new SafetensorsError(`${path}: the index has no "weight_map" object mapping each tensor name to its shard file`);
  const folder = dirname(resolve(path));
  const shards = new Map<string, string[]>();
  for (const [name, file] of Object.entries(map)) {
    if (typeof file !== "string") throw new SafetensorsError(`${path}: weight_map["${name}"] is ${JSON.stringify(file)}, not a file name`);
    const shard = resolve(folder, file);
    const inside = relative(folder, shard);
    if (inside === "" || inside.startsWith("..") || isAbsolute(inside)) {
      throw new SafetensorsError(`${path}: weight_map["${name}"] is "${file}", outside the index's folder; shard files must sit next to the index`);
    }
    shards.set(shard, [...(shards.get(shard) ?? []), name]);
  }
  return shards;
}

/** Opens every shard in turn, keeping them open for `fn`. */
function withShards<T>(op: string, files: string[], fn: (sources: Source[]) => T, opened: Source[] = []): T {
  if (opened.length === files.length) return fn(opened);
  return withFile(op, files[opened.length]!, (source) => withShards(op, files, fn, [...opened, source]));
}

/**
 * The tensors of a sharded checkpoint: a folder holding `model.safetensors.index.json` (or one
 * `*.safetensors.index.json`, or just `model.safetensors`), or the path of an index or of a single
 * file. Every shard's header is checked, and every tensor of the index found, before any is loaded.
 */
export function loadSharded(path: string, options?: LoadOptions): Record<string, Tensor> {
  const op = "safetensors.loadSharded";
  const checked = loadOptions(op, options);
  const where = locate(op, path);
  if ("file" in where) return withFile(op, where.file, (source) => loadAll(source, checked));
  const shards = readIndex(where.index);
  return withShards(op, [...shards.keys()], (sources) => {
    const plans: Plan[] = sources.map((source) => {
      const names = shards.get(source.name)!;
      const header = readHeader(source);
      const present = new Set(header.entries.map((e) => e.name));
      const missing = names.filter((n) => !present.has(n));
      if (missing.length > 0) {
        throw new SafetensorsError(`${where.index}: maps ${missing.map((n) => `"${n}"`).join(", ")} to ${source.name}, which has no such tensor; the checkpoint is incomplete or its index is stale`);
      }
      return plan(source.name, header, new Set(names));
    });
    const report = progress(plans.reduce((sum, p) => sum + p.bytes, 0), checked.onProgress);
    const out: Record<string, Tensor> = {};
    try {
      plans.forEach((p, i) => loadPlan(sources[i]!, p, checked, report, out));
    } catch (error) {
      disposeAll(out);
      throw error;
    }
    return out;
  });
}

export interface SaveShardedOptions {
  /** The largest shard in bytes of tensor data (Hugging Face's default, 5 GB); a bigger tensor gets a shard of its own. */
  maxShardSize?: number;
  /** Each shard's `__metadata__`; `{ format: "pt" }` (what Transformers checks for) unless given. */
  metadata?: Record<string, string>;
}

/**
 * Writes `record` into `folder` as Hugging Face does: `model.safetensors` when it fits one shard,
 * else `model-00001-of-0000N.safetensors`, … and `model.safetensors.index.json`. Returns the paths
 * written.
 */
export function saveSharded(record: Record<string, Tensor>, folder: string, options?: SaveShardedOptions): string[] {
  const op = "safetensors.saveSharded";
  checkKeys(op, options, ["maxShardSize", "metadata"]);
  const maxShardSize = options?.maxShardSize ?? 5_000_000_000;
  if (!Number.isSafeInteger(maxShardSize) || maxShardSize <= 0) throw new ArgumentError(`${op}: maxShardSize must be a positive whole number of bytes, got ${maxShardSize}`);
  const metadata = options?.metadata ?? { format: "pt" };
  const shards: { names: string[]; bytes: number }[] = [];
  for (const p of planSave(op, record, { metadata }).items) {
    const last = shards.at(-1);
    if (last === undefined || last.bytes + p.bytes > maxShardSize) shards.push({ names: [p.name], bytes: p.bytes });
    else {
      last.names.push(p.name);
      last.bytes += p.bytes;
    }
  }
  mkdirSync(folder, { recursive: true });
  const total = shards.reduce((sum, shard) => sum + shard.bytes, 0);
  const pick = (names: string[]) => Object.fromEntries(names.map((n) => [n, record[n]!]));
  if (shards.length <= 1) {
    const file = join(folder, SINGLE);
    saveFile(record, file, { metadata });
    return [file];
  }
  const width = Math.max(5, String(shards.length).length);
  const fileName = (i: number) => `model-${String(i + 1).padStart(width, "0")}-of-${String(shards.length).padStart(width, "0")}.safetensors`;
  const weightMap: Record<string, string> = {};
  const written = shards.map((shard, i) => {
    const file = join(folder, fileName(i));
    saveFile(pick(shard.names), file, { metadata });
    for (const n of shard.names) setEntry(weightMap, n, fileName(i));
    return file;
  });
  const sorted = Object.fromEntries(Object.keys(weightMap).sort().map((k) => [k, weightMap[k]!]));
  const index = join(folder, INDEX);
  writeFileSync(index, `${JSON.stringify({ metadata: { total_size: total }, weight_map: sorted }, null, 2)}\n`);
  return [...written, index];
}
