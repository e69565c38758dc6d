// PJRT_Buffer_* queries, deletion and device-to-device copies.
#include "pjrt/buffer.h"

#include <array>

#include "ir/element_type.h"
#include "kernels/views.h"
#include "pjrt/error.h"
#include "pjrt/event.h"
#include "pjrt/slots.h"
#include "pjrt/types.h"

namespace tpjrt::cpu {
namespace {

// Row-major minor_to_major of rank r is the last r entries; higher ranks get their own array.
constexpr size_t kSharedLayoutRank = 64;
const std::array<int64_t, kSharedLayoutRank> kDescending = [] {
  std::array<int64_t, kSharedLayoutRank> a{};
  for (size_t k = 0; k < kSharedLayoutRank; ++k) a[k] = int64_t(kSharedLayoutRank - 1 - k);
  return a;
}();

}  // namespace

namespace {

PJRT_Buffer* newHandle(const std::shared_ptr<ClientState>& client, PJRT_Device* device, const TensorType& type,
                       bool counted = true) {
  auto buffer = std::make_unique<PJRT_Buffer>();
  buffer->client = client;
  buffer->device = device;
  buffer->type = type;
  buffer->bufferType = bufferTypeOf(type.element);
  size_t rank = type.dims.size();
  if (rank <= kSharedLayoutRank) {
    buffer->minorToMajor = kDescending.data() + (kSharedLayoutRank - rank);
  } else {
    buffer->ownLayout.resize(rank);
    for (size_t k = 0; k < rank; ++k) buffer->ownLayout[k] = int64_t(rank - 1 - k);
    buffer->minorToMajor = buffer->ownLayout.data();
  }
  buffer->sizeInBytes = numElements(type) * int64_t(byteWidth(type.element));
  buffer->value.store(std::make_shared<BufferValue>());
  if (counted) client->recordAllocation(device, buffer->sizeInBytes);
  return buffer.release();
}

}  // namespace

PJRT_Buffer* newPendingBuffer(const std::shared_ptr<ClientState>& client, PJRT_Device* device, const TensorType& type,
                              bool counted) {
  return newHandle(client, device, type, counted);
}

PJRT_Buffer* newBuffer(const std::shared_ptr<ClientState>& client, PJRT_Device* device, Literal value) {
  PJRT_Buffer* buffer = newHandle(client, device, value.type);
  define(*buffer->value.load(), std::make_shared<const Literal>(std::move(value)));
  return buffer;
}

void define(BufferValue& value, std::shared_ptr<const Literal> data) {
  value.data.store(std::move(data));
  value.defined.set();
}

void failValue(BufferValue& value, const Failure& failure) { value.defined.set(failure); }

std::shared_ptr<BufferValue> liveValue(const PJRT_Buffer* buffer, const std::string& what) {
  requireNonNull(buffer, what.c_str());
  std::shared_ptr<BufferValue> value = buffer->value.load();
  if (!value) fail(what + " has been deleted or donated");
  return value;
}

std::shared_ptr<const Literal> awaitDenseData(BufferValue& value) {
  if (const Failure* failure = value.defined.await()) throw CpuError(ErrorCode(int(failure->code)), failure->message);
  return denseData(value, value.data.load());
}

std::shared_ptr<const Literal> denseData(const BufferValue& value, std::shared_ptr<const Literal> data) {
  if (!data->view) return data;
  auto dense = std::make_shared<const Literal>(denseOf(*data));
  value.data.compare_exchange_strong(data, dense);
  return dense;
}

namespace {

void release(PJRT_Buffer& buffer) {
  if (buffer.value.exchange(nullptr)) buffer.client->recordRelease(buffer.device, buffer.sizeInBytes);
}

}  // namespace

void destroyBuffer(PJRT_Buffer* buffer) {
  if (!buffer) return;
  release(*buffer);
  delete buffer;
}

std::shared_ptr<BufferValue> donate(PJRT_Buffer& buffer) { return buffer.value.exchange(nullptr); }

namespace {

PJRT_Buffer& bufferOf(PJRT_Buffer* buffer) {
  requireNonNull(buffer, "buffer");
  return *buffer;
}

PJRT_Error* bufferDestroy(PJRT_Buffer_Destroy_Args* args) {
  return guarded("PJRT_Buffer_Destroy", [&] {
    TPJRT_CHECK_ARGS(PJRT_Buffer_Destroy_Args, args, buffer);
    destroyBuffer(args->buffer);
  });
}

PJRT_Error* bufferDelete(PJRT_Buffer_Delete_Args* args) {
  return guarded("PJRT_Buffer_Delete", [&] {
    TPJRT_CHECK_ARGS(PJRT_Buffer_Delete_Args, args, buffer);
    release(bufferOf(args->buffer));
  });
}

PJRT_Error* bufferIsDeleted(PJRT_Buffer_IsDeleted_Args* args) {
  return guarded("PJRT_Buffer_IsDeleted", [&] {
    TPJRT_CHECK_ARGS(PJRT_Buffer_IsDeleted_Args, args, is_deleted);
    args->is_deleted = !bufferOf(args->buffer).value.load();
  });
}

PJRT_Error* bufferElementType(PJRT_Buffer_ElementType_Args* args) {
  return guarded("PJRT_Buffer_ElementType", [&] {
    TPJRT_CHECK_ARGS(PJRT_Buffer_ElementType_Args, args, type);
    args->type = bufferOf(args->buffer).bufferType;
  });
}

PJRT_Error* bufferDimensions(PJRT_Buffer_Dimensions_Args* args) {
  return guarded("PJRT_Buffer_Dimensions", [&] {
    TPJRT_CHECK_ARGS(PJRT_Buffer_Dimensions_Args, args, num_dims);
    const PJRT_Buffer& buffer = bufferOf(args->buffer);
    args->dims = buffer.type.dims.data();
    args->num_dims = buffer.type.dims.size();
  });
}

PJRT_Error* bufferUnpaddedDimensions(PJRT_Buffer_UnpaddedDimensions_Args* args) {
  return guarded("PJRT_Buffer_UnpaddedDimensions", [&] {
    TPJRT_CHECK_ARGS(PJRT_Buffer_UnpaddedDimensions_Args, args, num_dims);
    const PJRT_Buffer& buffer = bufferOf(args->buffer);
    args->unpadded_dims = buffer.type.dims.data();
    args->num_dims = buffer.type.dims.size();
  });
}

PJRT_Error* bufferDynamicDimensionIndices(PJRT_Buffer_DynamicDimensionIndices_Args* args) {
  return guarded("PJRT_Buffer_DynamicDimensionIndices", [&] {
    TPJRT_CHECK_ARGS(PJRT_Buffer_DynamicDimensionIndices_Args, args, num_dynamic_dims);
    bufferOf(args->buffer);
    args->dynamic_dim_indices = nullptr;
    args->num_dynamic_dims = 0;
  });
}

PJRT_Error* bufferGetMemoryLayout(PJRT_Buffer_GetMemoryLayout_Args* args) {
  return guarded("PJRT_Buffer_GetMemoryLayout", [&] {
    TPJRT_CHECK_ARGS(PJRT_Buffer_GetMemoryLayout_Args, args, layout);
    const PJRT_Buffer& buffer = bufferOf(args->buffer);
    PJRT_Buffer_MemoryLayout& layout = args->layout;
    layout = PJRT_Buffer_MemoryLayout{};
    layout.struct_size = PJRT_Buffer_MemoryLayout_STRUCT_SIZE;
    layout.type = PJRT_Buffer_MemoryLayout_Type_Tiled;
    layout.tiled.struct_size = PJRT_Buffer_MemoryLayout_Tiled_STRUCT_SIZE;
    layout.tiled.minor_to_major = buffer.minorToMajor;
    layout.tiled.minor_to_major_size = buffer.type.dims.size();
  });
}

PJRT_Error* bufferOnDeviceSizeInBytes(PJRT_Buffer_OnDeviceSizeInBytes_Args* args) {
  return guarded("PJRT_Buffer_OnDeviceSizeInBytes", [&] {
    TPJRT_CHECK_ARGS(PJRT_Buffer_OnDeviceSizeInBytes_Args, args, on_device_size_in_bytes);
    args->on_device_size_in_bytes = size_t(bufferOf(args->buffer).sizeInBytes);
  });
}

PJRT_Error* bufferDevice(PJRT_Buffer_Device_Args* args) {
  return guarded("PJRT_Buffer_Device", [&] {
    TPJRT_CHECK_ARGS(PJRT_Buffer_Device_Args, args, device);
    args->device = bufferOf(args->buffer).device;
  });
}

PJRT_Error* bufferMemory(PJRT_Buffer_Memory_Args* args) {
  return guarded("PJRT_Buffer_Memory", [&] {
    TPJRT_CHECK_ARGS(PJRT_Buffer_Memory_Args, args, memory);
    args->memory = &bufferOf(args->buffer).device->memory;
  });
}

PJRT_Error* bufferIsOnCpu(PJRT_Buffer_IsOnCpu_Args* args) {
  return guarded("PJRT_Buffer_IsOnCpu", [&] {
    TPJRT_CHECK_ARGS(PJRT_Buffer_IsOnCpu_Args, args, is_on_cpu);
    bufferOf(args->buffer);
    args->is_on_cpu = true;
  });
}

// The value's own completion: set when the run that defines the buffer has finished.
PJRT_Error* bufferReadyEvent(PJRT_Buffer_ReadyEvent_Args* args) {
  return guarded("PJRT_Buffer_ReadyEvent", [&] {
    TPJRT_CHECK_ARGS(PJRT_Buffer_ReadyEvent_Args, args, event);
    std::shared_ptr<BufferValue> value = bufferOf(args->buffer).value.load();
    if (!value) {
      auto deleted = std::make_shared<Completion>();
      deleted->set(Failure{PJRT_Error_Code_INVALID_ARGUMENT, "buffer has been deleted or donated"});
      args->event = newEvent(std::move(deleted));
      return;
    }
    args->event = newEvent(std::shared_ptr<Completion>(value, &value->defined));
  });
}

// The copy is defined when the source is: it shares the source's (dense) storage.
PJRT_Buffer* copyTo(PJRT_Buffer& buffer, PJRT_Device* target) {
  buffer.client->requireOwnDevice(target, "the destination");
  if (target == buffer.device)
    fail("the buffer is already on device " + std::to_string(target->id) + "; copy it only to another device");
  std::shared_ptr<BufferValue> source = liveValue(&buffer, "buffer");
  PJRT_Buffer* copy = newPendingBuffer(buffer.client, target, buffer.type);
  source->defined.then([source, copy = copy->value.load()](const Failure* failure) {
    if (failure) return failValue(*copy, *failure);
    try {
      define(*copy, denseData(*source, source->data.load()));
    } catch (...) {
      failValue(*copy, currentFailure());
    }
  });
  return copy;
}

PJRT_Error* bufferCopyToDevice(PJRT_Buffer_CopyToDevice_Args* args) {
  return guarded("PJRT_Buffer_CopyToDevice", [&] {
    TPJRT_CHECK_ARGS(PJRT_Buffer_CopyToDevice_Args, args, dst_buffer);
    args->dst_buffer = copyTo(bufferOf(args->buffer), args->dst_device);
  });
}

PJRT_Error* bufferCopyToMemory(PJRT_Buffer_CopyToMemory_Args* args) {
  return guarded("PJRT_Buffer_CopyToMemory", [&] {
    TPJRT_CHECK_ARGS(PJRT_Buffer_CopyToMemory_Args, args, dst_buffer);
    PJRT_Buffer& buffer = bufferOf(args->buffer);
    buffer.client->requireOwnMemory(args->dst_memory, "dst_memory");
    args->dst_buffer = copyTo(buffer, args->dst_memory->device);
  });
}

}  // namespace

void fillBufferSlots(PJRT_Api& api) {
  api.PJRT_Buffer_Destroy = bufferDestroy;
  api.PJRT_Buffer_Delete = bufferDelete;
  api.PJRT_Buffer_IsDeleted = bufferIsDeleted;
  api.PJRT_Buffer_ElementType = bufferElementType;
  api.PJRT_Buffer_Dimensions = bufferDimensions;
  api.PJRT_Buffer_UnpaddedDimensions = bufferUnpaddedDimensions;
  api.PJRT_Buffer_DynamicDimensionIndices = bufferDynamicDimensionIndices;
  api.PJRT_Buffer_GetMemoryLayout = bufferGetMemoryLayout;
  api.PJRT_Buffer_OnDeviceSizeInBytes = bufferOnDeviceSizeInBytes;
  api.PJRT_Buffer_Device = bufferDevice;
  api.PJRT_Buffer_Memory = bufferMemory;
  api.PJRT_Buffer_IsOnCpu = bufferIsOnCpu;
  api.PJRT_Buffer_ReadyEvent = bufferReadyEvent;
  api.PJRT_Buffer_CopyToDevice = bufferCopyToDevice;
  api.PJRT_Buffer_CopyToMemory = bufferCopyToMemory;
}

}  // namespace tpjrt::cpu
