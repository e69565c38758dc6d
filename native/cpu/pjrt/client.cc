// PJRT_Client_Create/Destroy and the client's queries about itself and its devices.
#include "pjrt/client.h"

#include <algorithm>
#include <string_view>

#include "pjrt/error.h"
#include "pjrt/slots.h"

namespace tpjrt::cpu {

ClientState::ClientState(int deviceCount, int threads) : threadPool(std::make_unique<ThreadPool>(threads)) {
  for (int id = 0; id < deviceCount; ++id) {
    auto device = std::make_unique<PJRT_Device>();
    device->client = this;
    device->id = id;
    device->description.id = id;
    device->description.debugString = "cpu:" + std::to_string(id);
    device->description.toString = "CpuDevice(id=" + std::to_string(id) + ")";
    device->memory.id = id;
    device->memory.device = device.get();
    device->memory.devices[0] = device.get();
    device->memory.debugString = "cpu:" + std::to_string(id) + "/" + kMemoryKind;
    device->memory.toString = "CpuMemory(id=" + std::to_string(id) + ", kind=" + kMemoryKind + ")";
    device->memories[0] = &device->memory;
    deviceList.push_back(device.get());
    memoryList.push_back(&device->memory);
    devices.push_back(std::move(device));
  }
}

ClientState::~ClientState() {
  for (auto& device : devices) device->queue.stop();
}

PJRT_Device* ClientState::deviceById(int64_t id) const {
  if (id < 0 || id >= int64_t(deviceList.size())) return nullptr;
  return deviceList[size_t(id)];
}

void ClientState::requireOwnDevice(const PJRT_Device* device, const char* what) const {
  requireNonNull(device, what);
  if (std::find(deviceList.begin(), deviceList.end(), device) == deviceList.end())
    fail(std::string(what) + " is not a device of this client");
}

void ClientState::requireOwnMemory(const PJRT_Memory* memory, const char* what) const {
  requireNonNull(memory, what);
  if (std::find(memoryList.begin(), memoryList.end(), memory) == memoryList.end())
    fail(std::string(what) + " is not a memory of this client");
}

namespace {
void raiseTo(std::atomic<int64_t>& value, int64_t candidate) {
  int64_t seen = value.load(std::memory_order_relaxed);
  while (seen < candidate && !value.compare_exchange_weak(seen, candidate, std::memory_order_relaxed)) {
  }
}
}  // namespace

void ClientState::recordAllocation(PJRT_Device* device, int64_t bytes) {
  DeviceStats& s = device->stats;
  raiseTo(s.peakBytesInUse, s.bytesInUse.fetch_add(bytes, std::memory_order_relaxed) + bytes);
  raiseTo(s.largestAllocSize, bytes);
  s.numAllocs.fetch_add(1, std::memory_order_relaxed);
  s.liveBuffers.fetch_add(1, std::memory_order_relaxed);
}

void ClientState::recordRelease(PJRT_Device* device, int64_t bytes) {
  device->stats.bytesInUse.fetch_sub(bytes, std::memory_order_relaxed);
  device->stats.liveBuffers.fetch_sub(1, std::memory_order_relaxed);
}

ClientState& stateOf(PJRT_Client* client) {
  requireNonNull(client, "client");
  return *client->state;
}

namespace {

struct CreateOptions {
  int64_t deviceCount = 1;
  int64_t numThreads = 0;  // 0: env TORCH_PJRT_CPU_THREADS, else the CPUs this process may use
};

CreateOptions readCreateOptions(const PJRT_NamedValue* options, size_t count) {
  CreateOptions out;
  if (count > 0) requireNonNull(options, "create_options");
  for (size_t i = 0; i < count; ++i) {
    const PJRT_NamedValue& option = options[i];
    std::string name = option.name ? std::string(option.name, option.name_size) : std::string();
    if (name != "device_count" && name != "num_threads")
      fail("unknown option '" + name + "' (the torch-pjrt cpu plugin accepts: device_count, num_threads)");
    if (option.type != PJRT_NamedValue_kInt64)
      fail("option " + name + " must be an int64 (PJRT_NamedValue type 1), got type " +
           std::to_string(int(option.type)));
    if (name == "num_threads") {
      if (option.int64_value < 1 || option.int64_value > kMaxThreads)
        fail("option num_threads must be between 1 and " + std::to_string(kMaxThreads) + ", got " +
             std::to_string(option.int64_value));
      out.numThreads = option.int64_value;
      continue;
    }
    if (option.int64_value < 1 || option.int64_value > kMaxDevices)
      fail("option device_count must be between 1 and " + std::to_string(kMaxDevices) + ", got " +
           std::to_string(option.int64_value));
    out.deviceCount = option.int64_value;
  }
  return out;
}

PJRT_Error* clientCreate(PJRT_Client_Create_Args* args) {
  return guarded("PJRT_Client_Create", [&] {
    TPJRT_CHECK_ARGS(PJRT_Client_Create_Args, args, client);
    CreateOptions options = readCreateOptions(args->create_options, args->num_options);
    int threads = chooseThreadCount(options.numThreads);
    auto client = std::make_unique<PJRT_Client>();
    client->state = std::make_shared<ClientState>(int(options.deviceCount), threads);
    args->client = client.release();
  });
}

PJRT_Error* clientDestroy(PJRT_Client_Destroy_Args* args) {
  return guarded("PJRT_Client_Destroy", [&] {
    TPJRT_CHECK_ARGS(PJRT_Client_Destroy_Args, args, client);
    delete args->client;
  });
}

PJRT_Error* clientPlatformName(PJRT_Client_PlatformName_Args* args) {
  return guarded("PJRT_Client_PlatformName", [&] {
    TPJRT_CHECK_ARGS(PJRT_Client_PlatformName_Args, args, platform_name_size);
    stateOf(args->client);
    args->platform_name = kPlatformName;
    args->platform_name_size = sizeof(kPlatformName) - 1;
  });
}

PJRT_Error* clientPlatformVersion(PJRT_Client_PlatformVersion_Args* args) {
  return guarded("PJRT_Client_PlatformVersion", [&] {
    TPJRT_CHECK_ARGS(PJRT_Client_PlatformVersion_Args, args, platform_version_size);
    stateOf(args->client);
    args->platform_version = kPlatformVersion;
    args->platform_version_size = sizeof(kPlatformVersion) - 1;
  });
}

PJRT_Error* clientProcessIndex(PJRT_Client_ProcessIndex_Args* args) {
  return guarded("PJRT_Client_ProcessIndex", [&] {
    TPJRT_CHECK_ARGS(PJRT_Client_ProcessIndex_Args, args, process_index);
    stateOf(args->client);
    args->process_index = 0;
  });
}

PJRT_Error* clientDevices(PJRT_Client_Devices_Args* args) {
  return guarded("PJRT_Client_Devices", [&] {
    TPJRT_CHECK_ARGS(PJRT_Client_Devices_Args, args, num_devices);
    const ClientState& state = stateOf(args->client);
    args->devices = state.deviceList.data();
    args->num_devices = state.deviceList.size();
  });
}

PJRT_Error* clientAddressableDevices(PJRT_Client_AddressableDevices_Args* args) {
  return guarded("PJRT_Client_AddressableDevices", [&] {
    TPJRT_CHECK_ARGS(PJRT_Client_AddressableDevices_Args, args, num_addressable_devices);
    const ClientState& state = stateOf(args->client);
    args->addressable_devices = state.deviceList.data();
    args->num_addressable_devices = state.deviceList.size();
  });
}

PJRT_Error* clientLookupDevice(PJRT_Client_LookupDevice_Args* args) {
  return guarded("PJRT_Client_LookupDevice", [&] {
    TPJRT_CHECK_ARGS(PJRT_Client_LookupDevice_Args, args, device);
    const ClientState& state = stateOf(args->client);
    PJRT_Device* device = state.deviceById(args->id);
    if (!device)
      failNotFound("no device with id " + std::to_string(args->id) + " (this client has ids 0.." +
                   std::to_string(state.deviceList.size() - 1) + ")");
    args->device = device;
  });
}

PJRT_Error* clientLookupAddressableDevice(PJRT_Client_LookupAddressableDevice_Args* args) {
  return guarded("PJRT_Client_LookupAddressableDevice", [&] {
    TPJRT_CHECK_ARGS(PJRT_Client_LookupAddressableDevice_Args, args, addressable_device);
    const ClientState& state = stateOf(args->client);
    PJRT_Device* device = state.deviceById(args->local_hardware_id);
    if (!device)
      failNotFound("no addressable device with local hardware id " + std::to_string(args->local_hardware_id) +
                   " (this client has 0.." + std::to_string(state.deviceList.size() - 1) + ")");
    args->addressable_device = device;
  });
}

PJRT_Error* clientAddressableMemories(PJRT_Client_AddressableMemories_Args* args) {
  return guarded("PJRT_Client_AddressableMemories", [&] {
    TPJRT_CHECK_ARGS(PJRT_Client_AddressableMemories_Args, args, num_addressable_memories);
    const ClientState& state = stateOf(args->client);
    args->addressable_memories = state.memoryList.data();
    args->num_addressable_memories = state.memoryList.size();
  });
}

PJRT_Error* clientDefaultDeviceAssignment(PJRT_Client_DefaultDeviceAssignment_Args* args) {
  return guarded("PJRT_Client_DefaultDeviceAssignment", [&] {
    TPJRT_CHECK_ARGS(PJRT_Client_DefaultDeviceAssignment_Args, args, default_assignment);
    const ClientState& state = stateOf(args->client);
    if (args->num_replicas < 1 || args->num_partitions < 1)
      fail("num_replicas (" + std::to_string(args->num_replicas) + ") and num_partitions (" +
           std::to_string(args->num_partitions) + ") must be at least 1");
    size_t needed = size_t(args->num_replicas) * size_t(args->num_partitions);
    if (needed > state.deviceList.size())
      fail(std::to_string(args->num_replicas) + " replicas x " + std::to_string(args->num_partitions) +
           " partitions need " + std::to_string(needed) + " devices but this client has " +
           std::to_string(state.deviceList.size()) + " (set the device_count client option)");
    if (args->default_assignment_size < needed)
      fail("default_assignment_size " + std::to_string(args->default_assignment_size) + " is smaller than " +
           std::to_string(needed));
    requireNonNull(args->default_assignment, "default_assignment");
    for (size_t i = 0; i < needed; ++i) args->default_assignment[i] = state.deviceList[i]->id;
  });
}

}  // namespace

void fillClientSlots(PJRT_Api& api) {
  api.PJRT_Client_Create = clientCreate;
  api.PJRT_Client_Destroy = clientDestroy;
  api.PJRT_Client_PlatformName = clientPlatformName;
  api.PJRT_Client_PlatformVersion = clientPlatformVersion;
  api.PJRT_Client_ProcessIndex = clientProcessIndex;
  api.PJRT_Client_Devices = clientDevices;
  api.PJRT_Client_AddressableDevices = clientAddressableDevices;
  api.PJRT_Client_LookupDevice = clientLookupDevice;
  api.PJRT_Client_LookupAddressableDevice = clientLookupAddressableDevice;
  api.PJRT_Client_AddressableMemories = clientAddressableMemories;
  api.PJRT_Client_DefaultDeviceAssignment = clientDefaultDeviceAssignment;
}

}  // namespace tpjrt::cpu
