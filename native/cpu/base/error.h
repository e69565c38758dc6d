// The one error type inside the CPU plugin. Thrown by the parser, verifier and interpreter; the C API
// surface (pjrt/api.cc) catches it and turns it into a PJRT_Error with the same code and message.
#pragma once

#include <stdexcept>
#include <string>

namespace tpjrt::cpu {

// Values are PJRT_Error_Code values (absl status codes).
enum class ErrorCode : int { InvalidArgument = 3, NotFound = 5, ResourceExhausted = 8, FailedPrecondition = 9,
                             OutOfRange = 11, Unimplemented = 12, Internal = 13 };

class CpuError : public std::runtime_error {
 public:
  CpuError(ErrorCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  ErrorCode code() const { return code_; }

 private:
  ErrorCode code_;
};

[[noreturn]] inline void fail(const std::string& message, ErrorCode code = ErrorCode::InvalidArgument) {
  throw CpuError(code, message);
}

}  // namespace tpjrt::cpu
