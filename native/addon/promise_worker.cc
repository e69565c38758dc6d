#include "promise_worker.h"

#include <optional>

#include "errors.h"
#include "pjrt_c_api.h"

namespace tpjrt::addon {
namespace {

class PromiseWorker : public Napi::AsyncWorker {
 public:
  PromiseWorker(Napi::Env env, const char* call, Napi::Promise::Deferred deferred, std::function<void()> work,
                std::function<Napi::Value(Napi::Env)> settle)
      : Napi::AsyncWorker(env, call),
        call_(call),
        work_(std::move(work)),
        settle_(std::move(settle)),
        deferred_(std::move(deferred)) {}

 private:
  void Execute() override {
    try {
      work_();
    } catch (...) {
      error_ = std::current_exception();
    }
  }

  void OnOK() override {
    Napi::Env env = Env();
    if (error_) {
      deferred_.Reject(fromException(env, error_, call_).Value());
      return;
    }
    try {
      deferred_.Resolve(settle_(env));
    } catch (...) {
      deferred_.Reject(fromException(env, std::current_exception(), call_).Value());
    }
  }

  void OnError(const Napi::Error& e) override { deferred_.Reject(e.Value()); }

  std::string call_;
  std::function<void()> work_;
  std::function<Napi::Value(Napi::Env)> settle_;
  Napi::Promise::Deferred deferred_;
  std::exception_ptr error_;
};

void queueWorker(Napi::Env env, const char* call, Napi::Promise::Deferred deferred, std::function<void()> work,
                 std::function<Napi::Value(Napi::Env)> settle) {
  auto* worker = new PromiseWorker(env, call, std::move(deferred), std::move(work), std::move(settle));
  worker->Queue();  // the worker deletes itself once settled
}

// A read waiting for its buffer. Owned by the JS thread: created there, freed in callJs. The plugin's
// thread sees only its address and the thread-safe function, so nothing it drops can free a buffer
// (which could free the plugin's client on its own device thread).
struct ReadyWait {
  const char* call;
  Napi::Promise::Deferred deferred;
  std::shared_ptr<const Buffer> buffer;
  std::function<void()> work;
  std::function<Napi::Value(Napi::Env)> settle;
  napi_threadsafe_function tsfn = nullptr;
  std::optional<RuntimeError> failure;  // written by the plugin's thread before it posts
};

void callJs(napi_env rawEnv, napi_value, void* context, void*) {
  std::unique_ptr<ReadyWait> wait(static_cast<ReadyWait*>(context));
  if (rawEnv == nullptr) return;  // the environment is going away
  Napi::Env env(rawEnv);
  Napi::HandleScope scope(env);
  if (wait->failure) {
    wait->deferred.Reject(fromException(env, std::make_exception_ptr(*wait->failure), wait->call).Value());
    return;
  }
  try {
    queueWorker(env, wait->call, wait->deferred, std::move(wait->work), std::move(wait->settle));
  } catch (...) {
    wait->deferred.Reject(fromException(env, std::current_exception(), wait->call).Value());
  }
}

// Hands the wait to the JS thread, from any thread. callJs may free `waiting` before the call below
// returns, so the thread-safe function is read first; it stays valid until released.
void post(ReadyWait* waiting) {
  napi_threadsafe_function tsfn = waiting->tsfn;
  napi_call_threadsafe_function(tsfn, nullptr, napi_tsfn_nonblocking);
  napi_release_threadsafe_function(tsfn, napi_tsfn_release);
}

}  // namespace

Napi::Promise runOnWorker(Napi::Env env, const char* call, std::function<void()> work,
                          std::function<Napi::Value(Napi::Env)> settle) {
  Napi::Promise::Deferred deferred = Napi::Promise::Deferred::New(env);
  queueWorker(env, call, deferred, std::move(work), std::move(settle));
  return deferred.Promise();
}

Napi::Promise runOnWorkerWhenReady(Napi::Env env, const char* call, std::shared_ptr<const Buffer> buffer,
                                   std::function<void()> work, std::function<Napi::Value(Napi::Env)> settle) {
  Napi::Promise::Deferred deferred = Napi::Promise::Deferred::New(env);
  auto wait = std::make_unique<ReadyWait>(ReadyWait{call, deferred, std::move(buffer), std::move(work), std::move(settle)});
  napi_status status = napi_create_threadsafe_function(env, nullptr, nullptr, Napi::String::New(env, call), 0, 1,
                                                       nullptr, nullptr, wait.get(), callJs, &wait->tsfn);
  if (status != napi_ok) throw makeError(env, kUsageError, call, "could not create a thread-safe function");
  ReadyWait* waiting = wait.release();  // callJs frees it, once the thread-safe function is called
  try {
    waiting->buffer->whenReady([waiting](const RuntimeError* failure) {
      if (failure) waiting->failure.emplace(*failure);
      post(waiting);
    });
  } catch (...) {
    // Nothing was registered: reject through the same path.
    try {
      throw;
    } catch (const RuntimeError& e) {
      waiting->failure.emplace(e);
    } catch (...) {
      waiting->failure.emplace(PJRT_Error_Code_INTERNAL, call, "could not wait for the buffer to be ready");
    }
    post(waiting);
  }
  return deferred.Promise();
}

}  // namespace tpjrt::addon
