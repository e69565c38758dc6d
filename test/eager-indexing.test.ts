// t.index(...) and t.setIndex(...) (PyTorch's t[...] and t[...] = v) against a plain-JS reference of
// PyTorch's indexing rules that enumerates every output element; plus the typed errors of the
// indexing ops, and the data-dependent ops on edge cases. Values are float64, so results are exact.
import { describe, expect, it } from "vitest";
import * as torch from "../src/index.js";
import { eagerSuite, expectTensor, missing, scoped, valuesOf } from "./eager/helpers.js";

const test = missing ? it.skip : it;
if (missing) it.skip(`skipped: ${missing}`, () => {});

// --- the reference ---------------------------------------------------------------------------------

type RefSlice = { slice: [number | null, number | null, number | null] };
type RefIndex = { idx: number[]; shape: number[] };
type RefMask = { mask: boolean[]; shape: number[] };
type RefItem = number | RefSlice | null | "..." | RefIndex | RefMask;
interface Dense {
  data: number[];
  shape: number[];
}

const prod = (s: readonly number[]): number => s.reduce((a, b) => a * b, 1);
const strides = (s: readonly number[]): number[] => s.map((_, d) => prod(s.slice(d + 1)));
const unravel = (i: number, s: readonly number[]): number[] => s.map((size, d) => Math.floor(i / strides(s)[d]!) % size);

function broadcast(shapes: number[][]): number[] {
  const rank = Math.max(0, ...shapes.map((s) => s.length));
  return Array.from({ length: rank }, (_, k) => shapes.map((s) => s[s.length - rank + k] ?? 1).find((v) => v !== 1) ?? 1);
}

/** Element of `a` (shape `s`) at the multi-index `at` of a broadcast shape (aligned on the right). */
function at(a: RefIndex, where: number[]): number {
  const off = where.length - a.shape.length;
  return a.idx[a.shape.reduce((flat, size, d) => flat * size + (size === 1 ? 0 : where[off + d]!), 0)]!;
}

/** Which input element each output element reads: PyTorch's rules, one element at a time. */
function refPositions(shape: number[], items: RefItem[]): { shape: number[]; source: number[] } {
  // masks become one index per mask dim (row-major true positions)
  const expanded: RefItem[] = [];
  for (const it of items) {
    if (it !== null && typeof it === "object" && "mask" in it) {
      const hits = it.mask.flatMap((m, i) => (m ? [unravel(i, it.shape)] : []));
      it.shape.forEach((_, k) => expanded.push({ idx: hits.map((h) => h[k]!), shape: [hits.length] }));
    } else expanded.push(it);
  }
  const used = expanded.filter((it) => it !== null && it !== "...").length;
  const full: RefSlice = { slice: [null, null, null] };
  const list = expanded.flatMap((it) => (it === "..." ? Array<RefItem>(shape.length - used).fill(full) : [it]));
  while (list.filter((it) => it !== null).length < shape.length) list.push(full);
  // the dims after integers are applied and new axes inserted
  type Dim = { kind: "new" } | { kind: "range"; inDim: number; coords: number[] } | { kind: "adv"; inDim: number; index: RefIndex };
  const dims: Dim[] = [];
  const fixed = new Map<number, number>();
  let d = 0;
  for (const it of list) {
    if (it === null) dims.push({ kind: "new" });
    else if (it === "...") continue; // already expanded
    else if (typeof it === "number") fixed.set(d++, it < 0 ? it + shape[d - 1]! : it);
    else if ("slice" in it) {
      const size = shape[d]!;
      const [a, b, step] = it.slice;
      const clamp = (v: number | null, dflt: number) => (v === null ? dflt : Math.min(Math.max(v < 0 ? v + size : v, 0), size));
      const coords: number[] = [];
      for (let c = clamp(a, 0); c < clamp(b, size); c += step ?? 1) coords.push(c);
      dims.push({ kind: "range", inDim: d++, coords });
    } else if ("idx" in it) {
      const size = shape[d]!;
      dims.push({ kind: "adv", inDim: d++, index: { idx: it.idx.map((v) => (v < 0 ? v + size : v)), shape: it.shape } });
    }
  }
  const adv = dims.flatMap((x, i) => (x.kind === "adv" ? [i] : []));
  const batch = broadcast(dims.flatMap((x) => (x.kind === "adv" ? [x.index.shape] : [])));
  const adjacent = adv.every((p, i) => i === 0 || p === adv[i - 1]! + 1);
  const first = adv.length && adjacent ? adv[0]! : 0;
  const others = dims.filter((x) => x.kind !== "adv");
  const outDims: ("B" | Dim)[] = adv.length ? [...others.slice(0, first), "B", ...others.slice(first)] : others;
  const outShape = outDims.flatMap((x) => (x === "B" ? batch : x.kind === "new" ? [1] : x.kind === "range" ? [x.coords.length] : []));
  const inStrides = strides(shape);
  const source: number[] = [];
  for (let i = 0; i < prod(outShape); i++) {
    const o = unravel(i, outShape);
    const coord = shape.map((_, k) => fixed.get(k) ?? 0);
    let p = 0;
    let b: number[] = [];
    for (const x of outDims) {
      if (x === "B") {
        b = o.slice(p, p + batch.length);
        p += batch.length;
      } else if (x.kind === "new") p++;
      else if (x.kind === "range") coord[x.inDim] = x.coords[o[p++]!]!;
    }
    for (const x of dims) if (x.kind === "adv") coord[x.inDim] = at(x.index, b);
    source.push(coord.reduce((s, c, k) => s + c * inStrides[k]!, 0));
  }
  return { shape: outShape, source };
}

// --- helpers -----------------------------------------------------------------------------------------

const SHAPE = [3, 4, 5];
const base = (): Dense => ({ data: Array.from({ length: 60 }, (_, k) => k * 0.5 - 7), shape: SHAPE });
const x64 = (d: Dense) => torch.tensor(new Float64Array(d.data), { shape: d.shape });

/** Our index item for a reference item (tensors are created here and disposed by scoped()). */
function ours(it: RefItem): torch.IndexItem {
  if (it === null || it === "..." || typeof it === "number") return it;
  if ("slice" in it) return torch.slice(...it.slice);
  if ("mask" in it) return torch.tensor(it.mask, { shape: it.shape });
  return torch.tensor(it.idx, { dtype: "int64", shape: it.shape });
}

const s = (a: number | null, b: number | null = null, c: number | null = null): RefSlice => ({ slice: [a, b, c] });
const ix = (idx: number[], shape = [idx.length]): RefIndex => ({ idx, shape });
const mask = (m: number[], shape = [m.length]): RefMask => ({ mask: m.map(Boolean), shape });

const cases: [string, RefItem[]][] = [
  ["int", [1]],
  ["negative int", [-1]],
  ["two ints", [1, -2]],
  ["three ints (0-d result)", [2, 3, 4]],
  ["slice", [s(1, 3)]],
  ["slice past the end", [s(-2, 100)]],
  ["stepped slice", [":" as never, s(null, null, 2)]],
  ["slice then int", [s(0, 2), 3]],
  ["ellipsis then int", ["...", 1]],
  ["ellipsis in the middle", [0, "...", s(1, 4, 2)]],
  ["new axis", [null]],
  ["new axes around", [1, null, "...", null]],
  ["index tensor", [ix([2, 0, -1, 0])]],
  ["2-d index tensor", [ix([0, 2, 1, 1, 2, 0], [2, 3])]],
  ["0-d index tensor", [s(null), ix([3], [])]],
  ["index after slice", [s(null), ix([3, 0])]],
  ["two adjacent indices broadcast", [ix([0, 2], [2, 1]), ix([1, 3, 0], [3])]],
  ["indices apart go first", [ix([0, 2]), s(null), ix([4, 1])]],
  ["integer between indices", [ix([0, 2]), 1, ix([4, 1])]],
  ["new axis between indices", [null, ix([1, 0]), null, ix([3, 2])]],
  ["bool mask on dim 0", [mask([1, 0, 1])]],
  ["2-d bool mask", [mask([1, 0, 0, 1, 0, 1, 1, 0, 0, 0, 0, 1], [3, 4])]],
  ["mask after a slice", [s(null), mask([0, 1, 1, 0])]],
  ["all-false mask", [mask([0, 0, 0])]],
  ["mask and index", [mask([1, 0, 1]), s(1, 3), ix([4, 0])]],
];

// ":" as a string item is ours only; the reference takes the slice form.
const refItem = (it: RefItem): RefItem => ((it as unknown) === ":" ? s(null) : it);

describe("t.index and t.setIndex", () => {
  eagerSuite();

  for (const [name, items] of cases) {
    test(`index: ${name}`, () =>
      scoped(() => {
        const x = base();
        const ref = refPositions(x.shape, items.map(refItem));
        const got = x64(x).index(...items.map((it) => ((it as unknown) === ":" ? ":" : ours(it))));
        expectTensor(got, { dtype: "float64", shape: ref.shape, values: ref.source.map((i) => x.data[i]!) }, 0);
      }));
  }

  for (const [name, items] of cases) {
    test(`setIndex: ${name}`, () =>
      scoped(() => {
        const x = base();
        const ref = refPositions(x.shape, items.map(refItem));
        // Writes need distinct targets (PyTorch leaves duplicates unspecified); skip cases with repeats.
        if (new Set(ref.source).size !== ref.source.length) return;
        const values = ref.source.map((_, k) => 1000 + k);
        const want = [...x.data];
        ref.source.forEach((i, k) => (want[i] = values[k]!));
        const t = x64(x);
        const v = torch.tensor(new Float64Array(values), { shape: ref.shape });
        const same = t.setIndex(items.map((it) => ((it as unknown) === ":" ? ":" : ours(it))), v);
        expect(same).toBe(t);
        expectTensor(t, { dtype: "float64", shape: SHAPE, values: want }, 0);
      }));
  }

  test("setIndex with a broadcast scalar and tensor, and indexPut_ accumulating", () =>
    scoped(() => {
      const t = torch.tensor([[1, 2, 3], [4, 5, 6]], { dtype: "int32" });
      t.setIndex([":", 1], 0);
      expect(valuesOf(t)).toEqual([1, 0, 3, 4, 0, 6]);
      t.setIndex(torch.tensor([true, false]), torch.tensor([7, 8, 9], { dtype: "int32" }));
      expect(valuesOf(t)).toEqual([7, 8, 9, 4, 0, 6]);
      t.indexPut_([torch.tensor([1, 1, 0], { dtype: "int64" }), torch.tensor([2], { dtype: "int64" })], torch.tensor(10, { dtype: "int32" }), { accumulate: true });
      expect(valuesOf(t)).toEqual([7, 8, 19, 4, 0, 26]);
      t.dispose();
    }));

  test("0-d tensors: index(), index(null), setIndex([])", () =>
    scoped(() => {
      const t = torch.tensor(1.5, { dtype: "float64" });
      expectTensor(t.index(), { dtype: "float64", shape: [], values: [1.5] });
      expectTensor(t.index(null, "..."), { dtype: "float64", shape: [1], values: [1.5] });
      t.setIndex([], 3);
      expectTensor(t, { dtype: "float64", shape: [], values: [3] });
      expect(() => torch.indexSelect(torch.tensor(2), 0, torch.tensor([0, 0], { dtype: "int64" }))).toThrow(/must hold one value/);
    }));

  test("setIndex inside tidy keeps the tensor alive", () =>
    scoped(() => {
      const t = torch.zeros([3]);
      torch.tidy(() => {
        t.setIndex([1], 5);
      });
      expect(t.isDisposed).toBe(false);
      expect(valuesOf(t)).toEqual([0, 5, 0]);
      t.dispose();
    }));

  test("indexing errors", () =>
    scoped(() => {
      const t = x64(base());
      expect(() => t.index(3)).toThrow(/index 3 is out of bounds for dimension 0 with size 3/);
      expect(() => t.index(0, -5)).toThrow(torch.ShapeError);
      expect(() => t.index(0, 0, 0, 0)).toThrow(/too many indices for a tensor of dimension 3/);
      expect(() => t.index("...", "...")).toThrow(torch.ArgumentError);
      expect(() => t.index(torch.slice(null, null, -1))).toThrow(/negative slice steps/);
      expect(() => t.index("::0")).toThrow(/non-zero/);
      expect(() => t.index("1:x")).toThrow(torch.ArgumentError);
      expect(() => t.index(torch.tensor([true, false]))).toThrow(/mask shape \[2\] does not match the indexed dims \[3\]/);
      expect(() => t.index(torch.tensor([0.5]))).toThrow(torch.DTypeError);
      expect(() => t.index(torch.tensor([0, 1], { dtype: "int64" }), torch.tensor([0, 1, 2], { dtype: "int64" }))).toThrow(/cannot be broadcast/);
      expect(() => t.setIndex([0], torch.zeros([2]))).toThrow(/shapes \[2\] and \[4, 5\] cannot be broadcast/);
      t.dispose();
    }));
});

describe("indexing op errors and edge cases", () => {
  eagerSuite();

  test("typed errors before dispatch", () =>
    scoped(() => {
      const x = torch.zeros([3, 4]);
      const i = torch.tensor([[0, 1]], { dtype: "int64" });
      expect(() => torch.gather(x, 1, torch.tensor([0, 1], { dtype: "int64" }))).toThrow(/index \[2\] must have as many dimensions as the input \[3, 4\]/);
      expect(() => torch.gather(x, 1, torch.tensor([[0.5]]))).toThrow(torch.DTypeError);
      expect(() => torch.gather(x, 2, i)).toThrow(torch.ShapeError);
      expect(() => torch.scatter(x, 1, i, torch.zeros([1, 2], { dtype: "float64" }))).toThrow(/src dtype float64 must equal the input dtype float32/);
      expect(() => torch.scatter(x, 1, i, torch.zeros([1, 1]))).toThrow(/larger than src/);
      expect(() => torch.scatter(x, 1, i, 1, { reduce: "max" as never })).toThrow(torch.ArgumentError);
      expect(() => torch.scatterReduce(x, 1, i, torch.zeros([1, 2]), "median" as never)).toThrow(/"reduce" must be .*"sum" or "prod" or "mean" or "amax" or "amin", got string "median"/);
      expect(() => torch.indexSelect(x, 0, i)).toThrow(/index must be 0-d or 1-d/);
      expect(() => torch.maskedFill(x, torch.zeros([4]), 1)).toThrow(torch.DTypeError);
      expect(() => torch.maskedFill(x, torch.tensor([true, false]), 1)).toThrow(torch.ShapeError);
      expect(() => torch.maskedFill(x, torch.tensor([true, false, true, true]), torch.zeros([2]))).toThrow(/0-dimensional value tensor/);
      expect(() => torch.topk(x, 5)).toThrow(/k = 5 is out of range for dimension 1 of size 4/);
      expect(() => torch.searchsorted(torch.zeros([3]), x, { side: "left", right: true })).toThrow(torch.ArgumentError);
      expect(() => torch.searchsorted(torch.zeros([2, 3]), torch.zeros([3, 1]))).toThrow(/leading dimensions/);
      expect(() => torch.bucketize(x, torch.zeros([2, 2]))).toThrow(/boundaries must be 1-d/);
      expect(() => torch.unique(x, { dim: 2 })).toThrow(torch.ShapeError);
      expect(() => torch.maskedSelect(x, torch.tensor([1, 0, 1, 0], { dtype: "int32" }))).toThrow(torch.DTypeError);
      x.dispose();
      i.dispose();
    }));

  test("out-of-range index values clamp when reading and are skipped when writing", () =>
    scoped(() => {
      const x = torch.tensor([10, 20, 30], { dtype: "int32" });
      const idx = torch.tensor([5, -9, 1], { dtype: "int64" });
      expectTensor(torch.gather(x, 0, idx), { dtype: "int32", shape: [3], values: [30, 10, 20] });
      expectTensor(torch.scatter(x, 0, idx, torch.tensor([1, 2, 3], { dtype: "int32" })), { dtype: "int32", shape: [3], values: [10, 3, 30] });
      x.dispose();
      idx.dispose();
    }));

  test("empty tensors and empty indices", () =>
    scoped(() => {
      const empty = torch.tensor([], { dtype: "int64" });
      const z = torch.zeros([0, 3]);
      expectTensor(torch.indexSelect(z, 0, empty), { dtype: "float32", shape: [0, 3], values: [] });
      expectTensor(torch.gather(z, 0, torch.zeros([0, 2], { dtype: "int64" })), { dtype: "float32", shape: [0, 2], values: [] });
      expectTensor(z.index(empty), { dtype: "float32", shape: [0, 3], values: [] });
      expectTensor(z.index(":", torch.tensor([2, 0], { dtype: "int64" })), { dtype: "float32", shape: [0, 2], values: [] });
      expect(() => z.index(torch.tensor([0], { dtype: "int64" }))).toThrow(/cannot index dimension 0 of size 0/);
      const t = torch.tensor([1, 2, 3], { dtype: "int32" });
      t.setIndex(empty, 9);
      expectTensor(t, { dtype: "int32", shape: [3], values: [1, 2, 3] });
    }));

  test("data-dependent ops on empty and 0-d inputs", () =>
    scoped(() => {
      expectTensor(torch.nonzero(torch.zeros([2, 3])) as torch.Tensor, { dtype: "int64", shape: [0, 2], values: [] });
      expectTensor(torch.nonzero(torch.tensor(3)) as torch.Tensor, { dtype: "int64", shape: [1, 0], values: [] });
      expectTensor(torch.maskedSelect(torch.tensor(new Float32Array([1, 2, 3])), torch.tensor(true)), { dtype: "float32", shape: [3], values: [1, 2, 3] });
      expectTensor(torch.unique(torch.zeros([0])) as torch.Tensor, { dtype: "float32", shape: [0], values: [] });
      const [u, inv, counts] = torch.unique(torch.tensor([[3, 1], [3, 3]], { dtype: "int16" }), { returnInverse: true, returnCounts: true }) as torch.Tensor[];
      expectTensor(u!, { dtype: "int16", shape: [2], values: [1, 3] });
      expectTensor(inv!, { dtype: "int64", shape: [2, 2], values: [1, 0, 1, 1] });
      expectTensor(counts!, { dtype: "int64", shape: [2], values: [1, 3] });
    }));

  test("unique along a dim, with inverse and counts", () =>
    scoped(() => {
      const x = torch.tensor([[1, 2], [0, 5], [1, 2], [0, 5], [0, 1]], { dtype: "int32" });
      const [u, inv, counts] = torch.unique(x, { dim: 0, returnInverse: true, returnCounts: true }) as torch.Tensor[];
      expectTensor(u!, { dtype: "int32", shape: [3, 2], values: [0, 1, 0, 5, 1, 2] });
      expectTensor(inv!, { dtype: "int64", shape: [5], values: [2, 1, 2, 1, 0] });
      expectTensor(counts!, { dtype: "int64", shape: [3], values: [1, 2, 2] });
      expectTensor(torch.unique(x.t(), { dim: 1 }) as torch.Tensor, { dtype: "int32", shape: [2, 3], values: [0, 0, 1, 1, 5, 2] });
    }));

  test("sort is stable on ties and a large sort matches a float64 reference", () =>
    scoped(() => {
      const n = 5000;
      const keys = Array.from({ length: n }, (_, k) => ((k * 7919) % 101) - 50);
      const r = torch.sort(torch.tensor(new Float64Array(keys)), { descending: true });
      const order = keys.map((v, k) => [v, k] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
      expectTensor(r.values, { dtype: "float64", shape: [n], values: order.map((o) => o[0]) }, 0);
      expectTensor(r.indices, { dtype: "int64", shape: [n], values: order.map((o) => o[1]) }, 0);
    }));
});

describe("indexing ops take PyTorch's positional arguments and the same ones as options", () => {
  eagerSuite();

  test("sort, argsort, topk: dim, descending and largest positionally or by name", () =>
    scoped(() => {
      const x = torch.tensor([[3, 1, 2], [0, 5, 4]], { dtype: "float64" });
      for (const r of [x.topk(2, -1), x.topk(2), torch.topk(x, 2, { dim: -1 }), x.topk({ k: 2 })]) {
        expectTensor(r.values, { dtype: "float64", shape: [2, 2], values: [3, 2, 5, 4] });
        expectTensor(r.indices, { dtype: "int64", shape: [2, 2], values: [0, 2, 1, 2] });
      }
      for (const r of [x.topk(1, 0, false), x.topk(1, { dim: 0, largest: false }), torch.topk(x, 1, 0, false, true)]) {
        expectTensor(r.values, { dtype: "float64", shape: [1, 3], values: [0, 1, 2] });
      }
      for (const r of [x.sort(0, true), torch.sort(x, { dim: 0, descending: true }), x.sort({ stable: true, dim: 0, descending: true })]) {
        expectTensor(r.values, { dtype: "float64", shape: [2, 3], values: [3, 5, 4, 0, 1, 2] });
        expectTensor(r.indices, { dtype: "int64", shape: [2, 3], values: [0, 1, 1, 1, 0, 0] });
      }
      for (const r of [x.argsort(1, true), torch.argsort(x, { dim: 1, descending: true }), x.argsort(-1, true, { stable: true })]) {
        expectTensor(r, { dtype: "int64", shape: [2, 3], values: [0, 2, 1, 1, 2, 0] });
      }
      expect(() => x.topk(2, { dims: 0 } as never)).toThrow('Tensor.topk(k, dim = -1, largest = true, sorted = true): got an unknown option "dims"; did you mean "dim"?');
      expect(() => x.sort(0, true, true as never)).toThrow(torch.ArgumentError);
    }));

  test("gather, scatter, scatterReduce, takeAlongDim, indexSelect: positional and by name", () =>
    scoped(() => {
      const x = torch.tensor([[1, 2, 3], [4, 5, 6]], { dtype: "float64" });
      const i = torch.tensor([[2, 0]], { dtype: "int64" });
      for (const g of [x.gather(1, i), torch.gather(x, 1, i), x.gather(-1, i)]) expectTensor(g, { dtype: "float64", shape: [1, 2], values: [3, 1] });
      for (const s of [x.scatter(1, i, 9), torch.scatter(x, 1, i, { value: 9 }), x.scatter(1, i, { value: 9 })]) {
        expectTensor(s, { dtype: "float64", shape: [2, 3], values: [9, 2, 9, 4, 5, 6] });
      }
      const src = torch.tensor([[10, 20]], { dtype: "float64" });
      for (const s of [x.scatter(1, i, src, { reduce: "add" }), torch.scatter(x, 1, i, src, { reduce: "add" }), x.scatterAdd(1, i, src)]) {
        expectTensor(s, { dtype: "float64", shape: [2, 3], values: [21, 2, 13, 4, 5, 6] });
      }
      expect(() => x.scatter(1, i, src, "add" as never)).toThrow(torch.ArgumentError); // reduce is keyword-only, as in PyTorch
      for (const s of [x.scatterReduce(1, i, src, "amax", { includeSelf: false }), torch.scatterReduce(x, 1, i, src, { reduce: "amax", includeSelf: false })]) {
        expectTensor(s, { dtype: "float64", shape: [2, 3], values: [20, 2, 10, 4, 5, 6] });
      }
      const j = torch.tensor([[1], [0]], { dtype: "int64" });
      for (const t of [x.takeAlongDim(j, 1), torch.takeAlongDim(x, j, { dim: 1 })]) expectTensor(t, { dtype: "float64", shape: [2, 1], values: [2, 4] });
      expectTensor(x.takeAlongDim(torch.tensor([5], { dtype: "int64" })), { dtype: "float64", shape: [1], values: [6] });
      const k = torch.tensor([2, 2], { dtype: "int64" });
      for (const t of [x.indexSelect(1, k), torch.indexSelect(x, 1, k)]) expectTensor(t, { dtype: "float64", shape: [2, 2], values: [3, 3, 6, 6] });
    }));

  test("searchsorted and bucketize: the flags are keyword-only; searchsorted takes a sorter", () =>
    scoped(() => {
      const seq = torch.tensor([1, 3, 5, 7], { dtype: "float64" });
      const v = torch.tensor([3, 6], { dtype: "float64" });
      expectTensor(torch.searchsorted(seq, v), { dtype: "int64", shape: [2], values: [1, 3] });
      expectTensor(torch.searchsorted(seq, v, { side: "right", outInt32: true }), { dtype: "int32", shape: [2], values: [2, 3] });
      expectTensor(torch.searchsorted(seq, { input: 4 }), { dtype: "int64", shape: [], values: [2] });
      expectTensor(torch.bucketize(v, seq, { right: true }), { dtype: "int64", shape: [2], values: [2, 3] });
      expect(() => torch.searchsorted(seq, v, true as never)).toThrow(torch.ArgumentError);
      // an unsorted sequence with the indices that sort it
      const shuffled = torch.tensor([[7, 1, 5, 3], [40, 10, 30, 20]], { dtype: "float64" });
      const sorter = torch.tensor([[1, 3, 2, 0], [1, 3, 2, 0]], { dtype: "int64" });
      const values = torch.tensor([[4, 9], [25, 5]], { dtype: "float64" });
      expectTensor(torch.searchsorted(shuffled, values, { sorter }), { dtype: "int64", shape: [2, 2], values: [2, 4, 2, 0] });
      expectTensor(torch.searchsorted(shuffled, values, { sorter, right: true }), { dtype: "int64", shape: [2, 2], values: [2, 4, 2, 0] });
      expect(() => torch.searchsorted(shuffled, values, { sorter: torch.tensor([0, 1], { dtype: "int64" }) })).toThrow(/sorter \[2\] must have the sorted sequence's shape \[2, 4\]/);
    }));

  test("nonzero, unique, maskedSelect: asTuple is keyword-only, unique's flags are positional", () =>
    scoped(() => {
      const x = torch.tensor([[0, 2], [3, 0]], { dtype: "int32" });
      expectTensor(x.nonzero(), { dtype: "int64", shape: [2, 2], values: [0, 1, 1, 0] });
      const [rows, cols] = x.nonzero({ asTuple: true });
      expectTensor(rows!, { dtype: "int64", shape: [2], values: [0, 1] });
      expectTensor(cols!, { dtype: "int64", shape: [2], values: [1, 0] });
      expect(() => torch.nonzero(x, true as never)).toThrow(torch.ArgumentError);
      const y = torch.tensor([3, 1, 3], { dtype: "int32" });
      for (const r of [y.unique(true, true) as torch.Tensor[], torch.unique(y, { returnInverse: true }) as torch.Tensor[]]) {
        expect(r.length).toBe(2);
        expectTensor(r[0]!, { dtype: "int32", shape: [2], values: [1, 3] });
        expectTensor(r[1]!, { dtype: "int64", shape: [3], values: [1, 0, 1] });
      }
      const [, , counts] = y.unique(true, true, true, 0) as torch.Tensor[];
      expectTensor(counts!, { dtype: "int64", shape: [2], values: [1, 2] });
      expectTensor(y.maskedSelect(torch.tensor([true, false, true])), { dtype: "int32", shape: [2], values: [3, 3] });
    }));

  test("index, setIndex, indexPut, indexPut_ and torch.slice: positional and by name", () =>
    scoped(() => {
      const x = torch.tensor([[1, 2, 3], [4, 5, 6]], { dtype: "float64" });
      for (const s of [torch.slice(1, 3), torch.slice({ start: 1, stop: 3 }), torch.slice(1, null, null), torch.slice(1, { stop: 3 })]) {
        expectTensor(x.index(1, s), { dtype: "float64", shape: [2], values: [5, 6] });
      }
      expect(torch.slice(null, null, 2)).toEqual(new torch.Slice(null, null, 2));
      expect(() => torch.slice(1.5)).toThrow(torch.ArgumentError);
      expectTensor(torch.index(x, ":", 0), { dtype: "float64", shape: [2], values: [1, 4] });
      const i = torch.tensor([0, 2], { dtype: "int64" });
      for (const r of [torch.indexPut(x, [null, i], 10, true), x.indexPut([null, i], 10, { accumulate: true }), x.indexPut([null, i], { values: 10, accumulate: true })]) {
        expectTensor(r, { dtype: "float64", shape: [2, 3], values: [11, 2, 13, 14, 5, 16] });
      }
      expectTensor(x, { dtype: "float64", shape: [2, 3], values: [1, 2, 3, 4, 5, 6] });
      const t = torch.zeros([2, 3], { dtype: "float64" });
      expect(t.indexPut_([i.index(":1")], 1, true)).toBe(t);
      t.setIndex(1, { value: 2 });
      torch.setIndex(t, [0, 1], 3);
      expectTensor(t, { dtype: "float64", shape: [2, 3], values: [1, 3, 1, 2, 2, 2] });
      expect(() => x.indexPut([0 as never], 1)).toThrow(/"indices" must be a \(Tensor or null\)\[\], got \[number 0\]/);
    }));
});
