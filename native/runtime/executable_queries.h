// Internal to the runtime: what can be read from a PJRT_Executable (the device-independent view
// shared by loaded executables and ahead-of-time compiles).
#pragma once

#include "pjrt_call.h"

namespace tpjrt::detail {

size_t numOutputs(const Plugin& plugin, PJRT_Executable* executable);
std::vector<BufferType> outputTypes(const Plugin& plugin, PJRT_Executable* executable);
std::vector<std::vector<int64_t>> outputDims(const Plugin& plugin, PJRT_Executable* executable);
// nullopt when the plugin lacks the function or answers UNIMPLEMENTED.
std::optional<std::string> fingerprint(const Plugin& plugin, PJRT_Executable* executable);
// Empty when the plugin lacks the function or answers UNIMPLEMENTED; holds only the fields the
// plugin's version knows.
std::map<std::string, int64_t> compiledMemoryStats(const Plugin& plugin, PJRT_Executable* executable);
// Numeric properties only; empty when unavailable.
std::map<std::string, double> costAnalysis(const Plugin& plugin, PJRT_Executable* executable);
std::string serialize(const Plugin& plugin, PJRT_Executable* executable);
void destroyExecutable(const Plugin& plugin, PJRT_Executable* executable);

}  // namespace tpjrt::detail
