#include "pjrt/device_queue.h"

#include <chrono>
#include <cstdlib>

#include "base/spin.h"

namespace tpjrt::cpu {
namespace {

thread_local bool tlsQueueThread = false;

// Once the process exits, static objects the kernels use are being destroyed: no item starts then.
std::atomic<bool> exiting{false};
void noteExit() { exiting.store(true, std::memory_order_relaxed); }

// How long the thread looks for the next item before it sleeps: the pool's spin (base/thread_pool.cc
// says why 1 ms). The caller enqueues eager ops a few microseconds apart; waking a sleeping thread
// costs tens of microseconds in a VM. Every 16 rounds (tens of µs) it yields, in case the thread that
// enqueues (Node's) waits for this CPU; yielding every round slowed back-to-back tiny ops (W2b).
constexpr auto kSpin = std::chrono::milliseconds(1);

}  // namespace

bool DeviceQueue::onQueueThread() { return tlsQueueThread; }

void DeviceQueue::stop() {
  std::thread thread;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
    thread.swap(thread_);
  }
  wake_.notify_all();
  if (thread.joinable()) thread.join();
  std::lock_guard<std::mutex> lock(mu_);
  stopping_ = false;
}

std::unique_ptr<DeviceQueue::Work> DeviceQueue::submit(std::unique_ptr<Work>&& work) {
  bool wake;
  std::unique_ptr<Work> reuse;
  {
    std::unique_lock<std::mutex> lock(mu_);
    // A device thread never waits for room: the item it would wait behind may need it to finish first.
    if (queued_.load(std::memory_order_relaxed) >= kMaxQueued && !tlsQueueThread) {
      waitingForRoom_.fetch_add(1, std::memory_order_relaxed);
      space_.wait(lock, [&] { return queued_.load(std::memory_order_relaxed) <= kMaxQueued / 2; });
      waitingForRoom_.fetch_sub(1, std::memory_order_relaxed);
    }
    if (!thread_.joinable()) thread_ = std::thread([this] { loop(); });
    queue_.push_back(std::move(work));
    queued_.fetch_add(1, std::memory_order_release);
    wake = sleeping_;
    if (!ran_.empty()) {
      reuse = std::move(ran_.back());
      ran_.pop_back();
    }
  }
  if (wake) wake_.notify_one();
  return reuse;
}

// Takes everything queued at once and runs it outside the lock, so the submitting thread rarely waits
// for the lock.
void DeviceQueue::loop() {
  tlsQueueThread = true;
  static const bool registered = std::atexit(noteExit) == 0;
  (void)registered;
  std::deque<std::unique_ptr<Work>> batch;
  std::vector<std::unique_ptr<Work>> ran;
  for (;;) {
    if (queued_.load(std::memory_order_acquire) == 0)
      spinUntil([this] { return queued_.load(std::memory_order_acquire) > 0; }, kSpin, 16);
    {
      std::unique_lock<std::mutex> lock(mu_);
      for (auto& item : ran)
        if (ran_.size() < kMaxQueued) ran_.push_back(std::move(item));
      ran.clear();  // more than a queue's worth: freed here
      while (queue_.empty()) {
        if (stopping_) return;
        sleeping_ = true;
        wake_.wait(lock);
        sleeping_ = false;
      }
      batch.swap(queue_);
    }
    for (std::unique_ptr<Work>& work : batch) {
      if (exiting.load(std::memory_order_relaxed)) return;
      work->run();
      ran.push_back(std::move(work));
      size_t left = queued_.fetch_sub(1, std::memory_order_acq_rel) - 1;
      if (left == kMaxQueued / 2 && waitingForRoom_.load(std::memory_order_relaxed) > 0) {
        std::lock_guard<std::mutex> lock(mu_);
        space_.notify_all();
      }
    }
    batch.clear();
  }
}

}  // namespace tpjrt::cpu
