#include "client_wrap.h"

#include <cctype>

#include "convert.h"
#include "errors.h"
#include "executable_wrap.h"
#include "graph_wrap.h"
#include "host_data.h"
#include "promise_worker.h"
#include "stablehlo_printer.h"
#include "state.h"
#include "wrap.h"

namespace tpjrt::addon {
namespace {

// Our CPU plugin (and any "cpu" platform) keeps device buffers in host RAM, which V8 should know of.
bool isHostPlatform(const std::string& platformName) {
  std::string lower;
  for (char c : platformName) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower == "cpu" || lower == "host";
}

// Client.compile and Client.compileGraph: `mlirOf()` gives the module text on the worker, which
// compiles it there; the promise resolves to an ExecutableWrap.
template <class MlirOf>
Napi::Value compileOnWorker(Napi::Env env, const char* call, std::shared_ptr<Client> client, bool hostResident,
                            CompileOptions options, MlirOf mlirOf) {
  auto compiled = std::make_shared<std::unique_ptr<LoadedExecutable>>();
  return runOnWorker(
      env, call,
      [client, mlirOf = std::move(mlirOf), options = std::move(options), compiled] {
        *compiled = client->compile(mlirOf(), options);
      },
      [client, compiled, hostResident](Napi::Env env) -> Napi::Value {
        return ExecutableWrap::create(env, {std::move(*compiled), client.get(), hostResident});
      });
}

}  // namespace

const napi_type_tag ClientWrap::kTypeTag = {0x7470'6a72'7463'6c69ULL, 0x2f86'c3d9'a1e0'5b47ULL};

void ClientWrap::define(Napi::Env env, AddonState& state) {
  constexpr auto kProp = napi_enumerable;
  Napi::Function cls = DefineClass(env, kName,
                                   {
                                       InstanceAccessor<&ClientWrap::PlatformName>("platformName", kProp),
                                       InstanceAccessor<&ClientWrap::PlatformVersion>("platformVersion", kProp),
                                       InstanceAccessor<&ClientWrap::ProcessIndex>("processIndex", kProp),
                                       InstanceMethod<&ClientWrap::Devices>("devices"),
                                       InstanceMethod<&ClientWrap::MemoryStats>("memoryStats"),
                                       InstanceMethod<&ClientWrap::BufferFromHost>("bufferFromHost"),
                                       InstanceMethod<&ClientWrap::Compile>("compile"),
                                       InstanceMethod<&ClientWrap::CompileSync>("compileSync"),
                                       InstanceMethod<&ClientWrap::CompileGraph>("compileGraph"),
                                       InstanceMethod<&ClientWrap::CompileGraphSync>("compileGraphSync"),
                                       InstanceMethod<&ClientWrap::DeserializeAndLoad>("deserializeAndLoad"),
                                       InstanceMethod<&ClientWrap::Synchronize>("synchronize"),
                                       InstanceMethod<&ClientWrap::Close>("close"),
                                   });
  state.clientClass = Napi::Persistent(cls);
}

Napi::Object ClientWrap::create(Napi::Env env, Init init) {
  return constructWrapped<ClientWrap>(state(env).clientClass, std::move(init));
}

ClientWrap::ClientWrap(const Napi::CallbackInfo& info) : Napi::ObjectWrap<ClientWrap>(info) {
  Init init = takeInit<ClientWrap>(info);
  client_ = std::move(init.client);
  hostResident_ = isHostPlatform(client_->platformName());
}

const std::shared_ptr<Client>& ClientWrap::live(const char* call) const {
  if (!client_) throwUsageError(Env(), call, "Client has been closed");
  return client_;
}

Napi::Value ClientWrap::PlatformName(const Napi::CallbackInfo& info) {
  return Napi::String::New(info.Env(), live("Client.platformName")->platformName());
}

Napi::Value ClientWrap::PlatformVersion(const Napi::CallbackInfo& info) {
  return Napi::String::New(info.Env(), live("Client.platformVersion")->platformVersion());
}

Napi::Value ClientWrap::ProcessIndex(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), live("Client.processIndex")->processIndex());
}

Napi::Value ClientWrap::Devices(const Napi::CallbackInfo& info) {
  const auto& devices = live("Client.devices")->devices();
  Napi::Array array = Napi::Array::New(info.Env(), devices.size());
  for (size_t i = 0; i < devices.size(); ++i) array.Set(static_cast<uint32_t>(i), deviceInfoTo(info.Env(), devices[i]));
  return array;
}

Napi::Value ClientWrap::MemoryStats(const Napi::CallbackInfo& info) {
  const char* call = "Client.memoryStats";
  const Client& client = *live(call);
  int deviceIndex = intFrom(info[0], call, "deviceIndex");
  if (deviceIndex < 0 || static_cast<size_t>(deviceIndex) >= client.devices().size())
    throwRangeError(info.Env(), call, "deviceIndex " + std::to_string(deviceIndex) + " is not an addressable device");
  return guard(info.Env(), call, [&]() -> Napi::Value {
    std::optional<tpjrt::MemoryStats> stats = client.memoryStats(deviceIndex);
    if (!stats) return info.Env().Null();
    return memoryStatsTo(info.Env(), *stats);
  });
}

Napi::Value ClientWrap::BufferFromHost(const Napi::CallbackInfo& info) {
  const char* call = "Client.bufferFromHost";
  Napi::Env env = info.Env();
  BufferType type = intFrom(info[1], call, "type");
  std::vector<int64_t> dims = int64ListFrom(info[2], call, "dims");
  std::vector<int64_t> byteStrides;
  if (!info[3].IsNull() && !info[3].IsUndefined()) byteStrides = int64ListFrom(info[3], call, "byteStrides");
  int deviceIndex = intFrom(info[4], call, "deviceIndex");
  // Reading the arrays above may run JS (getters) that closes the client or detaches the data, so
  // both are looked at only now; nothing below runs JS before the copy.
  HostBytes bytes = hostBytesFrom(info[0], call);
  const std::shared_ptr<Client>& client = live(call);

  size_t elementSize = byteWidthOf(type);
  if (elementSize == 0) throwRangeError(env, call, "element type " + std::to_string(type) + " is not supported");
  if (deviceIndex < 0 || static_cast<size_t>(deviceIndex) >= client->devices().size())
    throwRangeError(env, call, "deviceIndex " + std::to_string(deviceIndex) + " is not an addressable device");
  checkHostExtent(env, call, bytes, elementSize, dims, byteStrides);

  std::unique_ptr<Buffer> buffer =
      guard(env, call, [&] { return client->bufferFromHost(bytes.data, type, dims, byteStrides, deviceIndex); });
  return state(env).buffers.add(env, std::move(buffer), client.get(), hostResident_);
}

Napi::Value ClientWrap::Compile(const Napi::CallbackInfo& info) {
  const char* call = "Client.compile";
  return rejectOnThrow(info.Env(), [&]() -> Napi::Value {
    std::string mlir = stringFrom(info[0], call, "mlir");
    CompileOptions options = compileOptionsFrom(info[1], call);
    return compileOnWorker(info.Env(), call, live(call), hostResident_, std::move(options),
                           [mlir = std::move(mlir)]() -> const std::string& { return mlir; });
  });
}

Napi::Value ClientWrap::CompileSync(const Napi::CallbackInfo& info) {
  const char* call = "Client.compileSync";
  std::string mlir = stringFrom(info[0], call, "mlir");
  CompileOptions options = compileOptionsFrom(info[1], call);
  const std::shared_ptr<Client>& client = live(call);
  std::unique_ptr<LoadedExecutable> executable = guard(info.Env(), call, [&] { return client->compile(mlir, options); });
  return ExecutableWrap::create(info.Env(), {std::move(executable), client.get(), hostResident_});
}

// The graph is read on the JS thread; printing and compiling run on the worker.
Napi::Value ClientWrap::CompileGraph(const Napi::CallbackInfo& info) {
  const char* call = "Client.compileGraph";
  return rejectOnThrow(info.Env(), [&]() -> Napi::Value {
    lower::Graph graph = graphFrom(info[0], call);
    CompileOptions options = compileOptionsFrom(info[1], call);
    return compileOnWorker(info.Env(), call, live(call), hostResident_, std::move(options),
                           [graph = std::move(graph)] { return lower::printModule(graph); });
  });
}

Napi::Value ClientWrap::CompileGraphSync(const Napi::CallbackInfo& info) {
  const char* call = "Client.compileGraphSync";
  lower::Graph graph = graphFrom(info[0], call);
  CompileOptions options = compileOptionsFrom(info[1], call);
  const std::shared_ptr<Client>& client = live(call);
  std::unique_ptr<LoadedExecutable> executable =
      guard(info.Env(), call, [&] { return client->compile(lower::printModule(graph), options); });
  return ExecutableWrap::create(info.Env(), {std::move(executable), client.get(), hostResident_});
}

Napi::Value ClientWrap::DeserializeAndLoad(const Napi::CallbackInfo& info) {
  const char* call = "Client.deserializeAndLoad";
  CompileOptions options = compileOptionsFrom(info[1], call);
  // Read last: reading the options may run JS that detaches the bytes.
  HostBytes bytes = hostBytesFrom(info[0], call);
  std::string serialized(static_cast<const char*>(bytes.data), bytes.byteLength);
  const std::shared_ptr<Client>& client = live(call);
  std::unique_ptr<LoadedExecutable> executable =
      guard(info.Env(), call, [&] { return client->deserializeAndLoad(serialized, options); });
  return ExecutableWrap::create(info.Env(), {std::move(executable), client.get(), hostResident_});
}

// Blocks the JS thread, as documented for torch.runtime.synchronize.
void ClientWrap::Synchronize(const Napi::CallbackInfo& info) {
  const char* call = "Client.synchronize";
  const Client& client = *live(call);
  int deviceIndex = intFrom(info[0], call, "deviceIndex");
  if (deviceIndex < 0 || static_cast<size_t>(deviceIndex) >= client.devices().size())
    throwRangeError(info.Env(), call, "deviceIndex " + std::to_string(deviceIndex) + " is not an addressable device");
  guard(info.Env(), call, [&] { client.synchronize(deviceIndex); });
}

void ClientWrap::Close(const Napi::CallbackInfo&) { client_.reset(); }

}  // namespace tpjrt::addon
