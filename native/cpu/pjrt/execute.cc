// PJRT_LoadedExecutable_Execute: checks the arguments against main's parameters, hands back output
// buffers at once and queues the run on the device, which defines the outputs when it has run (or
// fails them with the run's error, named after the call_location or the executable).
#include <algorithm>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "base/float_mode.h"
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
    for (size_t i = 0; i < size_; ++i) {
      if (i < uncounted_.size() && uncounted_[i]) data()[i]->value.store(nullptr);  // nothing to release
      destroyBuffer(data()[i]);
    }
  }
  // `counted` false: a buffer made with newPendingBuffer(…, false), for a donated argument's memory.
  void add(PJRT_Buffer* b, bool counted) {
    if (!counted) {
      uncounted_.resize(size_ + 1, false);
      uncounted_[size_] = true;
    }
    data()[size_++] = b;
  }
  PJRT_Buffer* operator[](size_t i) { return data()[i]; }
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
  std::vector<bool> uncounted_;
  size_t size_ = 0;
};

// The values a run reads, then those it defines; a few are held inline (an eager op's two inputs
// and one output need no allocation of their own).
class RunValues {
 public:
  // Drops what an earlier run held (on the thread that reuses it) and makes room.
  void reset(size_t inputs, size_t outputs) {
    for (auto& value : inline_) value.reset();
    heap_.clear();
    inputs_ = inputs;
    outputs_ = outputs;
    if (inputs + outputs > kInline) heap_.resize(inputs + outputs);
  }
  // After the run, on the device's thread: lets go of the data of every value nothing else holds, and
  // keeps their (small) records for reset() on the thread that made them.
  void releaseData() {
    for (size_t i = 0; i < inputs_ + outputs_; ++i) {
      std::shared_ptr<BufferValue>& value = data()[i];
      if (!value) continue;
      if (value.use_count() == 1) {
        value->data.store(nullptr);
      } else {
        value.reset();
      }
    }
  }
  size_t numInputs() const { return inputs_; }
  size_t numOutputs() const { return outputs_; }
  std::shared_ptr<BufferValue>& input(size_t i) { return data()[i]; }
  std::shared_ptr<BufferValue>& output(size_t i) { return data()[inputs_ + i]; }

 private:
  static constexpr size_t kInline = 4;
  std::shared_ptr<BufferValue>* data() { return heap_.empty() ? inline_ : heap_.data(); }
  std::shared_ptr<BufferValue> inline_[kInline];
  std::vector<std::shared_ptr<BufferValue>> heap_;
  size_t inputs_ = 0, outputs_ = 0;
};

// One queued run. It holds what it reads and what it defines, so the caller may delete any of those
// buffers (or the executable) as soon as Execute returns.
struct Run final : DeviceQueue::Work {
  std::shared_ptr<const CompiledProgram> program;
  ThreadPool* pool = nullptr;
  const PJRT_Device* device = nullptr;
  std::string location;  // call_location, or empty
  RunValues values;
  // Per output, the argument whose buffer it takes (see chooseDonors), else -1; empty when none does.
  std::vector<int> donors;
  std::shared_ptr<Completion> done;  // the completion event's, when there are no outputs to share it with
  std::vector<std::shared_ptr<const Literal>> arguments;  // compute()'s, kept empty between runs for its capacity

  void run() noexcept override;
  void execute() noexcept;
  std::vector<std::shared_ptr<const Literal>> compute(std::optional<Failure>& inputFailure);
  Failure labelled(Failure failure) const;
  bool donated(size_t input) const {
    if (donors.empty()) return false;
    int output = program->aliasedOutput[input];
    return output >= 0 && donors[size_t(output)] == int(input);
  }
};

// A donated input that nothing else holds any more (no read or copy waits for it): the run takes its
// data, so that a result may be written into its storage (exec/interpreter.cc, outputLiteral). The
// copy shares the bytes, which the value lets go of.
std::shared_ptr<const Literal> takeData(BufferValue& value) {
  std::shared_ptr<const Literal> data = value.data.exchange(nullptr);
  return std::make_shared<Literal>(*data);
}

// The inputs were defined by earlier work on this queue, or are being defined on another device's
// queue (a copy); a failed input fails the run with that input's own failure, which names the run
// that went wrong first.
std::vector<std::shared_ptr<const Literal>> Run::compute(std::optional<Failure>& inputFailure) {
  const Function& main = program->main();
  const RegionPlan& plan = main.body.plan.get([&] { return planRegion(main.body); });
  struct Clear {
    std::vector<std::shared_ptr<const Literal>>& v;
    ~Clear() { v.clear(); }
  } clear{arguments};
  for (size_t i = 0; i < values.numInputs(); ++i) {
    BufferValue& input = *values.input(i);
    if (const Failure* failure = input.defined.await()) {
      inputFailure = *failure;
      return {};
    }
    if (donated(i) && values.input(i).use_count() == 1) {
      arguments.push_back(takeData(input));
      continue;
    }
    std::shared_ptr<const Literal> data = input.data.load();
    if (data->view && !plan.viewArgs[i]) data = denseData(input, std::move(data));
    arguments.push_back(std::move(data));
  }
  ThreadPoolScope scope(pool);
  FloatModeScope floatMode;
  std::vector<std::shared_ptr<const Literal>> results = interpretShared(program->module, main, std::move(arguments));
  if (results.size() != values.numOutputs())
    fail("the interpreter returned " + std::to_string(results.size()) + " results but main declares " +
         std::to_string(values.numOutputs()), ErrorCode::Internal);
  for (size_t i = 0; i < results.size(); ++i)
    if (results[i]->type != main.resultTypes[i])
      fail("the interpreter returned " + typeString(results[i]->type) + " for result " + std::to_string(i) +
           " but main declares " + typeString(main.resultTypes[i]), ErrorCode::Internal);
  return results;
}

Failure Run::labelled(Failure failure) const {
  const std::string& name = location.empty() ? program->name : location;
  failure.message = "running " + name + " on " + device->description.debugString + " failed: " + failure.message;
  return failure;
}

void Run::run() noexcept {
  execute();
  values.releaseData();
  program.reset();
  done.reset();
}

// Output 0 is defined last: the completion event shares its completion.
void Run::execute() noexcept {
  std::optional<Failure> failure;
  std::vector<std::shared_ptr<const Literal>> results;
  try {
    results = compute(failure);
  } catch (...) {
    try {
      failure = labelled(currentFailure());
    } catch (...) {
      failure = Failure{PJRT_Error_Code_RESOURCE_EXHAUSTED, "out of host memory"};
    }
  }
  for (size_t i = values.numOutputs(); i-- > 0;) {
    if (!failure) {
      try {
        define(*values.output(i), std::move(results[i]));
        continue;
      } catch (...) {
        failure = labelled(currentFailure());
      }
    }
    failValue(*values.output(i), *failure);
  }
  if (done) done->set(std::move(failure));
}

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

// The run reads the arguments' values, whatever happens to the buffers meanwhile.
void gatherArguments(const Args* args, const PJRT_LoadedExecutable& loaded, const PJRT_Device* device, Run& run) {
  const auto& params = loaded.program->main().body.argTypes;
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
    std::shared_ptr<BufferValue> value = buffer->value.load();
    if (!value) fail(argumentName(i) + " has been deleted or donated");
    run.values.input(i) = std::move(value);
  }
}

std::span<const int64_t> nonDonatable(const Args* args) {
  const PJRT_ExecuteOptions* options = args->options;
  if (options->struct_size < TPJRT_FIELD_END(PJRT_ExecuteOptions, num_non_donatable_input_indices) ||
      options->num_non_donatable_input_indices == 0)
    return {};
  requireNonNull(options->non_donatable_input_indices, "options->non_donatable_input_indices");
  return {options->non_donatable_input_indices, options->num_non_donatable_input_indices};
}

// The arguments whose buffers become outputs (PJRT: every aliased one not in
// non_donatable_input_indices). A buffer passed at another position as well must stay readable
// there: its output gets memory of its own, as for a non-donatable one.
void chooseDonors(const Args* args, const CompiledProgram& program, Run& run) {
  run.donors.clear();
  const std::vector<int>& aliased = program.aliasedOutput;
  if (aliased.empty()) return;
  PJRT_Buffer* const* list = args->argument_lists[0];
  std::vector<PJRT_Buffer*> sorted(list, list + aliased.size());
  std::sort(sorted.begin(), sorted.end());
  std::span<const int64_t> kept = nonDonatable(args);
  for (size_t i = 0; i < aliased.size(); ++i) {
    if (aliased[i] < 0 || std::find(kept.begin(), kept.end(), int64_t(i)) != kept.end()) continue;
    auto [first, last] = std::equal_range(sorted.begin(), sorted.end(), list[i]);
    if (last - first > 1) continue;
    if (run.donors.empty()) run.donors.assign(program.outputTypes.size(), -1);
    run.donors[size_t(aliased[i])] = int(i);
  }
}

// Deletes the donors' buffers: the run holds their values, and their bytes are counted as the
// outputs'. A donor deleted meanwhile by another thread released its bytes: its output counts its own.
void donateArguments(const Args* args, Run& run, PendingOutputs& outputs) noexcept {
  for (size_t k = 0; k < run.donors.size(); ++k) {
    if (run.donors[k] < 0) continue;
    if (!donate(*args->argument_lists[0][run.donors[k]]))
      outputs[k]->client->recordAllocation(outputs[k]->device, outputs[k]->sizeInBytes);
  }
}

// Undoes donateArguments for a run that never started.
void restoreDonors(const Args* args, Run& run) noexcept {
  for (size_t k = 0; k < run.donors.size(); ++k) {
    if (run.donors[k] < 0) continue;
    size_t i = size_t(run.donors[k]);
    args->argument_lists[0][i]->value.store(run.values.input(i));
  }
}

// A small program on an idle device runs on the caller's thread, as XLA's CPU client runs cheap
// computations: handing a few microseconds of work to the device thread costs more than the work.
// Its inputs must be defined (one being copied from another device waits on the queue).
bool runNow(const CompiledProgram& program, const PJRT_Device& device, Run& run) {
  if (!program.runsInline || !device.queue.idle() || DeviceQueue::onQueueThread()) return false;
  for (size_t i = 0; i < run.values.numInputs(); ++i)
    if (!run.values.input(i)->defined.isSet()) return false;
  return true;
}

const char* callLocation(const Args* args) {
  const PJRT_ExecuteOptions* options = args->options;
  if (options->struct_size < TPJRT_FIELD_END(PJRT_ExecuteOptions, call_location)) return nullptr;
  return options->call_location;
}

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
    // The run that went before on this thread, if its device has handed it back (see DeviceQueue).
    thread_local std::unique_ptr<Run> spare;
    std::unique_ptr<Run> run = spare ? std::move(spare) : std::make_unique<Run>();
    run->program = loaded.program;
    run->pool = loaded.client->threadPool.get();
    run->device = device;
    const char* location = callLocation(args);
    run->location.assign(location ? location : "");
    const Function& main = loaded.program->main();
    size_t numOutputs = main.resultTypes.size();
    run->values.reset(main.body.argTypes.size(), numOutputs);
    gatherArguments(args, loaded, device, *run);
    chooseDonors(args, *loaded.program, *run);

    if (numOutputs > 0) {
      requireNonNull(args->output_lists, "output_lists");
      requireNonNull(args->output_lists[0], "output_lists[0]");
    }
    PendingOutputs outputs(numOutputs);
    for (size_t i = 0; i < numOutputs; ++i) {
      bool counted = run->donors.empty() || run->donors[i] < 0;
      outputs.add(newPendingBuffer(loaded.client, device, main.resultTypes[i], counted), counted);
      run->values.output(i) = outputs[i]->value.load();
    }
    PJRT_Event* completion = nullptr;
    if (args->device_complete_events) {
      std::shared_ptr<Completion> shared;
      if (numOutputs > 0) {
        const std::shared_ptr<BufferValue>& first = run->values.output(0);
        shared = std::shared_ptr<Completion>(first, &first->defined);
      } else {
        run->done = std::make_shared<Completion>();
        shared = run->done;
      }
      completion = newEvent(std::move(shared));
    }
    donateArguments(args, *run, outputs);
    if (runNow(*loaded.program, *device, *run)) {
      run->run();
      spare = std::move(run);
    } else {
      Run& queued = *run;
      std::unique_ptr<DeviceQueue::Work> work = std::move(run);
      try {
        // Only runs are submitted to device queues.
        spare.reset(static_cast<Run*>(device->queue.submit(std::move(work)).release()));
      } catch (...) {
        restoreDonors(args, queued);
        delete completion;
        throw;
      }
    }
    if (numOutputs > 0) outputs.release(args->output_lists[0]);
    if (args->device_complete_events) args->device_complete_events[0] = completion;
  });
}

}  // namespace

void fillExecuteSlots(PJRT_Api& api) { api.PJRT_LoadedExecutable_Execute = execute; }

}  // namespace tpjrt::cpu
