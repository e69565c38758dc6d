// AVX-512F micro-kernels: 8 × 32 floats and 8 × 16 doubles (16 accumulator registers). gemm/gemm.cc calls
// them only where __builtin_cpu_supports("avx512f") holds (measured on the AVX-512 VM of 2026-12-05:
// benchmarks/RESULTS.md). The native GEMM test checks every path the CPU it runs on supports.
#include <cstdint>

#include "gemm/microkernels.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#include <unistd.h>

#define GEMM_TARGET __attribute__((target("avx512f")))

namespace tpjrt::cpu::gemm_detail {
namespace {

struct F32x16 {
  using T = float;
  using Reg = __m512;
  static constexpr int kLanes = 16;
  GEMM_TARGET static Reg zero() { return _mm512_setzero_ps(); }
  GEMM_TARGET static Reg load(const T* p) { return _mm512_load_ps(p); }
  GEMM_TARGET static Reg loadu(const T* p) { return _mm512_loadu_ps(p); }
  GEMM_TARGET static void storeu(T* p, Reg r) { _mm512_storeu_ps(p, r); }
  GEMM_TARGET static Reg broadcast(const T* p) { return _mm512_set1_ps(*p); }
  GEMM_TARGET static Reg fma(Reg a, Reg b, Reg c) { return _mm512_fmadd_ps(a, b, c); }
  GEMM_TARGET static Reg add(Reg a, Reg b) { return _mm512_add_ps(a, b); }
  GEMM_TARGET static Reg mul(Reg a, Reg b) { return _mm512_mul_ps(a, b); }
};

struct F64x8 {
  using T = double;
  using Reg = __m512d;
  static constexpr int kLanes = 8;
  GEMM_TARGET static Reg zero() { return _mm512_setzero_pd(); }
  GEMM_TARGET static Reg load(const T* p) { return _mm512_load_pd(p); }
  GEMM_TARGET static Reg loadu(const T* p) { return _mm512_loadu_pd(p); }
  GEMM_TARGET static void storeu(T* p, Reg r) { _mm512_storeu_pd(p, r); }
  GEMM_TARGET static Reg broadcast(const T* p) { return _mm512_set1_pd(*p); }
  GEMM_TARGET static Reg fma(Reg a, Reg b, Reg c) { return _mm512_fmadd_pd(a, b, c); }
  GEMM_TARGET static Reg add(Reg a, Reg b) { return _mm512_add_pd(a, b); }
  GEMM_TARGET static Reg mul(Reg a, Reg b) { return _mm512_mul_pd(a, b); }
};

#include "gemm/microkernel.inc"

}  // namespace

// Float blocks of 64 rows × a contraction of up to 1024 (A's block 256 KiB, in L2): C is read and
// written once per 1024 of the contraction. On the AVX-512 VM (2026-12-06, 2 threads) this took 1024³
// from 276-281 to 322-350 GFLOP/s (kc 256, mc 144 before), 4096³ 314-321 to 331-357, a weight
// gradient [256, 1024] · [1024, 768] 238-250 to 261-302, and equalled it where the contraction is short.
// Operands contiguous along the contraction (A as usual, B of x · wᵀ) are packed by the AVX2 file's
// 8 × 8 transposes, which serve widths 8 and 32 as well.
// Where each core's L2 holds 2 MiB or more (the Intel Xeon VM of 2026-12-07), B is blocked 256 deep and
// 1024 columns wide instead: that 1 MiB block stays in the L2 of each core whose tasks read it, and its
// 32 KiB micro-panels in L1. There, alternating: 1024³ 260-262 -> 278-282 GFLOP/s, 4096³ 282-293 ->
// 286-296; with 1024 × 4064 blocks every task streamed B from L3. Products narrower than 1024 columns
// take deeper blocks within the same 256 K elements (kcMax): against MKL's sgemm in the same process
// (2 threads, 16 operand copies used in turn, 2026-12-08), 1024 × 256 × 1024 went from 0.94-0.95× to
// 0.99-1.00× (x · Wᵀ), 0.93 to 0.97-0.98× (x · W), 0.89-0.93× to 0.94-0.95× (xᵀ · g); kc 1024 for
// 1024 columns too was slower (256 × 1024 × 1024, xᵀ · g: 0.93 -> 0.85-0.92×).
MicroKernel<float> avx512KernelF32() {
  static const bool l2HoldsBlock = sysconf(_SC_LEVEL2_CACHE_SIZE) >= (int64_t(2) << 20);
  if (l2HoldsBlock) return {8, 32, microKernel<F32x16, 8, 2>, 64, 256, 1024, avx2KernelF32().packRows, panelOps<float>(), 1024};
  return {8, 32, microKernel<F32x16, 8, 2>, 64, 1024, 4064, avx2KernelF32().packRows, panelOps<float>()};
}
MicroKernel<double> avx512KernelF64() { return {8, 16, microKernel<F64x8, 8, 2>, 72, 256, 4064, nullptr, panelOps<double>()}; }

}  // namespace tpjrt::cpu::gemm_detail

#else

namespace tpjrt::cpu::gemm_detail {
MicroKernel<float> avx512KernelF32() { return {}; }
MicroKernel<double> avx512KernelF64() { return {}; }
}  // namespace tpjrt::cpu::gemm_detail

#endif
