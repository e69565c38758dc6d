// The C++ PJRT client: loads any PJRT plugin through our header (native/include/pjrt_c_api.h) and
// wraps plugin, client, devices, buffers and executables in RAII classes. No N-API here.
// Every failure throws RuntimeError; its code is the PJRT_Error_Code the plugin returned, or one of
// ours (kPluginLoadError, kUsageError) for problems found before calling the plugin.
// Thread safety: a Client and its objects may be used from several threads (the addon calls compile
// and host reads from worker threads); the classes hold no unguarded mutable state.
// Device work is asynchronous, as PJRT defines it: execute returns once the run is enqueued and its
// outputs are defined later; reads wait for them (toHost blocks, whenReady does not), and an error
// during the run surfaces when an output (or anything computed from it) is read.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

struct PJRT_Api;
struct PJRT_Client;
struct PJRT_Device;
struct PJRT_Buffer;
struct PJRT_LoadedExecutable;
struct PJRT_Executable;
struct PJRT_Event;

namespace tpjrt {

// Codes 1–16 are PJRT_Error_Code values; these two are ours.
constexpr int kPluginLoadError = 1001;  // dlopen/dlsym/version/table problems
constexpr int kUsageError = 1002;       // a bad argument caught before any plugin call

class RuntimeError : public std::runtime_error {
 public:
  // `call` names the PJRT function or runtime step ("PJRT_Client_Compile", "dlopen").
  RuntimeError(int code, std::string call, const std::string& message)
      : std::runtime_error(message), code_(code), call_(std::move(call)) {}
  int code() const { return code_; }
  const std::string& call() const { return call_; }

 private:
  int code_;
  std::string call_;
};

using NamedValueData = std::variant<std::string, int64_t, std::vector<int64_t>, float, bool>;
struct NamedValue {
  std::string name;
  NamedValueData value;
};

// Element types are PJRT_Buffer_Type values (F32 = 11, PRED = 1, …) everywhere in this API.
using BufferType = int;
size_t byteWidthOf(BufferType type);  // 0 for types we do not support

class Plugin;
class Client;

struct DeviceInfo {
  int index = 0;            // position in the client's addressable-device list
  int id = 0;               // PJRT_DeviceDescription_Id
  int processIndex = 0;
  int localHardwareId = -1;
  bool addressable = true;
  std::string kind;
  std::string debugString;
  std::string toString;
  std::vector<NamedValue> attributes;
};

// Fields a plugin did not set are std::nullopt.
struct MemoryStats {
  int64_t bytesInUse = 0;
  std::optional<int64_t> peakBytesInUse, numAllocs, largestAllocSize, bytesLimit;
};

class Buffer {
 public:
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  BufferType elementType() const;
  const std::vector<int64_t>& dims() const { return *dims_; }
  size_t onDeviceSizeInBytes() const;
  size_t hostSizeInBytes() const;  // dense row-major size
  int deviceIndex() const { return deviceIndex_; }
  // Blocks until the data is on the host (waits for the run that defines it, then the copy).
  // `size` must be hostSizeInBytes(). A failed run throws its error.
  void toHost(void* dst, size_t size) const;
  void awaitReady() const;
  // PJRT_Buffer_IsDeleted: also true once a run took the buffer (donation); reading it then fails.
  bool isDeleted() const;
  // Calls `done` once the data is defined (with nullptr) or its run failed (with the error): on a
  // plugin thread, or on this one when that has happened already. `done` must not throw.
  void whenReady(std::function<void(const RuntimeError*)> done) const;
  PJRT_Buffer* handle() const { return handle_; }
  static int64_t liveCount();

 private:
  friend class Client;
  friend class LoadedExecutable;
  using Dims = std::shared_ptr<const std::vector<int64_t>>;
  // Asks the plugin for the buffer's type and dims.
  Buffer(std::shared_ptr<Client> client, PJRT_Buffer* handle, int deviceIndex);
  // For a buffer whose type and dims the caller knows (an executable's output): no plugin calls.
  Buffer(std::shared_ptr<Client> client, PJRT_Buffer* handle, int deviceIndex, BufferType type, Dims dims);
  std::shared_ptr<Client> client_;
  PJRT_Buffer* handle_;
  int deviceIndex_;
  Dims dims_;  // shared with the executable that made the buffer, if one did
  BufferType type_;
};

struct CompileOptions {
  int numReplicas = 1;
  int numPartitions = 1;
  // Device ids (PJRT_DeviceDescription_Id), replica-major: index r * numPartitions + p.
  // Empty = the client's default assignment (device 0 for one device).
  std::vector<int> deviceAssignment;
  // Names the executable's runs (PJRT_ExecuteOptions.call_location), so an error during a run says
  // which op failed. Not part of what is compiled.
  std::string label;
};

class LoadedExecutable {
 public:
  ~LoadedExecutable();
  size_t numOutputs() const;
  std::vector<BufferType> outputTypes() const;
  std::vector<std::vector<int64_t>> outputDims() const;
  std::optional<std::string> fingerprint() const;  // nullopt where the plugin has none
  // Enqueues a run on the executable's single device and returns its outputs, defined once it has run.
  // Buffers must match the parameters' types and dims. An argument that the program aliases to an
  // output (`tf.aliasing_output`) is donated, as PJRT does, unless its index is in `nonDonatable`:
  // the output takes its memory and the argument's buffer is deleted (isDeleted()).
  std::vector<std::unique_ptr<Buffer>> execute(const std::vector<const Buffer*>& args);
  std::vector<std::unique_ptr<Buffer>> execute(const Buffer* const* args, size_t count,
                                               const std::vector<int64_t>& nonDonatable = {});
  // False only when the plugin says the program aliases no bytes: then no run donates an argument.
  bool mayDonate() const { return mayDonate_; }
  // PJRT_Executable_Serialize: bytes for Client::deserializeAndLoad (same plugin and version).
  std::string serialize() const;
  static int64_t liveCount();

 private:
  friend class Client;
  LoadedExecutable(std::shared_ptr<Client> client, PJRT_LoadedExecutable* handle);
  void cacheOutputShapes();
  void checkAliases();
  std::shared_ptr<Client> client_;
  PJRT_LoadedExecutable* handle_;
  std::string label_;
  PJRT_Executable* executable_ = nullptr;  // the device-independent view, owned
  size_t numOutputs_ = 0;
  int deviceIndex_ = 0;  // client device index of the executable's single device (-1: several)
  size_t numDevices_ = 1;
  bool mayDonate_ = true;
  // Every output's type and dims, handed to the output buffers; empty where the plugin did not say.
  std::vector<BufferType> outputTypes_;
  std::vector<std::shared_ptr<const std::vector<int64_t>>> outputDims_;
};

class Client : public std::enable_shared_from_this<Client> {
 public:
  static std::shared_ptr<Client> create(std::shared_ptr<Plugin> plugin, const std::vector<NamedValue>& options);
  ~Client();
  const std::string& platformName() const;
  const std::string& platformVersion() const;
  int processIndex() const;
  const std::vector<DeviceInfo>& devices() const;  // addressable devices, in order
  std::optional<MemoryStats> memoryStats(int deviceIndex) const;

  // `byteStrides` empty = dense row-major. The data is copied before this returns.
  std::unique_ptr<Buffer> bufferFromHost(const void* data, BufferType type, const std::vector<int64_t>& dims,
                                         const std::vector<int64_t>& byteStrides, int deviceIndex);
  // `mlir` is StableHLO text (format "mlir").
  std::unique_ptr<LoadedExecutable> compile(const std::string& mlir, const CompileOptions& options);
  // PJRT_Executable_DeserializeAndLoad of LoadedExecutable::serialize()'s bytes, loaded with `options`
  // as compile() would use them (devices, label).
  std::unique_ptr<LoadedExecutable> deserializeAndLoad(const std::string& bytes, const CompileOptions& options);
  // Blocks until every run enqueued on the device before the call has finished. Runs that failed are
  // not reported here: their errors surface when their outputs are read.
  void synchronize(int deviceIndex) const;

  const Plugin& plugin() const { return *plugin_; }
  PJRT_Client* handle() const { return handle_; }
  PJRT_Device* deviceHandle(int deviceIndex) const;

 private:
  friend class LoadedExecutable;
  class Event;
  Client(std::shared_ptr<Plugin> plugin, PJRT_Client* handle);
  std::string encodedOptions(const CompileOptions& options, const char* call) const;
  // Keeps `completion` (owned from here on) as the device's latest run, for synchronize.
  void recordRun(int deviceIndex, PJRT_Event* completion);
  std::shared_ptr<Plugin> plugin_;
  PJRT_Client* handle_;
  mutable std::mutex runsMu_;
  std::vector<std::shared_ptr<Event>> lastRuns_;  // per device; the plugins' queues run in order
  std::string platformName_, platformVersion_;
  int processIndex_ = 0;
  std::vector<DeviceInfo> devices_;
  std::vector<PJRT_Device*> deviceHandles_;
};

// What an ahead-of-time compile for a device topology reports (no device needed).
struct AotResult {
  std::vector<BufferType> outputTypes;
  std::vector<std::vector<int64_t>> outputDims;
  std::map<std::string, int64_t> memory;  // generated_code_size_in_bytes, argument_size_in_bytes, …
  std::map<std::string, double> cost;     // the plugin's cost analysis (flops, bytes accessed, …)
  std::optional<std::string> fingerprint;
  std::string serialized;                 // PJRT_Executable_Serialize bytes
};

class Plugin : public std::enable_shared_from_this<Plugin> {
 public:
  // dlopen + GetPjrtApi + version and table checks + PJRT_Plugin_Initialize. Plugins are cached by
  // path: loading the same path twice returns the same Plugin (a library is initialised once).
  static std::shared_ptr<Plugin> load(const std::string& path);
  ~Plugin();
  const std::string& path() const { return path_; }
  int majorVersion() const;
  int minorVersion() const;
  size_t numSlots() const;  // function slots the plugin's table holds
  const std::vector<NamedValue>& attributes() const { return attributes_; }
  // torch.setFlushDenormal, where the plugin exports TorchPjrtCpu_SetFlushDenormal (our CPU plugin):
  // whether its CPU can flush subnormals; nullopt for a plugin without it.
  std::optional<bool> setFlushDenormal(bool on) const;
  const PJRT_Api* api() const { return api_; }
  // Throws RuntimeError(kPluginLoadError) unless slot `slot` exists in the table, the plugin's minor
  // version is at least `sinceMinor`, and the pointer is non-null. `name` is the function's name.
  void requireSlot(size_t slot, int sinceMinor, const char* name) const;
  // The same test without throwing (for optional functions).
  bool hasSlot(size_t slot, int sinceMinor) const;
  // Oldest PJRT minor version we load (see plugin.cc for why).
  static constexpr int kMinMinorVersion = 40;

  AotResult compileForTopology(const std::string& topologyName, const std::vector<NamedValue>& topologyOptions,
                               const std::string& mlir, const CompileOptions& options) const;

 private:
  Plugin(std::string path, void* library, const PJRT_Api* api);
  std::string path_;
  void* library_;
  const PJRT_Api* api_;
  std::vector<NamedValue> attributes_;
};

}  // namespace tpjrt
