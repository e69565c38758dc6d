#include "buffer_table.h"

#include <string>

#include "errors.h"
#include "state.h"
#include "wrap.h"

namespace tpjrt::addon {
namespace {

// index in the low 24 bits, generation (1..63) above: every handle stays below 2^30, a small
// integer V8 passes without allocating.
constexpr int kIndexBits = 24;
constexpr uint32_t kMaxSlots = 1u << kIndexBits;
constexpr uint32_t kGenerations = 63;

uint32_t indexOf(uint32_t handle) { return handle & (kMaxSlots - 1); }
uint32_t generationOf(uint32_t handle) { return handle >> kIndexBits; }

}  // namespace

BufferTable::~BufferTable() {
  // The environment is going away: the buffers are freed, V8 needs no more reports.
  for (Entry& e : slots_) {
    if (e.live()) countExternalBytes(-e.externalBytes);
  }
}

Napi::Value BufferTable::add(Napi::Env env, std::unique_ptr<Buffer> buffer, const Client* client, bool hostResident) {
  uint32_t index;
  if (!free_.empty()) {
    index = free_.back();
    free_.pop_back();
  } else {
    if (slots_.size() >= kMaxSlots)
      throw makeError(env, kUsageError, "Buffer", "more than " + std::to_string(kMaxSlots) + " live device buffers");
    index = static_cast<uint32_t>(slots_.size());
    guard(env, "Buffer", [&] { slots_.emplace_back(); });
  }
  Entry& e = slots_[index];
  e.externalBytes = hostResident ? static_cast<int64_t>(buffer->hostSizeInBytes()) : 0;
  e.owned = std::move(buffer);
  e.client = client;
  e.reportedToGc = false;
  e.generation = e.generation % kGenerations + 1;
  countExternalBytes(e.externalBytes);
  return Napi::Number::New(env, static_cast<double>((e.generation << kIndexBits) | index));
}

uint32_t BufferTable::handleOf(napi_env env, napi_value value, const char* call, const char* what, int index) const {
  double number;
  if (napi_get_value_double(env, value, &number) != napi_ok || !(number >= 0) || number >= double(1u << 30) ||
      number != double(static_cast<uint32_t>(number)))  // in range, so the cast keeps exactly its integer part
    throwTypeError(env, call, argumentName(what, index) + " must be a buffer handle");
  return static_cast<uint32_t>(number);
}

const BufferTable::Entry* BufferTable::find(uint32_t handle) const {
  uint32_t index = indexOf(handle);
  if (index >= slots_.size()) return nullptr;
  const Entry& e = slots_[index];
  return e.live() && e.generation == generationOf(handle) ? &e : nullptr;
}

const BufferTable::Entry& BufferTable::get(Napi::Env env, napi_value value, const char* call, const char* what,
                                           int index) const {
  const Entry* e = find(handleOf(env, value, call, what, index));
  if (e == nullptr) throwUsageError(env, call, "Buffer has been disposed");
  return *e;
}

std::shared_ptr<Buffer> BufferTable::share(const Entry& entry) {
  Entry& e = slots_[static_cast<size_t>(&entry - slots_.data())];
  if (e.owned) e.shared = std::move(e.owned);
  return e.shared;
}

void BufferTable::reportToGc(Napi::Env env, napi_value value, const char* call) {
  const Entry* found = find(handleOf(env, value, call, "buffer", -1));
  if (found == nullptr || found->reportedToGc) return;
  Entry& e = slots_[static_cast<size_t>(found - slots_.data())];
  e.reportedToGc = true;
  reportExternalBytes(env, e.externalBytes);
}

void BufferTable::dispose(Napi::Env env, napi_value value, const char* call) {
  uint32_t handle = handleOf(env, value, call, "buffer", -1);
  if (find(handle) == nullptr) return;
  guard(env, call, [&] { free_.reserve(slots_.size()); });  // so that push_back below cannot throw
  Entry* e = &slots_[indexOf(handle)];
  std::unique_ptr<Buffer> owned = std::move(e->owned);
  std::shared_ptr<Buffer> shared = std::move(e->shared);
  countExternalBytes(-e->externalBytes);
  if (e->reportedToGc) reportExternalBytes(env, -e->externalBytes);
  e->externalBytes = 0;
  e->reportedToGc = false;
  e->client = nullptr;
  free_.push_back(indexOf(handle));
}

void BufferTable::forgetBytes(Napi::Env env, napi_value value, const char* call) {
  const Entry* found = find(handleOf(env, value, call, "buffer", -1));
  if (found == nullptr || found->externalBytes == 0) return;
  Entry& e = slots_[static_cast<size_t>(found - slots_.data())];
  countExternalBytes(-e.externalBytes);
  if (e.reportedToGc) reportExternalBytes(env, -e.externalBytes);
  e.externalBytes = 0;
}

}  // namespace tpjrt::addon
