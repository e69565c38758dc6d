// Conversions between JS values and runtime.h types. Every `from*` validates its input and throws a
// TypeError/RangeError (nativeCode 1002) naming `call` and `what` on a bad value.
#pragma once

#include <napi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "runtime.h"

namespace tpjrt::addon {

// A number that is an integer within ±(2^53 − 1), or a bigint that fits in int64.
int64_t int64From(Napi::Value value, const char* call, const char* what);
int intFrom(Napi::Value value, const char* call, const char* what);
std::string stringFrom(Napi::Value value, const char* call, const char* what);
std::vector<int64_t> int64ListFrom(Napi::Value value, const char* call, const char* what);

// A number when exactly representable as one, else a bigint.
Napi::Value int64To(Napi::Env env, int64_t value);
Napi::Array numbersTo(Napi::Env env, const std::vector<int64_t>& values);
Napi::Array numbersTo(Napi::Env env, const std::vector<int>& values);
Napi::Array dimsListTo(Napi::Env env, const std::vector<std::vector<int64_t>>& dimsList);

std::vector<NamedValue> namedValuesFrom(Napi::Value value, const char* call);
Napi::Array namedValuesTo(Napi::Env env, const std::vector<NamedValue>& values);

CompileOptions compileOptionsFrom(Napi::Value value, const char* call);
Napi::Object deviceInfoTo(Napi::Env env, const DeviceInfo& device);
Napi::Object memoryStatsTo(Napi::Env env, const MemoryStats& stats);
Napi::Object aotResultTo(Napi::Env env, const AotResult& result);

}  // namespace tpjrt::addon
