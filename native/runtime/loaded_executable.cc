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
  } catch (...) {
    detail::destroyExecutable(plugin, executable_);
    destroyLoaded(plugin, handle_);
    --liveExecutables;
    throw;
  }
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

std::vector<std::unique_ptr<Buffer>> LoadedExecutable::execute(const std::vector<const Buffer*>& args) {
  const char* call = "PJRT_LoadedExecutable_Execute";
  const Plugin& plugin = client_->plugin();
  if (numDevices_ != 1 || deviceIndex_ < 0)
    throw RuntimeError(kUsageError, call,
                       "this executable runs on " + std::to_string(numDevices_) +
                           " devices; only single-device execution is supported so far");
  std::vector<PJRT_Buffer*> inputs;
  inputs.reserve(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == nullptr) throw RuntimeError(kUsageError, call, "argument " + std::to_string(i) + " is null");
    if (args[i]->client_.get() != client_.get())
      throw RuntimeError(kUsageError, call, "argument " + std::to_string(i) + " belongs to another client");
    inputs.push_back(args[i]->handle());
  }
  std::vector<PJRT_Buffer*> outputs(numOutputs_, nullptr);
  PJRT_Buffer* const* argumentLists[1] = {inputs.data()};
  PJRT_Buffer** outputLists[1] = {outputs.data()};
  PJRT_Event* completion[1] = {nullptr};

  auto options = detail::zeroed<PJRT_ExecuteOptions>(PJRT_ExecuteOptions_STRUCT_SIZE);
  auto run = TPJRT_ARGS(PJRT_LoadedExecutable_Execute);
  run.executable = handle_;
  run.options = &options;
  run.argument_lists = argumentLists;
  run.num_devices = 1;
  run.num_args = inputs.size();
  run.output_lists = outputLists;
  run.device_complete_events = completion;
  detail::Status status = TPJRT_TRY(plugin, PJRT_LoadedExecutable_Execute, run);

  // Outputs the plugin wrote are ours even when it reports failure.
  std::vector<std::unique_ptr<Buffer>> results;
  std::exception_ptr wrapFailure;
  for (PJRT_Buffer* out : outputs) {
    if (out == nullptr) continue;
    try {
      results.emplace_back(new Buffer(client_, out, deviceIndex_));
    } catch (...) {
      if (!wrapFailure) wrapFailure = std::current_exception();
    }
  }
  if (!status.ok) {
    detail::destroyEvent(plugin, completion[0]);
    detail::raise(status, call);
  }
  detail::awaitAndDestroy(plugin, completion[0], call);
  if (wrapFailure) std::rethrow_exception(wrapFailure);
  if (results.size() != numOutputs_)
    throw RuntimeError(PJRT_Error_Code_INTERNAL, call,
                       "the plugin returned " + std::to_string(results.size()) + " of " + std::to_string(numOutputs_) +
                           " outputs");
  return results;
}

}  // namespace tpjrt
