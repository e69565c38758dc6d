// Private to gemm/gemm.cc and the per-ISA kernel files: the micro-kernel contract and the kernels.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace tpjrt::cpu::gemm_detail {

// c[i * ldc + j] (+)= Σ_p a(i, p) · b[p * nr + j] for the full mr × nr tile: `b` is a packed panel
// (64-byte aligned), and so is `a` when lda is 0 (a(i, p) = a[p * mr + i]); otherwise a(i, p) =
// a[i * lda + p], mr rows read in place. `accumulate` adds to c instead of overwriting it; then, when
// `rowAdd` is set, rowAdd[j] is added to every row (a separate rounding). `scale` (a power of two, 1 for
// none) multiplies the sums first, before any accumulate or add. Both forms of `a` sum in the same order.
template <class T>
using MicroKernelFn = void (*)(int64_t k, const T* a, int64_t lda, const T* b, T* c, int64_t ldc, bool accumulate,
                               const T* rowAdd, T scale);

// The smallest nonzero magnitude in p[0, n) (0 if all are zero), or the largest (NaN if one is NaN).
template <class T>
using MagnitudeFn = T (*)(const T* p, int64_t n);

// Packs rows × depth of an operand that is contiguous along the contraction (element (r, p) at
// src[r * rowStride + p]) into panels of `width` rows: panel q holds, for each p, the values of rows
// q·width.., zero past the end. Called with width mr or nr only.
template <class T>
using PackRowsFn = void (*)(T* dst, const T* src, int64_t rowStride, int64_t rows, int64_t depth, int width);

// p[0, n) times 2^shift (which may be negative), for finite values whose results stay finite.
template <class T>
using ScaleFn = void (*)(T* p, int64_t n, int shift);

// What the GEMM does to a packed panel that may hold subnormals (see PanelScale in gemm/gemm.cc).
template <class T>
struct PanelOps {
  MagnitudeFn<T> leastMagnitude = nullptr, largestMagnitude = nullptr;
  ScaleFn<T> scale = nullptr;
};

template <class T>
struct MicroKernel {
  int mr = 0, nr = 0;
  MicroKernelFn<T> run = nullptr;
  int64_t mc = 0, kc = 0, nc = 0;  // default cache blocks
  PackRowsFn<T> packRows = nullptr;  // this ISA's packing of such operands; null: the portable one
  PanelOps<T> panels;
  int64_t kcMax = 0;  // deepest kc for products narrower than nc (0: kc for all)
};

MicroKernel<float> portableKernelF32();
MicroKernel<double> portableKernelF64();
MicroKernel<float> avx2KernelF32();
MicroKernel<double> avx2KernelF64();
MicroKernel<float> avx512KernelF32();
MicroKernel<double> avx512KernelF64();

}  // namespace tpjrt::cpu::gemm_detail
