// JS class Executable (NativeExecutable in src/runtime/native.ts): one loaded executable.
#pragma once

#include <napi.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "buffer_table.h"
#include "runtime.h"

namespace tpjrt::addon {

struct AddonState;

// What running needs. The wrap and its `call` function share it, so the eager hot path finds it
// through the function's data instead of unwrapping `this`.
struct ExecutableCore {
  std::unique_ptr<LoadedExecutable> executable;  // null once disposed
  const Client* client = nullptr;                // identity only, to check the arguments
  bool hostResident = false;                     // passed on to the output buffers
  bool mayDonate = false;                        // LoadedExecutable::mayDonate()
  BufferTable* buffers = nullptr;                // the environment's, which outlives every executable

  LoadedExecutable& live(Napi::Env env, const char* call) const;
  // The live buffer behind handle `value`, which must belong to this executable's client.
  const BufferTable::Entry& argument(Napi::Env env, napi_value value, const char* call, int index) const;
  // Whether a run must not donate the argument `entry`: a host read still waits for its buffer.
  bool keep(const BufferTable::Entry& entry) const { return mayDonate && entry.shared && entry.shared.use_count() > 1; }
  std::vector<std::unique_ptr<Buffer>> execute(Napi::Env env, const char* call, const Buffer* const* args, size_t count,
                                               const std::vector<int64_t>& nonDonatable = {});
  // After a run: an argument it took (donated, its buffer deleted now) stops counting the host bytes
  // that its output counts. `handles[i]` is argument i's handle.
  void forgetDonated(Napi::Env env, const char* call, const Buffer* const* args, const napi_value* handles,
                     size_t count) const;
  Napi::Array handlesOf(Napi::Env env, std::vector<std::unique_ptr<Buffer>> outputs) const;
};

class ExecutableWrap : public Napi::ObjectWrap<ExecutableWrap> {
 public:
  struct Init {
    std::unique_ptr<LoadedExecutable> executable;
    const Client* client;  // identity only, to check run()'s arguments
    bool hostResident;     // passed on to the output buffers
  };
  static inline thread_local Init* pending = nullptr;
  static constexpr const char* kName = "Executable";
  static const napi_type_tag kTypeTag;

  static void define(Napi::Env env, AddonState& state);
  static Napi::Object create(Napi::Env env, Init init);

  explicit ExecutableWrap(const Napi::CallbackInfo& info);

 private:
  LoadedExecutable& live(const char* call) const;
  static Napi::Value Call(const Napi::CallbackInfo& info);

  Napi::Value NumOutputs(const Napi::CallbackInfo& info);
  Napi::Value OutputTypes(const Napi::CallbackInfo& info);
  Napi::Value OutputDims(const Napi::CallbackInfo& info);
  Napi::Value Fingerprint(const Napi::CallbackInfo& info);
  Napi::Value Run(const Napi::CallbackInfo& info);
  Napi::Value RunWith(const Napi::CallbackInfo& info);
  Napi::Value Serialize(const Napi::CallbackInfo& info);
  void Dispose(const Napi::CallbackInfo& info);
  // run() and runWith(): the handles in the array info[0].
  Napi::Value runArray(const Napi::CallbackInfo& info, const char* call, std::vector<int64_t> nonDonatable);

  std::shared_ptr<ExecutableCore> core_;
};

}  // namespace tpjrt::addon
