/**
 * @file `t.index(...)` and `t.setIndex(indices, value)`: PyTorch's `t[...]` and `t[...] = value`.
 *
 * Index items: integers (negative from the end), slices (`torch.slice(start, stop, step)` or the
 * strings ":", "1:4", "::2"; steps must be positive, as in PyTorch), `null` (a new axis of size 1),
 * "..." (all remaining dims), bool mask tensors (their true positions, read back to the host first)
 * and integer index tensors (advanced indexing). Integers are applied first (they drop their dim);
 * then the index tensors broadcast together, and their dims replace the indexed dims where those are
 * adjacent, or go first otherwise, as in PyTorch. Out-of-range values inside index tensors clamp
 * (reading) or are skipped (writing) instead of raising; out-of-range integers raise.
 */
import { ArgumentError, DTypeError, ShapeError } from "../../runtime/errors.js";
import { rebind, Tensor } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import { broadcastShapes, fmtShape } from "../dims.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import { type IndexItem, Slice } from "../slice.js";
import type { ScalarArg } from "../types.js";
import { isScalar, run } from "../unit.js";
import { nonzeroOf } from "./host.js";

export const slice = op(
  "slice(start?: int, stop?: int, step?: int) -> Slice",
  {
    doc: 'The slice `start:stop:step` (omitted or null parts are open, as in Python) for `t.index(...)` and `t.setIndex(...)`; the strings ":", "1:4", "::2" say the same. Steps must be positive, as in PyTorch.',
  },
  ({ start, stop, step }) => new Slice(start ?? null, stop ?? null, step ?? null),
);

/** One item of the plan: how one input dim (or a new axis) is indexed. */
type Step =
  | { kind: "slice"; start: number; stop: number; step: number }
  | { kind: "int"; at: number }
  | { kind: "new" }
  | { kind: "tensor"; tensor: number }; // index into the plan's tensors

interface Plan {
  steps: Step[]; // in order; steps other than "new" consume one input dim each
  tensors: Tensor[]; // integer index tensors (bool masks already turned into these)
  owned: Tensor[]; // tensors created here (from masks), to dispose after the unit
}

function parseSlice(op: string, text: string): Slice {
  const parts = text.split(":");
  if (parts.length < 2 || parts.length > 3) throw new ArgumentError(`${op}: cannot read "${text}" as an index (use ":", "1:4", "::2" or "...")`);
  const nums = parts.map((p) => {
    if (p.trim() === "") return null;
    const v = Number(p);
    if (!Number.isInteger(v)) throw new ArgumentError(`${op}: cannot read "${text}" as a slice: "${p}" is not an integer`);
    return v;
  });
  return new Slice(nums[0], nums[1], nums[2] ?? null);
}

/** Python's slice.indices for a positive step. */
function sliceBounds(op: string, s: Slice, size: number): { start: number; stop: number; step: number } {
  const step = s.step ?? 1;
  if (!Number.isInteger(step) || step === 0) throw new ArgumentError(`${op}: slice step must be a non-zero integer, got ${s.step}`);
  if (step < 0) throw new ArgumentError(`${op}: negative slice steps are not supported (as in PyTorch); use flip`);
  const norm = (v: number | null, fallback: number): number => {
    if (v === null) return fallback;
    if (!Number.isInteger(v)) throw new ArgumentError(`${op}: slice bounds must be integers, got ${v}`);
    return Math.min(Math.max(v < 0 ? v + size : v, 0), size);
  };
  const start = norm(s.start, 0);
  return { start, stop: Math.max(start, norm(s.stop, size)), step };
}

/** Resolves the items against `shape` (reading bool masks back to the host). */
function makePlan(op: string, shape: readonly number[], items: readonly IndexItem[]): Plan {
  const rank = shape.length;
  const consumed = (it: IndexItem): number => (it instanceof Tensor ? (it.dtype === "bool" ? it.ndim : 1) : it === null || it === "..." ? 0 : 1);
  const used = items.reduce<number>((n, it) => n + consumed(it), 0);
  const ellipses = items.filter((it) => it === "...").length;
  if (ellipses > 1) throw new ArgumentError(`${op}: an index can have only one ellipsis ("...")`);
  if (used > rank) throw new ShapeError(`${op}: too many indices for a tensor of dimension ${rank} (${used} dims indexed, shape ${fmtShape(shape)})`);
  const plan: Plan = { steps: [], tensors: [], owned: [] };
  let d = 0;
  const full = (): void => {
    plan.steps.push({ kind: "slice", start: 0, stop: shape[d]!, step: 1 });
    d++;
  };
  try {
    for (const it of items) {
      if (it === "...") {
        for (let k = 0; k < rank - used; k++) full();
      } else if (it === null) {
        plan.steps.push({ kind: "new" });
      } else if (typeof it === "number") {
        const size = shape[d]!;
        if (!Number.isInteger(it)) throw new ArgumentError(`${op}: index ${it} is not an integer; indices are integers, slices, null, "..." or integer or bool tensors`);
        if (it < -size || it >= size) {
          throw new ShapeError(`${op}: index ${it} is out of bounds for dimension ${d} with size ${size}`);
        }
        plan.steps.push({ kind: "int", at: it < 0 ? it + size : it });
        d++;
      } else if (typeof it === "string" || it instanceof Slice) {
        const b = sliceBounds(op, typeof it === "string" ? parseSlice(op, it) : it, shape[d]!);
        plan.steps.push({ kind: "slice", ...b });
        d++;
      } else if (it instanceof Tensor) {
        if (it.dtype === "bool") {
          if (it.ndim === 0) throw new ArgumentError(`${op}: 0-d bool indices are not supported; use unsqueeze`);
          const covered = shape.slice(d, d + it.ndim);
          if (it.shape.some((s, k) => s !== covered[k])) {
            throw new ShapeError(`${op}: the mask shape ${fmtShape(it.shape)} does not match the indexed dims ${fmtShape(covered)} of ${fmtShape(shape)} (starting at dim ${d})`);
          }
          const parts = nonzeroOf(it, true) as Tensor[];
          plan.owned.push(...parts);
          for (const p of parts) {
            plan.steps.push({ kind: "tensor", tensor: plan.tensors.length });
            plan.tensors.push(p);
            d++;
          }
        } else if (it.dtype === "float16" || it.dtype === "bfloat16" || it.dtype === "float32" || it.dtype === "float64") {
          throw new DTypeError(`${op}: index tensors must be integer or bool, got ${it.dtype}`);
        } else {
          if (shape[d] === 0 && it.numel() > 0) throw new ShapeError(`${op}: cannot index dimension ${d} of size 0 with a non-empty index tensor`);
          plan.steps.push({ kind: "tensor", tensor: plan.tensors.length });
          plan.tensors.push(it);
          d++;
        }
      } else {
        throw new ArgumentError(`${op}: cannot index with ${typeof it === "object" ? "this object" : String(it)}`);
      }
    }
    while (d < rank) full();
  } catch (err) {
    for (const t of plan.owned) t.dispose();
    throw err;
  }
  return plan;
}

/** The result shape of the plan, and where the broadcast index dims go. */
function planShape(op: string, shape: readonly number[], plan: Plan): { post: number[]; advanced: number[]; batch: number[]; at: number } {
  const post: number[] = [];
  const advanced: number[] = [];
  let d = 0;
  for (const s of plan.steps) {
    if (s.kind === "new") post.push(1);
    else if (s.kind === "slice") post.push(Math.ceil((s.stop - s.start) / s.step));
    else if (s.kind === "tensor") {
      advanced.push(post.length);
      post.push(shape[d]!);
    }
    if (s.kind !== "new") d++;
  }
  const batch = plan.tensors.length ? broadcastShapes(op, ...plan.tensors.map((t) => t.shape)) : [];
  const adjacent = advanced.every((p, i) => i === 0 || p === advanced[i - 1]! + 1);
  return { post, advanced, batch, at: adjacent && advanced.length ? advanced[0]! : 0 };
}

/** Applies the plan to `x` (the input, or a coordinate iota of its shape) with the index tracers. */
function applyPlan(x: Tracer, plan: Plan, layout: ReturnType<typeof planShape>, indices: readonly Tracer[]): Tracer {
  const cut = plan.steps.filter((s) => s.kind !== "new");
  const sliced = e.slice(
    x,
    cut.map((s) => (s.kind === "slice" ? s.start : s.kind === "int" ? s.at : 0)),
    cut.map((s, d) => (s.kind === "slice" ? s.stop : s.kind === "int" ? s.at + 1 : x.shape[d]!)),
    cut.map((s) => (s.kind === "slice" ? s.step : 1)),
  );
  const { post, advanced, batch, at } = layout;
  const y = e.reshape(sliced, post);
  if (advanced.length === 0) return y;
  const parts = advanced.map((p, k) => {
    let idx = e.convert(indices[k]!, "int64");
    const size = e.full(post[p]!, "int64", idx.shape);
    idx = e.select(e.compare(idx, e.full(0, "int64", idx.shape), "LT"), e.add(idx, size), idx);
    return e.reshape(e.broadcastTo(idx, batch), [...batch, 1]);
  });
  const kept = post.map((_, i) => i).filter((i) => !advanced.includes(i));
  const resultShape = [...kept.slice(0, at).map((i) => post[i]!), ...batch, ...kept.slice(at).map((i) => post[i]!)];
  if (resultShape.includes(0)) return e.full(0, x.dtype, resultShape); // nothing to read (a non-empty index into an empty dim is rejected in makePlan)
  const vectors = e.concatenate(parts, batch.length);
  const offsetDims = kept.map((_, k) => (k < at ? k : k + batch.length));
  return e.gather(y, vectors, {
    offsetDims,
    collapsedSliceDims: advanced,
    startIndexMap: advanced,
    indexVectorDim: batch.length,
    sliceSizes: post.map((s, i) => (advanced.includes(i) ? 1 : s)),
  });
}

const planKey = (plan: Plan): string => JSON.stringify(plan.steps);

export const index = op(
  "index(input: Tensor, ...items?: IndexItem) -> Tensor",
  {
    doc: 'PyTorch\'s `t[items]`, as a copy: ints, slices (torch.slice or ":", "1:4", "::2"), null (a new axis), "..." and int or bool index tensors.',
    method: true,
  },
  ({ input, items = [] }) => {
    const plan = makePlan("index", input.shape, items);
    try {
      const layout = planShape("index", input.shape, plan);
      return run("index", [input, ...plan.tensors], planKey(plan), ([x, ...idx]) => applyPlan(x as Tracer, plan, layout, idx as Tracer[]));
    } finally {
      for (const t of plan.owned) t.dispose();
    }
  },
);

/** input with `value` written (or added, with accumulate) at input[items]; a new tensor. */
function indexWrite(op: string, input: Tensor, items: readonly IndexItem[], value: Tensor | ScalarArg, accumulate: boolean): Tensor {
  if (accumulate && input.dtype === "bool") throw new DTypeError(`${op}: accumulate is not supported for bool tensors`);
  const plan = makePlan(op, input.shape, items);
  try {
    const layout = planShape(op, input.shape, plan);
    const resultShape = resultShapeOf(layout);
    if (!isScalar(value)) broadcastInto(op, value.shape, resultShape);
    const rank = input.ndim;
    return run(op, [input, value, ...plan.tensors], `${planKey(plan)}|${accumulate}`, ([x, v, ...idx]) => {
      const t = x as Tracer;
      if (rank === 0) {
        const v0 = isScalar(v) ? e.full(v, t.dtype) : e.reshape(e.broadcastTo(e.convert(v!, t.dtype), resultShape), []);
        return accumulate ? e.add(t, v0) : v0;
      }
      const coords = t.shape.map((_, d) => applyPlan(e.iota("int64", t.shape, d), plan, layout, idx as Tracer[]));
      const r = coords[0]!.shape;
      const vectors = e.concatenate(coords.map((c) => e.reshape(c, [...r, 1])), r.length);
      const updates = isScalar(v) ? e.full(v, t.dtype, r) : e.broadcastTo(e.convert(v!, t.dtype), r);
      const all = Array.from({ length: rank }, (_, i) => i);
      return e.scatter(t, vectors, updates, { kind: accumulate ? "add" : "replace", updateWindowDims: [], insertedWindowDims: all, scatterDimsToOperandDims: all, indexVectorDim: r.length });
    });
  } finally {
    for (const t of plan.owned) t.dispose();
  }
}

function resultShapeOf({ post, advanced, batch, at }: ReturnType<typeof planShape>): number[] {
  const kept = post.filter((_, i) => !advanced.includes(i));
  return advanced.length ? [...kept.slice(0, at), ...batch, ...kept.slice(at)] : post;
}

function broadcastInto(op: string, from: readonly number[], to: readonly number[]): void {
  const out = broadcastShapes(op, from, to);
  if (out.length !== to.length || out.some((s, i) => s !== to[i])) {
    throw new ShapeError(`${op}: value of shape ${fmtShape(from)} cannot be broadcast to the indexed shape ${fmtShape(to)}`);
  }
}

const wholeDims = (indices: readonly (Tensor | null)[]): IndexItem[] => indices.map((i) => (i === null ? ":" : i));

export const indexPut = op(
  "indexPut(input: Tensor, indices: OptionalTensor[], values: Tensor | Scalar, accumulate: bool = false) -> Tensor",
  {
    doc: "`input[indices] = values` (or `+=` with `accumulate`) as a new tensor; `indices` holds an index tensor or null (the whole dim) per dim, and `values` may be a scalar.",
    method: true,
  },
  ({ input, indices, values, accumulate }) => indexWrite("indexPut", input, wholeDims(indices), values, accumulate),
);

export const setIndex = op(
  "setIndex(input: Tensor, items: IndexItem | IndexItem[] | None, value: Tensor | Scalar) -> Tensor",
  {
    doc: "PyTorch's `t[items] = value`: `t` keeps its identity and gets the new values (one item, or a list of them, as `index` takes). Returns `t`.",
    method: true,
  },
  ({ input, items, value }) => {
    rebind(input, indexWrite("setIndex", input, Array.isArray(items) ? (items as readonly IndexItem[]) : [items as IndexItem], value, false));
    return input;
  },
);

export const indexPut_ = op(
  "indexPut_(input: Tensor, indices: OptionalTensor[], values: Tensor | Scalar, accumulate: bool = false) -> Tensor",
  { doc: "indexPut in place: `t` keeps its identity and gets the new values. Returns `t`.", method: true },
  ({ input, indices, values, accumulate }) => {
    rebind(input, indexWrite("indexPut_", input, wholeDims(indices), values, accumulate));
    return input;
  },
);
