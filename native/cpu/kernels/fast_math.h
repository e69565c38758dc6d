// Private to the CPU plugin: float32 exp, log, log1p, logistic, tanh and erf written so that a plain
// loop over them auto-vectorises (no calls, no branches) in float32 lanes, with fused multiply-adds.
// Over all 2^32 float32 inputs they are within 1.02 (exp), 0.88 (log), 1.26 (log1p), 1.47 (tanh),
// 2.41 (logistic) and 1.46 (erf) ulp of the exact value, so at most two float steps from the correctly
// rounded one (tests/fast_paths_test.cc checks them; the op tests allow 4).
#pragma once

#include <bit>
#include <cstdint>

namespace tpjrt::cpu::fastmath {

// Clamps with comparisons that keep NaN (a comparison with NaN is false, so NaN passes through).
inline float clampKeepNaN(float x, float lo, float hi) {
  x = x < lo ? lo : x;
  return x > hi ? hi : x;
}

// a·b + c rounded once. In the AVX2 and AVX-512 versions of a loop (isa_loops.h) this is one vector
// instruction; the baseline version calls the C library's fmaf, which gives the same bits, slowly.
inline float fma(float a, float b, float c) { return __builtin_fmaf(a, b, c); }

// 2^k as a float for k in [-126, 127].
inline float pow2(int32_t k) { return std::bit_cast<float>(uint32_t(k + 127) << 23); }

// e^x = p · 2^k. x = k·ln2 + r with |r| <= ln2/2 (ln2 split so that k·ln2Hi is exact); p = e^r = 1 + r +
// r²·q(r) with q fitted by weighted least squares for a relative error of 3e-9 on that interval.
struct ExpParts {
  float p;
  int32_t k;
};
inline ExpParts expParts(float x) {
  constexpr float kLog2e = 1.44269504f, kLn2Hi = 0.693145751953125f, kLn2Lo = 1.42860677e-06f;
  constexpr float kRound = 12582912.0f;  // 1.5·2^23: adding it rounds to an integer in the low bits
  const float shifted = fma(x, kLog2e, kRound);
  const float n = shifted - kRound;
  const float r = fma(-n, kLn2Lo, fma(-n, kLn2Hi, x));
  float q = 0.0013814576f;
  q = fma(q, r, 0.0083687045f);
  q = fma(q, r, 0.041668389f);
  q = fma(q, r, 0.16666521f);
  q = fma(q, r, 0.49999994f);
  return {1.0f + fma(r * r, q, r), int32_t(std::bit_cast<uint32_t>(shifted) - std::bit_cast<uint32_t>(kRound))};
}

// e^x. 2^k is applied as two factors so that a subnormal result is rounded once. e^89 overflows float32
// and e^-104 underflows it, so clamping there changes no result. Below -104 (the -inf of a masked
// softmax) the lane computes e^0 and is then set to 0: a product that underflows costs Intel cores a
// microcode assist, which made exp over half -inf lanes 11× slower there.
inline float exp(float x) {
  const bool zero = x < -104.0f;  // false for NaN
  const ExpParts e = expParts(clampKeepNaN(zero ? 0.0f : x, -104.0f, 89.0f));
  const int32_t half = e.k >> 1;  // floor(k / 2): one shift, where k / 2 also needs a sign correction
  const float r = e.p * pow2(half) * pow2(e.k - half);
  return zero ? 0.0f : r;
}

// exp(x) for x whose e^x is a normal float (-87 < x < 88; tanh's large branch), bit for bit:
// one factor of 2^k is exact there.
inline float expNormal(float x) {
  const ExpParts e = expParts(x);
  return e.p * pow2(e.k);
}

// 1 / (1 + e^-x), written with e = e^-|x| so that it neither overflows nor cancels: e / (1 + e) for
// x < 0, else 1 / (1 + e). As -|x| <= 0 only the lower clamp is needed. Both are computed scaled by
// 2^25, with E = 2^25·e = p·2^(k+25): E is normal and exact for k in [-150, 0], so E / (2^25 + E)
// rounds a subnormal result once, and every result has the bits of the unscaled quotients.
inline float logistic(float x) {
  const bool zero = x < -104.0f;  // the result rounds to 0; computed from 0 instead, as in exp
  float y = std::bit_cast<float>(std::bit_cast<uint32_t>(x) | 0x80000000u);  // -|x|, NaN kept
  y = y < -104.0f ? -104.0f : y;
  const ExpParts e = expParts(zero ? 0.0f : y);
  const float scaled = e.p * pow2(e.k + 25);
  const float r = (x < 0 ? scaled : 0x1p25f) / (0x1p25f + scaled);
  return zero ? 0.0f : r;
}

// log1p(f) = f − f²/2 + f³·P(f) for 1 + f in [√½, √2), P of degree 7 fitted like exp's q for a
// relative error of 7e-9.
inline float log1pReduced(float f) {
  const float z = f * f;
  float p = -0.07362868f;
  p = fma(p, f, 0.12620327f);
  p = fma(p, f, -0.13202104f);
  p = fma(p, f, 0.14227115f);
  p = fma(p, f, -0.16621371f);
  p = fma(p, f, 0.19999826f);
  p = fma(p, f, -0.25000852f);
  p = fma(p, f, 0.33333355f);
  return f + fma(z * f, p, -0.5f * z);
}

// u = 2^k·(1 + f) with 1 + f in [√½, √2), for normal u.
struct LogParts {
  float f;
  int32_t k;
};
inline LogParts logParts(float u) {
  const uint32_t bits = std::bit_cast<uint32_t>(u);
  const float m = std::bit_cast<float>((bits & 0x007fffffu) | 0x3f800000u);  // in [1, 2)
  const bool high = m > 1.41421354f;
  return {(high ? m * 0.5f : m) - 1.0f, int32_t(bits >> 23) - 127 + (high ? 1 : 0)};
}

// k·ln2 + r, ln2 split so that k·ln2Hi is exact.
inline float addLn2Multiple(int32_t k, float r) {
  constexpr float kLn2Hi = 0.693145751953125f, kLn2Lo = 1.42860677e-06f;
  const float kf = float(k);
  return fma(kf, kLn2Hi, fma(kf, kLn2Lo, r));
}

// ln x = k·ln2 + log1p(f), subnormals scaled by 2^23 first (f is exact). Zero gives −inf, negatives
// and NaN give NaN, +inf itself.
inline float log(float x) {
  const bool subnormal = x < 0x1p-126f;
  const LogParts l = logParts(subnormal ? x * 0x1p23f : x);
  const float y = addLn2Multiple(l.k - (subnormal ? 23 : 0), log1pReduced(l.f));
  if (x > 0.0f && x < __builtin_inff()) return y;
  return x == 0.0f ? -__builtin_inff() : x == __builtin_inff() ? x : __builtin_nanf("");
}

// ln(1 + x): x itself is the reduced argument where 1 + x is in [√½, √2) (so −0 stays −0); elsewhere
// ln u for u = 1 + x rounded, plus c/u for the part c of 1 + x that the rounding lost (exact by
// Fast2Sum). −1 gives −inf, below it and NaN give NaN, +inf itself.
inline float log1p(float x) {
  const bool near = x > -0.29289320f && x < 0.41421354f;
  const float u = 1.0f + x;
  const float c = x > 1.0f || x < -1.0f ? 1.0f - (u - x) : x - (u - 1.0f);
  const LogParts l = logParts(u);
  const float r = log1pReduced(near ? x : l.f);
  const float y = near ? r : addLn2Multiple(l.k, r + c / u);
  const float special = x == -1.0f ? -__builtin_inff() : x == __builtin_inff() ? x : __builtin_nanf("");
  return x > -1.0f && x < __builtin_inff() ? y : special;
}

// tanh(|x|) with the sign put back: below 0.55 an odd polynomial fitted like exp's q (relative error
// 1e-9), above it 1 - 2 / (e^{2|x|} + 1), where the subtraction loses at most a factor of two. Beyond
// 10 tanh rounds to 1.
inline float tanh(float x) {
  const uint32_t sign = std::bit_cast<uint32_t>(x) & 0x80000000u;
  const float a = std::bit_cast<float>(std::bit_cast<uint32_t>(x) ^ sign);
  const float z = a * a;
  float q = -0.0062749167f;
  q = fma(q, z, 0.021072177f);
  q = fma(q, z, -0.053852434f);
  q = fma(q, z, 0.13332587f);
  q = fma(q, z, -0.33333318f);
  const float small = fma(a * z, q, a);
  const float large = 1.0f - 2.0f / (expNormal(2.0f * (a > 10.0f ? 10.0f : a)) + 1.0f);  // a >= 0 or NaN
  const float t = a < 0.55f ? small : large;
  return std::bit_cast<float>(std::bit_cast<uint32_t>(t) | sign);
}

// erf(|x|) with the sign put back. Below 1: a + a·D(a²), D fitted by weighted least squares for a
// relative error of 1.3e-9 in erf (adding a last keeps the rounding of the polynomial small). From 1:
// 1 - P(a - 2.5), P of degree 14 fitted to erfc on [1, 4] for an absolute error of 1e-8 (a - 2.5 is
// exact there, and P's terms are small, so it rounds to within half an ulp of erf). Beyond 4, erf
// rounds to 1. A polynomial alone costs less than erfc's usual e^{-a²}·R(1/a), which needs an exp
// and a division. The polynomials are evaluated in pairs of terms (Estrin's scheme), which shortens
// the chain of dependent operations that bounds the loop's speed.
inline float erf(float x) {
  const uint32_t sign = std::bit_cast<uint32_t>(x) & 0x80000000u;
  const float a = std::bit_cast<float>(std::bit_cast<uint32_t>(x) ^ sign);
  const float z = a * a, z2 = z * z;
  const float d = (0.12837917f - 0.37612626f * z) + z2 * (0.11283582f - 0.026853692f * z) +
                  z2 * z2 * ((0.005188099f - 0.0008008189f * z) + z2 * 7.847259e-05f);
  const float small = a + a * d;
  const float u = clampKeepNaN(a, 1.0f, 4.0f) - 2.5f, u2 = u * u, u4 = u2 * u2, u8 = u4 * u4;
  const float p = ((0.000406952371f - 0.00217818469f * u) + u2 * (0.0054456885f - 0.0083517693f * u)) +
                  u4 * ((0.00862260442f - 0.00610910961f * u) + u2 * (0.00279755471f - 0.000560360146f * u)) +
                  u8 * (((-0.000258730113f + 0.000270618184f * u) + u2 * (-8.1100472e-05f - 1.77602378e-05f * u)) +
                        u4 * ((1.57192717e-05f - 4.98567204e-07f * u) + u2 * -8.9013713e-07f));
  const float e = a < 1.0f ? small : 1.0f - p;
  return std::bit_cast<float>(std::bit_cast<uint32_t>(e) | sign);
}

}  // namespace tpjrt::cpu::fastmath
