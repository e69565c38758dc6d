/**
 * @file A call's signature for torch.compile: every tensor argument by dtype, shape, device and
 * requiresGrad, every other argument by value (objects other than plain ones and arrays by
 * identity), and the global modes a trace reads (grad mode, float32 matmul precision). Each part has
 * a label so that a recompile can say what changed.
 */
import { isGradEnabled } from "../autograd/grad_mode.js";
import { getDefaultDevice } from "../device.js";
import { defaultFloatDType } from "../dtype.js";
import { getFloat32MatmulPrecision } from "../matmul_precision.js";
import { DisposedError } from "../runtime/errors.js";
import { Tensor } from "../tensor.js";

export interface CallSignature {
  readonly key: string;
  readonly parts: readonly (readonly [label: string, value: string])[];
  /** The tensor arguments, in the order met (argument `i` of a Ref). */
  readonly tensors: readonly Tensor[];
}

const identities = new WeakMap<object, number>();
let nextIdentity = 0;
const identityOf = (o: object): number => {
  let id = identities.get(o);
  if (id === undefined) identities.set(o, (id = nextIdentity++));
  return id;
};

const isPlain = (v: object): boolean => Array.isArray(v) || Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null;

export function signatureOf(name: string, args: readonly unknown[]): CallSignature {
  const parts: [string, string][] = [];
  const tensors: Tensor[] = [];
  const walk = (v: unknown, path: string): void => {
    if (v instanceof Tensor) {
      if (v.isDisposed) throw new DisposedError(`${name}: ${path} has been disposed (${v.dtype}[${v.shape.join(", ")}] on ${v.device})`);
      tensors.push(v);
      parts.push([`${path} shape`, `[${v.shape.join(", ")}]`], [`${path} dtype`, v.dtype], [`${path} device`, v.device], [`${path} requiresGrad`, String(v.requiresGrad)]);
    } else if (v === null || v === undefined || typeof v !== "object") {
      parts.push([path, typeof v === "function" ? `function #${identityOf(v)}` : typeof v === "string" ? JSON.stringify(v) : typeof v === "bigint" ? `${v}n` : Object.is(v, -0) ? "-0" : String(v)]);
    } else if (isPlain(v)) {
      const entries = Array.isArray(v) ? v.map((x, i) => [`[${i}]`, x] as const) : Object.entries(v).map(([k, x]) => [`.${k}`, x] as const);
      parts.push([`${path} structure`, Array.isArray(v) ? `array of ${v.length}` : `{${Object.keys(v).join(", ")}}`]);
      for (const [k, x] of entries) walk(x, `${path}${k}`);
    } else {
      parts.push([path, `${(v as object).constructor?.name ?? "object"} #${identityOf(v)}`]);
    }
  };
  args.forEach((a, i) => walk(a, `input ${i}`));
  parts.push(["grad mode", isGradEnabled() ? "enabled" : "disabled"], ["float32 matmul precision", getFloat32MatmulPrecision()], ["default dtype", defaultFloatDType], ["default device", getDefaultDevice()]);
  // The values alone identify the call: the labels follow from the structure parts among them.
  const key = parts.map((p) => p[1]).join("\u0000");
  return { key, parts, tensors };
}

/** What differs between two signatures, as "input 0 shape [128, 784] → [64, 784]". */
export function describeChange(before: CallSignature, now: CallSignature): string {
  const n = Math.max(before.parts.length, now.parts.length);
  for (let i = 0; i < n; i++) {
    const a = before.parts[i];
    const b = now.parts[i];
    if (a === undefined || b === undefined || a[0] !== b[0]) return `the arguments changed (${a?.[0] ?? "nothing"} → ${b?.[0] ?? "nothing"})`;
    if (a[1] !== b[1]) return `${a[0]} ${a[1]} → ${b[1]}`;
  }
  return "the arguments are the same";
}
