// The special functions of CHLO (chlo.lgamma, digamma, erf_inv, bessel_i1e, zeta, polygamma) in
// double precision; the kernels of narrower float types call them and round once. Edge values follow
// XLA CPU: poles give +inf (lgamma, zeta at s = 1) or NaN (digamma, polygamma), arguments outside the
// domain NaN.
#pragma once

namespace tpjrt::cpu::special {

double lgamma(double x);             // log |Γ(x)|
double digamma(double x);            // ψ(x) = Γ'(x) / Γ(x)
double erfInv(double y);             // the x in (-inf, inf) with erf(x) = y, for y in [-1, 1]
double besselI1e(double x);          // e^{-|x|} I1(x)
double zeta(double s, double q);     // Hurwitz ζ(s, q) = Σ_{k>=0} (q + k)^{-s}
double polygamma(double n, double x);  // ψ^(n)(x) for a whole number n >= 0

}  // namespace tpjrt::cpu::special
