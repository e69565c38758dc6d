#include "base/float_mode.h"

#include <atomic>

#if defined(__x86_64__)
#include <xmmintrin.h>
#endif

namespace tpjrt::cpu {

namespace {

std::atomic<bool> flushing{false};

#if defined(__x86_64__)
constexpr uint32_t kFlushBits = 0x8000 | 0x0040;  // MXCSR's FTZ and DAZ
#endif

}  // namespace

bool setFlushDenormal(bool on) {
#if defined(__x86_64__)
  flushing.store(on, std::memory_order_relaxed);
  return true;
#else
  (void)on;
  return false;
#endif
}

bool flushDenormal() { return flushing.load(std::memory_order_relaxed); }

uint32_t floatControl() {
#if defined(__x86_64__)
  return _mm_getcsr();
#else
  return 0;
#endif
}

void setFloatControl(uint32_t control) {
#if defined(__x86_64__)
  if (_mm_getcsr() != control) _mm_setcsr(control);
#else
  (void)control;
#endif
}

FloatModeScope::FloatModeScope() : saved_(floatControl()) {
#if defined(__x86_64__)
  setFloatControl(flushDenormal() ? saved_ | kFlushBits : saved_ & ~kFlushBits);
#endif
}

FloatModeScope::~FloatModeScope() { setFloatControl(saved_); }

}  // namespace tpjrt::cpu
