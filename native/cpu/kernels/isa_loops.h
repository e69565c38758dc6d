// Hot loops (element-wise ops, row reductions) compiled twice on x86-64: for the baseline ISA and for
// AVX2+FMA, the second chosen when the CPU has it. The plugin is built with -ffp-contract=off, so both
// versions do the same operations in the same order and give identical results (up to the payload of
// a NaN); only the vector width differs.
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

// The versions of one loop body: a function of any signature.
template <auto Body>
struct IsaVersions;
template <class R, class... A, R (*Body)(A...)>
struct IsaVersions<Body> {
  static R baseline(A... a) { return Body(a...); }
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define TPJRT_HAS_AVX2_LOOPS 1
  __attribute__((target("avx2,fma"))) static R avx2(A... a) { return Body(a...); }
#endif
  static auto pick() {
#ifdef TPJRT_HAS_AVX2_LOOPS
    if (avx2LoopsEnabled()) return &avx2;
#endif
    return &baseline;
  }
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
