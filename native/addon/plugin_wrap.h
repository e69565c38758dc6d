// JS class Plugin (NativePlugin in src/runtime/native.ts).
#pragma once

#include <napi.h>

#include <memory>

#include "runtime.h"

namespace tpjrt::addon {

struct AddonState;

class PluginWrap : public Napi::ObjectWrap<PluginWrap> {
 public:
  struct Init {
    std::shared_ptr<Plugin> plugin;
  };
  static inline thread_local Init* pending = nullptr;
  static constexpr const char* kName = "Plugin";
  static const napi_type_tag kTypeTag;

  static void define(Napi::Env env, AddonState& state);
  static Napi::Object create(Napi::Env env, Init init);

  explicit PluginWrap(const Napi::CallbackInfo& info);

 private:
  Napi::Value Path(const Napi::CallbackInfo& info);
  Napi::Value ApiMajor(const Napi::CallbackInfo& info);
  Napi::Value ApiMinor(const Napi::CallbackInfo& info);
  Napi::Value NumSlots(const Napi::CallbackInfo& info);
  Napi::Value Attributes(const Napi::CallbackInfo& info);
  Napi::Value CreateClient(const Napi::CallbackInfo& info);
  Napi::Value CompileForTopology(const Napi::CallbackInfo& info);
  Napi::Value SetFlushDenormal(const Napi::CallbackInfo& info);

  std::shared_ptr<Plugin> plugin_;
};

}  // namespace tpjrt::addon
