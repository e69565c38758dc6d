#include "compile_options.h"

#include <cstdint>

namespace tpjrt {
namespace {

// Protobuf wire types.
constexpr int kVarint = 0;
constexpr int kLengthDelimited = 2;

// Field numbers: CompileOptionsProto, ExecutableBuildOptionsProto, DeviceAssignmentProto and its
// ComputationDevice (xla/pjrt/proto/compile_options.proto, xla/xla_data.proto).
constexpr int kExecutableBuildOptions = 3;
constexpr int kDeviceOrdinal = 1;
constexpr int kNumReplicas = 4;
constexpr int kNumPartitions = 5;
constexpr int kUseSpmdPartitioning = 6;
constexpr int kDeviceAssignment = 9;
constexpr int kReplicaCount = 1;
constexpr int kComputationCount = 2;
constexpr int kComputationDevices = 3;
constexpr int kReplicaDeviceIds = 1;

void putVarint(std::string& out, uint64_t value) {
  while (value >= 0x80) {
    out.push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<char>(value));
}

void putTag(std::string& out, int field, int wireType) { putVarint(out, (static_cast<uint64_t>(field) << 3) | wireType); }

// Negative int64/int32 values are sent as their 64-bit two's complement (10 bytes).
void putInt(std::string& out, int field, int64_t value) {
  putTag(out, field, kVarint);
  putVarint(out, static_cast<uint64_t>(value));
}

void putMessage(std::string& out, int field, const std::string& body) {
  putTag(out, field, kLengthDelimited);
  putVarint(out, body.size());
  out += body;
}

// device(r, p) = computation_devices[p].replica_device_ids[r]; `ids` is replica-major.
std::string encodeDeviceAssignment(const CompileOptions& options) {
  std::string out;
  putInt(out, kReplicaCount, options.numReplicas);
  putInt(out, kComputationCount, options.numPartitions);
  for (int p = 0; p < options.numPartitions; ++p) {
    std::string computation;
    for (int r = 0; r < options.numReplicas; ++r)
      putInt(computation, kReplicaDeviceIds, options.deviceAssignment[static_cast<size_t>(r) * options.numPartitions + p]);
    putMessage(out, kComputationDevices, computation);
  }
  return out;
}

void validate(const CompileOptions& options) {
  if (options.numReplicas < 1 || options.numPartitions < 1)
    throw RuntimeError(kUsageError, "encodeCompileOptions",
                       "numReplicas and numPartitions must be at least 1 (got " + std::to_string(options.numReplicas) +
                           " and " + std::to_string(options.numPartitions) + ")");
  size_t expected = static_cast<size_t>(options.numReplicas) * static_cast<size_t>(options.numPartitions);
  if (!options.deviceAssignment.empty() && options.deviceAssignment.size() != expected)
    throw RuntimeError(kUsageError, "encodeCompileOptions",
                       "deviceAssignment has " + std::to_string(options.deviceAssignment.size()) +
                           " entries; numReplicas * numPartitions is " + std::to_string(expected));
}

}  // namespace

std::string encodeCompileOptions(const CompileOptions& options) {
  validate(options);
  std::string build;
  putInt(build, kDeviceOrdinal, -1);
  putInt(build, kNumReplicas, options.numReplicas);
  putInt(build, kNumPartitions, options.numPartitions);
  if (options.numPartitions > 1) putInt(build, kUseSpmdPartitioning, 1);
  if (!options.deviceAssignment.empty()) putMessage(build, kDeviceAssignment, encodeDeviceAssignment(options));
  std::string out;
  putMessage(out, kExecutableBuildOptions, build);
  return out;
}

}  // namespace tpjrt
