// Runs native work on a libuv worker thread and settles a promise on the JS thread; optionally only
// once a device buffer is ready, without holding any thread while it waits.
#pragma once

#include <napi.h>

#include <exception>
#include <functional>
#include <memory>
#include <string>

#include "runtime.h"

namespace tpjrt::addon {

// `work` runs off the JS thread and must not touch N-API. `settle` runs on the JS thread after it
// succeeded and returns the resolution value. Any exception from either rejects the promise with
// the error shape of errors.h, attributed to `call`.
Napi::Promise runOnWorker(Napi::Env env, const char* call, std::function<void()> work,
                          std::function<Napi::Value(Napi::Env)> settle);

// runOnWorker, started once `buffer` is defined (PJRT_Event_OnReady on its ready event; the device
// thread that defines it only posts back to the JS thread). A failed definition rejects the promise
// with the run's error. The pending wait keeps the event loop alive.
Napi::Promise runOnWorkerWhenReady(Napi::Env env, const char* call, std::shared_ptr<const Buffer> buffer,
                                   std::function<void()> work, std::function<Napi::Value(Napi::Env)> settle);

// For promise-returning methods: a JS error thrown while starting (a bad argument, a disposed
// object) becomes a rejected promise instead of a synchronous throw.
template <typename Start>
Napi::Value rejectOnThrow(Napi::Env env, Start&& start) {
  try {
    return start();
  } catch (const Napi::Error& e) {
    Napi::Promise::Deferred deferred = Napi::Promise::Deferred::New(env);
    deferred.Reject(e.Value());
    return deferred.Promise();
  }
}

}  // namespace tpjrt::addon
