// A fixed set of worker threads that kernels split big work over. parallelFor runs items on the
// calling thread and on the workers, so it never waits on a busy pool and may be called from many
// threads at once (concurrent executes share their client's pool). Idle workers spin for 1 ms before
// they sleep, so the next kernel of a program finds them awake. The destructor joins the workers.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace tpjrt::cpu {

class ThreadPool {
 public:
  // `threads` counts the calling thread: ThreadPool(1) starts no worker and runs everything inline.
  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int size() const { return int(workers_.size()) + 1; }

  // Calls fn(i) once for every i in [0, count), in any order and on any of the pool's threads, and
  // returns when all calls have returned. The first exception thrown by fn is rethrown here. Thread t
  // (the caller being 0) starts on the t-th of size() equal runs of [0, count) and only then helps
  // with the others, so calls that split their data the same way meet it in the same core's cache.
  void parallelFor(int64_t count, const std::function<void(int64_t)>& fn);

  struct Job;

 private:
  void workerLoop(int self);  // self: the worker's index in the pool, from 1

  std::mutex mu_;
  std::condition_variable wake_;
  std::deque<std::shared_ptr<Job>> queue_;  // one entry per worker invited to help with a job
  std::atomic<int64_t> queued_{0};           // queue_.size(), read without the lock by spinning workers
  std::atomic<bool> stopping_{false};
  std::vector<std::thread> workers_;
};

constexpr int kMaxThreads = 1024;

// The number of CPUs this process may run on (at least 1).
int availableCpus();

// Thread count for a new client: `option` (the num_threads create option, 0 when absent), else
// env TORCH_PJRT_CPU_THREADS, else availableCpus(). Throws on a value outside 1..kMaxThreads.
int chooseThreadCount(int64_t option);

// The pool kernels on this thread may use (nullptr: run on the calling thread only). Execute sets it
// for the duration of one program run; pool workers never have one, so work never nests.
ThreadPool* currentThreadPool();

// Calls fn(begin, end) over pieces of [0, n) on the current pool, each piece at least `minPiece`
// long; without a pool, or when n is too small to split, one call on this thread covers it all.
void parallelRange(int64_t n, int64_t minPiece, const std::function<void(int64_t, int64_t)>& fn);

class ThreadPoolScope {
 public:
  explicit ThreadPoolScope(ThreadPool* pool);
  ~ThreadPoolScope();
  ThreadPoolScope(const ThreadPoolScope&) = delete;
  ThreadPoolScope& operator=(const ThreadPoolScope&) = delete;

 private:
  ThreadPool* previous_;
};

}  // namespace tpjrt::cpu
