/**
 * @file Tensors from data that may already be a tensor: asTensor and asarray (the tensor itself
 * when nothing has to change, else a converted copy), and scalarTensor (a 0-d tensor of a number).
 */
import { defaultFloatDType } from "../../dtype.js";
import { type DeviceLike, parseDevice } from "../../device.js";
import { resolveDevice } from "../../runtime/clients.js";
import { ArgumentError } from "../../runtime/errors.js";
import { Tensor } from "../../tensor.js";
import { to } from "../conversion.js";
import { op } from "../signature/op.js";
import { checkGrad, withGrad } from "./common.js";
import { full } from "./filled.js";
import { tensor } from "./tensor.js";

const sameDevice = (t: Tensor, device: DeviceLike | undefined): boolean => device === undefined || resolveDevice(parseDevice(device)).name === t.device;

export const asTensor = op(
  "asTensor(data: Tensor | TensorData, *, dtype?: dtype, device?: device) -> Tensor",
  { doc: "`data` as a tensor: a tensor itself when its dtype and device are already the ones asked for (else a converted copy), other data as torch.tensor makes it." },
  ({ data, dtype, device }) => (data instanceof Tensor ? to(data, { device: device ?? null, dtype: dtype ?? null }) : tensor(data, { dtype, device })),
);

export const asarray = op(
  "asarray(obj: Tensor | TensorData, *, dtype?: dtype, device?: device, copy?: bool, requiresGrad: bool = false) -> Tensor",
  {
    doc: "`obj` as a tensor: a tensor itself when nothing has to change (copy: true forces a copy; copy: false makes a needed conversion an error, as does any JS data, which is always copied), other data as torch.tensor makes it.",
  },
  ({ obj, dtype, device, copy, requiresGrad }) => {
    if (!(obj instanceof Tensor)) {
      if (copy === false) throw new ArgumentError("asarray: can't alias JS data into a tensor (copy: false); leave copy out to copy it");
      return tensor(obj, { dtype, device, requiresGrad });
    }
    const changes = (dtype !== undefined && dtype !== obj.dtype) || !sameDevice(obj, device);
    if (changes && copy === false) {
      throw new ArgumentError(`asarray: can't alias a ${obj.dtype} tensor on ${obj.device} into ${dtype ?? obj.dtype} on ${device === undefined ? obj.device : String(device)} (copy: false); leave copy out to convert it`);
    }
    const out = to(obj, { device: device ?? null, dtype: dtype ?? null, copy: copy === true });
    if (!requiresGrad) return out;
    checkGrad("asarray", out.dtype, true);
    return withGrad(out, true);
  },
);

export const scalarTensor = op(
  "scalarTensor(s: Scalar, *, dtype?: dtype, device?: device, requiresGrad: bool = false) -> Tensor",
  { doc: "A 0-d tensor holding `s`: the default float dtype (float32) whatever s is, unless `dtype`." },
  ({ s, dtype, device, requiresGrad }) => full([], s, { dtype: dtype ?? defaultFloatDType, device, requiresGrad }),
);
