// Host <-> buffer transfers: PJRT_Client_BufferFromHostBuffer, PJRT_Buffer_ToHostBuffer and
// PJRT_Buffer_CopyRawToHost. An upload copies at once. A read copies at once from a defined buffer and
// otherwise when the buffer is defined, on the device's queue; its event says when.
#include <cstring>
#include <limits>

#include "ir/element_type.h"
#include "pjrt/buffer.h"
#include "pjrt/error.h"
#include "pjrt/event.h"
#include "pjrt/host_copy.h"
#include "pjrt/slots.h"
#include "pjrt/types.h"

namespace tpjrt::cpu {
namespace {

std::string supportedTypeNames() {
  std::string names;
  for (int v = 0; v <= int(PJRT_Buffer_Type_U1); ++v) {
    auto type = PJRT_Buffer_Type(v);
    if (!elementTypeOf(type)) continue;
    if (!names.empty()) names += ", ";
    names += bufferTypeName(type);
  }
  return names;
}

ElementType supportedElementType(PJRT_Buffer_Type type) {
  std::optional<ElementType> element = elementTypeOf(type);
  if (!element)
    failUnimplemented("element type " + bufferTypeName(type) +
                      " is not supported by the torch-pjrt cpu plugin (it has " + supportedTypeNames() + ")");
  return *element;
}

std::vector<int64_t> readDims(const int64_t* dims, size_t numDims, size_t elementSize) {
  if (numDims > 0) requireNonNull(dims, "dims");
  std::vector<int64_t> result(dims, dims + numDims);
  int64_t bytes = int64_t(elementSize);
  for (size_t k = 0; k < numDims; ++k) {
    if (result[k] < 0)
      fail("dims[" + std::to_string(k) + "] is " + std::to_string(result[k]) + "; dims must not be negative");
    if (result[k] > 0 && bytes > std::numeric_limits<int64_t>::max() / result[k])
      fail("the array's size overflows 64 bits");
    bytes *= result[k];
  }
  return result;
}

bool isRowMajor(const int64_t* minorToMajor, size_t size, size_t rank) {
  if (size != rank || (rank > 0 && !minorToMajor)) return false;
  for (size_t k = 0; k < rank; ++k)
    if (minorToMajor[k] != int64_t(rank - 1 - k)) return false;
  return true;
}

// Only the dense row-major layout is supported on either side of a transfer.
void requireRowMajor(const PJRT_Buffer_MemoryLayout* layout, const std::vector<int64_t>& dims, size_t elementSize,
                     const char* what) {
  if (!layout) return;
  if (layout->type == PJRT_Buffer_MemoryLayout_Type_Tiled) {
    const auto& tiled = layout->tiled;
    if (tiled.num_tiles == 0 && isRowMajor(tiled.minor_to_major, tiled.minor_to_major_size, dims.size())) return;
  } else if (layout->type == PJRT_Buffer_MemoryLayout_Type_Strides) {
    const auto& strides = layout->strides;
    if (strides.num_byte_strides == dims.size() && (dims.empty() || strides.byte_strides) &&
        std::vector<int64_t>(strides.byte_strides, strides.byte_strides + dims.size()) ==
            denseByteStrides(dims, elementSize))
      return;
  }
  failUnimplemented(std::string(what) +
                    " must be NULL or the dense row-major layout (minor_to_major = [rank-1, …, 0], no tiles)");
}

PJRT_Device* targetDevice(const ClientState& state, PJRT_Device* device, PJRT_Memory* memory) {
  if (memory) {
    state.requireOwnMemory(memory, "memory");
    return memory->device;
  }
  if (device) {
    state.requireOwnDevice(device, "device");
    return device;
  }
  return state.deviceList.front();
}

PJRT_Error* bufferFromHostBuffer(PJRT_Client_BufferFromHostBuffer_Args* args) {
  return guarded("PJRT_Client_BufferFromHostBuffer", [&] {
    TPJRT_CHECK_ARGS(PJRT_Client_BufferFromHostBuffer_Args, args, buffer);
    ClientState& state = stateOf(args->client);
    ElementType element = supportedElementType(args->type);
    size_t width = byteWidth(element);
    std::vector<int64_t> dims = readDims(args->dims, args->num_dims, width);
    std::vector<int64_t> strides;
    if (args->num_byte_strides == 0) {
      strides = denseByteStrides(dims, width);
    } else {
      if (args->num_byte_strides != args->num_dims)
        fail("num_byte_strides is " + std::to_string(args->num_byte_strides) + " but num_dims is " +
             std::to_string(args->num_dims) + "; give one stride per dimension or none");
      requireNonNull(args->byte_strides, "byte_strides");
      strides.assign(args->byte_strides, args->byte_strides + args->num_byte_strides);
    }
    int semantics = int(args->host_buffer_semantics);
    if (semantics < 0 || semantics > int(PJRT_HostBufferSemantics_kMutableZeroCopy))
      fail("host_buffer_semantics " + std::to_string(semantics) + " is not a PJRT_HostBufferSemantics value");
    PJRT_Device* device = targetDevice(state, args->device, args->memory);
    requireRowMajor(args->device_layout, dims, width, "device_layout");

    Literal value;
    value.type.element = element;
    value.type.dims = dims;
    value.bytes = Bytes(size_t(numElements(value.type)) * width);
    if (!value.bytes.empty()) {
      requireNonNull(args->data, "data");
      gatherStrided(static_cast<const uint8_t*>(args->data), dims, strides, width, value.bytes.mutableData());
    }
    args->buffer = newBuffer(args->client->state, device, std::move(value));
    args->done_with_host_buffer = newReadyEvent();  // the data was copied above
  });
}

// Runs `copy` on the value's dense data once it is defined: here when it is, else on the thread that
// defines it (the device's queue). The event is set when the copy is done, or failed with the value's
// own failure.
template <class Copy>
PJRT_Event* copyWhenDefined(std::shared_ptr<BufferValue> value, Copy copy) {
  if (value->defined.isSet() && !value->defined.failure()) {
    copy(*denseData(*value, value->data.load()));
    return newReadyEvent();
  }
  auto done = std::make_shared<Completion>();
  value->defined.then([value, done, copy = std::move(copy)](const Failure* failure) {
    if (failure) {
      done->set(*failure);
      return;
    }
    try {
      copy(*denseData(*value, value->data.load()));
      done->set();
    } catch (...) {
      done->set(currentFailure());
    }
  });
  return newEvent(std::move(done));
}

PJRT_Error* bufferToHostBuffer(PJRT_Buffer_ToHostBuffer_Args* args) {
  return guarded("PJRT_Buffer_ToHostBuffer", [&] {
    TPJRT_CHECK_ARGS(PJRT_Buffer_ToHostBuffer_Args, args, event);
    requireNonNull(args->src, "src");
    const PJRT_Buffer& src = *args->src;
    requireRowMajor(args->host_layout, src.type.dims, byteWidth(src.type.element), "host_layout");
    size_t needed = size_t(src.sizeInBytes);
    args->event = nullptr;
    if (!args->dst) {
      args->dst_size = needed;
      return;
    }
    if (args->dst_size < needed)
      fail("dst_size is " + std::to_string(args->dst_size) + " bytes but the buffer (" + typeString(src.type) +
           ") needs " + std::to_string(needed));
    args->event = copyWhenDefined(liveValue(&src, "src"), [dst = args->dst, needed](const Literal& data) {
      std::memcpy(dst, data.bytes.data(), needed);
    });
  });
}

PJRT_Error* bufferCopyRawToHost(PJRT_Buffer_CopyRawToHost_Args* args) {
  return guarded("PJRT_Buffer_CopyRawToHost", [&] {
    TPJRT_CHECK_ARGS(PJRT_Buffer_CopyRawToHost_Args, args, event);
    std::shared_ptr<BufferValue> value = liveValue(args->buffer, "buffer");
    int64_t size = args->buffer->sizeInBytes;
    if (args->offset < 0 || args->transfer_size < 0 || args->offset > size || args->transfer_size > size - args->offset)
      fail("offset " + std::to_string(args->offset) + " and transfer_size " + std::to_string(args->transfer_size) +
           " do not lie inside the buffer's " + std::to_string(size) + " bytes");
    if (args->transfer_size > 0) requireNonNull(args->dst, "dst");
    args->event = copyWhenDefined(std::move(value), [dst = args->dst, offset = args->offset,
                                                     count = size_t(args->transfer_size)](const Literal& data) {
      if (count > 0) std::memcpy(dst, data.bytes.data() + offset, count);
    });
  });
}

}  // namespace

void fillHostTransferSlots(PJRT_Api& api) {
  api.PJRT_Client_BufferFromHostBuffer = bufferFromHostBuffer;
  api.PJRT_Buffer_ToHostBuffer = bufferToHostBuffer;
  api.PJRT_Buffer_CopyRawToHost = bufferCopyRawToHost;
}

}  // namespace tpjrt::cpu
