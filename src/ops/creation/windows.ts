/**
 * @file Window functions for signal processing: bartlettWindow, blackmanWindow, hammingWindow,
 * hannWindow and kaiserWindow, each one unit on the device over an iota. A periodic window of
 * length N is the symmetric one of length N + 1 without its last value (PyTorch's default, for
 * spectral analysis); length 1 is [1], length 0 is empty. Float16 and bfloat16 round after each
 * step, as PyTorch's do.
 */
import { type DType, defaultFloatDType, isFloating, opmath } from "../../dtype.js";
import type { DeviceLike } from "../../device.js";
import { ArgumentError, DTypeError } from "../../runtime/errors.js";
import type { Tensor } from "../../tensor.js";
import type { Tracer } from "../../trace/tracer.js";
import * as e from "../emit.js";
import { i0T } from "../pointwise/bessel.js";
import { op } from "../signature/op.js";
import { checkGrad, make, withGrad } from "./common.js";

interface WindowArgs {
  windowLength: number;
  periodic: boolean;
  dtype: DType | undefined;
  device: DeviceLike | undefined;
  requiresGrad: boolean;
}

/**
 * What a window's body gets: n = 0, 1, …, N − 1 in the window's dtype, `step(f, ...xs)` (one of
 * PyTorch's tensor ops on tensors of that dtype: f computed in opmath, the result rounded to the
 * dtype, which is how PyTorch's float16 and bfloat16 windows come out), constants `c(v)` in opmath,
 * and the symmetric window's last index (N − 1, or N when periodic).
 */
interface Window {
  n: Tracer;
  step: (f: (...xs: Tracer[]) => Tracer, ...xs: Tracer[]) => Tracer;
  c: (v: number) => Tracer;
  last: number;
}

function windowOf(op: string, a: WindowArgs, statics: string, fn: (w: Window) => Tracer): Tensor {
  const n = a.windowLength;
  if (n < 0) throw new ArgumentError(`${op}: requires non-negative windowLength, got windowLength=${n}`);
  const dtype = a.dtype ?? defaultFloatDType;
  if (!isFloating(dtype)) throw new DTypeError(`${op}: expects a floating point dtype, got ${dtype}`);
  checkGrad(op, dtype, a.requiresGrad);
  const wide = opmath(dtype);
  const t = make(op, `${dtype}|${n}|${a.periodic}|${statics}`, a.device, () => {
    if (n <= 1) return e.full(1, dtype, [n]);
    const step = (f: (...xs: Tracer[]) => Tracer, ...xs: Tracer[]): Tracer => e.convert(f(...xs.map((x) => e.convert(x, wide))), dtype);
    const c = (v: number): Tracer => e.full(v, wide, [n]);
    return fn({ n: e.convert(e.iota(wide, [n], 0), dtype), step, c, last: a.periodic ? n : n - 1 });
  });
  return withGrad(t, a.requiresGrad);
}

/** alpha − beta cos(2πn / last), hann's and hamming's shape, in PyTorch's order of rounded steps. */
function raisedCosine({ n, step, c, last }: Window, alpha: number, beta: number): Tracer {
  const angle = step((v) => e.mul(v, c((2 * Math.PI) / last)), n);
  const scaled = step((v) => e.mul(v, c(-beta)), step(e.cos, angle));
  return step((v) => e.add(v, c(alpha)), scaled);
}

const factory = "*, dtype?: dtype, device?: device, requiresGrad: bool = false) -> Tensor";

export const hannWindow = op(
  `hannWindow(windowLength: int, periodic: bool = true, ${factory}`,
  { doc: "The Hann window: 0.5 − 0.5 cos(2πn / (N − 1)) for n < N (periodic: the window of length N + 1 without its last value); float32 unless `dtype`." },
  (a) => windowOf("hannWindow", a, "", (w) => raisedCosine(w, 0.5, 0.5)),
);

export const hammingWindow = op(
  `hammingWindow(windowLength: int, periodic: bool = true, alpha: float = 0.54, beta: float = 0.46, ${factory}`,
  { doc: "The Hamming window: alpha − beta cos(2πn / (N − 1)) for n < N (periodic: the window of length N + 1 without its last value); float32 unless `dtype`." },
  (a) => windowOf("hammingWindow", a, `${a.alpha}|${a.beta}`, (w) => raisedCosine(w, a.alpha, a.beta)),
);

export const blackmanWindow = op(
  `blackmanWindow(windowLength: int, periodic: bool = true, ${factory}`,
  { doc: "The Blackman window: 0.42 − 0.5 cos(2πn / (N − 1)) + 0.08 cos(4πn / (N − 1)) for n < N (periodic: the window of length N + 1 without its last value); float32 unless `dtype`." },
  (a) =>
    windowOf("blackmanWindow", a, "", ({ n, step, c, last }) => {
      const x = step((v) => e.mul(v, c(Math.PI / last)), n);
      const term = (k: number, weight: number): Tracer => step((v) => e.mul(v, c(weight)), step(e.cos, step((v) => e.mul(v, c(k)), x)));
      return step((v) => e.add(v, c(0.42)), step(e.sub, term(4, 0.08), term(2, 0.5)));
    }),
);

export const bartlettWindow = op(
  `bartlettWindow(windowLength: int, periodic: bool = true, ${factory}`,
  { doc: "The Bartlett (triangular) window: 2n / (N − 1) up to the middle, 2 − 2n / (N − 1) after it, for n < N (periodic: the window of length N + 1 without its last value); float32 unless `dtype`." },
  (a) =>
    windowOf("bartlettWindow", a, "", ({ n, step, c, last }) => {
      const rising = step((v) => e.mul(v, c(2 / last)), n);
      const falling = step((v) => e.add(v, c(2)), step((v) => e.neg(v), rising));
      const firstHalf = Math.floor(last / 2) + 1;
      return e.select(e.compare(e.convert(n, "float32"), e.full(firstHalf, "float32", n.shape), "LT"), rising, falling);
    }),
);

export const kaiserWindow = op(
  `kaiserWindow(windowLength: int, periodic: bool = true, beta: float = 12, ${factory}`,
  { doc: "The Kaiser window: I0(beta · sqrt(1 − ((n − m) / m)²)) / I0(beta) with m = (N − 1) / 2, for n < N (periodic: the window of length N + 1 without its last value); float32 unless `dtype`." },
  (a) =>
    windowOf("kaiserWindow", a, String(a.beta), ({ n, step, c, last }) =>
      step((v) => {
        const m = last / 2;
        const r = e.div(e.sub(v, c(m)), c(m));
        const arg = e.mul(c(a.beta), e.sqrt(e.abs(e.sub(c(1), e.mul(r, r)))));
        return e.div(i0T(arg), i0T(c(a.beta)));
      }, n),
    ),
);
