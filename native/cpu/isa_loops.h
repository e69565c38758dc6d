// Element-wise loops compiled twice on x86-64: for the baseline ISA and for AVX2+FMA, the second
// chosen when the CPU has it. The plugin is built with -ffp-contract=off, so both versions do the same
// operations in the same order and give identical results; only the vector width differs.
//
// A loop body is a function template marked TPJRT_LOOP_BODY (always inlined, so that each version is
// vectorised for its own ISA); isaLoop<&body<...>>() returns the version for this CPU.
#pragma once

#include <cstdint>

#include "cpu_features.h"
#include "kernels.h"

#define TPJRT_LOOP_BODY [[gnu::always_inline]] inline

namespace tpjrt::cpu {

template <auto Body>
void baselineLoop(const void* const* in, const bool* splat, void* out, int64_t n) {
  Body(in, splat, out, n);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define TPJRT_HAS_AVX2_LOOPS 1
template <auto Body>
__attribute__((target("avx2,fma"))) void avx2Loop(const void* const* in, const bool* splat, void* out, int64_t n) {
  Body(in, splat, out, n);
}
#endif

template <auto Body>
ElementLoop isaLoop() {
#ifdef TPJRT_HAS_AVX2_LOOPS
  if (avx2LoopsEnabled()) return &avx2Loop<Body>;
#endif
  return &baselineLoop<Body>;
}

}  // namespace tpjrt::cpu
