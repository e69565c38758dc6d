// PJRT_Buffer: an array in host memory, attributed to one device of a client. Its data is dense and
// row-major, or a view of another buffer's storage (a transpose or slice result; ir/ir.h), which an
// executable reads through its strides where its plan allows and everything else reads as a dense
// copy, made once (denseData).
//
// A buffer made by an execute is defined later, when its device's queue has run the program: its
// value is pending until then. The value is shared by the handle and by the queued work that defines
// or reads it, so deleting the handle never frees data that pending work still needs, and work that
// reads a buffer keeps it even when the caller deletes it right after enqueueing.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "ir/ir.h"
#include "pjrt/client.h"
#include "pjrt/event.h"
#include "pjrt_c_api.h"

namespace tpjrt::cpu {

struct BufferValue {
  // Set once `data` is stored, or failed (then `data` stays NULL and the failure says why: the run
  // that was to define it failed, or one of that run's own inputs did).
  Completion defined;
  // Mutable: a view is replaced by its dense copy, the same values.
  mutable std::atomic<std::shared_ptr<const Literal>> data;
};

}  // namespace tpjrt::cpu

struct PJRT_Buffer {
  std::shared_ptr<tpjrt::cpu::ClientState> client;
  PJRT_Device* device = nullptr;
  tpjrt::cpu::TensorType type;
  PJRT_Buffer_Type bufferType = PJRT_Buffer_Type_INVALID;
  const int64_t* minorToMajor = nullptr;  // GetMemoryLayout's answer, row-major: rank-1 … 0
  std::vector<int64_t> ownLayout;         // minorToMajor's storage where no shared one is long enough
  int64_t sizeInBytes = 0;
  // NULL once deleted.
  std::atomic<std::shared_ptr<tpjrt::cpu::BufferValue>> value;
};

namespace tpjrt::cpu {

// A buffer holding `value` (defined at once). Counts its bytes against `device`, also when its storage
// is shared with another buffer's (a reshape's output shares its input's): each buffer counts its own.
PJRT_Buffer* newBuffer(const std::shared_ptr<ClientState>& client, PJRT_Device* device, Literal value);
// A buffer of `type` whose value the caller defines later (define / failValue). `counted` false: its
// bytes are a donated buffer's, counted already (see donate).
PJRT_Buffer* newPendingBuffer(const std::shared_ptr<ClientState>& client, PJRT_Device* device, const TensorType& type,
                              bool counted = true);
void define(BufferValue& value, std::shared_ptr<const Literal> data);
void failValue(BufferValue& value, const Failure& failure);

// Releases the buffer's memory (if not yet deleted) and frees the handle.
void destroyBuffer(PJRT_Buffer* buffer);
// Donation: the buffer becomes deleted (donated) and its value goes to the caller, its bytes still
// counted: the uncounted buffer that takes its memory owns them from here on. NULL when the buffer
// was deleted already (its bytes were released).
std::shared_ptr<BufferValue> donate(PJRT_Buffer& buffer);

// The buffer's value, or INVALID_ARGUMENT "<what> has been deleted or donated".
std::shared_ptr<BufferValue> liveValue(const PJRT_Buffer* buffer, const std::string& what);
// The value's data once defined (this blocks until then), dense; a failed definition throws CpuError
// with the failure's code and message.
std::shared_ptr<const Literal> awaitDenseData(BufferValue& value);
// `data` (the value's) when dense; else its dense copy, which replaces the view in the value.
std::shared_ptr<const Literal> denseData(const BufferValue& value, std::shared_ptr<const Literal> data);

}  // namespace tpjrt::cpu
