// PJRT_Client_Compile, PJRT_Client_Load, and the serialized form of an executable
// (PJRT_Executable_Serialize / PJRT_Executable_DeserializeAndLoad / PJRT_Executable_GetCompileOptions).
//
// Serialized form: the line "torch-pjrt-cpu-executable 1", a line with the byte length N of the
// CompileOptionsProto, those N bytes, then the StableHLO text. Loading it compiles the text again.
#include <cstring>
#include <string_view>

#include "pjrt/error.h"
#include "pjrt/executable.h"
#include "pjrt/slots.h"

struct PJRT_SerializedExecutable {
  std::string bytes;
};

struct PJRT_SerializedCompileOptions {
  std::string bytes;
};

namespace tpjrt::cpu {
namespace {

constexpr std::string_view kSerializedMagic = "torch-pjrt-cpu-executable 1\n";
constexpr std::string_view kBytecodeMagic = "ML\xEFR";

std::string_view programText(const PJRT_Program* program) {
  TPJRT_CHECK_ARGS(PJRT_Program, program, format_size);
  std::string_view format = program->format ? std::string_view(program->format, program->format_size) : "";
  if (format == "hlo" || format == "hlo_with_config")
    failUnimplemented("program format '" + std::string(format) +
                      "' is not supported by the torch-pjrt cpu plugin; send StableHLO text with format 'mlir'");
  if (format != "mlir") fail("unknown program format '" + std::string(format) + "' (the cpu plugin reads 'mlir')");
  if (program->code_size > 0) requireNonNull(program->code, "program->code");
  std::string_view code(program->code ? program->code : "", program->code_size);
  if (code.substr(0, kBytecodeMagic.size()) == kBytecodeMagic)
    fail("the cpu plugin reads StableHLO text, not bytecode (MLIR bytecode or a VHLO portable artifact)");
  return code;
}

std::string optionBytes(const char* bytes, size_t size) {
  if (size > 0) requireNonNull(bytes, "compile_options");
  return std::string(bytes ? bytes : "", size);
}

PJRT_Error* clientCompile(PJRT_Client_Compile_Args* args) {
  return guarded("PJRT_Client_Compile", [&] {
    TPJRT_CHECK_ARGS(PJRT_Client_Compile_Args, args, executable);
    stateOf(args->client);
    std::string_view text = programText(args->program);
    auto program = compileProgram(std::string(text), optionBytes(args->compile_options, args->compile_options_size));
    args->executable = loadProgram(args->client->state, std::move(program));
  });
}

PJRT_Error* clientLoad(PJRT_Client_Load_Args* args) {
  return guarded("PJRT_Client_Load", [&] {
    TPJRT_CHECK_ARGS(PJRT_Client_Load_Args, args, loaded_executable);
    stateOf(args->client);
    requireNonNull(args->executable, "executable");
    std::shared_ptr<const CompiledProgram> program = args->executable->program;
    if (args->compile_options_size > 0)
      program = compileProgram(program->text, optionBytes(args->compile_options, args->compile_options_size));
    args->loaded_executable = loadProgram(args->client->state, std::move(program));
  });
}

PJRT_Error* executableSerialize(PJRT_Executable_Serialize_Args* args) {
  return guarded("PJRT_Executable_Serialize", [&] {
    TPJRT_CHECK_ARGS(PJRT_Executable_Serialize_Args, args, serialized_executable_deleter);
    requireNonNull(args->executable, "executable");
    const CompiledProgram& program = *args->executable->program;
    auto serialized = std::make_unique<PJRT_SerializedExecutable>();
    serialized->bytes.append(kSerializedMagic);
    serialized->bytes.append(std::to_string(program.optionsBytes.size()) + "\n");
    serialized->bytes.append(program.optionsBytes);
    serialized->bytes.append(program.text);
    args->serialized_bytes = serialized->bytes.data();
    args->serialized_bytes_size = serialized->bytes.size();
    args->serialized_executable_deleter = [](PJRT_SerializedExecutable* s) { delete s; };
    args->serialized_executable = serialized.release();
  });
}

// Splits the serialized form into (compile options, text).
std::pair<std::string, std::string> readSerialized(std::string_view bytes) {
  const char* kNotOurs = "serialized_executable was not made by the torch-pjrt cpu plugin's PJRT_Executable_Serialize";
  if (bytes.substr(0, kSerializedMagic.size()) != kSerializedMagic) fail(kNotOurs);
  bytes.remove_prefix(kSerializedMagic.size());
  size_t newline = bytes.find('\n');
  if (newline == std::string_view::npos || newline == 0 || newline > 19) fail(kNotOurs);
  size_t length = 0;
  for (char c : bytes.substr(0, newline)) {
    if (c < '0' || c > '9') fail(kNotOurs);
    length = length * 10 + size_t(c - '0');
  }
  bytes.remove_prefix(newline + 1);
  if (length > bytes.size()) fail(std::string(kNotOurs) + " (it is truncated)");
  return {std::string(bytes.substr(0, length)), std::string(bytes.substr(length))};
}

PJRT_Error* executableDeserializeAndLoad(PJRT_Executable_DeserializeAndLoad_Args* args) {
  using Args = PJRT_Executable_DeserializeAndLoad_Args;
  return guarded("PJRT_Executable_DeserializeAndLoad", [&] {
    TPJRT_CHECK_ARGS(Args, args, loaded_executable);
    stateOf(args->client);
    if (args->serialized_executable_size > 0) requireNonNull(args->serialized_executable, "serialized_executable");
    auto [options, text] = readSerialized(std::string_view(
        args->serialized_executable ? args->serialized_executable : "", args->serialized_executable_size));
    if (TPJRT_HAS_FIELD(Args, args, overridden_serialized_compile_options_size) &&
        args->overridden_serialized_compile_options)
      options = optionBytes(args->overridden_serialized_compile_options,
                            args->overridden_serialized_compile_options_size);
    auto program = compileProgram(std::move(text), std::move(options));
    args->loaded_executable = loadProgram(args->client->state, std::move(program));
  });
}

PJRT_Error* executableGetCompileOptions(PJRT_Executable_GetCompileOptions_Args* args) {
  return guarded("PJRT_Executable_GetCompileOptions", [&] {
    TPJRT_CHECK_ARGS(PJRT_Executable_GetCompileOptions_Args, args, serialized_compile_options_deleter);
    requireNonNull(args->executable, "executable");
    auto options = std::make_unique<PJRT_SerializedCompileOptions>();
    options->bytes = args->executable->program->optionsBytes;
    args->serialized_bytes = options->bytes.data();
    args->serialized_bytes_size = options->bytes.size();
    args->serialized_compile_options_deleter = [](PJRT_SerializedCompileOptions* o) { delete o; };
    args->serialized_compile_options = options.release();
  });
}

}  // namespace

void fillCompileSlots(PJRT_Api& api) {
  api.PJRT_Client_Compile = clientCompile;
  api.PJRT_Client_Load = clientLoad;
  api.PJRT_Executable_Serialize = executableSerialize;
  api.PJRT_Executable_DeserializeAndLoad = executableDeserializeAndLoad;
  api.PJRT_Executable_GetCompileOptions = executableGetCompileOptions;
}

}  // namespace tpjrt::cpu
