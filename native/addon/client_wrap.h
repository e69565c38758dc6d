// JS class Client (NativeClient in src/runtime/native.ts).
#pragma once

#include <napi.h>

#include <memory>

#include "runtime.h"

namespace tpjrt::addon {

struct AddonState;

class ClientWrap : public Napi::ObjectWrap<ClientWrap> {
 public:
  struct Init {
    std::shared_ptr<Client> client;
  };
  static inline thread_local Init* pending = nullptr;
  static constexpr const char* kName = "Client";
  static const napi_type_tag kTypeTag;

  static void define(Napi::Env env, AddonState& state);
  static Napi::Object create(Napi::Env env, Init init);

  explicit ClientWrap(const Napi::CallbackInfo& info);

 private:
  const std::shared_ptr<Client>& live(const char* call) const;

  Napi::Value PlatformName(const Napi::CallbackInfo& info);
  Napi::Value PlatformVersion(const Napi::CallbackInfo& info);
  Napi::Value ProcessIndex(const Napi::CallbackInfo& info);
  Napi::Value Devices(const Napi::CallbackInfo& info);
  Napi::Value MemoryStats(const Napi::CallbackInfo& info);
  Napi::Value BufferFromHost(const Napi::CallbackInfo& info);
  Napi::Value Compile(const Napi::CallbackInfo& info);
  Napi::Value CompileSync(const Napi::CallbackInfo& info);
  Napi::Value CompileGraph(const Napi::CallbackInfo& info);
  Napi::Value CompileGraphSync(const Napi::CallbackInfo& info);
  Napi::Value DeserializeAndLoad(const Napi::CallbackInfo& info);
  void Synchronize(const Napi::CallbackInfo& info);
  void Close(const Napi::CallbackInfo& info);

  // Released by close(); the runtime client lives on while its buffers and executables do.
  std::shared_ptr<Client> client_;
  bool hostResident_ = false;
};

}  // namespace tpjrt::addon
