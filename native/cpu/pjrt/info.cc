// PJRT_Plugin_Initialize and PJRT_Plugin_Attributes.
#include <cstring>

#include "gemm/gemm.h"
#include "pjrt/error.h"
#include "pjrt/slots.h"

namespace tpjrt::cpu {
namespace {

constexpr int64_t kStablehloCurrent[] = {1, 17, 0};
constexpr int64_t kStablehloMinimum[] = {0, 9, 0};
constexpr char kPluginVersion[] = "0.1.0";

PJRT_NamedValue int64Value(const char* name, int64_t value) {
  PJRT_NamedValue v{};
  v.struct_size = PJRT_NamedValue_STRUCT_SIZE;
  v.name = name;
  v.name_size = std::strlen(name);
  v.type = PJRT_NamedValue_kInt64;
  v.int64_value = value;
  v.value_size = 1;
  return v;
}

PJRT_NamedValue int64ListValue(const char* name, const int64_t* values, size_t count) {
  PJRT_NamedValue v = int64Value(name, 0);
  v.type = PJRT_NamedValue_kInt64List;
  v.int64_array_value = values;
  v.value_size = count;
  return v;
}

PJRT_NamedValue stringValue(const char* name, const char* value) {
  PJRT_NamedValue v = int64Value(name, 0);
  v.type = PJRT_NamedValue_kString;
  v.string_value = value;
  v.value_size = std::strlen(value);
  return v;
}

PJRT_Error* pluginInitialize(PJRT_Plugin_Initialize_Args* args) {
  return guarded("PJRT_Plugin_Initialize",
                 [&] { TPJRT_CHECK_ARGS(PJRT_Plugin_Initialize_Args, args, extension_start); });
}

PJRT_Error* pluginAttributes(PJRT_Plugin_Attributes_Args* args) {
  return guarded("PJRT_Plugin_Attributes", [&] {
    TPJRT_CHECK_ARGS(PJRT_Plugin_Attributes_Args, args, num_attributes);
    static const PJRT_NamedValue attributes[] = {
        int64Value("xla_version", 2),
        int64ListValue("stablehlo_current_version", kStablehloCurrent, 3),
        int64ListValue("stablehlo_minimum_version", kStablehloMinimum, 3),
        stringValue("torch_pjrt_cpu", kPluginVersion),
        stringValue("gemm_isa", gemmIsaName(bestGemmIsa())),  // the matmul micro-kernel this CPU runs
    };
    args->attributes = attributes;
    args->num_attributes = sizeof(attributes) / sizeof(attributes[0]);
  });
}

}  // namespace

void fillPluginSlots(PJRT_Api& api) {
  api.PJRT_Plugin_Initialize = pluginInitialize;
  api.PJRT_Plugin_Attributes = pluginAttributes;
}

}  // namespace tpjrt::cpu
