// copyBox: the strided copy behind transpose, slice, pad, broadcast_in_dim, reverse, gather and
// dynamic_update_slice. A box is first simplified (size-1 dimensions dropped, neighbours that are
// contiguous in both source and destination merged into one); then every row of its last dimension is
// copied in the cheapest way its strides allow: one memcpy (both contiguous), one value filled
// (a broadcast source), square blocks over the last dimension and the one the source reads
// contiguously (a transpose: both sides then stay within a few pages and whole cache lines), or
// element by element.
// Boxes of at least kParallelElements are split over the thread pool along their outer dimensions.
// Elements move as unsigned integers of their width, so every bit pattern (NaN payloads) survives.
#include <algorithm>
#if defined(__SSE2__)
#include <immintrin.h>
#endif

#include "base/thread_pool.h"
#include "kernels/index_walk.h"
#include "kernels/kernels.h"

namespace tpjrt::cpu {

namespace {

// Below this many elements a box is copied by the plain odometer: simplifying it costs more.
constexpr int64_t kSmallBox = 256;
// Edge of the square blocks a transpose is copied in, in elements.
constexpr int64_t kBlock = 128;

template <size_t W> struct Unsigned;
template <> struct Unsigned<1> { using T = uint8_t; };
template <> struct Unsigned<2> { using T = uint16_t; };
template <> struct Unsigned<4> { using T = uint32_t; };
template <> struct Unsigned<8> { using T = uint64_t; };

// to[i·toRow + j] = from[i + j·fromRow] for i < rows, j < cols. 4×4 (or 2×2) squares move through
// vector registers where the machine has them; the rest element by element.
template <class U>
void transposeBlock(const U* from, int64_t fromRow, U* to, int64_t toRow, int64_t rows, int64_t cols) {
  int64_t i0 = 0;
#if defined(__SSE2__)
  if constexpr (sizeof(U) == 4) {
    for (; i0 + 4 <= rows; i0 += 4) {
      int64_t j0 = 0;
      for (; j0 + 4 <= cols; j0 += 4) {
        const float* sp = reinterpret_cast<const float*>(from + i0 + j0 * fromRow);
        __m128 r0 = _mm_loadu_ps(sp), r1 = _mm_loadu_ps(sp + fromRow), r2 = _mm_loadu_ps(sp + 2 * fromRow),
               r3 = _mm_loadu_ps(sp + 3 * fromRow);
        _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
        float* dp = reinterpret_cast<float*>(to + i0 * toRow + j0);
        _mm_storeu_ps(dp, r0);
        _mm_storeu_ps(dp + toRow, r1);
        _mm_storeu_ps(dp + 2 * toRow, r2);
        _mm_storeu_ps(dp + 3 * toRow, r3);
      }
      for (int64_t i = i0; i < i0 + 4; ++i)
        for (int64_t j = j0; j < cols; ++j) to[i * toRow + j] = from[i + j * fromRow];
    }
  } else if constexpr (sizeof(U) == 8) {
    for (; i0 + 2 <= rows; i0 += 2) {
      int64_t j0 = 0;
      for (; j0 + 2 <= cols; j0 += 2) {
        const double* sp = reinterpret_cast<const double*>(from + i0 + j0 * fromRow);
        __m128d r0 = _mm_loadu_pd(sp), r1 = _mm_loadu_pd(sp + fromRow);
        double* dp = reinterpret_cast<double*>(to + i0 * toRow + j0);
        _mm_storeu_pd(dp, _mm_unpacklo_pd(r0, r1));
        _mm_storeu_pd(dp + toRow, _mm_unpackhi_pd(r0, r1));
      }
      for (int64_t i = i0; i < i0 + 2; ++i)
        for (int64_t j = j0; j < cols; ++j) to[i * toRow + j] = from[i + j * fromRow];
    }
  }
#endif
  for (int64_t i = i0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) to[i * toRow + j] = from[i + j * fromRow];
}

}  // namespace

StridedBox simplifyBox(const std::vector<int64_t>& dims, const std::vector<int64_t>& src, const std::vector<int64_t>& dst) {
  StridedBox b;
  for (size_t d = 0; d < dims.size(); ++d) {
    if (dims[d] == 1) continue;
    if (!b.dims.empty() && b.src.back() == src[d] * dims[d] && b.dst.back() == dst[d] * dims[d]) {
      b.dims.back() *= dims[d];
      b.src.back() = src[d];
      b.dst.back() = dst[d];
      continue;
    }
    b.dims.push_back(dims[d]);
    b.src.push_back(src[d]);
    b.dst.push_back(dst[d]);
  }
  return b;
}

namespace {

// Runs fn(begin, end) over [0, items), on the pool when the box holds enough elements.
template <class Fn>
void splitItems(int64_t items, int64_t elementsPerItem, Fn&& fn) {
  if (items * elementsPerItem < kParallelElements) {
    fn(int64_t(0), items);
    return;
  }
  const int64_t minPiece = std::max<int64_t>(1, kParallelElements / std::max<int64_t>(elementsPerItem, 1) / 4);
  parallelRange(items, minPiece, fn);
}

template <size_t W>
void copySimplified(const uint8_t* srcBytes, int64_t srcOffset, uint8_t* dstBytes, int64_t dstOffset, StridedBox b) {
  using U = typename Unsigned<W>::T;
  const U* from = reinterpret_cast<const U*>(srcBytes);
  U* to = reinterpret_cast<U*>(dstBytes);
  if (b.dims.empty()) {
    to[dstOffset] = from[srcOffset];
    return;
  }
  const size_t last = b.dims.size() - 1;
  const int64_t n = b.dims[last], si = b.src[last], di = b.dst[last];
  // The dimension read contiguously, when the last one is not: the box is (part of) a transpose.
  size_t across = last;
  if (di == 1 && si != 1 && si != 0)
    for (size_t d = 0; d < last; ++d)
      if (b.src[d] == 1) across = d;

  if (across != last) {
    const int64_t m = b.dims[across], sa = b.dst[across];  // src stride of `across` is 1
    StridedBox outer;
    for (size_t d = 0; d < last; ++d)
      if (d != across) {
        outer.dims.push_back(b.dims[d]);
        outer.src.push_back(b.src[d]);
        outer.dst.push_back(b.dst[d]);
      }
    const int64_t bands = (m + kBlock - 1) / kBlock;  // bands of kBlock rows of `across`, innermost
    outer.dims.push_back(bands);
    outer.src.push_back(kBlock);
    outer.dst.push_back(kBlock * sa);
    int64_t items = 1;
    for (int64_t d : outer.dims) items *= d;
    splitItems(items, kBlock * n, [&](int64_t begin, int64_t end) {
      walk(outer.dims, outer.src, outer.dst, srcOffset, dstOffset, begin, end, [&](int64_t item, int64_t s, int64_t t) {
        const int64_t rows = std::min(kBlock, m - (item % bands) * kBlock);
        for (int64_t j0 = 0; j0 < n; j0 += kBlock)
          transposeBlock(from + s + j0 * si, si, to + t + j0, sa, rows, std::min(kBlock, n - j0));
      });
    });
    return;
  }

  StridedBox outer{{b.dims.begin(), b.dims.end() - 1}, {b.src.begin(), b.src.end() - 1}, {b.dst.begin(), b.dst.end() - 1}};
  int64_t items = 1;
  for (int64_t d : outer.dims) items *= d;
  splitItems(items, n, [&](int64_t begin, int64_t end) {
    walk(outer.dims, outer.src, outer.dst, srcOffset, dstOffset, begin, end, [&](int64_t, int64_t s, int64_t t) {
      if (si == 1 && di == 1) {
        std::memcpy(to + t, from + s, size_t(n) * W);
      } else if (si == 0 && di == 1) {
        std::fill_n(to + t, n, from[s]);
      } else {
        for (int64_t j = 0; j < n; ++j) to[t + j * di] = from[s + j * si];
      }
    });
  });
}

template <size_t W>
void copyBoxOfWidth(const uint8_t* src, int64_t srcOffset, const std::vector<int64_t>& srcStrides, uint8_t* dst,
                    int64_t dstOffset, const std::vector<int64_t>& dstStrides, const std::vector<int64_t>& dims) {
  int64_t total = 1;
  for (int64_t d : dims) {
    if (d <= 0) return;
    total *= d;
  }
  if (total > kSmallBox) {
    copySimplified<W>(src, srcOffset, dst, dstOffset, simplifyBox(dims, srcStrides, dstStrides));
    return;
  }
  const size_t rank = dims.size();
  if (rank == 0) {
    std::memcpy(dst + dstOffset * W, src + srcOffset * W, W);
    return;
  }
  const int64_t si = srcStrides[rank - 1], di = dstStrides[rank - 1];
  walkRuns(dims, srcStrides, dstStrides, srcOffset, dstOffset, 0, total, [&](int64_t, int64_t n, int64_t s, int64_t t, const auto&) {
    if (si == 1 && di == 1) {
      std::memcpy(dst + t * W, src + s * W, size_t(n) * W);
    } else {
      const uint8_t* sp = src + s * W;
      uint8_t* dp = dst + t * W;
      for (int64_t j = 0; j < n; ++j) std::memcpy(dp + j * di * int64_t(W), sp + j * si * int64_t(W), W);
    }
  });
}

}  // namespace

void copyBox(const uint8_t* src, int64_t srcOffset, const std::vector<int64_t>& srcStrides, uint8_t* dst,
             int64_t dstOffset, const std::vector<int64_t>& dstStrides, const std::vector<int64_t>& dims,
             size_t width) {
  switch (width) {
    case 1: return copyBoxOfWidth<1>(src, srcOffset, srcStrides, dst, dstOffset, dstStrides, dims);
    case 2: return copyBoxOfWidth<2>(src, srcOffset, srcStrides, dst, dstOffset, dstStrides, dims);
    case 4: return copyBoxOfWidth<4>(src, srcOffset, srcStrides, dst, dstOffset, dstStrides, dims);
    case 8: return copyBoxOfWidth<8>(src, srcOffset, srcStrides, dst, dstOffset, dstStrides, dims);
  }
  fail("unsupported element width " + std::to_string(width), ErrorCode::Internal);
}

}  // namespace tpjrt::cpu
