#include "executable_queries.h"

namespace tpjrt::detail {

size_t numOutputs(const Plugin& plugin, PJRT_Executable* executable) {
  auto args = TPJRT_ARGS(PJRT_Executable_NumOutputs);
  args.executable = executable;
  TPJRT_CALL(plugin, PJRT_Executable_NumOutputs, args);
  return args.num_outputs;
}

std::vector<BufferType> outputTypes(const Plugin& plugin, PJRT_Executable* executable) {
  auto args = TPJRT_ARGS(PJRT_Executable_OutputElementTypes);
  args.executable = executable;
  TPJRT_CALL(plugin, PJRT_Executable_OutputElementTypes, args);
  std::vector<BufferType> types;
  for (size_t i = 0; i < args.num_output_types && args.output_types; ++i) types.push_back(args.output_types[i]);
  return types;
}

std::vector<std::vector<int64_t>> outputDims(const Plugin& plugin, PJRT_Executable* executable) {
  auto args = TPJRT_ARGS(PJRT_Executable_OutputDimensions);
  args.executable = executable;
  TPJRT_CALL(plugin, PJRT_Executable_OutputDimensions, args);
  std::vector<std::vector<int64_t>> dims;
  size_t next = 0;
  for (size_t i = 0; i < args.num_outputs && args.dim_sizes; ++i) {
    size_t rank = args.dim_sizes[i];
    if (rank > 0 && args.dims == nullptr)
      throw RuntimeError(PJRT_Error_Code_INTERNAL, "PJRT_Executable_OutputDimensions", "the plugin returned no dims array");
    dims.emplace_back(args.dims + next, args.dims + next + rank);
    next += rank;
  }
  return dims;
}

std::optional<std::string> fingerprint(const Plugin& plugin, PJRT_Executable* executable) {
  if (!TPJRT_HAS(plugin, PJRT_Executable_Fingerprint)) return std::nullopt;
  auto args = TPJRT_ARGS(PJRT_Executable_Fingerprint);
  args.executable = executable;
  Status status = TPJRT_TRY(plugin, PJRT_Executable_Fingerprint, args);
  if (!status.ok) {
    if (status.code == PJRT_Error_Code_UNIMPLEMENTED) return std::nullopt;
    raise(status, "PJRT_Executable_Fingerprint");
  }
  if (args.executable_fingerprint == nullptr || args.executable_fingerprint_size == 0) return std::nullopt;
  return copyString(args.executable_fingerprint, args.executable_fingerprint_size);
}

std::map<std::string, int64_t> compiledMemoryStats(const Plugin& plugin, PJRT_Executable* executable) {
  std::map<std::string, int64_t> stats;
  if (!TPJRT_HAS(plugin, PJRT_Executable_GetCompiledMemoryStats)) return stats;
  auto a = TPJRT_ARGS(PJRT_Executable_GetCompiledMemoryStats);
  a.executable = executable;
  Status status = TPJRT_TRY(plugin, PJRT_Executable_GetCompiledMemoryStats, a);
  if (!status.ok) {
    if (status.code == PJRT_Error_Code_UNIMPLEMENTED) return stats;
    raise(status, "PJRT_Executable_GetCompiledMemoryStats");
  }
  stats["generated_code_size_in_bytes"] = a.generated_code_size_in_bytes;
  stats["argument_size_in_bytes"] = a.argument_size_in_bytes;
  stats["output_size_in_bytes"] = a.output_size_in_bytes;
  stats["alias_size_in_bytes"] = a.alias_size_in_bytes;
  stats["temp_size_in_bytes"] = a.temp_size_in_bytes;
  if (plugin.minorVersion() >= 43) {  // the host fields arrived at 0.43
    stats["host_generated_code_size_in_bytes"] = a.host_generated_code_size_in_bytes;
    stats["host_argument_size_in_bytes"] = a.host_argument_size_in_bytes;
    stats["host_output_size_in_bytes"] = a.host_output_size_in_bytes;
    stats["host_alias_size_in_bytes"] = a.host_alias_size_in_bytes;
    stats["host_temp_size_in_bytes"] = a.host_temp_size_in_bytes;
  }
  if (plugin.minorVersion() >= 72) stats["peak_memory_in_bytes"] = a.peak_memory_in_bytes;
  if (plugin.minorVersion() >= 90) stats["total_size_in_bytes"] = a.total_size_in_bytes;
  if (plugin.minorVersion() >= 104) {
    stats["total_allocation_bytes"] = a.total_allocation_bytes;
    stats["indefinite_allocations"] = a.indefinite_allocations;
    stats["peak_unpadded_heap_bytes"] = a.peak_unpadded_heap_bytes;
  }
  return stats;
}

std::map<std::string, double> costAnalysis(const Plugin& plugin, PJRT_Executable* executable) {
  std::map<std::string, double> cost;
  if (!TPJRT_HAS(plugin, PJRT_Executable_GetCostAnalysis)) return cost;
  auto args = TPJRT_ARGS(PJRT_Executable_GetCostAnalysis);
  args.executable = executable;
  Status status = TPJRT_TRY(plugin, PJRT_Executable_GetCostAnalysis, args);
  if (!status.ok) {
    if (status.code == PJRT_Error_Code_UNIMPLEMENTED) return cost;
    raise(status, "PJRT_Executable_GetCostAnalysis");
  }
  for (const NamedValue& v : readNamedValues(args.properties, args.num_properties)) {
    if (const auto* i = std::get_if<int64_t>(&v.value)) cost[v.name] = static_cast<double>(*i);
    else if (const auto* f = std::get_if<float>(&v.value)) cost[v.name] = *f;
    else if (const auto* b = std::get_if<bool>(&v.value)) cost[v.name] = *b ? 1.0 : 0.0;
  }
  return cost;
}

std::string serialize(const Plugin& plugin, PJRT_Executable* executable) {
  auto args = TPJRT_ARGS(PJRT_Executable_Serialize);
  args.executable = executable;
  TPJRT_CALL(plugin, PJRT_Executable_Serialize, args);
  std::string bytes = copyString(args.serialized_bytes, args.serialized_bytes_size);
  if (args.serialized_executable_deleter != nullptr) args.serialized_executable_deleter(args.serialized_executable);
  return bytes;
}

void destroyExecutable(const Plugin& plugin, PJRT_Executable* executable) {
  if (executable == nullptr || !TPJRT_HAS(plugin, PJRT_Executable_Destroy)) return;
  auto args = TPJRT_ARGS(PJRT_Executable_Destroy);
  args.executable = executable;
  takeError(plugin, plugin.api()->PJRT_Executable_Destroy(&args));
}

}  // namespace tpjrt::detail
