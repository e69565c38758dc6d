// PJRT_Error for the CPU plugin, the guard every C entry point runs its body in, and checks of the
// caller's args struct sizes.
#pragma once

#include <cstddef>
#include <new>
#include <string>
#include <type_traits>
#include <utility>

#include "base/error.h"
#include "pjrt_c_api.h"

struct PJRT_Error {
  PJRT_Error_Code code;
  std::string message;
};

namespace tpjrt::cpu {

// Never throws; returns NULL only if even the error could not be allocated.
PJRT_Error* newError(PJRT_Error_Code code, const std::string& message) noexcept;

[[noreturn]] void failUnimplemented(const std::string& message);
[[noreturn]] void failNotFound(const std::string& message);

// An error as code and message, kept for later (a failed run's outputs carry one).
struct Failure {
  PJRT_Error_Code code;
  std::string message;
};

// The exception being handled (call it in a catch block): CpuError keeps its code; running out of
// memory is RESOURCE_EXHAUSTED; anything else is INTERNAL.
Failure currentFailure();

// Runs `body`; an exception becomes a PJRT_Error whose message starts with "<function>: ".
template <class Body>
PJRT_Error* guarded(const char* function, Body&& body) noexcept {
  try {
    body();
    return nullptr;
  } catch (...) {
    try {
      Failure failure = currentFailure();
      return newError(failure.code, std::string(function) + ": " + failure.message);
    } catch (...) {
      return newError(PJRT_Error_Code_RESOURCE_EXHAUSTED, "out of host memory");
    }
  }
}

// Fails with INVALID_ARGUMENT when `args` is NULL or its struct_size does not reach `needed` bytes.
void checkArgs(const void* args, size_t structSize, size_t needed, const char* structName, const char* lastField);

// The requirement is "every field up to and including `lastField`"; fields after it are optional
// and are only read or written when TPJRT_HAS_FIELD says the caller's struct reaches them.
#define TPJRT_FIELD_END(Type, field) (offsetof(Type, field) + sizeof(std::declval<Type&>().field))
#define TPJRT_CHECK_ARGS(Type, args, lastField)                                                           \
  ::tpjrt::cpu::checkArgs((args), (args) ? (args)->struct_size : 0, TPJRT_FIELD_END(Type, lastField), #Type, \
                          #lastField)
#define TPJRT_HAS_FIELD(Type, args, field) ((args)->struct_size >= TPJRT_FIELD_END(Type, field))

// Throws INVALID_ARGUMENT "<what> is NULL" when `pointer` is NULL.
void requireNonNull(const void* pointer, const char* what);

}  // namespace tpjrt::cpu
