#include "errors.h"

#include <new>

#include "runtime.h"

namespace tpjrt::addon {
namespace {

// PJRT_Error_Code values used for exceptions that did not come from a plugin.
constexpr int kUnknown = 2;
constexpr int kResourceExhausted = 8;
constexpr int kInternal = 13;

Napi::Error annotate(Napi::Error error, int code, const std::string& call) {
  Napi::Object object = error.Value();
  object.Set("nativeCode", Napi::Number::New(error.Env(), code));
  object.Set("nativeCall", Napi::String::New(error.Env(), call));
  return error;
}

}  // namespace

Napi::Error makeError(Napi::Env env, int code, const std::string& call, const std::string& message) {
  return annotate(Napi::Error::New(env, message), code, call);
}

Napi::Error fromException(Napi::Env env, std::exception_ptr error, const std::string& call) {
  try {
    std::rethrow_exception(error);
  } catch (const Napi::Error& e) {
    return e;
  } catch (const RuntimeError& e) {
    return makeError(env, e.code(), e.call(), e.what());
  } catch (const std::bad_alloc& e) {
    return makeError(env, kResourceExhausted, call, std::string("out of host memory: ") + e.what());
  } catch (const std::exception& e) {
    return makeError(env, kInternal, call, e.what());
  } catch (...) {
    return makeError(env, kUnknown, call, "unknown native exception");
  }
}

void throwTypeError(Napi::Env env, const std::string& call, const std::string& message) {
  Napi::TypeError error = Napi::TypeError::New(env, call + ": " + message);
  annotate(error, kUsageError, call);
  throw error;
}

void throwRangeError(Napi::Env env, const std::string& call, const std::string& message) {
  Napi::RangeError error = Napi::RangeError::New(env, call + ": " + message);
  annotate(error, kUsageError, call);
  throw error;
}

void throwUsageError(Napi::Env env, const std::string& call, const std::string& message) {
  throw makeError(env, kUsageError, call, message);
}

}  // namespace tpjrt::addon
