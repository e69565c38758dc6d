// Hot loops (element-wise ops, row reductions) compiled three times on x86-64: for the baseline ISA,
// for AVX2+FMA and for AVX-512 with 512-bit vectors, the widest the CPU has chosen. The plugin is built
// with -ffp-contract=off, so every version does the same operations in the same order and gives
// identical results (up to the payload of a NaN); only the vector width differs.
//
// A loop body is a function (template) marked TPJRT_LOOP_BODY (always inlined, so that each version is
// vectorised for its own ISA); isaVersion<&body<...>>() returns the version for this CPU, isaLoop the
// same for element-wise loops.
#pragma once

#include <cstdint>

#include "base/cpu_features.h"
#include "kernels/kernels.h"

#define TPJRT_LOOP_BODY [[gnu::always_inline]] inline

namespace tpjrt::cpu {

// The target ISAs of the vector versions, for loops written with intrinsics too.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define TPJRT_HAS_AVX2_LOOPS 1
#define TPJRT_AVX2_ISA "avx2,fma"
#define TPJRT_AVX512_ISA "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma,prefer-vector-width=512"
#endif

// The version for this CPU of a function built three times.
template <class F>
F pickIsa(F baseline, [[maybe_unused]] F avx2, [[maybe_unused]] F avx512) {
#ifdef TPJRT_HAS_AVX2_LOOPS
  if (avx2LoopsEnabled()) return avx512LoopsEnabled() ? avx512 : avx2;
#endif
  return baseline;
}

// The versions of one loop body: a function of any signature.
template <auto Body>
struct IsaVersions;
template <class R, class... A, R (*Body)(A...)>
struct IsaVersions<Body> {
  static R baseline(A... a) { return Body(a...); }
#ifdef TPJRT_HAS_AVX2_LOOPS
  __attribute__((target(TPJRT_AVX2_ISA))) static R avx2(A... a) { return Body(a...); }
  __attribute__((target(TPJRT_AVX512_ISA))) static R avx512(A... a) { return Body(a...); }
  static auto pick() { return pickIsa(&baseline, &avx2, &avx512); }
#else
  static auto pick() { return &baseline; }
#endif
};

// The version of `Body` for this CPU.
template <auto Body>
auto isaVersion() {
  return IsaVersions<Body>::pick();
}

template <auto Body>
ElementLoop isaLoop() {
  return isaVersion<Body>();
}

}  // namespace tpjrt::cpu
