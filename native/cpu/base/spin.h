// Busy-waiting for another thread's work before going to sleep: waking a sleeping thread costs tens
// of microseconds in a VM, more than the gaps between back-to-back eager ops.
#pragma once

#include <sched.h>

#include <chrono>

namespace tpjrt::cpu {

inline void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// Calls ready() until it is true or `spin` has passed, giving up the CPU (sched_yield) after every
// `yieldEvery` rounds of 64 calls, in case the thread that would bring the work waits for this CPU;
// returns ready()'s last answer.
template <class Ready>
bool spinUntil(Ready&& ready, std::chrono::steady_clock::duration spin, int yieldEvery) {
  const auto until = std::chrono::steady_clock::now() + spin;
  for (int round = 1;; ++round) {
    for (int i = 0; i < 64; ++i) {
      if (ready()) return true;
      cpuRelax();
    }
    if (std::chrono::steady_clock::now() >= until) return ready();
    if (round % yieldEvery == 0) sched_yield();
  }
}

}  // namespace tpjrt::cpu
