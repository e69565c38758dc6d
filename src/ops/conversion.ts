/**
 * @file Tensor basics: `to` (dtype and/or device), `cpu`, `clone`, `detach`, `contiguous`.
 * A dtype change is one `convert` unit on the tensor's device; a device change copies the bytes
 * through the host (every PJRT plugin supports that).
 */
import { noGrad } from "../autograd/grad_mode.js";
import { fromHost } from "../creation.js";
import type { DType } from "../dtype.js";
import { checkDeviceHolds, type DeviceLike, parseDevice } from "../device.js";
import { pluginNames } from "../plugins/registry.js";
import { resolveDevice } from "../runtime/clients.js";
import { ArgumentError, DeviceError } from "../runtime/errors.js";
import { dtypeNames, dtypes } from "../dtype.js";
import { closestName } from "../suggest.js";
import { hostBytesSync, type Tensor } from "../tensor.js";
import type { Tracer } from "../trace/tracer.js";
import * as e from "./emit.js";
import { op } from "./signature/op.js";
import { run } from "./unit.js";

/** The options of `to`. */
export interface ToOptions {
  dtype?: DType;
  device?: DeviceLike;
  /** Accepted as in PyTorch; no effect here (a device change is a synchronous copy through the host). */
  nonBlocking?: boolean;
  /** Always return a new tensor, even when nothing changes (PyTorch's copy=True). */
  copy?: boolean;
}

/** What `to(...)` takes first: a dtype name, a device, another tensor, or the options. */
export type ToTarget = DType | DeviceLike | Tensor | ToOptions;

/** A new tensor with the same values (a new buffer). */
const copyOf = (x: Tensor): Tensor => run("clone", [x], "", ([v]) => v as Tracer);

/** A copy of `x` on another device, through the host. */
function moveTo(x: Tensor, device: string): Tensor {
  const bytes = hostBytesSync(x);
  const storage = new dtypes[x.dtype].storage(bytes, 0, bytes.byteLength / dtypes[x.dtype].itemSize);
  return fromHost(storage, x.dtype, x.shape, device);
}

/** `to("float128")`: a plain word that is neither a dtype nor a known device type says both. */
function checkTarget(device: DeviceLike | undefined): void {
  if (typeof device !== "string" || device.includes(":")) return;
  try {
    parseDevice(device);
  } catch (error) {
    if (!(error instanceof DeviceError)) throw error;
    const near = closestName(device, dtypeNames);
    throw new ArgumentError(
      `to: "${device}" is not a dtype (${dtypeNames.join(", ")}) nor a device (${pluginNames().join(", ")}, as "<type>" or "<type>:<index>")` +
        (near === undefined ? `; torch.registerPlugin("${device}", "/path/to/plugin.so") makes a PJRT plugin a device` : `; did you mean "${near}"?`),
    );
  }
}

function convert(x: Tensor, want: DType | undefined, to: DeviceLike | undefined, copy: boolean): Tensor {
  const dtype = want ?? x.dtype;
  if (to !== undefined) checkDeviceHolds("to", dtype, to);
  const device = to === undefined ? x.device : resolveDevice(parseDevice(to)).name;
  if (dtype === x.dtype && device === x.device) return copy ? copyOf(x) : x;
  const converted = dtype === x.dtype ? x : run("to", [x], dtype, ([v]) => e.convert(v as Tracer, dtype));
  if (device === x.device) return converted;
  try {
    return moveTo(converted, device);
  } finally {
    if (converted !== x) converted.dispose();
  }
}

export const to = op(
  [
    "to(input: Tensor, dtype: dtype, nonBlocking: bool = false, copy: bool = false) -> Tensor",
    "to(input: Tensor, device?: device, dtype?: dtype, nonBlocking: bool = false, copy: bool = false) -> Tensor",
    "to(input: Tensor, tensor: Tensor, nonBlocking: bool = false, copy: bool = false) -> Tensor",
  ],
  {
    doc: "The tensor with the given dtype and/or device (`x.to(\"int32\")`, `x.to(\"tpu\")`, `x.to(\"tpu\", \"bfloat16\")`, `x.to(tensor)` for another tensor's); `x` itself when nothing changes, unless `copy`. A device change copies through the host and is done when `to` returns, so `nonBlocking` has no effect (as in PyTorch for memory that is not pinned).",
    method: true,
  },
  [
    ({ input, dtype, copy }) => convert(input, dtype, undefined, copy),
    ({ input, device, dtype, copy }) => {
      checkTarget(device);
      return convert(input, dtype, device, copy);
    },
    ({ input, tensor, copy }) => convert(input, tensor.dtype, tensor.device, copy),
  ],
);

export const cpu = op(
  "cpu(input: Tensor) -> Tensor",
  { doc: "The tensor on the CPU (`to(\"cpu\")`): itself when it is there already.", method: true },
  ({ input }) => convert(input, undefined, "cpu", false),
);

export const clone = op(
  "clone(input: Tensor) -> Tensor",
  { doc: "A new tensor with the same values (a new buffer).", method: true },
  ({ input }) => copyOf(input),
);

export const detach = op(
  "detach(input: Tensor) -> Tensor",
  { doc: "A new tensor with the same values, outside autograd (no gradFn, requiresGrad false). PyTorch's shares storage; here every tensor owns its buffer, so it is a copy (see \"views are copies\" in the README).", method: true },
  ({ input }) => noGrad(() => copyOf(input)),
);

export const contiguous = op(
  "contiguous(input: Tensor) -> Tensor",
  { doc: "Every tensor here is dense and row-major; like clone, it returns a new tensor.", method: true },
  ({ input }) => copyOf(input),
);

// --- dtype shortcuts: x.float(), x.long(), ... as PyTorch's Tensor methods (x itself when it already has that dtype) ---

const asDType = (dtype: DType) => ({ doc: `\`to("${dtype}")\`: the tensor as ${dtype}, itself when it is ${dtype} already.`, method: true });

export const float = op("float(input: Tensor) -> Tensor", asDType("float32"), ({ input }) => convert(input, "float32", undefined, false));
export const double = op("double(input: Tensor) -> Tensor", asDType("float64"), ({ input }) => convert(input, "float64", undefined, false));
export const half = op("half(input: Tensor) -> Tensor", asDType("float16"), ({ input }) => convert(input, "float16", undefined, false));
export const bfloat16 = op("bfloat16(input: Tensor) -> Tensor", asDType("bfloat16"), ({ input }) => convert(input, "bfloat16", undefined, false));
export const long = op("long(input: Tensor) -> Tensor", asDType("int64"), ({ input }) => convert(input, "int64", undefined, false));
export const int = op("int(input: Tensor) -> Tensor", asDType("int32"), ({ input }) => convert(input, "int32", undefined, false));
export const short = op("short(input: Tensor) -> Tensor", asDType("int16"), ({ input }) => convert(input, "int16", undefined, false));
export const char = op("char(input: Tensor) -> Tensor", asDType("int8"), ({ input }) => convert(input, "int8", undefined, false));
export const byte = op("byte(input: Tensor) -> Tensor", asDType("uint8"), ({ input }) => convert(input, "uint8", undefined, false));
export const bool = op("bool(input: Tensor) -> Tensor", asDType("bool"), ({ input }) => convert(input, "bool", undefined, false));

export const typeAs = op(
  "typeAs(input: Tensor, other: Tensor) -> Tensor",
  { doc: "The tensor with `other`'s dtype (`to(other.dtype)`).", method: true },
  ({ input, other }) => convert(input, other.dtype, undefined, false),
);

