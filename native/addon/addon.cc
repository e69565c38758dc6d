// Module entry: registers the classes and exports buildInfo, loadPlugin, liveCounts, printGraph and buffers
// (NativeAddon in src/runtime/native.ts).
#include <napi.h>

#include "buffer_functions.h"
#include "client_wrap.h"
#include "convert.h"
#include "errors.h"
#include "executable_wrap.h"
#include "graph_wrap.h"
#include "pjrt_c_api.h"
#include "plugin_wrap.h"
#include "prof_timer_guard.h"
#include "runtime.h"
#include "stablehlo_printer.h"
#include "state.h"

#ifndef TPJRT_BUILD_TOOL
#define TPJRT_BUILD_TOOL "cmake-js"
#endif

namespace tpjrt::addon {
namespace {

Napi::Value BuildInfo(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Napi::Object out = Napi::Object::New(env);
  out.Set("napiVersion", Napi::Number::New(env, NAPI_VERSION));
  out.Set("pjrtApiMajor", Napi::Number::New(env, PJRT_API_MAJOR));
  out.Set("pjrtApiMinor", Napi::Number::New(env, PJRT_API_MINOR));
  out.Set("compiler", Napi::String::New(env, TPJRT_BUILD_TOOL));
  return out;
}

Napi::Value LoadPlugin(const Napi::CallbackInfo& info) {
  const char* call = "loadPlugin";
  Napi::Env env = info.Env();
  std::string path = stringFrom(info[0], call, "path");
  AddonState& s = state(env);
  auto cached = s.plugins.find(path);
  if (cached != s.plugins.end()) return cached->second.Value();
  std::shared_ptr<Plugin> plugin = guard(env, call, [&] { return Plugin::load(path); });
  Napi::Object object = PluginWrap::create(env, {std::move(plugin)});
  s.plugins[path] = Napi::Persistent(object);
  return object;
}

Napi::Value LiveCounts(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Napi::Object out = Napi::Object::New(env);
  out.Set("buffers", Napi::Number::New(env, static_cast<double>(Buffer::liveCount())));
  out.Set("executables", Napi::Number::New(env, static_cast<double>(LoadedExecutable::liveCount())));
  out.Set("clients", Napi::Number::New(env, static_cast<double>(liveClients())));
  out.Set("externalBytes", Napi::Number::New(env, static_cast<double>(externalBytes())));
  out.Set("gcReportedBytes", Napi::Number::New(env, static_cast<double>(reportedBytes())));
  return out;
}

Napi::Value PrintGraph(const Napi::CallbackInfo& info) {
  const char* call = "printGraph";
  lower::Graph graph = graphFrom(info[0], call);
  return Napi::String::New(info.Env(), guard(info.Env(), call, [&] { return lower::printModule(graph); }));
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  AddonState& s = state(env);
  PluginWrap::define(env, s);
  ClientWrap::define(env, s);
  ExecutableWrap::define(env, s);
  keepSigprofIgnoredAtTeardown(env);
  exports.Set("buildInfo", Napi::Function::New<BuildInfo>(env, "buildInfo"));
  exports.Set("loadPlugin", Napi::Function::New<LoadPlugin>(env, "loadPlugin"));
  exports.Set("liveCounts", Napi::Function::New<LiveCounts>(env, "liveCounts"));
  exports.Set("printGraph", Napi::Function::New<PrintGraph>(env, "printGraph"));
  exports.Set("buffers", bufferFunctions(env));
  return exports;
}

}  // namespace
}  // namespace tpjrt::addon

static Napi::Object InitTorchPjrt(Napi::Env env, Napi::Object exports) { return tpjrt::addon::Init(env, exports); }

NODE_API_MODULE(torch_pjrt, InitTorchPjrt)
