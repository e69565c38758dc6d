// torch.safetensors: files written by Python's safetensors (test/fixtures/safetensors/, from
// scripts/fixtures/safetensors_files.py) load here bit for bit, and saving them again gives the same
// bytes, so our files are the ones Python writes; where .venv has torch and safetensors, Python also
// reads files we write. Then round trips (every float16/bfloat16 bit pattern, a Module's stateDict),
// sharded checkpoints, options, and one test per malformed-file check. No test leaves a tensor behind.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import * as torch from "../src/index.js";
import { hostBytesSync, type Tensor } from "../src/tensor.js";
import { fixturesDir } from "./helpers/fixtures.js";

const st = torch.safetensors;
const dir = join(fixturesDir, "safetensors");
const pythonFile = join(dir, "python.safetensors");
interface Described {
  dtype: string;
  shape: number[];
  hex: string;
  values: (number | boolean | string)[];
}
const doc = JSON.parse(readFileSync(join(dir, "python.json"), "utf8")) as {
  python: { metadata: Record<string, string>; tensors: Record<string, Described> };
  sharded: Record<string, Described>;
};

const tmp = mkdtempSync(join(tmpdir(), "torch-pjrt-safetensors-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let liveAtStart = 0;
beforeEach(() => {
  liveAtStart = torch.memory().numTensors;
});
afterEach(() => {
  expect(torch.memory().numTensors).toBe(liveAtStart);
});

const hex = (t: Tensor): string => Buffer.from(hostBytesSync(t)).toString("hex");
/** `t` in another dtype, `t` itself disposed. */
const as = (t: Tensor, dtype: torch.DType): Tensor => {
  const out = t.to(dtype);
  t.dispose();
  return out;
};
const disposeAll = (record: Record<string, Tensor>): void => Object.values(record).forEach((t) => t.dispose());
const special = (v: number | boolean | string): number | boolean =>
  typeof v !== "string" ? v : ({ nan: NaN, inf: Infinity, "-inf": -Infinity, "-0.0": -0 } as Record<string, number>)[v]!;

/** Each tensor has Python's dtype, shape and bytes; float values read back as Python printed them. */
function expectPython(loaded: Record<string, Tensor>, expected: Record<string, Described>): void {
  expect(Object.keys(loaded).sort()).toEqual(Object.keys(expected).sort());
  for (const [name, want] of Object.entries(expected)) {
    const t = loaded[name]!;
    expect({ name, dtype: t.dtype, shape: [...t.shape], hex: hex(t) }).toEqual({ name, dtype: want.dtype, shape: want.shape, hex: want.hex });
    if (want.dtype.startsWith("float") || want.dtype.startsWith("bfloat") || want.dtype === "bool") {
      const data = Array.from(t.dataSync() as ArrayLike<number>);
      expect(data).toEqual(want.values.map((v) => (typeof v === "boolean" ? Number(v) : special(v))));
    }
  }
}

/** A safetensors file from a header (an object, or JSON text) and a data section. */
function file(header: unknown, data: Uint8Array | number = 0, options: { length?: bigint } = {}): Uint8Array {
  const json = Buffer.from(typeof header === "string" ? header : JSON.stringify(header));
  const body = typeof data === "number" ? new Uint8Array(data) : data;
  const out = Buffer.alloc(8 + json.byteLength + body.byteLength);
  out.writeBigUInt64LE(options.length ?? BigInt(json.byteLength), 0);
  json.copy(out, 8);
  out.set(body, 8 + json.byteLength);
  return out;
}
const f32 = (begin: number, end: number, shape: unknown = [(end - begin) / 4]) => ({ dtype: "F32", shape, data_offsets: [begin, end] });

describe("files written by Python's safetensors", () => {
  it("load with Python's dtypes, shapes and bytes: every shared dtype, special values, 0-d and empty tensors", () => {
    const loaded = st.loadFile(pythonFile);
    expectPython(loaded, doc.python.tensors);
    expect(loaded.scalar!.shape).toEqual([]);
    expect(loaded.scalar!.item()).toBe(3.5);
    expect(loaded.empty!.shape).toEqual([0, 3]);
    expect(loaded.i64!.tolist({ bigint: true })).toEqual([-(2n ** 63n), 2n ** 63n - 1n, 0n, 1n, (2n ** 63n - 1n) / 3n]);
    expect(loaded.u64!.tolist({ bigint: true })).toEqual([0n, 1n, 2n ** 63n - 1n]);
    expect(loaded.bool!.tolist()).toEqual([[true, false, true], [false, false, true]]);
    disposeAll(loaded);
  });

  it("load the same from bytes, asynchronously, and from a buffer at an odd offset", async () => {
    const bytes = readFileSync(pythonFile);
    const fromBytes = st.load(bytes);
    expectPython(fromBytes, doc.python.tensors);
    disposeAll(fromBytes);
    const odd = new Uint8Array(bytes.byteLength + 1);
    odd.set(bytes, 1);
    const fromOdd = st.load(odd.subarray(1));
    expectPython(fromOdd, doc.python.tensors);
    disposeAll(fromOdd);
    const fromAsync = await st.loadFileAsync(pythonFile);
    expectPython(fromAsync, doc.python.tensors);
    disposeAll(fromAsync);
  });

  it("give their metadata and header without loading a tensor", () => {
    expect(st.metadata(pythonFile)).toEqual(doc.python.metadata);
    expect(st.metadata(readFileSync(pythonFile))).toEqual(doc.python.metadata);
    expect(st.metadata(join(dir, "python_f8.safetensors"))).toBeNull();
    const { tensors } = st.header(join(dir, "python_f8.safetensors"));
    expect(tensors.w).toEqual({ dtype: "F8_E4M3", shape: [2], dataOffsets: [8, 10] });
    expect(st.header(pythonFile).tensors.bf16).toMatchObject({ dtype: "BF16", shape: [2, 2, 2] });
  });

  it("saved again give Python's file byte for byte (same order, offsets, padding)", () => {
    const bytes = readFileSync(pythonFile);
    const loaded = st.loadFile(pythonFile);
    expect(Buffer.from(st.save(loaded, { metadata: doc.python.metadata })).equals(bytes)).toBe(true);
    const path = join(tmp, "again.safetensors");
    st.saveFile(loaded, path, { metadata: doc.python.metadata });
    expect(readFileSync(path).equals(bytes)).toBe(true);
    for (const shard of ["model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors"]) {
      const original = readFileSync(join(dir, "sharded", shard));
      const tensors = st.load(original);
      expect(Buffer.from(st.save(tensors, { metadata: { format: "pt" } })).equals(original)).toBe(true);
      disposeAll(tensors);
    }
    disposeAll(loaded);
  });

  it("a dtype torch-pjrt lacks (float8) is a DTypeError naming the tensor; nothing is left loaded", () => {
    const path = join(dir, "python_f8.safetensors");
    expect(() => st.loadFile(path)).toThrow(torch.DTypeError);
    expect(() => st.loadFile(path)).toThrow(/python_f8\.safetensors: tensor "w" is F8_E4M3, a safetensors dtype torch-pjrt does not have \(it reads BOOL, U8, I8, .*\); convert it/);
  });
});

const python = join(process.cwd(), ".venv", "bin", "python");
const pythonMissing = ((): string | undefined => {
  if (!existsSync(python)) return `${python} not found`;
  try {
    execFileSync(python, ["-c", "import torch, safetensors.torch"], { stdio: "pipe" });
    return undefined;
  } catch {
    return `${python} has no torch or safetensors (pip install torch safetensors)`;
  }
})();

describe("files we write, read by Python's safetensors", () => {
  if (pythonMissing) {
    console.log(`safetensors.test.ts: Python interop skipped: ${pythonMissing}; the byte-for-byte comparison with Python's files above still checks our writer`);
    it.skip(`skipped: ${pythonMissing}`, () => {});
    return;
  }
  it("have our dtypes, shapes, bytes and metadata", () => {
    const loaded = st.loadFile(pythonFile);
    torch.manualSeed(3);
    const ours = {
      ...loaded,
      ["__proto__"]: torch.tensor([1, 2, 3], { dtype: "int16" }), // computed: an own key, not the prototype
      randn: torch.randn([3, 4]),
      half: as(torch.randn([5]), "float16"),
      brain: as(torch.randn([2, 3]), "bfloat16"),
      "": torch.tensor(true),
    };
    const metadata = { format: "pt", "2": "an integer-like key", unicode: "π ≈ 3.14159 \n \"quoted\" \u0001" };
    const path = join(tmp, "ours.safetensors");
    st.saveFile(ours, path, { metadata });
    const seen = JSON.parse(execFileSync(python, [join("scripts", "fixtures", "safetensors_files.py"), "read", path], { encoding: "utf8" })) as {
      metadata: Record<string, string>;
      tensors: Record<string, Described>;
    };
    expect(seen.metadata).toEqual(metadata);
    expect(Object.keys(seen.tensors).sort()).toEqual(Object.keys(ours).sort());
    for (const [name, t] of Object.entries(ours)) {
      expect({ name, dtype: seen.tensors[name]!.dtype, shape: seen.tensors[name]!.shape, hex: seen.tensors[name]!.hex }).toEqual({ name, dtype: t.dtype, shape: [...t.shape], hex: hex(t) });
    }
    disposeAll(ours);
  });
});

describe("round trips", () => {
  it("every float16 and bfloat16 bit pattern (NaN payloads, subnormals, -0) survives save and load", () => {
    const words = new Uint16Array(65536).map((_, i) => i);
    const record = { f16: torch.tensor(words, { dtype: "float16" }), bf16: torch.tensor(words, { dtype: "bfloat16", shape: [256, 256] }) };
    const loaded = st.load(st.save(record));
    expect(loaded.f16!.dtype).toBe("float16");
    expect(loaded.bf16!.shape).toEqual([256, 256]);
    expect(new Uint16Array(hostBytesSync(loaded.f16!))).toEqual(words);
    expect(new Uint16Array(hostBytesSync(loaded.bf16!))).toEqual(words);
    disposeAll(record);
    disposeAll(loaded);
  });

  it("names JSON or JS would reorder or misread, metadata, and the empty record", () => {
    const record: Record<string, Tensor> = {};
    for (const name of ["b", "10", "9", "a.b", "__proto__", "π", ""]) Object.defineProperty(record, name, { value: torch.tensor([name.length]), enumerable: true });
    const bytes = st.save(record, { metadata: { "1": "one", k: "v" } });
    expect(st.metadata(bytes)).toEqual({ "1": "one", k: "v" });
    const loaded = st.load(bytes);
    expect(Object.keys(loaded).sort()).toEqual(Object.keys(record).sort());
    expect(Object.getPrototypeOf(loaded)).toBe(Object.prototype);
    for (const name of Object.keys(record)) expect(loaded[name]!.tolist()).toEqual([name.length]);
    const empty = st.save({});
    expect(Buffer.from(empty).toString("latin1")).toBe("\x08\0\0\0\0\0\0\0{}      ");
    expect(st.load(empty)).toEqual({});
    disposeAll(record);
    disposeAll(loaded);
  });

  it("a Linear's stateDict through saveFile, loadFile and loadStateDict", () => {
    torch.manualSeed(0);
    const a = new torch.nn.Linear(3, 2);
    const b = new torch.nn.Linear(3, 2);
    const path = join(tmp, "linear.safetensors");
    st.saveFile(a.stateDict(), path);
    expect(Object.keys(st.header(path).tensors).sort()).toEqual(["bias", "weight"]);
    const loaded = st.loadFile(path);
    b.loadStateDict(loaded);
    disposeAll(loaded);
    expect(b.weight.tolist()).toEqual(a.weight.tolist());
    expect(b.bias!.tolist()).toEqual(a.bias!.tolist());
    a.dispose();
    b.dispose();
  });

  it("{ dtype } converts floating tensors only; onProgress reports each tensor", () => {
    const reports: torch.safetensors.LoadProgress[] = [];
    const loaded = st.loadFile(pythonFile, { dtype: "float32", device: "cpu", onProgress: (p) => reports.push(p) });
    expect(loaded.bf16!.dtype).toBe("float32");
    expect(loaded.f64!.dtype).toBe("float32");
    expect(loaded.i64!.dtype).toBe("int64");
    expect(loaded.bool!.dtype).toBe("bool");
    expect(Array.from(loaded.bf16!.dataSync() as Float32Array)).toEqual(doc.python.tensors.bf16!.values);
    const sizes = Object.values(st.header(pythonFile).tensors).map((t) => t.dataOffsets[1] - t.dataOffsets[0]);
    const total = sizes.reduce((a, b) => a + b, 0);
    expect(reports.map((r) => r.tensor).sort()).toEqual(Object.keys(doc.python.tensors).sort());
    expect(reports.every((r) => r.totalBytes === total)).toBe(true);
    expect(reports.at(-1)!.loadedBytes).toBe(total);
    expect(reports.every((r, i) => i === 0 || r.loadedBytes >= reports[i - 1]!.loadedBytes)).toBe(true);
    disposeAll(loaded);
  });

  it("an error during a load (here from onProgress) disposes what was loaded", () => {
    let calls = 0;
    const onProgress = () => {
      if (++calls === 3) throw new Error("stop");
    };
    expect(() => st.loadFile(pythonFile, { onProgress })).toThrow("stop");
    calls = 0;
    return expect(st.loadFileAsync(pythonFile, { onProgress })).rejects.toThrow("stop");
  });
});

describe("sharded checkpoints", () => {
  it("Python's two shards load from the folder or the index, into a Sequential", () => {
    for (const path of [join(dir, "sharded"), join(dir, "sharded", "model.safetensors.index.json")]) {
      const loaded = st.loadSharded(path);
      expectPython(loaded, doc.sharded);
      disposeAll(loaded);
    }
    const reports: number[] = [];
    const loaded = st.loadSharded(join(dir, "sharded"), { onProgress: (p) => reports.push(p.loadedBytes) });
    expect(reports.at(-1)).toBe(92); // the index's total_size
    const model = new torch.nn.Sequential(new torch.nn.Linear(4, 3), new torch.nn.Identity(), new torch.nn.Linear(3, 2));
    model.loadStateDict(loaded);
    expect(hex(model.stateDict()["2.weight"]!)).toBe(doc.sharded["2.weight"]!.hex);
    disposeAll(loaded);
    model.dispose();
  });

  it("saveSharded writes shards and an index that loadSharded reads back", () => {
    torch.manualSeed(0);
    const record = { "a.weight": torch.randn([4, 4]), "a.bias": torch.randn([4]), "b.weight": as(torch.randn([2, 4]), "bfloat16"), step: torch.tensor(7) };
    const folder = join(tmp, "sharded-ours");
    const written = st.saveSharded(record, folder, { maxShardSize: 64 });
    expect(written.map((p) => p.slice(folder.length + 1))).toEqual([
      "model-00001-of-00002.safetensors",
      "model-00002-of-00002.safetensors",
      "model.safetensors.index.json",
    ]);
    const index = JSON.parse(readFileSync(join(folder, "model.safetensors.index.json"), "utf8"));
    expect(index.metadata.total_size).toBe(64 + 16 + 16 + 8);
    expect(index.weight_map).toEqual({ "a.weight": "model-00001-of-00002.safetensors", "a.bias": "model-00002-of-00002.safetensors", "b.weight": "model-00002-of-00002.safetensors", step: "model-00002-of-00002.safetensors" });
    expect(st.metadata(written[0]!)).toEqual({ format: "pt" });
    const loaded = st.loadSharded(folder);
    for (const [name, t] of Object.entries(record)) expect(hex(loaded[name]!)).toBe(hex(t));
    disposeAll(loaded);

    const single = join(tmp, "single");
    expect(st.saveSharded(record, single)).toEqual([join(single, "model.safetensors")]);
    const again = st.loadSharded(single);
    expect(Object.keys(again).sort()).toEqual(Object.keys(record).sort());
    disposeAll(again);
    disposeAll(record);
  });

  it("a bad index is a SafetensorsError that names it", () => {
    const folder = join(tmp, "bad-index");
    mkdirSync(folder, { recursive: true });
    const shard = join(folder, "shard.safetensors");
    writeFileSync(shard, file({ x: f32(0, 4) }, 4));
    const write = (index: unknown) => writeFileSync(join(folder, "model.safetensors.index.json"), typeof index === "string" ? index : JSON.stringify(index));
    write({ weight_map: { x: "shard.safetensors", y: "shard.safetensors" } });
    expect(() => st.loadSharded(folder)).toThrow(/model\.safetensors\.index\.json: maps "y" to .*shard\.safetensors, which has no such tensor/);
    write({ weight_map: { x: "../elsewhere.safetensors" } });
    expect(() => st.loadSharded(folder)).toThrow(/weight_map\["x"\] is "\.\.\/elsewhere\.safetensors", outside the index's folder/);
    write({ metadata: {} });
    expect(() => st.loadSharded(folder)).toThrow(st.SafetensorsError);
    write("{ not json");
    expect(() => st.loadSharded(folder)).toThrow(/not a valid JSON index/);
    write({ weight_map: { x: "shard.safetensors" } });
    const ok = st.loadSharded(folder);
    expect(ok.x!.shape).toEqual([1]);
    disposeAll(ok);
    rmSync(join(folder, "model.safetensors.index.json"));
    expect(() => st.loadSharded(folder)).toThrow(/has neither model\.safetensors\.index\.json nor model\.safetensors/);
  });
});

describe("options and arguments", () => {
  it("are checked before any file is read", () => {
    expect(() => st.loadFile(pythonFile, { dtype: "int32" })).toThrow(/\{ dtype: "int32" \} is not a floating dtype/);
    expect(() => st.loadFile(pythonFile, { dtype: "float128" as never })).toThrow(torch.DTypeError);
    expect(() => st.loadFile(pythonFile, { devcie: "cpu" } as never)).toThrow(/unknown option "devcie"; did you mean "device"\?/);
    expect(() => st.loadFile(pythonFile, { device: "nope" })).toThrow(torch.DeviceError);
    expect(() => st.load("bytes" as never)).toThrow(torch.ArgumentError);
    const t = torch.tensor([1]);
    expect(() => st.save({ t }, { metadata: { n: 1 as never } })).toThrow(/metadata "n" is number; safetensors metadata maps strings to strings/);
    expect(() => st.save({ t: [1] as never })).toThrow(/"t" is object, not a Tensor/);
    expect(() => st.save({ __metadata__: t })).toThrow(/"__metadata__" cannot name a tensor/);
    t.dispose();
    expect(() => st.save({ t })).toThrow(torch.DisposedError);
  });

  it("a failed saveFile leaves no file behind", () => {
    const t = torch.tensor([1]);
    const folder = join(tmp, "no-leftovers");
    mkdirSync(folder);
    expect(() => st.saveFile({ t, u: "x" as never }, join(folder, "f.safetensors"))).toThrow(torch.ArgumentError);
    expect(() => st.saveFile({ t }, join(folder, "missing", "f.safetensors"))).toThrow(/ENOENT/);
    expect(readdirSync(folder)).toEqual([]);
    t.dispose();
  });
});

describe("malformed files are a SafetensorsError that says what is wrong, before any allocation", () => {
  const cases: [string, Uint8Array, RegExp][] = [
    ["too short", new Uint8Array(3), /3 bytes is too short for a safetensors file/],
    ["a header over 100 MB", file({}, 0, { length: 200_000_000n }), /header length is 200000000 bytes, more than the format's limit of 100000000/],
    ["a header length of 2^64 - 1", file({}, 0, { length: 2n ** 64n - 1n }), /more than the format's limit/],
    ["a header longer than the file", file({}, 0, { length: 1000n }), /header length is 1000 bytes but the file has only 2 bytes after the length; the file is truncated/],
    ["a header that is not UTF-8", file('{"\xff":1}'.replace("\xff", "\u00ff"), 0, {}).map((b, i) => (i === 10 ? 0xff : b)), /not valid UTF-8/],
    ["malformed JSON", file('{"x": {"dtype": "F32",'), /the header is not valid JSON/],
    ["a JSON array", file([1, 2]), /the header is JSON array, not an object/],
    ["an entry that is not an object", file({ x: 5 }), /tensor "x" is 5, not an object/],
    ["a missing dtype", file({ x: { shape: [1], data_offsets: [0, 4] } }, 4), /tensor "x" has no dtype/],
    ["a missing shape", file({ x: { dtype: "F32", data_offsets: [0, 4] } }, 4), /tensor "x" has no shape/],
    ["missing data_offsets", file({ x: { dtype: "F32", shape: [1] } }, 4), /tensor "x" has no data_offsets/],
    ["an unknown dtype", file({ x: { dtype: "Q7", shape: [1], data_offsets: [0, 4] } }, 4), /tensor "x" has dtype "Q7", which is not a safetensors dtype; the format's dtypes are BOOL, F4, .*U64/],
    ["a negative size", file({ x: f32(0, 4, [-1]) }, 4), /tensor "x" has shape \[-1\]; sizes must be non-negative integers/],
    ["a fractional size", file({ x: f32(0, 4, [1.5]) }, 4), /sizes must be non-negative integers/],
    ["a string size", file({ x: f32(0, 4, ["1"]) }, 4), /sizes must be non-negative integers/],
    ["three offsets", file({ x: { dtype: "F32", shape: [1], data_offsets: [0, 4, 8] } }, 4), /data_offsets \[0,4,8\]; they must be two non-negative integers/],
    ["offsets backwards", file({ x: { dtype: "F32", shape: [0], data_offsets: [4, 0] } }, 4), /with begin <= end/],
    ["offsets that do not match the shape", file({ x: f32(0, 8, [1]) }, 8), /tensor "x" is F32\[1\], 4 bytes, but its data_offsets \[0, 8\] span 8/],
    ["a huge tensor in a small file", file({ x: f32(0, 2 ** 42, [2 ** 40]) }, 4), /tensor "x" ends at byte 4398046511104 of the data section, but the file holds only 4 bytes of data; the file is truncated/],
    ["too many elements to count", file({ x: f32(0, 4, [2 ** 30, 2 ** 30, 2 ** 30]) }, 4), /too many elements to address/],
    ["overlapping tensors", file({ x: f32(0, 8), y: f32(4, 12) }, 12), /tensors "x" and "y" overlap \(bytes 4 to 8\)/],
    ["an empty tensor inside another", file({ x: f32(0, 8), e: f32(4, 4, [0]) }, 8), /tensors "x" and "e" overlap/],
    ["a hole", file({ x: f32(0, 4), y: f32(8, 12) }, 12), /bytes 4 to 8 of the data section belong to no tensor/],
    ["bytes after the last tensor", file({ x: f32(0, 4) }, 8), /the tensors end at byte 4 of the data section but the file has 4 more bytes/],
    ["non-string metadata", file({ __metadata__: { n: 1 }, x: f32(0, 4) }, 4), /"__metadata__" entry "n" is 1, not a string/],
    ["metadata that is an array", file({ __metadata__: ["a"] }), /"__metadata__" is \["a"\], not an object/],
  ];
  it.each(cases)("%s", (_, bytes, message) => {
    expect(() => st.load(bytes)).toThrow(st.SafetensorsError);
    expect(() => st.load(bytes)).toThrow(message);
    expect(() => st.load(bytes)).toThrow(/^safetensors\.load\(bytes\): /);
  });

  it("accepts what the format allows: unsorted entries, unpadded and space-led headers, null metadata, empty tensors anywhere", () => {
    const loaded = [
      st.load(file({ y: f32(4, 8), x: f32(0, 4) }, 8)),
      st.load(file(' {"x":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}', 4)),
      st.load(file({ __metadata__: null, e: f32(4, 4, [0, 2]), x: f32(0, 4) }, 4)),
    ];
    expect(loaded.map((r) => Object.keys(r).sort())).toEqual([["x", "y"], ["x"], ["e", "x"]]);
    loaded.forEach(disposeAll);
  });

  it("a truncated file on disk names the file and the tensor", () => {
    const bytes = readFileSync(pythonFile);
    const path = join(tmp, "truncated.safetensors");
    writeFileSync(path, bytes.subarray(0, bytes.byteLength - 10));
    expect(() => st.loadFile(path)).toThrow(st.SafetensorsError);
    expect(() => st.loadFile(path)).toThrow(new RegExp(`^${path.replace(/[.\\/]/g, "\\$&")}: tensor "bool" ends at byte \\d+ of the data section, but the file holds only \\d+ bytes of data; the file is truncated`));
    writeFileSync(path, bytes.subarray(0, 100));
    expect(() => st.metadata(path)).toThrow(/but the file has only 92 bytes after the length; the file is truncated/);
    return expect(st.loadFileAsync(path)).rejects.toThrow(st.SafetensorsError);
  });
});
