/**
 * @file Reordering dims: transpose, permute, t, the mT, T, H and mH properties and movedim (moveaxis).
 */
import { ShapeError } from "../../runtime/errors.js";
import { fmtShape, normDim, normDims } from "../dims.js";
import * as e from "../emit.js";
import { op } from "../signature/op.js";
import { unary } from "./common.js";

export const transpose = op(
  "transpose(input: Tensor, dim0: int, dim1: int) -> Tensor",
  { doc: "Swaps dims `dim0` and `dim1`.", method: true },
  ({ input, dim0, dim1 }) =>
    unary("transpose", input, `${dim0},${dim1}`, (x) => {
      const d0 = normDim("transpose", dim0, x.ndim);
      const d1 = normDim("transpose", dim1, x.ndim);
      if (x.ndim < 2 || d0 === d1) return x;
      const perm = x.shape.map((_, i) => i);
      perm[d0] = d1;
      perm[d1] = d0;
      return e.transpose(x, perm);
    }),
);

export const permute = op(
  "permute(input: Tensor, ...dims: int) -> Tensor",
  { doc: "Reorders the dims: result dim i is input dim `dims[i]` (`x.permute(2, 0, 1)` or a list).", method: true },
  ({ input, dims }) =>
    unary("permute", input, dims.join(","), (x) => {
      if (dims.length !== x.ndim) {
        throw new ShapeError(`permute: the number of dims ${fmtShape(dims)} does not match the tensor's ${x.ndim} dims (shape ${fmtShape(x.shape)})`);
      }
      const perm = normDims("permute", dims, x.ndim);
      const norm = dims.map((d) => normDim("permute", d, x.ndim));
      if (perm.length !== dims.length) throw new ShapeError(`permute: repeated dim in ${fmtShape(dims)}`);
      return e.transpose(x, norm);
    }),
);

export const t = op(
  "t(input: Tensor) -> Tensor",
  { doc: "The transpose of a matrix; a 0-d or 1-d tensor as it is.", method: true },
  ({ input }) =>
    unary("t", input, "", (x) => {
      if (x.ndim > 2) throw new ShapeError(`t: expects a tensor with <= 2 dimensions, but the input is ${x.ndim}-d (shape ${fmtShape(x.shape)})`);
      return x.ndim < 2 ? x : e.transpose(x, [1, 0]);
    }),
);

export const mT = op(
  "mT(input: Tensor) -> Tensor",
  { doc: "The last two dims swapped (a batch of matrices transposed); a property: `x.mT`.", property: true },
  ({ input }) =>
    unary("mT", input, "", (x) => {
      if (x.ndim < 2) throw new ShapeError(`mT: expects a tensor with at least 2 dimensions, got shape ${fmtShape(x.shape)}`);
      const perm = x.shape.map((_, i) => i);
      perm[x.ndim - 2] = x.ndim - 1;
      perm[x.ndim - 1] = x.ndim - 2;
      return e.transpose(x, perm);
    }),
);

export const movedim = op(
  "movedim(input: Tensor, source: int | int[], destination: int | int[]) -> Tensor",
  { doc: "Moves dims `source` to positions `destination` (an int or a list each); the other dims keep their order.", method: true },
  ({ input, source, destination }) => {
    const src = typeof source === "number" ? [source] : source;
    const dst = typeof destination === "number" ? [destination] : destination;
    return unary("movedim", input, `${src.join(",")}|${dst.join(",")}`, (x) => {
      if (src.length !== dst.length) throw new ShapeError(`movedim: source ${fmtShape(src)} and destination ${fmtShape(dst)} must have the same number of dims`);
      const s = src.map((d) => normDim("movedim", d, x.ndim));
      const t2 = dst.map((d) => normDim("movedim", d, x.ndim));
      if (new Set(s).size !== s.length) throw new ShapeError(`movedim: repeated dim in source ${fmtShape(src)}`);
      if (new Set(t2).size !== t2.length) throw new ShapeError(`movedim: repeated dim in destination ${fmtShape(dst)}`);
      const perm = new Array<number>(x.ndim).fill(-1);
      s.forEach((d, i) => (perm[t2[i]!] = d));
      const rest = x.shape.map((_, i) => i).filter((i) => !s.includes(i));
      let k = 0;
      for (let i = 0; i < perm.length; i++) if (perm[i] === -1) perm[i] = rest[k++]!;
      return x.ndim === 0 ? x : e.transpose(x, perm);
    });
  },
);

export const swapaxes = op(
  "swapaxes(input: Tensor, axis0: int, axis1: int) -> Tensor",
  { doc: "transpose, by NumPy's name.", method: true },
  ({ input, axis0, axis1 }) => transpose(input, axis0, axis1),
);

export const swapdims = op(
  "swapdims(input: Tensor, dim0: int, dim1: int) -> Tensor",
  { doc: "transpose, by another of PyTorch's names.", method: true },
  ({ input, dim0, dim1 }) => transpose(input, dim0, dim1),
);

export const moveaxis = op(
  "moveaxis(input: Tensor, source: int | int[], destination: int | int[]) -> Tensor",
  { doc: "movedim, by NumPy's name.", method: true },
  ({ input, source, destination }) => movedim(input, source, destination),
);

export const T = op(
  "T(input: Tensor) -> Tensor",
  { doc: "The dims reversed (a matrix transposed; 0-d and 1-d tensors as they are); a property: `x.T`. PyTorch deprecates it for other than 2 dims (use mT or permute).", property: true },
  ({ input }) => unary("T", input, "", (x) => (x.ndim < 2 ? x : e.transpose(x, x.shape.map((_, i) => x.ndim - 1 - i)))),
);

export const H = op(
  "H(input: Tensor) -> Tensor",
  { doc: "The conjugate transpose of a matrix (2-d tensors; tensors are real here, so the transpose); a property: `x.H`.", property: true },
  ({ input }) =>
    unary("H", input, "", (x) => {
      if (x.ndim !== 2 && x.ndim !== 0) throw new ShapeError(`H: tensor.H is only supported on matrices (2-D tensors). Got ${x.ndim}-D tensor; for batches of matrices use tensor.mH`);
      return x.ndim === 0 ? x : e.transpose(x, [1, 0]);
    }),
);

export const mH = op(
  "mH(input: Tensor) -> Tensor",
  { doc: "The conjugate transpose of the last two dims (tensors are real here, so mT); a property: `x.mH`.", property: true },
  ({ input }) => mT(input),
);
