// General matrix multiply for the CPU plugin's float dot_general: C[b] = A[b] · B[b] for a batch of
// strided matrices, into a row-major, batch-contiguous C. Operands are read in place through their
// strides (packing into cache-sized panels copies what the micro-kernel needs, so transposed operands
// cost nothing extra). Big products are split over the thread pool; small ones stay on this thread.
#pragma once

#include <cstdint>
#include <vector>

namespace tpjrt::cpu {

class ThreadPool;

// Element (i, j) of matrix b is data[batchOffsets[b] + i * rowStride + j * colStride].
template <class T>
struct StridedMatrices {
  const T* data = nullptr;
  int64_t rowStride = 0, colStride = 0;
  std::vector<int64_t> batchOffsets;  // one per batch element
};

// Instruction-set paths for the micro-kernel; Auto picks the widest the CPU runs.
enum class GemmIsa { Auto, Portable, Avx2, Avx512 };
bool gemmIsaAvailable(GemmIsa isa);
GemmIsa bestGemmIsa();  // what Auto picks on this CPU
const char* gemmIsaName(GemmIsa isa);

// Overrides for tests; 0 keeps the default. Block sizes are rounded to the micro-tile.
struct GemmOptions {
  GemmIsa isa = GemmIsa::Auto;
  int64_t mc = 0, kc = 0, nc = 0;   // cache blocks of rows of A, the contraction, columns of B
  int64_t minParallelFlops = 0;     // below this (2·batch·m·n·k) everything runs on the caller
  int64_t columnSplitRows = 0;      // at most this many rows (or mc): threads split the columns
};

// Products smaller than this run on the calling thread (waking workers costs more than they save).
constexpr int64_t kGemmMinParallelFlops = int64_t(1) << 22;

// c: batch × m × n, row-major; a: m × k per batch element; b: k × n. `pool` may be null. With `rowAdd`
// (n values), every row of every product then gets it added, rounded as a separate add would round,
// while the tile is still in cache (a linear layer's bias).
template <class T>
void gemm(int64_t m, int64_t n, int64_t k, const StridedMatrices<T>& a, const StridedMatrices<T>& b, T* c,
          ThreadPool* pool, const GemmOptions& options = {}, const T* rowAdd = nullptr);

extern template void gemm<float>(int64_t, int64_t, int64_t, const StridedMatrices<float>&,
                                 const StridedMatrices<float>&, float*, ThreadPool*, const GemmOptions&, const float*);
extern template void gemm<double>(int64_t, int64_t, int64_t, const StridedMatrices<double>&,
                                  const StridedMatrices<double>&, double*, ThreadPool*, const GemmOptions&,
                                  const double*);

}  // namespace tpjrt::cpu
