// JS class Buffer (NativeBuffer in src/runtime/native.ts): one device buffer.
#pragma once

#include <napi.h>

#include <memory>
#include <vector>

#include "runtime.h"

namespace tpjrt::addon {

struct AddonState;

class BufferWrap : public Napi::ObjectWrap<BufferWrap> {
 public:
  struct Init {
    std::unique_ptr<Buffer> buffer;
    const Client* client;  // identity only; the buffer itself keeps its client alive
    bool hostResident;     // the plugin keeps device memory in host RAM (reported to V8)
  };
  static inline thread_local Init* pending = nullptr;
  static constexpr const char* kName = "Buffer";
  static const napi_type_tag kTypeTag;

  static void define(Napi::Env env, AddonState& state);
  static Napi::Object create(Napi::Env env, Init init);
  // The live buffer behind `value`, which must be a non-disposed Buffer of `client`. `what` names
  // the argument in errors; with `index` >= 0 it is written `what[index]`.
  static const std::shared_ptr<Buffer>& argument(Napi::Value value, const Client* client, const char* call,
                                                 const char* what, int index = -1);

  explicit BufferWrap(const Napi::CallbackInfo& info);
  ~BufferWrap() override;

 private:
  const std::shared_ptr<Buffer>& live(const char* call) const;
  void release();

  Napi::Value Type(const Napi::CallbackInfo& info);
  Napi::Value Dims(const Napi::CallbackInfo& info);
  Napi::Value ByteSize(const Napi::CallbackInfo& info);
  Napi::Value OnDeviceSize(const Napi::CallbackInfo& info);
  Napi::Value DeviceIndex(const Napi::CallbackInfo& info);
  Napi::Value Disposed(const Napi::CallbackInfo& info);
  Napi::Value ToHost(const Napi::CallbackInfo& info);
  Napi::Value ToHostSync(const Napi::CallbackInfo& info);
  void Dispose(const Napi::CallbackInfo& info);

  // Shared so that an in-flight toHost() keeps the device buffer alive past dispose().
  std::shared_ptr<Buffer> buffer_;
  const Client* client_ = nullptr;
  BufferType type_ = 0;
  std::vector<int64_t> dims_;
  size_t byteSize_ = 0;
  int deviceIndex_ = 0;
  int64_t externalBytes_ = 0;
};

}  // namespace tpjrt::addon
