// The GEMM driver: blocks C into cache-sized pieces (columns of B by nc, the contraction by kc, rows
// of A by mc), packs each piece of B, and of A unless it is small enough to read in place, into
// micro-panels, and runs the register-tiled micro-kernel over them. Threads take whole batch elements
// when there are enough of them; otherwise they first pack a block of B together, then take rectangles
// of C that each pack their own rows of A, so no operand is packed twice. Every element of C is summed
// in the same order (kc blocks in turn, each by the micro-kernel) however the work is split, so results
// do not depend on threads.
#include "gemm/gemm.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>

#include "base/cpu_features.h"
#include "base/error.h"
#include "base/thread_pool.h"
#include "gemm/microkernels.h"

namespace tpjrt::cpu {
namespace gemm_detail {
namespace {

// The portable kernel: a 4 × 4 tile of scalars that the compiler may vectorise for the baseline ISA.
#define GEMM_TARGET
template <class S>
struct Scalar {
  using T = S;
  using Reg = S;
  static constexpr int kLanes = 1;
  static Reg zero() { return S(0); }
  static Reg load(const T* p) { return *p; }
  static Reg loadu(const T* p) { return *p; }
  static void storeu(T* p, Reg r) { *p = r; }
  static Reg broadcast(const T* p) { return *p; }
  static Reg fma(Reg a, Reg b, Reg c) { return a * b + c; }
  static Reg add(Reg a, Reg b) { return a + b; }
  static Reg mul(Reg a, Reg b) { return a * b; }
};
#include "gemm/microkernel.inc"
#undef GEMM_TARGET

}  // namespace

MicroKernel<float> portableKernelF32() { return {4, 4, microKernel<Scalar<float>, 4, 4>, 128, 256, 4096, nullptr, panelOps<float>()}; }
MicroKernel<double> portableKernelF64() { return {4, 4, microKernel<Scalar<double>, 4, 4>, 64, 256, 4096, nullptr, panelOps<double>()}; }

}  // namespace gemm_detail

namespace {

using gemm_detail::MicroKernel;

bool cpuHas(GemmIsa isa) {
  if (isa == GemmIsa::Avx2) return cpuHasAvx2Fma();
  if (isa == GemmIsa::Avx512) return cpuHasAvx512f();
  return false;
}

template <class T> MicroKernel<T> kernelFor(GemmIsa isa);
template <> MicroKernel<float> kernelFor<float>(GemmIsa isa) {
  if (isa == GemmIsa::Avx512) return gemm_detail::avx512KernelF32();
  if (isa == GemmIsa::Avx2) return gemm_detail::avx2KernelF32();
  return gemm_detail::portableKernelF32();
}
template <> MicroKernel<double> kernelFor<double>(GemmIsa isa) {
  if (isa == GemmIsa::Avx512) return gemm_detail::avx512KernelF64();
  if (isa == GemmIsa::Avx2) return gemm_detail::avx2KernelF64();
  return gemm_detail::portableKernelF64();
}

}  // namespace

GemmIsa bestGemmIsa() {
  static const GemmIsa best = cpuHas(GemmIsa::Avx512) ? GemmIsa::Avx512
                              : cpuHas(GemmIsa::Avx2) ? GemmIsa::Avx2
                                                      : GemmIsa::Portable;
  return best;
}

namespace {

int64_t roundUp(int64_t x, int64_t to) { return (x + to - 1) / to * to; }
int64_t ceilDiv(int64_t x, int64_t y) { return (x + y - 1) / y; }

// Where piece `piece` of `pieces` starts when `length` elements, in whole units of `unit` (the last one
// maybe short), are spread evenly over the pieces; pieceStart(…, pieces) is `length`.
int64_t pieceStart(int64_t length, int64_t unit, int64_t pieces, int64_t piece) {
  return std::min(length, unit * (ceilDiv(length, unit) * piece / pieces));
}

template <class T>
struct Plan {
  MicroKernel<T> kernel;
  int64_t mc, kc, nc;
};

template <class T>
Plan<T> makePlan(const GemmOptions& options) {
  GemmIsa isa = options.isa == GemmIsa::Auto ? bestGemmIsa() : options.isa;
  if (!gemmIsaAvailable(isa)) fail(std::string("gemm: this CPU cannot run the ") + gemmIsaName(isa) + " path");
  MicroKernel<T> k = kernelFor<T>(isa);
  auto pick = [](int64_t wanted, int64_t fallback, int64_t unit) { return roundUp(wanted > 0 ? wanted : fallback, unit); };
  return {k, pick(options.mc, k.mc, k.mr), pick(options.kc, k.kc, 1), pick(options.nc, k.nc, k.nr)};
}

// Per-thread buffers, grown on demand and kept for the next product: slot 0 for a task's panels of A
// and its edge tile, slot 1 for B's panels (in gemmShared, the calling thread's, shared with its pool),
// slot 2 for a B micro-panel scaled back (see PanelScale).
template <class T, int Slot>
T* workspace(size_t elements) {
  thread_local std::unique_ptr<T[]> storage;
  thread_local size_t capacity = 0;
  constexpr size_t kAlign = 64 / sizeof(T);
  if (capacity < elements + kAlign) {
    capacity = elements + kAlign;
    storage.reset(new T[capacity]);
  }
  T* p = storage.get();
  return p + (kAlign - (reinterpret_cast<uintptr_t>(p) / sizeof(T)) % kAlign) % kAlign;
}

// Subnormal operands cost x86 cores a microcode assist in every multiply-add that reads one, and so do
// running sums that fall below the least normal float: a [1024, 256] · [256, 768] product with one
// element of B in a thousand subnormal ran 4× slower on the Intel VM of 2026-12-07 (MKL's too). A packed
// micro-panel holding a magnitude below √(least normal) is scaled in place by the power of two that
// brings its largest to 2^(maxExponent / 2 - 13), by 2^kMaxShift at most, and the kernel scales the sums
// back. Scaling by a power of two is exact, and every product and running sum is then the unscaled one
// times a power of two, so C gets the same bits, unless a running sum of the unscaled product would
// itself be subnormal (it is then rounded finer). A pair of panels whose running sums could overflow
// scaled (each is at most kc times the largest product) runs on their own values instead.
template <class T>
struct PanelScale {
  int shift = 0;   // the panel holds its values times 2^shift
  T maxAbs = -1;   // its largest magnitude (as held); -1 until needed
};

template <class T>
constexpr int kMaxShift = std::numeric_limits<T>::max_exponent / 2 - 4;  // 60 for float, 508 for double

// Whether a panel whose least nonzero magnitude is `least` (0: all zero) gets scaled.
template <class T>
bool holdsTiny(T least) {
  const T small = std::ldexp(T(1), (std::numeric_limits<T>::min_exponent - 1) / 2);
  return least != 0 && least < small;
}

template <class T>
PanelScale<T> scalePanel(const MicroKernel<T>& kernel, T* p, int64_t n) {
  const T least = kernel.panels.leastMagnitude(p, n);
  if (!holdsTiny(least)) return {};
  const T most = kernel.panels.largestMagnitude(p, n);
  const int shift = std::min(kMaxShift<T>, std::numeric_limits<T>::max_exponent / 2 - 13 - std::ilogb(most));
  if (!(most < std::numeric_limits<T>::infinity()) || shift <= 0) return {0, most};
  kernel.panels.scale(p, n, shift);
  return {shift, std::ldexp(most, shift)};
}

// Scales the NR-wide micro-panels of a packed block of B, `cols` columns × kc, as scalePanel does.
template <class T>
void scaleBPanels(const MicroKernel<T>& kernel, T* packed, int64_t cols, int64_t kc, PanelScale<T>* scales) {
  for (int64_t q = 0; q * kernel.nr < cols; ++q) scales[q] = scalePanel(kernel, packed + q * kernel.nr * kc, kernel.nr * kc);
}

// Packs rows × depth of `src` (element (r, p) at src[r * rowStride + p * depthStride]) into panels of
// W rows: panel q holds, for each p, the W values of rows q·W.., zero past the end. Reads run along
// whichever stride is 1, so both plain and transposed operands stream through memory.
template <int W, class T>
void packPanelsOf(T* dst, const T* src, int64_t rowStride, int64_t depthStride, int64_t rows, int64_t depth) {
  const int64_t full = rows / W * W;
  if (rowStride == 1 && depthStride != 1) {
    // W adjacent values per panel and depth step: one fixed-size copy, which compiles to vector moves
    // (an element loop here compiled to W scalar moves)
    for (int64_t p = 0; p < depth; ++p) {
      const T* s = src + p * depthStride;
      for (int64_t r0 = 0; r0 < full; r0 += W) std::memcpy(dst + r0 * depth + p * W, s + r0, sizeof(T) * W);
    }
  } else {
    for (int64_t r0 = 0; r0 < full; r0 += W) {
      const T* s = src + r0 * rowStride;
      T* d = dst + r0 * depth;
      for (int64_t p = 0; p < depth; ++p)
#pragma GCC unroll 32
        for (int i = 0; i < W; ++i) d[p * W + i] = s[i * rowStride + p * depthStride];
    }
  }
  if (full == rows) return;
  const int64_t w = rows - full;
  const T* s = src + full * rowStride;
  T* d = dst + full * depth;
  for (int64_t p = 0; p < depth; ++p)
    for (int64_t i = 0; i < W; ++i) d[p * W + i] = i < w ? s[i * rowStride + p * depthStride] : T(0);
}

template <class T>
void packPanels(const MicroKernel<T>& kernel, T* dst, const T* src, int64_t rowStride, int64_t depthStride,
                int64_t rows, int64_t depth, int width) {
  if (depthStride == 1 && kernel.packRows) return kernel.packRows(dst, src, rowStride, rows, depth, width);
  switch (width) {
    case 4: return packPanelsOf<4>(dst, src, rowStride, depthStride, rows, depth);
    case 6: return packPanelsOf<6>(dst, src, rowStride, depthStride, rows, depth);
    case 8: return packPanelsOf<8>(dst, src, rowStride, depthStride, rows, depth);
    case 16: return packPanelsOf<16>(dst, src, rowStride, depthStride, rows, depth);
    case 32: return packPanelsOf<32>(dst, src, rowStride, depthStride, rows, depth);
  }
  fail("gemm: no packing for panels of width " + std::to_string(width), ErrorCode::Internal);
}

// One matrix, one rectangle of C: c[i * cRow + j * cCol] = Σ_p a(i, p) b(p, j), then + add[i * addRow +
// j * addCol] when `add` is set (a separate rounding, as if added after the product).
template <class T>
struct Block {
  int64_t m, n, k;
  const T* a;
  int64_t aRow, aCol;
  const T* b;
  int64_t bRow, bCol;
  T* c;
  int64_t cRow, cCol;
  const T* add = nullptr;
  int64_t addRow = 0, addCol = 0;
};

template <class T>
void zeroFill(const Block<T>& x) {
  for (int64_t i = 0; i < x.m; ++i)
    for (int64_t j = 0; j < x.n; ++j)
      x.c[i * x.cRow + j * x.cCol] = x.add ? T(0) + x.add[i * x.addRow + j * x.addCol] : T(0);
}

// Packs columns [j0, j0 + cols) of B's rows [pc, pc + kc) into NR-wide panels at dst.
template <class T>
void packB(const Plan<T>& plan, const Block<T>& x, T* dst, int64_t j0, int64_t cols, int64_t pc, int64_t kc) {
  packPanels(plan.kernel, dst, x.b + pc * x.bRow + j0 * x.bCol, x.bCol, x.bRow, cols, kc, plan.kernel.nr);
}

// A block of A at most this large, contiguous along the contraction, is read in place by the
// micro-kernel instead of packed, when none of its values would be scaled (PanelScale): it stays in L1
// while every panel of B passes it. Attention's products (batches of [64, 64] · [64, 128] and the like)
// spent a sixth of their time packing A on the Intel VM of 2026-12-08. Larger blocks stay packed: read in
// place, their rows (often a power of two apart) crowd few L1 sets, and 1024³ ran slower.
constexpr int64_t kInPlaceABytes = int64_t(32) << 10;

// How many of the `rows` rows of the A block at `a` (kc deep, rows `aRow` apart, contiguous along the
// contraction) the micro-kernel reads in place: whole micro-panels, none if a value would be scaled.
template <class T>
int64_t rowsReadInPlace(const Plan<T>& plan, const Block<T>& x, const T* a, int64_t rows, int64_t kc) {
  const int64_t whole = rows / plan.kernel.mr * plan.kernel.mr;
  if (x.aCol != 1 || whole == 0 || rows * kc * int64_t(sizeof(T)) > kInPlaceABytes) return 0;
  if (x.aRow == kc) return holdsTiny(plan.kernel.panels.leastMagnitude(a, whole * kc)) ? 0 : whole;  // one run
  for (int64_t r = 0; r < whole; ++r)
    if (holdsTiny(plan.kernel.panels.leastMagnitude(a + r * x.aRow, kc))) return 0;
  return whole;
}

// The largest magnitude of `rows` rows of kc values, `stride` apart, as largestMagnitude orders them.
template <class T>
T largestOfRows(const MicroKernel<T>& kernel, const T* a, int64_t stride, int64_t rows, int64_t kc) {
  using U = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
  U most = 0;
  for (int64_t r = 0; r < rows; ++r) most = std::max(most, std::bit_cast<U>(kernel.panels.largestMagnitude(a + r * stride, kc)));
  return std::bit_cast<T>(most);
}

// Rows [i0, i0 + rows) × columns [j0, j0 + cols) of C get the product of A's columns [pc, pc + kc)
// with packedB (those columns of B, packed from j0, its micro-panels scaled as bScales says), added to
// C when pc > 0. j0 is a multiple of NR from the start of packedB's block.
template <class T>
void multiplyPacked(const Plan<T>& plan, const Block<T>& x, const T* packedB, const PanelScale<T>* bScales, int64_t i0,
                    int64_t rows, int64_t j0, int64_t cols, int64_t pc, int64_t kc) {
  const int MR = plan.kernel.mr, NR = plan.kernel.nr;
  T* packA = workspace<T, 0>(size_t(roundUp(plan.mc * kc, 16) + MR * NR));
  T* tile = packA + roundUp(plan.mc * kc, 16);
  thread_local std::vector<PanelScale<T>> aScales;
  aScales.resize(size_t(ceilDiv(plan.mc, MR)));
  const bool accumulate = pc > 0;
  const T* add = pc + kc == x.k ? x.add : nullptr;  // added once the last block is in
  const T limit = std::numeric_limits<T>::max() / T(2 * kc);
  for (int64_t ic = i0; ic < i0 + rows; ic += plan.mc) {
    const int64_t mc = std::min(plan.mc, i0 + rows - ic);
    const T* aBlock = x.a + ic * x.aRow + pc * x.aCol;
    const int64_t inPlace = rowsReadInPlace(plan, x, aBlock, mc, kc);  // the rest is packed
    for (int64_t ir = 0; ir < inPlace; ir += MR) aScales[size_t(ir / MR)] = {};
    if (inPlace < mc) {
      packPanels(plan.kernel, packA + inPlace * kc, aBlock + inPlace * x.aRow, x.aRow, x.aCol, mc - inPlace, kc, MR);
      for (int64_t ir = inPlace; ir < mc; ir += MR) aScales[size_t(ir / MR)] = scalePanel(plan.kernel, packA + ir * kc, MR * kc);
    }
    for (int64_t jr = 0; jr < cols; jr += NR) {
      const int64_t nr = std::min<int64_t>(NR, cols - jr);
      const T* bPanel = packedB + jr * kc;
      const PanelScale<T>& bScale = bScales[jr / NR];
      T bMost = bScale.maxAbs;
      const T* bOwn = nullptr;  // bPanel scaled back, once a pair needs it
      for (int64_t ir = 0; ir < mc; ir += MR) {
        const int64_t mr = std::min<int64_t>(MR, mc - ir);
        const bool readInPlace = ir < inPlace;
        T* aPanel = packA + ir * kc;  // when packed
        const T* a = readInPlace ? aBlock + ir * x.aRow : aPanel;
        const int64_t lda = readInPlace ? x.aRow : 0;
        const T* b = bPanel;
        PanelScale<T>& aScale = aScales[size_t(ir / MR)];
        int shift = aScale.shift + bScale.shift;
        if (shift > 0) {
          if (aScale.maxAbs < 0)
            aScale.maxAbs = readInPlace ? largestOfRows(plan.kernel, a, lda, MR, kc)
                                        : plan.kernel.panels.largestMagnitude(aPanel, MR * kc);
          if (bMost < 0) bMost = plan.kernel.panels.largestMagnitude(bPanel, NR * kc);
          if (!(double(aScale.maxAbs) * double(bMost) < double(limit))) {
            // values large enough to overflow when scaled: this pair runs on the panels' own values
            if (aScale.shift > 0) {
              plan.kernel.panels.scale(aPanel, MR * kc, -aScale.shift);
              aScale = {0, std::ldexp(aScale.maxAbs, -aScale.shift)};
            }
            if (bScale.shift > 0 && !bOwn) {
              T* copy = workspace<T, 2>(size_t(NR * kc));
              std::copy(bPanel, bPanel + NR * kc, copy);
              plan.kernel.panels.scale(copy, NR * kc, -bScale.shift);
              bOwn = copy;
            }
            if (bScale.shift > 0) b = bOwn;
            shift = 0;
          }
        }
        const T scale = shift == 0 ? T(1) : std::ldexp(T(1), -shift);
        T* c = x.c + (ic + ir) * x.cRow + (j0 + jr) * x.cCol;
        const T* addTile = add ? add + (ic + ir) * x.addRow + (j0 + jr) * x.addCol : nullptr;
        // The kernel adds one row to every row of its tile; a transposed product's add (one value per
        // row) goes through the edge path below.
        if (mr == MR && nr == NR && x.cCol == 1 && (!addTile || (x.addRow == 0 && x.addCol == 1))) {
          plan.kernel.run(kc, a, lda, b, c, x.cRow, accumulate, addTile, scale);
          continue;
        }
        plan.kernel.run(kc, a, lda, b, tile, NR, false, nullptr, scale);
        for (int64_t i = 0; i < mr; ++i)
          for (int64_t j = 0; j < nr; ++j) {
            T& out = c[i * x.cRow + j * x.cCol];
            out = accumulate ? out + tile[i * NR + j] : tile[i * NR + j];
            if (addTile) out += addTile[i * x.addRow + j * x.addCol];
          }
      }
    }
  }
}

// The whole block on this thread.
template <class T>
void gemmBlock(const Plan<T>& plan, const Block<T>& x) {
  if (x.m <= 0 || x.n <= 0) return;
  if (x.k == 0) return zeroFill(x);
  T* packedB = workspace<T, 1>(size_t(roundUp(plan.nc, plan.kernel.nr) * std::min(plan.kc, x.k)));
  thread_local std::vector<PanelScale<T>> bScales;
  bScales.resize(size_t(ceilDiv(plan.nc, plan.kernel.nr)));
  for (int64_t jc = 0; jc < x.n; jc += plan.nc) {
    const int64_t nc = std::min(plan.nc, x.n - jc);
    for (int64_t pc = 0; pc < x.k; pc += plan.kc) {
      const int64_t kc = std::min(plan.kc, x.k - pc);
      packB(plan, x, packedB, jc, nc, pc, kc);
      scaleBPanels(plan.kernel, packedB, nc, kc, bScales.data());
      multiplyPacked(plan, x, packedB, bScales.data(), 0, x.m, jc, nc, pc, kc);
    }
  }
}

// Operands of at most this many bytes are fetched ahead in a batch of products (gemm's batch path):
// in a model they were mostly written a moment ago by other ops, on either core. Attention's products
// in the W7 step (batches of 32 [64, 64] · [64, 128] and the like) took 10.4-10.5 ms a step without and
// 8.8-9.0 with it on the Intel VM of 2026-12-07 (2 threads); small enough to stay in L2 with the
// product being computed.
constexpr int64_t kPrefetchOperandBytes = int64_t(64) << 10;

// Asks for `rows` × `cols` of x (strides in elements) to be brought to L2, when it is small and one of
// its strides is 1.
template <class T>
void prefetchMatrix(const T* x, int64_t rows, int64_t cols, int64_t rowStride, int64_t colStride) {
  if (colStride != 1) std::swap(rows, cols), std::swap(rowStride, colStride);
  if (colStride != 1 || rows * cols * int64_t(sizeof(T)) > kPrefetchOperandBytes) return;
  constexpr int64_t kLine = 64 / int64_t(sizeof(T));
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; j += kLine) __builtin_prefetch(x + i * rowStride + j, 0, 2);
}

template <class T>
void prefetchOperands(const Block<T>& x) {
  prefetchMatrix(x.a, x.m, x.k, x.aRow, x.aCol);
  prefetchMatrix(x.b, x.k, x.n, x.bRow, x.bCol);
}

constexpr int64_t kTasksPerThread = 2;

// Products of at most this many rows split their columns between the threads, whatever the row block
// (mc): the shared rounds of B (gemmShared) cost more than packing A on every task. On the Intel VM of
// 2026-12-07, 2 threads: 128×784×512 (x·Wᵀ) 186 -> 249 GFLOP/s, 128×512×512 215 -> 256, 256×784×512
// 231 -> 264, 512×784×512 259 -> 271; from 1024 rows on, both ways ran alike (1024³, 2048³, 4096×1024×1024).
constexpr int64_t kColumnSplitRows = 512;

// Packed B up to this many elements (1 MiB of float) is packed for the whole contraction at once:
// fewer rounds on the pool for the small products of a model. Beyond it, one kc block at a time, so
// that the block stays in cache between packing and use (2048³: 90-135 -> 126-162 GFLOP/s).
constexpr int64_t kPackWholeDepth = int64_t(1) << 18;

// The whole block on the pool, in about `tasks` pieces: for each round of B's panels (the whole
// contraction of nc columns, or one kc block of them), all threads pack the panels together, then
// rectangles of C (rows first, columns only when the rows run out) multiply them, each packing its own
// rows of A.
template <class T>
void gemmShared(const Plan<T>& plan, const Block<T>& x, ThreadPool& pool, int64_t tasks) {
  if (x.m <= 0 || x.n <= 0) return;
  if (x.k == 0) return zeroFill(x);
  const int64_t MR = plan.kernel.mr, NR = plan.kernel.nr;
  const int64_t ncMax = std::min(plan.nc, x.n);
  const int64_t depth = roundUp(ncMax, NR) * x.k <= kPackWholeDepth ? x.k : std::min(plan.kc, x.k);  // per round
  T* packed = workspace<T, 1>(size_t(roundUp(ncMax, NR) * depth));
  std::vector<PanelScale<T>> scales;  // per kc block of a round, per micro-panel of B
  // Row pieces of at most mc rows (and at least 4 micro-tiles), the micro-tiles spread evenly.
  const int64_t mPieces = std::clamp(std::max(tasks, ceilDiv(x.m, plan.mc)), int64_t(1), std::max<int64_t>(1, x.m / (4 * MR)));
  auto rowStart = [&](int64_t piece) { return pieceStart(x.m, MR, mPieces, piece); };
  for (int64_t jc = 0; jc < x.n; jc += ncMax) {
    const int64_t nc = std::min(ncMax, x.n - jc), width = roundUp(nc, NR), panels = width / NR;
    const int64_t nPieces = std::clamp(ceilDiv(tasks, mPieces), int64_t(1), std::max<int64_t>(1, nc / (4 * NR)));
    auto colStart = [&](int64_t piece) { return pieceStart(nc, NR, nPieces, piece); };
    for (int64_t p0 = 0; p0 < x.k; p0 += depth) {
      const int64_t p1 = std::min(x.k, p0 + depth), kBlocks = ceilDiv(p1 - p0, plan.kc);
      // The kc block at pc starts at packed + (pc - p0) · width.
      const int64_t packParts = std::clamp(ceilDiv(tasks, kBlocks), int64_t(1), panels);
      scales.resize(size_t(kBlocks * panels));
      pool.parallelFor(kBlocks * packParts, [&](int64_t t) {
        const int64_t block = t / packParts, pc = p0 + block * plan.kc, kc = std::min(plan.kc, p1 - pc), part = t % packParts;
        const int64_t j0 = pieceStart(nc, NR, packParts, part), j1 = pieceStart(nc, NR, packParts, part + 1);
        T* dst = packed + (pc - p0) * width + j0 * kc;
        packB(plan, x, dst, jc + j0, j1 - j0, pc, kc);
        scaleBPanels(plan.kernel, dst, j1 - j0, kc, scales.data() + block * panels + j0 / NR);
      });
      pool.parallelFor(mPieces * nPieces, [&](int64_t t) {
        const int64_t i0 = rowStart(t / nPieces), j0 = colStart(t % nPieces);
        const int64_t rows = rowStart(t / nPieces + 1) - i0, cols = colStart(t % nPieces + 1) - j0;
        for (int64_t pc = p0; pc < p1; pc += plan.kc) {
          const int64_t kc = std::min(plan.kc, p1 - pc);
          const PanelScale<T>* bScales = scales.data() + (pc - p0) / plan.kc * panels + j0 / NR;
          multiplyPacked(plan, x, packed + (pc - p0) * width + j0 * kc, bScales, i0, rows, jc + j0, cols, pc, kc);
        }
      });
    }
  }
}

}  // namespace

bool gemmIsaAvailable(GemmIsa isa) {
  return isa == GemmIsa::Auto || isa == GemmIsa::Portable || cpuHas(isa);
}

const char* gemmIsaName(GemmIsa isa) {
  switch (isa) {
    case GemmIsa::Auto: return "auto";
    case GemmIsa::Portable: return "portable";
    case GemmIsa::Avx2: return "avx2+fma";
    case GemmIsa::Avx512: return "avx512f";
  }
  return "?";
}

template <class T>
void gemm(int64_t m, int64_t n, int64_t k, const StridedMatrices<T>& a, const StridedMatrices<T>& b, T* c,
          ThreadPool* pool, const GemmOptions& options, const T* rowAdd) {
  const int64_t batch = int64_t(a.batchOffsets.size());
  if (int64_t(b.batchOffsets.size()) != batch) fail("gemm: lhs and rhs batch sizes differ", ErrorCode::Internal);
  if (batch == 0 || m == 0 || n == 0) return;
  Plan<T> plan = makePlan<T>(options);

  // A few columns and many rows: compute Cᵀ = Bᵀ·Aᵀ instead, so the narrow side pads the short
  // (row) side of the micro-tile rather than the wide one.
  const bool swap = n < plan.kernel.nr && m > n;
  Block<T> shape{m, n, k, a.data, a.rowStride, a.colStride, b.data, b.rowStride, b.colStride, c, n, 1, rowAdd, 0, 1};
  if (swap) shape = {n, m, k, b.data, b.colStride, b.rowStride, a.data, a.colStride, a.rowStride, c, 1, n, rowAdd, 1, 0};
  // Narrower than a block of B: deeper blocks while kc × columns stays within the kernel's kc × nc, so
  // that C is read and written fewer times.
  if (options.kc == 0 && plan.kernel.kcMax > plan.kc)
    plan.kc = std::clamp(plan.kc * plan.nc / roundUp(shape.n, plan.kernel.nr), plan.kc, plan.kernel.kcMax);
  // Blocks of equal depth: 784 as 4 × 196 rather than 3 × 256 + 16, whose thin last block would
  // read and write all of C for little work.
  if (k > 0) plan.kc = std::min(plan.kc, roundUp(ceilDiv(k, ceilDiv(k, plan.kc)), 8));
  const std::vector<int64_t>& aOffsets = swap ? b.batchOffsets : a.batchOffsets;
  const std::vector<int64_t>& bOffsets = swap ? a.batchOffsets : b.batchOffsets;
  auto blockOf = [&](int64_t p) {
    Block<T> x = shape;
    x.a += aOffsets[size_t(p)];
    x.b += bOffsets[size_t(p)];
    x.c += p * m * n;
    return x;
  };

  const int64_t flops = 2 * batch * m * n * std::max<int64_t>(k, 1);
  const int64_t minParallel = options.minParallelFlops > 0 ? options.minParallelFlops : kGemmMinParallelFlops;
  const int64_t columnSplitRows = options.columnSplitRows > 0 ? options.columnSplitRows : kColumnSplitRows;
  const int threads = pool ? pool->size() : 1;
  if (threads == 1 || flops < minParallel) {
    for (int64_t p = 0; p < batch; ++p) gemmBlock(plan, blockOf(p));
    return;
  }
  // Whole batch elements per thread when there are enough of them to keep every thread busy: each
  // takes a run of them and asks for the next one's operands while it multiplies the current one.
  const int64_t tasks = threads * kTasksPerThread;
  if (batch >= tasks) {
    pool->parallelFor(threads, [&](int64_t t) {
      const int64_t first = batch * t / threads, last = batch * (t + 1) / threads;
      for (int64_t p = first; p < last; ++p) {
        if (p + 1 < last) prefetchOperands(blockOf(p + 1));
        gemmBlock(plan, blockOf(p));
      }
    });
    return;
  }
  for (int64_t p = 0; p < batch; ++p) {
    const Block<T> x = blockOf(p);
    // Few rows (a batch of 128 against a weight matrix): each task takes its own columns and packs
    // only those of B, which then stay in its core's cache; A is small enough to pack on every task.
    if (x.m <= std::max(plan.mc, columnSplitRows) && x.n >= threads * 4 * plan.kernel.nr) {
      pool->parallelFor(threads, [&](int64_t t) {
        const int64_t j0 = pieceStart(x.n, plan.kernel.nr, threads, t), j1 = pieceStart(x.n, plan.kernel.nr, threads, t + 1);
        Block<T> part = x;
        part.n = j1 - j0;
        part.b += j0 * x.bCol;
        part.c += j0 * x.cCol;
        if (part.add) part.add += j0 * x.addCol;
        gemmBlock(plan, part);
      });
      continue;
    }
    gemmShared(plan, x, *pool, tasks);
  }
}

template void gemm<float>(int64_t, int64_t, int64_t, const StridedMatrices<float>&, const StridedMatrices<float>&,
                          float*, ThreadPool*, const GemmOptions&, const float*);
template void gemm<double>(int64_t, int64_t, int64_t, const StridedMatrices<double>&, const StridedMatrices<double>&,
                           double*, ThreadPool*, const GemmOptions&, const double*);

}  // namespace tpjrt::cpu
