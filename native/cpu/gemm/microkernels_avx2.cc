// AVX2 + FMA micro-kernels: 6 × 16 floats and 6 × 8 doubles (12 accumulator registers), and the
// packing of float operands contiguous along the contraction by 8 × 8 transposes. Compiled for every
// x86-64 CPU; gemm/gemm.cc calls them only where base/cpu_features.h says the CPU has AVX2 and FMA.
#include <algorithm>
#include <cstdint>

#include "gemm/microkernels.h"

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
  GEMM_TARGET static Reg mul(Reg a, Reg b) { return _mm256_mul_ps(a, b); }
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
  GEMM_TARGET static Reg mul(Reg a, Reg b) { return _mm256_mul_pd(a, b); }
};

#include "gemm/microkernel.inc"

// Rows i < rows (≤ 8) of 8 floats, row i at s + i * stride, transposed: column q of the block goes to
// out[q], its lanes ≥ rows zero.
GEMM_TARGET inline void transpose8x8(const float* s, int64_t stride, int rows, __m256 out[8]) {
  __m256 r[8];
  for (int i = 0; i < 8; ++i) r[i] = i < rows ? _mm256_loadu_ps(s + i * stride) : _mm256_setzero_ps();
  __m256 t[8], u[8];
  for (int i = 0; i < 8; i += 2) {  // rows i, i+1 interleaved: columns (0 1 | 4 5) and (2 3 | 6 7)
    t[i] = _mm256_unpacklo_ps(r[i], r[i + 1]);
    t[i + 1] = _mm256_unpackhi_ps(r[i], r[i + 1]);
  }
  for (int i = 0; i < 8; i += 4) {  // four rows of one column in each 128-bit half
    u[i] = _mm256_shuffle_ps(t[i], t[i + 2], _MM_SHUFFLE(1, 0, 1, 0));
    u[i + 1] = _mm256_shuffle_ps(t[i], t[i + 2], _MM_SHUFFLE(3, 2, 3, 2));
    u[i + 2] = _mm256_shuffle_ps(t[i + 1], t[i + 3], _MM_SHUFFLE(1, 0, 1, 0));
    u[i + 3] = _mm256_shuffle_ps(t[i + 1], t[i + 3], _MM_SHUFFLE(3, 2, 3, 2));
  }
  for (int q = 0; q < 4; ++q) {  // rows 0-3 from u[q], rows 4-7 from u[q + 4]
    out[q] = _mm256_permute2f128_ps(u[q], u[q + 4], 0x20);
    out[q + 4] = _mm256_permute2f128_ps(u[q], u[q + 4], 0x31);
  }
}

// How far ahead along each row packLanes asks for the next cache line. Its rows are short runs far
// apart (a kc block of a row, then the next row), which the hardware prefetchers pick up late: operands
// not in cache (16 of each, used in turn), 2 threads, on the Intel VM of 2026-12-07: 1024×1024×256
// (x·Wᵀ) 2.33-2.43 -> 2.11-2.16 ms, 1024×256×1024 2.03-2.05 -> 1.94-1.96, 1024×256×768 1.55-1.59 ->
// 1.47-1.49.
constexpr int64_t kPackAhead = 64;

// Lanes [0, H) (H being 8 or 6) of a panel `width` wide at d, for every depth: rows [0, rows) of s,
// then zeros.
template <int H>
GEMM_TARGET void packLanes(float* d, const float* s, int64_t rowStride, int rows, int64_t depth, int width) {
  const int64_t depth8 = depth / 8 * 8;
  for (int64_t p = 0; p < depth8; p += 8) {
    __m256 col[8];
    if (p % 16 == 0)
      for (int i = 0; i < rows; ++i) _mm_prefetch(reinterpret_cast<const char*>(s + i * rowStride + p + kPackAhead), _MM_HINT_T0);
    transpose8x8(s + p, rowStride, rows, col);
    for (int q = 0; q < 8; ++q) {
      float* out = d + (p + q) * width;
      if constexpr (H == 8) {
        _mm256_storeu_ps(out, col[q]);
      } else {
        _mm_storeu_ps(out, _mm256_castps256_ps128(col[q]));
        _mm_storel_pi(reinterpret_cast<__m64*>(out + 4), _mm256_extractf128_ps(col[q], 1));
      }
    }
  }
  for (int64_t p = depth8; p < depth; ++p)
    for (int i = 0; i < H; ++i) d[p * width + i] = i < rows ? s[i * rowStride + p] : 0.0f;
}

// PackRowsFn for the kernel's widths, 6 and 16 (any multiple of 8, or of 8 plus 6), by 8 × 8 transposes.
GEMM_TARGET void packRowsF32(float* dst, const float* src, int64_t rowStride, int64_t rows, int64_t depth, int width) {
  for (int64_t r0 = 0; r0 < rows; r0 += width) {
    const int64_t w = std::min<int64_t>(width, rows - r0);
    for (int g = 0; g < width; g += 8) {
      const int valid = int(std::clamp<int64_t>(w - g, 0, 8));
      float* d = dst + r0 * depth + g;
      const float* s = src + (r0 + g) * rowStride;
      if (width - g == 6) {
        packLanes<6>(d, s, rowStride, valid, depth, width);
      } else {
        packLanes<8>(d, s, rowStride, valid, depth, width);
      }
    }
  }
}

}  // namespace

// kc 1024 (deeper than the panels that fit L1): fewer passes over C and rounds on the pool; in
// alternating runs 0-11% faster than 256 for 1024³, 4096³, 1024×256×1024 and 128×512×512 (W4).
MicroKernel<float> avx2KernelF32() { return {6, 16, microKernel<F32x8, 6, 2>, 144, 1024, 4080, packRowsF32, panelOps<float>()}; }
MicroKernel<double> avx2KernelF64() { return {6, 8, microKernel<F64x4, 6, 2>, 72, 256, 4080, nullptr, panelOps<double>()}; }

}  // namespace tpjrt::cpu::gemm_detail

#else

namespace tpjrt::cpu::gemm_detail {
MicroKernel<float> avx2KernelF32() { return {}; }
MicroKernel<double> avx2KernelF64() { return {}; }
}  // namespace tpjrt::cpu::gemm_detail

#endif
