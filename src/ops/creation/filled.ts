/**
 * @file Tensors of one value: zeros, ones, empty, full and their *Like forms. Each runs as one unit
 * on the device (a broadcast constant); no host array is uploaded. `empty` is zero-filled (there is
 * no uninitialized memory).
 */
import { defaultFloatDType } from "../../dtype.js";
import { op } from "../signature/op.js";
import { filled, scalarDType } from "./common.js";

export const zeros = op(
  "zeros(...size: int, *, dtype?: dtype, device?: device, requiresGrad: bool = false) -> Tensor",
  { doc: "A tensor of zeros of shape `size` (`zeros(2, 3)` or `zeros([2, 3])`), float32 unless `dtype`." },
  ({ size, dtype, device, requiresGrad }) => filled("zeros", size, 0, dtype ?? defaultFloatDType, device, requiresGrad),
);

export const ones = op(
  "ones(...size: int, *, dtype?: dtype, device?: device, requiresGrad: bool = false) -> Tensor",
  { doc: "A tensor of ones of shape `size` (`ones(2, 3)` or `ones([2, 3])`), float32 unless `dtype`." },
  ({ size, dtype, device, requiresGrad }) => filled("ones", size, 1, dtype ?? defaultFloatDType, device, requiresGrad),
);

export const empty = op(
  "empty(...size: int, *, dtype?: dtype, device?: device, requiresGrad: bool = false) -> Tensor",
  { doc: "A tensor of shape `size`, float32 unless `dtype`; zero-filled here (there is no uninitialized memory)." },
  ({ size, dtype, device, requiresGrad }) => filled("empty", size, 0, dtype ?? defaultFloatDType, device, requiresGrad),
);

export const full = op(
  "full(size: int[], fillValue: Scalar, *, dtype?: dtype, device?: device, requiresGrad: bool = false) -> Tensor",
  { doc: "A tensor of shape `size` filled with `fillValue`; the dtype follows the value (bool, int64, float32) unless given, and a value the dtype cannot hold is an error." },
  ({ size, fillValue, dtype, device, requiresGrad }) => filled("full", size, fillValue, dtype ?? scalarDType(fillValue), device, requiresGrad),
);

export const zerosLike = op(
  "zerosLike(input: Tensor, *, dtype?: dtype, device?: device, requiresGrad: bool = false) -> Tensor",
  { doc: "zeros of `input`'s shape, with its dtype and device unless given." },
  ({ input, dtype, device, requiresGrad }) => filled("zerosLike", input.shape, 0, dtype ?? input.dtype, device ?? input.device, requiresGrad),
);

export const onesLike = op(
  "onesLike(input: Tensor, *, dtype?: dtype, device?: device, requiresGrad: bool = false) -> Tensor",
  { doc: "ones of `input`'s shape, with its dtype and device unless given." },
  ({ input, dtype, device, requiresGrad }) => filled("onesLike", input.shape, 1, dtype ?? input.dtype, device ?? input.device, requiresGrad),
);

export const emptyLike = op(
  "emptyLike(input: Tensor, *, dtype?: dtype, device?: device, requiresGrad: bool = false) -> Tensor",
  { doc: "empty of `input`'s shape, with its dtype and device unless given; zero-filled here." },
  ({ input, dtype, device, requiresGrad }) => filled("emptyLike", input.shape, 0, dtype ?? input.dtype, device ?? input.device, requiresGrad),
);

export const fullLike = op(
  "fullLike(input: Tensor, fillValue: Scalar, *, dtype?: dtype, device?: device, requiresGrad: bool = false) -> Tensor",
  { doc: "full of `input`'s shape with `fillValue`, with `input`'s dtype (not the value's) and device unless given." },
  ({ input, fillValue, dtype, device, requiresGrad }) => filled("fullLike", input.shape, fillValue, dtype ?? input.dtype, device ?? input.device, requiresGrad),
);

// --- Tensor.new*: a new tensor with this tensor's dtype and device unless given (PyTorch's new_zeros, ...) ---

export const newZeros = op(
  "newZeros(input: Tensor, ...size: int, *, dtype?: dtype, device?: device, requiresGrad: bool = false) -> Tensor",
  { doc: "zeros of shape `size`, with this tensor's dtype and device unless given.", method: true },
  ({ input, size, dtype, device, requiresGrad }) => filled("newZeros", size, 0, dtype ?? input.dtype, device ?? input.device, requiresGrad),
);

export const newOnes = op(
  "newOnes(input: Tensor, ...size: int, *, dtype?: dtype, device?: device, requiresGrad: bool = false) -> Tensor",
  { doc: "ones of shape `size`, with this tensor's dtype and device unless given.", method: true },
  ({ input, size, dtype, device, requiresGrad }) => filled("newOnes", size, 1, dtype ?? input.dtype, device ?? input.device, requiresGrad),
);

export const newEmpty = op(
  "newEmpty(input: Tensor, ...size: int, *, dtype?: dtype, device?: device, requiresGrad: bool = false) -> Tensor",
  { doc: "empty of shape `size` (zero-filled here), with this tensor's dtype and device unless given.", method: true },
  ({ input, size, dtype, device, requiresGrad }) => filled("newEmpty", size, 0, dtype ?? input.dtype, device ?? input.device, requiresGrad),
);

export const newFull = op(
  "newFull(input: Tensor, size: int[], fillValue: Scalar, *, dtype?: dtype, device?: device, requiresGrad: bool = false) -> Tensor",
  { doc: "full of shape `size` with `fillValue`, with this tensor's dtype (not the value's) and device unless given.", method: true },
  ({ input, size, fillValue, dtype, device, requiresGrad }) => filled("newFull", size, fillValue, dtype ?? input.dtype, device ?? input.device, requiresGrad),
);
