#include "pjrt_call.h"

namespace tpjrt::detail {

Status takeError(const Plugin& plugin, PJRT_Error* error) {
  Status status;
  if (error == nullptr) return status;
  const PJRT_Api* api = plugin.api();
  status.ok = false;
  status.code = PJRT_Error_Code_UNKNOWN;
  if (plugin.hasSlot(PJRT_Error_GetCode_SLOT, 0)) {
    auto args = TPJRT_ARGS(PJRT_Error_GetCode);
    args.error = error;
    PJRT_Error* inner = api->PJRT_Error_GetCode(&args);
    if (inner == nullptr) status.code = args.code;
    else if (plugin.hasSlot(PJRT_Error_Destroy_SLOT, 0)) {
      auto destroy = TPJRT_ARGS(PJRT_Error_Destroy);
      destroy.error = inner;
      api->PJRT_Error_Destroy(&destroy);
    }
  }
  if (plugin.hasSlot(PJRT_Error_Message_SLOT, 0)) {
    auto args = TPJRT_ARGS(PJRT_Error_Message);
    args.error = error;
    api->PJRT_Error_Message(&args);
    status.message = copyString(args.message, args.message_size);
  }
  if (status.message.empty()) status.message = "PJRT error with code " + std::to_string(status.code) + " and no message";
  if (plugin.hasSlot(PJRT_Error_Destroy_SLOT, 0)) {
    auto args = TPJRT_ARGS(PJRT_Error_Destroy);
    args.error = error;
    api->PJRT_Error_Destroy(&args);
  }
  return status;
}

void raise(const Status& status, const char* call) { throw RuntimeError(status.code, call, status.message); }

void awaitAndDestroy(const Plugin& plugin, PJRT_Event* event, const char* call) {
  if (event == nullptr) return;
  auto await = TPJRT_ARGS(PJRT_Event_Await);
  await.event = event;
  Status status = TPJRT_TRY(plugin, PJRT_Event_Await, await);
  destroyEvent(plugin, event);
  if (!status.ok) raise(status, call);
}

void destroyEvent(const Plugin& plugin, PJRT_Event* event) {
  if (event == nullptr || !TPJRT_HAS(plugin, PJRT_Event_Destroy)) return;
  auto args = TPJRT_ARGS(PJRT_Event_Destroy);
  args.event = event;
  takeError(plugin, plugin.api()->PJRT_Event_Destroy(&args));
}

NamedValueArray::NamedValueArray(const std::vector<NamedValue>& values) : values_(values) {
  entries_.reserve(values_.size());
  for (const NamedValue& v : values_) {
    PJRT_NamedValue e;
    std::memset(&e, 0, sizeof e);
    e.struct_size = PJRT_NamedValue_STRUCT_SIZE;
    e.name = v.name.data();
    e.name_size = v.name.size();
    if (const auto* s = std::get_if<std::string>(&v.value)) {
      e.type = PJRT_NamedValue_kString;
      e.string_value = s->data();
      e.value_size = s->size();
    } else if (const auto* i = std::get_if<int64_t>(&v.value)) {
      e.type = PJRT_NamedValue_kInt64;
      e.int64_value = *i;
      e.value_size = 1;
    } else if (const auto* list = std::get_if<std::vector<int64_t>>(&v.value)) {
      e.type = PJRT_NamedValue_kInt64List;
      e.int64_array_value = list->data();
      e.value_size = list->size();
    } else if (const auto* f = std::get_if<float>(&v.value)) {
      e.type = PJRT_NamedValue_kFloat;
      e.float_value = *f;
      e.value_size = 1;
    } else {
      e.type = PJRT_NamedValue_kBool;
      e.bool_value = std::get<bool>(v.value);
      e.value_size = 1;
    }
    entries_.push_back(e);
  }
}

std::vector<NamedValue> readNamedValues(const PJRT_NamedValue* values, size_t count) {
  std::vector<NamedValue> out;
  if (values == nullptr) return out;
  out.reserve(count);
  for (size_t k = 0; k < count; ++k) {
    const PJRT_NamedValue& e = values[k];
    NamedValue v;
    v.name = copyString(e.name, e.name_size);
    switch (e.type) {
      case PJRT_NamedValue_kString: v.value = copyString(e.string_value, e.value_size); break;
      case PJRT_NamedValue_kInt64: v.value = e.int64_value; break;
      case PJRT_NamedValue_kInt64List:
        v.value = e.int64_array_value ? std::vector<int64_t>(e.int64_array_value, e.int64_array_value + e.value_size)
                                      : std::vector<int64_t>{};
        break;
      case PJRT_NamedValue_kFloat: v.value = e.float_value; break;
      case PJRT_NamedValue_kBool: v.value = e.bool_value; break;
      default: continue;  // a type newer than our header
    }
    out.push_back(std::move(v));
  }
  return out;
}

std::string copyString(const char* data, size_t size) { return data ? std::string(data, size) : std::string(); }

}  // namespace tpjrt::detail
