// AVX2 + FMA micro-kernels: 6 × 16 floats and 6 × 8 doubles (12 accumulator registers). Compiled for
// every x86-64 CPU; gemm.cc calls them only where __builtin_cpu_supports says the CPU has AVX2 and FMA.
#include <cstdint>

#include "gemm_kernels.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

#define GEMM_TARGET __attribute__((target("avx2,fma")))

namespace tpjrt::cpu::gemm_detail {
namespace {

struct F32x8 {
  using T = float;
  using Reg = __m256;
  static constexpr int kLanes = 8;
  GEMM_TARGET static Reg zero() { return _mm256_setzero_ps(); }
  GEMM_TARGET static Reg load(const T* p) { return _mm256_load_ps(p); }
  GEMM_TARGET static Reg loadu(const T* p) { return _mm256_loadu_ps(p); }
  GEMM_TARGET static void storeu(T* p, Reg r) { _mm256_storeu_ps(p, r); }
  GEMM_TARGET static Reg broadcast(const T* p) { return _mm256_broadcast_ss(p); }
  GEMM_TARGET static Reg fma(Reg a, Reg b, Reg c) { return _mm256_fmadd_ps(a, b, c); }
  GEMM_TARGET static Reg add(Reg a, Reg b) { return _mm256_add_ps(a, b); }
};

struct F64x4 {
  using T = double;
  using Reg = __m256d;
  static constexpr int kLanes = 4;
  GEMM_TARGET static Reg zero() { return _mm256_setzero_pd(); }
  GEMM_TARGET static Reg load(const T* p) { return _mm256_load_pd(p); }
  GEMM_TARGET static Reg loadu(const T* p) { return _mm256_loadu_pd(p); }
  GEMM_TARGET static void storeu(T* p, Reg r) { _mm256_storeu_pd(p, r); }
  GEMM_TARGET static Reg broadcast(const T* p) { return _mm256_broadcast_sd(p); }
  GEMM_TARGET static Reg fma(Reg a, Reg b, Reg c) { return _mm256_fmadd_pd(a, b, c); }
  GEMM_TARGET static Reg add(Reg a, Reg b) { return _mm256_add_pd(a, b); }
};

#include "gemm_microkernel.inc"

}  // namespace

MicroKernel<float> avx2KernelF32() { return {6, 16, microKernel<F32x8, 6, 2>, 144, 256, 4080}; }
MicroKernel<double> avx2KernelF64() { return {6, 8, microKernel<F64x4, 6, 2>, 72, 256, 4080}; }

}  // namespace tpjrt::cpu::gemm_detail

#else

namespace tpjrt::cpu::gemm_detail {
MicroKernel<float> avx2KernelF32() { return {}; }
MicroKernel<double> avx2KernelF64() { return {}; }
}  // namespace tpjrt::cpu::gemm_detail

#endif
