#include "pjrt/error.h"

#include "pjrt/slots.h"

namespace tpjrt::cpu {

PJRT_Error* newError(PJRT_Error_Code code, const std::string& message) noexcept {
  try {
    return new PJRT_Error{code, message};
  } catch (...) {
    return nullptr;
  }
}

Failure currentFailure() {
  try {
    throw;
  } catch (const CpuError& e) {
    return {PJRT_Error_Code(int(e.code())), e.what()};
  } catch (const std::bad_alloc&) {
    return {PJRT_Error_Code_RESOURCE_EXHAUSTED, "out of host memory"};
  } catch (const std::exception& e) {
    return {PJRT_Error_Code_INTERNAL, std::string("internal error: ") + e.what()};
  } catch (...) {
    return {PJRT_Error_Code_INTERNAL, "unknown internal error"};
  }
}

void failUnimplemented(const std::string& message) { throw CpuError(ErrorCode::Unimplemented, message); }
void failNotFound(const std::string& message) { throw CpuError(ErrorCode::NotFound, message); }

void checkArgs(const void* args, size_t structSize, size_t needed, const char* structName, const char* lastField) {
  if (!args) fail(std::string(structName) + " pointer is NULL");
  if (structSize < needed)
    fail(std::string(structName) + ".struct_size is " + std::to_string(structSize) +
         " but the torch-pjrt cpu plugin needs at least " + std::to_string(needed) + " (through field " + lastField +
         ")");
}

void requireNonNull(const void* pointer, const char* what) {
  if (!pointer) fail(std::string(what) + " is NULL");
}

namespace {

// Error_Destroy and Error_Message return void, so a bad args struct can only be ignored.
void errorDestroy(PJRT_Error_Destroy_Args* args) {
  if (!args || args->struct_size < TPJRT_FIELD_END(PJRT_Error_Destroy_Args, error)) return;
  delete args->error;
}

void errorMessage(PJRT_Error_Message_Args* args) {
  if (!args || args->struct_size < TPJRT_FIELD_END(PJRT_Error_Message_Args, message_size)) return;
  static const char kNull[] = "PJRT_Error_Message: error is NULL";
  if (!args->error) {
    args->message = kNull;
    args->message_size = sizeof(kNull) - 1;
    return;
  }
  args->message = args->error->message.data();
  args->message_size = args->error->message.size();
}

PJRT_Error* errorGetCode(PJRT_Error_GetCode_Args* args) {
  return guarded("PJRT_Error_GetCode", [&] {
    TPJRT_CHECK_ARGS(PJRT_Error_GetCode_Args, args, code);
    requireNonNull(args->error, "error");
    args->code = args->error->code;
  });
}

// The plugin's errors carry no payloads, so there is nothing to visit.
PJRT_Error* errorForEachPayload(PJRT_Error_ForEachPayload_Args* args) {
  return guarded("PJRT_Error_ForEachPayload", [&] {
    TPJRT_CHECK_ARGS(PJRT_Error_ForEachPayload_Args, args, user_arg);
    requireNonNull(args->error, "error");
  });
}

}  // namespace

void fillErrorSlots(PJRT_Api& api) {
  api.PJRT_Error_Destroy = errorDestroy;
  api.PJRT_Error_Message = errorMessage;
  api.PJRT_Error_GetCode = errorGetCode;
  api.PJRT_Error_ForEachPayload = errorForEachPayload;
}

}  // namespace tpjrt::cpu
