// Buffer donation: main's `tf.aliasing_output` argument attributes let an output take an argument's
// buffer. Execute then deletes (donates) that argument unless non_donatable_input_indices names it or
// the same buffer is passed at another position; the output reuses its counted bytes and, where the
// run alone holds them, its storage. Reads and copies made before the run keep the old value.
#include <cstring>
#include <string>
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
using tpjrt::cpu::ElementType;
using tpjrt::cpu::Literal;
using tpjrt::cpu::TensorType;

// out0 = a + b, which may take a's buffer.
std::string addInto(int64_t n) {
  std::string t = "tensor<" + std::to_string(n) + "xf32>";
  return "func.func public @main(%a: " + t + " {tf.aliasing_output = 0 : i32}, %b: " + t + ") -> " + t +
         " {\n  %0 = stablehlo.add %a, %b : " + t + "\n  return %0 : " + t + "\n}";
}

// out0 = (a + b) + b, one fused group whose plan lets its result take a's storage once a is read.
std::string addTwiceInto(int64_t n) {
  std::string t = "tensor<" + std::to_string(n) + "xf32>";
  return "func.func public @main(%a: " + t + " {tf.aliasing_output = 0 : i32}, %b: " + t + ") -> " + t +
         " {\n  %0 = stablehlo.add %a, %b : " + t + "\n  %1 = stablehlo.add %0, %b : " + t + "\n  return %1 : " + t +
         "\n}";
}

// The same in generic form, as the addon's printer writes it.
const char* kGenericAddInto = R"("builtin.module"() ({
  "func.func"() ({
  ^bb0(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>):
    %0 = "stablehlo.add"(%arg0, %arg1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    "func.return"(%0) : (tensor<4xf32>) -> ()
  }) {arg_attrs = [{tf.aliasing_output = 0 : i32}, {}], function_type = (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>, sym_name = "main", sym_visibility = "public"} : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
)";

// (a + b, a - b), each output taking one argument's buffer.
const char* kSumAndDifference = R"(func.func public @main(%a: tensor<4xf32> {tf.aliasing_output = 1 : i32}, %b: tensor<4xf32> {tf.aliasing_output = 0 : i32}) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = stablehlo.add %a, %b : tensor<4xf32>
  %1 = stablehlo.subtract %a, %b : tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
})";

struct Stats {
  int64_t bytesInUse = 0;
  int64_t numAllocs = 0;
};

Stats statsOf(PJRT_Device* device) {
  ARGS(PJRT_Device_MemoryStats_Args, args);
  args.device = device;
  CHECK_OK(api().PJRT_Device_MemoryStats(&args));
  return {args.bytes_in_use, args.num_allocs};
}

bool isDeleted(PJRT_Buffer* buffer) {
  ARGS(PJRT_Buffer_IsDeleted_Args, args);
  args.buffer = buffer;
  CHECK_OK(api().PJRT_Buffer_IsDeleted(&args));
  return args.is_deleted;
}

int64_t aliasBytes(PJRT_LoadedExecutable* loaded) {
  ARGS(PJRT_LoadedExecutable_GetExecutable_Args, get);
  get.loaded_executable = loaded;
  CHECK_OK(api().PJRT_LoadedExecutable_GetExecutable(&get));
  ARGS(PJRT_Executable_GetCompiledMemoryStats_Args, args);
  args.executable = get.executable;
  CHECK_OK(api().PJRT_Executable_GetCompiledMemoryStats(&args));
  ARGS(PJRT_Executable_Destroy_Args, destroy);
  destroy.executable = get.executable;
  CHECK_OK(api().PJRT_Executable_Destroy(&destroy));
  return args.alias_size_in_bytes;
}

std::vector<PJRT_Buffer*> executeKeeping(PJRT_LoadedExecutable* executable, const std::vector<PJRT_Buffer*>& inputs,
                                         const std::vector<int64_t>& nonDonatable) {
  std::vector<PJRT_Buffer*> outputs;
  CHECK_OK(tryExecute(executable, inputs, outputs, nullptr, true, nonDonatable));
  return outputs;
}

// Where the buffer's (dense) elements sit; the literal is not kept, so the storage stays the buffer's alone.
const uint8_t* storageOf(PJRT_Buffer* buffer) { return literalOf(buffer)->bytes.data(); }

std::vector<float> iota(int64_t n, float scale) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = scale * float(i % 1000 - 500);
  return v;
}

std::vector<float> plusTwice(const std::vector<float>& a, const std::vector<float>& b) {
  std::vector<float> out(a.size());
  for (size_t i = 0; i < a.size(); ++i) out[i] = float(double(a[i]) + 2 * double(b[i]));
  return out;
}

Status compileStatus(PJRT_Client* client, const std::string& text) {
  PJRT_LoadedExecutable* executable = nullptr;
  Status status = take(tryCompile(client, text, singleDeviceOptions(), &executable));
  if (status.ok) destroyExecutable(executable);
  return status;
}

void checkRejected(PJRT_Client* client, const std::string& text, const std::string& fragment) {
  Status status = compileStatus(client, text);
  if (status.ok) return ::tpjrt::test::report(__FILE__, __LINE__, "compiled: " + text);
  CHECK_EQ(status.code, int(PJRT_Error_Code_INVALID_ARGUMENT));
  if (!contains(status.message, fragment))
    ::tpjrt::test::report(__FILE__, __LINE__, "message lacks '" + fragment + "': " + status.message);
}

TEST(aliases_are_read_from_pretty_and_generic_main) {
  PJRT_Client* client = makeClient();
  for (const std::string& text : {addInto(4), std::string(kGenericAddInto)}) {
    PJRT_LoadedExecutable* loaded = compile(client, text);
    CHECK(loaded->program->aliasedOutput == std::vector<int>({0, -1}));
    CHECK_EQ(aliasBytes(loaded), int64_t(16));
    destroyExecutable(loaded);
  }
  PJRT_LoadedExecutable* both = compile(client, kSumAndDifference);
  CHECK(both->program->aliasedOutput == std::vector<int>({1, 0}));
  CHECK_EQ(aliasBytes(both), int64_t(32));
  destroyExecutable(both);
  PJRT_LoadedExecutable* none = compile(client, R"(func.func public @main(%a: tensor<4xf32>) -> tensor<4xf32> {
    return %a : tensor<4xf32>
  })");
  CHECK(none->program->aliasedOutput.empty());
  CHECK_EQ(aliasBytes(none), int64_t(0));
  destroyExecutable(none);
  destroyClient(client);
}

TEST(bad_aliases_fail_to_compile) {
  PJRT_Client* client = makeClient();
  auto main = [](const std::string& attrA, const std::string& attrB, const std::string& result = "tensor<4xf32>") {
    return "func.func public @main(%a: tensor<4xf32> " + attrA + ", %b: tensor<4xf32> " + attrB + ") -> (" + result +
           ", tensor<4xf32>) {\n  %0 = stablehlo.add %a, %b : tensor<4xf32>\n  %1 = stablehlo.reshape %0 : (tensor<4xf32>) -> " +
           result + "\n  return %1, %0 : " + result + ", tensor<4xf32>\n}";
  };
  checkRejected(client, main("{tf.aliasing_output = 2 : i32}", ""), "is 2 but main has 2 results");
  checkRejected(client, main("{tf.aliasing_output = -1 : i32}", ""), "is -1 but main has 2 results");
  checkRejected(client, main("{tf.aliasing_output = 0 : i32}", "", "tensor<2x2xf32>"),
                "names result 0, of type tensor<2x2xf32>");
  checkRejected(client, main("{tf.aliasing_output = 1 : i32}", "{tf.aliasing_output = 1 : i32}"),
                "argument 1 (tensor<4xf32>): tf.aliasing_output names result 1, which argument 0 already aliases");
  checkRejected(client, main("{tf.aliasing_output = \"0\"}", ""), "must be an integer");
  std::string generic = kGenericAddInto;
  std::string oneEntry = generic;
  oneEntry.replace(oneEntry.find("arg_attrs = [{tf.aliasing_output = 0 : i32}, {}]"),
                   std::strlen("arg_attrs = [{tf.aliasing_output = 0 : i32}, {}]"),
                   "arg_attrs = [{tf.aliasing_output = 0 : i32}]");
  checkRejected(client, oneEntry, "one dictionary per parameter (2)");
  // The same aliases, well formed, compile.
  CHECK(compileStatus(client, main("{tf.aliasing_output = 1 : i32}", "")).ok);
  CHECK(compileStatus(client, main("", "{tf.aliasing_output = 1 : i32}", "tensor<2x2xf32>")).ok);
  destroyClient(client);
}

TEST(a_donated_argument_becomes_its_output) {
  // 4 elements run on the caller's thread, 65536 on the device's queue.
  for (int64_t n : {int64_t(4), int64_t(65536)}) {
    PJRT_Client* client = makeClient();
    PJRT_Device* device = devicesOf(client)[0];
    PJRT_LoadedExecutable* add = compile(client, addTwiceInto(n));
    std::vector<float> av = iota(n, 0.5f), bv = iota(n, -3.0f);
    PJRT_Buffer* a = uploadF32(client, av, {n});
    PJRT_Buffer* b = uploadF32(client, bv, {n});
    const uint8_t* aStorage = storageOf(a);
    Stats before = statsOf(device);
    std::vector<PJRT_Buffer*> out = execute(add, {a, b});
    CHECK(downloadF32(out[0]) == plusTwice(av, bv));
    CHECK(isDeleted(a));
    CHECK(!isDeleted(b));
    CHECK(downloadF32(b) == bv);
    Stats after = statsOf(device);
    CHECK_EQ(after.bytesInUse, before.bytesInUse);  // a's bytes are the output's now
    CHECK_EQ(after.numAllocs, before.numAllocs);
    CHECK(storageOf(out[0]) == aStorage);           // written where a was

    // A donated buffer is deleted for every later use, and destroying it frees nothing more.
    ARGS(PJRT_Buffer_ToHostBuffer_Args, read);
    read.src = a;
    std::vector<float> host(size_t(n), 0);
    read.dst = host.data();
    read.dst_size = host.size() * 4;
    CHECK_ERROR(api().PJRT_Buffer_ToHostBuffer(&read), PJRT_Error_Code_INVALID_ARGUMENT, "has been deleted or donated");
    std::vector<PJRT_Buffer*> again;
    CHECK_ERROR(tryExecute(add, {a, b}, again), PJRT_Error_Code_INVALID_ARGUMENT, "argument 0 has been deleted or donated");
    destroyBuffer(a);
    CHECK_EQ(statsOf(device).bytesInUse, before.bytesInUse);
    destroyBuffer(out[0]);
    destroyBuffer(b);
    CHECK_EQ(statsOf(device).bytesInUse, int64_t(0));
    destroyExecutable(add);
    destroyClient(client);
  }
}

TEST(a_non_donatable_argument_is_copied_and_stays) {
  PJRT_Client* client = makeClient();
  PJRT_Device* device = devicesOf(client)[0];
  PJRT_LoadedExecutable* add = compile(client, addInto(4));
  PJRT_Buffer* a = uploadF32(client, {1, 2, 3, 4}, {4});
  PJRT_Buffer* b = uploadF32(client, {10, 20, 30, 40}, {4});
  const uint8_t* aStorage = storageOf(a);
  Stats before = statsOf(device);
  std::vector<PJRT_Buffer*> out = executeKeeping(add, {a, b}, {0});
  CHECK(downloadF32(out[0]) == std::vector<float>({11, 22, 33, 44}));
  CHECK(!isDeleted(a));
  CHECK(downloadF32(a) == std::vector<float>({1, 2, 3, 4}));
  CHECK(storageOf(out[0]) != aStorage);
  Stats after = statsOf(device);
  CHECK_EQ(after.bytesInUse, before.bytesInUse + 16);
  CHECK_EQ(after.numAllocs, before.numAllocs + 1);
  // Indices of arguments that are not aliased, or out of range, change nothing.
  std::vector<PJRT_Buffer*> second = executeKeeping(add, {out[0], b}, {1, 7});
  CHECK(isDeleted(out[0]));
  CHECK(downloadF32(second[0]) == std::vector<float>({21, 42, 63, 84}));
  for (PJRT_Buffer* buffer : {a, b, out[0], second[0]}) destroyBuffer(buffer);
  CHECK_EQ(statsOf(device).bytesInUse, int64_t(0));
  destroyExecutable(add);
  destroyClient(client);
}

TEST(a_buffer_passed_twice_is_not_donated) {
  PJRT_Client* client = makeClient();
  PJRT_Device* device = devicesOf(client)[0];
  PJRT_LoadedExecutable* add = compile(client, addInto(4));
  PJRT_LoadedExecutable* both = compile(client, kSumAndDifference);
  PJRT_Buffer* x = uploadF32(client, {1, 2, 3, 4}, {4});
  Stats before = statsOf(device);
  std::vector<PJRT_Buffer*> twice = execute(add, {x, x});
  CHECK(downloadF32(twice[0]) == std::vector<float>({2, 4, 6, 8}));
  CHECK(!isDeleted(x));
  CHECK(downloadF32(x) == std::vector<float>({1, 2, 3, 4}));
  CHECK_EQ(statsOf(device).numAllocs, before.numAllocs + 1);
  // Both positions aliased, to different outputs: neither takes the buffer.
  std::vector<PJRT_Buffer*> pair = execute(both, {x, x});
  CHECK(downloadF32(pair[0]) == std::vector<float>({2, 4, 6, 8}));
  CHECK(downloadF32(pair[1]) == std::vector<float>({0, 0, 0, 0}));
  CHECK(!isDeleted(x));
  CHECK(downloadF32(x) == std::vector<float>({1, 2, 3, 4}));
  // Two buffers, both donated: each output takes the other argument's place.
  PJRT_Buffer* y = uploadF32(client, {10, 10, 10, 10}, {4});
  std::vector<PJRT_Buffer*> swapped = execute(both, {x, y});
  CHECK(isDeleted(x) && isDeleted(y));
  CHECK(downloadF32(swapped[0]) == std::vector<float>({11, 12, 13, 14}));
  CHECK(downloadF32(swapped[1]) == std::vector<float>({-9, -8, -7, -6}));
  for (PJRT_Buffer* buffer : {x, y, twice[0], pair[0], pair[1], swapped[0], swapped[1]}) destroyBuffer(buffer);
  CHECK_EQ(statsOf(device).bytesInUse, int64_t(0));
  destroyExecutable(add);
  destroyExecutable(both);
  destroyClient(client);
}

TEST(reads_and_copies_made_before_the_run_keep_the_old_value) {
  PJRT_Client* client = makeClient(2);
  std::vector<PJRT_Device*> devices = devicesOf(client);
  PJRT_LoadedExecutable* add = compile(client, addInto(4));
  PJRT_Buffer* b = uploadF32(client, {10, 20, 30, 40}, {4});

  // A pending buffer, read and copied to device 1 before a run takes it; defined only afterwards.
  PJRT_Buffer* gate = tpjrt::cpu::newPendingBuffer(client->state, devices[0], TensorType{ElementType::F32, {4}});
  std::shared_ptr<BufferValue> gateValue = gate->value.load();
  std::vector<float> early(4, -1);
  ARGS(PJRT_Buffer_ToHostBuffer_Args, read);
  read.src = gate;
  read.dst = early.data();
  read.dst_size = 16;
  CHECK_OK(api().PJRT_Buffer_ToHostBuffer(&read));
  ARGS(PJRT_Buffer_CopyToDevice_Args, copy);
  copy.buffer = gate;
  copy.dst_device = devices[1];
  CHECK_OK(api().PJRT_Buffer_CopyToDevice(&copy));
  PJRT_Buffer* gateCopy = copy.dst_buffer;
  std::vector<PJRT_Buffer*> out = execute(add, {gate, b});
  CHECK(isDeleted(gate));
  Literal literal;
  literal.type = TensorType{ElementType::F32, {4}};
  literal.bytes = Bytes(16);
  const std::vector<float> values{1, 2, 3, 4};
  std::memcpy(literal.bytes.mutableData(), values.data(), 16);
  tpjrt::cpu::define(*gateValue, std::make_shared<const Literal>(std::move(literal)));
  gateValue.reset();
  CHECK(downloadF32(out[0]) == std::vector<float>({11, 22, 33, 44}));
  ARGS(PJRT_Event_Await_Args, await);
  await.event = read.event;
  CHECK_OK(api().PJRT_Event_Await(&await));
  destroyEvent(read.event);
  CHECK(early == values);
  CHECK(downloadF32(gateCopy) == values);

  // A defined buffer whose storage a copy on another device shares: the run must not write into it.
  PJRT_Buffer* a = uploadF32(client, {5, 6, 7, 8}, {4});
  copy.buffer = a;
  CHECK_OK(api().PJRT_Buffer_CopyToDevice(&copy));
  PJRT_Buffer* shared = copy.dst_buffer;
  downloadF32(shared);  // defined
  std::vector<PJRT_Buffer*> second = execute(add, {a, b});
  CHECK(isDeleted(a));
  CHECK(downloadF32(second[0]) == std::vector<float>({15, 26, 37, 48}));
  CHECK(downloadF32(shared) == std::vector<float>({5, 6, 7, 8}));
  CHECK(storageOf(second[0]) != storageOf(shared));

  for (PJRT_Buffer* buffer : {gate, gateCopy, b, out[0], a, shared, second[0]}) destroyBuffer(buffer);
  destroyExecutable(add);
  destroyClient(client);
}

}  // namespace

TEST_MAIN()
