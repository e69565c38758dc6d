#include <algorithm>

#include "compile_options.h"
#include "pjrt_call.h"

namespace tpjrt {
namespace {

[[noreturn]] void usage(const char* call, const std::string& message) { throw RuntimeError(kUsageError, call, message); }

DeviceInfo describeDevice(const Plugin& plugin, PJRT_Device* device, int index) {
  DeviceInfo info;
  info.index = index;
  auto get = TPJRT_ARGS(PJRT_Device_GetDescription);
  get.device = device;
  TPJRT_CALL(plugin, PJRT_Device_GetDescription, get);
  PJRT_DeviceDescription* description = get.device_description;

  auto id = TPJRT_ARGS(PJRT_DeviceDescription_Id);
  id.device_description = description;
  TPJRT_CALL(plugin, PJRT_DeviceDescription_Id, id);
  info.id = id.id;

  if (TPJRT_HAS(plugin, PJRT_DeviceDescription_ProcessIndex)) {
    auto args = TPJRT_ARGS(PJRT_DeviceDescription_ProcessIndex);
    args.device_description = description;
    if (TPJRT_TRY(plugin, PJRT_DeviceDescription_ProcessIndex, args).ok) info.processIndex = args.process_index;
  }
  if (TPJRT_HAS(plugin, PJRT_Device_LocalHardwareId)) {
    auto args = TPJRT_ARGS(PJRT_Device_LocalHardwareId);
    args.device = device;
    if (TPJRT_TRY(plugin, PJRT_Device_LocalHardwareId, args).ok) info.localHardwareId = args.local_hardware_id;
  }
  if (TPJRT_HAS(plugin, PJRT_Device_IsAddressable)) {
    auto args = TPJRT_ARGS(PJRT_Device_IsAddressable);
    args.device = device;
    if (TPJRT_TRY(plugin, PJRT_Device_IsAddressable, args).ok) info.addressable = args.is_addressable;
  }
  if (TPJRT_HAS(plugin, PJRT_DeviceDescription_Kind)) {
    auto args = TPJRT_ARGS(PJRT_DeviceDescription_Kind);
    args.device_description = description;
    if (TPJRT_TRY(plugin, PJRT_DeviceDescription_Kind, args).ok)
      info.kind = detail::copyString(args.device_kind, args.device_kind_size);
  }
  if (TPJRT_HAS(plugin, PJRT_DeviceDescription_DebugString)) {
    auto args = TPJRT_ARGS(PJRT_DeviceDescription_DebugString);
    args.device_description = description;
    if (TPJRT_TRY(plugin, PJRT_DeviceDescription_DebugString, args).ok)
      info.debugString = detail::copyString(args.debug_string, args.debug_string_size);
  }
  if (TPJRT_HAS(plugin, PJRT_DeviceDescription_ToString)) {
    auto args = TPJRT_ARGS(PJRT_DeviceDescription_ToString);
    args.device_description = description;
    if (TPJRT_TRY(plugin, PJRT_DeviceDescription_ToString, args).ok)
      info.toString = detail::copyString(args.to_string, args.to_string_size);
  }
  if (TPJRT_HAS(plugin, PJRT_DeviceDescription_Attributes)) {
    auto args = TPJRT_ARGS(PJRT_DeviceDescription_Attributes);
    args.device_description = description;
    if (TPJRT_TRY(plugin, PJRT_DeviceDescription_Attributes, args).ok)
      info.attributes = detail::readNamedValues(args.attributes, args.num_attributes);
  }
  return info;
}

std::optional<int64_t> ifSet(int64_t value, bool isSet) { return isSet ? std::optional<int64_t>(value) : std::nullopt; }

}  // namespace

// A completion event of a run, shared by synchronize calls that wait for it.
class Client::Event {
 public:
  Event(const Plugin& plugin, PJRT_Event* event) : plugin_(plugin), event_(event) {}
  ~Event() { detail::destroyEvent(plugin_, event_); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  // Waits; the run's own failure is left to its outputs' readers.
  void await() const {
    auto args = TPJRT_ARGS(PJRT_Event_Await);
    args.event = event_;
    TPJRT_TRY(plugin_, PJRT_Event_Await, args);
  }

 private:
  const Plugin& plugin_;
  PJRT_Event* event_;
};

Client::Client(std::shared_ptr<Plugin> plugin, PJRT_Client* handle) : plugin_(std::move(plugin)), handle_(handle) {}

Client::~Client() {
  lastRuns_.clear();  // events go before their client
  if (handle_ == nullptr || !TPJRT_HAS(*plugin_, PJRT_Client_Destroy)) return;
  auto args = TPJRT_ARGS(PJRT_Client_Destroy);
  args.client = handle_;
  detail::takeError(*plugin_, plugin_->api()->PJRT_Client_Destroy(&args));
}

std::shared_ptr<Client> Client::create(std::shared_ptr<Plugin> plugin, const std::vector<NamedValue>& options) {
  if (!plugin) throw RuntimeError(kUsageError, "PJRT_Client_Create", "Client::create needs a loaded plugin");
  detail::NamedValueArray values(options);
  auto args = TPJRT_ARGS(PJRT_Client_Create);
  args.create_options = values.data();
  args.num_options = values.size();
  TPJRT_CALL(*plugin, PJRT_Client_Create, args);
  std::shared_ptr<Client> client(new Client(plugin, args.client));  // owns the handle from here on

  auto name = TPJRT_ARGS(PJRT_Client_PlatformName);
  name.client = client->handle_;
  TPJRT_CALL(*plugin, PJRT_Client_PlatformName, name);
  client->platformName_ = detail::copyString(name.platform_name, name.platform_name_size);
  if (TPJRT_HAS(*plugin, PJRT_Client_PlatformVersion)) {
    auto version = TPJRT_ARGS(PJRT_Client_PlatformVersion);
    version.client = client->handle_;
    if (TPJRT_TRY(*plugin, PJRT_Client_PlatformVersion, version).ok)
      client->platformVersion_ = detail::copyString(version.platform_version, version.platform_version_size);
  }
  if (TPJRT_HAS(*plugin, PJRT_Client_ProcessIndex)) {
    auto index = TPJRT_ARGS(PJRT_Client_ProcessIndex);
    index.client = client->handle_;
    if (TPJRT_TRY(*plugin, PJRT_Client_ProcessIndex, index).ok) client->processIndex_ = index.process_index;
  }
  auto devices = TPJRT_ARGS(PJRT_Client_AddressableDevices);
  devices.client = client->handle_;
  TPJRT_CALL(*plugin, PJRT_Client_AddressableDevices, devices);
  for (size_t i = 0; i < devices.num_addressable_devices; ++i) {
    PJRT_Device* device = devices.addressable_devices[i];
    client->deviceHandles_.push_back(device);
    client->devices_.push_back(describeDevice(*plugin, device, static_cast<int>(i)));
  }
  client->lastRuns_.resize(client->devices_.size());
  return client;
}

const std::string& Client::platformName() const { return platformName_; }
const std::string& Client::platformVersion() const { return platformVersion_; }
int Client::processIndex() const { return processIndex_; }
const std::vector<DeviceInfo>& Client::devices() const { return devices_; }

PJRT_Device* Client::deviceHandle(int deviceIndex) const {
  if (deviceIndex < 0 || static_cast<size_t>(deviceIndex) >= deviceHandles_.size())
    throw RuntimeError(kUsageError, "deviceIndex",
                       "device index " + std::to_string(deviceIndex) + " is out of range: the " + platformName_ +
                           " client has " + std::to_string(deviceHandles_.size()) + " addressable devices");
  return deviceHandles_[static_cast<size_t>(deviceIndex)];
}

std::optional<MemoryStats> Client::memoryStats(int deviceIndex) const {
  PJRT_Device* device = deviceHandle(deviceIndex);
  if (!TPJRT_HAS(*plugin_, PJRT_Device_MemoryStats)) return std::nullopt;
  auto args = TPJRT_ARGS(PJRT_Device_MemoryStats);
  args.device = device;
  detail::Status status = TPJRT_TRY(*plugin_, PJRT_Device_MemoryStats, args);
  if (!status.ok) {
    if (status.code == PJRT_Error_Code_UNIMPLEMENTED) return std::nullopt;
    detail::raise(status, "PJRT_Device_MemoryStats");
  }
  MemoryStats stats;
  stats.bytesInUse = args.bytes_in_use;
  stats.peakBytesInUse = ifSet(args.peak_bytes_in_use, args.peak_bytes_in_use_is_set);
  stats.numAllocs = ifSet(args.num_allocs, args.num_allocs_is_set);
  stats.largestAllocSize = ifSet(args.largest_alloc_size, args.largest_alloc_size_is_set);
  stats.bytesLimit = ifSet(args.bytes_limit, args.bytes_limit_is_set);
  return stats;
}

std::unique_ptr<Buffer> Client::bufferFromHost(const void* data, BufferType type, const std::vector<int64_t>& dims,
                                               const std::vector<int64_t>& byteStrides, int deviceIndex) {
  const char* call = "PJRT_Client_BufferFromHostBuffer";
  PJRT_Device* device = deviceHandle(deviceIndex);
  if (byteWidthOf(type) == 0) usage(call, "unsupported element type " + std::to_string(type));
  int64_t elements = 1;
  for (int64_t d : dims) {
    if (d < 0) usage(call, "dimension sizes must not be negative");
    elements *= d;
  }
  if (!byteStrides.empty() && byteStrides.size() != dims.size())
    usage(call, "byteStrides has " + std::to_string(byteStrides.size()) + " entries for " + std::to_string(dims.size()) +
                    " dimensions");
  static const char kEmpty[16] = {};
  if (data == nullptr) {
    if (elements != 0) usage(call, "host data is NULL");
    data = kEmpty;
  }
  auto args = TPJRT_ARGS(PJRT_Client_BufferFromHostBuffer);
  args.client = handle_;
  args.data = data;
  args.type = static_cast<PJRT_Buffer_Type>(type);
  args.dims = dims.data();
  args.num_dims = dims.size();
  args.byte_strides = byteStrides.empty() ? nullptr : byteStrides.data();
  args.num_byte_strides = byteStrides.size();
  args.host_buffer_semantics = PJRT_HostBufferSemantics_kImmutableOnlyDuringCall;
  args.device = device;
  TPJRT_CALL(*plugin_, PJRT_Client_BufferFromHostBuffer, args);
  std::unique_ptr<Buffer> buffer(new Buffer(shared_from_this(), args.buffer, deviceIndex));
  detail::awaitAndDestroy(*plugin_, args.done_with_host_buffer, call);
  return buffer;
}

// `options` as a CompileOptionsProto, with the client's first devices where it assigns none.
std::string Client::encodedOptions(const CompileOptions& options, const char* call) const {
  CompileOptions resolved = options;
  size_t needed = static_cast<size_t>(std::max(options.numReplicas, 0)) * static_cast<size_t>(std::max(options.numPartitions, 0));
  if (resolved.deviceAssignment.empty() && needed > 0) {
    if (needed > devices_.size())
      usage(call, std::to_string(options.numReplicas) + " replicas x " + std::to_string(options.numPartitions) +
                      " partitions need " + std::to_string(needed) + " devices; the " + platformName_ + " client has " +
                      std::to_string(devices_.size()));
    for (size_t i = 0; i < needed; ++i) resolved.deviceAssignment.push_back(devices_[i].id);
  }
  return encodeCompileOptions(resolved);
}

std::unique_ptr<LoadedExecutable> Client::compile(const std::string& mlir, const CompileOptions& options) {
  std::string encoded = encodedOptions(options, "PJRT_Client_Compile");
  auto program = detail::mlirProgram(mlir);
  auto args = TPJRT_ARGS(PJRT_Client_Compile);
  args.client = handle_;
  args.program = &program;
  args.compile_options = encoded.data();
  args.compile_options_size = encoded.size();
  TPJRT_CALL(*plugin_, PJRT_Client_Compile, args);
  std::unique_ptr<LoadedExecutable> executable(new LoadedExecutable(shared_from_this(), args.executable));
  executable->label_ = options.label;
  return executable;
}

std::unique_ptr<LoadedExecutable> Client::deserializeAndLoad(const std::string& bytes, const CompileOptions& options) {
  std::string encoded = encodedOptions(options, "PJRT_Executable_DeserializeAndLoad");
  auto args = TPJRT_ARGS(PJRT_Executable_DeserializeAndLoad);
  args.client = handle_;
  args.serialized_executable = bytes.data();
  args.serialized_executable_size = bytes.size();
  args.overridden_serialized_compile_options = encoded.data();
  args.overridden_serialized_compile_options_size = encoded.size();
  TPJRT_CALL(*plugin_, PJRT_Executable_DeserializeAndLoad, args);
  std::unique_ptr<LoadedExecutable> executable(new LoadedExecutable(shared_from_this(), args.loaded_executable));
  executable->label_ = options.label;
  return executable;
}

void Client::recordRun(int deviceIndex, PJRT_Event* completion) {
  if (completion == nullptr) return;
  // A run done before Execute returned (a plugin may run a small program at once) leaves nothing to
  // wait for, and on an in-order device neither does any run before it.
  auto ready = TPJRT_ARGS(PJRT_Event_IsReady);
  ready.event = completion;
  if (TPJRT_HAS(*plugin_, PJRT_Event_IsReady) && detail::takeError(*plugin_, plugin_->api()->PJRT_Event_IsReady(&ready)).ok &&
      ready.is_ready) {
    detail::destroyEvent(*plugin_, completion);
    std::shared_ptr<Event> done;
    std::lock_guard<std::mutex> lock(runsMu_);
    lastRuns_[static_cast<size_t>(deviceIndex)].swap(done);
    return;
  }
  std::shared_ptr<Event> latest;
  try {
    latest = std::make_shared<Event>(*plugin_, completion);
  } catch (...) {
    detail::destroyEvent(*plugin_, completion);
    throw;
  }
  std::lock_guard<std::mutex> lock(runsMu_);
  lastRuns_[static_cast<size_t>(deviceIndex)].swap(latest);  // the one before is destroyed after the unlock
}

void Client::synchronize(int deviceIndex) const {
  deviceHandle(deviceIndex);  // checks the index
  std::shared_ptr<Event> latest;
  {
    std::lock_guard<std::mutex> lock(runsMu_);
    latest = lastRuns_[static_cast<size_t>(deviceIndex)];
  }
  if (latest) latest->await();
}

}  // namespace tpjrt
