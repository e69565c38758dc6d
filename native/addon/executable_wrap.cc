#include "executable_wrap.h"

#include "buffer_wrap.h"
#include "convert.h"
#include "errors.h"
#include "state.h"
#include "wrap.h"

namespace tpjrt::addon {

const napi_type_tag ExecutableWrap::kTypeTag = {0x7470'6a72'7465'7865ULL, 0x4d1a'e0c7'66b2'93f5ULL};

void ExecutableWrap::define(Napi::Env env, AddonState& state) {
  constexpr auto kProp = napi_enumerable;
  Napi::Function cls = DefineClass(env, kName,
                                   {
                                       InstanceAccessor<&ExecutableWrap::NumOutputs>("numOutputs", kProp),
                                       InstanceAccessor<&ExecutableWrap::OutputTypes>("outputTypes", kProp),
                                       InstanceAccessor<&ExecutableWrap::OutputDims>("outputDims", kProp),
                                       InstanceAccessor<&ExecutableWrap::Fingerprint>("fingerprint", kProp),
                                       InstanceMethod<&ExecutableWrap::Run>("run"),
                                       InstanceMethod<&ExecutableWrap::Call>("call"),
                                       InstanceMethod<&ExecutableWrap::Dispose>("dispose"),
                                   });
  state.executableClass = Napi::Persistent(cls);
}

Napi::Object ExecutableWrap::create(Napi::Env env, Init init) {
  return constructWrapped<ExecutableWrap>(state(env).executableClass, std::move(init));
}

ExecutableWrap::ExecutableWrap(const Napi::CallbackInfo& info) : Napi::ObjectWrap<ExecutableWrap>(info) {
  Init init = takeInit<ExecutableWrap>(info);
  executable_ = std::move(init.executable);
  client_ = init.client;
  hostResident_ = init.hostResident;
}

LoadedExecutable& ExecutableWrap::live(const char* call) const {
  if (!executable_) throwUsageError(Env(), call, "Executable has been disposed");
  return *executable_;
}

Napi::Value ExecutableWrap::NumOutputs(const Napi::CallbackInfo& info) {
  const char* call = "Executable.numOutputs";
  return guard(info.Env(), call, [&] {
    return Napi::Number::New(info.Env(), static_cast<double>(live(call).numOutputs()));
  });
}

Napi::Value ExecutableWrap::OutputTypes(const Napi::CallbackInfo& info) {
  const char* call = "Executable.outputTypes";
  return guard(info.Env(), call, [&] { return numbersTo(info.Env(), live(call).outputTypes()); });
}

Napi::Value ExecutableWrap::OutputDims(const Napi::CallbackInfo& info) {
  const char* call = "Executable.outputDims";
  return guard(info.Env(), call, [&] { return dimsListTo(info.Env(), live(call).outputDims()); });
}

Napi::Value ExecutableWrap::Fingerprint(const Napi::CallbackInfo& info) {
  const char* call = "Executable.fingerprint";
  return guard(info.Env(), call, [&]() -> Napi::Value {
    std::optional<std::string> fingerprint = live(call).fingerprint();
    if (!fingerprint) return info.Env().Null();
    return Napi::String::New(info.Env(), *fingerprint);
  });
}

Napi::Value ExecutableWrap::Run(const Napi::CallbackInfo& info) {
  const char* call = "Executable.run";
  Napi::Env env = info.Env();
  if (!info[0].IsArray()) throwTypeError(env, call, "args must be an array of Buffers");
  Napi::Array argArray = info[0].As<Napi::Array>();
  // Held for the call: reading the array may run JS (getters) that disposes a buffer.
  std::vector<std::shared_ptr<Buffer>> held(argArray.Length());
  std::vector<const Buffer*> args(held.size());
  for (uint32_t i = 0; i < held.size(); ++i) {
    held[i] = BufferWrap::argument(argArray.Get(i), client_, call, "args", static_cast<int>(i));
    args[i] = held[i].get();
  }
  std::vector<std::unique_ptr<Buffer>> outputs = execute(env, call, args.data(), args.size());
  Napi::Array result = Napi::Array::New(env, outputs.size());
  for (size_t i = 0; i < outputs.size(); ++i) result.Set(static_cast<uint32_t>(i), wrapOutput(env, std::move(outputs[i])));
  return result;
}

// The eager hot path: the buffers come as arguments (no array to build and read, and no JS can run
// between reading them and the execute, so nothing needs holding) and one output comes back bare.
Napi::Value ExecutableWrap::Call(const Napi::CallbackInfo& info) {
  const char* call = "Executable.call";
  Napi::Env env = info.Env();
  constexpr size_t kInline = 8;
  const size_t count = info.Length();
  const Buffer* inlineArgs[kInline];
  std::vector<const Buffer*> heapArgs(count > kInline ? count : 0);
  const Buffer** args = count > kInline ? heapArgs.data() : inlineArgs;
  for (size_t i = 0; i < count; ++i) args[i] = BufferWrap::argument(info[i], client_, call, "args", static_cast<int>(i)).get();
  std::vector<std::unique_ptr<Buffer>> outputs = execute(env, call, args, count);
  if (outputs.size() == 1) return wrapOutput(env, std::move(outputs[0]));
  Napi::Array result = Napi::Array::New(env, outputs.size());
  for (size_t i = 0; i < outputs.size(); ++i) result.Set(static_cast<uint32_t>(i), wrapOutput(env, std::move(outputs[i])));
  return result;
}

std::vector<std::unique_ptr<Buffer>> ExecutableWrap::execute(Napi::Env env, const char* call, const Buffer* const* args,
                                                             size_t count) {
  LoadedExecutable& executable = live(call);
  return guard(env, call, [&] { return executable.execute(args, count); });
}

Napi::Object ExecutableWrap::wrapOutput(Napi::Env env, std::unique_ptr<Buffer> buffer) {
  return BufferWrap::create(env, {std::move(buffer), client_, hostResident_});
}

void ExecutableWrap::Dispose(const Napi::CallbackInfo&) { executable_.reset(); }

}  // namespace tpjrt::addon
