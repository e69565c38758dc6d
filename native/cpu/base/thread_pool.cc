#include "base/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <exception>

#include "base/error.h"
#include "base/float_mode.h"
#include "base/spin.h"

namespace tpjrt::cpu {

// Thread t of the pool (the caller is 0) first claims the items of its own share, the t-th of
// `shares` equal runs of [0, count), from that run's counter, then those left in the other runs; the
// caller waits until `finished` reaches `count`. A worker that picks the job up after every item is
// claimed only touches the atomics (the queue keeps it alive). Claiming from one counter instead let
// either thread take any piece, so an element-wise op often read what the other core had just written
// (a product's rows, the op before's pieces): on the Intel VM of 2026-12-07, 2 threads, alternating
// builds, the W7 step under torch.compile went from 8.24-8.83 to 8.46-9.18 steps/s and the W5 forward
// from 30.5-32.6 to 30.0-31.1 ms.
struct ThreadPool::Job {
  const std::function<void(int64_t)>* fn = nullptr;
  uint32_t floatControl = 0;  // the caller's (float_mode.h), which helpers take on
  int64_t count = 0;
  int shares = 1;
  std::unique_ptr<std::atomic<int64_t>[]> next;  // per share: the next item to claim
  std::atomic<int64_t> finished{0};
  std::mutex mu;
  std::condition_variable done;
  std::exception_ptr error;  // guarded by mu

  int64_t shareStart(int share) const { return count * share / shares; }
};

namespace {

void runItems(ThreadPool::Job& job, int self) {
  int64_t ran = 0;
  for (int k = 0; k < job.shares; ++k) {
    const int share = (self + k) % job.shares;
    const int64_t end = job.shareStart(share + 1);
    for (int64_t i; (i = job.next[share].fetch_add(1, std::memory_order_relaxed)) < end; ++ran) {
      try {
        (*job.fn)(i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(job.mu);
        if (!job.error) job.error = std::current_exception();
      }
    }
  }
  if (ran > 0 && job.finished.fetch_add(ran, std::memory_order_acq_rel) + ran == job.count) {
    std::lock_guard<std::mutex> lock(job.mu);
    job.done.notify_all();
  }
}

thread_local ThreadPool* tlsPool = nullptr;

// How long a worker looks for the next job, and the caller for the last items of its job, before
// sleeping. Waking a sleeping thread costs tens of microseconds in a VM, and an eager model leaves
// gaps of that order between its ops (the next op's dispatch), so a spin shorter than those gaps pays
// the wake-up on nearly every op: 1 ms against 50 µs took a W4 step from 423-588 to 597-842 steps/s
// and a W5 forward from 66.5 to 63.9 ms (medians of alternating runs). OpenMP runtimes spin for
// about as long. A spinning worker yields between rounds: the thread that would bring it work (a
// device's queue thread, the pool's caller) may be waiting for this very CPU.
constexpr auto kSpin = std::chrono::milliseconds(1);

}  // namespace

ThreadPool::ThreadPool(int threads) {
  threads = std::clamp(threads, 1, kMaxThreads);
  workers_.reserve(size_t(threads - 1));
  for (int i = 1; i < threads; ++i) workers_.emplace_back([this, i] { workerLoop(i); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_.store(true, std::memory_order_release);
  }
  wake_.notify_all();
  for (auto& t : workers_) t.join();
}

void ThreadPool::workerLoop(int self) {
  for (;;) {
    spinUntil([this] { return queued_.load(std::memory_order_acquire) > 0 || stopping_.load(std::memory_order_acquire); },
              kSpin, 1);
    std::shared_ptr<Job> job;
    {
      std::unique_lock<std::mutex> lock(mu_);
      wake_.wait(lock, [this] { return stopping_.load(std::memory_order_relaxed) || !queue_.empty(); });
      if (stopping_.load(std::memory_order_relaxed)) return;
      job = std::move(queue_.front());
      queue_.pop_front();
      queued_.fetch_sub(1, std::memory_order_relaxed);
    }
    setFloatControl(job->floatControl);
    runItems(*job, self % job->shares);
  }
}

void ThreadPool::parallelFor(int64_t count, const std::function<void(int64_t)>& fn) {
  if (count <= 0) return;
  if (count == 1 || workers_.empty()) {
    for (int64_t i = 0; i < count; ++i) fn(i);
    return;
  }
  auto job = std::make_shared<Job>();
  job->fn = &fn;
  job->count = count;
  job->floatControl = floatControl();
  job->shares = int(std::min<int64_t>(count, size()));
  job->next = std::make_unique<std::atomic<int64_t>[]>(size_t(job->shares));
  for (int t = 0; t < job->shares; ++t) job->next[t].store(job->shareStart(t), std::memory_order_relaxed);
  size_t helpers = size_t(std::min<int64_t>(count - 1, int64_t(workers_.size())));
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (size_t i = 0; i < helpers; ++i) queue_.push_back(job);
    queued_.fetch_add(int64_t(helpers), std::memory_order_release);
  }
  if (helpers == workers_.size()) {
    wake_.notify_all();
  } else {
    for (size_t i = 0; i < helpers; ++i) wake_.notify_one();
  }
  runItems(*job, 0);
  spinUntil([&] { return job->finished.load(std::memory_order_acquire) == count; }, kSpin, 1);
  std::unique_lock<std::mutex> lock(job->mu);
  job->done.wait(lock, [&] { return job->finished.load(std::memory_order_acquire) == count; });
  if (job->error) std::rethrow_exception(job->error);
}

int availableCpus() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    int n = CPU_COUNT(&set);
    if (n > 0) return n;
  }
  return int(std::max(1u, std::thread::hardware_concurrency()));
}

int chooseThreadCount(int64_t option) {
  if (option != 0) {
    if (option < 1 || option > kMaxThreads)
      fail("option num_threads must be between 1 and " + std::to_string(kMaxThreads) + ", got " +
           std::to_string(option));
    return int(option);
  }
  const char* env = std::getenv("TORCH_PJRT_CPU_THREADS");
  if (env && *env) {
    char* end = nullptr;
    long long v = std::strtoll(env, &end, 10);
    if (*end != '\0' || v < 1 || v > kMaxThreads)
      fail("TORCH_PJRT_CPU_THREADS must be a whole number from 1 to " + std::to_string(kMaxThreads) + ", got '" +
           env + "'");
    return int(v);
  }
  return availableCpus();
}

ThreadPool* currentThreadPool() { return tlsPool; }

void parallelRange(int64_t n, int64_t minPiece, const std::function<void(int64_t, int64_t)>& fn) {
  ThreadPool* pool = tlsPool;
  int64_t pieces = pool ? std::min<int64_t>(2 * int64_t(pool->size()), n / std::max<int64_t>(minPiece, 1)) : 1;
  if (pieces <= 1) {
    if (n > 0) fn(0, n);
    return;
  }
  pool->parallelFor(pieces, [&](int64_t i) { fn(n * i / pieces, n * (i + 1) / pieces); });
}

ThreadPoolScope::ThreadPoolScope(ThreadPool* pool) : previous_(tlsPool) { tlsPool = pool; }
ThreadPoolScope::~ThreadPoolScope() { tlsPool = previous_; }

}  // namespace tpjrt::cpu
