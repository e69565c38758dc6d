#include "buffer_wrap.h"

#include "convert.h"
#include "errors.h"
#include "promise_worker.h"
#include "state.h"
#include "wrap.h"

namespace tpjrt::addon {

const napi_type_tag BufferWrap::kTypeTag = {0x7470'6a72'7462'7566ULL, 0x9c3e'51d2'0b84'a7f1ULL};

void BufferWrap::define(Napi::Env env, AddonState& state) {
  constexpr auto kProp = napi_enumerable;
  Napi::Function cls = DefineClass(env, kName,
                                   {
                                       InstanceAccessor<&BufferWrap::Type>("type", kProp),
                                       InstanceAccessor<&BufferWrap::Dims>("dims", kProp),
                                       InstanceAccessor<&BufferWrap::ByteSize>("byteSize", kProp),
                                       InstanceAccessor<&BufferWrap::OnDeviceSize>("onDeviceSize", kProp),
                                       InstanceAccessor<&BufferWrap::DeviceIndex>("deviceIndex", kProp),
                                       InstanceAccessor<&BufferWrap::Disposed>("disposed", kProp),
                                       InstanceMethod<&BufferWrap::ToHost>("toHost"),
                                       InstanceMethod<&BufferWrap::ToHostSync>("toHostSync"),
                                       InstanceMethod<&BufferWrap::Dispose>("dispose"),
                                   });
  state.bufferClass = Napi::Persistent(cls);
}

Napi::Object BufferWrap::create(Napi::Env env, Init init) {
  return constructWrapped<BufferWrap>(state(env).bufferClass, std::move(init));
}

const std::shared_ptr<Buffer>& BufferWrap::argument(Napi::Value value, const Client* client, const char* call,
                                                    const char* what, int index) {
  BufferWrap* wrap = unwrapTagged<BufferWrap>(value, call, what, index);
  const std::shared_ptr<Buffer>& buffer = wrap->live(call);
  if (wrap->client_ != client) throwTypeError(value.Env(), call, argumentName(what, index) + " belongs to a different client");
  return buffer;
}

BufferWrap::BufferWrap(const Napi::CallbackInfo& info) : Napi::ObjectWrap<BufferWrap>(info) {
  Init init = takeInit<BufferWrap>(info);
  guard(info.Env(), kName, [&] {
    type_ = init.buffer->elementType();
    dims_ = init.buffer->dims();
    byteSize_ = init.buffer->hostSizeInBytes();
    deviceIndex_ = init.buffer->deviceIndex();
  });
  client_ = init.client;
  buffer_ = std::move(init.buffer);
  externalBytes_ = init.hostResident ? static_cast<int64_t>(byteSize_) : 0;
  adjustExternalBytes(info.Env(), externalBytes_);
}

BufferWrap::~BufferWrap() { release(); }

void BufferWrap::release() {
  if (!buffer_) return;
  buffer_.reset();
  adjustExternalBytes(Env(), -externalBytes_);
  externalBytes_ = 0;
}

const std::shared_ptr<Buffer>& BufferWrap::live(const char* call) const {
  if (!buffer_) throwUsageError(Env(), call, "Buffer has been disposed");
  return buffer_;
}

Napi::Value BufferWrap::Type(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), type_); }

Napi::Value BufferWrap::Dims(const Napi::CallbackInfo& info) { return numbersTo(info.Env(), dims_); }

Napi::Value BufferWrap::ByteSize(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(byteSize_));
}

Napi::Value BufferWrap::OnDeviceSize(const Napi::CallbackInfo& info) {
  const char* call = "Buffer.onDeviceSize";
  return guard(info.Env(), call, [&] {
    return Napi::Number::New(info.Env(), static_cast<double>(live(call)->onDeviceSizeInBytes()));
  });
}

Napi::Value BufferWrap::DeviceIndex(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), deviceIndex_);
}

Napi::Value BufferWrap::Disposed(const Napi::CallbackInfo& info) {
  return Napi::Boolean::New(info.Env(), !buffer_);
}

Napi::Value BufferWrap::ToHost(const Napi::CallbackInfo& info) {
  const char* call = "Buffer.toHost";
  return rejectOnThrow(info.Env(), [&]() -> Napi::Value {
    std::shared_ptr<Buffer> buffer = live(call);
    Napi::ArrayBuffer out = Napi::ArrayBuffer::New(info.Env(), byteSize_);
    // The worker writes straight into the ArrayBuffer's backing store, which the reference keeps
    // alive and which JS cannot see until the promise resolves.
    auto outRef = std::make_shared<Napi::Reference<Napi::ArrayBuffer>>(Napi::Persistent(out));
    void* data = out.Data();
    size_t size = byteSize_;
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

Napi::Value BufferWrap::ToHostSync(const Napi::CallbackInfo& info) {
  const char* call = "Buffer.toHostSync";
  const Buffer& buffer = *live(call);
  Napi::ArrayBuffer out = Napi::ArrayBuffer::New(info.Env(), byteSize_);
  guard(info.Env(), call, [&] {
    if (byteSize_ == 0) {
      buffer.awaitReady();
    } else {
      buffer.toHost(out.Data(), byteSize_);
    }
  });
  return out;
}

void BufferWrap::Dispose(const Napi::CallbackInfo&) { release(); }

}  // namespace tpjrt::addon
