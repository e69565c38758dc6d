/**
 * @file nn.functional.gumbelSoftmax: a sample of the Gumbel-softmax (concrete) distribution, drawn
 * from the default generator; with `hard`, the one-hot of its argmax carrying the soft sample's
 * gradient (the straight-through estimator).
 */
import * as e from "../emit.js";
import { normDim } from "../dims.js";
import { draw } from "../random/draw.js";
import { uniform } from "../../random/distributions.js";
import { op } from "../signature/op.js";
import { c, type T } from "./emitters.js";
import { opmath, requireFloat } from "./opmath.js";
import { logSoftmaxAlong } from "./softmax.js";

export const gumbelSoftmax = op(
  "gumbelSoftmax(logits: Tensor, tau: float = 1, hard: bool = false, eps: float = 1e-10, dim: int = -1) -> Tensor",
  {
    doc: "softmax((logits + g) / tau) along `dim` with g standard Gumbel noise; with `hard`, the one-hot of its argmax whose gradient is the soft sample's. `eps` is unused, as in PyTorch (where it is deprecated). Float tensors.",
  },
  ({ logits, tau, hard, dim: d }) => {
    const op = "gumbelSoftmax";
    requireFloat(op, logits, "logits");
    const dim = normDim(op, d, logits.ndim);
    return draw(op, `${tau}|${hard}|${dim}`, logits.device, undefined, [logits], (key, [x]) => {
      const shape = x!.shape;
      const t = e.convert(x!.ndim === 0 ? e.reshape(x!, [1]) : x!, opmath(x!.dtype));
      // −log(−log u) with u in [0, 1): finite, or −inf (a class that cannot win) when u is 0
      const gumbel = e.neg(e.log(e.neg(e.log(uniform(key, t.shape, t.dtype)))));
      const soft = e.exp(logSoftmaxAlong(e.div(e.add(t, gumbel), c(t, tau)), dim));
      let y = soft;
      if (hard) {
        const [, index] = e.argReduce("argmax", soft, dim);
        const others = t.shape.map((_, i) => i).filter((i) => i !== dim);
        const oneHot = e.convert(e.compare(e.iota("int64", t.shape, dim), e.broadcastInDim(index, t.shape, others), "EQ"), t.dtype);
        y = e.add(e.sub(oneHot, e.stopGradient(soft)), soft);
      }
      return e.reshape(e.convert(y, x!.dtype), shape);
    });
  },
);
