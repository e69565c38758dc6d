#include "executable_wrap.h"

#include <cstring>

#include "buffer_table.h"
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
                                       InstanceMethod<&ExecutableWrap::RunWith>("runWith"),
                                       InstanceMethod<&ExecutableWrap::Serialize>("serialize"),
                                       InstanceMethod<&ExecutableWrap::Dispose>("dispose"),
                                   });
  state.executableClass = Napi::Persistent(cls);
}

Napi::Object ExecutableWrap::create(Napi::Env env, Init init) {
  return constructWrapped<ExecutableWrap>(state(env).executableClass, std::move(init));
}

ExecutableWrap::ExecutableWrap(const Napi::CallbackInfo& info) : Napi::ObjectWrap<ExecutableWrap>(info) {
  Init init = takeInit<ExecutableWrap>(info);
  core_ = std::make_shared<ExecutableCore>();
  core_->executable = std::move(init.executable);
  core_->client = init.client;
  core_->hostResident = init.hostResident;
  core_->mayDonate = core_->executable->mayDonate();
  core_->buffers = &state(info.Env()).buffers;
  using Shared = std::shared_ptr<ExecutableCore>;
  auto* data = new Shared(core_);
  Napi::Function call = Napi::Function::New<&ExecutableWrap::Call>(info.Env(), "call", data);
  call.AddFinalizer([](Napi::Env, Shared* shared) { delete shared; }, data);
  info.This().As<Napi::Object>().DefineProperty(Napi::PropertyDescriptor::Value("call", call, napi_enumerable));
}

LoadedExecutable& ExecutableCore::live(Napi::Env env, const char* call) const {
  if (!executable) throwUsageError(env, call, "Executable has been disposed");
  return *executable;
}

LoadedExecutable& ExecutableWrap::live(const char* call) const { return core_->live(Env(), call); }

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

Napi::Value ExecutableWrap::Run(const Napi::CallbackInfo& info) { return runArray(info, "Executable.run", {}); }

// The options are read first: reading them may run JS (getters), which must not meet held arguments.
Napi::Value ExecutableWrap::RunWith(const Napi::CallbackInfo& info) {
  const char* call = "Executable.runWith";
  Napi::Env env = info.Env();
  std::vector<int64_t> nonDonatable;
  if (!info[1].IsUndefined()) {
    if (!info[1].IsObject() || info[1].IsArray()) throwTypeError(env, call, "options must be an object");
    Napi::Value list = info[1].As<Napi::Object>().Get("nonDonatable");
    if (!list.IsUndefined()) nonDonatable = int64ListFrom(list, call, "options.nonDonatable");
  }
  return runArray(info, call, std::move(nonDonatable));
}

Napi::Value ExecutableWrap::runArray(const Napi::CallbackInfo& info, const char* call,
                                     std::vector<int64_t> nonDonatable) {
  Napi::Env env = info.Env();
  if (!info[0].IsArray()) throwTypeError(env, call, "args must be an array of buffer handles");
  Napi::Array argArray = info[0].As<Napi::Array>();
  const uint32_t count = argArray.Length();
  for (int64_t i : nonDonatable)
    if (i < 0 || i >= int64_t(count))
      throwRangeError(env, call, "options.nonDonatable names argument " + std::to_string(i) + " but there are " +
                                     std::to_string(count) + " args");
  // Held for the call: reading the array may run JS (getters) that disposes a buffer.
  std::vector<std::shared_ptr<Buffer>> held(count);
  std::vector<const Buffer*> args(count);
  std::vector<napi_value> handles(count);
  for (uint32_t i = 0; i < count; ++i) {
    handles[i] = argArray.Get(i);
    const BufferTable::Entry& entry = core_->argument(env, handles[i], call, static_cast<int>(i));
    if (core_->keep(entry)) nonDonatable.push_back(i);
    held[i] = core_->buffers->share(entry);
    args[i] = held[i].get();
  }
  std::vector<std::unique_ptr<Buffer>> outputs = core_->execute(env, call, args.data(), count, nonDonatable);
  core_->forgetDonated(env, call, args.data(), handles.data(), count);
  return core_->handlesOf(env, std::move(outputs));
}

// The eager hot path: the handles come as arguments (no array to build and read, and no JS can run
// between reading them and the execute, so nothing needs holding) and one output comes back bare.
Napi::Value ExecutableWrap::Call(const Napi::CallbackInfo& info) {
  const char* call = "Executable.call";
  Napi::Env env = info.Env();
  ExecutableCore& core = **static_cast<std::shared_ptr<ExecutableCore>*>(info.Data());
  constexpr size_t kInline = 8;
  const size_t count = info.Length();
  const Buffer* inlineArgs[kInline];
  std::vector<const Buffer*> heapArgs(count > kInline ? count : 0);
  const Buffer** args = count > kInline ? heapArgs.data() : inlineArgs;
  std::vector<int64_t> nonDonatable;
  for (size_t i = 0; i < count; ++i) {
    const BufferTable::Entry& entry = core.argument(env, info[i], call, static_cast<int>(i));
    if (core.keep(entry)) nonDonatable.push_back(static_cast<int64_t>(i));
    args[i] = entry.get();
  }
  std::vector<std::unique_ptr<Buffer>> outputs = core.execute(env, call, args, count, nonDonatable);
  if (core.mayDonate) {
    std::vector<napi_value> handles(count);
    for (size_t i = 0; i < count; ++i) handles[i] = info[i];
    core.forgetDonated(env, call, args, handles.data(), count);
  }
  if (outputs.size() == 1) return core.buffers->add(env, std::move(outputs[0]), core.client, core.hostResident);
  return core.handlesOf(env, std::move(outputs));
}

const BufferTable::Entry& ExecutableCore::argument(Napi::Env env, napi_value value, const char* call, int index) const {
  const BufferTable::Entry& entry = buffers->get(env, value, call, "args", index);
  if (entry.client != client) throwTypeError(env, call, argumentName("args", index) + " belongs to a different client");
  return entry;
}

std::vector<std::unique_ptr<Buffer>> ExecutableCore::execute(Napi::Env env, const char* call, const Buffer* const* args,
                                                             size_t count, const std::vector<int64_t>& nonDonatable) {
  LoadedExecutable& loaded = live(env, call);
  return guard(env, call, [&] { return loaded.execute(args, count, nonDonatable); });
}

void ExecutableCore::forgetDonated(Napi::Env env, const char* call, const Buffer* const* args,
                                   const napi_value* handles, size_t count) const {
  if (!mayDonate || !hostResident) return;
  for (size_t i = 0; i < count; ++i)
    if (guard(env, call, [&] { return args[i]->isDeleted(); })) buffers->forgetBytes(env, handles[i], call);
}

Napi::Array ExecutableCore::handlesOf(Napi::Env env, std::vector<std::unique_ptr<Buffer>> outputs) const {
  std::vector<Napi::Value> handles;
  handles.reserve(outputs.size());
  for (auto& output : outputs) handles.push_back(buffers->add(env, std::move(output), client, hostResident));
  Napi::Array result = Napi::Array::New(env, handles.size());
  for (size_t i = 0; i < handles.size(); ++i) result.Set(static_cast<uint32_t>(i), handles[i]);
  return result;
}

Napi::Value ExecutableWrap::Serialize(const Napi::CallbackInfo& info) {
  const char* call = "Executable.serialize";
  Napi::Env env = info.Env();
  std::string bytes = guard(env, call, [&] { return live(call).serialize(); });
  Napi::Uint8Array out = Napi::Uint8Array::New(env, bytes.size());
  std::memcpy(out.Data(), bytes.data(), bytes.size());
  return out;
}

void ExecutableWrap::Dispose(const Napi::CallbackInfo&) { core_->executable.reset(); }

}  // namespace tpjrt::addon
