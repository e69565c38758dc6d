// Decodes the serialized xla.CompileOptionsProto that PJRT_Client_Compile receives: only the fields
// the CPU plugin acts on are kept, every other field is skipped. Malformed bytes throw CpuError
// (InvalidArgument).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tpjrt::cpu {

struct CompileOptions {
  int64_t numReplicas = 1;    // a proto value of 0 (unset) reads as 1
  int64_t numPartitions = 1;  // likewise
  int64_t deviceOrdinal = 0;  // proto3: an absent field reads 0; callers send -1 for "unset"
  bool compilePortable = false;
  // From ExecutableBuildOptionsProto.device_assignment, replica-major (index r * partitions + p);
  // empty when the proto carries none.
  std::vector<int64_t> deviceAssignment;
  int64_t assignmentReplicas = 0;
  int64_t assignmentPartitions = 0;
};

CompileOptions readCompileOptions(const void* bytes, size_t size);

}  // namespace tpjrt::cpu
