// JS class Executable (NativeExecutable in src/runtime/native.ts): one loaded executable.
#pragma once

#include <napi.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime.h"

namespace tpjrt::addon {

struct AddonState;

class ExecutableWrap : public Napi::ObjectWrap<ExecutableWrap> {
 public:
  struct Init {
    std::unique_ptr<LoadedExecutable> executable;
    const Client* client;  // identity only, to check run()'s arguments
    bool hostResident;     // passed on to the output buffers
  };
  static inline thread_local Init* pending = nullptr;
  static constexpr const char* kName = "Executable";
  static const napi_type_tag kTypeTag;

  static void define(Napi::Env env, AddonState& state);
  static Napi::Object create(Napi::Env env, Init init);

  explicit ExecutableWrap(const Napi::CallbackInfo& info);

 private:
  LoadedExecutable& live(const char* call) const;

  Napi::Value NumOutputs(const Napi::CallbackInfo& info);
  Napi::Value OutputTypes(const Napi::CallbackInfo& info);
  Napi::Value OutputDims(const Napi::CallbackInfo& info);
  Napi::Value Fingerprint(const Napi::CallbackInfo& info);
  Napi::Value Run(const Napi::CallbackInfo& info);
  Napi::Value Call(const Napi::CallbackInfo& info);
  std::vector<std::unique_ptr<Buffer>> execute(Napi::Env env, const char* call, const Buffer* const* args, size_t count);
  Napi::Object wrapOutput(Napi::Env env, std::unique_ptr<Buffer> buffer);
  void Dispose(const Napi::CallbackInfo& info);

  std::unique_ptr<LoadedExecutable> executable_;
  const Client* client_ = nullptr;
  bool hostResident_ = false;
};

}  // namespace tpjrt::addon
