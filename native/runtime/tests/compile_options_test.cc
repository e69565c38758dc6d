// The hand-encoded xla.CompileOptionsProto bytes.
#include "check.h"
#include "compile_options.h"

using tpjrt::CompileOptions;
using tpjrt::encodeCompileOptions;

static std::string hex(const std::string& bytes) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    if (!out.empty()) out += ' ';
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out;
}

TEST(single_device_matches_the_bytes_verified_on_xla_cpu) {
  CompileOptions options;
  options.deviceAssignment = {0};
  CHECK_EQ(hex(encodeCompileOptions(options)),
           std::string("1a 19 08 ff ff ff ff ff ff ff ff ff 01 20 01 28 01 4a 08 08 01 10 01 1a 02 08 00"));
  CHECK_EQ(encodeCompileOptions(options).size(), size_t{27});
}

TEST(without_assignment_only_counts_are_sent) {
  CompileOptions options;
  CHECK_EQ(hex(encodeCompileOptions(options)), std::string("1a 0f 08 ff ff ff ff ff ff ff ff ff 01 20 01 28 01"));
}

TEST(partitions_turn_on_spmd_and_lengths_follow_large_ids) {
  CompileOptions options;
  options.numPartitions = 2;
  options.deviceAssignment = {3, 200};  // 200 needs a two-byte varint
  CHECK_EQ(hex(encodeCompileOptions(options)),
           std::string("1a 20 08 ff ff ff ff ff ff ff ff ff 01 20 01 28 02 30 01 4a 0d 08 01 10 02 1a 02 08 03 1a 03 "
                       "08 c8 01"));
}

TEST(replicas_list_one_computation_with_every_replica) {
  CompileOptions options;
  options.numReplicas = 2;
  options.deviceAssignment = {3, 4};
  CHECK_EQ(hex(encodeCompileOptions(options)),
           std::string("1a 1b 08 ff ff ff ff ff ff ff ff ff 01 20 02 28 01 4a 0a 08 02 10 01 1a 04 08 03 08 04"));
}

TEST(bad_options_are_usage_errors) {
  CompileOptions zero;
  zero.numReplicas = 0;
  CHECK_THROWS(encodeCompileOptions(zero), "at least 1");
  CompileOptions mismatch;
  mismatch.numPartitions = 2;
  mismatch.deviceAssignment = {0};
  CHECK_THROWS(encodeCompileOptions(mismatch), "deviceAssignment has 1 entries");
  try {
    encodeCompileOptions(zero);
  } catch (const tpjrt::RuntimeError& e) {
    CHECK_EQ(e.code(), tpjrt::kUsageError);
  }
}

TEST_MAIN()
