// Drives the CPU plugin through the PJRT_Api table that GetPjrtApi returns, the way a real caller
// does (tests/pjrt/api_calls.h). Asynchronous execution has its own file (execute_queue_test.cc).
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "check.h"
#include "pjrt/buffer.h"
#include "pjrt/client.h"
#include "pjrt/compile_options_reader.h"
#include "pjrt_c_api.h"
#include "tests/pjrt/api_calls.h"

namespace {

using namespace tpjrt::cpu::api_test;

const char* kAddPretty = R"(
module @add_module {
  func.func public @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.add %a, %b : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
)";

const char* kMultiplyGeneric = R"("builtin.module"() ({
  "func.func"() ({
  ^bb0(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>):
    %0 = "stablehlo.multiply"(%a, %b) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
    %1 = "stablehlo.add"(%0, %a) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
    "func.return"(%1, %0) : (tensor<2x2xf32>, tensor<2x2xf32>) -> ()
  }) {function_type = (tensor<2x2xf32>, tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>),
      sym_name = "main", sym_visibility = "public"} : () -> ()
}) {sym_name = "generic_module"} : () -> ()
)";

// The fact sheet's example module (section 6.1): broadcast, add, reduce, two results.
const char* kBroadcastReduce = R"(
module @m attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> (tensor<2x3xf32>, tensor<2xf32>) {
    %bb = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
    %s = stablehlo.add %a, %bb : tensor<2x3xf32>
    %z = stablehlo.constant dense<0.0> : tensor<f32>
    %r = stablehlo.reduce(%s init: %z) applies stablehlo.add across dimensions = [1]
        : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
    return %s, %r : tensor<2x3xf32>, tensor<2xf32>
  }
}
)";

// --- the table ------------------------------------------------------------------------------------

TEST(table_has_every_slot_and_our_version) {
  const PJRT_Api& table = api();
  CHECK_EQ(table.struct_size, size_t(40 + 8 * PJRT_Api_NUM_SLOTS));
  CHECK_EQ(table.pjrt_api_version.major_version, PJRT_API_MAJOR);
  CHECK_EQ(table.pjrt_api_version.minor_version, PJRT_API_MINOR);
  CHECK_EQ(table.pjrt_api_version.struct_size, size_t(PJRT_Api_Version_STRUCT_SIZE));
  for (size_t slot = 0; slot < size_t(PJRT_Api_NUM_SLOTS); ++slot) {
    uintptr_t fn = 0;
    std::memcpy(&fn, reinterpret_cast<const char*>(&table) + 40 + 8 * slot, sizeof fn);
    if (!fn) ::tpjrt::test::report(__FILE__, __LINE__, "slot " + std::to_string(slot) + " is NULL");
    CHECK(PJRT_Api_HasSlot(&table, slot, 0));
  }
  CHECK(GetPjrtApi() == GetPjrtApi());
}

TEST(unimplemented_slots_say_which_function) {
  ARGS(PJRT_TopologyDescription_Create_Args, args);
  CHECK_ERROR(api().PJRT_TopologyDescription_Create(&args), PJRT_Error_Code_UNIMPLEMENTED,
              "PJRT_TopologyDescription_Create is not implemented by the torch-pjrt cpu plugin");
  CHECK_ERROR(api().PJRT_Client_DmaMap(nullptr), PJRT_Error_Code_UNIMPLEMENTED,
              "PJRT_Client_DmaMap is not implemented");
}

TEST(plugin_initialize_twice_and_attributes) {
  ARGS(PJRT_Plugin_Initialize_Args, init);
  CHECK_OK(api().PJRT_Plugin_Initialize(&init));
  CHECK_OK(api().PJRT_Plugin_Initialize(&init));
  ARGS(PJRT_Plugin_Attributes_Args, args);
  CHECK_OK(api().PJRT_Plugin_Attributes(&args));
  bool sawCurrent = false, sawMinimum = false, sawGemmIsa = false;
  __builtin_cpu_init();
  const std::string expectedIsa = __builtin_cpu_supports("avx512f") ? "avx512f"
                                  : __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") ? "avx2+fma"
                                                                                                    : "portable";
  for (size_t i = 0; i < args.num_attributes; ++i) {
    const PJRT_NamedValue& a = args.attributes[i];
    std::string name(a.name, a.name_size);
    if (name == "stablehlo_current_version") {
      sawCurrent = true;
      CHECK_EQ(int(a.type), int(PJRT_NamedValue_kInt64List));
      CHECK_EQ(a.value_size, size_t(3));
      CHECK(a.int64_array_value[0] == 1 && a.int64_array_value[1] == 17 && a.int64_array_value[2] == 0);
    }
    if (name == "stablehlo_minimum_version") {
      sawMinimum = true;
      CHECK(a.value_size == 3 && a.int64_array_value[0] == 0 && a.int64_array_value[1] == 9);
    }
    if (name == "gemm_isa") {
      sawGemmIsa = true;
      CHECK_EQ(int(a.type), int(PJRT_NamedValue_kString));
      CHECK_EQ(std::string(a.string_value, a.value_size), expectedIsa);
    }
  }
  CHECK(sawGemmIsa);
  CHECK(sawCurrent);
  CHECK(sawMinimum);
}

TEST(struct_size_too_small_is_invalid_argument) {
  PJRT_Plugin_Attributes_Args attrs{};
  attrs.struct_size = 24;
  CHECK_ERROR(api().PJRT_Plugin_Attributes(&attrs), PJRT_Error_Code_INVALID_ARGUMENT, "PJRT_Plugin_Attributes_Args");
  PJRT_Client_Create_Args create{};
  create.struct_size = 64;
  CHECK_ERROR(api().PJRT_Client_Create(&create), PJRT_Error_Code_INVALID_ARGUMENT,
              "PJRT_Client_Create: PJRT_Client_Create_Args.struct_size is 64");
  CHECK_ERROR(api().PJRT_Client_Create(nullptr), PJRT_Error_Code_INVALID_ARGUMENT, "PJRT_Client_Create");
}

TEST(older_smaller_structs_are_accepted_and_tails_untouched) {
  // A 0.60-era caller's Client_Create args end at `client` (72 bytes).
  PJRT_Client_Create_Args create{};
  create.struct_size = 72;
  CHECK_OK(api().PJRT_Client_Create(&create));
  PJRT_Client* client = create.client;
  CHECK(client != nullptr);
  // A MemoryStats caller that only knows bytes_in_use: the optional fields after it stay untouched.
  PJRT_Device_MemoryStats_Args stats{};
  stats.struct_size = offsetof(PJRT_Device_MemoryStats_Args, peak_bytes_in_use);
  stats.device = devicesOf(client)[0];
  stats.peak_bytes_in_use = -7;
  CHECK_OK(api().PJRT_Device_MemoryStats(&stats));
  CHECK_EQ(stats.bytes_in_use, int64_t(0));
  CHECK_EQ(stats.peak_bytes_in_use, int64_t(-7));
  CHECK(!stats.peak_bytes_in_use_is_set);
  destroyClient(client);
}

// --- clients and devices --------------------------------------------------------------------------

TEST(client_with_three_devices) {
  PJRT_Client* client = makeClient(3);
  ARGS(PJRT_Client_PlatformName_Args, name);
  name.client = client;
  CHECK_OK(api().PJRT_Client_PlatformName(&name));
  CHECK_EQ(std::string(name.platform_name, name.platform_name_size), std::string("cpu"));
  ARGS(PJRT_Client_ProcessIndex_Args, process);
  process.client = client;
  CHECK_OK(api().PJRT_Client_ProcessIndex(&process));
  CHECK_EQ(process.process_index, 0);

  ARGS(PJRT_Client_Devices_Args, all);
  all.client = client;
  CHECK_OK(api().PJRT_Client_Devices(&all));
  CHECK_EQ(all.num_devices, size_t(3));
  std::vector<PJRT_Device*> devices = devicesOf(client);
  CHECK_EQ(devices.size(), size_t(3));
  for (int i = 0; i < 3; ++i) {
    ARGS(PJRT_Device_GetDescription_Args, get);
    get.device = devices[i];
    CHECK_OK(api().PJRT_Device_GetDescription(&get));
    ARGS(PJRT_DeviceDescription_Id_Args, id);
    id.device_description = get.device_description;
    CHECK_OK(api().PJRT_DeviceDescription_Id(&id));
    CHECK_EQ(id.id, i);
    ARGS(PJRT_DeviceDescription_Kind_Args, kind);
    kind.device_description = get.device_description;
    CHECK_OK(api().PJRT_DeviceDescription_Kind(&kind));
    CHECK_EQ(std::string(kind.device_kind, kind.device_kind_size), std::string("cpu"));
    ARGS(PJRT_DeviceDescription_ToString_Args, str);
    str.device_description = get.device_description;
    CHECK_OK(api().PJRT_DeviceDescription_ToString(&str));
    CHECK_EQ(std::string(str.to_string, str.to_string_size), "CpuDevice(id=" + std::to_string(i) + ")");
    ARGS(PJRT_Client_LookupDevice_Args, lookup);
    lookup.client = client;
    lookup.id = i;
    CHECK_OK(api().PJRT_Client_LookupDevice(&lookup));
    CHECK(lookup.device == devices[i]);
    ARGS(PJRT_Device_DefaultMemory_Args, memory);
    memory.device = devices[i];
    CHECK_OK(api().PJRT_Device_DefaultMemory(&memory));
    ARGS(PJRT_Memory_Kind_Args, memoryKind);
    memoryKind.memory = memory.memory;
    CHECK_OK(api().PJRT_Memory_Kind(&memoryKind));
    CHECK_EQ(std::string(memoryKind.kind, memoryKind.kind_size), std::string("device"));
    ARGS(PJRT_Memory_AddressableByDevices_Args, by);
    by.memory = memory.memory;
    CHECK_OK(api().PJRT_Memory_AddressableByDevices(&by));
    CHECK(by.num_devices == 1 && by.devices[0] == devices[i]);
  }
  ARGS(PJRT_Client_LookupDevice_Args, missing);
  missing.client = client;
  missing.id = 3;
  CHECK_ERROR(api().PJRT_Client_LookupDevice(&missing), PJRT_Error_Code_NOT_FOUND, "no device with id 3");

  ARGS(PJRT_Client_AddressableMemories_Args, memories);
  memories.client = client;
  CHECK_OK(api().PJRT_Client_AddressableMemories(&memories));
  CHECK_EQ(memories.num_addressable_memories, size_t(3));

  int assignment[3] = {-1, -1, -1};
  ARGS(PJRT_Client_DefaultDeviceAssignment_Args, da);
  da.client = client;
  da.num_replicas = 1;
  da.num_partitions = 3;
  da.default_assignment_size = 3;
  da.default_assignment = assignment;
  CHECK_OK(api().PJRT_Client_DefaultDeviceAssignment(&da));
  CHECK(assignment[0] == 0 && assignment[1] == 1 && assignment[2] == 2);
  da.num_partitions = 4;
  CHECK_ERROR(api().PJRT_Client_DefaultDeviceAssignment(&da), PJRT_Error_Code_INVALID_ARGUMENT, "need 4 devices");
  destroyClient(client);
}

TEST(client_options_are_checked) {
  PJRT_NamedValue option{};
  option.struct_size = PJRT_NamedValue_STRUCT_SIZE;
  option.name = "visible_devices";
  option.name_size = std::strlen(option.name);
  option.type = PJRT_NamedValue_kInt64;
  option.value_size = 1;
  ARGS(PJRT_Client_Create_Args, args);
  args.create_options = &option;
  args.num_options = 1;
  CHECK_ERROR(api().PJRT_Client_Create(&args), PJRT_Error_Code_INVALID_ARGUMENT, "unknown option 'visible_devices'");
  option.name = "device_count";
  option.name_size = std::strlen(option.name);
  option.type = PJRT_NamedValue_kString;
  option.string_value = "3";
  CHECK_ERROR(api().PJRT_Client_Create(&args), PJRT_Error_Code_INVALID_ARGUMENT, "device_count must be an int64");
  option.type = PJRT_NamedValue_kInt64;
  option.int64_value = 0;
  CHECK_ERROR(api().PJRT_Client_Create(&args), PJRT_Error_Code_INVALID_ARGUMENT, "between 1 and 64");
  PJRT_Client* client = makeClient();
  CHECK_EQ(devicesOf(client).size(), size_t(1));
  destroyClient(client);
}

// --- buffers --------------------------------------------------------------------------------------

struct DtypeCase {
  PJRT_Buffer_Type type;
  size_t width;
};
const DtypeCase kDtypes[] = {
    {PJRT_Buffer_Type_PRED, 1}, {PJRT_Buffer_Type_S8, 1},  {PJRT_Buffer_Type_S16, 2}, {PJRT_Buffer_Type_S32, 4},
    {PJRT_Buffer_Type_S64, 8},  {PJRT_Buffer_Type_U8, 1},  {PJRT_Buffer_Type_U16, 2}, {PJRT_Buffer_Type_U32, 4},
    {PJRT_Buffer_Type_U64, 8},  {PJRT_Buffer_Type_F16, 2}, {PJRT_Buffer_Type_BF16, 2}, {PJRT_Buffer_Type_F32, 4},
    {PJRT_Buffer_Type_F64, 8},
};

TEST(buffer_round_trip_every_dtype_dense_and_strided) {
  PJRT_Client* client = makeClient();
  for (const auto& c : kDtypes) {
    // Logical array 2x3; element (i, j) has bytes all equal to a value distinct per element
    // (PRED keeps to 0/1).
    auto element = [&](int i, int j) { return uint8_t(c.type == PJRT_Buffer_Type_PRED ? (i + j) % 2 : 1 + i * 3 + j); };
    std::vector<uint8_t> dense(6 * c.width), transposed(6 * c.width), reversed(6 * c.width);
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j) {
        std::memset(&dense[(i * 3 + j) * c.width], element(i, j), c.width);
        std::memset(&transposed[(j * 2 + i) * c.width], element(i, j), c.width);  // stored 3x2
        std::memset(&reversed[((1 - i) * 3 + (2 - j)) * c.width], element(i, j), c.width);
      }
    int64_t w = int64_t(c.width);
    PJRT_Buffer* a = upload(client, c.type, dense.data(), {2, 3});
    PJRT_Buffer* b = upload(client, c.type, transposed.data(), {2, 3}, {w, 2 * w});
    // Negative strides: `data` points at element (0, 0), the last one in memory.
    PJRT_Buffer* r = upload(client, c.type, reversed.data() + 5 * c.width, {2, 3}, {-3 * w, -w});
    CHECK(download(a) == dense);
    CHECK(download(b) == dense);
    CHECK(download(r) == dense);

    ARGS(PJRT_Buffer_ElementType_Args, type);
    type.buffer = b;
    CHECK_OK(api().PJRT_Buffer_ElementType(&type));
    CHECK_EQ(int(type.type), int(c.type));
    ARGS(PJRT_Buffer_Dimensions_Args, dims);
    dims.buffer = b;
    CHECK_OK(api().PJRT_Buffer_Dimensions(&dims));
    CHECK(dims.num_dims == 2 && dims.dims[0] == 2 && dims.dims[1] == 3);
    ARGS(PJRT_Buffer_OnDeviceSizeInBytes_Args, size);
    size.buffer = b;
    CHECK_OK(api().PJRT_Buffer_OnDeviceSizeInBytes(&size));
    CHECK_EQ(size.on_device_size_in_bytes, 6 * c.width);
    destroyBuffer(a);
    destroyBuffer(b);
    destroyBuffer(r);
  }
  // A zero stride broadcasts one row.
  float row[3] = {1, 2, 3};
  PJRT_Buffer* broadcast = upload(client, PJRT_Buffer_Type_F32, row, {2, 3}, {0, 4});
  CHECK(downloadF32(broadcast) == std::vector<float>({1, 2, 3, 1, 2, 3}));
  destroyBuffer(broadcast);
  // Scalars and empty arrays.
  double scalar = 2.5;
  PJRT_Buffer* s = upload(client, PJRT_Buffer_Type_F64, &scalar, {});
  CHECK_EQ(download(s).size(), size_t(8));
  destroyBuffer(s);
  PJRT_Buffer* empty = upload(client, PJRT_Buffer_Type_F32, nullptr, {0, 4});
  CHECK_EQ(download(empty).size(), size_t(0));
  destroyBuffer(empty);
  destroyClient(client);
}

TEST(buffer_from_host_rejects_bad_requests) {
  PJRT_Client* client = makeClient();
  float data[4] = {1, 2, 3, 4};
  PJRT_Buffer* out = nullptr;
  CHECK_ERROR(tryUpload(client, PJRT_Buffer_Type_C64, data, {2}, {}, nullptr, &out), PJRT_Error_Code_UNIMPLEMENTED,
              "element type C64 is not supported");
  CHECK_ERROR(tryUpload(client, PJRT_Buffer_Type_F32, data, {2, 2}, {4}, nullptr, &out),
              PJRT_Error_Code_INVALID_ARGUMENT, "num_byte_strides is 1 but num_dims is 2");
  CHECK_ERROR(tryUpload(client, PJRT_Buffer_Type_F32, data, {-1}, {}, nullptr, &out), PJRT_Error_Code_INVALID_ARGUMENT,
              "must not be negative");
  PJRT_Client* other = makeClient();
  CHECK_ERROR(tryUpload(client, PJRT_Buffer_Type_F32, data, {4}, {}, devicesOf(other)[0], &out),
              PJRT_Error_Code_INVALID_ARGUMENT, "not a device of this client");
  destroyClient(other);
  destroyClient(client);
}

TEST(to_host_buffer_size_query_layouts_and_small_destination) {
  PJRT_Client* client = makeClient();
  PJRT_Buffer* b = uploadF32(client, {1, 2, 3, 4, 5, 6}, {2, 3});
  ARGS(PJRT_Buffer_ToHostBuffer_Args, args);
  args.src = b;
  CHECK_OK(api().PJRT_Buffer_ToHostBuffer(&args));
  CHECK_EQ(args.dst_size, size_t(24));
  CHECK(args.event == nullptr);

  float small[5];
  args.dst = small;
  args.dst_size = sizeof small;
  CHECK_ERROR(api().PJRT_Buffer_ToHostBuffer(&args), PJRT_Error_Code_INVALID_ARGUMENT, "dst_size is 20 bytes");

  const int64_t rowMajor[] = {1, 0}, columnMajor[] = {0, 1};
  ARGS(PJRT_Buffer_MemoryLayout, layout);
  layout.type = PJRT_Buffer_MemoryLayout_Type_Tiled;
  layout.tiled.struct_size = PJRT_Buffer_MemoryLayout_Tiled_STRUCT_SIZE;
  layout.tiled.minor_to_major = rowMajor;
  layout.tiled.minor_to_major_size = 2;
  float full[6] = {};
  args.host_layout = &layout;
  args.dst = full;
  args.dst_size = sizeof full;
  CHECK_OK(api().PJRT_Buffer_ToHostBuffer(&args));
  CHECK(full[0] == 1 && full[5] == 6);
  destroyEvent(args.event);
  layout.tiled.minor_to_major = columnMajor;
  CHECK_ERROR(api().PJRT_Buffer_ToHostBuffer(&args), PJRT_Error_Code_UNIMPLEMENTED, "host_layout");
  destroyBuffer(b);
  destroyClient(client);
}

TEST(buffer_delete_memory_stats_and_copies) {
  PJRT_Client* client = makeClient(2);
  std::vector<PJRT_Device*> devices = devicesOf(client);
  PJRT_Buffer* b = uploadF32(client, {1, 2, 3, 4}, {4}, devices[0]);
  CHECK_EQ(bytesInUse(devices[0]), int64_t(16));
  CHECK_EQ(bytesInUse(devices[1]), int64_t(0));

  ARGS(PJRT_Buffer_CopyToDevice_Args, copy);
  copy.buffer = b;
  copy.dst_device = devices[1];
  CHECK_OK(api().PJRT_Buffer_CopyToDevice(&copy));
  ARGS(PJRT_Buffer_Device_Args, where);
  where.buffer = copy.dst_buffer;
  CHECK_OK(api().PJRT_Buffer_Device(&where));
  CHECK(where.device == devices[1]);
  CHECK(downloadF32(copy.dst_buffer) == std::vector<float>({1, 2, 3, 4}));
  CHECK_EQ(bytesInUse(devices[1]), int64_t(16));
  copy.dst_device = devices[0];
  CHECK_ERROR(api().PJRT_Buffer_CopyToDevice(&copy), PJRT_Error_Code_INVALID_ARGUMENT, "already on device 0");
  destroyBuffer(copy.dst_buffer);
  CHECK_EQ(bytesInUse(devices[1]), int64_t(0));

  ARGS(PJRT_Buffer_Delete_Args, del);
  del.buffer = b;
  CHECK_OK(api().PJRT_Buffer_Delete(&del));
  CHECK_OK(api().PJRT_Buffer_Delete(&del));
  ARGS(PJRT_Buffer_IsDeleted_Args, isDeleted);
  isDeleted.buffer = b;
  CHECK_OK(api().PJRT_Buffer_IsDeleted(&isDeleted));
  CHECK(isDeleted.is_deleted);
  CHECK_EQ(bytesInUse(devices[0]), int64_t(0));
  float out[4];
  ARGS(PJRT_Buffer_ToHostBuffer_Args, read);
  read.src = b;
  read.dst = out;
  read.dst_size = sizeof out;
  CHECK_ERROR(api().PJRT_Buffer_ToHostBuffer(&read), PJRT_Error_Code_INVALID_ARGUMENT, "deleted");
  ARGS(PJRT_Buffer_ReadyEvent_Args, ready);
  ready.buffer = b;
  CHECK_OK(api().PJRT_Buffer_ReadyEvent(&ready));
  ARGS(PJRT_Event_Await_Args, await);
  await.event = ready.event;
  CHECK_ERROR(api().PJRT_Event_Await(&await), PJRT_Error_Code_INVALID_ARGUMENT, "deleted");
  destroyEvent(ready.event);
  destroyBuffer(b);
  CHECK_EQ(bytesInUse(devices[0]), int64_t(0));
  destroyClient(client);
}

TEST(buffer_layout_memory_and_live_counts) {
  PJRT_Client* client = makeClient(2);
  std::vector<PJRT_Device*> devices = devicesOf(client);
  PJRT_Buffer* b = uploadF32(client, {1, 2, 3, 4, 5, 6}, {1, 2, 3});
  CHECK_EQ(devices[0]->stats.liveBuffers, int64_t(1));
  ARGS(PJRT_Buffer_GetMemoryLayout_Args, layout);
  layout.buffer = b;
  CHECK_OK(api().PJRT_Buffer_GetMemoryLayout(&layout));
  CHECK_EQ(int(layout.layout.type), int(PJRT_Buffer_MemoryLayout_Type_Tiled));
  CHECK_EQ(layout.layout.tiled.minor_to_major_size, size_t(3));
  CHECK(layout.layout.tiled.minor_to_major[0] == 2 && layout.layout.tiled.minor_to_major[2] == 0);
  CHECK_EQ(layout.layout.tiled.num_tiles, size_t(0));
  ARGS(PJRT_Buffer_UnpaddedDimensions_Args, unpadded);
  unpadded.buffer = b;
  CHECK_OK(api().PJRT_Buffer_UnpaddedDimensions(&unpadded));
  CHECK(unpadded.num_dims == 3 && unpadded.unpadded_dims[2] == 3);
  ARGS(PJRT_Buffer_DynamicDimensionIndices_Args, dynamic);
  dynamic.buffer = b;
  CHECK_OK(api().PJRT_Buffer_DynamicDimensionIndices(&dynamic));
  CHECK_EQ(dynamic.num_dynamic_dims, size_t(0));
  ARGS(PJRT_Buffer_IsOnCpu_Args, onCpu);
  onCpu.buffer = b;
  CHECK_OK(api().PJRT_Buffer_IsOnCpu(&onCpu));
  CHECK(onCpu.is_on_cpu);

  ARGS(PJRT_Device_DefaultMemory_Args, memory);
  memory.device = devices[1];
  CHECK_OK(api().PJRT_Device_DefaultMemory(&memory));
  ARGS(PJRT_Buffer_CopyToMemory_Args, copy);
  copy.buffer = b;
  copy.dst_memory = memory.memory;
  CHECK_OK(api().PJRT_Buffer_CopyToMemory(&copy));
  ARGS(PJRT_Buffer_Memory_Args, where);
  where.buffer = copy.dst_buffer;
  CHECK_OK(api().PJRT_Buffer_Memory(&where));
  CHECK(where.memory == memory.memory);
  CHECK_EQ(devices[1]->stats.liveBuffers, int64_t(1));
  CHECK(downloadF32(copy.dst_buffer) == std::vector<float>({1, 2, 3, 4, 5, 6}));
  destroyBuffer(copy.dst_buffer);
  destroyBuffer(b);
  CHECK_EQ(devices[0]->stats.liveBuffers, int64_t(0));
  CHECK_EQ(devices[1]->stats.liveBuffers, int64_t(0));
  destroyClient(client);
}

TEST(buffer_outlives_its_client_handle) {
  PJRT_Client* client = makeClient();
  PJRT_Buffer* b = uploadF32(client, {7}, {1});
  destroyClient(client);
  CHECK(downloadF32(b) == std::vector<float>({7}));
  destroyBuffer(b);
}

// --- events ---------------------------------------------------------------------------------------

struct CallbackRecord {
  int calls = 0;
  Status status;
};

void recordCallback(PJRT_Error* error, void* userArg) {
  auto* record = static_cast<CallbackRecord*>(userArg);
  ++record->calls;
  record->status = take(error);
}

TEST(event_on_ready_runs_the_callback) {
  PJRT_Client* client = makeClient();
  float one = 1;
  ARGS(PJRT_Client_BufferFromHostBuffer_Args, args);
  args.client = client;
  args.data = &one;
  args.type = PJRT_Buffer_Type_F32;
  args.host_buffer_semantics = PJRT_HostBufferSemantics_kImmutableUntilTransferCompletes;
  CHECK_OK(api().PJRT_Client_BufferFromHostBuffer(&args));
  ARGS(PJRT_Event_IsReady_Args, isReady);
  isReady.event = args.done_with_host_buffer;
  CHECK_OK(api().PJRT_Event_IsReady(&isReady));
  CHECK(isReady.is_ready);
  CallbackRecord record;
  ARGS(PJRT_Event_OnReady_Args, onReady);
  onReady.event = args.done_with_host_buffer;
  onReady.callback = recordCallback;
  onReady.user_arg = &record;
  CHECK_OK(api().PJRT_Event_OnReady(&onReady));
  CHECK_EQ(record.calls, 1);
  CHECK(record.status.ok);
  destroyEvent(args.done_with_host_buffer);
  destroyBuffer(args.buffer);
  destroyClient(client);
}

TEST(created_event_fires_callbacks_when_set) {
  ARGS(PJRT_Event_Create_Args, create);
  CHECK_OK(api().PJRT_Event_Create(&create));
  CallbackRecord record;
  ARGS(PJRT_Event_OnReady_Args, onReady);
  onReady.event = create.event;
  onReady.callback = recordCallback;
  onReady.user_arg = &record;
  CHECK_OK(api().PJRT_Event_OnReady(&onReady));
  CHECK_EQ(record.calls, 0);
  ARGS(PJRT_Event_Error_Args, early);
  early.event = create.event;
  CHECK_ERROR(api().PJRT_Event_Error(&early), PJRT_Error_Code_FAILED_PRECONDITION, "not ready");

  std::thread setter([&] {
    ARGS(PJRT_Event_Set_Args, set);
    set.event = create.event;
    set.error_code = PJRT_Error_Code_ABORTED;
    set.error_message = "stopped";
    set.error_message_size = 7;
    CHECK_OK(api().PJRT_Event_Set(&set));
  });
  ARGS(PJRT_Event_Await_Args, await);
  await.event = create.event;
  CHECK_ERROR(api().PJRT_Event_Await(&await), PJRT_Error_Code_ABORTED, "stopped");
  setter.join();
  CHECK_EQ(record.calls, 1);
  CHECK_EQ(record.status.code, int(PJRT_Error_Code_ABORTED));
  CHECK_EQ(record.status.message, std::string("stopped"));
  ARGS(PJRT_Event_Error_Args, error);
  error.event = create.event;
  CHECK_ERROR(api().PJRT_Event_Error(&error), PJRT_Error_Code_ABORTED, "stopped");
  destroyEvent(create.event);
}

// --- compile and execute --------------------------------------------------------------------------

TEST(compile_and_execute_pretty_form) {
  PJRT_Client* client = makeClient();
  PJRT_LoadedExecutable* exe = compile(client, kAddPretty);
  if (!exe) return destroyClient(client);
  PJRT_Buffer* a = uploadF32(client, {1, 2, 3, 4}, {4});
  PJRT_Buffer* b = uploadF32(client, {10, 20, 30, 40}, {4});
  PJRT_Event* done = nullptr;
  std::vector<PJRT_Buffer*> outputs;
  CHECK_OK(tryExecute(exe, {a, b}, outputs, &done));
  CHECK(done != nullptr);
  if (done) {
    ARGS(PJRT_Event_Await_Args, await);
    await.event = done;
    CHECK_OK(api().PJRT_Event_Await(&await));
    destroyEvent(done);
  }
  CHECK_EQ(outputs.size(), size_t(1));
  if (outputs.size() == 1 && outputs[0]) {
    CHECK(downloadF32(outputs[0]) == std::vector<float>({11, 22, 33, 44}));
    destroyBuffer(outputs[0]);
  }

  ARGS(PJRT_LoadedExecutable_GetExecutable_Args, get);
  get.loaded_executable = exe;
  CHECK_OK(api().PJRT_LoadedExecutable_GetExecutable(&get));
  ARGS(PJRT_Executable_Name_Args, name);
  name.executable = get.executable;
  CHECK_OK(api().PJRT_Executable_Name(&name));
  CHECK_EQ(std::string(name.executable_name, name.executable_name_size), std::string("add_module"));
  ARGS(PJRT_Executable_OutputElementTypes_Args, types);
  types.executable = get.executable;
  CHECK_OK(api().PJRT_Executable_OutputElementTypes(&types));
  CHECK(types.num_output_types == 1 && types.output_types[0] == PJRT_Buffer_Type_F32);
  ARGS(PJRT_Executable_OutputDimensions_Args, dims);
  dims.executable = get.executable;
  CHECK_OK(api().PJRT_Executable_OutputDimensions(&dims));
  CHECK(dims.num_outputs == 1 && dims.dim_sizes[0] == 1 && dims.dims[0] == 4);
  ARGS(PJRT_Executable_NumReplicas_Args, replicas);
  replicas.executable = get.executable;
  CHECK_OK(api().PJRT_Executable_NumReplicas(&replicas));
  CHECK_EQ(replicas.num_replicas, size_t(1));
  ARGS(PJRT_Executable_Fingerprint_Args, fingerprint);
  fingerprint.executable = get.executable;
  CHECK_OK(api().PJRT_Executable_Fingerprint(&fingerprint));
  CHECK_EQ(fingerprint.executable_fingerprint_size, size_t(16));
  ARGS(PJRT_Executable_OutputMemoryKinds_Args, kinds);
  kinds.executable = get.executable;
  CHECK_OK(api().PJRT_Executable_OutputMemoryKinds(&kinds));
  CHECK(kinds.num_outputs == 1 && std::string(kinds.memory_kinds[0], kinds.memory_kind_sizes[0]) == "device");
  ARGS(PJRT_Executable_Destroy_Args, destroy);
  destroy.executable = get.executable;
  CHECK_OK(api().PJRT_Executable_Destroy(&destroy));

  destroyBuffer(a);
  destroyBuffer(b);
  destroyExecutable(exe);
  destroyClient(client);
}

TEST(compile_and_execute_generic_form_with_two_results) {
  PJRT_Client* client = makeClient();
  PJRT_LoadedExecutable* exe = compile(client, kMultiplyGeneric);
  if (!exe) return destroyClient(client);
  PJRT_Buffer* a = uploadF32(client, {1, 2, 3, 4}, {2, 2});
  PJRT_Buffer* b = uploadF32(client, {2, 3, 4, 5}, {2, 2});
  std::vector<PJRT_Buffer*> outputs = execute(exe, {a, b});
  CHECK_EQ(outputs.size(), size_t(2));
  if (outputs.size() == 2 && outputs[0] && outputs[1]) {
    CHECK(downloadF32(outputs[0]) == std::vector<float>({3, 8, 15, 24}));
    CHECK(downloadF32(outputs[1]) == std::vector<float>({2, 6, 12, 20}));
  }
  for (PJRT_Buffer* o : outputs) destroyBuffer(o);
  destroyBuffer(a);
  destroyBuffer(b);
  destroyExecutable(exe);
  destroyClient(client);
}

TEST(a_reshape_output_shares_storage_and_outlives_its_deleted_input) {
  PJRT_Client* client = makeClient();
  PJRT_LoadedExecutable* exe = compile(client, R"(func.func public @main(%a: tensor<2x2xf32>) -> tensor<4xf32> {
    %r = stablehlo.reshape %a : (tensor<2x2xf32>) -> tensor<4xf32>
    return %r : tensor<4xf32>
  })");
  if (!exe) return destroyClient(client);
  PJRT_Buffer* a = uploadF32(client, {1, 2, 3, 4}, {2, 2});
  std::vector<PJRT_Buffer*> outputs = execute(exe, {a});
  CHECK_EQ(outputs.size(), size_t(1));
  if (outputs.size() == 1 && outputs[0]) {
    CHECK(literalOf(outputs[0])->bytes.sharesStorageWith(literalOf(a)->bytes));
    ARGS(PJRT_Buffer_Delete_Args, del);
    del.buffer = a;
    CHECK_OK(api().PJRT_Buffer_Delete(&del));
    CHECK(downloadF32(outputs[0]) == std::vector<float>({1, 2, 3, 4}));
    destroyBuffer(outputs[0]);
  }
  destroyBuffer(a);
  destroyExecutable(exe);
  destroyClient(client);
}

TEST(a_transpose_output_is_a_view_that_readers_copy_once) {
  PJRT_Client* client = makeClient();
  PJRT_LoadedExecutable* transpose = compile(client, R"(func.func public @main(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
    %t = stablehlo.transpose %a, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
    return %t : tensor<3x2xf32>
  })");
  PJRT_LoadedExecutable* twice = compile(client, R"(func.func public @main(%a: tensor<3x2xf32>) -> tensor<3x2xf32> {
    %s = stablehlo.add %a, %a : tensor<3x2xf32>
    return %s : tensor<3x2xf32>
  })");
  if (!transpose || !twice) return destroyClient(client);
  PJRT_Device* device = devicesOf(client)[0];
  const int64_t before = bytesInUse(device);
  PJRT_Buffer* a = uploadF32(client, {1, 2, 3, 4, 5, 6}, {2, 3});
  std::vector<PJRT_Buffer*> t = execute(transpose, {a});
  CHECK_EQ(t.size(), size_t(1));
  if (t.size() == 1 && t[0]) {
    CHECK(literalOf(t[0])->view && literalOf(t[0])->bytes.sharesStorageWith(literalOf(a)->bytes));
    CHECK_EQ(bytesInUse(device) - before, int64_t(2 * 24));  // each buffer counts its own size
    ARGS(PJRT_Buffer_Delete_Args, del);
    del.buffer = a;
    CHECK_OK(api().PJRT_Buffer_Delete(&del));
    std::vector<PJRT_Buffer*> s = execute(twice, {t[0]});  // add reads it dense: the view is copied once
    if (s.size() == 1 && s[0]) CHECK(downloadF32(s[0]) == std::vector<float>({2, 8, 4, 10, 6, 12}));
    CHECK(!literalOf(t[0])->view);
    CHECK(downloadF32(t[0]) == std::vector<float>({1, 4, 2, 5, 3, 6}));
    for (PJRT_Buffer* o : s) destroyBuffer(o);
    destroyBuffer(t[0]);
  }
  destroyBuffer(a);
  CHECK_EQ(bytesInUse(device), before);
  destroyExecutable(transpose);
  destroyExecutable(twice);
  destroyClient(client);
}

TEST(compile_and_execute_broadcast_and_reduce) {
  PJRT_Client* client = makeClient();
  PJRT_LoadedExecutable* exe = compile(client, kBroadcastReduce);
  if (!exe) return destroyClient(client);
  PJRT_Buffer* a = uploadF32(client, {1, 2, 3, 4, 5, 6}, {2, 3});
  PJRT_Buffer* b = uploadF32(client, {10, 20, 30}, {3});
  std::vector<PJRT_Buffer*> outputs = execute(exe, {a, b});
  if (outputs.size() == 2 && outputs[0] && outputs[1]) {
    CHECK(downloadF32(outputs[0]) == std::vector<float>({11, 22, 33, 14, 25, 36}));
    CHECK(downloadF32(outputs[1]) == std::vector<float>({66, 75}));
  }
  for (PJRT_Buffer* o : outputs) destroyBuffer(o);
  destroyBuffer(a);
  destroyBuffer(b);
  destroyExecutable(exe);
  destroyClient(client);
}

TEST(compile_errors_have_good_messages) {
  PJRT_Client* client = makeClient();
  PJRT_LoadedExecutable* exe = nullptr;
  CHECK_ERROR(tryCompile(client, "this is not mlir", singleDeviceOptions(), &exe), PJRT_Error_Code_INVALID_ARGUMENT,
              "PJRT_Client_Compile: ");
  std::string unknownOp = kAddPretty;
  unknownOp.replace(unknownOp.find("stablehlo.add"), 13, "stablehlo.frobnicate");
  Status s = take(tryCompile(client, unknownOp, singleDeviceOptions(), &exe));
  CHECK(!s.ok);
  CHECK(contains(s.message, "PJRT_Client_Compile: "));
  CHECK(contains(s.message, "frobnicate"));
  CHECK_ERROR(tryCompile(client, std::string("ML\xEFR\x06StableHLO_v1.0.0", 21), singleDeviceOptions(), &exe),
              PJRT_Error_Code_INVALID_ARGUMENT, "the cpu plugin reads StableHLO text, not bytecode");
  CHECK_ERROR(tryCompile(client, kAddPretty, singleDeviceOptions(), &exe, "hlo"), PJRT_Error_Code_UNIMPLEMENTED,
              "program format 'hlo'");
  CHECK_ERROR(tryCompile(client, kAddPretty, singleDeviceOptions(), &exe, "tosa"), PJRT_Error_Code_INVALID_ARGUMENT,
              "unknown program format 'tosa'");
  CHECK_ERROR(tryCompile(client, kAddPretty, std::string("\x1a\x30\x20", 3), &exe), PJRT_Error_Code_INVALID_ARGUMENT,
              "CompileOptionsProto is malformed");
  // num_replicas = 2
  CHECK_ERROR(tryCompile(client, kAddPretty, std::string("\x1a\x02\x20\x02", 4), &exe), PJRT_Error_Code_UNIMPLEMENTED,
              "num_replicas=2, num_partitions=1");
  CHECK_ERROR(tryCompile(client, kAddPretty, singleDeviceOptions(5), &exe), PJRT_Error_Code_INVALID_ARGUMENT,
              "device_assignment names device 5");
  // Empty options mean one replica, one partition, device 0.
  PJRT_LoadedExecutable* fromEmpty = nullptr;
  CHECK_OK(tryCompile(client, kAddPretty, "", &fromEmpty));
  if (fromEmpty) destroyExecutable(fromEmpty);
  destroyClient(client);
}

TEST(execute_rejects_bad_arguments) {
  PJRT_Client* client = makeClient();
  PJRT_LoadedExecutable* exe = compile(client, kAddPretty);
  if (!exe) return destroyClient(client);
  PJRT_Buffer* four = uploadF32(client, {1, 2, 3, 4}, {4});
  PJRT_Buffer* three = uploadF32(client, {1, 2, 3}, {3});
  PJRT_Buffer* ints = upload(client, PJRT_Buffer_Type_S32, std::vector<int32_t>{1, 2, 3, 4}.data(), {4});
  std::vector<PJRT_Buffer*> outputs;
  CHECK_ERROR(tryExecute(exe, {four}, outputs), PJRT_Error_Code_INVALID_ARGUMENT,
              "PJRT_LoadedExecutable_Execute: main takes 2 arguments but num_args is 1");
  CHECK_ERROR(tryExecute(exe, {four, three}, outputs), PJRT_Error_Code_INVALID_ARGUMENT,
              "PJRT_LoadedExecutable_Execute: argument 1 has type tensor<3xf32> but main expects tensor<4xf32>");
  CHECK_ERROR(tryExecute(exe, {ints, four}, outputs), PJRT_Error_Code_INVALID_ARGUMENT,
              "argument 0 has type tensor<4xi32> but main expects tensor<4xf32>");
  CHECK_ERROR(tryExecute(exe, {four, four}, outputs, nullptr, false), PJRT_Error_Code_INVALID_ARGUMENT, "options");
  ARGS(PJRT_Buffer_Delete_Args, del);
  del.buffer = four;
  CHECK_OK(api().PJRT_Buffer_Delete(&del));
  CHECK_ERROR(tryExecute(exe, {four, four}, outputs), PJRT_Error_Code_INVALID_ARGUMENT,
              "argument 0 has been deleted or donated");

  ARGS(PJRT_LoadedExecutable_Delete_Args, deleteExe);
  deleteExe.executable = exe;
  CHECK_OK(api().PJRT_LoadedExecutable_Delete(&deleteExe));
  ARGS(PJRT_LoadedExecutable_IsDeleted_Args, isDeleted);
  isDeleted.executable = exe;
  CHECK_OK(api().PJRT_LoadedExecutable_IsDeleted(&isDeleted));
  CHECK(isDeleted.is_deleted);
  CHECK_ERROR(tryExecute(exe, {three, three}, outputs), PJRT_Error_Code_INVALID_ARGUMENT,
              "executable has been deleted");
  destroyBuffer(four);
  destroyBuffer(three);
  destroyBuffer(ints);
  destroyExecutable(exe);
  destroyClient(client);
}

TEST(executable_on_another_device_and_serialize_round_trip) {
  PJRT_Client* client = makeClient(3);
  std::vector<PJRT_Device*> devices = devicesOf(client);
  PJRT_LoadedExecutable* exe = compile(client, kAddPretty, singleDeviceOptions(2));
  if (!exe) return destroyClient(client);
  ARGS(PJRT_LoadedExecutable_AddressableDevices_Args, where);
  where.executable = exe;
  CHECK_OK(api().PJRT_LoadedExecutable_AddressableDevices(&where));
  CHECK(where.num_addressable_devices == 1 && where.addressable_devices[0] == devices[2]);
  PJRT_Buffer* onZero = uploadF32(client, {1, 1, 1, 1}, {4}, devices[0]);
  std::vector<PJRT_Buffer*> outputs;
  CHECK_ERROR(tryExecute(exe, {onZero, onZero}, outputs), PJRT_Error_Code_INVALID_ARGUMENT,
              "argument 0 is on device 0 but the executable runs on device 2");
  PJRT_Buffer* onTwo = uploadF32(client, {1, 2, 3, 4}, {4}, devices[2]);

  ARGS(PJRT_LoadedExecutable_GetExecutable_Args, get);
  get.loaded_executable = exe;
  CHECK_OK(api().PJRT_LoadedExecutable_GetExecutable(&get));
  ARGS(PJRT_Executable_Serialize_Args, serialize);
  serialize.executable = get.executable;
  CHECK_OK(api().PJRT_Executable_Serialize(&serialize));
  ARGS(PJRT_Executable_DeserializeAndLoad_Args, load);
  load.client = client;
  load.serialized_executable = serialize.serialized_bytes;
  load.serialized_executable_size = serialize.serialized_bytes_size;
  CHECK_OK(api().PJRT_Executable_DeserializeAndLoad(&load));
  serialize.serialized_executable_deleter(serialize.serialized_executable);
  ARGS(PJRT_Executable_Destroy_Args, destroy);
  destroy.executable = get.executable;
  CHECK_OK(api().PJRT_Executable_Destroy(&destroy));

  if (load.loaded_executable) {
    std::vector<PJRT_Buffer*> out = execute(load.loaded_executable, {onTwo, onTwo});
    if (out.size() == 1 && out[0]) {
      CHECK(downloadF32(out[0]) == std::vector<float>({2, 4, 6, 8}));
      ARGS(PJRT_Buffer_Device_Args, device);
      device.buffer = out[0];
      CHECK_OK(api().PJRT_Buffer_Device(&device));
      CHECK(device.device == devices[2]);
      destroyBuffer(out[0]);
    }
    destroyExecutable(load.loaded_executable);
  }
  load.serialized_executable = "not ours";
  load.serialized_executable_size = 8;
  CHECK_ERROR(api().PJRT_Executable_DeserializeAndLoad(&load), PJRT_Error_Code_INVALID_ARGUMENT,
              "was not made by the torch-pjrt cpu plugin");
  destroyBuffer(onZero);
  destroyBuffer(onTwo);
  destroyExecutable(exe);
  destroyClient(client);
}

TEST(concurrent_uploads_executes_and_reads_on_one_client) {
  PJRT_Client* client = makeClient();
  PJRT_LoadedExecutable* exe = compile(client, kAddPretty);
  if (!exe) return destroyClient(client);
  std::vector<std::thread> threads;
  std::vector<int> wrong(4, 0);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 50; ++i) {
        float v = float(t * 100 + i);
        PJRT_Buffer* a = uploadF32(client, {v, v, v, v}, {4});
        std::vector<PJRT_Buffer*> out = execute(exe, {a, a});
        if (out.size() != 1 || !out[0] || downloadF32(out[0]) != std::vector<float>(4, 2 * v)) ++wrong[t];
        for (PJRT_Buffer* o : out) destroyBuffer(o);
        destroyBuffer(a);
      }
    });
  for (auto& th : threads) th.join();
  for (int t = 0; t < 4; ++t) CHECK_EQ(wrong[t], 0);
  CHECK_EQ(bytesInUse(devicesOf(client)[0]), int64_t(0));
  destroyExecutable(exe);
  destroyClient(client);
}

// --- the compile-options reader -------------------------------------------------------------------

TEST(compile_options_reader_decodes_the_fields_we_use) {
  using tpjrt::cpu::readCompileOptions;
  std::string bytes = singleDeviceOptions(3);
  auto o = readCompileOptions(bytes.data(), bytes.size());
  CHECK_EQ(o.numReplicas, int64_t(1));
  CHECK_EQ(o.numPartitions, int64_t(1));
  CHECK_EQ(o.deviceOrdinal, int64_t(-1));
  CHECK(o.deviceAssignment == std::vector<int64_t>({3}));

  auto empty = readCompileOptions(nullptr, 0);
  CHECK(empty.numReplicas == 1 && empty.numPartitions == 1 && empty.deviceAssignment.empty());

  // Unknown fields of every wire type are skipped: 1 (varint), 5 (profile_version, varint),
  // 6 (bytes), fixed64 field 12, fixed32 field 13, and a group (field 14).
  const uint8_t unknown[] = {0x08, 0x01, 0x28, 0x7f, 0x32, 0x02, 0xaa, 0xbb, 0x61, 1, 2, 3, 4, 5, 6, 7, 8,
                             0x6d, 1,    2,    3,    4,    0x73, 0x08, 0x01, 0x74, 0x1a, 0x02, 0x28, 0x01};
  auto u = readCompileOptions(unknown, sizeof unknown);
  CHECK_EQ(u.numPartitions, int64_t(1));
  CHECK_EQ(u.numReplicas, int64_t(1));

  // Two partitions on devices 4 and 6: {3: {5: 2, 9: {1: 1, 2: 2, 3: {1: 4}, 3: {1: [6] packed}}}}.
  const uint8_t twoPartitions[] = {0x1a, 0x11, 0x28, 0x02, 0x4a, 0x0d, 0x08, 0x01, 0x10, 0x02, 0x1a,
                                   0x02, 0x08, 0x04, 0x1a, 0x03, 0x0a, 0x01, 0x06};
  auto p = readCompileOptions(twoPartitions, sizeof twoPartitions);
  CHECK_EQ(p.numPartitions, int64_t(2));
  CHECK(p.deviceAssignment == std::vector<int64_t>({4, 6}));

  CHECK_THROWS(readCompileOptions("\x1a\x05\x20", 3), "CompileOptionsProto is malformed");
  CHECK_THROWS(readCompileOptions("\x1a\x01\xff", 3), "CompileOptionsProto is malformed");
  CHECK_THROWS(readCompileOptions("\x0f", 1), "invalid wire type");
}

}  // namespace

TEST_MAIN()
