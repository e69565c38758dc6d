// Internal to the runtime: zero-initialised args structs, and calling a plugin slot with the slot
// check in front and the PJRT_Error turned into a RuntimeError behind.
#pragma once

#include <cstring>
#include <string>
#include <vector>

#include "pjrt_c_api.h"
#include "runtime.h"

namespace tpjrt::detail {

// A plugin error, already read and destroyed.
struct Status {
  bool ok = true;
  int code = 0;
  std::string message;
};

// Reads code and message of `error`, then destroys it. NULL gives an ok Status.
Status takeError(const Plugin& plugin, PJRT_Error* error);
[[noreturn]] void raise(const Status& status, const char* call);
inline void throwIfError(const Plugin& plugin, PJRT_Error* error, const char* call) {
  Status status = takeError(plugin, error);
  if (!status.ok) raise(status, call);
}

template <class Args>
Args zeroed(size_t structSize) {
  Args args;
  std::memset(&args, 0, sizeof args);
  args.struct_size = structSize;
  return args;
}

// Awaits `event` (if any), destroys it, and throws if it carried an error.
void awaitAndDestroy(const Plugin& plugin, PJRT_Event* event, const char* call);
// Destroys `event` without waiting; errors are dropped.
void destroyEvent(const Plugin& plugin, PJRT_Event* event);

// Owns a PJRT_NamedValue array that points into copies of the given values.
class NamedValueArray {
 public:
  explicit NamedValueArray(const std::vector<NamedValue>& values);
  const PJRT_NamedValue* data() const { return entries_.empty() ? nullptr : entries_.data(); }
  size_t size() const { return entries_.size(); }

 private:
  std::vector<NamedValue> values_;
  std::vector<PJRT_NamedValue> entries_;
};

std::vector<NamedValue> readNamedValues(const PJRT_NamedValue* values, size_t count);

std::string copyString(const char* data, size_t size);

// A PJRT_Program of format "mlir" over `text`, which must outlive it.
inline PJRT_Program mlirProgram(const std::string& text) {
  static const char kFormat[] = "mlir";
  auto program = zeroed<PJRT_Program>(PJRT_Program_STRUCT_SIZE);
  program.code = const_cast<char*>(text.data());
  program.code_size = text.size();
  program.format = kFormat;
  program.format_size = sizeof(kFormat) - 1;
  return program;
}

}  // namespace tpjrt::detail

// Args struct for function `Fn`, zero-filled, with our full STRUCT_SIZE.
#define TPJRT_ARGS(Fn) ::tpjrt::detail::zeroed<Fn##_Args>(Fn##_Args_STRUCT_SIZE)
// Calls slot `Fn` of `plugin` (after requireSlot); the result is a detail::Status.
#define TPJRT_TRY(plugin, Fn, args)                                   \
  ((plugin).requireSlot(Fn##_SLOT, Fn##_SINCE_MINOR, #Fn),           \
   ::tpjrt::detail::takeError((plugin), (plugin).api()->Fn(&(args))))
// Calls slot `Fn` of `plugin` and throws RuntimeError on failure.
#define TPJRT_CALL(plugin, Fn, args)                                  \
  do {                                                                \
    (plugin).requireSlot(Fn##_SLOT, Fn##_SINCE_MINOR, #Fn);           \
    ::tpjrt::detail::throwIfError((plugin), (plugin).api()->Fn(&(args)), #Fn); \
  } while (0)
// True when `plugin` has a usable `Fn`.
#define TPJRT_HAS(plugin, Fn) ((plugin).hasSlot(Fn##_SLOT, Fn##_SINCE_MINOR))
