// torch.compile's persistent cache: executables written to TORCH_PJRT_CACHE_DIR by one process and
// loaded by the next; corrupt, foreign or rejected entries compiled again and rewritten; keys that
// change with the matmul precision and the shapes; the cache off; its folder; config errors; the size
// limit (least recently used entries deleted first, nothing else in the folder touched).

import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSync } from "esbuild";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";

import * as torch from "../src/index.js";
import { cacheDir } from "../src/compile/disk_cache.js";
import { trim } from "../src/compile/disk_lru.js";
import { resolveDevice } from "../src/runtime/clients.js";
import type { NativeClient, NativeExecutable } from "../src/runtime/native.js";
import { packageRoot } from "../src/runtime/paths.js";
import { realRuntimeMissing } from "./helpers/runtime.js";

const root = packageRoot();
const scratch = mkdtempSync(join(tmpdir(), "torch-pjrt-cache-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let folders = 0;
const freshDir = (): string => mkdtempSync(join(scratch, `cache${folders++}-`));
const entries = (dir: string): string[] => {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
};
/** Sets the modification time of `file` to `ago` seconds ago. */
const age = (file: string, ago: number): void => {
  const t = Date.now() / 1000 - ago;
  utimesSync(file, t, t);
};

// ---- float64 references --------------------------------------------------------------------------

type Matrix = number[][];
const matmul = (a: Matrix, b: Matrix): Matrix => a.map((row) => b[0]!.map((_, j) => row.reduce((s, v, k) => s + v * b[k]![j]!, 0)));
const grid = (rows: number, cols: number, f: (i: number, j: number) => number): Matrix =>
  Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => Math.fround(f(i, j))));

// products: sum(relu(a @ b) @ c)
const A = grid(4, 3, (i, j) => 0.5 * i - 0.25 * j - 0.3);
const B = grid(3, 5, (i, j) => ((i + 2 * j) % 4) * 0.2 - 0.35);
const C = grid(5, 2, (i, j) => 0.1 * (i + 1) * (j === 0 ? 1 : -1.5));
const productsRef = matmul(matmul(A, B).map((r) => r.map((v) => Math.max(v, 0))), C).flat().reduce((s, v) => s + v, 0);

// SGD on mean((x @ w - y)²): the loss of each step and w after both
const X = grid(6, 3, (i, j) => Math.sin(i + 2 * j));
const Y = grid(6, 2, (i, j) => Math.cos(i - j));
const W0 = grid(3, 2, (i, j) => 0.1 * (i - j));
const LR = 0.1;
function trainingRef(steps: number): { losses: number[]; w: Matrix } {
  let w = W0.map((r) => [...r]);
  const losses: number[] = [];
  const n = Y.length * Y[0]!.length;
  for (let s = 0; s < steps; s++) {
    const r = matmul(X, w).map((row, i) => row.map((v, j) => v - Y[i]![j]!));
    losses.push(r.flat().reduce((acc, v) => acc + v * v, 0) / n);
    const grad = w.map((row, k) => row.map((_, j) => X.reduce((acc, xi, i) => acc + (2 / n) * xi[k]! * r[i]![j]!, 0)));
    w = w.map((row, k) => row.map((v, j) => v - LR * grad[k]![j]!));
  }
  return { losses, w };
}

// ---- the child process ---------------------------------------------------------------------------

/** A child process's program: both compiled functions, their values and stats as JSON. */
const program = `
import * as torch from "./torch.mjs";
const data = ${JSON.stringify({ A, B, C, X, Y, W0, LR })};
const products = torch.compile(function products(a, b, c) {
  return a.matmul(b).relu().matmul(c).sum();
});
const product = products(torch.tensor(data.A), torch.tensor(data.B), torch.tensor(data.C)).item();

const w = torch.tensor(data.W0, { requiresGrad: true });
const opt = new torch.optim.SGD([w], { lr: data.LR });
const step = torch.compile(function step(x, y) {
  opt.zeroGrad();
  const loss = x.matmul(w).sub(y).pow(2).mean();
  loss.backward();
  opt.step();
  return loss;
});
const x = torch.tensor(data.X);
const y = torch.tensor(data.Y);
const losses = [step(x, y).item(), step(x, y).item()];
console.log(JSON.stringify({
  product, losses, w: w.tolist(),
  productsStats: products.stats(), stepStats: step.stats(), global: torch.compiler.stats(),
}));
`;

interface ChildReport {
  product: number;
  losses: number[];
  w: Matrix;
  productsStats: torch.CompiledStats;
  stepStats: torch.CompiledStats;
  global: torch.CompilerStats;
}

/** Reads `target` (its methods bound to it: native methods check their receiver), `overrides` first. */
const wrap = <T extends object>(target: T, overrides: Record<string, unknown>): T =>
  new Proxy({} as T, {
    get: (_, k) => {
      if (typeof k === "string" && k in overrides) return overrides[k];
      const v: unknown = Reflect.get(target, k);
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });

const missing = realRuntimeMissing();

describe.skipIf(missing !== undefined)(`persistent compile cache${missing ? ` (skipped: ${missing})` : ""}`, () => {
  const bundleDir = join(scratch, "bundle");
  beforeAll(() => {
    // the package from src, as one file a plain node process imports (the addon is found from cwd, the repo)
    buildSync({ entryPoints: [join(root, "src", "index.ts")], bundle: true, platform: "node", format: "esm", target: "node20", outfile: join(bundleDir, "torch.mjs"), logLevel: "error" });
    writeFileSync(join(bundleDir, "program.mjs"), program);
  });

  const runChild = (dir: string): ChildReport => {
    const out = execFileSync(process.execPath, [join(bundleDir, "program.mjs")], { cwd: root, encoding: "utf8", env: { ...process.env, TORCH_PJRT_CACHE_DIR: dir } });
    return JSON.parse(out.trim().split("\n").at(-1)!) as ChildReport;
  };

  it("a second process loads what the first compiled, with the same values", () => {
    const dir = freshDir();
    const first = runChild(dir);
    expect(first.productsStats).toMatchObject({ compiles: 1, diskHits: 0 });
    expect(first.stepStats).toMatchObject({ compiles: 1, hits: 1, diskHits: 0 });
    expect(first.global.diskHits).toBe(0);
    const files = entries(dir);
    expect(files).toHaveLength(2);
    for (const f of files) expect(f).toMatch(/^[0-9a-f]{64}\.pjrt$/);

    const second = runChild(dir);
    expect(second.productsStats).toMatchObject({ compiles: 1, diskHits: 1 });
    expect(second.stepStats).toMatchObject({ compiles: 1, hits: 1, diskHits: 1 });
    expect(second.global).toMatchObject({ compiles: 2, diskHits: 2 });
    expect(entries(dir)).toEqual(files);
    expect({ product: second.product, losses: second.losses, w: second.w }).toEqual({ product: first.product, losses: first.losses, w: first.w });

    const ref = trainingRef(2);
    expect(second.product).toBeCloseTo(productsRef, 5);
    second.losses.forEach((l, i) => expect(l).toBeCloseTo(ref.losses[i]!, 5));
    second.w.flat().forEach((v, i) => expect(v).toBeCloseTo(ref.w.flat()[i]!, 5));
  });

  // ---- in this process: torch.compiler.reset() forgets the executables, so the next call reads the disk

  const saved = process.env.TORCH_PJRT_CACHE_DIR;
  afterEach(() => {
    process.env.TORCH_PJRT_CACHE_DIR = saved;
    delete process.env.TORCH_PJRT_CACHE_MAX_BYTES;
    torch.compiler.config.persistentCache = true;
    torch.compiler.config.cacheMaxBytes = undefined;
    torch.setFloat32MatmulPrecision("highest");
  });

  const products = torch.compile(function products(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor) {
    return a.matmul(b).relu().matmul(c).sum();
  });
  /** One fresh compile of `products` (after reset) on the reference inputs: its value and whether it came from disk. */
  const callFresh = (a: Matrix = A): { value: number; diskHit: boolean } => {
    torch.compiler.reset();
    const value = products(torch.tensor(a), torch.tensor(B), torch.tensor(C)).item() as number;
    return { value, diskHit: torch.compiler.stats().diskHits === 1 };
  };
  const useDir = (): string => (process.env.TORCH_PJRT_CACHE_DIR = freshDir());

  it("counts disk hits in torch.compiler.stats(), and reset() zeroes them", () => {
    const dir = useDir();
    expect(callFresh()).toEqual({ value: expect.closeTo(productsRef, 5), diskHit: false });
    expect(entries(dir)).toHaveLength(1);
    expect(callFresh()).toEqual({ value: expect.closeTo(productsRef, 5), diskHit: true });
    torch.compiler.reset();
    expect(torch.compiler.stats().diskHits).toBe(0);
  });

  it("compiles again and rewrites an entry that is truncated, corrupt or rejected by the plugin", () => {
    const dir = useDir();
    callFresh();
    const [name] = entries(dir);
    const file = join(dir, name!);
    const good = readFileSync(file);
    const payload = good.subarray(24 + 64); // after the magic line and the two digests
    const key = good.subarray(24, 24 + 32);
    const sha = (b: Uint8Array): Buffer => createHash("sha256").update(b).digest();
    const rejected = Buffer.from("not an executable of any plugin");
    const bad = [
      good.subarray(0, good.length >> 1), // truncated
      Buffer.concat([good.subarray(0, good.length - 8), Buffer.from("garbage!")]), // its digest no longer holds
      Buffer.concat([good.subarray(0, 24), key, sha(rejected), rejected]), // well formed, but the plugin rejects it
      Buffer.concat([good.subarray(0, 24), sha(Buffer.from("another key")), sha(payload), payload]), // another key's entry
      Buffer.alloc(0),
    ];
    expect(payload.length).toBeGreaterThan(0);
    for (const contents of bad) {
      writeFileSync(file, contents);
      expect(callFresh()).toEqual({ value: expect.closeTo(productsRef, 5), diskHit: false });
      expect(entries(dir)).toEqual([name]);
      expect(readFileSync(file).equals(good)).toBe(true);
      expect(callFresh().diskHit).toBe(true);
    }
  });

  it("misses for another float32 matmul precision and another shape", () => {
    const dir = useDir();
    expect(callFresh().diskHit).toBe(false);
    torch.setFloat32MatmulPrecision("high");
    expect(callFresh().diskHit).toBe(false);
    expect(entries(dir)).toHaveLength(2);
    torch.setFloat32MatmulPrecision("highest");
    expect(callFresh().diskHit).toBe(true);
    const wider = A.map((r) => [...r, 0]);
    const B4 = [...B, B[0]!.map(() => 0)];
    torch.compiler.reset();
    const value = products(torch.tensor(wider), torch.tensor(B4), torch.tensor(C)).item();
    expect(value).toBeCloseTo(productsRef, 5); // the extra column and row add nothing
    expect(torch.compiler.stats().diskHits).toBe(0);
    expect(entries(dir)).toHaveLength(3);
  });

  it("writes nothing with persistentCache = false or TORCH_PJRT_CACHE_DIR=\"\"", () => {
    const dir = useDir();
    torch.compiler.config.persistentCache = false;
    expect(callFresh()).toEqual({ value: expect.closeTo(productsRef, 5), diskHit: false });
    expect(entries(dir)).toEqual([]);
    torch.compiler.config.persistentCache = true;
    callFresh();
    expect(entries(dir)).toHaveLength(1);
    torch.compiler.config.persistentCache = false;
    expect(callFresh().diskHit).toBe(false); // nor reads

    torch.compiler.config.persistentCache = true;
    const xdg = freshDir();
    vi.stubEnv("XDG_CACHE_HOME", xdg);
    vi.stubEnv("HOME", xdg);
    try {
      process.env.TORCH_PJRT_CACHE_DIR = "";
      expect(callFresh()).toEqual({ value: expect.closeTo(productsRef, 5), diskHit: false });
      expect(entries(xdg)).toEqual([]);
      if (process.platform === "linux") {
        delete process.env.TORCH_PJRT_CACHE_DIR; // the default folder: $XDG_CACHE_HOME/torch-pjrt
        callFresh();
        expect(entries(join(xdg, "torch-pjrt"))).toHaveLength(1);
      }
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("runs with one warning when the folder cannot be written", () => {
    const blocker = join(freshDir(), "a-file");
    writeFileSync(blocker, "");
    process.env.TORCH_PJRT_CACHE_DIR = join(blocker, "cache"); // under a file: mkdir fails
    const warn = vi.spyOn(process, "emitWarning").mockImplementation(() => {});
    try {
      expect(callFresh()).toEqual({ value: expect.closeTo(productsRef, 5), diskHit: false });
      expect(callFresh().diskHit).toBe(false);
      const messages = warn.mock.calls.map((c) => String(c[0])).filter((m) => m.includes("persistent cache"));
      expect(messages).toHaveLength(1);
      expect(messages[0]).toMatch(/cannot write the persistent cache in .*a-file\/cache \(ENOTDIR\).*TORCH_PJRT_CACHE_DIR.*persistentCache = false/);
    } finally {
      warn.mockRestore();
    }
  });

  it("compiles again when the loaded executable's outputs do not fit the graph", () => {
    const dir = useDir();
    callFresh();
    const client = resolveDevice("cpu").client as { native: NativeClient };
    const real = client.native;
    let loads = 0;
    client.native = wrap(real, {
      deserializeAndLoad: (...args: Parameters<NativeClient["deserializeAndLoad"]>) => {
        loads++;
        return wrap(real.deserializeAndLoad(...args), { outputDims: [[2]] });
      },
    });
    try {
      expect(callFresh()).toEqual({ value: expect.closeTo(productsRef, 5), diskHit: false });
      expect(loads).toBe(1);
      expect(entries(dir)).toHaveLength(1);
    } finally {
      client.native = real;
    }
  });

  it("does not cache executables of a plugin that cannot serialize them", () => {
    const dir = useDir();
    const client = resolveDevice("cpu").client as { native: NativeClient };
    const real = client.native;
    let serializeCalls = 0;
    const unserializable = (exe: NativeExecutable): NativeExecutable =>
      wrap(exe, {
        serialize: () => {
          serializeCalls++;
          throw new Error("PJRT_Executable_Serialize is not implemented");
        },
      });
    client.native = wrap(real, {
      compileSync: (...args: Parameters<NativeClient["compileSync"]>) => unserializable(real.compileSync(...args)),
      compileGraphSync: (...args: Parameters<NativeClient["compileGraphSync"]>) => unserializable(real.compileGraphSync(...args)),
    });
    try {
      expect(callFresh()).toEqual({ value: expect.closeTo(productsRef, 5), diskHit: false });
      expect(serializeCalls).toBe(1);
      expect(entries(dir)).toEqual([]);
    } finally {
      client.native = real;
    }
  });

  // ---- the size limit: `products` on inputs widened by n zero columns (of a) and rows (of b) has the
  // same value and an entry of its own per n

  const widened = (n: number): { value: number; diskHit: boolean } => {
    const zeros = Array<number>(n).fill(0);
    torch.compiler.reset();
    const a = torch.tensor(A.map((r) => [...r, ...zeros]));
    const b = torch.tensor([...B, ...zeros.map(() => B[0]!.map(() => 0))]);
    const value = products(a, b, torch.tensor(C)).item() as number;
    return { value, diskHit: torch.compiler.stats().diskHits === 1 };
  };
  /** The entry file of each width 0..3 and its size, learned in a folder of their own. */
  const widths = [0, 1, 2, 3];
  let learned: { name: string; size: number }[] | undefined;
  const entryFiles = (): { name: string; size: number }[] => {
    if (learned !== undefined) return learned;
    const dir = useDir();
    learned = widths.map((n) => {
      const before = entries(dir);
      expect(widened(n)).toEqual({ value: expect.closeTo(productsRef, 5), diskHit: false });
      const [name] = entries(dir).filter((f) => !before.includes(f));
      return { name: name!, size: statSync(join(dir, name!)).size };
    });
    return learned;
  };
  /** Files that are not the cache's entries: a user's file, a name close to an entry's, a stray temporary file, a folder. */
  const foreign = (dir: string): Record<string, string> => {
    const files = { "notes.txt": "x".repeat(100_000), "abc.pjrt": "not an entry", [`${"a".repeat(64)}.pjrt.1.x.tmp`]: "half written" };
    for (const [name, text] of Object.entries(files)) {
      writeFileSync(join(dir, name), text);
      age(join(dir, name), 1000);
    }
    mkdirSync(join(dir, `${"b".repeat(64)}.pjrt`));
    return files;
  };
  const expectForeignKept = (dir: string, files: Record<string, string>): void => {
    for (const [name, text] of Object.entries(files)) expect(readFileSync(join(dir, name), "utf8")).toBe(text);
    expect(statSync(join(dir, `${"b".repeat(64)}.pjrt`)).isDirectory()).toBe(true);
  };
  const sorted = (names: string[]): string[] => [...names].sort();

  it("deletes the least recently used entries first to stay under cacheMaxBytes, and nothing else in the folder", () => {
    const e = entryFiles();
    const dir = useDir();
    for (const n of [0, 1, 2]) widened(n);
    [300, 200, 100].forEach((ago, n) => age(join(dir, e[n]!.name), ago));
    const files = foreign(dir);
    const others = sorted([...Object.keys(files), `${"b".repeat(64)}.pjrt`]);
    // room for three entries: writing the fourth deletes the oldest only
    torch.compiler.config.cacheMaxBytes = e[1]!.size + e[2]!.size + e[3]!.size;
    expect(widened(3)).toEqual({ value: expect.closeTo(productsRef, 5), diskHit: false });
    expect(entries(dir)).toEqual(sorted([...others, e[1]!.name, e[2]!.name, e[3]!.name]));
    // room for exactly the entry written: every other entry goes, oldest first, that one stays
    torch.compiler.config.cacheMaxBytes = e[0]!.size;
    expect(widened(0)).toEqual({ value: expect.closeTo(productsRef, 5), diskHit: false });
    expect(entries(dir)).toEqual(sorted([...others, e[0]!.name]));
    expectForeignKept(dir, files);
    expect(widened(0).diskHit).toBe(true);
  });

  it("keeps an entry that was just loaded: a hit makes it the most recently used", () => {
    const e = entryFiles();
    const dir = useDir();
    for (const n of [0, 1]) widened(n);
    age(join(dir, e[0]!.name), 200);
    age(join(dir, e[1]!.name), 100);
    const before = statSync(join(dir, e[0]!.name)).mtimeMs;
    expect(widened(0)).toEqual({ value: expect.closeTo(productsRef, 5), diskHit: true });
    expect(statSync(join(dir, e[0]!.name)).mtimeMs).toBeGreaterThan(before + 150_000);
    torch.compiler.config.cacheMaxBytes = e[0]!.size + e[2]!.size; // one of the two older entries must go
    widened(2);
    expect(entries(dir)).toEqual(sorted([e[0]!.name, e[2]!.name]));
    expect(widened(0).diskHit).toBe(true);
  });

  it("does not keep an executable larger than the limit; 0 turns the cache off; Infinity and TORCH_PJRT_CACHE_MAX_BYTES", () => {
    const e = entryFiles();
    const dir = useDir();
    const files = foreign(dir);
    torch.compiler.config.cacheMaxBytes = e[0]!.size - 1;
    expect(widened(0)).toEqual({ value: expect.closeTo(productsRef, 5), diskHit: false });
    expect(entries(dir)).not.toContain(e[0]!.name);
    torch.compiler.config.cacheMaxBytes = undefined;
    widened(0);
    expect(entries(dir)).toContain(e[0]!.name);
    // 0: neither read nor written, and nothing deleted
    torch.compiler.config.cacheMaxBytes = 0;
    expect(widened(0).diskHit).toBe(false);
    widened(1);
    expect(entries(dir)).toContain(e[0]!.name);
    expect(entries(dir)).not.toContain(e[1]!.name);
    // Infinity: nothing is deleted
    torch.compiler.config.cacheMaxBytes = Infinity;
    for (const n of widths) widened(n);
    expect(entries(dir)).toEqual(expect.arrayContaining(e.map((x) => x.name)));
    expectForeignKept(dir, files);
    // the env variable, read at each use, when the config is not set
    torch.compiler.config.cacheMaxBytes = undefined;
    process.env.TORCH_PJRT_CACHE_MAX_BYTES = String(e[3]!.size);
    age(join(dir, e[3]!.name), 100);
    rmSync(join(dir, e[2]!.name));
    widened(2);
    expect(entries(dir).filter((f) => e.some((x) => x.name === f))).toEqual([e[2]!.name]);
    expectForeignKept(dir, files);
    process.env.TORCH_PJRT_CACHE_MAX_BYTES = "1 GiB";
    expect(() => widened(0)).toThrow(/env TORCH_PJRT_CACHE_MAX_BYTES must be a whole number of bytes, 0 or more .*got "1 GiB"; unset it for the default \(1 GiB\)/);
  });
});

describe("persistent cache folder and config", () => {
  it("is TORCH_PJRT_CACHE_DIR, else the platform's user cache folder; empty turns it off", () => {
    const home = () => "/home/u";
    expect(cacheDir({ TORCH_PJRT_CACHE_DIR: "/x/y" }, "linux", home)).toBe("/x/y");
    expect(cacheDir({ TORCH_PJRT_CACHE_DIR: "" }, "linux", home)).toBeUndefined();
    expect(cacheDir({}, "linux", home)).toBe("/home/u/.cache/torch-pjrt");
    expect(cacheDir({ XDG_CACHE_HOME: "/c" }, "linux", home)).toBe("/c/torch-pjrt");
    expect(cacheDir({ XDG_CACHE_HOME: "relative" }, "linux", home)).toBe("/home/u/.cache/torch-pjrt");
    expect(cacheDir({ XDG_CACHE_HOME: "/c" }, "darwin", home)).toBe("/home/u/Library/Caches/torch-pjrt");
    expect(cacheDir({ LOCALAPPDATA: "/appdata" }, "win32", home)).toBe(join("/appdata", "torch-pjrt"));
  });

  it("persistentCache takes only a boolean", () => {
    expect(torch.compiler.config.persistentCache).toBe(true);
    for (const bad of ["false", 0, null, undefined]) {
      expect(() => {
        torch.compiler.config.persistentCache = bad as never;
      }).toThrow(torch.ArgumentError);
    }
    expect(() => {
      torch.compiler.config.persistentCache = 1 as never;
    }).toThrow(/torch\.compiler\.config\.persistentCache must be a boolean, got 1/);
    expect(torch.compiler.config.persistentCache).toBe(true);
  });

  it("trimming never deletes the entry just written, even when it is the oldest, and takes a folder that is gone", () => {
    const dir = freshDir();
    const names = ["c", "d", "e"].map((ch) => `${ch.repeat(64)}.pjrt`);
    names.forEach((name, i) => {
      writeFileSync(join(dir, name), "x".repeat(100));
      age(join(dir, name), 300 - 100 * i);
    });
    trim(dir, 250, names[0]!);
    expect(entries(dir)).toEqual([names[0], names[2]]);
    trim(dir, 150, names[0]!);
    expect(entries(dir)).toEqual([names[0]]);
    trim(dir, 0, names[0]!);
    expect(entries(dir)).toEqual([names[0]]);
    expect(() => trim(join(dir, "gone"), 0, names[0]!)).not.toThrow();
  });

  it("cacheMaxBytes is a whole number of bytes, 0 or more, or Infinity; else env TORCH_PJRT_CACHE_MAX_BYTES, else 1 GiB", () => {
    const config = torch.compiler.config;
    try {
      expect(config.cacheMaxBytes).toBe(2 ** 30);
      for (const bad of [-1, 1.5, NaN, -Infinity, "1024", null, true]) {
        expect(() => {
          config.cacheMaxBytes = bad as never;
        }).toThrow(torch.ArgumentError);
      }
      expect(() => {
        config.cacheMaxBytes = -1;
      }).toThrow(/torch\.compiler\.config\.cacheMaxBytes must be a whole number of bytes, 0 or more \(2 \*\* 30 is 1 GiB; 0 turns the persistent cache off; Infinity removes the limit\), got -1$/);
      expect(() => {
        config.cacheMaxBytes = "1024" as never;
      }).toThrow(/cacheMaxBytes must be .*, got "1024"$/);
      expect(config.cacheMaxBytes).toBe(2 ** 30);
      for (const [text, bytes] of [["1000", 1000], [" 0 ", 0], ["Infinity", Infinity], ["", 2 ** 30]] as const) {
        vi.stubEnv("TORCH_PJRT_CACHE_MAX_BYTES", text);
        expect(config.cacheMaxBytes).toBe(bytes);
      }
      for (const bad of ["-1", "1.5", "1e9", "1GB", "inf"]) {
        vi.stubEnv("TORCH_PJRT_CACHE_MAX_BYTES", bad);
        expect(() => config.cacheMaxBytes).toThrow(torch.ArgumentError);
        expect(() => config.cacheMaxBytes).toThrow(`env TORCH_PJRT_CACHE_MAX_BYTES must be a whole number of bytes, 0 or more`);
      }
      config.cacheMaxBytes = 5000; // the config wins over the env
      expect(config.cacheMaxBytes).toBe(5000);
      vi.stubEnv("TORCH_PJRT_CACHE_MAX_BYTES", "7");
      config.cacheMaxBytes = undefined;
      expect(config.cacheMaxBytes).toBe(7);
    } finally {
      vi.unstubAllEnvs();
      config.cacheMaxBytes = undefined;
    }
  });
});
