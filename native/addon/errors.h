// The one place where native failures become JS errors (shape: src/runtime/native.ts).
// Every error carries `nativeCode` (a PJRT_Error_Code, or tpjrt::kPluginLoadError / kUsageError) and
// `nativeCall` (the PJRT function, runtime step or addon method that failed).
#pragma once

#include <napi.h>

#include <exception>
#include <string>

namespace tpjrt::addon {

// A plain Error with nativeCode and nativeCall set.
Napi::Error makeError(Napi::Env env, int code, const std::string& call, const std::string& message);

// Converts a caught C++ exception: tpjrt::RuntimeError keeps its code and call; std::bad_alloc is
// RESOURCE_EXHAUSTED; any other exception is INTERNAL (or UNKNOWN) attributed to `call`.
Napi::Error fromException(Napi::Env env, std::exception_ptr error, const std::string& call);

// Bad arguments from JS, caught in the addon: TypeError (wrong kind of value) or RangeError (a value
// out of range), both with nativeCode kUsageError.
[[noreturn]] void throwTypeError(Napi::Env env, const std::string& call, const std::string& message);
[[noreturn]] void throwRangeError(Napi::Env env, const std::string& call, const std::string& message);
// A plain Error with kUsageError: using a disposed buffer/executable or a closed client.
[[noreturn]] void throwUsageError(Napi::Env env, const std::string& call, const std::string& message);

// Runs `body` and rethrows any non-JS exception it raises as a JS error via fromException.
template <typename Body>
auto guard(Napi::Env env, const char* call, Body&& body) -> decltype(body()) {
  try {
    return body();
  } catch (const Napi::Error&) {
    throw;
  } catch (...) {
    throw fromException(env, std::current_exception(), call);
  }
}

}  // namespace tpjrt::addon
