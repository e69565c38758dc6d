/**
 * @file torch.tensor: a tensor from JS data (a scalar, nested arrays or a TypedArray). The data
 * conversion itself is src/creation.ts.
 */
import { type TensorData, type TensorOptions, tensorFromData } from "../../creation.js";
import type { DType } from "../../dtype.js";
import type { Tensor } from "../../tensor.js";
import { op } from "../signature/op.js";
import { checkGrad, withGrad } from "./common.js";

const tensorOp = op(
  "tensor(data: TensorData, *, dtype?: dtype, device?: device, requiresGrad: bool = false, shape?: int[]) -> Tensor",
  {
    doc: "A tensor of `data` (a number, boolean, bigint, nested arrays of them, or a TypedArray), its dtype inferred as PyTorch does (float32, int64, bool; a TypedArray's own) unless given; `shape` (not in PyTorch) reshapes the data. As in PyTorch, a value an integer dtype cannot hold is a DTypeError (fractions are truncated toward zero), while a TypedArray's values wrap around.",
  },
  ({ data, dtype, device, requiresGrad, shape }) =>
    withGrad(tensorFromData(data, dtype, device, shape, requiresGrad ? (d) => checkGrad("tensor", d, true) : undefined), requiresGrad),
);

/** torch.tensor's call forms, with the dtype in the result's type when the options name it (`Tensor<"int32">`). */
export interface TensorFactory {
  <D extends DType>(data: TensorData, options: TensorOptions & { dtype: D }): Tensor<D>;
  (data: TensorData, options?: TensorOptions): Tensor;
}

export const tensor: TensorFactory = tensorOp as TensorFactory;

export const newTensor = op(
  "newTensor(input: Tensor, data: TensorData, *, dtype?: dtype, device?: device, requiresGrad: bool = false) -> Tensor",
  { doc: "torch.tensor(data) with this tensor's dtype and device unless given (PyTorch's new_tensor).", method: true },
  ({ input, data, dtype, device, requiresGrad }) => tensorOp(data, { dtype: dtype ?? input.dtype, device: device ?? input.device, requiresGrad }),
);

