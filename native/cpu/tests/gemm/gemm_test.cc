// The GEMM (gemm/gemm.h) on every micro-kernel path this CPU runs, with 1 and several threads, against a
// naive double-precision product: odd sizes, 1×N and N×1, k = 0, batches, transposed and padded
// operands, and sizes on each side of every blocking and threading threshold. Then float
// dot_general through the interpreter (dimension orders that read in place and ones that need a
// copy, f16/bf16/f64), and the thread pool itself.
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "base/thread_pool.h"
#include "check.h"
#include "exec/interpreter.h"
#include "gemm/gemm.h"
#include "gemm/microkernels.h"
#include "ir/element_type.h"
#include "ir/stablehlo.h"
#include "pjrt/client.h"
#include "pjrt_c_api.h"
#include "tests/test_modules.h"

using namespace tpjrt::cpu;
using namespace tpjrt::cpu::test;

namespace {

struct Shape {
  int64_t m, n, k;
};

// One operand of `batch` matrices rows × cols, stored transposed or not, with `pad` unused elements
// after each stored row, and its batch elements in reverse order in memory.
template <class T>
struct Operand {
  std::vector<T> storage;
  StridedMatrices<T> view;
  std::vector<std::vector<double>> values;  // [batch][r * cols + c]

  Operand(std::mt19937& rng, int64_t batch, int64_t rows, int64_t cols, bool transposed, int64_t pad) {
    const int64_t outer = transposed ? cols : rows, inner = (transposed ? rows : cols) + pad;
    const int64_t each = outer * inner + 3;
    storage.assign(size_t(batch * each), std::numeric_limits<T>::quiet_NaN());  // padding is never read
    std::uniform_real_distribution<double> dist(-1, 1);
    view.rowStride = transposed ? 1 : inner;
    view.colStride = transposed ? inner : 1;
    for (int64_t b = 0; b < batch; ++b) {
      const int64_t offset = (batch - 1 - b) * each + 1;
      view.batchOffsets.push_back(offset);
      values.emplace_back(size_t(rows * cols));
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c) {
          const T v = T(dist(rng));
          storage[size_t(offset + r * view.rowStride + c * view.colStride)] = v;
          values[size_t(b)][size_t(r * cols + c)] = double(v);
        }
    }
    view.data = storage.data();
  }
};

template <class T>
void checkProduct(const char* what, const Shape& s, int64_t batch, bool ta, bool tb, int64_t pad, ThreadPool* pool,
                  const GemmOptions& options) {
  std::mt19937 rng(uint32_t(s.m * 7919 + s.n * 131 + s.k * 17 + batch));
  Operand<T> a(rng, batch, s.m, s.k, ta, pad), b(rng, batch, s.k, s.n, tb, pad);
  std::vector<T> c(size_t(batch * s.m * s.n), std::numeric_limits<T>::quiet_NaN());  // must be overwritten
  gemm<T>(s.m, s.n, s.k, a.view, b.view, c.data(), pool, options);
  int bad = 0;
  for (int64_t p = 0; p < batch; ++p)
    for (int64_t i = 0; i < s.m; ++i)
      for (int64_t j = 0; j < s.n; ++j) {
        double want = 0, magnitude = 0;
        for (int64_t q = 0; q < s.k; ++q) {
          const double x = a.values[size_t(p)][size_t(i * s.k + q)] * b.values[size_t(p)][size_t(q * s.n + j)];
          want += x;
          magnitude += std::fabs(x);
        }
        const double got = double(c[size_t((p * s.m + i) * s.n + j)]);
        const double tol = 2.0 * double(s.k + 1) * std::numeric_limits<T>::epsilon() * magnitude + 1e-300;
        if (!(std::fabs(got - want) <= tol) && bad++ < 3) {
          ::tpjrt::test::report(__FILE__, __LINE__,
                                std::string(what) + " " + gemmIsaName(options.isa) + " m=" + std::to_string(s.m) +
                                    " n=" + std::to_string(s.n) + " k=" + std::to_string(s.k) +
                                    " batch=" + std::to_string(batch) + " ta=" + std::to_string(ta) +
                                    " tb=" + std::to_string(tb) + " threads=" + std::to_string(pool ? pool->size() : 1) +
                                    ": C[" + std::to_string(p) + "," + std::to_string(i) + "," + std::to_string(j) +
                                    "] = " + std::to_string(got) + ", want " + std::to_string(want));
        }
      }
}

std::vector<GemmIsa> isas() {
  std::vector<GemmIsa> out;
  for (GemmIsa isa : {GemmIsa::Portable, GemmIsa::Avx2, GemmIsa::Avx512})
    if (gemmIsaAvailable(isa)) out.push_back(isa);
  return out;
}

// Shapes around the micro-tiles (4, 6, 8, 16, 32) and the degenerate ones.
const std::vector<Shape> kSmallShapes = {
    {1, 1, 1},   {1, 1, 0},   {3, 5, 0},  {1, 17, 9},  {17, 1, 9},  {1, 1, 40},  {2, 3, 4},   {5, 7, 3},
    {6, 16, 8},  {7, 17, 5},  {5, 15, 2}, {12, 32, 1}, {13, 33, 7}, {8, 8, 8},   {9, 31, 11}, {33, 3, 10},
    {3, 33, 10}, {4, 64, 65}, {40, 2, 3}, {2, 40, 3},  {25, 49, 19}};

template <class T>
void smallShapesEverywhere(const char* what) {
  ThreadPool three(3);
  for (GemmIsa isa : isas())
    for (ThreadPool* pool : {static_cast<ThreadPool*>(nullptr), &three})
      for (const Shape& s : kSmallShapes)
        for (int t = 0; t < 4; ++t) {
          GemmOptions options;
          options.isa = isa;
          options.minParallelFlops = 1;  // split even these small products when a pool is given
          checkProduct<T>(what, s, 1, t & 1, t & 2, 0, pool, options);
          checkProduct<T>(what, s, 3, t & 1, t & 2, t >= 2 ? 5 : 0, pool, options);
        }
}

// Small cache blocks, so that every edge of the mc / kc / nc loops is crossed with small matrices.
template <class T>
void blockEdges(const char* what) {
  ThreadPool two(2);
  for (GemmIsa isa : isas()) {
    GemmOptions options;
    options.isa = isa;
    options.mc = 24;
    options.kc = 8;
    options.nc = 64;
    options.minParallelFlops = 1;
    for (int64_t m : {23, 24, 25, 49})
      for (int64_t k : {7, 8, 9, 17})
        for (int64_t n : {63, 64, 65, 129})
          for (ThreadPool* pool : {static_cast<ThreadPool*>(nullptr), &two})
            checkProduct<T>(what, {m, n, k}, 2, (m + k) % 2 == 1, n % 2 == 1, 1, pool, options);
  }
}

// C for one product, computed with `pool` (values are the same whatever the pool).
template <class T>
std::vector<T> productWith(const Shape& s, int64_t batch, bool ta, bool tb, int64_t pad, ThreadPool* pool,
                           const GemmOptions& options) {
  std::mt19937 rng(uint32_t(s.m * 31 + s.n * 7 + s.k));
  Operand<T> a(rng, batch, s.m, s.k, ta, pad), b(rng, batch, s.k, s.n, tb, pad);
  std::vector<T> c(size_t(batch * s.m * s.n));
  gemm<T>(s.m, s.n, s.k, a.view, b.view, c.data(), pool, options);
  return c;
}

// Every split (one thread, whole batch elements, shared B panels with row and column pieces) sums
// each element of C in the same order, so the bits agree across thread counts.
template <class T>
void threadCountsAgree(const char* what) {
  ThreadPool two(2), three(3), five(5);
  struct Case {
    Shape s;
    int64_t batch;
    int64_t mc, kc, nc;
  };
  const std::vector<Case> cases = {
      {{150, 70, 300}, 1, 0, 0, 0},    {{1000, 40, 50}, 2, 0, 0, 0},  {{30, 500, 90}, 1, 0, 0, 0},
      {{7, 300, 41}, 3, 0, 0, 0},      {{64, 64, 64}, 9, 0, 0, 0},    {{97, 131, 45}, 2, 24, 8, 64},
      {{13, 260, 33}, 1, 24, 16, 48},  {{300, 5, 70}, 1, 0, 0, 0},   {{200, 256, 1100}, 1, 0, 0, 0}};
  for (GemmIsa isa : isas())
    for (const Case& x : cases)
      for (int t = 0; t < 4; ++t) {
        GemmOptions options;
        options.isa = isa;
        options.mc = x.mc;
        options.kc = x.kc;
        options.nc = x.nc;
        options.minParallelFlops = 1;
        const bool ta = t & 1, tb = t & 2;
        const std::vector<T> one = productWith<T>(x.s, x.batch, ta, tb, 2, nullptr, options);
        for (ThreadPool* pool : {&two, &three, &five}) {
          const std::vector<T> many = productWith<T>(x.s, x.batch, ta, tb, 2, pool, options);
          if (std::memcmp(one.data(), many.data(), one.size() * sizeof(T)) != 0)
            ::tpjrt::test::report(__FILE__, __LINE__,
                                  std::string(what) + " " + gemmIsaName(isa) + " m=" + std::to_string(x.s.m) +
                                      " n=" + std::to_string(x.s.n) + " k=" + std::to_string(x.s.k) +
                                      " ta=" + std::to_string(ta) + " tb=" + std::to_string(tb) + ": " +
                                      std::to_string(pool->size()) + " threads differ from one");
        }
      }
}

}  // namespace

TEST(gemm_f32_bit_identical_for_every_thread_count) { threadCountsAgree<float>("f32"); }
TEST(gemm_f64_bit_identical_for_every_thread_count) { threadCountsAgree<double>("f64"); }

TEST(gemm_shared_panels_split_over_threads) {
  // Batches smaller than the task count share B's panels: row pieces, column pieces when the rows
  // run out, remainder tiles, transposed operands. Few rows (m <= columnSplitRows): each thread takes
  // its own columns, over several nc blocks when k is large enough to shrink nc.
  ThreadPool two(2), three(3), five(5);
  GemmOptions smallRowBlocks;
  smallRowBlocks.mc = 24;
  smallRowBlocks.columnSplitRows = 24;
  for (ThreadPool* pool : {&two, &three, &five})
    for (int t = 0; t < 4; ++t) {
      const bool ta = t & 1, tb = t & 2;
      checkProduct<float>("f32 shared rows", {301, 77, 130}, 1, ta, tb, 3, pool, {});
      checkProduct<float>("f32 shared columns", {50, 700, 64}, 1, ta, tb, 0, pool, smallRowBlocks);
      checkProduct<float>("f32 columns per thread", {10, 700, 64}, 2, ta, tb, 0, pool, {});
      checkProduct<float>("f32 columns per thread, nc blocks", {9, 2100, 1030}, 1, ta, tb, 1, pool, {});
      checkProduct<double>("f64 shared rows", {151, 45, 90}, 3, ta, tb, 2, pool, {});
    }
}

// With a row to add, C is bit for bit the product with the row added afterwards: every ISA, with and
// without a pool, at micro-tile and cache-block edges, and for the transposed product (few columns).
template <class T>
void rowAddEqualsSeparateAdd(const char* what) {
  ThreadPool three(3);
  std::vector<Shape> shapes = kSmallShapes;
  for (Shape s : {Shape{49, 129, 17}, Shape{130, 300, 20}, Shape{64, 5, 30}, Shape{200, 64, 600}}) shapes.push_back(s);
  for (GemmIsa isa : isas())
    for (ThreadPool* pool : {static_cast<ThreadPool*>(nullptr), &three})
      for (bool smallBlocks : {false, true})
        for (const Shape& s : shapes) {
          GemmOptions options;
          options.isa = isa;
          options.minParallelFlops = 1;
          if (smallBlocks) options.mc = 24, options.kc = 8, options.nc = 64;
          std::mt19937 rng(uint32_t(s.m * 3 + s.n * 5 + s.k * 7));
          Operand<T> a(rng, 2, s.m, s.k, false, 0), b(rng, 2, s.k, s.n, s.n % 2 == 1, 0);
          std::vector<T> row(size_t(s.n));
          for (auto& v : row) v = T(std::uniform_real_distribution<double>(-1, 1)(rng));
          std::vector<T> separate(size_t(2 * s.m * s.n)), fused(separate.size());
          gemm<T>(s.m, s.n, s.k, a.view, b.view, separate.data(), pool, options);
          for (size_t e = 0; e < separate.size(); ++e) separate[e] += row[e % size_t(s.n)];
          gemm<T>(s.m, s.n, s.k, a.view, b.view, fused.data(), pool, options, row.data());
          if (std::memcmp(separate.data(), fused.data(), separate.size() * sizeof(T)) != 0)
            ::tpjrt::test::report(__FILE__, __LINE__, std::string(what) + " " + gemmIsaName(isa) + " m=" + std::to_string(s.m) +
                                                          " n=" + std::to_string(s.n) + " k=" + std::to_string(s.k) +
                                                          (pool ? " on a pool" : "") + (smallBlocks ? " small blocks" : ""));
        }
}

TEST(gemm_f32_row_add_equals_the_separate_add) { rowAddEqualsSeparateAdd<float>("f32"); }
TEST(gemm_f64_row_add_equals_the_separate_add) { rowAddEqualsSeparateAdd<double>("f64"); }

TEST(gemm_f32_small_shapes_every_isa_and_thread_count) { smallShapesEverywhere<float>("f32"); }
TEST(gemm_f64_small_shapes_every_isa_and_thread_count) { smallShapesEverywhere<double>("f64"); }
TEST(gemm_f32_cache_block_edges) { blockEdges<float>("f32 blocks"); }
TEST(gemm_f64_cache_block_edges) { blockEdges<double>("f64 blocks"); }

TEST(gemm_default_block_edges) {
  // The default blocks (kc 1024 or 256, mc 144/72, nc ≈ 4080) crossed by one, on the best path, and
  // the deeper kc of narrow products (kcMax 1024 where B's block is 256 × 1024) crossed by one.
  ThreadPool two(2);
  for (ThreadPool* pool : {static_cast<ThreadPool*>(nullptr), &two}) {
    checkProduct<float>("f32 kc edge", {13, 21, 257}, 1, false, false, 0, pool, {});
    checkProduct<float>("f32 kc edge", {13, 21, 1025}, 1, false, false, 0, pool, {});
    checkProduct<float>("f32 mc edge", {145, 17, 5}, 1, false, true, 0, pool, {});
    checkProduct<double>("f64 mc edge", {73, 9, 5}, 1, true, false, 0, pool, {});
    checkProduct<float>("f32 nc edge", {3, 4097, 2}, 1, false, false, 0, pool, {});
    checkProduct<double>("f64 kc edge", {7, 9, 513}, 1, false, true, 0, pool, {});
    checkProduct<float>("f32 narrow kc edge", {70, 256, 1025}, 1, true, false, 0, pool, {});
    checkProduct<float>("f32 narrow kc edge", {70, 520, 513}, 1, false, true, 0, pool, {});
  }
}

TEST(gemm_parallel_threshold_edges) {
  // Just below, at and above kGemmMinParallelFlops (2·m·n·k), with the default threshold.
  ThreadPool two(2);
  const int64_t half = kGemmMinParallelFlops / 2;  // m·n·k at the threshold
  for (int64_t k : {half / (64 * 64) - 1, half / (64 * 64), half / (64 * 64) + 1}) {
    checkProduct<float>("f32 threshold", {64, 64, k}, 1, false, false, 0, &two, {});
    checkProduct<double>("f64 threshold", {64, 64, k}, 1, false, true, 0, &two, {});
  }
  checkProduct<float>("f32 many batches", {20, 30, 40}, 64, false, false, 0, &two, {});
  checkProduct<float>("f32 big, threaded", {200, 301, 150}, 1, true, false, 0, &two, {});
}

TEST(gemm_keeps_nan_and_inf_of_the_operands) {
  std::vector<float> a = {1, std::numeric_limits<float>::infinity(), 0, 2};
  std::vector<float> b = {1, 0, std::numeric_limits<float>::quiet_NaN(), 1};
  std::vector<float> c(4, 7.0f);
  StridedMatrices<float> av{a.data(), 2, 1, {0}}, bv{b.data(), 2, 1, {0}};
  for (GemmIsa isa : isas()) {
    GemmOptions options;
    options.isa = isa;
    gemm<float>(2, 2, 2, av, bv, c.data(), nullptr, options);
    CHECK(std::isnan(c[0]));  // 1·1 + inf·NaN
    CHECK(std::isinf(c[1]) && c[1] > 0);  // 1·0 + inf·1
    CHECK(std::isnan(c[2]));  // 0·1 + 2·NaN
    CHECK_EQ(c[3], 2.0f);     // 0·0 + 2·1
  }
}

template <class T>
constexpr T kTiny = std::numeric_limits<T>::denorm_min() * T(977);  // subnormal
template <class T>
constexpr int kUp = sizeof(T) == 4 ? 100 : 600;  // scales kTiny to a normal value

template <class T>
std::string exact(T v) {
  char text[40];
  std::snprintf(text, sizeof text, "%a", double(v));
  return text;
}

// C = a · b, one of them (b when `tinyB`) holding tiny values, against the product with that operand
// times 2^kUp, whose least magnitudes are then too large to be scaled, scaled back by 2^-kUp: both are
// exact, so the bits must agree.
template <class T>
void checkScaledBack(const std::string& what, const Shape& s, int64_t batch, const Operand<T>& a, const Operand<T>& b,
                     bool tinyB, GemmIsa isa, ThreadPool* pool) {
  std::vector<T> big((tinyB ? b : a).storage);
  for (T& v : big) v = std::ldexp(v, kUp<T>);
  StridedMatrices<T> av = a.view, bv = b.view;
  (tinyB ? bv : av).data = big.data();
  GemmOptions options;
  options.isa = isa;
  options.minParallelFlops = 1;
  std::vector<T> got(size_t(batch * s.m * s.n)), want(got.size());
  gemm<T>(s.m, s.n, s.k, a.view, b.view, got.data(), pool, options);
  gemm<T>(s.m, s.n, s.k, av, bv, want.data(), pool, options);
  int bad = 0;
  for (size_t i = 0; i < got.size(); ++i)
    if (got[i] != std::ldexp(want[i], -kUp<T>) && bad++ < 3)
      ::tpjrt::test::report(__FILE__, __LINE__, what + " " + gemmIsaName(isa) + " m=" + std::to_string(s.m) + " n=" +
                                                    std::to_string(s.n) + " k=" + std::to_string(s.k) + " batch=" +
                                                    std::to_string(batch) + (tinyB ? " (B)" : " (A)") + " threads=" +
                                                    std::to_string(pool ? pool->size() : 1) + ": C[" + std::to_string(i) +
                                                    "] = " + exact(got[i]) + ", want " + exact(std::ldexp(want[i], -kUp<T>)));
}

// One operand with a subnormal in fifty elements: the GEMM scales the packed panels that hold one
// (gemm.cc, PanelScale), so the bits are the scaled-back product's on every path and thread count.
template <class T>
void subnormalOperandsExact(const char* what) {
  ThreadPool two(2);
  for (const Shape& s : std::vector<Shape>{{37, 45, 300}, {200, 301, 150}, {9, 700, 33}})
    for (GemmIsa isa : isas())
      for (ThreadPool* pool : {static_cast<ThreadPool*>(nullptr), &two})
        for (int t = 0; t < 8; ++t) {
          std::mt19937 rng(uint32_t(s.m + s.n + s.k + t));
          Operand<T> a(rng, 1, s.m, s.k, t & 1, 0), b(rng, 1, s.k, s.n, t & 2, 0);
          Operand<T>& x = t & 4 ? b : a;
          int64_t subnormals = 0;
          for (size_t i = 0; i < x.storage.size(); i += 50)
            if (!std::isnan(x.storage[i])) x.storage[i] = (i % 100 == 0 ? -kTiny<T> : kTiny<T>) * T(1 + i % 7), ++subnormals;
          CHECK(subnormals > 0);
          checkScaledBack<T>(what, s, 1, a, b, t & 4, isa, pool);
        }
}
TEST(gemm_f32_subnormal_operands_give_the_unscaled_bits) { subnormalOperandsExact<float>("f32 subnormals"); }

// Small blocks of A contiguous along the contraction are read in place; one holding values that a
// packed panel would scale is packed instead. Rows of A entirely tiny make every product and running
// sum subnormal, where an unscaled product rounds differently from the scaled-back one. Batches of a
// few products take the batch path too.
template <class T>
void tinyRowsOfAInPlace(const char* what) {
  ThreadPool two(2);
  for (const Shape& s : std::vector<Shape>{{9, 33, 17}, {16, 40, 24}, {24, 7, 64}})
    for (int64_t batch : {int64_t(1), int64_t(6)})
      for (GemmIsa isa : isas())
        for (ThreadPool* pool : {static_cast<ThreadPool*>(nullptr), &two}) {
          std::mt19937 rng(uint32_t(s.m * 31 + s.k + batch));
          Operand<T> a(rng, batch, s.m, s.k, false, 0), b(rng, batch, s.k, s.n, false, 0);
          for (T& v : a.storage)
            if (!std::isnan(v)) v = kTiny<T> * T(1 + int(std::fabs(v) * 8));
          checkScaledBack<T>(what, s, batch, a, b, false, isa, pool);
        }
}

TEST(gemm_f32_tiny_rows_of_a_read_in_place_are_scaled_like_packed_ones) { tinyRowsOfAInPlace<float>("f32 tiny A"); }
TEST(gemm_f64_tiny_rows_of_a_read_in_place_are_scaled_like_packed_ones) { tinyRowsOfAInPlace<double>("f64 tiny A"); }
TEST(gemm_f64_subnormal_operands_give_the_unscaled_bits) { subnormalOperandsExact<double>("f64 subnormals"); }

// Each ISA's panel scale (PanelOps::scale) against std::ldexp, bit for bit: subnormals of every size
// and sign, zeros, normals, for shifts that leave a subnormal subnormal or scale a panel back
// (multiplied) and ones that make every value normal (by the bits).
template <class T>
void panelScaleExact(const std::vector<gemm_detail::PanelOps<T>>& ops, std::vector<int> shifts) {
  const T least = std::numeric_limits<T>::denorm_min(), normal = std::numeric_limits<T>::min();
  std::vector<T> values = {T(0), -T(0), least, -least, least * T(3), normal - least, -(normal - least), normal, -normal,
                           normal * T(1.5), T(1), T(-0.75), T(3e-5)};
  std::mt19937 rng(7);
  for (int i = 0; i < 40; ++i) values.push_back(least * T(rng() % (1u << 20)) * (i % 2 ? T(1) : T(-1)));
  for (const auto& op : ops)
    for (int shift : shifts) {
      std::vector<T> p(values);
      op.scale(p.data(), int64_t(p.size()), shift);
      for (size_t i = 0; i < p.size(); ++i) {
        const T want = std::ldexp(values[i], shift);
        if (std::memcmp(&p[i], &want, sizeof(T)) != 0)
          ::tpjrt::test::report(__FILE__, __LINE__, "shift " + std::to_string(shift) + ": " + std::to_string(values[i]) +
                                                        " became " + std::to_string(p[i]) + ", want " + std::to_string(want));
      }
    }
}
TEST(gemm_panel_scale_is_exact_on_every_isa) {
  std::vector<gemm_detail::PanelOps<float>> f32 = {gemm_detail::portableKernelF32().panels};
  std::vector<gemm_detail::PanelOps<double>> f64 = {gemm_detail::portableKernelF64().panels};
  if (gemmIsaAvailable(GemmIsa::Avx2)) f32.push_back(gemm_detail::avx2KernelF32().panels), f64.push_back(gemm_detail::avx2KernelF64().panels);
  if (gemmIsaAvailable(GemmIsa::Avx512)) f32.push_back(gemm_detail::avx512KernelF32().panels), f64.push_back(gemm_detail::avx512KernelF64().panels);
  panelScaleExact(f32, {-60, -10, 1, 10, 23, 24, 30, 52, 60});
  panelScaleExact(f64, {-508, -40, 1, 40, 52, 53, 100, 508});
}

// A panel of A holding 2^-140 and 2^40 is scaled by 2^10 (its largest to 2^50); against a panel of B
// holding 2^80 the scaled sums could overflow, so that pair runs unscaled: 2^-140 · 2^80 still counts,
// 2^40 · 2^80 does not overflow. Then the same for a panel of B.
TEST(gemm_scaled_panels_next_to_huge_values_run_unscaled) {
  const float sub = std::ldexp(1.0f, -140), big = std::ldexp(1.0f, 40), huge = std::ldexp(1.0f, 80);
  for (GemmIsa isa : isas()) {
    std::vector<float> a(8 * 16, 0.0f), b(16 * 40, 0.0f), c(8 * 40);
    a[0] = big, a[1] = sub;  // row 0: [2^40, 2^-140, 0, …]
    b[1 * 40 + 3] = huge;    // B[1][3] = 2^80
    b[0 * 40 + 5] = huge;    // B[0][5] = 2^80
    GemmOptions options;
    options.isa = isa;
    gemm<float>(8, 40, 16, {a.data(), 16, 1, {0}}, {b.data(), 40, 1, {0}}, c.data(), nullptr, options);
    CHECK_EQ(c[3], std::ldexp(1.0f, -60));   // 2^-140 · 2^80
    CHECK_EQ(c[5], std::ldexp(1.0f, 120));   // 2^40 · 2^80
    CHECK_EQ(c[40 + 3], 0.0f);
    // the same with the roles swapped: a panel of B holds 2^-140 and 2^40, a row of A 2^80
    std::vector<float> a2(8 * 16, 0.0f), b2(16 * 40, 0.0f), c2(8 * 40);
    b2[0 * 40 + 3] = big, b2[1 * 40 + 3] = sub;  // column 3: [2^40, 2^-140, 0, …]
    a2[5 * 16 + 1] = huge;                       // A[5][1] = 2^80
    a2[6 * 16 + 0] = huge;                       // A[6][0] = 2^80
    gemm<float>(8, 40, 16, {a2.data(), 16, 1, {0}}, {b2.data(), 40, 1, {0}}, c2.data(), nullptr, options);
    CHECK_EQ(c2[5 * 40 + 3], std::ldexp(1.0f, -60));
    CHECK_EQ(c2[6 * 40 + 3], std::ldexp(1.0f, 120));
    CHECK_EQ(c2[3], 0.0f);
  }
}

TEST(gemm_rejects_a_path_the_cpu_lacks) {
  for (GemmIsa isa : {GemmIsa::Avx2, GemmIsa::Avx512}) {
    if (gemmIsaAvailable(isa)) continue;
    float x = 1, y = 0;
    GemmOptions options;
    options.isa = isa;
    CHECK_THROWS(gemm<float>(1, 1, 1, {&x, 1, 1, {0}}, {&x, 1, 1, {0}}, &y, nullptr, options), "cannot run");
  }
}

// --- float dot_general through the interpreter -------------------------------------------------------

namespace {

std::vector<int64_t> stridesOf(const std::vector<int64_t>& dims) {
  std::vector<int64_t> s(dims.size(), 1);
  for (size_t i = dims.size(); i-- > 1;) s[i - 1] = s[i] * dims[i];
  return s;
}

std::string list(const std::vector<int64_t>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s;
}

std::string tensorType(const std::vector<int64_t>& dims, const char* element) {
  std::string s = "tensor<";
  for (int64_t d : dims) s += std::to_string(d) + "x";
  return s + element + ">";
}

// dot_general of random lhs/rhs with the given dimension numbers, checked against a double sum.
void checkDot(ElementType type, const char* element, const std::vector<int64_t>& lhsDims, const std::vector<int64_t>& rhsDims,
              const std::vector<int64_t>& lb, const std::vector<int64_t>& rb, const std::vector<int64_t>& lc,
              const std::vector<int64_t>& rc, double tol) {
  std::mt19937 rng(uint32_t(lhsDims.size() * 31 + rhsDims.size()));
  std::uniform_int_distribution<int> dist(-8, 8);  // small integers: exact in every float type
  auto fill = [&](const std::vector<int64_t>& dims, std::vector<double>& values) {
    int64_t count = 1;
    for (int64_t d : dims) count *= d;
    values.resize(size_t(count));
    for (double& v : values) v = dist(rng) / 4.0;
    Literal l{{type, dims}, Bytes(size_t(count) * byteWidth(type))};
    for (int64_t i = 0; i < count; ++i) {
      const double v = values[size_t(i)];
      if (type == ElementType::F32) reinterpret_cast<float*>(l.bytes.mutableData())[i] = float(v);
      if (type == ElementType::F64) reinterpret_cast<double*>(l.bytes.mutableData())[i] = v;
      if (type == ElementType::F16) reinterpret_cast<uint16_t*>(l.bytes.mutableData())[i] = floatToHalf(float(v));
      if (type == ElementType::BF16) reinterpret_cast<uint16_t*>(l.bytes.mutableData())[i] = floatToBf16(float(v));
    }
    return l;
  };
  std::vector<double> lv, rv;
  Literal lhs = fill(lhsDims, lv), rhs = fill(rhsDims, rv);
  auto freeOf = [](size_t rank, const std::vector<int64_t>& b, const std::vector<int64_t>& c) {
    std::vector<int64_t> f;
    for (int64_t d = 0; d < int64_t(rank); ++d) {
      bool used = false;
      for (int64_t x : b) used |= x == d;
      for (int64_t x : c) used |= x == d;
      if (!used) f.push_back(d);
    }
    return f;
  };
  const std::vector<int64_t> lf = freeOf(lhsDims.size(), lb, lc), rf = freeOf(rhsDims.size(), rb, rc);
  std::vector<int64_t> outDims;
  for (int64_t d : lb) outDims.push_back(lhsDims[size_t(d)]);
  for (int64_t d : lf) outDims.push_back(lhsDims[size_t(d)]);
  for (int64_t d : rf) outDims.push_back(rhsDims[size_t(d)]);
  const std::string text = "func.func public @main(%a: " + tensorType(lhsDims, element) + ", %b: " +
                           tensorType(rhsDims, element) + ") -> " + tensorType(outDims, element) +
                           " {\n  %r = \"stablehlo.dot_general\"(%a, %b) {dot_dimension_numbers = "
                           "#stablehlo.dot<lhs_batching_dimensions = [" + list(lb) + "], rhs_batching_dimensions = [" +
                           list(rb) + "], lhs_contracting_dimensions = [" + list(lc) +
                           "], rhs_contracting_dimensions = [" + list(rc) + "]>} : (" + tensorType(lhsDims, element) +
                           ", " + tensorType(rhsDims, element) + ") -> " + tensorType(outDims, element) +
                           "\n  \"func.return\"(%r) : (" + tensorType(outDims, element) + ") -> ()\n}\n";
  Module module = parseModule(text);
  std::vector<Literal> args;
  args.push_back(std::move(lhs));
  args.push_back(std::move(rhs));
  std::vector<Literal> out = interpret(module, *module.find("main"), args);
  const auto ls = stridesOf(lhsDims), rs = stridesOf(rhsDims);
  // Walk the result in row-major order: its index splits into batch, lhs-free, rhs-free parts.
  int64_t total = 1;
  for (int64_t d : outDims) total *= d;
  int64_t contraction = 1;
  for (int64_t d : lc) contraction *= lhsDims[size_t(d)];
  int bad = 0;
  for (int64_t flat = 0; flat < total; ++flat) {
    std::vector<int64_t> idx(outDims.size());
    for (int64_t i = int64_t(outDims.size()) - 1, r = flat; i >= 0; --i) {
      idx[size_t(i)] = r % outDims[size_t(i)];
      r /= outDims[size_t(i)];
    }
    int64_t lo = 0, ro = 0;
    size_t at = 0;
    for (size_t i = 0; i < lb.size(); ++i, ++at) {
      lo += idx[at] * ls[size_t(lb[i])];
      ro += idx[at] * rs[size_t(rb[i])];
    }
    for (int64_t d : lf) lo += idx[at++] * ls[size_t(d)];
    for (int64_t d : rf) ro += idx[at++] * rs[size_t(d)];
    double want = 0;
    for (int64_t q = 0; q < contraction; ++q) {
      int64_t lq = lo, rq = ro;
      for (size_t i = lc.size(), r = size_t(q); i-- > 0;) {
        const int64_t size = lhsDims[size_t(lc[i])];
        lq += int64_t(r % size_t(size)) * ls[size_t(lc[i])];
        rq += int64_t(r % size_t(size)) * rs[size_t(rc[i])];
        r /= size_t(size);
      }
      want += lv[size_t(lq)] * rv[size_t(rq)];
    }
    double got = 0;
    if (type == ElementType::F32) got = reinterpret_cast<const float*>(out[0].bytes.data())[flat];
    if (type == ElementType::F64) got = reinterpret_cast<const double*>(out[0].bytes.data())[flat];
    if (type == ElementType::F16) got = halfToFloat(reinterpret_cast<const uint16_t*>(out[0].bytes.data())[flat]);
    if (type == ElementType::BF16) got = bf16ToFloat(reinterpret_cast<const uint16_t*>(out[0].bytes.data())[flat]);
    if (!(std::fabs(got - want) <= tol * std::max(1.0, std::fabs(want))) && bad++ < 3)
      ::tpjrt::test::report(__FILE__, __LINE__, std::string(element) + " dot " + text.substr(0, 0) + "element " +
                                                    std::to_string(flat) + ": " + std::to_string(got) + " vs " +
                                                    std::to_string(want));
  }
}

}  // namespace

TEST(dot_general_float_layouts_through_the_gemm) {
  // Plain, transposed lhs, transposed rhs, batch in the middle, two contracting dimensions in memory
  // order (read in place) and out of it (copied first), a vector product.
  checkDot(ElementType::F32, "f32", {7, 9}, {9, 5}, {}, {}, {1}, {0}, 1e-6);
  checkDot(ElementType::F32, "f32", {9, 7}, {9, 5}, {}, {}, {0}, {0}, 1e-6);
  checkDot(ElementType::F32, "f32", {7, 9}, {5, 9}, {}, {}, {1}, {1}, 1e-6);
  checkDot(ElementType::F32, "f32", {6, 3, 10}, {10, 3, 4}, {1}, {1}, {2}, {0}, 1e-6);
  checkDot(ElementType::F32, "f32", {5, 3, 4}, {3, 4, 6}, {}, {}, {1, 2}, {0, 1}, 1e-6);
  checkDot(ElementType::F32, "f32", {5, 3, 4}, {4, 3, 6}, {}, {}, {2, 1}, {0, 1}, 1e-6);
  checkDot(ElementType::F32, "f32", {2, 3, 4, 5}, {3, 5, 2, 7}, {0, 1}, {2, 0}, {3}, {1}, 1e-6);
  checkDot(ElementType::F32, "f32", {33}, {33}, {}, {}, {0}, {0}, 1e-6);
  checkDot(ElementType::F64, "f64", {3, 8, 70}, {3, 70, 40}, {0}, {0}, {2}, {1}, 1e-12);
  checkDot(ElementType::F16, "f16", {4, 6}, {6, 3}, {}, {}, {1}, {0}, 1e-3);
  checkDot(ElementType::BF16, "bf16", {2, 4, 6}, {2, 3, 6}, {0}, {0}, {2}, {2}, 1e-2);
}

// --- the thread pool -----------------------------------------------------------------------------------

TEST(thread_pool_runs_every_item_once) {
  for (int threads : {1, 2, 5}) {
    ThreadPool pool(threads);
    CHECK_EQ(pool.size(), threads);
    for (int64_t count : {0, 1, 2, 7, 1000}) {
      std::vector<std::atomic<int>> hits(static_cast<size_t>(count));
      pool.parallelFor(count, [&](int64_t i) { hits[size_t(i)].fetch_add(1); });
      for (auto& h : hits) CHECK_EQ(h.load(), 1);
    }
  }
}

TEST(thread_pool_serves_concurrent_callers) {
  ThreadPool pool(3);
  std::atomic<int64_t> total{0};
  std::vector<std::thread> callers;
  for (int t = 0; t < 4; ++t)
    callers.emplace_back([&] {
      for (int round = 0; round < 50; ++round)
        pool.parallelFor(17, [&](int64_t i) { total.fetch_add(i + 1); });
    });
  for (auto& c : callers) c.join();
  CHECK_EQ(total.load(), int64_t(4 * 50 * (17 * 18 / 2)));
}

TEST(thread_pool_rethrows_the_first_error) {
  ThreadPool pool(2);
  std::atomic<int> ran{0};
  CHECK_THROWS(pool.parallelFor(10, [&](int64_t i) {
    ran.fetch_add(1);
    if (i == 3) throw std::runtime_error("item 3 failed");
  }), "item 3 failed");
  CHECK_EQ(ran.load(), 10);  // the other items still ran
  pool.parallelFor(4, [&](int64_t) { ran.fetch_add(1); });  // and the pool still works
  CHECK_EQ(ran.load(), 14);
}

TEST(thread_pool_scope_sets_and_restores_the_current_pool) {
  CHECK(currentThreadPool() == nullptr);
  ThreadPool a(2), b(2);
  {
    ThreadPoolScope outer(&a);
    CHECK(currentThreadPool() == &a);
    {
      ThreadPoolScope inner(&b);
      CHECK(currentThreadPool() == &b);
      // Workers have no current pool, so a kernel running on one never splits its work again.
      const std::thread::id caller = std::this_thread::get_id();
      std::atomic<int> nested{0};
      b.parallelFor(64, [&](int64_t) {
        if (std::this_thread::get_id() != caller && currentThreadPool() != nullptr) nested.fetch_add(1);
      });
      CHECK_EQ(nested.load(), 0);
    }
    CHECK(currentThreadPool() == &a);
  }
  CHECK(currentThreadPool() == nullptr);
}

TEST(thread_count_from_option_env_and_cpus) {
  unsetenv("TORCH_PJRT_CPU_THREADS");
  CHECK_EQ(chooseThreadCount(0), availableCpus());
  CHECK(availableCpus() >= 1);
  CHECK_EQ(chooseThreadCount(3), 3);
  setenv("TORCH_PJRT_CPU_THREADS", "5", 1);
  CHECK_EQ(chooseThreadCount(0), 5);
  CHECK_EQ(chooseThreadCount(2), 2);  // the create option wins over the environment
  setenv("TORCH_PJRT_CPU_THREADS", "0", 1);
  CHECK_THROWS(chooseThreadCount(0), "TORCH_PJRT_CPU_THREADS must be a whole number from 1 to 1024, got '0'");
  setenv("TORCH_PJRT_CPU_THREADS", "4x", 1);
  CHECK_THROWS(chooseThreadCount(0), "got '4x'");
  unsetenv("TORCH_PJRT_CPU_THREADS");
  CHECK_THROWS(chooseThreadCount(-1), "num_threads must be between 1 and 1024, got -1");
  CHECK_THROWS(chooseThreadCount(1025), "got 1025");
}

// --- the num_threads client option --------------------------------------------------------------------

extern "C" const PJRT_Api* GetPjrtApi();

namespace {

// Creates a client with num_threads = `threads` (none when 0); returns its pool size, or -1 and the
// error message in `error`.
int createWithThreads(int64_t threads, std::string& error) {
  const PJRT_Api& api = *GetPjrtApi();
  PJRT_NamedValue option{};
  option.struct_size = PJRT_NamedValue_STRUCT_SIZE;
  option.name = "num_threads";
  option.name_size = std::strlen(option.name);
  option.type = PJRT_NamedValue_kInt64;
  option.int64_value = threads;
  option.value_size = 1;
  PJRT_Client_Create_Args args{};
  args.struct_size = PJRT_Client_Create_Args_STRUCT_SIZE;
  args.create_options = threads ? &option : nullptr;
  args.num_options = threads ? 1 : 0;
  if (PJRT_Error* e = api.PJRT_Client_Create(&args)) {
    PJRT_Error_Message_Args m{};
    m.struct_size = PJRT_Error_Message_Args_STRUCT_SIZE;
    m.error = e;
    api.PJRT_Error_Message(&m);
    error.assign(m.message, m.message_size);
    PJRT_Error_Destroy_Args d{};
    d.struct_size = PJRT_Error_Destroy_Args_STRUCT_SIZE;
    d.error = e;
    api.PJRT_Error_Destroy(&d);
    return -1;
  }
  const int size = stateOf(args.client).threadPool->size();
  PJRT_Client_Destroy_Args destroy{};
  destroy.struct_size = PJRT_Client_Destroy_Args_STRUCT_SIZE;
  destroy.client = args.client;
  api.PJRT_Client_Destroy(&destroy);  // joins the pool's workers
  return size;
}

}  // namespace

TEST(client_num_threads_option_and_env) {
  std::string error;
  unsetenv("TORCH_PJRT_CPU_THREADS");
  CHECK_EQ(createWithThreads(3, error), 3);
  CHECK_EQ(createWithThreads(1, error), 1);
  CHECK_EQ(createWithThreads(0, error), availableCpus());
  setenv("TORCH_PJRT_CPU_THREADS", "4", 1);
  CHECK_EQ(createWithThreads(0, error), 4);
  CHECK_EQ(createWithThreads(2, error), 2);
  setenv("TORCH_PJRT_CPU_THREADS", "many", 1);
  CHECK_EQ(createWithThreads(0, error), -1);
  CHECK(error.find("TORCH_PJRT_CPU_THREADS must be a whole number") != std::string::npos);
  unsetenv("TORCH_PJRT_CPU_THREADS");
  CHECK_EQ(createWithThreads(-2, error), -1);
  CHECK(error.find("option num_threads must be between 1 and 1024, got -2") != std::string::npos);
}

TEST_MAIN()
