/**
 * @file Tensor.unfold(dimension, size, step): the windows of `size` elements every `step` along a
 * dim, as a new last dim. A Tensor method only (torch.nn.functional.unfold is im2col, another op
 * of the same name, so this one is attached here with its own signature rather than by op()).
 */
import type { DType } from "../../dtype.js";
import { DisposedError, ShapeError } from "../../runtime/errors.js";
import { Tensor } from "../../tensor.js";
import { fmtShape, normDim } from "../dims.js";
import * as e from "../emit.js";
import { bindOne } from "../signature/bind.js";
import { parseSignature } from "../signature/parse.js";
import { unary } from "./common.js";

declare module "../../tensor.js" {
  interface Tensor<D extends DType = DType> {
    /**
     * The windows of `size` elements every `step` along `dimension`, as a new last dim: shape
     * [..., (n − size) / step + 1, ..., size] for a dim of n (a copy here, PyTorch's is a view).
     */
    unfold(dimension: number, size: number, step: number): Tensor<D>;
  }
}

const signature = parseSignature("unfold(dimension: int, size: int, step: int) -> Tensor");

/** x's windows along `dimension` (see the file comment). */
export function unfoldWindows(input: Tensor, dimension: number, size: number, step: number): Tensor {
  const op = "Tensor.unfold";
  const d = normDim(op, dimension, Math.max(input.ndim, 1));
  const length = input.ndim === 0 ? 1 : input.shape[d]!;
  if (size < 0) throw new ShapeError(`${op}: size is ${size} but must be >= 0`);
  if (size > length) throw new ShapeError(`${op}: maximum size for tensor at dimension ${d} is ${length} but size is ${size} (shape ${fmtShape(input.shape)})`);
  if (step <= 0) throw new ShapeError(`${op}: step is ${step} but must be > 0`);
  const count = Math.floor((length - size) / step) + 1;
  return unary("unfold", input, `${d},${size},${step}`, (x) => {
    if (x.ndim === 0) return e.reshape(x, [size]); // a 0-d tensor is one window of its one element (or none)
    const index = e.reshape(e.add(e.mul(e.iota("int64", [count, size], 0), e.full(step, "int64", [count, size])), e.iota("int64", [count, size], 1)), [count * size]);
    const picked = e.indexSelect(x, index, d); // [..., count·size, ...]
    const split = [...x.shape.slice(0, d), count, size, ...x.shape.slice(d + 1)];
    const perm = split.map((_, i) => i).filter((i) => i !== d + 1);
    return e.transpose(e.reshape(picked, split), [...perm, d + 1]);
  });
}

Object.defineProperty(Tensor.prototype, "unfold", {
  value: function (this: Tensor, ...args: unknown[]): Tensor {
    if (this.isDisposed) throw new DisposedError(`Tensor.unfold: the tensor has been disposed (${this.dtype}[${this.shape.join(", ")}] on ${this.device})`);
    const { dimension, size, step } = signature.build(bindOne(signature, args, "Tensor.unfold")) as { dimension: number; size: number; step: number };
    return unfoldWindows(this, dimension, size, step);
  },
  writable: true,
  configurable: true,
});
