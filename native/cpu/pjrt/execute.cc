// PJRT_LoadedExecutable_Execute: checks the arguments against main's parameters, runs the
// interpreter synchronously and hands back new output buffers and ready completion events.
#include <memory>
#include <string>
#include <vector>

#include "base/thread_pool.h"
#include "exec/interpreter.h"
#include "exec/plan.h"
#include "ir/element_type.h"
#include "pjrt/buffer.h"
#include "pjrt/error.h"
#include "pjrt/event.h"
#include "pjrt/executable.h"
#include "pjrt/slots.h"

namespace tpjrt::cpu {
namespace {

using Args = PJRT_LoadedExecutable_Execute_Args;

// Output buffers made so far; freed again unless the call succeeds. Few outputs need no allocation.
class PendingOutputs {
 public:
  explicit PendingOutputs(size_t count) {
    if (count > kInline) heap_.resize(count);
  }
  ~PendingOutputs() {
    for (size_t i = 0; i < size_; ++i) destroyBuffer(data()[i]);
  }
  void add(PJRT_Buffer* b) { data()[size_++] = b; }
  // Hands every buffer to `out`; none is freed any more.
  void release(PJRT_Buffer** out) {
    for (size_t i = 0; i < size_; ++i) out[i] = data()[i];
    size_ = 0;
  }

 private:
  static constexpr size_t kInline = 4;
  PJRT_Buffer** data() { return heap_.empty() ? inline_ : heap_.data(); }
  PJRT_Buffer* inline_[kInline] = {};
  std::vector<PJRT_Buffer*> heap_;
  size_t size_ = 0;
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

std::string argumentName(size_t i) { return "argument " + std::to_string(i); }

// The arguments share the buffers' literals: the interpreter only reads them. `values` is the
// calling thread's own vector, reused from run to run.
void gatherArguments(const Args* args, const PJRT_LoadedExecutable& loaded, const PJRT_Device* device,
                     std::vector<std::shared_ptr<const Literal>>& values) {
  const Function& main = loaded.program->main();
  const auto& params = main.body.argTypes;
  const RegionPlan& plan = main.body.plan.get([&] { return planRegion(main.body); });
  if (args->num_args != params.size())
    fail("main takes " + std::to_string(params.size()) + " arguments but num_args is " +
         std::to_string(args->num_args));
  if (params.empty()) return;
  requireNonNull(args->argument_lists, "argument_lists");
  requireNonNull(args->argument_lists[0], "argument_lists[0]");
  for (size_t i = 0; i < params.size(); ++i) {
    const PJRT_Buffer* buffer = args->argument_lists[0][i];
    if (buffer == nullptr) fail(argumentName(i) + " is NULL");
    if (buffer->client != loaded.client) fail(argumentName(i) + " belongs to another client");
    if (buffer->type != params[i])
      fail(argumentName(i) + " has type " + typeString(buffer->type) + " but main expects " + typeString(params[i]));
    if (buffer->device != device)
      fail(argumentName(i) + " is on device " + std::to_string(buffer->device->id) +
           " but the executable runs on device " + std::to_string(device->id) +
           " (copy it with PJRT_Buffer_CopyToDevice)");
    std::shared_ptr<const Literal> data = dataOf(*buffer);
    if (!data) fail(argumentName(i) + " has been deleted or donated");
    if (data->view && !plan.viewArgs[i]) data = denseData(*buffer, std::move(data));
    values.push_back(std::move(data));
  }
}

// Empties the thread's argument vector however the run ends, keeping its capacity.
struct ArgumentsScope {
  std::vector<std::shared_ptr<const Literal>>& values;
  ~ArgumentsScope() { values.clear(); }
};

PJRT_Error* execute(Args* args) {
  return guarded("PJRT_LoadedExecutable_Execute", [&] {
    TPJRT_CHECK_ARGS(Args, args, device_complete_events);
    requireNonNull(args->executable, "executable");
    const PJRT_LoadedExecutable& loaded = *args->executable;
    if (loaded.deleted) fail("the executable has been deleted");
    requireNonNull(args->options, "options (pass a zero-filled PJRT_ExecuteOptions)");
    if (args->num_devices != 1)
      fail("num_devices is " + std::to_string(args->num_devices) + " but the executable runs on 1 device");
    PJRT_Device* device = runDevice(args, loaded);
    thread_local std::vector<std::shared_ptr<const Literal>> inputs;
    ArgumentsScope release{inputs};
    gatherArguments(args, loaded, device, inputs);

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
      results = interpret(program.module, main, inputs, true, ViewResults::Keep);
    }
    inputs.clear();
    if (results.size() != numOutputs)
      fail("the interpreter returned " + std::to_string(results.size()) + " results but main declares " +
           std::to_string(numOutputs), ErrorCode::Internal);
    for (size_t i = 0; i < numOutputs; ++i)
      if (results[i].type != main.resultTypes[i])
        fail("the interpreter returned " + typeString(results[i].type) + " for result " + std::to_string(i) +
             " but main declares " + typeString(main.resultTypes[i]), ErrorCode::Internal);

    PendingOutputs outputs(numOutputs);
    for (auto& result : results) outputs.add(newBuffer(loaded.client, device, std::move(result)));
    outputs.release(args->output_lists[0]);
    if (args->device_complete_events) args->device_complete_events[0] = newReadyEvent();
  });
}

}  // namespace

void fillExecuteSlots(PJRT_Api& api) { api.PJRT_LoadedExecutable_Execute = execute; }

}  // namespace tpjrt::cpu
