// Device buffers as JS holds them: small integer handles into a per-environment table, so an eager
// op passes and returns numbers instead of wrapped objects. A handle is a slot index plus the slot's
// generation, so a stale handle is a "disposed" error rather than another tensor's buffer. Nothing
// here frees a handle JS forgot: src/memory.ts's FinalizationRegistry does that.
#pragma once

#include <napi.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "runtime.h"

namespace tpjrt::addon {

class BufferTable {
 public:
  struct Entry {
    // The buffer is `owned` until someone needs it past a dispose (an async host read): then it
    // moves to `shared`. At most one of them is set.
    std::unique_ptr<Buffer> owned;
    std::shared_ptr<Buffer> shared;
    const Client* client = nullptr;  // identity only; the buffer itself keeps its client alive
    int64_t externalBytes = 0;       // host bytes (host-resident plugins)
    bool reportedToGc = false;       // externalBytes are part of V8's account (reportToGc)
    uint32_t generation = 0;

    Buffer* get() const { return owned ? owned.get() : shared.get(); }
    bool live() const { return owned || shared; }
  };

  BufferTable() = default;
  BufferTable(const BufferTable&) = delete;
  BufferTable& operator=(const BufferTable&) = delete;
  ~BufferTable();

  // Takes `buffer` and returns its handle. `hostResident`: the plugin keeps it in host RAM.
  Napi::Value add(Napi::Env env, std::unique_ptr<Buffer> buffer, const Client* client, bool hostResident);
  // The live entry behind `value`: TypeError unless it is a handle, a usage error once disposed.
  // `what` names the argument in errors; with `index` >= 0 it is written `what[index]`.
  const Entry& get(Napi::Env env, napi_value value, const char* call, const char* what, int index = -1) const;
  // `entry` (from get()) as a buffer that stays alive even when its handle is disposed meanwhile.
  std::shared_ptr<Buffer> share(const Entry& entry);
  // Adds the buffer's host bytes to what V8 weighs when it decides to collect garbage, once: for
  // buffers whose only owner may be freed by a collection (src/memory.ts's FinalizationRegistry).
  // Buffers held by a tidy scope are not reported: a collection cannot free them, and reporting them
  // made V8 start a full marking every few hundred MB of eager intermediates.
  void reportToGc(Napi::Env env, napi_value value, const char* call);
  // Frees the buffer behind `value`; a handle already disposed is left alone.
  void dispose(Napi::Env env, napi_value value, const char* call);
  // The buffer behind `value` was donated to a run: the run's output holds its memory and counts its
  // bytes, so this handle (still live, its buffer deleted) counts none. A stale handle is left alone.
  void forgetBytes(Napi::Env env, napi_value value, const char* call);

 private:
  // The slot of a live handle, or nullptr when `handle` is stale or was never issued.
  const Entry* find(uint32_t handle) const;
  uint32_t handleOf(napi_env env, napi_value value, const char* call, const char* what, int index) const;

  std::vector<Entry> slots_;
  std::vector<uint32_t> free_;  // indices of empty slots, reused last-freed first
};

}  // namespace tpjrt::addon
