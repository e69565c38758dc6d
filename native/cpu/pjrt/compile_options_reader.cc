#include "pjrt/compile_options_reader.h"

#include <string>

#include "base/error.h"

namespace tpjrt::cpu {
namespace {

enum WireType : int { kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kStartGroup = 3, kEndGroup = 4, kFixed32 = 5 };

// Reads one protobuf message (a byte range of the whole input); offsets in errors are from the start
// of the whole input so a caller can find the bad byte.
class WireReader {
 public:
  WireReader(const uint8_t* begin, const uint8_t* pos, const uint8_t* end) : begin_(begin), pos_(pos), end_(end) {}

  bool atEnd() const { return pos_ == end_; }

  uint64_t varint() {
    uint64_t value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos_ == end_) malformed("truncated varint");
      uint8_t byte = *pos_++;
      value |= uint64_t(byte & 0x7f) << shift;
      if (!(byte & 0x80)) return value;
    }
    malformed("varint longer than 10 bytes");
  }

  // Returns the field number; `wireType` receives the wire type.
  uint32_t tag(int& wireType) {
    uint64_t t = varint();
    wireType = int(t & 7);
    uint64_t field = t >> 3;
    if (field == 0 || field > 0x1fffffff) malformed("invalid field number " + std::to_string(field));
    if (wireType > kFixed32) malformed("invalid wire type " + std::to_string(wireType));
    return uint32_t(field);
  }

  WireReader message() {
    uint64_t length = varint();
    if (length > uint64_t(end_ - pos_)) malformed("length " + std::to_string(length) + " runs past the end");
    WireReader inner(begin_, pos_, pos_ + length);
    pos_ += length;
    return inner;
  }

  void skip(int wireType, uint32_t field) {
    switch (wireType) {
      case kVarint: varint(); return;
      case kFixed64: advance(8); return;
      case kFixed32: advance(4); return;
      case kLengthDelimited: message(); return;
      case kStartGroup: {
        for (;;) {
          if (atEnd()) malformed("unterminated group");
          int innerType = 0;
          uint32_t innerField = tag(innerType);
          if (innerType == kEndGroup) {
            if (innerField != field) malformed("mismatched end of group");
            return;
          }
          skip(innerType, innerField);
        }
      }
      default: malformed("unexpected end of group");
    }
  }

  [[noreturn]] void malformed(const std::string& what) const {
    fail("CompileOptionsProto is malformed: " + what + " at byte " + std::to_string(pos_ - begin_));
  }

 private:
  void advance(size_t n) {
    if (size_t(end_ - pos_) < n) malformed("truncated fixed-width field");
    pos_ += n;
  }

  const uint8_t* begin_;
  const uint8_t* pos_;
  const uint8_t* end_;
};

// Repeated scalar fields may arrive packed (one length-delimited run) or one value per tag.
void readRepeatedInt64(WireReader& r, int wireType, uint32_t field, std::vector<int64_t>& out) {
  if (wireType == kVarint) {
    out.push_back(int64_t(r.varint()));
  } else if (wireType == kLengthDelimited) {
    WireReader packed = r.message();
    while (!packed.atEnd()) out.push_back(int64_t(packed.varint()));
  } else {
    r.skip(wireType, field);
  }
}

struct RawAssignment {
  bool present = false;
  int64_t replicaCount = 0;
  int64_t computationCount = 0;
  std::vector<std::vector<int64_t>> computations;  // per partition: device id of each replica
};

void readComputationDevice(WireReader r, std::vector<int64_t>& replicaDeviceIds) {
  while (!r.atEnd()) {
    int type = 0;
    uint32_t field = r.tag(type);
    if (field == 1) readRepeatedInt64(r, type, field, replicaDeviceIds);
    else r.skip(type, field);
  }
}

void readDeviceAssignment(WireReader r, RawAssignment& a) {
  a.present = true;
  while (!r.atEnd()) {
    int type = 0;
    uint32_t field = r.tag(type);
    if (field == 1 && type == kVarint) a.replicaCount = int32_t(r.varint());
    else if (field == 2 && type == kVarint) a.computationCount = int32_t(r.varint());
    else if (field == 3 && type == kLengthDelimited) readComputationDevice(r.message(), a.computations.emplace_back());
    else r.skip(type, field);
  }
}

void readBuildOptions(WireReader r, CompileOptions& options, RawAssignment& assignment) {
  while (!r.atEnd()) {
    int type = 0;
    uint32_t field = r.tag(type);
    if (field == 1 && type == kVarint) options.deviceOrdinal = int64_t(r.varint());
    else if (field == 4 && type == kVarint) options.numReplicas = int64_t(r.varint());
    else if (field == 5 && type == kVarint) options.numPartitions = int64_t(r.varint());
    else if (field == 9 && type == kLengthDelimited) readDeviceAssignment(r.message(), assignment);
    else r.skip(type, field);
  }
}

// Flattens the per-partition lists into replica-major order after checking they form a full grid.
void flattenAssignment(const RawAssignment& a, CompileOptions& options) {
  int64_t partitions = int64_t(a.computations.size());
  if (a.computationCount != 0 && a.computationCount != partitions)
    fail("CompileOptionsProto: device_assignment has computation_count " + std::to_string(a.computationCount) +
         " but lists " + std::to_string(partitions) + " computations");
  if (partitions == 0) return;
  int64_t replicas = int64_t(a.computations[0].size());
  for (size_t p = 0; p < a.computations.size(); ++p)
    if (int64_t(a.computations[p].size()) != replicas)
      fail("CompileOptionsProto: device_assignment computation " + std::to_string(p) + " lists " +
           std::to_string(a.computations[p].size()) + " devices but computation 0 lists " + std::to_string(replicas));
  if (a.replicaCount != 0 && a.replicaCount != replicas)
    fail("CompileOptionsProto: device_assignment has replica_count " + std::to_string(a.replicaCount) +
         " but each computation lists " + std::to_string(replicas) + " devices");
  options.assignmentReplicas = replicas;
  options.assignmentPartitions = partitions;
  for (int64_t r = 0; r < replicas; ++r)
    for (int64_t p = 0; p < partitions; ++p) options.deviceAssignment.push_back(a.computations[p][r]);
}

}  // namespace

CompileOptions readCompileOptions(const void* bytes, size_t size) {
  CompileOptions options;
  options.numReplicas = 0;
  options.numPartitions = 0;
  RawAssignment assignment;
  const auto* begin = static_cast<const uint8_t*>(bytes);
  if (size > 0 && !begin) fail("CompileOptionsProto: bytes are NULL but size is " + std::to_string(size));
  WireReader r(begin, begin, begin + size);
  while (!r.atEnd()) {
    int type = 0;
    uint32_t field = r.tag(type);
    if (field == 3 && type == kLengthDelimited) readBuildOptions(r.message(), options, assignment);
    else if (field == 4 && type == kVarint) options.compilePortable = r.varint() != 0;
    else r.skip(type, field);
  }
  if (options.numReplicas < 0 || options.numPartitions < 0)
    fail("CompileOptionsProto: num_replicas " + std::to_string(options.numReplicas) + " and num_partitions " +
         std::to_string(options.numPartitions) + " must not be negative");
  if (options.numReplicas == 0) options.numReplicas = 1;
  if (options.numPartitions == 0) options.numPartitions = 1;
  if (assignment.present) flattenAssignment(assignment, options);
  return options;
}

}  // namespace tpjrt::cpu
