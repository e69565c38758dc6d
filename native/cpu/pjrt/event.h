// Completions and PJRT_Event. A Completion is pending until it is set, once, as succeeded or failed;
// a buffer's value and every queued run have one. A PJRT_Event is the caller's handle on a
// completion: destroying the handle leaves the completion to whoever sets it, except for events
// made by PJRT_Event_Create, which nobody else can set.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "pjrt/error.h"
#include "pjrt_c_api.h"

namespace tpjrt::cpu {

class Completion {
 public:
  // Called with the failure, or nullptr on success.
  using Continuation = std::function<void(const Failure*)>;

  bool isSet() const { return set_.load(std::memory_order_acquire); }
  // The failure once set (nullptr: it succeeded, or it is not set yet).
  const Failure* failure() const { return isSet() && failure_ ? &*failure_ : nullptr; }
  // Sets it and runs the continuations, on this thread, in the order they were added. False (and
  // nothing changes) when it was already set.
  bool set(std::optional<Failure> failure = std::nullopt);
  // Blocks until set; returns failure().
  const Failure* await();
  // Runs `continuation` once set: at once on this thread when it already is.
  void then(Continuation continuation);

 private:
  std::atomic<bool> set_{false};
  std::mutex mu_;
  std::condition_variable becameSet_;
  std::optional<Failure> failure_;  // written once, before set_
  std::vector<Continuation> continuations_;
};

// A completion that is set already (success), shared by everything that is done at once.
const std::shared_ptr<Completion>& doneCompletion();

}  // namespace tpjrt::cpu

struct PJRT_Event {
  std::shared_ptr<tpjrt::cpu::Completion> completion;
  bool settable = false;  // made by PJRT_Event_Create: destroying it unset cancels it
};

namespace tpjrt::cpu {

// A new handle on `completion` (the caller destroys it with PJRT_Event_Destroy).
PJRT_Event* newEvent(std::shared_ptr<Completion> completion);
// A handle on doneCompletion().
PJRT_Event* newReadyEvent();

}  // namespace tpjrt::cpu
