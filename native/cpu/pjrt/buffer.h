// PJRT_Buffer: an array in host memory, attributed to one device of a client. Its data is dense and
// row-major, or a view of another buffer's storage (a transpose or slice result; ir/ir.h), which an
// executable reads through its strides where its plan allows and everything else reads as a dense
// copy, made once (denseData).
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "ir/ir.h"
#include "pjrt/client.h"
#include "pjrt_c_api.h"

struct PJRT_Buffer {
  std::shared_ptr<tpjrt::cpu::ClientState> client;
  PJRT_Device* device = nullptr;
  tpjrt::cpu::TensorType type;
  PJRT_Buffer_Type bufferType = PJRT_Buffer_Type_INVALID;
  const int64_t* minorToMajor = nullptr;  // GetMemoryLayout's answer, row-major: rank-1 … 0
  std::vector<int64_t> ownLayout;         // minorToMajor's storage where no shared one is long enough
  int64_t sizeInBytes = 0;
  // NULL once deleted. Executions and host reads hold their own reference, so deleting a buffer
  // never frees data that is still being read. Mutable: a view is replaced by its dense copy, the same
  // values.
  mutable std::atomic<std::shared_ptr<const tpjrt::cpu::Literal>> data;
};

namespace tpjrt::cpu {

// Takes ownership of `value` and counts its bytes against `device`, also when its storage is shared
// with another buffer's (a reshape's output shares its input's): each buffer counts its own size.
PJRT_Buffer* newBuffer(const std::shared_ptr<ClientState>& client, PJRT_Device* device, Literal value);

// Releases the buffer's memory (if not yet deleted) and frees the handle.
void destroyBuffer(PJRT_Buffer* buffer);

// The buffer's data, dense, or INVALID_ARGUMENT "<what> has been deleted or donated".
std::shared_ptr<const Literal> liveData(const PJRT_Buffer* buffer, const std::string& what);
// `data` (the buffer's) when dense; else its dense copy, which replaces the view in the buffer.
std::shared_ptr<const Literal> denseData(const PJRT_Buffer& buffer, std::shared_ptr<const Literal> data);
// The same, for callers that name the buffer only when it fails; NULL once deleted.
inline std::shared_ptr<const Literal> dataOf(const PJRT_Buffer& buffer) { return buffer.data.load(); }

}  // namespace tpjrt::cpu
