#include "pjrt/event.h"

#include <memory>

#include "pjrt/slots.h"

namespace tpjrt::cpu {

bool Completion::set(std::optional<Failure> failure) {
  std::vector<Continuation> continuations;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (isSet()) return false;
    failure_ = std::move(failure);
    set_.store(true, std::memory_order_release);
    continuations.swap(continuations_);
  }
  becameSet_.notify_all();
  const Failure* result = failure_ ? &*failure_ : nullptr;
  for (Continuation& continuation : continuations) {
    try {
      continuation(result);
    } catch (...) {
      // a continuation reports its own failures; the others still run
    }
  }
  return true;
}

const Failure* Completion::await() {
  if (!isSet()) {
    std::unique_lock<std::mutex> lock(mu_);
    becameSet_.wait(lock, [&] { return isSet(); });
  }
  return failure();
}

void Completion::then(Continuation continuation) {
  if (!isSet()) {
    std::lock_guard<std::mutex> lock(mu_);
    if (!isSet()) {
      continuations_.push_back(std::move(continuation));
      return;
    }
  }
  continuation(failure());
}

const std::shared_ptr<Completion>& doneCompletion() {
  static const auto* done = [] {  // never destroyed: a device thread may still use it during exit
    auto* completion = new std::shared_ptr<Completion>(std::make_shared<Completion>());
    (*completion)->set();
    return completion;
  }();
  return *done;
}

PJRT_Event* newEvent(std::shared_ptr<Completion> completion) { return new PJRT_Event{std::move(completion)}; }

PJRT_Event* newReadyEvent() { return newEvent(doneCompletion()); }

namespace {

Completion& completionOf(const PJRT_Event* event) {
  requireNonNull(event, "event");
  return *event->completion;
}

PJRT_Error* errorOf(const Failure* failure) { return failure ? newError(failure->code, failure->message) : nullptr; }

PJRT_Error* eventDestroy(PJRT_Event_Destroy_Args* args) {
  return guarded("PJRT_Event_Destroy", [&] {
    TPJRT_CHECK_ARGS(PJRT_Event_Destroy_Args, args, event);
    std::unique_ptr<PJRT_Event> event(args->event);
    // Nobody else can set a created event; let anyone still waiting for it know.
    if (event && event->settable) event->completion->set(Failure{PJRT_Error_Code_CANCELLED, "destroyed before it was set"});
  });
}

PJRT_Error* eventIsReady(PJRT_Event_IsReady_Args* args) {
  return guarded("PJRT_Event_IsReady", [&] {
    TPJRT_CHECK_ARGS(PJRT_Event_IsReady_Args, args, is_ready);
    args->is_ready = completionOf(args->event).isSet();
  });
}

PJRT_Error* eventError(PJRT_Event_Error_Args* args) {
  PJRT_Error* result = nullptr;
  PJRT_Error* misuse = guarded("PJRT_Event_Error", [&] {
    TPJRT_CHECK_ARGS(PJRT_Event_Error_Args, args, event);
    const Completion& completion = completionOf(args->event);
    if (!completion.isSet())
      fail("the event is not ready yet (call PJRT_Event_Await or PJRT_Event_OnReady first)",
           ErrorCode::FailedPrecondition);
    result = errorOf(completion.failure());
  });
  return misuse ? misuse : result;
}

PJRT_Error* eventAwait(PJRT_Event_Await_Args* args) {
  PJRT_Error* result = nullptr;
  PJRT_Error* misuse = guarded("PJRT_Event_Await", [&] {
    TPJRT_CHECK_ARGS(PJRT_Event_Await_Args, args, event);
    result = errorOf(completionOf(args->event).await());
  });
  return misuse ? misuse : result;
}

// The callback may run on a device thread, or here when the event is set already; the event handle
// may be destroyed before it runs.
PJRT_Error* eventOnReady(PJRT_Event_OnReady_Args* args) {
  return guarded("PJRT_Event_OnReady", [&] {
    TPJRT_CHECK_ARGS(PJRT_Event_OnReady_Args, args, user_arg);
    Completion& completion = completionOf(args->event);
    requireNonNull(reinterpret_cast<const void*>(args->callback), "callback");
    completion.then([callback = args->callback, userArg = args->user_arg](const Failure* failure) {
      callback(errorOf(failure), userArg);
    });
  });
}

PJRT_Error* eventCreate(PJRT_Event_Create_Args* args) {
  return guarded("PJRT_Event_Create", [&] {
    TPJRT_CHECK_ARGS(PJRT_Event_Create_Args, args, event);
    args->event = new PJRT_Event{std::make_shared<Completion>(), true};
  });
}

PJRT_Error* eventSet(PJRT_Event_Set_Args* args) {
  return guarded("PJRT_Event_Set", [&] {
    TPJRT_CHECK_ARGS(PJRT_Event_Set_Args, args, error_message_size);
    completionOf(args->event);
    std::shared_ptr<Completion> completion = args->event->completion;  // a waiter may destroy the event meanwhile
    if (!args->event->settable) fail("only events made by PJRT_Event_Create can be set");
    std::optional<Failure> failure;
    if (int(args->error_code) != 0) {
      std::string message = args->error_message ? std::string(args->error_message, args->error_message_size) : "";
      failure = Failure{args->error_code, std::move(message)};
    }
    if (!completion->set(std::move(failure))) fail("event is already set");
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
