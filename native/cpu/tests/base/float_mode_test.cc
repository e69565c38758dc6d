// FloatModeScope runs its thread with the process-wide flush choice and restores the thread's own
// mode after; pool workers (made beforehand, as a client's are) take the mode of the thread that
// hands out the work, each time. The reference is
// IEEE float32: 1e-20 · 1e-20 is the subnormal 1e-40 (as float64 arithmetic rounded to float32 says),
// and 0 when subnormals are flushed.
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "base/float_mode.h"
#include "base/thread_pool.h"
#include "check.h"

using namespace tpjrt::cpu;

namespace {

float tinyProduct() {
  volatile float a = 1e-20f;  // volatile: computed at run time, in the thread's mode
  return a * a;
}

// The product on each of many pool tasks: how many gave the subnormal, how many 0, and how many ran on
// a worker (each task takes a millisecond, so the workers get some).
std::vector<int> productsOnPool(ThreadPool& pool) {
  std::atomic<int> subnormal{0}, zero{0}, onWorkers{0};
  const std::thread::id caller = std::this_thread::get_id();
  pool.parallelFor(64, [&](int64_t) {
    (tinyProduct() == 0 ? zero : subnormal).fetch_add(1);
    if (std::this_thread::get_id() != caller) onWorkers.fetch_add(1);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  });
  return {subnormal.load(), zero.load(), onWorkers.load()};
}

}  // namespace

TEST(subnormals_are_kept_by_default_and_flushed_inside_a_scope_when_asked) {
  const float want = float(double(1e-20f) * double(1e-20f));
  CHECK(want > 0);
  CHECK(tinyProduct() == want);
  ThreadPool pool(3);  // made before any scope: new threads inherit their creator's mode
  const uint32_t before = floatControl();
  {
    FloatModeScope scope;  // off: nothing changes
    CHECK(tinyProduct() == want);
  }
  const bool can = setFlushDenormal(true);
#if defined(__x86_64__)
  CHECK(can);
#endif
  {
    FloatModeScope scope;
    CHECK(tinyProduct() == (can ? 0.0f : want));
    std::vector<int> counts = productsOnPool(pool);
    CHECK_EQ(counts[0], can ? 0 : 64);
    CHECK_EQ(counts[1], can ? 64 : 0);
    CHECK(counts[2] > 0);
  }
  CHECK_EQ(floatControl(), before);  // the thread's own mode is back
  CHECK(tinyProduct() == want);
  setFlushDenormal(false);
  {
    FloatModeScope scope;  // the workers flushed last time: they take this caller's mode again
    std::vector<int> counts = productsOnPool(pool);
    CHECK_EQ(counts[0], 64);
    CHECK(counts[2] > 0);
  }
}

TEST_MAIN()
