/**
 * @file torch.special's other names for torch functions (expit = sigmoid, psi = digamma, gammaln =
 * lgamma, multigammaln = mvlgamma, gammainc = igamma, gammaincc = igammac, modifiedBesselI0 = i0,
 * modifiedBesselI1 = i1): ops of their own, so that each is listed under its PyTorch name. As in PyTorch,
 * modifiedBesselI0 and modifiedBesselI1 have no gradient (i0 and i1 do): their result does not require grad.
 */
import { noGrad } from "../../autograd/grad_mode.js";
import { i0, i1 } from "../pointwise/bessel.js";
import { digamma, igamma, igammac, lgamma, mvlgamma } from "../pointwise/gamma.js";
import { sigmoid } from "../pointwise/math.js";
import { op } from "../signature/op.js";

export const expit = op("expit(input: Tensor) -> Tensor", { doc: "The logistic sigmoid 1 / (1 + e^−input) (torch.sigmoid), elementwise." }, ({ input }) => sigmoid(input));

export const psi = op("psi(input: Tensor) -> Tensor", { doc: "The digamma function (torch.digamma), elementwise." }, ({ input }) => digamma(input));

export const gammaln = op("gammaln(input: Tensor) -> Tensor", { doc: "log |Γ(input)| (torch.lgamma), elementwise." }, ({ input }) => lgamma(input));

export const multigammaln = op(
  "multigammaln(input: Tensor, p: int) -> Tensor",
  { doc: "The log of the multivariate gamma function of dimension p (torch.mvlgamma), elementwise." },
  ({ input, p }) => mvlgamma(input, p),
);

export const gammainc = op(
  "gammainc(input: Tensor, other: Tensor) -> Tensor",
  { doc: "The regularized lower incomplete gamma function P(input, other) (torch.igamma), elementwise with broadcasting." },
  ({ input, other }) => igamma(input, other),
);

export const gammaincc = op(
  "gammaincc(input: Tensor, other: Tensor) -> Tensor",
  { doc: "The regularized upper incomplete gamma function Q(input, other) (torch.igammac), elementwise with broadcasting." },
  ({ input, other }) => igammac(input, other),
);

export const modifiedBesselI0 = op(
  "modifiedBesselI0(input: Tensor) -> Tensor",
  { doc: "The modified Bessel function of the first kind, order 0 (torch.special.i0), elementwise; no gradient (as in PyTorch)." },
  ({ input }) => noGrad(() => i0(input)),
);

export const modifiedBesselI1 = op(
  "modifiedBesselI1(input: Tensor) -> Tensor",
  { doc: "The modified Bessel function of the first kind, order 1 (torch.special.i1), elementwise; no gradient (as in PyTorch)." },
  ({ input }) => noGrad(() => i1(input)),
);
