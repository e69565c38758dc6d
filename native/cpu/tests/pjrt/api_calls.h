// Helpers for the tests that drive the CPU plugin through the PJRT_Api table that GetPjrtApi
// returns, the way a real caller does: zero-filled args structs with our STRUCT_SIZE constants, every
// returned error destroyed. Each makes one call (or one round trip) and CHECKs that it succeeded.
#pragma once

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "check.h"
#include "pjrt/buffer.h"
#include "pjrt/client.h"
#include "pjrt_c_api.h"

extern "C" const PJRT_Api* GetPjrtApi(void);

namespace tpjrt::cpu::api_test {

inline const PJRT_Api& api() { return *GetPjrtApi(); }

#define ARGS(Type, name) \
  Type name{};           \
  name.struct_size = Type##_STRUCT_SIZE

struct Status {
  bool ok = true;
  int code = 0;
  std::string message;
};

inline Status take(PJRT_Error* error) {
  Status s;
  if (!error) return s;
  s.ok = false;
  ARGS(PJRT_Error_GetCode_Args, code);
  code.error = error;
  PJRT_Error* codeError = api().PJRT_Error_GetCode(&code);
  s.code = codeError ? -1 : int(code.code);
  ARGS(PJRT_Error_Message_Args, message);
  message.error = error;
  api().PJRT_Error_Message(&message);
  s.message.assign(message.message, message.message_size);
  ARGS(PJRT_Error_Destroy_Args, destroy);
  destroy.error = error;
  api().PJRT_Error_Destroy(&destroy);
  return s;
}

inline bool contains(const std::string& text, const std::string& fragment) { return text.find(fragment) != std::string::npos; }

#define CHECK_OK(call)                                                                 \
  do {                                                                                 \
    Status st_ = take(call);                                                           \
    if (!st_.ok) ::tpjrt::test::report(__FILE__, __LINE__, "error: " + st_.message);   \
  } while (0)

#define CHECK_ERROR(call, wantCode, fragment)                                                       \
  do {                                                                                              \
    Status st_ = take(call);                                                                        \
    if (st_.ok) ::tpjrt::test::report(__FILE__, __LINE__, "expected an error from " #call);         \
    else {                                                                                          \
      CHECK_EQ(st_.code, int(wantCode));                                                            \
      if (!contains(st_.message, fragment))                                                         \
        ::tpjrt::test::report(__FILE__, __LINE__, std::string("message lacks '") + (fragment) +     \
                                                      "': " + st_.message);                         \
    }                                                                                               \
  } while (0)

// --- helpers that make one call each -------------------------------------------------------------

inline PJRT_Client* makeClient(int64_t deviceCount = 0) {
  PJRT_NamedValue option{};
  option.struct_size = PJRT_NamedValue_STRUCT_SIZE;
  option.name = "device_count";
  option.name_size = std::strlen(option.name);
  option.type = PJRT_NamedValue_kInt64;
  option.int64_value = deviceCount;
  option.value_size = 1;
  ARGS(PJRT_Client_Create_Args, args);
  args.create_options = deviceCount ? &option : nullptr;
  args.num_options = deviceCount ? 1 : 0;
  CHECK_OK(api().PJRT_Client_Create(&args));
  return args.client;
}

inline void destroyClient(PJRT_Client* client) {
  ARGS(PJRT_Client_Destroy_Args, args);
  args.client = client;
  CHECK_OK(api().PJRT_Client_Destroy(&args));
}

inline std::vector<PJRT_Device*> devicesOf(PJRT_Client* client) {
  ARGS(PJRT_Client_AddressableDevices_Args, args);
  args.client = client;
  CHECK_OK(api().PJRT_Client_AddressableDevices(&args));
  return std::vector<PJRT_Device*>(args.addressable_devices, args.addressable_devices + args.num_addressable_devices);
}

inline void destroyEvent(PJRT_Event* event) {
  ARGS(PJRT_Event_Destroy_Args, args);
  args.event = event;
  CHECK_OK(api().PJRT_Event_Destroy(&args));
}

inline PJRT_Error* tryUpload(PJRT_Client* client, PJRT_Buffer_Type type, const void* data, const std::vector<int64_t>& dims,
                      const std::vector<int64_t>& strides, PJRT_Device* device, PJRT_Buffer** out) {
  ARGS(PJRT_Client_BufferFromHostBuffer_Args, args);
  args.client = client;
  args.data = data;
  args.type = type;
  args.dims = dims.data();
  args.num_dims = dims.size();
  args.byte_strides = strides.empty() ? nullptr : strides.data();
  args.num_byte_strides = strides.size();
  args.host_buffer_semantics = PJRT_HostBufferSemantics_kImmutableOnlyDuringCall;
  args.device = device;
  PJRT_Error* error = api().PJRT_Client_BufferFromHostBuffer(&args);
  if (!error) {
    destroyEvent(args.done_with_host_buffer);
    *out = args.buffer;
  }
  return error;
}

inline PJRT_Buffer* upload(PJRT_Client* client, PJRT_Buffer_Type type, const void* data, const std::vector<int64_t>& dims,
                    const std::vector<int64_t>& strides = {}, PJRT_Device* device = nullptr) {
  PJRT_Buffer* buffer = nullptr;
  CHECK_OK(tryUpload(client, type, data, dims, strides, device, &buffer));
  return buffer;
}

inline PJRT_Buffer* uploadF32(PJRT_Client* client, const std::vector<float>& values, const std::vector<int64_t>& dims,
                       PJRT_Device* device = nullptr) {
  return upload(client, PJRT_Buffer_Type_F32, values.data(), dims, {}, device);
}

inline std::vector<uint8_t> download(PJRT_Buffer* buffer) {
  ARGS(PJRT_Buffer_ToHostBuffer_Args, args);
  args.src = buffer;
  CHECK_OK(api().PJRT_Buffer_ToHostBuffer(&args));
  std::vector<uint8_t> bytes(args.dst_size);
  args.dst = bytes.data();
  CHECK_OK(api().PJRT_Buffer_ToHostBuffer(&args));
  if (args.event) {
    ARGS(PJRT_Event_Await_Args, await);
    await.event = args.event;
    CHECK_OK(api().PJRT_Event_Await(&await));
    destroyEvent(args.event);
  }
  return bytes;
}

inline std::vector<float> downloadF32(PJRT_Buffer* buffer) {
  std::vector<uint8_t> bytes = download(buffer);
  std::vector<float> values(bytes.size() / 4);
  std::memcpy(values.data(), bytes.data(), bytes.size());
  return values;
}

// The buffer's literal once its run has defined it (a view stays a view).
inline std::shared_ptr<const Literal> literalOf(PJRT_Buffer* buffer) {
  std::shared_ptr<BufferValue> value = buffer->value.load();
  value->defined.await();
  return value->data.load();
}

inline void destroyBuffer(PJRT_Buffer* buffer) {
  ARGS(PJRT_Buffer_Destroy_Args, args);
  args.buffer = buffer;
  CHECK_OK(api().PJRT_Buffer_Destroy(&args));
}

// The fact sheet's minimal single-device CompileOptionsProto (device 0), verified on XLA.
inline std::string singleDeviceOptions(uint8_t deviceId = 0) {
  const uint8_t bytes[] = {0x1a, 0x19, 0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0x20,
                           0x01, 0x28, 0x01, 0x4a, 0x08, 0x08, 0x01, 0x10, 0x01, 0x1a, 0x02, 0x08, deviceId};
  return std::string(reinterpret_cast<const char*>(bytes), sizeof bytes);
}

inline PJRT_Error* tryCompile(PJRT_Client* client, const std::string& code, const std::string& options,
                       PJRT_LoadedExecutable** out, const char* format = "mlir") {
  ARGS(PJRT_Program, program);
  program.code = const_cast<char*>(code.data());
  program.code_size = code.size();
  program.format = format;
  program.format_size = std::strlen(format);
  ARGS(PJRT_Client_Compile_Args, args);
  args.client = client;
  args.program = &program;
  args.compile_options = options.data();
  args.compile_options_size = options.size();
  PJRT_Error* error = api().PJRT_Client_Compile(&args);
  if (!error) *out = args.executable;
  return error;
}

inline PJRT_LoadedExecutable* compile(PJRT_Client* client, const std::string& code,
                               const std::string& options = singleDeviceOptions()) {
  PJRT_LoadedExecutable* executable = nullptr;
  CHECK_OK(tryCompile(client, code, options, &executable));
  return executable;
}

inline void destroyExecutable(PJRT_LoadedExecutable* executable) {
  ARGS(PJRT_LoadedExecutable_Destroy_Args, args);
  args.executable = executable;
  CHECK_OK(api().PJRT_LoadedExecutable_Destroy(&args));
}

inline size_t numOutputs(PJRT_LoadedExecutable* loaded) {
  ARGS(PJRT_LoadedExecutable_GetExecutable_Args, get);
  get.loaded_executable = loaded;
  CHECK_OK(api().PJRT_LoadedExecutable_GetExecutable(&get));
  ARGS(PJRT_Executable_NumOutputs_Args, args);
  args.executable = get.executable;
  CHECK_OK(api().PJRT_Executable_NumOutputs(&args));
  ARGS(PJRT_Executable_Destroy_Args, destroy);
  destroy.executable = get.executable;
  CHECK_OK(api().PJRT_Executable_Destroy(&destroy));
  return args.num_outputs;
}

inline PJRT_Error* tryExecute(PJRT_LoadedExecutable* executable, const std::vector<PJRT_Buffer*>& inputs,
                       std::vector<PJRT_Buffer*>& outputs, PJRT_Event** done = nullptr, bool withOptions = true,
                       const std::vector<int64_t>& nonDonatable = {}) {
  ARGS(PJRT_ExecuteOptions, options);
  options.non_donatable_input_indices = nonDonatable.data();
  options.num_non_donatable_input_indices = nonDonatable.size();
  outputs.assign(numOutputs(executable), nullptr);
  PJRT_Buffer* const* argumentList = inputs.data();
  PJRT_Buffer** outputList = outputs.data();
  ARGS(PJRT_LoadedExecutable_Execute_Args, args);
  args.executable = executable;
  args.options = withOptions ? &options : nullptr;
  args.argument_lists = &argumentList;
  args.num_devices = 1;
  args.num_args = inputs.size();
  args.output_lists = &outputList;
  args.device_complete_events = done;
  return api().PJRT_LoadedExecutable_Execute(&args);
}

inline std::vector<PJRT_Buffer*> execute(PJRT_LoadedExecutable* executable, const std::vector<PJRT_Buffer*>& inputs) {
  std::vector<PJRT_Buffer*> outputs;
  CHECK_OK(tryExecute(executable, inputs, outputs));
  return outputs;
}

inline int64_t bytesInUse(PJRT_Device* device) {
  ARGS(PJRT_Device_MemoryStats_Args, args);
  args.device = device;
  CHECK_OK(api().PJRT_Device_MemoryStats(&args));
  return args.bytes_in_use;
}

}  // namespace tpjrt::cpu::api_test
