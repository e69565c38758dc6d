// Ops a fused group runs by element position rather than element by element: broadcast_in_dim (each
// result element reads the operand element its index maps to) and iota (each element is its index
// along one dimension). Each writes any range [offset, offset + n) of its row-major result on its own,
// so a group can run them tile by tile like its element-wise ops.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "ir/ir.h"

namespace tpjrt::cpu {

struct PositionStep {
  enum class Kind : uint8_t { Broadcast, Iota };
  Kind kind = Kind::Broadcast;
  ElementType element = ElementType::F32;
  std::vector<int64_t> dims;     // the result's dims, neighbours merged where the mapping allows
  std::vector<int64_t> strides;  // Broadcast: operand element stride per dim (0 where broadcast)
  size_t iotaDim = 0;            // Iota: the dimension whose index is the value

  // Writes result elements [offset, offset + n) to `out`; `in` is the whole operand (Broadcast).
  void run(const uint8_t* in, int64_t offset, uint8_t* out, int64_t n) const;
  // Broadcast: the operand element that result element `offset` reads.
  int64_t sourceOf(int64_t offset) const;
};

// The step for `op` (a broadcast_in_dim or iota with one static result type), or nothing when the op
// is another op or its attributes do not describe a valid mapping (its own kernel then reports that).
std::optional<PositionStep> positionStepFor(const Op& op);

}  // namespace tpjrt::cpu
