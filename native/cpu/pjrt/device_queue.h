// One device's work queue, as an accelerator's stream: a thread of its own runs what is submitted,
// one item at a time, in the order submitted, so the caller's thread (Node's, for the addon) only
// enqueues. Kernels inside an item still split their work over the client's thread pool. The thread
// starts with the first item; when the queue runs dry it spins for a while, so that back-to-back eager
// ops find it awake, then sleeps.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace tpjrt::cpu {

class DeviceQueue {
 public:
  // An item. run() also lets go of what the item holds: the item itself is handed back to a
  // submitter for reuse, so that memory allocated by the submitting thread is freed there, not here
  // (a free from another thread takes the allocator's lock on every small object).
  struct Work {
    virtual ~Work() = default;
    virtual void run() noexcept = 0;
  };

  // At most this many items wait; submit() on a full queue blocks until it is half empty (as a GPU's
  // launch queue does), so a caller far ahead of the device cannot pile up work without bound, and
  // it wakes once per half a queue rather than once per item.
  static constexpr size_t kMaxQueued = 1024;

  DeviceQueue() = default;
  DeviceQueue(const DeviceQueue&) = delete;
  DeviceQueue& operator=(const DeviceQueue&) = delete;
  ~DeviceQueue() { stop(); }

  // Runs everything still queued, then stops the thread (a later submit starts it again). Never call
  // it on the queue's own thread.
  void stop();

  // Returns an item that has run, for the caller to reuse, or nullptr. When it throws, `work` is
  // still the caller's.
  std::unique_ptr<Work> submit(std::unique_ptr<Work>&& work);
  // Nothing is queued or running: work the caller runs itself now comes after all that was submitted.
  bool idle() const { return queued_.load(std::memory_order_acquire) == 0; }
  // True on the thread of any device queue.
  static bool onQueueThread();

 private:
  void loop();

  std::mutex mu_;
  std::condition_variable wake_;   // the thread sleeps on it
  std::condition_variable space_;  // submitters of a full queue wait on it
  std::deque<std::unique_ptr<Work>> queue_;  // not yet taken by the thread
  std::vector<std::unique_ptr<Work>> ran_;   // items that have run, for submit() to hand back
  std::atomic<size_t> queued_{0};             // items submitted and not yet run
  std::atomic<int> waitingForRoom_{0};        // submitters waiting on space_
  bool sleeping_ = false;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace tpjrt::cpu
