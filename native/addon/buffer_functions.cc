#include "buffer_functions.h"

#include "buffer_table.h"
#include "convert.h"
#include "errors.h"
#include "promise_worker.h"
#include "state.h"

namespace tpjrt::addon {
namespace {

const BufferTable::Entry& entryOf(const Napi::CallbackInfo& info, const char* call) {
  return state(info.Env()).buffers.get(info.Env(), info[0], call, "buffer");
}

Napi::Value Info(const Napi::CallbackInfo& info) {
  const char* call = "buffers.info";
  Napi::Env env = info.Env();
  const Buffer& buffer = *entryOf(info, call).get();
  return guard(env, call, [&] {
    Napi::Object out = Napi::Object::New(env);
    out.Set("type", Napi::Number::New(env, buffer.elementType()));
    out.Set("dims", numbersTo(env, buffer.dims()));
    out.Set("byteSize", Napi::Number::New(env, static_cast<double>(buffer.hostSizeInBytes())));
    out.Set("onDeviceSize", Napi::Number::New(env, static_cast<double>(buffer.onDeviceSizeInBytes())));
    out.Set("deviceIndex", Napi::Number::New(env, buffer.deviceIndex()));
    return out;
  });
}

Napi::Value ToHost(const Napi::CallbackInfo& info) {
  const char* call = "buffers.toHost";
  return rejectOnThrow(info.Env(), [&]() -> Napi::Value {
    std::shared_ptr<Buffer> buffer = state(info.Env()).buffers.share(entryOf(info, call));
    size_t size = buffer->hostSizeInBytes();
    Napi::ArrayBuffer out = Napi::ArrayBuffer::New(info.Env(), size);
    // The worker writes straight into the ArrayBuffer's backing store, which the reference keeps
    // alive and which JS cannot see until the promise resolves.
    auto outRef = std::make_shared<Napi::Reference<Napi::ArrayBuffer>>(Napi::Persistent(out));
    void* data = out.Data();
    return runOnWorker(
        info.Env(), call,
        [buffer, data, size] {
          if (size == 0) {
            buffer->awaitReady();
          } else {
            buffer->toHost(data, size);
          }
        },
        [outRef](Napi::Env) -> Napi::Value { return outRef->Value(); });
  });
}

Napi::Value ToHostSync(const Napi::CallbackInfo& info) {
  const char* call = "buffers.toHostSync";
  const Buffer& buffer = *entryOf(info, call).get();
  size_t size = buffer.hostSizeInBytes();
  Napi::ArrayBuffer out = Napi::ArrayBuffer::New(info.Env(), size);
  guard(info.Env(), call, [&] {
    if (size == 0) {
      buffer.awaitReady();
    } else {
      buffer.toHost(out.Data(), size);
    }
  });
  return out;
}

void ReportToGc(const Napi::CallbackInfo& info) {
  state(info.Env()).buffers.reportToGc(info.Env(), info[0], "buffers.reportToGc");
}

void Dispose(const Napi::CallbackInfo& info) { state(info.Env()).buffers.dispose(info.Env(), info[0], "buffers.dispose"); }

}  // namespace

Napi::Object bufferFunctions(Napi::Env env) {
  Napi::Object out = Napi::Object::New(env);
  out.Set("info", Napi::Function::New<Info>(env, "info"));
  out.Set("toHost", Napi::Function::New<ToHost>(env, "toHost"));
  out.Set("toHostSync", Napi::Function::New<ToHostSync>(env, "toHostSync"));
  out.Set("reportToGc", Napi::Function::New<ReportToGc>(env, "reportToGc"));
  out.Set("dispose", Napi::Function::New<Dispose>(env, "dispose"));
  return out;
}

}  // namespace tpjrt::addon
