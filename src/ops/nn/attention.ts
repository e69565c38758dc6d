/**
 * @file scaledDotProductAttention: softmax(q kᵀ × scale + mask) v, computed in float32 for
 * float16/bfloat16, with dropout on the attention weights drawn from the generator like every random op.
 */
import { ArgumentError, DTypeError, ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import * as e from "../emit.js";
import { broadcastShapes, fmtShape, sameShape } from "../dims.js";
import { draw } from "../random/draw.js";
import { op } from "../signature/op.js";
import { dropoutTraced } from "./dropout.js";
import { c, sliceDim, type T } from "./emitters.js";
import { opmath, requireFloat } from "./opmath.js";
import { runOptional } from "./optional_tensors.js";

export const scaledDotProductAttention = op(
  "scaledDotProductAttention(query: Tensor, key: Tensor, value: Tensor, attnMask?: Tensor, dropoutP: float = 0, isCausal: bool = false, *, scale?: float, enableGqa: bool = false, generator?: Generator) -> Tensor",
  {
    doc: "softmax(query keyᵀ · scale + attnMask) value: query [*, L, E], key [*, S, E], value [*, S, Ev] → [*, L, Ev] (batch dims broadcast; a bool mask marks what may be attended). scale defaults to 1 / sqrt(E); dropout on the weights draws from `generator`, which PyTorch does not take.",
  },
  ({ query, key, value, attnMask, dropoutP, isCausal, scale: scaleArg, enableGqa, generator }) => {
    const op = "scaledDotProductAttention";
    const mask = attnMask ?? null;
    if (!(dropoutP >= 0 && dropoutP <= 1)) throw new ArgumentError(`${op}: dropoutP must be between 0 and 1, got ${String(dropoutP)}`);
    if (isCausal && mask) throw new ArgumentError(`${op}: pass either attnMask or isCausal: true, not both`);
    requireFloat(op, query, "query");
    for (const [t, name] of [[key, "key"], [value, "value"]] as const) {
      if (t.dtype !== query.dtype) throw new DTypeError(`${op}: query, key and value must have the same dtype, got query ${query.dtype} and ${name} ${t.dtype}`);
    }
    if (query.ndim < 2 || key.ndim < 2 || value.ndim < 2) {
      throw new ShapeError(`${op}: query, key and value need at least 2 dimensions, got ${fmtShape(query.shape)}, ${fmtShape(key.shape)}, ${fmtShape(value.shape)}`);
    }
    const [L, E] = query.shape.slice(-2) as [number, number];
    const [S, Ek] = key.shape.slice(-2) as [number, number];
    const Sv = value.shape[value.ndim - 2]!;
    const Ev = value.shape[value.ndim - 1]!;
    if (E !== Ek || S !== Sv) {
      throw new ShapeError(`${op}: expected query [*, L, E], key [*, S, E], value [*, S, Ev], got ${fmtShape(query.shape)}, ${fmtShape(key.shape)}, ${fmtShape(value.shape)}`);
    }
    const groups = enableGqa ? gqaGroups(query, key, value) : 1;
    const withHeads = (t: Tensor) => t.shape.slice(0, -2).map((d, i, a) => (i === a.length - 1 ? d * groups : d));
    const batch = broadcastShapes(op, query.shape.slice(0, -2), withHeads(key), withHeads(value));
    const scoreShape = [...batch, L, S];
    if (mask) {
      if (mask.dtype !== "bool" && mask.dtype !== query.dtype) throw new DTypeError(`${op}: attnMask must be bool or ${query.dtype} (the query's dtype), got ${mask.dtype}`);
      if (!sameShape(broadcastShapes(op, scoreShape, mask.shape), scoreShape)) {
        throw new ShapeError(`${op}: attnMask ${fmtShape(mask.shape)} does not broadcast to the attention scores ${fmtShape(scoreShape)}`);
      }
    }
    const scale = scaleArg ?? 1 / Math.sqrt(E);
    const statics = `${isCausal}|${scale}|${groups}|${dropoutP}`;
    const attend = (q: T | null, k: T | null, v: T | null, m: T | null, rng?: T): T => {
      const dtype = opmath(q!.dtype);
      const nb = batch.length;
      const bdims = batch.map((_, i) => i);
      const lift = (t: T, last: readonly number[]) => e.broadcastTo(e.convert(t, dtype), [...batch, ...last]);
      const qs = lift(q!, [L, E]);
      const ks = lift(repeatHeads(k!, groups), [S, E]);
      const vs = lift(repeatHeads(v!, groups), [S, Ev]);
      const rows = (t: T, from: number, to: number) => (from === 0 && to === t.shape[nb] ? t : sliceDim(t, nb, from, to));
      // Query rows [r0, r1) against the keys they may see: [0, min(r1, S)) when causal.
      const attendRows = (r0: number, r1: number): T => {
        const seen = isCausal ? Math.min(r1, S) : S;
        const kb = rows(ks, 0, seen);
        const vb = rows(vs, 0, seen);
        const shape = [...batch, r1 - r0, seen];
        let scores = e.dotGeneral(rows(qs, r0, r1), kb, bdims, bdims, [nb + 1], [nb + 1]); // [*, rows, seen]
        scores = e.mul(scores, c(scores, scale));
        const negInf = c(scores, -Infinity);
        if (m && m.dtype === "bool") scores = e.select(e.broadcastTo(m, shape), scores, negInf);
        else if (m) scores = e.add(scores, e.broadcastTo(e.convert(m, dtype), shape));
        if (isCausal) {
          // made once for the block's [rows, seen] and broadcast by indexing, not once per batch and head
          const row = e.iota("int32", [r1 - r0, seen], 0);
          const allowed = e.compare(e.iota("int32", [r1 - r0, seen], 1), r0 === 0 ? row : e.add(row, e.full(r0, "int32", [r1 - r0, seen])), "LE");
          scores = e.select(e.broadcastTo(allowed, shape), scores, negInf);
        }
        const { z, total } = softmaxParts(scores);
        if (rng) {
          const weights = dropoutP === 1 ? c(z, 0) : dropoutTraced(rng, normalize(z, total), dropoutP);
          return e.dotGeneral(weights, vb, bdims, bdims, [nb + 1], [nb]); // [*, rows, Ev]
        }
        // the sum divides the product with v ([*, rows, Ev]) rather than the weights ([*, rows, seen]), as flash attention does
        return normalize(e.dotGeneral(z, vb, bdims, bdims, [nb + 1], [nb]), total);
      };
      // Causal attention in blocks of query rows, each against only the keys it may see, skips most of
      // the masked half of the products (as flash attention does); the blocks' rows are then joined.
      const blocks = isCausal && !rng ? causalBlocks(L) : [[0, L] as const];
      const parts = blocks.map(([r0, r1]) => e.convert(attendRows(r0, r1), q!.dtype));
      return parts.length === 1 ? parts[0]! : joinRows(parts, nb);
    };
    if (dropoutP === 0) return runOptional(op, [query, key, value, mask], statics, ([q, k, v, m]) => attend(q!, k!, v!, m!));
    const inputs = mask ? [query, key, value, mask] : [query, key, value];
    return draw(op, statics, query.device, generator, inputs, (rng, [q, k, v, m]) => attend(q!, k!, v!, m ?? null, rng));
  },
);

/**
 * Row ranges [r0, r1) of 64 query rows or more (at most 16 blocks); one block below 128 rows. Smaller
 * blocks cost more in packing the products' operands than the masked work they skip (measured at
 * L = 128: blocks of 32 were 13% slower than one block, blocks of 64 4% faster; at L = 512, 1.46× faster).
 */
function causalBlocks(L: number): (readonly [number, number])[] {
  if (L < 128) return [[0, L]];
  const size = Math.max(64, Math.ceil(L / 16));
  const blocks: (readonly [number, number])[] = [];
  for (let r0 = 0; r0 < L; r0 += size) blocks.push([r0, Math.min(L, r0 + size)]);
  return blocks;
}

/**
 * The blocks' rows [*, rows, Ev] joined along dim nb. Below a heads dim ([*, H, rows, Ev]) they are
 * joined as [*, L, H, Ev], and the result is that transposed back, which the CPU plugin returns as a
 * view: the usual merge of the heads, `out.transpose(1, 2).reshape(B, L, H * Ev)`, then needs no copy.
 */
function joinRows(parts: T[], nb: number): T {
  if (nb === 0) return e.concatenate(parts, 0);
  const swap = parts[0]!.shape.map((_, i) => (i === nb - 1 ? nb : i === nb ? nb - 1 : i));
  return e.transpose(e.concatenate(parts.map((p) => e.transpose(p, swap)), nb - 1), swap);
}

function gqaGroups(query: Tensor, key: Tensor, value: Tensor): number {
  const op = "scaledDotProductAttention";
  if (query.ndim < 3 || key.ndim < 3 || value.ndim < 3) throw new ShapeError(`${op}: enableGqa needs a heads dimension [*, H, L, E] on query, key and value`);
  const hq = query.shape[query.ndim - 3]!;
  const hk = key.shape[key.ndim - 3]!;
  const hv = value.shape[value.ndim - 3]!;
  if (hk !== hv || hk === 0 || hq % hk !== 0) {
    throw new ShapeError(`${op}: with enableGqa the query heads (${hq}) must be a multiple of the key/value heads (${hk}, ${hv}), which must be equal`);
  }
  return hq / hk;
}

/** [*, H, S, E] → [*, H × groups, S, E], each head repeated `groups` times in a row (repeat_interleave). */
function repeatHeads(t: T, groups: number): T {
  if (groups === 1) return t;
  const n = t.ndim;
  const spread = [...t.shape.slice(0, n - 2), groups, ...t.shape.slice(n - 2)];
  const dims = t.shape.map((_, i) => (i < n - 2 ? i : i + 1));
  const heads = [...t.shape.slice(0, n - 3), t.shape[n - 3]! * groups, ...t.shape.slice(n - 2)];
  return e.reshape(e.broadcastInDim(t, spread, dims), heads);
}

/** Softmax over the last dim in two parts: z = exp(s − row max) and the rows' sums of z (kept as [*, 1]). */
function softmaxParts(s: T): { z: T; total: T } {
  const last = s.ndim - 1;
  const kept = s.shape.map((d, i) => (i === last ? 1 : d));
  const m = e.reshape(e.stopGradient(e.reduce("max", s, [last])), kept);
  const safeMax = e.select(e.isFinite(m), m, c(m, 0));
  const z = e.exp(e.sub(s, e.broadcastTo(safeMax, s.shape)));
  return { z, total: e.reshape(e.reduce("sum", z, [last]), kept) };
}

/** x divided by its row's total; a row with no allowed position (total 0) gives zeros, as PyTorch's math path does. */
function normalize(x: T, total: T): T {
  const t = e.broadcastTo(total, x.shape);
  const zero = c(t, 0);
  return e.select(e.compare(t, zero, "EQ"), zero, e.div(x, t));
}
