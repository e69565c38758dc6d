/**
 * @file torch.compiler's global state: its configuration (cache size limit, donation, the persistent
 * cache and its size limit), the counters of every compiled function together, recompile logging (env
 * TORCH_PJRT_LOGS=recompiles) and the warnings each compiled function gives once.
 */
import { ArgumentError } from "../runtime/errors.js";

let cacheSizeLimit = 8;
let donateBuffers = true;
let persistentCache = true;
/** Set by torch.compiler.config.cacheMaxBytes; undefined: env TORCH_PJRT_CACHE_MAX_BYTES, else the default. */
let cacheMaxBytes: number | undefined;

/**
 * The default size limit of the persistent cache, 1 GiB: serialized executables of real plugins take
 * from kilobytes to tens of megabytes (a large training step on libtpu), so this keeps the working set
 * of many programs while a folder under the user's cache directory stays small next to their models.
 */
const defaultCacheMaxBytes = 2 ** 30;

const maxBytesRule = "a whole number of bytes, 0 or more (2 ** 30 is 1 GiB; 0 turns the persistent cache off; Infinity removes the limit)";

/** `n` when it is a valid cache size limit, else an ArgumentError naming `what`. */
function checkMaxBytes(n: unknown, what: string, fix: string): number {
  if (n === Infinity || (typeof n === "number" && Number.isSafeInteger(n) && n >= 0)) return n;
  throw new ArgumentError(`${what} must be ${maxBytesRule}, got ${typeof n === "string" ? JSON.stringify(n) : String(n)}${fix}`);
}

/** Env TORCH_PJRT_CACHE_MAX_BYTES, read at each use as TORCH_PJRT_CACHE_DIR is; undefined when unset or empty. */
function envMaxBytes(): number | undefined {
  const text = process.env.TORCH_PJRT_CACHE_MAX_BYTES?.trim();
  if (text === undefined || text === "") return undefined;
  const n = /^\d+$/.test(text) ? Number(text) : text === "Infinity" ? Infinity : text;
  return checkMaxBytes(n, "env TORCH_PJRT_CACHE_MAX_BYTES", "; unset it for the default (1 GiB)");
}

/** torch.compiler.config: `cacheSizeLimit` (signatures per compiled function before it runs new ones eagerly; Dynamo's is 8). */
export const compilerConfig = {
  get cacheSizeLimit(): number {
    return cacheSizeLimit;
  },
  set cacheSizeLimit(n: number) {
    if (!Number.isInteger(n) || n < 1) throw new ArgumentError(`torch.compiler.config.cacheSizeLimit must be a positive integer, got ${String(n)}`);
    cacheSizeLimit = n;
  },
  /**
   * Whether a compiled function gives the old buffers of the tensors it updates (parameters after
   * an optimizer step, running statistics) to their new values, so a step does not double their
   * memory (PJRT buffer donation). On by default.
   */
  get donateBuffers(): boolean {
    return donateBuffers;
  },
  set donateBuffers(on: boolean) {
    if (typeof on !== "boolean") throw new ArgumentError(`torch.compiler.config.donateBuffers must be a boolean, got ${String(on)}`);
    donateBuffers = on;
  },
  /**
   * Whether compiled functions keep their executables on disk (in env TORCH_PJRT_CACHE_DIR, else the
   * user's cache folder) and load them from there in later processes instead of compiling. On by
   * default; env TORCH_PJRT_CACHE_DIR="" turns it off as well.
   */
  get persistentCache(): boolean {
    return persistentCache;
  },
  set persistentCache(on: boolean) {
    if (typeof on !== "boolean") throw new ArgumentError(`torch.compiler.config.persistentCache must be a boolean, got ${String(on)}`);
    persistentCache = on;
  },
  /**
   * The most bytes the persistent cache's folder keeps: after writing an entry, the least recently
   * used entries are deleted until the rest fit (a load counts as a use). An executable larger than
   * the limit is not kept; 0 turns the cache off; Infinity lets it grow. Env TORCH_PJRT_CACHE_MAX_BYTES,
   * else 1 GiB; setting undefined goes back to those.
   */
  get cacheMaxBytes(): number {
    return cacheMaxBytes ?? envMaxBytes() ?? defaultCacheMaxBytes;
  },
  set cacheMaxBytes(n: number | undefined) {
    cacheMaxBytes = n === undefined ? undefined : checkMaxBytes(n, "torch.compiler.config.cacheMaxBytes", "");
  },
  /** Bumped by reset(): compiled functions drop their traces when they see a new generation. */
  generation: 0,
};

export interface CompilerStats {
  calls: number;
  hits: number;
  compiles: number;
  compileMs: number;
  eagerCalls: number;
  /** Compiles whose executable was loaded from the persistent cache instead of compiled. */
  diskHits: number;
}

export const globalStats: CompilerStats = { calls: 0, hits: 0, compiles: 0, compileMs: 0, eagerCalls: 0, diskHits: 0 };

/** Every compiled function's counters together. */
export function stats(): CompilerStats {
  return { ...globalStats };
}

const logs = (): string[] => (process.env.TORCH_PJRT_LOGS ?? "").split(",").map((s) => s.trim());

export function logRecompile(name: string, reason: string): void {
  if (logs().includes("recompiles")) console.warn(`torch.compile: recompiling \`${name}\`: ${reason}`);
}

const warned = new WeakSet<object>();

/** A warning, once per compiled function. */
export function warnOnce(owner: object, message: string): void {
  if (warned.has(owner)) return;
  warned.add(owner);
  process.emitWarning(message, { code: "TORCH_PJRT_COMPILE" });
}
