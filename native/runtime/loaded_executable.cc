#include <atomic>

#include "executable_queries.h"

namespace tpjrt {
namespace {
std::atomic<int64_t> liveExecutables{0};

void destroyLoaded(const Plugin& plugin, PJRT_LoadedExecutable* handle) {
  if (handle == nullptr || !TPJRT_HAS(plugin, PJRT_LoadedExecutable_Destroy)) return;
  auto args = TPJRT_ARGS(PJRT_LoadedExecutable_Destroy);
  args.executable = handle;
  detail::takeError(plugin, plugin.api()->PJRT_LoadedExecutable_Destroy(&args));
}
}  // namespace

// Takes ownership of `handle` at once, so a failed query below still destroys it.
LoadedExecutable::LoadedExecutable(std::shared_ptr<Client> client, PJRT_LoadedExecutable* handle)
    : client_(std::move(client)), handle_(handle) {
  ++liveExecutables;
  const Plugin& plugin = client_->plugin();
  try {
    auto get = TPJRT_ARGS(PJRT_LoadedExecutable_GetExecutable);
    get.loaded_executable = handle_;
    TPJRT_CALL(plugin, PJRT_LoadedExecutable_GetExecutable, get);
    executable_ = get.executable;
    numOutputs_ = detail::numOutputs(plugin, executable_);

    auto devices = TPJRT_ARGS(PJRT_LoadedExecutable_AddressableDevices);
    devices.executable = handle_;
    TPJRT_CALL(plugin, PJRT_LoadedExecutable_AddressableDevices, devices);
    numDevices_ = devices.num_addressable_devices;
    deviceIndex_ = -1;
    if (numDevices_ == 1) {
      for (size_t i = 0; i < client_->devices().size(); ++i)
        if (client_->deviceHandle(static_cast<int>(i)) == devices.addressable_devices[0]) deviceIndex_ = static_cast<int>(i);
    }
    cacheOutputShapes();
    checkAliases();
  } catch (...) {
    detail::destroyExecutable(plugin, executable_);
    destroyLoaded(plugin, handle_);
    --liveExecutables;
    throw;
  }
}

// Outputs keep the types and dims the executable declares; without an answer from the plugin each
// output buffer asks for its own.
void LoadedExecutable::cacheOutputShapes() {
  const Plugin& plugin = client_->plugin();
  if (!TPJRT_HAS(plugin, PJRT_Executable_OutputElementTypes) || !TPJRT_HAS(plugin, PJRT_Executable_OutputDimensions))
    return;
  std::vector<BufferType> types;
  std::vector<std::vector<int64_t>> dims;
  try {
    types = detail::outputTypes(plugin, executable_);
    dims = detail::outputDims(plugin, executable_);
  } catch (const RuntimeError&) {
    return;
  }
  if (types.size() != numOutputs_ || dims.size() != numOutputs_) return;
  outputTypes_ = std::move(types);
  for (auto& d : dims) outputDims_.push_back(std::make_shared<const std::vector<int64_t>>(std::move(d)));
}

// A plugin that reports no aliased bytes donates nothing; one that cannot say might.
void LoadedExecutable::checkAliases() {
  std::map<std::string, int64_t> stats;
  try {
    stats = detail::compiledMemoryStats(client_->plugin(), executable_);
  } catch (const RuntimeError&) {
    return;
  }
  auto aliased = stats.find("alias_size_in_bytes");
  mayDonate_ = aliased == stats.end() || aliased->second > 0;
}

LoadedExecutable::~LoadedExecutable() {
  const Plugin& plugin = client_->plugin();
  detail::destroyExecutable(plugin, executable_);
  destroyLoaded(plugin, handle_);
  --liveExecutables;
}

int64_t LoadedExecutable::liveCount() { return liveExecutables.load(); }

size_t LoadedExecutable::numOutputs() const { return numOutputs_; }
std::vector<BufferType> LoadedExecutable::outputTypes() const { return detail::outputTypes(client_->plugin(), executable_); }
std::vector<std::vector<int64_t>> LoadedExecutable::outputDims() const {
  return detail::outputDims(client_->plugin(), executable_);
}
std::optional<std::string> LoadedExecutable::fingerprint() const { return detail::fingerprint(client_->plugin(), executable_); }

std::string LoadedExecutable::serialize() const {
  const Plugin& plugin = client_->plugin();
  try {
    return detail::serialize(plugin, executable_);
  } catch (const RuntimeError& e) {
    if (e.code() != PJRT_Error_Code_UNIMPLEMENTED) throw;
    throw RuntimeError(e.code(), e.call(),
                       "PJRT plugin " + plugin.path() + " cannot serialize executables: " + e.what());
  }
}

std::vector<std::unique_ptr<Buffer>> LoadedExecutable::execute(const std::vector<const Buffer*>& args) {
  return execute(args.data(), args.size());
}

namespace {
// A small array on the stack, on the heap past N elements (the hot path of eager ops has few).
template <typename T, size_t N>
class SmallArray {
 public:
  explicit SmallArray(size_t n) : size_(n) {
    if (n > N) heap_.resize(n);
  }
  T* data() { return size_ > N ? heap_.data() : inline_; }
  T& operator[](size_t i) { return data()[i]; }
  size_t size() const { return size_; }

 private:
  T inline_[N] = {};
  std::vector<T> heap_;
  size_t size_;
};
}  // namespace

std::vector<std::unique_ptr<Buffer>> LoadedExecutable::execute(const Buffer* const* args, size_t count,
                                                               const std::vector<int64_t>& nonDonatable) {
  const char* call = "PJRT_LoadedExecutable_Execute";
  const Plugin& plugin = client_->plugin();
  if (numDevices_ != 1 || deviceIndex_ < 0)
    throw RuntimeError(kUsageError, call,
                       "this executable runs on " + std::to_string(numDevices_) +
                           " devices; only single-device execution is supported so far");
  SmallArray<PJRT_Buffer*, 8> inputs(count);
  for (size_t i = 0; i < count; ++i) {
    if (args[i] == nullptr) throw RuntimeError(kUsageError, call, "argument " + std::to_string(i) + " is null");
    if (args[i]->client_.get() != client_.get())
      throw RuntimeError(kUsageError, call, "argument " + std::to_string(i) + " belongs to another client");
    inputs[i] = args[i]->handle();
  }
  SmallArray<PJRT_Buffer*, 4> outputs(numOutputs_);
  PJRT_Buffer* const* argumentLists[1] = {inputs.data()};
  PJRT_Buffer** outputLists[1] = {outputs.data()};
  PJRT_Event* completion[1] = {nullptr};

  auto options = detail::zeroed<PJRT_ExecuteOptions>(PJRT_ExecuteOptions_STRUCT_SIZE);
  if (!label_.empty()) options.call_location = label_.c_str();
  options.non_donatable_input_indices = nonDonatable.empty() ? nullptr : nonDonatable.data();
  options.num_non_donatable_input_indices = nonDonatable.size();
  auto run = TPJRT_ARGS(PJRT_LoadedExecutable_Execute);
  run.executable = handle_;
  run.options = &options;
  run.argument_lists = argumentLists;
  run.num_devices = 1;
  run.num_args = count;
  run.output_lists = outputLists;
  run.device_complete_events = completion;
  detail::Status status = TPJRT_TRY(plugin, PJRT_LoadedExecutable_Execute, run);

  // Outputs the plugin wrote are ours even when it reports failure.
  std::vector<std::unique_ptr<Buffer>> results;
  results.reserve(numOutputs_);
  std::exception_ptr wrapFailure;
  for (size_t i = 0; i < numOutputs_; ++i) {
    PJRT_Buffer* out = outputs[i];
    if (out == nullptr) continue;
    try {
      results.emplace_back(outputDims_.empty() ? new Buffer(client_, out, deviceIndex_)
                                               : new Buffer(client_, out, deviceIndex_, outputTypes_[i], outputDims_[i]));
    } catch (...) {
      if (!wrapFailure) wrapFailure = std::current_exception();
    }
  }
  if (!status.ok) {
    detail::destroyEvent(plugin, completion[0]);
    detail::raise(status, call);
  }
  // The run goes on after this returns: its failure reaches the outputs' readers.
  client_->recordRun(deviceIndex_, completion[0]);
  if (wrapFailure) std::rethrow_exception(wrapFailure);
  if (results.size() != numOutputs_)
    throw RuntimeError(PJRT_Error_Code_INTERNAL, call,
                       "the plugin returned " + std::to_string(results.size()) + " of " + std::to_string(numOutputs_) +
                           " outputs");
  return results;
}

}  // namespace tpjrt
