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
#else
bool cpuHasAvx2Fma() { return false; }
bool cpuHasAvx512f() { return false; }
#endif

namespace {
std::atomic<bool> baselineLoops{false};
}

bool avx2LoopsEnabled() { return cpuHasAvx2Fma() && !baselineLoops.load(std::memory_order_relaxed); }
void useBaselineLoops(bool baseline) { baselineLoops.store(baseline, std::memory_order_relaxed); }

}  // namespace tpjrt::cpu
