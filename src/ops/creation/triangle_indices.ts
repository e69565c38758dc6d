/**
 * @file trilIndices and triuIndices: the coordinates of a matrix's lower or upper triangle, listed on
 * the host and copied to the device as one tensor.
 */
import type { DeviceLike } from "../../device.js";
import type { DType } from "../../dtype.js";
import { DTypeError, ShapeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import { op } from "../signature/op.js";
import { tensor } from "./tensor.js";

/** [2, N]: the row, then the column, of each element of a `row` × `col` matrix's triangle, in row-major order. */
function triangleIndices(name: string, row: number, col: number, offset: number, lower: boolean, dtype: DType | undefined, device: DeviceLike | undefined): Tensor {
  if (row < 0) throw new ShapeError(`${name}: row must be non-negative, got ${row}`);
  if (col < 0) throw new ShapeError(`${name}: col must be non-negative, got ${col}`);
  const kind = dtype ?? "int64";
  if (kind !== "int32" && kind !== "int64") throw new DTypeError(`${name}: dtype must be int32 or int64, got ${kind}`);
  // the columns of row i: [0, i + offset] in the lower triangle, [i + offset, col) in the upper
  const first = (i: number): number => (lower ? 0 : Math.min(col, Math.max(0, i + offset)));
  const end = (i: number): number => (lower ? Math.min(col, Math.max(0, i + offset + 1)) : col);
  let n = 0;
  for (let i = 0; i < row; i++) n += end(i) - first(i);
  const data = new Int32Array(2 * n);
  for (let i = 0, k = 0; i < row; i++) {
    for (let j = first(i); j < end(i); j++, k++) {
      data[k] = i;
      data[n + k] = j;
    }
  }
  return tensor(data, { shape: [2, n], dtype: kind, device });
}

export const trilIndices = op(
  "trilIndices(row: int, col: int, offset: int = 0, *, dtype?: dtype, device?: device) -> Tensor",
  { doc: "[2, N]: the row and column indices of the lower triangle of a `row` × `col` matrix (below and on diagonal `offset`), row by row; int64 unless `dtype` (int32)." },
  ({ row, col, offset, dtype, device }) => triangleIndices("trilIndices", row, col, offset, true, dtype, device),
);

export const triuIndices = op(
  "triuIndices(row: int, col: int, offset: int = 0, *, dtype?: dtype, device?: device) -> Tensor",
  { doc: "[2, N]: the row and column indices of the upper triangle of a `row` × `col` matrix (above and on diagonal `offset`), row by row; int64 unless `dtype` (int32)." },
  ({ row, col, offset, dtype, device }) => triangleIndices("triuIndices", row, col, offset, false, dtype, device),
);
