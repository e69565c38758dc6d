// A compiled program (a parsed and verified StableHLO module plus the facts PJRT asks about it),
// the device-independent PJRT_Executable and the PJRT_LoadedExecutable bound to one device.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "ir/ir.h"
#include "pjrt/client.h"
#include "pjrt/compile_options_reader.h"
#include "pjrt_c_api.h"

namespace tpjrt::cpu {

struct CompiledProgram {
  std::string text;
  Module module;
  size_t mainIndex = 0;
  CompileOptions options;
  std::string optionsBytes;  // the serialized CompileOptionsProto it was compiled with
  std::string name;
  std::string fingerprint;
  std::vector<PJRT_Buffer_Type> outputTypes;
  std::vector<int64_t> outputDims;  // every output's dims, concatenated
  std::vector<size_t> outputRanks;
  std::vector<const char*> outputMemoryKinds;
  std::vector<const char*> parameterMemoryKinds;
  std::vector<size_t> outputMemoryKindSizes;
  std::vector<size_t> parameterMemoryKindSizes;
  int64_t argumentBytes = 0;
  int64_t outputBytes = 0;
  // Per parameter of main, the output its buffer may become (`tf.aliasing_output`), else -1; empty
  // when main aliases nothing.
  std::vector<int> aliasedOutput;
  int64_t aliasBytes = 0;
  // Small enough to run on the caller's thread when its device has nothing queued (see execute.cc).
  bool runsInline = false;

  const Function& main() const { return module.functions[mainIndex]; }
};

// Parses and verifies StableHLO text; throws CpuError (the parser's or verifier's message).
std::shared_ptr<const CompiledProgram> compileProgram(std::string text, std::string optionsBytes);

}  // namespace tpjrt::cpu

struct PJRT_Executable {
  std::shared_ptr<const tpjrt::cpu::CompiledProgram> program;
};

struct PJRT_LoadedExecutable {
  std::shared_ptr<tpjrt::cpu::ClientState> client;
  std::shared_ptr<const tpjrt::cpu::CompiledProgram> program;
  PJRT_Device* devices[1] = {nullptr};  // AddressableDevices: the one device it runs on
  std::atomic<bool> deleted{false};
};

namespace tpjrt::cpu {

// Binds `program` to the device its options name (device_assignment, else device_ordinal, else the
// client's first device). Only one replica and one partition are supported.
PJRT_LoadedExecutable* loadProgram(const std::shared_ptr<ClientState>& client,
                                   std::shared_ptr<const CompiledProgram> program);

}  // namespace tpjrt::cpu
