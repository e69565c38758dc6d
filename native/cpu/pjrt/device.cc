// PJRT_Device_*, PJRT_DeviceDescription_* and PJRT_Memory_* for the client's CPU devices.
#include "pjrt/client.h"
#include "pjrt/error.h"
#include "pjrt/slots.h"

namespace tpjrt::cpu {
namespace {

PJRT_Error* descriptionId(PJRT_DeviceDescription_Id_Args* args) {
  return guarded("PJRT_DeviceDescription_Id", [&] {
    TPJRT_CHECK_ARGS(PJRT_DeviceDescription_Id_Args, args, id);
    requireNonNull(args->device_description, "device_description");
    args->id = args->device_description->id;
  });
}

PJRT_Error* descriptionProcessIndex(PJRT_DeviceDescription_ProcessIndex_Args* args) {
  return guarded("PJRT_DeviceDescription_ProcessIndex", [&] {
    TPJRT_CHECK_ARGS(PJRT_DeviceDescription_ProcessIndex_Args, args, process_index);
    requireNonNull(args->device_description, "device_description");
    args->process_index = 0;
  });
}

PJRT_Error* descriptionAttributes(PJRT_DeviceDescription_Attributes_Args* args) {
  return guarded("PJRT_DeviceDescription_Attributes", [&] {
    TPJRT_CHECK_ARGS(PJRT_DeviceDescription_Attributes_Args, args, attributes);
    requireNonNull(args->device_description, "device_description");
    args->num_attributes = 0;
    args->attributes = nullptr;
  });
}

PJRT_Error* descriptionKind(PJRT_DeviceDescription_Kind_Args* args) {
  return guarded("PJRT_DeviceDescription_Kind", [&] {
    TPJRT_CHECK_ARGS(PJRT_DeviceDescription_Kind_Args, args, device_kind_size);
    requireNonNull(args->device_description, "device_description");
    args->device_kind = kDeviceKind;
    args->device_kind_size = sizeof(kDeviceKind) - 1;
  });
}

PJRT_Error* descriptionDebugString(PJRT_DeviceDescription_DebugString_Args* args) {
  return guarded("PJRT_DeviceDescription_DebugString", [&] {
    TPJRT_CHECK_ARGS(PJRT_DeviceDescription_DebugString_Args, args, debug_string_size);
    requireNonNull(args->device_description, "device_description");
    args->debug_string = args->device_description->debugString.data();
    args->debug_string_size = args->device_description->debugString.size();
  });
}

PJRT_Error* descriptionToString(PJRT_DeviceDescription_ToString_Args* args) {
  return guarded("PJRT_DeviceDescription_ToString", [&] {
    TPJRT_CHECK_ARGS(PJRT_DeviceDescription_ToString_Args, args, to_string_size);
    requireNonNull(args->device_description, "device_description");
    args->to_string = args->device_description->toString.data();
    args->to_string_size = args->device_description->toString.size();
  });
}

PJRT_Error* deviceGetDescription(PJRT_Device_GetDescription_Args* args) {
  return guarded("PJRT_Device_GetDescription", [&] {
    TPJRT_CHECK_ARGS(PJRT_Device_GetDescription_Args, args, device_description);
    requireNonNull(args->device, "device");
    args->device_description = &args->device->description;
  });
}

PJRT_Error* deviceIsAddressable(PJRT_Device_IsAddressable_Args* args) {
  return guarded("PJRT_Device_IsAddressable", [&] {
    TPJRT_CHECK_ARGS(PJRT_Device_IsAddressable_Args, args, is_addressable);
    requireNonNull(args->device, "device");
    args->is_addressable = true;
  });
}

PJRT_Error* deviceLocalHardwareId(PJRT_Device_LocalHardwareId_Args* args) {
  return guarded("PJRT_Device_LocalHardwareId", [&] {
    TPJRT_CHECK_ARGS(PJRT_Device_LocalHardwareId_Args, args, local_hardware_id);
    requireNonNull(args->device, "device");
    args->local_hardware_id = args->device->id;
  });
}

PJRT_Error* deviceAddressableMemories(PJRT_Device_AddressableMemories_Args* args) {
  return guarded("PJRT_Device_AddressableMemories", [&] {
    TPJRT_CHECK_ARGS(PJRT_Device_AddressableMemories_Args, args, num_memories);
    requireNonNull(args->device, "device");
    args->memories = args->device->memories;
    args->num_memories = 1;
  });
}

PJRT_Error* deviceDefaultMemory(PJRT_Device_DefaultMemory_Args* args) {
  return guarded("PJRT_Device_DefaultMemory", [&] {
    TPJRT_CHECK_ARGS(PJRT_Device_DefaultMemory_Args, args, memory);
    requireNonNull(args->device, "device");
    args->memory = &args->device->memory;
  });
}

// Optional statistics are written only where the caller's struct reaches them.
PJRT_Error* deviceMemoryStats(PJRT_Device_MemoryStats_Args* args) {
  return guarded("PJRT_Device_MemoryStats", [&] {
    using Args = PJRT_Device_MemoryStats_Args;
    TPJRT_CHECK_ARGS(Args, args, bytes_in_use);
    requireNonNull(args->device, "device");
    const DeviceStats& stats = args->device->stats;
    args->bytes_in_use = stats.bytesInUse;
    if (TPJRT_HAS_FIELD(Args, args, peak_bytes_in_use_is_set)) {
      args->peak_bytes_in_use = stats.peakBytesInUse;
      args->peak_bytes_in_use_is_set = true;
    }
    if (TPJRT_HAS_FIELD(Args, args, num_allocs_is_set)) {
      args->num_allocs = stats.numAllocs;
      args->num_allocs_is_set = true;
    }
    if (TPJRT_HAS_FIELD(Args, args, largest_alloc_size_is_set)) {
      args->largest_alloc_size = stats.largestAllocSize;
      args->largest_alloc_size_is_set = true;
    }
  });
}

PJRT_Error* memoryId(PJRT_Memory_Id_Args* args) {
  return guarded("PJRT_Memory_Id", [&] {
    TPJRT_CHECK_ARGS(PJRT_Memory_Id_Args, args, id);
    requireNonNull(args->memory, "memory");
    args->id = args->memory->id;
  });
}

PJRT_Error* memoryKind(PJRT_Memory_Kind_Args* args) {
  return guarded("PJRT_Memory_Kind", [&] {
    TPJRT_CHECK_ARGS(PJRT_Memory_Kind_Args, args, kind_size);
    requireNonNull(args->memory, "memory");
    args->kind = kMemoryKind;
    args->kind_size = sizeof(kMemoryKind) - 1;
  });
}

PJRT_Error* memoryKindId(PJRT_Memory_Kind_Id_Args* args) {
  return guarded("PJRT_Memory_Kind_Id", [&] {
    TPJRT_CHECK_ARGS(PJRT_Memory_Kind_Id_Args, args, kind_id);
    requireNonNull(args->memory, "memory");
    args->kind_id = kMemoryKindId;
  });
}

PJRT_Error* memoryDebugString(PJRT_Memory_DebugString_Args* args) {
  return guarded("PJRT_Memory_DebugString", [&] {
    TPJRT_CHECK_ARGS(PJRT_Memory_DebugString_Args, args, debug_string_size);
    requireNonNull(args->memory, "memory");
    args->debug_string = args->memory->debugString.data();
    args->debug_string_size = args->memory->debugString.size();
  });
}

PJRT_Error* memoryToString(PJRT_Memory_ToString_Args* args) {
  return guarded("PJRT_Memory_ToString", [&] {
    TPJRT_CHECK_ARGS(PJRT_Memory_ToString_Args, args, to_string_size);
    requireNonNull(args->memory, "memory");
    args->to_string = args->memory->toString.data();
    args->to_string_size = args->memory->toString.size();
  });
}

PJRT_Error* memoryAddressableByDevices(PJRT_Memory_AddressableByDevices_Args* args) {
  return guarded("PJRT_Memory_AddressableByDevices", [&] {
    TPJRT_CHECK_ARGS(PJRT_Memory_AddressableByDevices_Args, args, num_devices);
    requireNonNull(args->memory, "memory");
    args->devices = args->memory->devices;
    args->num_devices = 1;
  });
}

}  // namespace

void fillDeviceSlots(PJRT_Api& api) {
  api.PJRT_DeviceDescription_Id = descriptionId;
  api.PJRT_DeviceDescription_ProcessIndex = descriptionProcessIndex;
  api.PJRT_DeviceDescription_Attributes = descriptionAttributes;
  api.PJRT_DeviceDescription_Kind = descriptionKind;
  api.PJRT_DeviceDescription_DebugString = descriptionDebugString;
  api.PJRT_DeviceDescription_ToString = descriptionToString;
  api.PJRT_Device_GetDescription = deviceGetDescription;
  api.PJRT_Device_IsAddressable = deviceIsAddressable;
  api.PJRT_Device_LocalHardwareId = deviceLocalHardwareId;
  api.PJRT_Device_AddressableMemories = deviceAddressableMemories;
  api.PJRT_Device_DefaultMemory = deviceDefaultMemory;
  api.PJRT_Device_MemoryStats = deviceMemoryStats;
  api.PJRT_Memory_Id = memoryId;
  api.PJRT_Memory_Kind = memoryKind;
  api.PJRT_Memory_Kind_Id = memoryKindId;
  api.PJRT_Memory_DebugString = memoryDebugString;
  api.PJRT_Memory_ToString = memoryToString;
  api.PJRT_Memory_AddressableByDevices = memoryAddressableByDevices;
}

}  // namespace tpjrt::cpu
