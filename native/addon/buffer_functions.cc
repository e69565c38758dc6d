#include "buffer_functions.h"

#include <atomic>
#include <string>

#include "buffer_table.h"
#include "convert.h"
#include "errors.h"
#include "host_memory.h"
#include "pjrt_c_api.h"
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
    if (buffer.isDeleted()) out.Set("deleted", Napi::Boolean::New(env, true));
    return out;
  });
}

// Bytes of reads handed to JavaScript whose ArrayBuffers are not finalized yet. Node runs those
// finalizers only between tasks, so a synchronous loop of reads keeps every copy until it ends.
std::atomic<size_t> unfinalizedBytes{0};
// Past this, a synchronous read copies into memory V8 owns, which a collection frees at once.
constexpr size_t kUnfinalizedLimit = size_t(256) << 20;

// The destination of a read: allocated where the copy runs (a worker, for toHost), so that a size the
// system cannot give is an error rather than V8's fatal out-of-memory, and then handed to JS as the
// ArrayBuffer's own storage, without another copy.
class HostCopy {
 public:
  HostCopy() = default;
  HostCopy(const HostCopy&) = delete;
  HostCopy& operator=(const HostCopy&) = delete;
  ~HostCopy() { freeHostMemory(data_, size_); }

  void allocate(size_t size) {
    data_ = allocateHostMemory(size);
    if (data_ == nullptr)
      throw RuntimeError(PJRT_Error_Code_RESOURCE_EXHAUSTED, "toHost",
                         "out of host memory: could not allocate " + std::to_string(size) + " bytes for the copy");
    size_ = size;
  }
  void* data() const { return data_; }
  // The ArrayBuffer frees the storage from here on.
  Napi::ArrayBuffer release(Napi::Env env) {
    unfinalizedBytes += size_;
    Napi::ArrayBuffer out = Napi::ArrayBuffer::New(env, data_, size_, [size = size_](Napi::Env, void* data) {
      freeHostMemory(data, size);
      unfinalizedBytes -= size;
    });
    data_ = nullptr;
    return out;
  }

 private:
  void* data_ = nullptr;
  size_t size_ = 0;
};

Napi::Value ToHost(const Napi::CallbackInfo& info) {
  const char* call = "buffers.toHost";
  return rejectOnThrow(info.Env(), [&]() -> Napi::Value {
    std::shared_ptr<Buffer> buffer = state(info.Env()).buffers.share(entryOf(info, call));
    auto copy = std::make_shared<HostCopy>();
    // Once the buffer is defined (the wait holds no thread), a worker allocates and copies.
    return runOnWorkerWhenReady(
        info.Env(), call, buffer,
        [buffer, copy] {
          size_t size = buffer->hostSizeInBytes();
          copy->allocate(size);
          buffer->toHost(copy->data(), size);
        },
        [copy](Napi::Env env) -> Napi::Value { return copy->release(env); });
  });
}

// Blocks until the buffer is defined; a run that failed throws before anything is allocated.
Napi::Value ToHostSync(const Napi::CallbackInfo& info) {
  const char* call = "buffers.toHostSync";
  const Buffer& buffer = *entryOf(info, call).get();
  return guard(info.Env(), call, [&]() -> Napi::Value {
    buffer.awaitReady();
    size_t size = buffer.hostSizeInBytes();
    if (unfinalizedBytes + size > kUnfinalizedLimit) {
      Napi::ArrayBuffer out = Napi::ArrayBuffer::New(info.Env(), size);
      buffer.toHost(out.Data(), size);
      return out;
    }
    HostCopy copy;
    copy.allocate(size);
    buffer.toHost(copy.data(), size);
    return copy.release(info.Env());
  });
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
