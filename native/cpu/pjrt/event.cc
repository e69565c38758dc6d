#include "pjrt/event.h"

#include <memory>
#include <tuple>

#include "pjrt/error.h"
#include "pjrt/slots.h"

namespace tpjrt::cpu {

PJRT_Event* newReadyEvent() {
  static PJRT_Event* const ready = [] {
    auto* event = new PJRT_Event;
    event->immortal = true;
    event->ready = true;
    return event;
  }();
  return ready;
}

PJRT_Event* newFailedEvent(PJRT_Error_Code code, const std::string& message) {
  auto* event = new PJRT_Event;
  event->ready = true;
  event->failure.emplace(code, message);
  return event;
}

namespace {

// A fresh copy of the event's error (the caller owns it), or NULL when it succeeded.
// Call with event->mu held.
PJRT_Error* copyFailure(const PJRT_Event& event) {
  if (!event.failure) return nullptr;
  return newError(event.failure->first, event.failure->second);
}

// Marks the event ready and runs the callbacks that were waiting. Once the lock is released a
// waiter may destroy the event, so nothing touches it after that.
void makeReady(PJRT_Event* event, std::optional<std::pair<PJRT_Error_Code, std::string>> failure) {
  std::vector<std::tuple<PJRT_Event_OnReadyCallback, void*, PJRT_Error*>> calls;
  {
    std::lock_guard<std::mutex> lock(event->mu);
    if (event->ready) fail("event is already set");
    event->ready = true;
    event->failure = std::move(failure);
    for (auto& [callback, userArg] : event->callbacks) calls.emplace_back(callback, userArg, copyFailure(*event));
    event->callbacks.clear();
    event->becameReady.notify_all();
  }
  for (auto& [callback, userArg, error] : calls) callback(error, userArg);
}

PJRT_Error* eventDestroy(PJRT_Event_Destroy_Args* args) {
  return guarded("PJRT_Event_Destroy", [&] {
    TPJRT_CHECK_ARGS(PJRT_Event_Destroy_Args, args, event);
    if (!args->event || args->event->immortal) return;
    std::unique_ptr<PJRT_Event> event(args->event);
    // Nobody can set the event any more; let anyone still waiting for it know.
    bool pending;
    {
      std::lock_guard<std::mutex> lock(event->mu);
      pending = !event->ready;
    }
    if (pending)
      makeReady(event.get(), std::make_pair(PJRT_Error_Code_CANCELLED, std::string("destroyed before it was set")));
  });
}

PJRT_Error* eventIsReady(PJRT_Event_IsReady_Args* args) {
  return guarded("PJRT_Event_IsReady", [&] {
    TPJRT_CHECK_ARGS(PJRT_Event_IsReady_Args, args, is_ready);
    requireNonNull(args->event, "event");
    std::lock_guard<std::mutex> lock(args->event->mu);
    args->is_ready = args->event->ready;
  });
}

PJRT_Error* eventError(PJRT_Event_Error_Args* args) {
  PJRT_Error* result = nullptr;
  PJRT_Error* misuse = guarded("PJRT_Event_Error", [&] {
    TPJRT_CHECK_ARGS(PJRT_Event_Error_Args, args, event);
    requireNonNull(args->event, "event");
    std::lock_guard<std::mutex> lock(args->event->mu);
    if (!args->event->ready)
      fail("the event is not ready yet (call PJRT_Event_Await or PJRT_Event_OnReady first)",
           ErrorCode::FailedPrecondition);
    result = copyFailure(*args->event);
  });
  return misuse ? misuse : result;
}

PJRT_Error* eventAwait(PJRT_Event_Await_Args* args) {
  PJRT_Error* result = nullptr;
  PJRT_Error* misuse = guarded("PJRT_Event_Await", [&] {
    TPJRT_CHECK_ARGS(PJRT_Event_Await_Args, args, event);
    requireNonNull(args->event, "event");
    if (args->event->immortal) return;
    std::unique_lock<std::mutex> lock(args->event->mu);
    args->event->becameReady.wait(lock, [&] { return args->event->ready; });
    result = copyFailure(*args->event);
  });
  return misuse ? misuse : result;
}

PJRT_Error* eventOnReady(PJRT_Event_OnReady_Args* args) {
  return guarded("PJRT_Event_OnReady", [&] {
    TPJRT_CHECK_ARGS(PJRT_Event_OnReady_Args, args, user_arg);
    requireNonNull(args->event, "event");
    requireNonNull(reinterpret_cast<const void*>(args->callback), "callback");
    PJRT_Error* error;
    {
      std::lock_guard<std::mutex> lock(args->event->mu);
      if (!args->event->ready) {
        args->event->callbacks.emplace_back(args->callback, args->user_arg);
        return;
      }
      error = copyFailure(*args->event);
    }
    args->callback(error, args->user_arg);
  });
}

PJRT_Error* eventCreate(PJRT_Event_Create_Args* args) {
  return guarded("PJRT_Event_Create", [&] {
    TPJRT_CHECK_ARGS(PJRT_Event_Create_Args, args, event);
    args->event = new PJRT_Event;
  });
}

PJRT_Error* eventSet(PJRT_Event_Set_Args* args) {
  return guarded("PJRT_Event_Set", [&] {
    TPJRT_CHECK_ARGS(PJRT_Event_Set_Args, args, error_message_size);
    requireNonNull(args->event, "event");
    std::optional<std::pair<PJRT_Error_Code, std::string>> failure;
    if (int(args->error_code) != 0) {
      std::string message = args->error_message ? std::string(args->error_message, args->error_message_size) : "";
      failure.emplace(args->error_code, std::move(message));
    }
    makeReady(args->event, std::move(failure));
  });
}

}  // namespace

void fillEventSlots(PJRT_Api& api) {
  api.PJRT_Event_Destroy = eventDestroy;
  api.PJRT_Event_IsReady = eventIsReady;
  api.PJRT_Event_Error = eventError;
  api.PJRT_Event_Await = eventAwait;
  api.PJRT_Event_OnReady = eventOnReady;
  api.PJRT_Event_Create = eventCreate;
  api.PJRT_Event_Set = eventSet;
}

}  // namespace tpjrt::cpu
