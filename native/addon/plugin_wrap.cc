#include "plugin_wrap.h"

#include "client_wrap.h"
#include "convert.h"
#include "errors.h"
#include "promise_worker.h"
#include "state.h"
#include "wrap.h"

namespace tpjrt::addon {

const napi_type_tag PluginWrap::kTypeTag = {0x7470'6a72'7470'6c75ULL, 0xb7e2'0d4c'93a1'6f58ULL};

void PluginWrap::define(Napi::Env env, AddonState& state) {
  constexpr auto kProp = napi_enumerable;
  Napi::Function cls = DefineClass(env, kName,
                                   {
                                       InstanceAccessor<&PluginWrap::Path>("path", kProp),
                                       InstanceAccessor<&PluginWrap::ApiMajor>("apiMajor", kProp),
                                       InstanceAccessor<&PluginWrap::ApiMinor>("apiMinor", kProp),
                                       InstanceAccessor<&PluginWrap::NumSlots>("numSlots", kProp),
                                       InstanceMethod<&PluginWrap::Attributes>("attributes"),
                                       InstanceMethod<&PluginWrap::CreateClient>("createClient"),
                                       InstanceMethod<&PluginWrap::CompileForTopology>("compileForTopology"),
                                       InstanceMethod<&PluginWrap::SetFlushDenormal>("setFlushDenormal"),
                                   });
  state.pluginClass = Napi::Persistent(cls);
}

Napi::Object PluginWrap::create(Napi::Env env, Init init) {
  return constructWrapped<PluginWrap>(state(env).pluginClass, std::move(init));
}

PluginWrap::PluginWrap(const Napi::CallbackInfo& info) : Napi::ObjectWrap<PluginWrap>(info) {
  plugin_ = takeInit<PluginWrap>(info).plugin;
}

Napi::Value PluginWrap::Path(const Napi::CallbackInfo& info) { return Napi::String::New(info.Env(), plugin_->path()); }

Napi::Value PluginWrap::ApiMajor(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), plugin_->majorVersion());
}

Napi::Value PluginWrap::ApiMinor(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), plugin_->minorVersion());
}

Napi::Value PluginWrap::NumSlots(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(plugin_->numSlots()));
}

Napi::Value PluginWrap::Attributes(const Napi::CallbackInfo& info) {
  return namedValuesTo(info.Env(), plugin_->attributes());
}

// true or false as the plugin answers, undefined for a plugin without the call.
Napi::Value PluginWrap::SetFlushDenormal(const Napi::CallbackInfo& info) {
  if (!info[0].IsBoolean()) {
    Napi::TypeError::New(info.Env(), "Plugin.setFlushDenormal: mode must be a boolean").ThrowAsJavaScriptException();
    return info.Env().Undefined();
  }
  std::optional<bool> supported = plugin_->setFlushDenormal(info[0].As<Napi::Boolean>().Value());
  if (!supported) return info.Env().Undefined();
  return Napi::Boolean::New(info.Env(), *supported);
}

Napi::Value PluginWrap::CreateClient(const Napi::CallbackInfo& info) {
  const char* call = "Plugin.createClient";
  std::vector<NamedValue> options = namedValuesFrom(info[0], call);
  std::shared_ptr<Client> client = guard(info.Env(), call, [&] { return Client::create(plugin_, options); });
  trackClient(client);
  return ClientWrap::create(info.Env(), {std::move(client)});
}

Napi::Value PluginWrap::CompileForTopology(const Napi::CallbackInfo& info) {
  const char* call = "Plugin.compileForTopology";
  return rejectOnThrow(info.Env(), [&]() -> Napi::Value {
    std::string topology = stringFrom(info[0], call, "topology");
    std::vector<NamedValue> topologyOptions = namedValuesFrom(info[1], call);
    std::string mlir = stringFrom(info[2], call, "mlir");
    CompileOptions options = compileOptionsFrom(info[3], call);
    auto result = std::make_shared<AotResult>();
    std::shared_ptr<Plugin> plugin = plugin_;
    return runOnWorker(
        info.Env(), call,
        [plugin, topology = std::move(topology), topologyOptions = std::move(topologyOptions),
         mlir = std::move(mlir), options, result] {
          *result = plugin->compileForTopology(topology, topologyOptions, mlir, options);
        },
        [result](Napi::Env env) -> Napi::Value { return aotResultTo(env, *result); });
  });
}

}  // namespace tpjrt::addon
