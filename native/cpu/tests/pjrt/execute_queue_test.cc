// Execute is asynchronous: each device runs its executes on a queue of its own, and everything that
// reads a buffer waits for the run that defines it. A "gate" (a buffer whose value the test defines
// by hand, as a run on another device's queue would) holds a run back for as long as a test needs,
// so nothing here depends on timing.
#include <atomic>
#include <chrono>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "check.h"
#include "pjrt/buffer.h"
#include "pjrt/client.h"
#include "pjrt/executable.h"
#include "pjrt_c_api.h"
#include "tests/pjrt/api_calls.h"

namespace {

using namespace tpjrt::cpu::api_test;
using tpjrt::cpu::BufferValue;
using tpjrt::cpu::Bytes;
using tpjrt::cpu::ClientState;
using tpjrt::cpu::DeviceQueue;
using tpjrt::cpu::ElementType;
using tpjrt::cpu::Literal;
using tpjrt::cpu::TensorType;

const char* kAdd = R"(func.func public @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %a, %b : tensor<4xf32>
  return %0 : tensor<4xf32>
})";

// 2^46 floats, 256 TiB: more than a process can map, so the run fails with RESOURCE_EXHAUSTED.
const char* kTooBig = R"(func.func public @main(%a: tensor<f32>) -> tensor<70368744177664xf32> {
  %0 = stablehlo.broadcast_in_dim %a, dims = [] : (tensor<f32>) -> tensor<70368744177664xf32>
  return %0 : tensor<70368744177664xf32>
})";

const char* kTooBigTwice = R"(func.func public @main(%a: tensor<70368744177664xf32>) -> tensor<70368744177664xf32> {
  %0 = stablehlo.add %a, %a : tensor<70368744177664xf32>
  return %0 : tensor<70368744177664xf32>
})";

// A buffer of four floats that stays pending until open() defines it.
struct Gate {
  PJRT_Buffer* buffer;
  std::shared_ptr<BufferValue> value;

  explicit Gate(PJRT_Client* client) {
    ClientState& state = *client->state;
    buffer = tpjrt::cpu::newPendingBuffer(client->state, state.deviceList[0], TensorType{ElementType::F32, {4}});
    value = buffer->value.load();
  }
  void open(const std::vector<float>& values) {
    Literal literal;
    literal.type = TensorType{ElementType::F32, {4}};
    literal.bytes = Bytes(16);
    std::memcpy(literal.bytes.mutableData(), values.data(), 16);
    tpjrt::cpu::define(*value, std::make_shared<const Literal>(std::move(literal)));
  }
};

bool isReady(PJRT_Event* event) {
  ARGS(PJRT_Event_IsReady_Args, args);
  args.event = event;
  CHECK_OK(api().PJRT_Event_IsReady(&args));
  return args.is_ready;
}

Status await(PJRT_Event* event) {
  ARGS(PJRT_Event_Await_Args, args);
  args.event = event;
  return take(api().PJRT_Event_Await(&args));
}

PJRT_Event* readyEvent(PJRT_Buffer* buffer) {
  ARGS(PJRT_Buffer_ReadyEvent_Args, args);
  args.buffer = buffer;
  CHECK_OK(api().PJRT_Buffer_ReadyEvent(&args));
  return args.event;
}

// Execute with a call_location and a completion event.
std::vector<PJRT_Buffer*> executeAt(PJRT_LoadedExecutable* executable, const std::vector<PJRT_Buffer*>& inputs,
                                    const char* location, PJRT_Event** done) {
  ARGS(PJRT_ExecuteOptions, options);
  options.call_location = location;
  std::vector<PJRT_Buffer*> outputs(numOutputs(executable), nullptr);
  PJRT_Buffer* const* argumentList = inputs.data();
  PJRT_Buffer** outputList = outputs.data();
  ARGS(PJRT_LoadedExecutable_Execute_Args, args);
  args.executable = executable;
  args.options = &options;
  args.argument_lists = &argumentList;
  args.num_devices = 1;
  args.num_args = inputs.size();
  args.output_lists = &outputList;
  args.device_complete_events = done;
  CHECK_OK(api().PJRT_LoadedExecutable_Execute(&args));
  return outputs;
}

struct Fired {
  std::atomic<int> calls{0};
  std::atomic<bool> onCaller{false};
  std::thread::id caller = std::this_thread::get_id();
  Status status;
};

void onFired(PJRT_Error* error, void* userArg) {
  auto* fired = static_cast<Fired*>(userArg);
  fired->status = take(error);
  fired->onCaller = std::this_thread::get_id() == fired->caller;
  ++fired->calls;
}

void onReady(PJRT_Event* event, Fired& fired) {
  ARGS(PJRT_Event_OnReady_Args, args);
  args.event = event;
  args.callback = onFired;
  args.user_arg = &fired;
  CHECK_OK(api().PJRT_Event_OnReady(&args));
}

TEST(execute_returns_before_the_run_and_on_ready_fires_from_the_device_thread) {
  PJRT_Client* client = makeClient();
  PJRT_LoadedExecutable* add = compile(client, kAdd);
  PJRT_Buffer* a = uploadF32(client, {1, 2, 3, 4}, {4});
  Gate gate(client);
  PJRT_Event* done = nullptr;
  std::vector<PJRT_Buffer*> out = executeAt(add, {a, gate.buffer}, "gated_add", &done);
  PJRT_Event* ready = readyEvent(out[0]);
  Fired fired;
  onReady(ready, fired);
  CHECK(!isReady(ready));
  CHECK(!isReady(done));
  CHECK_EQ(fired.calls.load(), 0);
  // A read of the pending output hands back an event that is not ready either.
  std::vector<float> early(4, -1);
  ARGS(PJRT_Buffer_ToHostBuffer_Args, read);
  read.src = out[0];
  read.dst = early.data();
  read.dst_size = 16;
  CHECK_OK(api().PJRT_Buffer_ToHostBuffer(&read));
  CHECK(!isReady(read.event));
  CHECK(early == std::vector<float>(4, -1));

  gate.open({10, 20, 30, 40});
  CHECK(await(read.event).ok);
  CHECK(early == std::vector<float>({11, 22, 33, 44}));
  CHECK(await(done).ok);
  CHECK(isReady(ready));
  CHECK_EQ(fired.calls.load(), 1);
  CHECK(fired.status.ok);
  CHECK(!fired.onCaller);  // the device's thread ran the callback
  for (PJRT_Event* e : {ready, done, read.event}) destroyEvent(e);
  for (PJRT_Buffer* b : {a, gate.buffer, out[0]}) destroyBuffer(b);
  destroyExecutable(add);
  destroyClient(client);
}

TEST(a_small_program_on_an_idle_device_runs_before_execute_returns) {
  PJRT_Client* client = makeClient();
  PJRT_LoadedExecutable* add = compile(client, kAdd);
  PJRT_Buffer* a = uploadF32(client, {1, 2, 3, 4}, {4});
  PJRT_Buffer* b = uploadF32(client, {10, 20, 30, 40}, {4});
  PJRT_Event* done = nullptr;
  std::vector<PJRT_Buffer*> now = executeAt(add, {a, b}, "small_add", &done);
  CHECK(isReady(done));
  destroyEvent(done);
  // Behind a queued run the same program waits its turn.
  Gate gate(client);
  std::vector<PJRT_Buffer*> gated = execute(add, {a, gate.buffer});
  std::vector<PJRT_Buffer*> behind = executeAt(add, {now[0], b}, "queued_add", &done);
  CHECK(!isReady(done));
  gate.open({1, 1, 1, 1});
  CHECK(await(done).ok);
  destroyEvent(done);
  CHECK(downloadF32(behind[0]) == std::vector<float>({21, 42, 63, 84}));
  for (PJRT_Buffer* buffer : {a, b, now[0], gate.buffer, gated[0], behind[0]}) destroyBuffer(buffer);
  destroyExecutable(add);
  destroyClient(client);
  // Which programs count as small: a bounded amount of element work, no loops.
  auto inlined = [](const char* text) { return tpjrt::cpu::compileProgram(text, "")->runsInline; };
  CHECK(inlined(kAdd));
  CHECK(!inlined(kTooBig));
  CHECK(!inlined(R"(func.func public @main(%a: tensor<256x256xf32>) -> tensor<256x256xf32> {
    %0 = stablehlo.add %a, %a : tensor<256x256xf32>
    return %0 : tensor<256x256xf32>
  })"));
  CHECK(!inlined(R"(func.func public @main(%a: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %0 = stablehlo.dot_general %a, %a, contracting_dims = [1] x [0] : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    return %0 : tensor<64x64xf32>
  })"));
  CHECK(!inlined(R"(func.func public @main(%n: tensor<i64>) -> tensor<i64> {
    %r = stablehlo.while(%i = %n) : tensor<i64>
    cond {
      %z = stablehlo.constant dense<0> : tensor<i64>
      %gt = stablehlo.compare GT, %i, %z : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %gt : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i64>
      %j = stablehlo.subtract %i, %one : tensor<i64>
      stablehlo.return %j : tensor<i64>
    }
    return %r : tensor<i64>
  })"));
}

TEST(buffers_deleted_right_after_enqueueing_stay_alive_for_the_run) {
  PJRT_Client* client = makeClient();
  PJRT_Device* device = devicesOf(client)[0];
  const int64_t before = bytesInUse(device);
  PJRT_LoadedExecutable* add = compile(client, kAdd);
  PJRT_Buffer* a = uploadF32(client, {1, 2, 3, 4}, {4});
  Gate gate(client);
  std::vector<PJRT_Buffer*> first = execute(add, {a, gate.buffer});
  std::vector<PJRT_Buffer*> second = execute(add, {first[0], a});
  // The caller lets go of everything but the last output at once, as eager code does; the copy to
  // the host is asked for before the runs have happened too.
  destroyBuffer(a);
  destroyBuffer(first[0]);
  destroyExecutable(add);
  CHECK_EQ(bytesInUse(device) - before, int64_t(2 * 16));  // the gate and the last output
  std::vector<float> back(4);
  ARGS(PJRT_Buffer_CopyRawToHost_Args, raw);
  raw.buffer = second[0];
  raw.dst = back.data();
  raw.offset = 4;
  raw.transfer_size = 8;
  CHECK_OK(api().PJRT_Buffer_CopyRawToHost(&raw));
  gate.open({10, 20, 30, 40});
  CHECK(await(raw.event).ok);
  CHECK(back[0] == 24 && back[1] == 36);
  destroyEvent(raw.event);
  CHECK(downloadF32(second[0]) == std::vector<float>({12, 24, 36, 48}));
  destroyBuffer(second[0]);
  destroyBuffer(gate.buffer);
  CHECK_EQ(bytesInUse(device), before);
  destroyClient(client);
}

TEST(a_copy_to_another_device_waits_for_its_source) {
  PJRT_Client* client = makeClient(2);
  std::vector<PJRT_Device*> devices = devicesOf(client);
  PJRT_LoadedExecutable* add = compile(client, kAdd);
  PJRT_LoadedExecutable* addOnOne = compile(client, kAdd, singleDeviceOptions(1));
  PJRT_Buffer* a = uploadF32(client, {1, 2, 3, 4}, {4});
  Gate gate(client);
  std::vector<PJRT_Buffer*> sum = execute(add, {a, gate.buffer});
  ARGS(PJRT_Buffer_CopyToDevice_Args, copy);
  copy.buffer = sum[0];
  copy.dst_device = devices[1];
  CHECK_OK(api().PJRT_Buffer_CopyToDevice(&copy));
  // Device 1's queue runs on the copy, which device 0's run defines.
  std::vector<PJRT_Buffer*> twice = execute(addOnOne, {copy.dst_buffer, copy.dst_buffer});
  destroyBuffer(copy.dst_buffer);
  gate.open({1, 1, 1, 1});
  CHECK(downloadF32(twice[0]) == std::vector<float>({4, 6, 8, 10}));
  for (PJRT_Buffer* b : {a, gate.buffer, sum[0], twice[0]}) destroyBuffer(b);
  destroyExecutable(add);
  destroyExecutable(addOnOne);
  destroyClient(client);
}

TEST(a_failed_run_fails_its_outputs_and_everything_computed_from_them) {
  PJRT_Client* client = makeClient();
  PJRT_LoadedExecutable* big = compile(client, kTooBig);
  PJRT_LoadedExecutable* twice = compile(client, kTooBigTwice);
  float one = 1;
  PJRT_Buffer* scalar = upload(client, PJRT_Buffer_Type_F32, &one, {});
  PJRT_Event* done = nullptr;
  std::vector<PJRT_Buffer*> huge = executeAt(big, {scalar}, "expand", &done);  // Execute itself succeeds
  std::vector<PJRT_Buffer*> derived = executeAt(twice, {huge[0]}, "add", nullptr);
  const std::string first = "running expand on cpu:0 failed: line 2: stablehlo.broadcast_in_dim: out of memory";
  Status run = await(done);
  CHECK_EQ(run.code, int(PJRT_Error_Code_RESOURCE_EXHAUSTED));
  CHECK(contains(run.message, first));
  for (PJRT_Buffer* b : {huge[0], derived[0]}) {
    PJRT_Event* ready = readyEvent(b);
    Status status = await(ready);
    destroyEvent(ready);
    CHECK_EQ(status.code, int(PJRT_Error_Code_RESOURCE_EXHAUSTED));
    if (!contains(status.message, first)) ::tpjrt::test::report(__FILE__, __LINE__, "message: " + status.message);
    // A read fails with the same error.
    float sink;
    ARGS(PJRT_Buffer_CopyRawToHost_Args, raw);
    raw.buffer = b;
    raw.dst = &sink;
    raw.transfer_size = 4;
    CHECK_OK(api().PJRT_Buffer_CopyRawToHost(&raw));
    Status read = await(raw.event);
    destroyEvent(raw.event);
    CHECK_EQ(read.code, int(PJRT_Error_Code_RESOURCE_EXHAUSTED));
    CHECK(contains(read.message, first));
  }
  destroyEvent(done);
  for (PJRT_Buffer* b : {scalar, huge[0], derived[0]}) destroyBuffer(b);
  destroyExecutable(big);
  destroyExecutable(twice);
  destroyClient(client);
}

// More runs than the queue holds (submit then waits for room), each reading the one before and
// deleted at once; their completion callbacks fire in the order the runs were enqueued.
TEST(many_queued_executes_run_in_order) {
  PJRT_Client* client = makeClient();
  PJRT_Device* device = devicesOf(client)[0];
  const int64_t before = bytesInUse(device);
  PJRT_LoadedExecutable* add = compile(client, kAdd);
  PJRT_Buffer* one = uploadF32(client, {1, 1, 1, 1}, {4});
  Gate gate(client);
  struct Order {
    std::mutex mu;
    std::vector<int> seen;
  } order;
  struct Entry {
    Order* order;
    int index;
  };
  const int kRuns = int(DeviceQueue::kMaxQueued) + 500;
  std::vector<Entry> entries(static_cast<size_t>(kRuns));
  std::thread opener([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    gate.open({0, 1, 2, 3});
  });
  PJRT_Buffer* x = gate.buffer;
  for (int k = 0; k < kRuns; ++k) {
    PJRT_Event* done = nullptr;
    std::vector<PJRT_Buffer*> out = executeAt(add, {x, one}, "step", &done);
    entries[size_t(k)] = {&order, k};
    ARGS(PJRT_Event_OnReady_Args, args);
    args.event = done;
    args.callback = [](PJRT_Error* error, void* userArg) {
      auto* entry = static_cast<Entry*>(userArg);
      take(error);
      std::lock_guard<std::mutex> lock(entry->order->mu);
      entry->order->seen.push_back(entry->index);
    };
    args.user_arg = &entries[size_t(k)];
    CHECK_OK(api().PJRT_Event_OnReady(&args));
    destroyEvent(done);
    if (x != gate.buffer) destroyBuffer(x);
    x = out[0];
  }
  opener.join();
  float k = float(kRuns);
  CHECK(downloadF32(x) == std::vector<float>({k, k + 1, k + 2, k + 3}));
  {
    std::lock_guard<std::mutex> lock(order.mu);
    CHECK_EQ(order.seen.size(), size_t(kRuns));
    for (int i = 0; i < int(order.seen.size()); ++i)
      if (order.seen[size_t(i)] != i) {
        ::tpjrt::test::report(__FILE__, __LINE__, "run " + std::to_string(order.seen[size_t(i)]) + " finished in place " +
                                                      std::to_string(i));
        break;
      }
  }
  for (PJRT_Buffer* b : {x, one, gate.buffer}) destroyBuffer(b);
  CHECK_EQ(bytesInUse(device), before);
  destroyExecutable(add);
  destroyClient(client);
}

// The client's state goes with its last handle; its device queues finish what they hold first.
TEST(destroying_everything_while_runs_are_queued) {
  PJRT_Client* client = makeClient();
  PJRT_LoadedExecutable* add = compile(client, kAdd);
  PJRT_Buffer* a = uploadF32(client, {1, 2, 3, 4}, {4});
  Gate gate(client);
  std::vector<PJRT_Buffer*> out = execute(add, {a, gate.buffer});
  PJRT_Event* ready = readyEvent(out[0]);
  Fired fired;
  onReady(ready, fired);
  destroyEvent(ready);
  for (PJRT_Buffer* b : {a, out[0], gate.buffer}) destroyBuffer(b);
  destroyExecutable(add);
  CHECK_EQ(fired.calls.load(), 0);
  std::thread opener([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    gate.open({1, 1, 1, 1});
  });
  destroyClient(client);  // the last handle: waits for the queued run
  CHECK_EQ(fired.calls.load(), 1);
  CHECK(fired.status.ok);
  opener.join();
}

}  // namespace

TEST_MAIN()
