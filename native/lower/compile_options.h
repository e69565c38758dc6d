// Hand-encodes an xla.CompileOptionsProto (the `compile_options` bytes of PJRT_Client_Compile and
// PJRT_Compile) from our CompileOptions. Only executable_build_options is written: device_ordinal
// -1, num_replicas, num_partitions, use_spmd_partitioning when partitioned, and the device
// assignment when one is given. debug_options is never sent (a partial one would zero the
// plugin's defaults), and the result is never empty (empty options abort XLA-based plugins).
#pragma once

#include <string>

#include "runtime.h"

namespace tpjrt {

// Throws RuntimeError(kUsageError) for counts below 1 or an assignment whose size is not
// numReplicas * numPartitions (an empty assignment is left for the plugin to choose).
std::string encodeCompileOptions(const CompileOptions& options);

}  // namespace tpjrt
