/**
 * @file torch.compile's persistent cache: compiled executables kept on disk so that another process's
 * first call of the same function loads its executable instead of compiling it. An entry's key is the
 * sha256 of the module text, the plugin build (platform name and version, library path, size and
 * time), the compile options with the device kind, and this package's version.
 *
 * Nothing here throws into the user's call, except a malformed env TORCH_PJRT_CACHE_MAX_BYTES: an
 * unreadable, corrupt or rejected entry is compiled anew and written again, an unwritable folder is
 * one warning, a plugin that cannot serialize executables is not cached. Files are written whole (a temporary file renamed), so readers never see half of one.
 * The folder's size limit and its least-recently-used eviction are in disk_lru.ts.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { addon } from "../runtime/addon.js";
import { packageRoot } from "../runtime/paths.js";
import type { NativeExecutable } from "../runtime/native.js";
import type { CacheEntry } from "../trace/cache.js";
import { type CompileJob, compileJob, entryOf, prepareCompile } from "../trace/eager.js";
import type { Graph } from "../trace/graph.js";
import { entryName, touch, trim } from "./disk_lru.js";
import { compilerConfig } from "./stats.js";

/** Starts every entry file; the digit is the file format's version. */
const magic = Buffer.from("torch-pjrt executable 1\n");
const digestBytes = 32;
const headerBytes = magic.length + 2 * digestBytes;

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The folder of the persistent cache, or undefined when it is off (env TORCH_PJRT_CACHE_DIR="").
 * Env TORCH_PJRT_CACHE_DIR, else the user's cache folder: $XDG_CACHE_HOME or ~/.cache on Linux,
 * ~/Library/Caches on macOS, %LOCALAPPDATA% on Windows; in a `torch-pjrt` folder there.
 */
export function cacheDir(env: Env = process.env, platform: string = process.platform, home: () => string = homedir): string | undefined {
  const chosen = env.TORCH_PJRT_CACHE_DIR;
  if (chosen !== undefined) return chosen === "" ? undefined : resolve(chosen);
  if (platform === "win32") return join(env.LOCALAPPDATA || join(home(), "AppData", "Local"), "torch-pjrt");
  if (platform === "darwin") return join(home(), "Library", "Caches", "torch-pjrt");
  const xdg = env.XDG_CACHE_HOME;
  return join(xdg !== undefined && isAbsolute(xdg) ? xdg : join(home(), ".cache"), "torch-pjrt");
}

let version: string | undefined;
function packageVersion(): string {
  if (version === undefined) {
    try {
      version = String((JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as { version?: unknown }).version);
    } catch {
      version = "unknown";
    }
  }
  return version;
}

const libraryStamps = new Map<string, string>();
/** Size and modification time of a plugin library: a rebuilt or reinstalled plugin is another build. */
function libraryStamp(path: string): string {
  let stamp = libraryStamps.get(path);
  if (stamp === undefined) {
    try {
      const s = statSync(path);
      stamp = `${s.size}:${s.mtimeMs}`;
    } catch {
      stamp = "";
    }
    libraryStamps.set(path, stamp);
  }
  return stamp;
}

/** The entry's key: what must be equal for a stored executable to be the one this job compiles. */
function keyOf(job: CompileJob, moduleText: string): Buffer {
  const { client, deviceIndex } = job.target;
  const { numReplicas, numPartitions, deviceAssignment = [] } = job.options;
  const parts = [
    packageVersion(),
    client.native.platformName,
    client.native.platformVersion,
    client.plugin.path,
    libraryStamp(client.plugin.path),
    client.devices[deviceIndex]!.kind,
    `replicas ${numReplicas} partitions ${numPartitions} devices ${deviceAssignment.join(",")}`,
    moduleText,
  ];
  const hash = createHash("sha256");
  for (const part of parts) hash.update(part).update("\0");
  return hash.digest();
}

const sha256 = (bytes: Uint8Array): Buffer => createHash("sha256").update(bytes).digest();

/** The serialized executable stored under `key`, or undefined when the file is missing, truncated or corrupt. */
function readEntry(file: string, key: Buffer): Uint8Array | undefined {
  let data: Buffer;
  try {
    data = readFileSync(file);
  } catch {
    return undefined;
  }
  if (data.length < headerBytes || !data.subarray(0, magic.length).equals(magic)) return undefined;
  if (!data.subarray(magic.length, magic.length + digestBytes).equals(key)) return undefined;
  const payload = data.subarray(headerBytes);
  return sha256(payload).equals(data.subarray(magic.length + digestBytes, headerBytes)) ? payload : undefined;
}

const unwritable = new Set<string>();

/** Writes the entry, unless it alone is over the size limit, then trims the folder to the limit. */
function writeEntry({ dir, name, file, key, maxBytes }: Where, payload: Uint8Array): void {
  const data = Buffer.concat([magic, key, sha256(payload), payload]);
  if (data.length > maxBytes) return;
  const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(temporary, data);
    renameSync(temporary, file);
    trim(dir, maxBytes, name);
  } catch (error) {
    try {
      unlinkSync(temporary);
    } catch {
      // never written
    }
    if (unwritable.has(dir)) return;
    unwritable.add(dir);
    const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    process.emitWarning(
      `torch.compile: cannot write the persistent cache in ${dir} (${why}); compiled executables are not kept. ` +
        `Set env TORCH_PJRT_CACHE_DIR to a writable folder, or turn the cache off with torch.compiler.config.persistentCache = false.`,
      { code: "TORCH_PJRT_CACHE" },
    );
  }
}

/** The plugin's executable from `bytes`, or undefined when it rejects them or they do not fit the graph. */
function load(job: CompileJob, bytes: Uint8Array): NativeExecutable | undefined {
  let native: NativeExecutable;
  try {
    native = job.target.client.native.deserializeAndLoad(bytes, job.options);
  } catch {
    return undefined;
  }
  const shapes = job.graph.outputs.map((o) => job.graph.avals[o]!.shape);
  const dims = native.outputDims;
  if (dims.length === shapes.length && shapes.every((s, k) => s.length === dims[k]!.length && s.every((d, i) => d === dims[k]![i]))) return native;
  native.dispose();
  return undefined;
}

interface Where {
  readonly dir: string;
  readonly name: string;
  readonly file: string;
  readonly key: Buffer;
  readonly text: string;
  readonly maxBytes: number;
}

/** Where an entry is, when the cache is on and the job's module text can be printed. */
function locate(job: CompileJob): Where | undefined {
  if (!compilerConfig.persistentCache) return undefined;
  const dir = cacheDir();
  if (dir === undefined) return undefined;
  const maxBytes = compilerConfig.cacheMaxBytes;
  if (maxBytes === 0) return undefined;
  try {
    const text = addon().printGraph(job.wire);
    const key = keyOf(job, text);
    const name = entryName(key);
    return { dir, name, file: join(dir, name), key, text, maxBytes };
  } catch {
    return undefined; // the compile that follows reports what is wrong with the graph
  }
}

/**
 * A compiled function's graph as a cache entry: loaded from the persistent cache when it holds the
 * executable, else compiled and stored there.
 */
export function compileGraphCached(op: string, graph: Graph, single: boolean, device: string): { entry: CacheEntry; fromDisk: boolean } {
  const job = prepareCompile(op, graph, single, device);
  const where = locate(job);
  const stored = where === undefined ? undefined : readEntry(where.file, where.key);
  const loaded = stored === undefined ? undefined : load(job, stored);
  if (loaded !== undefined) {
    touch(where!.file);
    return { entry: entryOf(job, loaded), fromDisk: true };
  }
  const native = compileJob(job, where?.text);
  if (where !== undefined) {
    let bytes: Uint8Array | undefined;
    try {
      bytes = native.serialize();
    } catch {
      // this plugin does not serialize executables
    }
    if (bytes !== undefined) writeEntry(where, bytes);
  }
  return { entry: entryOf(job, native), fromDisk: false };
}
