#include "base/cpu_features.h"

#include <atomic>

namespace tpjrt::cpu {

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
bool cpuHasAvx2Fma() {
  static const bool has = (__builtin_cpu_init(), __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"));
  return has;
}
bool cpuHasAvx512f() {
  static const bool has = (__builtin_cpu_init(), __builtin_cpu_supports("avx512f"));
  return has;
}
bool cpuHasF16c() {
  static const bool has = (__builtin_cpu_init(), __builtin_cpu_supports("f16c"));
  return has;
}
#else
bool cpuHasAvx2Fma() { return false; }
bool cpuHasAvx512f() { return false; }
bool cpuHasF16c() { return false; }
#endif

namespace {
std::atomic<bool> baselineLoops{false};
std::atomic<bool> avx2Loops{false};
}  // namespace

bool avx2LoopsEnabled() { return cpuHasAvx2Fma() && !baselineLoops.load(std::memory_order_relaxed); }
void useBaselineLoops(bool baseline) { baselineLoops.store(baseline, std::memory_order_relaxed); }
bool avx512LoopsEnabled() { return cpuHasAvx512f() && !avx2Loops.load(std::memory_order_relaxed); }
void useAvx2Loops(bool avx2) { avx2Loops.store(avx2, std::memory_order_relaxed); }

}  // namespace tpjrt::cpu
