#include "promise_worker.h"

#include "errors.h"

namespace tpjrt::addon {
namespace {

class PromiseWorker : public Napi::AsyncWorker {
 public:
  PromiseWorker(Napi::Env env, const char* call, std::function<void()> work,
                std::function<Napi::Value(Napi::Env)> settle)
      : Napi::AsyncWorker(env, call),
        call_(call),
        work_(std::move(work)),
        settle_(std::move(settle)),
        deferred_(Napi::Promise::Deferred::New(env)) {}

  Napi::Promise promise() const { return deferred_.Promise(); }

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

}  // namespace

Napi::Promise runOnWorker(Napi::Env env, const char* call, std::function<void()> work,
                          std::function<Napi::Value(Napi::Env)> settle) {
  auto* worker = new PromiseWorker(env, call, std::move(work), std::move(settle));
  Napi::Promise promise = worker->promise();
  worker->Queue();  // the worker deletes itself once settled
  return promise;
}

}  // namespace tpjrt::addon
