// Our float GEMM against MKL's sgemm in the same process, in alternating rounds, so that the ratio is
// not the drift between two processes on a shared machine. MKL is PyTorch's (libtorch_cpu exports its
// Fortran sgemm_); benchmarks/gemm-peer.mjs finds it and sets its thread count to ours.
// Usage: gemm_peer <path of libtorch_cpu.so> <threads> [rounds]
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "base/thread_pool.h"
#include "gemm/gemm.h"

namespace {

using namespace tpjrt::cpu;

using Sgemm = void (*)(const char*, const char*, const int*, const int*, const int*, const float*, const float*,
                       const int*, const float*, const int*, const float*, float*, const int*);

// C (m × n, row-major) = op(A) · op(B); "tn" reads A transposed (stored k × m), "nt" B (stored n × k).
struct Shape {
  int m, n, k;
  const char* layout;
  const char* seenIn;
};

// The products of the suite's W7 step (a [8, 128] batch of 256-wide tokens, 1024-wide MLP), then squares.
const Shape kShapes[] = {
    {1024, 1024, 256, "nt", "W7 MLP up, x · Wᵀ"},      {1024, 256, 1024, "nt", "W7 MLP down, x · Wᵀ"},
    {1024, 256, 1024, "nn", "W7 MLP up, dx = g · W"},  {1024, 1024, 256, "nn", "W7 MLP down, dx = g · W"},
    {1024, 256, 1024, "tn", "W7 MLP up, dW = gᵀ · x"}, {256, 1024, 1024, "tn", "W7 MLP down, dW = gᵀ · x"},
    {1024, 768, 256, "nt", "W7 attention in, x · Wᵀ"}, {1024, 1024, 1024, "nn", "square"},
    {4096, 4096, 4096, "nn", "square"},
};

double medianOf(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: gemm_peer <libtorch_cpu.so> <threads> [rounds]\n");
    return 2;
  }
  void* library = dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL);
  auto sgemm = library ? reinterpret_cast<Sgemm>(dlsym(library, "sgemm_")) : nullptr;
  if (!sgemm) {
    std::fprintf(stderr, "no sgemm_ in %s: %s\n", argv[1], library ? "symbol missing" : dlerror());
    return 1;
  }
  const int threads = std::atoi(argv[2]), rounds = argc > 3 ? std::atoi(argv[3]) : 5;
  ThreadPool pool(threads);
  ThreadPoolScope scope(&pool);
  std::printf("| product (m × n × k) | layout | seen in | ours GFLOP/s | MKL GFLOP/s | ours / MKL (rounds) |\n");
  std::printf("|---|---|---|---|---|---|\n");
  for (const Shape& s : kShapes) {
    const int m = s.m, n = s.n, k = s.k;
    const bool ta = s.layout[0] == 't', tb = s.layout[1] == 't';
    // Operands are used in turn from several copies (within 64 MiB), as a model's are cold.
    const int copies = int(std::clamp<int64_t>((int64_t(64) << 20) / (4 * (int64_t(m) * k + int64_t(k) * n)), 1, 16));
    const int calls = int(std::clamp<int64_t>(int64_t(2e10) / (2 * int64_t(m) * n * k), 4, 40));
    std::mt19937 rng(7);
    std::normal_distribution<float> normal;
    std::vector<std::vector<float>> a(copies, std::vector<float>(size_t(m) * k)), b(copies, std::vector<float>(size_t(k) * n));
    for (auto& x : a) std::generate(x.begin(), x.end(), [&] { return normal(rng); });
    for (auto& x : b) std::generate(x.begin(), x.end(), [&] { return normal(rng); });
    std::vector<float> c(size_t(m) * n);
    auto ours = [&](int i) {
      StridedMatrices<float> am{a[i].data(), ta ? 1 : k, ta ? m : 1, {0}}, bm{b[i].data(), tb ? 1 : n, tb ? k : 1, {0}};
      gemm<float>(m, n, k, am, bm, c.data(), &pool);
    };
    auto mkl = [&](int i) {  // column-major: Cᵀ (n × m) = op(B)ᵀ · op(A)ᵀ
      const float one = 1, zero = 0;
      const int lda = ta ? m : k, ldb = tb ? k : n, ldc = n;
      sgemm(tb ? "T" : "N", ta ? "T" : "N", &n, &m, &k, &one, b[i].data(), &ldb, a[i].data(), &lda, &zero, c.data(), &ldc);
    };
    std::vector<double> oursMs, mklMs, ratios;
    for (int round = 0; round < rounds; ++round) {
      double ms[2];
      for (int who = 0; who < 2; ++who) {
        std::vector<double> times;
        for (int call = 0; call < calls + 2; ++call) {  // the first two warm up
          const auto start = std::chrono::steady_clock::now();
          who == 0 ? ours(call % copies) : mkl(call % copies);
          if (call >= 2) times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
        }
        ms[who] = medianOf(times);
        std::this_thread::sleep_for(std::chrono::milliseconds(5));  // both thread pools stop spinning
      }
      oursMs.push_back(ms[0]);
      mklMs.push_back(ms[1]);
      ratios.push_back(ms[1] / ms[0]);
    }
    const double flop = 2.0 * m * n * k;
    std::printf("| %d × %d × %d | %s | %s | %.0f | %.0f | %.2f× (%.2f–%.2f) |\n", m, n, k, s.layout, s.seenIn,
                flop / medianOf(oursMs) / 1e6, flop / medianOf(mklMs) / 1e6, medianOf(ratios),
                *std::min_element(ratios.begin(), ratios.end()), *std::max_element(ratios.begin(), ratios.end()));
    std::fflush(stdout);
  }
}
