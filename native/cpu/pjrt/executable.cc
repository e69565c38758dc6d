// Compiled programs, loading them on a device, and the PJRT_Executable_* / PJRT_LoadedExecutable_*
// queries (everything about executables except compiling, serializing and running them).
#include "pjrt/executable.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "exec/plan.h"
#include "ir/element_type.h"
#include "ir/stablehlo.h"
#include "pjrt/error.h"
#include "pjrt/slots.h"
#include "pjrt/types.h"

namespace tpjrt::cpu {
namespace {

std::string fingerprintOf(const std::string& text) {
  uint64_t hash = 0xcbf29ce484222325ull;  // FNV-1a, 64 bits
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 0x100000001b3ull;
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
  return hex;
}

// The module's symbol name: generic form keeps it in attrs["sym_name"]; the pretty form's
// `module @name` is read from the text.
std::string moduleName(const Module& module, const std::string& text) {
  auto it = module.attrs.find("sym_name");
  if (it != module.attrs.end() && it->second->kind == Attribute::Kind::String && !it->second->s.empty())
    return it->second->s;
  size_t at = text.find("module @");
  if (at != std::string::npos) {
    size_t begin = at + 8, end = begin;
    while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_' ||
                                 text[end] == '.' || text[end] == '$' || text[end] == '-'))
      ++end;
    if (end > begin) return text.substr(begin, end - begin);
  }
  return "main";
}

int64_t bytesOf(const std::vector<TensorType>& types) {
  int64_t total = 0;
  for (const auto& t : types) total += numElements(t) * int64_t(byteWidth(t.element));
  return total;
}

// About how many element operations a run inline may cost: a few microseconds of the caller's thread.
constexpr double kInlineWork = 1 << 14;

double elementsOf(const std::vector<TensorType>& types) {
  double n = 0;
  for (const TensorType& t : types) n += double(numElements(t));
  return n;
}

// An estimate of a region's element operations; infinity for what has no bound known before it runs
// (loops, calls). A product counts sqrt(lhs · rhs · result), m·n·k for a plain matrix product.
double workOf(const Region& region) {
  double work = 0;
  for (const Op& op : region.ops) {
    if (op.name == "stablehlo.while" || op.name == "func.call") return INFINITY;
    double in = elementsOf(op.operandTypes), out = elementsOf(op.resultTypes);
    double cost = std::max(in, out);
    if ((op.name == "stablehlo.dot_general" || op.name == "stablehlo.convolution") && op.operandTypes.size() == 2)
      cost = std::sqrt(double(numElements(op.operandTypes[0])) * double(numElements(op.operandTypes[1])) * out);
    for (const Region& inner : op.regions) cost += workOf(inner) * std::max(in, 1.0);
    work += cost;
  }
  return work;
}

// main's `tf.aliasing_output` argument attributes, checked as XLA checks them when it compiles.
void readAliases(CompiledProgram& program) {
  const Function& f = program.main();
  std::vector<int> parameterOf(f.resultTypes.size(), -1);
  for (size_t i = 0; i < f.argAttrs.size(); ++i) {
    auto it = f.argAttrs[i].find("tf.aliasing_output");
    if (it == f.argAttrs[i].end()) continue;
    const Attribute& attr = *it->second;
    const TensorType& type = f.body.argTypes[i];
    std::string where = "main's argument " + std::to_string(i) + " (" + typeString(type) + "): tf.aliasing_output";
    if (attr.kind != Attribute::Kind::Int) fail(where + " must be an integer (the index of a result)");
    if (attr.i < 0 || attr.i >= int64_t(f.resultTypes.size()))
      fail(where + " is " + std::to_string(attr.i) + " but main has " + std::to_string(f.resultTypes.size()) +
           " results");
    size_t k = size_t(attr.i);
    if (f.resultTypes[k] != type)
      fail(where + " names result " + std::to_string(k) + ", of type " + typeString(f.resultTypes[k]) +
           "; an argument can become only a result of its own type");
    if (parameterOf[k] >= 0)
      fail(where + " names result " + std::to_string(k) + ", which argument " + std::to_string(parameterOf[k]) +
           " already aliases");
    parameterOf[k] = int(i);
    if (program.aliasedOutput.empty()) program.aliasedOutput.assign(f.body.argTypes.size(), -1);
    program.aliasedOutput[i] = int(k);
    program.aliasBytes += numElements(type) * int64_t(byteWidth(type.element));
  }
}

}  // namespace

std::shared_ptr<const CompiledProgram> compileProgram(std::string text, std::string optionsBytes) {
  auto program = std::make_shared<CompiledProgram>();
  program->options = readCompileOptions(optionsBytes.data(), optionsBytes.size());
  program->optionsBytes = std::move(optionsBytes);
  program->text = std::move(text);
  program->module = parseModule(program->text);
  verifyModule(program->module);
  const auto& functions = program->module.functions;
  size_t main = 0;
  while (main < functions.size() && functions[main].name != "main") ++main;
  if (main == functions.size()) fail("the module has no function named main");
  program->mainIndex = main;
  program->name = moduleName(program->module, program->text);
  program->fingerprint = fingerprintOf(program->text);
  const Function& f = program->main();
  for (const auto& t : f.resultTypes) {
    program->outputTypes.push_back(bufferTypeOf(t.element));
    program->outputDims.insert(program->outputDims.end(), t.dims.begin(), t.dims.end());
    program->outputRanks.push_back(t.dims.size());
  }
  program->outputMemoryKinds.assign(f.resultTypes.size(), kMemoryKind);
  program->outputMemoryKindSizes.assign(f.resultTypes.size(), sizeof(kMemoryKind) - 1);
  program->parameterMemoryKinds.assign(f.body.argTypes.size(), kMemoryKind);
  program->parameterMemoryKindSizes.assign(f.body.argTypes.size(), sizeof(kMemoryKind) - 1);
  program->argumentBytes = bytesOf(f.body.argTypes);
  program->outputBytes = bytesOf(f.resultTypes);
  readAliases(*program);
  f.body.plan.get([&] { return planRegion(f.body); });  // kernels, fused groups and scratch slots, once
  program->runsInline = workOf(f.body) <= kInlineWork;
  return program;
}

PJRT_LoadedExecutable* loadProgram(const std::shared_ptr<ClientState>& client,
                                   std::shared_ptr<const CompiledProgram> program) {
  const CompileOptions& options = program->options;
  if (options.numReplicas * options.numPartitions != 1)
    failUnimplemented("the torch-pjrt cpu plugin runs one replica and one partition for now (got num_replicas=" +
                      std::to_string(options.numReplicas) +
                      ", num_partitions=" + std::to_string(options.numPartitions) + ")");
  std::string lastId = std::to_string(client->deviceList.size() - 1);
  PJRT_Device* device = client->deviceList.front();
  if (!options.deviceAssignment.empty()) {
    if (options.deviceAssignment.size() != 1)
      fail("device_assignment lists " + std::to_string(options.deviceAssignment.size()) +
           " devices but the program has one replica and one partition");
    device = client->deviceById(options.deviceAssignment[0]);
    if (!device)
      fail("device_assignment names device " + std::to_string(options.deviceAssignment[0]) +
           " but this client has devices 0.." + lastId);
  } else if (options.deviceOrdinal >= 0) {
    device = client->deviceById(options.deviceOrdinal);
    if (!device)
      fail("device_ordinal is " + std::to_string(options.deviceOrdinal) + " but this client has devices 0.." + lastId);
  }
  auto loaded = std::make_unique<PJRT_LoadedExecutable>();
  loaded->client = client;
  loaded->program = std::move(program);
  loaded->devices[0] = device;
  return loaded.release();
}

namespace {

const CompiledProgram& programOf(const PJRT_Executable* executable) {
  requireNonNull(executable, "executable");
  return *executable->program;
}

PJRT_LoadedExecutable& loadedOf(PJRT_LoadedExecutable* executable) {
  requireNonNull(executable, "executable");
  return *executable;
}

PJRT_Error* executableDestroy(PJRT_Executable_Destroy_Args* args) {
  return guarded("PJRT_Executable_Destroy", [&] {
    TPJRT_CHECK_ARGS(PJRT_Executable_Destroy_Args, args, executable);
    delete args->executable;
  });
}

PJRT_Error* executableName(PJRT_Executable_Name_Args* args) {
  return guarded("PJRT_Executable_Name", [&] {
    TPJRT_CHECK_ARGS(PJRT_Executable_Name_Args, args, executable_name_size);
    const CompiledProgram& program = programOf(args->executable);
    args->executable_name = program.name.data();
    args->executable_name_size = program.name.size();
  });
}

PJRT_Error* executableNumReplicas(PJRT_Executable_NumReplicas_Args* args) {
  return guarded("PJRT_Executable_NumReplicas", [&] {
    TPJRT_CHECK_ARGS(PJRT_Executable_NumReplicas_Args, args, num_replicas);
    args->num_replicas = size_t(programOf(args->executable).options.numReplicas);
  });
}

PJRT_Error* executableNumPartitions(PJRT_Executable_NumPartitions_Args* args) {
  return guarded("PJRT_Executable_NumPartitions", [&] {
    TPJRT_CHECK_ARGS(PJRT_Executable_NumPartitions_Args, args, num_partitions);
    args->num_partitions = size_t(programOf(args->executable).options.numPartitions);
  });
}

PJRT_Error* executableNumOutputs(PJRT_Executable_NumOutputs_Args* args) {
  return guarded("PJRT_Executable_NumOutputs", [&] {
    TPJRT_CHECK_ARGS(PJRT_Executable_NumOutputs_Args, args, num_outputs);
    args->num_outputs = programOf(args->executable).outputTypes.size();
  });
}

PJRT_Error* executableSizeOfGeneratedCode(PJRT_Executable_SizeOfGeneratedCodeInBytes_Args* args) {
  return guarded("PJRT_Executable_SizeOfGeneratedCodeInBytes", [&] {
    TPJRT_CHECK_ARGS(PJRT_Executable_SizeOfGeneratedCodeInBytes_Args, args, size_in_bytes);
    args->size_in_bytes = int64_t(programOf(args->executable).text.size());
  });
}

PJRT_Error* executableGetCostAnalysis(PJRT_Executable_GetCostAnalysis_Args* args) {
  return guarded("PJRT_Executable_GetCostAnalysis", [&] {
    TPJRT_CHECK_ARGS(PJRT_Executable_GetCostAnalysis_Args, args, properties);
    programOf(args->executable);
    args->num_properties = 0;
    args->properties = nullptr;
  });
}

PJRT_Error* executableOutputMemoryKinds(PJRT_Executable_OutputMemoryKinds_Args* args) {
  return guarded("PJRT_Executable_OutputMemoryKinds", [&] {
    TPJRT_CHECK_ARGS(PJRT_Executable_OutputMemoryKinds_Args, args, memory_kind_sizes);
    const CompiledProgram& program = programOf(args->executable);
    args->num_outputs = program.outputMemoryKinds.size();
    args->memory_kinds = program.outputMemoryKinds.data();
    args->memory_kind_sizes = program.outputMemoryKindSizes.data();
  });
}

PJRT_Error* executableParameterMemoryKinds(PJRT_Executable_ParameterMemoryKinds_Args* args) {
  return guarded("PJRT_Executable_ParameterMemoryKinds", [&] {
    TPJRT_CHECK_ARGS(PJRT_Executable_ParameterMemoryKinds_Args, args, memory_kind_sizes);
    const CompiledProgram& program = programOf(args->executable);
    args->num_parameters = program.parameterMemoryKinds.size();
    args->memory_kinds = program.parameterMemoryKinds.data();
    args->memory_kind_sizes = program.parameterMemoryKindSizes.data();
  });
}

// The plugin runs the program as compiled, so the "optimized" program is the StableHLO text itself.
PJRT_Error* executableOptimizedProgram(PJRT_Executable_OptimizedProgram_Args* args) {
  return guarded("PJRT_Executable_OptimizedProgram", [&] {
    TPJRT_CHECK_ARGS(PJRT_Executable_OptimizedProgram_Args, args, program);
    const CompiledProgram& program = programOf(args->executable);
    PJRT_Program* out = args->program;
    TPJRT_CHECK_ARGS(PJRT_Program, out, format_size);
    static const char kFormat[] = "mlir";
    out->format = kFormat;
    out->format_size = sizeof(kFormat) - 1;
    if (!out->code) {
      out->code_size = program.text.size();
      return;
    }
    if (out->code_size < program.text.size())
      fail("program->code_size is " + std::to_string(out->code_size) + " but the program needs " +
           std::to_string(program.text.size()) + " bytes");
    std::memcpy(out->code, program.text.data(), program.text.size());
    out->code_size = program.text.size();
  });
}

PJRT_Error* executableFingerprint(PJRT_Executable_Fingerprint_Args* args) {
  return guarded("PJRT_Executable_Fingerprint", [&] {
    TPJRT_CHECK_ARGS(PJRT_Executable_Fingerprint_Args, args, executable_fingerprint_size);
    const CompiledProgram& program = programOf(args->executable);
    args->executable_fingerprint = program.fingerprint.data();
    args->executable_fingerprint_size = program.fingerprint.size();
  });
}

// Fields after the mandatory ones are written only where the caller's (older) struct reaches.
PJRT_Error* executableGetCompiledMemoryStats(PJRT_Executable_GetCompiledMemoryStats_Args* args) {
  return guarded("PJRT_Executable_GetCompiledMemoryStats", [&] {
    using Args = PJRT_Executable_GetCompiledMemoryStats_Args;
    TPJRT_CHECK_ARGS(Args, args, host_temp_size_in_bytes);
    const CompiledProgram& program = programOf(args->executable);
    args->generated_code_size_in_bytes = int64_t(program.text.size());
    args->argument_size_in_bytes = program.argumentBytes;
    args->output_size_in_bytes = program.outputBytes;
    args->alias_size_in_bytes = program.aliasBytes;
    args->temp_size_in_bytes = 0;
    args->host_generated_code_size_in_bytes = 0;
    args->host_argument_size_in_bytes = 0;
    args->host_output_size_in_bytes = 0;
    args->host_alias_size_in_bytes = 0;
    args->host_temp_size_in_bytes = 0;
    const int64_t total = program.argumentBytes + program.outputBytes - program.aliasBytes;
    if (TPJRT_HAS_FIELD(Args, args, peak_memory_in_bytes)) args->peak_memory_in_bytes = total;
    if (TPJRT_HAS_FIELD(Args, args, total_size_in_bytes)) args->total_size_in_bytes = total;
    if (TPJRT_HAS_FIELD(Args, args, peak_unpadded_heap_bytes)) {
      args->total_allocation_bytes = total;
      args->indefinite_allocations = 0;
      args->peak_unpadded_heap_bytes = 0;
    }
  });
}

PJRT_Error* executableOutputElementTypes(PJRT_Executable_OutputElementTypes_Args* args) {
  return guarded("PJRT_Executable_OutputElementTypes", [&] {
    TPJRT_CHECK_ARGS(PJRT_Executable_OutputElementTypes_Args, args, num_output_types);
    const CompiledProgram& program = programOf(args->executable);
    args->output_types = const_cast<PJRT_Buffer_Type*>(program.outputTypes.data());
    args->num_output_types = program.outputTypes.size();
  });
}

PJRT_Error* executableOutputDimensions(PJRT_Executable_OutputDimensions_Args* args) {
  return guarded("PJRT_Executable_OutputDimensions", [&] {
    TPJRT_CHECK_ARGS(PJRT_Executable_OutputDimensions_Args, args, dim_sizes);
    const CompiledProgram& program = programOf(args->executable);
    args->num_outputs = program.outputRanks.size();
    args->dims = program.outputDims.data();
    args->dim_sizes = program.outputRanks.data();
  });
}

PJRT_Error* loadedDestroy(PJRT_LoadedExecutable_Destroy_Args* args) {
  return guarded("PJRT_LoadedExecutable_Destroy", [&] {
    TPJRT_CHECK_ARGS(PJRT_LoadedExecutable_Destroy_Args, args, executable);
    delete args->executable;
  });
}

PJRT_Error* loadedDelete(PJRT_LoadedExecutable_Delete_Args* args) {
  return guarded("PJRT_LoadedExecutable_Delete", [&] {
    TPJRT_CHECK_ARGS(PJRT_LoadedExecutable_Delete_Args, args, executable);
    loadedOf(args->executable).deleted = true;
  });
}

PJRT_Error* loadedIsDeleted(PJRT_LoadedExecutable_IsDeleted_Args* args) {
  return guarded("PJRT_LoadedExecutable_IsDeleted", [&] {
    TPJRT_CHECK_ARGS(PJRT_LoadedExecutable_IsDeleted_Args, args, is_deleted);
    args->is_deleted = loadedOf(args->executable).deleted;
  });
}

PJRT_Error* loadedGetExecutable(PJRT_LoadedExecutable_GetExecutable_Args* args) {
  return guarded("PJRT_LoadedExecutable_GetExecutable", [&] {
    TPJRT_CHECK_ARGS(PJRT_LoadedExecutable_GetExecutable_Args, args, executable);
    PJRT_LoadedExecutable& loaded = loadedOf(args->loaded_executable);
    args->executable = new PJRT_Executable{loaded.program};
  });
}

PJRT_Error* loadedAddressableDevices(PJRT_LoadedExecutable_AddressableDevices_Args* args) {
  return guarded("PJRT_LoadedExecutable_AddressableDevices", [&] {
    TPJRT_CHECK_ARGS(PJRT_LoadedExecutable_AddressableDevices_Args, args, num_addressable_devices);
    PJRT_LoadedExecutable& loaded = loadedOf(args->executable);
    args->addressable_devices = loaded.devices;
    args->num_addressable_devices = 1;
  });
}

PJRT_Error* loadedAddressableDeviceLogicalIds(PJRT_LoadedExecutable_AddressableDeviceLogicalIds_Args* args) {
  return guarded("PJRT_LoadedExecutable_AddressableDeviceLogicalIds", [&] {
    TPJRT_CHECK_ARGS(PJRT_LoadedExecutable_AddressableDeviceLogicalIds_Args, args, num_addressable_device_logical_ids);
    loadedOf(args->executable);
    static PJRT_LogicalDeviceIds onlyDevice{0, 0};
    args->addressable_device_logical_ids = &onlyDevice;
    args->num_addressable_device_logical_ids = 1;
  });
}

PJRT_Error* loadedFingerprint(PJRT_LoadedExecutable_Fingerprint_Args* args) {
  return guarded("PJRT_LoadedExecutable_Fingerprint", [&] {
    TPJRT_CHECK_ARGS(PJRT_LoadedExecutable_Fingerprint_Args, args, executable_fingerprint_size);
    const CompiledProgram& program = *loadedOf(args->executable).program;
    args->executable_fingerprint = program.fingerprint.data();
    args->executable_fingerprint_size = program.fingerprint.size();
  });
}

}  // namespace

void fillExecutableSlots(PJRT_Api& api) {
  api.PJRT_Executable_Destroy = executableDestroy;
  api.PJRT_Executable_Name = executableName;
  api.PJRT_Executable_NumReplicas = executableNumReplicas;
  api.PJRT_Executable_NumPartitions = executableNumPartitions;
  api.PJRT_Executable_NumOutputs = executableNumOutputs;
  api.PJRT_Executable_SizeOfGeneratedCodeInBytes = executableSizeOfGeneratedCode;
  api.PJRT_Executable_GetCostAnalysis = executableGetCostAnalysis;
  api.PJRT_Executable_OutputMemoryKinds = executableOutputMemoryKinds;
  api.PJRT_Executable_ParameterMemoryKinds = executableParameterMemoryKinds;
  api.PJRT_Executable_OptimizedProgram = executableOptimizedProgram;
  api.PJRT_Executable_Fingerprint = executableFingerprint;
  api.PJRT_Executable_GetCompiledMemoryStats = executableGetCompiledMemoryStats;
  api.PJRT_Executable_OutputElementTypes = executableOutputElementTypes;
  api.PJRT_Executable_OutputDimensions = executableOutputDimensions;
  api.PJRT_LoadedExecutable_Destroy = loadedDestroy;
  api.PJRT_LoadedExecutable_Delete = loadedDelete;
  api.PJRT_LoadedExecutable_IsDeleted = loadedIsDeleted;
  api.PJRT_LoadedExecutable_GetExecutable = loadedGetExecutable;
  api.PJRT_LoadedExecutable_AddressableDevices = loadedAddressableDevices;
  api.PJRT_LoadedExecutable_AddressableDeviceLogicalIds = loadedAddressableDeviceLogicalIds;
  api.PJRT_LoadedExecutable_Fingerprint = loadedFingerprint;
}

}  // namespace tpjrt::cpu
