#include "kernels/special_math.h"

#include <cmath>
#include <limits>
#include <math.h>  // lgamma_r: std::lgamma writes the global signgam, a race between pool threads

namespace tpjrt::cpu::special {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

bool isWhole(double x) { return std::isfinite(x) && x == std::floor(x); }

// B_{2j} / (2j)! for j = 1…12: the Euler–Maclaurin coefficients of the zeta tail.
constexpr double kBernoulliOverFactorial[] = {
    1.0 / 6 / 2,
    -1.0 / 30 / 24,
    1.0 / 42 / 720,
    -1.0 / 30 / 40320,
    5.0 / 66 / 3628800,
    -691.0 / 2730 / 479001600,
    7.0 / 6 / 87178291200.0,
    -3617.0 / 510 / 20922789888000.0,
    43867.0 / 798 / 6402373705728000.0,
    -174611.0 / 330 / 2432902008176640000.0,
    854513.0 / 138 / 1124000727777607680000.0,
    -236364091.0 / 2730 / 620448401733239439360000.0,
};

}  // namespace

double lgamma(double x) {
  int sign;
  return ::lgamma_r(x, &sign);
}

double digamma(double x) {
  if (std::isnan(x) || x == kInf) return x;
  if (x <= 0 && x == std::floor(x)) return kNaN;  // the poles, and -inf
  double result = 0;
  if (x < 0.5) {
    // Reflection: ψ(x) = ψ(1 - x) - π / tan(πx), with tan's argument reduced exactly first.
    result = -kPi / std::tan(kPi * (x - std::nearbyint(x)));
    x = 1 - x;
  }
  for (; x < 10; x += 1) result -= 1 / x;
  // ψ(x) = ln x - 1/(2x) - Σ B_{2k} / (2k x^{2k}), smallest terms first.
  const double z = 1 / (x * x);
  const double tail =
      z * (1.0 / 12 - z * (1.0 / 120 - z * (1.0 / 252 - z * (1.0 / 240 - z * (1.0 / 132 - z * (691.0 / 32760 - z / 12))))));
  return result + (std::log(x) - 0.5 / x - tail);
}

double erfInv(double y) {
  const double a = std::fabs(y);
  if (!(a <= 1)) return kNaN;
  if (a == 1) return std::copysign(kInf, y);
  if (a == 0) return y;
  double x;
  if (a <= 0.9) {
    // The first terms of erfinv's Maclaurin series in z = a·√π/2.
    const double z = a * std::sqrt(kPi) / 2, z2 = z * z;
    x = z * (1 + z2 * (1.0 / 3 + z2 * (7.0 / 30 + z2 * (127.0 / 630))));
  } else {
    // From erfc(x) ≈ e^{-x²} / (x√π): x² ≈ t - ln(πt) / 2 with t = -ln(1 - a).
    const double t = -std::log1p(-a);
    x = std::sqrt(t - 0.5 * std::log(kPi * t));
  }
  // Halley steps on erf(x) = a; above 0.5 on erfc(x) = 1 - a, which keeps the digits of 1 - a (exact there).
  for (int i = 0; i < 8; ++i) {
    const double f = a > 0.5 ? (1 - a) - std::erfc(x) : std::erf(x) - a;
    const double dx = f / (2 / std::sqrt(kPi) * std::exp(-x * x));
    x -= dx / (1 + x * dx);
    if (std::fabs(dx) <= 1e-17 * x) break;
  }
  return std::copysign(x, y);
}

double besselI1e(double x) {
  if (std::isnan(x)) return x;
  const double a = std::fabs(x);
  double r = 0;
  if (a <= 30) {
    // I1(a) = Σ (a/2)^{2k+1} / (k! (k+1)!): positive terms, so the sum loses nothing.
    const double h = a / 2, h2 = h * h;
    double term = h, sum = h;
    for (int k = 1; term > sum * 1e-17; ++k) {
      term *= h2 / (k * (k + 1.0));
      sum += term;
    }
    r = sum * std::exp(-a);
  } else if (a < kInf) {
    // e^{-a} I1(a) ~ (1 / √(2πa)) Σ_k t_k, t_k = t_{k-1} · ((2k-1)² - 4) / (8ak), while the terms shrink.
    double term = 1, sum = 1;
    for (int k = 1; k < 100; ++k) {
      const double next = term * ((2.0 * k - 1) * (2.0 * k - 1) - 4) / (8 * a * k);
      if (std::fabs(next) >= std::fabs(term) || std::fabs(next) < 1e-17) break;
      term = next;
      sum += term;
    }
    r = sum / std::sqrt(2 * kPi * a);
  }
  return std::copysign(r, x);
}

double zeta(double s, double q) {
  if (std::isnan(s) || std::isnan(q)) return kNaN;
  if (s == 1) return kInf;
  if (s < 1 || s == kInf || q == kInf) return kNaN;
  if (q <= 0) {
    if (q == std::floor(q)) return kInf;  // a pole of the term (q + k)^{-s} = 0^{-s}
    if (!isWhole(s)) return kNaN;         // a negative base to a fractional power
  }
  // Euler–Maclaurin: the first n terms summed, the rest as ∫ plus Bernoulli corrections at w = q + n,
  // with w large enough (>= s, up to 100) that the corrections shrink fast.
  const double start = std::max(10.0, std::min(s, 100.0));
  const double n = std::max(0.0, std::ceil(start - q));
  if (n > double(1 << 20)) return kNaN;
  double sum = 0;
  for (double k = 0; k < n; ++k) sum += std::pow(q + k, -s);
  const double w = q + n;
  const double wPow = std::pow(w, -s);
  double tail = w * wPow / (s - 1) + wPow / 2;
  double factor = s * wPow / w;  // s (s+1) … (s+2j-2) · w^{-s-2j+1}, for j = 1
  for (int j = 0; j < 12; ++j) {
    const double term = kBernoulliOverFactorial[j] * factor;
    tail += term;
    if (std::fabs(term) <= 1e-17 * std::fabs(sum + tail)) break;
    factor *= (s + 2 * j + 1) * (s + 2 * j + 2) / (w * w);
  }
  return sum + tail;
}

double polygamma(double n, double x) {
  if (std::isnan(n) || std::isnan(x)) return kNaN;
  if (!isWhole(n) || n < 0) return kNaN;
  if (n == 0) return digamma(x);
  if (x == kInf || (x <= 0 && x == std::floor(x))) return kNaN;
  // ψ^(n)(x) = (-1)^{n+1} n! ζ(n + 1, x)
  const double sign = std::fmod(n, 2) == 1 ? 1 : -1;
  return sign * std::tgamma(n + 1) * zeta(n + 1, x);
}

}  // namespace tpjrt::cpu::special
