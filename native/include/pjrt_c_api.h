/* torch-pjrt's own declaration of the PJRT C API ABI (the table a PJRT plugin returns from
 * `const PJRT_Api* GetPjrtApi(void)`), shared by the runtime (caller) and our CPU plugin
 * (implementation). Compiles as C11 and C++. LP64 only.
 *
 * Version: major 0, minor 104.
 *   - The function table holds slots 0–134 in ABI order (last: PJRT_Executable_ParameterMemoryKinds,
 *     added at 0.102). Slot 135 is contested: the 0.105 header text puts PJRT_Buffer_CopyRawFromHost
 *     there, libtpu 0.0.42.1 (reports 0.112) has PJRT_Device_ClearMemoryStats. We declare neither.
 *   - Args structs have their 0.104 layout: 0.103 grew PJRT_Client_CreateErrorBuffer_Args (payload)
 *     and 0.104 grew PJRT_Executable_GetCompiledMemoryStats_Args (three trailing int64s); 0.105
 *     changed no existing struct. 0.104 is therefore the newest minor whose whole layout we match.
 * Facts (slot order, sizes, offsets, enum values) come from ../../../shared/reference/pjrt-facts.md
 * and the PJRT changelog; the static_asserts at the end pin them.
 *
 * Conventions of the ABI:
 *   - Every args struct starts with `size_t struct_size; PJRT_Extension_Base* extension_start;`.
 *     The caller zero-fills the struct and sets struct_size to <Name>_STRUCT_SIZE, which is
 *     offsetof(last field) + sizeof(last field), not sizeof(struct).
 *   - Functions return PJRT_Error* (NULL = success); the caller destroys every returned error.
 *     Only PJRT_Error_Destroy and PJRT_Error_Message return void.
 *   - Strings are (pointer, length) pairs and need not be NUL-terminated.
 */
#ifndef TORCH_PJRT_PJRT_C_API_H_
#define TORCH_PJRT_PJRT_C_API_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define PJRT_API_MAJOR 0
#define PJRT_API_MINOR 104

#define TPJRT_STRUCT_SIZE(type, last) (offsetof(type, last) + sizeof(((type*)0)->last))
#define TPJRT_SIZED(type, last) enum { type##_STRUCT_SIZE = TPJRT_STRUCT_SIZE(type, last) }
#define TPJRT_ARGS_HEAD    \
  size_t struct_size;      \
  PJRT_Extension_Base* extension_start
/* Declares the function type `name`, taking `name_Args*`. */
#define TPJRT_FN(name) typedef PJRT_Error* name(struct name##_Args* args)
/* A function we do not use: its args struct stays opaque. */
#define TPJRT_OPAQUE_FN(name)                          \
  typedef struct name##_Args name##_Args;              \
  typedef PJRT_Error* name(struct name##_Args* args)

#ifdef __cplusplus
#define TPJRT_ASSERT(cond, what) static_assert(cond, what)
extern "C" {
#else
#define TPJRT_ASSERT(cond, what) _Static_assert(cond, what)
#endif

/* ================================ extensions and version ================================ */

typedef enum {
  PJRT_Extension_Type_Gpu_Custom_Call = 0,
  PJRT_Extension_Type_Profiler = 1,
  PJRT_Extension_Type_Custom_Partitioner = 2,
  PJRT_Extension_Type_Stream = 3,
  PJRT_Extension_Type_Layouts = 4,
  PJRT_Extension_Type_FFI = 5,
  PJRT_Extension_Type_MemoryDescriptions = 6,
  PJRT_Extension_Type_Triton = 7,
  PJRT_Extension_Type_RawBuffer = 8,
  PJRT_Extension_Type_PhaseCompile = 9,
  PJRT_Extension_Type_Example = 10,
  PJRT_Extension_Type_Unknown = 11,
  PJRT_Extension_Type_CrossHostTransfers = 12,
  PJRT_Extension_Type_ExecutableMetadata = 13,
  PJRT_Extension_Type_Callback = 14,
  PJRT_Extension_Type_HostAllocator = 15,
  PJRT_Extension_Type_TpuTopology = 16,
  PJRT_Extension_Type_TpuExecutable = 17,
  PJRT_Extension_Type_Megascale = 18,
  PJRT_Extension_Type_Shardings = 19,
  PJRT_Extension_Type_AbiVersion = 20,
  PJRT_Extension_Type_Collectives = 21,
  PJRT_Extension_Type_MultiSlice = 22,
  PJRT_Extension_Type_HostMemoryAllocator = 23
} PJRT_Extension_Type;

/* Head of every extension struct; chains hang off PJRT_Api.extension_start. Readers must skip
 * types they do not know, and must not walk chains of plugins older than 0.45 (no struct_size). */
typedef struct PJRT_Extension_Base {
  size_t struct_size;
  PJRT_Extension_Type type;
  struct PJRT_Extension_Base* next;
} PJRT_Extension_Base;
TPJRT_SIZED(PJRT_Extension_Base, next);

/* The plugin writes the major/minor it was built with. */
typedef struct PJRT_Api_Version {
  TPJRT_ARGS_HEAD;
  int major_version;
  int minor_version;
} PJRT_Api_Version;
TPJRT_SIZED(PJRT_Api_Version, minor_version);

/* ====================================== handles ====================================== */

typedef struct PJRT_Error PJRT_Error;
typedef struct PJRT_Event PJRT_Event;
typedef struct PJRT_Client PJRT_Client;
typedef struct PJRT_Device PJRT_Device;
typedef struct PJRT_Memory PJRT_Memory;
typedef struct PJRT_DeviceDescription PJRT_DeviceDescription;
typedef struct PJRT_TopologyDescription PJRT_TopologyDescription;
typedef struct PJRT_Executable PJRT_Executable;
typedef struct PJRT_LoadedExecutable PJRT_LoadedExecutable;
typedef struct PJRT_Buffer PJRT_Buffer;
typedef struct PJRT_ExecuteContext PJRT_ExecuteContext;
typedef struct PJRT_CopyToDeviceStream PJRT_CopyToDeviceStream;
typedef struct PJRT_MultiSlice_Config PJRT_MultiSlice_Config;
typedef struct PJRT_SerializedExecutable PJRT_SerializedExecutable;
typedef struct PJRT_SerializedCompileOptions PJRT_SerializedCompileOptions;
typedef struct PJRT_SerializedTopology PJRT_SerializedTopology;
typedef struct PJRT_DeviceAssignmentSerialized PJRT_DeviceAssignmentSerialized;
typedef struct PJRT_Device_Attributes PJRT_Device_Attributes;

/* ======================================= enums ======================================= */

/* absl status codes. OK is never carried by an error object. */
typedef enum {
  PJRT_Error_Code_OK = 0,
  PJRT_Error_Code_CANCELLED = 1,
  PJRT_Error_Code_UNKNOWN = 2,
  PJRT_Error_Code_INVALID_ARGUMENT = 3,
  PJRT_Error_Code_DEADLINE_EXCEEDED = 4,
  PJRT_Error_Code_NOT_FOUND = 5,
  PJRT_Error_Code_ALREADY_EXISTS = 6,
  PJRT_Error_Code_PERMISSION_DENIED = 7,
  PJRT_Error_Code_RESOURCE_EXHAUSTED = 8,
  PJRT_Error_Code_FAILED_PRECONDITION = 9,
  PJRT_Error_Code_ABORTED = 10,
  PJRT_Error_Code_OUT_OF_RANGE = 11,
  PJRT_Error_Code_UNIMPLEMENTED = 12,
  PJRT_Error_Code_INTERNAL = 13,
  PJRT_Error_Code_UNAVAILABLE = 14,
  PJRT_Error_Code_DATA_LOSS = 15,
  PJRT_Error_Code_UNAUTHENTICATED = 16
} PJRT_Error_Code;

/* Not the xla.PrimitiveType numbering used inside protos. */
typedef enum {
  PJRT_Buffer_Type_INVALID = 0,
  PJRT_Buffer_Type_PRED = 1,
  PJRT_Buffer_Type_S8 = 2,
  PJRT_Buffer_Type_S16 = 3,
  PJRT_Buffer_Type_S32 = 4,
  PJRT_Buffer_Type_S64 = 5,
  PJRT_Buffer_Type_U8 = 6,
  PJRT_Buffer_Type_U16 = 7,
  PJRT_Buffer_Type_U32 = 8,
  PJRT_Buffer_Type_U64 = 9,
  PJRT_Buffer_Type_F16 = 10,
  PJRT_Buffer_Type_F32 = 11,
  PJRT_Buffer_Type_F64 = 12,
  PJRT_Buffer_Type_BF16 = 13,
  PJRT_Buffer_Type_C64 = 14,
  PJRT_Buffer_Type_C128 = 15,
  PJRT_Buffer_Type_F8E5M2 = 16,
  PJRT_Buffer_Type_F8E4M3FN = 17,
  PJRT_Buffer_Type_F8E4M3B11FNUZ = 18,
  PJRT_Buffer_Type_F8E5M2FNUZ = 19,
  PJRT_Buffer_Type_F8E4M3FNUZ = 20,
  PJRT_Buffer_Type_S4 = 21,
  PJRT_Buffer_Type_U4 = 22,
  PJRT_Buffer_Type_TOKEN = 23,
  PJRT_Buffer_Type_S2 = 24,
  PJRT_Buffer_Type_U2 = 25,
  PJRT_Buffer_Type_F8E4M3 = 26,
  PJRT_Buffer_Type_F8E3M4 = 27,
  PJRT_Buffer_Type_F8E8M0FNU = 28,
  PJRT_Buffer_Type_F4E2M1FN = 29,
  PJRT_Buffer_Type_S1 = 30,
  PJRT_Buffer_Type_U1 = 31
} PJRT_Buffer_Type;

typedef enum {
  PJRT_NamedValue_kString = 0,
  PJRT_NamedValue_kInt64 = 1,
  PJRT_NamedValue_kInt64List = 2,
  PJRT_NamedValue_kFloat = 3,
  PJRT_NamedValue_kBool = 4
} PJRT_NamedValue_Type;

/* Who owns the host memory passed to PJRT_Client_BufferFromHostBuffer, and for how long:
 * 0: only during the call (plugin copies); 1: until done_with_host_buffer fires;
 * 2: for the buffer's whole life, read-only; 3: like 2, and the plugin may write to it. */
typedef enum {
  PJRT_HostBufferSemantics_kImmutableOnlyDuringCall = 0,
  PJRT_HostBufferSemantics_kImmutableUntilTransferCompletes = 1,
  PJRT_HostBufferSemantics_kImmutableZeroCopy = 2,
  PJRT_HostBufferSemantics_kMutableZeroCopy = 3
} PJRT_HostBufferSemantics;

typedef enum {
  PJRT_Buffer_MemoryLayout_Type_Tiled = 0,
  PJRT_Buffer_MemoryLayout_Type_Strides = 1
} PJRT_Buffer_MemoryLayout_Type;

typedef enum {
  PJRT_ProcessState_kUnspecified = 0,
  PJRT_ProcessState_kUninitialized = 1,
  PJRT_ProcessState_kDisconnected = 2,
  PJRT_ProcessState_kConnected = 3,
  PJRT_ProcessState_kError = 4
} PJRT_ProcessState;

/* ==================================== named values ==================================== */

/* value_size: element count for strings and int64 lists, 1 for scalars. */
typedef struct PJRT_NamedValue {
  TPJRT_ARGS_HEAD;
  const char* name;
  size_t name_size;
  PJRT_NamedValue_Type type;
  union {
    const char* string_value;
    int64_t int64_value;
    const int64_t* int64_array_value;
    float float_value;
    bool bool_value;
  };
  size_t value_size;
} PJRT_NamedValue;
TPJRT_SIZED(PJRT_NamedValue, value_size);

/* ======================================= errors ======================================= */

typedef struct PJRT_Error_Destroy_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Error* error; /* NULL allowed */
} PJRT_Error_Destroy_Args;
TPJRT_SIZED(PJRT_Error_Destroy_Args, error);
typedef void PJRT_Error_Destroy(PJRT_Error_Destroy_Args* args);

typedef struct PJRT_Error_Message_Args {
  TPJRT_ARGS_HEAD;
  const PJRT_Error* error;
  const char* message; /* out, lives as long as `error` */
  size_t message_size; /* out */
} PJRT_Error_Message_Args;
TPJRT_SIZED(PJRT_Error_Message_Args, message_size);
typedef void PJRT_Error_Message(PJRT_Error_Message_Args* args);

typedef struct PJRT_Error_GetCode_Args {
  TPJRT_ARGS_HEAD;
  const PJRT_Error* error;
  PJRT_Error_Code code; /* out */
} PJRT_Error_GetCode_Args;
TPJRT_SIZED(PJRT_Error_GetCode_Args, code);
TPJRT_FN(PJRT_Error_GetCode);

typedef void (*PJRT_Error_PayloadVisitor)(const char* key, size_t key_size, const char* value,
                                          size_t value_size, void* user_arg);
typedef struct PJRT_Error_ForEachPayload_Args {
  TPJRT_ARGS_HEAD;
  const PJRT_Error* error;
  PJRT_Error_PayloadVisitor visitor;
  void* user_arg;
} PJRT_Error_ForEachPayload_Args;
TPJRT_SIZED(PJRT_Error_ForEachPayload_Args, user_arg);
TPJRT_FN(PJRT_Error_ForEachPayload);

/* Handed by a plugin to caller callbacks so they can build an error (the message is copied). */
typedef PJRT_Error* (*PJRT_CallbackError)(PJRT_Error_Code code, const char* message, size_t message_size);

/* ======================================= plugin ======================================= */

typedef struct PJRT_Plugin_Initialize_Args {
  TPJRT_ARGS_HEAD;
} PJRT_Plugin_Initialize_Args;
TPJRT_SIZED(PJRT_Plugin_Initialize_Args, extension_start);
TPJRT_FN(PJRT_Plugin_Initialize);

/* Attributes live as long as the process. */
typedef struct PJRT_Plugin_Attributes_Args {
  TPJRT_ARGS_HEAD;
  const PJRT_NamedValue* attributes; /* out */
  size_t num_attributes;             /* out */
} PJRT_Plugin_Attributes_Args;
TPJRT_SIZED(PJRT_Plugin_Attributes_Args, num_attributes);
TPJRT_FN(PJRT_Plugin_Attributes);

/* ======================================= events ======================================= */

typedef struct PJRT_Event_Destroy_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Event* event;
} PJRT_Event_Destroy_Args;
TPJRT_SIZED(PJRT_Event_Destroy_Args, event);
TPJRT_FN(PJRT_Event_Destroy);

typedef struct PJRT_Event_IsReady_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Event* event;
  bool is_ready; /* out; a failed event is ready too */
} PJRT_Event_IsReady_Args;
TPJRT_SIZED(PJRT_Event_IsReady_Args, is_ready);
TPJRT_FN(PJRT_Event_IsReady);

/* Only once ready. Returns the event's error (a new object per call) or NULL. */
typedef struct PJRT_Event_Error_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Event* event;
} PJRT_Event_Error_Args;
TPJRT_SIZED(PJRT_Event_Error_Args, event);
TPJRT_FN(PJRT_Event_Error);

/* Blocks until ready; returns the event's error or NULL. */
typedef struct PJRT_Event_Await_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Event* event;
} PJRT_Event_Await_Args;
TPJRT_SIZED(PJRT_Event_Await_Args, event);
TPJRT_FN(PJRT_Event_Await);

/* The callback owns `error` and must destroy it; it may run on any thread. */
typedef void (*PJRT_Event_OnReadyCallback)(PJRT_Error* error, void* user_arg);
typedef struct PJRT_Event_OnReady_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Event* event;
  PJRT_Event_OnReadyCallback callback;
  void* user_arg;
} PJRT_Event_OnReady_Args;
TPJRT_SIZED(PJRT_Event_OnReady_Args, user_arg);
TPJRT_FN(PJRT_Event_OnReady);

typedef struct PJRT_Event_Create_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Event* event; /* out */
} PJRT_Event_Create_Args;
TPJRT_SIZED(PJRT_Event_Create_Args, event);
TPJRT_FN(PJRT_Event_Create);

typedef struct PJRT_Event_Set_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Event* event; /* from PJRT_Event_Create */
  PJRT_Error_Code error_code;
  const char* error_message;
  size_t error_message_size;
} PJRT_Event_Set_Args;
TPJRT_SIZED(PJRT_Event_Set_Args, error_message_size);
TPJRT_FN(PJRT_Event_Set);

/* ============================ key-value store callbacks ============================ */

typedef void (*PJRT_KeyValueGetCallback_ValueDeleter)(char* value);
typedef struct PJRT_KeyValueGetCallback_Args {
  TPJRT_ARGS_HEAD;
  const char* key;
  size_t key_size;
  int timeout_in_ms;
  PJRT_CallbackError* callback_error;
  void* user_arg;
  char* value;                                                  /* out */
  size_t value_size;                                            /* out */
  PJRT_KeyValueGetCallback_ValueDeleter value_deleter_callback; /* out */
} PJRT_KeyValueGetCallback_Args;
TPJRT_SIZED(PJRT_KeyValueGetCallback_Args, value_deleter_callback);
typedef PJRT_Error* (*PJRT_KeyValueGetCallback)(PJRT_KeyValueGetCallback_Args* args);

typedef void (*PJRT_KeyValueTryGetCallback_ValueDeleter)(char* value);
typedef struct PJRT_KeyValueTryGetCallback_Args {
  TPJRT_ARGS_HEAD;
  const char* key;
  size_t key_size;
  PJRT_CallbackError* callback_error;
  void* user_arg;
  char* value;                                                     /* out */
  size_t value_size;                                               /* out */
  PJRT_KeyValueTryGetCallback_ValueDeleter value_deleter_callback; /* out */
} PJRT_KeyValueTryGetCallback_Args;
TPJRT_SIZED(PJRT_KeyValueTryGetCallback_Args, value_deleter_callback);
typedef PJRT_Error* (*PJRT_KeyValueTryGetCallback)(PJRT_KeyValueTryGetCallback_Args* args);

typedef struct PJRT_KeyValuePutCallback_Args {
  TPJRT_ARGS_HEAD;
  const char* key;
  size_t key_size;
  const char* value;
  size_t value_size;
  PJRT_CallbackError* callback_error;
  void* user_arg;
} PJRT_KeyValuePutCallback_Args;
TPJRT_SIZED(PJRT_KeyValuePutCallback_Args, user_arg);
typedef PJRT_Error* (*PJRT_KeyValuePutCallback)(PJRT_KeyValuePutCallback_Args* args);

/* ======================================= client ======================================= */

/* Single-process callers leave every kv_* field NULL. 72 bytes before 0.61, 88 since. */
typedef struct PJRT_Client_Create_Args {
  TPJRT_ARGS_HEAD;
  const PJRT_NamedValue* create_options;
  size_t num_options;
  PJRT_KeyValueGetCallback kv_get_callback;
  void* kv_get_user_arg;
  PJRT_KeyValuePutCallback kv_put_callback;
  void* kv_put_user_arg;
  PJRT_Client* client; /* out */
  PJRT_KeyValueTryGetCallback kv_try_get_callback;
  void* kv_try_get_user_arg;
} PJRT_Client_Create_Args;
TPJRT_SIZED(PJRT_Client_Create_Args, kv_try_get_user_arg);
TPJRT_FN(PJRT_Client_Create);

typedef struct PJRT_Client_Destroy_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Client* client;
} PJRT_Client_Destroy_Args;
TPJRT_SIZED(PJRT_Client_Destroy_Args, client);
TPJRT_FN(PJRT_Client_Destroy);

typedef struct PJRT_Client_PlatformName_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Client* client;
  const char* platform_name; /* out, owned by the client */
  size_t platform_name_size; /* out */
} PJRT_Client_PlatformName_Args;
TPJRT_SIZED(PJRT_Client_PlatformName_Args, platform_name_size);
TPJRT_FN(PJRT_Client_PlatformName);

typedef struct PJRT_Client_ProcessIndex_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Client* client;
  int process_index; /* out */
} PJRT_Client_ProcessIndex_Args;
TPJRT_SIZED(PJRT_Client_ProcessIndex_Args, process_index);
TPJRT_FN(PJRT_Client_ProcessIndex);

typedef struct PJRT_Client_PlatformVersion_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Client* client;
  const char* platform_version; /* out, owned by the client */
  size_t platform_version_size; /* out */
} PJRT_Client_PlatformVersion_Args;
TPJRT_SIZED(PJRT_Client_PlatformVersion_Args, platform_version_size);
TPJRT_FN(PJRT_Client_PlatformVersion);

/* The topology is owned by the client. */
typedef struct PJRT_Client_TopologyDescription_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Client* client;
  PJRT_TopologyDescription* topology; /* out */
} PJRT_Client_TopologyDescription_Args;
TPJRT_SIZED(PJRT_Client_TopologyDescription_Args, topology);
TPJRT_FN(PJRT_Client_TopologyDescription);

/* All devices, addressable or not; the array is owned by the client. */
typedef struct PJRT_Client_Devices_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Client* client;
  PJRT_Device* const* devices; /* out */
  size_t num_devices;          /* out */
} PJRT_Client_Devices_Args;
TPJRT_SIZED(PJRT_Client_Devices_Args, num_devices);
TPJRT_FN(PJRT_Client_Devices);

typedef struct PJRT_Client_AddressableDevices_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Client* client;
  PJRT_Device* const* addressable_devices; /* out */
  size_t num_addressable_devices;          /* out */
} PJRT_Client_AddressableDevices_Args;
TPJRT_SIZED(PJRT_Client_AddressableDevices_Args, num_addressable_devices);
TPJRT_FN(PJRT_Client_AddressableDevices);

/* By PJRT_DeviceDescription_Id. */
typedef struct PJRT_Client_LookupDevice_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Client* client;
  int id;
  PJRT_Device* device; /* out */
} PJRT_Client_LookupDevice_Args;
TPJRT_SIZED(PJRT_Client_LookupDevice_Args, device);
TPJRT_FN(PJRT_Client_LookupDevice);

/* By PJRT_Device_LocalHardwareId. */
typedef struct PJRT_Client_LookupAddressableDevice_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Client* client;
  int local_hardware_id;
  PJRT_Device* addressable_device; /* out */
} PJRT_Client_LookupAddressableDevice_Args;
TPJRT_SIZED(PJRT_Client_LookupAddressableDevice_Args, addressable_device);
TPJRT_FN(PJRT_Client_LookupAddressableDevice);

typedef struct PJRT_Client_AddressableMemories_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Client* client;
  PJRT_Memory* const* addressable_memories; /* out */
  size_t num_addressable_memories;          /* out */
} PJRT_Client_AddressableMemories_Args;
TPJRT_SIZED(PJRT_Client_AddressableMemories_Args, num_addressable_memories);
TPJRT_FN(PJRT_Client_AddressableMemories);

/* format: "mlir" (StableHLO text or bytecode) or "hlo" (HloModuleProto). */
typedef struct PJRT_Program {
  TPJRT_ARGS_HEAD;
  char* code;
  size_t code_size;
  const char* format;
  size_t format_size;
} PJRT_Program;
TPJRT_SIZED(PJRT_Program, format_size);

/* compile_options: a serialized xla.CompileOptionsProto (never empty in practice). */
typedef struct PJRT_Client_Compile_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Client* client;
  const PJRT_Program* program;
  const char* compile_options;
  size_t compile_options_size;
  PJRT_LoadedExecutable* executable; /* out */
} PJRT_Client_Compile_Args;
TPJRT_SIZED(PJRT_Client_Compile_Args, executable);
TPJRT_FN(PJRT_Client_Compile);

typedef struct PJRT_Client_Load_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Client* client;
  PJRT_Executable* executable;
  const char* compile_options;
  size_t compile_options_size;
  PJRT_LoadedExecutable* loaded_executable; /* out */
} PJRT_Client_Load_Args;
TPJRT_SIZED(PJRT_Client_Load_Args, loaded_executable);
TPJRT_FN(PJRT_Client_Load);

/* Writes num_replicas * num_partitions device ids, replica-major (index r * P + p). */
typedef struct PJRT_Client_DefaultDeviceAssignment_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Client* client;
  int num_replicas;
  int num_partitions;
  size_t default_assignment_size;
  int* default_assignment;
} PJRT_Client_DefaultDeviceAssignment_Args;
TPJRT_SIZED(PJRT_Client_DefaultDeviceAssignment_Args, default_assignment);
TPJRT_FN(PJRT_Client_DefaultDeviceAssignment);

/* ================================ memory layouts ================================ */

typedef struct PJRT_Buffer_MemoryLayout_Tiled {
  TPJRT_ARGS_HEAD;
  const int64_t* minor_to_major;
  size_t minor_to_major_size;
  const int64_t* tile_dims;      /* all tiles' dims, concatenated */
  const size_t* tile_dim_sizes;  /* rank of each tile */
  size_t num_tiles;
} PJRT_Buffer_MemoryLayout_Tiled;
TPJRT_SIZED(PJRT_Buffer_MemoryLayout_Tiled, num_tiles);

typedef struct PJRT_Buffer_MemoryLayout_Strides {
  TPJRT_ARGS_HEAD;
  const int64_t* byte_strides;
  size_t num_byte_strides;
} PJRT_Buffer_MemoryLayout_Strides;
TPJRT_SIZED(PJRT_Buffer_MemoryLayout_Strides, num_byte_strides);

typedef struct PJRT_Buffer_MemoryLayout {
  TPJRT_ARGS_HEAD;
  union {
    PJRT_Buffer_MemoryLayout_Tiled tiled;
    PJRT_Buffer_MemoryLayout_Strides strides;
  };
  PJRT_Buffer_MemoryLayout_Type type;
} PJRT_Buffer_MemoryLayout;
TPJRT_SIZED(PJRT_Buffer_MemoryLayout, type);

/* ================================ host -> device ================================ */

/* byte_strides NULL/0 = dense row-major; strides may be negative (then `data` points inside the
 * array). `memory`, when set, wins over `device`. The plugin always returns done_with_host_buffer:
 * the caller destroys it (and, for semantics 1, waits on it before touching `data`). */
typedef struct PJRT_Client_BufferFromHostBuffer_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Client* client;
  const void* data;
  PJRT_Buffer_Type type;
  const int64_t* dims;
  size_t num_dims;
  const int64_t* byte_strides;
  size_t num_byte_strides;
  PJRT_HostBufferSemantics host_buffer_semantics;
  PJRT_Device* device;
  PJRT_Memory* memory;
  PJRT_Buffer_MemoryLayout* device_layout; /* NULL = dense major-to-minor */
  PJRT_Event* done_with_host_buffer;       /* out */
  PJRT_Buffer* buffer;                     /* out */
} PJRT_Client_BufferFromHostBuffer_Args;
TPJRT_SIZED(PJRT_Client_BufferFromHostBuffer_Args, buffer);
TPJRT_FN(PJRT_Client_BufferFromHostBuffer);

typedef struct PJRT_Client_CreateViewOfDeviceBuffer_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Client* client;
  void* device_buffer_ptr;
  const int64_t* dims;
  size_t num_dims;
  PJRT_Buffer_Type element_type;
  PJRT_Buffer_MemoryLayout* layout;
  PJRT_Device* device; /* ignored when `memory` is set */
  void (*on_delete_callback)(void* device_buffer_ptr, void* user_arg);
  void* on_delete_callback_arg;
  intptr_t stream;
  PJRT_Buffer* buffer; /* out */
  PJRT_Memory* memory;
} PJRT_Client_CreateViewOfDeviceBuffer_Args;
TPJRT_SIZED(PJRT_Client_CreateViewOfDeviceBuffer_Args, memory);
TPJRT_FN(PJRT_Client_CreateViewOfDeviceBuffer);

typedef struct PJRT_Client_CreateUninitializedBuffer_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Client* client;
  const int64_t* shape_dims;
  size_t shape_num_dims;
  PJRT_Buffer_Type shape_element_type;
  PJRT_Buffer_MemoryLayout* shape_layout;
  PJRT_Device* device;
  PJRT_Memory* memory;
  PJRT_Buffer* buffer; /* out */
} PJRT_Client_CreateUninitializedBuffer_Args;
TPJRT_SIZED(PJRT_Client_CreateUninitializedBuffer_Args, buffer);
TPJRT_FN(PJRT_Client_CreateUninitializedBuffer);

/* A buffer that carries an error; executing with it fails with that error. */
typedef struct PJRT_Client_CreateErrorBuffer_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Client* client;
  PJRT_Error_Code error_code;
  const char* error_message;
  size_t error_message_size;
  const int64_t* shape_dims;
  size_t shape_num_dims;
  PJRT_Buffer_Type shape_element_type;
  PJRT_Buffer_MemoryLayout* shape_layout;
  PJRT_Memory* memory;
  PJRT_Buffer* buffer; /* out */
  const PJRT_NamedValue* payload;
  size_t num_payload;
} PJRT_Client_CreateErrorBuffer_Args;
TPJRT_SIZED(PJRT_Client_CreateErrorBuffer_Args, num_payload);
TPJRT_FN(PJRT_Client_CreateErrorBuffer);

TPJRT_OPAQUE_FN(PJRT_Client_UpdateGlobalProcessInfo);
TPJRT_OPAQUE_FN(PJRT_Client_DmaMap);
TPJRT_OPAQUE_FN(PJRT_Client_DmaUnmap);
TPJRT_OPAQUE_FN(PJRT_Client_CreateAliasBuffer);
TPJRT_OPAQUE_FN(PJRT_Client_FulfillAliasBuffer);
TPJRT_OPAQUE_FN(PJRT_Client_CreateBuffersForAsyncHostToDevice);
TPJRT_OPAQUE_FN(PJRT_AsyncHostToDeviceTransferManager_Destroy);
TPJRT_OPAQUE_FN(PJRT_AsyncHostToDeviceTransferManager_TransferData);
TPJRT_OPAQUE_FN(PJRT_AsyncHostToDeviceTransferManager_RetrieveBuffer);
TPJRT_OPAQUE_FN(PJRT_AsyncHostToDeviceTransferManager_Device);
TPJRT_OPAQUE_FN(PJRT_AsyncHostToDeviceTransferManager_BufferCount);
TPJRT_OPAQUE_FN(PJRT_AsyncHostToDeviceTransferManager_BufferSize);
TPJRT_OPAQUE_FN(PJRT_AsyncHostToDeviceTransferManager_SetBufferError);
TPJRT_OPAQUE_FN(PJRT_AsyncHostToDeviceTransferManager_AddMetadata);
TPJRT_OPAQUE_FN(PJRT_AsyncHostToDeviceTransferManager_TransferLiteral);

/* ================================ device descriptions ================================ */

typedef struct PJRT_DeviceDescription_Id_Args {
  TPJRT_ARGS_HEAD;
  PJRT_DeviceDescription* device_description;
  int id; /* out */
} PJRT_DeviceDescription_Id_Args;
TPJRT_SIZED(PJRT_DeviceDescription_Id_Args, id);
TPJRT_FN(PJRT_DeviceDescription_Id);

typedef struct PJRT_DeviceDescription_ProcessIndex_Args {
  TPJRT_ARGS_HEAD;
  PJRT_DeviceDescription* device_description;
  int process_index; /* out */
} PJRT_DeviceDescription_ProcessIndex_Args;
TPJRT_SIZED(PJRT_DeviceDescription_ProcessIndex_Args, process_index);
TPJRT_FN(PJRT_DeviceDescription_ProcessIndex);

/* Note the order: the count comes before the array here. */
typedef struct PJRT_DeviceDescription_Attributes_Args {
  TPJRT_ARGS_HEAD;
  PJRT_DeviceDescription* device_description;
  size_t num_attributes;             /* out */
  const PJRT_NamedValue* attributes; /* out */
} PJRT_DeviceDescription_Attributes_Args;
TPJRT_SIZED(PJRT_DeviceDescription_Attributes_Args, attributes);
TPJRT_FN(PJRT_DeviceDescription_Attributes);

typedef struct PJRT_DeviceDescription_Kind_Args {
  TPJRT_ARGS_HEAD;
  PJRT_DeviceDescription* device_description;
  const char* device_kind; /* out */
  size_t device_kind_size; /* out */
} PJRT_DeviceDescription_Kind_Args;
TPJRT_SIZED(PJRT_DeviceDescription_Kind_Args, device_kind_size);
TPJRT_FN(PJRT_DeviceDescription_Kind);

typedef struct PJRT_DeviceDescription_DebugString_Args {
  TPJRT_ARGS_HEAD;
  PJRT_DeviceDescription* device_description;
  const char* debug_string; /* out */
  size_t debug_string_size; /* out */
} PJRT_DeviceDescription_DebugString_Args;
TPJRT_SIZED(PJRT_DeviceDescription_DebugString_Args, debug_string_size);
TPJRT_FN(PJRT_DeviceDescription_DebugString);

typedef struct PJRT_DeviceDescription_ToString_Args {
  TPJRT_ARGS_HEAD;
  PJRT_DeviceDescription* device_description;
  const char* to_string; /* out */
  size_t to_string_size; /* out */
} PJRT_DeviceDescription_ToString_Args;
TPJRT_SIZED(PJRT_DeviceDescription_ToString_Args, to_string_size);
TPJRT_FN(PJRT_DeviceDescription_ToString);

/* ======================================= devices ======================================= */

typedef struct PJRT_Device_GetDescription_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Device* device;
  PJRT_DeviceDescription* device_description; /* out, owned by the device */
} PJRT_Device_GetDescription_Args;
TPJRT_SIZED(PJRT_Device_GetDescription_Args, device_description);
TPJRT_FN(PJRT_Device_GetDescription);

typedef struct PJRT_Device_IsAddressable_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Device* device;
  bool is_addressable; /* out */
} PJRT_Device_IsAddressable_Args;
TPJRT_SIZED(PJRT_Device_IsAddressable_Args, is_addressable);
TPJRT_FN(PJRT_Device_IsAddressable);

typedef struct PJRT_Device_LocalHardwareId_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Device* device;
  int local_hardware_id; /* out, -1 if undefined */
} PJRT_Device_LocalHardwareId_Args;
TPJRT_SIZED(PJRT_Device_LocalHardwareId_Args, local_hardware_id);
TPJRT_FN(PJRT_Device_LocalHardwareId);

typedef struct PJRT_Device_AddressableMemories_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Device* device;
  PJRT_Memory* const* memories; /* out */
  size_t num_memories;          /* out */
} PJRT_Device_AddressableMemories_Args;
TPJRT_SIZED(PJRT_Device_AddressableMemories_Args, num_memories);
TPJRT_FN(PJRT_Device_AddressableMemories);

typedef struct PJRT_Device_DefaultMemory_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Device* device;
  PJRT_Memory* memory; /* out */
} PJRT_Device_DefaultMemory_Args;
TPJRT_SIZED(PJRT_Device_DefaultMemory_Args, memory);
TPJRT_FN(PJRT_Device_DefaultMemory);

/* Only bytes_in_use is mandatory; each optional value is followed by its "is set" flag.
 * Plugins may return UNIMPLEMENTED. */
typedef struct PJRT_Device_MemoryStats_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Device* device;
  int64_t bytes_in_use;
  int64_t peak_bytes_in_use;
  bool peak_bytes_in_use_is_set;
  int64_t num_allocs;
  bool num_allocs_is_set;
  int64_t largest_alloc_size;
  bool largest_alloc_size_is_set;
  int64_t bytes_limit;
  bool bytes_limit_is_set;
  int64_t bytes_reserved;
  bool bytes_reserved_is_set;
  int64_t peak_bytes_reserved;
  bool peak_bytes_reserved_is_set;
  int64_t bytes_reservable_limit;
  bool bytes_reservable_limit_is_set;
  int64_t largest_free_block_bytes;
  bool largest_free_block_bytes_is_set;
  int64_t pool_bytes;
  bool pool_bytes_is_set;
  int64_t peak_pool_bytes;
  bool peak_pool_bytes_is_set;
} PJRT_Device_MemoryStats_Args;
TPJRT_SIZED(PJRT_Device_MemoryStats_Args, peak_pool_bytes_is_set);
TPJRT_FN(PJRT_Device_MemoryStats);

/* The caller calls attributes_deleter(device_attributes) once when done with `attributes`. */
typedef struct PJRT_Device_GetAttributes_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Device* device;
  const PJRT_NamedValue* attributes;                                     /* out */
  size_t num_attributes;                                                 /* out */
  PJRT_Device_Attributes* device_attributes;                             /* out */
  void (*attributes_deleter)(PJRT_Device_Attributes* device_attributes); /* out */
} PJRT_Device_GetAttributes_Args;
TPJRT_SIZED(PJRT_Device_GetAttributes_Args, attributes_deleter);
TPJRT_FN(PJRT_Device_GetAttributes);

TPJRT_OPAQUE_FN(PJRT_Device_PoisonExecution);
TPJRT_OPAQUE_FN(PJRT_Device_CreateAsyncTrackingEvent);
TPJRT_OPAQUE_FN(PJRT_AsyncTrackingEvent_Destroy);

/* ====================================== memories ====================================== */

typedef struct PJRT_Memory_Id_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Memory* memory;
  int id; /* out */
} PJRT_Memory_Id_Args;
TPJRT_SIZED(PJRT_Memory_Id_Args, id);
TPJRT_FN(PJRT_Memory_Id);

typedef struct PJRT_Memory_Kind_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Memory* memory;
  const char* kind; /* out */
  size_t kind_size; /* out */
} PJRT_Memory_Kind_Args;
TPJRT_SIZED(PJRT_Memory_Kind_Args, kind_size);
TPJRT_FN(PJRT_Memory_Kind);

typedef struct PJRT_Memory_Kind_Id_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Memory* memory;
  int kind_id; /* out */
} PJRT_Memory_Kind_Id_Args;
TPJRT_SIZED(PJRT_Memory_Kind_Id_Args, kind_id);
TPJRT_FN(PJRT_Memory_Kind_Id);

typedef struct PJRT_Memory_DebugString_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Memory* memory;
  const char* debug_string; /* out */
  size_t debug_string_size; /* out */
} PJRT_Memory_DebugString_Args;
TPJRT_SIZED(PJRT_Memory_DebugString_Args, debug_string_size);
TPJRT_FN(PJRT_Memory_DebugString);

typedef struct PJRT_Memory_ToString_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Memory* memory;
  const char* to_string; /* out */
  size_t to_string_size; /* out */
} PJRT_Memory_ToString_Args;
TPJRT_SIZED(PJRT_Memory_ToString_Args, to_string_size);
TPJRT_FN(PJRT_Memory_ToString);

typedef struct PJRT_Memory_AddressableByDevices_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Memory* memory;
  PJRT_Device* const* devices; /* out */
  size_t num_devices;          /* out */
} PJRT_Memory_AddressableByDevices_Args;
TPJRT_SIZED(PJRT_Memory_AddressableByDevices_Args, num_devices);
TPJRT_FN(PJRT_Memory_AddressableByDevices);

/* =================================== execute context =================================== */

typedef struct PJRT_ExecuteContext_Create_Args {
  TPJRT_ARGS_HEAD;
  PJRT_ExecuteContext* context; /* out */
} PJRT_ExecuteContext_Create_Args;
TPJRT_SIZED(PJRT_ExecuteContext_Create_Args, context);
TPJRT_FN(PJRT_ExecuteContext_Create);

typedef struct PJRT_ExecuteContext_Destroy_Args {
  TPJRT_ARGS_HEAD;
  PJRT_ExecuteContext* context;
} PJRT_ExecuteContext_Destroy_Args;
TPJRT_SIZED(PJRT_ExecuteContext_Destroy_Args, context);
TPJRT_FN(PJRT_ExecuteContext_Destroy);

/* ===================================== executables ===================================== */
/* PJRT_LoadedExecutable: compiled and loaded on devices (what Client_Compile returns).
 * PJRT_Executable: the device-independent view; every one the caller obtains must be destroyed. */

typedef struct PJRT_Executable_Destroy_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Executable* executable;
} PJRT_Executable_Destroy_Args;
TPJRT_SIZED(PJRT_Executable_Destroy_Args, executable);
TPJRT_FN(PJRT_Executable_Destroy);

typedef struct PJRT_Executable_Name_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Executable* executable;
  const char* executable_name; /* out */
  size_t executable_name_size; /* out */
} PJRT_Executable_Name_Args;
TPJRT_SIZED(PJRT_Executable_Name_Args, executable_name_size);
TPJRT_FN(PJRT_Executable_Name);

typedef struct PJRT_Executable_NumReplicas_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Executable* executable;
  size_t num_replicas; /* out */
} PJRT_Executable_NumReplicas_Args;
TPJRT_SIZED(PJRT_Executable_NumReplicas_Args, num_replicas);
TPJRT_FN(PJRT_Executable_NumReplicas);

typedef struct PJRT_Executable_NumPartitions_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Executable* executable;
  size_t num_partitions; /* out */
} PJRT_Executable_NumPartitions_Args;
TPJRT_SIZED(PJRT_Executable_NumPartitions_Args, num_partitions);
TPJRT_FN(PJRT_Executable_NumPartitions);

/* Outputs per device. */
typedef struct PJRT_Executable_NumOutputs_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Executable* executable;
  size_t num_outputs; /* out */
} PJRT_Executable_NumOutputs_Args;
TPJRT_SIZED(PJRT_Executable_NumOutputs_Args, num_outputs);
TPJRT_FN(PJRT_Executable_NumOutputs);

typedef struct PJRT_Executable_SizeOfGeneratedCodeInBytes_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Executable* executable;
  int64_t size_in_bytes; /* out */
} PJRT_Executable_SizeOfGeneratedCodeInBytes_Args;
TPJRT_SIZED(PJRT_Executable_SizeOfGeneratedCodeInBytes_Args, size_in_bytes);
TPJRT_FN(PJRT_Executable_SizeOfGeneratedCodeInBytes);

/* Properties are owned by the executable. */
typedef struct PJRT_Executable_GetCostAnalysis_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Executable* executable;
  size_t num_properties;             /* out */
  const PJRT_NamedValue* properties; /* out */
} PJRT_Executable_GetCostAnalysis_Args;
TPJRT_SIZED(PJRT_Executable_GetCostAnalysis_Args, properties);
TPJRT_FN(PJRT_Executable_GetCostAnalysis);

typedef struct PJRT_Executable_OutputMemoryKinds_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Executable* executable;
  size_t num_outputs;               /* out */
  const char* const* memory_kinds;  /* out */
  const size_t* memory_kind_sizes;  /* out */
} PJRT_Executable_OutputMemoryKinds_Args;
TPJRT_SIZED(PJRT_Executable_OutputMemoryKinds_Args, memory_kind_sizes);
TPJRT_FN(PJRT_Executable_OutputMemoryKinds);

typedef struct PJRT_Executable_ParameterMemoryKinds_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Executable* executable;
  size_t num_parameters;            /* out */
  const char* const* memory_kinds;  /* out */
  const size_t* memory_kind_sizes;  /* out */
} PJRT_Executable_ParameterMemoryKinds_Args;
TPJRT_SIZED(PJRT_Executable_ParameterMemoryKinds_Args, memory_kind_sizes);
TPJRT_FN(PJRT_Executable_ParameterMemoryKinds);

/* Two calls: program->code NULL to learn code_size, then with a buffer that large. */
typedef struct PJRT_Executable_OptimizedProgram_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Executable* executable;
  PJRT_Program* program;
} PJRT_Executable_OptimizedProgram_Args;
TPJRT_SIZED(PJRT_Executable_OptimizedProgram_Args, program);
TPJRT_FN(PJRT_Executable_OptimizedProgram);

/* Call serialized_executable_deleter(serialized_executable) exactly once. */
typedef struct PJRT_Executable_Serialize_Args {
  TPJRT_ARGS_HEAD;
  const PJRT_Executable* executable;
  const char* serialized_bytes;                                                  /* out */
  size_t serialized_bytes_size;                                                  /* out */
  PJRT_SerializedExecutable* serialized_executable;                              /* out */
  void (*serialized_executable_deleter)(PJRT_SerializedExecutable* executable);  /* out */
} PJRT_Executable_Serialize_Args;
TPJRT_SIZED(PJRT_Executable_Serialize_Args, serialized_executable_deleter);
TPJRT_FN(PJRT_Executable_Serialize);

typedef struct PJRT_Executable_GetCompileOptions_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Executable* executable;
  const char* serialized_bytes;                                                     /* out */
  size_t serialized_bytes_size;                                                     /* out */
  PJRT_SerializedCompileOptions* serialized_compile_options;                        /* out */
  void (*serialized_compile_options_deleter)(PJRT_SerializedCompileOptions* opts);  /* out */
} PJRT_Executable_GetCompileOptions_Args;
TPJRT_SIZED(PJRT_Executable_GetCompileOptions_Args, serialized_compile_options_deleter);
TPJRT_FN(PJRT_Executable_GetCompileOptions);

/* overridden_serialized_compile_options: NULL = the options stored in the executable. */
typedef struct PJRT_Executable_DeserializeAndLoad_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Client* client;
  const char* serialized_executable;
  size_t serialized_executable_size;
  PJRT_LoadedExecutable* loaded_executable; /* out */
  const char* overridden_serialized_compile_options;
  size_t overridden_serialized_compile_options_size;
} PJRT_Executable_DeserializeAndLoad_Args;
TPJRT_SIZED(PJRT_Executable_DeserializeAndLoad_Args, overridden_serialized_compile_options_size);
TPJRT_FN(PJRT_Executable_DeserializeAndLoad);

typedef struct PJRT_Executable_Fingerprint_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Executable* executable;
  const char* executable_fingerprint; /* out, lives as long as the executable */
  size_t executable_fingerprint_size; /* out */
} PJRT_Executable_Fingerprint_Args;
TPJRT_SIZED(PJRT_Executable_Fingerprint_Args, executable_fingerprint_size);
TPJRT_FN(PJRT_Executable_Fingerprint);

/* All out. Device-default-memory sizes, then host-memory sizes, then totals. */
typedef struct PJRT_Executable_GetCompiledMemoryStats_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Executable* executable;
  int64_t generated_code_size_in_bytes;
  int64_t argument_size_in_bytes;
  int64_t output_size_in_bytes;
  int64_t alias_size_in_bytes;
  int64_t temp_size_in_bytes;
  int64_t host_generated_code_size_in_bytes;
  int64_t host_argument_size_in_bytes;
  int64_t host_output_size_in_bytes;
  int64_t host_alias_size_in_bytes;
  int64_t host_temp_size_in_bytes;
  int64_t peak_memory_in_bytes;     /* 0.72 */
  int64_t total_size_in_bytes;      /* 0.90 */
  int64_t total_allocation_bytes;   /* 0.104 */
  int64_t indefinite_allocations;   /* 0.104 */
  int64_t peak_unpadded_heap_bytes; /* 0.104 */
} PJRT_Executable_GetCompiledMemoryStats_Args;
TPJRT_SIZED(PJRT_Executable_GetCompiledMemoryStats_Args, peak_unpadded_heap_bytes);
TPJRT_FN(PJRT_Executable_GetCompiledMemoryStats);

/* Arrays are owned by the executable. */
typedef struct PJRT_Executable_OutputElementTypes_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Executable* executable;
  PJRT_Buffer_Type* output_types; /* out */
  size_t num_output_types;        /* out */
} PJRT_Executable_OutputElementTypes_Args;
TPJRT_SIZED(PJRT_Executable_OutputElementTypes_Args, num_output_types);
TPJRT_FN(PJRT_Executable_OutputElementTypes);

/* dims: every output's dims concatenated; dim_sizes: the rank of each output. */
typedef struct PJRT_Executable_OutputDimensions_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Executable* executable;
  size_t num_outputs;       /* out */
  const int64_t* dims;      /* out */
  const size_t* dim_sizes;  /* out */
} PJRT_Executable_OutputDimensions_Args;
TPJRT_SIZED(PJRT_Executable_OutputDimensions_Args, dim_sizes);
TPJRT_FN(PJRT_Executable_OutputDimensions);

typedef struct PJRT_LoadedExecutable_Destroy_Args {
  TPJRT_ARGS_HEAD;
  PJRT_LoadedExecutable* executable;
} PJRT_LoadedExecutable_Destroy_Args;
TPJRT_SIZED(PJRT_LoadedExecutable_Destroy_Args, executable);
TPJRT_FN(PJRT_LoadedExecutable_Destroy);

typedef struct PJRT_LoadedExecutable_GetExecutable_Args {
  TPJRT_ARGS_HEAD;
  PJRT_LoadedExecutable* loaded_executable;
  PJRT_Executable* executable; /* out, destroy with PJRT_Executable_Destroy */
} PJRT_LoadedExecutable_GetExecutable_Args;
TPJRT_SIZED(PJRT_LoadedExecutable_GetExecutable_Args, executable);
TPJRT_FN(PJRT_LoadedExecutable_GetExecutable);

/* In the order Execute's outer argument/output lists use. */
typedef struct PJRT_LoadedExecutable_AddressableDevices_Args {
  TPJRT_ARGS_HEAD;
  PJRT_LoadedExecutable* executable;
  PJRT_Device* const* addressable_devices; /* out */
  size_t num_addressable_devices;          /* out */
} PJRT_LoadedExecutable_AddressableDevices_Args;
TPJRT_SIZED(PJRT_LoadedExecutable_AddressableDevices_Args, num_addressable_devices);
TPJRT_FN(PJRT_LoadedExecutable_AddressableDevices);

typedef struct PJRT_LogicalDeviceIds {
  int replica;
  int partition;
} PJRT_LogicalDeviceIds;

typedef struct PJRT_LoadedExecutable_AddressableDeviceLogicalIds_Args {
  TPJRT_ARGS_HEAD;
  PJRT_LoadedExecutable* executable;
  PJRT_LogicalDeviceIds* addressable_device_logical_ids; /* out */
  size_t num_addressable_device_logical_ids;             /* out */
} PJRT_LoadedExecutable_AddressableDeviceLogicalIds_Args;
TPJRT_SIZED(PJRT_LoadedExecutable_AddressableDeviceLogicalIds_Args, num_addressable_device_logical_ids);
TPJRT_FN(PJRT_LoadedExecutable_AddressableDeviceLogicalIds);

typedef struct PJRT_LoadedExecutable_Delete_Args {
  TPJRT_ARGS_HEAD;
  PJRT_LoadedExecutable* executable;
} PJRT_LoadedExecutable_Delete_Args;
TPJRT_SIZED(PJRT_LoadedExecutable_Delete_Args, executable);
TPJRT_FN(PJRT_LoadedExecutable_Delete);

typedef struct PJRT_LoadedExecutable_IsDeleted_Args {
  TPJRT_ARGS_HEAD;
  PJRT_LoadedExecutable* executable;
  bool is_deleted; /* out */
} PJRT_LoadedExecutable_IsDeleted_Args;
TPJRT_SIZED(PJRT_LoadedExecutable_IsDeleted_Args, is_deleted);
TPJRT_FN(PJRT_LoadedExecutable_IsDeleted);

/* Deprecated in favour of PJRT_Executable_Fingerprint. */
typedef struct PJRT_LoadedExecutable_Fingerprint_Args {
  TPJRT_ARGS_HEAD;
  PJRT_LoadedExecutable* executable;
  const char* executable_fingerprint; /* out */
  size_t executable_fingerprint_size; /* out */
} PJRT_LoadedExecutable_Fingerprint_Args;
TPJRT_SIZED(PJRT_LoadedExecutable_Fingerprint_Args, executable_fingerprint_size);
TPJRT_FN(PJRT_LoadedExecutable_Fingerprint);

/* A serialized DeviceAssignmentProto; call the deleter once. */
typedef struct PJRT_LoadedExecutable_GetDeviceAssignment_Args {
  TPJRT_ARGS_HEAD;
  PJRT_LoadedExecutable* executable;
  const char* serialized_bytes;                                                      /* out */
  size_t serialized_bytes_size;                                                      /* out */
  PJRT_DeviceAssignmentSerialized* serialized_device_assignment;                     /* out */
  void (*serialized_device_assignment_deleter)(PJRT_DeviceAssignmentSerialized* da); /* out */
} PJRT_LoadedExecutable_GetDeviceAssignment_Args;
TPJRT_SIZED(PJRT_LoadedExecutable_GetDeviceAssignment_Args, serialized_device_assignment_deleter);
TPJRT_FN(PJRT_LoadedExecutable_GetDeviceAssignment);

/* ======================================= execute ======================================= */

/* Host callbacks for send/recv ops. These two structs have no args header. */
typedef struct PJRT_Chunk {
  void* data;
  size_t size;
  void (*deleter)(void* data, void* deleter_arg);
  void* deleter_arg;
} PJRT_Chunk;

/* Must call chunk->deleter(chunk->data, chunk->deleter_arg) when done with the chunk. */
typedef PJRT_Error* (*PJRT_SendCallback)(PJRT_Chunk* chunk, PJRT_CallbackError* callback_error,
                                         size_t total_size_in_bytes, bool done, void* user_arg);
/* Owns `stream` and must destroy it. */
typedef void (*PJRT_RecvCallback)(PJRT_CopyToDeviceStream* stream, void* user_arg);

typedef struct PJRT_SendCallbackInfo {
  int64_t channel_id;
  void* user_arg;
  PJRT_SendCallback send_callback;
} PJRT_SendCallbackInfo;
TPJRT_SIZED(PJRT_SendCallbackInfo, send_callback);

typedef struct PJRT_RecvCallbackInfo {
  int64_t channel_id;
  void* user_arg;
  PJRT_RecvCallback recv_callback;
} PJRT_RecvCallbackInfo;
TPJRT_SIZED(PJRT_RecvCallbackInfo, recv_callback);

/* A plain run zero-fills everything. STRUCT_SIZE history: 52, 72 (0.39), 80 (0.64), 88 (0.76),
 * 112 (0.78), 120 (0.97). */
typedef struct PJRT_ExecuteOptions {
  TPJRT_ARGS_HEAD;
  PJRT_SendCallbackInfo** send_callbacks; /* [num_devices][num_send_ops] */
  PJRT_RecvCallbackInfo** recv_callbacks; /* [num_devices][num_recv_ops] */
  size_t num_send_ops;
  size_t num_recv_ops;
  int launch_id;
  const int64_t* non_donatable_input_indices;
  size_t num_non_donatable_input_indices;
  PJRT_ExecuteContext* context;
  const char* call_location; /* NUL-terminated, valid during the call */
  size_t num_tasks;
  int* task_ids;
  int64_t* incarnation_ids;
  PJRT_MultiSlice_Config* multi_slice_config;
} PJRT_ExecuteOptions;
TPJRT_SIZED(PJRT_ExecuteOptions, multi_slice_config);

/* `options` must not be NULL. argument_lists is [num_devices][num_args]; output_lists is
 * [num_devices][num_outputs], caller-allocated, filled with new buffers the caller destroys.
 * device_complete_events: NULL or num_devices slots. execute_device: NULL = the compiled devices;
 * otherwise num_devices must be 1. */
typedef struct PJRT_LoadedExecutable_Execute_Args {
  TPJRT_ARGS_HEAD;
  PJRT_LoadedExecutable* executable;
  PJRT_ExecuteOptions* options;
  PJRT_Buffer* const* const* argument_lists;
  size_t num_devices;
  size_t num_args;
  PJRT_Buffer** const* output_lists;
  PJRT_Event** device_complete_events;
  PJRT_Device* execute_device;
} PJRT_LoadedExecutable_Execute_Args;
TPJRT_SIZED(PJRT_LoadedExecutable_Execute_Args, execute_device);
TPJRT_FN(PJRT_LoadedExecutable_Execute);

/* ======================================= buffers ======================================= */

typedef struct PJRT_Buffer_Destroy_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Buffer* buffer;
} PJRT_Buffer_Destroy_Args;
TPJRT_SIZED(PJRT_Buffer_Destroy_Args, buffer);
TPJRT_FN(PJRT_Buffer_Destroy);

typedef struct PJRT_Buffer_ElementType_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Buffer* buffer;
  PJRT_Buffer_Type type; /* out */
} PJRT_Buffer_ElementType_Args;
TPJRT_SIZED(PJRT_Buffer_ElementType_Args, type);
TPJRT_FN(PJRT_Buffer_ElementType);

typedef struct PJRT_Buffer_Dimensions_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Buffer* buffer;
  const int64_t* dims; /* out, owned by the buffer */
  size_t num_dims;     /* out */
} PJRT_Buffer_Dimensions_Args;
TPJRT_SIZED(PJRT_Buffer_Dimensions_Args, num_dims);
TPJRT_FN(PJRT_Buffer_Dimensions);

typedef struct PJRT_Buffer_UnpaddedDimensions_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Buffer* buffer;
  const int64_t* unpadded_dims; /* out */
  size_t num_dims;              /* out */
} PJRT_Buffer_UnpaddedDimensions_Args;
TPJRT_SIZED(PJRT_Buffer_UnpaddedDimensions_Args, num_dims);
TPJRT_FN(PJRT_Buffer_UnpaddedDimensions);

typedef struct PJRT_Buffer_DynamicDimensionIndices_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Buffer* buffer;
  const size_t* dynamic_dim_indices; /* out */
  size_t num_dynamic_dims;           /* out */
} PJRT_Buffer_DynamicDimensionIndices_Args;
TPJRT_SIZED(PJRT_Buffer_DynamicDimensionIndices_Args, num_dynamic_dims);
TPJRT_FN(PJRT_Buffer_DynamicDimensionIndices);

/* Deprecated since 0.54 in favour of the layouts extension. */
typedef struct PJRT_Buffer_GetMemoryLayout_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Buffer* buffer;
  PJRT_Buffer_MemoryLayout layout; /* out, data owned by the buffer */
} PJRT_Buffer_GetMemoryLayout_Args;
TPJRT_SIZED(PJRT_Buffer_GetMemoryLayout_Args, layout);
TPJRT_FN(PJRT_Buffer_GetMemoryLayout);

/* Two calls: dst NULL to learn dst_size, then with dst of at least that size. The copy is
 * asynchronous: await `event`, then destroy it. */
typedef struct PJRT_Buffer_ToHostBuffer_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Buffer* src;
  PJRT_Buffer_MemoryLayout* host_layout; /* NULL = the buffer's layout */
  void* dst;
  size_t dst_size;
  PJRT_Event* event; /* out */
} PJRT_Buffer_ToHostBuffer_Args;
TPJRT_SIZED(PJRT_Buffer_ToHostBuffer_Args, event);
TPJRT_FN(PJRT_Buffer_ToHostBuffer);

typedef struct PJRT_Buffer_OnDeviceSizeInBytes_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Buffer* buffer;
  size_t on_device_size_in_bytes; /* out */
} PJRT_Buffer_OnDeviceSizeInBytes_Args;
TPJRT_SIZED(PJRT_Buffer_OnDeviceSizeInBytes_Args, on_device_size_in_bytes);
TPJRT_FN(PJRT_Buffer_OnDeviceSizeInBytes);

typedef struct PJRT_Buffer_Delete_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Buffer* buffer;
} PJRT_Buffer_Delete_Args;
TPJRT_SIZED(PJRT_Buffer_Delete_Args, buffer);
TPJRT_FN(PJRT_Buffer_Delete);

typedef struct PJRT_Buffer_IsDeleted_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Buffer* buffer;
  bool is_deleted; /* out; also true after donation */
} PJRT_Buffer_IsDeleted_Args;
TPJRT_SIZED(PJRT_Buffer_IsDeleted_Args, is_deleted);
TPJRT_FN(PJRT_Buffer_IsDeleted);

typedef struct PJRT_Buffer_CopyRawToHost_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Buffer* buffer;
  void* dst;
  int64_t offset;
  int64_t transfer_size;
  PJRT_Event* event; /* out */
} PJRT_Buffer_CopyRawToHost_Args;
TPJRT_SIZED(PJRT_Buffer_CopyRawToHost_Args, event);
TPJRT_FN(PJRT_Buffer_CopyRawToHost);

TPJRT_OPAQUE_FN(PJRT_Buffer_CopyRawToHostFuture);
TPJRT_OPAQUE_FN(PJRT_Buffer_DonateWithControlDependency);

/* Same client only; an error if the buffer is already on dst_device. */
typedef struct PJRT_Buffer_CopyToDevice_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Buffer* buffer;
  PJRT_Device* dst_device;
  PJRT_Buffer* dst_buffer; /* out */
} PJRT_Buffer_CopyToDevice_Args;
TPJRT_SIZED(PJRT_Buffer_CopyToDevice_Args, dst_buffer);
TPJRT_FN(PJRT_Buffer_CopyToDevice);

typedef struct PJRT_Buffer_CopyToMemory_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Buffer* buffer;
  PJRT_Memory* dst_memory;
  PJRT_Buffer* dst_buffer; /* out */
} PJRT_Buffer_CopyToMemory_Args;
TPJRT_SIZED(PJRT_Buffer_CopyToMemory_Args, dst_buffer);
TPJRT_FN(PJRT_Buffer_CopyToMemory);

typedef struct PJRT_Buffer_Bitcast_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Buffer* buffer;
  PJRT_Buffer_Type element_type;
  const int64_t* dims;
  size_t num_dims;
  PJRT_Buffer_MemoryLayout* device_layout; /* NULL = default layout */
  PJRT_Buffer* out_buffer;                 /* out */
} PJRT_Buffer_Bitcast_Args;
TPJRT_SIZED(PJRT_Buffer_Bitcast_Args, out_buffer);
TPJRT_FN(PJRT_Buffer_Bitcast);

typedef struct PJRT_Buffer_IsOnCpu_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Buffer* buffer;
  bool is_on_cpu; /* out */
} PJRT_Buffer_IsOnCpu_Args;
TPJRT_SIZED(PJRT_Buffer_IsOnCpu_Args, is_on_cpu);
TPJRT_FN(PJRT_Buffer_IsOnCpu);

typedef struct PJRT_Buffer_Device_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Buffer* buffer;
  PJRT_Device* device; /* out */
} PJRT_Buffer_Device_Args;
TPJRT_SIZED(PJRT_Buffer_Device_Args, device);
TPJRT_FN(PJRT_Buffer_Device);

typedef struct PJRT_Buffer_Memory_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Buffer* buffer;
  PJRT_Memory* memory; /* out */
} PJRT_Buffer_Memory_Args;
TPJRT_SIZED(PJRT_Buffer_Memory_Args, memory);
TPJRT_FN(PJRT_Buffer_Memory);

/* Fires when the data is ready or has failed; at once with an error on a deleted buffer. */
typedef struct PJRT_Buffer_ReadyEvent_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Buffer* buffer;
  PJRT_Event* event; /* out */
} PJRT_Buffer_ReadyEvent_Args;
TPJRT_SIZED(PJRT_Buffer_ReadyEvent_Args, event);
TPJRT_FN(PJRT_Buffer_ReadyEvent);

typedef struct PJRT_Buffer_UnsafePointer_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Buffer* buffer;
  uintptr_t buffer_pointer; /* out */
} PJRT_Buffer_UnsafePointer_Args;
TPJRT_SIZED(PJRT_Buffer_UnsafePointer_Args, buffer_pointer);
TPJRT_FN(PJRT_Buffer_UnsafePointer);

typedef struct PJRT_Buffer_IncreaseExternalReferenceCount_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Buffer* buffer;
} PJRT_Buffer_IncreaseExternalReferenceCount_Args;
TPJRT_SIZED(PJRT_Buffer_IncreaseExternalReferenceCount_Args, buffer);
TPJRT_FN(PJRT_Buffer_IncreaseExternalReferenceCount);

typedef struct PJRT_Buffer_DecreaseExternalReferenceCount_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Buffer* buffer;
} PJRT_Buffer_DecreaseExternalReferenceCount_Args;
TPJRT_SIZED(PJRT_Buffer_DecreaseExternalReferenceCount_Args, buffer);
TPJRT_FN(PJRT_Buffer_DecreaseExternalReferenceCount);

typedef struct PJRT_Buffer_OpaqueDeviceMemoryDataPointer_Args {
  TPJRT_ARGS_HEAD;
  PJRT_Buffer* buffer;
  void* device_memory_ptr; /* out */
} PJRT_Buffer_OpaqueDeviceMemoryDataPointer_Args;
TPJRT_SIZED(PJRT_Buffer_OpaqueDeviceMemoryDataPointer_Args, device_memory_ptr);
TPJRT_FN(PJRT_Buffer_OpaqueDeviceMemoryDataPointer);

/* ================================= copy-to-device streams ================================= */

typedef struct PJRT_CopyToDeviceStream_Destroy_Args {
  TPJRT_ARGS_HEAD;
  PJRT_CopyToDeviceStream* stream;
} PJRT_CopyToDeviceStream_Destroy_Args;
TPJRT_SIZED(PJRT_CopyToDeviceStream_Destroy_Args, stream);
TPJRT_FN(PJRT_CopyToDeviceStream_Destroy);

typedef struct PJRT_CopyToDeviceStream_AddChunk_Args {
  TPJRT_ARGS_HEAD;
  PJRT_CopyToDeviceStream* stream;
  PJRT_Chunk* chunk;              /* ownership passes to the plugin */
  PJRT_Event* transfer_complete;  /* out */
} PJRT_CopyToDeviceStream_AddChunk_Args;
TPJRT_SIZED(PJRT_CopyToDeviceStream_AddChunk_Args, transfer_complete);
TPJRT_FN(PJRT_CopyToDeviceStream_AddChunk);

typedef struct PJRT_CopyToDeviceStream_TotalBytes_Args {
  TPJRT_ARGS_HEAD;
  PJRT_CopyToDeviceStream* stream;
  int64_t total_bytes; /* out */
} PJRT_CopyToDeviceStream_TotalBytes_Args;
TPJRT_SIZED(PJRT_CopyToDeviceStream_TotalBytes_Args, total_bytes);
TPJRT_FN(PJRT_CopyToDeviceStream_TotalBytes);

typedef struct PJRT_CopyToDeviceStream_GranuleSize_Args {
  TPJRT_ARGS_HEAD;
  PJRT_CopyToDeviceStream* stream;
  int64_t granule_size_in_bytes; /* out */
} PJRT_CopyToDeviceStream_GranuleSize_Args;
TPJRT_SIZED(PJRT_CopyToDeviceStream_GranuleSize_Args, granule_size_in_bytes);
TPJRT_FN(PJRT_CopyToDeviceStream_GranuleSize);

typedef struct PJRT_CopyToDeviceStream_CurrentBytes_Args {
  TPJRT_ARGS_HEAD;
  PJRT_CopyToDeviceStream* stream;
  int64_t current_bytes; /* out */
} PJRT_CopyToDeviceStream_CurrentBytes_Args;
TPJRT_SIZED(PJRT_CopyToDeviceStream_CurrentBytes_Args, current_bytes);
TPJRT_FN(PJRT_CopyToDeviceStream_CurrentBytes);

/* =============================== topologies and AOT compile =============================== */

/* create_options are plugin-specific (libtpu wants chips_per_host_bounds for one-chip names). */
typedef struct PJRT_TopologyDescription_Create_Args {
  TPJRT_ARGS_HEAD;
  const char* topology_name;
  size_t topology_name_size;
  const PJRT_NamedValue* create_options;
  size_t num_options;
  PJRT_TopologyDescription* topology; /* out */
} PJRT_TopologyDescription_Create_Args;
TPJRT_SIZED(PJRT_TopologyDescription_Create_Args, topology);
TPJRT_FN(PJRT_TopologyDescription_Create);

typedef struct PJRT_TopologyDescription_Destroy_Args {
  TPJRT_ARGS_HEAD;
  PJRT_TopologyDescription* topology;
} PJRT_TopologyDescription_Destroy_Args;
TPJRT_SIZED(PJRT_TopologyDescription_Destroy_Args, topology);
TPJRT_FN(PJRT_TopologyDescription_Destroy);

typedef struct PJRT_TopologyDescription_PlatformName_Args {
  TPJRT_ARGS_HEAD;
  const PJRT_TopologyDescription* topology;
  const char* platform_name; /* out */
  size_t platform_name_size; /* out */
} PJRT_TopologyDescription_PlatformName_Args;
TPJRT_SIZED(PJRT_TopologyDescription_PlatformName_Args, platform_name_size);
TPJRT_FN(PJRT_TopologyDescription_PlatformName);

typedef struct PJRT_TopologyDescription_PlatformVersion_Args {
  TPJRT_ARGS_HEAD;
  PJRT_TopologyDescription* topology;
  const char* platform_version; /* out */
  size_t platform_version_size; /* out */
} PJRT_TopologyDescription_PlatformVersion_Args;
TPJRT_SIZED(PJRT_TopologyDescription_PlatformVersion_Args, platform_version_size);
TPJRT_FN(PJRT_TopologyDescription_PlatformVersion);

typedef struct PJRT_TopologyDescription_GetDeviceDescriptions_Args {
  TPJRT_ARGS_HEAD;
  const PJRT_TopologyDescription* topology;
  PJRT_DeviceDescription* const* descriptions; /* out */
  size_t num_descriptions;                     /* out */
} PJRT_TopologyDescription_GetDeviceDescriptions_Args;
TPJRT_SIZED(PJRT_TopologyDescription_GetDeviceDescriptions_Args, num_descriptions);
TPJRT_FN(PJRT_TopologyDescription_GetDeviceDescriptions);

typedef struct PJRT_TopologyDescription_Serialize_Args {
  TPJRT_ARGS_HEAD;
  PJRT_TopologyDescription* topology;
  const char* serialized_bytes;                                             /* out */
  size_t serialized_bytes_size;                                             /* out */
  PJRT_SerializedTopology* serialized_topology;                             /* out */
  void (*serialized_topology_deleter)(PJRT_SerializedTopology* topology);   /* out */
} PJRT_TopologyDescription_Serialize_Args;
TPJRT_SIZED(PJRT_TopologyDescription_Serialize_Args, serialized_topology_deleter);
TPJRT_FN(PJRT_TopologyDescription_Serialize);

typedef struct PJRT_TopologyDescription_Deserialize_Args {
  TPJRT_ARGS_HEAD;
  const char* serialized_topology;
  size_t serialized_topology_size;
  PJRT_TopologyDescription* topology; /* out */
} PJRT_TopologyDescription_Deserialize_Args;
TPJRT_SIZED(PJRT_TopologyDescription_Deserialize_Args, topology);
TPJRT_FN(PJRT_TopologyDescription_Deserialize);

typedef struct PJRT_TopologyDescription_Attributes_Args {
  TPJRT_ARGS_HEAD;
  PJRT_TopologyDescription* topology;
  const PJRT_NamedValue* attributes; /* out */
  size_t num_attributes;             /* out */
} PJRT_TopologyDescription_Attributes_Args;
TPJRT_SIZED(PJRT_TopologyDescription_Attributes_Args, num_attributes);
TPJRT_FN(PJRT_TopologyDescription_Attributes);

typedef struct PJRT_TopologyDescription_Fingerprint_Args {
  TPJRT_ARGS_HEAD;
  const PJRT_TopologyDescription* topology;
  uint64_t fingerprint; /* out */
} PJRT_TopologyDescription_Fingerprint_Args;
TPJRT_SIZED(PJRT_TopologyDescription_Fingerprint_Args, fingerprint);
TPJRT_FN(PJRT_TopologyDescription_Fingerprint);

/* Ahead-of-time compile for a topology; `client` may be NULL. The result is a PJRT_Executable. */
typedef struct PJRT_Compile_Args {
  TPJRT_ARGS_HEAD;
  const PJRT_TopologyDescription* topology;
  const PJRT_Program* program;
  const char* compile_options;
  size_t compile_options_size;
  PJRT_Client* client;
  PJRT_Executable* executable; /* out */
} PJRT_Compile_Args;
TPJRT_SIZED(PJRT_Compile_Args, executable);
TPJRT_FN(PJRT_Compile);

/* ===================================== the table ===================================== */

/* X(slot, function, since): every function slot in ABI order, with the minor version that added
 * it (0 = in the base set that every plugin from 0.29 on has). Slot 100 moved at 0.57, so it is
 * gated at 57; the alias-buffer pair at 77. */
#define PJRT_API_SLOTS(X)                                          \
  X(0, PJRT_Error_Destroy, 0)                                      \
  X(1, PJRT_Error_Message, 0)                                      \
  X(2, PJRT_Error_GetCode, 0)                                      \
  X(3, PJRT_Plugin_Initialize, 0)                                  \
  X(4, PJRT_Plugin_Attributes, 0)                                  \
  X(5, PJRT_Event_Destroy, 0)                                      \
  X(6, PJRT_Event_IsReady, 0)                                      \
  X(7, PJRT_Event_Error, 0)                                        \
  X(8, PJRT_Event_Await, 0)                                        \
  X(9, PJRT_Event_OnReady, 0)                                      \
  X(10, PJRT_Client_Create, 0)                                     \
  X(11, PJRT_Client_Destroy, 0)                                    \
  X(12, PJRT_Client_PlatformName, 0)                               \
  X(13, PJRT_Client_ProcessIndex, 0)                               \
  X(14, PJRT_Client_PlatformVersion, 0)                            \
  X(15, PJRT_Client_Devices, 0)                                    \
  X(16, PJRT_Client_AddressableDevices, 0)                         \
  X(17, PJRT_Client_LookupDevice, 0)                               \
  X(18, PJRT_Client_LookupAddressableDevice, 0)                    \
  X(19, PJRT_Client_AddressableMemories, 0)                        \
  X(20, PJRT_Client_Compile, 0)                                    \
  X(21, PJRT_Client_DefaultDeviceAssignment, 0)                    \
  X(22, PJRT_Client_BufferFromHostBuffer, 0)                       \
  X(23, PJRT_DeviceDescription_Id, 0)                              \
  X(24, PJRT_DeviceDescription_ProcessIndex, 0)                    \
  X(25, PJRT_DeviceDescription_Attributes, 0)                      \
  X(26, PJRT_DeviceDescription_Kind, 0)                            \
  X(27, PJRT_DeviceDescription_DebugString, 0)                     \
  X(28, PJRT_DeviceDescription_ToString, 0)                        \
  X(29, PJRT_Device_GetDescription, 0)                             \
  X(30, PJRT_Device_IsAddressable, 0)                              \
  X(31, PJRT_Device_LocalHardwareId, 0)                            \
  X(32, PJRT_Device_AddressableMemories, 0)                        \
  X(33, PJRT_Device_DefaultMemory, 0)                              \
  X(34, PJRT_Device_MemoryStats, 0)                                \
  X(35, PJRT_Memory_Id, 0)                                         \
  X(36, PJRT_Memory_Kind, 0)                                       \
  X(37, PJRT_Memory_DebugString, 0)                                \
  X(38, PJRT_Memory_ToString, 0)                                   \
  X(39, PJRT_Memory_AddressableByDevices, 0)                       \
  X(40, PJRT_Executable_Destroy, 0)                                \
  X(41, PJRT_Executable_Name, 0)                                   \
  X(42, PJRT_Executable_NumReplicas, 0)                            \
  X(43, PJRT_Executable_NumPartitions, 0)                          \
  X(44, PJRT_Executable_NumOutputs, 0)                             \
  X(45, PJRT_Executable_SizeOfGeneratedCodeInBytes, 0)             \
  X(46, PJRT_Executable_GetCostAnalysis, 0)                        \
  X(47, PJRT_Executable_OutputMemoryKinds, 0)                      \
  X(48, PJRT_Executable_OptimizedProgram, 0)                       \
  X(49, PJRT_Executable_Serialize, 0)                              \
  X(50, PJRT_LoadedExecutable_Destroy, 0)                          \
  X(51, PJRT_LoadedExecutable_GetExecutable, 0)                    \
  X(52, PJRT_LoadedExecutable_AddressableDevices, 0)               \
  X(53, PJRT_LoadedExecutable_Delete, 0)                           \
  X(54, PJRT_LoadedExecutable_IsDeleted, 0)                        \
  X(55, PJRT_LoadedExecutable_Execute, 0)                          \
  X(56, PJRT_Executable_DeserializeAndLoad, 0)                     \
  X(57, PJRT_LoadedExecutable_Fingerprint, 0)                      \
  X(58, PJRT_Buffer_Destroy, 0)                                    \
  X(59, PJRT_Buffer_ElementType, 0)                                \
  X(60, PJRT_Buffer_Dimensions, 0)                                 \
  X(61, PJRT_Buffer_UnpaddedDimensions, 0)                         \
  X(62, PJRT_Buffer_DynamicDimensionIndices, 0)                    \
  X(63, PJRT_Buffer_GetMemoryLayout, 0)                            \
  X(64, PJRT_Buffer_OnDeviceSizeInBytes, 0)                        \
  X(65, PJRT_Buffer_Device, 0)                                     \
  X(66, PJRT_Buffer_Memory, 0)                                     \
  X(67, PJRT_Buffer_Delete, 0)                                     \
  X(68, PJRT_Buffer_IsDeleted, 0)                                  \
  X(69, PJRT_Buffer_CopyToDevice, 0)                               \
  X(70, PJRT_Buffer_ToHostBuffer, 0)                               \
  X(71, PJRT_Buffer_IsOnCpu, 0)                                    \
  X(72, PJRT_Buffer_ReadyEvent, 0)                                 \
  X(73, PJRT_Buffer_UnsafePointer, 0)                              \
  X(74, PJRT_Buffer_IncreaseExternalReferenceCount, 0)             \
  X(75, PJRT_Buffer_DecreaseExternalReferenceCount, 0)             \
  X(76, PJRT_Buffer_OpaqueDeviceMemoryDataPointer, 0)              \
  X(77, PJRT_CopyToDeviceStream_Destroy, 0)                        \
  X(78, PJRT_CopyToDeviceStream_AddChunk, 0)                       \
  X(79, PJRT_CopyToDeviceStream_TotalBytes, 0)                     \
  X(80, PJRT_CopyToDeviceStream_GranuleSize, 0)                    \
  X(81, PJRT_CopyToDeviceStream_CurrentBytes, 0)                   \
  X(82, PJRT_TopologyDescription_Create, 0)                        \
  X(83, PJRT_TopologyDescription_Destroy, 0)                       \
  X(84, PJRT_TopologyDescription_PlatformName, 0)                  \
  X(85, PJRT_TopologyDescription_PlatformVersion, 0)               \
  X(86, PJRT_TopologyDescription_GetDeviceDescriptions, 0)         \
  X(87, PJRT_TopologyDescription_Serialize, 0)                     \
  X(88, PJRT_TopologyDescription_Attributes, 0)                    \
  X(89, PJRT_Compile, 0)                                           \
  X(90, PJRT_Executable_OutputElementTypes, 29)                    \
  X(91, PJRT_Executable_OutputDimensions, 29)                      \
  X(92, PJRT_Buffer_CopyToMemory, 32)                              \
  X(93, PJRT_Client_CreateViewOfDeviceBuffer, 33)                  \
  X(94, PJRT_Executable_Fingerprint, 35)                           \
  X(95, PJRT_Client_TopologyDescription, 36)                       \
  X(96, PJRT_Executable_GetCompiledMemoryStats, 40)                \
  X(97, PJRT_Memory_Kind_Id, 48)                                   \
  X(98, PJRT_ExecuteContext_Create, 52)                            \
  X(99, PJRT_ExecuteContext_Destroy, 52)                           \
  X(100, PJRT_Buffer_CopyRawToHost, 57)                            \
  X(101, PJRT_AsyncHostToDeviceTransferManager_Destroy, 60)        \
  X(102, PJRT_AsyncHostToDeviceTransferManager_TransferData, 60)   \
  X(103, PJRT_Client_CreateBuffersForAsyncHostToDevice, 60)        \
  X(104, PJRT_AsyncHostToDeviceTransferManager_RetrieveBuffer, 62) \
  X(105, PJRT_AsyncHostToDeviceTransferManager_Device, 62)         \
  X(106, PJRT_AsyncHostToDeviceTransferManager_BufferCount, 62)    \
  X(107, PJRT_AsyncHostToDeviceTransferManager_BufferSize, 62)     \
  X(108, PJRT_AsyncHostToDeviceTransferManager_SetBufferError, 62) \
  X(109, PJRT_AsyncHostToDeviceTransferManager_AddMetadata, 62)    \
  X(110, PJRT_Client_DmaMap, 67)                                   \
  X(111, PJRT_Client_DmaUnmap, 67)                                 \
  X(112, PJRT_Client_CreateUninitializedBuffer, 69)                \
  X(113, PJRT_Client_UpdateGlobalProcessInfo, 73)                  \
  X(114, PJRT_TopologyDescription_Deserialize, 75)                 \
  X(115, PJRT_Client_CreateAliasBuffer, 77)                        \
  X(116, PJRT_Client_FulfillAliasBuffer, 77)                       \
  X(117, PJRT_LoadedExecutable_GetDeviceAssignment, 79)            \
  X(118, PJRT_Client_CreateErrorBuffer, 82)                        \
  X(119, PJRT_AsyncHostToDeviceTransferManager_TransferLiteral, 83) \
  X(120, PJRT_Buffer_CopyRawToHostFuture, 84)                      \
  X(121, PJRT_Device_PoisonExecution, 85)                          \
  X(122, PJRT_Device_CreateAsyncTrackingEvent, 86)                 \
  X(123, PJRT_AsyncTrackingEvent_Destroy, 86)                      \
  X(124, PJRT_Executable_GetCompileOptions, 87)                    \
  X(125, PJRT_Buffer_DonateWithControlDependency, 88)              \
  X(126, PJRT_Event_Create, 89)                                    \
  X(127, PJRT_Event_Set, 89)                                       \
  X(128, PJRT_Device_GetAttributes, 92)                            \
  X(129, PJRT_Client_Load, 95)                                     \
  X(130, PJRT_LoadedExecutable_AddressableDeviceLogicalIds, 96)    \
  X(131, PJRT_Buffer_Bitcast, 98)                                  \
  X(132, PJRT_Error_ForEachPayload, 99)                            \
  X(133, PJRT_TopologyDescription_Fingerprint, 101)                \
  X(134, PJRT_Executable_ParameterMemoryKinds, 102)

#ifdef __cplusplus
/* Qualified, because a member named like its type would change the name's meaning in C++. */
#define TPJRT_API_FIELD(slot, name, since) ::name* name;
#else
#define TPJRT_API_FIELD(slot, name, since) name* name;
#endif
typedef struct PJRT_Api {
  size_t struct_size; /* 40 + 8 * number of slots the plugin fills */
  PJRT_Extension_Base* extension_start;
  PJRT_Api_Version pjrt_api_version;
  PJRT_API_SLOTS(TPJRT_API_FIELD)
} PJRT_Api;
#undef TPJRT_API_FIELD

/* <function>_SLOT and <function>_SINCE_MINOR for every slot, e.g. PJRT_Client_Create_SLOT. */
#define TPJRT_API_SLOT_ENUM(slot, name, since) name##_SLOT = (slot), name##_SINCE_MINOR = (since),
enum { PJRT_API_SLOTS(TPJRT_API_SLOT_ENUM) PJRT_Api_NUM_SLOTS = 135 };
#undef TPJRT_API_SLOT_ENUM

enum { PJRT_Api_FIRST_SLOT_OFFSET = 40 };
TPJRT_SIZED(PJRT_Api, PJRT_Executable_ParameterMemoryKinds);

/* True when `api` (a table from GetPjrtApi) has a usable function in `slot`: the table reaches
 * that far, the plugin's major is ours and its minor is at least `since_minor`, and the pointer
 * is non-NULL. Use with the generated constants: PJRT_Api_HasSlot(api, X_SLOT, X_SINCE_MINOR). */
static inline bool PJRT_Api_HasSlot(const PJRT_Api* api, size_t slot, int since_minor) {
  size_t offset = PJRT_Api_FIRST_SLOT_OFFSET + 8 * slot;
  uintptr_t fn = 0;
  if (api == NULL || api->struct_size < offset + 8) return false;
  if (api->pjrt_api_version.major_version != PJRT_API_MAJOR) return false;
  if (api->pjrt_api_version.minor_version < since_minor) return false;
  memcpy(&fn, (const char*)api + offset, sizeof fn);
  return fn != 0;
}

/* ============================ layout checks (LP64, from the fact sheet) ============================ */

TPJRT_ASSERT(sizeof(void*) == 8 && sizeof(size_t) == 8, "this header describes the LP64 ABI only");

#define TPJRT_API_SLOT_CHECK(slot, name, since) \
  TPJRT_ASSERT(offsetof(PJRT_Api, name) == PJRT_Api_FIRST_SLOT_OFFSET + 8 * (slot), #name " slot");
PJRT_API_SLOTS(TPJRT_API_SLOT_CHECK)
#undef TPJRT_API_SLOT_CHECK

TPJRT_ASSERT(offsetof(PJRT_Api, pjrt_api_version) == 16, "PJRT_Api.pjrt_api_version");
TPJRT_ASSERT(offsetof(PJRT_Api, PJRT_Error_Destroy) == 40, "slot 0");
TPJRT_ASSERT(offsetof(PJRT_Api, PJRT_Client_Create) == 120, "slot 10");
TPJRT_ASSERT(offsetof(PJRT_Api, PJRT_Client_Compile) == 200, "slot 20");
TPJRT_ASSERT(offsetof(PJRT_Api, PJRT_Client_BufferFromHostBuffer) == 216, "slot 22");
TPJRT_ASSERT(offsetof(PJRT_Api, PJRT_Device_MemoryStats) == 312, "slot 34");
TPJRT_ASSERT(offsetof(PJRT_Api, PJRT_Executable_GetCostAnalysis) == 408, "slot 46");
TPJRT_ASSERT(offsetof(PJRT_Api, PJRT_LoadedExecutable_Execute) == 480, "slot 55");
TPJRT_ASSERT(offsetof(PJRT_Api, PJRT_Buffer_ToHostBuffer) == 600, "slot 70");
TPJRT_ASSERT(offsetof(PJRT_Api, PJRT_TopologyDescription_Create) == 696, "slot 82");
TPJRT_ASSERT(offsetof(PJRT_Api, PJRT_Compile) == 752, "slot 89");
TPJRT_ASSERT(offsetof(PJRT_Api, PJRT_Executable_OutputElementTypes) == 760, "slot 90");
TPJRT_ASSERT(offsetof(PJRT_Api, PJRT_Executable_Fingerprint) == 792, "slot 94");
TPJRT_ASSERT(offsetof(PJRT_Api, PJRT_Executable_GetCompiledMemoryStats) == 808, "slot 96");
TPJRT_ASSERT(offsetof(PJRT_Api, PJRT_Buffer_CopyRawToHost) == 840, "slot 100");
TPJRT_ASSERT(offsetof(PJRT_Api, PJRT_Event_Create) == 1048, "slot 126");
TPJRT_ASSERT(offsetof(PJRT_Api, PJRT_Device_GetAttributes) == 1064, "slot 128");
TPJRT_ASSERT(offsetof(PJRT_Api, PJRT_Executable_ParameterMemoryKinds) == 1112, "slot 134");
TPJRT_ASSERT(PJRT_Api_STRUCT_SIZE == 1120, "PJRT_Api: 135 slots");

TPJRT_ASSERT(PJRT_Extension_Base_STRUCT_SIZE == 24, "PJRT_Extension_Base");
TPJRT_ASSERT(offsetof(PJRT_Extension_Base, type) == 8, "PJRT_Extension_Base.type");
TPJRT_ASSERT(PJRT_Api_Version_STRUCT_SIZE == 24, "PJRT_Api_Version");
TPJRT_ASSERT(sizeof(PJRT_Error_Code) == 4 && sizeof(PJRT_Buffer_Type) == 4, "C enums are 4 bytes");

TPJRT_ASSERT(offsetof(PJRT_NamedValue, name) == 16, "PJRT_NamedValue.name");
TPJRT_ASSERT(offsetof(PJRT_NamedValue, name_size) == 24, "PJRT_NamedValue.name_size");
TPJRT_ASSERT(offsetof(PJRT_NamedValue, type) == 32, "PJRT_NamedValue.type");
TPJRT_ASSERT(offsetof(PJRT_NamedValue, int64_value) == 40, "PJRT_NamedValue value union");
TPJRT_ASSERT(offsetof(PJRT_NamedValue, value_size) == 48, "PJRT_NamedValue.value_size");
TPJRT_ASSERT(PJRT_NamedValue_STRUCT_SIZE == 56, "PJRT_NamedValue");

TPJRT_ASSERT(PJRT_Error_Destroy_Args_STRUCT_SIZE == 24, "PJRT_Error_Destroy_Args");
TPJRT_ASSERT(PJRT_Error_Message_Args_STRUCT_SIZE == 40, "PJRT_Error_Message_Args");
TPJRT_ASSERT(PJRT_Error_GetCode_Args_STRUCT_SIZE == 28, "PJRT_Error_GetCode_Args");
TPJRT_ASSERT(PJRT_Plugin_Initialize_Args_STRUCT_SIZE == 16, "PJRT_Plugin_Initialize_Args");
TPJRT_ASSERT(PJRT_Plugin_Attributes_Args_STRUCT_SIZE == 32, "PJRT_Plugin_Attributes_Args");
TPJRT_ASSERT(PJRT_Event_Destroy_Args_STRUCT_SIZE == 24, "PJRT_Event_Destroy_Args");
TPJRT_ASSERT(PJRT_Event_IsReady_Args_STRUCT_SIZE == 25, "PJRT_Event_IsReady_Args");
TPJRT_ASSERT(PJRT_Event_Await_Args_STRUCT_SIZE == 24, "PJRT_Event_Await_Args");
TPJRT_ASSERT(PJRT_Event_OnReady_Args_STRUCT_SIZE == 40, "PJRT_Event_OnReady_Args");
TPJRT_ASSERT(PJRT_Event_Set_Args_STRUCT_SIZE == 48, "PJRT_Event_Set_Args");

TPJRT_ASSERT(offsetof(PJRT_Client_Create_Args, create_options) == 16, "Client_Create.create_options");
TPJRT_ASSERT(offsetof(PJRT_Client_Create_Args, client) == 64, "Client_Create.client");
TPJRT_ASSERT(offsetof(PJRT_Client_Create_Args, kv_try_get_callback) == 72, "Client_Create.kv_try_get");
TPJRT_ASSERT(PJRT_Client_Create_Args_STRUCT_SIZE == 88, "PJRT_Client_Create_Args");
TPJRT_ASSERT(PJRT_Client_Destroy_Args_STRUCT_SIZE == 24, "PJRT_Client_Destroy_Args");
TPJRT_ASSERT(PJRT_Client_PlatformName_Args_STRUCT_SIZE == 40, "PJRT_Client_PlatformName_Args");
TPJRT_ASSERT(PJRT_Client_ProcessIndex_Args_STRUCT_SIZE == 28, "PJRT_Client_ProcessIndex_Args");
TPJRT_ASSERT(PJRT_Client_Devices_Args_STRUCT_SIZE == 40, "PJRT_Client_Devices_Args");
TPJRT_ASSERT(PJRT_Client_AddressableDevices_Args_STRUCT_SIZE == 40, "PJRT_Client_AddressableDevices_Args");
TPJRT_ASSERT(PJRT_Client_LookupDevice_Args_STRUCT_SIZE == 40, "PJRT_Client_LookupDevice_Args");
TPJRT_ASSERT(PJRT_Client_DefaultDeviceAssignment_Args_STRUCT_SIZE == 48, "PJRT_Client_DefaultDeviceAssignment_Args");
TPJRT_ASSERT(PJRT_Program_STRUCT_SIZE == 48, "PJRT_Program");
TPJRT_ASSERT(PJRT_Client_Compile_Args_STRUCT_SIZE == 56, "PJRT_Client_Compile_Args");

TPJRT_ASSERT(offsetof(PJRT_Client_BufferFromHostBuffer_Args, client) == 16, "BFHB.client");
TPJRT_ASSERT(offsetof(PJRT_Client_BufferFromHostBuffer_Args, data) == 24, "BFHB.data");
TPJRT_ASSERT(offsetof(PJRT_Client_BufferFromHostBuffer_Args, type) == 32, "BFHB.type");
TPJRT_ASSERT(offsetof(PJRT_Client_BufferFromHostBuffer_Args, dims) == 40, "BFHB.dims");
TPJRT_ASSERT(offsetof(PJRT_Client_BufferFromHostBuffer_Args, num_dims) == 48, "BFHB.num_dims");
TPJRT_ASSERT(offsetof(PJRT_Client_BufferFromHostBuffer_Args, byte_strides) == 56, "BFHB.byte_strides");
TPJRT_ASSERT(offsetof(PJRT_Client_BufferFromHostBuffer_Args, num_byte_strides) == 64, "BFHB.num_byte_strides");
TPJRT_ASSERT(offsetof(PJRT_Client_BufferFromHostBuffer_Args, host_buffer_semantics) == 72, "BFHB.semantics");
TPJRT_ASSERT(offsetof(PJRT_Client_BufferFromHostBuffer_Args, device) == 80, "BFHB.device");
TPJRT_ASSERT(offsetof(PJRT_Client_BufferFromHostBuffer_Args, memory) == 88, "BFHB.memory");
TPJRT_ASSERT(offsetof(PJRT_Client_BufferFromHostBuffer_Args, device_layout) == 96, "BFHB.device_layout");
TPJRT_ASSERT(offsetof(PJRT_Client_BufferFromHostBuffer_Args, done_with_host_buffer) == 104, "BFHB.done");
TPJRT_ASSERT(offsetof(PJRT_Client_BufferFromHostBuffer_Args, buffer) == 112, "BFHB.buffer");
TPJRT_ASSERT(PJRT_Client_BufferFromHostBuffer_Args_STRUCT_SIZE == 120, "PJRT_Client_BufferFromHostBuffer_Args");

TPJRT_ASSERT(PJRT_Device_GetDescription_Args_STRUCT_SIZE == 32, "PJRT_Device_GetDescription_Args");
TPJRT_ASSERT(PJRT_Device_IsAddressable_Args_STRUCT_SIZE == 25, "PJRT_Device_IsAddressable_Args");
TPJRT_ASSERT(PJRT_Device_LocalHardwareId_Args_STRUCT_SIZE == 28, "PJRT_Device_LocalHardwareId_Args");
TPJRT_ASSERT(offsetof(PJRT_Device_MemoryStats_Args, bytes_in_use) == 24, "MemoryStats.bytes_in_use");
TPJRT_ASSERT(offsetof(PJRT_Device_MemoryStats_Args, peak_bytes_in_use_is_set) == 40, "MemoryStats.peak set");
TPJRT_ASSERT(offsetof(PJRT_Device_MemoryStats_Args, peak_pool_bytes) == 176, "MemoryStats.peak_pool_bytes");
TPJRT_ASSERT(PJRT_Device_MemoryStats_Args_STRUCT_SIZE == 185, "PJRT_Device_MemoryStats_Args");
TPJRT_ASSERT(PJRT_DeviceDescription_Id_Args_STRUCT_SIZE == 28, "PJRT_DeviceDescription_Id_Args");
TPJRT_ASSERT(offsetof(PJRT_DeviceDescription_Attributes_Args, num_attributes) == 24, "DD_Attributes count first");
TPJRT_ASSERT(PJRT_DeviceDescription_Attributes_Args_STRUCT_SIZE == 40, "PJRT_DeviceDescription_Attributes_Args");
TPJRT_ASSERT(PJRT_DeviceDescription_Kind_Args_STRUCT_SIZE == 40, "PJRT_DeviceDescription_Kind_Args");

TPJRT_ASSERT(PJRT_LoadedExecutable_GetExecutable_Args_STRUCT_SIZE == 32, "PJRT_LoadedExecutable_GetExecutable_Args");
TPJRT_ASSERT(PJRT_LoadedExecutable_AddressableDevices_Args_STRUCT_SIZE == 40, "LoadedExecutable_AddressableDevices");
TPJRT_ASSERT(PJRT_Executable_NumOutputs_Args_STRUCT_SIZE == 32, "PJRT_Executable_NumOutputs_Args");
TPJRT_ASSERT(PJRT_Executable_OutputElementTypes_Args_STRUCT_SIZE == 40, "PJRT_Executable_OutputElementTypes_Args");
TPJRT_ASSERT(PJRT_Executable_OutputDimensions_Args_STRUCT_SIZE == 48, "PJRT_Executable_OutputDimensions_Args");
TPJRT_ASSERT(PJRT_Executable_Serialize_Args_STRUCT_SIZE == 56, "PJRT_Executable_Serialize_Args");
TPJRT_ASSERT(PJRT_Executable_Fingerprint_Args_STRUCT_SIZE == 40, "PJRT_Executable_Fingerprint_Args");
TPJRT_ASSERT(PJRT_Executable_GetCostAnalysis_Args_STRUCT_SIZE == 40, "PJRT_Executable_GetCostAnalysis_Args");
TPJRT_ASSERT(PJRT_Executable_GetCompiledMemoryStats_Args_STRUCT_SIZE == 144, "GetCompiledMemoryStats (0.104)");

TPJRT_ASSERT(offsetof(PJRT_ExecuteOptions, launch_id) == 48, "ExecuteOptions.launch_id");
TPJRT_ASSERT(offsetof(PJRT_ExecuteOptions, non_donatable_input_indices) == 56, "ExecuteOptions.non_donatable");
TPJRT_ASSERT(offsetof(PJRT_ExecuteOptions, context) == 72, "ExecuteOptions.context");
TPJRT_ASSERT(offsetof(PJRT_ExecuteOptions, call_location) == 80, "ExecuteOptions.call_location");
TPJRT_ASSERT(offsetof(PJRT_ExecuteOptions, num_tasks) == 88, "ExecuteOptions.num_tasks");
TPJRT_ASSERT(offsetof(PJRT_ExecuteOptions, multi_slice_config) == 112, "ExecuteOptions.multi_slice_config");
TPJRT_ASSERT(PJRT_ExecuteOptions_STRUCT_SIZE == 120, "PJRT_ExecuteOptions");
TPJRT_ASSERT(PJRT_SendCallbackInfo_STRUCT_SIZE == 24, "PJRT_SendCallbackInfo");
TPJRT_ASSERT(offsetof(PJRT_LoadedExecutable_Execute_Args, executable) == 16, "Execute.executable");
TPJRT_ASSERT(offsetof(PJRT_LoadedExecutable_Execute_Args, options) == 24, "Execute.options");
TPJRT_ASSERT(offsetof(PJRT_LoadedExecutable_Execute_Args, argument_lists) == 32, "Execute.argument_lists");
TPJRT_ASSERT(offsetof(PJRT_LoadedExecutable_Execute_Args, num_devices) == 40, "Execute.num_devices");
TPJRT_ASSERT(offsetof(PJRT_LoadedExecutable_Execute_Args, num_args) == 48, "Execute.num_args");
TPJRT_ASSERT(offsetof(PJRT_LoadedExecutable_Execute_Args, output_lists) == 56, "Execute.output_lists");
TPJRT_ASSERT(offsetof(PJRT_LoadedExecutable_Execute_Args, device_complete_events) == 64, "Execute.events");
TPJRT_ASSERT(offsetof(PJRT_LoadedExecutable_Execute_Args, execute_device) == 72, "Execute.execute_device");
TPJRT_ASSERT(PJRT_LoadedExecutable_Execute_Args_STRUCT_SIZE == 80, "PJRT_LoadedExecutable_Execute_Args");

TPJRT_ASSERT(PJRT_Buffer_Destroy_Args_STRUCT_SIZE == 24, "PJRT_Buffer_Destroy_Args");
TPJRT_ASSERT(PJRT_Buffer_ElementType_Args_STRUCT_SIZE == 28, "PJRT_Buffer_ElementType_Args");
TPJRT_ASSERT(PJRT_Buffer_Dimensions_Args_STRUCT_SIZE == 40, "PJRT_Buffer_Dimensions_Args");
TPJRT_ASSERT(PJRT_Buffer_OnDeviceSizeInBytes_Args_STRUCT_SIZE == 32, "PJRT_Buffer_OnDeviceSizeInBytes_Args");
TPJRT_ASSERT(PJRT_Buffer_Device_Args_STRUCT_SIZE == 32, "PJRT_Buffer_Device_Args");
TPJRT_ASSERT(PJRT_Buffer_IsDeleted_Args_STRUCT_SIZE == 25, "PJRT_Buffer_IsDeleted_Args");
TPJRT_ASSERT(PJRT_Buffer_ToHostBuffer_Args_STRUCT_SIZE == 56, "PJRT_Buffer_ToHostBuffer_Args");
TPJRT_ASSERT(PJRT_Buffer_ReadyEvent_Args_STRUCT_SIZE == 32, "PJRT_Buffer_ReadyEvent_Args");
TPJRT_ASSERT(PJRT_Buffer_CopyToDevice_Args_STRUCT_SIZE == 40, "PJRT_Buffer_CopyToDevice_Args");

TPJRT_ASSERT(PJRT_TopologyDescription_Create_Args_STRUCT_SIZE == 56, "PJRT_TopologyDescription_Create_Args");
TPJRT_ASSERT(PJRT_TopologyDescription_Destroy_Args_STRUCT_SIZE == 24, "PJRT_TopologyDescription_Destroy_Args");
TPJRT_ASSERT(offsetof(PJRT_Compile_Args, client) == 48, "PJRT_Compile_Args.client");
TPJRT_ASSERT(PJRT_Compile_Args_STRUCT_SIZE == 64, "PJRT_Compile_Args");

#ifdef __cplusplus
}  /* extern "C" */
#endif

#endif /* TORCH_PJRT_PJRT_C_API_H_ */
// torch-pjrt: header complete
