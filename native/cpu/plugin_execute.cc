// PJRT_LoadedExecutable_Execute: checks the arguments against main's parameters, runs the
// interpreter synchronously and hands back new output buffers and ready completion events.
#include <memory>

#include "element_type.h"
#include "plugin_buffer.h"
#include "plugin_error.h"
#include "plugin_event.h"
#include "plugin_executable.h"
#include "plugin_slots.h"
#include "stablehlo.h"
#include "thread_pool.h"

namespace tpjrt::cpu {
namespace {

using Args = PJRT_LoadedExecutable_Execute_Args;

// Output buffers made so far; freed again unless the call succeeds.
class PendingOutputs {
 public:
  ~PendingOutputs() {
    for (PJRT_Buffer* b : buffers_) destroyBuffer(b);
  }
  void add(PJRT_Buffer* b) { buffers_.push_back(b); }
  std::vector<PJRT_Buffer*> release() { return std::move(buffers_); }

 private:
  std::vector<PJRT_Buffer*> buffers_;
};

PJRT_Device* runDevice(const Args* args, const PJRT_LoadedExecutable& loaded) {
  PJRT_Device* device = loaded.devices[0];
  if (!TPJRT_HAS_FIELD(Args, args, execute_device) || !args->execute_device || args->execute_device == device)
    return device;
  loaded.client->requireOwnDevice(args->execute_device, "execute_device");
  if (!loaded.program->options.compilePortable)
    fail("execute_device is device " + std::to_string(args->execute_device->id) +
         " but the executable was compiled for device " + std::to_string(device->id) +
         " (compile with compile_portable_executable to run it anywhere)");
  return args->execute_device;
}

// The arguments share the buffers' literals: the interpreter only reads them.
std::vector<std::shared_ptr<const Literal>> gatherArguments(const Args* args, const PJRT_LoadedExecutable& loaded,
                                                            const PJRT_Device* device) {
  const Function& main = loaded.program->main();
  const auto& params = main.body.argTypes;
  if (args->num_args != params.size())
    fail("main takes " + std::to_string(params.size()) + " arguments but num_args is " +
         std::to_string(args->num_args));
  std::vector<std::shared_ptr<const Literal>> values;
  if (params.empty()) return values;
  requireNonNull(args->argument_lists, "argument_lists");
  requireNonNull(args->argument_lists[0], "argument_lists[0]");
  values.reserve(params.size());
  for (size_t i = 0; i < params.size(); ++i) {
    const PJRT_Buffer* buffer = args->argument_lists[0][i];
    std::string what = "argument " + std::to_string(i);
    requireNonNull(buffer, what.c_str());
    if (buffer->client != loaded.client) fail(what + " belongs to another client");
    if (buffer->type != params[i])
      fail(what + " has type " + typeString(buffer->type) + " but main expects " + typeString(params[i]));
    if (buffer->device != device)
      fail(what + " is on device " + std::to_string(buffer->device->id) + " but the executable runs on device " +
           std::to_string(device->id) + " (copy it with PJRT_Buffer_CopyToDevice)");
    values.push_back(liveData(buffer, what));
  }
  return values;
}

PJRT_Error* execute(Args* args) {
  return guarded("PJRT_LoadedExecutable_Execute", [&] {
    TPJRT_CHECK_ARGS(Args, args, device_complete_events);
    requireNonNull(args->executable, "executable");
    const PJRT_LoadedExecutable& loaded = *args->executable;
    {
      std::lock_guard<std::mutex> lock(loaded.client->mu);
      if (loaded.deleted) fail("the executable has been deleted");
    }
    requireNonNull(args->options, "options (pass a zero-filled PJRT_ExecuteOptions)");
    if (args->num_devices != 1)
      fail("num_devices is " + std::to_string(args->num_devices) + " but the executable runs on 1 device");
    PJRT_Device* device = runDevice(args, loaded);
    std::vector<std::shared_ptr<const Literal>> inputs = gatherArguments(args, loaded, device);

    const CompiledProgram& program = *loaded.program;
    const Function& main = program.main();
    size_t numOutputs = main.resultTypes.size();
    if (numOutputs > 0) {
      requireNonNull(args->output_lists, "output_lists");
      requireNonNull(args->output_lists[0], "output_lists[0]");
    }

    std::vector<Literal> results;
    {
      ThreadPoolScope pool(loaded.client->threadPool.get());
      results = interpret(program.module, main, inputs);
    }
    inputs.clear();
    if (results.size() != numOutputs)
      fail("the interpreter returned " + std::to_string(results.size()) + " results but main declares " +
           std::to_string(numOutputs), ErrorCode::Internal);
    for (size_t i = 0; i < numOutputs; ++i)
      if (results[i].type != main.resultTypes[i])
        fail("the interpreter returned " + typeString(results[i].type) + " for result " + std::to_string(i) +
             " but main declares " + typeString(main.resultTypes[i]), ErrorCode::Internal);

    PendingOutputs outputs;
    for (auto& result : results) outputs.add(newBuffer(loaded.client, device, std::move(result)));
    std::unique_ptr<PJRT_Event> done(args->device_complete_events ? newReadyEvent() : nullptr);
    std::vector<PJRT_Buffer*> made = outputs.release();
    for (size_t i = 0; i < made.size(); ++i) args->output_lists[0][i] = made[i];
    if (args->device_complete_events) args->device_complete_events[0] = done.release();
  });
}

}  // namespace

void fillExecuteSlots(PJRT_Api& api) { api.PJRT_LoadedExecutable_Execute = execute; }

}  // namespace tpjrt::cpu
