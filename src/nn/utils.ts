/**
 * @file torch.nn.utils: gradient clipping and flattening parameters into one vector, outside autograd.
 */
import { noGrad } from "../autograd/grad_mode.js";
import { zeros } from "../ops/creation/filled.js";
import { cat, stack } from "../ops/shape/joining.js";
import { ArgumentError, ShapeError } from "../runtime/errors.js";
import { Tensor } from "../tensor.js";

const listOf = (op: string, parameters: Tensor | Iterable<Tensor>): Tensor[] => {
  const list = parameters instanceof Tensor ? [parameters] : [...parameters];
  for (const p of list) if (!(p instanceof Tensor)) throw new ArgumentError(`${op}: parameters must be tensors`);
  return list;
};

/**
 * Scales the gradients in place so that their joint `normType` norm is at most `maxNorm`
 * (PyTorch's clip_grad_norm_); returns the norm before clipping, a 0-d tensor.
 */
export function clipGradNorm_(parameters: Tensor | Iterable<Tensor>, maxNorm: number, normType = 2, options: { errorIfNonfinite?: boolean } = {}): Tensor {
  for (const key of Object.keys(options)) if (key !== "errorIfNonfinite") throw new ArgumentError(`clipGradNorm_: got an unknown option "${key}"; the only option is "errorIfNonfinite"`);
  const grads = listOf("clipGradNorm_", parameters).map((p) => p.grad).filter((g): g is Tensor => g !== null);
  return noGrad(() => {
    if (grads.length === 0) return zeros([]);
    const norms = grads.map((g) => g.norm(normType));
    const stacked = stack(norms);
    const total = stacked.norm(normType);
    for (const n of norms) n.dispose();
    stacked.dispose();
    if (options.errorIfNonfinite && !Number.isFinite(total.item() as number)) {
      throw new ArgumentError(`clipGradNorm_: the total norm of order ${normType} of the gradients is non-finite, so it cannot be clipped; pass { errorIfNonfinite: false } to clip anyway`);
    }
    const coef = total.add(1e-6).reciprocal().mul(maxNorm).clamp({ max: 1 });
    for (const g of grads) g.mul_(coef);
    coef.dispose();
    return total;
  });
}

/** Clamps every gradient in place to [−clipValue, clipValue] (PyTorch's clip_grad_value_). */
export function clipGradValue_(parameters: Tensor | Iterable<Tensor>, clipValue: number): void {
  noGrad(() => {
    for (const p of listOf("clipGradValue_", parameters)) p.grad?.clamp_(-clipValue, clipValue);
  });
}

/** Every parameter flattened and joined into one vector. */
export function parametersToVector(parameters: Iterable<Tensor>): Tensor {
  const list = listOf("parametersToVector", parameters);
  const flat = list.map((p) => p.reshape([-1]));
  try {
    return cat(flat);
  } finally {
    for (const f of flat) if (!list.includes(f)) f.dispose();
  }
}

/** Writes the slices of `vec` into the parameters, in place (the inverse of parametersToVector). */
export function vectorToParameters(vec: Tensor, parameters: Iterable<Tensor>): void {
  const list = listOf("vectorToParameters", parameters);
  const total = list.reduce((n, p) => n + p.numel(), 0);
  if (vec.ndim !== 1 || vec.numel() !== total) throw new ShapeError(`vectorToParameters: expected a vector of ${total} elements, got [${vec.shape.join(", ")}]`);
  noGrad(() => {
    let at = 0;
    for (const p of list) {
      const part = vec.narrow(0, at, p.numel());
      const shaped = part.reshape([...p.shape]);
      p.copy_(shaped);
      part.dispose();
      shaped.dispose();
      at += p.numel();
    }
  });
}
