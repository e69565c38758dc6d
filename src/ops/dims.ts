/**
 * @file Dims and shapes as API ops check them: negative dims, lists of dims, broadcasting.
 */
import { type DType, dtypes } from "../dtype.js";
import { ShapeError } from "../runtime/errors.js";

export const fmtShape = (shape: readonly number[]): string => `[${shape.join(", ")}]`;

/**
 * ShapeError unless a tensor of `shape` and `dtype` can exist: every size and the byte count must be
 * exact JavaScript integers (at most 2^53 − 1, about 8 PiB). Below that, only memory is the limit.
 */
export function checkTensorSize(op: string, shape: readonly number[], dtype: DType): void {
  const bytes = shape.reduce((n, d) => n * d, dtypes[dtype].itemSize);
  if (bytes <= Number.MAX_SAFE_INTEGER && shape.every((d) => d <= Number.MAX_SAFE_INTEGER)) return;
  const exact = `[${shape.map((d) => (Number.isSafeInteger(d) ? String(d) : BigInt(d).toString())).join(", ")}]`; // 2 ** 62 as 4611686018427387904
  if (bytes > Number.MAX_SAFE_INTEGER) {
    throw new ShapeError(`${op}: shape ${exact} of ${dtype} is too large: ${bytes.toPrecision(3)} bytes, beyond the 2^53 − 1 bytes (8 PiB) a tensor can hold`);
  }
  throw new ShapeError(`${op}: shape ${exact} has a size beyond 2^53 − 1, the largest a size can be`);
}

export const sameShape = (a: readonly number[], b: readonly number[]): boolean => a.length === b.length && a.every((d, i) => d === b[i]);

/** A dim in [-rank, rank) → [0, rank); 0-d tensors accept 0 and −1, as in PyTorch. */
export function normDim(op: string, dim: number, rank: number): number {
  const r = Math.max(rank, 1);
  if (!Number.isInteger(dim) || dim < -r || dim >= r) {
    throw new ShapeError(`${op}: dimension ${dim} is out of range for a ${rank}-d tensor (expected a dim in [${-r}, ${r - 1}])`);
  }
  return dim < 0 ? dim + r : dim;
}

/** A dim list (or one dim) normalized and checked for repeats; undefined → every dim. */
export function normDims(op: string, dim: number | readonly number[] | undefined, rank: number): number[] {
  if (dim === undefined) return Array.from({ length: rank }, (_, i) => i);
  const list = typeof dim === "number" ? [dim] : [...dim];
  if (list.length === 0) return Array.from({ length: rank }, (_, i) => i);
  const out = list.map((d) => normDim(op, d, rank));
  const seen = new Set<number>();
  for (const d of out) {
    if (seen.has(d)) throw new ShapeError(`${op}: dim ${d} appears more than once in the list of dims [${list.join(", ")}]`);
    seen.add(d);
  }
  return rank === 0 ? [] : out.sort((a, b) => a - b);
}

/** PyTorch broadcasting of several shapes. */
export function broadcastShapes(op: string, ...shapes: (readonly number[])[]): number[] {
  const rank = Math.max(0, ...shapes.map((s) => s.length));
  const out = new Array<number>(rank).fill(1);
  for (const s of shapes) {
    for (let i = 0; i < s.length; i++) {
      const k = rank - s.length + i;
      const d = s[i]!;
      if (d === out[k] || d === 1) continue;
      if (out[k] !== 1) {
        throw new ShapeError(
          `${op}: shapes ${shapes.map(fmtShape).join(" and ")} cannot be broadcast together (dimension ${k - rank}: ${out[k]} vs ${d})`,
        );
      }
      out[k] = d;
    }
  }
  return out;
}
