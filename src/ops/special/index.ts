/**
 * @file torch.special: the special functions, under PyTorch's names in camelCase (`torch.special.logNdtr`).
 * Those that are also torch.* functions are the same functions.
 */
export { erf, erfc, erfinv, logit } from "../pointwise/special.js";
export { exp2, expm1, log1p, sinc, xlogy } from "../pointwise/math.js";
export { round } from "../pointwise/rounding.js";
export { softmax, logSoftmax } from "../nn/softmax.js";
export { logsumexp } from "../reduction/sums.js";
export { digamma, polygamma, zeta } from "../pointwise/gamma.js";
export { i0, i0e, i1, i1e, besselJ0, besselJ1, besselY0, besselY1, sphericalBesselJ0 } from "../pointwise/bessel.js";
export { expit, psi, gammaln, multigammaln, gammainc, gammaincc, modifiedBesselI0, modifiedBesselI1 } from "./aliases.js";
export { erfcx, ndtr, ndtri, logNdtr } from "./normal.js";
export { entr, xlog1py } from "./entropy.js";
export {
  chebyshevPolynomialT, chebyshevPolynomialU, chebyshevPolynomialV, chebyshevPolynomialW,
  shiftedChebyshevPolynomialT, shiftedChebyshevPolynomialU, shiftedChebyshevPolynomialV, shiftedChebyshevPolynomialW,
  hermitePolynomialH, hermitePolynomialHe, laguerrePolynomialL, legendrePolynomialP,
} from "./polynomials.js";
export { airyAi, modifiedBesselK0, modifiedBesselK1, scaledModifiedBesselK0, scaledModifiedBesselK1 } from "./bessel_modified.js";
