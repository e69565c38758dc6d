// Private to the CPU plugin: float32 exp, logistic and tanh written so that a plain loop over them
// auto-vectorises (no calls, no branches). They compute in double, so the only float32 rounding is the
// final one: results are within 1 ulp of the correctly rounded value (the op tests allow 4).
#pragma once

#include <bit>
#include <cstdint>

namespace tpjrt::cpu::fastmath {

// e^x for |x| <= ~700 (callers clamp): x = n·ln2 + r with |r| <= ln2/2, e^r by its Taylor series to
// r^10 (relative error below 3e-13), 2^n built in the exponent bits.
inline double expDouble(double x) {
  constexpr double kLog2e = 1.4426950408889634;
  constexpr double kLn2 = 0.6931471805599453;
  constexpr double kRound = 6755399441055744.0;  // 1.5·2^52: adding it rounds to an integer in the low bits
  const double shifted = x * kLog2e + kRound;
  const double n = shifted - kRound;
  const double r = x - n * kLn2;
  double p = 1.0 / 3628800;
  p = p * r + 1.0 / 362880;
  p = p * r + 1.0 / 40320;
  p = p * r + 1.0 / 5040;
  p = p * r + 1.0 / 720;
  p = p * r + 1.0 / 120;
  p = p * r + 1.0 / 24;
  p = p * r + 1.0 / 6;
  p = p * r + 0.5;
  p = p * r + 1.0;
  p = p * r + 1.0;
  const int64_t k = std::bit_cast<int64_t>(shifted) - std::bit_cast<int64_t>(kRound);
  return p * std::bit_cast<double>((k + 1023) << 52);
}

// Clamps with comparisons that keep NaN (a comparison with NaN is false, so NaN passes through).
inline double clampKeepNaN(double x, double lo, double hi) {
  x = x < lo ? lo : x;
  return x > hi ? hi : x;
}

// e^89 overflows float32 and e^-104 underflows it, so clamping there changes no float32 result.
inline float exp(float x) { return float(expDouble(clampKeepNaN(double(x), -104.0, 89.0))); }

// 1 / (1 + e^-x); beyond ±110 the float32 result is already 0 or 1.
inline float logistic(float x) { return float(1.0 / (1.0 + expDouble(-clampKeepNaN(double(x), -110.0, 110.0)))); }

// tanh(|x|) = 1 - 2 / (e^{2|x|} + 1), with the sign put back. Below 2^-12 tanh(x) rounds to x in
// float32 (and the formula would cancel); beyond 10 it rounds to ±1.
inline float tanh(float x) {
  const double a = clampKeepNaN(double(x < 0 ? -x : x), 0.0, 10.0);
  const double t = 1.0 - 2.0 / (expDouble(2.0 * a) + 1.0);
  const float magnitude = float(t);
  const float result = x < 0 ? -magnitude : magnitude;
  const bool tiny = (x < 0 ? -x : x) < 0.000244140625f;
  return tiny ? x : result;
}

}  // namespace tpjrt::cpu::fastmath
