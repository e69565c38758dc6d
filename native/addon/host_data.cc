#include "host_data.h"

#include <string>

#include "errors.h"

namespace tpjrt::addon {
namespace {

size_t typedArrayElementSize(napi_typedarray_type type) {
  switch (type) {
    case napi_int8_array:
    case napi_uint8_array:
    case napi_uint8_clamped_array:
      return 1;
    case napi_int16_array:
    case napi_uint16_array:
      return 2;
    case napi_int32_array:
    case napi_uint32_array:
    case napi_float32_array:
      return 4;
    case napi_float64_array:
    case napi_bigint64_array:
    case napi_biguint64_array:
      return 8;
    default:  // e.g. Float16Array, which Node 20's own headers do not name
      return 0;
  }
}

// a × b, or false on overflow.
bool multiply(uint64_t a, uint64_t b, uint64_t* out) { return !__builtin_mul_overflow(a, b, out); }

}  // namespace

HostBytes hostBytesFrom(Napi::Value value, const char* call) {
  Napi::Env env = value.Env();
  if (value.IsTypedArray()) {
    napi_typedarray_type type;
    size_t length = 0;
    void* data = nullptr;
    if (napi_get_typedarray_info(env, value, &type, &length, &data, nullptr, nullptr) != napi_ok)
      throwTypeError(env, call, "data could not be read as a TypedArray");
    size_t elementSize = typedArrayElementSize(type);
    if (elementSize == 0) throwTypeError(env, call, "data is a TypedArray of an unsupported kind");
    return {data, length * elementSize};
  }
  if (value.IsDataView()) {
    size_t length = 0;
    void* data = nullptr;
    if (napi_get_dataview_info(env, value, &length, &data, nullptr, nullptr) != napi_ok)
      throwTypeError(env, call, "data could not be read as a DataView");
    return {data, length};
  }
  throwTypeError(env, call, "data must be an ArrayBufferView (a TypedArray or DataView)");
}

void checkHostExtent(Napi::Env env, const char* call, const HostBytes& bytes, size_t elementSize,
                     const std::vector<int64_t>& dims, const std::vector<int64_t>& byteStrides) {
  uint64_t elements = 1;
  for (int64_t d : dims) {
    if (d < 0) throwRangeError(env, call, "dims must be non-negative");
    if (!multiply(elements, static_cast<uint64_t>(d), &elements)) throwRangeError(env, call, "dims overflow");
  }
  if (byteStrides.empty()) {
    uint64_t needed;
    if (!multiply(elements, elementSize, &needed)) throwRangeError(env, call, "dims overflow");
    if (needed != bytes.byteLength)
      throwRangeError(env, call,
                      "data has " + std::to_string(bytes.byteLength) + " bytes; dims × element size = " +
                          std::to_string(needed));
    return;
  }
  if (byteStrides.size() != dims.size())
    throwRangeError(env, call, "byteStrides must have one entry per dimension");
  if (elements == 0) return;
  uint64_t furthest = elementSize;  // one past the last byte touched
  for (size_t i = 0; i < dims.size(); ++i) {
    if (byteStrides[i] < 0) throwRangeError(env, call, "byteStrides must be non-negative");
    uint64_t span;
    if (!multiply(static_cast<uint64_t>(dims[i] - 1), static_cast<uint64_t>(byteStrides[i]), &span) ||
        __builtin_add_overflow(furthest, span, &furthest))
      throwRangeError(env, call, "byteStrides overflow");
  }
  if (furthest > bytes.byteLength)
    throwRangeError(env, call,
                    "byteStrides reach byte " + std::to_string(furthest) + " but data has only " +
                        std::to_string(bytes.byteLength) + " bytes");
}

}  // namespace tpjrt::addon
