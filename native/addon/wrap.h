// Helpers shared by the ObjectWrap classes. Wrapped objects are created only from C++ (the native
// state is handed to the constructor through a thread-local slot, since JS cannot build it), and are
// type-tagged so that a foreign object passed where one of ours is expected is a TypeError.
//
// A class T using these defines: `struct Init`, `static inline thread_local Init* pending`,
// `static constexpr const char* kName` and `static const napi_type_tag kTypeTag`.
#pragma once

#include <napi.h>

#include <string>
#include <utility>

#include "errors.h"

namespace tpjrt::addon {

template <typename T>
Napi::Object constructWrapped(Napi::FunctionReference& constructor, typename T::Init&& init) {
  T::pending = &init;
  try {
    Napi::Object object = constructor.New({});
    T::pending = nullptr;
    return object;
  } catch (...) {
    T::pending = nullptr;
    throw;
  }
}

// Called first in T's constructor: tags `this` and takes the native state.
template <typename T>
typename T::Init takeInit(const Napi::CallbackInfo& info) {
  if (T::pending == nullptr)
    throwTypeError(info.Env(), T::kName, std::string(T::kName) + " objects cannot be constructed from JavaScript");
  typename T::Init init = std::move(*T::pending);
  T::pending = nullptr;
  info.This().As<Napi::Object>().TypeTag(&T::kTypeTag);
  return init;
}

// An argument's name for errors: `what`, or `what[index]` when index >= 0 (built only on failure).
inline std::string argumentName(const char* what, int index = -1) {
  return index < 0 ? std::string(what) : std::string(what) + "[" + std::to_string(index) + "]";
}

template <typename T>
T* unwrapTagged(Napi::Value value, const char* call, const char* what, int index = -1) {
  if (!value.IsObject() || !value.As<Napi::Object>().CheckTypeTag(&T::kTypeTag))
    throwTypeError(value.Env(), call, argumentName(what, index) + " must be a native " + T::kName);
  return T::Unwrap(value.As<Napi::Object>());
}

}  // namespace tpjrt::addon
